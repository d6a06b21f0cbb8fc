//! `agenthooks status --probe`: each wired entry run as its agent runs it
//! (the command text from the agent's own file, through the agent's shell
//! (`shell_of`), in the project, with this process's PATH, which is the
//! agent's when the agent was started from the same shell), with a probe event that agenthooks
//! answers itself without loading or running any hook ([`answer_if_probe`]);
//! per agent and event, whether the answer came back in the agent's dialect,
//! in how long, and what failed.
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
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::findings::AgentState;
use crate::agents::{self, Agent};
use crate::config::Scope;
use crate::install::{self, Entry, Env};

/// The variable holding the probe's nonce (set by `status --probe` for the
/// probe's process only).
pub const PROBE_VAR: &str = "AGENTHOOKS_PROBE";

/// The payload field holding the same nonce.
pub const PROBE_FIELD: &str = "agenthooks_probe";

/// What the answer to a probe says on stderr, before the nonce.
const ANSWER_PREFIX: &str = "agenthooks probe ";

/// How long one probe may take before it is killed.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// The most bytes of a probe's stdout or stderr kept.
const OUTPUT_CAP: u64 = 64 << 10;

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
fn valid_nonce(nonce: &str) -> bool {
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
fn is_probe(payload: &[u8], nonce: &str) -> bool {
    serde_json::from_slice::<Value>(payload).is_ok_and(|v| is_probe_value(&v, nonce))
}

/// Whether `value` is an object whose [`PROBE_FIELD`] is `nonce`.
fn is_probe_value(value: &Value, nonce: &str) -> bool {
    value.get(PROBE_FIELD).and_then(Value::as_str) == Some(nonce)
}

/// A fresh nonce: 128 bits from the standard library's randomly keyed
/// hasher (nothing here needs more than unguessable).
fn nonce() -> String {
    use std::hash::BuildHasher as _;
    let state = std::collections::hash_map::RandomState::new();
    let seed = (
        std::process::id(),
        Instant::now(),
        std::time::SystemTime::now(),
    );
    let a = state.hash_one(format!("{seed:?}a"));
    let b = std::collections::hash_map::RandomState::new().hash_one(format!("{seed:?}b"));
    format!("{a:016x}{b:016x}")
}

/// One probe: an agent's entry for one event at one scope, and what came of it.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The agent.
    pub agent: &'static str,
    /// The scope of its entry.
    pub scope: Scope,
    /// The native event.
    pub event: String,
    /// How long the answer took.
    pub took: Duration,
    /// What came of it.
    pub outcome: Outcome,
}

/// What came of one probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// agenthooks answered, in the agent's dialect.
    Answered,
    /// agenthooks answered, and the engine it hands events to is missing.
    EngineMissing(String),
    /// The entry's launcher did not find agenthooks on that PATH.
    NotFound,
    /// agenthooks answered, not in the agent's dialect (another version?).
    WrongDialect(String),
    /// No answer from agenthooks: a shell error, or another program.
    NoAnswer(String),
    /// It ran past [`PROBE_TIMEOUT`] and was killed.
    TimedOut,
    /// Not run here: the agent runs such entries its own way.
    NotProbed(String),
}

impl Probe {
    /// Whether it answered as it should (or was not probed).
    pub fn answered(&self) -> bool {
        matches!(self.outcome, Outcome::Answered | Outcome::NotProbed(_))
    }

    /// Its line for `status`.
    pub fn line(&self) -> String {
        let at = format!("probe {} {} ({})", self.agent, self.event, self.scope);
        let ms = self.took.as_millis();
        match &self.outcome {
            Outcome::Answered => format!("{at}: answered in {ms} ms"),
            Outcome::EngineMissing(engine) => format!(
                "{at}: answered in {ms} ms, and the engine is {engine}: hooks other than command hooks do not run; install it: `{}`",
                crate::origin::install_line()
            ),
            Outcome::NotFound => format!(
                "{at}: no answer: `agenthooks` is not found on the PATH this probe ran with; install it (`{}`) or put it on that PATH",
                crate::origin::install_line()
            ),
            Outcome::WrongDialect(got) => format!(
                "{at}: answered in {ms} ms, not in the agent's dialect ({got}); reinstall agenthooks so the entries and this binary agree"
            ),
            Outcome::NoAnswer(why) => format!("{at}: no answer: {why}"),
            Outcome::TimedOut => format!(
                "{at}: no answer within {} s; it was stopped",
                PROBE_TIMEOUT.as_secs()
            ),
            Outcome::NotProbed(why) => format!("{at}: not probed: {why}"),
        }
    }

