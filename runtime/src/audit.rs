//! The audit log: one JSON line per event, the record an investigation reads.
//!
//! After stage 6 of the pipeline (encode), once the answer is known. Opt-in:
//! `"audit": {"path": ..., "maxBytes": ..., "includeInput": ...}` in the
//! managed or the user's `hooks.json` (managed wins), or
//! `AGENTHOOKS_AUDIT=<path>` in the environment (which wins for the path). A
//! project cannot turn it on: a cloned repository must not make the runtime
//! write where it likes.
//!
//! Each line holds, per event: the time (RFC 3339, UTC), the agent, the event,
//! the tool, `session_id` and `tool_use_id` (to join the agent's transcript),
//! the cwd, the project, the user, the host and the agenthooks version; per
//! selected handler its kind, label, source file and scope, how trust let it
//! run, the digest of the component that ran, its outcome, decision, failure
//! kind, duration and notes; the config files that could not be used; the final
//! decision (`none` when no hook had an opinion, so the agent's own permission
//! system decided) and its reason. With `includeInput`, the tool input too,
//! redacted ([`redact`]) and capped at [`INPUT_MAX`] bytes.
//!
//! A line is appended with one `write` on a file opened `O_APPEND`, so
//! concurrent agents never interleave lines. Past `maxBytes` (10 MiB by
//! default) the file is renamed to `<path>.1` under an exclusive lock on
//! `<path>.lock`, after checking again that it is still over the cap: two
//! agents crossing the cap at once rotate once, not twice (which would
//! replace a full rotated file by an almost empty one). Appends take no lock:
//! a writer that opened the file just before the rename lands its line whole
//! in `<path>.1`.
//!
//! The records form a hash chain: each carries `prev`, the SHA-256 of the
//! line before it (`genesis` for the first line a log ever had), continued
//! across rotation (the first line of a new file chains to the last of
//! `<path>.1`). Reading the last line and appending happen under the lock,
//! so concurrent agents chain one after the other. [`verify`] checks the
//! chain (`agenthooks audit verify`): a record edited, removed or inserted
//! breaks it at the next record. It proves that the lines were not changed
//! one by one; someone who can rewrite the whole file can rewrite the whole
//! chain, so the last hash must be kept elsewhere to anchor it (docs/audit-and-tracing.md,
//! "Verifying the audit log").
//!
//! Why it never fails the answer: an audit log that blocks or errors would let
//! a full disk or a bad path turn every tool call into a failure. The file is
//! opened non-blocking (a FIFO at the path cannot hang `run`), only a regular
//! file is written, the lock is waited for at most [`LOCK_WAIT`], and any
//! error becomes one note on stderr; `run`'s answer and exit code stay the same.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::{Duration, SystemTime};

use regex_lite::Regex;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::config::{AuditConfig, Config, Scope};
use crate::encoding::rfc3339;
use crate::exec::Report;
use crate::protocol::{Answer, Event, Outcome};

pub mod sign;

pub use sign::PublicKey;

/// The environment variable that turns the audit log on (its value is the path).
pub const ENV: &str = "AGENTHOOKS_AUDIT";

/// The size past which the log is rotated, when the config gives none.
pub const DEFAULT_MAX_BYTES: u64 = 10 * 1024 * 1024;

/// The most bytes of tool input (as JSON text) a line holds; past it the
/// input is recorded as its first bytes with `inputTruncated`.
pub const INPUT_MAX: usize = 16 * 1024;

/// How long a writer that must rotate waits for another one's rotation.
// Off Unix no lock is taken (see `lock`), so nothing reads it there.
#[cfg_attr(not(unix), allow(dead_code))]
pub const LOCK_WAIT: Duration = Duration::from_millis(200);

/// The `prev` of the first record a log ever had.
pub const GENESIS: &str = "genesis";

/// The `prev` of a record written while another writer held the log's lock
/// past [`LOCK_WAIT`]: it could not be chained, and [`verify`] says so.
pub const UNCHAINED: &str = "unchained";

/// The most bytes read back from the end of the log to find its last
/// record (records are far smaller: the input is capped at [`INPUT_MAX`]).
const TAIL_MAX: u64 = 1 << 20;

/// The largest log file [`verify`] reads.
const VERIFY_MAX: u64 = 1 << 30;

/// What replaces a redacted value.
pub const REDACTED: &str = "[redacted]";

/// Where audit lines go, how large the file may grow, and what they hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditLog {
    path: PathBuf,
    max_bytes: u64,
    include_input: bool,
    /// Sign each record: with this key file, or (`None`) the default one.
    signing: Option<Option<PathBuf>>,
}

impl AuditLog {
    /// A log at `path`, rotated past `max_bytes` ([`DEFAULT_MAX_BYTES`] when `None`).
    pub fn new(path: impl Into<PathBuf>, max_bytes: Option<u64>) -> AuditLog {
        AuditLog {
            path: path.into(),
            max_bytes: max_bytes.unwrap_or(DEFAULT_MAX_BYTES),
            include_input: false,
            signing: None,
        }
    }

    /// This log, its records signed with the key in `key` (made there on
    /// first use), or with the default key ([`sign::default_key_path`]) when
    /// `key` is `None`.
    pub fn signed_with(mut self, key: Option<PathBuf>) -> AuditLog {
        self.signing = Some(key);
        self
    }

    /// The signing key's file, when records are signed (`None` without a
    /// home directory for the default one).
    pub fn signing_key(&self) -> Option<Option<PathBuf>> {
        self.signing
            .as_ref()
            .map(|key| key.clone().or_else(sign::default_key_path))
    }

    /// This log, recording tool inputs too (redacted, capped) when `on`.
    pub fn with_input(mut self, on: bool) -> AuditLog {
        self.include_input = on;
        self
    }

    /// The log to write for this run: `AGENTHOOKS_AUDIT` if set and not empty,
    /// else the config's `audit`, else none.
    pub fn resolve(config: Option<&AuditConfig>) -> Option<AuditLog> {
        AuditLog::resolve_with(std::env::var_os(ENV), config)
    }

