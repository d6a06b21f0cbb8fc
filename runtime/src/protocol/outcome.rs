//! What one handler came to: an answer, or a typed failure.
//!
//! A hook failing is data, not an error of the pipeline: each [`Failure`]
//! displays as the one-line note the user sees, and the aggregator applies
//! the handler's `onError` to it (allow by default, deny when asked).

use std::time::Duration;

use super::Answer;

/// The result of running one handler.
// A few outcomes exist per event; boxing the answer would cost every user a deref for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The handler answered (possibly with no opinion).
    Answered(Answer),
    /// The handler failed; counts as allow, or deny under `onError: "deny"`.
    Failed(Failure),
    /// The handler was not run (untrusted, unsupported type, async); it does not count.
    Skipped(Skip),
}

/// Why a handler was not run. It is not a failure: `onError` does not apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Skip {
    /// `async: true`: started in the background, never awaited.
    #[error("started in the background (async); not waited for")]
    Async,
    /// A project command hook the user has not trusted.
    #[error("not trusted; run `agenthooks trust` to review and allow it")]
    Untrusted,
    /// A handler type this runtime does not run (yet).
    #[error("handler type `{kind}` is not supported yet; skipped")]
    Unsupported {
        /// The `type` of the handler.
        kind: String,
    },
    /// `once: true`, and it already ran in this session.
    #[error("already ran once in this session (`once: true`); skipped")]
    Once,
    /// An untrusted project already ran `cap` hooks at this event.
    #[error(
        "not run: an untrusted project runs at most {cap} hooks per event; \
         run `agenthooks trust` to run them all"
    )]
    OverUntrustedCap {
        /// The most hooks an untrusted project runs per event.
        cap: usize,
    },
}

impl Skip {
    /// A stable kebab-case name for the kind of skip (`untrusted`, ...): what
    /// `fire --json`, the library and the audit log give as data, so nobody
    /// has to match the message text.
    pub fn kind(&self) -> &'static str {
        match self {
            Skip::Async => "async",
            Skip::Untrusted => "untrusted",
            Skip::Unsupported { .. } => "unsupported",
            Skip::OverUntrustedCap { .. } => "over-untrusted-cap",
            Skip::Once => "once",
        }
    }

    /// Whether a note per hook would only repeat what is already said: the
    /// trust gate says once per run what was skipped this way and what to
    /// do, and a `once` hook said its piece earlier in the session.
    pub fn noted_once(&self) -> bool {
        matches!(
            self,
            Skip::Untrusted | Skip::OverUntrustedCap { .. } | Skip::Once
        )
    }
}

