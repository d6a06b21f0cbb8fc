//! Talking to a registry (`oci-client`): publish a component, resolve a
//! reference to its manifest and component digests, pull a component into
//! the [`Store`]. Only `publish`, `pull` and `lock` get here; `run` never does.
//!
//! Bounded: connecting takes at most [`CONNECT_TIMEOUT`], any read
//! [`READ_TIMEOUT`], a whole operation [`OP_TIMEOUT`]; a manifest over
//! [`MANIFEST_CAP`] or a component over the component cap
//! ([`caps::COMPONENT`], as for a local file) is refused, the component
//! before it is downloaded (by the manifest's size, then by counting).
//! Plain http is used only for a registry on this machine
//! ([`OciRef::is_loopback`]); every other registry is https (rustls).

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::StreamExt;
use oci_client::client::{ClientConfig, ClientProtocol, ImageLayer};
use oci_client::manifest::{OciDescriptor, OciImageManifest, OCI_IMAGE_MEDIA_TYPE};
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, Reference, RegistryOperation};

use super::auth::{self, Credentials};
use super::{
    component_layer, sha256_digest, valid_digest, OciRef, Store, Target, CONFIG_MEDIA_TYPE,
    LAYER_MEDIA_TYPE, MANIFEST_CAP,
};
use crate::atomic;
use crate::fsread::caps;

/// How long connecting to a registry may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a registry may go without sending anything.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one publish, resolve or pull may take altogether.
pub const OP_TIMEOUT: Duration = Duration::from_secs(300);

/// What a reference resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The manifest digest.
    pub manifest: String,
    /// The component layer's digest.
    pub component: String,
    /// The component's size.
    pub size: u64,
}

/// A client for the registry of one reference, with its credentials.
pub struct Registry {
    client: Client,
    /// The manifest's own GET, read up to [`MANIFEST_CAP`] ([`Registry::manifest`]).
    http: reqwest::Client,
    /// `http` or `https`, as `client` speaks to this registry.
    scheme: &'static str,
    auth: RegistryAuth,
    reference: OciRef,
    /// Notes about credentials (a helper not run, a broken file).
    pub notes: Vec<String>,
}

