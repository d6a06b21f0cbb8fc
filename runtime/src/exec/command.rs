//! Command hooks: `sh -c` (`cmd /C` on Windows, or PowerShell when the
//! handler asks) with the input on stdin, a timeout that kills the whole
//! process tree, and bounded output.
//!
//! Why each piece is the way it is:
//!
//! - **stdin is written on its own task.** A hook that never reads its input
//!   would otherwise block us on a full pipe while we wait for it to exit; a
//!   hook that exits early gives `EPIPE`, which is not an error of ours.
//! - **Its own process group.** `sh -c 'slow & wait'` forks; killing only `sh`
//!   at the timeout would leave the grandchild running (and holding our pipes
//!   open). The hook leads a new group and the whole group gets `SIGKILL`.
//!   Windows has no process groups: there the hook is put in a Job Object
//!   (`KILL_ON_JOB_CLOSE`) that its descendants inherit, and the job is
//!   terminated instead.
//! - **One deadline for everything.** The exit *and* the end of its output must
//!   come before the timeout: a background process that keeps stdout open
//!   does not keep us waiting past it.
//! - **Nothing outlives the hook.** Once it has exited and closed its output
//!   (or at the timeout), its process group is killed: a grandchild that
//!   closed its stdio and stayed in the group (`sleep 30 >/dev/null &`) does
//!   not outlive `run`. Only `async` hooks are left running, by design.
//! - **Bounded output.** At most [`OUTPUT_LIMIT`] bytes of stdout and of stderr
//!   are kept; the rest is read (so the hook never blocks on a full pipe) and
//!   dropped, with a note.

use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

use super::{supervise, ExecContext, Report};
use crate::config::{claude_env, CommandSpec, Handler, Shell};
use crate::protocol::{parse_output, Event, Exit, Failure, Outcome, Skip};

/// How much of a command's stdout, and separately of its stderr, is kept.
pub const OUTPUT_LIMIT: usize = 1 << 20;

/// How long an `async: true` hook may take to accept its input before we stop
/// writing it. Inputs below the pipe buffer (64 KiB on Linux) never wait.
const ASYNC_STDIN_GRACE: Duration = Duration::from_millis(200);

/// Run one command handler for `event` and report what it came to.
///
/// Never fails: every way the command can go wrong is a [`Failure`] in the
/// report's outcome.
pub async fn run(
    spec: &CommandSpec,
    handler: &Handler,
    event: &Event,
    ctx: &ExecContext,
) -> Report {
    let mut report = Report::new(handler, "command");
    let input = event.to_json().to_string().into_bytes();
    let deadline = super::deadline_after(handler.timeout);
    report.outcome = match spawn(spec, handler, event, ctx) {
        Err(failure) => Outcome::Failed(failure),
        Ok(spawned) if spec.async_ => detach(spawned, input, deadline).await,
        Ok(Spawned { child, token, .. }) => {
            let ran = Ran::wait(child, input, deadline, Some(token)).await;
            ran.settle(&mut report, handler.timeout, event)
        }
    };
    let dir = working_dir(event, ctx);
    let notes = super::diagnose::after_run(&spec.command, dir.as_deref(), event.name(), &report);
    report.notes.extend(notes);
    report
}

/// A started hook: its process (or its supervisor's), and its token.
struct Spawned {
    child: Child,
    /// The [`supervise::TOKEN_VAR`] its processes carry.
    token: String,
    /// Whether `child` is a supervisor that keeps the hook's timeout itself.
    supervised: bool,
}

