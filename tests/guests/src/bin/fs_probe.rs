//! Reads `tool_input.file_path` (or writes `tool_input.content` to it) and says what happened.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(event: Event) -> Result<Answer, String> {
        let path = tool_input_str(&event, "file_path").ok_or("no file_path")?;
        let text = match tool_input_str(&event, "content") {
            Some(content) => match std::fs::write(&path, content) {
                Ok(()) => "write ok".to_string(),
                Err(e) => format!("write failed: {e}"),
            },
            None => match std::fs::read_to_string(&path) {
                Ok(s) => format!("read ok: {}", s.trim()),
                Err(e) => format!("read failed: {e}"),
            },
        };
        Ok(context(text))
    }
}
hostile_guests::export!(G);
fn main() {}
