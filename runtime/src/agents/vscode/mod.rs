//! VS Code: the Local harness of its agent mode (the GitHub Copilot Chat
//! extension), which runs hooks itself.
//!
//! Docs: <https://code.visualstudio.com/docs/agent-customization/hooks>
//! (vscode-docs `docs/agent-customization/hooks.md` @91e74cb2, 2026-06) and
//! the source of microsoft/vscode-copilot-chat (@31acd00a, 2026-03:
//! `src/extension/chat/vscode-node/chatHookService.ts`, the hook payloads and
//! how answers are read; `src/extension/tools/common/toolNames.ts` and
//! `package.json`, the tools and their parameters). No VS Code was run: the
//! fixtures are built from these (`tests/fixtures/agents/vscode-1.110-source/`).
//!
//! Traps:
//! - VS Code reads `.github/hooks/*.json` **and, by default, Claude Code's
//!   settings files** (`chat.hookFilesLocations`), so a project where
//!   `agenthooks install claude` or `install copilot` ran gets VS Code's
//!   payloads through those entries. They are told apart by their shape
//!   ([`is_payload`]) and decoded and answered here whichever entry they came
//!   through ([`Visits`]); and of VS Code's, Copilot's and Claude's entries
//!   the first installed runs each event, the others step aside
//!   (`import::twice`).
//! - The common fields were camelCase (`hookEventName`, `sessionId`, as the
//!   docs still say) until vscode-copilot-chat#4011 (2026-02-25) made them
//!   Claude's (`hook_event_name`, `session_id`); both are read.
//! - VS Code ignores matchers: every hook of an event runs for every tool,
//!   and agenthooks' own selection is what matches.
//! - Stop and SubagentStop keep going only through
//!   `hookSpecificOutput.decision` (the top-level `decision` that Claude
//!   reads is ignored there), which [`VsCode::write`] writes.
//! - Copilot CLI reads `.github/hooks/*.json` too, so it runs VS Code's own
//!   entry with its payloads: Copilot's `Visits` takes those (by its
//!   `COPILOT_CLI` variable).

use serde_json::{json, Map, Value};

use super::claude_json::claude_json;
use super::deadline::{secs, Deadline};
use super::plan::Intent;
use super::{Agent, EventRow, Info, Native, Visits};
use super::{InstallSpec, JsonSpec, Shape, TimeUnit, UserPath};
use crate::protocol::{Event, EventName};

// The table is data: `vscode/table.toml`, made Rust by `build.rs`.
pub use super::tables::vscode::TABLE;

/// The VS Code adapter.
pub struct VsCode;

/// VS Code loads every `*.json` of `.github/hooks` (and, per its docs'
/// table, `~/.copilot/hooks`): a file of our own there, Claude's event names
/// and VS Code's handler keys (`command`, `timeout` in seconds).
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::claude(Shape::Flat, TimeUnit::Seconds),
    ".github/hooks/agenthooks-vscode.json",
    UserPath::home(".copilot/hooks/agenthooks-vscode.json"),
)
.detected_by(&[".vscode"], &[UserPath::home(".vscode")])
.with_after_install(
    "VS Code runs these hooks in agent mode with the Local harness; it also runs Claude Code's and Copilot CLI's entries, and agenthooks runs each hook once among them",
);

/// Where VS Code's Local harness reads other agents' entries: by default.
const WHEN: &str =
    "by default: the `chat.hookFilesLocations` setting lists `.claude/settings.json`, `.claude/settings.local.json`, `~/.claude/settings.json` and `.github/hooks`";