/// How a handler failed. `Display` is the note shown on stderr (without the hook's name).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// The command could not be started.
    #[error("could not start: {reason}")]
    Spawn {
        /// The OS error.
        reason: String,
    },
    /// The handler ran past its timeout and was killed.
    #[error("timed out after {}s and was killed", after.as_secs_f64())]
    Timeout {
        /// The timeout that was exceeded.
        after: Duration,
    },
    /// A prompt or agent hook's model did not answer within the hook's
    /// timeout (the request was abandoned; nothing was killed).
    #[error("the model did not answer within {}", secs_text(*after))]
    ModelTimeout {
        /// The timeout that was exceeded.
        after: Duration,
    },
    /// The command exited with a code other than 0 or 2.
    #[error("exited with code {code}{}", stderr_suffix(stderr))]
    ExitCode {
        /// The exit code.
        code: i32,
        /// The first line of its stderr, if any.
        stderr: String,
    },
    /// The command was killed by a signal.
    #[error("killed by signal {signal}")]
    Signal {
        /// The signal number.
        signal: i32,
    },
    /// The output could not be understood.
    #[error("gave output that is not a valid answer: {why}")]
    BadOutput {
        /// What was wrong with it.
        why: String,
    },
    /// A wasm guest used up its fuel.
    #[error(
        "ran out of fuel ({fuel} units); it may loop forever; raise `fuel` if the work is real"
    )]
    OutOfFuel {
        /// The fuel it was given.
        fuel: u64,
    },
    /// A wasm guest tried to grow its memory past the limit.
    #[error("exceeded its memory limit of {limit_mib} MiB; raise `memoryMiB` if it needs more")]
    MemoryLimit {
        /// The limit in MiB.
        limit_mib: u64,
    },
    /// A wasm guest's memory growth would take the wasm hooks of this event,
    /// together, past the event's memory budget.
    #[error(
        "event memory budget of {limit_mib} MiB exhausted (all wasm hooks of one event share it); \
         raise `eventMemoryMiB` in ~/.agents/hooks.json if they need more"
    )]
    EventMemoryBudget {
        /// The budget in MiB.
        limit_mib: u64,
    },
    /// A wasm guest overflowed its stack.
    #[error("overflowed the wasm stack (deep recursion)")]
    StackOverflow,
    /// A wasm guest trapped (a panic, an unreachable, ...).
    #[error("crashed (wasm trap: {message})")]
    Trap {
        /// wasmtime's description of the trap.
        message: String,
    },
    /// A wasm guest returned `err(...)` from `handle`.
    #[error("returned an error: {}", one_line(message))]
    GuestError {
        /// The guest's message.
        message: String,
    },
    /// A wasm guest wrote more output or log than allowed.
    #[error("exceeded its output limit of {limit} bytes")]
    OutputLimit {
        /// The limit in bytes.
        limit: usize,
    },
    /// The component file does not exist.
    #[error("component `{path}` not found; build it or fix the path")]
    ComponentNotFound {
        /// The path that was looked for.
        path: String,
    },
    /// The file is not a WebAssembly component.
    #[error("`{path}` is not a WebAssembly component: {why}")]
    NotAComponent {
        /// The file.
        path: String,
        /// What wasmtime said.
        why: String,
    },
    /// The component imports something the host does not provide.
    #[error(
        "`{path}` cannot load: {why}; a hook may import WASI and `agenthooks:hook/host` only, so build it without that import"
    )]
    MissingImport {
        /// The file.
        path: String,
        /// Which import (wasmtime's message).
        why: String,
    },
    /// The component does not implement the `agenthooks:hook/hook` world.
    #[error("`{path}` does not implement the `agenthooks:hook` world: {why}")]
    WrongWorld {
        /// The file.
        path: String,
        /// What is missing.
        why: String,
    },
    /// The component is still being compiled (in the background, filling the
    /// compile cache) when the handler's time ran out.
    // Not "allowed": under `onError: "deny"` the same failure denies.
    #[error("still compiling ({secs} s so far); run `agenthooks compile` to warm the cache")]
    StillCompiling {
        /// How long it has been compiling, in whole seconds.
        secs: u64,
    },
    /// Compiling the component failed on a limit of the compiler itself (CPU
    /// time, memory), or the compiler died; remembered until the file changes.
    #[error("`{path}` could not be compiled: {why}")]
    CompileFailed {
        /// The file.
        path: String,
        /// What stopped the compile and what to do.
        why: String,
    },
    /// An `oci://` component that cannot run from the cache: a tag with no
    /// lock entry, a component not pulled, or cached bytes that are not the
    /// pinned digest. `run` never fetches: `agenthooks pull` does.
    #[error("component `{reference}` {why}; run `agenthooks pull`")]
    OciNotPulled {
        /// The reference (`oci://host/repo:tag`).
        reference: String,
        /// What is missing or wrong.
        why: String,
    },
    /// An http hook's server answered with a status other than 2xx
    /// (a redirect included: redirects are not followed).
    #[error("answered HTTP {status}; only a 2xx answer counts (redirects are not followed)")]
    HttpStatus {
        /// The HTTP status code.
        status: u16,
    },
    /// An http hook's request failed before a response came: the host could
    /// not be resolved or reached, TLS failed, or the response was malformed.
    #[error(
        "request failed: {}; check its `url` and that the server is up",
        one_line(why)
    )]
    HttpRequest {
        /// What the HTTP client said.
        why: String,
    },
    /// A prompt hook's model answered with a status other than 2xx.
    #[error("the model's API answered HTTP {status}{}", model_status_hint(*status))]
    ModelStatus {
        /// The HTTP status code.
        status: u16,
    },
    /// A prompt hook's request to its model failed before a response came
    /// (refused connection, TLS, a malformed response) or was unusable.
    #[error(
        "the model request failed: {}; check `llm` in ~/.agents/hooks.json (or \
         ANTHROPIC_BASE_URL) and that the server is up",
        one_line(why)
    )]
    ModelRequest {
        /// What went wrong (never holding the API key).
        why: String,
    },
    /// An mcp_tool hook names a server no MCP file defines (or one it
    /// cannot reach the way it is defined).
    #[error("MCP server `{server}` {why}")]
    McpServer {
        /// The server's name.
        server: String,
        /// Where it was looked for, or what is wrong with its definition, and the fix.
        why: String,
    },
    /// An mcp_tool hook's server does not list the tool it names.
    #[error(
        "MCP server `{server}` has no tool `{tool}` (it has: {}); fix the hook's `tool`",
        one_line(available)
    )]
    McpUnknownTool {
        /// The server's name.
        server: String,
        /// The tool asked for.
        tool: String,
        /// The tools it lists (bounded).
        available: String,
    },
    /// An mcp_tool hook's server could not be started or connected to, or
    /// ended before it answered `initialize`.
    #[error(
        "MCP server `{server}` failed to start: {}; check its definition in `{file}`",
        one_line(why)
    )]
    McpStart {
        /// The server's name.
        server: String,
        /// What went wrong (its stderr's first line, when it said).
        why: String,
        /// The file that defines it.
        file: String,
    },
    /// An mcp_tool hook's server broke the protocol or answered a JSON-RPC error.
    #[error("MCP server `{server}` protocol error: {}", one_line(why))]
    McpProtocol {
        /// The server's name.
        server: String,
        /// What went wrong.
        why: String,
    },
    /// An mcp_tool hook's tool answered with `isError`.
    #[error("MCP tool `{tool}` returned an error: {}", one_line(message))]
    McpToolError {
        /// The tool.
        tool: String,
        /// Its text (bounded).
        message: String,
    },
    /// The runtime itself failed around this handler.
    #[error("internal error: {why}")]
    Internal {
        /// What went wrong.
        why: String,
    },
}

