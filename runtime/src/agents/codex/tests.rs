use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::AnswerKind;
use crate::agents::{Agent, Native};
use crate::protocol::{Answer, Event};

fn pre_tool(command: &str) -> Event {
    decoded(
        &Codex,
        json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":command},"session_id":"s","turn_id":"t","cwd":"/w"}),
    )
}

#[test]
fn newer_shell_tool_names_decode_as_bash() {
    for name in [
        "shell_command",
        "exec_command",
        "local_shell",
        "shell",
        "Bash",
    ] {
        let ev = decoded(
            &Codex,
            json!({"hook_event_name":"PreToolUse","tool_name":name,"tool_input":{"command":"ls"}}),
        );
        assert_eq!(ev.tool_name(), Some("Bash"), "{name}");
    }
}

/// Codex's PreToolUse for an `apply_patch` of `patch`, decoded.
fn apply_patch(patch: &str) -> Event {
    decoded(
        &Codex,
        json!({"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":patch}}),
    )
}

#[test]
fn apply_patch_decodes_as_edit_with_its_files() {
    let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: b.txt\n+hi\n*** End Patch";
    let ev = apply_patch(patch);
    assert_eq!(ev.tool_name(), Some("Edit"));
    let input = ev.tool_input().unwrap();
    assert_eq!(input["file_path"], "src/a.rs");
    assert_eq!(input["file_paths"], json!(["src/a.rs", "b.txt"]));
    assert_eq!(input["command"], patch);
}

#[test]
fn deny_is_strict_claude_json_with_a_reason() {
    let n = Codex.encode(&pre_tool("rm -r x"), &deny("no rm"));
    assert_eq!(
        stdout_json(&n),
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}})
    );
    assert_eq!(n.exit_code, 0);
    assert!(n.stderr.is_empty());
    // Codex rejects a deny without a reason, so one is supplied.
    let n = Codex.encode(&pre_tool("x"), &answer(json!({"decision":"block"})));
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["permissionDecisionReason"],
        "blocked by a hook"
    );
}

#[test]
fn ask_becomes_a_deny_that_says_confirmation_was_needed() {
    let n = Codex.encode(&pre_tool("x"), &ask("really?"));
    let v = stdout_json(&n);
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("confirmation") && reason.contains("really?"),
        "{reason}"
    );
    assert_eq!(n.notes().count(), 1);
}

#[test]
fn allow_alone_is_dropped_and_allow_with_rewrite_is_sent() {
    let n = Codex.encode(&pre_tool("x"), &allow());
    assert_eq!(n.stdout, "");
    assert_eq!(n.notes().count(), 1);
    assert_eq!(
        n.notes[0].kind,
        crate::protocol::NoteKind::Dropped(AnswerKind::Allow)
    );
    assert!(n.stderr.is_empty(), "a note is not a reason: {n:?}");

    let n = Codex.encode(
        &pre_tool("x"),
        &rewrite(json!({"command":"ls -la","description":"d"})),
    );
    assert_eq!(
        stdout_json(&n),
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}})
    );
    assert!(n.stderr.is_empty());
}

#[test]
fn a_bash_rewrite_without_a_command_is_dropped() {
    let n = Codex.encode(&pre_tool("x"), &rewrite(json!({"cmd":"ls"})));
    assert_eq!(n.stdout, "");
    assert_eq!(n.notes().count(), 1);
}

#[test]
fn stop_before_a_tool_becomes_a_deny() {
    let n = Codex.encode(&pre_tool("x"), &stop("enough"));
    let v = stdout_json(&n);
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecisionReason"],
        "enough"
    );
    assert!(
        v.get("continue").is_none(),
        "continue:false is invalid on PreToolUse"
    );
}

// A block at the prompt or at Stop, a stop and SessionStart's context are
// rows of `each_canonical_answer_is_each_agent_s_documented_answer` (tests.rs).
#[test]
fn context_at_stop_is_dropped_and_no_answer_says_nothing() {
    let at = |name: &str| decoded(&Codex, json!({"hook_event_name":name,"session_id":"s"}));
    let n = Codex.encode(&at("Stop"), &context("ctx"));
    assert_eq!((n.stdout.as_str(), n.notes().count()), ("", 1));
    assert_eq!(
        Codex.encode(&at("SessionEnd"), &Answer::none()),
        Native::default()
    );
}

#[test]
fn unknown_answer_fields_are_never_written() {
    let a = answer(
        json!({"terminalSequence":"x","suppressOutput":true,"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r","sessionTitle":"t"}}),
    );
    let n = Codex.encode(&pre_tool("x"), &a);
    assert_eq!(
        stdout_json(&n),
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}})
    );
    assert_eq!(n.notes().count(), 2, "{n:?}");
}

