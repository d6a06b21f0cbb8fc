//! Hostile files: a cloned repository's `.agents/hooks.json`, scripts and
//! payload files that are FIFOs, symlinks to `/dev/zero`, gigabytes of sparse
//! zeros or the wrong JSON never stall `run`, `fire` or `check`, and never
//! keep the user's own hooks from deciding (issue 9, items 2 and 3).
//!
//! Every run is bounded by a timeout far below what the unbounded reads took
//! (a hang until killed, or 10 s and 2 GB for a sparse file), so a regression
//! fails the test instead of hanging it.

#![cfg(unix)]

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{command, hooks, Ran, TempProject};

/// Long enough for a loaded machine, far shorter than a hang.
const BOUND: Duration = Duration::from_secs(10);

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().expect("a UTF-8 path")).expect("no NUL");
    // SAFETY: mkfifo(3) reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path)
        .expect("create")
        .set_len(len)
        .expect("a sparse file");
}

/// A project with a user-scope guard that denies every Bash call, and a
/// project `hooks.json` made by `make`.
fn guarded(make: impl FnOnce(&Path)) -> TempProject {
    let p = TempProject::new();
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo 'the user guard says no' >&2; exit 2")]),
    ));
    make(&p.path(".agents/hooks.json"));
    p
}

fn run_bounded(p: &TempProject, args: &[&str], stdin: impl Into<Vec<u8>>) -> Ran {
    let mut cmd = p.cmd(args);
    cmd.timeout(BOUND);
    p.output(cmd, stdin)
}

/// The user guard still denies, and stderr has exactly one line naming the
/// project file, saying `says`.
fn assert_user_guard_denies_with_one_note(p: &TempProject, says: &str) {
    let ran = run_bounded(p, &["run", "--agent", "claude"], p.bash("ls").to_string());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let answer: Value = ran.json();
    let hso = &answer["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "deny", "{}", ran.stderr());
    assert_eq!(hso["permissionDecisionReason"], "the user guard says no");
    let file = p.path(".agents/hooks.json").display().to_string();
    let stderr = ran.stderr();
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains(&file)).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains(says), "{stderr}");
}

#[test]
fn a_project_hooks_json_linked_to_dev_zero_leaves_the_user_guard_deciding() {
    let p = guarded(|f| std::os::unix::fs::symlink("/dev/zero", f).expect("symlink"));
    assert_user_guard_denies_with_one_note(&p, "is a device, not a regular file");
}

#[test]
fn a_project_hooks_json_that_is_a_fifo_leaves_the_user_guard_deciding() {
    let p = guarded(mkfifo);
    assert_user_guard_denies_with_one_note(&p, "is a FIFO, not a regular file");
}

#[test]
fn a_2_gib_sparse_project_hooks_json_is_refused_by_its_size() {
    let p = guarded(|f| sparse(f, 2 << 30));
    assert_user_guard_denies_with_one_note(&p, "is 2147483648 bytes, over the 4194304-byte limit");
}

#[test]
fn a_project_hooks_json_that_is_an_array_is_named_not_taken_silently() {
    let p = guarded(|f| {
        let inner = hooks("PreToolUse", "Bash", json!([command("exit 0")]));
        std::fs::write(f, json!([inner]).to_string()).expect("write");
    });
    assert_user_guard_denies_with_one_note(&p, "the top level is an array, not an object");
}

#[test]
fn fire_and_check_return_on_a_fifo_project_hooks_json() {
    let p = guarded(mkfifo);
    let fired = run_bounded(
        &p,
        &[
            "fire",
            "PreToolUse",
            "--tool",
            "Bash",
            "--input",
            r#"{"command":"ls"}"#,
        ],
        "",
    );
    assert_eq!(fired.code(), 0, "{}", fired.stderr());
    assert!(fired.stdout().contains("is a FIFO"), "{}", fired.stdout());
    assert!(
        fired.stdout().contains("the user guard says no"),
        "{}",
        fired.stdout()
    );

    // A file that cannot be read is bad input: 2, as in `status` and `compile`.
    let checked = run_bounded(&p, &["check"], "");
    assert_eq!(checked.code(), 2, "{}", checked.stdout());
    assert!(
        checked.stdout().contains("is a FIFO"),
        "{}",
        checked.stdout()
    );
}

