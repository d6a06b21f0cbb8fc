//! Checks that each call gets a fresh instance: its static counter must be 1
//! and freshly allocated zeroed heap must read as zero; it then dirties
//! both, so an instance whose memory was not reset would fail the next call.
use std::sync::atomic::{AtomicU32, Ordering};

use hostile_guests::*;

static CALLS: AtomicU32 = AtomicU32::new(0);
/// More than the initial heap, so the memory grows and the growth is dirtied too.
const HEAP: usize = 2 << 20;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        let calls = CALLS.fetch_add(1, Ordering::SeqCst) + 1;
        // `vec![0; n]` trusts fresh memory to be zero: it is only when
        // the host reset the instance's memory.
        let mut heap = vec![0u8; HEAP];
        let dirty = heap.iter().filter(|&&b| b != 0).count();
        heap.fill(0xa5);
        std::hint::black_box(&heap);
        std::mem::forget(heap);
        if calls != 1 || dirty != 0 {
            return Err(format!("stale state: call {calls}, {dirty} dirty heap bytes"));
        }
        Ok(context("fresh"))
    }
}
hostile_guests::export!(G);
fn main() {}
