//! Stage 4 of the pipeline (execute): every selected handler at once, results
//! back in declaration order.

use std::time::Duration;

use crate::protocol::{Exit, Outcome};

pub mod command;
pub mod wasm;

/// What running one handler produced, for the aggregator, `fire` and the audit log.
#[derive(Debug, Clone)]
pub struct Report {
    /// The handler's label (see [`crate::config::Handler::label`]).
    pub label: String,
    /// `command` or `wasm` (or the unsupported type).
    pub kind: String,
    /// What it came to.
    pub outcome: Outcome,
    /// Wall-clock time it took.
    pub duration: Duration,
    /// How a command ended, when it did.
    pub exit: Option<Exit>,
    /// Captured stdout (bounded; lossy UTF-8).
    pub stdout: String,
    /// Captured stderr (bounded; lossy UTF-8).
    pub stderr: String,
    /// Extra notes (output truncated, grants withheld, ...).
    pub notes: Vec<String>,
    /// Fuel a wasm guest used.
    pub fuel_used: Option<u64>,
}
