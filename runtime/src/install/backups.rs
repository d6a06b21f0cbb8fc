//! Backups of the agents' files that `install`, `import --move` and
//! `uninstall` change, kept under agenthooks' state directory
//! (`crate::dirs::state`) and never beside the file: in a repository,
//! `git status` then shows only the files agenthooks meant to change.
//!
//! One folder per file, `<state>/backups/<file name>-<hash of its path>/`:
//! - `path`: the file's path, one line (how a folder is found by hand, and
//!   how [`sweep`] knows it is no longer needed);
//! - `original`: the file as agenthooks first found it, before any entry of
//!   its own; written once, and what `uninstall` gives back byte for byte
//!   when nothing else changed (the folder then goes);
//! - `previous-<n>`: the bytes each later write replaced, the newest
//!   [`KEEP`] kept, so a write agenthooks regrets can be undone by hand;
//! - `moved.json`: what `import --move` took out of the file
//!   (`crate::import::moving`), for `uninstall` to put back.
//!
//! Each file is read bounded ([`caps::HOOKS_JSON`]) and written private and
//! atomically (`atomic::write_new`); so a folder holds at most
//! `KEEP + 3` files of at most that size each.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::atomic;
use crate::fsread::{caps, read_bounded, ReadError};

/// How many `previous-<n>` copies a file keeps.
pub const KEEP: usize = 3;

/// The most backup folders [`sweep`] looks at in one go.
const SWEEP_MAX: usize = 512;

/// The folder under the state directory holding every file's backups.
pub fn root(state: &Path) -> PathBuf {
    state.join("backups")
}

/// The backups of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    dir: PathBuf,
    file: PathBuf,
}

impl Slot {
    /// The backups of `file` (as named by install: absolute) under `state`.
    pub fn of(state: &Path, file: &Path) -> Slot {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Kept short and portable; the hash tells apart files of one name.
        let name: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
            .take(40)
            .collect();
        let hash = crate::encoding::sha256_hex(file.to_string_lossy().as_bytes());
        Slot {
            dir: root(state).join(format!("{name}-{}", &hash[..16])),
            file: file.to_path_buf(),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file as agenthooks first found it.
    pub fn original(&self) -> PathBuf {
        self.dir.join("original")
    }

    /// What `import --move` took out of the file.
    pub fn moved(&self) -> PathBuf {
        self.dir.join("moved.json")
    }

    /// Whether anything is kept for the file.
    pub fn exists(&self) -> bool {
        self.dir.is_dir()
    }

    /// Creates the folder with its `path` line; when it is new, first
    /// [`sweep`]s the folders of files that are gone.
    ///
    /// # Errors
    /// When the folder or its `path` file cannot be written.
    pub(crate) fn ensure(&self) -> io::Result<()> {
        if self.dir.is_dir() {
            return Ok(());
        }
        if let Some(parent) = self.dir.parent() {
            sweep(parent);
        }
        fs::create_dir_all(&self.dir)?;
        let line = format!("{}\n", self.file.display());
        match atomic::write_new(&self.dir.join("path"), line.as_bytes()) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
            _ => Ok(()),
        }
    }

    /// Writes `bytes` as the file's original, unless one is kept already.
    ///
    /// # Errors
    /// When it cannot be written.
    pub(crate) fn keep_original(&self, bytes: &[u8]) -> io::Result<bool> {
        self.ensure()?;
        match atomic::write_new(&self.original(), bytes) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Keeps `bytes` (what a write replaced) as the newest `previous-<n>`,
    /// and removes all but the newest [`KEEP`].
    ///
    /// # Errors
    /// When it cannot be written.
    pub(crate) fn keep_previous(&self, bytes: &[u8]) -> io::Result<()> {
        self.ensure()?;
        let mut kept = self.previous();
        let next = kept.last().map_or(1, |(n, _)| n + 1);
        atomic::write_new(&self.dir.join(format!("previous-{next}")), bytes)?;
        kept.push((next, self.dir.join(format!("previous-{next}"))));
        let extra = kept.len().saturating_sub(KEEP);
        for (_, path) in kept.into_iter().take(extra) {
            atomic::remove(&path)?;
        }
        Ok(())
    }

    /// The `previous-<n>` copies, oldest first.
    pub fn previous(&self) -> Vec<(u64, PathBuf)> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<(u64, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name();
                let n = name.to_str()?.strip_prefix("previous-")?.parse().ok()?;
                Some((n, e.path()))
            })
            .collect();
        out.sort();
        out
    }

