//! Codex's rollout file (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`)
//! as Claude Code's transcript records.
//!
//! Each line is `{timestamp, type, payload}`. The conversation is in the
//! `response_item` lines: `message` (role `user`/`assistant`; `developer`
//! and the context blocks Codex adds as user text, `<environment_context>`
//! and the like, are not the user's words), `function_call` and
//! `custom_tool_call` (apply_patch, its input a string) with their
//! `*_output`. `event_msg` lines repeat the same messages for the UI and
//! are skipped, as are `session_meta`, `turn_context` and `compacted`.

use serde_json::{json, Value};

use super::super::transcript::{
    assistant, output_text, text_of, timestamp_of, tool_result, tool_use, user_text,
};
use super::super::Table;

/// Claude's records for a Codex rollout.
pub fn read(lines: &mut dyn Iterator<Item = Value>, table: &Table) -> Vec<Value> {
    let mut out = Vec::new();
    for line in lines {
        if line.get("type").and_then(Value::as_str) != Some("response_item") {
            continue;
        }
        let Some(item) = line.get("payload") else {
            continue;
        };
        let ts = timestamp_of(&line);
        let kind = item.get("type").and_then(Value::as_str).unwrap_or_default();
        let call_id = item
            .get("call_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match kind {
            "message" => {
                let text = item.get("content").map(own_text).unwrap_or_default();
                match item.get("role").and_then(Value::as_str) {
                    Some("user") if !text.trim().is_empty() => out.push(user_text(&text, ts)),
                    Some("assistant") => out.extend(assistant(&text, Vec::new(), ts)),
                    _ => {}
                }
            }
            "function_call" | "custom_tool_call" => {
                let name = item.get("name").and_then(Value::as_str).unwrap_or_default();
                let input = arguments(item, name);
                let block = tool_use(table, call_id, name, input);
                out.extend(assistant("", vec![block], ts));
            }
            "function_call_output" | "custom_tool_call_output" => {
                let output = item.get("output").map(output_text).unwrap_or_default();
                out.push(tool_result(call_id, &output, false, ts));
            }
            _ => {}
        }
    }
    out
}

/// The user's own words in a message: its text parts, without the blocks
/// Codex wraps its context in (`<environment_context>…</environment_context>`).
fn own_text(content: &Value) -> String {
    let Value::Array(parts) = content else {
        return text_of(content);
    };
    parts
        .iter()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .filter(|t| {
            let t = t.trim();
            !(t.starts_with('<') && t.ends_with('>'))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A call's input as Claude's tool input: `arguments` (a JSON string) or
/// `input` (apply_patch's patch, which hooks get as `command`); a shell
/// command given as argv (`["bash", "-lc", "ls"]`) becomes its script.
fn arguments(item: &Value, name: &str) -> Value {
    if let Some(patch) = item.get("input").and_then(Value::as_str) {
        return json!({"command": patch});
    }
    let mut args = match item.get("arguments") {
        Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| json!({"input": s})),
        Some(other) => other.clone(),
        None => json!({}),
    };
    if let Some(argv) = args.get("command").and_then(Value::as_array) {
        let words: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
        let script = match words.as_slice() {
            [.., flag, script] if flag.starts_with('-') && flag.ends_with('c') => {
                (*script).to_string()
            }
            _ => words.join(" "),
        };
        args["command"] = json!(script);
    } else if let Some(cmd) = args.get("cmd").cloned().filter(|_| name == "exec_command") {
        args["command"] = cmd;
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{codex, Agent};

    #[test]
    fn a_rollout_becomes_claudes_records() {
        let rollout = [
            r#"{"timestamp":"2026-11-29T11:10:16.100Z","type":"session_meta","payload":{"id":"01a226ff","cwd":"/w","cli_version":"0.171.0"}}"#,
            r#"{"timestamp":"2026-11-29T11:10:16.101Z","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>x</permissions instructions>"}]}}"#,
            r#"{"timestamp":"2026-11-29T11:10:16.102Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/w</cwd>\n</environment_context>"}]}}"#,
            r#"{"timestamp":"2026-11-29T11:10:16.103Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"list the files"}]}}"#,
            r#"{"timestamp":"2026-11-29T11:10:16.104Z","type":"event_msg","payload":{"type":"user_message","message":"list the files","kind":"plain"}}"#,
            r#"{"timestamp":"2026-11-29T11:10:16.105Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5-codex"}}"#,
            r#"{"timestamp":"2026-11-29T11:10:17.000Z","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"gAAA"}}"#,
            r#"{"timestamp":"2026-11-29T11:10:17.100Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"ls\"],\"workdir\":\"/w\"}","call_id":"call_1"}}"#,
            r#"{"timestamp":"2026-11-29T11:10:17.200Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"a.txt\\n\",\"metadata\":{\"exit_code\":0}}"}}"#,
            r#"{"timestamp":"2026-11-29T11:10:17.300Z","type":"response_item","payload":{"type":"custom_tool_call","status":"completed","call_id":"call_2","name":"apply_patch","input":"*** Begin Patch\n*** Add File: b.txt\n+hi\n*** End Patch"}}"#,
            r#"{"timestamp":"2026-11-29T11:10:17.400Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"call_2","output":"Success."}}"#,
            r#"{"timestamp":"2026-11-29T11:10:18.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"There is a.txt."}]}}"#,
            r#"{"timestamp":"2026-11-29T11:10:18.001Z","type":"event_msg","payload":{"type":"agent_message","message":"There is a.txt."}}"#,
        ];
        let mut values = rollout.iter().map(|l| serde_json::from_str(l).unwrap());
        let got = read(&mut values, codex::Codex.table());
        assert_eq!(got.len(), 6, "{got:#?}");
        assert_eq!(got[0]["type"], "user");
        assert_eq!(got[0]["message"]["content"], "list the files");
        assert_eq!(got[0]["timestamp"], "2026-11-29T11:10:16.103Z");
        let call = &got[1]["message"]["content"][0];
        assert_eq!(call["type"], "tool_use");
        assert_eq!(call["name"], "Bash");
        assert_eq!(call["id"], "call_1");
        assert_eq!(call["input"]["command"], "ls");
        let result = &got[2]["message"]["content"][0];
        assert_eq!(result["tool_use_id"], "call_1");
        assert!(result["content"].as_str().unwrap().contains("a.txt"));
        let patch = &got[3]["message"]["content"][0];
        assert_eq!(patch["name"], "Edit");
        assert!(patch["input"]["command"]
            .as_str()
            .unwrap()
            .starts_with("*** Begin Patch"));
        assert_eq!(got[4]["message"]["content"][0]["content"], "Success.");
        assert_eq!(got[5]["type"], "assistant");
        assert_eq!(got[5]["message"]["content"][0]["text"], "There is a.txt.");
    }
}
