//! One verdict per configured hook (issue 35): `status` lists every hook,
//! also the entries that could not be loaded, with the fix for each that
//! does not run, and exits 1 until every one runs; `check` is the linter,
//! whose exit code depends on the files alone; `status --probe` runs each
//! wired entry as its agent would; the small things of the same walkthrough.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};

/// `bin/agenthooks` (a symlink to the binary under test) in the project's
/// temporary directory, and a PATH with it first.
#[cfg(unix)]
fn on_path(p: &TempProject) -> (PathBuf, String) {
    let bin = p.tmp().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let link = bin.join("agenthooks");
    if !link.exists() {
        std::os::unix::fs::symlink(crate::util::bin(), &link).unwrap();
    }
    let path = format!("{}:/usr/bin:/bin", bin.display());
    (bin, path)
}

/// `agenthooks ARGS` in `p` with `path` as PATH: (exit code, stdout).
fn run_with_path(p: &TempProject, args: &[&str], path: Option<&str>) -> (i32, String) {
    let mut cmd = p.cmd(args);
    if let Some(path) = path {
        cmd.env("PATH", path);
    }
    let ran = p.output(cmd, "");
    (ran.code(), ran.stdout() + &ran.stderr())
}

#[track_caller]
fn assert_has(out: &str, wants: &[&str]) {
    for want in wants {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
}

/// The walkthrough's hooks.json: a typo'd event, a typo'd handler type, a
/// script that does not exist and one that is not executable, beside a
/// hook that runs. `status` names all four with their fixes and exits 1;
/// `check` exits 1 on them.
#[cfg(unix)]
#[test]
fn a_hooks_json_with_four_problems_is_four_hooks_that_do_not_run() {
    use std::os::unix::fs::PermissionsExt;
    let p = TempProject::new();
    let noexec = p.script("noexec.sh", "exit 0");
    std::fs::set_permissions(&noexec, std::fs::Permissions::from_mode(0o644)).unwrap();
    p.project_hooks(&json!({"hooks": {
        "PreToolUs": [{"matcher": "Bash", "hooks": [command("true")]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "comand", "command": "true"},
            command(".agents/hooks/missing.sh"),
            command(".agents/hooks/noexec.sh"),
        ]}],
        "Stop": [{"hooks": [command("true")]}],
    }}));
    p.trust();
    let (_, path) = on_path(&p);
    let installed = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());

    let (code, out) = run_with_path(&p, &["status"], Some(&path));
    assert_eq!(code, 1, "{out}");
    assert_has(
        &out,
        &[
            "entry `hooks.PreToolUs`: does not run: unknown event `PreToolUs`",
            "; did you mean `PreToolUse`? rename it",
            "entry `hooks.PreToolUse[0].hooks[0]`: does not run: unknown handler type `comand`",
            "; did you mean `command`? change `type` to it",
            "does not run: its script `.agents/hooks/missing.sh` does not exist; create the script, or fix the path in hooks.json",
            "does not run: its script `.agents/hooks/noexec.sh` is not executable",
            "run `chmod +x .agents/hooks/noexec.sh`",
            "Stop * command `true` (onError: allow): runs",
            "status: 4 of 5 configured hooks not running",
        ],
    );
    // The summary's count is the lines'.
    assert_eq!(out.matches(": does not run: ").count(), 4, "{out}");

    let (code, json) = {
        let (code, out) = run_with_path(&p, &["status", "--json"], Some(&path));
        (code, serde_json::from_str::<Value>(&out).unwrap())
    };
    assert_eq!(code, 1);
    assert_eq!(json["not_running"], 4, "{json:#}");
    let codes: Vec<&str> = json["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h["findings"].as_array().unwrap())
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    for want in [
        "unknown-event",
        "unknown-handler-type",
        "script-missing",
        "script-not-executable",
    ] {
        assert!(codes.contains(&want), "{want} not in {codes:?}");
    }

    let (code, out) = run_with_path(&p, &["check"], Some(&path));
    assert_eq!(code, 1, "{out}");
    assert_has(
        &out,
        &[
            "unknown event `PreToolUs`",
            "unknown handler type `comand`",
            "`.agents/hooks/missing.sh` does not exist",
            "run `chmod +x .agents/hooks/noexec.sh`",
        ],
    );
}

/// A valid project this machine has not trusted yet: the files are fine
/// (`check` exits 0, and notes the trust), the hook does not run here
/// (`status` exits 1 and names `agenthooks trust`).
#[test]
fn an_untrusted_project_passes_check_and_fails_status() {
    let p = TempProject::new();
    p.project_hooks(&hooks("PreToolUse", "Bash", json!([command("true")])));
    let (code, out) = run_with_path(&p, &["check"], None);
    assert_eq!(code, 0, "{out}");
    assert_has(&out, &["note: ", "not trusted yet; run `agenthooks trust`"]);
    let (code, out) = run_with_path(&p, &["status"], None);
    assert_eq!(code, 1, "{out}");
    assert_has(
        &out,
        &["does not run: not trusted yet; run `agenthooks trust`"],
    );
}