/// The hook's process, started in `event`'s working directory with
/// `CLAUDE_PROJECT_DIR` set; its output is piped, or (`async`) dropped.
/// An async hook is started under a supervisor where there is one
/// ([`supervise::supervised`]).
fn spawn(
    spec: &CommandSpec,
    handler: &Handler,
    event: &Event,
    ctx: &ExecContext,
) -> Result<Spawned, Failure> {
    let dir = working_dir(event, ctx);
    let project_dir = ctx
        .project_root
        .clone()
        .or_else(|| handler.project_root.clone())
        .or_else(|| dir.clone());
    let supervisor = spec
        .async_
        .then(|| supervise::supervised(spec, handler.timeout))
        .flatten();
    let supervised = supervisor.is_some();
    let mut cmd = match supervisor {
        Some(cmd) => cmd,
        None => shell(&spec.command, spec.shell)?,
    };
    let token = supervise::new_token();
    cmd.env(supervise::TOKEN_VAR, &token);
    if let Some(dir) = &dir {
        cmd.current_dir(dir);
    }
    if let Some(project_dir) = &project_dir {
        cmd.env("CLAUDE_PROJECT_DIR", project_dir);
    }
    plugin_env(&mut cmd, spec, handler, project_dir.as_deref());
    // A traced event: the hook's own span is its parent (else the agent's
    // `TRACEPARENT`, if any, is inherited unchanged).
    if let Some(span) = &ctx.trace {
        cmd.env(crate::trace::TRACEPARENT_VAR, span.traceparent());
        match &span.state {
            Some(state) => cmd.env(crate::trace::TRACESTATE_VAR, state),
            None => cmd.env_remove(crate::trace::TRACESTATE_VAR),
        };
    }
    cmd.stdin(Stdio::piped());
    if spec.async_ {
        // Never read: a pipe nobody drains would block the hook, and an
        // inherited stdout would hold the agent's pipe open after we exit.
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
    } else {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    }
    let child = cmd.spawn().map_err(|err| Failure::Spawn {
        reason: err.to_string(),
    })?;
    Ok(Spawned {
        child,
        token,
        supervised,
    })
}

/// The supervisor's work (`agenthooks __async-supervisor`, see
/// `exec/supervise.rs`): run `command` through `shell`, with this
/// process's stdin and no output, until it exits or `timeout` passes; then
/// kill its group and every process it left behind.
pub fn supervise(command: &str, shell: Shell, timeout: Duration) -> ExitCode {
    supervise::become_subreaper();
    let deadline = super::deadline_after(timeout);
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return ExitCode::from(2);
    };
    runtime.block_on(async {
        if let Ok(child) = background(command, shell) {
            Ran::wait(child, Vec::new(), deadline, None).await;
        }
        supervise::sweep(None).await;
    });
    runtime.shutdown_background();
    ExitCode::SUCCESS
}

/// For the supervisor: `command` through `shell` with this process's
/// stdin and no output, in a group of its own.
fn background(command: &str, shell_: Shell) -> Result<Child, Failure> {
    let mut cmd = shell(command, shell_)?;
    cmd.stdin(Stdio::inherit())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd.spawn().map_err(|err| Failure::Spawn {
        reason: err.to_string(),
    })
}

/// `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA` for `handler` (see
/// [`claude_env`]), replacing any the agent set: agenthooks' own plugin
/// root is not the hook's. The data directory is made when the hook lies
/// in a plugin or its command names it; a failure to make it leaves the
/// variable unset rather than pointing at nothing.
fn plugin_env(cmd: &mut Command, spec: &CommandSpec, handler: &Handler, project: Option<&Path>) {
    cmd.env_remove(claude_env::PLUGIN_ROOT_VAR)
        .env_remove(claude_env::PLUGIN_DATA_VAR);
    let in_plugin = claude_env::plugin_dir(&handler.file).is_some();
    let Some(root) = claude_env::plugin_root(&handler.file, project) else {
        return;
    };
    cmd.env(claude_env::PLUGIN_ROOT_VAR, &root);
    let named = claude_env::variables_used(&spec.command).contains(&claude_env::PLUGIN_DATA_VAR);
    if !(in_plugin || named) {
        return;
    }
    if let Some(data) = crate::dirs::data().map(|d| claude_env::plugin_data(&d, &root)) {
        if std::fs::create_dir_all(&data).is_ok() {
            cmd.env(claude_env::PLUGIN_DATA_VAR, data);
        }
    }
}

/// An `async` hook: given its input (briefly) and left running under its
/// supervisor, which ends it at `deadline`; without one, a task of this
/// runtime does (for as long as the runtime lives).
async fn detach(spawned: Spawned, input: Vec<u8>, deadline: Instant) -> Outcome {
    let Spawned {
        mut child,
        token,
        supervised,
    } = spawned;
    if supervised {
        if let Some(mut stdin) = child.stdin.take() {
            // Bounded: an async hook that does not read must not hold us up.
            let _ = tokio::time::timeout(ASYNC_STDIN_GRACE, stdin.write_all(&input)).await;
        }
        // Dropping the `Child` neither kills nor waits for it; tokio reaps
        // it in the background when it exits.
        drop(child);
    } else {
        tokio::spawn(async move {
            Ran::wait(child, input, deadline, Some(token)).await;
        });
    }
    Outcome::Skipped(Skip::Async)
}

