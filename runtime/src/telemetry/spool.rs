//! The spool: spans waiting for export, on disk, so that `run` answers
//! first and never waits on the network.
//!
//! `run` appends one line per event (its spans, one write on a file opened
//! `O_APPEND`) after the answer is written, and starts the flusher (the
//! engine's hidden `__otel-flush`) unless one is at work. The flusher takes
//! the whole spool (a rename), exports it, and on failure puts the spans
//! back and leaves `last-error` for the next event to note once per session.
//!
//! Bounded: the spool holds at most [`CAP`] bytes; an event's spans past
//! that are dropped and counted in `dropped` (said with the export error).

use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

/// The most bytes the spool holds: a few hundred events' spans.
pub const CAP: u64 = 256 << 10;

/// The largest count of dropped spans kept (one byte each): past it the
/// note says "at least".
pub const DROPPED_CAP: u64 = 64 << 10;

/// A flusher's lock older than this is a flusher that died: it is taken
/// over. Longer than a flusher lives (its rounds, plus one request at the
/// longest timeout).
const STALE_LOCK: Duration = Duration::from_secs(30);

/// The largest `last-error` read.
const MAX_ERROR: u64 = 4 << 10;

/// One span, as spooled: what the exporter turns into OTLP.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpanRecord {
    /// Trace id, 32 hex digits.
    pub trace: String,
    /// Span id, 16 hex digits.
    pub span: String,
    /// Parent span id, 16 hex digits (`None`: a root span).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// `tracestate`, passed on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// The span's name.
    pub name: String,
    /// Start, nanoseconds since the Unix epoch.
    pub start: u64,
    /// End, nanoseconds since the Unix epoch.
    pub end: u64,
    /// Status error message (`None`: unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The attributes, in order.
    pub attrs: Vec<(String, Attr)>,
}

/// An attribute's value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Attr {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
}

/// Nanoseconds since the Unix epoch (0 before it).
pub fn nanos(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// The spool's directory: `telemetry/` in the state directory.
#[derive(Debug, Clone)]
pub struct Spool {
    dir: PathBuf,
}

/// What went wrong with the last export, for the next event's note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastError {
    /// The endpoint, as shown (no credentials).
    pub endpoint: String,
    /// What happened, one line (never a header's value).
    pub why: String,
}

impl Spool {
    /// The spool under agenthooks' state directory; `None` without a home.
    pub fn open() -> Option<Spool> {
        crate::dirs::state().map(|state| Spool::at(state.join("telemetry")))
    }

    /// The spool in `dir` (tests).
    pub fn at(dir: impl Into<PathBuf>) -> Spool {
        Spool { dir: dir.into() }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Where the spans wait.
    pub fn spans_path(&self) -> PathBuf {
        self.file("spans.jsonl")
    }

    /// Append one event's spans as one line; past [`CAP`] they are
    /// dropped and counted instead. Errors are the caller's to ignore: the
    /// answer went out already.
    ///
    /// # Errors
    /// When the directory or the file cannot be written.
    pub fn append(&self, spans: &[SpanRecord]) -> io::Result<()> {
        self.append_to(spans, true)
    }

    /// [`Spool::append`]; the directory is made only when `make_dir` (the
    /// flusher never makes it: a spool removed while it ran, with the home
    /// it was in, stays removed).
    fn append_to(&self, spans: &[SpanRecord], make_dir: bool) -> io::Result<()> {
        if spans.is_empty() {
            return Ok(());
        }
        let path = self.spans_path();
        // The directory is made only the first time: each event pays an
        // open, a stat of the open file and a write.
        let (mut file, size) = match append_only(&path) {
            Err(e) if make_dir && e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(&self.dir)?;
                append_only(&path)?
            }
            other => other?,
        };
        // A full spool (an endpoint down for a while) is the steady state
        // of every later event: it is told before anything is encoded.
        if size >= CAP {
            return self.count_dropped(spans.len());
        }
        let mut line = serde_json::to_vec(spans).map_err(io::Error::other)?;
        line.push(b'\n');
        if size + line.len() as u64 > CAP {
            return self.count_dropped(spans.len());
        }
        // One write: with O_APPEND concurrent events never interleave.
        file.write_all(&line)
    }

    /// Add `n` to the count of dropped spans: one byte per span appended
    /// to `dropped`, whose size is the count. Every event pays this while
    /// the endpoint is down, so it is one append, never a read, a rewrite
    /// or a sync; concurrent events never lose each other's counts.
    fn count_dropped(&self, n: usize) -> io::Result<()> {
        let (mut file, size) = append_only(&self.file("dropped"))?;
        let room = usize::try_from(DROPPED_CAP.saturating_sub(size)).unwrap_or(usize::MAX);
        if room == 0 {
            return Ok(());
        }
        file.write_all(&vec![b'.'; n.min(room)])
    }

    /// How many spans were dropped since the count was last cleared (at
    /// most [`DROPPED_CAP`]: the count stops there).
    pub fn dropped(&self) -> u64 {
        fs::symlink_metadata(self.file("dropped"))
            .ok()
            .filter(fs::Metadata::is_file)
            .map_or(0, |m| m.len().min(DROPPED_CAP))
    }

    /// Whether a flusher is at work (its lock is there and fresh): one
    /// `stat`.
    pub fn flusher_running(&self) -> bool {
        fs::metadata(self.file("flush.lock"))
            .and_then(|m| m.modified())
            .is_ok_and(|at| at.elapsed().map_or(true, |age| age < STALE_LOCK))
    }

