//! The end of a conversation, for a Stop prompt hook to judge: the last
//! messages of the event's `transcript_path`, where it is in Claude Code's
//! JSON-lines shape.
//!
//! Why each piece is the way it is:
//!
//! - **The tail only.** A long session's transcript is hundreds of
//!   megabytes: only its last [`TAIL_BYTES`] are read, from a regular file
//!   opened without blocking ([`crate::fsread::open_bounded`]).
//! - **Bounded.** At most [`MESSAGES`] messages of at most
//!   [`MESSAGE_CHARS`] characters each.
//! - **Shape, not agent.** Lines with `type` `user` or `assistant` and a
//!   `message.content` (text, or blocks with `text`) are read; a transcript
//!   in any other shape gives nothing, and the hook says so in a note.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

/// The most bytes read from the end of a transcript.
pub const TAIL_BYTES: u64 = 512 << 10;
/// The most messages kept.
pub const MESSAGES: usize = 20;
/// The most characters kept of one message.
pub const MESSAGE_CHARS: usize = 2000;

/// The last messages of the transcript at `path` as `role: text` lines,
/// oldest first, or why there are none.
pub fn tail(path: &Path) -> Result<Vec<String>, String> {
    let (mut file, meta) =
        crate::fsread::open_bounded(path, u64::MAX).map_err(|e| e.to_string())?;
    let start = meta.len().saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(start))
        .map_err(|e| format!("cannot read the transcript: {e}"))?;
    let mut bytes = Vec::new();
    file.take(TAIL_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the transcript: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.lines();
    if start > 0 {
        // The first line was cut by the seek.
        lines.next();
    }
    let mut messages: Vec<String> = lines.filter_map(message).collect();
    if messages.is_empty() {
        return Err("the transcript holds no messages in Claude Code's shape".to_string());
    }
    let keep = messages.len().saturating_sub(MESSAGES);
    Ok(messages.split_off(keep))
}

/// One transcript line as `role: text`, if it is a message with text.
fn message(line: &str) -> Option<String> {
    let value: Value = serde_json::from_str(line).ok()?;
    let role = value.get("type").and_then(Value::as_str)?;
    if role != "user" && role != "assistant" {
        return None;
    }
    let content = value.pointer("/message/content")?;
    let text = match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return None,
    };
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut cut: String = text.chars().take(MESSAGE_CHARS).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    Some(format!("{role}: {cut}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_messages_are_read_and_other_lines_skipped() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("t.jsonl");
        let mut text = String::new();
        for i in 0..30 {
            text.push_str(&format!(
                "{{\"type\":\"user\",\"message\":{{\"role\":\"user\",\"content\":\"ask {i}\"}}}}\n"
            ));
            text.push_str("{\"type\":\"summary\",\"summary\":\"x\"}\nnot json\n");
            text.push_str(&format!(
                "{{\"type\":\"assistant\",\"message\":{{\"content\":[{{\"type\":\"text\",\"text\":\"did {i}\"}},{{\"type\":\"tool_use\"}}]}}}}\n"
            ));
        }
        std::fs::write(&path, text).unwrap();
        let got = tail(&path).unwrap();
        assert_eq!(got.len(), MESSAGES);
        assert_eq!(got.last().unwrap(), "assistant: did 29");
        assert_eq!(got[0], "user: ask 20");
        std::fs::write(&path, "{\"role\":\"user\",\"parts\":[]}\n").unwrap();
        assert!(tail(&path).is_err());
        assert!(tail(&d.path().join("missing")).is_err());
    }
}
