//! `.agents/hooks.json` and Google Antigravity, which reads that same path
//! itself with a named-hook schema: a file of agenthooks' command hooks is,
//! to Antigravity, one named hook it would run natively (unsandboxed, past
//! the trust gate). `check` says so; `"$schema"` makes the file inert for
//! Antigravity; agenthooks' entry lives in Antigravity's user file and runs
//! every hook, wasm included, through agenthooks.

use serde_json::{json, Value};

use crate::util::{command, fixtures, hooks, TempProject};

/// A trusted project with one command hook, on a machine where Antigravity
/// is in use (its folder under the home).
fn project(config: &Value) -> TempProject {
    let p = TempProject::trusted(config);
    std::fs::create_dir_all(p.home.join(".gemini/antigravity")).unwrap();
    p
}

fn deny_rm(p: &TempProject) -> Value {
    let script = p.script(
        "deny.sh",
        r#"grep -q 'rm -rf' && printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED rm"}}'; exit 0"#,
    );
    hooks(
        "PreToolUse",
        "Bash",
        json!([command(&script.display().to_string())]),
    )
}

#[test]
fn a_file_antigravity_would_run_natively_is_a_check_warning_until_marked() {
    let p = project(&json!({"hooks": {}}));
    let config = deny_rm(&p);
    p.project_hooks(&config);
    p.trust();
    // A warning: it fails `check --strict` (plain `check` fails on errors only).
    let ran = p.output(p.cmd(["check", "--strict"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    assert!(
        ran.stdout().contains(
            "Antigravity reads this file itself and would run its 1 command hook natively"
        ),
        "{}",
        ran.stdout()
    );

    // The marker: a top-level string Antigravity's strict loader rejects,
    // a key agenthooks knows. The hooks still run here, and stay trusted.
    let mut marked = config.clone();
    marked["$schema"] = json!("agenthooks");
    p.project_hooks(&marked);
    p.trust();
    let ran = p.output(p.cmd(["check"]), "");
    assert!(!ran.stdout().contains("would run"), "{}", ran.stdout());
    assert!(
        ran.stdout()
            .contains("agenthooks install antigravity --user"),
        "ignored by Antigravity and no entry of ours yet:\n{}",
        ran.stdout()
    );

    // Antigravity's own project file is agenthooks' config: install refuses
    // project scope rather than write into it, and names the user scope.
    let ran = p.output(p.cmd(["install", "antigravity"]), "");
    assert_eq!(ran.code(), 2, "{}", ran.stdout());
    ran.assert_stderr_contains("agenthooks install antigravity --user");
    assert_eq!(
        serde_json::from_str::<Value>(
            &std::fs::read_to_string(p.path(".agents/hooks.json")).unwrap()
        )
        .unwrap(),
        marked,
        "install touched agenthooks' own file"
    );

    let ran = p.output(p.cmd(["install", "antigravity", "--user"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let native: Value = serde_json::from_str(
        &std::fs::read_to_string(p.home.join(".gemini/config/hooks.json")).unwrap(),
    )
    .unwrap();
    let groups = &native["hooks"]["PreToolUse"];
    assert_eq!(
        groups[0]["matcher"],
        json!(""),
        "a bare `*` is not a Go regex"
    );
    assert!(groups[0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .contains("run --agent antigravity --event PreToolUse"));
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());

    // What Antigravity then sends its entry is answered in its own dialect.
    let payload = std::fs::read_to_string(fixtures(
        "antigravity-1.0.5-documented/documented/01-PreToolUse.json",
    ))
    .unwrap();
    let ran = p.output(
        p.cmd(["run", "--agent", "antigravity", "--event", "PreToolUse"]),
        payload,
    );
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(
        ran.json(),
        json!({"decision": "deny", "reason": "BLOCKED rm"})
    );
}

#[test]
fn without_antigravity_on_the_machine_the_risk_is_a_note() {
    let p = TempProject::trusted(&hooks("Stop", "", json!([command("true")])));
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());
    assert!(
        ran.stdout().contains("note: `") && ran.stdout().contains("Antigravity reads this file"),
        "{}",
        ran.stdout()
    );
}
