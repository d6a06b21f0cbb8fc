//! The small `agenthooks` binary: what agents and users call.
//!
//! Every `agenthooks` process pays for loading its binary, and the whole
//! CLI (wasmtime, its compilers, rmcp, the OCI client) is a large
//! position-independent binary whose relocations are most of an idle
//! `run`. So `agenthooks` is a small front that answers `run` itself when
//! the event needs only what it carries (command hooks, or no hook at
//! all: the common case), with the same pipeline code as the
//! engine (`cli::run::answer`). Everything else goes to the engine,
//! `agenthooks-engine` beside it, by `exec` (same pid, no second spawn):
//!
//! - an event whose selected hooks include another kind (http, wasm,
//!   prompt, agent, mcp_tool), or that may be a session's arrival (which warms the
//!   compile cache), before anything ran, with the payload already read
//!   given as the engine's stdin;
//! - every other command line, unchanged, so its messages stay the
//!   engine's (this module has no argument parser beyond `run`'s few flags).
//!
//! The engine is found beside this binary; `AGENTHOOKS_ENGINE` overrides
//! it (tests).

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::process::ExitCode;

use super::handoff;
use super::run;
use crate::agents::{Agent, Native};
use crate::exec::Executors;
use crate::head::Carried;
use crate::protocol::{Answer, Event, Note, NoteKind};

/// The variable naming the engine binary to hand off to (tests).
pub const ENGINE_VAR: &str = crate::dirs::ENGINE_VAR;

/// The engine's file name.
pub const ENGINE_NAME: &str = crate::dirs::ENGINE_NAME;

/// What the front carries: command hooks, no session arrival. Http hooks
/// go to the engine with the rest: their TLS stack (rustls, ring, ureq)
/// was a third of the front's relocations, paid by every event.
const CARRIED: Carried = Carried {
    executors: Executors::command_only(),
    arrival: None,
};

/// The front's `main`.
pub fn main() -> ExitCode {
    survive_file_size_limit();
    let argv: Vec<OsString> = std::env::args_os().collect();
    let rest = argv.get(1..).unwrap_or_default();
    let Some(args) = parse_run(rest) else {
        return forward(argv.first(), rest);
    };
    allow_on_panic();
    if let Some(code) = super::probe::answer_if_probe(&args.agent) {
        return code;
    }
    run::answer(&args, CARRIED, |agent, payload, event, notes| {
        hand_off(agent, rest, &payload, event, notes)
    })
}

/// `run`'s arguments, when `args` (after the program name) are exactly
/// `run --agent A [--event E] [-v|--verbose] [--system] [--user]
/// [--tools T]`, in any order, each at most once, `--name value` or
/// `--name=value`; `None` for anything else, which the engine's parser
/// answers (`--help`, a typo, a flag of a newer version...), so its
/// messages stay one.
pub fn parse_run(args: &[OsString]) -> Option<run::Args> {
    let (first, flags) = args.split_first()?;
    if first != "run" {
        return None;
    }
    let (mut agent, mut event, mut tools) = (None, None, None);
    let (mut verbose, mut system, mut user) = (false, false, false);
    let mut flags = flags.iter();
    while let Some(flag) = flags.next() {
        let flag = flag.to_str()?;
        let (name, inline) = match flag.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (flag, None),
        };
        let slot = match name {
            "--agent" => &mut agent,
            "--event" => &mut event,
            "--tools" => &mut tools,
            "-v" | "--verbose" if inline.is_none() && !verbose => {
                verbose = true;
                continue;
            }
            "--system" if inline.is_none() && !system => {
                system = true;
                continue;
            }
            "--user" if inline.is_none() && !user => {
                user = true;
                continue;
            }
            _ => return None,
        };
        let value = match inline {
            Some(value) => value.to_string(),
            None => value_of(flags.next()?)?,
        };
        if slot.replace(value).is_some() {
            return None;
        }
    }
    Some(run::Args {
        agent: agent?,
        event,
        verbose,
        system,
        user,
        tools,
    })
}

/// A flag's value in the next argument: not one that looks like a flag
/// (clap would read `--agent --verbose` as a missing value).
fn value_of(next: &OsStr) -> Option<String> {
    let value = next.to_str()?;
    (!value.starts_with('-')).then(|| value.to_string())
}

/// Where the engine is: [`ENGINE_VAR`] when set, else beside this binary.
pub fn engine_path() -> PathBuf {
    crate::dirs::engine()
}

/// The one line saying the engine cannot be started, and the fix.
fn engine_trouble(engine: &std::path::Path, err: &std::io::Error) -> String {
    format!(
        "the engine `{}` cannot be started ({err}); reinstall: {}",
        engine.display(),
        crate::origin::install_line()
    )
}

