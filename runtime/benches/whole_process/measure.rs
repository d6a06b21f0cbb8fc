//! Timing one command: spawned directly or through `sh -c` (as agents start
//! hooks), stdin opened on the event file, reaped with `wait4` for its peak
//! RSS; and the statistics the table prints.

use std::fs::File;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One command under test.
pub struct Case {
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub env: Vec<(String, PathBuf)>,
    pub stdin: PathBuf,
    /// Runs before each timed run (not timed): the cache-miss case empties the cache.
    pub before: Option<PathBuf>,
    /// What its stdout must contain (checked once before timing).
    pub expect: Option<&'static str>,
    pub runs: usize,
    /// Also timed through `sh -c` (every case but the cache misses).
    pub through_shell: bool,
    pub times: Vec<Duration>,
    pub rss_kib: Vec<u64>,
    pub shell_times: Vec<Duration>,
}

impl Case {
    /// The command as a shell would be given it: each word single-quoted.
    pub fn shell_line(&self) -> String {
        std::iter::once(self.program.display().to_string())
            .chain(self.args.iter().cloned())
            .map(|word| format!("'{}'", word.replace('\'', r"'\''")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn command(&self, shell: bool) -> Command {
        let mut command = if shell {
            let mut sh = Command::new("sh");
            sh.arg("-c").arg(self.shell_line());
            sh
        } else {
            let mut direct = Command::new(&self.program);
            direct.args(&self.args);
            direct
        };
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .stdin(File::open(&self.stdin).expect("the event file"));
        for (k, v) in &self.env {
            command.env(k, v);
        }
        command
    }
}

/// Spawn once (through `sh -c` when `shell`), stdin from the event file,
/// and reap with `wait4`: the wall time and the peak RSS (KiB) of that one
/// process (the shell's, when it is one), and its exit code.
// The child is reaped by `wait4` (for its rusage), which clippy cannot see.
#[allow(clippy::zombie_processes)]
pub fn run_once(case: &Case, shell: bool) -> (Duration, u64, i32) {
    let mut command = case.command(shell);
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let child = command.spawn().expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet reaped (`Child` never waits on drop);
    // `status` and `usage` are valid for writes.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = start.elapsed();
    assert_eq!(reaped, pid, "wait4 failed");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (elapsed, usage.ru_maxrss as u64, code)
}

/// The command's stdout and stderr, once, for the sanity check.
pub fn output_of(case: &Case) -> (String, String) {
    let out = case.command(false).output().expect("run");
    assert!(out.status.success(), "{} failed: {:?}", case.name, out);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Median, p10 and p90 in milliseconds.
pub fn stats(v: &[Duration]) -> (f64, f64, f64) {
    let mut v: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.1), at(0.9))
}

pub fn median_u64(v: &[u64]) -> u64 {
    let mut v = v.to_vec();
    v.sort_unstable();
    v[v.len() / 2]
}

/// What `cmd` prints, run by `sh -c` (empty when it fails).
pub fn shell(cmd: &str) -> String {
    Command::new("sh")
        .args(["-c", cmd])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

pub fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// The interpreter itself, not a version manager's shim script in front of
/// it (pyenv's `python3` is a bash script that would be timed too).
pub fn real_python() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    path.is_file().then_some(path)
}
