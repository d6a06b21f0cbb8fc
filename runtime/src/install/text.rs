//! Install and uninstall in a config file of the user's that is not JSON
//! (TOML, YAML): what is the same for every such format. The format's own
//! edit (`toml`, `yaml`) takes the file's text and the entries we want in it
//! and gives the new text, keeping every byte that is not ours.

use std::path::{Path, PathBuf};

use super::change::{read_opt, Action, Request};
use super::json;
use super::launcher::{command_line_at, powershell_line};
use super::targets::{in_unit, native_timeout};
use super::wiring;
use super::{FileChange, InstallError};
use crate::agents::{Field, Literal};
use crate::fsread::caps;

/// A value of one of our entries' keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Scalar {
    /// A string.
    Str(String),
    /// A non-negative integer.
    Int(u64),
    /// A boolean.
    Bool(bool),
    /// A list of strings.
    Strs(Vec<String>),
}

/// One entry of ours: the native event it is for and its keys in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    /// The agent's name of the event.
    pub event: &'static str,
    /// The entry's keys and values, in the order written.
    pub fields: Vec<(&'static str, Scalar)>,
}

/// The entries install writes for the request: one per registered row,
/// `handler`'s keys in order, a timeout clamped to `range` where given;
/// with `argv`, the launcher as `sh -c '<line>'` (for an agent that runs the
/// command without a shell).
pub(super) fn entries(
    req: &Request<'_>,
    handler: &[(&'static str, Field)],
    range: Option<(u64, u64)>,
    argv: bool,
) -> Vec<Entry> {
    if req.action == Action::Uninstall {
        return Vec::new();
    }
    wiring::rows(req.agent.table(), req.used)
        .into_iter()
        .map(|row| {
            let fields = handler
                .iter()
                .filter_map(|(key, field)| {
                    let value = match field {
                        Field::Literal(Literal::Str(s)) => Scalar::Str((*s).to_string()),
                        Field::Literal(Literal::Int(n)) => Scalar::Int(*n),
                        Field::Literal(Literal::Bool(b)) => Scalar::Bool(*b),
                        Field::Literal(Literal::Strs(items)) => {
                            Scalar::Strs(items.iter().map(|s| (*s).to_string()).collect())
                        }
                        Field::Command => {
                            let line =
                                command_line_at(&req.program(), req.agent, row.native, req.scope);
                            Scalar::Str(if argv {
                                format!("sh -c '{}'", line.replace('\'', r"'\''"))
                            } else {
                                line
                            })
                        }
                        Field::PowerShellCommand => Scalar::Str(powershell_line(
                            &req.program(),
                            req.agent,
                            row.native,
                            req.scope,
                        )),
                        Field::Timeout(unit) => {
                            let n = in_unit(native_timeout(req.agent, row.canonical), *unit);
                            Scalar::Int(range.map_or(n, |(lo, hi)| n.clamp(lo, hi)))
                        }
                        Field::StatusMessage => {
                            Scalar::Str(req.status_messages.get(&row.canonical)?.clone())
                        }
                    };
                    Some((*key, value))
                })
                .collect();
            Entry {
                event: row.native,
                fields,
            }
        })
        .collect()
}

/// Whether a line of a config file is one of `agent`'s launcher lines.
pub(super) fn has_ours(text: &str, agent: &str) -> bool {
    text.lines().any(|l| json::is_ours(l, agent))
}

/// The format's edit: `text` (empty for a new file) with our entries
/// replaced by `wanted` (none: removed); `Err` says on one line why the file
/// cannot be changed.
pub(super) type EditText<'a> = &'a dyn Fn(&str, &[Entry]) -> Result<String, String>;

/// Plans the request's change of the config file at `path` with the
/// format's `edit`: backs the file up before its first change, and on
/// uninstall puts the backup's bytes back when they are what is left, or
/// deletes a file install created once nothing but blank lines is left.
pub(super) fn plan(
    req: &Request<'_>,
    path: PathBuf,
    stop: &Path,
    wanted: &[Entry],
    edit: EditText<'_>,
) -> Result<FileChange, InstallError> {
    let id = req.agent.id();
    let before = read_opt(&path, caps::HOOKS_JSON)?;
    let text = match before.as_deref().map(std::str::from_utf8) {
        None => String::new(),
        Some(Ok(t)) => t.to_string(),
        Some(Err(e)) => {
            return Err(InstallError::Unchangeable {
                path,
                what: format!("not UTF-8 text (byte {})", e.valid_up_to()),
            })
        }
    };
    let unchangeable = |what: String| InstallError::Unchangeable {
        path: path.clone(),
        what,
    };
    let (mut change, original) = FileChange::starting(req.env, &path, &before, stop)?;
    match req.action {
        Action::Install => {
            if wanted.is_empty() {
                return Ok(change);
            }
            let after = edit(&text, wanted).map_err(unchangeable)?;
            if before.is_some() && after == text {
                return Ok(change);
            }
            if before.is_some() && !has_ours(&text, id) && original.is_none() {
                change.backup = change.backups.as_ref().map(super::backups::Slot::original);
            }
            change.after = Some(after.into_bytes());
        }
        Action::Uninstall => {
            if before.is_none() || !has_ours(&text, id) {
                return Ok(change);
            }
            let after = edit(&text, &[]).map_err(unchangeable)?;
            // A renderer may end the file's last line with a newline it
            // lacked: the backup's bytes are the user's then too.
            let same = |b: &[u8]| b.trim_ascii_end() == after.as_bytes().trim_ascii_end();
            change.after = match original {
                Some((at, b)) if same(&b) => {
                    change.drop_backup = Some(at);
                    Some(b)
                }
                None if after.trim().is_empty() => None,
                _ => Some(after.into_bytes()),
            };
        }
    }
    Ok(change)
}