impl Failure {
    /// A stable kebab-case name for the kind of failure (`timeout`,
    /// `out-of-fuel`, ...): what `fire --json`, the library and the audit log
    /// give as data, so nobody has to match the message text.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Spawn { .. } => "spawn",
            Failure::Timeout { .. } => "timeout",
            Failure::ModelTimeout { .. } => "model-timeout",
            Failure::ExitCode { .. } => "exit-code",
            Failure::Signal { .. } => "signal",
            Failure::BadOutput { .. } => "bad-output",
            Failure::OutOfFuel { .. } => "out-of-fuel",
            Failure::MemoryLimit { .. } => "memory-limit",
            Failure::EventMemoryBudget { .. } => "event-memory-budget",
            Failure::StackOverflow => "stack-overflow",
            Failure::Trap { .. } => "trap",
            Failure::GuestError { .. } => "guest-error",
            Failure::OutputLimit { .. } => "output-limit",
            Failure::ComponentNotFound { .. } => "component-not-found",
            Failure::NotAComponent { .. } => "not-a-component",
            Failure::MissingImport { .. } => "missing-import",
            Failure::WrongWorld { .. } => "wrong-world",
            Failure::StillCompiling { .. } => "still-compiling",
            Failure::CompileFailed { .. } => "compile-failed",
            Failure::OciNotPulled { .. } => "oci-not-pulled",
            Failure::HttpStatus { .. } => "http-status",
            Failure::HttpRequest { .. } => "http-request",
            Failure::ModelStatus { .. } => "model-status",
            Failure::ModelRequest { .. } => "model-request",
            Failure::McpServer { .. } => "mcp-server",
            Failure::McpUnknownTool { .. } => "mcp-unknown-tool",
            Failure::McpStart { .. } => "mcp-start",
            Failure::McpProtocol { .. } => "mcp-protocol",
            Failure::McpToolError { .. } => "mcp-tool-error",
            Failure::Internal { .. } => "internal",
        }
    }
}

