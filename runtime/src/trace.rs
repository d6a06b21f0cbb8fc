//! W3C Trace Context (`traceparent`, `tracestate`): the ids one event's
//! spans carry, and the header a hook is given to continue the trace.
//!
//! Parsed as the W3C recommendation says a receiver must: a `traceparent`
//! that is malformed (wrong length, upper-case or non-hex digits, an all-zero
//! id, version `ff`) is ignored, and a fresh trace starts; a `tracestate` is
//! kept only with a valid `traceparent`, and only when it is short and
//! printable (it is passed on, never read).

use std::hash::BuildHasher;

/// The most bytes of `tracestate` passed on (W3C: 32 members of at most
/// 256 bytes each; a longer header may be dropped).
const MAX_STATE: usize = 512;

/// The variable an agent sets for its own span (the OpenTelemetry
/// convention for environment propagation).
pub const TRACEPARENT_VAR: &str = "TRACEPARENT";

/// Its companion: vendor state, passed on unchanged.
pub const TRACESTATE_VAR: &str = "TRACESTATE";

/// A span's place in a trace: the trace, the span, the sampled flag and the
/// vendor state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    /// The trace id (16 bytes, never all zero).
    pub trace_id: [u8; 16],
    /// The span id (8 bytes, never all zero).
    pub span_id: [u8; 8],
    /// The trace flags (bit 0: sampled).
    pub flags: u8,
    /// `tracestate`, as received.
    pub state: Option<String>,
}

impl TraceContext {
    /// The context in `traceparent` (and `tracestate`), when it is valid.
    pub fn parse(traceparent: &str, tracestate: Option<&str>) -> Option<TraceContext> {
        let parts: Vec<&str> = traceparent.trim().split('-').collect();
        // Version 00 has exactly four fields; a later version may add more
        // after them, which a 00 reader ignores.
        let [version, trace, span, flags, rest @ ..] = parts.as_slice() else {
            return None;
        };
        let version = lower_hex::<1>(version)?;
        if version[0] == 0xff || (version[0] == 0 && !rest.is_empty()) {
            return None;
        }
        let trace_id = lower_hex::<16>(trace)?;
        let span_id = lower_hex::<8>(span)?;
        let flags = lower_hex::<1>(flags)?[0];
        if trace_id == [0; 16] || span_id == [0; 8] {
            return None;
        }
        let state = tracestate
            .map(str::trim)
            .filter(|s| !s.is_empty() && s.len() <= MAX_STATE)
            .filter(|s| s.bytes().all(|b| (0x20..0x7f).contains(&b)))
            .map(str::to_string);
        Some(TraceContext {
            trace_id,
            span_id,
            flags,
            state,
        })
    }

    /// The agent's context from `TRACEPARENT`/`TRACESTATE` in this
    /// process's environment, when valid.
    pub fn from_env() -> Option<TraceContext> {
        let parent = std::env::var(TRACEPARENT_VAR).ok()?;
        let state = std::env::var(TRACESTATE_VAR).ok();
        TraceContext::parse(&parent, state.as_deref())
    }

    /// A new trace's root context (sampled): what a missing or malformed
    /// `traceparent` comes to.
    pub fn fresh() -> TraceContext {
        let mut trace_id = [0u8; 16];
        trace_id[..8].copy_from_slice(&random_u64().to_be_bytes());
        trace_id[8..].copy_from_slice(&random_u64().to_be_bytes());
        TraceContext {
            trace_id,
            span_id: new_span_id(),
            flags: 1,
            state: None,
        }
    }

    /// The context of a child span of this one: same trace, a new span id.
    pub fn child(&self) -> TraceContext {
        TraceContext {
            span_id: new_span_id(),
            ..self.clone()
        }
    }

    /// The `traceparent` header for this span (version 00).
    pub fn traceparent(&self) -> String {
        format!(
            "00-{}-{}-{:02x}",
            crate::encoding::hex(&self.trace_id),
            crate::encoding::hex(&self.span_id),
            self.flags
        )
    }
}

/// A span id, random and never zero.
pub fn new_span_id() -> [u8; 8] {
    loop {
        let id = random_u64();
        if id != 0 {
            return id.to_be_bytes();
        }
    }
}

/// 64 random bits: SipHash of a counter under the keys std draws from the
/// OS for each `RandomState` (no extra crate for a few ids per event).
fn random_u64() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::collections::hash_map::RandomState::new().hash_one((n, nanos, std::process::id()))
}

/// `N` bytes from exactly `2N` lower-case hex digits.
fn lower_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 * N {
        return None;
    }
    let digit = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; N];
    for (i, pair) in bytes.chunks(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn a_valid_traceparent_round_trips() {
        let ctx = TraceContext::parse(GOOD, Some("rojo=00f067aa0ba902b7")).unwrap();
        assert_eq!(ctx.traceparent(), GOOD);
        assert_eq!(ctx.state.as_deref(), Some("rojo=00f067aa0ba902b7"));
        let child = ctx.child();
        assert_eq!(child.trace_id, ctx.trace_id);
        assert_ne!(child.span_id, ctx.span_id);
        // A later version's extra fields are ignored.
        let future = format!("{}-extra", GOOD.replacen("00", "01", 1));
        assert!(TraceContext::parse(&future, None).is_some());
    }

    #[test]
    fn a_malformed_traceparent_is_ignored() {
        for bad in [
            "",
            "00",
            "garbage",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e47z6-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
        ] {
            assert_eq!(TraceContext::parse(bad, None), None, "{bad}");
        }
        let long = "a=".to_string() + &"b".repeat(MAX_STATE);
        assert_eq!(TraceContext::parse(GOOD, Some(&long)).unwrap().state, None);
    }

    #[test]
    fn fresh_traces_differ() {
        let (a, b) = (TraceContext::fresh(), TraceContext::fresh());
        assert_ne!(a.trace_id, b.trace_id);
        assert_ne!(a.trace_id, [0; 16]);
        assert_eq!(TraceContext::parse(&a.traceparent(), None), Some(a));
    }
}
