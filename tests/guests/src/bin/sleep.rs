//! Blocks inside a host call (a WASI sleep) far past any timeout.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        std::thread::sleep(std::time::Duration::from_secs(60));
        Ok(context("woke up"))
    }
}
hostile_guests::export!(G);
fn main() {}