/// What a command did by its deadline.
struct Ran {
    /// How it exited; `None` when it was still running at the deadline.
    status: Option<std::io::Result<std::process::ExitStatus>>,
    /// Whether its output had closed too by then.
    finished: bool,
    stdout: Capture,
    stderr: Capture,
}

impl Ran {
    /// Give `child` its `input`, wait for its exit and the end of both of
    /// its outputs until `deadline`, then kill what is left of its group
    /// and (with its `token`) what left the group ([`supervise::sweep`]).
    async fn wait(
        mut child: Child,
        input: Vec<u8>,
        deadline: Instant,
        token: Option<String>,
    ) -> Ran {
        if let Some(mut stdin) = child.stdin.take() {
            tokio::spawn(async move {
                // EPIPE (the hook exited or closed stdin early) is the hook's business.
                let _ = stdin.write_all(&input).await;
            });
        }
        // Taken now: once the leader is reaped, `Child::id` forgets it, but its
        // group (or job) lives on as long as anything it started does.
        let tree = Tree::of(&child);
        let mut ran = Ran {
            status: None,
            finished: false,
            stdout: Capture::default(),
            stderr: Capture::default(),
        };
        let out_pipe = child.stdout.take();
        let err_pipe = child.stderr.take();
        ran.finished = tokio::time::timeout_at(tokio::time::Instant::from_std(deadline), async {
            let wait = async {
                ran.status = Some(child.wait().await);
            };
            tokio::join!(wait, ran.stdout.fill(out_pipe), ran.stderr.fill(err_pipe));
        })
        .await
        .is_ok();
        // Whether it finished or not: what it left in its group goes with it.
        tree.kill(&mut child);
        if ran.status.is_none() {
            // Past the timeout and still running: the group is killed; reap it.
            let _ = child.wait().await;
        }
        // Reaped: what it started outside its group is ours now (or being re-parented).
        if let Some(token) = token {
            supervise::sweep(Some(&token)).await;
        }
        ran
    }

    /// The outcome, with the output and its notes put in `report`.
    fn settle(self, report: &mut Report, timeout: Duration, event: &Event) -> Outcome {
        report.stdout = self.stdout.text();
        report.stderr = self.stderr.text();
        if self.status.is_some() && !self.finished {
            report.notes.push(format!(
                "it exited, but a process it started kept its output open past the {}s \
                 timeout; that process group was killed",
                timeout.as_secs_f64()
            ));
        }
        report.notes.extend(self.stdout.note("stdout"));
        report.notes.extend(self.stderr.note("stderr"));
        match self.status {
            None => Outcome::Failed(Failure::Timeout { after: timeout }),
            Some(Err(err)) => Outcome::Failed(Failure::Internal {
                why: format!("could not wait for the command: {err}"),
            }),
            Some(Ok(status)) => {
                let exit = exit_of(status);
                report.exit = Some(exit);
                parse_output(event.name(), exit, &report.stdout, &report.stderr)
            }
        }
    }
}

/// The directory a hook runs in: the event's `cwd` when it exists, else the
/// project root, else ours.
fn working_dir(event: &Event, ctx: &ExecContext) -> Option<PathBuf> {
    event
        .cwd()
        .filter(|dir| dir.is_dir())
        .or_else(|| ctx.project_root.clone().filter(|dir| dir.is_dir()))
}

