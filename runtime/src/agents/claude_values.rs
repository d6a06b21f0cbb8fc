//! The fields Claude Code's matchers read, given to hooks in Claude's values.
//!
//! A hook with `"matcher": "startup"` on SessionStart is the most common in
//! published collections; it fires only when `source` is exactly Claude's
//! word. Agents say it otherwise (Copilot `"new"`) or not at all (Cursor,
//! Kiro, OpenCode), so each matcher field Claude defines is mapped here, at
//! the end of every decode, from one table: Claude's own values pass
//! unchanged, an agent's word for one of them is replaced (the agent's
//! value kept under `<field>_native`), and where the field is missing, the
//! event itself says what it must be (a session start is a new session,
//! unless the agent's event is a resume: Cline's `TaskResume`).
//!
//! | Event | Field | Claude's values | Agents' words mapped |
//! |---|---|---|---|
//! | SessionStart | `source` | startup, resume, clear, compact, fork | new, start, created, init → startup; resumed, continue, load → resume; missing → startup (resume for a resume event) |
//! | SessionEnd | `reason` | clear, resume, logout, prompt_input_exit, other, bypass_permissions_disabled | exit, quit, user_exit → prompt_input_exit; any other word, or missing → other |
//! | PreCompact, PostCompact | `trigger` | manual, auto | automatic → auto; user → manual |
//! | Notification | `notification_type` | permission_prompt, idle_prompt, auth_success, elicitation_dialog | ToolPermission (Gemini) → permission_prompt; idle → idle_prompt |
//!
//! Other matcher fields (Setup `trigger`, `agent_type`, ConfigChange
//! `source`, `load_reason`) have no agent sending another vocabulary.
//!
//! The file tools' paths likewise: Claude sends `file_path` (and
//! `notebook_path`) absolute, and hooks compare them with
//! `$CLAUDE_PROJECT_DIR/...`; an agent's relative path (Codex's patches,
//! Copilot's and Kiro's `path`) is joined to the payload's `cwd`
//! ([`file_tool_input`]). An `Edit` that arrives as a list of `edits`
//! (Cursor's and Windsurf's file edits) gets Claude's `old_string` and
//! `new_string`: the one edit's, or every edit's one after another, so a
//! check of the new text sees all of it.

use std::path::Path;

use serde_json::{Map, Value};

use super::response::NATIVE_SUFFIX;
use super::EventRow;
use crate::protocol::EventName;

/// One matcher field's values: Claude's, the agents' words for them, and
/// what a missing or unknown value becomes.
struct Values {
    events: &'static [EventName],
    field: &'static str,
    claude: &'static [&'static str],
    /// (agent's word, lower case; Claude's value).
    words: &'static [(&'static str, &'static str)],
    /// What a word neither Claude's nor in `words` becomes (Claude's
    /// catch-all), if Claude has one.
    other: Option<&'static str>,
    /// What a missing field is, from the agent's native event name.
    missing: fn(&str) -> Option<&'static str>,
}

const VALUES: &[Values] = &[
    Values {
        events: &[EventName::SessionStart],
        field: "source",
        claude: &["startup", "resume", "clear", "compact", "fork"],
        words: &[
            ("new", "startup"),
            ("start", "startup"),
            ("created", "startup"),
            ("init", "startup"),
            ("resumed", "resume"),
            ("continue", "resume"),
            ("load", "resume"),
        ],
        other: None,
        missing: |native| {
            Some(if native.to_ascii_lowercase().contains("resume") {
                "resume"
            } else {
                "startup"
            })
        },
    },
    Values {
        events: &[EventName::SessionEnd],
        field: "reason",
        claude: &[
            "clear",
            "resume",
            "logout",
            "prompt_input_exit",
            "other",
            "bypass_permissions_disabled",
        ],
        words: &[
            ("exit", "prompt_input_exit"),
            ("quit", "prompt_input_exit"),
            ("user_exit", "prompt_input_exit"),
        ],
        other: Some("other"),
        missing: |_| Some("other"),
    },
    Values {
        events: &[EventName::PreCompact, EventName::PostCompact],
        field: "trigger",
        claude: &["manual", "auto"],
        words: &[("automatic", "auto"), ("user", "manual")],
        other: None,
        missing: |_| None,
    },
    Values {
        events: &[EventName::Notification],
        field: "notification_type",
        claude: &[
            "permission_prompt",
            "idle_prompt",
            "auth_success",
            "elicitation_dialog",
        ],
        words: &[
            ("toolpermission", "permission_prompt"),
            ("tool_permission", "permission_prompt"),
            ("idle", "idle_prompt"),
        ],
        other: None,
        missing: |_| None,
    },
];

/// Puts the matcher field of `row`'s event into Claude's values (see the
/// module docs).
pub(crate) fn normalise(row: &EventRow, input: &mut Map<String, Value>) {
    for values in VALUES.iter().filter(|v| v.events.contains(&row.canonical)) {
        let field = values.field;
        let claude = match input.get(field) {
            None | Some(Value::Null) => (values.missing)(row.native),
            Some(Value::String(s)) if values.claude.contains(&s.as_str()) => None,
            Some(Value::String(s)) => {
                let lower = s.to_ascii_lowercase();
                values
                    .claude
                    .iter()
                    .copied()
                    .find(|c| *c == lower)
                    .or_else(|| {
                        values
                            .words
                            .iter()
                            .find(|(w, _)| *w == lower)
                            .map(|(_, c)| *c)
                    })
                    .or(values.other)
            }
            Some(_) => values.other,
        };
        let Some(claude) = claude else { continue };
        if let Some(native) = input.insert(field.to_string(), Value::String(claude.into())) {
            if !native.is_null() {
                input.insert(format!("{field}{NATIVE_SUFFIX}"), native);
            }
        }
    }
}

/// The Claude tools whose input names a file, and the keys naming it.
const FILE_TOOLS: &[(&str, &[&str])] = &[
    ("Read", &["file_path"]),
    ("Write", &["file_path"]),
    ("Edit", &["file_path"]),
    ("MultiEdit", &["file_path"]),
    ("NotebookEdit", &["notebook_path"]),
];

/// `path` joined to `cwd` when it is relative and a `cwd` is known.
pub(super) fn absolute(path: &str, cwd: Option<&str>) -> String {
    match cwd {
        Some(cwd) if !path.is_empty() && Path::new(path).is_relative() => {
            Path::new(cwd).join(path).to_string_lossy().into_owned()
        }
        _ => path.to_string(),
    }
}

/// Makes the file path of Claude's file `tool` in `args` absolute against
/// `cwd`, and gives an `Edit` of several `edits` its `old_string` and
/// `new_string` (see the module docs).
pub(crate) fn file_tool_input(tool: &str, cwd: Option<&str>, args: &mut Map<String, Value>) {
    let Some((_, keys)) = FILE_TOOLS.iter().find(|(t, _)| *t == tool) else {
        return;
    };
    for key in *keys {
        if let Some(Value::String(path)) = args.get_mut(*key) {
            *path = absolute(path, cwd);
        }
    }
    if tool == "Edit" && !args.contains_key("new_string") {
        let Some(Value::Array(edits)) = args.get("edits") else {
            return;
        };
        let side = |key: &str| {
            let texts: Vec<&str> = edits
                .iter()
                .filter_map(|e| e.get(key).and_then(Value::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        };
        let (old, new) = (side("old_string"), side("new_string"));
        if let Some(new) = new {
            args.insert("old_string".into(), Value::String(old.unwrap_or_default()));
            args.insert("new_string".into(), Value::String(new));
        }
    }
}
