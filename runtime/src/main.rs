//! The `agenthooks` binary: parse, run, turn an error into one line and an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    survive_file_size_limit();
    let cli = match agenthooks::cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    if cli.is_run() {
        // `run` allows when it panics (an agent may read any other exit as
        // a deny); the panic itself is one line on stderr.
        std::panic::set_hook(Box::new(|info| {
            let line = info.to_string().replace('\n', " ");
            eprintln!(
                "{}",
                agenthooks::protocol::Note::runtime(
                    agenthooks::protocol::NoteKind::Internal,
                    format!("internal error: {line}")
                )
                .line()
            );
        }));
    }
    match agenthooks::cli::run(cli) {
        Ok(code) => code,
        Err(err) => agenthooks::cli::exit_on_error(&err),
    }
}

/// A write past `RLIMIT_FSIZE` (the compile cache, the audit log) must fail
/// with `EFBIG`, which each writer handles, not kill the process: an agent
/// reads a death by SIGXFSZ as an error of the hook. A handler that does
/// nothing, not `SIG_IGN`: a handler is reset by `exec`, so command hooks
/// still get the default disposition, where an ignored signal would be inherited.
#[cfg(unix)]
fn survive_file_size_limit() {
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

#[cfg(not(unix))]
fn survive_file_size_limit() {}