impl Registry {
    /// A client for `reference`'s registry: https unless the registry is
    /// on this machine, credentials from the usual files ([`auth`]).
    pub fn new(reference: &OciRef) -> Registry {
        // reqwest is built without a TLS provider of its own: ring, the one
        // ureq already uses, so there is one TLS stack. Installing twice is
        // harmless (the first one stays).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let (protocol, scheme) = if reference.is_loopback() {
            let only = ClientProtocol::HttpsExcept(vec![reference.registry.clone()]);
            (only, "http")
        } else {
            (ClientProtocol::Https, "https")
        };
        let user_agent = concat!("agenthooks/", env!("CARGO_PKG_VERSION"));
        // The same limits as the client's; no proxy from the environment,
        // which the client does not read either.
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(READ_TIMEOUT)
            .user_agent(user_agent)
            .no_proxy()
            .build()
            .unwrap_or_default();
        let config = ClientConfig {
            protocol,
            connect_timeout: Some(CONNECT_TIMEOUT),
            read_timeout: Some(READ_TIMEOUT),
            user_agent,
            // A component is one platform-independent artifact: an index is refused.
            platform_resolver: None,
            ..ClientConfig::default()
        };
        let (credentials, notes) = auth::for_registry(&reference.registry);
        let auth = match credentials {
            Credentials::Anonymous => RegistryAuth::Anonymous,
            Credentials::Basic { user, password } => RegistryAuth::Basic(user, password),
        };
        Registry {
            client: Client::new(config),
            http,
            scheme,
            auth,
            reference: reference.clone(),
            notes,
        }
    }

    fn oci_reference(&self, target: &Target) -> Reference {
        let (registry, repository) = (
            self.reference.registry.clone(),
            self.reference.repository.clone(),
        );
        match target {
            Target::Tag(tag) => Reference::with_tag(registry, repository, tag.clone()),
            Target::Digest(digest) => Reference::with_digest(registry, repository, digest.clone()),
        }
    }

    /// Push the component at `path` under this reference's tag (or by
    /// digest alone); returns what it resolves to now.
    ///
    /// # Errors
    /// One line: the file is not a component, too large, or the registry refused.
    pub async fn publish(&self, path: &Path) -> Result<Resolved, String> {
        let bytes = read_component(path)?;
        let component = sha256_digest(&bytes);
        let config =
            format!(r#"{{"architecture":"wasm","os":"wasip2","layerDigests":["{component}"]}}"#);
        let mut manifest = OciImageManifest::build(
            &[ImageLayer::new(
                bytes.clone(),
                LAYER_MEDIA_TYPE.into(),
                None,
            )],
            &oci_client::client::Config::new(
                config.clone().into_bytes(),
                CONFIG_MEDIA_TYPE.into(),
                None,
            ),
            None,
        );
        manifest.media_type = Some(OCI_IMAGE_MEDIA_TYPE.into());
        let manifest_bytes = serde_json::to_vec(&manifest).map_err(|e| e.to_string())?;
        let manifest_digest = sha256_digest(&manifest_bytes);
        let target = match &self.reference.target {
            Target::Tag(tag) => Target::Tag(tag.clone()),
            Target::Digest(digest) if *digest == manifest_digest => Target::Digest(digest.clone()),
            Target::Digest(digest) => {
                return Err(format!(
                    "`{}` names the digest {digest}, but this component's manifest is {manifest_digest}; \
                     publish to a tag, or to `@{manifest_digest}`",
                    self.reference
                ))
            }
        };
        let image = self.oci_reference(&target);
        let size = bytes.len() as u64;
        let push = async {
            self.client
                .store_auth_if_needed(image.resolve_registry(), &self.auth)
                .await;
            self.client
                .auth(&image, &self.auth, RegistryOperation::Push)
                .await?;
            self.client.push_blob(&image, bytes, &component).await?;
            self.client
                .push_blob(&image, config.into_bytes(), &manifest.config.digest)
                .await?;
            self.client
                .push_manifest_raw(
                    &image,
                    manifest_bytes,
                    http::HeaderValue::from_static(OCI_IMAGE_MEDIA_TYPE),
                )
                .await
        };
        bounded(&self.reference, "publishing to", push).await?;
        Ok(Resolved {
            manifest: manifest_digest,
            component,
            size,
        })
    }

    /// Fetch the manifest this reference (or `target`) names, check it, and
    /// keep it in `store`; what it resolves to.
    ///
    /// # Errors
    /// One line: unreachable, refused, not found, not a component, a digest
    /// that does not match, or over a cap.
    pub async fn resolve(&self, target: &Target, store: &Store) -> Result<Resolved, String> {
        let image = self.oci_reference(target);
        let shown = match target {
            Target::Digest(d) => self.reference.with_digest(d),
            Target::Tag(_) => self.reference.clone(),
        };
        let body = bounded(&shown, "fetching the manifest of", self.manifest(&image))
            .await?
            .map_err(|why| format!("`{shown}`: {why}; refused"))?;
        let manifest = sha256_digest(&body);
        if let Target::Digest(want) = target {
            if *want != manifest {
                return Err(format!(
                    "`{shown}`: the registry sent a manifest whose digest is {manifest}; refused"
                ));
            }
        }
        let (component, size) =
            component_layer(&body).map_err(|why| format!("`{shown}`: {why}"))?;
        if size > caps::COMPONENT {
            return Err(format!(
                "`{shown}`: its component is {size} bytes, over the {}-byte limit for components; refused",
                caps::COMPONENT
            ));
        }
        store_bytes(&store.manifest(&manifest), &body)
            .map_err(|e| format!("cannot keep the manifest of `{shown}` in the cache: {e}"))?;
        Ok(Resolved {
            manifest,
            component,
            size,
        })
    }

    /// The manifest `image` names, read up to [`MANIFEST_CAP`] bytes and no
    /// further (the inner error: its status, or over the cap). oci-client
    /// reads a manifest whole before anything can look at its size, so the
    /// GET is ours, with the client's token (or the user's basic
    /// credentials where the registry gives no token).
    async fn manifest(
        &self,
        image: &Reference,
    ) -> Result<Result<Vec<u8>, String>, oci_client::errors::OciDistributionError> {
        let token = (self.client)
            .auth(image, &self.auth, RegistryOperation::Pull)
            .await?;
        let url = format!(
            "{}://{}/v2/{}/manifests/{}",
            self.scheme,
            image.resolve_registry(),
            image.repository(),
            image.digest().or(image.tag()).unwrap_or("latest")
        );
        let request = self
            .http
            .get(url)
            .header(http::header::ACCEPT, OCI_IMAGE_MEDIA_TYPE);
        let request = match (token, &self.auth) {
            (Some(token), _) => request.bearer_auth(token),
            (None, RegistryAuth::Basic(user, password)) => request.basic_auth(user, Some(password)),
            (None, _) => request,
        };
        let mut response = request.send().await?;
        let status = response.status();
        if !status.is_success() {
            return Ok(Err(format!(
                "the registry answered {status} for its manifest"
            )));
        }
        let over = |len: u64| {
            format!("its manifest is over the {MANIFEST_CAP}-byte limit ({len} bytes or more)")
        };
        if let Some(len) = response.content_length().filter(|&len| len > MANIFEST_CAP) {
            return Ok(Err(over(len)));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            if (body.len() + chunk.len()) as u64 > MANIFEST_CAP {
                return Ok(Err(over((body.len() + chunk.len()) as u64)));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Ok(body))
    }

    /// Download the component `pinned` names into `store` unless it is
    /// there; verified against its digest (and size) before it is kept.
    /// Returns whether it was downloaded.
    ///
    /// # Errors
    /// One line: unreachable, over the cap, or bytes that hash to another
    /// digest (a blob changed on the registry): nothing is kept then.
    pub async fn pull(&self, pinned: &Resolved, store: &Store) -> Result<bool, String> {
        let target = store.blob(&pinned.component);
        if cached_blob_ok(&target, &pinned.component) {
            return Ok(false);
        }
        if !valid_digest(&pinned.component) {
            return Err(format!("`{}`: not a sha256 digest", pinned.component));
        }
        let shown = self.reference.with_digest(&pinned.manifest);
        let image = self.oci_reference(&Target::Digest(pinned.manifest.clone()));
        let descriptor = OciDescriptor {
            media_type: LAYER_MEDIA_TYPE.into(),
            digest: pinned.component.clone(),
            size: pinned.size as i64,
            ..OciDescriptor::default()
        };
        let cap = pinned.size.min(caps::COMPONENT);
        let download = async {
            self.client
                .store_auth_if_needed(image.resolve_registry(), &self.auth)
                .await;
            let mut stream = self.client.pull_blob_stream(&image, &descriptor).await?;
            let mut bytes = Vec::with_capacity(cap as usize);
            let mut over = stream.content_length.is_some_and(|len| len > cap);
            while !over {
                match stream.next().await {
                    Some(Ok(chunk)) => {
                        over = bytes.len() as u64 + chunk.len() as u64 > cap;
                        if !over {
                            bytes.extend_from_slice(&chunk);
                        }
                    }
                    // The client's own check of the digest, at the end, is one.
                    Some(Err(e)) => return Ok(Err(e.to_string())),
                    None => break,
                }
            }
            Ok::<_, oci_client::errors::OciDistributionError>(if over {
                Err(format!(
                    "it is larger than the {cap} bytes its manifest (or the component cap) allows"
                ))
            } else {
                Ok(bytes)
            })
        };
        let bytes = bounded(&shown, "downloading", download)
            .await?
            .map_err(|why| format!("`{shown}`: {why}; refused, nothing kept"))?;
        let got = sha256_digest(&bytes);
        if got != pinned.component {
            return Err(format!(
                "`{shown}`: the component downloaded hashes to {got}, not the pinned {}; \
                 a blob changed on the registry; refused, nothing kept",
                pinned.component
            ));
        }
        store_bytes(&target, &bytes)
            .map_err(|e| format!("cannot keep `{shown}` in the cache: {e}"))?;
        Ok(true)
    }
}

/// Whether `path` holds bytes that hash to `digest` (a blob pulled before,
/// unchanged since).
fn cached_blob_ok(path: &Path, digest: &str) -> bool {
    crate::fsread::read_bounded(path, caps::COMPONENT).is_ok_and(|b| sha256_digest(&b) == digest)
}

/// The component at `path`, checked as `run` would check it (a regular
/// file under the cap that starts with the component magic).
fn read_component(path: &Path) -> Result<Vec<u8>, String> {
    let (mut file, meta) =
        crate::fsread::open_bounded(path, caps::COMPONENT).map_err(|e| e.to_string())?;
    crate::component::read_open_component(path, &mut file, &meta).map_err(|f| f.to_string())
}

/// `op` within [`OP_TIMEOUT`], its error on one line naming `reference`.
async fn bounded<T>(
    reference: &OciRef,
    doing: &str,
    op: impl std::future::Future<Output = Result<T, oci_client::errors::OciDistributionError>>,
) -> Result<T, String> {
    match tokio::time::timeout(OP_TIMEOUT, op).await {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(e)) => Err(crate::protocol::one_line(&format!(
            "{doing} `{reference}` failed: {}",
            error_chain(&e)
        ))),
        Err(_) => Err(format!(
            "{doing} `{reference}` took longer than {} s; gave up",
            OP_TIMEOUT.as_secs()
        )),
    }
}

