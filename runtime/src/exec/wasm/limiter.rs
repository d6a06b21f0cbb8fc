//! A [`wasmtime::ResourceLimiter`] that fails with a typed error.
//!
//! Why not wasmtime's `StoreLimits`: when it refuses to grow memory, a Rust
//! guest's allocator aborts with `unreachable`, the same trap a panic gives,
//! so the host cannot tell "memory limit" from "crash" (docs/wasm-host.md §1.3).
//! Returning our own error instead makes it a `downcast_ref` in `classify.rs`.
//!
//! Each store's limiter also charges its growth to the event's shared
//! [`EventMemory`] and credits it back when the store is dropped, so the
//! wasm hooks of one event together stay within one budget however many
//! there are.

use crate::exec::EventMemory;

/// The guest tried to grow a linear memory past its limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("linear memory would grow to {desired} bytes, past the limit of {limit} bytes")]
pub(crate) struct MemoryLimitExceeded {
    /// The size the guest asked for.
    pub desired: usize,
    /// The limit in bytes.
    pub limit: usize,
}

/// The guest's memory growth would take the event's wasm hooks, together,
/// past the event's memory budget.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the wasm hooks of this event would use more than {limit_mib} MiB of memory together")]
pub(crate) struct EventMemoryExhausted {
    /// The event's budget in MiB.
    pub limit_mib: u64,
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
///
/// Not `Clone`: it credits what it charged to the event budget when dropped.
#[derive(Debug)]
pub(crate) struct HookLimiter {
    memory_bytes: usize,
    event: Option<EventMemory>,
    /// Bytes charged to `event` so far (all memories of the store).
    charged: usize,
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
    /// A limiter allowing each linear memory `memory_bytes`, and every
    /// growth only while `event` (when given) has room for it.
    pub(crate) fn new(memory_bytes: usize, event: Option<EventMemory>) -> HookLimiter {
        HookLimiter {
            memory_bytes,
            event,
            charged: 0,
        }
    }
}

impl Drop for HookLimiter {
    fn drop(&mut self) {
        // The store and its memories go with the limiter.
        if let Some(event) = &self.event {
            event.credit(self.charged);
        }
    }
}

impl wasmtime::ResourceLimiter for HookLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_bytes {
            return Err(wasmtime::Error::new(MemoryLimitExceeded {
                desired,
                limit: self.memory_bytes,
            }));
        }
        if maximum.is_some_and(|max| desired > max) {
            return Ok(false);
        }
        if let Some(event) = &self.event {
            // A growth wasmtime then fails to map stays charged until the
            // store drops: rare, and it errs on the side of the budget.
            let more = desired.saturating_sub(current);
            if !event.charge(more) {
                return Err(wasmtime::Error::new(EventMemoryExhausted {
                    limit_mib: event.limit_mib(),
                }));
            }
            self.charged = self.charged.saturating_add(more);
        }
        Ok(true)
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
        let mut limiter = HookLimiter::new(1 << 20, None);
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

    #[test]
    fn growth_is_charged_to_the_event_and_credited_back_on_drop() {
        let event = EventMemory::new(3);
        let mut a = HookLimiter::new(2 << 20, Some(event.clone()));
        let mut b = HookLimiter::new(2 << 20, Some(event.clone()));
        assert!(a.memory_growing(0, 1 << 20, None).unwrap());
        assert!(a.memory_growing(1 << 20, 2 << 20, None).unwrap());
        assert!(b.memory_growing(0, 1 << 20, None).unwrap());
        assert_eq!(event.in_use(), 3 << 20);
        // Within its own limit, but the event has no room left.
        let err = b.memory_growing(1 << 20, (1 << 20) + 1, None).unwrap_err();
        assert_eq!(
            err.downcast_ref::<EventMemoryExhausted>(),
            Some(&EventMemoryExhausted { limit_mib: 3 })
        );
        // A growth refused by the memory's own maximum charges nothing.
        assert!(!b.memory_growing(1 << 20, 2 << 20, Some(1 << 20)).unwrap());
        drop(a);
        assert_eq!(event.in_use(), 1 << 20);
        assert!(b.memory_growing(1 << 20, 2 << 20, None).unwrap());
        drop(b);
        assert_eq!(event.in_use(), 0);
    }
}
