//! Compiling a component outside the event's critical path: `run` starts a
//! detached `agenthooks __compile-worker` for a component the cache does not
//! hold, waits on it only until the handler's deadline, and leaves it to fill
//! the cache. The worker compiles in a child of its own with hard caps on CPU
//! time and memory, so a compile bomb ends, and it remembers a failed compile
//! by component digest (`cache.rs`), so the next event fails at once.
//!
//! Two tiers (`engine.rs`): where the baseline compiler comes first, the
//! worker runs a capped child compiling with Winch, which stores the
//! baseline entry in seconds (the waiting `run` loads it and answers),
//! then a second one compiling with Cranelift, at a lower priority, whose
//! entry replaces it. Only Cranelift's failure is remembered: a component
//! Winch cannot compile (a proposal it lacks, such as tail calls) just waits
//! for Cranelift.
//!
//! One worker per cache key: the lock file `<cache>/locks/<key>.lock` is
//! taken by `run` before it spawns the worker and handed to it (as fd 3), so
//! the lock lives exactly as long as the compile. A `run` that finds the lock
//! taken waits for the entry the other worker is writing instead.

#[cfg(unix)]
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, SystemTime};

use super::cache::{self, ComponentDigest, Remembered};
pub(crate) use super::locks::lock_free;
#[cfg(unix)]
use super::locks::{open_lock, try_lock};
use super::{CacheDir, Notes, Tier};

/// CPU time (all threads) a compile may take before it is stopped and
/// remembered as failed. Large Python and JavaScript components (12–18 MB)
/// take about 30 s in a release build; ten times that is a compile bomb.
pub const CPU_CAP: Duration = Duration::from_secs(300);

/// Memory a compile may use (its data segment and heap, `RLIMIT_DATA`;
/// address space where that is not counted).
pub const MEMORY_CAP_MIB: u64 = 3 << 10;

/// The hidden subcommand that runs a worker.
pub const SUBCOMMAND: &str = "__compile-worker";

/// The descriptor the lock is handed to the worker on.
#[cfg(unix)]
const LOCK_FD: i32 = 3;

/// Worker exit codes, read by [`super::WasmHost`] in `run`.
pub(crate) mod code {
    /// Compiled and stored in the cache.
    pub const STORED: i32 = 0;
    /// The compile failed; a failure record was written.
    pub const FAILED: i32 = 1;
    /// Nothing stored or remembered (the file changed, the cache is not
    /// writable): whoever waits compiles in memory.
    pub const NOT_STORED: i32 = 3;
}

/// How a compile worker stands for one cache key.
#[cfg_attr(not(unix), allow(dead_code))] // Off Unix it is always `Unavailable`.
pub(crate) enum Started {
    /// We started it; it holds the lock.
    Spawned(Child),
    /// Another process holds the lock (since about `since`).
    Busy(SystemTime),
    /// No worker can be used (no lock, no executable): compile in process.
    Unavailable,
}

