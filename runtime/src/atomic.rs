//! Changing an agent's file so that nothing the user had is ever lost: not by
//! a crash or a full disk halfway through a write, not by a second install
//! running at the same moment, not by a file that is a symlink.
//!
//! - [`resolve`]: a native file that is a symlink is followed to the file it
//!   names; that file is what gets locked and rewritten, so the link stays a
//!   link (writing to the link's path would replace the link by a file).
//! - [`Lock`]: an advisory lock per file, held across read, merge and write,
//!   so concurrent installs (the same agent twice, or agents whose files are
//!   one file) each see the other's result instead of overwriting it.
//! - [`write_with`]: new bytes go to a temporary file in the same directory,
//!   are flushed to disk, and replace the old file by `rename` (atomic),
//!   which is then made durable by syncing the directory. Until the rename
//!   the old file is untouched; a failed write leaves no temporary file
//!   behind. It is the one writer of the runtime: users' files ([`write`],
//!   [`write_new`]), the trust store, the compile cache and its index, pulled
//!   components and built ones each pass their [`Options`].

use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long [`Lock::acquire`] waits for another install to finish with a
/// file. An install holds a lock for milliseconds; past this, something is
/// stuck and the user is told so rather than left waiting.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(30);

/// Symlinks followed before giving up (Linux's own limit, `ELOOP`).
const MAX_LINKS: usize = 40;

/// The file `path` finally names: `path` itself unless it is a symlink, else
/// the end of its chain of links (which need not exist yet).
pub(crate) fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symlinks in a row"
    )))
}

/// `.<name>.agenthooks.lock` beside `target`.
pub(crate) fn lock_path(target: &Path) -> PathBuf {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    target.with_file_name(format!(".{name}.agenthooks.lock"))
}

/// An exclusive advisory lock on one native file, held until dropped.
///
/// The lock is taken on a sibling file (`.<name>.agenthooks.lock`), not on
/// the native file itself: [`write`] replaces the native file by a new inode,
/// and a lock on the old inode would not exclude a process that opens the
/// new one. The lock file is removed again on drop, so nothing is left in
/// the user's tree; a waiter that then wakes up holding the removed inode
/// notices (the path no longer names its inode) and locks afresh.
#[derive(Debug)]
pub(crate) struct Lock {
    path: PathBuf,
    // Closing the descriptor releases the lock.
    _file: File,
}

impl Lock {
    /// Locks `target` (a resolved path, see [`resolve`]), waiting up to
    /// `wait` for another holder; its directory must exist.
    pub(crate) fn acquire(target: &Path, wait: Duration) -> io::Result<Lock> {
        let path = lock_path(target);
        let give_up = Instant::now() + wait;
        let mut pause = Duration::from_millis(2);
        loop {
            let file = fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)?;
            if try_lock(&file)? {
                if same_file(&file, &path) {
                    return Ok(Lock { path, _file: file });
                }
                // The previous holder removed this lock file after we opened it.
                continue;
            }
            if Instant::now() >= give_up {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!(
                        "another agenthooks install or uninstall has held this lock for {} s; try again once it is done (nothing was changed)",
                        wait.as_secs()
                    ),
                ));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held, so no one can lock this inode and think
        // it is the current lock file (see `acquire`).
        let _ = fs::remove_file(&self.path);
    }
}

/// An exclusive lock without waiting (`flock`, `LockFileEx` on Windows):
/// whether it was taken.
fn try_lock(file: &File) -> io::Result<bool> {
    match file.try_lock() {
        Ok(()) => Ok(true),
        Err(fs::TryLockError::WouldBlock) => Ok(false),
        Err(fs::TryLockError::Error(err)) => Err(err),
    }
}

/// Whether `path` still names the open `file`.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// Takes the group's and others' write permission off a file install
/// created in an agent's system-wide folder, whatever the umask: Copilot
/// CLI ignores a policy file that is group- or world-writable, and a
/// machine-wide policy nobody else may change is the point of writing one.
#[cfg(unix)]
pub(crate) fn not_writable_by_others(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::metadata(path)?.permissions().mode();
    if mode & 0o022 != 0 {
        fs::set_permissions(path, fs::Permissions::from_mode(mode & !0o022))?;
    }
    Ok(())
}

/// Windows: the file keeps the ACL it inherits from its folder under
/// `%ProgramData%`; restricting that folder is the administrator's.
#[cfg(not(unix))]
pub(crate) fn not_writable_by_others(_path: &Path) -> io::Result<()> {
    Ok(())
}

/// How [`write_with`] writes a file: every write the runtime makes goes
/// through it, with one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Options {
    /// Replace an existing file; else fail with `AlreadyExists` and leave it.
    pub(crate) replace: bool,
    /// Flush the file and then its directory to disk before returning, so
    /// the new bytes survive a crash. A cache whose entries verify their own
    /// digest does without: a lost write costs a compile, never a wrong answer.
    pub(crate) durable: bool,
    /// The permissions of the file written.
    pub(crate) mode: Mode,
}

