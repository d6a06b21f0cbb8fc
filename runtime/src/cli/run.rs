//! `agenthooks run --agent A [--event E]`: the bridge an agent's native hook
//! config calls.
//!
//! It reads the agent's native JSON on stdin, decodes it, loads the hooks,
//! runs the selected ones, aggregates and encodes the answer back into the
//! agent's dialect: stdout, stderr lines and exit code.
//!
//! Two rules shape it:
//!
//! - **Its own trouble never blocks the agent.** Bad JSON, an unknown event or
//!   agent, a broken config: one note on stderr and an allow (exit 0, empty
//!   stdout). Some agents read any non-zero exit as a deny.
//! - **Doing nothing is cheap.** When no handler is selected, no async runtime
//!   is built: the common path costs little more than starting a process.
//!
//! When the audit log is on (`AGENTHOOKS_AUDIT`, or `audit` in the user's
//! `hooks.json`), every decoded event appends one line to it.

use std::io::{self, Read, Write};
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;

use anyhow::{anyhow, Context};

use crate::agents::{self, Agent, Native};
use crate::exec::Executors;
use crate::head::{self, Carried, Entry, Head, Passage};
use crate::protocol::{Event, Note, NoteKind};
use crate::telemetry::{self, spool::SpanRecord};

/// The largest input accepted on stdin ([`PAYLOAD`](crate::fsread::caps::PAYLOAD), the one cap on
/// an event's payload wherever it is read).
const MAX_INPUT: usize = crate::fsread::caps::PAYLOAD as usize;

/// `agenthooks run`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The calling agent: `claude`, `codex`, `gemini`, ... (see `agenthooks agents`).
    #[arg(long)]
    pub agent: String,
    /// The event, for agents whose payload does not name it (native or Claude spelling).
    #[arg(long)]
    pub event: Option<String>,
    /// Also show each hook's outcome on stderr.
    #[arg(long, short)]
    pub verbose: bool,
    /// Called from the agent's system-wide file (`install --system` writes
    /// it): this entry runs every scope's hooks, and the agent's user and
    /// project entries step aside while it is installed.
    #[arg(long)]
    pub system: bool,
    /// Called from the agent's user file (`install --user` writes it): the
    /// agent's project entry steps aside for a tool this entry covers.
    #[arg(long, conflicts_with = "system")]
    pub user: bool,
    /// The tools this entry answers for, as a Claude matcher over Claude's
    /// tool names (`install` writes it beside a narrowed native matcher); a
    /// tool event for another tool gets "no opinion".
    #[arg(long, value_name = "MATCHER")]
    pub tools: Option<String>,
}

#[cfg(feature = "engine")]
/// What the engine carries: every kind, and a session's arrival (which
/// warms the compile cache with wasmtime).
pub(crate) fn engine() -> Carried {
    Carried {
        executors: Executors::all(),
        arrival: Some(&super::arrival::WARM),
    }
}

/// What [`bridge_in`] came to.
pub(crate) enum Bridged {
    /// The agent's answer, and the event's spans (telemetry on).
    Answered(Native, Vec<SpanRecord>),
    /// The event needs what this process does not carry: nothing ran and
    /// nothing was recorded; the payload as read, for the process that does,
    /// and the event decoded from it (to answer with if that process
    /// cannot start).
    HandOff(Vec<u8>, Box<Event>),
}

/// Run the bridge on this process's stdin, stdout and stderr. Never fails.
#[cfg(feature = "engine")]
pub fn run(args: Args) -> ExitCode {
    answer(&args, engine(), |agent, _, _, notes| {
        // The engine carries every kind: never here.
        notes.push(Note::runtime(
            NoteKind::Internal,
            "allowing: the event needs what this binary does not carry",
        ));
        agent.no_opinion(Vec::new())
    })
}

