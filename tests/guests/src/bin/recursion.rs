//! Recurses without end on the wasm stack (scalars only, so nothing lands on
//! the shadow stack in linear memory and the wasm stack itself overflows).
use hostile_guests::*;

#[inline(never)]
fn deeper(n: u64, stop: u64) -> u64 {
    if n == stop {
        return n;
    }
    // Not a tail call, and not an accumulator LLVM could turn into a loop.
    deeper(n + 1, stop).wrapping_mul(3).wrapping_add(n)
}

struct G;
impl Guest for G {
    fn handle(event: Event) -> Result<Answer, String> {
        // A stop the compiler cannot see and the guest never reaches.
        let stop = (event.input.len() as u64) << 40;
        Ok(context(format!("{}", deeper(0, stop))))
    }
}
hostile_guests::export!(G);
fn main() {}
