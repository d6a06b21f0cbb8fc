//! An agent's [`InstallSpec`] made concrete: the file for a scope, the JSON of
//! one entry and the root keys a file needs.
//!
//! What each agent wants lives in its own module (`INSTALL`, see
//! [`crate::agents::InstallSpec`]); the event names come from its table
//! ([`crate::agents::Table::installed`]). Nothing here names an agent.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Map, Value};

use super::{Env, Os};
use crate::agents::deadline::EventDeadline;
use crate::agents::Agent;
use crate::agents::{Field, InstallSpec, JsonSpec, Literal, Shape, TimeUnit};
use crate::config::Scope;
use crate::protocol::EventName;

/// The native timeout `install` writes for `agent` on `event`: the deadline
/// the runtime keeps that agent's handlers under ([`EventDeadline::of`],
/// which never exceeds the agent's cap for the event). The agent then waits
/// exactly as long as the runtime assumes, so `run` answers before it gives
/// up, and no agent clamps (and warns about) what we wrote.
pub fn native_timeout(agent: &dyn Agent, event: EventName) -> Duration {
    EventDeadline::of(agent, event).wait
}

/// `timeout` as a count of `unit`, rounded up (never below the deadline: the
/// runtime's budget is under the deadline itself), and at least 1.
pub(crate) fn in_unit(timeout: Duration, unit: TimeUnit) -> u64 {
    let ms = timeout.as_millis();
    let n = match unit {
        TimeUnit::Seconds => ms.div_ceil(1000),
        TimeUnit::Milliseconds => ms,
    };
    u64::try_from(n).unwrap_or(u64::MAX).max(1)
}

/// The file or directory of `spec` for a scope; `project_root` is used for
/// project scope. For the managed scope, the agent's system-wide file on this
/// platform ([`Env::system_path`]); `None` where the agent documents none.
pub(crate) fn path(
    spec: &InstallSpec,
    scope: Scope,
    project_root: &Path,
    env: &Env,
) -> Option<PathBuf> {
    match scope {
        Scope::Project => Some(project_root.join(spec.project)),
        Scope::User => Some(env.user_path(spec.user)),
        Scope::Managed => env.system_path(&spec.system, Os::CURRENT),
    }
}

fn literal(value: &Literal) -> Value {
    match *value {
        Literal::Str(s) => json!(s),
        Literal::Int(n) => json!(n),
        Literal::Bool(b) => json!(b),
        Literal::Strs(items) => json!(items),
    }
}

/// Our entry under one event key, running `command` (or `powershell`, where
/// the spec has a PowerShell field), with `timeout` (see [`native_timeout`])
/// where the spec has a timeout field, `status` where it has a status
/// message field (left out when `None`), and `matcher` in place of the
/// shape's catch-all (`install::coverage`).
pub(crate) fn entry(
    spec: &JsonSpec,
    command: &str,
    powershell: &str,
    timeout: Duration,
    status: Option<&str>,
    matcher: Option<&str>,
) -> Value {
    let handler: Map<String, Value> = spec
        .handler
        .iter()
        .filter_map(|(key, field)| {
            let value = match field {
                Field::Literal(l) => literal(l),
                Field::Command => json!(command),
                Field::PowerShellCommand => json!(powershell),
                Field::Timeout(unit) => json!(in_unit(timeout, *unit)),
                Field::StatusMessage => json!(status?),
            };
            Some(((*key).to_string(), value))
        })
        .collect();
    match (spec.shape, matcher) {
        (Shape::Flat, _) => Value::Object(handler),
        (Shape::Nested | Shape::NestedMatching(_), Some(m)) => {
            json!({"matcher": m, "hooks": [handler]})
        }
        (Shape::Nested, None) => json!({"matcher": "*", "hooks": [handler]}),
        (Shape::NestedMatching(all), None) => json!({"matcher": all, "hooks": [handler]}),
    }
}

