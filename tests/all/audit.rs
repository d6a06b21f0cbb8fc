//! The audit log through the real binary: one JSON line per event with every
//! handler's outcome, rotation at the cap, and a log that cannot be written
//! never changing the answer.

use std::path::Path;

use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};

fn lines(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", log.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A project whose user file turns the audit on at `log` with `maxBytes`.
fn audited(handlers: Value, log: &Path, max_bytes: Option<u64>) -> TempProject {
    let p = TempProject::new();
    let mut config = hooks("PreToolUse", "Bash", handlers);
    config["audit"] = json!({"path": log});
    if let Some(max) = max_bytes {
        config["audit"]["maxBytes"] = json!(max);
    }
    p.user_hooks(&config);
    p
}

#[test]
fn each_event_logs_every_handler_and_the_decision() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let p = audited(
        json!([
            command("exit 0"),
            command("echo 'no pushing' >&2; exit 2"),
            command("exit 7"),
        ]),
        &log,
        None,
    );
    // A project command hook, untrusted: logged as skipped.
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo project")]),
    ));

    let ran = p.run(&p.bash("git push"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let p2 = audited(json!([command("exit 0")]), &log, None);
    let ran = p2.run(&p2.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());

    let lines = lines(&log);
    assert_eq!(lines.len(), 2);
    let deny = &lines[0];
    assert_eq!(deny["agent"], "claude");
    assert_eq!(deny["event"], "PreToolUse");
    assert_eq!(deny["tool"], "Bash");
    assert_eq!(deny["project"], p.root.display().to_string());
    assert_eq!(deny["decision"], "deny");
    assert_eq!(deny["reason"], "no pushing");
    let t = deny["time"].as_str().unwrap();
    assert!(
        t.len() == 24 && t.ends_with('Z') && t.as_bytes()[10] == b'T',
        "{t}"
    );
    let h = deny["handlers"].as_array().unwrap();
    assert_eq!(h.len(), 4, "{deny}");
    assert_eq!(
        (
            h[0]["kind"].as_str(),
            h[0]["outcome"].as_str(),
            h[0]["decision"].as_str()
        ),
        (Some("command"), Some("answered"), Some("none"))
    );
    assert_eq!(h[0]["label"], "command `exit 0`");
    assert_eq!(h[1]["decision"], "deny");
    assert_eq!(h[2]["outcome"], "failed");
    assert!(
        h[2]["note"]
            .as_str()
            .unwrap()
            .contains("exited with code 7"),
        "{}",
        h[2]
    );
    assert_eq!(h[3]["outcome"], "skipped");
    assert!(
        h[3]["note"].as_str().unwrap().contains("agenthooks trust"),
        "{}",
        h[3]
    );
    for handler in h {
        assert!(handler["durationMs"].is_u64(), "{handler}");
    }
    // No hook had an opinion: the agent's own permission system decided.
    assert_eq!(lines[1]["decision"], "none");
    assert_eq!(lines[1]["handlers"][0]["decision"], "none");
}

#[test]
fn a_fail_closed_failure_is_logged_as_failed_and_deny() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let p = audited(
        json!([{"type": "command", "command": "sleep 5", "timeout": 0.3, "onError": "deny"}]),
        &log,
        None,
    );
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let line = &lines(&log)[0];
    assert_eq!(line["decision"], "deny");
    assert!(
        line["reason"].as_str().unwrap().contains("timed out"),
        "{line}"
    );
    assert_eq!(line["handlers"][0]["outcome"], "failed");
}

#[test]
fn the_log_rotates_at_its_cap() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    // Each line is a few hundred bytes: a 1000-byte cap holds two or three.
    let p = audited(json!([command("exit 0")]), &log, Some(1000));
    for _ in 0..8 {
        assert_eq!(p.run(&p.bash("ls")).code(), 0);
    }
    let rotated = tmp.path().join("audit.jsonl.1");
    let (now, before) = (lines(&log), lines(&rotated));
    assert!(now.len() + before.len() <= 8);
    assert!(!now.is_empty() && !before.is_empty());
    for path in [&log, &rotated] {
        let size = std::fs::metadata(path).unwrap().len();
        assert!(size <= 1000, "{} is {size} bytes", path.display());
    }
    // Nothing but the log and one rotation.
    let mut names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    // The lock file rotations take stays; it is empty.
    assert_eq!(names, ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.lock"]);
}

