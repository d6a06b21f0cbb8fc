//! WebAssembly component hooks in a wasmtime sandbox.
//!
//! A [`WasmHost`] owns one engine (built on first use, so a process where no
//! wasm handler matched never touches wasmtime), the compile cache, and each
//! component's pre-linked instance. Every event gets a fresh store and
//! instance with the handler's [`Sandbox`]: fuel, a wall-clock deadline, a
//! memory limit, no files, environment or network unless granted, and bounded
//! output. A trapped instance is dropped with its store and never called again.
//!
//! Each way a guest can fail is a distinct [`Failure`](crate::protocol::Failure); `classify.rs` is the
//! only place that looks inside wasmtime's errors. The handler's `onError`
//! is applied later, by the aggregator.
//!
//! Why async: fuel and epochs stop running wasm code, but not a guest blocked
//! inside a host call (a WASI sleep, a file read). The call is a future under
//! an outer [`tokio::time::timeout`], so [`WasmHost::run`] returns within the
//! timeout plus [`GRACE`] whatever the guest does (docs/wasm-host.md §4.3).
//!
//! One deadline per handler, compile included: a component the cache does
//! not hold is compiled off the event's path — by a detached worker process
//! in the CLI (`worker.rs`), on a blocking thread in library mode — and the
//! event waits for it only until the handler's timeout, then fails with
//! [`Failure::StillCompiling`](crate::protocol::Failure::StillCompiling) while the compile goes on to fill the cache.
//!
//! Two tiers (`engine.rs`): a cold component is compiled first with the
//! baseline compiler (Winch, about 20× faster to compile), which answers the
//! first events, and then with Cranelift, whose entry replaces it for good.
//! A component Winch cannot compile goes straight to Cranelift.
//!
//! The host is split by concern: `host.rs` is the public [`WasmHost`] and
//! its `run`; `tiers.rs` builds each tier's engine and linker; `probe.rs`
//! looks for a component ready to run (memory, index, cache) without
//! compiling; `compile.rs` compiles a cold one and reads back what a worker
//! stored; `prepare.rs` is the event's side of it, waiting until the
//! deadline; `call.rs` instantiates and calls the guest; `notes.rs` gathers
//! what loading has to say.

use std::time::Duration;

pub(crate) use crate::component::read_open_component;

mod bindings;
mod cache;
mod call;
mod classify;
mod compile;
mod engine;
pub mod gc;
mod host;
mod index;
mod limiter;
mod locks;
mod notes;
mod prepare;
mod probe;
mod sandbox;
mod state;
mod stubs;
mod tiers;
pub mod worker;

pub use cache::{CacheDir, CacheStatus, ComponentDigest};
pub use engine::{EngineOptions, Tier, Tiers};
pub use host::WasmHost;
pub use sandbox::{Sandbox, LOG_LIMIT, OUTPUT_LIMIT};
pub use state::Compiled;

pub(crate) use notes::Notes;

/// How long past its timeout a guest blocked in a host call may take before
/// the call is abandoned. A guest running wasm stops at the timeout itself.
pub const GRACE: Duration = Duration::from_millis(200);
