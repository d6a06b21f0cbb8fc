//! Starting the engine in this process's place ([`exec`]), for the small
//! `agenthooks` binary ([`super::front`]).

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;
use std::process::Command;

/// Run `engine` with `args` in this process's place, `stdin` (when given)
/// as its standard input, the rest of the standard streams inherited.
///
/// Unix: `exec` (same pid, nothing spawned), after putting `stdin` on
/// descriptor 0 (Linux: a memfd; elsewhere an unlinked temporary file);
/// returns only the error that kept the engine from starting. Windows,
/// which has no `exec`: spawns the engine, writes `stdin` to it, waits and
/// gives its exit code.
///
/// # Errors
/// When the engine cannot be started (missing, not executable), or the
/// payload cannot be put on its stdin.
pub fn exec(engine: &Path, args: &[OsString], stdin: Option<&[u8]>) -> io::Result<i32> {
    exec_as(engine, None, args, stdin)
}

/// [`exec`] with the engine's `argv[0]` set to `argv0` (Unix), the name the
/// user typed: clap names the program by it in help and usage errors.
///
/// # Errors
/// As [`exec`].
pub fn exec_as(
    engine: &Path,
    argv0: Option<&OsStr>,
    args: &[OsString],
    stdin: Option<&[u8]>,
) -> io::Result<i32> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        if let Some(payload) = stdin {
            stdin_from(payload)?;
        }
        let mut cmd = Command::new(engine);
        if let Some(argv0) = argv0 {
            cmd.arg0(argv0);
        }
        Err(cmd.args(args).exec())
    }
    #[cfg(not(unix))]
    {
        let _ = argv0;
        use std::io::Write;
        use std::process::Stdio;
        let mut cmd = Command::new(engine);
        cmd.args(args);
        if stdin.is_some() {
            cmd.stdin(Stdio::piped());
        }
        let mut child = cmd.spawn()?;
        if let (Some(payload), Some(mut pipe)) = (stdin, child.stdin.take()) {
            // An engine that stops reading early answers all the same.
            let _ = pipe.write_all(payload);
        }
        Ok(child.wait()?.code().unwrap_or(1))
    }
}

/// Make descriptor 0 a file holding `payload`, read from its start.
#[cfg(unix)]
pub(crate) fn stdin_from(payload: &[u8]) -> io::Result<()> {
    use std::io::{Seek, Write};
    use std::os::fd::AsRawFd;
    let mut file = payload_file()?;
    file.write_all(payload)?;
    file.rewind()?;
    // SAFETY: dup2 on two descriptors this process owns; 0 is replaced
    // atomically, and `file`'s own descriptor is closed when it drops.
    if unsafe { libc::dup2(file.as_raw_fd(), 0) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// An anonymous file in memory, closed on `exec` (its copy on 0 is not).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn payload_file() -> io::Result<std::fs::File> {
    use std::os::fd::FromRawFd;
    // SAFETY: a NUL-terminated name and a flag; the descriptor returned is
    // new and owned by the `File` alone.
    let fd = unsafe { libc::memfd_create(c"agenthooks-event".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return tempfile::tempfile();
    }
    // SAFETY: `fd` was just created and is owned by nothing else.
    Ok(unsafe { std::fs::File::from_raw_fd(fd) })
}

/// An unlinked temporary file.
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
fn payload_file() -> io::Result<std::fs::File> {
    tempfile::tempfile()
}
