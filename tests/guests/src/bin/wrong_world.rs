//! A plain wasi:cli command: exports `run`, not `handle`.
fn main() {
    println!("I am not a hook");
}