/// `COMMAND` through `shell`: `sh -c` (`cmd /C` on Windows) or PowerShell,
/// in a new process group where there are groups.
///
/// # Errors
/// [`Failure::Spawn`] when PowerShell is asked for and none is installed.
fn shell(command: &str, shell: Shell) -> Result<Command, Failure> {
    let mut cmd = match shell {
        #[cfg(windows)]
        Shell::System => {
            let mut cmd = Command::new("cmd");
            // Verbatim: Rust's quoting (`\"`) is not cmd's. `/S /C "…"` strips
            // exactly the outer quotes; `/D` skips the AutoRun commands.
            cmd.raw_arg(format!("/D /S /C \"{command}\""));
            cmd
        }
        #[cfg(not(windows))]
        Shell::System => {
            let mut cmd = Command::new("sh");
            cmd.arg("-c").arg(command);
            cmd
        }
        Shell::PowerShell => {
            let path = std::env::var_os("PATH");
            let exe = powershell(path.as_deref()).ok_or_else(|| Failure::Spawn {
                reason: NO_POWERSHELL.to_string(),
            })?;
            let mut cmd = Command::new(exe);
            cmd.args(["-NoProfile", "-NonInteractive", "-Command", command]);
            cmd
        }
    };
    // A new group led by the hook, so the timeout can kill all of it
    // (Windows: the Job Object, once it has started).
    #[cfg(unix)]
    cmd.process_group(0);
    #[cfg(not(unix))]
    let _ = &mut cmd;
    Ok(cmd)
}

/// Why a `shell: powershell` hook could not start.
const NO_POWERSHELL: &str = "it asks for PowerShell, but neither `pwsh` nor `powershell` \
     is on PATH; install PowerShell 7 (`pwsh`) or drop `shell: powershell`";

/// The PowerShell to run: `pwsh` (PowerShell 7, also on Linux and macOS)
/// in the first `PATH` directory that has it, else Windows PowerShell.
fn powershell(path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    let dirs: Vec<PathBuf> = path.map(|p| std::env::split_paths(p).collect())?;
    let suffix = std::env::consts::EXE_SUFFIX;
    ["pwsh", "powershell"].iter().find_map(|name| {
        dirs.iter()
            .map(|dir| dir.join(format!("{name}{suffix}")))
            .find(|exe| exe.is_file())
    })
}

/// The hook and everything it starts, to be killed together: its process
/// group on Unix, a Job Object on Windows.
struct Tree {
    /// The group's id: the hook's pid (`process_group(0)`).
    #[cfg(unix)]
    pgid: Option<u32>,
    /// `None` when the job could not be made; then only the hook is killed.
    #[cfg(windows)]
    job: Option<job::Job>,
}

impl Tree {
    /// The tree `child` leads.
    fn of(child: &Child) -> Tree {
        #[cfg(unix)]
        {
            Tree { pgid: child.id() }
        }
        #[cfg(windows)]
        {
            Tree {
                job: child.raw_handle().and_then(job::Job::holding),
            }
        }
    }

    /// Kill the hook and everything left in its tree.
    ///
    /// Also after the leader was reaped: the group's id cannot be handed to a
    /// new process while a member of the group lives, and with none left the
    /// kill finds nothing (`ESRCH`); a job outlives its processes.
    fn kill(&self, child: &mut Child) {
        #[cfg(unix)]
        if let Some(pid) = self.pgid {
            if let Ok(pgid) = i32::try_from(pid) {
                // SAFETY: kill(2) has no memory effects; a negative pid names
                // the group this hook leads (`process_group(0)` made pgid == pid).
                unsafe {
                    libc::kill(-pgid, libc::SIGKILL);
                }
            }
        }
        #[cfg(windows)]
        if let Some(job) = &self.job {
            job.terminate();
        }
        // The leader itself, also where the tree could not be made; an error
        // means it already exited.
        let _ = child.start_kill();
    }
}

