//! End-to-end tests: the real `agenthooks` binary in temporary projects.
//!
//! One test binary, one module per area. Add an area with `mod <area>;` here
//! and a `tests/all/<area>.rs`; share helpers through [`util`].

mod add;
mod agents;
mod amp;
mod antigravity;
mod audit;
mod budgets;
mod cache;
mod claude_env;
mod claude_protocol;
mod compile_budget;
mod config_formats;
mod copilot_double_run;
mod debugging;
mod double_load;
mod examples;
mod fail_closed;
mod fidelity;
mod first_day;
mod head;
mod hermetic;
mod hostile_files;
mod http;
mod import;
mod install;
mod managed;
mod matchers;
mod mcp;
mod new_build;
mod oci;
mod outlive;
mod plugin;
mod portable;
mod powershell;
mod progress;
mod prompt;
mod runtime;
mod spine;
mod split;
mod status;
mod system;
#[cfg(unix)]
mod telemetry;
mod transcript;
mod trust;
mod util;
mod verdict;
mod vscode;
mod wasm;
mod wiring;
