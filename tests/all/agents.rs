//! Every recorded pre-tool payload of a real agent, through the real binary
//! (`agenthooks run --agent A --event E`), answered in that agent's own deny
//! form; and `agenthooks agents`.

use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};

/// A hook that denies shell commands containing `rm -r`, reading the
/// canonical event on stdin.
const DENY_RM: &str = r#"input=$(cat)
echo "$input" | grep -q '"tool_kind":"shell"' || exit 0
echo "$input" | grep -q 'rm -r' || exit 0
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED rm"}}'"#;

/// The native deny each agent must get: its exit code and stdout JSON
/// (`null` for none: Junie's deny is exit 2 with the reason on stderr).
fn native_deny(agent: &str) -> (i32, Value) {
    let deny = match agent {
        "claude" | "codex" | "qwen" | "crush" | "auggie" | "factory" | "qoder" | "devin"
        | "sema" | "vscode" => {
            json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED rm"}})
        }
        "gemini" | "antigravity" => json!({"decision":"deny","reason":"BLOCKED rm"}),
        "goose" => json!({"decision":"block","reason":"BLOCKED rm"}),
        "copilot" => json!({"permissionDecision":"deny","permissionDecisionReason":"BLOCKED rm"}),
        "junie" | "letta" => return (2, Value::Null),
        "semaclaw" => json!({"decision":"reject","reason":"BLOCKED rm"}),
        other => panic!("no recorded agent {other}"),
    };
    (0, deny)
}

#[test]
fn recorded_pre_tool_payloads_get_each_agent_s_native_deny() {
    let project = TempProject::new();
    project.write(".agents/hooks/deny-rm.sh", DENY_RM);
    project.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("sh .agents/hooks/deny-rm.sh")]),
    ));
    project.trust();
    let mut denied = 0;
    let mut allowed = 0;
    let root = crate::util::repo_root().join("tests/fixtures/agents");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    for version in dirs {
        let dir_name = version
            .file_name()
            .and_then(|n| n.to_str())
            .expect("name")
            .to_string();
        let agent = dir_name.split('-').next().expect("agent id").to_string();
        for phase in std::fs::read_dir(&version).expect("version") {
            let phase = phase.expect("entry").path();
            if !phase.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(&phase).expect("phase") {
                let file = file.expect("entry").path();
                let stem = file
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default()
                    .to_string();
                let event = stem
                    .split_once('-')
                    .map_or(stem.as_str(), |(_, e)| e)
                    .to_string();
                if !matches!(event.as_str(), "PreToolUse" | "preToolUse" | "BeforeTool") {
                    continue;
                }
                let mut payload: Value =
                    serde_json::from_str(&std::fs::read_to_string(&file).expect("read"))
                        .expect("JSON");
                payload["cwd"] = json!(project.root);
                let ran = project.output(
                    project.cmd(["run", "--agent", &agent, "--event", &event]),
                    payload.to_string(),
                );
                let at = format!(
                    "{file:?}: stdout {:?} stderr {:?}",
                    ran.stdout(),
                    ran.stderr()
                );
                if payload.to_string().contains("rm -r") {
                    assert_eq!((ran.code(), ran.json()), native_deny(&agent), "{at}");
                    if ran.code() == 2 {
                        ran.assert_stderr_contains("BLOCKED rm");
                    }
                    denied += 1;
                } else {
                    assert_eq!(ran.code(), 0, "{at}");
                    // No opinion: nothing, or `{}` for agents that would
                    // otherwise read stderr as the answer (Gemini).
                    let quiet = ran.json();
                    assert!(quiet.is_null() || quiet == json!({}), "{at}");
                    allowed += 1;
                }
            }
        }
    }
    // Five agents (seven versions), three phases each, one rm and one echo per phase.
    assert!(
        denied >= 20 && allowed >= 20,
        "denied {denied}, allowed {allowed}"
    );
}

#[test]
fn gemini_gets_a_json_no_opinion_even_when_run_cannot_read_the_input() {
    // With an empty stdout Gemini would parse our stderr note as its answer.
    let project = TempProject::new();
    let ran = project.output(project.cmd(["run", "--agent", "gemini"]), "not json");
    assert_eq!((ran.code(), ran.stdout()), (0, "{}".to_string()));
    ran.assert_stderr_contains("not valid JSON");
    let ran = project.output(project.cmd(["run", "--agent", "claude"]), "not json");
    assert_eq!((ran.code(), ran.stdout()), (0, String::new()));
}

#[test]
fn agents_prints_the_capability_table() {
    let project = TempProject::new();
    let ran = project.output(project.cmd(["agents"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let text = ran.stdout();
    for id in [
        "claude",
        "codex",
        "gemini",
        "copilot",
        "vscode",
        "qwen",
        "cursor",
        "windsurf",
        "cline",
        "factory",
        "kiro",
        "opencode",
        "antigravity",
        "goose",
        "crush",
        "auggie",
        "junie",
        "qoder",
        "devin",
        "semaclaw",
        "sema",
    ] {
        assert!(text.contains(&format!("({id})")), "{id} missing:\n{text}");
    }
    let ran = project.output(project.cmd(["agents", "--json", "windsurf"]), "");
    assert_eq!(ran.code(), 0);
    let v = ran.json();
    assert_eq!(v[0]["agent"], "windsurf");
    assert!(v[0]["events"].as_array().is_some_and(|e| !e.is_empty()));
    let ran = project.output(project.cmd(["agents", "nope"]), "");
    assert_eq!(ran.code(), 2);
    ran.assert_stderr_contains("no agent named `nope`");
}
