//! wasmtime errors → [`Failure`]: the only place that downcasts a [`Trap`] or
//! one of our own limit errors, so every limit has exactly one note.

use std::time::Duration;

use wasmtime::Trap;

use super::limiter::{EventMemoryExhausted, MemoryLimitExceeded, TableLimitExceeded};
use super::sandbox::OUTPUT_LIMIT;
use crate::config::Limits;
use crate::protocol::{one_line, Failure};

/// What the classifier needs to know about the call that failed.
#[derive(Debug, Clone)]
pub(crate) struct CallContext {
    /// The limits the guest was given.
    pub limits: Limits,
    /// The wall-clock limit.
    pub timeout: Duration,
    /// Whether stdout or stderr filled up.
    pub output_full: bool,
    /// What the guest wrote to stderr (a Rust panic message lands there).
    pub stderr: String,
}

/// Why a call into the guest failed.
pub(crate) fn call_failure(err: &wasmtime::Error, cx: &CallContext) -> Failure {
    if err.downcast_ref::<MemoryLimitExceeded>().is_some() {
        return Failure::MemoryLimit {
            limit_mib: cx.limits.memory_mib,
        };
    }
    if let Some(e) = err.downcast_ref::<EventMemoryExhausted>() {
        return Failure::EventMemoryBudget {
            limit_mib: e.limit_mib,
        };
    }
    if let Some(e) = err.downcast_ref::<TableLimitExceeded>() {
        return Failure::Trap {
            message: e.to_string(),
        };
    }
    if let Some(trap) = err.downcast_ref::<Trap>() {
        return match trap {
            Trap::OutOfFuel => Failure::OutOfFuel {
                fuel: cx.limits.fuel,
            },
            Trap::Interrupt => Failure::Timeout { after: cx.timeout },
            Trap::StackOverflow => Failure::StackOverflow,
            // A guest whose write failed on a full pipe often panics next.
            _ if cx.output_full => Failure::OutputLimit {
                limit: OUTPUT_LIMIT,
            },
            other => {
                let text = other.to_string();
                let desc = text.strip_prefix("wasm trap: ").unwrap_or(&text);
                let message = match panic_message(&cx.stderr) {
                    Some(panic) => format!("{desc}; the guest panicked: {panic}"),
                    None => desc.to_string(),
                };
                Failure::Trap { message }
            }
        };
    }
    if cx.output_full {
        return Failure::OutputLimit {
            limit: OUTPUT_LIMIT,
        };
    }
    // A host function failed (WASI refused something in a way that traps).
    Failure::Trap {
        message: one_line(&err.root_cause().to_string()),
    }
}

/// Why a file could not be compiled as a component.
pub(crate) fn compile_failure(path: &str, err: &wasmtime::Error) -> Failure {
    Failure::NotAComponent {
        path: path.to_string(),
        why: one_line(&err.root_cause().to_string()),
    }
}

/// Why the host cannot link a compiled component: an import it does not
/// provide. wasmtime's outermost message names the import, the causes under
/// it what about it does not match (an export missing, a wrong type).
pub(crate) fn import_failure(path: &str, err: &wasmtime::Error) -> Failure {
    Failure::MissingImport {
        path: path.to_string(),
        why: one_line(&format!("{err:#}")),
    }
}

/// Why a linked component does not fit the `hook` world (no `handle` export
/// of the right type).
pub(crate) fn link_failure(path: &str, err: &wasmtime::Error) -> Failure {
    Failure::WrongWorld {
        path: path.to_string(),
        why: one_line(&format!("{err:#}")),
    }
}

/// The message of a Rust panic in the guest's stderr: the line after `panicked at`.
fn panic_message(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines();
    lines.find(|l| l.contains("panicked at"))?;
    lines.next().map(|l| one_line(l.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx() -> CallContext {
        CallContext {
            limits: Limits {
                fuel: 5,
                memory_mib: 3,
            },
            timeout: Duration::from_secs(1),
            output_full: false,
            stderr: String::new(),
        }
    }

    #[test]
    fn each_limit_has_its_own_failure() {
        let cases: Vec<(wasmtime::Error, Failure)> = vec![
            (
                wasmtime::Error::new(MemoryLimitExceeded {
                    desired: 9,
                    limit: 3,
                }),
                Failure::MemoryLimit { limit_mib: 3 },
            ),
            (
                wasmtime::Error::new(EventMemoryExhausted { limit_mib: 7 }),
                Failure::EventMemoryBudget { limit_mib: 7 },
            ),
            (
                wasmtime::Error::new(Trap::OutOfFuel),
                Failure::OutOfFuel { fuel: 5 },
            ),
            (
                wasmtime::Error::new(Trap::Interrupt),
                Failure::Timeout {
                    after: Duration::from_secs(1),
                },
            ),
            (
                wasmtime::Error::new(Trap::StackOverflow),
                Failure::StackOverflow,
            ),
            (
                wasmtime::Error::new(Trap::IntegerDivisionByZero),
                Failure::Trap {
                    message: "integer divide by zero".into(),
                },
            ),
        ];
        for (err, want) in cases {
            assert_eq!(call_failure(&err, &cx()), want);
        }
    }

    #[test]
    fn a_trap_after_full_output_is_the_output_limit() {
        let full = CallContext {
            output_full: true,
            ..cx()
        };
        let err = wasmtime::Error::new(Trap::UnreachableCodeReached);
        assert_eq!(
            call_failure(&err, &full),
            Failure::OutputLimit {
                limit: OUTPUT_LIMIT
            }
        );
    }

    #[test]
    fn a_panic_message_is_named_in_the_trap() {
        let panicked = CallContext {
            stderr: "\nthread '<unnamed>' panicked at src/x.rs:1:2:\nboom\nnote: ...".into(),
            ..cx()
        };
        let err = wasmtime::Error::new(Trap::UnreachableCodeReached);
        assert_eq!(
            call_failure(&err, &panicked),
            Failure::Trap {
                message: "wasm `unreachable` instruction executed; the guest panicked: boom".into()
            }
        );
    }

    #[test]
    fn host_errors_are_one_line_traps() {
        let err = wasmtime::format_err!("first\nsecond");
        assert_eq!(
            call_failure(&err, &cx()),
            Failure::Trap {
                message: "first second".into()
            }
        );
    }
}
