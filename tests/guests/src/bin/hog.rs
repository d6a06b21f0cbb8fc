//! Holds 24 MiB of memory for two seconds, then answers: many of it at once
//! must share one event's memory budget.
use hostile_guests::*;

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        // Written, not just reserved: it is resident.
        let hoard = std::hint::black_box(vec![1u8; 24 << 20]);
        std::thread::sleep(std::time::Duration::from_secs(2));
        Ok(context(format!("held {} MiB", hoard.len() >> 20)))
    }
}
hostile_guests::export!(G);
fn main() {}
