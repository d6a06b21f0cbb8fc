//! The first day with a repository: a broken config or a missing component
//! is loud when the user asks for it (`onConfigError: deny`), `check` and
//! `fire --expect` can gate CI, typos get a suggestion, and what `fire`
//! shows is what `run` does.

use serde_json::{json, Value};

use crate::util::{command, hooks, Ran, TempProject};

/// The user's policy: a broken config or a missing component denies.
fn deny_on_config_error() -> Value {
    json!({"onConfigError": "deny"})
}

/// `hooks.json` text with a trailing comma (not JSON), saying `onError: deny`.
const TRAILING_COMMA: &str = r#"{
  "onError": "deny",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "exit 2" }, ] }
    ]
  }
}
"#;

fn decision(ran: &Ran) -> (Value, Value) {
    let out = ran.json();
    let hso = &out["hookSpecificOutput"];
    (
        hso["permissionDecision"].clone(),
        hso["permissionDecisionReason"].clone(),
    )
}

#[test]
fn a_broken_project_file_denies_under_the_users_on_config_error() {
    let p = TempProject::new();
    p.user_hooks(&deny_on_config_error());
    let file = p.write(".agents/hooks.json", TRAILING_COMMA);
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let (decision, reason) = decision(&ran);
    assert_eq!(decision, "deny", "{}", ran.stderr());
    let reason = reason.as_str().unwrap_or_default();
    assert!(reason.contains(&file.display().to_string()), "{reason}");
    assert!(reason.contains("fix the file"), "{reason}");
    assert!(reason.contains("onConfigError"), "{reason}");
    // A prompt is refused too; a Stop is not (it would make the agent loop).
    let prompt = p.run(&p.prompt("hello")).json();
    assert_eq!(prompt["decision"], "block", "{prompt}");
    let stop = p.run(&p.payload("Stop", json!({"stop_hook_active": false})));
    assert_eq!(stop.json(), Value::Null, "{}", stop.stderr());
}

#[test]
fn a_broken_user_file_that_asks_for_deny_denies() {
    let p = TempProject::new();
    let file = p.home.join(".agents/hooks.json");
    std::fs::write(&file, "{\"onConfigError\": \"deny\", \"hooks\": {},}").unwrap();
    let ran = p.run(&p.bash("ls"));
    let (decision, reason) = decision(&ran);
    assert_eq!(decision, "deny", "{}", ran.stderr());
    assert!(
        reason
            .as_str()
            .unwrap_or_default()
            .contains(&file.display().to_string()),
        "{reason}"
    );
}

#[test]
fn a_missing_component_denies_under_the_users_on_config_error() {
    let p = TempProject::new();
    let mut user = hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": "hooks/guard.wasm"}]),
    );
    user["onConfigError"] = json!("deny");
    p.user_hooks(&user);
    let ran = p.run(&p.bash("ls"));
    let (decision, reason) = decision(&ran);
    assert_eq!(decision, "deny", "{}", ran.stderr());
    let reason = reason.as_str().unwrap_or_default();
    assert!(reason.contains("guard.wasm` not found"), "{reason}");
    // A tool the guard does not match is not refused.
    let read = p.payload(
        "PreToolUse",
        json!({"tool_name": "Read", "tool_input": {"file_path": "/x"}}),
    );
    assert_eq!(p.run(&read).json(), Value::Null);
}

#[test]
fn by_default_a_broken_file_allows_with_one_note() {
    let p = TempProject::new();
    let file = p.write(".agents/hooks.json", TRAILING_COMMA);
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.decided(), Value::Null, "{}", ran.stderr());
    // Said in the agent's window too: the guard is off.
    let said = ran.system_message();
    assert!(
        said.contains("does not load (line 5 column 83: trailing comma); its hooks did not run"),
        "{said}"
    );
    let stderr = ran.stderr();
    let naming: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(&file.display().to_string()))
        .collect();
    assert_eq!(naming.len(), 1, "one note for the broken file: {stderr}");
    let line = naming[0];
    assert!(
        line.contains("its `onError: deny` could not apply"),
        "{line}"
    );
    // A project cannot choose to fail closed for the user.
    p.project_hooks(&json!({"onConfigError": "deny", "hooks": {"Stop": [{"hooks": [{"type": "wasm", "component": "none.wasm"}]}]}}));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.json(), Value::Null);
    ran.assert_stderr_contains("`onConfigError` is honoured only in the user file");
}

