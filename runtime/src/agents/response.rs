//! Fields whose shape differs by agent, given to hooks in Claude Code's shape:
//! a hook written for Claude that reads `tool_response.stdout` must read the
//! same thing under Codex (a plain string), Gemini (`{llmContent,
//! returnDisplay}`), Copilot (`{resultType, textResultForLlm}`), OpenCode (the
//! output text) or Pi (content blocks).
//!
//! `normalise` runs at the end of every decode ([`super::finish_decode`]).
//! A value that is already Claude's shape is left as it is; otherwise the
//! agent's own value is kept under `<field>_native` and the field is rebuilt
//! in Claude's shape:
//!
//! - `tool_response` (PostToolUse, PostToolUseFailure) per tool: `Bash`
//!   `{stdout, stderr, interrupted, isImage}`; `Read` `{type: "text", file:
//!   {filePath, content, numLines, startLine, totalLines}}`; `Write`
//!   `{filePath, content}`; `Edit` `{filePath, oldString, newString,
//!   replaceAll}` (Claude's shapes, from its recorded payloads and
//!   `docs/agent-protocols.md` §1). Other tools keep the agent's
//!   value: Claude's shapes for them are not one per tool.
//! - `error` (PostToolUseFailure): a string, as Claude sends it.
//! - `prompt` (UserPromptSubmit): a string.
//!
//! What cannot be recovered is left at Claude's neutral value: no agent but
//! Claude says whether a command was interrupted (`false`), and agents that
//! merge a command's streams give it all as `stdout`.

use serde_json::{json, Map, Value};

use crate::protocol::EventName;

/// The suffix of the field that keeps an agent's own value.
pub const NATIVE_SUFFIX: &str = "_native";

/// Reshapes `tool_response`, `error` and `prompt` of a decoded `event`
/// (canonical names already) into Claude's shape; see the module docs.
pub(crate) fn normalise(event: EventName, input: &mut Map<String, Value>) {
    if matches!(
        event,
        EventName::PostToolUse | EventName::PostToolUseFailure
    ) {
        let tool = input
            .get("tool_name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let args = input.get("tool_input").cloned().unwrap_or(Value::Null);
        replace(input, "tool_response", |native| {
            tool_response(&tool, &args, native)
        });
    }
    if event == EventName::PostToolUseFailure {
        if !input.contains_key("error") {
            let from_response = input
                .get("tool_response_native")
                .or_else(|| input.get("tool_response"))
                .and_then(|r| r.get("error"))
                .cloned();
            if let Some(e) = from_response {
                input.insert("error".into(), e);
            }
        }
        replace(input, "error", |native| match native {
            Value::String(_) => None,
            Value::Object(o) => o
                .get("message")
                .and_then(Value::as_str)
                .map(|m| json!(m))
                .or_else(|| text_of(native).map(Value::String)),
            other => text_of(other).map(Value::String),
        });
    }
    if event == EventName::UserPromptSubmit {
        replace(input, "prompt", |native| match native {
            Value::String(_) => None,
            other => text_of(other).map(Value::String),
        });
    }
}

/// Puts `reshape(value)` in place of `key`'s value, and the value under
/// `<key>_native`, when `reshape` gives something (`None`: already Claude's).
fn replace(
    input: &mut Map<String, Value>,
    key: &str,
    reshape: impl FnOnce(&Value) -> Option<Value>,
) {
    let Some(native) = input.get(key).filter(|v| !v.is_null()) else {
        return;
    };
    if let Some(claude) = reshape(native) {
        let native = input.insert(key.to_string(), claude).unwrap_or(Value::Null);
        input.insert(format!("{key}{NATIVE_SUFFIX}"), native);
    }
}

/// Claude's `tool_response` for `tool`, or `None` when `native` already is
/// Claude's shape or the tool has no single shape in Claude.
fn tool_response(tool: &str, args: &Value, native: &Value) -> Option<Value> {
    let arg = |k: &str| args.get(k).cloned().unwrap_or(Value::Null);
    let has = |k: &str| native.get(k).is_some();
    match tool {
        "Bash" if !has("stdout") => {
            let (stdout, stderr) = shell_streams(&text_of(native).unwrap_or_default());
            Some(
                json!({"stdout": stdout, "stderr": stderr, "interrupted": false, "isImage": false}),
            )
        }
        "Read" if !has("file") => {
            let content = text_of(native).unwrap_or_default();
            let lines = content.lines().count();
            Some(json!({"type": "text", "file": {
                "filePath": arg("file_path"), "content": content,
                "numLines": lines, "startLine": 1, "totalLines": lines,
            }}))
        }
        "Write" if !has("filePath") => Some(json!({
            "filePath": arg("file_path"), "content": arg("content"),
        })),
        "Edit" if !has("filePath") => Some(json!({
            "filePath": arg("file_path"), "oldString": arg("old_string"),
            "newString": arg("new_string"), "replaceAll": args.get("replace_all").cloned().unwrap_or(json!(false)),
        })),
        _ => None,
    }
}

/// The text an agent's value carries: a string itself, or the field each
/// agent puts it in (Gemini/Qwen `llmContent`, Copilot `textResultForLlm`
/// or, in Claude's format, `text_result_for_llm`,
/// OpenCode `output`, Cline `result`, Pi's and MCP's content blocks).
fn text_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => {
            let texts: Vec<&str> = blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str).or_else(|| b.as_str()))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        Value::Object(o) => [
            "llmContent",
            "textResultForLlm",
            "text_result_for_llm",
            "output",
            "result",
            "content",
        ]
        .iter()
        .find_map(|k| o.get(*k).and_then(text_of)),
        _ => None,
    }
}

