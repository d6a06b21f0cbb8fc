//! The trust store: which project hooks the user allowed to run with their rights.
//!
//! The gate stage, between select and execute (`gate` clamps the selected
//! handlers before they run and merges their reports after, so in the
//! layers it sits above `exec`; see `layers.rs`).
//!
//! A repository is untrusted input: cloning one must not run its
//! `.agents/hooks.json` commands. So a project-scope **command** hook, and an
//! **http** hook (it sends each event's input off the machine), runs
//! only once the user trusted its exact definition (`agenthooks trust`, or
//! `agenthooks install` run in the project); a project **wasm** hook always
//! runs, because the sandbox is its boundary, but with no more than read-only
//! access to the project until it is trusted: `allow.write`, `allow.env`,
//! `allow.net` and reads outside the project need trust (docs/design.md §8).
//! User-scope hooks are the user's own and trusted by definition.
//!
//! What is trusted is a [`Fingerprint`]: the SHA-256 of a handler's canonical
//! JSON (type, event, matcher, `if`, the command as written or the SHA-256 of
//! the component's bytes, and the grants; an http hook's URL, headers as
//! written and `allowedEnvVars`). Changing any of them, or swapping
//! the component file, makes the hook untrusted again, as Codex and Gemini CLI
//! fingerprint project hooks. A command's fingerprint also covers the bytes of
//! the project scripts it runs ([`command_files`]), so a `git pull` that
//! changes `check.sh` behind an unchanged command line is asked about again.
//!
//! The store is one JSON file, `$XDG_DATA_HOME/agenthooks/trust.json`
//! (default `~/.local/share/agenthooks/trust.json`; on Windows
//! `%LOCALAPPDATA%\agenthooks\trust.json`, see `crate::dirs`), keyed by the canonical
//! project root and written atomically (temporary file + rename) in a 0700
//! directory. A corrupt store reads as empty, with one note: it fails closed
//! and never crashes `run`.
//!
//! This module holds the fingerprint and the store; `gate.rs` applies them to
//! one event's selected handlers (`gate`), `review.rs` is what `trust` and
//! `install` show and record (`review`, [`trust_project`]).

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::atomic;
use crate::config::{Handler, HandlerKind, Scope};
use crate::encoding::{hex, sha256_hex};
use crate::fsread::{self, caps, ReadError};

/// The SHA-256 (lower-case hex) of a handler's canonical definition.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Fingerprint(String);

impl Fingerprint {
    /// The hex digest.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Lower-case hex SHA-256 of a file the project controls, streamed through a
/// bounded read ([`fsread::copy_bounded`]): a FIFO, a device or a file over
/// `cap` is an error naming it, never a hang or gigabytes hashed.
///
/// # Errors
/// When the file is missing, not a regular file, over `cap`, or unreadable.
pub fn file_sha256(path: &Path, cap: u64) -> Result<String, ReadError> {
    let mut hasher = Sha256::new();
    fsread::copy_bounded(path, cap, &mut hasher)?;
    Ok(hex(&hasher.finalize()))
}

/// The matcher as canonical text: semantically equal matchers give equal text.
/// The command as written: the loader expanded `$CLAUDE_PROJECT_DIR` to the
/// project root, which is put back, so the fingerprint does not depend on the
/// spelling of the root (a symlinked path, a trailing slash) the loader found.
fn as_written(command: &str, project_root: Option<&Path>) -> String {
    let Some(root) = project_root.map(|r| r.to_string_lossy().into_owned()) else {
        return command.to_string();
    };
    let root = root.trim_end_matches('/');
    if root.is_empty() {
        return command.to_string();
    }
    command.replace(root, "$CLAUDE_PROJECT_DIR")
}

/// Extensions of files a command hands to an interpreter (`python3 x.py`).
const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "py", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "lua", "ps1",
    "jar",
];