#[test]
fn permission_request_answers_with_behavior_and_denies_rewrites_it_cannot_apply() {
    let ev = decoded(
        &Codex,
        json!({"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"x"}}),
    );
    let a = answer(
        json!({"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"command":"y"}}}}),
    );
    let n = Codex.encode(&ev, &a);
    assert_eq!(
        stdout_json(&n),
        json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny",
            "message": "a hook rewrote the tool input, which codex cannot apply; denied rather than running the original input"}}}),
        "an allow whose rewrite Codex cannot apply denies rather than run the original"
    );
    assert_eq!(n.notes().count(), 1);
    // A deny that gives no reason still says why, as before a tool.
    let a = answer(json!({"hookSpecificOutput":{"decision":{"behavior":"deny"}}}));
    assert_eq!(
        stdout_json(&Codex.encode(&ev, &a))["hookSpecificOutput"]["decision"],
        json!({"behavior":"deny","message":"blocked by a hook"})
    );
}

#[test]
fn a_patch_that_only_adds_files_decodes_as_write() {
    let patch = "*** Begin Patch\n*** Add File: new.txt\n+hi\n*** End Patch";
    let ev = apply_patch(patch);
    assert_eq!(ev.tool_name(), Some("Write"));
    assert_eq!(ev.tool_input().unwrap()["file_path"], "new.txt");
    let n = Codex.encode(&ev, &rewrite(json!({"command":"x","file_path":"new.txt"})));
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["updatedInput"],
        json!({"command":"x"})
    );
}

