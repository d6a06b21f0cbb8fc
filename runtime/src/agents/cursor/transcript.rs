//! Cursor's agent transcript
//! (`~/.cursor/projects/<project>/agent-transcripts/<conversation>.jsonl`,
//! the IDE's in `<conversation>/<conversation>.jsonl`) as Claude Code's
//! transcript records.
//!
//! Cursor documents no format; this reads what readers of real sessions
//! describe (entireio/cli `agent/cursor/AGENT.md` and its transcript
//! tests, a session of 2026-08 with its tool calls; codeburn's and tape's
//! Cursor readers): one line per message, `{role, message: {content}}`,
//! the content Claude's blocks (`text`, `tool_use {name, input}`, with no
//! `id`); a line with a `type` and no `message` ends a turn. A prompt's
//! text is wrapped in `<user_query>`, after an optional `<timestamp>`.
//! Tool inputs are the model's: `path` and `contents` where hooks get
//! `file_path` and `content`. No Cursor was run here, and Cursor's CLI
//! sends `transcript_path` as null (entireio's captures), so only where it
//! names a file is there a view.

use serde_json::{Map, Value};

use super::super::transcript::{from_blocks, timestamp_of};
use super::super::Table;

/// The tools whose `path` is the file they act on (Grep's is a directory,
/// as in Claude's).
const FILE_TOOLS: &[&str] = &["Read", "Write", "StrReplace", "Delete", "EditNotebook"];

/// Claude's records for a Cursor agent transcript.
pub fn read(lines: &mut dyn Iterator<Item = Value>, table: &Table) -> Vec<Value> {
    let mut out = Vec::new();
    for (n, line) in lines.enumerate() {
        let Some(role) = line.get("role").and_then(Value::as_str) else {
            continue;
        };
        let Some(mut content) = line.pointer("/message/content").cloned() else {
            continue;
        };
        if let Value::Array(blocks) = &mut content {
            for block in blocks.iter_mut() {
                reshape(role, block);
            }
        } else if let Value::String(text) = &mut content {
            *text = prompt_text(text);
        }
        let id = format!("cursor-{n}");
        out.extend(from_blocks(role, &content, table, &id, timestamp_of(&line)));
    }
    out
}

/// A block as Claude writes it: a prompt without Cursor's wrapping, a
/// file tool's input with Claude's keys.
fn reshape(role: &str, block: &mut Value) {
    if role == "user" {
        if let Some(Value::String(text)) = block.get_mut("text") {
            *text = prompt_text(text);
        }
        return;
    }
    let name = block
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let renames: &[(&str, &str)] = match name {
        n if FILE_TOOLS.contains(&n) => &[("path", "file_path"), ("contents", "content")],
        "Glob" => &[("glob_pattern", "pattern"), ("target_directory", "path")],
        _ => return,
    };
    if let Some(Value::Object(input)) = block.get_mut("input") {
        rename(input, renames);
    }
}

fn rename(input: &mut Map<String, Value>, renames: &[(&str, &str)]) {
    for (native, canonical) in renames {
        if !input.contains_key(*canonical) {
            if let Some(v) = input.remove(*native) {
                input.insert((*canonical).to_string(), v);
            }
        }
    }
}

/// A prompt's own text: inside `<user_query>` when Cursor wrapped it, a
/// leading `<timestamp>` dropped.
fn prompt_text(text: &str) -> String {
    let mut rest = text.trim_start();
    if let Some(after) = rest.strip_prefix("<timestamp>") {
        if let Some(end) = after.find("</timestamp>") {
            rest = after[end + "</timestamp>".len()..].trim_start();
        }
    }
    if let Some(inner) = rest.strip_prefix("<user_query>") {
        if let Some(end) = inner.rfind("</user_query>") {
            return inner[..end].trim().to_string();
        }
    }
    rest.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{cursor, Agent};

    #[test]
    fn cursor_lines_become_claudes_records_with_claudes_tool_names_and_inputs() {
        let lines = [
            r#"{"role":"user","message":{"content":[{"type":"text","text":"<timestamp>2026-12-01</timestamp>\n<user_query>\nadd one to notes.md\n</user_query>"}]}}"#,
            r#"{"role":"assistant","message":{"content":[{"type":"text","text":"Writing it."},{"type":"tool_use","name":"Write","input":{"path":"/w/notes.md","contents":"one\n"}}]}}"#,
            r#"{"role":"assistant","message":{"content":[{"type":"tool_use","name":"Shell","input":{"command":"git status --short","description":"status"}},{"type":"tool_use","name":"StrReplace","input":{"path":"/w/a.rs","old_string":"a","new_string":"b"}}]}}"#,
            r#"{"role":"assistant","message":{"content":[{"type":"tool_use","name":"Grep","input":{"pattern":"todo","path":"/w/src"}}]}}"#,
            r#"{"type":"turn_ended","status":"success"}"#,
            r#"{"role":"assistant","message":{"content":[{"type":"text","text":"Done."}]}}"#,
        ];
        let mut values = lines.iter().map(|l| serde_json::from_str(l).unwrap());
        let got = read(&mut values, cursor::Cursor.table());
        assert_eq!(got.len(), 5, "{got:#?}");
        assert_eq!(got[0]["message"]["content"], "add one to notes.md");
        let write = &got[1]["message"]["content"][1];
        assert_eq!(write["name"], "Write");
        assert_eq!(write["input"]["file_path"], "/w/notes.md");
        assert_eq!(write["input"]["content"], "one\n");
        let calls = &got[2]["message"]["content"];
        assert_eq!(calls[0]["name"], "Bash");
        assert_eq!(calls[0]["input"]["command"], "git status --short");
        assert_eq!(calls[1]["name"], "Edit");
        assert_eq!(calls[1]["input"]["file_path"], "/w/a.rs");
        assert_ne!(calls[0]["id"], calls[1]["id"], "ids are made, and differ");
        assert_eq!(got[3]["message"]["content"][0]["input"]["path"], "/w/src");
        assert_eq!(got[4]["message"]["content"][0]["text"], "Done.");
    }

    #[test]
    fn a_prompt_without_cursors_wrapping_is_kept_as_it_is() {
        assert_eq!(prompt_text("  plain words "), "plain words ");
        assert_eq!(
            prompt_text("<user_query>\n<timestamp>mine</timestamp>\n</user_query>"),
            "<timestamp>mine</timestamp>"
        );
        assert_eq!(prompt_text("<timestamp>unclosed"), "<timestamp>unclosed");
    }
}
