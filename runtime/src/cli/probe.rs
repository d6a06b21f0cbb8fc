//! The answering half of `agenthooks status --probe` (which
//! `status_probe.rs` sends): `run` answers a probe event itself, without
//! loading or running any hook ([`answer_if_probe`]). Here because both
//! binaries answer probes; the sending half is the engine's.
//!
//! The probe marker is two halves that must agree: a random nonce in the
//! [`PROBE_VAR`] environment variable, which `status` sets for the probe's
//! process alone, and the same nonce in the payload's [`PROBE_FIELD`]. No
//! agent sends that field, and no payload can guess the nonce, so a real
//! event is never answered as a probe, even in a shell where the variable
//! was left set: there the payload is read, found not to be a probe, and
//! given back to `run` unchanged.

use std::io::Read as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::Value;

use crate::agents;

/// The variable holding the probe's nonce (set by `status --probe` for the
/// probe's process only).
pub const PROBE_VAR: &str = "AGENTHOOKS_PROBE";

/// The payload field holding the same nonce.
pub const PROBE_FIELD: &str = "agenthooks_probe";

/// What the answer to a probe says on stderr, before the nonce.
pub(super) const ANSWER_PREFIX: &str = "agenthooks probe ";

/// How long one probe may take before it is killed.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest payload read while looking for the marker (`run`'s own cap).
#[cfg(unix)]
const MAX_PAYLOAD: u64 = crate::fsread::caps::PAYLOAD;

/// When this process runs `run` for a probe (the nonce in [`PROBE_VAR`] and
/// in the payload agree): answer it as `agent` answers "no opinion", with
/// one line on stderr naming the nonce, this binary and whether the engine
/// it hands events to is there, and give the exit code. `None` for any real
/// event (the common case costs one environment lookup), whose payload is
/// then back on stdin for `run`.
pub fn answer_if_probe(agent: &str) -> Option<ExitCode> {
    let nonce = std::env::var(PROBE_VAR).ok().filter(|n| valid_nonce(n))?;
    answer_probe(agent, &nonce)
}

#[cfg(unix)]
fn answer_probe(agent: &str, nonce: &str) -> Option<ExitCode> {
    use std::io::Write as _;
    use std::os::fd::FromRawFd as _;
    // Descriptor 0 itself, not the standard library's buffered stdin, so
    // that every byte taken off it is in `seen` and can be put back; read
    // only up to the end of the first JSON value (an agent may leave
    // stdin open), at most `run`'s own cap.
    // SAFETY: descriptor 0 is open for the life of the process; the
    // `ManuallyDrop` keeps this `File` from closing it.
    let fd0 = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(0) });
    let mut seen = Recording {
        from: (&*fd0).take(MAX_PAYLOAD),
        seen: Vec::new(),
    };
    let value = {
        let reader = std::io::BufReader::new(&mut seen);
        let mut stream = serde_json::Deserializer::from_reader(reader).into_iter::<Value>();
        stream.next().and_then(Result::ok)
    };
    let probe = value.is_some_and(|v| is_probe_value(&v, nonce));
    if !probe {
        // A real event: `run` reads it from stdin as if nothing happened.
        let _ = super::handoff::stdin_from(&seen.seen);
        return None;
    }
    let native = agents::find(agent)?.no_opinion(Vec::new());
    let me = std::env::current_exe().unwrap_or_default();
    let engine = engine_beside(&me);
    let engine_state = if engine.is_file() {
        "present".to_string()
    } else {
        format!("missing: `{}`", engine.display())
    };
    let _ = std::io::stdout().write_all(native.stdout.as_bytes());
    eprintln!(
        "{ANSWER_PREFIX}{nonce}: answered by `{}`; engine {engine_state}",
        me.display()
    );
    Some(ExitCode::from(u8::try_from(native.exit_code).unwrap_or(0)))
}

#[cfg(not(unix))]
fn answer_probe(_agent: &str, _nonce: &str) -> Option<ExitCode> {
    None
}

/// The engine this binary hands events to: itself when it is the engine.
fn engine_beside(me: &Path) -> std::path::PathBuf {
    let name = format!(
        "{}{}",
        crate::dirs::ENGINE_NAME,
        std::env::consts::EXE_SUFFIX
    );
    if me.file_name().is_some_and(|n| n == name.as_str()) {
        return me.to_path_buf();
    }
    crate::dirs::engine()
}

/// A nonce `status` could have made: 32 hex digits.
pub(super) fn valid_nonce(nonce: &str) -> bool {
    nonce.len() == 32 && nonce.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A reader that keeps a copy of every byte it hands out.
#[cfg(unix)]
struct Recording<R> {
    from: R,
    seen: Vec<u8>,
}

#[cfg(unix)]
impl<R: std::io::Read> std::io::Read for Recording<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.from.read(buf)?;
        self.seen.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// Whether `payload` is a JSON object whose [`PROBE_FIELD`] is `nonce`.
#[cfg(test)]
pub(super) fn is_probe(payload: &[u8], nonce: &str) -> bool {
    serde_json::from_slice::<Value>(payload).is_ok_and(|v| is_probe_value(&v, nonce))
}

/// Whether `value` is an object whose [`PROBE_FIELD`] is `nonce`.
fn is_probe_value(value: &Value, nonce: &str) -> bool {
    value.get(PROBE_FIELD).and_then(Value::as_str) == Some(nonce)
}
