//! Components distributed through an OCI registry: `oci://` references,
//! the lock file that pins them, the content-addressed store they are
//! pulled into, and (with the `engine` feature) the registry client.
//!
//! A wasm handler may name `"component": "oci://host[:port]/repo:tag"` or
//! `"oci://host[:port]/repo@sha256:…"`. `run` never touches the network: at
//! load, the reference is pinned (a digest reference pins itself, a tag is
//! looked up in `hooks.lock.json` beside the `hooks.json` that names it) and
//! resolved to the pulled blob in the cache, `<cache>/oci/blobs/sha256/<hex>`.
//! From there on the component is a local file whose sha256 is the pinned
//! digest: the compile cache and trust key it by that digest like any other,
//! and [`crate::exec::wasm::WasmHost::run`] refuses bytes that hash to
//! anything else. What cannot be pinned or is not pulled is a typed failure
//! at run time ([`crate::protocol::Failure::OciNotPulled`]: "run `agenthooks
//! pull`"), which allows unless the handler fails closed.
//!
//! Layout in the registry: the CNCF wasm OCI artifact — an image manifest
//! whose config is [`CONFIG_MEDIA_TYPE`] and whose single layer is the
//! component, [`LAYER_MEDIA_TYPE`].

use std::fmt;
use std::path::{Path, PathBuf};

pub mod auth;
pub mod lock;
#[cfg(feature = "engine")]
pub mod registry;

// The entry type is for the CLI's `pull`/`publish` (and the tests); the
// fuzz build (no `engine` feature) reads lock files only.
#[cfg(any(feature = "engine", test))]
pub use lock::LockEntry;
pub use lock::{LockFile, LOCK_FILE};

/// The scheme of a component that lives in a registry.
pub const SCHEME: &str = "oci://";
/// The config media type of a wasm component artifact (CNCF wasm OCI layout).
pub const CONFIG_MEDIA_TYPE: &str = "application/vnd.wasm.config.v0+json";
/// The layer media type of a wasm component.
pub const LAYER_MEDIA_TYPE: &str = "application/wasm";
/// The older wasm-to-oci layer type, accepted when pulling.
pub const LEGACY_LAYER_MEDIA_TYPE: &str = "application/vnd.wasm.content.layer.v1+wasm";
/// The largest manifest accepted, in bytes (the distribution spec's own
/// limit for what registries must accept).
pub const MANIFEST_CAP: u64 = 4 << 20;

/// A parsed `oci://` reference: registry, repository, and a tag or a digest.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OciRef {
    /// `host` or `host:port`, as written (lowercase).
    pub registry: String,
    /// `org/name`: lowercase path components.
    pub repository: String,
    /// What it points at.
    pub target: Target,
}

/// What a reference points at.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A tag: moves, so it is pinned in the lock file.
    Tag(String),
    /// A manifest digest, `sha256:<64 hex>`: pins itself.
    Digest(String),
}

/// Why a string is not an `oci://` reference, on one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{shown}` is not an OCI reference: {why}; write `oci://host[:port]/repository:tag` or `…@sha256:<64 hex digits>`")]
pub struct RefError {
    shown: String,
    why: &'static str,
}

impl OciRef {
    /// Parse `oci://registry/repository:tag` or `oci://registry/repository@sha256:<hex>`.
    ///
    /// The registry is explicit (no implied Docker Hub): it must contain a
    /// `.` or a `:` or be `localhost`, so `oci://org/guard:v1` is refused
    /// rather than fetched from a registry the user never named.
    ///
    /// # Errors
    /// When `text` is not such a reference.
    pub fn parse(text: &str) -> Result<OciRef, RefError> {
        let err = |why| RefError {
            shown: crate::protocol::one_line(text),
            why,
        };
        let rest = text
            .strip_prefix(SCHEME)
            .ok_or(err("it does not start with `oci://`"))?;
        if rest.len() > 1024 {
            return Err(err("it is longer than 1024 characters"));
        }
        let (registry, path) = rest.split_once('/').ok_or(err("it names no repository"))?;
        if !valid_registry(registry) {
            return Err(err(
                "the registry must be a host name with a `.` or a port (or `localhost`)",
            ));
        }
        let (repository, target) = match path.split_once('@') {
            Some((repo, digest)) => {
                if !valid_digest(digest) {
                    return Err(err(
                        "the digest must be `sha256:` and 64 lowercase hex digits",
                    ));
                }
                (repo, Target::Digest(digest.to_string()))
            }
            None => {
                // The tag follows the last `:` after the last `/`.
                let last = path.rfind('/').map_or(0, |i| i + 1);
                match path[last..].rfind(':') {
                    Some(i) => {
                        let (repo, tag) = (&path[..last + i], &path[last + i + 1..]);
                        if !valid_tag(tag) {
                            return Err(err("the tag must be 1-128 of `A-Za-z0-9_.-`, not starting with `.` or `-`"));
                        }
                        (repo, Target::Tag(tag.to_string()))
                    }
                    None => {
                        return Err(err(
                            "it has neither a tag (`:v1`) nor a digest (`@sha256:…`)",
                        ))
                    }
                }
            }
        };
        if !valid_repository(repository) {
            return Err(err(
                "the repository must be lowercase `a-z0-9` path components separated by `/`, `.`, `_` or `-`",
            ));
        }
        Ok(OciRef {
            registry: registry.to_string(),
            repository: repository.to_string(),
            target,
        })
    }