/// A Job Object holding one hook and, by inheritance, all it starts.
#[cfg(windows)]
mod job {
    use std::ffi::c_void;
    use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle, RawHandle};

    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
        SetInformationJobObject, TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
        JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    };

    /// The job; closing its last handle kills what is left in it
    /// (`KILL_ON_JOB_CLOSE`), so a job dropped on any path ends the tree.
    pub(super) struct Job(OwnedHandle);

    impl Job {
        /// A new job holding `process`, or `None` when the system refuses.
        ///
        /// The hook is assigned after it started: a child it spawned in that
        /// instant (before `cmd` has even parsed its line) would escape the
        /// job. `CREATE_SUSPENDED` would close the gap but needs the main
        /// thread's handle, which `std` does not expose.
        pub(super) fn holding(process: RawHandle) -> Option<Job> {
            // SAFETY: no security attributes, no name; a null return is failure.
            let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
            if raw.is_null() {
                return None;
            }
            // SAFETY: `raw` is a job handle we own and close exactly once.
            let job = Job(unsafe { OwnedHandle::from_raw_handle(raw) });
            // SAFETY: all-zero is a valid JOBOBJECT_EXTENDED_LIMIT_INFORMATION.
            let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
            info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
            let size = u32::try_from(std::mem::size_of_val(&info)).ok()?;
            // SAFETY: `info` is the structure the class names, `size` its size.
            let set = unsafe {
                SetInformationJobObject(
                    job.handle(),
                    JobObjectExtendedLimitInformation,
                    std::ptr::from_ref(&info).cast::<c_void>(),
                    size,
                )
            };
            // SAFETY: both handles are valid: the job above, the child's
            // process handle held by its `Child`.
            let assigned =
                set != 0 && unsafe { AssignProcessToJobObject(job.handle(), process) } != 0;
            assigned.then_some(job)
        }

        /// Kill every process in the job.
        pub(super) fn terminate(&self) {
            // SAFETY: a valid job handle; failure (nothing left) is harmless.
            unsafe {
                TerminateJobObject(self.handle(), 1);
            }
        }

        fn handle(&self) -> RawHandle {
            self.0.as_raw_handle()
        }
    }
}

fn exit_of(status: std::process::ExitStatus) -> Exit {
    if let Some(code) = status.code() {
        return Exit::Code(code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Exit::Signal(signal);
        }
    }
    // Neither a code nor a signal: not possible on the platforms we build for.
    Exit::Code(-1)
}

/// One output stream, kept up to [`OUTPUT_LIMIT`] bytes and counted past it.
#[derive(Default)]
struct Capture {
    kept: Vec<u8>,
    dropped: u64,
}

impl Capture {
    /// Read `pipe` to its end, keeping what fits.
    async fn fill<R: AsyncRead + Unpin>(&mut self, pipe: Option<R>) {
        let Some(mut pipe) = pipe else { return };
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match pipe.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    let room = OUTPUT_LIMIT.saturating_sub(self.kept.len()).min(n);
                    self.kept.extend_from_slice(&buf[..room]);
                    self.dropped += (n - room) as u64;
                }
            }
        }
    }

    /// The kept bytes as text; invalid UTF-8 becomes U+FFFD.
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.kept).into_owned()
    }

    fn note(&self, stream: &str) -> Option<String> {
        (self.dropped > 0).then(|| {
            format!(
                "its {stream} was over {} MiB; the last {} bytes were dropped",
                OUTPUT_LIMIT >> 20,
                self.dropped
            )
        })
    }
}

/// One command handler run the way the pipeline runs it, for the tests of
/// every platform.
#[cfg(test)]
mod fixture {
    use super::*;
    use crate::config::{OnError, Scope};
    use crate::protocol::EventName;
    use crate::select::Matcher;
    use serde_json::json;

    pub(super) fn handler(cmd: &str, timeout: Duration) -> (Handler, CommandSpec) {
        let spec = CommandSpec {
            command: cmd.to_string(),
            async_: false,
            shell: Shell::System,
        };
        let handler = Handler {
            event: EventName::PreToolUse,
            matcher: Matcher::All,
            if_: None,
            kind: crate::config::HandlerKind::Command(spec.clone()),
            timeout,
            on_error: OnError::Allow,
            scope: Scope::User,
            file: PathBuf::from("hooks.json"),
            project_root: None,
            label: format!("command `{cmd}`"),
            status_message: None,
            once: false,
        };
        (handler, spec)
    }

    pub(super) fn event() -> Event {
        let dir = std::env::temp_dir();
        Event::new(
            json!({"hook_event_name": "PreToolUse", "cwd": dir, "tool_name": "Bash",
                   "tool_input": {"command": "ls"}}),
            None,
            "claude",
        )
        .unwrap()
    }

