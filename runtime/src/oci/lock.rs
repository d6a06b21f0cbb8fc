//! `hooks.lock.json`: what each `oci://` reference of the `hooks.json`
//! beside it was resolved to, so a tag is resolved once (by `agenthooks
//! lock` or the first `pull`) and every run after uses the same bytes.
//!
//! ```json
//! {
//!   "version": 1,
//!   "components": {
//!     "oci://registry.example/sec/guard:v1": {
//!       "manifest": "sha256:…",
//!       "component": "sha256:…",
//!       "size": 73421
//!     }
//!   }
//! }
//! ```
//!
//! Keys are references as `agenthooks` normalises them, sorted; the bytes
//! are a function of the entries alone (two-space JSON, a final newline), so
//! the file diffs cleanly and a lock that changes nothing rewrites nothing.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::valid_digest;
use crate::fsread::{self, caps, ReadError};

/// The lock file's name, beside `hooks.json`.
pub const LOCK_FILE: &str = "hooks.lock.json";

/// The format version written.
const VERSION: u32 = 1;

/// The entries of one lock file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockFile {
    /// Reference → what it is pinned to.
    pub entries: BTreeMap<String, LockEntry>,
}

/// What one reference is pinned to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockEntry {
    /// The manifest digest the reference resolved to.
    pub manifest: String,
    /// The digest of the component layer (what runs, and what the compile
    /// cache and trust key by).
    pub component: String,
    /// The component's size in bytes.
    pub size: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    version: u32,
    #[serde(default)]
    components: BTreeMap<String, LockEntry>,
}