#[test]
fn fire_refuses_an_input_file_that_is_dev_zero_or_a_fifo() {
    let p = TempProject::new();
    let fifo = p.path("payload.fifo");
    mkfifo(&fifo);
    for (file, says) in [
        (Path::new("/dev/zero"), "is a device, not a regular file"),
        (fifo.as_path(), "is a FIFO, not a regular file"),
    ] {
        let file = file.to_str().expect("UTF-8");
        let ran = run_bounded(&p, &["fire", "PreToolUse", "--input-file", file], "");
        assert_eq!(ran.code(), 2, "{}", ran.stderr());
        ran.assert_stderr_contains(says);
        ran.assert_stderr_contains("--input-file");
    }
}

#[test]
fn a_trusted_script_replaced_by_a_fifo_or_a_huge_file_counts_as_changed() {
    let p = TempProject::new();
    let script = p.script("check.sh", "echo ran >> \"$HOME/check-ran\"");
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("\"$CLAUDE_PROJECT_DIR\"/.agents/hooks/check.sh")]),
    ));
    p.trust();
    let marker = p.home.join("check-ran");
    run_bounded(&p, &["run", "--agent", "claude"], p.bash("ls").to_string());
    assert_eq!(std::fs::read_to_string(&marker).expect("it ran"), "ran\n");

    let huge = |f: &Path| sparse(f, 2 << 30);
    let replacements = [
        (mkfifo as fn(&Path), "is a FIFO, not a regular file"),
        (huge, "is 2147483648 bytes, over the 16777216-byte limit"),
    ];
    for (replace, says) in replacements {
        std::fs::remove_file(&script).expect("remove the script");
        replace(&script);
        let ran = run_bounded(&p, &["run", "--agent", "claude"], p.bash("ls").to_string());
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
        // Untrusted now, so it did not run.
        assert_eq!(std::fs::read_to_string(&marker).expect("ran once"), "ran\n");
        ran.assert_stderr_contains(&format!("counts as changed: `{}` {says}", script.display()));
        ran.assert_stderr_contains("agenthooks trust");
    }
}

#[test]
fn check_prints_each_finding_on_one_bounded_line() {
    // A 100,000-character event name with line breaks in it: `check` names it
    // in a warning, cut to one line instead of echoing the whole name.
    let name = format!("Pre\n{}", "x".repeat(100_000));
    let p = guarded(|path| {
        let mut hooks = serde_json::Map::new();
        hooks.insert(name.clone(), json!([]));
        std::fs::write(path, json!({ "hooks": hooks }).to_string()).expect("write");
    });
    let checked = run_bounded(&p, &["check"], "");
    assert_eq!(checked.code(), 1, "{}", checked.stdout());
    let stdout = checked.stdout();
    assert!(stdout.contains("xxxx"), "the event is named: {stdout}");
    for line in stdout.lines() {
        assert!(
            line.chars().count() <= 2 * agenthooks::protocol::NOTE_MAX_CHARS,
            "a line of {} characters",
            line.chars().count()
        );
    }
}

#[test]
fn trust_names_a_hook_it_cannot_fingerprint_and_exits_1() {
    let p = TempProject::new();
    let script = p.script("check.sh", "exit 0");
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([
            command("\"$CLAUDE_PROJECT_DIR\"/.agents/hooks/check.sh"),
            command("true"),
        ]),
    ));
    std::fs::remove_file(&script).expect("remove the script");
    mkfifo(&script);
    let ran = run_bounded(&p, &["trust", "--yes"], "");
    // Before, it said "Trusted 1 hook" and exited 0: the FIFO hook was left
    // out without a word.
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    let stdout = ran.stdout();
    assert!(stdout.contains("Trusted 1 hook"), "{stdout}");
    let named: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("was not trusted") && l.contains("is a FIFO"))
        .collect();
    assert_eq!(named.len(), 1, "{stdout}");
}
