//! Logs 1 KiB lines without end.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        let line = "y".repeat(1024);
        for _ in 0..1_000_000 {
            log(Level::Debug, &line);
        }
        Ok(context("logged"))
    }
}
hostile_guests::export!(G);
fn main() {}
