//! Gemini CLI: its own event and tool names, and a JSON answer that decides
//! whatever the exit code.
//!
//! Docs: <https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md>;
//! source: <https://github.com/google-gemini/gemini-cli> `packages/core/src/hooks/`
//! (@ 5411f113, checked 2026-08 in `docs/agent-protocols.md` §3, and
//! 2026-11 against the recorded payloads of Gemini CLI 0.61.0).
//!
//! Traps (§15): valid JSON on stdout decides regardless of the exit code, and
//! exit 2 with empty output does not block, so this adapter always answers in
//! JSON with exit 0 (`{}` for no opinion: with an empty stdout Gemini would
//! read our stderr notes as the answer). A rewritten tool input must be the FULL input in Gemini's
//! own parameter names (the scheduler rebuilds the call from it alone).

use serde_json::{json, Map, Value};

pub(crate) mod transcript;

use super::claude_json::{put_verdict, verdict_str, write_common, VerdictKeys};
use super::deadline::{secs, Deadline};
use super::plan::{Intent, DEFAULT_DENY};
use super::{project_and_home, Field, InstallSpec, JsonSpec, Literal, Shape, TimeUnit, ToolNames};
use super::{Agent, EventRow, Info, Native};
use super::{Off, OffSwitches, WindowsShell};
use crate::protocol::{Event, Note};

// The table is data: `gemini/table.toml`, made Rust by `build.rs`.
pub use super::tables::gemini::TABLE;

/// The Gemini CLI adapter.
pub struct Gemini;

/// Gemini CLI 0.61.0 runs no hook with `hooksConfig.enabled: false`, and
/// none named in `hooksConfig.disabled` (ours are named `agenthooks`);
/// before `hooksConfig` the same keys sat in `hooks` (0.61.0's bundled
/// source and settings schema; the older keys from its docs of then).
const OFF: OffSwitches = OffSwitches::new(&[
    ("/hooksConfig/enabled", Off::Is(false)),
    ("/hooksConfig/disabled", Off::Lists("agenthooks")),
    ("/hooks/enabled", Off::Is(false)),
    ("/hooks/disabled", Off::Lists("agenthooks")),
]);

/// Gemini CLI reads `hooks` in `settings.json` (JSONC allowed) under its own
/// event names; the timeout is in milliseconds and `name` is shown in its UI;
/// the settings in `OFF` switch them off.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::new(
        Shape::Nested,
        &[
            ("name", Field::Literal(Literal::Str("agenthooks"))),
            ("type", Field::Literal(Literal::Str("command"))),
            ("command", Field::Command),
            ("timeout", Field::Timeout(TimeUnit::Milliseconds)),
        ],
    )
    .jsonc()
    .with_off(OFF)
    .on_windows(WindowsShell::PowerShell)
    .matching(ToolNames::Native),
    ".gemini",
    "settings.json"
)
.with_system(
    super::SystemFile::new(
        "/etc/gemini-cli/settings.json",
        "/Library/Application Support/GeminiCli/settings.json",
        r"gemini-cli\settings.json",
    )
    .var("GEMINI_CLI_SYSTEM_SETTINGS_PATH"),
)
.with_plugin(super::PluginLayout {
    manifest: "gemini-extension.json",
    hooks: "hooks/hooks.json",
    load: "gemini extensions link {dir} (or `gemini extensions install <git url>` once it is in a repository)",
    // extensions/<name>: a copy, or for `extensions link` only the install
    // metadata naming the folder (gemini-cli's INSTALL_METADATA_FILENAME).
    store: Some((super::UserPath::home(".gemini/extensions"), 1)),
    link: Some(".gemini-extension-install.json"),
})
.with_after_install(
    "Gemini CLI runs these hooks only in a folder you trust in Gemini CLI (headless `gemini -p`: `--skip-trust` or GEMINI_CLI_TRUST_WORKSPACE=true)",
);

/// Gemini CLI: 60 000 ms.
static INFO: Info = Info::new("gemini", "Gemini CLI", &TABLE, &INSTALL)
    .with_transcript(super::transcript::TranscriptShape::Reader(
        super::gemini::transcript::read,
    ))
    .with_deadline(Deadline::new(secs(60), &[]))
    .with_native_hooks(NATIVE_HOOKS);