/// VS Code: 30 s per hook unless its `timeout` says otherwise
/// (`hookExecutor.ts`). It runs Copilot CLI's entries (`.github/hooks`) and
/// Claude Code's, in that order of preference after its own.
static INFO: Info = Info::new("vscode", "VS Code", &TABLE, &INSTALL)
    .with_deadline(Deadline::new(secs(30), &[]))
    .with_names(&["hookEventName", "hook_event_name"])
    // Its transcript (`<storage>/transcripts/<session>.jsonl`,
    // `sessionTranscriptService.ts`) is written in Copilot CLI's event
    // format: `session.start`, `user.message`, `assistant.message` with
    // `toolRequests`, `tool.execution_complete`.
    .with_transcript(super::transcript::TranscriptShape::Reader(
        super::copilot::transcript::read,
    ))
    .with_visits(Visits {
        entries: &["copilot", "claude"],
        recognise: is_payload,
        when: WHEN,
    })
    .with_native_hooks(super::NativeHooks::INSTALLED.in_files(
        &[".github/hooks/*.json"],
        &[UserPath::home(".copilot/hooks/*.json")],
    ));

/// Whether `input` is VS Code's payload: its event named in camelCase
/// `hookEventName` (the docs, and builds before 2026-02-25); or Claude's
/// `hook_event_name` with an ISO 8601 `timestamp` (which Claude Code does
/// not send) and either a `tool_use_id` or a `transcript_path` without
/// Copilot CLI's own fields. Copilot CLI's Claude-format payloads have the
/// same common fields, but no `tool_use_id`, a transcript only at Stop
/// (with its `stop_reason`), and come with `COPILOT_CLI` set.
pub fn is_payload(input: &Map<String, Value>) -> bool {
    let named = |key: &str| input.get(key).is_some_and(Value::is_string);
    if named("hookEventName") {
        return true;
    }
    let others = ["initial_prompt", "stop_reason", "permission_mode"];
    named("hook_event_name")
        && named("timestamp")
        && (named("tool_use_id")
            || (named("transcript_path") && !others.iter().any(|k| input.contains_key(*k))))
        && !super::copilot::is_copilot_cli()
}

impl Agent for VsCode {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, _row: &EventRow, input: &mut Map<String, Value>) {
        let Some(tool) = input.get("tool_name").and_then(Value::as_str) else {
            return;
        };
        let tool = tool.to_string();
        if let Some(mcp) = mcp_name(&tool) {
            input.insert("tool_name".into(), Value::String(mcp));
            return;
        }
        let cwd = input.get("cwd").and_then(Value::as_str).map(str::to_string);
        let Some(Value::Object(args)) = input.get_mut("tool_input") else {
            return;
        };
        let renamed = match tool.as_str() {
            "read_file" => {
                read_lines(args);
                None
            }
            "fetch_webpage" => {
                first_url(args);
                None
            }
            "multi_replace_string_in_file" => {
                replacements(args);
                None
            }
            "edit_notebook_file" => {
                notebook_mode(args);
                None
            }
            "insert_edit_into_file" => {
                if let Some(code) = args.get("code").cloned() {
                    args.entry("new_string").or_insert(code);
                }
                None
            }
            "apply_patch" => patch(args, cwd.as_deref()),
            _ => None,
        };
        if let Some(canonical) = renamed {
            input.insert("tool_name".into(), Value::String(canonical.into()));
        }
    }

    fn write(&self, event: &Event, row: &EventRow, intent: Intent) -> Native {
        let mut value = claude_json(event.name(), row.native, &intent);
        if matches!(event.name(), EventName::Stop | EventName::SubagentStop) {
            keep_going_inside(&mut value, row.native);
        }
        Native::json(&value, intent.notes)
    }
}

/// VS Code's MCP tools, `mcp_<server>_<tool>`, under Claude's
/// `mcp__<server>__<tool>`: the server taken as far as the first underscore
/// (VS Code joins the two with one, so a server name holding one cannot be
/// told apart).
fn mcp_name(tool: &str) -> Option<String> {
    let rest = tool.strip_prefix("mcp_").filter(|r| !r.starts_with('_'))?;
    let (server, name) = rest.split_once('_')?;
    (!server.is_empty() && !name.is_empty()).then(|| format!("mcp__{server}__{name}"))
}

