//! Codex's `apply_patch` input in Claude's Write/Edit shape.
//!
//! Codex hooks see one tool, `apply_patch`, whose input is the patch text
//! in `command`:
//!
//! ```text
//! *** Begin Patch
//! *** Add File: docs/new.md
//! +line
//! *** Update File: src/a.rs
//! *** Move to: src/b.rs
//! @@ fn f()
//!  context
//! -old
//! +new
//! *** Delete File: old.txt
//! *** End Patch
//! ```
//!
//! A Claude hook reads `file_path` (absolute), `content` (Write) or
//! `old_string`/`new_string` (Edit). Decided here, for a patch:
//!
//! - every file's path is made absolute against the payload's `cwd`
//!   (Codex's paths are relative to it);
//! - a patch that only adds files is `Write`, anything else `Edit` (Codex
//!   itself matches both names against apply_patch);
//! - the fields describe the **first file**: an added file's `content` is
//!   its `+` lines, each ending in a newline as in the file Codex writes
//!   (and, under `Edit`, its `new_string`, from an empty `old_string`); an
//!   update's `old_string`/`new_string` are its hunk's lines, each with its
//!   line end, and with several hunks every hunk's lines one after another,
//!   each hunk also under `edits` (Claude's MultiEdit shape) so a content
//!   check sees all the new text; a deletion has neither;
//! - a patch of several files: `file_paths` lists all of them and `files`
//!   gives each one's fields as above (`{file_path, action, content |
//!   old_string, new_string}`), since one event per file cannot be answered
//!   as one tool call. Hooks that only read `file_path` see the first file:
//!   the agent's notes say so.
//!
//! The patch stays in `command`, the one field Codex lets a hook rewrite.

use serde_json::{json, Map, Value};

use super::super::claude_values::absolute;

/// What a patch does to one file.
#[derive(Debug, Default)]
struct FilePatch {
    path: String,
    action: &'static str,
    /// Added lines of an `Add File`.
    added: Vec<String>,
    /// Each hunk's (old, new) lines of an `Update File`.
    hunks: Vec<(Vec<String>, Vec<String>)>,
    move_to: Option<String>,
}

impl FilePatch {
    fn new(path: &str, action: &'static str) -> FilePatch {
        FilePatch {
            path: path.trim().to_string(),
            action,
            ..FilePatch::default()
        }
    }

    /// `{file_path, action, content | old_string, new_string, edits}`.
    fn fields(&self, cwd: Option<&str>) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("file_path".into(), json!(absolute(&self.path, cwd)));
        out.insert("action".into(), json!(self.action));
        if let Some(to) = &self.move_to {
            out.insert("move_path".into(), json!(absolute(to, cwd)));
        }
        match self.action {
            "add" => {
                out.insert("content".into(), json!(with_line_ends(&self.added)));
            }
            "update" if !self.hunks.is_empty() => {
                let join = |old: bool| {
                    self.hunks
                        .iter()
                        .map(|(o, n)| with_line_ends(if old { o } else { n }))
                        .collect::<String>()
                };
                out.insert("old_string".into(), json!(join(true)));
                out.insert("new_string".into(), json!(join(false)));
                if self.hunks.len() > 1 {
                    let edits: Vec<Value> = self
                        .hunks
                        .iter()
                        .map(|(old, new)| {
                            json!({"old_string": with_line_ends(old), "new_string": with_line_ends(new)})
                        })
                        .collect();
                    out.insert("edits".into(), Value::Array(edits));
                }
            }
            _ => {}
        }
        out
    }
}

