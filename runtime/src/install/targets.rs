//! Where each agent reads its hooks from and what one of our entries looks like
//! there. The event names come from the agent's table
//! ([`crate::agents::table::Table::installed`]); this file only knows files
//! and entry shapes.
//!
//! Sources: `reference/agent-protocols.md` §x.1 of each agent and
//! `reference/real-agents.md` (Gemini 0.61, Codex 0.171, Claude Code 2.1.332,
//! Copilot 1.0.102, Qwen 0.24.4 verified end to end; the rest from docs).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::json::Shape;
use super::Env;
use crate::config::Scope;

/// The native timeout written where the format has one, in seconds: well above
/// any deadline the runtime keeps itself (a handler's default is 60 s), so the
/// agent never kills `agenthooks run` before it has answered.
pub const NATIVE_TIMEOUT_SECS: u64 = 600;

/// How an agent's hooks are registered.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// A JSON file with a `hooks` object keyed by native event name.
    Json(JsonTarget),
    /// One executable script per event in a directory (Cline).
    Scripts,
    /// A plugin file that runs the binary (OpenCode).
    Plugin,
}

/// A JSON config file target.
#[derive(Debug, Clone)]
pub(crate) struct JsonTarget {
    /// How entries sit under an event key.
    pub(crate) shape: Shape,
    /// The entry for one native event, given the command line to run.
    pub(crate) entry: fn(command: &str, native_event: &str) -> Value,
    /// Root keys the file needs, added when missing (and removed again by
    /// uninstall when they were ours).
    pub(crate) root: fn() -> Vec<(&'static str, Value)>,
    /// Whether the agent accepts comments in this file (only changes what a
    /// refusal says: agenthooks never rewrites a file with comments).
    pub(crate) jsonc: bool,
    /// Settings that switch every hook of the agent off: a JSON pointer and
    /// the boolean value that does it (for `check`).
    pub(crate) off: &'static [(&'static str, bool)],
}

/// Everything install needs to know about one agent besides its event table.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// How hooks are registered.
    pub(crate) kind: Kind,
    /// The file (or for [`Kind::Scripts`] the directory), relative to the project root.
    pub(crate) project: &'static str,
    /// The same at user level.
    pub(crate) user: fn(&Env) -> PathBuf,
    /// Project paths whose presence means the project uses the agent.
    pub(crate) detect: &'static [&'static str],
    /// The same under the user's home (through [`Env`]).
    pub(crate) detect_user: fn(&Env) -> Vec<PathBuf>,
}

impl Target {
    /// The file or directory for a scope; `project_root` is used for project scope.
    pub(crate) fn path(&self, scope: Scope, project_root: &Path, env: &Env) -> PathBuf {
        match scope {
            Scope::Project => project_root.join(self.project),
            Scope::User => (self.user)(env),
        }
    }
}

fn nested(command: &str, timeout: u64) -> Value {
    json!({"matcher": "*", "hooks": [{"type": "command", "command": command, "timeout": timeout}]})
}

fn no_root() -> Vec<(&'static str, Value)> {
    Vec::new()
}

fn version_root() -> Vec<(&'static str, Value)> {
    vec![("version", json!(1))]
}