/// The project files a command runs: each word of the command that names a
/// file (not a directory) inside the project which is executable or has a
/// script extension, other than a redirect target. A special file there (a
/// FIFO named `check.sh`) is listed too, so that fingerprinting it fails
/// with a note rather than quietly leaving it out. Returns (path relative to the
/// project root, canonical path), sorted and without repeats.
///
/// Why: trusting `./.agents/hooks/check.sh` must not trust whatever a later
/// `git pull` puts in `check.sh`, so the fingerprint covers those files'
/// bytes. Files a hook writes (redirect targets, logs) are left out, or the
/// hook would lose its trust each time it ran; the words are found by a plain
/// split on shell punctuation, which is enough for the common forms
/// (`./x.sh`, `python3 .agents/x.py`, `"$CLAUDE_PROJECT_DIR"/x.sh`).
pub fn command_files(command: &str, project_root: &Path) -> Vec<(String, PathBuf)> {
    let Ok(root) = std::fs::canonicalize(project_root) else {
        return Vec::new();
    };
    let shown_root = project_root.to_string_lossy();
    let mut words: Vec<(String, bool)> = Vec::new();
    let mut word = String::new();
    let mut redirect = false;
    let flush = |word: &mut String, redirect: &mut bool, words: &mut Vec<(String, bool)>| {
        if !word.is_empty() {
            words.push((std::mem::take(word), *redirect));
            *redirect = false;
        }
    };
    // Quotes group a word and are dropped (`"$CLAUDE_PROJECT_DIR"/x.sh` is one word).
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, '>' | '<') => {
                flush(&mut word, &mut redirect, &mut words);
                redirect = true;
            }
            (None, c) if c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')' | '`') => {
                flush(&mut word, &mut redirect, &mut words);
            }
            (None, c) => word.push(c),
        }
    }
    flush(&mut word, &mut redirect, &mut words);
    let mut files = Vec::new();
    for (word, is_redirect_target) in words {
        if is_redirect_target {
            continue;
        }
        let word = word
            .replace("${CLAUDE_PROJECT_DIR}", &shown_root)
            .replace("$CLAUDE_PROJECT_DIR", &shown_root);
        let has_script_extension = Path::new(&word)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SCRIPT_EXTENSIONS.contains(&e));
        if !word.contains('/') && !has_script_extension {
            continue;
        }
        let path = project_root.join(&word);
        let Ok(canonical) = std::fs::canonicalize(&path) else {
            continue;
        };
        let Ok(meta) = std::fs::metadata(&canonical) else {
            continue;
        };
        if meta.is_dir() || !canonical.starts_with(&root) {
            continue;
        }
        #[cfg(unix)]
        let executable = {
            use std::os::unix::fs::PermissionsExt;
            meta.permissions().mode() & 0o111 != 0
        };
        #[cfg(not(unix))]
        let executable = false;
        if !executable && !has_script_extension {
            continue;
        }
        let rel = canonical
            .strip_prefix(&root)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        files.push((rel, canonical));
    }
    files.sort();
    files.dedup();
    files
}

/// The canonical JSON a handler's fingerprint is the hash of, or `None` for a
/// handler type the runtime does not run (it needs no trust).
///
/// For a wasm handler this reads the component file, so the fingerprint
/// follows its bytes.
///
/// # Errors
/// When the component file or a script cannot be read within its cap
/// ([`fsread::caps`]); the error is a [`ReadError`] inside the `io::Error`.
pub fn canonical_json(handler: &Handler) -> io::Result<Option<Value>> {
    let common = |kind: &str| common_json(handler, kind);
    let value = match &handler.kind {
        HandlerKind::Command(spec) => {
            let mut v = common("command");
            v["command"] =
                Value::String(as_written(&spec.command, handler.project_root.as_deref()));
            if let Some(root) = handler.project_root.as_deref() {
                let mut files = serde_json::Map::new();
                for (rel, path) in command_files(&spec.command, root) {
                    files.insert(rel, Value::String(file_sha256(&path, caps::SCRIPT)?));
                }
                // Absent when empty, so a hook running no project file keeps
                // the fingerprint of its definition alone.
                if !files.is_empty() {
                    v["files"] = Value::Object(files);
                }
            }
            v
        }
        HandlerKind::Http(spec) => {
            // The definition as written: a header's `$VAR`, not its value,
            // so a rotated token does not untrust the hook.
            let mut v = common("http");
            v["url"] = Value::String(spec.url.clone());
            v["headers"] = spec
                .headers
                .iter()
                .map(|(name, value)| (name.clone(), Value::String(value.clone())))
                .collect::<serde_json::Map<_, _>>()
                .into();
            v["allowedEnvVars"] = json!(spec.allowed_env_vars);
            v
        }
        HandlerKind::Prompt(spec) | HandlerKind::Agent(spec) => {
            // Everything that decides what is sent and what the answer
            // means; where it is sent is the user's `llm`, not the project's.
            let kind = match handler.kind {
                HandlerKind::Agent(_) => "agent",
                _ => "prompt",
            };
            let mut v = common(kind);
            v["prompt"] = Value::String(spec.prompt.clone());
            v["model"] = json!(spec.model);
            v["continueOnBlock"] = Value::Bool(spec.continue_on_block);
            v
        }
        HandlerKind::McpTool(spec) => {
            // What the server runs (or where it is), as its file defines it,
            // and what it is asked: a changed `.mcp.json` entry untrusts it.
            let mut v = common("mcp_tool");
            v["server"] = Value::String(spec.server.clone());
            v["definition"] = match spec.found.as_ref().map(|s| &s.transport) {
                Some(crate::config::McpTransport::Stdio { command, args, env }) => {
                    json!({"command": command, "args": args, "env": env})
                }
                Some(crate::config::McpTransport::Http { url, headers }) => {
                    json!({"url": url, "headers": headers})
                }
                Some(crate::config::McpTransport::Unusable { why }) => json!({"unusable": why}),
                None => Value::Null,
            };
            v["tool"] = Value::String(spec.tool.clone());
            v["input"] = Value::String(spec.input.clone());
            v
        }
        HandlerKind::Wasm(spec) => {
            let digest = file_sha256(&spec.component, caps::COMPONENT)?;
            return Ok(wasm_canonical_json(handler, &digest));
        }
        HandlerKind::Unsupported { .. } => return Ok(None),
    };
    Ok(Some(value))
}

