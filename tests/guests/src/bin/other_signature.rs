//! Exports `handle`, but with another signature: the wrong world all the same.
mod bindings {
    wit_bindgen::generate!({ path: "wit-other", world: "hook" });
}

struct G;
impl bindings::Guest for G {
    fn handle(event: String) -> String {
        event
    }
}
bindings::export!(G with_types_in bindings);
fn main() {}
