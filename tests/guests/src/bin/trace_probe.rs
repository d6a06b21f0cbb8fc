//! Well-behaved: answers with the `traceparent` its input carries (a traced
//! event's, the host's OpenTelemetry export on), or `none`.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(event: Event) -> Result<Answer, String> {
        // No JSON parser in the guests: the value of `"traceparent":"…"`.
        let key = "\"traceparent\":\"";
        let found = event.input.find(key).and_then(|at| {
            let rest = &event.input[at + key.len()..];
            rest.find('"').map(|end| rest[..end].to_string())
        });
        Ok(context(format!(
            "traceparent={}",
            found.as_deref().unwrap_or("none")
        )))
    }
}
hostile_guests::export!(G);
fn main() {}