    /// As JSON, for `status --json`.
    pub fn to_json(&self) -> Value {
        let (code, detail) = match &self.outcome {
            Outcome::Answered => ("answered", None),
            Outcome::EngineMissing(e) => ("engine-missing", Some(e.clone())),
            Outcome::NotFound => ("not-found", None),
            Outcome::WrongDialect(d) => ("wrong-dialect", Some(d.clone())),
            Outcome::NoAnswer(w) => ("no-answer", Some(w.clone())),
            Outcome::TimedOut => ("timed-out", None),
            Outcome::NotProbed(w) => ("not-probed", Some(w.clone())),
        };
        json!({
            "agent": self.agent,
            "scope": self.scope.as_str(),
            "event": self.event,
            "outcome": code,
            "detail": detail,
            "ms": self.took.as_millis() as u64,
            "answered": self.answered(),
            "line": self.line(),
        })
    }
}

/// Probe every entry of every wired agent, one after another.
pub fn probe_all(agents: &[AgentState], root: &Path, env: &Env) -> Vec<Probe> {
    let nonce = nonce();
    let mut probes = Vec::new();
    for state in agents {
        for (scope, _) in &state.installed {
            for (event, entry) in install::installed_entries(state.agent, *scope, root, env) {
                let started = Instant::now();
                let outcome = probe_one(state.agent, &event, &entry, root, &nonce);
                probes.push(Probe {
                    agent: state.agent.id(),
                    scope: *scope,
                    event,
                    took: started.elapsed(),
                    outcome,
                });
            }
        }
    }
    probes
}

/// Run one entry with the probe event and judge its answer.
fn probe_one(agent: &dyn Agent, event: &str, entry: &Entry, root: &Path, nonce: &str) -> Outcome {
    let mut cmd = match entry {
        Entry::Shell(line) => {
            let (shell, flag) = shell_of(agent);
            let mut cmd = std::process::Command::new(shell);
            cmd.arg(flag).arg(line);
            cmd
        }
        Entry::Script(file) => std::process::Command::new(file),
        Entry::Other(file) => {
            return Outcome::NotProbed(format!(
                "{} runs the entries in `{}` its own way; `agenthooks fire --agent {}` tries the pipeline",
                agent.display_name(),
                file.display(),
                agent.id()
            ))
        }
    };
    if cfg!(not(unix)) {
        return Outcome::NotProbed("probing runs entries through `sh`, on Unix only".to_string());
    }
    cmd.current_dir(root)
        .env(PROBE_VAR, nonce)
        .env("CLAUDE_PROJECT_DIR", root);
    let payload = json!({
        "hook_event_name": event,
        "session_id": "agenthooks-probe",
        "cwd": root,
        PROBE_FIELD: nonce,
    });
    let ran = match bounded_run(cmd, payload.to_string().into_bytes()) {
        Ok(Some(ran)) => ran,
        Ok(None) => return Outcome::TimedOut,
        Err(e) => return Outcome::NoAnswer(format!("it cannot be started: {e}")),
    };
    judge(agent, nonce, &ran)
}

/// The shell `agent` runs an entry's command line through, and its flag:
/// Codex's `$SHELL -lc` (a login shell, so the user's profile sets PATH;
/// `/bin/sh` without `$SHELL`: codex-rs `hooks/src/engine/command_runner.rs`),
/// every other agent's `sh -c`.
// The one agent that differs; a second would make this a column of the
// agents' tables.
fn shell_of(agent: &dyn Agent) -> (std::ffi::OsString, &'static str) {
    if agent.id() == "codex" {
        let shell = std::env::var_os("SHELL").filter(|s| !s.is_empty());
        return (shell.unwrap_or_else(|| "/bin/sh".into()), "-lc");
    }
    ("sh".into(), "-c")
}