/// What to check for a model API's error status.
fn model_status_hint(status: u16) -> &'static str {
    match status {
        401 | 403 => {
            " (check the API key: `llm.apiKeyEnv`, ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN)"
        }
        404 => " (check `llm.baseUrl` and the model name)",
        429 => " (rate limited)",
        _ => "",
    }
}

/// A duration as people write it: `2 s`, `1.5 s`, `250 ms`.
fn secs_text(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        return format!("{} ms", d.as_millis());
    }
    let tenths = (d.as_millis() + 50) / 100;
    if tenths.is_multiple_of(10) {
        format!("{} s", tenths / 10)
    } else {
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

fn stderr_suffix(stderr: &str) -> String {
    match stderr.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some(line) => format!(": {}", one_line(line)),
        None => String::new(),
    }
}

/// The most characters of a note (or of a hook's text quoted in one), `…` not counted.
pub const NOTE_MAX_CHARS: usize = 400;

/// `text` as one line of at most [`NOTE_MAX_CHARS`] characters (and a `…`
/// when cut): line breaks become one space, other control characters are
/// escaped (`\u{1b}`), so nothing a hook or a payload says can end a line
/// of stderr early, fake one, or steer the terminal.
///
/// The one rule for every note: it reads only as much of `text` as it
/// keeps (plus a bounded run of whitespace), so a 10 MB event name costs
/// no more than a short one.
pub fn one_line(text: &str) -> String {
    // Whitespace is read without being kept: bound how much is read at all.
    const READ_MAX: usize = 16 * NOTE_MAX_CHARS;
    let mut out = String::new();
    let mut kept = 0;
    let mut broke = false;
    let mut cut = false;
    for (read, c) in text.trim().chars().enumerate() {
        if kept > NOTE_MAX_CHARS || read >= READ_MAX {
            cut = true;
            break;
        }
        match c {
            '\n' | '\r' | '\t' => {
                while out.ends_with(' ') {
                    out.pop();
                    kept -= 1;
                }
                broke = true;
            }
            ' ' if broke => {}
            c => {
                if broke {
                    out.push(' ');
                    kept += 1;
                    broke = false;
                }
                if c.is_control() {
                    for e in c.escape_default() {
                        out.push(e);
                        kept += 1;
                    }
                } else {
                    out.push(c);
                    kept += 1;
                }
            }
        }
    }
    if cut || kept > NOTE_MAX_CHARS {
        let at = out
            .char_indices()
            .nth(NOTE_MAX_CHARS)
            .map_or(out.len(), |(i, _)| i);
        out.truncate(at);
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_displays_one_line() {
        let all = [
            Failure::Spawn {
                reason: "No such file".into(),
            },
            Failure::Timeout {
                after: Duration::from_millis(1500),
            },
            Failure::ModelTimeout {
                after: Duration::from_secs(2),
            },
            Failure::ExitCode {
                code: 1,
                stderr: "\n  oops\nmore".into(),
            },
            Failure::Signal { signal: 9 },
            Failure::BadOutput {
                why: "expected value at line 1 column 2".into(),
            },
            Failure::OutOfFuel { fuel: 10 },
            Failure::MemoryLimit { limit_mib: 64 },
            Failure::EventMemoryBudget { limit_mib: 512 },
            Failure::StackOverflow,
            Failure::Trap {
                message: "unreachable".into(),
            },
            Failure::GuestError {
                message: "bad\nworse".into(),
            },
            Failure::OutputLimit { limit: 65536 },
            Failure::ComponentNotFound {
                path: "a.wasm".into(),
            },
            Failure::NotAComponent {
                path: "a.wasm".into(),
                why: "magic".into(),
            },
            Failure::WrongWorld {
                path: "a.wasm".into(),
                why: "no export".into(),
            },
            Failure::MissingImport {
                path: "a.wasm".into(),
                why: "component imports instance `x:y/z`".into(),
            },
            Failure::StillCompiling { secs: 3 },
            Failure::CompileFailed {
                path: "a.wasm".into(),
                why: "over the CPU-time cap".into(),
            },
            Failure::HttpStatus { status: 503 },
            Failure::HttpRequest {
                why: "Connection refused\n(os error 111)".into(),
            },
            Failure::Internal { why: "x".into() },
        ];
        let mut kinds = Vec::new();
        for f in all {
            let s = f.to_string();
            assert!(!s.contains('\n'), "{s}");
            assert!(!s.is_empty());
            let kind = f.kind();
            assert!(
                kind.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{kind}"
            );
            kinds.push(kind);
        }
        let n = kinds.len();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), n, "each failure has its own kind");
        assert_eq!(
            Failure::ExitCode {
                code: 1,
                stderr: "\n  oops\nmore".into()
            }
            .to_string(),
            "exited with code 1: oops"
        );
        assert_eq!(
            Failure::Timeout {
                after: Duration::from_millis(1500)
            }
            .to_string(),
            "timed out after 1.5s and was killed"
        );
        let model = |ms| Failure::ModelTimeout {
            after: Duration::from_millis(ms),
        };
        assert_eq!(
            model(2000).to_string(),
            "the model did not answer within 2 s"
        );
        assert_eq!(
            model(1450).to_string(),
            "the model did not answer within 1.5 s"
        );
        assert_eq!(
            model(250).to_string(),
            "the model did not answer within 250 ms"
        );
    }

    #[test]
    fn foreign_text_in_a_failure_is_one_bounded_line() {
        let long = Failure::GuestError {
            message: "x".repeat(10 << 20),
        };
        assert!(long.to_string().chars().count() <= NOTE_MAX_CHARS + 30);
        let exit = Failure::ExitCode {
            code: 1,
            stderr: format!("{}\nmore", "e".repeat(5000)),
        };
        assert!(exit.to_string().ends_with('…'));
    }

    #[test]
    fn one_line_joins_lines_escapes_controls_and_cuts() {
        assert_eq!(
            one_line("  first  \n  second\r\n\tthird "),
            "first second third"
        );
        assert_eq!(one_line("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(one_line(""), "");
        let exact = "é".repeat(NOTE_MAX_CHARS);
        assert_eq!(one_line(&exact), exact);
        let over = format!("{exact}z");
        let cut = one_line(&over);
        assert_eq!(cut, format!("{exact}…"));
        // Ten megabytes in, one short line out.
        let huge = format!("unknown event `{}`", "X".repeat(10 << 20));
        assert_eq!(one_line(&huge).chars().count(), NOTE_MAX_CHARS + 1);
        let spaces = format!("a{}b", "\n ".repeat(1 << 20));
        assert_eq!(one_line(&spaces), "a…");
    }

    #[test]
    fn skips_the_gate_sums_up_are_noted_once() {
        assert!(Skip::Untrusted.noted_once());
        assert!(Skip::OverUntrustedCap { cap: 16 }.noted_once());
        assert!(Skip::Once.noted_once());
        assert!(!Skip::Async.noted_once());
    }
}