/// `check --strict` fails on warnings, plain `check` only on errors.
#[test]
fn check_fails_on_warnings_only_when_strict() {
    let p = TempProject::new();
    p.user_hooks(&hooks(
        "Stop",
        "",
        json!([command("cat \"$CLAUDE_ENV_FILE\" >/dev/null")]),
    ));
    let (code, out) = run_with_path(&p, &["check"], None);
    assert_eq!(code, 0, "{out}");
    assert_has(
        &out,
        &["warning: ", "only Claude Code sets", "check --strict"],
    );
    let (code, out) = run_with_path(&p, &["check", "--strict"], None);
    assert_eq!(code, 1, "{out}");
}

/// A value of the wrong type skips its handler, named by its key path,
/// and the rest of the file still loads and counts.
#[test]
fn a_value_of_the_wrong_type_is_one_hook_that_does_not_run() {
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "true", "timeout": "10"},
        command("true"),
    ]}]}}));
    let (code, out) = run_with_path(&p, &["status"], None);
    assert_eq!(code, 1, "{out}");
    assert_has(
        &out,
        &[
            "entry `hooks.Stop[0].hooks[0]`: does not run: `hooks.Stop[0].hooks[0].timeout`: invalid type: string \"10\", expected a number",
            "Stop * command `true` (onError: allow): does not run: no agent is wired",
            "2 of 2 configured hooks not running",
        ],
    );
}

/// With nothing configured, `status` says so; a hooks.json that cannot be
/// read is bad input (exit 2) for `status`, `check` and `compile` alike.
#[test]
fn nothing_configured_is_said_and_unreadable_input_exits_2() {
    let p = TempProject::new();
    let (code, out) = run_with_path(&p, &["status"], None);
    assert_eq!(code, 0, "{out}");
    assert_has(&out, &["status: no hooks configured"]);
    assert!(!out.contains("every configured hook runs"), "{out}");
    std::fs::create_dir_all(p.path(".agents/hooks.json")).unwrap();
    for args in [&["status"][..], &["check"], &["compile"]] {
        let (code, out) = run_with_path(&p, args, None);
        assert_eq!(code, 2, "{args:?}: {out}");
    }
    // One that reads and does not parse is a problem found (1).
    std::fs::remove_dir(p.path(".agents/hooks.json")).unwrap();
    p.write(".agents/hooks.json", "{\"hooks\": {},}");
    for args in [&["status"][..], &["check"], &["compile"]] {
        let (code, out) = run_with_path(&p, args, None);
        assert_eq!(code, 1, "{args:?}: {out}");
    }
    // Outside any project: said, and only the user's hooks are listed
    // (where the temporary directory itself is inside no project).
    let elsewhere = p.tmp().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let in_a_project = elsewhere
        .ancestors()
        .any(|d| d.join(".git").exists() || d.join(".agents").exists());
    if in_a_project {
        return;
    }
    let mut cmd = p.cmd(["status"]);
    cmd.current_dir(&elsewhere);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_has(
        &ran.stdout(),
        &[
            "project: none (no `.agents/` or `.git` at or above",
            "status: no hooks configured",
        ],
    );
}

