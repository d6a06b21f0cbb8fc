//! Ed25519 signatures on audit records (`"audit": {"sign": true}`).
//!
//! The hash chain shows that no record was edited, removed or inserted one
//! by one; a signature also shows who wrote each record: someone who
//! rewrites the log without the private key cannot sign it again with the
//! key an auditor trusts. The key is a PKCS#8 file under the user's state
//! directory (`audit-ed25519.pk8`, owner-only, made on first use), or the
//! file `signingKey` names (a managed policy points it at a key it
//! provisions). `agenthooks audit public-key` prints its public half, to be
//! kept where the log's writer cannot change it.
//!
//! What is signed: the record's line as the chain hashes it, without the
//! signature, whose fields are appended last, `,"key":"<id>","sig":"<b64>"}`.
//! The verifier takes the same bytes back by cutting that exact suffix, so no
//! JSON canonical form is needed: the signature covers the bytes written.
//! The key id is the first 8 bytes of the public key's SHA-256, in hex.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use ring::rand::SystemRandom;
use ring::signature::{Ed25519KeyPair, KeyPair, UnparsedPublicKey, ED25519};
use sha2::{Digest, Sha256};

/// The key file's name under the state directory.
pub const KEY_FILE: &str = "audit-ed25519.pk8";

/// A PKCS#8 Ed25519 key is 83–85 bytes; anything much larger is not one.
const KEY_MAX: u64 = 4096;

/// The key file used when `signingKey` names none: under the user's state
/// directory; `None` without a home directory.
pub fn default_key_path() -> Option<PathBuf> {
    crate::dirs::state().map(|dir| dir.join(KEY_FILE))
}

/// An Ed25519 public key, as `audit public-key` prints it and `audit verify
/// --public-key` takes it: `ed25519:<64 hex digits>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey(Vec<u8>);

impl PublicKey {
    /// Parse `ed25519:<hex>` (the prefix may be left out).
    ///
    /// # Errors
    /// One line saying what is wrong with `text`.
    pub fn parse(text: &str) -> Result<PublicKey, String> {
        let hex = text.trim();
        let hex = hex.strip_prefix("ed25519:").unwrap_or(hex);
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "`{}` is not a public key: expected ed25519: and 64 hex digits, as `agenthooks audit public-key` prints",
                crate::protocol::one_line(text).chars().take(80).collect::<String>()
            ));
        }
        let bytes = (0..32)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("checked hex"))
            .collect();
        Ok(PublicKey(bytes))
    }

    /// The key id records carry: the first 8 bytes of its SHA-256, in hex.
    pub fn id(&self) -> String {
        Sha256::digest(&self.0)[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Whether `signature` is this key's over `message`.
    pub fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
        UnparsedPublicKey::new(&ED25519, &self.0)
            .verify(message, signature)
            .is_ok()
    }
}

impl std::fmt::Display for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ed25519:")?;
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// The private key that signs records.
pub struct Signer {
    pair: Ed25519KeyPair,
    public: PublicKey,
}

impl Signer {
    /// The key in `path`, made there first (owner-only) when there is none.
    ///
    /// # Errors
    /// A file that cannot be read or written, or that is not a PKCS#8
    /// Ed25519 key.
    pub fn load_or_create(path: &Path) -> io::Result<Signer> {
        match Signer::load(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                create(path)?;
                Signer::load(path)
            }
            other => other,
        }
    }

    /// The key in `path`.
    ///
    /// # Errors
    /// As [`Signer::load_or_create`], and `NotFound` when there is no file.
    pub fn load(path: &Path) -> io::Result<Signer> {
        let bytes = crate::fsread::read_bounded(path, KEY_MAX).map_err(|e| match e {
            crate::fsread::ReadError::NotFound { .. } => io::ErrorKind::NotFound.into(),
            crate::fsread::ReadError::Io { source, .. } => source,
            other => io::Error::other(other.to_string()),
        })?;
        let pair = Ed25519KeyPair::from_pkcs8(&bytes).map_err(|_| {
            io::Error::other(format!("`{}` is not a PKCS#8 Ed25519 key", path.display()))
        })?;
        let public = PublicKey(pair.public_key().as_ref().to_vec());
        Ok(Signer { pair, public })
    }

    /// Its public half.
    pub fn public(&self) -> &PublicKey {
        &self.public
    }

    /// `unsigned` (one JSON object, no newline) with the key id and the
    /// signature over it appended as its last two fields.
    pub fn sign_line(&self, unsigned: &[u8]) -> Vec<u8> {
        let sig = self.pair.sign(unsigned);
        let mut line = unsigned.to_vec();
        if line.last() == Some(&b'}') {
            line.pop();
        }
        line.extend_from_slice(&suffix(&self.public.id(), sig.as_ref()));
        line
    }
}

