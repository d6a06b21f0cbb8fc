//! Write an agenthooks hook as a plain Rust function, and build the same
//! source as a sandboxed WebAssembly component (`wasm32-wasip2`) or as a
//! native Claude Code command hook.
//!
//! A hook is a function from [`Event`] to [`Answer`] (or to
//! `Result<Answer, E>` for any `E: Display`; an `Err` is a failure, which
//! allows, or denies under `"onError": "deny"`). [`export!`] turns it into the
//! component's `handle` export on wasm32 and into a `main` that speaks Claude
//! Code's command-hook protocol everywhere else. The function itself is
//! ordinary Rust, so it is unit-tested natively.
//!
//! # Example
//!
//! `src/main.rs` of a crate that depends on `agenthooks-sdk` and `serde_json`:
//!
//! ```
//! use agenthooks_sdk::{Answer, Event, ToolKind};
//!
//! /// Deny `git push --force`; say nothing about anything else.
//! fn no_force_push(event: Event) -> Answer {
//!     match event.shell_command() {
//!         Some(cmd) if cmd.starts_with("git push") && cmd.contains("--force") => {
//!             Answer::deny("force-pushing is not allowed here; push without --force")
//!         }
//!         _ => Answer::none(),
//!     }
//! }
//!
//! agenthooks_sdk::export!(no_force_push);
//!
//! // A unit test, natively, without wasm:
//! let event = Event::from_json(serde_json::json!({
//!     "hook_event_name": "PreToolUse",
//!     "tool_name": "Bash",
//!     "tool_input": {"command": "git push --force origin main"},
//! }))?;
//! assert_eq!(event.tool_kind(), Some(ToolKind::Shell));
//! let answer = no_force_push(event);
//! assert_eq!(answer.permission(), Some(agenthooks_sdk::Permission::Deny));
//! # Ok::<(), agenthooks_sdk::EventError>(())
//! ```
//!
//! Build it both ways from the same source:
//!
//! ```text
//! cargo build --release --target wasm32-wasip2   # target/wasm32-wasip2/release/<name>.wasm
//! cargo build --release                          # target/release/<name>, a command hook
//! ```
//!
//! and list it in `.agents/hooks.json`:
//!
//! ```json
//! {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
//!   {"type": "wasm", "component": "target/wasm32-wasip2/release/no-force-push.wasm"}
//! ]}]}}
//! ```
//!
//! # Helpers
//!
//! - [`shell::commands`] splits a shell command line into the simple commands
//!   it runs (through quotes, pipes, `sh -c`, `$(...)`), so a guard judges
//!   what runs rather than substrings: `echo "rm -rf /"` only prints.
//! - [`git::head`] reads the current branch from `.git/HEAD`.
//! - [`log`] writes to the hook's log (`agenthooks fire`, `run --verbose`).
//! - [`answer_native`] is the native mode's stdin-to-stdout step, for tests.
//!
//! `agenthooks new NAME` scaffolds a crate like the one above; `guest-examples/`
//! in the agenthooks repository holds four real hooks built on this SDK.
//!
//! # Files, environment and network
//!
//! A component gets nothing unless `.agents/hooks.json` grants it: `"allow":
//! {"read": ["$CLAUDE_PROJECT_DIR"], "env": ["MY_VAR"]}`. Inside the hook use
//! plain `std::fs` and `std::env`; without a grant they fail (`NotFound`), so
//! handle the error and fall back to saying nothing.
#![warn(missing_docs)]

mod answer;
mod event;
pub mod git;
mod native;
pub mod shell;

#[doc(hidden)]
pub mod __private {
    //! Used by the code [`crate::export!`] expands to; not a public API.
    pub use crate::guest::bindings;
    pub use crate::guest::handle;
}

mod guest;

pub use answer::{Answer, Permission};
pub use event::{Event, EventError, ToolKind};
pub use native::{answer_native, run_native};

/// What a hook function returns: an [`Answer`], or `Result<Answer, E>` with
/// `E: Display` (the error becomes the one-line failure note).
pub trait HookOutput {
    /// The answer, or the failure message.
    ///
    /// # Errors
    /// When the hook failed.
    fn into_result(self) -> Result<Answer, String>;
}

impl HookOutput for Answer {
    fn into_result(self) -> Result<Answer, String> {
        Ok(self)
    }
}

impl<E: std::fmt::Display> HookOutput for Result<Answer, E> {
    fn into_result(self) -> Result<Answer, String> {
        self.map_err(|e| e.to_string())
    }
}

/// How important a log line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Detail for whoever debugs the hook.
    Debug,
    /// Normal progress.
    Info,
    /// Something looks wrong but the hook goes on.
    Warn,
    /// The hook could not do its job.
    Error,
}

/// Write one line to the hook's log: the host's log (shown by `agenthooks
/// fire` and `run --verbose`) in a component, stderr in a native hook.
pub fn log(level: Level, message: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use guest::bindings::agenthooks::hook::host;
        let level = match level {
            Level::Debug => host::Level::Debug,
            Level::Info => host::Level::Info,
            Level::Warn => host::Level::Warn,
            Level::Error => host::Level::Error,
        };
        host::log(level, message);
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let level = match level {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        };
        eprintln!("{level}: {message}");
    }
}

/// Export a hook function: `agenthooks_sdk::export!(my_hook);` at the top
/// level of the crate's `src/main.rs`.
///
/// `my_hook` is a `fn(Event) -> Answer` or `fn(Event) -> Result<Answer, E>`
/// with `E: Display`.
///
/// - On `wasm32` it implements the component's `handle` export (world `hook`
///   of `wit/hook.wit`); the `main` it also generates is never called.
/// - Elsewhere it generates `fn main() -> ExitCode` calling [`run_native`], so
///   the binary is a Claude Code command hook.
///
/// The unsafe ABI glue lives in this macro's expansion, never in your code.
#[macro_export]
macro_rules! export {
    ($hook:path $(,)?) => {
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            struct AgenthooksHook;
            impl $crate::__private::bindings::Guest for AgenthooksHook {
                fn handle(
                    event: $crate::__private::bindings::Event,
                ) -> ::core::result::Result<
                    $crate::__private::bindings::Answer,
                    ::std::string::String,
                > {
                    $crate::__private::handle(event, $hook)
                }
            }
    $crate::__private::bindings::__export_hook_world!(AgenthooksHook with_types_in $crate::__private::bindings);
        };

        #[cfg(target_arch = "wasm32")]
        fn main() {}

        #[cfg(not(target_arch = "wasm32"))]
        fn main() -> ::std::process::ExitCode {
            $crate::run_native($hook)
        }
    };
    ($($other:tt)*) => {
        ::core::compile_error!(
            "usage: `agenthooks_sdk::export!(my_hook);` where `fn my_hook(Event) -> Answer`"
        );
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_answers_are_hook_outputs() {
        assert_eq!(Answer::allow().into_result(), Ok(Answer::allow()));
        let r: Result<Answer, std::fmt::Error> = Err(std::fmt::Error);
        assert_eq!(
            r.into_result(),
            Err("an error occurred when formatting an argument".into())
        );
    }
}
