//! Qwen Code's chat recording
//! (`~/.qwen/projects/<project>/chats/<session>.jsonl`) as Claude Code's
//! transcript records.
//!
//! Each line is one record `{uuid, parentUuid, sessionId, timestamp, type,
//! message?, toolCallResult?, subtype?}`: `type` is `user` (a prompt),
//! `assistant` (a model turn), `tool_result` (what a tool answered) or
//! `system` (compression, telemetry, titles: not said by anyone), and
//! `message` is Gemini's content `{role, parts}` with `text` (a `thought`
//! when flagged so), `functionCall {id, name, args}` and
//! `functionResponse {id, name, response}` parts.
//!
//! The records form a tree, as Qwen Code reads them itself
//! (`prepareTranscriptRecords` in `packages/core/src/utils/transcript-records.ts`;
//! `ChatRecord` in `services/chatRecordingService.ts`): the conversation is
//! the chain from the last record back through `parentUuid`, so the
//! records a rewind abandoned are left out; a record written in fragments
//! repeats its `uuid`, and the fragments' parts add up; artifact and
//! session-source records are not part of the conversation. Recorded from
//! Qwen Code 0.24.4 in `tests/real-agents`.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::super::transcript::{
    assistant, output_text, timestamp_of, tool_result, tool_use, user_text,
};
use super::super::Table;

/// System records Qwen Code keeps out of the conversation chain.
const NOT_CONVERSATION: &[&str] = &[
    "session_artifact_event",
    "session_artifact_snapshot",
    "session_sources_snapshot",
    "managed_session_header_v1",
    "managed_session_event_v1",
    "managed_session_commit_v1",
];

/// Claude's records for a Qwen Code chat recording.
pub fn read(lines: &mut dyn Iterator<Item = Value>, table: &Table) -> Vec<Value> {
    let mut records: Vec<Value> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut leaf = None;
    for record in lines {
        let Some(uuid) = record.get("uuid").and_then(Value::as_str) else {
            continue;
        };
        let subtype = record.get("subtype").and_then(Value::as_str);
        if record.get("type").and_then(Value::as_str) == Some("system")
            && subtype.is_some_and(|s| NOT_CONVERSATION.contains(&s))
        {
            continue;
        }
        let uuid = uuid.to_string();
        leaf = Some(uuid.clone());
        match at.get(&uuid) {
            Some(&i) => add_fragment(&mut records[i], &record),
            None => {
                at.insert(uuid, records.len());
                records.push(record);
            }
        }
    }
    let mut chain = Vec::new();
    let mut seen = HashSet::new();
    let mut next = leaf;
    // A parent cut off by the view's read window ends the chain there.
    while let Some(&i) = next.as_ref().and_then(|uuid| at.get(uuid)) {
        if !seen.insert(i) {
            break;
        }
        chain.push(i);
        next = records[i]
            .get("parentUuid")
            .and_then(Value::as_str)
            .map(str::to_string);
    }
    let mut out = Vec::new();
    for &i in chain.iter().rev() {
        render(&records[i], table, &mut out);
    }
    out
}

/// A later fragment of `first`'s record: its parts follow the first's.
fn add_fragment(first: &mut Value, fragment: &Value) {
    let Some(more) = fragment.pointer("/message/parts").and_then(Value::as_array) else {
        return;
    };
    match first
        .pointer_mut("/message/parts")
        .and_then(Value::as_array_mut)
    {
        Some(parts) => parts.extend(more.iter().cloned()),
        None => {
            if let Some(first) = first.as_object_mut() {
                first.insert("message".into(), fragment["message"].clone());
            }
        }
    }
    if first.get("toolCallResult").is_none() {
        if let (Some(first), Some(result)) = (first.as_object_mut(), fragment.get("toolCallResult"))
        {
            first.insert("toolCallResult".into(), result.clone());
        }
    }
}

/// One conversation record as Claude's records, appended to `out`.
fn render(record: &Value, table: &Table, out: &mut Vec<Value>) {
    let ts = timestamp_of(record);
    let parts: &[Value] = record
        .pointer("/message/parts")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let text = parts
        .iter()
        .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n");
    match record.get("type").and_then(Value::as_str) {
        Some("user") if !text.trim().is_empty() => out.push(user_text(&text, ts)),
        Some("assistant") => {
            let uses = parts
                .iter()
                .filter_map(|p| p.get("functionCall"))
                .enumerate()
                .map(|(n, call)| {
                    let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
                    let args = call.get("args").cloned().unwrap_or(Value::Null);
                    tool_use(table, &call_id(call, record, n), name, args)
                })
                .collect();
            out.extend(assistant(&text, uses, ts));
        }
        Some("tool_result") => {
            let status = record
                .pointer("/toolCallResult/status")
                .and_then(Value::as_str);
            for (n, response) in parts
                .iter()
                .filter_map(|p| p.get("functionResponse"))
                .enumerate()
            {
                let answer = response.get("response").unwrap_or(&Value::Null);
                let error = answer.get("error").filter(|e| !e.is_null());
                let output = match error {
                    Some(e) => output_text(e),
                    None => output_text(answer),
                };
                let failed = error.is_some() || matches!(status, Some("error" | "cancelled"));
                out.push(tool_result(
                    &call_id(response, record, n),
                    &output,
                    failed,
                    ts,
                ));
            }
        }
        _ => {}
    }
}