    pub(super) async fn run_cmd(cmd: &str, timeout: Duration) -> Report {
        let (handler, _) = handler(cmd, timeout);
        crate::exec::execute(&handler, &event(), &ExecContext::default()).await
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::fixture::run_cmd;
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_hook_reads_the_event_and_its_exit_is_parsed() {
        let report = run_cmd(
            "grep -q '\"tool_kind\":\"shell\"' && echo found >&2 && exit 2",
            Duration::from_secs(10),
        )
        .await;
        assert_eq!(report.exit, Some(Exit::Code(2)));
        assert_eq!(report.stderr, "found\n");
        assert!(matches!(report.outcome, Outcome::Answered(ref a) if a.blocks()));
    }

    #[tokio::test]
    async fn an_absurd_timeout_does_not_panic() {
        let report = run_cmd("exit 0", Duration::from_secs(u64::MAX)).await;
        assert_eq!(report.exit, Some(Exit::Code(0)));
    }

    #[tokio::test]
    async fn a_signal_is_a_failure() {
        let report = run_cmd("kill -TERM $$", Duration::from_secs(10)).await;
        assert_eq!(report.exit, Some(Exit::Signal(libc::SIGTERM)));
        assert_eq!(
            report.outcome,
            Outcome::Failed(Failure::Signal {
                signal: libc::SIGTERM
            })
        );
    }

    #[tokio::test]
    async fn a_timeout_is_a_failure_and_keeps_what_was_said() {
        let report = run_cmd("echo partial; sleep 10", Duration::from_millis(300)).await;
        assert_eq!(
            report.outcome,
            Outcome::Failed(Failure::Timeout {
                after: Duration::from_millis(300)
            })
        );
        assert_eq!(report.stdout, "partial\n");
        // Measured around the run (`exec::run_kind`), for every kind.
        assert!(
            report.duration >= Duration::from_millis(300)
                && report.duration < Duration::from_secs(2),
            "{:?}",
            report.duration
        );
    }

    #[tokio::test]
    async fn output_past_the_limit_is_counted_and_dropped() {
        let report = run_cmd(
            "head -c 1048600 /dev/zero | tr '\\0' 'a'",
            Duration::from_secs(20),
        )
        .await;
        assert_eq!(report.stdout.len(), OUTPUT_LIMIT);
        assert_eq!(
            report.notes[0],
            "its stdout was over 1 MiB; the last 24 bytes were dropped"
        );
        // Text at PreToolUse is not an answer, and the note says so in one short line.
        assert_eq!(report.notes.len(), 2, "{:?}", report.notes);
        assert!(report.notes[1].starts_with("printed text that is not a JSON answer"));
        assert!(report.notes[1].len() < 400, "{}", report.notes[1]);
    }

    #[tokio::test]
    async fn a_grandchild_left_in_the_group_is_killed_when_the_hook_returns() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let cmd = format!(
            "sleep 30 >/dev/null 2>&1 </dev/null & echo $! > '{}'; exit 0",
            pid_file.display()
        );
        let report = run_cmd(&cmd, Duration::from_secs(10)).await;
        assert_eq!(report.exit, Some(Exit::Code(0)));
        let pid: i32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SIGKILL is sent before `run` returns; the orphan is reaped by init.
        let gone = (0..250).any(|_| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|s| s.split_whitespace().next());
            if matches!(state, None | Some("Z")) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
            false
        });
        assert!(gone, "the grandchild {pid} outlived the hook");
    }
}

/// What every platform shares: choosing PowerShell, and running the hook
/// through the shell it asked for.
#[cfg(test)]
mod shell_tests {
    use super::*;

    fn touch(dir: &std::path::Path, name: &str) -> PathBuf {
        let exe = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        std::fs::write(&exe, "").unwrap();
        exe
    }

    #[test]
    fn pwsh_is_preferred_to_windows_powershell_across_the_path() {
        let first = tempfile::tempdir().unwrap();
        let second = tempfile::tempdir().unwrap();
        let path = std::env::join_paths([first.path(), second.path()]).unwrap();
        assert_eq!(powershell(Some(&path)), None);
        let legacy = touch(first.path(), "powershell");
        assert_eq!(powershell(Some(&path)), Some(legacy));
        // Later on PATH, but PowerShell 7 wins over Windows PowerShell.
        let pwsh = touch(second.path(), "pwsh");
        assert_eq!(powershell(Some(&path)), Some(pwsh));
        // A directory named like it is not a program.
        let only_dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(only_dir.path().join("pwsh")).unwrap();
        assert_eq!(powershell(Some(only_dir.path().as_os_str())), None);
        assert_eq!(powershell(None), None);
    }