#[test]
fn check_fails_on_a_missing_component_and_says_how_to_build_it() {
    let p = TempProject::new();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": ".agents/hooks/guard.wasm"}]),
    ));
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    let out = ran.stdout();
    let line = out
        .lines()
        .find(|l| l.contains("guard.wasm"))
        .unwrap_or_else(|| panic!("no line names the component: {out}"));
    assert!(line.contains("does not exist"), "{line}");
    assert!(line.contains("agenthooks build"), "{line}");
}

#[test]
fn fire_expect_gates_ci_on_the_aggregated_answer() {
    let p = TempProject::new();
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command(
            "grep -q 'git push' && { echo no pushing >&2; exit 2; }; exit 0"
        )]),
    ));
    let fire = |command: &str, expect: &str| {
        let input = json!({ "command": command }).to_string();
        let args = [
            "fire",
            "PreToolUse",
            "--tool",
            "Bash",
            "--input",
            &input,
            "--expect",
            expect,
        ];
        p.output(p.cmd(args), "")
    };
    assert_eq!(fire("git push", "deny").code(), 0);
    assert_eq!(fire("ls", "none").code(), 0);
    let ran = fire("ls", "deny");
    assert_eq!(ran.code(), 1);
    ran.assert_stderr_contains("expected deny, got none");
    let ran = fire("git push", "allow");
    assert_eq!(ran.code(), 1);
    ran.assert_stderr_contains("expected allow, got deny");
    // Not an answer at all is bad usage.
    assert_eq!(fire("ls", "maybe").code(), 2);
}

#[test]
fn typos_get_a_suggestion_in_check_run_and_fire() {
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {
        "PreToolUs": [{"hooks": [command("true")]}],
        "Stop": [{"hooks": [{"type": "wasm", "component": "g.wasm", "memoryMib": 32}]}]
    }}));
    let check = p.output(p.cmd(["check"]), "").stdout();
    assert!(check.contains("did you mean `PreToolUse`?"), "{check}");
    assert!(check.contains("did you mean `memoryMiB`?"), "{check}");
    let ran = p.run(&p.bash("ls"));
    ran.assert_stderr_contains("did you mean `PreToolUse`?");
    ran.assert_stderr_contains("did you mean `memoryMiB`?");
    let fired = p.output(p.cmd(["fire", "PreToolUse", "--tool", "bash"]), "");
    assert_eq!(fired.code(), 0);
    fired.assert_stderr_contains("did you mean `Bash`?");
    let fired = p.output(p.cmd(["fire", "PreToolUs"]), "");
    assert_eq!(fired.code(), 2);
    fired.assert_stderr_contains("did you mean `PreToolUse`?");
}

#[test]
fn check_flags_a_plain_name_no_claude_tool_has() {
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {"PreToolUse": [
        {"matcher": "Bahs", "hooks": [command("true")]},
        {"matcher": "Bash|Write", "hooks": [command("true")]}
    ]}}));
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    // What an installed agent will not do is a warning: `--strict` fails on it.
    let ran = p.output(p.cmd(["check", "--strict"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    let out = ran.stdout();
    assert!(
        out.contains("matcher `Bahs` matches no tool Claude Code has; did you mean `Bash`?"),
        "{out}"
    );
    assert!(!out.contains("matcher `Bash|Write`"), "{out}");
}

#[test]
fn identical_reasons_are_given_once() {
    let p = TempProject::new();
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([
            command("echo 'no pushing' >&2; exit 2"),
            command("echo 'no pushing' >&2; exit 2 # the second guard"),
            command("echo 'not on main' >&2; exit 2"),
        ]),
    ));
    let (decision, reason) = decision(&p.run(&p.bash("git push")));
    assert_eq!(decision, "deny");
    assert_eq!(reason, "no pushing\nnot on main");
}

