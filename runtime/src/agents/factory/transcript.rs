//! Factory Droid's session file
//! (`~/.factory/sessions/<project>/<session>.jsonl`) as Claude Code's
//! transcript records.
//!
//! A `session_start` line, then `message` lines `{type: "message", id,
//! parentId?, timestamp, message: {role, content}}` whose content is
//! Claude's blocks (`text`, `tool_use {id, name, input}`, `tool_result
//! {tool_use_id, content, is_error}`) with Droid's tool names (`Execute`,
//! `Create`, ...); other lines (`agent_turn_outcome`, ...) are Droid's
//! bookkeeping. Droid adds context to the conversation as user messages of
//! `<system-reminder>` texts (its tool list, skills, the date), which are
//! not the user's and are left out, as are the empty messages it writes
//! for hooks' results. Seen in the file Droid 0.225.2 wrote in
//! `tests/real-agents` (no documentation of the format was found).

use serde_json::Value;

use super::super::transcript::{from_blocks, timestamp_of};
use super::super::Table;

/// Claude's records for a Droid session file.
pub fn read(lines: &mut dyn Iterator<Item = Value>, table: &Table) -> Vec<Value> {
    let mut out = Vec::new();
    for line in lines {
        if line.get("type").and_then(Value::as_str) != Some("message") {
            continue;
        }
        let Some(role) = line.pointer("/message/role").and_then(Value::as_str) else {
            continue;
        };
        let mut content = line
            .pointer("/message/content")
            .cloned()
            .unwrap_or_default();
        if let Value::Array(blocks) = &mut content {
            blocks.retain(|b| {
                !b.get("text")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.trim_start().starts_with("<system-reminder>"))
            });
        }
        let id = line.get("id").and_then(Value::as_str).unwrap_or("droid");
        out.extend(from_blocks(role, &content, table, id, timestamp_of(&line)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{factory, Agent};

    #[test]
    fn droid_messages_become_claudes_records_without_its_injected_context() {
        let lines = [
            r#"{"type":"session_start","id":"s1","title":"run ls","cwd":"/w"}"#,
            r#"{"type":"message","id":"m0","message":{"role":"system","content":"You are Droid."}}"#,
            r#"{"type":"message","id":"m1","timestamp":"2026-12-03T14:39:22.068Z","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>\nThe tools listed below are available"},{"type":"text","text":"run ls"}]}}"#,
            r#"{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-12-03T14:39:23.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"Execute","input":{"command":"ls","summary":"list"}}]}}"#,
            r#"{"type":"message","id":"m3","parentId":"m2","message":{"role":"user","content":[]}}"#,
            r#"{"type":"message","id":"m4","parentId":"m2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","is_error":true,"content":"denied by a hook"}]}}"#,
            r#"{"type":"agent_turn_outcome","turnId":"m1","reason":"completed"}"#,
        ];
        let mut values = lines.iter().map(|l| serde_json::from_str(l).unwrap());
        let got = read(&mut values, factory::AGENT.table());
        assert_eq!(got.len(), 3, "{got:#?}");
        assert_eq!(got[0]["message"]["content"], "run ls");
        assert_eq!(got[0]["timestamp"], "2026-12-03T14:39:22.068Z");
        let call = &got[1]["message"]["content"][0];
        assert_eq!(
            (&call["name"], &call["input"]["command"], &call["id"]),
            (&"Bash".into(), &"ls".into(), &"call_1".into())
        );
        let result = &got[2]["message"]["content"][0];
        assert_eq!(result["tool_use_id"], "call_1");
        assert_eq!(result["is_error"], true);
    }
}
