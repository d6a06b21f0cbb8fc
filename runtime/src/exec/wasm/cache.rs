//! Compiled components on disk, so a process compiles a component once and
//! every later process loads it in well under a millisecond.
//!
//! An entry is `<sha256 of the component>-<engine compatibility hash>.cwasm`
//! in a private directory (created 0700, refused when another user could
//! write to it). Its content is the artifact wasmtime serialized, then a
//! trailer: the sha256 of the component it was compiled from, the sha256 of
//! artifact and component digest together, and a magic (a trailer, so the
//! file itself can be mapped by `Component::deserialize_file` on an index
//! hit, `index.rs`: no read, no copy). Why the digests: deserializing runs
//! native code that wasmtime only "lightly validates", so only bytes this
//! program wrote, unchanged, are ever deserialized; and an entry runs only
//! for the component it was compiled from, so a valid entry of another
//! component copied under this one's key is refused and rebuilt, as is a
//! corrupt, truncated or stale one. Entries are written to a temporary file
//! in the same directory and renamed, so readers never see half an entry.
//!
//! Beside the entries: `failed/`, one small record per component digest whose
//! compile failed (so the next event fails at once with the same note until
//! the file changes), and `locks/`, one lock file per key held by the
//! background compile worker (`worker.rs`) while it compiles.

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::component::Component;
use wasmtime::Engine;

use super::Notes;
use crate::atomic;
use crate::protocol::Failure;

/// The last bytes of every entry: names the format, so another layout is a
/// miss (version 1 had the magic and digest in front; version 2 did not
/// name the component).
const MAGIC: &[u8; 8] = b"AHCWASM3";
const DIGEST_LEN: usize = 32;
/// Component digest, entry digest, magic.
const TRAILER_LEN: usize = 2 * DIGEST_LEN + MAGIC.len();

/// The sha256 of a component's bytes: the key of its cache entry, what the
/// entry is bound to, and what trust is decided on.
pub type ComponentDigest = [u8; DIGEST_LEN];

/// The sha256 of `wasm`.
pub(crate) fn digest_of(wasm: &[u8]) -> ComponentDigest {
    Sha256::digest(wasm).into()
}

/// Where compiled components are kept, or nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheDir {
    dir: Option<PathBuf>,
}

impl CacheDir {
    /// The user's cache directory (`crate::dirs::cache`:
    /// `$XDG_CACHE_HOME/agenthooks`, else `~/.cache/agenthooks`;
    /// `%LOCALAPPDATA%\agenthooks\cache` on Windows); no cache without a
    /// home directory.
    pub fn from_env() -> CacheDir {
        CacheDir {
            dir: crate::dirs::cache(),
        }
    }

    /// A cache in `dir` (created on first use).
    pub fn at(dir: impl Into<PathBuf>) -> CacheDir {
        CacheDir {
            dir: Some(dir.into()),
        }
    }

    /// No cache: every process compiles in memory.
    pub fn none() -> CacheDir {
        CacheDir { dir: None }
    }

    /// The directory, if there is a cache.
    pub fn path(&self) -> Option<&Path> {
        self.dir.as_deref()
    }
}

/// Where a loaded component came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheStatus {
    /// Loaded from the cache.
    Hit,
    /// Compiled now and stored in the cache.
    Compiled,
    /// Compiled now; the cache could not be used (see the notes).
    CompiledUncached,
}

/// A component and what loading it took.
pub(crate) struct Loaded {
    pub component: Component,
    pub status: CacheStatus,
    /// Size of the compiled artifact in bytes.
    pub artifact_len: usize,
    /// The cache entry it was loaded from or stored in (for the index, `index.rs`).
    pub entry: Option<PathBuf>,
    /// The sha256 of the component bytes it was compiled from.
    pub digest: ComponentDigest,
}