/// The permissions of a file [`write_with`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A user's own file: an existing one keeps its permissions (and, where
    /// we may set it, its owner); a new one gets the usual `0666` less the
    /// umask (`0777` when `executable`).
    User {
        /// Whether the file is a program (a hook script, a plugin shim).
        executable: bool,
    },
    /// Readable and writable by its owner only (`0600`), whatever was there:
    /// caches, the trust store, backups of a user's file.
    Private,
}

impl Options {
    /// A user's file (or one written for them), replaced whole and durably.
    pub(crate) const USER: Options = Options {
        replace: true,
        durable: true,
        mode: Mode::User { executable: false },
    };
    /// Agenthooks' own record (the trust store): durable and private.
    pub(crate) const PRIVATE: Options = Options {
        replace: true,
        durable: true,
        mode: Mode::Private,
    };
    /// A cache file: private, and not flushed (see [`Options::durable`]).
    /// Only the wasm cache writes one (no cache without the `engine` feature).
    #[cfg(any(feature = "engine", test))]
    pub(crate) const CACHE: Options = Options {
        replace: true,
        durable: false,
        mode: Mode::Private,
    };
}

/// Replaces the bytes of `target` (a resolved path) by `bytes` atomically,
/// as a user's file ([`Options::USER`]; `executable` for a program).
pub(crate) fn write(target: &Path, bytes: &[u8], executable: bool) -> io::Result<()> {
    let options = Options {
        mode: Mode::User { executable },
        ..Options::USER
    };
    write_with(target, options, |file| file.write_all(bytes))
}

/// Like [`write`], but never replaces an existing file, and private (for
/// backups, which are written once and never overwritten).
pub(crate) fn write_new(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let options = Options {
        replace: false,
        ..Options::PRIVATE
    };
    write_with(target, options, |file| file.write_all(bytes))
}

/// Writes `target` whole or not at all: `fill` writes the bytes to a
/// temporary file in the same directory (`.<name>.<random>.agenthooks.tmp`),
/// which then replaces `target` by `rename` (atomic), or is linked in only
/// if `target` does not exist when `options` say not to replace. Readers
/// see the old file or the new one, never a part. On error `target` is as it
/// was and no temporary file is left. The directory must exist.
pub(crate) fn write_with(
    target: &Path,
    options: Options,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Applied at creation, so the umask trims it as it would any new file.
        builder.permissions(fs::Permissions::from_mode(match options.mode {
            Mode::User { executable: true } => 0o777,
            Mode::User { executable: false } => 0o666,
            Mode::Private => 0o600,
        }));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    if let Mode::User { executable } = options.mode {
        if let Some(meta) = fs::metadata(target).ok().filter(|m| m.is_file()) {
            keep_owner_and_mode(tmp.as_file(), &meta, executable)?;
        }
    }
    fill(tmp.as_file_mut())?;
    if options.durable {
        tmp.as_file().sync_all()?;
    }
    if options.replace {
        tmp.persist(target).map_err(|e| e.error)?;
    } else {
        tmp.persist_noclobber(target).map_err(|e| e.error)?;
    }
    if options.durable {
        sync_dir(dir);
    }
    Ok(())
}

/// How every temporary file of [`write_with`] ends, so a sweep of a
/// directory agenthooks owns can tell its leftovers.
pub(crate) const TEMP_SUFFIX: &str = ".agenthooks.tmp";

/// Deletes `path` (a missing file is not an error) and syncs its directory.
pub(crate) fn remove(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    }
    if let Some(dir) = path.parent() {
        sync_dir(dir);
    }
    Ok(())
}

#[cfg(unix)]
fn keep_owner_and_mode(tmp: &File, meta: &fs::Metadata, executable: bool) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let mut mode = meta.mode() & 0o7777;
    if executable {
        mode |= 0o111;
    }
    tmp.set_permissions(fs::Permissions::from_mode(mode))?;
    let now = tmp.metadata()?;
    if now.uid() != meta.uid() || now.gid() != meta.gid() {
        // Only root may give a file away; a file we cannot give back its
        // owner is still better written than not.
        let _ = std::os::unix::fs::fchown(tmp, Some(meta.uid()), Some(meta.gid()));
    }
    Ok(())
}

#[cfg(not(unix))]
fn keep_owner_and_mode(tmp: &File, meta: &fs::Metadata, _executable: bool) -> io::Result<()> {
    tmp.set_permissions(meta.permissions())
}