#[test]
fn an_unwritable_log_is_one_note_and_the_answer_stands() {
    let tmp = tempfile::tempdir().unwrap();
    // A directory where the file should be, and a path under a missing directory.
    for log in [
        tmp.path().to_path_buf(),
        tmp.path().join("no/such/dir/audit.jsonl"),
    ] {
        let p = audited(json!([command("echo 'no' >&2; exit 2")]), &log, None);
        let ran = p.run(&p.bash("ls"));
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
        assert_eq!(
            ran.json()["hookSpecificOutput"]["permissionDecision"],
            "deny"
        );
        let notes: Vec<String> = ran
            .stderr()
            .lines()
            .filter(|l| l.contains("audit log"))
            .map(str::to_string)
            .collect();
        assert_eq!(notes.len(), 1, "{}", ran.stderr());
        assert!(
            notes[0].contains("the answer is not affected"),
            "{}",
            notes[0]
        );
    }
}

#[test]
fn a_fifo_at_the_log_path_does_not_hang_run() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("fifo");
    let c = std::ffi::CString::new(log.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let p = audited(json!([command("exit 0")]), &log, None);
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert!(ran.elapsed < std::time::Duration::from_secs(10));
    ran.assert_stderr_contains("audit log");
}

#[test]
fn a_project_cannot_turn_the_audit_on() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let p = TempProject::new();
    let mut config = hooks("PreToolUse", "Bash", json!([]));
    config["audit"] = json!({"path": log});
    p.project_hooks(&config);
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert!(!log.exists());
}

#[test]
fn the_environment_turns_it_on_and_keeps_the_log_private() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("env.jsonl");
    let p = TempProject::new();
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("AGENTHOOKS_AUDIT", &log);
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(ran.code(), 0);
    assert_eq!(lines(&log).len(), 1);
    let mode = std::fs::metadata(&log).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn a_wasm_hook_is_logged_with_the_fuel_it_used() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let guest = crate::wasm::guest("deny");
    let p = audited(
        json!([{"type": "wasm", "component": guest, "timeout": 20}]),
        &log,
        None,
    );
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("XDG_CACHE_HOME", crate::wasm::xdg_cache());
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let line = &lines(&log)[0];
    assert_eq!(line["decision"], "deny");
    assert_eq!(line["reason"], "denied by the wasm guest");
    let h = &line["handlers"][0];
    assert_eq!(h["kind"], "wasm");
    assert_eq!(h["decision"], "deny");
    assert!(h["fuelUsed"].as_u64().is_some_and(|f| f > 0), "{h}");
    let digest = h["componentDigest"].as_str().unwrap();
    let bytes = std::fs::read(&guest).unwrap();
    let want = {
        use sha2::Digest;
        format!("sha256:{:x}", sha2::Sha256::digest(&bytes))
    };
    assert_eq!(digest, want);
    assert_eq!(h["scope"], "user");
    assert_eq!(h["trusted"], true);
}

