//! The compile locks: a worker holds its component's lock file (`flock`)
//! while it compiles, so events, `compile` and the cache's sweep (`gc.rs`)
//! can tell a compile under way from one that died. Below both the worker
//! and the sweep, which each read them.

#[cfg(unix)]
use std::fs::File;
use std::path::Path;

/// Whether the lock at `path` is free now (its compile is over).
#[cfg(unix)]
pub(crate) fn lock_free(path: &Path) -> bool {
    open_lock(path).is_some_and(|f| try_lock(&f))
}

/// Off Unix there are no locks: never wait on one.
#[cfg(not(unix))]
pub(crate) fn lock_free(_: &Path) -> bool {
    true
}

#[cfg(unix)]
pub(super) fn open_lock(path: &Path) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()
}

#[cfg(unix)]
pub(super) fn try_lock(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor we own; no memory is involved.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}