    /// [`AuditLog::resolve`] with the environment variable's value given. The
    /// variable picks the path; `maxBytes` and `includeInput` still come from
    /// the config.
    pub fn resolve_with(
        env: Option<std::ffi::OsString>,
        config: Option<&AuditConfig>,
    ) -> Option<AuditLog> {
        let max = config.and_then(|c| c.max_bytes);
        let input = config.is_some_and(|c| c.include_input);
        let path = match env.filter(|p| !p.is_empty()) {
            Some(path) => PathBuf::from(path),
            None => config?.path.clone(),
        };
        let log = AuditLog::new(path, max).with_input(input);
        Some(match config.and_then(|c| c.sign.clone()) {
            Some(key) => log.signed_with(key),
            None => log,
        })
    }

    /// The file written (`<path>`; the rotated one is [`AuditLog::rotated_path`]).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The rotated file: `<path>.1`.
    pub fn rotated_path(&self) -> PathBuf {
        self.sibling(".1")
    }

    fn sibling(&self, suffix: &str) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    }

    /// The record of one answered event, as this log keeps it.
    pub fn record(
        &self,
        event: &Event,
        project_root: Option<&Path>,
        reports: &[Report],
        answer: &Answer,
        config: &Config,
    ) -> Record {
        let mut record = Record::new(event, project_root, reports, answer);
        record.config_errors = config.broken.iter().map(ConfigError::of).collect();
        if self.include_input {
            if let Some(input) = event.tool_input() {
                let (input, truncated) = capped_input(input);
                record.input = Some(input);
                record.input_truncated = truncated;
            }
        }
        record
    }

    /// Append one record, chained to the last one. Never fails and never
    /// blocks: an error comes back as a one-line note, like the pipeline's
    /// own notes (unprefixed).
    pub fn write(&self, record: &Record) -> Option<String> {
        match self.append_chained(record) {
            Ok(None) => None,
            Ok(Some(unsigned)) => Some(crate::protocol::one_line(&format!(
                "the audit record was written unsigned: {unsigned}; `audit verify` will name it"
            ))),
            Err(e) => Some(self.note(&e.to_string())),
        }
    }

    /// `line` signed, when this log signs; else why it could not be.
    fn signed(&self, line: Vec<u8>) -> Result<Vec<u8>, String> {
        let Some(key) = self.signing_key() else {
            return Ok(line);
        };
        let Some(key) = key else {
            return Err("no home directory for the signing key (set `signingKey`)".to_string());
        };
        sign::Signer::load_or_create(&key)
            .map(|signer| signer.sign_line(&line))
            .map_err(|e| format!("the signing key `{}`: {e}", key.display()))
    }

    /// Under `<path>.lock`: `record` with `prev` the hash of the last line,
    /// signed when this log signs, the log rotated if that line takes it
    /// past the cap, then appended. `Some(why)` when it was written unsigned.
    fn append_chained(&self, record: &Record) -> io::Result<Option<String>> {
        // A directory or a FIFO at the path is refused before anything (the
        // lock file) is made beside it.
        if std::fs::metadata(&self.path).is_ok_and(|meta| !meta.is_file()) {
            return Err(io::Error::other("not a regular file"));
        }
        // A lock that cannot be taken (its file unwritable) leaves the record
        // unchained, not unwritten.
        let held = lock(&self.sibling(".lock")).unwrap_or(None);
        let prev = match held {
            Some(_) => self.last_hash()?.unwrap_or_else(|| GENESIS.to_string()),
            None => UNCHAINED.to_string(),
        };
        let record = Record {
            prev: Some(prev),
            ..record.clone()
        };
        let line = serde_json::to_vec(&record).map_err(io::Error::other)?;
        // A record that cannot be signed is still written: losing it would
        // hide more than a missing signature, which `verify` names.
        let (mut line, unsigned) = match self.signed(line.clone()) {
            Ok(signed) => (signed, None),
            Err(why) => (line, Some(why)),
        };
        line.push(b'\n');
        if held.is_some() {
            self.rotate_held(line.len())?;
        }
        self.append(&line)?;
        Ok(unsigned)
    }

    /// The hash of the log's last line: of `<path>`, or of `<path>.1` when
    /// `<path>` is empty or absent (just rotated); `None` for a new log.
    pub(crate) fn last_hash(&self) -> io::Result<Option<String>> {
        for file in [self.path.clone(), self.rotated_path()] {
            if let Some(line) = last_line(&file)? {
                return Ok(Some(hash_line(&line)));
            }
        }
        Ok(None)
    }

    fn note(&self, why: &str) -> String {
        crate::protocol::one_line(&format!(
            "cannot write the audit log `{}` ({why}); the answer is not affected",
            self.path.display()
        ))
    }

    /// Whether the file at the path is a regular file that `extra` more
    /// bytes would take past the cap.
    fn over_cap(&self, extra: usize) -> bool {
        std::fs::metadata(&self.path).is_ok_and(|meta| {
            meta.is_file() && meta.len() > 0 && meta.len() + extra as u64 > self.max_bytes
        })
    }

    /// Rename the log to `<path>.1` if it is (still) over the cap, holding
    /// `<path>.lock`, so that of several writers crossing the cap at once
    /// only the first rotates.
    #[cfg(test)]
    fn rotate(&self, extra: usize) -> io::Result<()> {
        let Some(_lock) = lock(&self.sibling(".lock"))? else {
            // Another writer holds the lock past LOCK_WAIT: it is rotating.
            return Ok(());
        };
        self.rotate_held(extra)
    }

    /// [`AuditLog::rotate`], the lock held by the caller.
    fn rotate_held(&self, extra: usize) -> io::Result<()> {
        if self.over_cap(extra) {
            std::fs::rename(&self.path, self.rotated_path())?;
        }
        Ok(())
    }

    fn append(&self, line: &[u8]) -> io::Result<()> {
        let mut file = open_nonblocking(&self.path)?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::other("not a regular file"));
        }
        // One write call: with O_APPEND the line lands whole at the end even
        // when several agents write at once.
        let written = file.write(line)?;
        if written != line.len() {
            return Err(io::Error::other(format!(
                "only {written} of {} bytes written",
                line.len()
            )));
        }
        Ok(())
    }
}

