//! The wasmtime [`Engine`]s of a [`super::WasmHost`]: the component model,
//! fuel, epoch interruption, a bounded wasm stack, and the ticker thread that
//! advances the epoch.
//!
//! Two compilers, two engines with the same sandbox settings: Cranelift
//! ([`Tier::Optimized`]) for what the compile cache keeps, and wasmtime's
//! baseline compiler Winch ([`Tier::Baseline`]) for a component's first use.
//! Winch compiles in one pass with no register allocation or optimisation,
//! so a 12–18 MB Python or JavaScript component answers its first event in
//! a few seconds (3–4 s on an idle 2-core machine) instead of half a minute
//! or more with Cranelift; its code
//! runs slower, so a background compile replaces it (`worker.rs`). Each
//! engine's compatibility hash differs (Winch's calling convention is a
//! tunable), so their cache entries never share a key, and wasmtime refuses
//! to load one engine's artefact in the other.
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
    /// handles many events (never the one-shot CLI; docs/wasm-host.md §3.4).
    pub pooling: bool,
    /// Which compilers compile a component the cache does not hold.
    pub tiers: Tiers,
}

/// Which compiler compiled a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Winch: compiles fast, runs slower. What a first event runs while the
    /// optimized compile goes on.
    Baseline,
    /// Cranelift: compiles slowly, runs fast. What the cache keeps for good.
    Optimized,
}

impl Tier {
    /// The compiler's name, for notes.
    pub fn compiler(self) -> &'static str {
        match self {
            Tier::Baseline => "Winch",
            Tier::Optimized => "Cranelift",
        }
    }
}

/// Which compilers compile a component the cache does not hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Tiers {
    /// Winch first where it is supported (x86_64), so the first event does
    /// not wait for Cranelift, which compiles the entry the cache keeps.
    #[default]
    Both,
    /// Only Cranelift (every event of a cold component waits for it).
    Optimized,
    /// Only Winch: components never leave the baseline tier. For testing the
    /// sandbox under Winch; everything else wants [`Tiers::Both`].
    Baseline,
}

impl Tiers {
    /// The tier compiled first, and whether an optimized one follows.
    pub(crate) fn first(self) -> Tier {
        match self {
            Tiers::Both | Tiers::Baseline if baseline_supported() => Tier::Baseline,
            _ => Tier::Optimized,
        }
    }

    /// The tier whose entry the cache keeps for good: components in a lower
    /// one are compiled again into it.
    pub(crate) fn best(self) -> Tier {
        match self {
            Tiers::Baseline if baseline_supported() => Tier::Baseline,
            _ => Tier::Optimized,
        }
    }
}

/// Whether the baseline tier is used here: x86_64 Unix. Winch is a tier-1
/// compiler of wasmtime on x86_64; its aarch64 backend is still in
/// development (wasmtime's "Platform Support") and other targets have none.
/// Windows has no background worker (`worker.rs`) to replace a baseline
/// entry with Cranelift's from a one-shot `run`, so it keeps Cranelift alone.
pub(crate) fn baseline_supported() -> bool {
    cfg!(all(target_arch = "x86_64", unix))
}

