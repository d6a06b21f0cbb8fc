//! Returns `err`.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        Err("the guest refused on purpose".into())
    }
}
hostile_guests::export!(G);
fn main() {}