/// Open `path` to append, creating it (owner-only: the log may record tool
/// inputs), without blocking on a FIFO.
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK).mode(0o600);
    }
    options.open(path)
}

/// The last line of the log file `path` (without its newline); `None` when
/// it is absent or empty. Read from its end, at most [`TAIL_MAX`] bytes,
/// without blocking on a FIFO.
fn last_line(path: &Path) -> io::Result<Option<Vec<u8>>> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let mut file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let window = meta.len().min(TAIL_MAX);
    if window == 0 {
        return Ok(None);
    }
    file.seek(SeekFrom::Start(meta.len() - window))?;
    let mut tail = Vec::new();
    file.take(window).read_to_end(&mut tail)?;
    let body = tail.strip_suffix(b"\n").unwrap_or(&tail);
    match body.iter().rposition(|b| *b == b'\n') {
        Some(at) => Ok(Some(body[at + 1..].to_vec())),
        None if window == meta.len() => Ok(Some(body.to_vec())),
        None => Err(io::Error::other("its last record is longer than 1 MiB")),
    }
}

/// The `prev` the record after `line` carries: `sha256:<hex>` of its bytes.
pub fn hash_line(line: &[u8]) -> String {
    format!("sha256:{:x}", Sha256::digest(line))
}

/// What [`verify`] found in an intact chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The records checked.
    pub records: usize,
    /// The first record's `prev`: [`GENESIS`], or the hash of a record
    /// before these files (rotated away).
    pub starts_at: String,
    /// The records that carry a signature.
    pub signed: usize,
    /// Whether those signatures were checked against a trusted key.
    pub signatures_checked: bool,
}

/// Check the hash chain of `files`, read as one log in that order (the
/// rotated `<path>.1` first), and, with `key`, each record's signature. The
/// error is one line naming the first record (`file:line`) where the chain
/// breaks, or whose signature is missing, not `key`'s, or not over its
/// contents, and what that means.
///
/// Once a record is signed, every record after it must be: a signature
/// removed is an edit. With `key`, at least one record must be signed.
///
/// # Errors
/// A file that cannot be read, a line that is not a record, a record with
/// no `prev` or one that is not the hash of the record before it, a
/// signature that does not hold.
pub fn verify(files: &[PathBuf], key: Option<&PublicKey>) -> Result<Verified, String> {
    let mut prev: Option<(String, usize, Vec<u8>)> = None;
    let mut verified = Verified {
        records: 0,
        starts_at: String::new(),
        signed: 0,
        signatures_checked: key.is_some(),
    };
    for file in files {
        let bytes = crate::fsread::read_bounded(file, VERIFY_MAX).map_err(|e| e.to_string())?;
        let shown = file.display().to_string();
        for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
            // The split after the last newline (and no blank line is a record).
            if line.is_empty() {
                continue;
            }
            let at = format!("{shown}:{}", n + 1);
            let record: Value = serde_json::from_slice(line)
                .map_err(|_| format!("{at}: not a JSON record: the line was edited or cut"))?;
            let Some(own) = record.get("prev").and_then(Value::as_str) else {
                return Err(format!(
                    "{at}: the record carries no `prev`: it was inserted, or written before the log was chained"
                ));
            };
            if own == UNCHAINED {
                return Err(format!(
                    "{at}: the record was written unchained (another writer held the log's lock over {} ms); the chain cannot be checked past it",
                    LOCK_WAIT.as_millis()
                ));
            }
            match &prev {
                None => verified.starts_at = own.to_string(),
                Some((pfile, pline, pbytes)) => {
                    if own != hash_line(pbytes) {
                        return Err(format!(
                            "{at}: the chain breaks here: its `prev` is not the hash of the record before it ({pfile}:{pline}); that record was edited, or records between the two were removed or inserted"
                        ));
                    }
                }
            }
            check_signature(line, &at, key, &mut verified)?;
            verified.records += 1;
            prev = Some((shown.clone(), n + 1, line.to_vec()));
        }
    }
    if verified.records == 0 {
        return Err("no records to check".to_string());
    }
    if let (Some(key), 0) = (key, verified.signed) {
        return Err(format!(
            "no record is signed, so none can be checked against the key {} (is `sign` on in `audit`?)",
            key.id()
        ));
    }
    Ok(verified)
}

/// One record's signature, for [`verify`].
fn check_signature(
    line: &[u8],
    at: &str,
    key: Option<&PublicKey>,
    verified: &mut Verified,
) -> Result<(), String> {
    let parts = match sign::split(line) {
        None if verified.signed > 0 => {
            return Err(format!(
                "{at}: the record is not signed, though the records before it are: its signature was removed, or it was written without the key (`run` said so then)"
            ));
        }
        None => return Ok(()),
        Some(Err(why)) => return Err(format!("{at}: {why}: the record was edited")),
        Some(Ok(parts)) => parts,
    };
    verified.signed += 1;
    let Some(key) = key else {
        return Ok(());
    };
    if parts.key != key.id() {
        return Err(format!(
            "{at}: the record is signed with the key {}, not the trusted key {}: it was signed again by someone else",
            crate::protocol::one_line(&parts.key).chars().take(32).collect::<String>(),
            key.id()
        ));
    }
    if !key.verifies(&parts.unsigned, &parts.sig) {
        return Err(format!(
            "{at}: the record's signature does not match its contents: it was edited after it was signed"
        ));
    }
    Ok(())
}

