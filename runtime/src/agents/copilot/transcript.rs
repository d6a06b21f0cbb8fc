//! Copilot CLI's session events (`~/.copilot/session-state/<id>/events.jsonl`)
//! as Claude Code's transcript records.
//!
//! Each line is `{type, data, id, timestamp, parentId}`. The conversation
//! is in `user.message` (`data.content`), `assistant.message`
//! (`data.content` and `data.toolRequests[]` of `{toolCallId, name,
//! arguments}`) and `tool.execution_complete` (`data.toolCallId`,
//! `data.success`, `data.result`); session, turn and streaming events are
//! skipped.

use serde_json::Value;

use super::super::transcript::{
    assistant, output_text, text_of, timestamp_of, tool_result, tool_use, user_text,
};
use super::super::Table;

/// Claude's records for a Copilot events file.
pub fn read(lines: &mut dyn Iterator<Item = Value>, table: &Table) -> Vec<Value> {
    let mut out = Vec::new();
    for line in lines {
        let ts = timestamp_of(&line);
        let Some(data) = line.get("data") else {
            continue;
        };
        match line.get("type").and_then(Value::as_str) {
            Some("user.message") => {
                let text = data.get("content").map(text_of).unwrap_or_default();
                if !text.trim().is_empty() {
                    out.push(user_text(&text, ts));
                }
            }
            Some("assistant.message") => {
                let text = data.get("content").map(text_of).unwrap_or_default();
                let calls = data
                    .get("toolRequests")
                    .and_then(Value::as_array)
                    .map(|requests| {
                        requests
                            .iter()
                            .map(|r| {
                                let id = r
                                    .get("toolCallId")
                                    .and_then(Value::as_str)
                                    .unwrap_or_default();
                                let name =
                                    r.get("name").and_then(Value::as_str).unwrap_or_default();
                                let args = r.get("arguments").cloned().unwrap_or(Value::Null);
                                let args = match args {
                                    Value::String(s) => {
                                        serde_json::from_str(&s).unwrap_or(Value::String(s))
                                    }
                                    other => other,
                                };
                                tool_use(table, id, name, args)
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                out.extend(assistant(&text, calls, ts));
            }
            Some("tool.execution_complete") => {
                let id = data
                    .get("toolCallId")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let failed = data.get("success").and_then(Value::as_bool) == Some(false);
                let result = data.get("result").or_else(|| data.get("error"));
                let output = result.map(output_text).unwrap_or_default();
                out.push(tool_result(id, &output, failed, ts));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{copilot, Agent};

    #[test]
    fn session_events_become_claudes_records() {
        let events = [
            r#"{"type":"session.start","data":{"sessionId":"a73ccf11","version":1,"producer":"copilot-agent","copilotVersion":"1.0.102","startTime":"2026-11-29T11:10:00.000Z"},"id":"e1","timestamp":"2026-11-29T11:10:00.000Z","parentId":null}"#,
            r#"{"type":"user.message","data":{"content":"run ls","attachments":[]},"id":"e2","timestamp":"2026-11-29T11:10:01.000Z","parentId":"e1"}"#,
            r#"{"type":"assistant.turn_start","data":{"turnId":"0"},"id":"e3","timestamp":"2026-11-29T11:10:01.100Z","parentId":"e2"}"#,
            r#"{"type":"assistant.message","data":{"messageId":"m1","content":"Listing.","toolRequests":[{"toolCallId":"tc1","name":"bash","arguments":{"command":"ls","description":"list"}}]},"id":"e4","timestamp":"2026-11-29T11:10:02.000Z","parentId":"e3"}"#,
            r#"{"type":"tool.execution_start","data":{"toolCallId":"tc1","toolName":"bash","arguments":{"command":"ls"}},"id":"e5","timestamp":"2026-11-29T11:10:02.100Z","parentId":"e4"}"#,
            r#"{"type":"tool.execution_complete","data":{"toolCallId":"tc1","success":false,"error":{"message":"Denied by preToolUse hook"}},"id":"e6","timestamp":"2026-11-29T11:10:02.200Z","parentId":"e5"}"#,
            r#"{"type":"assistant.message","data":{"messageId":"m2","content":"The hook refused.","toolRequests":[]},"id":"e7","timestamp":"2026-11-29T11:10:03.000Z","parentId":"e6"}"#,
        ];
        let mut values = events.iter().map(|l| serde_json::from_str(l).unwrap());
        let got = read(&mut values, copilot::Copilot.table());
        assert_eq!(got.len(), 4, "{got:#?}");
        assert_eq!(got[0]["message"]["content"], "run ls");
        let blocks = got[1]["message"]["content"].as_array().unwrap();
        assert_eq!(blocks[0]["text"], "Listing.");
        assert_eq!(blocks[1]["name"], "Bash");
        assert_eq!(blocks[1]["input"]["command"], "ls");
        let result = &got[2]["message"]["content"][0];
        assert_eq!(result["tool_use_id"], "tc1");
        assert_eq!(result["is_error"], true);
        assert!(
            result["content"].as_str().unwrap().contains("Denied"),
            "{result}"
        );
        assert_eq!(got[3]["timestamp"], "2026-11-29T11:10:03.000Z");
    }
}
