//! Compiled components on disk, so a process compiles a component once and
//! every later process loads it in well under a millisecond.
//!
//! An entry is `<sha256 of the component>-<engine compatibility hash>.cwasm`
//! in a private directory (created 0700, refused when another user could
//! write to it). Its content is the artifact wasmtime serialized, then the
//! sha256 of the artifact and a magic (a trailer, so the file itself can be
//! mapped by `Component::deserialize_file` on an index hit, `index.rs`: no
//! read, no copy). Why the extra digest: deserializing runs
//! native code that wasmtime only "lightly validates", so only bytes this
//! program wrote, unchanged, are ever deserialized; a corrupt, truncated or
//! stale entry is deleted and rebuilt. Entries are written to a temporary file
//! in the same directory and renamed, so readers never see half an entry.

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::component::Component;
use wasmtime::Engine;

use super::Notes;

/// The last bytes of every entry: names the format, so another layout is a
/// miss (version 1 had the magic and digest in front).
const MAGIC: &[u8; 8] = b"AHCWASM2";
const DIGEST_LEN: usize = 32;

/// Where compiled components are kept, or nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheDir {
    dir: Option<PathBuf>,
}

impl CacheDir {
    /// `$XDG_CACHE_HOME/agenthooks`, else `~/.cache/agenthooks`; no cache
    /// when neither variable gives an absolute path.
    pub fn from_env() -> CacheDir {
        let absolute = |var: &str| {
            std::env::var_os(var)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
        };
        let base =
            absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|h| h.join(".cache")));
        CacheDir {
            dir: base.map(|b| b.join("agenthooks")),
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
}

/// Load `wasm` from the cache, or compile it (and store it).
///
/// # Errors
/// When `wasm` does not compile: the caller reports it as "not a component".
pub(crate) fn load(
    engine: &Engine,
    cache: &CacheDir,
    wasm: &[u8],
    notes: &mut Notes,
) -> wasmtime::Result<Loaded> {
    let Some(dir) = cache.path() else {
        return compile_only(engine, wasm, CacheStatus::CompiledUncached);
    };
    if let Err(why) = ensure_private_dir(dir) {
        notes.note(format!(
            "compile cache `{}` {why}; compiled in memory",
            dir.display()
        ));
        return compile_only(engine, wasm, CacheStatus::CompiledUncached);
    }
    let path = dir.join(entry_name(engine, wasm));
    if let Some(loaded) = read_entry(engine, &path, notes) {
        return Ok(loaded);
    }
    let component = Component::new(engine, wasm)?;
    let artifact = component.serialize()?;
    let status = match write_entry(&path, &artifact) {
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
    })
}

fn compile_only(engine: &Engine, wasm: &[u8], status: CacheStatus) -> wasmtime::Result<Loaded> {
    let component = Component::new(engine, wasm)?;
    // The size is for `agenthooks compile`'s report; serializing is cheap next to compiling.
    let artifact_len = component.serialize().map(|a| a.len()).unwrap_or(0);
    Ok(Loaded {
        component,
        status,
        artifact_len,
        entry: None,
    })
}

/// The entry's file name: the component's sha256 and the engine's compatibility
/// hash, so another wasmtime version, target or `Config` never reads it.
fn entry_name(engine: &Engine, wasm: &[u8]) -> String {
    format!(
        "{}-{}.cwasm",
        hex(&Sha256::digest(wasm)),
        compat_hex(engine)
    )
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

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

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
fn read_entry(engine: &Engine, path: &Path, notes: &mut Notes) -> Option<Loaded> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            notes.detail(format!(
                "compile cache entry `{}` unreadable ({e}); recompiling",
                path.display()
            ));
            return None;
        }
    };
    let artifact = match verified_artifact(&bytes) {
        Some(artifact) => artifact,
        None => {
            notes.detail(format!(
                "compile cache entry `{}` is corrupt; rebuilt",
                path.display()
            ));
            let _ = fs::remove_file(path);
            return None;
        }
    };
    // SAFETY: `artifact` is exactly what `Component::serialize` of this
    // program wrote into a directory only this user can write (checked by
    // `ensure_private_dir`), verified against the sha256 stored with it; it
    // is deserialized from memory, so changing the file later cannot affect it.
    match unsafe { Component::deserialize(engine, artifact) } {
        Ok(component) => Some(Loaded {
            component,
            status: CacheStatus::Hit,
            artifact_len: artifact.len(),
            entry: Some(path.to_path_buf()),
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
/// checked again (hashing it was most of a cached run's time). `None` when
/// it cannot be read or loaded; the caller then takes the full path, which
/// verifies (and deletes a damaged entry).
pub(crate) fn load_recorded(engine: &Engine, path: &Path) -> Option<Loaded> {
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
    let artifact_len = fs::metadata(path)
        .map(|m| m.len() as usize)
        .unwrap_or(0)
        .saturating_sub(DIGEST_LEN + MAGIC.len());
    Some(Loaded {
        component,
        status: CacheStatus::Hit,
        artifact_len,
        entry: Some(path.to_path_buf()),
    })
}

/// The artifact inside an entry, if the magic and the digest match.
fn verified_artifact(entry: &[u8]) -> Option<&[u8]> {
    let rest = entry.strip_suffix(MAGIC.as_slice())?;
    let artifact_len = rest.len().checked_sub(DIGEST_LEN)?;
    let (artifact, digest) = rest.split_at(artifact_len);
    (Sha256::digest(artifact).as_slice() == digest).then_some(artifact)
}

/// Write an entry atomically: a new temporary file in the same directory, then rename.
fn write_entry(path: &Path, artifact: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(".tmp-{}-{nanos}.cwasm", std::process::id()));
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let result = (|| {
        let mut file = options.open(&tmp)?;
        file.write_all(artifact)?;
        file.write_all(&Sha256::digest(artifact))?;
        file.write_all(MAGIC)?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_verify_their_digest() {
        let mut entry = b"artifact".to_vec();
        entry.extend_from_slice(&Sha256::digest(b"artifact"));
        entry.extend_from_slice(MAGIC);
        assert_eq!(verified_artifact(&entry), Some(&b"artifact"[..]));
        let mut flipped = entry.clone();
        flipped[0] ^= 1;
        assert_eq!(verified_artifact(&flipped), None);
        assert_eq!(verified_artifact(&entry[..20]), None);
        assert_eq!(verified_artifact(&entry[entry.len() - 30..]), None);
        assert_eq!(verified_artifact(b"\x7fELF...."), None);
    }

    #[test]
    fn a_mapped_entry_loads_with_its_trailer() {
        // The smallest component: the preamble of an empty `(component)`.
        const EMPTY: &[u8] = b"\0asm\x0d\0\x01\0";
        let engine = super::super::engine::new_engine(&Default::default()).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let cache = CacheDir::at(tmp.path());
        let mut notes = Notes::new(true);
        let loaded = load(&engine, &cache, EMPTY, &mut notes).unwrap();
        assert_eq!(loaded.status, CacheStatus::Compiled);
        let entry = loaded.entry.expect("stored");
        let again = load_recorded(&engine, &entry).expect("maps with the trailer");
        assert_eq!(again.artifact_len, loaded.artifact_len);
        // The full path reads and verifies the same file.
        let mut notes = Notes::new(true);
        let hit = load(&engine, &cache, EMPTY, &mut notes).unwrap();
        assert_eq!(hit.status, CacheStatus::Hit, "{:?}", notes.list);
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