impl LockFile {
    /// Read `path`; a missing file is an empty lock.
    ///
    /// # Errors
    /// One line naming the file: unreadable, not JSON, another version, or
    /// a digest that is not `sha256:` and 64 hex digits.
    pub fn read(path: &Path) -> Result<LockFile, String> {
        match fsread::read_bounded(path, caps::HOOKS_JSON) {
            Ok(bytes) => LockFile::parse(&bytes).map_err(|why| {
                format!(
                    "`{}`: {why}; run `agenthooks lock` to write it anew",
                    path.display()
                )
            }),
            Err(ReadError::NotFound { .. }) => Ok(LockFile::default()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Parse a lock file's bytes.
    ///
    /// # Errors
    /// Why they are not a lock file, on one line.
    pub fn parse(bytes: &[u8]) -> Result<LockFile, String> {
        let wire: Wire = serde_json::from_slice(bytes)
            .map_err(|e| crate::protocol::one_line(&format!("not a lock file: {e}")))?;
        if wire.version != VERSION {
            return Err(format!(
                "lock file version {} is not {VERSION}, the one this agenthooks reads",
                wire.version
            ));
        }
        for (reference, entry) in &wire.components {
            if !valid_digest(&entry.manifest) || !valid_digest(&entry.component) {
                return Err(crate::protocol::one_line(&format!(
                    "the entry for `{reference}` has a digest that is not `sha256:` and 64 hex digits"
                )));
            }
        }
        Ok(LockFile {
            entries: wire.components,
        })
    }

    /// The file's bytes: deterministic for given entries.
    pub fn to_bytes(&self) -> Vec<u8> {
        let wire = Wire {
            version: VERSION,
            components: self.entries.clone(),
        };
        let mut bytes = serde_json::to_vec_pretty(&wire).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// Change the lock file at `path` with `change`, under the lock file's
    /// lock (so two `lock`/`pull` runs never lose each other's entries),
    /// written atomically; nothing is written when the bytes would not
    /// change. Returns whether the file changed.
    ///
    /// # Errors
    /// When the file cannot be read, parsed, locked or written: one line.
    pub fn update(path: &Path, change: impl FnOnce(&mut LockFile)) -> Result<bool, String> {
        use crate::atomic;
        let target = atomic::resolve(path).map_err(|e| format!("`{}`: {e}", path.display()))?;
        let _lock = atomic::Lock::acquire(&target, atomic::LOCK_WAIT)
            .map_err(|e| format!("cannot lock `{}`: {e}", target.display()))?;
        let before = match fsread::read_bounded(&target, caps::HOOKS_JSON) {
            Ok(bytes) => Some(bytes),
            Err(ReadError::NotFound { .. }) => None,
            Err(e) => return Err(e.to_string()),
        };
        let mut file = match &before {
            Some(bytes) => LockFile::parse(bytes).map_err(|why| {
                format!(
                    "`{}`: {why}; fix or delete it, then run `agenthooks lock` again",
                    target.display()
                )
            })?,
            None => LockFile::default(),
        };
        change(&mut file);
        let after = file.to_bytes();
        if before.as_deref() == Some(&after[..]) {
            return Ok(false);
        }
        atomic::write(&target, &after, false)
            .map_err(|e| format!("cannot write `{}`: {e}", target.display()))?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(c: char) -> String {
        format!("sha256:{}", c.to_string().repeat(64))
    }

    fn entry(c: char) -> LockEntry {
        LockEntry {
            manifest: digest(c),
            component: digest('f'),
            size: 7,
        }
    }

    #[test]
    fn the_bytes_are_sorted_two_space_json_with_a_final_newline() {
        let mut file = LockFile::default();
        file.entries
            .insert("oci://r.example/z:v1".into(), entry('a'));
        file.entries
            .insert("oci://r.example/a:v1".into(), entry('b'));
        let text = String::from_utf8(file.to_bytes()).unwrap();
        let want = format!(
            "{{\n  \"version\": 1,\n  \"components\": {{\n    \"oci://r.example/a:v1\": {{\n      \"manifest\": \"{b}\",\n      \"component\": \"{f}\",\n      \"size\": 7\n    }},\n    \"oci://r.example/z:v1\": {{\n      \"manifest\": \"{a}\",\n      \"component\": \"{f}\",\n      \"size\": 7\n    }}\n  }}\n}}\n",
            a = digest('a'),
            b = digest('b'),
            f = digest('f')
        );
        assert_eq!(text, want);
        assert_eq!(LockFile::parse(text.as_bytes()).unwrap(), file);
    }

    #[test]
    fn a_bad_lock_file_is_one_line_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        assert_eq!(LockFile::read(&path), Ok(LockFile::default()));
        for bad in [
            "{".to_string(),
            r#"{"version": 2, "components": {}}"#.to_string(),
            r#"{"version": 1, "extra": 1}"#.to_string(),
            format!(
                r#"{{"version": 1, "components": {{"oci://r.example/a:v1": {{"manifest": "sha256:12", "component": "{}", "size": 1}}}}}}"#,
                digest('f')
            ),
        ] {
            std::fs::write(&path, &bad).unwrap();
            let e = LockFile::read(&path).unwrap_err();
            assert!(e.contains(LOCK_FILE) && !e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn update_writes_only_a_change_and_keeps_other_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        assert!(LockFile::update(&path, |f| {
            f.entries.insert("oci://r.example/a:v1".into(), entry('a'));
        })
        .unwrap());
        let first = std::fs::read(&path).unwrap();
        assert!(!LockFile::update(&path, |f| {
            f.entries.insert("oci://r.example/a:v1".into(), entry('a'));
        })
        .unwrap());
        assert!(LockFile::update(&path, |f| {
            f.entries.insert("oci://r.example/b:v1".into(), entry('b'));
        })
        .unwrap());
        let file = LockFile::read(&path).unwrap();
        assert_eq!(file.entries.len(), 2);
        assert_ne!(std::fs::read(&path).unwrap(), first);
        // No temporary or lock file left beside it.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [LOCK_FILE]);
        std::fs::write(&path, "{").unwrap();
        assert!(LockFile::update(&path, |_| {})
            .unwrap_err()
            .contains(LOCK_FILE));
        assert_eq!(std::fs::read(&path).unwrap(), b"{");
    }
}