/// An exclusive `flock` on `path`, waited for at most [`LOCK_WAIT`]; `None`
/// when another process held it all that time. Released when dropped. The
/// lock file is left in place: removing it would let two writers lock two
/// different inodes.
#[cfg(unix)]
fn lock(path: &Path) -> io::Result<Option<File>> {
    use std::os::unix::io::AsRawFd;
    let file = open_nonblocking(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("its lock file is not a regular file"));
    }
    let give_up = std::time::Instant::now() + LOCK_WAIT;
    loop {
        // SAFETY: flock on a descriptor we own; no memory is involved.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(Some(file));
        }
        let err = io::Error::last_os_error();
        match err.raw_os_error() {
            Some(libc::EWOULDBLOCK) | Some(libc::EINTR) => {}
            _ => return Err(err),
        }
        if std::time::Instant::now() >= give_up {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// No advisory lock on Windows yet (it would be `LockFileEx`): two writers
/// crossing the cap at once may rotate twice there.
#[cfg(not(unix))]
fn lock(path: &Path) -> io::Result<Option<File>> {
    open_nonblocking(path).map(Some)
}

/// One audit line.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// When the event was answered (RFC 3339, UTC, milliseconds).
    pub time: String,
    /// The agent id (`claude`, `codex`, ...).
    pub agent: String,
    /// The canonical event name.
    pub event: String,
    /// The canonical tool name, for tool events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The agent's session, to join its transcript.
    #[serde(rename = "session_id", skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The agent's id of this tool call, to join its transcript.
    #[serde(rename = "tool_use_id", skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// The agent's working directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The project root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// The user running the agent (login name; on Unix also the uid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// The numeric user id (Unix).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<u32>,
    /// The machine's host name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The agenthooks version that answered.
    pub version: &'static str,
    /// Every selected handler, in declaration order.
    pub handlers: Vec<HandlerRecord>,
    /// Config files that could not be used (none of their hooks ran).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub config_errors: Vec<ConfigError>,
    /// The final decision: `stop`, `deny`, `block`, `defer`, `ask`, `allow`,
    /// or `none` when no hook had an opinion.
    pub decision: String,
    /// The reason given with the final decision, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The tool input (`includeInput`), redacted; a string of its first
    /// [`INPUT_MAX`] bytes of JSON when it was longer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// Whether `input` was cut at [`INPUT_MAX`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub input_truncated: bool,
    /// The hash of the line before this one ([`hash_line`]), [`GENESIS`]
    /// for a log's first: the chain [`verify`] checks. Set when written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prev: Option<String>,
}

/// A config file that could not be used, in an audit line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigError {
    /// The file.
    pub file: String,
    /// Its scope.
    pub scope: Scope,
    /// What is wrong with it.
    pub why: String,
}

impl ConfigError {
    fn of(broken: &crate::config::BrokenFile) -> ConfigError {
        ConfigError {
            file: broken.file.display().to_string(),
            scope: broken.scope,
            why: crate::protocol::one_line(&broken.why),
        }
    }
}

/// What one handler did, in an audit line.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandlerRecord {
    /// `command`, `wasm`, or the unsupported type.
    pub kind: String,
    /// The handler's label.
    pub label: String,
    /// The file that declared it.
    pub file: String,
    /// The scope of that file: `managed`, `user` or `project`.
    pub scope: Scope,
    /// How trust let it run: `by-scope` (a managed or user hook), `trusted`,
    /// `sandboxed` (a project wasm hook with the sandbox's defaults),
    /// `narrowed`, `untrusted` (not run) or `not-applicable`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trust: Option<&'static str>,
    /// Whether it ran with its owner's trust (see [`crate::trust::Standing::trusted`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trusted: Option<bool>,
    /// `sha256:<hex>` of the component bytes a wasm handler ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub component_digest: Option<String>,
    /// `answered`, `failed` or `skipped`.
    pub outcome: &'static str,
    /// What it answered: `stop`, `deny`, `block`, `defer`, `ask`, `allow` or
    /// `none` (no opinion); absent when it failed or was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// The kind of failure or skip, kebab-case (`timeout`, `out-of-fuel`,
    /// `untrusted`, ...): stable across wordings of the note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<&'static str>,
    /// Wall-clock time in milliseconds.
    pub duration_ms: u64,
    /// Fuel a wasm guest used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuel_used: Option<u64>,
    /// A prompt hook's model call: provider, host, model, latency, tokens
    /// and parsed answer (never the key or the prompt).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<crate::exec::prompt::LlmCall>,
    /// The failure, the reason it was skipped, and its other notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A duration in whole milliseconds, rounded: how the audit log and
/// `fire --json` give every duration.
pub fn millis(d: Duration) -> u64 {
    let rounded = d.saturating_add(Duration::from_micros(500)).as_millis();
    u64::try_from(rounded).unwrap_or(u64::MAX)
}

/// The decision an answer expresses, strongest first.
pub(crate) fn decision_of(answer: &Answer) -> Option<&'static str> {
    if answer.stops() {
        return Some("stop");
    }
    if let Some(permission) = answer.permission() {
        return Some(permission.as_str());
    }
    if answer.blocks() {
        return Some("block");
    }
    None
}

impl Record {
    /// The record of one answered event (no config errors, no input: see
    /// [`AuditLog::record`]).
    pub fn new(
        event: &Event,
        project_root: Option<&Path>,
        reports: &[Report],
        answer: &Answer,
    ) -> Record {
        let handlers = reports.iter().map(HandlerRecord::from_report).collect();
        let reason = answer
            .stop_reason
            .clone()
            .filter(|_| answer.stops())
            .or_else(|| answer.permission_reason().map(str::to_string))
            .or_else(|| answer.reason.clone());
        let who = Who::get();
        Record {
            time: rfc3339(SystemTime::now()),
            agent: event.harness().to_string(),
            event: event.name().as_str().to_string(),
            tool: event.tool_name().map(str::to_string),
            session_id: event.session_id().map(str::to_string),
            tool_use_id: event.str_field("tool_use_id").map(str::to_string),
            cwd: event.cwd().map(|p| p.display().to_string()),
            project: project_root.map(|p| p.display().to_string()),
            user: who.user.clone(),
            uid: who.uid,
            host: who.host.clone(),
            version: env!("CARGO_PKG_VERSION"),
            handlers,
            config_errors: Vec::new(),
            decision: decision_of(answer).unwrap_or("none").to_string(),
            reason,
            input: None,
            input_truncated: false,
            prev: None,
        }
    }
}

