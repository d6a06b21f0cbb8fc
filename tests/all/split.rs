//! The small `agenthooks` front and the `agenthooks-engine` it hands off to:
//! command hooks, and events no hook selects, are answered by the front
//! alone; an event needing another kind goes to the engine, with the
//! payload exactly as the agent sent it; every other command is the
//! engine's; what install writes names the front.
//!
//! The engine is replaced (`AGENTHOOKS_ENGINE`) by a missing path, or by a
//! script that records its arguments and stdin before running the real one.

use std::net::TcpListener;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::util::{self, TempProject};

/// The engine cargo built beside the front.
fn engine() -> &'static str {
    env!("CARGO_BIN_EXE_agenthooks-engine")
}

/// A base URL nothing listens on: a prompt hook sent there fails at once.
fn closed_port() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}")
}

/// A command hook recording its stdin, and (when `prompt_at` is given) a
/// prompt hook whose model is at that base URL: a kind the front does not run.
fn project(prompt_at: Option<&str>) -> TempProject {
    let p = TempProject::new();
    let record = format!("cat > '{}'", p.path("seen.json").display());
    let mut handlers = vec![util::command(&record)];
    if prompt_at.is_some() {
        handlers.push(json!({"type": "prompt", "prompt": "Safe? $ARGUMENTS", "timeout": 5}));
    }
    p.user_hooks(&util::hooks("PreToolUse", "", json!(handlers)));
    p
}

/// `run --agent claude` with `payload`, the engine at `engine`, the model
/// (if any) at `base`.
fn run(p: &TempProject, engine: &Path, base: &str, payload: &[u8]) -> util::Ran {
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("AGENTHOOKS_ENGINE", engine)
        .env("ANTHROPIC_BASE_URL", base)
        .env("ANTHROPIC_API_KEY", "sk-test")
        .env_remove("HTTPS_PROXY")
        .env_remove("https_proxy")
        .env_remove("ALL_PROXY")
        .env_remove("all_proxy");
    p.output(cmd, payload.to_vec())
}

/// A stand-in engine recording its arguments and stdin in `dir`, then
/// running the real engine on what it recorded.
#[cfg(unix)]
fn recording_engine(p: &TempProject) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = p.tmp().join("engine");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("engine.sh");
    let body = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{d}/args'\ncat > '{d}/stdin'\nexec '{e}' \"$@\" < '{d}/stdin'\n",
        d = dir.display(),
        e = engine()
    );
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[cfg(unix)]
#[test]
fn command_hooks_run_in_the_front_without_the_engine() {
    let p = project(None);
    let engine = recording_engine(&p);
    let payload = p.bash("ls").to_string();
    let ran = run(&p, &engine, "http://127.0.0.1:9", payload.as_bytes());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(ran.stderr(), "");
    assert!(p.path("seen.json").exists(), "the command hook did not run");
    assert!(
        !p.tmp().join("engine/args").exists(),
        "the engine was started for a command hook"
    );
    // And with no engine at all: the same answer, no note.
    let gone = p.tmp().join("no-such-engine");
    let ran = run(&p, &gone, "http://127.0.0.1:9", payload.as_bytes());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!((ran.stdout(), ran.stderr()), (String::new(), String::new()));
    // Nothing selected: nothing to hand off either.
    let ran = run(&p, &gone, "", p.prompt("hi").to_string().as_bytes());
    assert_eq!((ran.code(), ran.stderr()), (0, String::new()));
}

#[test]
fn an_event_the_front_cannot_run_without_an_engine_allows_and_says_so_in_the_agent() {
    let p = project(Some("unused"));
    let gone = p.tmp().join("no-such-engine");
    let ran = run(
        &p,
        &gone,
        &closed_port(),
        p.bash("ls").to_string().as_bytes(),
    );
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let stderr = ran.stderr();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("agenthooks: the engine `"), "{stderr}");
    assert!(stderr.contains("no-such-engine"), "{stderr}");
    assert!(
        stderr.contains("reinstall: curl -LsSf https://github.com/agenthooks/agenthooks/releases/latest/download/install.sh | sh"),
        "{stderr}"
    );
    assert!(stderr.contains("did not run (allowed)"), "{stderr}");
    // The hooks that did not run are said in the agent too: Claude Code
    // shows a `systemMessage`, and nothing decides for the tool.
    let stdout = ran.stdout();
    let answer: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let message = answer["systemMessage"].as_str().unwrap_or_default();
    assert!(message.starts_with("agenthooks: the engine `"), "{answer}");
    assert!(message.contains("did not run (allowed)"), "{answer}");
    assert!(answer.get("hookSpecificOutput").is_none(), "{answer}");
    // Handed off before anything ran: the command hook beside it did not.
    assert!(!p.path("seen.json").exists());
}

