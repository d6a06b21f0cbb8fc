//! `agenthooks new` and `agenthooks build`: a hook crate created inside the
//! project, built with one command into the component hooks.json names, and
//! fired through the real pipeline.
//!
//! [`new_build_fire_with_no_flags`] builds a real SDK component with cargo
//! (wasm32-wasip2, release): slow the first time (about a minute on two
//! cores), incremental after, in `target/examples`, which the examples tests
//! share, so the SDK is built for wasm once per test run. It runs cargo
//! offline, so the SDK's dependencies must be in the local registry cache (a
//! workspace build puts them there).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::util::{hooks, repo_root, Ran, TempProject};

/// The cargo and rustup homes of the machine: the tests give `HOME` a
/// temporary directory, where neither the toolchain nor the registry cache is.
fn with_toolchain(cmd: &mut assert_cmd::Command) {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let cargo_home =
        std::env::var_os("CARGO_HOME").map_or_else(|| home.join(".cargo"), PathBuf::from);
    let rustup_home =
        std::env::var_os("RUSTUP_HOME").map_or_else(|| home.join(".rustup"), PathBuf::from);
    cmd.env("CARGO_HOME", cargo_home)
        .env("RUSTUP_HOME", rustup_home)
        .env("CARGO_NET_OFFLINE", "true")
        // Instrumentation flags of the host build do not belong in a guest.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .timeout(std::time::Duration::from_secs(900));
}

/// The path in backquotes after `label` on a line of `text`.
fn quoted_after(text: &str, label: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no line starting {label:?} in: {text}"));
    line.split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no `path` on {line:?}"))
        .to_string()
}

fn ok(ran: &Ran) {
    assert_eq!(
        ran.code(),
        0,
        "stdout: {}\nstderr: {}",
        ran.stdout(),
        ran.stderr()
    );
}

#[test]
fn the_sdk_carries_the_same_wit_as_the_host() {
    let list = |dir: &Path| {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| {
                let e = e.expect("a directory entry");
                let bytes = std::fs::read(e.path()).expect("read a WIT file");
                (e.file_name().to_string_lossy().into_owned(), bytes)
            })
            .collect();
        files.sort();
        files
    };
    let host = list(&repo_root().join("wit"));
    let sdk = list(&repo_root().join("sdk/wit"));
    assert!(!host.is_empty());
    for ((h_name, h), (s_name, s)) in host.iter().zip(&sdk) {
        assert_eq!(h_name, s_name, "wit/ and sdk/wit/ hold different files");
        assert!(
            h == s,
            "sdk/wit/{s_name} differs from wit/{h_name}: copy wit/ to sdk/wit/ (the SDK \
             carries its own copy so that it can be packaged)"
        );
    }
    assert_eq!(
        host.len(),
        sdk.len(),
        "wit/ and sdk/wit/ hold different files"
    );
}

#[test]
fn new_puts_the_crate_in_the_project_and_lists_it_in_a_new_hooks_json() {
    let p = TempProject::new();
    let sub = p.path("src/deep");
    std::fs::create_dir_all(&sub).expect("create a subdirectory");
    let mut cmd = p.cmd(["new", "guard"]);
    cmd.current_dir(&sub);
    let ran = p.output(cmd, "");
    ok(&ran);
    let krate = p.path(".agents/hooks/guard");
    assert!(krate.join("Cargo.toml").is_file(), "{}", ran.stdout());
    assert!(krate.join("src/main.rs").is_file());
    // The SDK of the checkout this binary was built from, found at run time.
    let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).expect("read Cargo.toml");
    let sdk = repo_root().join("sdk").canonicalize().expect("the SDK");
    assert!(
        manifest.contains(&format!(
            "agenthooks-sdk = {{ path = \"{}\" }}",
            sdk.display()
        )),
        "{manifest}"
    );
    // The printed component is the one hooks.json names, next to the crate.
    let printed = quoted_after(&ran.stdout(), "its component:");
    assert_eq!(
        sub.join(&printed).canonicalize().ok(),
        None,
        "not built yet"
    );
    assert_eq!(
        std::fs::canonicalize(sub.join(&printed).parent().unwrap()).unwrap(),
        p.path(".agents/hooks")
    );
    let config: Value = serde_json::from_slice(
        &std::fs::read(p.path(".agents/hooks.json")).expect("hooks.json was created"),
    )
    .expect("hooks.json is JSON");
    assert_eq!(
        config["hooks"]["PreToolUse"][0]["hooks"][0],
        json!({"type": "wasm", "component": ".agents/hooks/guard.wasm", "timeout": 5})
    );
    assert_eq!(config["$schema"], "agenthooks");
    assert!(
        ran.stdout().contains("agenthooks build guard"),
        "{}",
        ran.stdout()
    );

    // An existing hooks.json is the user's: one that is not JSON is left byte
    // for byte and the entry printed to paste ...
    let before = b"{ \"hooks\": {} }\n// mine\n";
    std::fs::write(p.path(".agents/hooks.json"), before).expect("write hooks.json");
    let ran = p.output(p.cmd(["new", "second"]), "");
    ok(&ran);
    assert_eq!(std::fs::read(p.path(".agents/hooks.json")).unwrap(), before);
    assert!(
        ran.stdout().contains("\".agents/hooks/second.wasm\""),
        "{}",
        ran.stdout()
    );
    // ... and a valid one gets the entry merged, with all of its bytes kept.
    let before = "{ \"onError\": \"allow\",\n  \"hooks\": {} }\n";
    std::fs::write(p.path(".agents/hooks.json"), before).expect("write hooks.json");
    let ran = p.output(p.cmd(["new", "third"]), "");
    ok(&ran);
    assert!(ran.stdout().contains("added to `"), "{}", ran.stdout());
    let after = std::fs::read_to_string(p.path(".agents/hooks.json")).unwrap();
    assert!(
        after.starts_with("{ \"onError\": \"allow\",\n  \"hooks\": {"),
        "{after}"
    );
    let config: Value = serde_json::from_str(&after).expect("still JSON");
    assert_eq!(
        config["hooks"]["PreToolUse"][0],
        json!({"matcher": "Bash", "hooks": [
            {"type": "wasm", "component": ".agents/hooks/third.wasm", "timeout": 5}
        ]})
    );
    // The same name again is refused, and nothing is overwritten.
    let ran = p.output(p.cmd(["new", "guard"]), "");
    assert_eq!(ran.code(), 2);
    ran.assert_stderr_contains("already exists and is not empty");
}

