//! What an agent's transcript is, for hooks that read `transcript_path` as
//! Claude Code's JSON lines: already Claude's, readable by an agent's own
//! reader (rendered into Claude's records by `exec::transcript`), or
//! unknown (the field is dropped for hooks rather than point at a file in
//! another shape).
//!
//! The records built here are the parts of Claude Code's transcript lines
//! hooks read: `type` (`user`/`assistant`), `message.role`,
//! `message.content` (a string, or blocks of `text`, `tool_use` and
//! `tool_result`) and `timestamp`. Tool names and inputs are mapped to
//! Claude's through the agent's table, as in events.

use serde_json::{json, Map, Value};

use super::Table;

/// The most characters of one text, tool input string or tool result kept
/// in a rendered record.
pub const TEXT_CHARS: usize = 16_000;

/// Renders an agent's transcript, parsed value by value (JSON lines, or one
/// whole-file document), into Claude's records, oldest first.
pub type ReadTranscript = fn(&mut dyn Iterator<Item = Value>, &Table) -> Vec<Value>;

/// The shape of an agent's `transcript_path`.
#[derive(Debug, Clone, Copy)]
pub enum TranscriptShape {
    /// Claude Code's JSON lines: hooks get it as it is.
    Claude,
    /// The agent's own format, which this reader renders.
    Reader(ReadTranscript),
    /// Not known: hooks get `transcript_path_native` only.
    Unknown,
}

/// `text` cut to [`TEXT_CHARS`], with `…` where it was cut.
pub fn cut(text: &str) -> String {
    let mut out: String = text.chars().take(TEXT_CHARS).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// The `timestamp` of a native record, when it has a string one.
pub fn timestamp_of(record: &Value) -> Option<&Value> {
    record.get("timestamp").filter(|t| t.is_string())
}

fn record(kind: &str, content: Value, timestamp: Option<&Value>) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!(kind));
    out.insert("message".into(), json!({"role": kind, "content": content}));
    if let Some(ts) = timestamp {
        out.insert("timestamp".into(), ts.clone());
    }
    Value::Object(out)
}

/// A user's prompt.
pub fn user_text(text: &str, timestamp: Option<&Value>) -> Value {
    record("user", json!(cut(text)), timestamp)
}

/// An assistant turn: its text (if any) and tool calls, as Claude's blocks;
/// `None` when it has neither.
pub fn assistant(text: &str, tool_uses: Vec<Value>, timestamp: Option<&Value>) -> Option<Value> {
    let mut blocks = Vec::new();
    if !text.trim().is_empty() {
        blocks.push(json!({"type": "text", "text": cut(text)}));
    }
    blocks.extend(tool_uses);
    (!blocks.is_empty()).then(|| record("assistant", Value::Array(blocks), timestamp))
}

/// A `tool_use` block for the native tool `native` with `input`, named and
/// shaped as hooks see that tool in events.
pub fn tool_use(table: &Table, id: &str, native: &str, input: Value) -> Value {
    let name = table.canonical_tool(native).to_string();
    let input = match input {
        Value::Object(mut args) => {
            super::plan::to_canonical_input(table, &name, &mut args);
            for v in args.values_mut() {
                if let Value::String(s) = v {
                    *s = cut(s);
                }
            }
            Value::Object(args)
        }
        Value::String(s) => json!({"input": cut(&s)}),
        other => other,
    };
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

/// A tool's result, as the user record Claude Code writes for it.
pub fn tool_result(id: &str, output: &str, is_error: bool, timestamp: Option<&Value>) -> Value {
    let mut block = json!({"type": "tool_result", "tool_use_id": id, "content": cut(output)});
    if is_error {
        block["is_error"] = json!(true);
    }
    record("user", json!([block]), timestamp)
}

/// Text from a value that is a string, or blocks/parts with `text`.
pub fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A tool's output as text: a string as it is, else `content`/`output`
/// inside it, else its JSON.
pub fn output_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Object(map) => ["content", "output", "text"]
            .iter()
            .find_map(|k| map.get(*k).map(output_text))
            .unwrap_or_else(|| value.to_string()),
        Value::Array(_) => {
            let text = text_of(value);
            if text.is_empty() {
                value.to_string()
            } else {
                text
            }
        }
        other => other.to_string(),
    }
}

/// Claude's records for one message whose `content` is already in Claude's
/// blocks (`text`, `tool_use`, `tool_result`; or a string) but names the
/// agent's tools with the agent's inputs: an assistant's text and calls as
/// one record; a user's text as a prompt and each `tool_result` as the
/// record Claude Code writes for it. A `tool_use` without an `id` gets
/// `{id_prefix}-{n}`; `thinking` and other blocks, and other roles' messages,
/// are left out.
pub fn from_blocks(
    role: &str,
    content: &Value,
    table: &Table,
    id_prefix: &str,
    timestamp: Option<&Value>,
) -> Vec<Value> {
    if role != "user" && role != "assistant" {
        return Vec::new();
    }
    let blocks: &[Value] = match content {
        Value::Array(blocks) => blocks,
        Value::String(text) if role == "user" && !text.trim().is_empty() => {
            return vec![user_text(text, timestamp)];
        }
        Value::String(text) => return assistant(text, Vec::new(), timestamp).into_iter().collect(),
        _ => return Vec::new(),
    };
    let is = |b: &&Value, kind: &str| b.get("type").and_then(Value::as_str) == Some(kind);
    let text = blocks
        .iter()
        .filter(|b| is(b, "text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n");
    if role == "assistant" {
        let uses = blocks
            .iter()
            .filter(|b| is(b, "tool_use"))
            .enumerate()
            .map(|(n, b)| {
                let id = match b.get("id").and_then(Value::as_str) {
                    Some(id) if !id.is_empty() => id.to_string(),
                    _ => format!("{id_prefix}-{n}"),
                };
                let name = b.get("name").and_then(Value::as_str).unwrap_or_default();
                tool_use(
                    table,
                    &id,
                    name,
                    b.get("input").cloned().unwrap_or(Value::Null),
                )
            })
            .collect();
        return assistant(&text, uses, timestamp).into_iter().collect();
    }
    let mut out = Vec::new();
    if !text.trim().is_empty() {
        out.push(user_text(&text, timestamp));
    }
    for b in blocks.iter().filter(|b| is(b, "tool_result")) {
        let id = b
            .get("tool_use_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let output = b.get("content").map(output_text).unwrap_or_default();
        let failed = b.get("is_error").and_then(Value::as_bool) == Some(true);
        out.push(tool_result(id, &output, failed, timestamp));
    }
    out
}
