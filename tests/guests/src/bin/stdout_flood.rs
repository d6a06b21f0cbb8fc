//! Writes 100 MB to stdout, ignoring write errors, then answers.
use hostile_guests::*;
use std::io::Write;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        let chunk = vec![b'x'; 64 << 10];
        let mut out = std::io::stdout();
        for _ in 0..1600 {
            let _ = out.write_all(&chunk);
        }
        Ok(context("flooded"))
    }
}
hostile_guests::export!(G);
fn main() {}
