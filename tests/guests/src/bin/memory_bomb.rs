//! Allocates without end.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            hoard.push(std::hint::black_box(vec![1u8; 1 << 20]));
        }
    }
}
hostile_guests::export!(G);
fn main() {}
