//! Registry credentials from the files `docker login` and `podman login`
//! write, so a registry a developer can already pull from needs nothing more.
//!
//! Looked up in order, the first file with an entry for the registry wins:
//! `$REGISTRY_AUTH_FILE`, `$XDG_RUNTIME_DIR/containers/auth.json` (podman,
//! skopeo), `$DOCKER_CONFIG/config.json` or else `~/.docker/config.json`.
//! An entry is `auths.<registry>.auth`, base64 of `user:password` (keys
//! written as `https://registry/v1/` match too). Credential helpers
//! (`credsStore`, `credHelpers`) are not run: a registry that only has one
//! is accessed anonymously, with a note saying so. No entry: anonymous.

use std::path::{Path, PathBuf};

use base64::Engine as _;

/// The largest credentials file read.
const AUTH_FILE_CAP: u64 = 1 << 20;

/// What to present to a registry.
#[derive(Clone, PartialEq, Eq)]
pub enum Credentials {
    /// No credentials.
    Anonymous,
    /// HTTP basic credentials (the registry may exchange them for a token).
    Basic {
        /// The user name.
        user: String,
        /// The password or token.
        password: String,
    },
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Anonymous => f.write_str("Anonymous"),
            // Never the password: this may end up in a log.
            Credentials::Basic { user, .. } => write!(f, "Basic({user:?}, ***)"),
        }
    }
}

/// Credentials for `registry`, and a note when something was skipped (a
/// file that is not JSON, a helper that is not run), naming the file.
pub fn for_registry(registry: &str) -> (Credentials, Vec<String>) {
    let files: Vec<(PathBuf, Vec<u8>)> = auth_files()
        .into_iter()
        .filter_map(|path| {
            let bytes = crate::fsread::read_bounded(&path, AUTH_FILE_CAP).ok()?;
            Some((path, bytes))
        })
        .collect();
    lookup(registry, &files)
}

/// The credentials files to look in, in order (some may not exist).
fn auth_files() -> Vec<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let mut files = Vec::new();
    files.extend(var("REGISTRY_AUTH_FILE"));
    if let Some(run) = var("XDG_RUNTIME_DIR") {
        files.push(run.join("containers").join("auth.json"));
    }
    match var("DOCKER_CONFIG") {
        Some(dir) => files.push(dir.join("config.json")),
        None => files.extend(crate::dirs::home().map(|h| h.join(".docker").join("config.json"))),
    }
    files
}

/// [`for_registry`] over files already read.
pub fn lookup(registry: &str, files: &[(PathBuf, Vec<u8>)]) -> (Credentials, Vec<String>) {
    let mut notes = Vec::new();
    for (path, bytes) in files {
        match in_file(registry, path, bytes) {
            Ok(Some(found)) => return (found, notes),
            Ok(None) => {}
            Err(note) => notes.push(note),
        }
    }
    (Credentials::Anonymous, notes)
}

/// The entry for `registry` in one file: `Ok(None)` when it has none.
fn in_file(registry: &str, path: &Path, bytes: &[u8]) -> Result<Option<Credentials>, String> {
    #[derive(serde::Deserialize)]
    struct File {
        #[serde(default)]
        auths: std::collections::BTreeMap<String, Entry>,
        #[serde(default, rename = "credHelpers")]
        cred_helpers: std::collections::BTreeMap<String, String>,
        #[serde(default, rename = "credsStore")]
        creds_store: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Entry {
        #[serde(default)]
        auth: Option<String>,
    }
    let shown = path.display();
    let file: File = serde_json::from_slice(bytes).map_err(|e| {
        crate::protocol::one_line(&format!(
            "`{shown}` is not a credentials file ({e}); skipped"
        ))
    })?;
    let entry = file
        .auths
        .iter()
        .find(|(key, _)| registry_of_key(key) == registry)
        .and_then(|(_, e)| e.auth.as_deref());
    if let Some(auth) = entry {
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(auth.trim())
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        return match decoded.as_deref().and_then(|s| s.split_once(':')) {
            Some((user, password)) => Ok(Some(Credentials::Basic {
                user: user.to_string(),
                password: password.to_string(),
            })),
            None => Err(format!(
                "`{shown}`: the `auth` for `{registry}` is not base64 of `user:password`; skipped"
            )),
        };
    }
    let helper = file
        .cred_helpers
        .iter()
        .find(|(key, _)| registry_of_key(key) == registry)
        .map(|(_, h)| h.clone())
        .or(file.creds_store);
    match helper {
        Some(helper) => Err(crate::protocol::one_line(&format!(
            "`{shown}` names the credential helper `{helper}` for `{registry}`, which agenthooks does not run; \
             put an `auths` entry in `$REGISTRY_AUTH_FILE` to authenticate"
        ))),
        None => Ok(None),
    }
}

/// The registry an `auths` key names: `https://r.example/v1/` is `r.example`.
fn registry_of_key(key: &str) -> &str {
    let key = key
        .strip_prefix("https://")
        .or_else(|| key.strip_prefix("http://"))
        .unwrap_or(key);
    key.split('/').next().unwrap_or(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> (PathBuf, Vec<u8>) {
        (PathBuf::from(name), text.as_bytes().to_vec())
    }

    #[test]
    fn basic_credentials_come_from_the_first_file_that_has_the_registry() {
        // base64("ci:s3cret") and base64("other:pw")
        let podman = file(
            "auth.json",
            r#"{"auths": {"r.example": {"auth": "Y2k6czNjcmV0"}}}"#,
        );
        let docker = file(
            "config.json",
            r#"{"auths": {"https://r.example/v1/": {"auth": "b3RoZXI6cHc="}, "127.0.0.1:5000": {"auth": "b3RoZXI6cHc="}}}"#,
        );
        let files = [podman, docker];
        let (found, notes) = lookup("r.example", &files);
        assert_eq!(
            found,
            Credentials::Basic {
                user: "ci".into(),
                password: "s3cret".into()
            }
        );
        assert!(notes.is_empty());
        assert_eq!(
            lookup("127.0.0.1:5000", &files).0,
            Credentials::Basic {
                user: "other".into(),
                password: "pw".into()
            }
        );
        assert_eq!(
            lookup("elsewhere.example", &files),
            (Credentials::Anonymous, vec![])
        );
        assert!(!format!("{found:?}").contains("s3cret"));
    }

    #[test]
    fn helpers_and_broken_files_are_notes_and_anonymous() {
        let files = [
            file("broken.json", "{"),
            file(
                "bad.json",
                r#"{"auths": {"r.example": {"auth": "bm8tY29sb24="}}}"#,
            ),
            file(
                "helper.json",
                r#"{"credHelpers": {"r.example": "ecr-login"}}"#,
            ),
        ];
        let (found, notes) = lookup("r.example", &files);
        assert_eq!(found, Credentials::Anonymous);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].contains("broken.json") && notes[0].contains("not a credentials file"));
        assert!(notes[1].contains("not base64 of `user:password`"));
        assert!(notes[2].contains("ecr-login") && notes[2].contains("does not run"));
        assert!(notes.iter().all(|n| !n.contains('\n')));
        let store = [file(
            "store.json",
            r#"{"credsStore": "desktop", "auths": {}}"#,
        )];
        assert!(lookup("r.example", &store).1[0].contains("`desktop`"));
    }
}
