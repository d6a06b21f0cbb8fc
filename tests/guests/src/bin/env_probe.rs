//! Reads the environment variable named by `tool_input.name` and says what it found.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(event: Event) -> Result<Answer, String> {
        let name = tool_input_str(&event, "name").ok_or("no name")?;
        let text = match std::env::var(&name) {
            Ok(v) => format!("env present: {v}"),
            Err(_) => format!(
                "env absent ({} variables visible)",
                std::env::vars().count()
            ),
        };
        Ok(context(text))
    }
}
hostile_guests::export!(G);
fn main() {}