    /// This reference pointing at `digest` instead.
    pub fn with_digest(&self, digest: &str) -> OciRef {
        OciRef {
            target: Target::Digest(digest.to_string()),
            ..self.clone()
        }
    }

    /// Whether the registry is this machine (`localhost`, `127.0.0.1`,
    /// `[::1]`): the only registries spoken to over plain http.
    pub fn is_loopback(&self) -> bool {
        let host = match self.registry.rsplit_once(':') {
            Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
            _ => self.registry.as_str(),
        };
        matches!(host, "localhost" | "127.0.0.1" | "[::1]")
    }

    /// Whether the managed policy's `allowedComponents` entry `source`
    /// (`oci://registry` or `oci://registry/repository-prefix`) covers this
    /// reference: the same registry, and the repository equal to the prefix
    /// or below it (`oci://r.example/sec` covers `sec/guard`, not `security`).
    pub fn allowed_by(&self, source: &str) -> bool {
        let Some(rest) = source.strip_prefix(SCHEME) else {
            return false;
        };
        let rest = rest.trim_end_matches('/');
        let (registry, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if registry != self.registry {
            return false;
        }
        prefix.is_empty()
            || self.repository == prefix
            || self
                .repository
                .strip_prefix(prefix)
                .is_some_and(|tail| tail.starts_with('/'))
    }
}

impl fmt::Display for OciRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{SCHEME}{}/{}", self.registry, self.repository)?;
        match &self.target {
            Target::Tag(tag) => write!(f, ":{tag}"),
            Target::Digest(digest) => write!(f, "@{digest}"),
        }
    }
}

fn valid_registry(registry: &str) -> bool {
    let (host, port) = match registry.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(']') || host.starts_with('[') => (host, Some(port)),
        _ => (registry, None),
    };
    let port_ok =
        port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.chars().all(|c| c.is_ascii_digit()));
    let host_ok = !host.is_empty()
        && (host == "[::1]"
            || host
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'))
        && !host.starts_with(['.', '-']);
    port_ok
        && host_ok
        && (host.contains('.') || port.is_some() || host == "localhost" || host == "[::1]")
}

fn valid_repository(repo: &str) -> bool {
    !repo.is_empty()
        && repo.len() <= 255
        && repo.split('/').all(|part| {
            let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
            part.starts_with(alnum)
                && part.ends_with(alnum)
                && part
                    .chars()
                    .all(|c| alnum(c) || matches!(c, '.' | '_' | '-'))
        })
}

fn valid_tag(tag: &str) -> bool {
    (1..=128).contains(&tag.len())
        && !tag.starts_with(['.', '-'])
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Whether `digest` is `sha256:` and 64 lowercase hex digits (the only
/// algorithm accepted: it is what the compile cache and trust key by).
pub fn valid_digest(digest: &str) -> bool {
    digest.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
    })
}

/// Where a wasm handler's `oci://` component comes from and what it is pinned to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OciSource {
    /// The reference, normalised (`oci://host/repo:tag`).
    pub reference: OciRef,
    /// The component's digest (`sha256:…`, the layer's), when the
    /// reference is pinned and pulled; then the handler's component path
    /// is the pulled blob. Else why not.
    pub pin: Result<String, Unpinned>,
}

