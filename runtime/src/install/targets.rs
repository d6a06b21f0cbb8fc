//! An agent's [`InstallSpec`] made concrete: the file for a scope, the JSON of
//! one entry and the root keys a file needs.
//!
//! What each agent wants lives in its own module (`INSTALL`, see
//! [`crate::agents::InstallSpec`]); the event names come from its table
//! ([`crate::agents::Table::installed`]). Nothing here names an agent.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::Env;
use crate::agents::{Field, InstallSpec, JsonSpec, Literal, Shape, TimeUnit};
use crate::config::Scope;

/// The native timeout written where the format has one, in seconds: well above
/// any deadline the runtime keeps itself (a handler's default is 60 s), so the
/// agent never kills `agenthooks run` before it has answered.
pub const NATIVE_TIMEOUT_SECS: u64 = 600;

/// The file or directory of `spec` for a scope; `project_root` is used for
/// project scope.
pub(crate) fn path(spec: &InstallSpec, scope: Scope, project_root: &Path, env: &Env) -> PathBuf {
    match scope {
        Scope::Project => project_root.join(spec.project),
        Scope::User => env.user_path(spec.user),
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

/// Our entry under one event key, running `command`.
pub(crate) fn entry(spec: &JsonSpec, command: &str) -> Value {
    let handler: Map<String, Value> = spec
        .handler
        .iter()
        .map(|(key, field)| {
            let value = match field {
                Field::Literal(l) => literal(l),
                Field::Command => json!(command),
                Field::Timeout(TimeUnit::Seconds) => json!(NATIVE_TIMEOUT_SECS),
                Field::Timeout(TimeUnit::Milliseconds) => json!(NATIVE_TIMEOUT_SECS * 1000),
            };
            ((*key).to_string(), value)
        })
        .collect();
    match spec.shape {
        Shape::Flat => Value::Object(handler),
        Shape::Nested => json!({"matcher": "*", "hooks": [handler]}),
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
        let mut env = Env::with_home("/h");
        let codex = agents::codex::Codex.install_spec();
        assert_eq!(
            path(codex, Scope::User, Path::new("/p"), &env),
            Path::new("/h/.codex/hooks.json")
        );
        env.codex_home = Some("/c".into());
        assert_eq!(
            path(codex, Scope::User, Path::new("/p"), &env),
            Path::new("/c/hooks.json")
        );
        assert_eq!(
            path(codex, Scope::Project, Path::new("/p"), &env),
            Path::new("/p/.codex/hooks.json")
        );
        env.xdg_config_home = Some("/x".into());
        assert_eq!(
            path(
                agents::opencode::OpenCode.install_spec(),
                Scope::User,
                Path::new("/p"),
                &env
            ),
            Path::new("/x/opencode/plugins/agenthooks.js")
        );
    }

    #[test]
    fn entries_have_each_agents_keys_in_order_and_timeout_unit() {
        let c = "agenthooks run --agent x --event E";
        let nested = |handler: Value| json!({"matcher": "*", "hooks": [handler]});
        let secs = nested(json!({"type": "command", "command": c, "timeout": 600}));
        for id in ["claude", "codex", "factory"] {
            assert_eq!(entry(json_spec(id), c), secs, "{id}");
        }
        assert_eq!(
            entry(json_spec("qwen"), c),
            nested(json!({"type": "command", "command": c, "timeout": 600_000}))
        );
        assert_eq!(
            entry(json_spec("gemini"), c),
            nested(
                json!({"name": "agenthooks", "type": "command", "command": c, "timeout": 600_000})
            )
        );
        assert_eq!(
            entry(json_spec("copilot"), c),
            json!({"type": "command", "bash": c, "timeoutSec": 600})
        );
        assert_eq!(
            entry(json_spec("cursor"), c),
            json!({"command": c, "timeout": 600})
        );
        assert_eq!(
            entry(json_spec("windsurf"), c),
            json!({"command": c, "show_output": false})
        );
        assert_eq!(
            entry(json_spec("kiro"), c),
            json!({"command": c, "timeout_ms": 600_000})
        );
        // Equal maps in another order would pass `==`; the bytes must not move.
        assert_eq!(
            entry(json_spec("gemini"), c)["hooks"][0]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["name", "type", "command", "timeout"]
        );
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