/// Build an engine compiling with `tier`'s compiler and start its epoch ticker.
///
/// The ticker holds only a weak reference, so it ends within one tick after
/// the last clone of the engine is dropped.
pub(crate) fn new_engine(options: &EngineOptions, tier: Tier) -> wasmtime::Result<Engine> {
    let engine = Engine::new(&config(options, tier)?)?;
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

/// The configuration of an engine compiling with `tier`'s compiler.
fn config(options: &EngineOptions, tier: Tier) -> wasmtime::Result<Config> {
    let mut config = Config::new();
    if tier == Tier::Baseline {
        if !baseline_supported() {
            wasmtime::bail!("the baseline compiler (Winch) does not support this platform");
        }
        // Fuel, epochs, the stack limit and memory limits are implemented by
        // Winch as by Cranelift (the hostile-guest tests run under both).
        config.strategy(wasmtime::Strategy::Winch);
        // Winch compiles the guest's functions; Cranelift still compiles the
        // trampolines between host and guest (one per escaping function:
        // thousands in a Python component), which were a third of the first
        // event's compile. They are a few instructions each, with nothing
        // to optimise; this engine's entries are replaced anyway.
        config.cranelift_opt_level(wasmtime::OptLevel::None);
    }
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        // Users see the trap's one-line description, never a backtrace.
        .wasm_backtrace_max_frames(None);
    if !cfg!(windows) {
        // Native unwind info (`.eh_frame`) only helps a system unwinder walk
        // through guest frames; wasmtime's traps and backtraces never use
        // it, and a host panic is caught before it reaches guest code. With
        // LLVM's libunwind (what the packages link: musl, zig's glibc 2.28)
        // each function's entry is registered one by one under a global
        // lock, and removed by a scan of every entry: ten hooks in one event
        // ran 1.1x (glibc 2.28) and 1.7x (musl) as long as with libgcc's.
        // Windows requires the info, and wasmtime keeps it there.
        config.native_unwind_info(false);
    }
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
            .table_keep_resident(KEEP_RESIDENT)
            // With Linux's PAGEMAP_SCAN (6.7+), reset only the pages the
            // guest dirtied instead of the whole resident prefix of each
            // memory: a guard touches a few of the 1+ MiB its image maps.
            // Elsewhere wasmtime falls back to the memset above.
            .pagemap_scan(wasmtime::Enabled::Auto);
        config.allocation_strategy(wasmtime::InstanceAllocationStrategy::Pooling(pool));
    }
    Ok(config)
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

    /// The tiers this platform compiles with.
    fn tiers() -> &'static [Tier] {
        if baseline_supported() {
            &[Tier::Optimized, Tier::Baseline]
        } else {
            &[Tier::Optimized]
        }
    }

    #[test]
    fn engine_builds_with_and_without_pooling() {
        for &tier in tiers() {
            new_engine(&EngineOptions::default(), tier).unwrap();
            let pooling = EngineOptions {
                pooling: true,
                ..EngineOptions::default()
            };
            new_engine(&pooling, tier).unwrap();
        }
    }

    /// No tier registers guest code with the system unwinder (see `config`),
    /// except on Windows, whose ABI needs it.
    #[test]
    fn guest_code_carries_no_native_unwind_info_outside_windows() {
        for &tier in tiers() {
            let engine = new_engine(&EngineOptions::default(), tier).unwrap();
            assert_eq!(engine.get_native_unwind_info(), Some(cfg!(windows)));
        }
    }

    #[test]
    fn the_tiers_never_share_a_cache_key() {
        if !baseline_supported() {
            return;
        }
        let options = EngineOptions::default();
        let optimized = new_engine(&options, Tier::Optimized).unwrap();
        let baseline = new_engine(&options, Tier::Baseline).unwrap();
        assert_ne!(
            super::super::cache::compat_hex(&optimized),
            super::super::cache::compat_hex(&baseline)
        );
    }

    /// The baseline engine's trampolines are compiled by Cranelift without
    /// optimisation (the opt level is part of the compatibility hash).
    #[test]
    fn the_baseline_engine_does_not_optimise_trampolines() {
        if !baseline_supported() {
            return;
        }
        let options = EngineOptions::default();
        let hash = |config: &Config| super::super::cache::compat_hex(&Engine::new(config).unwrap());
        let baseline = config(&options, Tier::Baseline).unwrap();
        let mut optimising = config(&options, Tier::Baseline).unwrap();
        optimising.cranelift_opt_level(wasmtime::OptLevel::Speed);
        let mut unoptimised = config(&options, Tier::Baseline).unwrap();
        unoptimised.cranelift_opt_level(wasmtime::OptLevel::None);
        assert_ne!(hash(&baseline), hash(&optimising));
        assert_eq!(hash(&baseline), hash(&unoptimised));
    }
}
