//! Logs 20,000 lines of 1 KiB (20 MB), far past the log quota, then answers.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        let line = "y".repeat(1024);
        for _ in 0..20_000 {
            log(Level::Debug, &line);
        }
        Ok(context("logged"))
    }
}
hostile_guests::export!(G);
fn main() {}