    /// Take the flusher's lock; `None` when another flusher holds it.
    pub fn lock(&self) -> Option<FlushLock> {
        // No directory, nothing to flush (`run` makes it with the spool).
        let path = self.file("flush.lock");
        for _ in 0..2 {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    let _ = write!(file, "{}", std::process::id());
                    return Some(FlushLock { path });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    if self.flusher_running() {
                        return None;
                    }
                    // A flusher that died: its lock is taken over.
                    let _ = fs::remove_file(&path);
                }
                Err(_) => return None,
            }
        }
        None
    }

    /// Take every span waiting (the flusher's, under its lock): the spool
    /// is renamed aside, so events keep appending to a new one meanwhile.
    /// Lines that do not parse are dropped.
    pub fn take(&self) -> Vec<SpanRecord> {
        let sending = self.file("sending.jsonl");
        // Spans a flusher that died left aside come first.
        if !sending.exists() {
            let _ = fs::rename(self.spans_path(), &sending);
        }
        let text = read_small(&sending, CAP * 2).unwrap_or_default();
        let _ = fs::remove_file(&sending);
        text.lines()
            .filter_map(|line| serde_json::from_str::<Vec<SpanRecord>>(line).ok())
            .flatten()
            .collect()
    }

    /// Put `spans` back after a failed export (as far as the cap allows).
    pub fn put_back(&self, spans: &[SpanRecord]) {
        for chunk in spans.chunks(64) {
            let _ = self.append_to(chunk, false);
        }
    }

    /// Record the last export's failure (`None`: it succeeded, and the
    /// dropped count, said with the failure, starts again).
    pub fn set_last_error(&self, error: Option<&LastError>) {
        let path = self.file("last-error");
        match error {
            Some(error) => {
                // Into the spool's directory, which `run` made.
                if let Ok(text) = serde_json::to_vec(error) {
                    let _ = crate::atomic::write(&path, &text, false);
                }
            }
            None => {
                let _ = fs::remove_file(&path);
                let _ = fs::remove_file(self.file("dropped"));
            }
        }
    }

    /// The last export's failure, if it failed.
    pub fn last_error(&self) -> Option<LastError> {
        let text = read_small(&self.file("last-error"), MAX_ERROR).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// The flusher's lock, released on drop.
#[derive(Debug)]
pub struct FlushLock {
    path: PathBuf,
}

impl Drop for FlushLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Open `path` to append, creating it owner-only (without blocking on a
/// FIFO there); the file and its size.
fn append_only(path: &Path) -> io::Result<(fs::File, u64)> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok((file, meta.len()))
}

/// At most `max` bytes of the regular file `path`, as text.
fn read_small(path: &Path, max: u64) -> io::Result<String> {
    let file = fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let mut text = String::new();
    file.take(max).read_to_string(&mut text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(name: &str) -> SpanRecord {
        SpanRecord {
            trace: "4bf92f3577b34da6a3ce929d0e0e4736".into(),
            span: "00f067aa0ba902b7".into(),
            parent: None,
            state: None,
            name: name.into(),
            start: 1,
            end: 2,
            error: None,
            attrs: vec![
                ("a".into(), Attr::Str("x".into())),
                ("n".into(), Attr::Int(3)),
                ("b".into(), Attr::Bool(true)),
            ],
        }
    }

    #[test]
    fn spans_round_trip_and_past_the_cap_are_counted() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::at(dir.path().join("t"));
        spool.append(&[span("a"), span("b")]).unwrap();
        spool.append(&[span("c")]).unwrap();
        let taken = spool.take();
        assert_eq!(taken.len(), 3);
        assert_eq!(taken[0], span("a"));
        assert!(spool.take().is_empty());
        let big = span(&"x".repeat(CAP as usize));
        spool.append(&[big]).unwrap();
        assert_eq!(spool.dropped(), 1);
        assert!(spool.take().is_empty());
        // A full spool counts every later event's spans, and the count
        // stops at its cap.
        fs::write(spool.spans_path(), vec![b' '; CAP as usize]).unwrap();
        spool.append(&[span("d"), span("e")]).unwrap();
        assert_eq!(spool.dropped(), 3);
        fs::write(
            spool.dir().join("dropped"),
            vec![b'.'; DROPPED_CAP as usize - 1],
        )
        .unwrap();
        spool.append(&[span("f"), span("g")]).unwrap();
        assert_eq!(spool.dropped(), DROPPED_CAP);
        assert_eq!(fs::metadata(spool.spans_path()).unwrap().len(), CAP);
    }

    #[test]
    fn the_flusher_never_makes_the_spools_directory() {
        let dir = tempfile::tempdir().unwrap();
        let gone = Spool::at(dir.path().join("gone"));
        gone.put_back(&[span("a")]);
        gone.set_last_error(Some(&LastError {
            endpoint: "e".into(),
            why: "w".into(),
        }));
        assert!(gone.lock().is_none());
        assert!(!gone.dir().exists());
    }

    #[test]
    fn one_flusher_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::at(dir.path());
        assert!(!spool.flusher_running());
        let held = spool.lock().unwrap();
        assert!(spool.flusher_running());
        assert!(spool.lock().is_none());
        drop(held);
        assert!(!spool.flusher_running());
        assert!(spool.lock().is_some());
    }

    #[test]
    fn the_last_error_is_kept_until_an_export_succeeds() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::at(dir.path());
        assert_eq!(spool.last_error(), None);
        let error = LastError {
            endpoint: "http://h/v1/traces".into(),
            why: "refused".into(),
        };
        spool.set_last_error(Some(&error));
        assert_eq!(spool.last_error(), Some(error));
        spool.set_last_error(None);
        assert_eq!(spool.last_error(), None);
    }
}