/// What one probe's process left.
struct Ran {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

/// The answer judged: agenthooks' line with the nonce on stderr, then the
/// agent's "no opinion" on stdout with its exit code.
fn judge(agent: &dyn Agent, nonce: &str, ran: &Ran) -> Outcome {
    let said = format!("{ANSWER_PREFIX}{nonce}: ");
    let Some(line) = ran.stderr.lines().find_map(|l| l.strip_prefix(&said)) else {
        if ran.stderr.contains(install::NOT_INSTALLED) {
            return Outcome::NotFound;
        }
        let first = ran.stderr.lines().find(|l| !l.trim().is_empty());
        return Outcome::NoAnswer(match (first, ran.code) {
            (Some(line), _) => format!("the shell said `{}`", crate::protocol::one_line(line)),
            (None, Some(code)) => format!("exit {code} with nothing on stderr"),
            (None, None) => "killed by a signal".to_string(),
        });
    };
    let expected = agent.no_opinion(Vec::new());
    if ran.code != Some(expected.exit_code) || ran.stdout.trim() != expected.stdout.trim() {
        return Outcome::WrongDialect(format!(
            "exit {:?} and {} bytes on stdout, where {} gives exit {} and {} bytes",
            ran.code,
            ran.stdout.len(),
            agent.display_name(),
            expected.exit_code,
            expected.stdout.len()
        ));
    }
    match line.split_once("engine missing: ") {
        Some((_, engine)) => Outcome::EngineMissing(format!("missing: {engine}")),
        None => Outcome::Answered,
    }
}

/// Run `cmd` with `stdin`, its output capped; `None` when it ran past
/// [`PROBE_TIMEOUT`] (it and its process group are then killed).
fn bounded_run(mut cmd: std::process::Command, stdin: Vec<u8>) -> std::io::Result<Option<Ran>> {
    use std::process::Stdio;
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        cmd.process_group(0);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let input = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(mut pipe) = input {
            use std::io::Write as _;
            let _ = pipe.write_all(&stdin);
        }
    });
    let capped = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(pipe) = pipe {
                let mut pipe = pipe.take(OUTPUT_CAP);
                let _ = pipe.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = capped(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = capped(child.stderr.take().map(|p| Box::new(p) as _));
    let deadline = Instant::now() + PROBE_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            kill_group(&mut child);
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = writer.join();
    let Some(status) = status else {
        return Ok(None);
    };
    Ok(Some(Ran {
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        code: status.code(),
    }))
}

/// Kill a probe and whatever it started (its own process group).
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: a signal to the process group this function's caller made.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_payload_with_the_nonce_is_a_probe() {
        let n = nonce();
        assert!(valid_nonce(&n), "{n}");
        assert_ne!(n, nonce());
        let probe = json!({"hook_event_name": "Stop", PROBE_FIELD: n}).to_string();
        assert!(is_probe(probe.as_bytes(), &n));
        let other = json!({"hook_event_name": "Stop", PROBE_FIELD: nonce()}).to_string();
        assert!(!is_probe(other.as_bytes(), &n));
        assert!(!is_probe(br#"{"hook_event_name": "Stop"}"#, &n));
        assert!(!is_probe(b"not json", &n));
        assert!(!valid_nonce("1") && !valid_nonce(&"g".repeat(32)));
    }

    #[test]
    fn codex_runs_its_entries_through_a_login_shell() {
        let flag = |id| shell_of(agents::find(id).unwrap()).1;
        assert_eq!(flag("codex"), "-lc");
        assert_eq!(flag("claude"), "-c");
        assert_eq!(shell_of(agents::find("gemini").unwrap()).0, "sh");
    }

    #[test]
    fn an_answer_is_judged_by_the_nonce_the_dialect_and_the_engine() {
        let claude = agents::find("claude").unwrap();
        let n = nonce();
        let ran = |stdout: &str, stderr: String, code| Ran {
            stdout: stdout.into(),
            stderr,
            code: Some(code),
        };
        let ok = format!("{ANSWER_PREFIX}{n}: answered by `/b/agenthooks`; engine present");
        assert_eq!(
            judge(claude, &n, &ran("", ok.clone(), 0)),
            Outcome::Answered
        );
        assert!(matches!(
            judge(claude, &n, &ran("{\"x\":1}", ok, 0)),
            Outcome::WrongDialect(_)
        ));
        let missing =
            format!("{ANSWER_PREFIX}{n}: answered by `/b/agenthooks`; engine missing: `/b/e`");
        assert_eq!(
            judge(claude, &n, &ran("", missing, 0)),
            Outcome::EngineMissing("missing: `/b/e`".into())
        );
        // Another nonce is not this probe's answer.
        let stale = format!("{ANSWER_PREFIX}{}: answered; engine present", nonce());
        assert!(matches!(
            judge(claude, &n, &ran("", stale, 0)),
            Outcome::NoAnswer(_)
        ));
        assert_eq!(
            judge(claude, &n, &ran("", install::NOT_INSTALLED.to_string(), 0)),
            Outcome::NotFound
        );
        assert_eq!(
            judge(claude, &n, &ran("", "sh: 1: syntax error".into(), 2)),
            Outcome::NoAnswer("the shell said `sh: 1: syntax error`".into())
        );
    }
}
