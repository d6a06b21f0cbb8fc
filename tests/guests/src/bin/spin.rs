//! Loops forever: runs out of fuel, or past its timeout when fuel is huge.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        let mut x: u64 = 1;
        loop {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}
hostile_guests::export!(G);
fn main() {}