/// Http hooks are the engine's: the front links no TLS stack (rustls,
/// ring and ureq were a third of its start-up relocations).
#[test]
fn an_http_hook_goes_to_the_engine() {
    let p = TempProject::new();
    let url = format!("{}/hook", closed_port());
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "",
        json!([{"type": "http", "url": url, "timeout": 5}]),
    ));
    let payload = p.bash("ls").to_string();
    let gone = p.tmp().join("no-such-engine");
    let ran = run(&p, &gone, "", payload.as_bytes());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let stderr = ran.stderr();
    assert!(stderr.starts_with("agenthooks: the engine `"), "{stderr}");
    assert!(stderr.contains("no-such-engine"), "{stderr}");
    // With the engine, the hook runs there: its request fails on the closed port.
    let ran = run(&p, Path::new(engine()), "", payload.as_bytes());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(!ran.stderr().contains("the engine `"), "{}", ran.stderr());
}

#[cfg(unix)]
#[test]
fn the_engine_gets_the_payload_exactly_and_answers_as_before() {
    let p = project(Some("unused"));
    let engine = recording_engine(&p);
    // Bytes a re-encoding would change: spacing, escapes, key order, and
    // more than a pipe holds, and stdin left open after the value would not
    // matter (the front reads to the value's end).
    let mut payload = p.bash("ls");
    payload["zz_big"] = json!("x".repeat(200 << 10));
    payload["a_escaped"] = json!("caf\u{e9} \u{2028} \"q\"");
    let text = format!("  {}\n", serde_json::to_string_pretty(&payload).unwrap());
    let base = closed_port();
    let ran = run(&p, &engine, &base, text.as_bytes());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let dir = p.tmp().join("engine");
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    assert_eq!(args, "run\n--agent\nclaude\n");
    // The front reads up to the end of the JSON value; that is what it passes.
    let stdin = std::fs::read(dir.join("stdin")).unwrap();
    assert_eq!(stdin, text.trim_end().as_bytes());
    // The engine ran both hooks: the prompt hook's failure is its note, and
    // the command hook saw the event as the front would have given it.
    assert!(
        ran.stderr().contains("model request failed"),
        "{}",
        ran.stderr()
    );
    let seen: Value = serde_json::from_slice(&std::fs::read(p.path("seen.json")).unwrap()).unwrap();
    assert_eq!(seen["zz_big"], payload["zz_big"]);
    assert_eq!(seen["a_escaped"], payload["a_escaped"]);
    // The same event run by the front alone gives the command hook the same input.
    let front_only = project(None);
    let ran = run(&front_only, &engine, &base, text.as_bytes());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let alone: Value =
        serde_json::from_slice(&std::fs::read(front_only.path("seen.json")).unwrap()).unwrap();
    let strip = |mut v: Value| {
        // Paths of each project differ; the rest must not.
        for key in ["cwd", "transcript_path"] {
            v.as_object_mut().unwrap().remove(key);
        }
        v
    };
    assert_eq!(strip(seen), strip(alone));
}

/// `agenthooks-engine ARG` in `p`, as [`TempProject::cmd`] runs the front.
fn engine_cmd(p: &TempProject, arg: &str) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::from_std(p.isolated(engine()));
    cmd.arg(arg).timeout(std::time::Duration::from_secs(60));
    cmd
}

#[test]
fn other_commands_are_the_engines() {
    let p = TempProject::new();
    let version = p.output(p.cmd(["--version"]), "");
    let engine_version = p.output(engine_cmd(&p, "--version"), "");
    assert_eq!(version.code(), 0, "{}", version.stderr());
    assert_eq!(version.stdout(), engine_version.stdout());
    assert!(version.stdout().starts_with("agenthooks "));
    let status = p.output(p.cmd(["status"]), "");
    let engine_status = p.output(engine_cmd(&p, "status"), "");
    assert_eq!(status.code(), engine_status.code(), "{}", status.stderr());
    assert_eq!(status.stdout(), engine_status.stdout());
    // A `run` line the front does not parse is the engine's too: its message.
    let typo = p.output(p.cmd(["run", "--agnet", "claude"]), "{}");
    assert_eq!(typo.code(), 0);
    assert!(typo.stderr().contains("--agnet"), "{}", typo.stderr());
    // Without an engine: one line naming it and the fix, exit 1.
    let mut cmd = p.cmd(["status"]);
    cmd.env("AGENTHOOKS_ENGINE", p.tmp().join("no-such-engine"));
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 1);
    assert_eq!(ran.stderr().lines().count(), 1, "{}", ran.stderr());
    assert!(ran.stderr().contains("no-such-engine"), "{}", ran.stderr());
    assert!(ran
        .stderr()
        .contains("/releases/latest/download/install.sh | sh"));
}