/// Makes a rename or unlink in `dir` durable. Best effort: some file systems
/// refuse to sync a directory, and the data itself is already on disk.
#[cfg(unix)]
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// `f` holds `bytes` and is alone in its directory: no temporary left.
    fn alone_holding(f: &Path, bytes: &[u8]) {
        assert_eq!(fs::read(f).unwrap(), bytes);
        assert_eq!(fs::read_dir(f.parent().unwrap()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_followed_to_its_target_and_stays_a_link() {
        let (dir, real) = crate::fsread::temp_path("real.json");
        fs::write(&real, "{}\n").unwrap();
        let link = dir.path().join("sub/link.json");
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink("../real.json", &link).unwrap();
        let target = resolve(&link).unwrap();
        assert_eq!(
            fs::canonicalize(&target).unwrap(),
            fs::canonicalize(&real).unwrap()
        );
        write(&target, b"{\"a\": 1}\n", false).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"{\"a\": 1}\n");
        // A dangling link resolves to where the file would be created.
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink("missing.json", &dangling).unwrap();
        assert_eq!(resolve(&dangling).unwrap(), dir.path().join("missing.json"));
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[cfg(unix)]
    #[test]
    fn a_rewrite_keeps_the_mode_and_leaves_no_temporary_file() {
        use std::os::unix::fs::PermissionsExt;
        let (dir, f) = crate::fsread::temp_path("settings.json");
        fs::write(&f, "old").unwrap();
        fs::set_permissions(&f, fs::Permissions::from_mode(0o640)).unwrap();
        write(&f, b"new", false).unwrap();
        assert_eq!(fs::read(&f).unwrap(), b"new");
        assert_eq!(mode(&f), 0o640);
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn write_new_never_replaces_a_file() {
        let (_dir, f) = crate::fsread::temp_path("x.bak");
        write_new(&f, b"first").unwrap();
        assert!(write_new(&f, b"second").is_err());
        alone_holding(&f, b"first");
    }

    #[cfg(unix)]
    #[test]
    fn private_files_are_the_owners_alone_whatever_was_there() {
        let (dir, f) = crate::fsread::temp_path("store.json");
        // A store someone made readable to others is private again once rewritten.
        fs::write(&f, "old").unwrap();
        let shared = <fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o644);
        fs::set_permissions(&f, shared).unwrap();
        write_with(&f, Options::PRIVATE, |file| file.write_all(b"new")).unwrap();
        assert_eq!(fs::read(&f).unwrap(), b"new");
        assert_eq!(mode(&f), 0o600);
        let cache = dir.path().join("entry.cwasm");
        write_with(&cache, Options::CACHE, |file| file.write_all(b"a")).unwrap();
        assert_eq!(mode(&cache), 0o600);
        // Backups too: a copy of a user's file is no one else's business.
        let backup = dir.path().join("x.bak");
        write_new(&backup, b"b").unwrap();
        assert_eq!(mode(&backup), 0o600);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_user_file_gets_the_usual_mode_and_a_program_its_x_bits() {
        let dir = tempfile::tempdir().unwrap();
        // The umask of the test process decides; 0o022 is everyone's default.
        let plain = dir.path().join("hooks.json");
        write(&plain, b"{}", false).unwrap();
        let script = dir.path().join("hook.sh");
        write(&script, b"#!/bin/sh", true).unwrap();
        let (plain, script) = (mode(&plain), mode(&script));
        assert_eq!(plain & 0o111, 0, "{plain:o}");
        assert_eq!(plain & 0o600, 0o600, "{plain:o}");
        assert_eq!(script & 0o700, 0o700, "{script:o}");
        assert_eq!(script & !0o111, plain, "{script:o} vs {plain:o}");
    }

    #[test]
    fn a_failed_fill_leaves_the_old_file_and_no_temporary() {
        let (_dir, f) = crate::fsread::temp_path("index.idx");
        fs::write(&f, "old").unwrap();
        let err = write_with(&f, Options::CACHE, |file| {
            file.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "disk full");
        alone_holding(&f, b"old");
    }

    #[test]
    fn without_replace_an_existing_file_stays_and_a_new_one_is_written() {
        let (_dir, f) = crate::fsread::temp_path("lib.rs");
        let keep = Options {
            replace: false,
            ..Options::USER
        };
        write_with(&f, keep, |file| file.write_all(b"mine")).unwrap();
        let err = write_with(&f, keep, |file| file.write_all(b"theirs")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&f).unwrap(), b"mine");
        write_with(&f, Options::USER, |file| file.write_all(b"new")).unwrap();
        alone_holding(&f, b"new");
    }

    #[cfg(unix)]
    #[test]
    fn the_lock_excludes_a_second_holder_and_leaves_no_file() {
        let (dir, f) = crate::fsread::temp_path("hooks.json");
        let held = Lock::acquire(&f, LOCK_WAIT).unwrap();
        assert!(lock_path(&f).exists());
        let err = Lock::acquire(&f, Duration::from_millis(30)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        assert!(err.to_string().contains("held this lock"), "{err}");
        drop(held);
        assert!(!lock_path(&f).exists());
        let again = Lock::acquire(&f, Duration::from_millis(30)).unwrap();
        drop(again);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