    /// The bytes of one of the folder's files, bounded; `None` when it is
    /// not there.
    ///
    /// # Errors
    /// When it is there but cannot be read.
    pub(crate) fn read(path: &Path) -> Result<Option<Vec<u8>>, ReadError> {
        match read_bounded(path, caps::HOOKS_JSON) {
            Ok(b) => Ok(Some(b)),
            Err(ReadError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Removes the folder when it keeps nothing but its `path` (a first
    /// write that failed); errors are ignored.
    pub(crate) fn remove_if_unused(&self) {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        if entries.flatten().all(|e| e.file_name() == "path") {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }

    /// Removes the folder and everything in it: the file is as agenthooks
    /// found it again.
    ///
    /// # Errors
    /// When it cannot be removed.
    pub(crate) fn remove(&self) -> io::Result<()> {
        match fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// Removes the backup folders (of at most `SWEEP_MAX`) whose file's
/// directory no longer exists: the project they were for is gone. Errors
/// are ignored (a folder stays until the next sweep).
pub fn sweep(backups: &Path) {
    let Ok(entries) = fs::read_dir(backups) else {
        return;
    };
    for entry in entries.flatten().take(SWEEP_MAX) {
        let dir = entry.path();
        let Ok(Some(line)) = Slot::read(&dir.join("path")) else {
            continue;
        };
        let file = PathBuf::from(String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']));
        if file.is_absolute() && file.parent().is_some_and(|d| !d.exists()) {
            let _ = fs::remove_dir_all(&dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_keeps_its_original_once_and_only_the_newest_previous_copies() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("p");
        fs::create_dir_all(&project).unwrap();
        let file = project.join("settings.json");
        let slot = Slot::of(&dir.path().join("state"), &file);
        assert!(slot.dir().starts_with(dir.path().join("state/backups")));
        assert!(!slot.exists());
        assert!(slot.keep_original(b"one").unwrap());
        assert!(!slot.keep_original(b"two").unwrap());
        assert_eq!(Slot::read(&slot.original()).unwrap().unwrap(), b"one");
        for i in 0..(KEEP + 2) {
            slot.keep_previous(format!("v{i}").as_bytes()).unwrap();
        }
        let kept = slot.previous();
        assert_eq!(kept.len(), KEEP);
        let newest = Slot::read(&kept[KEEP - 1].1).unwrap().unwrap();
        assert_eq!(newest, format!("v{}", KEEP + 1).as_bytes());
        let path = Slot::read(&slot.dir().join("path")).unwrap().unwrap();
        assert_eq!(
            String::from_utf8(path).unwrap().trim(),
            file.display().to_string()
        );
        // Another file of the same name elsewhere has its own folder.
        let other = Slot::of(
            &dir.path().join("state"),
            &dir.path().join("q/settings.json"),
        );
        assert_ne!(other.dir(), slot.dir());
        slot.remove().unwrap();
        assert!(!slot.exists());
    }

    #[test]
    fn a_sweep_drops_the_folders_of_projects_that_are_gone() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        let here = dir.path().join("here");
        fs::create_dir_all(&here).unwrap();
        let kept = Slot::of(&state, &here.join("a.json"));
        let gone = Slot::of(&state, &dir.path().join("gone/b.json"));
        kept.keep_original(b"a").unwrap();
        gone.keep_original(b"b").unwrap();
        sweep(&root(&state));
        assert!(kept.exists());
        assert!(!gone.exists());
    }
}
