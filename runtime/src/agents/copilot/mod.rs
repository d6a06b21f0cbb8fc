//! GitHub Copilot CLI: camelCase events and payloads, top-level answer fields.
//!
//! Docs: <https://github.com/github/docs/blob/main/content/copilot/reference/hooks-reference.md>
//! (and the older `hooks-configuration.md`; checked 2026-08 in
//! `docs/agent-protocols.md` §4, and 2026-11 against the recorded
//! payloads of Copilot CLI 1.0.102, native and Claude-format).
//!
//! Traps (§15): the payloads do not name the event (it comes in argv), except
//! `permissionRequest`'s `hookName`; Claude-format (PascalCase) registrations
//! send snake_case Claude payloads instead. Copilot wants top-level
//! `permissionDecision`/`permissionDecisionReason`/`modifiedArgs` (nested
//! `hookSpecificOutput` is ignored), drops the stderr reason of exit 2, and
//! treats any non-zero exit of a preToolUse hook as a deny — so this adapter
//! always exits 0 and puts every reason in the JSON.

use serde_json::{json, Map, Value};

pub(crate) mod transcript;

use super::claude_json::{put_verdict, BEHAVIOR, PERMISSION_DECISION};
use super::deadline::{secs, Deadline};
use super::plan::{non_empty, Intent, DEFAULT_DENY};
use super::{parse_if_string, Agent, EventRow, Info, Native};
use super::{AlsoRuns, Field, InstallSpec, JsonSpec, Literal, Shape, TimeUnit, UserDir, UserPath};
use super::{OffSwitches, WindowsShell, DISABLE_ALL_HOOKS};
use crate::protocol::{Event, EventName};

// The table is data: `copilot/table.toml`, made Rust by `build.rs`.
pub use super::tables::copilot::TABLE;

/// The Copilot CLI adapter.
pub struct Copilot;

/// The user directory Copilot CLI keeps its config in: `$COPILOT_HOME`, default `~/.copilot`.
pub const COPILOT_HOME: UserDir = UserDir::var("COPILOT_HOME", ".copilot");

/// Copilot CLI reads every file in `.github/hooks` (and `$COPILOT_HOME/hooks`):
/// we keep a file of our own with a `version`, camelCase (native) event keys
/// and flat handlers with `bash`, `powershell` (what it runs on Windows) and
/// `timeoutSec`.
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::new(
        Shape::Flat,
        &[
            ("type", Field::Literal(Literal::Str("command"))),
            ("bash", Field::Command),
            ("powershell", Field::PowerShellCommand),
            ("timeoutSec", Field::Timeout(TimeUnit::Seconds)),
        ],
    )
    .with_root(&[("version", Literal::Int(1))])
    .on_windows(WindowsShell::Sh)
    // Copilot CLI 1.0.102 reads `disableAllHooks` ("disable all hooks
    // (repo-level and user-level)") from its settings files (its bundled
    // cli-main.js: user, repo, local).
    .with_off(OffSwitches::new(DISABLE_ALL_HOOKS).also(
        &[
            ".github/copilot/settings.json",
            ".github/copilot/settings.local.json",
        ],
        &[UserPath::new(COPILOT_HOME, "settings.json")],
    )),
    ".github/hooks/agenthooks.json",
    UserPath::new(COPILOT_HOME, "hooks/agenthooks.json"),
)
.with_system(super::SystemFile::new(
    "/etc/github-copilot/policy.d/agenthooks.json",
    "/etc/github-copilot/policy.d/agenthooks.json",
    r"GitHub\Copilot\policy.d\agenthooks.json",
))
.detected_by(
    &[
        ".github/hooks",
        ".github/copilot-instructions.md",
        ".github/copilot",
    ],
    &[UserPath::new(COPILOT_HOME, "")],
)
.with_after_install("Copilot CLI loads these hooks only in a folder you trust in Copilot CLI")
// Copilot CLI loads Claude-layout plugins; their hooks file is Copilot's format.
.with_plugin(super::PluginLayout {
    load: "copilot plugin install {dir}",
    // installed-plugins/<marketplace>/<plugin>, or `_direct/<plugin>` for a
    // folder installed by path.
    store: Some((UserPath::new(COPILOT_HOME, "installed-plugins"), 2)),
    ..super::claude::CLAUDE_PLUGIN
});