/// Load `wasm` (whose sha256 is `digest`) from the cache, or compile it and
/// store it. A store that fails (a full disk, `RLIMIT_FSIZE`, a read-only
/// cache) leaves the component compiled in memory, with a note.
///
/// # Errors
/// When `wasm` does not compile: the caller reports it as "not a component".
pub(crate) fn load(
    engine: &Engine,
    cache: &CacheDir,
    wasm: &[u8],
    digest: &ComponentDigest,
    notes: &mut Notes,
) -> wasmtime::Result<Loaded> {
    let Some(dir) = usable(cache, notes) else {
        return compile_only(engine, wasm, digest, CacheStatus::CompiledUncached);
    };
    let path = entry_path(dir, engine, digest);
    if let Some(loaded) = read_entry(engine, &path, digest, notes) {
        return Ok(loaded);
    }
    let component = Component::new(engine, wasm)?;
    let artifact = component.serialize()?;
    let status = match write_entry(&path, &artifact, digest) {
        Ok(()) => CacheStatus::Compiled,
        Err(e) => {
            notes.note(format!(
                "compile cache `{}` is not writable ({e}); compiled in memory",
                dir.display()
            ));
            CacheStatus::CompiledUncached
        }
    };
    let entry = (status == CacheStatus::Compiled).then_some(path);
    Ok(Loaded {
        component,
        status,
        artifact_len: artifact.len(),
        entry,
        digest: *digest,
    })
}

/// The cache directory if it can be used (created, private), else a note.
pub(crate) fn usable<'a>(cache: &'a CacheDir, notes: &mut Notes) -> Option<&'a Path> {
    let dir = cache.path()?;
    match ensure_private_dir(dir) {
        Ok(()) => Some(dir),
        Err(why) => {
            notes.note(format!(
                "compile cache `{}` {why}; compiled in memory",
                dir.display()
            ));
            None
        }
    }
}

/// The entry of the component with `digest`, if the cache holds it intact.
pub(crate) fn cached(
    engine: &Engine,
    dir: &Path,
    digest: &ComponentDigest,
    notes: &mut Notes,
) -> Option<Loaded> {
    read_entry(engine, &entry_path(dir, engine, digest), digest, notes)
}

fn compile_only(
    engine: &Engine,
    wasm: &[u8],
    digest: &ComponentDigest,
    status: CacheStatus,
) -> wasmtime::Result<Loaded> {
    let component = Component::new(engine, wasm)?;
    // The size is for `agenthooks compile`'s report; serializing is cheap next to compiling.
    let artifact_len = component.serialize().map(|a| a.len()).unwrap_or(0);
    Ok(Loaded {
        component,
        status,
        artifact_len,
        entry: None,
        digest: *digest,
    })
}

/// Where the entry of the component with `digest` lives.
pub(crate) fn entry_path(dir: &Path, engine: &Engine, digest: &ComponentDigest) -> PathBuf {
    dir.join(format!("{}.cwasm", key(engine, digest)))
}

/// The cache key: the component's sha256 and the engine's compatibility
/// hash, so another wasmtime version, target or `Config` never reads it.
pub(crate) fn key(engine: &Engine, digest: &ComponentDigest) -> String {
    format!("{}-{}", hex(digest), compat_hex(engine))
}

/// Where the lock of the compile of `digest` lives (`worker.rs`).
pub(crate) fn lock_path(dir: &Path, engine: &Engine, digest: &ComponentDigest) -> PathBuf {
    dir.join("locks")
        .join(format!("{}.lock", key(engine, digest)))
}

/// A compile that failed, remembered by component digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Remembered {
    /// wasmtime refused the bytes ([`Failure::NotAComponent`]).
    Invalid(String),
    /// The compiler hit a cap or died ([`Failure::CompileFailed`]).
    Limit(String),
}

impl Remembered {
    /// The failure a run of the component at `path` reports.
    pub(crate) fn failure(&self, path: &str) -> Failure {
        match self {
            Remembered::Invalid(why) => Failure::NotAComponent {
                path: path.to_string(),
                why: why.clone(),
            },
            Remembered::Limit(why) => Failure::CompileFailed {
                path: path.to_string(),
                why: why.clone(),
            },
        }
    }