/// The `stderr:` lines `fire` shows as the native answer.
fn fire_stderr(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("  stderr: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn fire_shows_the_stderr_run_writes_for_a_recorded_payload() {
    let p = TempProject::new();
    // A wasm guard that logs (a detail only `--verbose` shows), next to a
    // warning `run` prints.
    p.user_hooks(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "wasm", "component": crate::wasm::guest("deny"), "timeout": 20},
            {"type": "command", "command": "true", "comand": "typo"}
        ]}]}}),
    );
    let recorded = crate::util::fixtures("claude-2.1.332/deny/02-PreToolUse.json");
    let mut payload: Value = serde_json::from_slice(&std::fs::read(&recorded).unwrap()).unwrap();
    payload["cwd"] = json!(p.root);
    let input = p.write("payload.json", payload.to_string());
    let ran = p.run(&payload);
    assert_eq!(decision(&ran).0, "deny", "{}", ran.stderr());
    let fired = p.output(
        p.cmd([
            "fire",
            "PreToolUse",
            "--input-file",
            input.to_str().unwrap(),
        ]),
        "",
    );
    assert_eq!(fired.code(), 0, "{}", fired.stderr());
    let run_lines: Vec<String> = ran.stderr().lines().map(str::to_string).collect();
    assert!(!run_lines.is_empty());
    assert_eq!(
        fire_stderr(&fired.stdout()),
        run_lines,
        "{}",
        fired.stdout()
    );
    // The guest's log is still shown, under its hook.
    assert!(
        fired.stdout().contains("log info: deciding"),
        "{}",
        fired.stdout()
    );
}

#[test]
fn a_component_missing_an_import_names_it() {
    let p = TempProject::new();
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": crate::wasm::guest("missing_import"), "timeout": 20}]),
    ));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    let stderr = ran.stderr();
    // The import the host lacks is linked as a stub (it loads); the guest
    // calls it, and the trap names it.
    assert!(stderr.contains("`test:missing/clock#now`"), "{stderr}");
    assert!(stderr.contains("not provided by agenthooks"), "{stderr}");
    assert!(!stderr.contains("does not implement"), "{stderr}");
}

/// A project whose command hook runs `.agents/hooks/guard.sh`, trusted.
fn trusted_script_project() -> TempProject {
    let p = TempProject::new();
    p.script("guard.sh", "echo 'old rule' >&2\nexit 0");
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("./.agents/hooks/guard.sh")]),
    ));
    let ran = p.output(p.cmd(["trust", "--yes"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());
    p
}

#[test]
fn trust_list_shows_a_changed_hook_as_changed() {
    let p = trusted_script_project();
    let listed = p.output(p.cmd(["trust", "--list"]), "").stdout();
    assert!(listed.contains("Trusted in"), "{listed}");
    p.script("guard.sh", "echo 'new rule' >&2\nexit 2");
    let ran = p.output(p.cmd(["trust", "--list"]), "");
    assert_eq!(ran.code(), 0);
    let listed = ran.stdout();
    assert!(listed.contains("Changed since trusted"), "{listed}");
    assert!(!listed.contains("Trusted in"), "{listed}");
    assert!(!listed.contains("Not trusted in"), "{listed}");
    assert_eq!(listed.matches("guard.sh").count(), 1, "{listed}");
}

#[test]
fn the_re_review_shows_what_changed() {
    let p = trusted_script_project();
    p.script("guard.sh", "echo 'new rule' >&2\nexit 2");
    // No terminal: the review is shown and nothing is trusted.
    let ran = p.output(p.cmd(["trust"]), "");
    assert_eq!(ran.code(), 1);
    let review = ran.stdout();
    assert!(review.contains("changed since you trusted it"), "{review}");
    assert!(review.contains("- echo 'old rule' >&2"), "{review}");
    assert!(review.contains("+ echo 'new rule' >&2"), "{review}");
    assert!(review.contains("- exit 0"), "{review}");
    assert!(review.contains("+ exit 2"), "{review}");
}

#[test]
fn trust_list_outside_a_project_lists_the_store() {
    let p = trusted_script_project();
    let mut cmd = p.cmd(["trust", "--list"]);
    cmd.current_dir(p.tmp());
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let out = ran.stdout();
    assert!(out.contains("1 trusted hook"), "{out}");
    assert!(out.contains("Not in a project"), "{out}");
}

#[test]
fn compile_of_a_file_that_is_not_there_is_bad_usage() {
    let p = TempProject::new();
    let ran = p.output(p.cmd(["compile", "missing.wasm"]), "");
    assert_eq!(ran.code(), 2, "{}", ran.stdout());
    assert!(ran.stdout().contains("missing.wasm"), "{}", ran.stdout());
}