/// Why an `oci://` component cannot run: it has not been locked and pulled.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Unpinned {
    /// A tag with no entry in the lock file beside its `hooks.json`.
    NotLocked {
        /// The lock file looked in.
        lock: PathBuf,
    },
    /// The lock file exists but cannot be used.
    BadLock {
        /// Why, naming the file.
        why: String,
    },
    /// Pinned, but the component is not in the cache.
    NotPulled {
        /// The pinned manifest digest.
        manifest: String,
    },
    /// No cache directory (no home directory).
    NoCache,
}

impl fmt::Display for Unpinned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unpinned::NotLocked { lock } => {
                write!(f, "is a tag with no entry in `{}`", lock.display())
            }
            Unpinned::BadLock { why } => f.write_str(why),
            Unpinned::NotPulled { manifest } => {
                write!(f, "(manifest {manifest}) is not in the cache")
            }
            Unpinned::NoCache => f.write_str("has no cache to be pulled into (no home directory)"),
        }
    }
}

/// The lock file beside `hooks_json`.
pub fn lock_file_for(hooks_json: &Path) -> PathBuf {
    hooks_json.with_file_name(LOCK_FILE)
}

/// The content-addressed store pulled components live in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// `<cache>/oci` (`crate::dirs::cache`); `None` without a home directory.
    pub fn from_env() -> Option<Store> {
        crate::dirs::cache().map(|c| Store { dir: c.join("oci") })
    }

    /// A store in `dir` (tests: the runtime keeps one in the cache).
    #[cfg(test)]
    pub fn at(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    /// The file a blob of `digest` (`sha256:<hex>`, checked) is kept in.
    pub fn blob(&self, digest: &str) -> PathBuf {
        self.dir.join("blobs").join(digest_path(digest))
    }

    /// The file a manifest of `digest` is kept in.
    pub fn manifest(&self, digest: &str) -> PathBuf {
        self.dir.join("manifests").join(digest_path(digest))
    }

    /// The component digest a cached manifest of `manifest_digest` names,
    /// if that manifest is cached, hashes to its digest and is a component.
    pub fn cached_component(&self, manifest_digest: &str) -> Option<String> {
        let bytes =
            crate::fsread::read_bounded(&self.manifest(manifest_digest), MANIFEST_CAP).ok()?;
        if sha256_digest(&bytes) != manifest_digest {
            return None;
        }
        component_layer(&bytes).ok().map(|(digest, _)| digest)
    }
}

/// `sha256/<hex>` for a digest already checked by [`valid_digest`]; anything
/// else maps to a name no blob has (a path never follows a hostile digest).
fn digest_path(digest: &str) -> PathBuf {
    match digest.strip_prefix("sha256:") {
        Some(hex) if valid_digest(digest) => Path::new("sha256").join(hex),
        _ => Path::new("sha256").join("invalid"),
    }
}

/// `sha256:<hex>` of `bytes`.
pub fn sha256_digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("sha256:{}", crate::encoding::hex(&Sha256::digest(bytes)))
}

/// The component layer of a wasm artifact manifest: its digest and size.
///
/// # Errors
/// One line saying why the manifest is not a wasm component artifact.
pub fn component_layer(manifest: &[u8]) -> Result<(String, u64), String> {
    #[derive(serde::Deserialize)]
    struct Manifest {
        #[serde(default)]
        layers: Vec<Descriptor>,
    }
    #[derive(serde::Deserialize)]
    struct Descriptor {
        #[serde(rename = "mediaType", default)]
        media_type: String,
        digest: String,
        size: u64,
    }
    let parsed: Manifest = serde_json::from_slice(manifest)
        .map_err(|e| format!("its manifest is not an OCI image manifest ({e})"))?;
    let wasm: Vec<&Descriptor> = parsed
        .layers
        .iter()
        .filter(|l| l.media_type == LAYER_MEDIA_TYPE || l.media_type == LEGACY_LAYER_MEDIA_TYPE)
        .collect();
    match wasm[..] {
        [layer] if valid_digest(&layer.digest) => Ok((layer.digest.clone(), layer.size)),
        [_] => Err("its component layer's digest is not `sha256:` and 64 hex digits".into()),
        [] => Err(format!(
            "it is not a wasm component: no `{LAYER_MEDIA_TYPE}` layer (publish it with `agenthooks publish`)"
        )),
        _ => Err(format!("it has more than one `{LAYER_MEDIA_TYPE}` layer")),
    }
}