    #[test]
    fn without_powershell_the_hook_fails_with_what_to_install() {
        if powershell(std::env::var_os("PATH").as_deref()).is_some() {
            return; // This machine has PowerShell: nothing to check here.
        }
        let reason = match shell("exit 2", Shell::PowerShell).unwrap_err() {
            Failure::Spawn { reason } => reason,
            other => panic!("{other:?}"),
        };
        assert!(
            reason.contains("neither `pwsh` nor `powershell`"),
            "{reason}"
        );
        assert!(shell("exit 2", Shell::System).is_ok());
    }
}

/// Windows: `cmd /C` and the Job Object (run under Wine in CI, `.ci/windows.sh`).
#[cfg(all(test, windows))]
mod windows_tests {
    use super::fixture::run_cmd;
    use super::*;

    /// A command that, started in the background by the hook, writes `up`
    /// at once and `marker` about five seconds later unless it is killed first.
    fn late_writer(dir: &std::path::Path) -> String {
        format!(
            "start /b cmd /d /c \"echo up> {} & ping -n 6 127.0.0.1 >NUL & echo alive> {}\" >NUL 2>NUL <NUL",
            dir.join("up.txt").display(),
            dir.join("marker.txt").display()
        )
    }

    /// After `run`: the background process had started, and (eight seconds
    /// on) it has not written its marker.
    fn assert_killed(dir: &std::path::Path) {
        assert!(
            dir.join("up.txt").exists(),
            "the background process never started"
        );
        std::thread::sleep(Duration::from_secs(8));
        assert!(
            !dir.join("marker.txt").exists(),
            "a process the hook started outlived it"
        );
    }

    #[tokio::test]
    async fn cmd_runs_the_hook_and_exit_2_blocks_with_its_reason() {
        // Quotes and `&` reach cmd verbatim (Rust's own quoting is not cmd's);
        // `set /p` reads the event's line from stdin.
        let report = run_cmd(
            r#"set /p EVENT= & call echo "quoted" %EVENT% 1>&2 & exit 2"#,
            Duration::from_secs(20),
        )
        .await;
        assert_eq!(report.exit, Some(Exit::Code(2)), "{report:?}");
        assert!(
            report.stderr.starts_with("\"quoted\" {"),
            "{}",
            report.stderr
        );
        assert!(
            report.stderr.contains(r#""tool_kind":"shell""#),
            "{}",
            report.stderr
        );
        assert!(matches!(report.outcome, Outcome::Answered(ref a) if a.blocks()));
    }

    #[tokio::test]
    async fn a_timeout_kills_the_whole_tree_through_the_job() {
        let dir = tempfile::tempdir().unwrap();
        let cmd = format!("{} & ping -n 30 127.0.0.1 >NUL", late_writer(dir.path()));
        let report = run_cmd(&cmd, Duration::from_secs(3)).await;
        assert!(
            matches!(report.outcome, Outcome::Failed(Failure::Timeout { .. })),
            "{report:?}"
        );
        assert_killed(dir.path());
    }

    #[tokio::test]
    async fn what_a_finished_hook_left_running_is_killed_too() {
        let dir = tempfile::tempdir().unwrap();
        // It exits two seconds on, leaving the writer behind.
        let cmd = format!(
            "{} & ping -n 3 127.0.0.1 >NUL & exit 0",
            late_writer(dir.path())
        );
        let report = run_cmd(&cmd, Duration::from_secs(20)).await;
        assert_eq!(report.exit, Some(Exit::Code(0)), "{report:?}");
        assert_killed(dir.path());
    }

    #[tokio::test]
    async fn without_the_kill_the_late_writer_does_write() {
        // The control for the two tests above: left alone, it writes.
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("marker.txt");
        let mut cmd = shell(&late_writer(dir.path()), Shell::System).unwrap();
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let status = cmd.status().await.unwrap();
        assert!(status.success());
        let written = (0..200).any(|_| {
            std::thread::sleep(Duration::from_millis(100));
            marker.exists()
        });
        assert!(
            written,
            "the late writer never wrote: the tests above prove nothing"
        );
    }
}