/// `read_file`'s 1-based `startLine`..=`endLine` as Claude's Read
/// `offset` (the first line) and `limit` (how many).
fn read_lines(args: &mut Map<String, Value>) {
    let line = |k: &str| args.get(k).and_then(Value::as_u64);
    let (Some(start), end) = (line("startLine"), line("endLine")) else {
        return;
    };
    args.entry("offset").or_insert(json!(start));
    if let Some(end) = end.filter(|e| *e >= start) {
        args.entry("limit").or_insert(json!(end - start + 1));
    }
}

/// `fetch_webpage`'s `urls` (a list) as WebFetch's one `url` (the first;
/// `urls` stays for hooks that check them all) and its `query` as `prompt`.
fn first_url(args: &mut Map<String, Value>) {
    let first = args
        .get("urls")
        .and_then(Value::as_array)
        .and_then(|u| u.first())
        .filter(|u| u.is_string())
        .cloned();
    if let Some(url) = first {
        args.entry("url").or_insert(url);
    }
    if let Some(query) = args.get("query").cloned() {
        args.entry("prompt").or_insert(query);
    }
}

/// `multi_replace_string_in_file`'s `replacements` (each with its own
/// `filePath`, `oldString`, `newString`) as MultiEdit's `file_path` (the
/// first file's) and `edits`, each edit keeping its own `file_path` since
/// one call may edit several files; `file_paths` lists them all.
fn replacements(args: &mut Map<String, Value>) {
    let Some(list) = args.get("replacements").and_then(Value::as_array) else {
        return;
    };
    let mut edits = Vec::new();
    let mut paths: Vec<Value> = Vec::new();
    for r in list.iter().filter_map(Value::as_object) {
        let mut edit = Map::new();
        for (native, canonical) in [
            ("filePath", "file_path"),
            ("oldString", "old_string"),
            ("newString", "new_string"),
        ] {
            if let Some(v) = r.get(native) {
                edit.insert(canonical.into(), v.clone());
            }
        }
        if let Some(path) = edit.get("file_path").filter(|p| !paths.contains(p)) {
            paths.push(path.clone());
        }
        edits.push(Value::Object(edit));
    }
    if let Some(first) = paths.first() {
        args.entry("file_path").or_insert(first.clone());
    }
    args.entry("edits").or_insert(Value::Array(edits));
    args.entry("file_paths").or_insert(Value::Array(paths));
}

/// `edit_notebook_file`'s `editType` (`insert`, `delete`, `edit`) as
/// NotebookEdit's `edit_mode` (`insert`, `delete`, `replace`).
fn notebook_mode(args: &mut Map<String, Value>) {
    let mode = match args.get("editType").and_then(Value::as_str) {
        Some("edit") => "replace",
        Some("insert") => "insert",
        Some("delete") => "delete",
        _ => return,
    };
    args.entry("edit_mode").or_insert(json!(mode));
}

/// `apply_patch`'s patch (in `input`, Codex's format) as Claude's Write or
/// Edit fields, read as Codex's (`codex::patch`); the Claude tool it is.
fn patch(args: &mut Map<String, Value>, cwd: Option<&str>) -> Option<&'static str> {
    let text = args.get("input").filter(|t| t.is_string())?.clone();
    let mut fields = Map::new();
    fields.insert("command".into(), text);
    let tool = super::codex::patch::to_claude(&mut fields, cwd)?;
    fields.remove("command");
    for (k, v) in fields {
        args.entry(k).or_insert(v);
    }
    Some(tool)
}

/// A keep-going answer at Stop or SubagentStop where VS Code reads it: the
/// top-level `decision`/`reason` moved into `hookSpecificOutput`.
fn keep_going_inside(value: &mut Value, native: &str) {
    let Value::Object(out) = value else {
        return;
    };
    let Some(decision) = out.remove("decision") else {
        return;
    };
    let reason = out.remove("reason");
    let hso = out
        .entry("hookSpecificOutput")
        .or_insert_with(|| json!({ "hookEventName": native }));
    if let Value::Object(hso) = hso {
        hso.insert("decision".into(), decision);
        if let Some(reason) = reason {
            hso.insert("reason".into(), reason);
        }
    }
}

#[cfg(test)]
mod tests;
