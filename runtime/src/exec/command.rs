//! Command hooks: `sh -c` (`cmd /C` on Windows) with the input on stdin, a
//! timeout that kills the whole process group, and bounded output.
//!
//! Why each piece is the way it is:
//!
//! - **stdin is written on its own task.** A hook that never reads its input
//!   would otherwise block us on a full pipe while we wait for it to exit; a
//!   hook that exits early gives `EPIPE`, which is not an error of ours.
//! - **Its own process group.** `sh -c 'slow & wait'` forks; killing only `sh`
//!   at the timeout would leave the grandchild running (and holding our pipes
//!   open). The hook leads a new group and the whole group gets `SIGKILL`.
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

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

use super::{ExecContext, Report};
use crate::config::{CommandSpec, Handler};
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
    let started = Instant::now();
    let mut report = Report::new(handler, "command");
    let input = event.to_json().to_string().into_bytes();
    let dir = working_dir(event, ctx);
    let project_dir = ctx
        .project_root
        .clone()
        .or_else(|| handler.project_root.clone())
        .or_else(|| dir.clone());
    let mut cmd = shell(&spec.command);
    if let Some(dir) = &dir {
        cmd.current_dir(dir);
    }
    if let Some(project_dir) = &project_dir {
        cmd.env("CLAUDE_PROJECT_DIR", project_dir);
    }
    cmd.stdin(Stdio::piped());
    if spec.async_ {
        // Never read: a pipe nobody drains would block the hook, and an
        // inherited stdout would hold the agent's pipe open after we exit.
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
    } else {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    }
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(err) => {
            report.outcome = Outcome::Failed(Failure::Spawn {
                reason: err.to_string(),
            });
            report.duration = started.elapsed();
            return report;
        }
    };
    if spec.async_ {
        if let Some(mut stdin) = child.stdin.take() {
            // Bounded: an async hook that does not read must not hold us up.
            let _ = tokio::time::timeout(ASYNC_STDIN_GRACE, stdin.write_all(&input)).await;
        }
        // Dropping the `Child` neither kills nor waits for it; tokio reaps it
        // in the background when it exits.
        drop(child);
        report.outcome = Outcome::Skipped(Skip::Async);
        report.duration = started.elapsed();
        return report;
    }

    if let Some(mut stdin) = child.stdin.take() {
        tokio::spawn(async move {
            // EPIPE (the hook exited or closed stdin early) is the hook's business.
            let _ = stdin.write_all(&input).await;
        });
    }
    // Taken now: once the leader is reaped, `Child::id` forgets it, but its
    // group lives on as long as anything it started does.
    let pgid = child.id();
    // A timeout too large to add to a clock reading is as good as none.
    let deadline = started
        .checked_add(handler.timeout)
        .unwrap_or_else(|| started + Duration::from_secs(365 * 24 * 3600));
    let deadline = tokio::time::Instant::from_std(deadline);
    let mut stdout = Capture::default();
    let mut stderr = Capture::default();
    let mut status = None;
    let out_pipe = child.stdout.take();
    let err_pipe = child.stderr.take();
    let finished = tokio::time::timeout_at(deadline, async {
        let wait = async {
            status = Some(child.wait().await);
        };
        tokio::join!(wait, stdout.fill(out_pipe), stderr.fill(err_pipe));
    })
    .await
    .is_ok();
    // Whether it finished or not: what it left in its group goes with it.
    kill_group(&mut child, pgid);
    let status = match status {
        Some(status) => status,
        None => {
            // Past the timeout and still running: the group is killed; reap it.
            let _ = child.wait().await;
            report.outcome = Outcome::Failed(Failure::Timeout {
                after: handler.timeout,
            });
            report.duration = started.elapsed();
            report.stdout = stdout.text();
            report.stderr = stderr.text();
            report.notes.extend(stdout.note("stdout"));
            report.notes.extend(stderr.note("stderr"));
            return report;
        }
    };
    if !finished {
        report.notes.push(format!(
            "it exited, but a process it started kept its output open past the {}s timeout; \
             that process group was killed",
            handler.timeout.as_secs_f64()
        ));
    }
    report.duration = started.elapsed();
    let exit = match status {
        Ok(status) => exit_of(status),
        Err(err) => {
            report.outcome = Outcome::Failed(Failure::Internal {
                why: format!("could not wait for the command: {err}"),
            });
            return report;
        }
    };
    report.exit = Some(exit);
    report.stdout = stdout.text();
    report.stderr = stderr.text();
    report.notes.extend(stdout.note("stdout"));
    report.notes.extend(stderr.note("stderr"));
    report.outcome = parse_output(event.name(), exit, &report.stdout, &report.stderr);
    report
}

/// The directory a hook runs in: the event's `cwd` when it exists, else the
/// project root, else ours.
fn working_dir(event: &Event, ctx: &ExecContext) -> Option<PathBuf> {
    event
        .cwd()
        .filter(|dir| dir.is_dir())
        .or_else(|| ctx.project_root.clone().filter(|dir| dir.is_dir()))
}

/// `sh -c COMMAND` in a new process group (`cmd /C COMMAND` on Windows).
fn shell(command: &str) -> Command {
    #[cfg(unix)]
    {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(command);
        // A new group led by the hook, so the timeout can kill all of it.
        cmd.process_group(0);
        cmd
    }
    #[cfg(windows)]
    {
        let mut cmd = Command::new("cmd");
        cmd.arg("/C").arg(command);
        cmd
    }
}

/// Kill the hook and everything in its process group (`pgid`, its pid).
///
/// Also after the leader was reaped: the group's id cannot be handed to a new
/// process while a member of the group lives, and with none left the kill
/// finds nothing (`ESRCH`).
fn kill_group(child: &mut Child, pgid: Option<u32>) {
    #[cfg(unix)]
    if let Some(pid) = pgid {
        if let Ok(pgid) = i32::try_from(pid) {
            // SAFETY: kill(2) has no memory effects; a negative pid names the
            // group this hook leads (`process_group(0)` made pgid == pid).
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = pgid;
    // The leader itself, also where process groups do not exist; an error
    // means it already exited.
    let _ = child.start_kill();
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::config::{OnError, Scope};
    use crate::protocol::EventName;
    use crate::select::Matcher;
    use serde_json::json;

    fn handler(cmd: &str, timeout: Duration) -> (Handler, CommandSpec) {
        let spec = CommandSpec {
            command: cmd.to_string(),
            async_: false,
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

    fn event() -> Event {
        let dir = std::env::temp_dir();
        Event::new(
            json!({"hook_event_name": "PreToolUse", "cwd": dir, "tool_name": "Bash",
                   "tool_input": {"command": "ls"}}),
            None,
            "claude",
        )
        .unwrap()
    }

    async fn run_cmd(cmd: &str, timeout: Duration) -> Report {
        let (handler, spec) = handler(cmd, timeout);
        run(&spec, &handler, &event(), &ExecContext::default()).await
    }

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
        assert!(
            report.duration < Duration::from_secs(2),
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
            report.notes,
            ["its stdout was over 1 MiB; the last 24 bytes were dropped"]
        );
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
