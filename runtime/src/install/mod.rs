//! `agenthooks install` / `uninstall`: write and remove the entries in each
//! agent's own hook config that call `agenthooks run --agent A --event E`.
//!
//! Not a pipeline stage: this is what makes an agent call the pipeline. The
//! events are those of the agent's table ([`crate::agents::Table::installed`])
//! that the hooks use, plus the session start ([`rows`], see `wiring`);
//! the files and entry shapes from the agent's own
//! [`InstallSpec`](crate::agents::InstallSpec) (`INSTALL` in its module);
//! nothing here names an agent (a script's or plugin's text comes from the
//! spec too). Planning reads files and computes new bytes without writing
//! anything, so `--dry-run` is the same code as a real run; [`apply`] then
//! writes.
//!
//! The rules, for every file:
//! - merge: other keys and the user's own hooks stay as they are, key order
//!   and indent are kept, a file whose content would not change is not written;
//! - an entry's command is a small launcher ([`command_line`]) that runs
//!   `agenthooks` by name in the project's files (they are committed and run
//!   on other machines) and by absolute path in the user's (or with
//!   `--absolute`), and answers "no opinion" with a one-line install hint
//!   when the binary is missing, so a missing agenthooks never blocks an
//!   agent;
//! - our entries are recognised by their command (see [`is_ours`]), in the
//!   launcher form and in the older bare `/abs/agenthooks run ...` form; one
//!   that differs from what install would write now (another binary path, an
//!   older timeout) is updated in place;
//! - an entry's native timeout is the agent's own deadline for its event
//!   ([`native_timeout`]), the one the runtime keeps the handlers under;
//! - the first change keeps the file as it was (its original), never
//!   overwritten once kept, and each later change the bytes it replaced (the
//!   newest few), in the file's folder under agenthooks' state directory
//!   ([`backups`]), never in the work tree;
//! - uninstall removes exactly our entries (and the containers that became
//!   empty through that); when the result equals the original, the
//!   original's bytes are put back and the file's backups removed; a file
//!   install created is deleted, with its directories if they are empty;
//! - a file that cannot be parsed is reported and left alone;
//! - every write is atomic and every read-modify-write holds the file's lock
//!   (see `crate::atomic`): a crash, a full disk or a concurrent install never leaves
//!   a file half-written or loses another install's entries, and a native file
//!   that is a symlink is written at its target, the link staying a link.

pub mod backups;
mod change;
pub mod coverage;
mod detect;
mod edit;
mod env;
mod error;
pub(crate) mod json;
mod launcher;
mod off;
mod plan;
pub mod plugin_dir;
mod targets;
mod text;
mod toml;
mod wiring;
mod yaml;

pub use crate::agents::Shape;
pub use change::{unified_diff, Action, FileChange, Request, Status};
pub use coverage::Coverage;
pub use detect::{
    detected, installed, installed_entries, installed_events, is_installed, project_root, Entry,
};
pub use env::{Env, Os, SYSTEM_ROOT_ENV};
pub use error::InstallError;
pub use json::{is_ours, Doc as JsonDoc};
pub use launcher::{command_line, program, Binary, NOT_INSTALLED, NOT_INSTALLED_WINDOWS};
pub use off::{switched_off, SwitchedOff};
pub use plan::{apply, change, change_with, plan, plan_with, status_messages, Edit};
pub use targets::native_timeout;
pub use wiring::{drift, rows, Drift, Used};

/// `root` (the agent's parsed JSON file) without agenthooks' entries, as
/// uninstall leaves it: for comparing two versions of a file "but ours".
///
/// # Errors
/// As uninstall's: an entry in a shape that cannot be edited.
pub fn without_ours(
    agent: &dyn crate::agents::Agent,
    path: &std::path::Path,
    root: &serde_json::Map<String, serde_json::Value>,
) -> Result<serde_json::Map<String, serde_json::Value>, InstallError> {
    let mut root = root.clone();
    if let crate::agents::Registration::Json(spec) = &agent.install_spec().registration {
        json::sync(path, &mut root, spec.shape, agent.id(), &[])?;
    }
    Ok(root)
}

/// The agent's own file `install` writes at `scope` (`None`: none there).
pub fn native_file(
    agent: &dyn crate::agents::Agent,
    scope: crate::config::Scope,
    root: &std::path::Path,
    env: &Env,
) -> Option<std::path::PathBuf> {
    let spec = agent.install_spec();
    if scope == crate::config::Scope::Project && spec.project == crate::agents::USER_ONLY {
        return None;
    }
    targets::path(spec, scope, root, env)
}