/// A shell tool's text split into stdout and stderr: Gemini's and Qwen's
/// labelled block (`Output: ...`, `Error: ...`, `Exit Code: ...`), else the
/// whole text as stdout without the status lines agents append (Copilot's
/// `<shellId: 0 completed with exit code 0>`, Factory's `[Process exited with
/// code 0]`), or only what Auggie puts between `<output>` and `</output>`
/// after its preamble and `<return-code>`. Trailing newlines go, as in
/// Claude's.
fn shell_streams(text: &str) -> (String, String) {
    if let (true, Some(start), Some(end)) = (
        text.contains("<return-code>"),
        text.find("<output>"),
        text.rfind("</output>"),
    ) {
        if let Some(inner) = text.get(start + "<output>".len()..end) {
            return (
                inner.trim_start_matches('\n').trim_end().to_string(),
                String::new(),
            );
        }
    }
    const LABELS: &[&str] = &[
        "Command:",
        "Directory:",
        "Output:",
        "Error:",
        "Exit Code:",
        "Signal:",
        "Background PIDs:",
        "Process Group PGID:",
    ];
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !matches!(l.trim(), "<untrusted_context>" | "</untrusted_context>"))
        .collect();
    if lines.iter().any(|l| l.starts_with("Output:")) {
        let section = |label: &str| {
            let mut out: Vec<&str> = Vec::new();
            let mut inside = false;
            for line in &lines {
                if let Some(rest) = line.strip_prefix(label) {
                    inside = true;
                    out.push(rest.trim_start());
                } else if LABELS.iter().any(|l| line.starts_with(l)) {
                    inside = false;
                } else if inside {
                    out.push(line);
                }
            }
            let joined = out.join("\n");
            match joined.trim_end() {
                "(empty)" | "(none)" => String::new(),
                s => s.to_string(),
            }
        };
        return (section("Output:"), section("Error:"));
    }
    let status = |l: &str| {
        let l = l.trim();
        (l.starts_with("<shellId:") && l.ends_with('>'))
            || (l.starts_with("[Process exited with code") && l.ends_with(']'))
    };
    let kept: Vec<&str> = lines.into_iter().filter(|l| !status(l)).collect();
    (kept.join("\n").trim_end().to_string(), String::new())
}

#[cfg(test)]
#[path = "response_tests.rs"]
mod tests;
