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
pub mod cli;
pub mod config;
pub mod dirs;
pub mod exec;
pub mod fsread;
pub mod install;
pub mod pipeline;
pub mod protocol;
pub mod runtime;
pub mod select;
pub mod suggest;

pub use runtime::{Runtime, RuntimeOptions};