/// What every handler's canonical JSON starts with.
fn common_json(handler: &Handler, kind: &str) -> Value {
    json!({
        "type": kind,
        "event": handler.event.as_str(),
        "matcher": handler.matcher.to_string(),
        "if": handler.if_.as_ref().map(regex_lite::Regex::as_str),
    })
}

/// [`canonical_json`] of a wasm handler whose component bytes hash to
/// `component_sha256` (hex): what was compiled and ran, not the file now.
fn wasm_canonical_json(handler: &Handler, component_sha256: &str) -> Option<Value> {
    let HandlerKind::Wasm(spec) = &handler.kind else {
        return None;
    };
    let mut v = common_json(handler, "wasm");
    v["componentSha256"] = Value::String(component_sha256.to_string());
    v["allow"] = spec.allow.to_json();
    Some(v)
}

/// The fingerprint of a wasm handler whose component bytes (the ones that
/// ran) hash to `component_sha256`; `None` for another kind of handler.
pub fn wasm_fingerprint(handler: &Handler, component_sha256: &str) -> Option<Fingerprint> {
    wasm_canonical_json(handler, component_sha256)
        .map(|v| Fingerprint(sha256_hex(v.to_string().as_bytes())))
}

/// The fingerprint of a handler (see [`canonical_json`]).
///
/// # Errors
/// When the component file of a wasm handler cannot be read.
pub fn fingerprint(handler: &Handler) -> io::Result<Option<Fingerprint>> {
    Ok(canonical_json(handler)?.map(|v| Fingerprint(sha256_hex(v.to_string().as_bytes()))))
}

/// One trusted hook, as the store remembers it (for `trust --list`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustedHook {
    /// The hook's label when it was trusted.
    pub label: String,
    /// Its event.
    pub event: String,
    /// When (RFC 3339, UTC).
    pub trusted_at: String,
    /// The hook as the user reviewed it (its definition and the text of the
    /// project scripts it runs), at most [`review::TEXT_CAP`] bytes: what a
    /// re-review diffs the changed hook against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// The trusted hooks of one project.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectTrust {
    /// When the project's hooks were last trusted (RFC 3339, UTC).
    pub trusted_at: String,
    /// Fingerprint → what it was.
    pub hooks: BTreeMap<Fingerprint, TrustedHook>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoreFile {
    version: u32,
    #[serde(default)]
    projects: BTreeMap<String, ProjectTrust>,
}

/// The store's file format version.
const STORE_VERSION: u32 = 1;

