//! Bounded reads of files a repository (or a user) controls.
//!
//! Every file agenthooks reads on an agent's critical path — `hooks.json`, a
//! component, a script hashed for trust, a recorded payload — may be a FIFO, a
//! symlink to `/dev/zero`, or a sparse file of gigabytes committed to git.
//! [`read_bounded`] is the one way to read such a file: it opens without
//! blocking (a FIFO with no writer would otherwise hang the open), refuses
//! anything that is not a regular file, checks the size with `fstat` before
//! reading, and never reads more than the cap even if the file grows while it
//! is read.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The caps on files the project controls (docs/hooks-json.md: "Limits").
pub mod caps {
    /// A `hooks.json` (either scope).
    pub const HOOKS_JSON: u64 = 4 << 20;
    /// A wasm component.
    pub const COMPONENT: u64 = 64 << 20;
    /// A project script hashed for trust.
    pub const SCRIPT: u64 = 16 << 20;
    /// An event payload (`run`'s stdin, `fire --input-file`).
    pub const PAYLOAD: u64 = 32 << 20;
    /// The trust store (the user's own file, but read on every event with
    /// project hooks, so bounded like the rest).
    pub const TRUST_STORE: u64 = 64 << 20;
    /// A compile-cache entry: the compiled artefact of a component of at most
    /// [`COMPONENT`] bytes, which is several times the component's size.
    pub const CACHE_ENTRY: u64 = 1 << 30;
    /// A compile-cache index record (a line of numbers and a path).
    pub const CACHE_RECORD: u64 = 64 << 10;
}

/// Why a bounded read failed. Display is one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file does not exist.
    #[error("`{}` does not exist", path.display())]
    NotFound {
        /// The file.
        path: PathBuf,
    },
    /// Not a regular file (a FIFO, a device, a directory, a socket).
    #[error("`{}` is {kind}, not a regular file; replace it with a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead ("a FIFO", "a device", ...).
        kind: &'static str,
    },
    /// Larger than the cap.
    #[error("`{}` is {size} bytes, over the {cap}-byte limit; shrink it", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size (or, for a file that grew while read, more than the cap).
        size: u64,
        /// The cap.
        cap: u64,
    },
    /// Any other I/O error.
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}

impl ReadError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::NotFound { path }
            | ReadError::NotRegular { path, .. }
            | ReadError::TooLarge { path, .. }
            | ReadError::Io { path, .. } => path,
        }
    }
}

impl From<ReadError> for io::Error {
    /// For APIs that return `io::Result`: the kind follows the cause
    /// (`NotFound`, `InvalidData` for a file that is not regular or too
    /// large) and the [`ReadError`] stays inside, so its one-line Display is
    /// the error's and `get_ref()` recovers it typed.
    fn from(e: ReadError) -> io::Error {
        let kind = match &e {
            ReadError::NotFound { .. } => io::ErrorKind::NotFound,
            ReadError::NotRegular { .. } | ReadError::TooLarge { .. } => io::ErrorKind::InvalidData,
            ReadError::Io { source, .. } => source.kind(),
        };
        io::Error::new(kind, e)
    }
}

/// Opens `path` for reading without blocking and checks that it is a regular
/// file of at most `cap` bytes. Returns the open file and its metadata (taken
/// from the open descriptor, so it describes what will be read).
pub fn open_bounded(path: &Path, cap: u64) -> Result<(File, std::fs::Metadata), ReadError> {
    let io_err = |source: io::Error| {
        if source.kind() == io::ErrorKind::NotFound {
            ReadError::NotFound {
                path: path.to_path_buf(),
            }
        } else {
            ReadError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    };
    // On Windows there is no O_NONBLOCK; refuse special files by their
    // metadata before opening (named pipes live outside the file namespace).
    #[cfg(not(unix))]
    {
        let meta = std::fs::metadata(path).map_err(io_err)?;
        if !meta.is_file() {
            return Err(ReadError::NotRegular {
                path: path.to_path_buf(),
                kind: if meta.is_dir() {
                    "a directory"
                } else {
                    "not a file"
                },
            });
        }
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: opening a FIFO without a writer returns at once instead
        // of waiting for one. O_NOCTTY: a terminal device never becomes ours.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(io_err)?;
    let meta = file.metadata().map_err(io_err)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(&meta),
        });
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
            cap,
        });
    }
    Ok((file, meta))
}

