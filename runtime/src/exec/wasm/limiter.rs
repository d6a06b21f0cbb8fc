//! A [`wasmtime::ResourceLimiter`] that fails with a typed error.
//!
//! Why not wasmtime's `StoreLimits`: when it refuses to grow memory, a Rust
//! guest's allocator aborts with `unreachable`, the same trap a panic gives,
//! so the host cannot tell "memory limit" from "crash" (wasmtime-48.md §1.3).
//! Returning our own error instead makes it a `downcast_ref` in `classify.rs`.

/// The guest tried to grow a linear memory past its limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("linear memory would grow to {desired} bytes, past the limit of {limit} bytes")]
pub(crate) struct MemoryLimitExceeded {
    /// The size the guest asked for.
    pub desired: usize,
    /// The limit in bytes.
    pub limit: usize,
}

/// The guest's table grew past its limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a table would grow to {desired} elements, past the limit of {limit}")]
pub(crate) struct TableLimitExceeded {
    /// The size the guest asked for.
    pub desired: usize,
    /// The limit in elements.
    pub limit: usize,
}

/// Per-store limits on linear memory, tables and instance counts.
#[derive(Debug, Clone)]
pub(crate) struct HookLimiter {
    memory_bytes: usize,
}

/// Elements per table: Rust components use a few hundred.
const TABLE_ELEMENTS: usize = 20_000;
/// Core instances per store: one Rust component has about ten.
const INSTANCES: usize = 32;
/// Tables per store.
const TABLES: usize = 32;
/// Linear memories per store.
const MEMORIES: usize = 8;

impl HookLimiter {
    /// A limiter allowing each linear memory `memory_bytes`.
    pub(crate) fn new(memory_bytes: usize) -> HookLimiter {
        HookLimiter { memory_bytes }
    }
}

impl wasmtime::ResourceLimiter for HookLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_bytes {
            return Err(wasmtime::Error::new(MemoryLimitExceeded {
                desired,
                limit: self.memory_bytes,
            }));
        }
        Ok(maximum.is_none_or(|max| desired <= max))
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > TABLE_ELEMENTS {
            return Err(wasmtime::Error::new(TableLimitExceeded {
                desired,
                limit: TABLE_ELEMENTS,
            }));
        }
        Ok(maximum.is_none_or(|max| desired <= max))
    }

    fn instances(&self) -> usize {
        INSTANCES
    }

    fn tables(&self) -> usize {
        TABLES
    }

    fn memories(&self) -> usize {
        MEMORIES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmtime::ResourceLimiter;

    #[test]
    fn growing_past_the_limit_is_a_typed_error() {
        let mut limiter = HookLimiter::new(1 << 20);
        assert!(limiter.memory_growing(0, 1 << 20, None).unwrap());
        assert!(!limiter.memory_growing(0, 1 << 19, Some(1 << 18)).unwrap());
        let err = limiter.memory_growing(0, (1 << 20) + 1, None).unwrap_err();
        assert_eq!(
            err.downcast_ref::<MemoryLimitExceeded>(),
            Some(&MemoryLimitExceeded {
                desired: (1 << 20) + 1,
                limit: 1 << 20
            })
        );
        let err = limiter
            .table_growing(0, TABLE_ELEMENTS + 1, None)
            .unwrap_err();
        assert!(err.downcast_ref::<TableLimitExceeded>().is_some());
    }
}
