//! Panics.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        panic!("the guest panicked on purpose");
    }
}
hostile_guests::export!(G);
fn main() {}