    /// One line for a record (or the worker's report to its supervisor).
    pub(crate) fn to_line(&self) -> String {
        let (kind, why) = match self {
            Remembered::Invalid(why) => ("invalid", why),
            Remembered::Limit(why) => ("limit", why),
        };
        format!("{kind} {}", why.replace(['\n', '\r'], " "))
    }

    /// The record written by [`Remembered::to_line`], if it is one.
    pub(crate) fn from_line(line: &str) -> Option<Remembered> {
        let (kind, why) = line.trim_end().split_once(' ')?;
        let why: String = why.chars().take(MAX_WHY).collect();
        match kind {
            "invalid" => Some(Remembered::Invalid(why)),
            "limit" => Some(Remembered::Limit(why)),
            _ => None,
        }
    }
}

/// The longest reason a failure record keeps.
const MAX_WHY: usize = 400;

fn failure_path(dir: &Path, engine: &Engine, digest: &ComponentDigest) -> PathBuf {
    dir.join("failed")
        .join(format!("{}.txt", key(engine, digest)))
}

/// Remember that compiling the component with `digest` failed. Best effort:
/// a record that cannot be written costs the next event a compile.
pub(crate) fn remember_failure(
    dir: &Path,
    engine: &Engine,
    digest: &ComponentDigest,
    failure: &Remembered,
) {
    let path = failure_path(dir, engine, digest);
    let Some(parent) = path.parent() else { return };
    if ensure_private_dir(parent).is_err() {
        return;
    }
    let line = failure.to_line();
    let _ = atomic::write_with(&path, atomic::Options::CACHE, |file| {
        file.write_all(line.as_bytes())
    });
}

/// The failure remembered for the component with `digest`, if any.
pub(crate) fn remembered_failure(
    dir: &Path,
    engine: &Engine,
    digest: &ComponentDigest,
) -> Option<Remembered> {
    let text = crate::fsread::read_bounded_string(&failure_path(dir, engine, digest), 4096).ok()?;
    Remembered::from_line(&text)
}

/// The engine's compatibility hash: 16 hex digits, the same for every
/// engine of this wasmtime build with the same `Config`.
pub(crate) fn compat_hex(engine: &Engine) -> String {
    let mut compat = Sha256Hasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut compat);
    hex(&compat.0.finalize()[..8])
}

/// A [`Hasher`] over sha256, so the key does not depend on `DefaultHasher`'s
/// algorithm, which may change between Rust releases.
struct Sha256Hasher(Sha256);

impl Hasher for Sha256Hasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn finish(&self) -> u64 {
        let digest = self.0.clone().finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first)
    }
}

pub(crate) use crate::encoding::hex;

/// Create `dir` (0700) if needed and check that no other user can write to it.
pub(crate) fn ensure_private_dir(dir: &Path) -> Result<(), String> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
        .create(dir)
        .map_err(|e| format!("cannot be created ({e})"))?;
    let meta = fs::metadata(dir).map_err(|e| format!("cannot be read ({e})"))?;
    if !meta.is_dir() {
        return Err("is not a directory".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me || meta.mode() & 0o022 != 0 {
            return Err("is not private (owned by another user, or writable by others)".into());
        }
    }
    Ok(())
}