/// `run` once per payload, all started before any is waited for; each must
/// exit 0.
fn run_at_once(p: &TempProject, payloads: impl Iterator<Item = Value>) {
    let children: Vec<_> = payloads
        .map(|payload| {
            let mut cmd = p.isolated(crate::util::bin());
            cmd.args(["run", "--agent", "claude"])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            let mut child = cmd.spawn().unwrap();
            let mut stdin = child.stdin.take().unwrap();
            std::thread::spawn(move || {
                use std::io::Write;
                stdin.write_all(payload.to_string().as_bytes()).unwrap();
            });
            child
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
}

#[test]
fn sixteen_concurrent_runs_write_sixteen_intact_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    // Long lines (a 12 KiB input each, recorded) make torn writes likely if
    // a line ever took more than one write.
    let p = audited(json!([command("exit 0")]), &log, None);
    let mut config = hooks("PreToolUse", "Bash", json!([command("exit 0")]));
    config["audit"] = json!({"path": log, "includeInput": true});
    p.user_hooks(&config);
    let payloads = (0..16).map(|i| {
        let mut payload = p.bash(&format!("echo {i} {}", "x".repeat(12 * 1024)));
        payload["tool_use_id"] = json!(format!("toolu_{i}"));
        payload
    });
    run_at_once(&p, payloads);
    let lines = lines(&log);
    assert_eq!(lines.len(), 16);
    let mut ids: Vec<String> = lines
        .iter()
        .map(|l| l["tool_use_id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 16, "{ids:?}");
}

#[test]
fn concurrent_runs_past_the_cap_keep_every_line_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let p = audited(json!([command("exit 0")]), &log, Some(3000));
    run_at_once(&p, (0..16).map(|_| p.bash("ls")));
    // `lines` parses every line: a torn or interleaved one fails here.
    let now = lines(&log);
    let rotated = tmp.path().join("audit.jsonl.1");
    let before = if rotated.exists() {
        lines(&rotated)
    } else {
        Vec::new()
    };
    assert!(!now.is_empty());
    assert!(now.len() + before.len() <= 16);
}

#[test]
fn a_line_says_who_where_which_file_and_what_was_attempted() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let p = audited(json!([command("echo 'no' >&2; exit 2")]), &log, None);
    let mut config = hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo 'no' >&2; exit 2")]),
    );
    config["audit"] = json!({"path": log, "includeInput": true});
    p.user_hooks(&config);
    // A broken project file: its own field, not lost among the notes.
    p.write(".agents/hooks.json", "{ \"hooks\": ");
    let mut payload = p.bash("GITHUB_TOKEN=ghp_secret123 gh pr create");
    payload["tool_input"]["env"] = json!({"API_KEY": "k-456", "LANG": "C"});
    let ran = p.run(&payload);
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let text = std::fs::read_to_string(&log).unwrap();
    for secret in ["ghp_secret123", "k-456"] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    let line = &lines(&log)[0];
    assert_eq!(line["session_id"], "11111111-2222-4333-8444-555555555555");
    assert_eq!(line["tool_use_id"], "toolu_1");
    assert_eq!(line["cwd"], p.root.display().to_string());
    assert!(line["user"].is_string() || line["uid"].is_u64(), "{line}");
    assert!(
        line["host"].as_str().is_some_and(|h| !h.is_empty()),
        "{line}"
    );
    assert_eq!(line["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(line["decision"], "deny");
    assert_eq!(
        line["input"]["command"],
        "GITHUB_TOKEN=[redacted] gh pr create"
    );
    assert_eq!(
        line["input"]["env"],
        json!({"API_KEY": "[redacted]", "LANG": "C"})
    );
    let errors = line["configErrors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{line}");
    assert_eq!(
        errors[0]["file"],
        p.path(".agents/hooks.json").display().to_string()
    );
    assert_eq!(errors[0]["scope"], "project");
    let h = &line["handlers"][0];
    assert_eq!(
        h["file"],
        p.home.join(".agents/hooks.json").display().to_string()
    );
    assert_eq!(h["scope"], "user");
    assert_eq!(h["trust"], "by-scope");
    assert_eq!(h["trusted"], true);
    assert_eq!(h["decision"], "deny");
}

#[test]
fn a_failure_is_logged_by_kind() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let p = audited(json!([command("exit 7")]), &log, None);
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo project")]),
    ));
    assert_eq!(p.run(&p.bash("ls")).code(), 0);
    let line = &lines(&log)[0];
    assert_eq!(line["handlers"][0]["failure"], "exit-code");
    assert_eq!(line["handlers"][1]["failure"], "untrusted");
    assert_eq!(line["handlers"][1]["trust"], "untrusted");
    assert_eq!(line["handlers"][1]["trusted"], false);
    assert_eq!(line["handlers"][1]["scope"], "project");
    assert_eq!(line.get("input"), None, "the input is opt-in");
}

