//! Goose: Claude-shaped `hooks/hooks.json` inside an Open Plugins directory,
//! a payload named by `event`, and a `{"decision": "block"}` answer.
//!
//! Verified how: against the source, no binary run:
//! aaif-goose/goose `crates/goose/src/hooks/mod.rs`@3dafa522 (the `HookEvent`
//! enum, the `HookContext` payload, `classify_output`: exit 2 with the reason
//! on stderr or `{"decision":"block","reason"}` denies, exit 0 with an empty
//! stdout or `{"decision":"allow"}` allows, anything else is a hook failure;
//! the default timeout is 30 s; only PreToolUse is awaited for a verdict).
//! Paths from rulesync `src/features/hooks/goose-hooks.ts`@cfebcd75: Goose
//! discovers `.agents/plugins/<name>/hooks/hooks.json` (and the same under
//! `$HOME`); a matcher is a Rust regex and an invalid one (a bare `*`)
//! drops the rule, so ours is `""`. Tool names beyond `developer__shell` and
//! `developer__text_editor` (the module's own example) are unverified.

use super::claude_json::{ClaudeLike, Dialect};
use super::deadline::{secs, Deadline};
use super::Info;
use super::{InstallSpec, JsonSpec, Shape, TimeUnit, UserPath};

// The table is data: `goose/table.toml`, made Rust by `build.rs`.
pub use super::tables::goose::TABLE;

/// Our plugin's `hooks/hooks.json`: Claude's shape, matcher `""`, seconds.
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::claude(Shape::NestedMatching(""), TimeUnit::Seconds),
    ".agents/plugins/agenthooks/hooks/hooks.json",
    UserPath::home(".agents/plugins/agenthooks/hooks/hooks.json"),
)
.detected_by(&[".goosehints"], &[UserPath::home(".config/goose")]);

/// The Goose adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("goose", "Goose", &TABLE, &INSTALL)
        // DEFAULT_HOOK_TIMEOUT_SECS.
        .with_deadline(Deadline::new(secs(30), &[]))
        .with_names(&["event", "hook_event_name"]),
    Dialect::Decision {
        deny: "block",
        allow: "allow",
        ask: None,
    },
);

#[cfg(test)]
mod tests;
