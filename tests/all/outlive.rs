//! Hooks that try to outlive their timeout: an `async` hook after `run`
//! has exited, and a process that left its hook's group with `setsid`.
#![cfg(target_os = "linux")]

use std::time::Duration;

use serde_json::json;

use crate::util::{alive, eventually, hooks, read_pid, TempProject};

#[test]
fn an_async_hook_is_killed_at_its_timeout_after_run_returned() {
    let p = TempProject::new();
    let pid_file = p.path("async.pid");
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "async": true, "timeout": 2,
                "command": format!("echo $$ > '{}'; exec sleep 60", pid_file.display())}]),
    ));
    p.trust();
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_took_less_than(Duration::from_secs(2));
    assert!(
        eventually(Duration::from_secs(10), || pid_file.exists()
            && std::fs::read_to_string(&pid_file)
                .is_ok_and(|t| t.ends_with('\n'))),
        "the async hook never started"
    );
    let pid = read_pid(&pid_file);
    assert!(alive(pid), "the async hook {pid} ended before its timeout");
    assert!(
        eventually(Duration::from_secs(10), || !alive(pid)),
        "the async hook {pid} outlived its 2 s timeout"
    );
}

/// A hook that starts `setsid sleep 60` (its own session and group) and
/// records its pid, then `rest`.
fn setsid_hook(p: &TempProject, rest: &str) -> (serde_json::Value, std::path::PathBuf) {
    let pid_file = p.path("setsid.pid");
    let cmd = format!(
        "setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $! > '{}'; {rest}",
        pid_file.display()
    );
    (
        json!({"type": "command", "command": cmd, "timeout": 2}),
        pid_file,
    )
}

#[test]
fn a_process_that_left_the_group_is_killed_at_the_deadline() {
    let p = TempProject::new();
    let (hook, pid_file) = setsid_hook(&p, "sleep 30");
    p.project_hooks(&hooks("PreToolUse", "Bash", json!([hook])));
    p.trust();
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_took_less_than(Duration::from_secs(10));
    let pid = read_pid(&pid_file);
    assert!(
        eventually(Duration::from_secs(3), || !alive(pid)),
        "`setsid sleep 60` ({pid}) outlived its hook's timeout"
    );
}

#[test]
fn a_process_that_left_the_group_is_killed_when_its_hook_returns() {
    let p = TempProject::new();
    let (hook, pid_file) = setsid_hook(&p, "exit 0");
    p.project_hooks(&hooks("PreToolUse", "Bash", json!([hook])));
    p.trust();
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let pid = read_pid(&pid_file);
    assert!(
        eventually(Duration::from_secs(3), || !alive(pid)),
        "`setsid sleep 60` ({pid}) outlived its hook"
    );
}