/// [`run`] with what this process carries; `hand_off` answers an event
/// that needs more (the small binary execs the engine in it, and returns
/// only when the engine cannot be started).
pub(crate) fn answer(
    args: &Args,
    carried: Carried,
    hand_off: impl FnOnce(&'static dyn Agent, Vec<u8>, &Event, &mut Vec<Note>) -> Native,
) -> ExitCode {
    // Async hooks keep their timeout after we exit; what hooks leave
    // outside their group is ours to end.
    crate::exec::supervise::enable();
    // Even a bug of ours must not block the agent (some read any non-zero
    // exit as a deny): a panic allows (`main` installs the hook that prints
    // it on one line).
    let mut notes = Vec::new();
    let allow =
        agents::find(&args.agent).map_or_else(Native::default, |a| a.no_opinion(Vec::new()));
    let mut spans = Vec::new();
    let native = allow_on_trouble(&mut notes, allow, |notes| {
        match bridge_in(args, io::stdin().lock(), carried)? {
            Bridged::Answered(native, traced) => {
                spans = traced;
                Ok(native)
            }
            Bridged::HandOff(payload, event) => Ok(hand_off(
                agents::named(&args.agent)?,
                payload,
                &event,
                notes,
            )),
        }
    });
    emit(&native, &notes);
    // Only now, the answer out: the spans go to the spool, and the engine
    // exports them in a process of its own (`telemetry::flush`).
    if !spans.is_empty() {
        telemetry::after_answer(&spans, &crate::dirs::engine());
    }
    // Agents speak in small codes (0, 1, 2); anything else cannot be
    // represented and is an encoder bug, which must not read as a block.
    ExitCode::from(u8::try_from(native.exit_code).unwrap_or(0))
}

/// `answer`'s native answer; on its error or panic, `allow` (the agent's "no
/// opinion") with a note saying why.
fn allow_on_trouble(
    notes: &mut Vec<Note>,
    allow: Native,
    answer: impl FnOnce(&mut Vec<Note>) -> anyhow::Result<Native>,
) -> Native {
    match std::panic::catch_unwind(AssertUnwindSafe(|| answer(notes))) {
        Ok(Ok(native)) => native,
        Ok(Err(err)) => {
            notes.push(Note::runtime(NoteKind::Input, format!("{err:#}; allowing")));
            allow
        }
        Err(_) => {
            notes.push(Note::runtime(
                NoteKind::Internal,
                "allowing after an internal error",
            ));
            allow
        }
    }
}

/// Read, then the event head ([`head::enter`]) in a process carrying
/// `carried`: an event needing more is handed off before anything runs.
///
/// # Errors
/// Input over [`MAX_INPUT`], input that is not JSON, an unknown agent, or a
/// payload the agent's adapter cannot decode.
pub(crate) fn bridge_in(
    args: &Args,
    input: impl Read,
    carried: Carried,
) -> anyhow::Result<Bridged> {
    let agent = agents::named(&args.agent)?;
    let bytes = read_bounded(input)?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).context("the hook input is not valid JSON")?;
    let entry = Entry {
        agent,
        system: args.system,
        user: args.user,
        embedded: false,
        tools: args
            .tools
            .as_deref()
            .map(crate::install::coverage::tools_matcher),
        verbose: args.verbose,
    };
    let head = Head::decode(entry, value, args.event.as_deref())?;
    let options = head::Options {
        per_hook: false,
        audit: true,
    };
    Ok(match head::enter(head, carried, &options)? {
        Passage::Answered(answered) => Bridged::Answered(answered.native, answered.spans),
        Passage::HandOff(event) => Bridged::HandOff(bytes, event),
    })
}

/// Read `input` up to the end of its first complete JSON object or array
/// (an agent may leave stdin open after the payload: waiting for EOF would
/// make it wait on us), or to EOF for anything else; refusing more than
/// [`MAX_INPUT`] bytes. Bytes after the value are not read.
fn read_bounded(mut input: impl Read) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut scan = JsonEnd::default();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("could not read the hook input"),
        };
        let start = bytes.len();
        bytes.extend_from_slice(&chunk[..n]);
        if let Some(end) = scan.feed(&bytes[start..]) {
            bytes.truncate(start + end);
            break;
        }
        if bytes.len() > MAX_INPUT {
            return Err(anyhow!(
                "the hook input is over {} MiB; refused",
                MAX_INPUT >> 20
            ));
        }
    }
    Ok(bytes)
}