/// The install target of an agent id, or `None` for an agent install does not know.
pub(crate) fn target(agent: &str) -> Option<Target> {
    let t = match agent {
        // Claude Code: settings.json `hooks`, timeout in seconds; strict JSON.
        "claude" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Nested,
                entry: |c, _| nested(c, NATIVE_TIMEOUT_SECS),
                root: no_root,
                jsonc: false,
                off: &[("/disableAllHooks", true)],
            }),
            project: ".claude/settings.json",
            user: |e| e.home.join(".claude/settings.json"),
            detect: &[".claude"],
            detect_user: |e| vec![e.home.join(".claude")],
        },
        // Codex: hooks.json (root accepts only `description` and `hooks`),
        // seconds; the user layer lives in $CODEX_HOME.
        "codex" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Nested,
                entry: |c, _| nested(c, NATIVE_TIMEOUT_SECS),
                root: no_root,
                jsonc: false,
                off: &[],
            }),
            project: ".codex/hooks.json",
            user: |e| e.codex_home().join("hooks.json"),
            detect: &[".codex"],
            detect_user: |e| vec![e.codex_home()],
        },
        // Gemini CLI: settings.json `hooks` with Gemini's own event names,
        // timeout in milliseconds, `name` shown in its UI; JSONC allowed.
        "gemini" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Nested,
                entry: |c, _| json!({"matcher": "*", "hooks": [{"name": "agenthooks", "type": "command", "command": c, "timeout": NATIVE_TIMEOUT_SECS * 1000}]}),
                root: no_root,
                jsonc: true,
                off: &[("/hooksConfig/enabled", false)],
            }),
            project: ".gemini/settings.json",
            user: |e| e.home.join(".gemini/settings.json"),
            detect: &[".gemini"],
            detect_user: |e| vec![e.home.join(".gemini")],
        },
        // Qwen Code: Claude's shape and names, command timeout in milliseconds.
        "qwen" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Nested,
                entry: |c, _| nested(c, NATIVE_TIMEOUT_SECS * 1000),
                root: no_root,
                jsonc: true,
                off: &[("/disableAllHooks", true)],
            }),
            project: ".qwen/settings.json",
            user: |e| e.home.join(".qwen/settings.json"),
            detect: &[".qwen"],
            detect_user: |e| vec![e.home.join(".qwen")],
        },
        // Factory Droid: Claude's shape in hooks.json, seconds.
        "factory" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Nested,
                entry: |c, _| nested(c, NATIVE_TIMEOUT_SECS),
                root: no_root,
                jsonc: false,
                off: &[],
            }),
            project: ".factory/hooks.json",
            user: |e| e.home.join(".factory/hooks.json"),
            detect: &[".factory"],
            detect_user: |e| vec![e.home.join(".factory")],
        },
        // Copilot CLI: a file of our own in .github/hooks, camelCase (native)
        // event keys, flat handlers, `bash` + `timeoutSec`.
        "copilot" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Flat,
                entry: |c, _| json!({"type": "command", "bash": c, "timeoutSec": NATIVE_TIMEOUT_SECS}),
                root: version_root,
                jsonc: false,
                off: &[("/disableAllHooks", true)],
            }),
            project: ".github/hooks/agenthooks.json",
            user: |e| e.copilot_home().join("hooks/agenthooks.json"),
            detect: &[
                ".github/hooks",
                ".github/copilot-instructions.md",
                ".github/copilot",
            ],
            detect_user: |e| vec![e.copilot_home()],
        },
        // Cursor: hooks.json, flat handlers, camelCase events.
        "cursor" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Flat,
                entry: |c, _| json!({"command": c, "timeout": NATIVE_TIMEOUT_SECS}),
                root: version_root,
                jsonc: false,
                off: &[],
            }),
            project: ".cursor/hooks.json",
            user: |e| e.home.join(".cursor/hooks.json"),
            detect: &[".cursor"],
            detect_user: |e| vec![e.home.join(".cursor")],
        },
        // Windsurf: hooks.json, flat handlers, snake_case events, no timeout field.
        "windsurf" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Flat,
                entry: |c, _| json!({"command": c, "show_output": false}),
                root: no_root,
                jsonc: false,
                off: &[],
            }),
            project: ".windsurf/hooks.json",
            user: |e| e.home.join(".codeium/windsurf/hooks.json"),
            detect: &[".windsurf"],
            detect_user: |e| vec![e.home.join(".codeium/windsurf")],
        },
        // Kiro CLI: `hooks` inside an agent config; we keep our own agent,
        // `agenthooks`, so the user's agents stay untouched. `timeout_ms`.
        "kiro" => Target {
            kind: Kind::Json(JsonTarget {
                shape: Shape::Flat,
                entry: |c, _| json!({"command": c, "timeout_ms": NATIVE_TIMEOUT_SECS * 1000}),
                root: || {
                    vec![
                        ("name", json!("agenthooks")),
                        (
                            "description",
                            json!("Runs the hooks of .agents/hooks.json (written by agenthooks install kiro)"),
                        ),
                        ("tools", json!(["*"])),
                    ]
                },
                jsonc: false,
                off: &[],
            }),
            project: ".kiro/agents/agenthooks.json",
            user: |e| e.home.join(".kiro/agents/agenthooks.json"),
            detect: &[".kiro"],
            detect_user: |e| vec![e.home.join(".kiro")],
        },
        // Cline: one executable per event, named after it, in the hooks dir.
        "cline" => Target {
            kind: Kind::Scripts,
            project: ".clinerules/hooks",
            user: |e| e.home.join("Documents/Cline/Hooks"),
            detect: &[".clinerules", ".cline"],
            detect_user: |e| vec![e.home.join("Documents/Cline"), e.home.join(".cline")],
        },
        // OpenCode: no command hooks; a plugin that spawns the binary.
        "opencode" => Target {
            kind: Kind::Plugin,
            project: ".opencode/plugins/agenthooks.js",
            user: |e| e.xdg_config_home().join("opencode/plugins/agenthooks.js"),
            detect: &[".opencode"],
            detect_user: |e| vec![e.xdg_config_home().join("opencode")],
        },
        _ => return None,
    };
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AGENTS;

    #[test]
    fn every_registered_agent_has_an_install_target() {
        for agent in AGENTS {
            assert!(
                target(agent.id()).is_some(),
                "no install target for `{}`",
                agent.id()
            );
        }
    }

    #[test]
    fn user_paths_follow_the_agents_own_home_variables() {
        let mut env = Env::with_home("/h");
        let codex = target("codex").unwrap();
        assert_eq!(
            codex.path(Scope::User, Path::new("/p"), &env),
            Path::new("/h/.codex/hooks.json")
        );
        env.codex_home = Some("/c".into());
        assert_eq!(
            codex.path(Scope::User, Path::new("/p"), &env),
            Path::new("/c/hooks.json")
        );
        assert_eq!(
            codex.path(Scope::Project, Path::new("/p"), &env),
            Path::new("/p/.codex/hooks.json")
        );
        env.xdg_config_home = Some("/x".into());
        assert_eq!(
            target("opencode")
                .unwrap()
                .path(Scope::User, Path::new("/p"), &env),
            Path::new("/x/opencode/plugins/agenthooks.js")
        );
    }
}
