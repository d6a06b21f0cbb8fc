//! Every agent's `decode`: input `[agent byte][--event argument]\n[payload]`.
//!
//! A payload that is not JSON is `run`'s own business (it never reaches an
//! adapter). For JSON: no panic, an error is one bounded line, and a decoded
//! event re-serialises into a Claude-shaped input that decodes again to the
//! same event; encoding "no opinion" for it is readable and never a block.
#![no_main]

use agenthooks::fuzzing::{Answer, Event};
use agenthooks_fuzz::{
    agent_event_payload, assert_native_is_readable, assert_one_bounded_line, native_blocks,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((agent, argv, payload)) = agent_event_payload(data) else {
        return;
    };
    let Ok(input) = serde_json::from_slice::<serde_json::Value>(payload) else {
        return;
    };
    let event = match agent.decode(input, argv) {
        Ok(event) => event,
        Err(e) => {
            assert_one_bounded_line("a decode error", &e.to_string());
            return;
        }
    };
    // The harness is the agent, or one that runs its entries and whose
    // payload this is by its shape (VS Code through Claude's or Copilot's).
    let visiting = agenthooks::find(event.harness())
        .and_then(|guest| guest.visits())
        .is_some_and(|v| v.entries.contains(&agent.id()));
    assert!(
        event.harness() == agent.id() || visiting,
        "{} decoded an event of {}",
        agent.id(),
        event.harness()
    );
    let text = serde_json::to_string(&event.to_json()).expect("a decoded event serialises");
    let back: serde_json::Value = serde_json::from_str(&text).expect("and parses back");
    let again = Event::new(back, None, agent.id()).expect("as a Claude-shaped input");
    assert_eq!(again.name(), event.name());
    assert_eq!(again.tool_name(), event.tool_name());
    assert_eq!(again.tool_kind(), event.tool_kind());

    let native = agent.encode(&event, &Answer::none());
    assert_native_is_readable(agent, &native);
    assert!(
        !native_blocks(&native),
        "{}: no opinion came out as a block",
        agent.id()
    );
});
