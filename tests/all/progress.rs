//! Progress on long work (issue 26, item 5): on a terminal, `compile` shows
//! what runs and for how long while it runs, and `install` waits for the
//! compiles that warm the cache with their progress; with stderr not a
//! terminal, or with `--quiet`, nothing but the result, printed once.
//!
//! The terminal is a real pty: the binary runs under `script(1)`, which
//! gives it one and copies what it draws to stdout.

use std::process::Command;

use crate::util::{bin, TempProject};

/// A small real hook component (the tests' `deny` guest).
fn component_bytes() -> Vec<u8> {
    std::fs::read(crate::wasm::guest("deny")).unwrap()
}

/// `agenthooks ARGS` on a pty, with the project's isolated environment:
/// everything the terminal showed, or `None` without `script`.
fn on_a_pty(p: &TempProject, args: &str) -> Option<String> {
    let script = ["/usr/bin/script", "/bin/script"]
        .into_iter()
        .find(|s| std::path::Path::new(s).is_file())?;
    let mut cmd: Command = p.isolated(script);
    cmd.args(["-qec", &format!("{} {args}", bin()), "/dev/null"]);
    let out = cmd.output().expect("run script");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn compile_shows_progress_on_a_terminal_only() {
    let p = TempProject::new();
    p.write("hooks/a.wasm", component_bytes());
    let Some(shown) = on_a_pty(&p, "compile hooks/a.wasm") else {
        eprintln!("skipped: no `script` to give the binary a terminal");
        return;
    };
    assert!(shown.contains("compiling `hooks/a.wasm`"), "{shown:?}");
    // The spinner's clock, then the line cleared before the result.
    assert!(shown.contains("(0s)"), "{shown:?}");
    assert_eq!(shown.matches("hooks/a.wasm: ").count(), 1, "{shown:?}");

    let quiet = on_a_pty(&p, "compile --quiet hooks/a.wasm").unwrap();
    assert!(!quiet.contains("compiling `"), "{quiet:?}");
    assert!(quiet.contains("hooks/a.wasm: cache hit"), "{quiet:?}");

    // Not a terminal: the result alone.
    let piped = p.output(p.cmd(["compile", "hooks/a.wasm"]), "");
    assert_eq!(piped.code(), 0);
    assert!(!piped.stderr().contains("compiling"), "{}", piped.stderr());
    assert_eq!(piped.stdout().lines().count(), 1, "{}", piped.stdout());
}

#[test]
fn install_waits_for_the_warm_up_with_progress_on_a_terminal_only() {
    let p = TempProject::new();
    let component = p.home.join(".agents/hooks/deny.wasm");
    std::fs::create_dir_all(component.parent().unwrap()).unwrap();
    std::fs::write(&component, component_bytes()).unwrap();
    p.user_hooks(&crate::util::hooks(
        "PreToolUse",
        "Bash",
        serde_json::json!([{"type": "wasm", "component": component, "timeout": 120}]),
    ));
    let Some(shown) = on_a_pty(&p, "install --user claude") else {
        eprintln!("skipped: no `script` to give the binary a terminal");
        return;
    };
    assert!(
        shown.contains("compiling 1 wasm component in the background"),
        "{shown:?}"
    );
    assert!(
        shown.contains("warming the compile cache: 0 of 1 compiled"),
        "{shown:?}"
    );
    // It waited: the cache holds the compiled entry now.
    let listed = p.output(p.cmd(["cache"]), "");
    assert!(listed.stdout().contains("1 entry"), "{}", listed.stdout());

    // Not a terminal: no progress, and no waiting on it.
    let q = TempProject::new();
    let piped = q.output(q.cmd(["install", "--user", "claude"]), "");
    assert_eq!(piped.code(), 0, "{}", piped.stderr());
    assert!(!piped.stderr().contains("warming"), "{}", piped.stderr());
}