/// Why the trust store could not be changed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrustError {
    /// There is no home directory, so no data directory for the store.
    #[error("cannot find the trust store: there is no home directory (set `HOME`, or `USERPROFILE` on Windows)")]
    NoHome,
    /// Writing the store failed.
    #[error("cannot write the trust store `{path}`")]
    Write {
        /// The store file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The project root does not exist.
    #[error("cannot find the project `{path}`")]
    Project {
        /// The project root as given.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
}

/// The trust store: project root → trusted fingerprints.
#[derive(Debug, Clone, Default)]
pub struct TrustStore {
    path: Option<PathBuf>,
    projects: BTreeMap<String, ProjectTrust>,
}

/// The trust store's file: `trust.json` in `crate::dirs::data`
/// (`$XDG_DATA_HOME/agenthooks`, else `~/.local/share/agenthooks`;
/// `%LOCALAPPDATA%\agenthooks` on Windows); `None` without a home directory.
pub fn store_path() -> Option<PathBuf> {
    Some(crate::dirs::data()?.join("trust.json"))
}

/// The key of a project in the store: its canonical path, or the path as
/// given when it cannot be canonicalized (it then matches nothing trusted).
fn project_key(root: &Path) -> String {
    std::fs::canonicalize(root)
        .unwrap_or_else(|_| root.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

impl TrustStore {
    /// An empty store that is never saved (tests, no home directory).
    pub fn empty() -> TrustStore {
        TrustStore::default()
    }

    /// Read the store at [`store_path`].
    ///
    /// Never fails: a missing file is an empty store; an unreadable or corrupt
    /// one is an empty store plus the note to show (fail closed).
    pub fn load() -> (TrustStore, Option<TrustNote>) {
        match store_path() {
            Some(path) => TrustStore::load_from(&path),
            None => (TrustStore::empty(), None),
        }
    }

    /// Read the store at `path` (see [`TrustStore::load`]).
    pub fn load_from(path: &Path) -> (TrustStore, Option<TrustNote>) {
        let mut store = TrustStore {
            path: Some(path.to_path_buf()),
            projects: BTreeMap::new(),
        };
        let text = match fsread::read_bounded(path, caps::TRUST_STORE) {
            Ok(text) => text,
            Err(ReadError::NotFound { .. }) => return (store, None),
            Err(e) => return (store, Some(TrustNote::store_unreadable(path, e))),
        };
        match serde_json::from_slice::<StoreFile>(&text) {
            Ok(file) if file.version == STORE_VERSION => {
                store.projects = file.projects;
                (store, None)
            }
            Ok(file) => {
                let why = format!("unknown version {}", file.version);
                (store, Some(TrustNote::store_unreadable(path, why)))
            }
            Err(e) => (store, Some(TrustNote::store_unreadable(path, e))),
        }
    }

    /// The file this store is read from and saved to.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether `fingerprint` is trusted for the project at `root`.
    pub fn is_trusted(&self, root: &Path, fingerprint: &Fingerprint) -> bool {
        self.projects
            .get(&project_key(root))
            .is_some_and(|p| p.hooks.contains_key(fingerprint))
    }

    /// Whether `handler` may run with its full rights: user scope always; a
    /// project hook when its current fingerprint is trusted for its project.
    /// A hook that cannot be fingerprinted is not trusted.
    pub fn trusts(&self, handler: &Handler) -> bool {
        self.lookup(handler).unwrap_or(false)
    }

    /// [`TrustStore::trusts`], with the reason when the handler could not be
    /// fingerprinted (its script or component is a FIFO, too large, gone):
    /// such a hook counts as changed, hence untrusted, and the reason is
    /// worth a note.
    ///
    /// # Errors
    /// The read error (one line naming the file) when fingerprinting failed.
    pub fn lookup(&self, handler: &Handler) -> io::Result<bool> {
        if !handler.scope.needs_trust() {
            return Ok(true);
        }
        let Some(root) = handler.project_root.as_deref() else {
            return Ok(false);
        };
        Ok(fingerprint(handler)?.is_some_and(|fp| self.is_trusted(root, &fp)))
    }

    /// [`TrustStore::trusts`] for a wasm hook that ran the component bytes
    /// hashing to `component_sha256`: trust decided on what ran, not on the
    /// file as it is after the run.
    pub fn trusts_ran(&self, handler: &Handler, component_sha256: &str) -> bool {
        if !handler.scope.needs_trust() {
            return true;
        }
        let Some(root) = handler.project_root.as_deref() else {
            return false;
        };
        wasm_fingerprint(handler, component_sha256).is_some_and(|fp| self.is_trusted(root, &fp))
    }

    /// Every trusted project: canonical root → its trusted hooks.
    pub fn projects(&self) -> &BTreeMap<String, ProjectTrust> {
        &self.projects
    }

    /// The trusted hooks of the project at `root`, if any.
    pub fn project(&self, root: &Path) -> Option<&ProjectTrust> {
        self.projects.get(&project_key(root))
    }

    /// Trust exactly `handlers` (their project-scope ones) for the project at
    /// `root`, replacing what was trusted there before, so a hook that was
    /// removed or changed is not trusted any more. Returns how many hooks are
    /// now trusted. Call [`TrustStore::save`] to keep it.
    ///
    /// # Errors
    /// When `root` does not exist.
    pub fn trust<'a>(
        &mut self,
        root: &Path,
        handlers: impl IntoIterator<Item = &'a Handler>,
    ) -> Result<usize, TrustError> {
        let canonical = std::fs::canonicalize(root).map_err(|source| TrustError::Project {
            path: root.to_path_buf(),
            source,
        })?;
        let now = crate::encoding::rfc3339(std::time::SystemTime::now());
        let mut hooks = BTreeMap::new();
        for handler in handlers {
            if handler.scope != Scope::Project {
                continue;
            }
            // An unreadable component or script cannot be fingerprinted, so
            // it cannot be trusted (a wasm hook still runs sandboxed, without
            // extra grants); [`TrustStore::untrustable`] names it.
            if let Ok(Some(fp)) = fingerprint(handler) {
                let hook = TrustedHook {
                    label: handler.label.clone(),
                    event: handler.event.as_str().to_string(),
                    trusted_at: now.clone(),
                    text: Some(review::reviewed_text(
                        handler,
                        handler.project_root.as_deref().unwrap_or(&canonical),
                    )),
                };
                hooks.insert(fp, hook);
            }
        }
        let count = hooks.len();
        let key = canonical.to_string_lossy().into_owned();
        self.projects.insert(
            key,
            ProjectTrust {
                trusted_at: now,
                hooks,
            },
        );
        Ok(count)
    }

    /// The project hooks among `handlers` that [`TrustStore::trust`] cannot
    /// trust because a file they name cannot be fingerprinted (missing, a
    /// FIFO, over its size cap, ...): one line each, naming the hook and why.
    pub fn untrustable<'a>(handlers: impl IntoIterator<Item = &'a Handler>) -> Vec<String> {
        handlers
            .into_iter()
            .filter(|h| h.scope == Scope::Project)
            .filter_map(|h| match fingerprint(h) {
                Err(e) => Some(format!(
                    "`{}` was not trusted: {e}; fix the file and run `agenthooks trust` again",
                    h.label
                )),
                Ok(_) => None,
            })
            .collect()
    }

    /// Forget every trusted hook of the project at `root`. Returns how many
    /// were trusted.
    pub fn revoke(&mut self, root: &Path) -> usize {
        let removed = self.projects.remove(&project_key(root));
        // A project whose directory is gone is stored under its old canonical
        // path, which is also what `project_key` falls back to.
        removed.map_or(0, |p| p.hooks.len())
    }

    /// Write the store atomically: a temporary file in the same directory,
    /// then a rename, in a directory only the user can read (0700).
    ///
    /// # Errors
    /// When there is no store path or the file cannot be written.
    pub fn save(&self) -> Result<(), TrustError> {
        let path = self
            .path
            .clone()
            .or_else(store_path)
            .ok_or(TrustError::NoHome)?;
        let write_err = |source| TrustError::Write {
            path: path.clone(),
            source,
        };
        let dir = path
            .parent()
            .ok_or_else(|| write_err(io::Error::other("the store path has no directory")))?;
        create_private_dir(dir).map_err(write_err)?;
        let file = StoreFile {
            version: STORE_VERSION,
            projects: self.projects.clone(),
        };
        let mut text = serde_json::to_vec_pretty(&file).map_err(|e| write_err(e.into()))?;
        text.push(b'\n');
        atomic::write_with(&path, atomic::Options::PRIVATE, |file| {
            file.write_all(&text)
        })
        .map_err(write_err)
    }
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

mod gate;
mod note;
mod review;

#[cfg(test)]
use gate::gate_loading;
pub use gate::{
    gate, gate_reads_files, gate_with, narrow, raised_limits, restrict, Gate, Gated, Standing,
};
pub use note::{Held, TrustNote, UNTRUSTED_PER_EVENT};
pub use review::{needs_trust, pending, previous, review, reviewed_text, trust_project, TEXT_CAP};

#[cfg(test)]
mod tests;