/// The entry at `path`, if it is there, intact and loadable; a damaged or
/// stale entry is deleted (the caller then rebuilds it).
fn read_entry(
    engine: &Engine,
    path: &Path,
    digest: &ComponentDigest,
    notes: &mut Notes,
) -> Option<Loaded> {
    // Bounded and non-blocking like every other read on the event's path:
    // the cache is private, but a damaged one must cost a rebuild, never a
    // hang on a FIFO or gigabytes of memory.
    let bytes = match crate::fsread::read_bounded(path, crate::fsread::caps::CACHE_ENTRY) {
        Ok(bytes) => bytes,
        Err(crate::fsread::ReadError::NotFound { .. }) => return None,
        Err(e) => {
            notes.detail(format!("compile cache entry unreadable: {e}; recompiling"));
            return None;
        }
    };
    let artifact = match verified_artifact(&bytes, digest) {
        Some(artifact) => artifact,
        None => {
            notes.detail(format!(
                "compile cache entry `{}` is corrupt; rebuilt (damaged, or compiled from another component)",
                path.display()
            ));
            let _ = fs::remove_file(path);
            return None;
        }
    };
    // SAFETY: `artifact` is exactly what `Component::serialize` of this
    // program wrote into a directory only this user can write (checked by
    // `ensure_private_dir`), verified against the sha256 stored with it,
    // which also covers the digest of the component it was compiled from
    // (checked equal to this one's); it is deserialized from memory, so
    // changing the file later cannot affect it.
    match unsafe { Component::deserialize(engine, artifact) } {
        Ok(component) => Some(Loaded {
            component,
            status: CacheStatus::Hit,
            artifact_len: artifact.len(),
            entry: Some(path.to_path_buf()),
            digest: *digest,
        }),
        Err(e) => {
            notes.detail(format!(
                "compile cache entry `{}` is stale ({}); rebuilt",
                path.display(),
                e.root_cause()
            ));
            let _ = fs::remove_file(path);
            None
        }
    }
}

/// Load the entry at `path`, which the index (`index.rs`) found unchanged
/// since its digest was verified or it was written: its digest is not
/// checked again (hashing it was most of a cached run's time), but the
/// component digest in its trailer must be the one its name is the key of.
/// `None` when it cannot be read or loaded; the caller then takes the full
/// path, which verifies (and deletes a damaged entry).
pub(crate) fn load_recorded(engine: &Engine, path: &Path) -> Option<Loaded> {
    let (digest, len) = trailer_digest(path)?;
    if path.file_name()?.to_str()? != format!("{}.cwasm", key(engine, &digest)) {
        return None;
    }
    // SAFETY: as in `read_entry`: the index matched this file's device,
    // inode, size, mtime and ctime to the moment its digest was verified (or
    // it was written by this program), and every write to a file sets its
    // ctime, so these are the verified bytes. It is mapped, not copied: entries
    // are never changed in place (written whole under a temporary name and
    // renamed; a damaged one is unlinked, which leaves a mapping intact), and
    // no other user can write to the directory. wasmtime reads the artifact
    // through its own section table, so the trailer after it is not looked at
    // (`a_mapped_entry_loads_with_its_trailer` checks this).
    let component = unsafe { Component::deserialize_file(engine, path) }.ok()?;
    Some(Loaded {
        component,
        status: CacheStatus::Hit,
        artifact_len: len.saturating_sub(TRAILER_LEN as u64) as usize,
        entry: Some(path.to_path_buf()),
        digest,
    })
}

/// The component digest in the trailer of the entry at `path`, and the
/// entry's length: two small reads, not the whole artifact.
fn trailer_digest(path: &Path) -> Option<(ComponentDigest, u64)> {
    use std::io::{Read, Seek, SeekFrom};
    let (mut file, meta) = crate::fsread::open_bounded(path, u64::MAX).ok()?;
    let len = meta.len();
    file.seek(SeekFrom::Start(len.checked_sub(TRAILER_LEN as u64)?))
        .ok()?;
    let mut trailer = [0u8; TRAILER_LEN];
    file.read_exact(&mut trailer).ok()?;
    if &trailer[2 * DIGEST_LEN..] != MAGIC {
        return None;
    }
    let mut digest = [0u8; DIGEST_LEN];
    digest.copy_from_slice(&trailer[..DIGEST_LEN]);
    Some((digest, len))
}

