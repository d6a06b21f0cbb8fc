//! Per-event budgets, through the real binary: what a stranger's repository
//! (or a clumsy hook) can make one event cost is bounded in memory, hooks
//! run, log, answer size and note length, and nothing of a command hook
//! outlives `run`.
//!
//! Runs that matter for memory are measured with `wait4`, which gives the
//! peak RSS of exactly that child.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::util::{alive, bin, command, eventually, hooks, read_pid, Ran, TempProject};
use crate::wasm::{guest, xdg_cache};

/// The guests these tests use, compiled into the shared cache once so the
/// runs below load them warm.
const GUESTS: &[&str] = &["hog", "empty_log", "huge_answer", "deny"];

fn warm() {
    static WARM: OnceLock<()> = OnceLock::new();
    WARM.get_or_init(|| {
        let paths: Vec<PathBuf> = GUESTS.iter().map(|g| guest(g)).collect();
        let out = std::process::Command::new(bin())
            .arg("compile")
            .args(&paths)
            .env("XDG_CACHE_HOME", xdg_cache())
            .output()
            .expect("run agenthooks compile");
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

/// A run of `agenthooks run --agent claude` and its peak RSS in KiB.
struct Measured {
    ran: Ran,
    max_rss_kib: i64,
}

/// `agenthooks run --agent claude` on `stdin` with the warm compile cache,
/// reaped with `wait4` for its own peak RSS; killed after 60 s.
#[cfg(unix)]
// The child is reaped by `wait4` (for its rusage), which `Child` cannot know.
#[allow(clippy::zombie_processes)]
fn run_measured(p: &TempProject, stdin: Vec<u8>) -> Measured {
    use std::os::unix::process::ExitStatusExt;
    warm();
    let started = Instant::now();
    let mut child = p
        .isolated(bin())
        .args(["run", "--agent", "claude"])
        .env("XDG_CACHE_HOME", xdg_cache())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start agenthooks");
    let pid = i32::try_from(child.id()).expect("a pid fits i32");
    let mut input = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let err = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if done_rx.recv_timeout(Duration::from_secs(60)).is_err() {
            // SAFETY: kill(2) on our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; `status` and `usage` are valid for writes.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    assert_eq!(reaped, pid, "wait4 failed");
    let _ = done_tx.send(());
    let _ = watchdog.join();
    let _ = writer.join();
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    };
    Measured {
        ran: Ran { output, elapsed },
        max_rss_kib: usage.ru_maxrss,
    }
}

fn wasm(component: &Path, extra: Value) -> Value {
    let mut h = json!({"type": "wasm", "component": component});
    if let (Some(h), Value::Object(extra)) = (h.as_object_mut(), extra) {
        h.extend(extra);
    }
    h
}

fn context(ran: &Ran) -> String {
    let answer = ran.json();
    answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[cfg(unix)]
#[test]
fn forty_memory_hungry_hooks_are_held_to_the_event_memory_budget() {
    let p = TempProject::new();
    // Forty distinct handlers (a different fuel each, or they would be one),
    // each holding 24 MiB at once: about 1 GiB without an event budget.
    let handlers: Vec<Value> = (0..40)
        .map(|i| wasm(&guest("hog"), json!({"fuel": 2_000_000_000u64 - i})))
        .collect();
    let mut config = hooks("PreToolUse", "Bash", Value::Array(handlers));
    config["eventMemoryMiB"] = json!(200);
    p.user_hooks(&config);
    let m = run_measured(&p, p.bash("ls").to_string().into_bytes());
    let stderr = m.ran.stderr();
    assert_eq!(m.ran.code(), 0, "{stderr}");
    assert!(
        stderr.contains(
            "event memory budget of 200 MiB exhausted (all wasm hooks of one event share it)"
        ),
        "{stderr}"
    );
    // Some held their memory and answered; the budget let no more than fit.
    let held = context(&m.ran).matches("held 24 MiB").count();
    assert!((1..=8).contains(&held), "{held} answered; {stderr}");
    assert!(
        m.max_rss_kib < (200 + 250) << 10,
        "peak RSS {} MiB",
        m.max_rss_kib >> 10
    );
}

#[cfg(unix)]
#[test]
fn a_flood_of_empty_log_lines_is_bounded_and_the_hook_still_answers() {
    let p = TempProject::new();
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([wasm(&guest("empty_log"), json!({}))]),
    ));
    let m = run_measured(&p, p.bash("ls").to_string().into_bytes());
    let stderr = m.ran.stderr();
    assert!(
        stderr.contains("its log went past 1000 lines or 64 KiB in one call; the "),
        "{stderr}"
    );
    assert!(
        context(&m.ran).starts_with("flooded with "),
        "{}",
        m.ran.stdout()
    );
    // The guest floods for one second; the default timeout is 60 s.
    m.ran.assert_took_less_than(Duration::from_secs(30));
    assert!(
        m.max_rss_kib < 200 << 10,
        "peak RSS {} MiB",
        m.max_rss_kib >> 10
    );
}

#[cfg(unix)]
#[test]
fn a_50_mb_wasm_answer_is_cut_to_1_mib_with_a_note() {
    let p = TempProject::new();
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([wasm(&guest("huge_answer"), json!({"memoryMiB": 128}))]),
    ));
    let m = run_measured(&p, p.bash("ls").to_string().into_bytes());
    let stderr = m.ran.stderr();
    assert!(
        stderr.contains(
            "its answer was over 1 MiB; cut `reason` (31457280 bytes), \
             `additional-context` (20971520 bytes) to fit"
        ),
        "{stderr}"
    );
    assert!(
        m.ran.output.stdout.len() <= (1 << 20) + 4096,
        "{}",
        m.ran.output.stdout.len()
    );
    let answer = m.ran.json();
    let hso = &answer["hookSpecificOutput"];
    // Still a deny, with as much of the reason as fits, cut between characters.
    assert_eq!(hso["permissionDecision"], "deny");
    let reason = hso["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.len() > 1_000_000 && reason.chars().all(|c| c == 'é'));
}

#[test]
fn a_10_mb_event_name_gives_one_short_note() {
    let p = TempProject::new();
    let name = "X".repeat(10 << 20);
    let payload = p.payload(&name, json!({}));
    let ran = p.run(&payload);
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.stdout(), "");
    let stderr = ran.stderr();
    assert!(stderr.len() < 2048, "{} bytes of stderr", stderr.len());
    assert!(stderr.contains("unknown event `XXXX"), "{stderr}");
    for line in stderr.lines() {
        assert!(line.chars().count() <= 420, "{line}");
    }
}

