//! Shared bindings for the test guests: each `src/bin/<behaviour>.rs` is one
//! component that implements `agenthooks:hook/hook` with one (mis)behaviour.
//!
//! Bins on wasm32-wasip2 become components; wit-bindgen's exports run the
//! constructors themselves, so `handle` works without `main` being called.

/// The generated bindings (in a module: `pub_export_macro` clashes at the crate root).
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit",
        world: "hook",
        pub_export_macro: true,
        default_bindings_module: "hostile_guests::bindings",
    });
}

pub use bindings::agenthooks::hook::host::{log, Level};
pub use bindings::agenthooks::hook::types::{Permission, ToolKind};
pub use bindings::{export, Answer, Event, Guest};

/// An answer that only adds context: how the probing guests report what happened.
pub fn context(text: impl Into<String>) -> Answer {
    Answer {
        permission: None,
        block: false,
        reason: None,
        additional_context: Some(text.into()),
        updated_input: None,
        system_message: None,
        continue_: None,
        stop_reason: None,
        extra: None,
    }
}

/// A string field of `tool_input` in the event's JSON (a tiny scanner, to keep
/// the guests free of serde: the tests only pass simple strings without escapes).
pub fn tool_input_str(event: &Event, key: &str) -> Option<String> {
    let needle = format!("\"{key}\":\"");
    let start = event.input.find(&needle)? + needle.len();
    let end = event.input[start..].find('"')? + start;
    Some(event.input[start..end].to_string())
}