/// `lines` as the text Codex writes for them: each line followed by a
/// newline (its parser builds an added file's contents so, and applies a
/// hunk's lines as whole lines), so a hook sees the file's last newline.
fn with_line_ends(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The files of `patch`, in order; lines outside a file are ignored.
fn parse(patch: &str) -> Vec<FilePatch> {
    let mut files: Vec<FilePatch> = Vec::new();
    for line in patch.lines() {
        if line.trim_end() == "*** End Patch" {
            // What follows is not the patch's (a heredoc's terminator).
            break;
        }
        let header = [
            ("*** Add File: ", "add"),
            ("*** Update File: ", "update"),
            ("*** Delete File: ", "delete"),
        ]
        .iter()
        .find_map(|(p, action)| line.strip_prefix(p).map(|path| (path, *action)));
        if let Some((path, action)) = header {
            files.push(FilePatch::new(path, action));
            continue;
        }
        let Some(file) = files.last_mut() else {
            continue;
        };
        if let Some(to) = line.strip_prefix("*** Move to: ") {
            file.move_to = Some(to.trim().to_string());
            continue;
        }
        if line.starts_with("*** ") {
            continue; // End Patch, End of File
        }
        match file.action {
            "add" => {
                if let Some(text) = line.strip_prefix('+') {
                    file.added.push(text.to_string());
                }
            }
            "update" => {
                if line.starts_with("@@") || file.hunks.is_empty() {
                    file.hunks.push((Vec::new(), Vec::new()));
                    if line.starts_with("@@") {
                        continue;
                    }
                }
                let Some(hunk) = file.hunks.last_mut() else {
                    continue;
                };
                // The sign is one character, not one byte: a line may start
                // with any UTF-8 (found by the `decode` fuzz target).
                let mut chars = line.chars();
                let sign = chars.next();
                let text = chars.as_str();
                match sign {
                    Some('-') => hunk.0.push(text.to_string()),
                    Some('+') => hunk.1.push(text.to_string()),
                    Some(' ') | None => {
                        hunk.0.push(text.to_string());
                        hunk.1.push(text.to_string());
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    files.retain(|f| !f.path.is_empty());
    files
}

/// Whether a shell `command` is apply_patch run as a command with the patch
/// in a heredoc (`apply_patch <<'PATCH'` ... `PATCH`), the form Codex
/// intercepts and applies itself. The heredoc's own lines lie outside every
/// file of the patch, so [`to_claude`] reads the command as it is.
pub(in crate::agents) fn is_shell_patch(command: &str) -> bool {
    let command = command.trim_start();
    ["apply_patch", "applypatch"]
        .iter()
        .filter_map(|name| command.strip_prefix(name))
        .any(|rest| rest.trim_start().starts_with("<<"))
        && command.contains("*** Begin Patch")
}

/// Puts Claude's Write/Edit fields for the patch in `args["command"]` into
/// `args` (see the module docs); returns the Claude tool the patch is:
/// `Write` when it only adds files, else `Edit`; `None` without a patch.
pub(in crate::agents) fn to_claude(
    args: &mut Map<String, Value>,
    cwd: Option<&str>,
) -> Option<&'static str> {
    let patch = args.get("command").and_then(Value::as_str)?;
    let files = parse(patch);
    let first = files.first()?;
    let adds_only = files.iter().all(|f| f.action == "add");
    let mut fields = first.fields(cwd);
    if !adds_only && first.action == "add" {
        // Creating a file is an edit from nothing.
        let content = fields.remove("content").unwrap_or(json!(""));
        fields.insert("old_string".into(), json!(""));
        fields.insert("new_string".into(), content);
    }
    fields.remove("action");
    for (k, v) in fields {
        args.entry(k).or_insert(v);
    }
    let paths: Vec<Value> = files
        .iter()
        .map(|f| json!(absolute(&f.path, cwd)))
        .collect();
    args.entry("file_paths").or_insert(Value::Array(paths));
    if files.len() > 1 {
        let each: Vec<Value> = files.iter().map(|f| Value::Object(f.fields(cwd))).collect();
        args.entry("files").or_insert(Value::Array(each));
    }
    Some(if adds_only { "Write" } else { "Edit" })
}