/// The root keys a file of `spec` needs, with their values.
pub(crate) fn root_keys(spec: &JsonSpec) -> Vec<(&'static str, Value)> {
    spec.root.iter().map(|(k, v)| (*k, literal(v))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{self, Agent, Registration};

    fn json_spec(id: &str) -> &'static JsonSpec {
        let agent = agents::find(id).unwrap();
        match &agent.install_spec().registration {
            Registration::Json(j) => j,
            other => panic!("`{id}` registers by {other:?}"),
        }
    }

    #[test]
    fn user_paths_follow_the_agents_own_home_variables() {
        let env = Env::with_home("/h");
        let codex = agents::codex::Codex.install_spec();
        assert_eq!(
            path(codex, Scope::User, Path::new("/p"), &env).unwrap(),
            Path::new("/h/.codex/hooks.json")
        );
        let env = env.with_var("CODEX_HOME", "/c");
        assert_eq!(
            path(codex, Scope::User, Path::new("/p"), &env).unwrap(),
            Path::new("/c/hooks.json")
        );
        assert_eq!(
            path(codex, Scope::Project, Path::new("/p"), &env).unwrap(),
            Path::new("/p/.codex/hooks.json")
        );
        let env = env.with_var("XDG_CONFIG_HOME", "/x");
        assert_eq!(
            path(
                agents::opencode::OpenCode.install_spec(),
                Scope::User,
                Path::new("/p"),
                &env
            )
            .unwrap(),
            Path::new("/x/opencode/plugins/agenthooks.js")
        );
    }

    /// The system-wide file of `id` on `os` under the root `/r`.
    fn system(id: &str, os: Os) -> Option<PathBuf> {
        let spec = agents::find(id).unwrap().install_spec();
        Env::with_home("/h")
            .with_system_root("/r")
            .system_path(&spec.system, os)
    }

    #[test]
    fn system_files_are_each_agents_documented_path_per_platform() {
        // (agent, platform, the file below the root; `None`: no file there).
        // Windows paths are below `%ProgramData%`.
        #[rustfmt::skip]
        let documented: &[(&str, Os, Option<&str>)] = &[
            ("claude", Os::Unix, Some("etc/claude-code/managed-settings.json")),
            ("claude", Os::MacOs, Some("Library/Application Support/ClaudeCode/managed-settings.json")),
            ("claude", Os::Windows, Some(r"ClaudeCode\managed-settings.json")),
            ("codex", Os::Unix, Some("etc/codex/hooks.json")),
            ("codex", Os::MacOs, Some("etc/codex/hooks.json")),
            ("codex", Os::Windows, None),
            ("copilot", Os::Unix, Some("etc/github-copilot/policy.d/agenthooks.json")),
            ("copilot", Os::Windows, Some(r"GitHub\Copilot\policy.d\agenthooks.json")),
            ("cursor", Os::Unix, Some("etc/cursor/hooks.json")),
            ("cursor", Os::MacOs, Some("Library/Application Support/Cursor/hooks.json")),
            ("gemini", Os::Unix, Some("etc/gemini-cli/settings.json")),
            ("gemini", Os::MacOs, Some("Library/Application Support/GeminiCli/settings.json")),
            ("gemini", Os::Windows, Some(r"gemini-cli\settings.json")),
            ("qwen", Os::Unix, Some("etc/qwen-code/settings.json")),
            ("qwen", Os::MacOs, Some("Library/Application Support/QwenCode/settings.json")),
            ("windsurf", Os::Unix, Some("etc/windsurf/hooks.json")),
            ("auggie", Os::Unix, Some("etc/augment/settings.json")),
            ("auggie", Os::MacOs, None),
        ];
        for (id, os, file) in documented {
            let root = match os {
                Os::Windows => Path::new("/r").join("ProgramData"),
                Os::Unix | Os::MacOs => PathBuf::from("/r"),
            };
            assert_eq!(system(id, *os), file.map(|f| root.join(f)), "{id} {os:?}");
        }
        for id in ["cline", "opencode", "kilo", "pi", "goose", "junie", "kiro"] {
            for os in [Os::Unix, Os::MacOs, Os::Windows] {
                assert_eq!(system(id, os), None, "{id} {os:?}");
            }
        }
        // The agent's own variable names the file it reads: it wins (when
        // absolute on the machine that reads it: a drive path on Windows).
        let corp = if cfg!(windows) {
            r"C:\corp\gemini.json"
        } else {
            "/corp/gemini.json"
        };
        let spec = agents::find("gemini").unwrap().install_spec();
        let env = Env::with_home("/h")
            .with_system_root("/r")
            .with_var("GEMINI_CLI_SYSTEM_SETTINGS_PATH", corp);
        assert_eq!(
            env.system_path(&spec.system, Os::Unix),
            Some(PathBuf::from(corp))
        );
        // Without the root override, the real paths.
        let claude = agents::find("claude").unwrap().install_spec();
        assert_eq!(
            Env::with_home("/h").system_path(&claude.system, Os::Unix),
            Some(PathBuf::from("/etc/claude-code/managed-settings.json"))
        );
    }

    /// What `Env::system_path` relies on: Unix and macOS paths absolute, the
    /// Windows one relative (it goes below `%ProgramData%`), and only agents
    /// registering by a JSON file (a system-wide script folder or plugin is
    /// nothing any agent documents).
    #[test]
    fn every_system_file_is_well_formed() {
        for agent in agents::AGENTS {
            let spec = agent.install_spec();
            let file = spec.system;
            let id = agent.id();
            for unix in [file.unix, file.macos]
                .into_iter()
                .filter(|p| !p.is_empty())
            {
                assert!(
                    unix.starts_with('/') && !unix.contains('\\'),
                    "{id}: {unix}"
                );
            }
            let windows = file.windows;
            assert!(!windows.contains(':') && !windows.starts_with('\\'), "{id}");
            if file != agents::SystemFile::NONE {
                assert!(matches!(spec.registration, Registration::Json(_)), "{id}");
            }
        }
    }

    /// Under `/etc` on Linux, `/Library` on macOS.
    #[cfg(unix)]
    #[test]
    fn on_unix_system_files_are_under_etc_or_library() {
        let claude = agents::claude::Claude.install_spec();
        let env = Env::with_home("/h");
        let managed = if cfg!(target_os = "macos") {
            "/Library/Application Support/ClaudeCode/managed-settings.json"
        } else {
            "/etc/claude-code/managed-settings.json"
        };
        assert_eq!(
            path(claude, Scope::Managed, Path::new("/p"), &env),
            Some(PathBuf::from(managed))
        );
    }

    #[cfg(windows)]
    #[test]
    fn on_windows_system_files_are_under_program_data() {
        let claude = agents::claude::Claude.install_spec();
        let env = Env::with_home(r"C:\h").with_system_root(r"C:\r");
        assert_eq!(
            path(claude, Scope::Managed, Path::new("p"), &env),
            Some(PathBuf::from(
                r"C:\r\ProgramData\ClaudeCode\managed-settings.json"
            ))
        );
        let codex = agents::codex::Codex.install_spec();
        assert_eq!(path(codex, Scope::Managed, Path::new("p"), &env), None);
    }

    #[test]
    fn entries_have_each_agents_keys_in_order_and_timeout_unit() {
        let c = "agenthooks run --agent x --event E";
        let ps = "& agenthooks run --agent x --event E";
        let t = Duration::from_secs(42);
        let nested = |handler: Value| json!({"matcher": "*", "hooks": [handler]});
        let secs = nested(json!({"type": "command", "command": c, "timeout": 42}));
        for id in ["claude", "codex", "factory"] {
            assert_eq!(entry(json_spec(id), c, ps, t, None, None), secs, "{id}");
        }
        // Claude Code shows the hooks' status message; the others have no key for it.
        assert_eq!(
            entry(
                json_spec("claude"),
                c,
                ps,
                t,
                Some("Checking the push"),
                None
            ),
            nested(json!({"type": "command", "command": c, "timeout": 42,
                          "statusMessage": "Checking the push"}))
        );
        assert_eq!(entry(json_spec("codex"), c, ps, t, Some("x"), None), secs);
        assert_eq!(
            entry(json_spec("qwen"), c, ps, t, None, None),
            nested(json!({"type": "command", "command": c, "timeout": 42_000}))
        );
        assert_eq!(
            entry(json_spec("gemini"), c, ps, t, None, None),
            nested(
                json!({"name": "agenthooks", "type": "command", "command": c, "timeout": 42_000})
            )
        );
        assert_eq!(
            entry(json_spec("copilot"), c, ps, t, None, None),
            json!({"type": "command", "bash": c, "powershell": ps, "timeoutSec": 42})
        );
        assert_eq!(
            entry(json_spec("cursor"), c, ps, t, None, None),
            json!({"command": c, "timeout": 42})
        );
        assert_eq!(
            entry(json_spec("windsurf"), c, ps, t, None, None),
            json!({"command": c, "show_output": false})
        );
        assert_eq!(
            entry(json_spec("kiro"), c, ps, t, None, None),
            json!({"command": c, "timeout_ms": 42_000})
        );
        // Equal maps in another order would pass `==`; the bytes must not move.
        assert_eq!(
            entry(json_spec("gemini"), c, ps, t, None, None)["hooks"][0]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["name", "type", "command", "timeout"]
        );
    }

    #[test]
    fn the_native_timeout_is_the_agents_own_deadline_for_the_event() {
        let s = Duration::from_secs;
        let cases = [
            ("claude", EventName::PreToolUse, s(600)),
            ("claude", EventName::UserPromptSubmit, s(30)),
            ("claude", EventName::SessionEnd, Duration::from_millis(1500)),
            ("claude", EventName::MessageDisplay, s(10)),
            ("codex", EventName::PreToolUse, s(600)),
            ("codex", EventName::SessionEnd, s(1)),
            ("gemini", EventName::PreToolUse, s(60)),
            ("kiro", EventName::PreToolUse, s(30)),
        ];
        for (id, event, want) in cases {
            let agent = crate::agents::find(id).unwrap();
            assert_eq!(native_timeout(agent, event), want, "{id} {event:?}");
        }
        // Claude's 1.5 s is written as 2 s: never below the deadline.
        let claude = crate::agents::find("claude").unwrap();
        let end = native_timeout(claude, EventName::SessionEnd);
        assert_eq!(in_unit(end, TimeUnit::Seconds), 2);
    }

    /// For every agent and installed event: the entry's timeout, read back in
    /// the agent's unit, is at least the deadline the runtime clamps under
    /// (so `run` answers first) and at most the agent's cap (so it does not
    /// clamp and warn).
    #[test]
    fn every_written_timeout_covers_the_runtimes_deadline_and_respects_the_cap() {
        for agent in agents::AGENTS {
            let Registration::Json(spec) = &agent.install_spec().registration else {
                continue;
            };
            let Some(unit) = spec.handler.iter().find_map(|(_, f)| match f {
                Field::Timeout(u) => Some(*u),
                _ => None,
            }) else {
                continue;
            };
            let scale = match unit {
                TimeUnit::Seconds => 1000,
                TimeUnit::Milliseconds => 1,
            };
            for row in agent.table().installed() {
                let written = in_unit(native_timeout(*agent, row.canonical), unit);
                let written = Duration::from_millis(written * scale);
                let deadline = agent.deadline();
                let id = agent.id();
                assert!(written >= deadline.on(row.canonical), "{id} {}", row.native);
                if let Some(cap) = deadline.cap(row.canonical) {
                    assert!(written <= cap, "{id} {}", row.native);
                }
            }
        }
        assert_eq!(
            agents::codex::Codex.deadline().cap(EventName::SessionEnd),
            Some(Duration::from_secs(3))
        );
    }

    #[test]
    fn timeouts_round_up_to_the_unit_and_are_never_zero() {
        let ms = Duration::from_millis;
        assert_eq!(in_unit(ms(1500), TimeUnit::Seconds), 2);
        assert_eq!(in_unit(ms(1500), TimeUnit::Milliseconds), 1500);
        assert_eq!(in_unit(ms(30_000), TimeUnit::Seconds), 30);
        assert_eq!(in_unit(Duration::ZERO, TimeUnit::Seconds), 1);
        assert_eq!(
            in_unit(Duration::from_micros(10), TimeUnit::Milliseconds),
            1
        );
    }

    /// `install` prints each hint as one `<agent>: note: ...` line.
    #[test]
    fn after_install_hints_are_single_lines() {
        let mut with_hint = Vec::new();
        for agent in agents::AGENTS {
            if let Some(hint) = agent.install_spec().after_install {
                assert!(
                    !hint.trim().is_empty() && !hint.contains('\n'),
                    "{}",
                    agent.id()
                );
                with_hint.push(agent.id());
            }
        }
        assert!(with_hint.contains(&"codex") && !with_hint.contains(&"claude"));
    }

    #[test]
    fn root_keys_are_the_specs_literals() {
        assert_eq!(root_keys(json_spec("copilot")), [("version", json!(1))]);
        assert!(root_keys(json_spec("claude")).is_empty());
        let kiro = root_keys(json_spec("kiro"));
        assert_eq!(
            kiro.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            ["name", "description", "tools"]
        );
        assert_eq!(kiro[2].1, json!(["*"]));
    }
}
