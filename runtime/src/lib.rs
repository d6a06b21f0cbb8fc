//! agenthooks: write a coding-agent hook once, in Claude Code's protocol, and
//! run it in every agent.
//!
//! One event takes this path:
//!
//! 1. **decode** (`agents`): the agent's native JSON → a canonical [`Event`];
//! 2. **load** (`config`, [`load`]): `~/.agents/hooks.json` + `<project>/.agents/hooks.json`;
//! 3. **select** (`select`): event name + matcher + `if` → handlers, deduplicated;
//!    then the **gate** (`trust`): what an untrusted project may run, grants narrowed;
//! 4. **execute** (`exec`): all handlers at once, command or wasm → an [`Outcome`] each;
//! 5. **aggregate** (`aggregate`): outcomes → one [`Answer`], deterministically;
//! 6. **encode** (`agents`): the answer → the agent's native stdout, stderr and exit code.
//!
//! `run`, `fire` and [`Runtime`] share the tail of that path
//! (`pipeline`): the configuration's notes, `--verbose` lines, the
//! dispatch's notes and the audit record, in that order. Every note is a
//! [`Note`] (who, a stable kebab-case kind, the text) until it is
//! printed, prefixed `agenthooks: ` by [`Note::line`] (the prefix is
//! spelled once, in `protocol/note.rs`).
//!
//! The modules are layered, and a module imports only from its own layer
//! or below (`layers.rs` holds the order and a test that enforces it):
//! ground (`protocol`, `fsread`, `dirs`, `encoding`, `atomic`, `component`,
//! `suggest`, `quote`, `guards`, `origin`, `trace`) < `oci` < `config` <
//! `select`, `agents` < `exec` < `trust` (the gate: it clamps handlers
//! before they run and merges their reports after) < `aggregate` < `audit`
//! < `telemetry` < `pipeline`, `install`, `import` < `head` (the event
//! head: every way an event enters) < `runtime` < `cli`. Inside a folder
//! the files import one another one way too: no circle (same test).
//!
//! # What a change touches
//!
//! - **An event**: its variant in `protocol/event.rs` (`event_names!`) and its
//!   row in `EventName::facts` (matcher field, permission, block, veto, plain
//!   text as context: the one table of per-event rules, exhaustive); its
//!   made-up payload in `cli/fire.rs` (exhaustive); Claude Code's row in
//!   `agents/claude.rs` (a test fails until every event has one that agrees
//!   with the facts) and the row of each agent that fires it; the schemas in
//!   `runtime/schema/` (regenerated; a test fails until they are); the count
//!   in `protocol/event.rs`'s tests.
//! - **An agent**: see `agents/mod.rs`.
//! - **A sandbox limit**: its key in `config/hooks_json.rs` (a `HandlerWire`
//!   field, which serde reads and the schema shows, the key in
//!   `HandlerType::own_keys` and `HandlerWire::limits`); a field of
//!   `config::Limits` in `config/mod.rs` with its default, `raised_over`,
//!   `capped_at` and `Display` (the loader, the trust gate and review, and
//!   `Sandbox`'s fields and constructors read the struct and need no
//!   change); where it is enforced, reading `Sandbox::limits` (the call in
//!   `exec/wasm/call.rs`, the engine, or the limiter `exec/wasm/sandbox.rs`
//!   builds), its mapping in `exec/wasm/classify.rs`, a [`Failure`] variant
//!   (its kind in `Failure::kind`: exhaustive); a hostile guest in
//!   `tests/guests/` and its test in `tests/all/wasm.rs`; the schemas in
//!   `runtime/schema/` (regenerated).
#![warn(missing_docs)]
// Without the `engine` feature (the small front's build, and the fuzz
// targets') the engine's commands and executors are left out, and what only
// they call is dead there; the whole build, which clippy checks, uses it.
#![cfg_attr(not(feature = "engine"), allow(dead_code, unused_imports))]

// The stages as modules. Only the re-exports below are the library's API.
// The modules the binary (`cli`), the benchmarks, `tests/` and `fuzz/` reach
// into are `pub` but hidden from the docs: not an API, no stability promised.
#[doc(hidden)]
pub mod agents;
mod aggregate;
mod atomic;
mod audit;
#[doc(hidden)]
pub mod cli;
#[cfg(feature = "engine")]
mod component;
#[doc(hidden)]
pub mod config;
mod dirs;
mod encoding;
#[doc(hidden)]
pub mod exec;
#[doc(hidden)]
pub mod fsread;
#[doc(hidden)]
pub mod guards;
mod head;
#[doc(hidden)]
pub mod import;
#[doc(hidden)]
pub mod install;
#[cfg(test)]
mod layers;
mod oci;
#[doc(hidden)]
pub mod origin;
mod pipeline;
#[doc(hidden)]
pub mod protocol;
mod quote;
#[cfg(feature = "engine")]
mod runtime;
#[doc(hidden)]
pub mod select;
mod suggest;
mod telemetry;
#[cfg(test)]
mod test_support;
mod trace;
#[doc(hidden)]
pub mod trust;

// The names an embedder needs, at the crate root.
pub use agents::{find, Agent, DecodeError, Native, AGENTS};
pub use config::{load, Config, ConfigWarning, LoadOptions, Scope, Unknown, WarningKind};
#[cfg(feature = "engine")]
pub use exec::wasm::{CacheDir, Sandbox, WasmHost};
pub use exec::{Report, Standing};
pub use oci::{OciRef, RefError as OciRefError, Target as OciTarget};
pub use pipeline::Dispatched;
pub use protocol::{
    Answer, AnswerKind, Behavior, Decision, Event, EventError, EventName, Exit, Failure,
    HookSpecificOutput, Note, NoteKind, Outcome, PermissionDecision, PermissionRequestDecision,
    Skip, Source as NoteSource, ToolKind, UnknownEvent,
};
#[cfg(feature = "engine")]
pub use runtime::{Runtime, RuntimeOptions};

/// What the fuzz targets in `fuzz/` reach, named in one place so that
/// narrowing the public API above does not cut them off. Not an API: no
/// stability promised, hidden from the docs.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::agents::{Agent, Native, Registration, AGENTS, USER_ONLY};
    pub use crate::config::{load, LoadOptions, Scope};
    pub use crate::install::{plan, Action, Env, FileChange, Request, Used};
    pub use crate::protocol::{
        parse_output, Answer, Behavior, Decision, Event, EventName, Exit, HookSpecificOutput, Note,
        Outcome, PermissionDecision, PermissionRequestDecision, NOTE_MAX_CHARS,
    };
    pub use crate::select::select;
}