/// Reads all of `path` if it is a regular file of at most `cap` bytes.
pub fn read_bounded(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let (file, meta) = open_bounded(path, cap)?;
    read_open(path, file, meta.len(), cap)
}

/// `path` with `.` and `..` resolved by name, without following links
/// (for a path that may not exist).
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// [`read_bounded`], as UTF-8 text (invalid UTF-8 is an `InvalidData` error).
pub fn read_bounded_string(path: &Path, cap: u64) -> Result<String, ReadError> {
    let bytes = read_bounded(path, cap)?;
    String::from_utf8(bytes).map_err(|e| ReadError::Io {
        path: path.to_path_buf(),
        source: io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()),
    })
}

/// Reads an already checked file, never more than `cap` bytes (it may have
/// grown since `fstat`).
pub fn read_open(path: &Path, file: File, len_hint: u64, cap: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::with_capacity(len_hint.min(cap) as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

/// How long before a read a file must have last changed for its [`FileStamp`]
/// to stand for its bytes: well above any file system's timestamp
/// granularity (FAT's is 2 s).
pub const SETTLE: std::time::Duration = std::time::Duration::from_secs(3);

/// What identifies a file's bytes without reading them: device, inode, size,
/// mtime and ctime (seconds, nanoseconds). The one rule for "has this file
/// changed?" (the compile index, the warm component map, the config reload).
///
/// Why it is enough: every change to a file's bytes sets its ctime to the
/// current time, and no system call sets ctime to anything else, so a file
/// with the recorded stamp has the recorded bytes, unless it changed within
/// the timestamp granularity of the read: as git does for its index ("racy
/// git"), a stamp is trusted only once it is [`settled`](FileStamp::settled).
/// Without inodes and ctimes (not Unix) only size and mtime are compared, and
/// [`FileStamp::exact`] says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileStamp {
    /// Device.
    pub dev: u64,
    /// Inode.
    pub ino: u64,
    /// Size in bytes.
    pub size: u64,
    /// Last modification (seconds, nanoseconds since the epoch).
    pub mtime: (i64, i64),
    /// Last status change (seconds, nanoseconds); zero where unknown.
    pub ctime: (i64, i64),
}

impl FileStamp {
    /// The stamp in `meta`.
    pub fn of(meta: &std::fs::Metadata) -> FileStamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileStamp {
                dev: meta.dev(),
                ino: meta.ino(),
                size: meta.size(),
                mtime: (meta.mtime(), meta.mtime_nsec()),
                ctime: (meta.ctime(), meta.ctime_nsec()),
            }
        }
        #[cfg(not(unix))]
        {
            let mtime = meta
                .modified()
                .ok()
                .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or((0, 0), |d| {
                    (d.as_secs() as i64, i64::from(d.subsec_nanos()))
                });
            FileStamp {
                dev: 0,
                ino: 0,
                size: meta.len(),
                mtime,
                ctime: (0, 0),
            }
        }
    }

    /// The stamp of the file at `path` (following symlinks), if it exists.
    pub fn of_path(path: &Path) -> Option<FileStamp> {
        std::fs::metadata(path).ok().map(|m| FileStamp::of(&m))
    }

    /// Whether the platform gives inodes and ctimes, so that an equal stamp
    /// means equal bytes (once settled).
    pub const fn exact() -> bool {
        cfg!(unix)
    }

    /// Whether the file last changed at least [`SETTLE`] before `now`.
    pub fn settled(&self, now: std::time::SystemTime) -> bool {
        let newest = self.mtime.max(self.ctime);
        let Ok(now) = now.duration_since(std::time::SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let Ok(secs) = i64::try_from(now.saturating_sub(SETTLE).as_secs()) else {
            return false;
        };
        newest.0 < secs
    }
}

