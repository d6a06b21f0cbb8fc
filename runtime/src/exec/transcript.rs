//! Transcripts for hooks: the Claude-shaped view of an agent's own
//! transcript that hooks get as `transcript_path` ([`for_hooks`]), and the
//! end of a conversation, for a Stop prompt hook to judge ([`tail`]).
//!
//! Why each piece is the way it is:
//!
//! - **A view, not a translation of the file in place.** Hooks published
//!   for Claude Code read `transcript_path` as Claude's JSON lines. Where
//!   an agent's transcript can be read ([`TranscriptShape::Reader`]: Codex
//!   rollouts, Gemini chats, Copilot's events), hooks get a rendering of
//!   it in that shape, with the agent's own path kept under
//!   `transcript_path_native`; where it cannot (an unknown format, a file
//!   that cannot be read), `transcript_path` is absent rather than wrong.
//! - **On demand and cached.** The view is made only when a selected hook
//!   runs, under `transcripts/` in agenthooks' cache directory, one file
//!   per transcript (per session), and made again only when the source
//!   changed (its size or modification time).
//! - **Bounded.** The view renders the last [`VIEW_SOURCE_BYTES`] of the
//!   source, keeps its last [`VIEW_RECORDS`] records and at most
//!   [`VIEW_BYTES`]; each text is cut by the agent's reader.
//! - **The tail only.** A long session's transcript is hundreds of
//!   megabytes: [`tail`] reads only its last [`TAIL_BYTES`], from a regular
//!   file opened without blocking ([`crate::fsread::open_bounded`]).
//! - **Few and short.** At most [`MESSAGES`] messages of at most
//!   [`MESSAGE_CHARS`] characters each.
//! - **Shape, not agent.** Lines with `type` `user` or `assistant` and a
//!   `message.content` (text, or blocks with `text`) are read; a transcript
//!   in any other shape gives nothing, and the hook says so in a note.

use std::io::{Read, Seek, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::agents::transcript::{ReadTranscript, TranscriptShape};
use crate::agents::Table;
use crate::fsread::FileStamp;
use crate::protocol::Event;

/// The most bytes read from the end of an agent's transcript for its view.
pub const VIEW_SOURCE_BYTES: u64 = 4 << 20;
/// The most records a view keeps (the last ones).
pub const VIEW_RECORDS: usize = 2000;
/// The most bytes a view holds.
pub const VIEW_BYTES: usize = 4 << 20;
/// Views unused this long are removed when a new one is made.
const VIEW_MAX_AGE: Duration = Duration::from_secs(7 * 24 * 3600);
/// The most directory entries the cleanup looks at.
const VIEW_CLEANUP_ENTRIES: usize = 4096;

/// The payload key hooks find the agent's own transcript path under.
pub const NATIVE_KEY: &str = "transcript_path_native";

/// `event` as its hooks get it, when that differs: `transcript_path`
/// pointing at the Claude-shaped view of the agent's transcript (made or
/// refreshed now, under `dir`, default `transcripts/` in the cache), or
/// dropped where the agent's transcript cannot be read; the agent's own
/// path under [`NATIVE_KEY`]. `None`: hooks get `event` as it is (Claude's
/// transcript, or none).
pub fn for_hooks(event: &Event, dir: Option<&Path>) -> Option<Event> {
    let native = event.str_field("transcript_path")?.to_string();
    let agent = crate::agents::find(event.harness())?;
    let view = match agent.transcript() {
        TranscriptShape::Claude => return None,
        TranscriptShape::Unknown => None,
        TranscriptShape::Reader(read) => {
            let dir = dir
                .map(Path::to_path_buf)
                .or_else(|| crate::dirs::cache().map(|c| c.join("transcripts")));
            dir.and_then(|dir| {
                view(
                    Path::new(&native),
                    &dir,
                    event.harness(),
                    read,
                    agent.table(),
                )
                .ok()
            })
        }
    };
    let mut out = event.clone();
    let input = out.input_mut();
    input.insert(NATIVE_KEY.into(), Value::String(native));
    match view {
        Some(path) => {
            input.insert(
                "transcript_path".into(),
                Value::String(path.to_string_lossy().into_owned()),
            );
        }
        None => {
            input.remove("transcript_path");
        }
    }
    Some(out)
}

/// The view of the transcript at `source` in `dir`: reused while the source
/// is unchanged, else rendered again with `read`.
///
/// # Errors
/// Why the source cannot be read or the view cannot be written.
fn view(
    source: &Path,
    dir: &Path,
    harness: &str,
    read: ReadTranscript,
    table: &Table,
) -> Result<PathBuf, String> {
    let (mut file, meta) =
        crate::fsread::open_bounded(source, u64::MAX).map_err(|e| e.to_string())?;
    let key = crate::encoding::sha256_hex(format!("{harness}\0{}", source.display()).as_bytes());
    let key = &key[..24];
    let path = dir.join(format!("{harness}-{key}.jsonl"));
    let stamp_path = dir.join(format!("{harness}-{key}.source"));
    let stamp = FileStamp::of(&meta);
    let stamp = format!("{} {} {}", stamp.size, stamp.mtime.0, stamp.mtime.1);
    // The stamp is a few dozen bytes; anything else there is not ours.
    let fresh = crate::fsread::read_bounded_string(&stamp_path, 256).is_ok_and(|s| s == stamp);
    if fresh && path.is_file() {
        return Ok(path);
    }
    let (text, cut) = last_bytes(&mut file, meta.len(), VIEW_SOURCE_BYTES)?;
    let records = render(&text, cut, read, table);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let new = !path.exists();
    write_atomically(dir, &path, records.as_bytes())?;
    write_atomically(dir, &stamp_path, stamp.as_bytes())?;
    if new {
        clean(dir);
    }
    Ok(path)
}

/// The view's JSON lines for the transcript `text` (whose first line was
/// cut when `cut_start`): one whole document, or JSON lines.
fn render(text: &str, cut_start: bool, read: ReadTranscript, table: &Table) -> String {
    let whole = (!cut_start)
        .then(|| serde_json::from_str::<Value>(text).ok())
        .flatten()
        .filter(Value::is_object);
    let records = match whole {
        Some(doc) => read(&mut std::iter::once(doc), table),
        None => {
            let mut lines = text.lines().skip(usize::from(cut_start));
            let mut values =
                std::iter::from_fn(|| lines.find_map(|l| serde_json::from_str::<Value>(l).ok()));
            read(&mut values, table)
        }
    };
    let skip = records.len().saturating_sub(VIEW_RECORDS);
    let mut lines: Vec<String> = records[skip..].iter().map(|r| format!("{r}\n")).collect();
    let mut total: usize = lines.iter().map(String::len).sum();
    let mut first = 0;
    while total > VIEW_BYTES && first < lines.len() {
        total -= lines[first].len();
        first += 1;
    }
    lines.split_off(first).concat()
}

/// Write `bytes` to `path` through a temporary file in `dir`, renamed over it.
fn write_atomically(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| fail(&e))?;
    tmp.write_all(bytes).map_err(|e| fail(&e))?;
    tmp.persist(path).map_err(|e| fail(&e.error))?;
    Ok(())
}

