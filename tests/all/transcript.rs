//! `transcript_path` as hooks get it: a Claude-shaped view of the agent's
//! own transcript, through the real binary and recorded payloads. The
//! hooks are `sh` one-liners: Unix only (the view itself is tested on
//! every platform in `exec::transcript`).
#![cfg(unix)]

use serde_json::{json, Value};

use crate::util::{command, fixtures, hooks, TempProject};

/// The recorded payload `name` with its transcript and `cwd` moved into `p`.
fn recorded(p: &TempProject, name: &str, transcript: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(fixtures(name)).unwrap();
    let mut payload: Value = serde_json::from_str(&text).unwrap();
    payload["transcript_path"] = json!(transcript);
    payload["cwd"] = json!(p.path(""));
    payload
}

/// Run `payload` as `agent`'s `event` with one hook that saves its input;
/// the input it got.
fn hook_input(
    p: &TempProject,
    agent: &str,
    event: &str,
    claude_event: &str,
    payload: &Value,
) -> Value {
    let saved = p.path("input.json");
    p.project_hooks(&hooks(
        claude_event,
        "",
        json!([command(&format!("cat > '{}'", saved.display()))]),
    ));
    p.trust();
    let ran = p.output(
        p.cmd(["run", "--agent", agent, "--event", event]),
        payload.to_string(),
    );
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap()
}

#[test]
fn a_codex_stop_hook_reads_the_rollout_as_claudes_transcript() {
    let p = TempProject::new();
    let rollout = p.write(
        "rollout.jsonl",
        concat!(
            r#"{"timestamp":"2026-11-29T11:10:18.000Z","type":"session_meta","payload":{"id":"01a226ff","cwd":"/w"}}"#, "\n",
            r#"{"timestamp":"2026-11-29T11:10:18.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"delete the victim dir"}]}}"#, "\n",
            r#"{"timestamp":"2026-11-29T11:10:19.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"rm -r /tmp/victim\"]}","call_id":"call_9"}}"#, "\n",
        ),
    );
    let payload = recorded(&p, "codex-0.171.0/deny/08-Stop.json", &rollout);
    let input = hook_input(&p, "codex", "Stop", "Stop", &payload);
    assert_eq!(input["transcript_path_native"], json!(rollout));
    let view = input["transcript_path"].as_str().expect("a view");
    assert!(
        view.starts_with(
            p.tmp()
                .join("home/.cache/agenthooks/transcripts")
                .to_str()
                .unwrap()
        ),
        "{view}"
    );
    let lines: Vec<Value> = std::fs::read_to_string(view)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "user");
    assert_eq!(lines[0]["message"]["content"], "delete the victim dir");
    let call = &lines[1]["message"]["content"][0];
    assert_eq!(
        (call["name"].as_str(), call["input"]["command"].as_str()),
        (Some("Bash"), Some("rm -r /tmp/victim"))
    );
}

#[test]
fn without_a_reader_for_the_agents_transcript_hooks_get_only_the_native_path() {
    let p = TempProject::new();
    let chat = p.write("chat.jsonl", "{\"not\":\"claude\"}\n");
    let payload = recorded(&p, "codex-0.171.0/deny/08-Stop.json", &chat);
    let input = hook_input(&p, "qoder", "Stop", "Stop", &payload);
    assert_eq!(input["transcript_path_native"], json!(chat));
    assert!(input.get("transcript_path").is_none(), "{input}");
}

/// The transcript `agent_version` wrote in the real-agents `events` phase,
/// copied into `p`.
fn recorded_transcript(p: &TempProject, agent_version: &str) -> std::path::PathBuf {
    let dir = fixtures("../transcripts")
        .join(agent_version)
        .join("events");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .next()
        .expect("one recorded transcript");
    p.write("recording.jsonl", std::fs::read(file).unwrap())
}

/// The view's records, as JSON values.
fn view_records(input: &Value) -> Vec<Value> {
    let view = input["transcript_path"].as_str().expect("a view");
    std::fs::read_to_string(view)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_qwen_code_stop_gets_a_claude_shaped_view_of_its_chat_recording() {
    let p = TempProject::new();
    let recording = recorded_transcript(&p, "qwen-0.24.4");
    let payload = recorded(&p, "qwen-0.24.4/events/08-Stop.json", &recording);
    let input = hook_input(&p, "qwen", "Stop", "Stop", &payload);
    assert_eq!(input["transcript_path_native"], json!(recording));
    let records = view_records(&input);
    assert_eq!(
        records[0]["message"]["content"],
        "Run the shell commands the task needs, one at a time, then report the output."
    );
    let calls: Vec<&Value> = records
        .iter()
        .filter_map(|r| r["message"]["content"].as_array())
        .flatten()
        .filter(|b| b["type"] == "tool_use")
        .collect();
    assert_eq!(calls.len(), 2, "{records:#?}");
    assert_eq!(
        (
            calls[0]["name"].as_str(),
            calls[0]["input"]["command"].as_str()
        ),
        (Some("Bash"), Some("echo hello"))
    );
    let last = records.last().unwrap();
    assert_eq!(last["type"], "assistant");
    assert!(
        last["message"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("FINAL-ANSWER")),
        "{last}"
    );
}