/// Codex's PreToolUse for an `apply_patch` of `patch` in `/w`, as Codex
/// 0.171.0 sends it (the recorded PreToolUse's fields), decoded.
fn apply_patch_in_w(patch: &str) -> Event {
    decoded(
        &Codex,
        json!({"session_id":"s","turn_id":"t","cwd":"/w","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"apply_patch","tool_use_id":"call_1","tool_input":{"command":patch}}),
    )
}

#[test]
fn an_added_file_has_its_absolute_path_and_its_content() {
    let ev = apply_patch_in_w(
        "*** Begin Patch\n*** Add File: web/app.js\n+el.innerHTML = x;\n+eval(y)\n*** End Patch\n",
    );
    assert_eq!(ev.tool_name(), Some("Write"));
    let input = ev.tool_input().unwrap();
    assert_eq!(input["file_path"], "/w/web/app.js");
    // Each `+` line ends in a newline, as in the file Codex writes.
    assert_eq!(input["content"], "el.innerHTML = x;\neval(y)\n");
    assert_eq!(input["file_paths"], json!(["/w/web/app.js"]));
    assert!(input.get("files").is_none());
    // And what Claude's tool_response would say after it.
    let post = decoded(
        &Codex,
        json!({"cwd":"/w","hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: /abs/a.txt\n+hi\n*** End Patch"},"tool_response":"Success"}),
    );
    assert_eq!(post.input()["tool_response"]["filePath"], "/abs/a.txt");
    assert_eq!(post.input()["tool_response"]["content"], "hi\n");
}

#[test]
fn a_single_hunk_update_has_old_and_new_strings() {
    let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@ fn f()\n let a = 1;\n-let b = 2;\n+let b = eval(3);\n*** End Patch";
    let ev = apply_patch_in_w(patch);
    assert_eq!(ev.tool_name(), Some("Edit"));
    let input = ev.tool_input().unwrap();
    assert_eq!(input["file_path"], "/w/src/a.rs");
    assert_eq!(input["old_string"], "let a = 1;\nlet b = 2;\n");
    assert_eq!(input["new_string"], "let a = 1;\nlet b = eval(3);\n");
    assert!(input.get("edits").is_none());
    assert_eq!(input["command"], patch, "the patch stays to be rewritten");
}

#[test]
fn several_hunks_and_several_files_keep_every_change_visible() {
    let patch = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n@@ def g():\n-    pass\n+    eval(s)\n*** Update File: b.py\n*** Move to: c.py\n@@\n-old\n+new\n*** Add File: d.txt\n+hello\n*** Delete File: e.txt\n*** End Patch";
    let ev = apply_patch_in_w(patch);
    assert_eq!(ev.tool_name(), Some("Edit"));
    let input = ev.tool_input().unwrap();
    assert_eq!(input["file_path"], "/w/a.py");
    assert_eq!(
        input["new_string"], "x = 2\n    eval(s)\n",
        "every hunk's new text"
    );
    assert_eq!(
        input["edits"],
        json!([{"old_string":"x = 1\n","new_string":"x = 2\n"},{"old_string":"    pass\n","new_string":"    eval(s)\n"}])
    );
    assert_eq!(
        input["file_paths"],
        json!(["/w/a.py", "/w/b.py", "/w/d.txt", "/w/e.txt"])
    );
    let files = input["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    assert_eq!(
        files[1],
        json!({"file_path":"/w/b.py","action":"update","move_path":"/w/c.py","old_string":"old\n","new_string":"new\n"})
    );
    assert_eq!(
        files[2],
        json!({"file_path":"/w/d.txt","action":"add","content":"hello\n"})
    );
    assert_eq!(files[3], json!({"file_path":"/w/e.txt","action":"delete"}));
    // A patch whose first file is added, among updates: an edit from nothing.
    let ev = apply_patch_in_w(
        "*** Begin Patch\n*** Add File: n.txt\n+new\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch",
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    let input = ev.tool_input().unwrap();
    assert_eq!(
        (&input["old_string"], &input["new_string"]),
        (&json!(""), &json!("new\n"))
    );
}

#[test]
fn odd_patches_decode_without_panicking() {
    for patch in [
        "",
        "*** Begin Patch",
        "*** Update File: \n+x",
        "*** Update File: a\n-\n+\n \n",
        "+x\n-y\n*** End Patch",
        "*** Add File: a\n*** Add File: b\n",
        // A hunk line starting with a multi-byte character (the `decode`
        // fuzz target's crash: the sign was cut at a byte, not a char).
        "*** Update File: a\n@@\n\u{32f}ATCH'\n-old\n+new\n*** End Patch",
        "*** Update File: a\né\n",
    ] {
        let ev = apply_patch_in_w(patch);
        assert!(
            matches!(ev.tool_name(), Some("Edit" | "Write")),
            "{patch:?}"
        );
    }
}

/// A payload Codex 0.171.0 sent in tests/real-agents, decoded.
fn recorded(phase: &str, file: &str) -> Event {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/agents/codex-0.171.0")
        .join(phase)
        .join(file);
    let text = std::fs::read_to_string(&path).expect("recorded payload");
    let payload: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    Codex.decode(payload, Some("PreToolUse")).expect("decodes")
}

/// The model's two patches in the `patch` phase: one adds
/// `patched-new.txt`, one updates `existing.txt`, in the project
/// `/tmp/ra-realagents/codex-patch/work`.
const WORK: &str = "/tmp/ra-realagents/codex-patch/work";

fn assert_add_and_update(add: &Event, update: &Event) {
    assert_eq!(add.tool_name(), Some("Write"));
    let a = add.tool_input().unwrap();
    assert_eq!(a["file_path"], json!(format!("{WORK}/patched-new.txt")));
    // The file Codex wrote ends with its newline; so does the content.
    assert_eq!(a["content"], json!("PATCH-ADDED-E2E new file\n"));
    assert_eq!(update.tool_name(), Some("Edit"));
    let u = update.tool_input().unwrap();
    assert_eq!(u["file_path"], json!(format!("{WORK}/existing.txt")));
    assert_eq!(u["old_string"], json!("old line of the existing file\n"));
    assert_eq!(u["new_string"], json!("PATCH-UPDATED-E2E new line\n"));
}

/// The recorded PreToolUse events `numbers` of the run `phase` (an add,
/// then an update) reach hooks as Write and Edit, and their `command`
/// stays what Codex sent (starting with `sent`): the one field Codex lets a
/// hook rewrite.
fn recorded_add_and_update(phase: &str, numbers: [&str; 2], sent: &str) {
    let [add, update] = numbers.map(|n| recorded(phase, &format!("{n}-PreToolUse.json")));
    assert_add_and_update(&add, &update);
    for ev in [&add, &update] {
        let command = ev.tool_input().unwrap()["command"].as_str().unwrap();
        assert!(command.starts_with(sent), "{command}");
    }
}

#[test]
fn recorded_apply_patch_calls_reach_hooks_as_write_and_edit() {
    // Codex's freeform apply_patch tool: the patch is `command`, as sent.
    recorded_add_and_update("patch", ["02", "04"], "*** Begin Patch");
}

#[test]
fn recorded_apply_patch_run_as_a_shell_command_reaches_hooks_as_write_and_edit() {
    // Without the tool the model ran `apply_patch <<'PATCH'`; Codex sent
    // that as `Bash` (and applied the patch itself).
    recorded_add_and_update("patch-shell", ["02", "03"], "apply_patch <<'PATCH'");
    // A shell command that only mentions apply_patch stays Bash.
    let ev = pre_tool("echo apply_patch <<'X'\n*** Begin Patch\nX");
    assert_eq!(ev.tool_name(), Some("Bash"));
}
