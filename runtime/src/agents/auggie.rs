//! Augment's Auggie CLI: Claude-shaped `hooks` in `.augment/settings.json`,
//! its own payload keys and event name for the prompt, timeouts in ms.
//!
//! Verified how: run in CI by `tests/real-agents` (`@augmentcode/auggie`
//! 0.36.0 against `fake_augment.py`, a fake Augment backend; payloads in
//! `tests/fixtures/agents/auggie-0.36.0/`), first by hand
//! (`docs/agent-protocols.md` §15.5). Seen there: the files
//! (`~/.augment/settings.json`, `<workspace>/.augment/settings.json`), the
//! events PreToolUse, PostToolUse, Stop, SessionStart, SessionEnd,
//! PromptSubmit (Notification did not fire), the payload (`conversation_id`,
//! `workspace_roots`, `tool_name: "launch-process"`, `tool_input`,
//! `tool_output` with the command's output between `<output>` tags,
//! `user_prompt`; no `cwd` outside tool input), `timeout` in milliseconds,
//! and that both `hookSpecificOutput.permissionDecision: "deny"` and exit 2
//! block while `{"decision":"block"}` does not. Hooks run only when the
//! backend sends the
//! feature flag `enable_hooks`. Cross-checked with rulesync
//! `src/features/hooks/augmentcode-hooks.ts`@cfebcd75 and
//! <https://docs.augmentcode.com/cli/hooks>. Tool names other than
//! `launch-process` are from Augment's tool list, unverified.

use super::claude_json::{ClaudeLike, Dialect};
use super::table::claude_rows;
use super::AnswerKind::{Context, Deny};
use super::{project_and_home, InstallSpec, JsonSpec, Shape, TimeUnit};
use super::{tool, Caps, Info, Table};

/// Auggie's table: the answers seen to work in tests/real-agents (and a
/// by-hand probe of raw hooks against the same fake backend, 0.36.0): a
/// deny before a tool, context after a tool (Auggie appends it to the tool
/// result as `[Hook Context]`). Context at SessionStart or PromptSubmit
/// (JSON or plain text) and a Stop block (JSON or exit 2) did not reach the
/// model; `decision: block` after a tool was ignored. `updatedInput` is
/// applied, but as the whole `launch-process` input: a Claude-shaped Bash
/// rewrite (`{"command": ...}`) lacks `wait` and ran in the background, its
/// output lost (the `rewrite` phase), so it is not claimed and a rewrite is
/// denied rather than run that way.
pub static TABLE: Table = Table::new(claude_rows![observed:
    SessionStart,
    UserPromptSubmit as "PromptSubmit",
    PreToolUse => Caps::of(&[Deny]),
    PostToolUse => Caps::of(&[Context]),
    Notification, Stop, SessionEnd,
])
.with_tools(&[
    tool("Bash", "launch-process"),
    tool("Read", "view"),
    tool("Write", "save-file"),
    tool("Edit", "str-replace-editor"),
    tool("WebFetch", "web-fetch"),
    tool("WebSearch", "web-search"),
])
.with_fields(&[
    ("conversation_id", "session_id"),
    ("user_prompt", "prompt"),
    ("tool_output", "tool_response"),
])
.with_notes(&[
    "hooks run only when the Augment backend enables them (feature flag enable_hooks)",
    "seen to work: a deny before a tool, context after a tool (a block there is given as context); other answers did nothing in 0.36.0 and are dropped",
    "updatedInput replaces the whole launch-process input (a Bash rewrite without `wait` runs in the background), so a rewrite is denied",
]);

/// Auggie reads Claude's shape in `settings.json`, timeout in milliseconds;
/// its matcher is a JavaScript regex, where a bare `*` is invalid.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::claude(Shape::NestedMatching(".*"), TimeUnit::Milliseconds),
    ".augment",
    "settings.json"
)
.with_system(super::SystemFile::new("/etc/augment/settings.json", "", ""))
.with_after_install(
    "Auggie runs hooks only when your Augment account has them enabled (feature flag enable_hooks)",
);

/// The Auggie adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("auggie", "Augment (Auggie CLI)", &TABLE, &INSTALL),
    Dialect::Claude,
);

#[cfg(test)]
#[path = "auggie_tests.rs"]
mod tests;