#[test]
fn an_sdk_inside_the_project_is_a_relative_path_dependency() {
    // As in this repository, or a project that vendors agenthooks: the
    // dependency must hold in every clone, wherever it sits.
    let p = TempProject::new();
    p.write(
        "vendor/agenthooks/sdk/Cargo.toml",
        "[package]\nname = \"agenthooks-sdk\"\n",
    );
    let ran = p.output(
        p.cmd(["new", "rel", "--sdk-path", "vendor/agenthooks/sdk"]),
        "",
    );
    ok(&ran);
    let manifest = std::fs::read_to_string(p.path(".agents/hooks/rel/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("agenthooks-sdk = { path = \"../../../vendor/agenthooks/sdk\" }"),
        "{manifest}"
    );
}

#[test]
fn build_names_what_it_cannot_build() {
    let p = TempProject::new();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": ".agents/hooks/prebuilt.wasm"}]),
    ));
    // A component with no crate beside it is somebody else's: left alone.
    let ran = p.output(p.cmd(["build"]), "");
    ok(&ran);
    assert!(
        ran.stdout()
            .contains(".agents/hooks/prebuilt.wasm: no crate at `.agents/hooks/prebuilt/`"),
        "{}",
        ran.stdout()
    );
    // Asked for by name, it is a failure; an unknown name is bad usage.
    assert_eq!(p.output(p.cmd(["build", "prebuilt"]), "").code(), 1);
    let ran = p.output(p.cmd(["build", "nope"]), "");
    assert_eq!(ran.code(), 2);
    ran.assert_stderr_contains("no wasm handler in hooks.json names a component `nope.wasm`");
    // A hooks.json that does not parse may hide hooks: a finding, naming the file.
    p.write(".agents/hooks.json", "{\"hooks\": {},}\n");
    let ran = p.output(p.cmd(["build"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    ran.assert_stderr_contains("hooks.json");
}

/// A dependency-free crate builds fast; its component is a plain WASI program,
/// not a hook, so it is copied into place and then reported as not loading.
#[test]
fn build_finds_the_component_where_cargo_put_it_and_copies_it_into_place() {
    let p = TempProject::new();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": ".agents/hooks/plain.wasm"}]),
    ));
    p.write(
        ".agents/hooks/plain/Cargo.toml",
        "[package]\nname = \"plain\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    p.write(".agents/hooks/plain/src/main.rs", "fn main() {}\n");
    let elsewhere = p.tmp().join("elsewhere");
    let mut cmd = p.cmd(["build"]);
    with_toolchain(&mut cmd);
    cmd.env("CARGO_TARGET_DIR", &elsewhere);
    let ran = p.output(cmd, "");
    let component = p.path(".agents/hooks/plain.wasm");
    let bytes = std::fs::read(&component)
        .unwrap_or_else(|e| panic!("no component ({e}): {}\n{}", ran.stdout(), ran.stderr()));
    assert!(bytes.starts_with(b"\0asm"));
    assert_eq!(
        bytes,
        std::fs::read(elsewhere.join("wasm32-wasip2/release/plain.wasm")).unwrap()
    );
    assert!(!p.path(".agents/hooks/plain/target").exists());
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    assert!(
        ran.stdout()
            .contains(".agents/hooks/plain.wasm: built from `.agents/hooks/plain/`"),
        "{}",
        ran.stdout()
    );
    assert!(
        ran.stdout().contains("but it does not load"),
        "{}",
        ran.stdout()
    );
    // A crate that does not compile: cargo's errors, then one line naming it.
    p.write(".agents/hooks/plain/src/main.rs", "fn main() {\n");
    let mut cmd = p.cmd(["build", "plain"]);
    with_toolchain(&mut cmd);
    cmd.env("CARGO_TARGET_DIR", &elsewhere);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 1);
    assert!(
        ran.stdout()
            .contains(".agents/hooks/plain.wasm: failed: `cargo build --release --target wasm32-wasip2` failed"),
        "{}",
        ran.stdout()
    );
    ran.assert_stderr_contains("error");
    // The line names the real cause: the first error cargo gave.
    assert!(
        ran.stdout()
            .contains("failed: error: this file contains an unclosed delimiter"),
        "{}",
        ran.stdout()
    );
    // The last good component stays in place.
    assert_eq!(std::fs::read(&component).unwrap(), bytes);
}