/// Gemini CLI sets `GEMINI_PROJECT_DIR` (and `CLAUDE_PROJECT_DIR` as its
/// alias) for its hooks; the working directory, session id and plans directory have no equal in Claude Code.
static NATIVE_HOOKS: super::NativeHooks = super::NativeHooks::INSTALLED.with_vars(&[
    ("GEMINI_PROJECT_DIR", Some("CLAUDE_PROJECT_DIR")),
    ("GEMINI_CWD", None),
    ("GEMINI_SESSION_ID", None),
    ("GEMINI_PLANS_DIR", None),
]);

impl Agent for Gemini {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, _row: &EventRow, input: &mut Map<String, Value>) {
        if let Some(name) = mcp_name(input) {
            input.insert("tool_name".into(), Value::String(name));
        }
        let read = input.get("tool_name").and_then(Value::as_str) == Some("read_file");
        if read {
            if let Some(Value::Object(args)) = input.get_mut("tool_input") {
                lines_to_offset(args);
            }
        }
    }

    /// Gemini parses stderr when stdout is empty, and reads plain text as
    /// `allow` plus a system message: so stdout is always a JSON object and
    /// stderr stays a log.
    fn no_opinion(&self, notes: Vec<Note>) -> Native {
        Native::ok("{}".to_string(), notes)
    }

    fn write(&self, event: &Event, row: &EventRow, mut intent: Intent) -> Native {
        if intent.is_empty() {
            return self.no_opinion(intent.notes);
        }
        let mut out = Map::new();
        let mut hso = Map::new();
        let decision = VerdictKeys {
            key: "decision",
            spell: verdict_str,
            reason: &["reason"],
        };
        put_verdict(&mut out, &intent, decision);
        if intent.block.is_some() {
            // BeforeAgent: discard the prompt; AfterTool: replace the result;
            // AfterAgent: go on with the reason as the next prompt.
            out.insert("decision".into(), json!("deny"));
            out.insert("reason".into(), json!(intent.block_reason_or(DEFAULT_DENY)));
        }
        if let Some(mut input) = intent.updated_input.take() {
            offset_to_lines(event, &mut input);
            hso.insert("tool_input".into(), Value::Object(input));
        }
        write_common(&mut out, hso, row.native, &intent);
        Native::json(&Value::Object(out), intent.notes)
    }
}

/// MCP tools are named `mcp_<server>_<tool>`, which cannot be split when a
/// name holds `_`; `mcp_context` names both parts.
fn mcp_name(input: &Map<String, Value>) -> Option<String> {
    let ctx = input.get("mcp_context")?.as_object()?;
    let server = ctx.get("server_name")?.as_str()?;
    let tool = ctx.get("tool_name")?.as_str()?;
    Some(format!("mcp__{server}__{tool}"))
}

/// Gemini's `read_file` takes 1-based `start_line`/`end_line`; Claude's Read
/// takes `offset` (first line) and `limit` (line count).
fn lines_to_offset(args: &mut Map<String, Value>) {
    let start = args.get("start_line").and_then(Value::as_i64);
    let end = args.get("end_line").and_then(Value::as_i64);
    if let Some(start) = start {
        args.remove("start_line");
        args.entry("offset").or_insert(json!(start));
        if let Some(end) = end.filter(|e| *e >= start) {
            args.remove("end_line");
            args.entry("limit").or_insert(json!(end - start + 1));
        }
    }
}

/// The reverse of [`lines_to_offset`], for a rewritten Read input.
fn offset_to_lines(event: &Event, args: &mut Map<String, Value>) {
    if event.tool_name() != Some("Read") {
        return;
    }
    let offset = args.get("offset").and_then(Value::as_i64);
    let limit = args.get("limit").and_then(Value::as_i64);
    if let Some(offset) = offset {
        args.remove("offset");
        args.insert("start_line".into(), json!(offset));
        if let Some(limit) = limit.filter(|l| *l > 0) {
            args.remove("limit");
            args.insert("end_line".into(), json!(offset + limit - 1));
        }
    }
}

#[cfg(test)]
mod tests;