#[test]
fn an_untrusted_project_runs_at_most_16_hooks_per_event() {
    let p = TempProject::new();
    // Twenty distinct sandboxed hooks that need no trust to run (their
    // component in the project: one from elsewhere waits for trust).
    let component = p.path(".agents/hooks/deny.wasm");
    std::fs::create_dir_all(component.parent().unwrap()).unwrap();
    std::fs::copy(guest("deny"), &component).unwrap();
    let handlers: Vec<Value> = (0..20)
        .map(|i| wasm(&component, json!({"fuel": 2_000_000_000u64 - i})))
        .collect();
    p.project_hooks(&hooks("PreToolUse", "Bash", Value::Array(handlers)));
    warm();
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("XDG_CACHE_HOME", xdg_cache());
    let ran = p.output(cmd, p.bash("ls").to_string());
    let stderr = ran.stderr();
    assert_eq!(ran.code(), 0, "{stderr}");
    assert_eq!(
        context(&ran).matches("name=PreToolUse").count(),
        16,
        "{stderr}"
    );
    ran.assert_stderr_contains(
        "skipped 4 more untrusted project hooks past the limit of 16 per event",
    );
    ran.assert_stderr_contains("`agenthooks trust`");
    // One note for the run, not one per skipped hook.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // Trusted, all twenty run.
    p.trust();
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("XDG_CACHE_HOME", xdg_cache());
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(context(&ran).matches("name=PreToolUse").count(), 20);
}

#[cfg(unix)]
#[test]
fn a_grandchild_that_closed_its_output_does_not_outlive_run() {
    let p = TempProject::new();
    let pid_file = p.tmp().join("grandchild.pid");
    let cmd = format!(
        "sleep 30 >/dev/null 2>&1 </dev/null & echo $! > '{}'; exit 0",
        pid_file.display()
    );
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([command(&cmd)])));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_took_less_than(Duration::from_secs(10));
    let pid = read_pid(&pid_file);
    let gone = eventually(Duration::from_secs(5), || !alive(pid));
    if !gone {
        // SAFETY: kill(2) has no memory effects; do not leave it behind.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    assert!(gone, "the hook's grandchild {pid} outlived `run`");
}

/// Issue 39: 10 KiB of NUL bytes, cut to Gemini's 10 KiB, reached it as
/// 61,588 bytes of `\u0000`. The cap holds on the bytes Gemini receives.
#[cfg(unix)]
#[test]
fn a_10_mb_reason_of_nul_bytes_reaches_gemini_as_at_most_16_kib() {
    let p = TempProject::trusted(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("head -c 10485760 /dev/zero >&2; exit 2")]),
    ));
    let payload = json!({
        "session_id": "s", "transcript_path": p.path("no-transcript.jsonl"), "cwd": p.root,
        "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "ls"}
    });
    let ran = p.output(p.cmd(["run", "--agent", "gemini"]), payload.to_string());
    let sent = ran.output.stdout.len();
    assert!(sent <= 16 << 10, "{sent} bytes: {}", ran.stderr());
    let answer = ran.json();
    assert_eq!(answer["decision"], "deny", "{answer}");
    let reason = answer["reason"].as_str().expect("a reason");
    assert!(reason.starts_with('\0') && reason.ends_with("[cut by agenthooks]"));
    ran.assert_stderr_contains("bytes of the hook's reason as sent; cut from");
}