/// `,"key":"<id>","sig":"<b64>"}`: what a signed line ends with.
fn suffix(id: &str, sig: &[u8]) -> Vec<u8> {
    let sig = base64::engine::general_purpose::STANDARD.encode(sig);
    format!(",\"key\":\"{id}\",\"sig\":\"{sig}\"}}").into_bytes()
}

/// A signed line taken apart: the bytes that were signed, the key id and
/// the signature.
#[derive(Debug, PartialEq, Eq)]
pub struct Signed {
    /// The line as it was signed (without the signature's fields).
    pub unsigned: Vec<u8>,
    /// The signing key's id.
    pub key: String,
    /// The raw signature.
    pub sig: Vec<u8>,
}

/// `line` taken apart, when it ends with the signature's fields as
/// [`Signer::sign_line`] writes them; `None` for an unsigned line, `Some(Err)`
/// for fields that are there but not as written.
pub fn split(line: &[u8]) -> Option<Result<Signed, String>> {
    const KEY: &[u8] = b",\"key\":\"";
    let at = line.windows(KEY.len()).rposition(|w| w == KEY)?;
    let tail = std::str::from_utf8(&line[at..]).ok()?;
    let parsed = (|| {
        let rest = tail.strip_prefix(",\"key\":\"")?;
        let (key, rest) = rest.split_once('"')?;
        let rest = rest.strip_prefix(",\"sig\":\"")?;
        let (sig, rest) = rest.split_once('"')?;
        (rest == "}").then_some((key.to_string(), sig.to_string()))
    })();
    let Some((key, sig)) = parsed else {
        return Some(Err(
            "its signature fields are not the last two, as they were written".to_string(),
        ));
    };
    let Ok(sig) = base64::engine::general_purpose::STANDARD.decode(sig) else {
        return Some(Err("its signature is not base64".to_string()));
    };
    let mut unsigned = line[..at].to_vec();
    unsigned.push(b'}');
    Some(Ok(Signed { unsigned, key, sig }))
}

/// A new key in `path`, owner-only, written whole or not at all (a
/// concurrent writer's key wins; both are valid, one is kept).
fn create(path: &Path) -> io::Result<()> {
    let rng = SystemRandom::new();
    let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng)
        .map_err(|_| io::Error::other("the system's random source failed"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    tmp.write_all(pkcs8.as_ref())?;
    tmp.as_file().sync_all()?;
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e.error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_line_splits_back_into_what_was_signed() {
        let dir = tempfile::tempdir().unwrap();
        let signer = Signer::load_or_create(&dir.path().join("k.pk8")).unwrap();
        let unsigned = br#"{"decision":"deny","prev":"genesis"}"#;
        let line = signer.sign_line(unsigned);
        let text = String::from_utf8(line.clone()).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["key"], signer.public().id());
        let parts = split(&line).unwrap().unwrap();
        assert_eq!(parts.unsigned, unsigned);
        assert!(signer.public().verifies(&parts.unsigned, &parts.sig));
        assert!(!signer
            .public()
            .verifies(b"{\"decision\":\"allow\"}", &parts.sig));
        assert!(split(unsigned).is_none());
    }

    #[test]
    fn the_key_is_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/k.pk8");
        let first = Signer::load_or_create(&path).unwrap();
        let again = Signer::load_or_create(&path).unwrap();
        assert_eq!(first.public(), again.public());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(&path, b"not a key").unwrap();
        let err = Signer::load(&path).err().unwrap().to_string();
        assert!(err.contains("not a PKCS#8 Ed25519 key"), "{err}");
    }

    #[test]
    fn public_keys_print_and_parse_back() {
        let dir = tempfile::tempdir().unwrap();
        let signer = Signer::load_or_create(&dir.path().join("k.pk8")).unwrap();
        let shown = signer.public().to_string();
        assert!(shown.starts_with("ed25519:") && shown.len() == 8 + 64);
        assert_eq!(&PublicKey::parse(&shown).unwrap(), signer.public());
        assert!(PublicKey::parse("ed25519:12").is_err());
        assert!(PublicKey::parse(&"z".repeat(64)).is_err());
    }

    #[test]
    fn moved_or_mangled_signature_fields_are_named() {
        let bad = br#"{"decision":"deny","key":"ab","sig":"AAAA","x":1}"#;
        assert!(split(bad).unwrap().is_err());
        let bad = br#"{"decision":"deny","key":"ab","sig":"%%%"}"#;
        assert!(split(bad).unwrap().is_err());
    }
}
