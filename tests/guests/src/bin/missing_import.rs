//! A hook that imports an interface the host does not provide (`test:missing/clock`):
//! its load error must name that import.
mod bindings {
    wit_bindgen::generate!({
        path: ["../../wit", "wit-import"],
        world: "test:missing/hook-plus",
        generate_all,
    });
}

use bindings::{Answer, Event, Guest};

struct G;
impl Guest for G {
    fn handle(_event: Event) -> Result<Answer, String> {
        // Calling the import keeps it in the component.
        Err(format!("the time is {}", bindings::test::missing::clock::now()))
    }
}
bindings::export!(G with_types_in bindings);
fn main() {}