/// Remove views (and their stamps) not written for [`VIEW_MAX_AGE`].
fn clean(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten().take(VIEW_CLEANUP_ENTRIES) {
        let old = entry
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > VIEW_MAX_AGE);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

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
    let (text, cut) = last_bytes(&mut file, meta.len(), TAIL_BYTES)?;
    let mut lines = text.lines();
    if cut {
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

/// The last `max` bytes of `file` (`len` bytes long) as text, and whether
/// that cut the file (its first line is then partial).
fn last_bytes(file: &mut std::fs::File, len: u64, max: u64) -> Result<(String, bool), String> {
    let start = len.saturating_sub(max);
    file.seek(SeekFrom::Start(start))
        .map_err(|e| format!("cannot read the transcript: {e}"))?;
    let mut bytes = Vec::new();
    file.take(max)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the transcript: {e}"))?;
    Ok((String::from_utf8_lossy(&bytes).into_owned(), start > 0))
}

/// One transcript line as `role: text`, if it is a message with text.
fn message(line: &str) -> Option<String> {
    let value: Value = serde_json::from_str(line).ok()?;
    let role = value.get("type").and_then(Value::as_str)?;
    if role != "user" && role != "assistant" {
        return None;
    }
    let text = crate::agents::transcript::text_of(value.pointer("/message/content")?);
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
        let (d, path) = crate::fsread::temp_file("t.jsonl", text);
        let got = tail(&path).unwrap();
        assert_eq!(got.len(), MESSAGES);
        assert_eq!(got.last().unwrap(), "assistant: did 29");
        assert_eq!(got[0], "user: ask 20");
        std::fs::write(&path, "{\"role\":\"user\",\"parts\":[]}\n").unwrap();
        assert!(tail(&path).is_err());
        assert!(tail(&d.path().join("missing")).is_err());
    }
}

#[cfg(test)]
mod view_tests {
    use super::*;
    use serde_json::json;

    const ROLLOUT: &str = concat!(
        r#"{"timestamp":"t0","type":"session_meta","payload":{"id":"s1","cwd":"/w"}}"#,
        "\n",
        r#"{"timestamp":"t1","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}}"#,
        "\n",
    );
    const ANSWER: &str = concat!(
        r#"{"timestamp":"t2","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi there"}]}}"#,
        "\n"
    );

    fn event(agent: &str, transcript: &Path) -> Event {
        let payload = json!({"hook_event_name": "Stop", "session_id": "s1", "cwd": "/",
                             "transcript_path": transcript});
        crate::agents::find(agent)
            .unwrap()
            .decode(payload, Some("Stop"))
            .unwrap()
    }

    #[test]
    fn hooks_get_a_claude_shaped_view_made_once_and_refreshed_when_the_source_grows() {
        let d = tempfile::tempdir().unwrap();
        let source = d.path().join("rollout.jsonl");
        let cache = d.path().join("cache");
        std::fs::write(&source, ROLLOUT).unwrap();
        let seen = for_hooks(&event("codex", &source), Some(&cache)).unwrap();
        assert_eq!(seen.str_field(NATIVE_KEY), source.to_str());
        let view = PathBuf::from(seen.str_field("transcript_path").unwrap());
        assert!(view.starts_with(&cache), "{}", view.display());
        // The prompt hooks' reader (Claude's shape only) reads it.
        assert_eq!(tail(&view).unwrap(), ["user: hello"]);
        // Unchanged source: the view is not written again.
        std::fs::write(&view, "kept\n").unwrap();
        for_hooks(&event("codex", &source), Some(&cache)).unwrap();
        assert_eq!(std::fs::read_to_string(&view).unwrap(), "kept\n");
        // The source grew: rendered again.
        std::fs::write(&source, format!("{ROLLOUT}{ANSWER}")).unwrap();
        for_hooks(&event("codex", &source), Some(&cache)).unwrap();
        assert_eq!(tail(&view).unwrap(), ["user: hello", "assistant: hi there"]);
        // The agent's own file is untouched.
        assert_eq!(
            std::fs::read_to_string(&source).unwrap(),
            format!("{ROLLOUT}{ANSWER}")
        );
    }

    #[test]
    fn where_the_transcript_cannot_be_read_the_field_is_absent_rather_than_wrong() {
        let d = tempfile::tempdir().unwrap();
        let cache = d.path().join("cache");
        let missing = d.path().join("missing.jsonl");
        let seen = for_hooks(&event("codex", &missing), Some(&cache)).unwrap();
        assert_eq!(seen.str_field("transcript_path"), None);
        assert_eq!(seen.str_field(NATIVE_KEY), missing.to_str());
        // A format agenthooks cannot read: native path only.
        let file = d.path().join("chat.jsonl");
        std::fs::write(&file, ROLLOUT).unwrap();
        let seen = for_hooks(&event("qoder", &file), Some(&cache)).unwrap();
        assert_eq!(seen.str_field("transcript_path"), None);
        assert_eq!(seen.str_field(NATIVE_KEY), file.to_str());
        // Claude's own transcript is passed as it is.
        assert!(for_hooks(&event("claude", &file), Some(&cache)).is_none());
        assert!(
            !cache.exists(),
            "nothing is cached for what cannot be viewed"
        );
    }

    #[test]
    fn a_view_is_bounded_in_records_and_bytes() {
        let d = tempfile::tempdir().unwrap();
        let source = d.path().join("rollout.jsonl");
        let mut text = String::new();
        for i in 0..(VIEW_RECORDS + 50) {
            text.push_str(&format!(
                "{{\"type\":\"response_item\",\"payload\":{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":\"ask {i}\"}}]}}}}\n"
            ));
        }
        std::fs::write(&source, &text).unwrap();
        let seen = for_hooks(&event("codex", &source), Some(&d.path().join("c"))).unwrap();
        let view = std::fs::read_to_string(seen.str_field("transcript_path").unwrap()).unwrap();
        let lines: Vec<&str> = view.lines().collect();
        assert_eq!(lines.len(), VIEW_RECORDS);
        assert!(lines[0].contains("\"ask 50\""), "{}", lines[0]);
        // One huge message: its text is cut, and the view stays under its cap.
        let big = "x".repeat(3 << 20);
        let line = json!({"type": "response_item", "payload": {"type": "message", "role": "user",
                          "content": [{"type": "input_text", "text": big}]}});
        std::fs::write(&source, format!("{line}\n{line}\n{line}\n")).unwrap();
        let seen = for_hooks(&event("codex", &source), Some(&d.path().join("c"))).unwrap();
        let size = std::fs::metadata(seen.str_field("transcript_path").unwrap())
            .unwrap()
            .len();
        assert!(size < 100_000, "{size}");
    }
}