#[test]
fn audit_verify_checks_the_chain_and_names_the_record_that_was_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let p = audited(
        json!([command("echo 'no pushing' >&2; exit 2")]),
        &log,
        None,
    );
    for command in ["git push", "ls", "git push --force"] {
        let ran = p.run(&p.bash(command));
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
    }
    let verify = |p: &TempProject| p.output(p.cmd(["audit", "verify"]), "");
    let ran = verify(&p);
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout()
            .contains("3 records chained, intact, from the log's first record"),
        "{}",
        ran.stdout()
    );
    // The first deny turned into an allow: the chain breaks at the record
    // after it, which names it.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[0] = lines[0].replace("\"decision\":\"deny\"", "\"decision\":\"allow\"");
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let ran = verify(&p);
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    let shown = log.display().to_string();
    assert!(
        ran.stderr().contains(&format!(
            "{shown}:2: the chain breaks here: its `prev` is not the hash of the record before it ({shown}:1)"
        )),
        "{}",
        ran.stderr()
    );
    assert_eq!(ran.stderr().lines().count(), 1, "{}", ran.stderr());
    // Files named: the rotated pair read as one log.
    std::fs::write(&log, &text).unwrap();
    let (older, newer) = text.split_at(text.find('\n').unwrap() + 1);
    let rotated = tmp.path().join("audit.jsonl.1");
    std::fs::write(&rotated, older).unwrap();
    std::fs::write(&log, newer).unwrap();
    let names = [rotated.to_str().unwrap(), log.to_str().unwrap()];
    let ran = p.output(p.cmd([&["audit", "verify"][..], &names].concat()), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout().contains("3 records chained"),
        "{}",
        ran.stdout()
    );
    // The default finds the rotated file too.
    let ran = verify(&p);
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout().contains("3 records chained"),
        "{}",
        ran.stdout()
    );
}

/// A project whose user file turns the audit on at `log`, each record
/// signed with the key in `key`.
fn signed(log: &Path, key: &Path) -> TempProject {
    let p = TempProject::new();
    let mut config = hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo 'no pushing' >&2; exit 2")]),
    );
    config["audit"] = json!({"path": log, "sign": true, "signingKey": key});
    p.user_hooks(&config);
    p
}

#[test]
fn signed_records_verify_against_the_printed_key_and_a_record_signed_again_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("audit.jsonl");
    let key = tmp.path().join("keys/audit.pk8");
    let p = signed(&log, &key);
    for command in ["git push", "ls"] {
        let ran = p.run(&p.bash(command));
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
        assert!(!ran.stderr().contains("unsigned"), "{}", ran.stderr());
    }
    let printed = p.output(p.cmd(["audit", "public-key"]), "");
    assert_eq!(printed.code(), 0, "{}", printed.stderr());
    let public = printed.stdout().trim().to_string();
    assert!(
        public.starts_with("ed25519:") && public.len() == 72,
        "{public}"
    );
    let id = lines(&log)[0]["key"].as_str().unwrap().to_string();
    assert!(
        printed.stderr().contains(&format!("key {id} in")),
        "{}",
        printed.stderr()
    );

    let ran = p.output(p.cmd(["audit", "verify", "--public-key", &public]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout()
            .contains(&format!("2 signed by the key {id}, each signature checked")),
        "{}",
        ran.stdout()
    );

    // Someone with another key rewrites the last record (a deny made an
    // allow, its chain to the record before kept) and signs it: the chain
    // holds, the signer does not.
    let text = std::fs::read_to_string(&log).unwrap();
    let first = text.lines().next().unwrap();
    let forged = tmp.path().join("forged.jsonl");
    std::fs::write(&forged, format!("{first}\n")).unwrap();
    let other = signed(&forged, &tmp.path().join("other.pk8"));
    let ran = other.run(&other.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let ran = p.output(
        p.cmd([
            "audit",
            "verify",
            "--public-key",
            &public,
            forged.to_str().unwrap(),
        ]),
        "",
    );
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    assert!(
        ran.stderr().contains(&format!(
            "{}:2: the record is signed with the key",
            forged.display()
        )) && ran.stderr().contains("signed again by someone else"),
        "{}",
        ran.stderr()
    );
    // The configured key is the default trusted one.
    let ran = p.output(p.cmd(["audit", "verify", forged.to_str().unwrap()]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
}