/// GitHub Copilot: 30 s. Copilot CLI runs the hooks in `.claude/settings.json`
/// as well as its own, with `COPILOT_CLI=1` set for both. Its own entry is
/// the one that knows Copilot's dialect (top-level `permissionDecision`,
/// exit 0 on our errors), so the Claude entry is the one to step aside.
/// Only `permissionRequest` names itself (`hookName`); Claude-format
/// registrations send Claude's payload.
static INFO: Info = Info::new("copilot", "GitHub Copilot CLI", &TABLE, &INSTALL)
    .with_transcript(super::transcript::TranscriptShape::Reader(
        super::copilot::transcript::read,
    ))
    .with_deadline(Deadline::new(secs(30), &[]))
    .with_also_runs(AlsoRuns {
        agent: "claude",
        env: "COPILOT_CLI",
        when: None,
    })
    .with_names(&["hookName", "hook_event_name"])
    // VS Code's own entry is in `.github/hooks`, which Copilot CLI reads too.
    .with_visits(super::Visits {
        entries: &["vscode"],
        recognise: |_| is_copilot_cli(),
        when: "it reads every `.github/hooks/*.json`",
    })
    .with_native_hooks(
        super::NativeHooks::INSTALLED
            .in_files(
                &[".github/hooks/*.json"],
                &[UserPath::new(COPILOT_HOME, "hooks/*.json")],
            )
            // Policy hooks: every JSON file of the folder, by name.
            .in_system_files(super::SystemFile::new(
                "/etc/github-copilot/policy.d/*.json",
                "/etc/github-copilot/policy.d/*.json",
                r"GitHub\Copilot\policy.d\*.json",
            )),
    );

/// Whether this process is a hook Copilot CLI runs: it sets `COPILOT_CLI`
/// for every hook, its own entries' and the others it reads.
pub fn is_copilot_cli() -> bool {
    std::env::var_os("COPILOT_CLI").is_some_and(|v| !v.is_empty())
}

impl Agent for Copilot {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, _row: &EventRow, input: &mut Map<String, Value>) {
        if let Some(name) = input.get("toolName").cloned() {
            input.entry("tool_name").or_insert(name);
        }
        let args = input
            .get("toolArgs")
            .or_else(|| input.get("toolInput"))
            .cloned();
        if let Some(args) = args {
            input.entry("tool_input").or_insert(parse_if_string(args));
        }
        if let Some(result) = input.get("toolResult").cloned() {
            input.entry("tool_response").or_insert(result);
        }
    }

    fn write(&self, event: &Event, _row: &EventRow, intent: Intent) -> Native {
        if intent.is_empty() {
            return Native::ok(String::new(), intent.notes);
        }
        let mut out = Map::new();
        match event.name() {
            EventName::PermissionRequest => {
                put_verdict(&mut out, &intent, BEHAVIOR);
                if let Some(reason) = &intent.stop {
                    // Copilot stops the agent only through a deny with interrupt.
                    out.insert("behavior".into(), json!("deny"));
                    out.entry("message").or_insert_with(|| {
                        json!(non_empty(Some(reason)).unwrap_or("a hook stopped the agent"))
                    });
                    out.insert("interrupt".into(), json!(true));
                }
            }
            _ => {
                put_verdict(&mut out, &intent, PERMISSION_DECISION);
                if let Some(input) = &intent.updated_input {
                    out.insert("modifiedArgs".into(), Value::Object(input.clone()));
                }
                if intent.block.is_some() {
                    out.insert("decision".into(), json!("block"));
                    out.insert("reason".into(), json!(intent.block_reason_or(DEFAULT_DENY)));
                }
                if let Some(c) = &intent.context {
                    out.insert("additionalContext".into(), json!(c));
                }
            }
        }
        Native::json(&Value::Object(out), intent.notes)
    }
}

#[cfg(test)]
mod tests;
