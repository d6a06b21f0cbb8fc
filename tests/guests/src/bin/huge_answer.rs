//! Denies with a 30 MB reason and adds 20 MB of context: 50 MB of answer.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        let mut answer = context("c".repeat(20 << 20));
        answer.permission = Some(Permission::Deny);
        answer.reason = Some("é".repeat(15 << 20));
        Ok(answer)
    }
}
hostile_guests::export!(G);
fn main() {}
