//! The one wasmtime [`Engine`] of a [`super::WasmHost`]: the component model,
//! fuel, epoch interruption, a bounded wasm stack, and the ticker thread that
//! advances the epoch.
//!
//! Why both fuel and epochs: fuel is a deterministic CPU budget per event;
//! the epoch is the wall clock while wasm code runs. Neither stops a guest
//! blocked in a host call; `mod.rs` adds an async timeout for that.

use std::time::Duration;

use wasmtime::{Config, Engine};

/// How often the epoch advances: the granularity of the wall-clock limit.
pub(crate) const TICK: Duration = Duration::from_millis(10);

/// Component instances a pooling engine holds at once; `WasmHost::run`
/// waits for a free one rather than fail past it.
pub(crate) const POOL_INSTANCES: usize = 64;

/// Bytes of each pooled memory and table kept resident between instances.
const KEEP_RESIDENT: usize = 8 << 20;

/// Wasm stack per call; below wasmtime's 2 MiB async stack, as it must be.
const MAX_WASM_STACK: usize = 512 << 10;

/// How an engine is set up beyond the fixed sandbox settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineOptions {
    /// Use the pooling instance allocator: about 10 µs faster per instantiation
    /// but about 0.4 ms slower to start, so only for a long-lived process that
    /// handles many events (never the one-shot CLI; wasmtime-48.md §3.4).
    pub pooling: bool,
}

/// Build the engine and start its epoch ticker.
///
/// The ticker holds only a weak reference, so it ends within one tick after
/// the last clone of the engine is dropped.
pub(crate) fn new_engine(options: &EngineOptions) -> wasmtime::Result<Engine> {
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        // Users see the trap's one-line description, never a backtrace.
        .wasm_backtrace_max_frames(None);
    if file_size_limited() {
        // Copy-on-write memory images are written to a memfd, which counts
        // against RLIMIT_FSIZE: under a limit, instantiation would fail with
        // EFBIG. Initialize memories by copying instead.
        config.memory_init_cow(false);
    }
    if options.pooling {
        let mut pool = wasmtime::PoolingAllocationConfig::new();
        pool.total_component_instances(POOL_INSTANCES as u32)
            .total_core_instances(512)
            .total_memories(128)
            .total_tables(512)
            .total_stacks(64)
            .max_memory_size(1 << 30)
            // Zero a reused slot's first pages with memset, not madvise: a
            // guest touches them again at once, and each refault costs more
            // than clearing the page (measured in the library `dispatch` bench).
            .linear_memory_keep_resident(KEEP_RESIDENT)
            .table_keep_resident(KEEP_RESIDENT);
        config.allocation_strategy(wasmtime::InstanceAllocationStrategy::Pooling(pool));
    }
    let engine = Engine::new(&config)?;
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("agenthooks-epoch".into())
        .spawn(move || loop {
            std::thread::sleep(TICK);
            match weak.upgrade() {
                Some(engine) => engine.increment_epoch(),
                None => break,
            }
        })
        .map_err(|e| wasmtime::format_err!("cannot start the epoch ticker: {e}"))?;
    Ok(engine)
}

/// Whether this process may not write files of any size (`RLIMIT_FSIZE`).
#[cfg(unix)]
fn file_size_limited() -> bool {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we own.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit) } == 0;
    ok && limit.rlim_cur != libc::RLIM_INFINITY
}

#[cfg(not(unix))]
fn file_size_limited() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_builds_with_and_without_pooling() {
        new_engine(&EngineOptions::default()).unwrap();
        new_engine(&EngineOptions { pooling: true }).unwrap();
    }
}