impl HandlerRecord {
    /// What `report` says, for the log.
    pub fn from_report(report: &Report) -> HandlerRecord {
        let mut notes = Vec::new();
        let (outcome, decision, failure) = match &report.outcome {
            Outcome::Answered(answer) => (
                "answered",
                Some(decision_of(answer).unwrap_or("none")),
                None,
            ),
            Outcome::Failed(failure) => {
                notes.push(failure.to_string());
                ("failed", None, Some(failure.kind()))
            }
            Outcome::Skipped(skip) => {
                notes.push(skip.to_string());
                ("skipped", None, Some(skip.kind()))
            }
        };
        notes.extend(report.notes.iter().cloned());
        HandlerRecord {
            kind: report.kind.clone(),
            label: report.label.clone(),
            file: report.file.display().to_string(),
            scope: report.scope,
            trust: report.standing.map(|s| s.as_str()),
            trusted: report.standing.map(|s| s.trusted()),
            component_digest: report
                .component_sha256
                .as_ref()
                .map(|h| format!("sha256:{h}")),
            outcome,
            decision,
            failure,
            duration_ms: millis(report.duration),
            fuel_used: report.fuel_used,
            llm: report.llm.clone(),
            note: (!notes.is_empty()).then(|| crate::protocol::one_line(&notes.join("; "))),
        }
    }
}

/// Who and where: looked up once per process.
struct Who {
    user: Option<String>,
    uid: Option<u32>,
    host: Option<String>,
}

impl Who {
    fn get() -> &'static Who {
        static WHO: LazyLock<Who> = LazyLock::new(|| Who {
            user: ["USER", "LOGNAME", "USERNAME"]
                .iter()
                .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty())),
            uid: uid(),
            host: host_name(),
        });
        &WHO
    }
}

#[cfg(unix)]
fn uid() -> Option<u32> {
    // SAFETY: getuid cannot fail and touches no memory of ours.
    Some(unsafe { libc::getuid() })
}

#[cfg(not(unix))]
fn uid() -> Option<u32> {
    None
}

#[cfg(unix)]
fn host_name() -> Option<String> {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Some(String::from_utf8_lossy(&buf[..end]).into_owned()).filter(|h| !h.is_empty())
}

#[cfg(not(unix))]
fn host_name() -> Option<String> {
    std::env::var("COMPUTERNAME").ok().filter(|h| !h.is_empty())
}

/// Whether a key names a secret: once lower-cased with `_`, `-` and `.`
/// taken out, it contains `token`, `secret`, `password`, `passwd`,
/// `passphrase`, `apikey`, `accesskey`, `privatekey`, `authorization`,
/// `cookie`, `credential` or `signature`, or ends in `key`.
pub fn secret_key(key: &str) -> bool {
    const WORDS: &[&str] = &[
        "token",
        "secret",
        "password",
        "passwd",
        "passphrase",
        "apikey",
        "accesskey",
        "privatekey",
        "authorization",
        "cookie",
        "credential",
        "signature",
    ];
    let key: String = key
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    key.ends_with("key") || WORDS.iter().any(|w| key.contains(w))
}

/// In text (a shell command), `NAME=value` or `NAME: value` where `NAME`
/// looks like a secret, and the credential of `Bearer`/`Basic`.
static SECRET_IN_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b([a-z0-9_.-]*(?:token|secret|password|passwd|passphrase|api[_-]?key|access[_-]?key|private[_-]?key|authorization|cookie|credential)[a-z0-9_.-]*["']?\s*[:=]\s*)(?:bearer\s+|basic\s+)?("[^"]*"|'[^']*'|[^\s"']+)|\b(bearer|basic)\s+[a-z0-9._~+/=-]{8,}"#,
    )
    .expect("a valid regex")
});

/// `value` with secrets redacted: every value under a key [`secret_key`]
/// accepts becomes `"[redacted]"` (whatever its type), and in strings,
/// `NAME=value` / `NAME: value` assignments with a secret-looking `NAME`
/// and `Bearer`/`Basic` credentials lose their value.
pub fn redact(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if secret_key(k) {
                        Value::String(REDACTED.to_string())
                    } else {
                        redact(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        Value::String(text) => Value::String(redact_text(text)),
        other => other.clone(),
    }
}

fn redact_text(text: &str) -> String {
    SECRET_IN_TEXT
        .replace_all(text, |caps: &regex_lite::Captures<'_>| match caps.get(1) {
            Some(name) => format!("{}{REDACTED}", name.as_str()),
            None => format!("{} {REDACTED}", &caps[3]),
        })
        .into_owned()
}

