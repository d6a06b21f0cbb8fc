//! Every agent's `encode` of an arbitrary [`Answer`] at each of its events.
//!
//! The native answer must be one the agent reads (exit 0 or 2, JSON where it
//! expects JSON, one line per stderr line, bounded notes), and never a block
//! when the answer had nothing against going on.
#![no_main]

use agenthooks::fuzzing::Event;
use agenthooks_fuzz::answer::{objects, FuzzAnswer};
use agenthooks_fuzz::{agent, assert_native_is_readable, native_blocks};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

#[derive(Debug, Arbitrary)]
struct Case {
    agent: u8,
    row: u8,
    /// The tool of a tool event (canonical or native spelling, or anything).
    tool: String,
    command: String,
    answer: FuzzAnswer,
}

fuzz_target!(|case: Case| {
    let agent = agent(case.agent);
    let rows = agent.table().events;
    if rows.is_empty() {
        return;
    }
    let row = &rows[usize::from(case.row) % rows.len()];
    let mut input = json!({
        "session_id": "fuzz",
        "cwd": "/tmp",
        "hook_event_name": row.canonical.as_str(),
    });
    if row.canonical.is_tool_event() {
        input["tool_name"] = json!(row.tool.unwrap_or(&case.tool));
        input["tool_input"] = json!({ "command": case.command, "file_path": case.command });
    }
    let Ok(event) = Event::new(input, Some(row.canonical), agent.id()) else {
        return;
    };
    let event = event.with_native(row.native);
    let answer = case.answer.into_answer();
    let native = agent.encode(&event, &answer);
    assert_native_is_readable(agent, &native);
    if !objects(&answer) {
        assert!(
            !native_blocks(&native),
            "{} at {}: an answer with no objection came out as a block: {answer:?} -> {native:?}",
            agent.id(),
            row.native
        );
    }
});
