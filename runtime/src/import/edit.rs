//! One of an agent's JSON files edited in place, as `import --move` and
//! its undo both do it: under the file's lock, written atomically when it
//! changed, every other byte kept; and what changed. Below both.

use std::path::{Path, PathBuf};

use crate::agents::Agent;
use crate::atomic::{self, Lock};
use crate::fsread::{caps, read_bounded, ReadError};
use crate::install::{InstallError, JsonDoc};

/// One file `--move` changes (or would).
#[derive(Debug, Clone)]
pub struct Changed {
    /// The file.
    pub path: PathBuf,
    /// Its bytes before (`None`: it did not exist).
    pub before: Option<Vec<u8>>,
    /// Its bytes after (`None`: removed).
    pub after: Option<Vec<u8>>,
}

impl Changed {
    /// The word a line about it says (`updated`; on a dry run `would update`).
    pub fn word(&self, dry_run: bool) -> &'static str {
        match (
            &self.before,
            &self.after,
            self.before == self.after,
            dry_run,
        ) {
            (_, _, true, _) => "unchanged",
            (None, _, _, false) => "created",
            (None, _, _, true) => "would create",
            (_, None, _, false) => "removed",
            (_, None, _, true) => "would remove",
            (_, _, _, false) => "updated",
            (_, _, _, true) => "would update",
        }
    }
}

/// Edits `agent`'s JSON file at `path` (one that holds no entry of ours:
/// not its install target) with `edit`: under the file's lock unless
/// `dry_run`, written atomically when it changed, every other byte kept. A
/// file that does not exist is left so (`edit` is not called) unless
/// `create`.
///
/// # Errors
/// When the file cannot be locked, read, parsed, edited or written.
pub(super) fn edit_native<T>(
    agent: &dyn Agent,
    path: &Path,
    dry_run: bool,
    create: bool,
    edit: impl FnOnce(&mut JsonDoc) -> Result<T, InstallError>,
) -> Result<(Changed, Option<T>), InstallError> {
    let target = atomic::resolve(path).map_err(|e| InstallError::io(path, e))?;
    if let Some(dir) = target
        .parent()
        .filter(|d| create && !dry_run && !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| InstallError::io(dir, e))?;
    }
    let _lock = if dry_run {
        None
    } else {
        Some(
            Lock::acquire(&target, atomic::LOCK_WAIT)
                .map_err(|e| InstallError::io(&atomic::lock_path(&target), e))?,
        )
    };
    let before = match read_bounded(path, caps::HOOKS_JSON) {
        Ok(b) => Some(b),
        Err(ReadError::NotFound { .. }) if !create => {
            let changed = Changed {
                path: path.to_path_buf(),
                before: None,
                after: None,
            };
            return Ok((changed, None));
        }
        Err(ReadError::NotFound { .. }) => None,
        Err(e) => return Err(e.into()),
    };
    let mut doc = JsonDoc::parse(path, before.as_deref(), super::jsonc(agent))?;
    let out = edit(&mut doc)?;
    let after = doc.render()?;
    if !dry_run && before.as_ref() != Some(&after) {
        atomic::write(&target, &after, false).map_err(|e| InstallError::write(path, e))?;
    }
    let changed = Changed {
        path: path.to_path_buf(),
        before,
        after: Some(after),
    };
    Ok((changed, Some(out)))
}
