//! Connects to `tool_input.url` (`host:port`) and says what happened.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(event: Event) -> Result<Answer, String> {
        let addr = tool_input_str(&event, "url").ok_or("no url")?;
        let text = match std::net::TcpStream::connect(addr.as_str()) {
            Ok(_) => "connect ok".to_string(),
            Err(e) => format!("connect failed: {e}"),
        };
        Ok(context(text))
    }
}
hostile_guests::export!(G);
fn main() {}
