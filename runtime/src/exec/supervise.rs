//! What keeps a command hook's timeout when the hook tries to outlive it:
//! the supervisor of `async` hooks, and the sweep of processes that left
//! their hook's process group (`setsid`).
//!
//! Why each piece is the way it is:
//!
//! - **An async hook runs under a supervisor that outlives `run`.** `run`
//!   answers the agent and exits at once; the supervisor (this executable's
//!   hidden `__async-supervisor`, in a process group of its own) starts the
//!   hook, waits for it until its timeout, then kills its group and sweeps
//!   what escaped. It exits with the hook: nothing else outlives `run`.
//!   Only the `agenthooks` binary turns this on ([`enable`]); a library
//!   host keeps its async hooks' deadline in a task of its own runtime.
//! - **Orphans come back to us (Linux).** The process that runs hooks
//!   (`run`, `fire`, the supervisor) is a child subreaper
//!   (`PR_SET_CHILD_SUBREAPER`): a process that left its hook's group with
//!   `setsid` and whose parent died is re-parented to it instead of `init`,
//!   so it can be found among our descendants (`/proc/<pid>/task/*/children`).
//! - **Each hook's processes carry its token.** Several hooks run at once;
//!   the sweep after one hook ends kills only the descendants whose
//!   environment holds that hook's [`TOKEN_VAR`] (inherited through
//!   `setsid`), never another hook's. The supervisor, which runs one hook,
//!   sweeps all its descendants.
//! - **Elsewhere.** macOS has no subreaper: a hook that calls `setsid` there
//!   escapes the group kill (documented). Windows puts every hook in a Job
//!   Object, which its descendants cannot leave, so there is nothing to sweep.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use tokio::process::Command;

use crate::config::{CommandSpec, Shell};

/// The hidden subcommand that supervises one async hook.
pub const SUBCOMMAND: &str = "__async-supervisor";

/// The variable naming the hook a process belongs to (`<pid>.<n>`).
pub const TOKEN_VAR: &str = "AGENTHOOKS_HOOK_TOKEN";

/// This executable, when async hooks are to be supervised by it.
static SUPERVISOR: OnceLock<PathBuf> = OnceLock::new();

/// Whether this process is a child subreaper (orphans are re-parented to it).
static REAPING: AtomicBool = AtomicBool::new(false);

/// For the `agenthooks` binary's commands that run hooks (`run`, `fire`):
/// async hooks are supervised by this executable, and this process adopts
/// what hooks leave behind so it can end it.
pub fn enable() {
    if let Ok(exe) = crate::dirs::front_exe() {
        let _ = SUPERVISOR.set(exe);
    }
    become_subreaper();
}

/// Make this process a child subreaper (Linux); `false` where it cannot be.
pub fn become_subreaper() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER takes an integer and
        // touches no memory of ours.
        let ok = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0;
        if ok {
            REAPING.store(true, Ordering::Release);
        }
        ok
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// A token no other hook of this process has.
pub(super) fn new_token() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}.{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The command that runs `spec` under a supervisor with `timeout`, when
/// [`enable`] was called; `None` otherwise.
pub(super) fn supervised(spec: &CommandSpec, timeout: Duration) -> Option<Command> {
    let exe = SUPERVISOR.get()?;
    let millis = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
    let mut cmd = Command::new(exe);
    cmd.arg(SUBCOMMAND)
        .arg("--timeout-ms")
        .arg(millis.to_string())
        .arg("--shell")
        .arg(match spec.shell {
            Shell::System => "system",
            Shell::PowerShell => "powershell",
        })
        .arg("--")
        .arg(&spec.command);
    // Its own group: whatever the agent does to `run`'s group, the
    // supervisor stays to end the hook at its deadline.
    #[cfg(unix)]
    cmd.process_group(0);
    Some(cmd)
}

/// How many times the sweep looks again for processes that were still
/// being re-parented (or forked) while it killed.
#[cfg(target_os = "linux")]
const SWEEP_ROUNDS: usize = 5;

/// Kill our descendants that belong to the hook with `token` (all of them
/// with `None`), and reap those that are ours. Only where this process is a
/// subreaper: otherwise what left the group went to `init`, out of reach.
pub(super) async fn sweep(token: Option<&str>) {
    if !REAPING.load(Ordering::Acquire) {
        return;
    }
    #[cfg(target_os = "linux")]
    for round in 0..SWEEP_ROUNDS {
        let victims: Vec<i32> = linux::descendants(std::process::id())
            .into_iter()
            .filter(|&pid| token.is_none_or(|t| linux::has_token(pid, t)))
            .collect();
        if victims.is_empty() {
            break;
        }
        for &pid in &victims {
            // SAFETY: kill(2) and waitpid(2) with WNOHANG touch no memory of
            // ours beyond the status integer; a pid that is gone or not our
            // child gives an error, which is harmless.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        tokio::time::sleep(Duration::from_millis(10 << round.min(4))).await;
        for &pid in &victims {
            let mut status = 0;
            // SAFETY: as above.
            unsafe {
                libc::waitpid(pid, &mut status, libc::WNOHANG);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = token;
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io::Read as _;

    /// The most processes the sweep looks at.
    const MAX_PROCESSES: usize = 4096;
    /// The most bytes of a process's environment read.
    const ENVIRON_BYTES: u64 = 1 << 20;

    /// Every descendant of `root` (not `root` itself), parents before children.
    pub(super) fn descendants(root: u32) -> Vec<i32> {
        let mut found: Vec<i32> = Vec::new();
        let mut next = 0;
        let mut parent = i32::try_from(root).unwrap_or(0);
        loop {
            for child in children(parent) {
                if found.len() >= MAX_PROCESSES {
                    return found;
                }
                if !found.contains(&child) {
                    found.push(child);
                }
            }
            let Some(&pid) = found.get(next) else {
                return found;
            };
            parent = pid;
            next += 1;
        }
    }

    /// The children of `pid`, from each of its threads' `children` file.
    fn children(pid: i32) -> Vec<i32> {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for task in tasks.flatten() {
            let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
        out
    }

    /// Whether `pid`'s environment has `TOKEN_VAR=token`.
    pub(super) fn has_token(pid: i32, token: &str) -> bool {
        let Ok(file) = std::fs::File::open(format!("/proc/{pid}/environ")) else {
            return false;
        };
        let mut bytes = vec![0];
        if file.take(ENVIRON_BYTES).read_to_end(&mut bytes).is_err() {
            return false;
        }
        bytes.push(0);
        let want = format!("\0{}={token}\0", super::TOKEN_VAR);
        bytes.windows(want.len()).any(|w| w == want.as_bytes())
    }
}
