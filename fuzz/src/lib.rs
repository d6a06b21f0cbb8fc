//! What the fuzz targets share: how a target's input bytes are split into
//! its parts, and the checks every note and native answer must pass.
//!
//! Each target's input layout is documented on the function that splits it,
//! so `seed.sh` and a person writing a seed by hand agree with the target.

use agenthooks::fuzzing::NOTE_MAX_CHARS;
use agenthooks::fuzzing::{Agent, Native, AGENTS};

/// The longest line a note may be: the fixed text of the longest note plus
/// one quoted value cut to [`NOTE_MAX_CHARS`] (and a file path). Generous on
/// purpose: it catches a note that echoes its input, not a wordy one.
pub const NOTE_BOUND: usize = 3 * NOTE_MAX_CHARS;

/// The agent a byte picks (every byte picks one, so no input is wasted).
pub fn agent(byte: u8) -> &'static dyn Agent {
    AGENTS[usize::from(byte) % AGENTS.len()]
}

/// Splits `[agent byte][event]\n[payload]`: the agent, the `--event`
/// argument (`None` when the line is empty or not UTF-8) and the rest.
pub fn agent_event_payload(data: &[u8]) -> Option<(&'static dyn Agent, Option<&str>, &[u8])> {
    let (&first, rest) = data.split_first()?;
    let (line, payload) = match rest.iter().position(|&b| b == b'\n') {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (&rest[..0], rest),
    };
    let event = std::str::from_utf8(line).ok().filter(|s| !s.is_empty());
    Some((agent(first), event, payload))
}

/// Panics unless `text` is one line of at most [`NOTE_BOUND`] characters:
/// what every note, warning and error the runtime prints must be.
pub fn assert_one_bounded_line(what: &str, text: &str) {
    assert!(
        !text.contains(['\n', '\r']),
        "{what} spans more than one line: {:?}",
        excerpt(text)
    );
    let chars = text.chars().count();
    assert!(
        chars <= NOTE_BOUND,
        "{what} is {chars} characters (bound {NOTE_BOUND}): {:?}",
        excerpt(text)
    );
}

/// The start of `text`, for a failure message that stays readable.
fn excerpt(text: &str) -> String {
    text.chars().take(200).collect()
}

/// Panics unless `native` is an answer `agent` can read: exit 0 or 2, stdout
/// empty or one JSON object (plain text where the agent reads plain text),
/// every stderr line one line, every note one bounded line.
pub fn assert_native_is_readable(agent: &dyn Agent, native: &Native) {
    assert!(
        matches!(native.exit_code, 0 | 2),
        "{}: exit code {} is not one the agent reads",
        agent.id(),
        native.exit_code
    );
    if native.exit_code == 2 {
        assert!(
            native.stdout.is_empty() || !agent.table().plain_stdout,
            "{}: exit 2 with plain stdout",
            agent.id()
        );
    }
    if !agent.table().plain_stdout && !native.stdout.trim().is_empty() {
        let parsed: Result<serde_json::Value, _> = serde_json::from_str(&native.stdout);
        assert!(
            matches!(parsed, Ok(serde_json::Value::Object(_))),
            "{}: stdout is not one JSON object: {:?}",
            agent.id(),
            excerpt(&native.stdout)
        );
    }
    for line in &native.stderr {
        assert!(
            !line.contains(['\n', '\r']),
            "{}: a stderr line spans more than one line: {:?}",
            agent.id(),
            excerpt(line)
        );
    }
    // The text as kept (`fire --json`, the audit log), not only as printed.
    for note in &native.notes {
        assert_one_bounded_line("an encoder note", &note.text);
    }
}

/// Whether `native` blocks: exit 2, or a JSON answer that denies, blocks or
/// stops in any agent's spelling.
pub fn native_blocks(native: &Native) -> bool {
    if native.exit_code == 2 {
        return true;
    }
    match serde_json::from_str::<serde_json::Value>(&native.stdout) {
        Ok(value) => json_blocks(&value),
        Err(_) => false,
    }
}

/// Whether a native JSON answer blocks in any agent's spelling: a deny, ask
/// or block decision (`decision`, `permissionDecision`, `permission`,
/// `behavior`, OpenCode's `status`), `continue: false`, Cline's `cancel` and
/// `review`, OpenCode's `error`. Looks inside the containers agents put
/// decisions in, never inside a tool input (which may say anything).
fn json_blocks(value: &serde_json::Value) -> bool {
    use serde_json::Value;
    let Value::Object(map) = value else {
        return false;
    };
    map.iter().any(|(key, v)| match key.as_str() {
        "decision" | "permissionDecision" | "permission" | "behavior" | "status" => {
            matches!(v.as_str(), Some("deny" | "block" | "ask")) || json_blocks(v)
        }
        "continue" => v == &Value::Bool(false),
        "cancel" | "review" => v == &Value::Bool(true),
        "error" => true,
        "hookSpecificOutput" | "output" => json_blocks(v),
        _ => false,
    })
}

pub mod answer;

/// A new scratch directory holding `subdirs`, for a target that hands its
/// input to the runtime as a file (as `run` and `install` read them). Kept
/// for the whole run: a process makes it once.
pub fn scratch_dir(subdirs: &[&str]) -> std::path::PathBuf {
    let dir = tempfile::Builder::new()
        .prefix("agenthooks-fuzz-")
        .tempdir()
        .expect("a scratch dir")
        .keep();
    for sub in subdirs {
        std::fs::create_dir_all(dir.join(sub)).expect("a scratch subdir");
    }
    dir
}
