//! Claude fields an agent does not send, derived where a stable value can be.
//!
//! Hooks key state on `session_id` (a per-session scratch file, "warn once
//! per session") and pair PreToolUse with PostToolUse on `tool_use_id`.
//! Where the agent sends none (Kiro sends no session id; several agents no
//! tool call id), `run` fills them in ([`fill`]) so such hooks keep working:
//!
//! - `session_id`: a UUID-shaped hash of the agent process (the nearest
//!   ancestor of `agenthooks run` that is not a shell: its pid and, on
//!   Linux, its start time, so a reused pid is another session), the agent's
//!   id and the payload's `cwd`. Every hook call of one agent process in one
//!   directory gets the same id; a new agent process, another.
//! - `tool_use_id` (tool events): `toolu_` and a hash of the session id,
//!   the tool and its input, so a PreToolUse and the PostToolUse of the
//!   same call get the same id (two identical calls in one session share it).
//!
//! `permission_mode` is not derived: no agent that omits it says anything
//! it could be derived from, so it stays absent rather than wrong.
//! A derived field is listed in `agenthooks_derived` (its value names
//! them) so a hook can tell.

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use crate::protocol::Event;

/// The key listing the fields this module filled in.
pub const DERIVED_KEY: &str = "agenthooks_derived";

/// Fills `session_id` and `tool_use_id` where `event` has none, from
/// `origin` (what identifies the agent process: [`origin`]).
pub fn fill(event: &mut Event, origin: &str) {
    let cwd = event.str_field("cwd").unwrap_or_default().to_string();
    let harness = event.harness().to_string();
    let tool_event = event.name().is_tool_event();
    let input = event.input_mut();
    let mut derived = Vec::new();
    if missing(input, "session_id") {
        let hash = digest(&[&harness, origin, &cwd]);
        input.insert("session_id".into(), json!(uuid_shaped(&hash)));
        derived.push("session_id");
    }
    if tool_event && missing(input, "tool_use_id") {
        let session = input
            .get("session_id")
            .and_then(Value::as_str)
            .unwrap_or("");
        let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
        let args = input
            .get("tool_input")
            .map(Value::to_string)
            .unwrap_or_default();
        let hash = digest(&[session, tool, &args]);
        input.insert(
            "tool_use_id".into(),
            json!(format!("toolu_{}", &hash[..24])),
        );
        derived.push("tool_use_id");
    }
    if !derived.is_empty() {
        input.insert(DERIVED_KEY.into(), json!(derived));
    }
}

fn missing(input: &Map<String, Value>, key: &str) -> bool {
    input
        .get(key)
        .and_then(Value::as_str)
        .is_none_or(|s| s.trim().is_empty())
}

/// The hex SHA-256 of `parts`, each ended by a NUL.
fn digest(parts: &[&str]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The first 32 hex digits of `hex` as a UUID (version 8: "custom").
fn uuid_shaped(hex: &str) -> String {
    let h = &hex[..32];
    format!(
        "{}-{}-8{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[13..16],
        &h[16..20],
        &h[20..32]
    )
}

/// What identifies the agent process that started this one: the nearest
/// ancestor that is not a shell (agents run a hook's command through `sh
/// -c`, a new shell each time), as `pid` and, where the platform says, its
/// start time (`pid@start`).
pub fn origin() -> String {
    #[cfg(unix)]
    {
        let mut pid = std::os::unix::process::parent_id();
        // A few levels at most: a shell running a wrapper script running us.
        for _ in 0..4 {
            let Some((name, parent, start)) = proc_stat(pid) else {
                return pid.to_string();
            };
            if !is_shell(&name) || parent <= 1 {
                return format!("{pid}@{start}");
            }
            pid = parent;
        }
        pid.to_string()
    }
    #[cfg(not(unix))]
    {
        // Windows: no parent pid in std; the cwd and agent still separate
        // projects, and one agent's calls share an id.
        String::new()
    }
}

/// Whether a process named `name` is a shell a hook command runs under.
fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "mksh" | "fish" | "ash" | "busybox" | "env"
    )
}

/// (command name, parent pid, start time in clock ticks) of `pid`, from
/// `/proc/<pid>/stat` (Linux; `None` elsewhere or when unreadable).
#[cfg(unix)]
fn proc_stat(pid: u32) -> Option<(String, u32, u64)> {
    let path = format!("/proc/{pid}/stat");
    let bytes = crate::fsread::read_bounded(std::path::Path::new(&path), 4096).ok()?;
    let stat = String::from_utf8_lossy(&bytes);
    // The name is in parentheses and may hold spaces or parentheses itself.
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?.to_string();
    let rest: Vec<&str> = stat.get(close + 2..)?.split_whitespace().collect();
    // After the name: state (0), ppid (1), ..., starttime (19).
    let parent = rest.get(1)?.parse().ok()?;
    let start = rest.get(19)?.parse().ok()?;
    Some((name, parent, start))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::protocol::EventName;

    fn event(extra: Value) -> Event {
        let mut input = json!({"cwd": "/w", "tool_name": "Bash", "tool_input": {"command": "ls"}});
        input
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        Event::new(input, Some(EventName::PreToolUse), "kiro").unwrap()
    }

    #[test]
    fn a_missing_session_id_is_stable_per_agent_process_and_directory() {
        let (mut a, mut b) = (event(json!({})), event(json!({})));
        fill(&mut a, "100@5");
        fill(&mut b, "100@5");
        let id = a.session_id().unwrap().to_string();
        assert_eq!(Some(id.as_str()), b.session_id());
        assert_eq!(id.len(), 36);
        assert_eq!(id.matches('-').count(), 4);
        assert_eq!(a.input()[DERIVED_KEY], json!(["session_id", "tool_use_id"]));
        let mut other = event(json!({}));
        fill(&mut other, "101@9");
        assert_ne!(other.session_id(), Some(id.as_str()));
        let mut elsewhere = event(json!({"cwd": "/v"}));
        fill(&mut elsewhere, "100@5");
        assert_ne!(elsewhere.session_id(), Some(id.as_str()));
    }

    #[test]
    fn the_agent_s_own_ids_are_kept() {
        let mut e = event(json!({"session_id": "s1", "tool_use_id": "call_1"}));
        fill(&mut e, "100@5");
        assert_eq!(e.session_id(), Some("s1"));
        assert_eq!(e.str_field("tool_use_id"), Some("call_1"));
        assert!(e.input().get(DERIVED_KEY).is_none());
    }

    #[test]
    fn a_tool_call_s_pre_and_post_events_share_a_tool_use_id() {
        let mut pre = event(json!({"session_id": "s1"}));
        let mut post = Event::new(
            json!({"session_id": "s1", "cwd": "/w", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": "x"}),
            Some(EventName::PostToolUse),
            "kiro",
        )
        .unwrap();
        fill(&mut pre, "o");
        fill(&mut post, "o");
        let id = pre.str_field("tool_use_id").unwrap();
        assert!(id.starts_with("toolu_"), "{id}");
        assert_eq!(post.str_field("tool_use_id"), Some(id));
        let mut other = event(json!({"session_id": "s1", "tool_input": {"command": "pwd"}}));
        fill(&mut other, "o");
        assert_ne!(other.str_field("tool_use_id"), Some(id));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_origin_is_this_process_s_parent_with_its_start() {
        let o = origin();
        let (pid, start) = o.split_once('@').expect("pid@start on Linux");
        assert!(pid.parse::<u32>().unwrap() > 0);
        assert!(start.parse::<u64>().is_ok());
        assert_eq!(origin(), o, "stable");
    }
}
