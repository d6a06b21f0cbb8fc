//! Amp's plugin (`install amp`) driven under node with a stand-in for Amp's
//! plugin API: the shapes of the events and answers are Amp's declared
//! plugin types (`amp plugins show-docs`), not recorded from an Amp thread.

use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};

/// Loads the installed plugin the way Amp does (the default export gets the
/// API), sends one `tool.call` for `Bash` with `cmd`, prints what the
/// handler returned.
fn run_amp_plugin(p: &TempProject, cmd: &str) -> Value {
    let plugin = p.path(".amp/plugins/agenthooks.ts");
    // The plugin is plain JavaScript in a `.ts` file; node needs `.mjs`.
    let module = p.tmp().join("agenthooks-amp.mjs");
    std::fs::copy(&plugin, &module).unwrap();
    let driver = p.tmp().join("amp-driver.mjs");
    std::fs::write(
        &driver,
        r#"
const [, , module, root, cmd] = process.argv;
const { default: register } = await import(module);
const handlers = {};
register({
  on: (name, handler) => { handlers[name] = handler; },
  system: { workspaceRoot: { toString: () => "file://" + root } },
  helpers: { filePathFromURI: (uri) => uri.toString().slice("file://".length) },
});
const result = await handlers["tool.call"](
  { toolUseID: "toolu_1", tool: "Bash", input: { cmd }, thread: { id: "T-1" } },
  {},
);
console.log(JSON.stringify({ events: Object.keys(handlers), result }));
"#,
    )
    .unwrap();
    let out = p
        .isolated("node")
        .arg(&driver)
        .arg(&module)
        .arg(&p.root)
        .arg(cmd)
        .output()
        .expect("node is installed (the plugin tests run it)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "driver output is not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn the_amp_plugin_rejects_and_allows_through_the_real_binary() {
    let p = TempProject::new();
    let guard = p.script(
        "guard.sh",
        r#"if grep -q 'rm -rf'; then echo "no rm -rf here" >&2; exit 2; fi"#,
    );
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command(&guard.display().to_string())]),
    ));
    let ran = p.output(p.cmd(["install", "--absolute", "amp"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());

    let denied = run_amp_plugin(&p, "rm -rf build");
    assert_eq!(
        denied["result"],
        json!({"action": "reject-and-continue", "message": "no rm -rf here"}),
        "{denied}"
    );
    // Only the events in use (and session.start, which install always wires).
    assert_eq!(
        denied["events"],
        json!(["session.start", "tool.call"]),
        "{denied}"
    );
    // No opinion: tool.call must still answer, and `allow` runs the tool.
    let allowed = run_amp_plugin(&p, "ls");
    assert_eq!(allowed["result"], json!({"action": "allow"}), "{allowed}");

    let ran = p.output(p.cmd(["uninstall", "amp"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(!p.path(".amp/plugins/agenthooks.ts").exists());
}