/// An error and its causes on one line (reqwest's own message alone says
/// only "error sending request").
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

/// Keep `bytes` at `path` (content-addressed: written once, atomically).
fn store_bytes(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir: PathBuf = path.parent().map(Path::to_path_buf).unwrap_or_default();
    std::fs::create_dir_all(&dir)?;
    atomic::write_with(path, atomic::Options::PRIVATE, |file| {
        std::io::Write::write_all(file, bytes)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A registry on 127.0.0.1 that answers `/v2/` and then sends a
    /// manifest that never ends (chunked, no length), a megabyte at a time.
    async fn endless_manifest() -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("an address").to_string();
        tokio::spawn(async move {
            while let Ok((mut conn, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut request = vec![0u8; 4096];
                    let n = conn.read(&mut request).await.unwrap_or(0);
                    let head = String::from_utf8_lossy(&request[..n]).to_string();
                    if !head.contains("/manifests/") {
                        let ok =
                            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
                        let _ = conn.write_all(ok.as_bytes()).await;
                        return;
                    }
                    let start = "HTTP/1.1 200 OK\r\ncontent-type: application/vnd.oci.image.manifest.v1+json\r\ntransfer-encoding: chunked\r\n\r\n";
                    if conn.write_all(start.as_bytes()).await.is_err() {
                        return;
                    }
                    let chunk = format!("{:x}\r\n{}\r\n", 1 << 20, " ".repeat(1 << 20));
                    while conn.write_all(chunk.as_bytes()).await.is_ok() {}
                });
            }
        });
        addr
    }

    /// Issue 39: oci-client read a manifest whole before its size was
    /// checked; an endless one is refused at the cap, at once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_manifest_is_read_up_to_its_cap_and_no_further() {
        let addr = endless_manifest().await;
        let reference =
            OciRef::parse(&format!("oci://{addr}/hooks/guard:v1")).expect("a reference");
        let registry = Registry::new(&reference);
        let store = tempfile::tempdir().expect("tempdir");
        let started = std::time::Instant::now();
        let resolved = registry
            .resolve(&Target::Tag("v1".into()), &Store::at(store.path()))
            .await;
        let why = resolved.expect_err("an endless manifest is refused");
        assert!(
            why.contains(&format!(
                "its manifest is over the {MANIFEST_CAP}-byte limit"
            )),
            "{why}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
    }
}