#[test]
fn install_names_the_front_for_command_hooks_and_the_engine_when_a_hook_needs_it() {
    let p = TempProject::new();
    p.project_hooks(&util::hooks("Stop", "", json!([util::command("true")])));
    let ran = p.output(p.cmd(["install", "--user", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let settings = std::fs::read_to_string(p.home.join(".claude/settings.json")).unwrap();
    let front = Path::new(util::bin()).canonicalize().unwrap();
    let quoted = |path: &Path| {
        let json = serde_json::to_string(path.to_str().unwrap()).unwrap();
        json.trim_matches('"').to_string()
    };
    assert!(settings.contains(&quoted(&front)), "{settings}");
    assert!(!settings.contains("agenthooks-engine"), "{settings}");
    // An http hook is the engine's: through the front, each event would
    // start two processes, so the entries call the engine beside it.
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "http", "url": "http://127.0.0.1:9/hook"}]),
    ));
    let ran = p.output(p.cmd(["install", "--user", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let settings = std::fs::read_to_string(p.home.join(".claude/settings.json")).unwrap();
    let engine = front.with_file_name(format!("agenthooks-engine{}", std::env::consts::EXE_SUFFIX));
    assert!(settings.contains(&quoted(&engine)), "{settings}");
    assert!(
        !settings.contains(&format!("{}\\\"", quoted(&front))),
        "{settings}"
    );
    // Per entry: the session start (which warms the compile cache) and
    // the http hook's tool call start the engine; the project's Stop hook
    // is a command hook: the front.
    let doc: Value = serde_json::from_str(&settings).unwrap();
    let calls = |event: &str| -> Vec<(String, bool)> {
        doc["hooks"][event]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let command = g["hooks"][0]["command"].as_str().unwrap();
                (
                    g["matcher"].as_str().unwrap().to_string(),
                    command.contains("agenthooks-engine run --agent claude"),
                )
            })
            .collect()
    };
    assert_eq!(
        calls("SessionStart"),
        [("*".to_string(), true)],
        "{settings}"
    );
    assert_eq!(
        calls("PreToolUse"),
        [("Bash".to_string(), true)],
        "{settings}"
    );
    assert_eq!(calls("Stop"), [("*".to_string(), false)], "{settings}");
}

/// A package's copy says how it was installed: `scripts/dist/pack.py`
/// rewrites the marker in both binaries, and `--version` (which the front
/// hands to the engine beside it) names the target and that package manager;
/// the engine-missing hint then names that package manager's line.
#[test]
fn version_names_the_target_and_how_a_package_installed_it() {
    use agenthooks::origin::{MARKER_PREFIX, TARGET};
    let dir = tempfile::tempdir().unwrap();
    let exe = std::env::consts::EXE_SUFFIX;
    let mut copies = Vec::new();
    for (name, from) in [
        ("agenthooks", env!("CARGO_BIN_EXE_agenthooks")),
        ("agenthooks-engine", engine()),
    ] {
        let mut bytes = std::fs::read(from).unwrap();
        let at = bytes
            .windows(MARKER_PREFIX.len())
            .position(|w| w == MARKER_PREFIX.as_bytes())
            .expect("the binary carries the install marker")
            + MARKER_PREFIX.len();
        assert_eq!(&bytes[at..at + 8], b"cargo   ", "{name}");
        bytes[at..at + 8].copy_from_slice(b"npm     ");
        let to = dir.path().join(format!("{name}{exe}"));
        std::fs::write(&to, bytes).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        copies.push(to);
    }
    let version = |bin: &Path| {
        let out = std::process::Command::new(bin)
            .arg("--version")
            .env_remove("AGENTHOOKS_ENGINE")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let built = version(Path::new(env!("CARGO_BIN_EXE_agenthooks")));
    assert!(
        built.contains(&format!("({TARGET}, built by cargo)")),
        "{built}"
    );
    let packaged = version(&copies[0]);
    assert!(
        packaged.contains(&format!("({TARGET}, installed by npm)")),
        "{packaged}"
    );
    // The packaged front without its engine names npm's line to reinstall.
    std::fs::remove_file(&copies[1]).unwrap();
    let out = std::process::Command::new(&copies[0])
        .arg("status")
        .env_remove("AGENTHOOKS_ENGINE")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("reinstall: npm install -g agenthooks"),
        "{stderr}"
    );
}