/// The redacted input, or (past [`INPUT_MAX`] bytes of JSON) a string of its
/// first bytes, cut on a character boundary; and whether it was cut.
fn capped_input(input: &Value) -> (Value, bool) {
    let redacted = redact(input);
    let text = redacted.to_string();
    if text.len() <= INPUT_MAX {
        return (redacted, false);
    }
    let end = text.floor_char_boundary(INPUT_MAX);
    (Value::String(text[..end].to_string()), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Failure, Skip};
    use serde_json::{json, Value};

    fn report(kind: &str, label: &str, outcome: Outcome) -> Report {
        Report {
            outcome,
            duration: Duration::from_millis(12),
            standing: Some(crate::trust::Standing::User),
            ..Report::of(
                label,
                kind,
                Scope::User,
                "/home/u/.agents/hooks.json".into(),
            )
        }
    }

    fn event() -> Event {
        let input = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                           "tool_input": {"command": "ls"}});
        Event::new(input, None, "gemini").unwrap()
    }

    fn deny(reason: &str) -> Answer {
        serde_json::from_value(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": reason}}))
        .unwrap()
    }

    #[test]
    fn record_lists_each_handler_and_the_final_decision() {
        let reports = [
            report("command", "command `ok`", Outcome::Answered(Answer::none())),
            report("command", "command `no`", Outcome::Answered(deny("nope"))),
            report(
                "wasm",
                "wasm `g.wasm`",
                Outcome::Failed(Failure::OutOfFuel { fuel: 5 }),
            ),
            report("command", "command `x`", Outcome::Skipped(Skip::Untrusted)),
        ];
        let record = Record::new(&event(), Some(Path::new("/p")), &reports, &deny("nope"));
        let v = serde_json::to_value(&record).unwrap();
        assert_eq!(v["agent"], "gemini");
        assert_eq!(v["event"], "PreToolUse");
        assert_eq!(v["tool"], "Bash");
        assert_eq!(v["project"], "/p");
        assert_eq!(v["decision"], "deny");
        assert_eq!(v["reason"], "nope");
        let h = &v["handlers"];
        assert_eq!(h[0]["outcome"], "answered");
        assert_eq!(h[0]["decision"], "none");
        assert_eq!(h[1]["decision"], "deny");
        assert_eq!(h[1]["durationMs"], 12);
        assert_eq!(h[2]["outcome"], "failed");
        assert_eq!(h[2].get("decision"), None);
        assert!(h[2]["note"].as_str().unwrap().contains("out of fuel"));
        assert_eq!(h[3]["outcome"], "skipped");
        assert!(h[3]["note"].as_str().unwrap().contains("agenthooks trust"));
        assert!(v["time"].as_str().unwrap().ends_with('Z'));
    }

    #[test]
    fn no_opinion_is_recorded_as_none_and_the_event_says_who_and_where() {
        let input = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                           "session_id": "s-1", "tool_use_id": "toolu_9", "cwd": "/w",
                           "tool_input": {"command": "ls"}});
        let event = Event::new(input, None, "claude").unwrap();
        let record = Record::new(&event, None, &[], &Answer::none());
        let v = serde_json::to_value(&record).unwrap();
        assert_eq!(v["decision"], "none");
        assert_eq!(v.get("project"), None);
        assert_eq!(v.get("reason"), None);
        assert_eq!(v["session_id"], "s-1");
        assert_eq!(v["tool_use_id"], "toolu_9");
        assert_eq!(v["cwd"], "/w");
        assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
        assert!(v["host"].as_str().is_some_and(|h| !h.is_empty()), "{v}");
        #[cfg(unix)]
        assert!(v["uid"].is_u64(), "{v}");
        assert_eq!(v.get("input"), None, "input is opt-in");
    }

    #[test]
    fn handlers_carry_file_scope_trust_digest_and_failure_kind() {
        let mut r = report(
            "wasm",
            "wasm `g.wasm`",
            Outcome::Failed(Failure::OutOfFuel { fuel: 5 }),
        );
        r.component_sha256 = Some("ab".repeat(32));
        r.scope = Scope::Project;
        r.file = PathBuf::from("/p/.agents/hooks.json");
        r.standing = Some(crate::trust::Standing::Sandboxed);
        let skipped = report("command", "c", Outcome::Skipped(Skip::Untrusted));
        let v = serde_json::to_value(HandlerRecord::from_report(&r)).unwrap();
        assert_eq!(v["file"], "/p/.agents/hooks.json");
        assert_eq!(v["scope"], "project");
        assert_eq!(v["trust"], "sandboxed");
        assert_eq!(v["trusted"], false);
        assert_eq!(v["componentDigest"], format!("sha256:{}", "ab".repeat(32)));
        assert_eq!(v["failure"], "out-of-fuel");
        let v = serde_json::to_value(HandlerRecord::from_report(&skipped)).unwrap();
        assert_eq!(v["failure"], "untrusted");
        assert_eq!(v["trusted"], true);
        assert_eq!(v["scope"], "user");
    }

    #[test]
    fn secret_looking_keys_and_assignments_are_redacted() {
        for key in [
            "token",
            "GITHUB_TOKEN",
            "api_key",
            "apiKey",
            "client-secret",
            "Password",
            "authorization",
            "Cookie",
            "aws.credentials",
            "ssh_key",
            "privateKey",
        ] {
            assert!(secret_key(key), "{key}");
        }
        for key in [
            "command",
            "file_path",
            "content",
            "description",
            "url",
            "keys",
        ] {
            assert!(!secret_key(key), "{key}");
        }
        let input = json!({
            "command": "GITHUB_TOKEN=ghp_abc123 gh pr list; curl -H 'Authorization: Bearer eyJhbGciOi' https://x; echo token: hunter2",
            "env": {"API_KEY": "k-123", "PATH": "/bin"},
            "headers": [{"cookie": "a=b"}],
            "password": {"nested": "object"},
            "file_path": "/src/main.rs",
        });
        let out = redact(&input);
        let text = out.to_string();
        for secret in [
            "ghp_abc123",
            "eyJhbGciOi",
            "hunter2",
            "k-123",
            "a=b",
            "nested",
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert_eq!(out["env"]["PATH"], "/bin");
        assert_eq!(out["env"]["API_KEY"], REDACTED);
        assert_eq!(out["password"], REDACTED);
        assert_eq!(out["file_path"], "/src/main.rs");
        let command = out["command"].as_str().unwrap();
        assert!(
            command.starts_with("GITHUB_TOKEN=[redacted] gh pr list"),
            "{command}"
        );
        assert!(command.contains("https://x"), "{command}");
    }

    #[test]
    fn the_input_is_capped() {
        let (small, cut) = capped_input(&json!({"command": "ls"}));
        assert_eq!((small, cut), (json!({"command": "ls"}), false));
        let big = json!({"content": "é".repeat(INPUT_MAX)});
        let (out, cut) = capped_input(&big);
        assert!(cut);
        let text = out.as_str().unwrap();
        assert!(text.len() <= INPUT_MAX && text.len() > INPUT_MAX - 4);
        assert!(text.starts_with(r#"{"content":"éé"#));
    }

    #[test]
    fn include_input_and_config_errors_reach_the_record() {
        let config = Config {
            broken: vec![crate::config::BrokenFile {
                file: PathBuf::from("/etc/agenthooks/hooks.json"),
                scope: Scope::User,
                why: "line 1 column 2: trailing comma".into(),
                lost_deny: false,
                unreadable: false,
            }],
            ..Config::default()
        };
        let log = AuditLog::new("/unused", None);
        let v = serde_json::to_value(log.record(&event(), None, &[], &Answer::none(), &config))
            .unwrap();
        assert_eq!(v.get("input"), None);
        assert_eq!(v["configErrors"][0]["file"], "/etc/agenthooks/hooks.json");
        assert_eq!(v["configErrors"][0]["scope"], "user");
        assert!(v["configErrors"][0]["why"]
            .as_str()
            .unwrap()
            .contains("trailing comma"));
        let log = log.with_input(true);
        let v = serde_json::to_value(log.record(&event(), None, &[], &Answer::none(), &config))
            .unwrap();
        assert_eq!(v["input"], json!({"command": "ls"}));
        assert_eq!(v.get("inputTruncated"), None);
    }

    #[test]
    fn a_second_writer_past_the_cap_does_not_rotate_again() {
        let dir = tempfile::tempdir().unwrap();
        let record = Record::new(&event(), None, &[], &Answer::none());
        let one = chained_len(&record) as usize;
        let log = AuditLog::new(dir.path().join("a.log"), Some(one as u64 * 2));
        for _ in 0..3 {
            assert_eq!(log.write(&record), None);
        }
        // A writer that saw the old, full file before the rotation rotates
        // only if the file is still over the cap: the rotated lines stay.
        log.rotate(one).unwrap();
        let count = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
        assert_eq!(count(&log.rotated_path()), 2);
        assert_eq!(count(log.path()), 1);
    }

    /// The length of `record`'s line once chained (past a log's first).
    fn chained_len(record: &Record) -> u64 {
        let chained = Record {
            prev: Some(hash_line(b"")),
            ..record.clone()
        };
        serde_json::to_vec(&chained).unwrap().len() as u64 + 1
    }

    fn deny_record() -> Record {
        Record::new(&event(), None, &[], &deny("no"))
    }

    /// `n` records (deny, then no opinion, in turn) written to `log`.
    fn fill(log: AuditLog, n: usize) -> AuditLog {
        for i in 0..n {
            let record = if i % 2 == 0 {
                deny_record()
            } else {
                Record::new(&event(), None, &[], &Answer::none())
            };
            assert_eq!(log.write(&record), None);
        }
        log
    }

    /// A log of `n` records (deny, then no opinion), rotated past `cap`.
    fn written(dir: &Path, n: usize, cap: Option<u64>) -> AuditLog {
        fill(AuditLog::new(dir.join("audit.jsonl"), cap), n)
    }

    /// A signed log of `n` records, and the key's public half.
    fn signed_log(dir: &Path, n: usize) -> (AuditLog, PublicKey) {
        let key = dir.join("keys/audit.pk8");
        let log = AuditLog::new(dir.join("audit.jsonl"), None).signed_with(Some(key.clone()));
        let log = fill(log, n);
        let public = sign::Signer::load(&key).unwrap().public().clone();
        (log, public)
    }

    #[test]
    fn signed_records_verify_with_their_key_and_not_another() {
        let dir = tempfile::tempdir().unwrap();
        let (log, public) = signed_log(dir.path(), 3);
        let path = log.path().to_path_buf();
        let ok = verify(std::slice::from_ref(&path), Some(&public)).unwrap();
        assert_eq!((ok.records, ok.signed, ok.signatures_checked), (3, 3, true));
        // Without a key the chain is checked, the signatures only counted.
        let unchecked = verify(std::slice::from_ref(&path), None).unwrap();
        assert_eq!((unchecked.signed, unchecked.signatures_checked), (3, false));

        // The last record edited and signed again with another key: its
        // chain still holds (nothing follows it), its signer does not.
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let other = sign::Signer::load_or_create(&dir.path().join("other.pk8")).unwrap();
        let parts = sign::split(lines[2].as_bytes()).unwrap().unwrap();
        let edited = String::from_utf8(parts.unsigned)
            .unwrap()
            .replace("\"decision\":\"deny\"", "\"decision\":\"allow\"");
        lines[2] = String::from_utf8(other.sign_line(edited.as_bytes())).unwrap();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let shown = path.display();
        let why = verify(std::slice::from_ref(&path), Some(&public)).unwrap_err();
        assert!(
            why.starts_with(&format!(
                "{shown}:3: the record is signed with the key {}",
                other.public().id()
            )),
            "{why}"
        );
        assert!(why.contains("signed again by someone else"), "{why}");
        // Edited with the signature kept: the signature no longer holds.
        let original: Vec<String> = text.lines().map(str::to_string).collect();
        lines[2] = original[2].replace("\"decision\":\"deny\"", "\"decision\":\"allow\"");
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let why = verify(std::slice::from_ref(&path), Some(&public)).unwrap_err();
        assert!(
            why.starts_with(&format!("{shown}:3: the record's signature does not match")),
            "{why}"
        );
        // The signature stripped from a record after signed ones.
        let parts = sign::split(original[2].as_bytes()).unwrap().unwrap();
        lines[2] = String::from_utf8(parts.unsigned).unwrap();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let why = verify(std::slice::from_ref(&path), None).unwrap_err();
        assert!(
            why.starts_with(&format!("{shown}:3: the record is not signed")),
            "{why}"
        );
    }

    #[test]
    fn a_key_that_cannot_be_used_leaves_the_record_written_unsigned_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("key.pk8");
        std::fs::write(&key, b"garbage").unwrap();
        let log = AuditLog::new(dir.path().join("audit.jsonl"), None).signed_with(Some(key));
        let note = log.write(&deny_record()).unwrap();
        assert!(note.contains("written unsigned"), "{note}");
        assert!(note.contains("not a PKCS#8 Ed25519 key"), "{note}");
        let ok = verify(&[log.path().to_path_buf()], None).unwrap();
        assert_eq!((ok.records, ok.signed), (1, 0));
        // A trusted key given, and nothing signed: refused.
        let other = sign::Signer::load_or_create(&dir.path().join("k2.pk8")).unwrap();
        let why = verify(&[log.path().to_path_buf()], Some(other.public())).unwrap_err();
        assert!(why.starts_with("no record is signed"), "{why}");
    }

    #[test]
    fn each_record_chains_to_the_one_before_and_verify_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let log = written(dir.path(), 4, None);
        let text = std::fs::read_to_string(log.path()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let prev = |i: usize| -> String {
            let v: Value = serde_json::from_str(lines[i]).unwrap();
            v["prev"].as_str().unwrap().to_string()
        };
        assert_eq!(prev(0), GENESIS);
        for i in 1..4 {
            assert_eq!(prev(i), hash_line(lines[i - 1].as_bytes()));
        }
        let ok = verify(&[log.path().to_path_buf()], None).unwrap();
        assert_eq!((ok.records, ok.starts_at.as_str()), (4, GENESIS));
    }

    #[test]
    fn the_chain_continues_across_rotation() {
        let dir = tempfile::tempdir().unwrap();
        let one = chained_len(&deny_record());
        let log = written(dir.path(), 5, Some(one * 3));
        assert!(log.rotated_path().is_file());
        let first_now: Value = serde_json::from_str(
            std::fs::read_to_string(log.path())
                .unwrap()
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        let rotated = std::fs::read_to_string(log.rotated_path()).unwrap();
        let last_rotated = rotated.lines().last().unwrap();
        assert_eq!(first_now["prev"], hash_line(last_rotated.as_bytes()));
        let ok = verify(&[log.rotated_path(), log.path().to_path_buf()], None).unwrap();
        assert_eq!(ok.records, 5);
        // The current file alone continues a record it does not hold.
        let alone = verify(&[log.path().to_path_buf()], None).unwrap();
        assert_eq!(alone.starts_at, hash_line(last_rotated.as_bytes()));
    }

    #[test]
    fn an_edited_removed_or_inserted_record_breaks_the_chain_where_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let log = written(dir.path(), 4, None);
        let path = log.path().to_path_buf();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let shown = path.display().to_string();
        let check = |lines: &[String]| {
            std::fs::write(&path, lines.join("\n") + "\n").unwrap();
            verify(std::slice::from_ref(&path), None).unwrap_err()
        };
        // A deny turned into an allow: the next record no longer chains.
        let mut edited = lines.clone();
        edited[2] = edited[2].replace("\"decision\":\"deny\"", "\"decision\":\"allow\"");
        assert_ne!(edited[2], lines[2]);
        let why = check(&edited);
        assert!(
            why.starts_with(&format!("{shown}:4: the chain breaks here")),
            "{why}"
        );
        assert!(why.contains(&format!("({shown}:3)")), "{why}");
        // A record removed.
        let mut removed = lines.clone();
        removed.remove(1);
        let why = check(&removed);
        assert!(
            why.starts_with(&format!("{shown}:2: the chain breaks here")),
            "{why}"
        );
        // A record inserted (a copy of the first, its own `prev` and all).
        let mut inserted = lines.clone();
        inserted.insert(1, lines[0].clone());
        let why = check(&inserted);
        assert!(
            why.starts_with(&format!("{shown}:2: the chain breaks here")),
            "{why}"
        );
        // One without `prev`, and a line that is no record.
        let mut bare = lines.clone();
        bare.insert(2, "{\"decision\":\"allow\"}".to_string());
        assert!(check(&bare).starts_with(&format!("{shown}:3: the record carries no `prev`")));
        let mut cut = lines.clone();
        cut[1].truncate(20);
        assert!(check(&cut).starts_with(&format!("{shown}:2: not a JSON record")));
        // The untouched log verifies again.
        std::fs::write(&path, &text).unwrap();
        assert_eq!(
            verify(std::slice::from_ref(&path), None).unwrap().records,
            4
        );
    }

    #[cfg(unix)]
    #[test]
    fn concurrent_writers_chain_one_after_the_other() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let writers: Vec<_> = (0..4)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let log = AuditLog::new(path, None);
                    for _ in 0..25 {
                        assert_eq!(log.write(&deny_record()), None);
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        assert_eq!(verify(&[path], None).unwrap().records, 100);
    }

    #[test]
    fn lines_are_appended_whole() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(dir.path().join("audit.jsonl"), None);
        let record = Record::new(&event(), None, &[], &Answer::none());
        assert_eq!(log.write(&record), None);
        assert_eq!(log.write(&record), None);
        let text = std::fs::read_to_string(log.path()).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn the_log_rotates_past_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let record = Record::new(&event(), None, &[], &Answer::none());
        let one = chained_len(&record);
        let log = AuditLog::new(dir.path().join("a.log"), Some(one * 2));
        for _ in 0..3 {
            assert_eq!(log.write(&record), None);
        }
        let count = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
        assert_eq!(count(log.path()), 1);
        assert_eq!(count(&log.rotated_path()), 2);
        assert!(log.rotated_path().ends_with("a.log.1"));
    }

    #[test]
    fn an_unwritable_path_is_a_note_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(dir.path().join("missing-dir/audit.jsonl"), None);
        let record = Record::new(&event(), None, &[], &Answer::none());
        let note = log.write(&record).expect("a note");
        assert!(note.contains("cannot write the audit log"), "{note}");
        assert!(!note.contains('\n'));
        // A directory at the path is not written either, and nothing is
        // made beside it.
        let at = dir.path().join("a-dir");
        std::fs::create_dir(&at).unwrap();
        let log = AuditLog::new(&at, None);
        assert!(log.write(&record).is_some());
        assert!(!dir.path().join("a-dir.lock").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_at_the_path_does_not_block() {
        let (_dir, path) = crate::fsread::temp_fifo("fifo");
        let log = AuditLog::new(&path, None);
        let record = Record::new(&event(), None, &[], &Answer::none());
        assert!(log.write(&record).is_some());
    }

    #[test]
    fn the_environment_wins_over_the_config() {
        let cfg = |path: &str, max| AuditConfig {
            path: PathBuf::from(path),
            max_bytes: max,
            include_input: true,
            sign: None,
        };
        let env = Some("/tmp/from-env.jsonl".into());
        let log = AuditLog::resolve_with(env, Some(&cfg("/cfg.jsonl", Some(5)))).unwrap();
        assert_eq!(
            log,
            AuditLog::new("/tmp/from-env.jsonl", Some(5)).with_input(true)
        );
        let log = AuditLog::resolve_with(Some("".into()), Some(&cfg("/c", None))).unwrap();
        assert_eq!(log, AuditLog::new("/c", None).with_input(true));
        assert_eq!(AuditLog::resolve_with(None, None), None);
        let env = Some("/e".into());
        assert_eq!(
            AuditLog::resolve_with(env, None),
            Some(AuditLog::new("/e", None))
        );
    }
}