/// Streams all of `path` (a regular file of at most `cap` bytes) into
/// `sink` — a hasher, say — without holding it in memory. Returns the
/// number of bytes.
pub fn copy_bounded(path: &Path, cap: u64, sink: &mut impl io::Write) -> Result<u64, ReadError> {
    let (file, _) = open_bounded(path, cap)?;
    let n = io::copy(&mut file.take(cap + 1), sink).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if n > cap {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            size: n,
            cap,
        });
    }
    Ok(n)
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// A FIFO at `path`, for the tests of what must refuse one without blocking.
#[cfg(all(test, unix))]
pub(crate) fn make_fifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo(3) reads the NUL-terminated path and nothing else.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) },
        0,
        "mkfifo {}",
        path.display()
    );
}

/// A FIFO called `name` in a new temporary directory (kept while the
/// returned `TempDir` lives).
#[cfg(all(test, unix))]
pub(crate) fn temp_fifo(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, path) = temp_path(name);
    make_fifo(&path);
    (dir, path)
}

/// The path `name` in a new temporary directory, not created (the
/// directory is kept while the returned `TempDir` lives).
#[cfg(test)]
pub(crate) fn temp_path(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

/// A file `name` holding `bytes` in a new temporary directory (kept while
/// the returned `TempDir` lives).
#[cfg(test)]
pub(crate) fn temp_file(
    name: &str,
    bytes: impl AsRef<[u8]>,
) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, path) = temp_path(name);
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_small_regular_file() {
        let (_dir, p) = temp_file("a", b"hello");
        assert_eq!(read_bounded(&p, 5).unwrap(), b"hello");
        assert!(matches!(
            read_bounded(&p, 4),
            Err(ReadError::TooLarge {
                size: 5,
                cap: 4,
                ..
            })
        ));
    }

    #[test]
    fn missing_is_not_found() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            read_bounded(&dir.path().join("nope"), 10),
            Err(ReadError::NotFound { .. })
        ));
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_bounded(dir.path(), 10).unwrap_err();
        assert!(matches!(e, ReadError::NotRegular { .. }), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let (_dir, p) = crate::fsread::temp_fifo("fifo");
        let e = read_bounded(&p, 10).unwrap_err();
        assert!(
            matches!(e, ReadError::NotRegular { kind: "a FIFO", .. }),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_to_dev_zero_is_refused() {
        let (_dir, p) = temp_path("zero");
        std::os::unix::fs::symlink("/dev/zero", &p).unwrap();
        let e = read_bounded(&p, 10).unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::NotRegular {
                    kind: "a device",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn copy_streams_a_file_and_stops_at_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        std::fs::write(&p, b"hello").unwrap();
        let mut out = Vec::new();
        assert_eq!(copy_bounded(&p, 5, &mut out).unwrap(), 5);
        assert_eq!(out, b"hello");
        let e = copy_bounded(&p, 4, &mut Vec::new()).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { cap: 4, .. }), "{e}");
    }

    #[test]
    fn as_an_io_error_it_keeps_its_kind_line_and_type() {
        let dir = tempfile::tempdir().unwrap();
        let e: io::Error = read_bounded(&dir.path().join("nope"), 1)
            .unwrap_err()
            .into();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        let e: io::Error = read_bounded(dir.path(), 1).unwrap_err().into();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(
            e.to_string().contains("is a directory, not a regular file"),
            "{e}"
        );
        let inner = e.get_ref().and_then(|i| i.downcast_ref::<ReadError>());
        assert!(matches!(inner, Some(ReadError::NotRegular { .. })));
    }

    #[cfg(unix)]
    #[test]
    fn a_sparse_file_is_refused_by_size_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big");
        let f = File::create(&p).unwrap();
        f.set_len(2 << 30).unwrap();
        let e = read_bounded(&p, caps::COMPONENT).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { .. }), "{e}");
        assert!(e.to_string().contains("over the"), "{e}");
    }

    #[test]
    fn a_stamp_changes_with_the_bytes_and_settles_later() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, b"one").unwrap();
        let first = FileStamp::of_path(&p).unwrap();
        let now = std::time::SystemTime::now();
        assert!(!first.settled(now));
        assert!(first.settled(now + std::time::Duration::from_secs(60)));
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&p, b"two").unwrap();
        let second = FileStamp::of_path(&p).unwrap();
        assert_eq!(first.size, second.size);
        if FileStamp::exact() {
            assert_ne!(first, second, "same size, new ctime");
        }
        assert_eq!(FileStamp::of_path(&dir.path().join("absent")), None);
    }
}
