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
#![warn(missing_docs)]

pub mod agents;
pub mod aggregate;
pub mod audit;
#[cfg(feature = "wasm")]
pub mod cli;
pub mod config;
pub mod exec;
pub mod fsread;
pub mod install;
#[cfg(feature = "wasm")]
pub mod pipeline;
pub mod protocol;
#[cfg(feature = "wasm")]
pub mod runtime;
pub mod select;
pub mod suggest;

#[cfg(feature = "wasm")]
pub use runtime::{Runtime, RuntimeOptions};

/// What the fuzz targets in `fuzz/` reach, named in one place so that
/// narrowing the public API above does not cut them off. Not an API: no
/// stability promised, hidden from the docs.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::agents::{Agent, Native, Registration, AGENTS};
    pub use crate::config::{load, LoadOptions, Scope};
    pub use crate::install::{plan, Action, Env, FileChange, Request};
    pub use crate::protocol::{
        parse_output, Answer, Behavior, Decision, Event, EventName, Exit, HookSpecificOutput, Note,
        Outcome, PermissionDecision, PermissionRequestDecision, NOTE_MAX_CHARS,
    };
    pub use crate::select::select;
}
