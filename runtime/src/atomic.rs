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
//! - [`write`]: new bytes go to a temporary file in the same directory, are
//!   flushed to disk, and replace the old file by `rename` (atomic), which
//!   is then made durable by syncing the directory. Until the rename the old
//!   file is untouched; a failed write leaves no temporary file behind.

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

/// Replaces the bytes of `target` (a resolved path) by `bytes` atomically:
/// temporary file in the same directory, fsync, rename, fsync of the
/// directory. An existing file keeps its permissions (and, where we may set
/// it, its owner); a new one gets the usual `0666` less the umask (`0777`
/// when `executable`). On error `target` is as it was and no temporary file
/// is left.
pub(crate) fn write(target: &Path, bytes: &[u8], executable: bool) -> io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let existing = fs::metadata(target).ok().filter(|m| m.is_file());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".agenthooks.tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Applied at creation, so the umask trims it as it would any new file.
        builder.permissions(fs::Permissions::from_mode(if executable {
            0o777
        } else {
            0o666
        }));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    if let Some(meta) = &existing {
        keep_owner_and_mode(tmp.as_file(), meta, executable)?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(target).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
}

/// Like [`write`], but never replaces an existing file (for backups, which
/// are written once and never overwritten).
pub(crate) fn write_new(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".agenthooks.tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist_noclobber(target).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
}

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

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_followed_to_its_target_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
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
    #[test]
    fn a_rewrite_keeps_the_mode_and_leaves_no_temporary_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("settings.json");
        fs::write(&f, "old").unwrap();
        fs::set_permissions(&f, fs::Permissions::from_mode(0o640)).unwrap();
        write(&f, b"new", false).unwrap();
        assert_eq!(fs::read(&f).unwrap(), b"new");
        let mode = fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn write_new_never_replaces_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("x.bak");
        write_new(&f, b"first").unwrap();
        assert!(write_new(&f, b"second").is_err());
        assert_eq!(fs::read(&f).unwrap(), b"first");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn the_lock_excludes_a_second_holder_and_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("hooks.json");
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
