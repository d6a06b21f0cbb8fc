//! agenthooks: write a coding-agent hook once, in Claude Code's protocol, and
//! run it in every agent.
//!
//! One event takes this path:
//!
//! 1. **decode** ([`agents`]): the agent's native JSON → a canonical [`protocol::Event`];
//! 2. **load** ([`config`]): `~/.agents/hooks.json` + `<project>/.agents/hooks.json`;
//! 3. **select** ([`select`]): event name + matcher + `if` → handlers, deduplicated;
//! 4. **execute** ([`exec`]): all handlers at once, command or wasm → an [`protocol::Outcome`] each;
//! 5. **aggregate** ([`aggregate`]): outcomes → one [`protocol::Answer`], deterministically;
//! 6. **encode** ([`agents`]): the answer → the agent's native stdout, stderr and exit code.
//!
//! `run`, `fire` and [`Runtime`] share the tail of that path
//! ([`pipeline`]): the configuration's notes, `--verbose` lines, the
//! dispatch's notes and the audit record, in that order. Every note is a
//! [`protocol::Note`] (who, a stable kebab-case kind, the text) until it is
//! printed, prefixed `agenthooks: ` in one place ([`protocol::Note::line`]).
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
//! - **An agent**: see [`agents`].
//! - **A sandbox limit**: its key in `config/hooks_json.rs` (a `HandlerWire`
//!   field, which serde reads and the schema shows, the key in
//!   `HandlerType::own_keys` and `HandlerWire::limits`); a field of
//!   `config::Limits` in `config/mod.rs` with its default, `raised_over` and
//!   `capped_at` (so the trust gate and review, the loader and the
//!   `Sandbox` need no change); where it is enforced (`exec/wasm/limiter.rs`,
//!   `engine.rs` or the call in `exec/wasm/mod.rs`, reading
//!   `Sandbox::limits`), its mapping in `exec/wasm/classify.rs`, a
//!   [`protocol::Failure`] variant (its kind in `Failure::kind`:
//!   exhaustive); a hostile guest in `tests/guests/` and its test in
//!   `tests/all/wasm.rs`; the schemas in `runtime/schema/` (regenerated).
#![warn(missing_docs)]

pub mod agents;
pub mod aggregate;
pub mod audit;
#[cfg(feature = "wasm")]
pub mod cli;
pub mod config;
pub mod dirs;
pub mod exec;
pub mod fsread;
pub mod install;
pub mod oci;
#[cfg(feature = "wasm")]
pub mod pipeline;
pub mod protocol;
#[cfg(feature = "wasm")]
pub mod runtime;
pub mod select;
pub mod suggest;

// The names an embedder needs, at the crate root.
pub use agents::{Agent, Native, AGENTS};
pub use exec::Report;
#[cfg(feature = "wasm")]
pub use pipeline::Dispatched;
pub use protocol::{Answer, Event, EventName, Failure, Note, Outcome, Skip, ToolKind};
#[cfg(feature = "wasm")]
pub use runtime::{Runtime, RuntimeOptions};

/// What the fuzz targets in `fuzz/` reach, named in one place so that
/// narrowing the public API above does not cut them off. Not an API: no
/// stability promised, hidden from the docs.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::agents::{Agent, Native, Registration, AGENTS, USER_ONLY};
    pub use crate::config::{load, LoadOptions, Scope};
    pub use crate::install::{plan, Action, Env, FileChange, Request};
    pub use crate::protocol::{
        parse_output, Answer, Behavior, Decision, Event, EventName, Exit, HookSpecificOutput, Note,
        Outcome, PermissionDecision, PermissionRequestDecision, NOTE_MAX_CHARS,
    };
    pub use crate::select::select;
}