/// What the loader makes of a handler's `oci://` component named in
/// `hooks_json`: the path to run (the pulled blob) and its source. A bad
/// reference is an error line; an unpinned or unpulled one is not (it
/// fails when the handler runs, so `onError` applies).
///
/// # Errors
/// When `raw` is not a valid reference.
pub fn resolve(raw: &str, hooks_json: &Path) -> Result<(PathBuf, OciSource), RefError> {
    let reference = OciRef::parse(raw.trim())?;
    let store = Store::from_env();
    let pin = pin(&reference, &lock_file_for(hooks_json), store.as_ref());
    let path = match (&pin, &store) {
        (Ok(digest), Some(store)) => store.blob(digest),
        // Never run: the failure comes first. A name that says what it is.
        _ => PathBuf::from(reference.to_string()),
    };
    Ok((path, OciSource { reference, pin }))
}

/// The component digest `reference` is pinned to, pulled into `store`.
fn pin(reference: &OciRef, lock: &Path, store: Option<&Store>) -> Result<String, Unpinned> {
    let store = store.ok_or(Unpinned::NoCache)?;
    let locked = match LockFile::read(lock) {
        Ok(file) => file.entries.get(&reference.to_string()).cloned(),
        Err(why) => return Err(Unpinned::BadLock { why }),
    };
    let (manifest, component) = match (&reference.target, locked) {
        (_, Some(entry)) => (entry.manifest, Some(entry.component)),
        (Target::Digest(digest), None) => (digest.clone(), store.cached_component(digest)),
        (Target::Tag(_), None) => {
            return Err(Unpinned::NotLocked {
                lock: lock.to_path_buf(),
            })
        }
    };
    match component {
        Some(digest) if store.blob(&digest).is_file() => Ok(digest),
        _ => Err(Unpinned::NotPulled { manifest }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn references_parse_into_registry_repository_and_tag_or_digest() {
        let r = OciRef::parse("oci://127.0.0.1:5000/org/guard:v1").unwrap();
        assert_eq!(r.registry, "127.0.0.1:5000");
        assert_eq!(r.repository, "org/guard");
        assert_eq!(r.target, Target::Tag("v1".into()));
        assert!(r.is_loopback());
        assert_eq!(r.to_string(), "oci://127.0.0.1:5000/org/guard:v1");
        let d = OciRef::parse(&format!("oci://registry.example/sec/guard@{D}")).unwrap();
        assert_eq!(d.target, Target::Digest(D.into()));
        assert!(!d.is_loopback());
        assert_eq!(
            d.to_string(),
            format!("oci://registry.example/sec/guard@{D}")
        );
        assert!(OciRef::parse("oci://localhost/guard:latest")
            .unwrap()
            .is_loopback());
        assert!(OciRef::parse("oci://localhost:5000/a/b/c:1.0_rc-2").is_ok());
    }

    #[test]
    fn bad_references_are_one_line_errors() {
        for bad in [
            "registry.example/guard:v1",               // no scheme
            "oci://org/guard:v1",                      // no explicit registry
            "oci://registry.example",                  // no repository
            "oci://registry.example/guard",            // neither tag nor digest
            "oci://registry.example/Guard:v1",         // uppercase repository
            "oci://registry.example/guard:",           // empty tag
            "oci://registry.example/guard:-v1",        // bad tag
            "oci://registry.example/guard@sha256:abc", // short digest
            "oci://registry.example/guard@md5:0123456789abcdef0123456789abcdef",
            "oci://registry.example:99999999/guard:v1",
            "oci://registry.example//guard:v1",
            "oci://registry.example/../guard:v1",
        ] {
            let e = OciRef::parse(bad).expect_err(bad).to_string();
            assert!(!e.contains('\n'), "{e}");
            assert!(e.contains("not an OCI reference"), "{e}");
        }
        let long = format!("oci://r.example/{}:v1", "a".repeat(5000));
        assert!(OciRef::parse(&long).unwrap_err().to_string().len() < 700);
    }

    #[test]
    fn an_allowed_source_covers_its_registry_and_repositories_below_it() {
        let r = OciRef::parse("oci://registry.example/sec/guard:v1").unwrap();
        assert!(r.allowed_by("oci://registry.example"));
        assert!(r.allowed_by("oci://registry.example/"));
        assert!(r.allowed_by("oci://registry.example/sec"));
        assert!(r.allowed_by("oci://registry.example/sec/"));
        assert!(r.allowed_by("oci://registry.example/sec/guard"));
        assert!(!r.allowed_by("oci://registry.example/se"));
        assert!(!r.allowed_by("oci://registry.example/sec/guard-evil"));
        assert!(!r.allowed_by("oci://registry.example.evil/sec"));
        assert!(!r.allowed_by("oci://registry.exampl"));
        assert!(!r.allowed_by("/opt/vetted"));
        let evil = OciRef::parse("oci://registry.example/security/guard:v1").unwrap();
        assert!(!evil.allowed_by("oci://registry.example/sec"));
    }

    #[test]
    fn the_component_layer_is_the_single_wasm_layer() {
        let manifest = |layers: &str| {
            format!(
                r#"{{"schemaVersion":2,"config":{{"mediaType":"{CONFIG_MEDIA_TYPE}","digest":"{D}","size":2}},"layers":[{layers}]}}"#
            )
        };
        let wasm = format!(r#"{{"mediaType":"application/wasm","digest":"{D}","size":42}}"#);
        assert_eq!(
            component_layer(manifest(&wasm).as_bytes()),
            Ok((D.into(), 42))
        );
        let tar = format!(
            r#"{{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"{D}","size":1}}"#
        );
        assert!(component_layer(manifest(&tar).as_bytes())
            .unwrap_err()
            .contains("not a wasm component"));
        assert!(component_layer(manifest(&format!("{wasm},{wasm}")).as_bytes()).is_err());
        assert!(component_layer(b"{")
            .unwrap_err()
            .contains("not an OCI image manifest"));
    }

    #[test]
    fn a_tag_runs_only_once_locked_and_pulled() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().join("store"));
        let lock = dir.path().join(LOCK_FILE);
        let tag = OciRef::parse("oci://localhost:5000/org/guard:v1").unwrap();
        assert_eq!(
            pin(&tag, &lock, Some(&store)),
            Err(Unpinned::NotLocked { lock: lock.clone() })
        );
        let component = sha256_digest(b"component");
        let mut file = LockFile::default();
        file.entries.insert(
            tag.to_string(),
            LockEntry {
                manifest: D.into(),
                component: component.clone(),
                size: 9,
            },
        );
        std::fs::write(&lock, file.to_bytes()).unwrap();
        assert_eq!(
            pin(&tag, &lock, Some(&store)),
            Err(Unpinned::NotPulled { manifest: D.into() })
        );
        std::fs::create_dir_all(store.blob(&component).parent().unwrap()).unwrap();
        std::fs::write(store.blob(&component), b"component").unwrap();
        assert_eq!(pin(&tag, &lock, Some(&store)), Ok(component));
        std::fs::write(&lock, b"{").unwrap();
        assert!(matches!(
            pin(&tag, &lock, Some(&store)),
            Err(Unpinned::BadLock { .. })
        ));
    }

    #[test]
    fn a_digest_reference_runs_from_its_cached_manifest_without_a_lock() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let component = sha256_digest(b"component");
        let manifest = format!(
            r#"{{"schemaVersion":2,"layers":[{{"mediaType":"application/wasm","digest":"{component}","size":9}}]}}"#
        );
        let digest = sha256_digest(manifest.as_bytes());
        let r = OciRef::parse(&format!("oci://localhost:5000/org/guard@{digest}")).unwrap();
        let lock = dir.path().join(LOCK_FILE);
        assert_eq!(
            pin(&r, &lock, Some(&store)),
            Err(Unpinned::NotPulled {
                manifest: digest.clone()
            })
        );
        for (path, bytes) in [
            (store.manifest(&digest), manifest.as_bytes()),
            (store.blob(&component), b"component".as_slice()),
        ] {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        assert_eq!(pin(&r, &lock, Some(&store)), Ok(component.clone()));
        // A cached manifest that is not the one the digest names is not used.
        std::fs::write(store.manifest(&digest), manifest.replace("9}", "10}")).unwrap();
        assert!(pin(&r, &lock, Some(&store)).is_err());
        assert!(store
            .blob("sha256:../../etc/passwd")
            .ends_with("sha256/invalid"));
    }
}