/// `status --probe` runs each wired entry as Claude Code would and gets
/// agenthooks' answer back; with agenthooks missing from the PATH the
/// probe runs with, or its engine missing beside it, it says which.
#[cfg(unix)]
#[test]
fn status_probe_reaches_every_entry_and_names_what_is_missing() {
    let p = TempProject::new();
    p.project_hooks(&hooks("PreToolUse", "Bash", json!([command("true")])));
    p.trust();
    let installed = p.output(p.cmd(["install", "claude", "gemini"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    let (_, path) = on_path(&p);

    let (code, out) = run_with_path(&p, &["status", "--probe", "--json"], Some(&path));
    let found: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(code, 0, "{found:#}");
    let probes = found["probes"].as_array().unwrap();
    let reached = |agent: &str, event: &str| {
        probes
            .iter()
            .any(|p| p["agent"] == agent && p["event"] == event && p["outcome"] == "answered")
    };
    assert!(reached("claude", "PreToolUse"), "{found:#}");
    assert!(reached("claude", "SessionStart"), "{found:#}");
    assert!(reached("gemini", "BeforeTool"), "{found:#}");
    assert!(probes.iter().all(|p| p["answered"] == true), "{found:#}");

    // The binary is not on the PATH the probe runs with.
    let (code, out) = run_with_path(&p, &["status", "--probe"], Some("/usr/bin:/bin"));
    assert_eq!(code, 1, "{out}");
    assert_has(
        &out,
        &["probe claude PreToolUse (project): no answer: `agenthooks` is not found on the PATH"],
    );

    // A copy of the front without the engine beside it.
    let lone = p.tmp().join("lone");
    std::fs::create_dir_all(&lone).unwrap();
    std::fs::copy(crate::util::bin(), lone.join("agenthooks")).unwrap();
    let lone_path = format!("{}:/usr/bin:/bin", lone.display());
    let (code, out) = run_with_path(&p, &["status", "--probe"], Some(&lone_path));
    assert_eq!(code, 1, "{out}");
    assert_has(
        &out,
        &[
            "probe claude PreToolUse (project): answered in",
            "and the engine is missing",
        ],
    );
}

/// A real event in a shell where the probe variable was left set is not
/// answered as a probe: its hooks run.
#[cfg(unix)]
#[test]
fn a_real_event_is_never_taken_for_a_probe() {
    let p = TempProject::trusted(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo blocked >&2; exit 2")]),
    ));
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("AGENTHOOKS_PROBE", "0123456789abcdef0123456789abcdef");
    let mut payload = p.bash("ls");
    payload["agenthooks_probe"] = json!("ffffffffffffffffffffffffffffffff");
    let ran = p.output(cmd, payload.to_string());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let answer = ran.json();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecisionReason"],
        "blocked"
    );
}

/// Help pages and usage errors name `agenthooks`, the binary typed; an
/// agent's name with a typo gets a did-you-mean; `uninstall` with nothing
/// to remove says so.
#[test]
fn the_command_line_names_what_was_typed() {
    let p = TempProject::new();
    let help = p.output(p.cmd(["install", "--help"]), "");
    assert_eq!(help.code(), 0);
    assert!(
        help.stdout().contains("Usage: agenthooks install"),
        "{}",
        help.stdout()
    );
    assert!(
        !help.stdout().contains("agenthooks-engine"),
        "{}",
        help.stdout()
    );
    let bad = p.output(p.cmd(["install", "--bogus"]), "");
    assert_eq!(bad.code(), 2);
    assert!(
        !bad.stderr().contains("agenthooks-engine"),
        "{}",
        bad.stderr()
    );
    bad.assert_stderr_contains("Usage: agenthooks install");

    let typo = p.output(p.cmd(["install", "claudee"]), "");
    assert_eq!(typo.code(), 2);
    typo.assert_stderr_contains("no agent named `claudee`; did you mean `claude`?");

    let none = p.output(p.cmd(["uninstall", "claude"]), "");
    assert_eq!(none.code(), 0, "{}", none.stderr());
    assert!(
        none.stdout()
            .contains("claude: nothing to remove: Claude Code has no entries of agenthooks at the project scope"),
        "{}",
        none.stdout()
    );
    let all = p.output(p.cmd(["uninstall", "--all-installed"]), "");
    assert_eq!(all.code(), 0, "{}", all.stderr());
    assert!(
        all.stdout().contains("uninstall: nothing to remove"),
        "{}",
        all.stdout()
    );
}

/// `compile` says each result once (on stdout; not again as a note on
/// stderr, nor twice for one file named twice), and `cache` names an
/// entry's component even when its index record is gone.
#[test]
fn compile_says_each_result_once_and_cache_names_the_component() {
    let p = TempProject::new();
    let component = p.path(".agents/hooks/deny.wasm");
    std::fs::create_dir_all(component.parent().unwrap()).unwrap();
    std::fs::copy(crate::wasm::guest("deny"), &component).unwrap();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": ".agents/hooks/deny.wasm"}]),
    ));
    let xdg = p.tmp().join("xdg");
    let mut cmd = p.cmd([
        "compile",
        ".agents/hooks/deny.wasm",
        "./.agents/hooks/deny.wasm",
    ]);
    cmd.env("XDG_CACHE_HOME", &xdg)
        .timeout(std::time::Duration::from_secs(600));
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(ran.stdout().lines().count(), 1, "{}", ran.stdout());
    assert!(
        ran.stdout().contains("deny.wasm: compiled"),
        "{}",
        ran.stdout()
    );
    for repeated in ["compiled and cached", "loaded from the compile cache"] {
        assert!(!ran.stderr().contains(repeated), "{}", ran.stderr());
    }

    // Without its record in the index (gone, or never written), the entry
    // is named by its digest from the components the configs name.
    let _ = std::fs::remove_dir_all(xdg.join("agenthooks/index"));
    let mut cmd = p.cmd(["cache"]);
    cmd.env("XDG_CACHE_HOME", &xdg);
    let listed = p.output(cmd, "");
    assert_eq!(listed.code(), 0, "{}", listed.stderr());
    assert!(
        listed.stdout().contains("deny.wasm (by its digest)"),
        "{}",
        listed.stdout()
    );
}
