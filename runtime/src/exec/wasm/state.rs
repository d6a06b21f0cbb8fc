//! What a [`WasmHost`](super::WasmHost) holds, apart from the parts that
//! work on it: `tiers.rs` (the engines), `probe.rs` (looking for a
//! component ready to run), `compile.rs` (compiling a cold one) and
//! `host.rs` (the public face) each add an `impl Inner` block, and all of
//! them sit above this file, so the state is read first and imports none
//! of them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use wasmtime::component::Linker;
use wasmtime::Engine;

use super::bindings::HookPre;
use super::cache::{CacheStatus, ComponentDigest};
use super::sandbox::HostState;
use super::{CacheDir, EngineOptions, Tier};
use crate::fsread::FileStamp;
use crate::protocol::Failure;

/// What a [`WasmHost`](super::WasmHost) shares between its clones.
pub(super) struct Inner {
    pub(super) cache: CacheDir,
    pub(super) options: EngineOptions,
    /// The engine of the tier the cache keeps ([`Tiers::best`]).
    pub(super) runtime: OnceLock<Result<TierEngine, String>>,
    /// The baseline engine, when it comes first ([`Tiers::first`]); built
    /// only for a component that is cold or on its way to the best tier.
    pub(super) baseline: OnceLock<Result<TierEngine, String>>,
    pub(super) prepared: Mutex<HashMap<PathBuf, Warm>>,
    /// With pooling: one permit per instance slot, so more events at once
    /// than the pool holds wait for a slot instead of failing.
    pub(super) slots: Option<tokio::sync::Semaphore>,
    /// Where a cold component is compiled.
    pub(super) compile_in: CompileIn,
    /// In-process compiles under way, by component digest: one compile per
    /// component however many events wait for it.
    pub(super) inflight: Mutex<HashMap<ComponentDigest, Arc<Inflight>>>,
}

/// Where a component the cache does not hold is compiled.
#[derive(Debug, Clone)]
pub(super) enum CompileIn {
    /// A detached `agenthooks` worker process (the CLI: the process ends
    /// with the event, the worker goes on to fill the cache).
    Worker(PathBuf),
    /// A blocking thread of this process (library mode: the process lives on).
    Process,
}

/// The engine of one tier and a linker holding WASI and the `host` interface.
pub(super) struct TierEngine {
    pub(super) engine: Engine,
    pub(super) linker: Linker<HostState>,
    pub(super) tier: Tier,
}

/// One in-process compile, shared by every event waiting for it.
pub(super) struct Inflight {
    pub(super) started: Instant,
    pub(super) done: OnceLock<Result<Arc<Prepared>, Failure>>,
}

/// A prepared component kept for its path, and the file as it was read.
pub(super) struct Warm {
    /// Reused without reading the file only while equal and settled
    /// ([`FileStamp`]); else the file is hashed again, and reused if the
    /// bytes are the same.
    pub(super) stamp: FileStamp,
    pub(super) settled: bool,
    pub(super) prepared: Arc<Prepared>,
}

/// A component ready to instantiate, and what loading it took.
pub(super) struct Prepared {
    pub(super) pre: HookPre<HostState>,
    pub(super) compiled: Compiled,
    /// The sha256 of the bytes compiled: what runs, and what trust is decided on.
    pub(super) digest: ComponentDigest,
    /// Where the best tier's entry of a lower tier's component will be: once
    /// it is there, the next event loads it instead.
    pub(super) upgrade: Option<PathBuf>,
}

impl Prepared {
    /// How it was loaded, for `--verbose`.
    pub(super) fn describe(&self, shown: &str) -> String {
        describe(&self.compiled, self.upgrade.is_some(), shown)
    }

    /// Whether a better compiled form is waiting in the cache.
    pub(super) fn superseded(&self) -> bool {
        self.upgrade.as_deref().is_some_and(Path::exists)
    }
}

/// How a component was loaded (`upgrading`: a better tier replaces it), for `--verbose`.
fn describe(c: &Compiled, upgrading: bool, shown: &str) -> String {
    format!(
        "`{shown}`: {} in {:.1} ms{}",
        match c.status {
            CacheStatus::Hit => "loaded from the compile cache",
            CacheStatus::Compiled => "compiled and cached",
            CacheStatus::CompiledUncached => "compiled",
        },
        c.duration.as_secs_f64() * 1e3,
        match (c.tier, upgrading) {
            (Tier::Baseline, true) => " (baseline tier, Winch; Cranelift replaces it)",
            (Tier::Baseline, false) => " (baseline tier, Winch)",
            (Tier::Optimized, _) => "",
        }
    )
}

/// What loading one component took (for `agenthooks compile` and `--verbose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compiled {
    /// Cache hit, compiled and stored, or compiled in memory.
    pub status: CacheStatus,
    /// Time to read, hash, compile or deserialize, and link it.
    pub duration: Duration,
    /// Size of the compiled artifact in bytes.
    pub artifact_len: usize,
    /// The compiler of the code that runs.
    pub tier: Tier,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_line_names_the_tier_and_what_replaces_it() {
        let compiled = |status, tier| Compiled {
            status,
            duration: Duration::from_micros(1500),
            artifact_len: 1,
            tier,
        };
        let hit = compiled(CacheStatus::Hit, Tier::Optimized);
        assert_eq!(
            describe(&hit, false, "a.wasm"),
            "`a.wasm`: loaded from the compile cache in 1.5 ms"
        );
        let first = compiled(CacheStatus::Compiled, Tier::Baseline);
        assert!(describe(&first, true, "a.wasm").ends_with(
            "compiled and cached in 1.5 ms (baseline tier, Winch; Cranelift replaces it)"
        ));
        let only = compiled(CacheStatus::CompiledUncached, Tier::Baseline);
        assert!(
            describe(&only, false, "a.wasm").ends_with("compiled in 1.5 ms (baseline tier, Winch)")
        );
    }
}
