//! The hooks.json loader (JSON, handler keys, matchers and `if` rules), the
//! file read from a scratch home as `run` reads it, then selection against
//! a few events so the compiled matchers and `if` rules run too.
//!
//! Loading never panics; every warning and error is one bounded line; a file
//! whose top level parses but is not an object is refused with an error
//! naming the file.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use agenthooks::fuzzing::select;
use agenthooks::fuzzing::{load, LoadOptions};
use agenthooks::fuzzing::{Event, EventName};
use agenthooks_fuzz::{assert_one_bounded_line, scratch_dir};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

/// A home directory for the whole run (`.agents/hooks.json` inside).
fn home() -> &'static PathBuf {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| scratch_dir(&[".agents"]))
}

fn events() -> &'static [Event] {
    static EVENTS: OnceLock<Vec<Event>> = OnceLock::new();
    EVENTS.get_or_init(|| {
        let tool = |name: &str, input: serde_json::Value| {
            let v =
                json!({"session_id": "s", "cwd": "/tmp", "tool_name": name, "tool_input": input});
            Event::new(v, Some(EventName::PreToolUse), "claude").expect("a valid event")
        };
        vec![
            tool("Bash", json!({"command": "git push --force origin main"})),
            tool("Write", json!({"file_path": "/tmp/.env", "content": "x"})),
            tool("mcp__github__create_issue", json!({"title": "t"})),
            Event::new(
                json!({"prompt": "hello", "source": "startup"}),
                Some(EventName::SessionStart),
                "claude",
            )
            .expect("a valid event"),
        ]
    })
}

fuzz_target!(|data: &[u8]| {
    let home = home();
    let file = home.join(".agents").join("hooks.json");
    std::fs::write(&file, data).expect("write the scratch hooks.json");
    let config = load(&LoadOptions::new().with_home(&home));
    for line in config.problems() {
        assert_one_bounded_line("a hooks.json note", &line);
    }
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        if !value.is_object() {
            assert!(
                config.broken.iter().any(|b| b.to_string().contains("hooks.json")),
                "a top level that is not an object was taken: {:?}",
                config.broken
            );
            assert!(config.handlers.is_empty());
        }
    }
    for event in events() {
        let _ = select(&config.handlers, event);
    }
});
