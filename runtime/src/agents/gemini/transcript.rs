//! Gemini CLI's chat recording (`~/.gemini/tmp/<project>/chats/session-*.jsonl`,
//! earlier `session-*.json`) as Claude Code's transcript records.
//!
//! A message record is `{id, timestamp, type, content, toolCalls?}` with
//! `type` `user` or `gemini` (`info`, `error` and `warning` are the UI's),
//! `content` a string or parts with `text`, and each tool call `{id, name,
//! args, result?, resultDisplay?, status}`. The JSON-lines file holds one
//! record a line, with the session's metadata and updates on lines of
//! their own, and a message may be written again as it grows (its tool
//! calls finish): the last record of an id wins, in the place of its first.
//! The older file is one document whose `messages` hold the same records.

use std::collections::HashMap;

use serde_json::Value;

use super::super::transcript::{
    assistant, output_text, text_of, timestamp_of, tool_result, tool_use, user_text,
};
use super::super::Table;

/// Claude's records for a Gemini chat recording.
pub fn read(lines: &mut dyn Iterator<Item = Value>, table: &Table) -> Vec<Value> {
    let mut messages: Vec<Value> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut keep = |record: Value| {
        let id = record.get("id").and_then(Value::as_str).map(str::to_string);
        match id.as_ref().and_then(|id| at.get(id)) {
            Some(&i) => messages[i] = record,
            None => {
                if let Some(id) = id {
                    at.insert(id, messages.len());
                }
                messages.push(record);
            }
        }
    };
    for value in lines {
        match value.get("messages").and_then(Value::as_array) {
            Some(all) => all.iter().cloned().for_each(&mut keep),
            None if value.get("type").is_some() => keep(value),
            None => {}
        }
    }
    let mut out = Vec::new();
    for m in &messages {
        let ts = timestamp_of(m);
        let text = m.get("content").map(text_of).unwrap_or_default();
        match m.get("type").and_then(Value::as_str) {
            Some("user") if !text.trim().is_empty() => out.push(user_text(&text, ts)),
            Some("gemini") => {
                let calls = m
                    .get("toolCalls")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let uses = calls
                    .iter()
                    .map(|c| {
                        let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
                        let name = c.get("name").and_then(Value::as_str).unwrap_or_default();
                        let args = c.get("args").cloned().unwrap_or(Value::Null);
                        tool_use(table, id, name, args)
                    })
                    .collect();
                out.extend(assistant(&text, uses, ts));
                for c in calls
                    .iter()
                    .filter(|c| c.get("result").is_some() || c.get("resultDisplay").is_some())
                {
                    let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
                    let failed = matches!(
                        c.get("status").and_then(Value::as_str),
                        Some("error" | "cancelled")
                    );
                    let output = match c.get("resultDisplay") {
                        Some(Value::String(s)) => s.clone(),
                        _ => c.get("result").map(result_text).unwrap_or_default(),
                    };
                    out.push(tool_result(id, &output, failed, ts));
                }
            }
            _ => {}
        }
    }
    out
}

/// A tool call's `result`: the `functionResponse.response` parts' output.
fn result_text(result: &Value) -> String {
    if let Value::Array(parts) = result {
        let outputs: Vec<String> = parts
            .iter()
            .filter_map(|p| p.pointer("/functionResponse/response"))
            .map(output_text)
            .collect();
        if !outputs.is_empty() {
            return outputs.join("\n");
        }
    }
    output_text(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{gemini, Agent};

    const USER: &str = r#"{"id":"u1","timestamp":"2026-11-29T11:09:01.000Z","type":"user","content":[{"text":"run ls"}]}"#;
    const CALL: &str = r#"{"id":"g1","timestamp":"2026-11-29T11:09:02.000Z","type":"gemini","content":"","toolCalls":[{"id":"run_shell_command-1","name":"run_shell_command","args":{"command":"ls"},"status":"executing"}]}"#;
    const DONE: &str = r#"{"id":"g1","timestamp":"2026-11-29T11:09:02.000Z","type":"gemini","content":"","toolCalls":[{"id":"run_shell_command-1","name":"run_shell_command","args":{"command":"ls"},"status":"success","result":[{"functionResponse":{"id":"run_shell_command-1","name":"run_shell_command","response":{"output":"a.txt"}}}]}]}"#;
    const SAID: &str = r#"{"id":"g2","timestamp":"2026-11-29T11:09:03.000Z","type":"gemini","content":"There is a.txt.","thoughts":[],"tokens":{"input":1,"output":1}}"#;

    fn check(got: &[Value]) {
        assert_eq!(got.len(), 4, "{got:#?}");
        assert_eq!(got[0]["message"]["content"], "run ls");
        let call = &got[1]["message"]["content"][0];
        assert_eq!(call["name"], "Bash");
        assert_eq!(call["input"]["command"], "ls");
        assert_eq!(got[2]["message"]["content"][0]["content"], "a.txt");
        assert_eq!(got[3]["message"]["content"][0]["text"], "There is a.txt.");
    }

    #[test]
    fn the_json_lines_recording_becomes_claudes_records_last_write_winning() {
        let lines = [
            r#"{"sessionId":"dd44771e","projectHash":"ab12","startTime":"2026-11-29T11:09:00.000Z","kind":"main"}"#,
            USER,
            r#"{"id":"i1","timestamp":"2026-11-29T11:09:01.500Z","type":"info","content":"Hook ran"}"#,
            CALL,
            DONE,
            SAID,
            r#"{"$set":{"lastUpdated":"2026-11-29T11:09:03.000Z"}}"#,
        ];
        let mut values = lines.iter().map(|l| serde_json::from_str(l).unwrap());
        check(&read(&mut values, gemini::Gemini.table()));
    }

    #[test]
    fn the_older_whole_file_recording_is_read_too() {
        let doc = format!(
            r#"{{"sessionId":"dd44771e","projectHash":"ab12","startTime":"x","lastUpdated":"y","messages":[{USER},{DONE},{SAID}]}}"#
        );
        let mut values = std::iter::once(serde_json::from_str(&doc).unwrap());
        check(&read(&mut values, gemini::Gemini.table()));
    }
}
