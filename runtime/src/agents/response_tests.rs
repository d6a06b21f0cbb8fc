use std::path::Path;

use serde_json::{json, Value};

use super::*;
use crate::agents::find;

fn post(agent: &str, native: Value) -> Value {
    let a = find(agent).expect("agent");
    let ev = a.decode(native, None).expect("decode");
    Value::Object(ev.input().clone())
}

#[test]
fn shell_output_is_split_as_claude_reports_it() {
    let s = |t: &str| shell_streams(t);
    // Codex: the plain text.
    assert_eq!(s("hello\n"), ("hello".into(), String::new()));
    // Copilot and Factory append a status line.
    assert_eq!(
        s("hello\n<shellId: 0 completed with exit code 0>"),
        ("hello".into(), String::new())
    );
    assert_eq!(
        s("hello\n\n\n[Process exited with code 0]"),
        ("hello".into(), String::new())
    );
    // Gemini and Qwen: a labelled block, multi-line sections kept.
    assert_eq!(
        s("Command: ls\nDirectory: (root)\nOutput: a\nb\nError: oops\nExit Code: 1\nSignal: 0"),
        ("a\nb".into(), "oops".into())
    );
    assert_eq!(
        s("<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 15709\n</untrusted_context>"),
        (String::new(), String::new())
    );
    assert_eq!(
        s("Output: hello\nError: (none)\nExit Code: 0"),
        ("hello".into(), String::new())
    );
}

#[test]
fn claude_shapes_stay_and_others_keep_their_own_value_beside() {
    let claude = json!({"stdout": "hi", "stderr": "", "interrupted": false, "isImage": false});
    let mut input = serde_json::Map::new();
    input.insert("tool_name".into(), json!("Bash"));
    input.insert("tool_response".into(), claude.clone());
    normalise(EventName::PostToolUse, &mut input);
    assert_eq!(input["tool_response"], claude);
    assert!(!input.contains_key("tool_response_native"));

    let ev = post(
        "pi",
        json!({"event": "tool_result", "payload": {"toolName": "read", "input": {"path": "a.txt"},
               "content": [{"type": "text", "text": "one\ntwo"}], "isError": false}}),
    );
    assert_eq!(
        ev["tool_response"],
        json!({"type": "text", "file": {"filePath": "a.txt", "content": "one\ntwo",
               "numLines": 2, "startLine": 1, "totalLines": 2}})
    );
    assert_eq!(ev["tool_response_native"]["content"][0]["text"], "one\ntwo");

    let ev = post(
        "opencode",
        json!({"hook": "tool.execute.after", "input": {"tool": "edit", "args":
               {"filePath": "a.rs", "oldString": "x", "newString": "y"}}, "output": {"output": "Edit applied."}}),
    );
    assert_eq!(
        ev["tool_response"],
        json!({"filePath": "a.rs", "oldString": "x", "newString": "y", "replaceAll": false})
    );
    assert_eq!(ev["tool_response_native"], "Edit applied.");

    let ev = post(
        "pi",
        json!({"event": "tool_result", "payload": {"toolName": "write", "input": {"path": "b", "content": "z"},
               "content": [{"type": "text", "text": "Wrote 1 byte"}]}}),
    );
    assert_eq!(
        ev["tool_response"],
        json!({"filePath": "b", "content": "z"})
    );
}

#[test]
fn a_failure_s_error_and_a_prompt_are_strings() {
    let mut input = serde_json::Map::new();
    input.insert("tool_name".into(), json!("Bash"));
    input.insert(
        "tool_response".into(),
        json!({"llmContent": "x", "error": {"message": "exit 1", "type": "shell"}}),
    );
    normalise(EventName::PostToolUseFailure, &mut input);
    assert_eq!(input["error"], "exit 1");
    assert_eq!(input["error_native"]["type"], "shell");

    let mut input = serde_json::Map::new();
    input.insert(
        "prompt".into(),
        json!([{"type": "text", "text": "fix it"}, {"type": "text", "text": "now"}]),
    );
    normalise(EventName::UserPromptSubmit, &mut input);
    assert_eq!(input["prompt"], "fix it\nnow");
    assert!(input["prompt_native"].is_array());
}

/// Every recorded PostToolUse payload of the `echo hello` call, from every
/// agent run for real, reads as Claude's: `tool_response.stdout == "hello"`.
#[test]
fn recorded_post_tool_payloads_read_as_claude_s() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/agents");
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for dir in std::fs::read_dir(&root).expect("fixtures").flatten() {
        let name = dir.file_name().to_string_lossy().into_owned();
        let id = name.split('-').next().unwrap_or_default().to_string();
        let Some(agent) = find(&id) else { continue };
        for phase in std::fs::read_dir(dir.path()).expect("agent dir").flatten() {
            // Beside the phase dirs: a documented agent's SOURCE.md.
            if !phase.path().is_dir() {
                continue;
            }
            for file in std::fs::read_dir(phase.path())
                .expect("phase dir")
                .flatten()
            {
                let fname = file.file_name().to_string_lossy().into_owned();
                let Some(native) = fname
                    .strip_suffix(".json")
                    .and_then(|n| n.split_once('-'))
                    .map(|(_, e)| e.to_string())
                else {
                    continue;
                };
                if agent.table().resolve(&native).map(|r| r.canonical)
                    != Some(EventName::PostToolUse)
                {
                    continue;
                }
                let text = std::fs::read_to_string(file.path()).expect("fixture");
                let payload: Value = serde_json::from_str(&text).expect("json");
                let ev = agent.decode(payload, Some(&native)).expect("decode");
                let input = ev.input();
                if ev.tool_name() != Some("Bash")
                    || ev.if_target().is_none_or(|c| c != "echo hello")
                {
                    continue;
                }
                let at = format!("{name}/{fname}");
                assert_eq!(input["tool_response"]["stdout"], "hello", "{at}");
                assert_eq!(input["tool_response"]["stderr"], "", "{at}");
                assert_eq!(input["tool_response"]["interrupted"], false, "{at}");
                assert_eq!(
                    input.contains_key("tool_response_native"),
                    id != "claude",
                    "{at}"
                );
                *seen.entry(id.clone()).or_default() += 1;
            }
        }
    }
    for id in ["claude", "codex", "copilot", "qwen", "opencode", "pi"] {
        assert!(seen.get(id).is_some_and(|n| *n > 0), "{id}: {seen:?}");
    }
}