/// Finds where the first JSON object or array of a stream ends, reading each
/// byte once: depth of brackets outside strings.
#[derive(Debug, Default)]
struct JsonEnd {
    depth: usize,
    started: bool,
    in_string: bool,
    escaped: bool,
    /// The stream does not start with `{` or `[`: read to EOF.
    off: bool,
}

impl JsonEnd {
    /// Feeds the next bytes; the offset just past the value's end in `more`,
    /// once it has ended.
    fn feed(&mut self, more: &[u8]) -> Option<usize> {
        for (i, &b) in more.iter().enumerate() {
            if self.off {
                return None;
            }
            if self.in_string {
                match (self.escaped, b) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'{' | b'[' => {
                    self.started = true;
                    self.depth += 1;
                }
                b'}' | b']' if self.depth > 0 => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return Some(i + 1);
                    }
                }
                b'"' if self.started => self.in_string = true,
                b' ' | b'\t' | b'\r' | b'\n' => {}
                // A UTF-8 byte order mark before the value.
                0xEF | 0xBB | 0xBF if !self.started => {}
                _ if !self.started => self.off = true,
                _ => {}
            }
        }
        None
    }
}

/// Write the native answer, then the notes ([`Note::line`]).
///
/// The agent's stderr lines go first and unprefixed: for agents that read
/// stderr as the reason of a block, they are the reason.
fn emit(native: &Native, notes: &[Note]) {
    // A closed pipe means the agent stopped listening; nothing left to do.
    let mut stdout = io::stdout().lock();
    let _ = stdout.write_all(native.stdout.as_bytes());
    let _ = stdout.flush();
    let mut stderr = io::stderr().lock();
    for line in native.stderr_lines().chain(notes.iter().map(Note::line)) {
        let _ = writeln!(stderr, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_and_panics_allow_with_a_note() {
        let mut notes = Vec::new();
        // The agent's own "no opinion" (Gemini's is `{}`) is what trouble answers.
        let allow = Native::ok("{}".to_string(), Vec::new());
        let native = allow_on_trouble(&mut notes, allow.clone(), |_| {
            Err(anyhow!("no agent named `x`"))
        });
        assert_eq!(native, allow);
        let native = allow_on_trouble(&mut notes, allow.clone(), |_| panic!("a bug"));
        assert_eq!(native, allow);
        let kinds: Vec<(&str, &str)> = notes
            .iter()
            .map(|n| (n.kind.as_str(), n.text.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("input", "no agent named `x`; allowing"),
                ("internal", "allowing after an internal error")
            ]
        );
        let answered = Native {
            stdout: "{}".into(),
            exit_code: 2,
            ..Native::default()
        };
        let native = allow_on_trouble(&mut notes, allow, |_| Ok(answered.clone()));
        assert_eq!(native, answered);
    }

    #[test]
    fn reading_stops_at_the_end_of_the_first_value() {
        /// Bytes, then a read that would block forever (an open stdin).
        struct Open<'a>(&'a [u8]);
        impl Read for Open<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    panic!("read past the value: run would wait for EOF");
                }
                let n = self.0.len().min(buf.len()).min(3);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let payload = br#"{"a":"}\"{[","b":[1,{"c":2}]}"#;
        assert_eq!(read_bounded(Open(payload)).unwrap(), payload);
        let with_bom = b"\xEF\xBB\xBF \n[1,2]";
        assert_eq!(read_bounded(Open(with_bom)).unwrap(), with_bom);
        // Not an object or array: read to EOF, as before.
        assert_eq!(read_bounded(&b"12 "[..]).unwrap(), b"12 ");
        assert_eq!(read_bounded(&b"{\"a\":"[..]).unwrap(), b"{\"a\":");
    }

    #[test]
    fn input_is_bounded() {
        assert_eq!(read_bounded(&b"{}"[..]).unwrap(), b"{}");
        let big = vec![b' '; MAX_INPUT + 1];
        let err = read_bounded(&big[..]).unwrap_err();
        assert_eq!(err.to_string(), "the hook input is over 32 MiB; refused");
    }
}
