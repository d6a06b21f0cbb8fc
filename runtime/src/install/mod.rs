//! `agenthooks install` / `uninstall`: write and remove the entries in each
//! agent's own hook config that call `agenthooks run --agent A --event E`.
//!
//! Not a pipeline stage: this is what makes an agent call the pipeline. The
//! events come from the agent's table ([`crate::agents::Table::installed`]);
//! the files and entry shapes from the agent's own
//! [`InstallSpec`](crate::agents::InstallSpec) (`INSTALL` in its module);
//! nothing here names an agent but the OpenCode plugin. Planning reads files and
//! computes new bytes without writing anything, so `--dry-run` is the same
//! code as a real run; [`apply`] then writes.
//!
//! The rules, for every file:
//! - merge: other keys and the user's own hooks stay as they are, key order
//!   and indent are kept, a file whose content would not change is not written;
//! - our entries are recognised by their command (see [`is_ours`]); one that
//!   differs from what install would write now (another binary path, an older
//!   timeout) is updated in place;
//! - an entry's native timeout is the agent's own deadline for its event
//!   ([`native_timeout`]), the one the runtime keeps the handlers under;
//! - the first change backs the file up to `<file>.agenthooks.bak`, never
//!   overwritten once it exists;
//! - uninstall removes exactly our entries (and the containers that became
//!   empty through that); when the result equals the backup, the backup's
//!   bytes are put back and the backup removed; a file install created is
//!   deleted, with its directories if they are empty;
//! - a file that cannot be parsed is reported and left alone.

mod detect;
mod error;
mod json;
mod opencode;
mod plan;
mod targets;

pub use crate::agents::Shape;
pub use detect::{detected, installed, is_installed, project_root, switched_off, Env};
pub use error::InstallError;
pub use json::is_ours;
pub use plan::{apply, command_line, plan, Action, FileChange, Request, Status};
pub use targets::{native_timeout, FALLBACK_TIMEOUT};