/// A call's `id`, or one made from its record's `uuid` and its place there
/// (so that a call and its response without ids still pair up only by
/// chance, never by a shared empty id).
fn call_id(part: &Value, record: &Value, n: usize) -> String {
    match part.get("id").and_then(Value::as_str) {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => {
            let uuid = record.get("uuid").and_then(Value::as_str).unwrap_or("call");
            format!("{uuid}-{n}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{qwen, Agent};
    use serde_json::json;

    fn record(uuid: &str, parent: Option<&str>, kind: &str, parts: Value) -> Value {
        json!({"uuid": uuid, "parentUuid": parent, "sessionId": "s1",
               "timestamp": format!("2026-12-07T10:00:0{}.000Z", uuid.len() % 10),
               "type": kind, "cwd": "/w", "version": "0.24.4",
               "message": {"role": if kind == "assistant" { "model" } else { "user" }, "parts": parts}})
    }

    fn read_all(records: Vec<Value>) -> Vec<Value> {
        read(&mut records.into_iter(), qwen::AGENT.table())
    }

    #[test]
    fn the_chain_to_the_last_record_is_the_conversation_and_a_rewound_branch_is_left_out() {
        let got = read_all(vec![
            record("u1", None, "user", json!([{"text": "list the files"}])),
            record(
                "a1",
                Some("u1"),
                "assistant",
                json!([{"text": "Abandoned answer."}]),
            ),
            // The user rewound to u1 and asked again.
            record("u2", Some("u1"), "user", json!([{"text": "no, run ls"}])),
            json!({"uuid": "t1", "parentUuid": "u2", "sessionId": "s1", "type": "system",
                   "subtype": "ui_telemetry", "systemPayload": {}}),
            record(
                "a2",
                Some("t1"),
                "assistant",
                json!([{"text": "thinking about it", "thought": true},
                       {"functionCall": {"id": "call_1", "name": "run_shell_command",
                                         "args": {"command": "ls", "is_background": false}}}]),
            ),
            json!({"uuid": "r1", "parentUuid": "a2", "sessionId": "s1", "type": "tool_result",
                   "message": {"role": "user", "parts": [{"functionResponse": {"id": "call_1",
                       "name": "run_shell_command", "response": {"output": "a.txt"}}}]},
                   "toolCallResult": {"callId": "call_1", "status": "success"}}),
            // An artifact record, off the chain: it must not become the leaf.
            json!({"uuid": "x1", "parentUuid": null, "sessionId": "s1", "type": "system",
                   "subtype": "session_artifact_event"}),
        ]);
        let texts: Vec<String> = got.iter().map(Value::to_string).collect();
        assert_eq!(got.len(), 4, "{texts:#?}");
        assert_eq!(got[0]["message"]["content"], "list the files");
        assert_eq!(got[1]["message"]["content"], "no, run ls");
        let call = &got[2]["message"]["content"];
        assert_eq!(call.as_array().unwrap().len(), 1, "no thought: {call}");
        assert_eq!(call[0]["name"], "Bash");
        assert_eq!(call[0]["input"]["command"], "ls");
        assert_eq!(got[3]["message"]["content"][0]["tool_use_id"], "call_1");
        assert_eq!(got[3]["message"]["content"][0]["content"], "a.txt");
        assert!(!texts.iter().any(|t| t.contains("Abandoned")), "{texts:#?}");
    }

    #[test]
    fn fragments_of_one_record_add_up_and_a_refused_call_is_an_error() {
        let got = read_all(vec![
            record("u1", None, "user", json!([{"text": "delete it"}])),
            record("a1", Some("u1"), "assistant", json!([{"text": "Deleting"}])),
            record(
                "a1",
                Some("u1"),
                "assistant",
                json!([{"functionCall": {"id": "c9", "name": "run_shell_command",
                                         "args": {"command": "rm -rf /tmp/v"}}}]),
            ),
            // As Qwen Code 0.24.4 recorded a call a PreToolUse hook denied.
            json!({"uuid": "r1", "parentUuid": "a1", "sessionId": "s1", "type": "tool_result",
                   "message": {"role": "user", "parts": [{"functionResponse": {"id": "c9",
                       "name": "run_shell_command", "response": {"error": "refused by policy"}}}]},
                   "toolCallResult": {"callId": "c9", "status": "error", "errorType": "execution_denied"}}),
        ]);
        assert_eq!(got.len(), 3, "{got:#?}");
        let blocks = got[1]["message"]["content"].as_array().unwrap();
        assert_eq!(blocks[0]["text"], "Deleting");
        assert_eq!(blocks[1]["input"]["command"], "rm -rf /tmp/v");
        let result = &got[2]["message"]["content"][0];
        assert_eq!(
            (&result["content"], &result["is_error"]),
            (&json!("refused by policy"), &json!(true))
        );
    }

    #[test]
    fn a_cycle_or_a_missing_parent_ends_the_chain() {
        let got = read_all(vec![
            record("u1", Some("u2"), "user", json!([{"text": "first"}])),
            record("u2", Some("u1"), "user", json!([{"text": "second"}])),
        ]);
        assert_eq!(got.len(), 2, "{got:#?}");
        let got = read_all(vec![record(
            "u3",
            Some("cut-off"),
            "user",
            json!([{"text": "after the cut"}]),
        )]);
        assert_eq!(got[0]["message"]["content"], "after the cut");
        assert!(read_all(vec![json!({"no": "uuid"}), json!("x")]).is_empty());
    }
}