/// Give the event to the engine (`run` with the same arguments, `payload`
/// as its stdin). Returns only when the engine cannot be started: then an
/// answer that allows and says so to the user in the agent (its
/// `systemMessage`, where the agent shows one), since the hooks that needed
/// the engine did not run, and the same line as a note on stderr.
fn hand_off(
    agent: &'static dyn Agent,
    args: &[OsString],
    payload: &[u8],
    event: &Event,
    notes: &mut Vec<Note>,
) -> Native {
    let engine = engine_path();
    match handoff::exec(&engine, args, Some(payload)) {
        Ok(code) => std::process::exit(code),
        Err(err) => {
            let line = format!(
                "{}; the hooks it runs did not run (allowed)",
                engine_trouble(&engine, &err)
            );
            let answer = Answer {
                system_message: Some(crate::protocol::prefixed!("{line}")),
                ..Answer::default()
            };
            notes.push(Note::runtime(NoteKind::Internal, line));
            agent.encode(event, &answer)
        }
    }
}

/// Any command line but `run`'s: the engine's, unchanged, under the name
/// that was typed (`argv0`), so its help and usage errors say `agenthooks`.
fn forward(argv0: Option<&OsString>, args: &[OsString]) -> ExitCode {
    let engine = engine_path();
    match handoff::exec_as(&engine, argv0.map(OsString::as_os_str), args, None) {
        Ok(code) => std::process::exit(code),
        Err(err) => {
            eprintln!(
                "{}",
                super::report::note_line(&engine_trouble(&engine, &err))
            );
            ExitCode::from(super::EXIT_FINDING)
        }
    }
}

/// `run` allows when it panics (an agent may read any other exit as a
/// deny); the panic itself is one line on stderr.
pub fn allow_on_panic() {
    std::panic::set_hook(Box::new(|info| {
        let line = info.to_string().replace('\n', " ");
        eprintln!(
            "{}",
            Note::runtime(NoteKind::Internal, format!("internal error: {line}")).line()
        );
    }));
}

/// A write past `RLIMIT_FSIZE` (the compile cache, the audit log) must fail
/// with `EFBIG`, which each writer handles, not kill the process: an agent
/// reads a death by SIGXFSZ as an error of the hook. A handler that does
/// nothing, not `SIG_IGN`: a handler is reset by `exec`, so command hooks
/// (and the engine, which sets its own) get the default disposition, where
/// an ignored signal would be inherited.
#[cfg(unix)]
pub fn survive_file_size_limit() {
    extern "C" fn ignore(_: libc::c_int) {}
    // SAFETY: at startup, before any thread exists; the handler does
    // nothing, so it is async-signal-safe; the struct is zeroed then filled.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = ignore as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGXFSZ, &action, std::ptr::null_mut());
    }
}

/// Nothing to do where there is no SIGXFSZ.
#[cfg(not(unix))]
pub fn survive_file_size_limit() {}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Option<(String, Option<String>, bool, bool)> {
        let args: Vec<OsString> = line.split_whitespace().map(OsString::from).collect();
        parse_run(&args).map(|a| (a.agent, a.event, a.verbose, a.system))
    }

    #[test]
    fn the_run_line_agents_call_is_parsed_here() {
        let some = |agent: &str, event: Option<&str>, verbose, system| {
            Some((
                agent.to_string(),
                event.map(str::to_string),
                verbose,
                system,
            ))
        };
        assert_eq!(
            parse("run --agent claude"),
            some("claude", None, false, false)
        );
        assert_eq!(
            parse("run --event BeforeTool --agent=gemini -v --system"),
            some("gemini", Some("BeforeTool"), true, true)
        );
        assert_eq!(
            parse("run --verbose --agent codex --event=Stop"),
            some("codex", Some("Stop"), true, false)
        );
        // What a narrowed user entry says (`install::coverage`).
        let args: Vec<OsString> = [
            "run",
            "--agent",
            "claude",
            "--event",
            "PreToolUse",
            "--user",
            "--tools",
            "Edit|Write",
        ]
        .map(OsString::from)
        .to_vec();
        let parsed = parse_run(&args).unwrap();
        assert!(parsed.user && !parsed.system);
        assert_eq!(parsed.tools.as_deref(), Some("Edit|Write"));
        let inline = parse("run --agent claude --tools=Bash").unwrap();
        assert_eq!(inline.0, "claude");
    }

    #[test]
    fn anything_else_goes_to_the_engine() {
        for line in [
            "",
            "status",
            "--version",
            "run",
            "run --help",
            "run -h",
            "run --agent",
            "run --agent --verbose",
            "run --event Stop",
            "run --agent a --agent b",
            "run --agent a -v -v",
            "run --agent a -vv",
            "run --agent a --verbose=true",
            "run --agent a --system --system",
            "run --agent a --user --user",
            "run --agent a --tools",
            "run --agent a --tools Bash --tools Read",
            "run --agent a extra",
            "run --agent a --",
            "run --agent a --future-flag",
            "fire --agent a",
        ] {
            assert_eq!(parse(line), None, "{line:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_non_utf8_argument_goes_to_the_engine() {
        use std::os::unix::ffi::OsStringExt;
        let args = [
            OsString::from("run"),
            OsString::from("--agent"),
            OsString::from_vec(vec![0xff]),
        ];
        assert!(parse_run(&args).is_none());
    }
}