/// Start a worker compiling `component` (whose bytes hash to `digest`) into
/// the cache at `dir`, unless one holds the key's lock already.
#[cfg(unix)]
pub(crate) fn start(
    exe: &Path,
    lock: &Path,
    component: &Path,
    digest: &ComponentDigest,
    baseline: bool,
) -> Started {
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    let Some(file) = lock
        .parent()
        .and_then(|dir| cache::ensure_private_dir(dir).ok())
        .and_then(|()| open_lock(lock))
    else {
        return Started::Unavailable;
    };
    if !try_lock(&file) {
        let since = file
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or_else(|_| SystemTime::now());
        return Started::Busy(since);
    }
    // The lock file's mtime says when this compile started (for "N s so far").
    let _ = file.set_len(0);
    let _ = file.set_modified(SystemTime::now());
    let fd = file.as_raw_fd();
    let mut cmd = Command::new(exe);
    cmd.arg(SUBCOMMAND)
        .arg("--digest")
        .arg(cache::hex(digest))
        .arg("--lock-fd")
        .arg(LOCK_FD.to_string());
    if baseline {
        cmd.arg("--baseline");
    }
    cmd.arg(component)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: only async-signal-safe calls between fork and exec: setsid,
    // fcntl and dup2 (which clears close-on-exec on the new descriptor).
    unsafe {
        cmd.pre_exec(move || {
            // Its own session: the agent killing `run`'s process group on
            // its deadline must not stop the compile that fills the cache.
            libc::setsid();
            // Not niced here: the baseline compile is what an event waits
            // for; the Cranelift child is niced (`supervise`).
            // dup2 onto itself keeps close-on-exec: clear it by hand then.
            let moved = if fd == LOCK_FD {
                libc::fcntl(fd, libc::F_SETFD, 0)
            } else {
                libc::dup2(fd, LOCK_FD)
            };
            if moved < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    match cmd.spawn() {
        // Our descriptor closes when `file` drops; the worker's copy keeps the lock.
        Ok(child) => Started::Spawned(child),
        Err(_) => Started::Unavailable,
    }
}

/// No background worker off Unix: compile in process.
#[cfg(not(unix))]
pub(crate) fn start(_: &Path, _: &Path, _: &Path, _: &ComponentDigest, _: bool) -> Started {
    Started::Unavailable
}

/// The worker: compile `component` into `cache` in a capped child (first
/// a baseline one when `baseline`), and remember the failure when the
/// Cranelift child fails or hits a cap. Holds the lock on `lock_fd` (handed
/// over by `run`) until it ends, or takes it itself. Exits with one of
/// `code`'s values.
pub fn supervise(
    cache: &CacheDir,
    component: &Path,
    digest: &str,
    lock_fd: Option<i32>,
    baseline: bool,
) -> ExitCode {
    let exit = |c: i32| ExitCode::from(c as u8);
    let Some(digest) = parse_digest(digest) else {
        return exit(code::NOT_STORED);
    };
    let Some(dir) = cache.path() else {
        return exit(code::NOT_STORED);
    };
    let engine = match super::engine::new_engine(&Default::default(), Tier::Optimized) {
        Ok(engine) => engine,
        Err(_) => return exit(code::NOT_STORED),
    };
    #[cfg(unix)]
    let _lock = match lock_fd {
        Some(fd) => {
            use std::os::fd::FromRawFd;
            // SAFETY: `run` handed us this descriptor (dup2 in `start`) and
            // nothing else in this process uses it.
            let file = unsafe { File::from_raw_fd(fd) };
            set_cloexec(&file);
            file
        }
        None => {
            let path = cache::lock_path(dir, &engine, &digest);
            let _ = path.parent().map(cache::ensure_private_dir);
            match open_lock(&path) {
                Some(file) if try_lock(&file) => {
                    set_cloexec(&file);
                    file
                }
                _ => return exit(code::NOT_STORED),
            }
        }
    };
    #[cfg(not(unix))]
    let _ = lock_fd;
    let Ok(exe) = crate::dirs::front_exe() else {
        return exit(code::NOT_STORED);
    };
    if baseline && super::engine::baseline_supported() {
        // Whatever becomes of it, Cranelift comes next: a component Winch
        // cannot compile (or a Winch that fails) costs only this child.
        let _ = capped_child(&exe, Tier::Baseline, &digest, component).output();
    }
    let output = match capped_child(&exe, Tier::Optimized, &digest, component).output() {
        Ok(output) => output,
        Err(_) => return exit(code::NOT_STORED),
    };
    let remembered = match output.status.code() {
        Some(code::STORED) => {
            // The baseline entry is of no use now; keep the cache in its budget.
            super::gc::after_store(dir);
            return exit(code::STORED);
        }
        Some(code::FAILED) => Remembered::from_line(&String::from_utf8_lossy(&output.stdout))
            .unwrap_or_else(|| Remembered::Limit("the compiler failed without saying why".into())),
        Some(_) => return exit(code::NOT_STORED),
        None => killed(&output.status),
    };
    cache::remember_failure(dir, &engine, &digest, &remembered);
    exit(code::FAILED)
}

/// The command of a compile child for `tier`, with the caps; Cranelift's
/// at a lower priority (it is background work; Winch's is what an event
/// waits for).
fn capped_child(exe: &Path, tier: Tier, digest: &ComponentDigest, component: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.arg(SUBCOMMAND)
        .arg("--child")
        .arg("--digest")
        .arg(cache::hex(digest));
    if tier == Tier::Baseline {
        cmd.arg("--baseline");
    }
    cmd.arg(component)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let background = tier == Tier::Optimized;
        // SAFETY: only setrlimit and nice between fork and exec (async-signal-safe).
        unsafe {
            cmd.pre_exec(move || {
                set_caps();
                if background {
                    // Never starve the agent's own work.
                    libc::nice(10);
                }
                Ok(())
            });
        }
    }
    cmd
}

/// Why the compile child died of a signal.
fn killed(status: &std::process::ExitStatus) -> Remembered {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if matches!(status.signal(), Some(libc::SIGXCPU | libc::SIGKILL)) {
            return Remembered::Limit(format!(
                "compiling took more than the {} s CPU-time cap; make the component smaller",
                CPU_CAP.as_secs()
            ));
        }
    }
    Remembered::Limit(format!(
        "the compiler died ({status}), most likely over the {MEMORY_CAP_MIB} MiB memory cap; make the component smaller"
    ))
}

/// The capped child: compile with `tier`'s compiler and store, or say why
/// not on stdout. A baseline child does nothing when either tier is stored.
pub fn compile_child(cache: &CacheDir, component: &Path, digest: &str, tier: Tier) -> ExitCode {
    let exit = |c: i32| ExitCode::from(c as u8);
    let Some(digest) = parse_digest(digest) else {
        return exit(code::NOT_STORED);
    };
    let Ok((mut file, meta)) =
        crate::fsread::open_bounded(component, crate::fsread::caps::COMPONENT)
    else {
        return exit(code::NOT_STORED);
    };
    let Ok(bytes) = super::read_open_component(component, &mut file, &meta) else {
        return exit(code::NOT_STORED);
    };
    if cache::digest_of(&bytes) != digest {
        return exit(code::NOT_STORED); // changed since `run` hashed it
    }
    let Ok(engine) = super::engine::new_engine(&Default::default(), tier) else {
        return exit(code::NOT_STORED);
    };
    if tier == Tier::Baseline && stored_already(cache, &engine, &digest) {
        return exit(code::STORED);
    }
    let mut notes = Notes::new(false);
    match cache::load(&engine, cache, &bytes, &digest, &mut notes) {
        Ok(loaded) if loaded.status == cache::CacheStatus::CompiledUncached => {
            exit(code::NOT_STORED)
        }
        Ok(loaded) => {
            // The next event finds the entry without reading the component.
            if let (Some(dir), Some(entry)) = (cache.path(), &loaded.entry) {
                super::index::record(&engine, dir, component, &meta, entry);
            }
            exit(code::STORED)
        }
        Err(e) => {
            let why = match super::classify::compile_failure("", &e) {
                crate::protocol::Failure::NotAComponent { why, .. } => why,
                other => other.to_string(),
            };
            println!("{}", Remembered::Invalid(why).to_line());
            exit(code::FAILED)
        }
    }
}

/// Whether the cache holds the baseline entry of `digest` (of `engine`) or
/// its Cranelift one: a baseline compile is then no use.
fn stored_already(cache: &CacheDir, engine: &wasmtime::Engine, digest: &ComponentDigest) -> bool {
    let Some(dir) = cache.path() else {
        return false;
    };
    cache::entry_path(dir, engine, digest).exists()
        || super::engine::new_engine(&Default::default(), Tier::Optimized)
            .is_ok_and(|best| cache::entry_path(dir, &best, digest).exists())
}

/// Apply the compile caps to this process (between fork and exec).
#[cfg(unix)]
fn set_caps() {
    let cpu = CPU_CAP.as_secs() as libc::rlim_t;
    let mem = (MEMORY_CAP_MIB << 20) as libc::rlim_t;
    // The soft limit sends SIGXCPU; the hard one, a little later, SIGKILL.
    let cpu_limit = libc::rlimit {
        rlim_cur: cpu,
        rlim_max: cpu + 5,
    };
    let mem_limit = libc::rlimit {
        rlim_cur: mem,
        rlim_max: mem,
    };
    // SAFETY: setrlimit with valid pointers; lowering limits needs no privilege.
    unsafe {
        libc::setrlimit(libc::RLIMIT_CPU, &cpu_limit);
        #[cfg(target_os = "linux")]
        libc::setrlimit(libc::RLIMIT_DATA, &mem_limit);
        #[cfg(not(target_os = "linux"))]
        libc::setrlimit(libc::RLIMIT_AS, &mem_limit);
    }
}

#[cfg(unix)]
fn set_cloexec(file: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: fcntl on a descriptor we own.
    unsafe {
        libc::fcntl(file.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC);
    }
}

fn parse_digest(hex: &str) -> Option<ComponentDigest> {
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// Start a detached worker for each of `components` not in the cache yet;
/// the lock each started one holds until it is done (for `trust` and
/// `install` to say how many, and to wait for them on a terminal, `lock_free`).
pub fn warm_in_background(components: &[PathBuf]) -> Vec<PathBuf> {
    let host = super::WasmHost::global();
    components
        .iter()
        .filter_map(|path| host.start_worker(path))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_parse_from_their_hex() {
        let d = cache::digest_of(b"x");
        assert_eq!(parse_digest(&cache::hex(&d)), Some(d));
        assert_eq!(parse_digest("zz"), None);
        assert_eq!(parse_digest(&"g".repeat(64)), None);
    }
}
