//! Logs empty lines for one second (they cost no bytes of the log quota,
//! only lines), then answers.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        let start = std::time::Instant::now();
        let mut lines = 0u64;
        while start.elapsed() < std::time::Duration::from_secs(1) {
            for _ in 0..10_000 {
                log(Level::Debug, "");
            }
            lines += 10_000;
        }
        Ok(context(format!("flooded with {lines} empty lines")))
    }
}
hostile_guests::export!(G);
fn main() {}