/// The artifact inside an entry, if the magic and the digest match and it
/// was compiled from the component with `component`.
fn verified_artifact<'a>(entry: &'a [u8], component: &ComponentDigest) -> Option<&'a [u8]> {
    let rest = entry.strip_suffix(MAGIC.as_slice())?;
    let artifact_len = rest.len().checked_sub(2 * DIGEST_LEN)?;
    let (artifact, digests) = rest.split_at(artifact_len);
    let (from, digest) = digests.split_at(DIGEST_LEN);
    (from == component && entry_digest(artifact, component).as_slice() == digest)
        .then_some(artifact)
}

/// The digest of an entry: its artifact and the component it was compiled from.
fn entry_digest(artifact: &[u8], component: &ComponentDigest) -> [u8; DIGEST_LEN] {
    let mut sha = Sha256::new();
    sha.update(artifact);
    sha.update(component);
    sha.finalize().into()
}

/// Write an entry atomically (readers see a whole entry or none); not
/// flushed, as its digest tells a torn one from a whole one.
pub(crate) fn write_entry(
    path: &Path,
    artifact: &[u8],
    component: &ComponentDigest,
) -> std::io::Result<()> {
    atomic::write_with(path, atomic::Options::CACHE, |file| {
        file.write_all(artifact)?;
        file.write_all(component)?;
        file.write_all(&entry_digest(artifact, component))?;
        file.write_all(MAGIC)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_verify_their_digest_and_their_component() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("e.cwasm");
        let component = digest_of(b"component");
        write_entry(&path, b"artifact", &component).unwrap();
        let entry = fs::read(&path).unwrap();
        assert_eq!(
            verified_artifact(&entry, &component),
            Some(&b"artifact"[..])
        );
        assert_eq!(verified_artifact(&entry, &digest_of(b"another")), None);
        let mut flipped = entry.clone();
        flipped[0] ^= 1;
        assert_eq!(verified_artifact(&flipped, &component), None);
        let mut claimed = entry.clone();
        claimed[8] ^= 1; // the component digest, right after the artifact
        assert_eq!(verified_artifact(&claimed, &component), None);
        assert_eq!(verified_artifact(&entry[..20], &component), None);
        assert_eq!(
            verified_artifact(&entry[entry.len() - 30..], &component),
            None
        );
        assert_eq!(verified_artifact(b"\x7fELF....", &component), None);
    }

    #[cfg(unix)]
    #[test]
    fn an_entry_that_is_a_fifo_is_a_miss_not_a_hang() {
        let engine =
            super::super::engine::new_engine(&Default::default(), super::super::Tier::Optimized)
                .unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let digest = digest_of(b"component");
        let path = entry_path(tmp.path(), &engine, &digest);
        crate::fsread::make_fifo(&path);
        let (tx, rx) = std::sync::mpsc::channel();
        let dir = tmp.path().to_path_buf();
        std::thread::spawn(move || {
            let mut notes = Notes::new(true);
            let hit = cached(&engine, &dir, &digest, &mut notes).is_some();
            let _ = tx.send((hit, notes.details));
        });
        // A plain read would wait for a writer forever: fail instead of hanging.
        let (hit, notes) = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("reading a FIFO entry hung");
        assert!(!hit);
        assert!(notes.iter().any(|n| n.contains("is a FIFO")), "{notes:?}");
    }

    #[test]
    fn a_failure_record_round_trips_on_one_line() {
        for r in [
            Remembered::Invalid("bad\nfunction".into()),
            Remembered::Limit("over the cap".into()),
        ] {
            let line = r.to_line();
            assert!(!line.contains('\n'));
            let back = Remembered::from_line(&line).unwrap();
            assert_eq!(back.failure("a.wasm").to_string().lines().count(), 1);
        }
        assert_eq!(Remembered::from_line("what ever"), None);
    }

    #[test]
    fn a_mapped_entry_loads_with_its_trailer() {
        // The smallest component: the preamble of an empty `(component)`.
        const EMPTY: &[u8] = b"\0asm\x0d\0\x01\0";
        let engine =
            super::super::engine::new_engine(&Default::default(), super::super::Tier::Optimized)
                .unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let cache = CacheDir::at(tmp.path());
        let mut notes = Notes::new(true);
        let digest = digest_of(EMPTY);
        let loaded = load(&engine, &cache, EMPTY, &digest, &mut notes).unwrap();
        assert_eq!(loaded.status, CacheStatus::Compiled);
        let entry = loaded.entry.expect("stored");
        let again = load_recorded(&engine, &entry).expect("maps with the trailer");
        assert_eq!(again.artifact_len, loaded.artifact_len);
        // The full path reads and verifies the same file.
        let mut notes = Notes::new(true);
        let hit = load(&engine, &cache, EMPTY, &digest, &mut notes).unwrap();
        assert_eq!(hit.status, CacheStatus::Hit, "{:?}", notes.list);
        assert_eq!(again.digest, digest);
        // Under another component's key, the same entry is refused.
        let other = digest_of(b"other");
        let forged = entry_path(tmp.path(), &engine, &other);
        fs::copy(&entry, &forged).unwrap();
        assert!(load_recorded(&engine, &forged).is_none());
        let mut notes = Notes::new(true);
        assert!(cached(&engine, tmp.path(), &other, &mut notes).is_none());
        assert!(!forged.exists(), "a forged entry is deleted");
    }

    #[test]
    fn a_winch_entry_is_never_taken_for_a_cranelift_one() {
        use super::super::engine::{baseline_supported, new_engine};
        use super::super::Tier;
        if !baseline_supported() {
            return;
        }
        const EMPTY: &[u8] = b"\0asm\x0d\0\x01\0";
        let optimized = new_engine(&Default::default(), Tier::Optimized).unwrap();
        let baseline = new_engine(&Default::default(), Tier::Baseline).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let cache = CacheDir::at(tmp.path());
        let digest = digest_of(EMPTY);
        let mut notes = Notes::new(true);
        let winch = load(&baseline, &cache, EMPTY, &digest, &mut notes).unwrap();
        let winch_entry = winch.entry.expect("stored");
        let cranelift_entry = entry_path(tmp.path(), &optimized, &digest);
        assert_ne!(winch_entry, cranelift_entry, "one key for both tiers");
        // Mapped through an index record: the name is not the engine's key.
        assert!(load_recorded(&optimized, &winch_entry).is_none());
        // Copied under Cranelift's key (its digests intact): wasmtime refuses it.
        fs::copy(&winch_entry, &cranelift_entry).unwrap();
        assert!(load_recorded(&optimized, &cranelift_entry).is_none());
        assert!(cached(&optimized, tmp.path(), &digest, &mut notes).is_none());
        assert!(
            notes.details.iter().any(|n| n.contains("is stale")),
            "{:?}",
            notes.details
        );
        assert!(!cranelift_entry.exists(), "the impostor is deleted");
        // Each engine still loads its own.
        assert!(cached(&baseline, tmp.path(), &digest, &mut notes).is_some());
    }

    #[test]
    fn from_env_prefers_xdg_cache_home() {
        // Read-only use of the process environment: compare with what it says.
        let got = CacheDir::from_env();
        let xdg = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute());
        if let Some(xdg) = xdg {
            assert_eq!(got.path(), Some(xdg.join("agenthooks").as_path()));
        } else if let Some(home) = std::env::var_os("HOME") {
            assert_eq!(
                got.path(),
                Some(PathBuf::from(home).join(".cache/agenthooks").as_path())
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_cache_dir_others_can_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("c");
        ensure_private_dir(&dir).unwrap();
        let mode = fs::metadata(&dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
        assert!(ensure_private_dir(&dir)
            .unwrap_err()
            .contains("not private"));
        let file = tmp.path().join("f");
        fs::write(&file, "").unwrap();
        assert!(ensure_private_dir(&file.join("sub")).is_err());
    }
}
