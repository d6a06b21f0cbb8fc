//! The engines: one per compiler tier, each with a linker holding WASI and
//! the `host` interface, built on first use so a process that never runs a
//! component of a tier never builds its engine (or its epoch thread).

use std::path::PathBuf;

use wasmtime::component::{HasSelf, Linker};

use super::bindings::Hook;
use super::cache;
use super::engine;
use super::sandbox::HostState;
use super::state::{Inner, TierEngine};
use super::{ComponentDigest, Tier};
use crate::protocol::Failure;

impl Inner {
    /// The engine of the tier the cache keeps.
    pub(super) fn runtime(&self) -> Result<&TierEngine, Failure> {
        self.runtime_of(self.options.tiers.best())
    }

    /// The engine of `tier` (built on first use).
    pub(super) fn runtime_of(&self, tier: Tier) -> Result<&TierEngine, Failure> {
        let cell = if tier == self.options.tiers.best() {
            &self.runtime
        } else {
            &self.baseline
        };
        let runtime = cell.get_or_init(|| {
            let build = || -> wasmtime::Result<TierEngine> {
                let engine = engine::new_engine(&self.options, tier)?;
                let mut linker = Linker::new(&engine);
                wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
                Hook::add_to_linker::<HostState, HasSelf<HostState>>(&mut linker, |s| s)?;
                Ok(TierEngine {
                    engine,
                    linker,
                    tier,
                })
            };
            build().map_err(|e| format!("{e:#}"))
        });
        runtime.as_ref().map_err(|why| Failure::Internal {
            why: format!("cannot start wasmtime: {why}"),
        })
    }

    /// The baseline engine when a cold component is compiled by it first
    /// (on x86_64, unless the options say otherwise); `None` when it cannot
    /// be built either, so Cranelift alone stays.
    pub(super) fn lower(&self) -> Option<&TierEngine> {
        let tiers = self.options.tiers;
        (tiers.first() != tiers.best())
            .then(|| self.runtime_of(tiers.first()).ok())
            .flatten()
    }

    /// Where the best tier's entry of the component with `digest` will be.
    pub(super) fn best_entry(&self, digest: &ComponentDigest) -> Option<PathBuf> {
        let dir = self.cache.path()?;
        Some(cache::entry_path(dir, &self.runtime().ok()?.engine, digest))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CacheDir, EngineOptions, Tiers, WasmHost};
    use super::*;

    fn host(tiers: Tiers) -> WasmHost {
        let options = EngineOptions {
            tiers,
            ..EngineOptions::default()
        };
        WasmHost::with_options(CacheDir::none(), options)
    }

    #[test]
    fn each_tier_is_built_once_on_first_use() {
        let host = host(Tiers::Optimized);
        let inner = host.inner();
        assert!(inner.runtime.get().is_none(), "built before any use");
        let first: *const TierEngine = inner.runtime().unwrap();
        let again: *const TierEngine = inner.runtime_of(Tier::Optimized).unwrap();
        assert_eq!(first, again);
        assert_eq!(inner.runtime().unwrap().tier, Tier::Optimized);
        // One tier only: no baseline engine, and none built.
        assert!(inner.lower().is_none());
        assert!(inner.baseline.get().is_none());
    }

    #[test]
    fn there_is_no_best_entry_without_a_cache() {
        let host = host(Tiers::Optimized);
        assert_eq!(host.inner().best_entry(&cache::digest_of(b"c")), None);
    }
}