/// `new` (no flags) + `build` + `fire`: the scaffold's hook denies a force
/// push. Builds a real SDK component with cargo.
#[test]
fn new_build_fire_with_no_flags() {
    let p = TempProject::new();
    let ran = p.output(p.cmd(["new", "no-force"]), "");
    ok(&ran);
    let printed = p.path(&quoted_after(&ran.stdout(), "its component:"));
    assert!(!printed.exists());

    let mut cmd = p.cmd(["build"]);
    with_toolchain(&mut cmd);
    // Shared between runs so that a second run is incremental; also shows
    // that the component is found wherever the target directory is.
    cmd.env("CARGO_TARGET_DIR", repo_root().join("target/examples"));
    let ran = p.output(cmd, "");
    ok(&ran);
    assert!(printed.is_file(), "{}", ran.stdout());
    assert!(
        ran.stdout()
            .contains("no-force.wasm: built from `.agents/hooks/no-force/`"),
        "{}",
        ran.stdout()
    );
    assert!(!ran.stdout().contains("does not load"), "{}", ran.stdout());

    let fire = |command: &str| {
        let input = json!({ "command": command }).to_string();
        p.output(
            p.cmd(["fire", "PreToolUse", "--tool", "Bash", "--input", &input]),
            "",
        )
    };
    let ran = fire("git push --force origin main");
    ok(&ran);
    let stdout = ran.stdout();
    assert!(
        stdout.contains("\"permissionDecision\":\"deny\""),
        "{stdout}"
    );
    assert!(
        stdout.contains("no-force: force-pushing rewrites shared history"),
        "{stdout}"
    );
    // The build warmed the compile cache the fire uses.
    assert!(!stdout.contains("failed"), "{stdout}");
    let ran = fire("git push origin feature");
    ok(&ran);
    assert!(!ran.stdout().contains("deny"), "{}", ran.stdout());
}

/// `sdk/` packages on its own (its WIT included): what `cargo publish` would upload.
#[test]
fn the_sdk_packages() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["package", "--list", "--allow-dirty", "-p", "agenthooks-sdk"])
        .arg("--manifest-path")
        .arg(repo_root().join("Cargo.toml"))
        .env("CARGO_NET_OFFLINE", "true")
        .output()
        .expect("run cargo package");
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{list}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(list.lines().any(|l| l == "wit/hook.wit"), "{list}");
}

/// This repository's own `.agents/` works in a fresh clone: its components
/// are committed (not built by `scripts/demo.sh` first), and they answer.
#[test]
fn the_repositorys_own_components_are_committed_and_run() {
    let out = Command::new("git")
        .args(["ls-files", "--", ".agents"])
        .current_dir(repo_root())
        .output()
        .expect("run git ls-files");
    let tracked = String::from_utf8_lossy(&out.stdout);
    let config: Value = serde_json::from_slice(
        &std::fs::read(repo_root().join(".agents/hooks.json")).expect("read .agents/hooks.json"),
    )
    .expect("the repository's hooks.json is JSON");
    let mut components: Vec<String> = Vec::new();
    let mut stack = vec![&config];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if let Some(Value::String(c)) = map.get("component") {
                    components.push(c.clone());
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    assert!(!components.is_empty());
    for c in &components {
        assert!(
            tracked.lines().any(|l| l == c),
            "{c} is not committed, so a fresh clone lacks it: {tracked}"
        );
    }
    // A copy of what a clone has, fired at: the guard denies.
    let p = TempProject::new();
    p.write(
        ".agents/hooks.json",
        std::fs::read(repo_root().join(".agents/hooks.json")).unwrap(),
    );
    for c in &components {
        p.write(c, std::fs::read(repo_root().join(c)).unwrap());
    }
    // Warm the compile cache first, as `trust` and `install` do on a
    // teammate's machine: a cold compile by the debug-built engine on a busy
    // machine can outlast the hooks' 5 s timeout, and then the event allows
    // with a still-compiling note (the deadline includes compiling).
    let mut compile = p.cmd(["compile"]);
    compile.env("XDG_CACHE_HOME", crate::wasm::xdg_cache());
    ok(&p.output(compile, ""));
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("XDG_CACHE_HOME", crate::wasm::xdg_cache());
    let ran = p.output(cmd, p.bash("rm -rf /").to_string());
    ok(&ran);
    let answer = ran.json();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    assert!(
        answer["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.starts_with("dangerous-command-guard:")),
        "{answer}"
    );
}
