//! The `agenthooks` command line.
//!
//! One file per subcommand: an `Args` struct (clap derive) and a
//! `run(args) -> anyhow::Result<ExitCode>`. To add a command, add
//! `cli/<cmd>.rs`, a `mod` line, a variant in [`Cmd`] and its arm in [`run`](fn@run).
//!
//! Exit codes: `run` answers in the calling agent's protocol and never fails
//! because of itself; every other command exits 0 on success, 1 on a finding
//! and 2 on bad usage or an error, with one line per problem on stderr.

use std::ffi::OsString;
use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[cfg(feature = "engine")]
pub mod add;
#[cfg(feature = "engine")]
pub mod agents;
#[cfg(feature = "engine")]
pub mod arrival;
#[cfg(feature = "engine")]
pub mod async_supervisor;
#[cfg(feature = "engine")]
pub mod audit;
#[cfg(feature = "engine")]
pub mod build;
#[cfg(feature = "engine")]
pub mod cache;
#[cfg(feature = "engine")]
pub mod check;
#[cfg(feature = "engine")]
pub mod compile;
#[cfg(feature = "engine")]
pub mod compile_worker;
#[cfg(feature = "engine")]
pub mod findings;
#[cfg(feature = "engine")]
pub mod fire;
pub mod front;
pub mod handoff;
#[cfg(feature = "engine")]
pub mod import;
#[cfg(feature = "engine")]
pub mod install;
#[cfg(feature = "engine")]
pub mod lang;
#[cfg(feature = "engine")]
pub mod new;
#[cfg(feature = "engine")]
pub mod oci;
pub mod paint;
#[cfg(feature = "engine")]
pub mod plugin;
pub mod probe;
#[cfg(feature = "engine")]
pub mod progress;
pub mod report;
pub mod run;
#[cfg(feature = "engine")]
pub mod schema;
#[cfg(feature = "engine")]
pub mod status;
#[cfg(feature = "engine")]
pub mod status_probe;
#[cfg(feature = "engine")]
pub mod trust;

/// Exit code: success.
pub const EXIT_OK: u8 = 0;
/// Exit code: the command found something (a lint finding, ...).
pub const EXIT_FINDING: u8 = 1;
/// Exit code: bad usage or an error.
pub const EXIT_ERROR: u8 = 2;

#[cfg(feature = "engine")]
/// Write a coding-agent hook once, in Claude Code's protocol, and run it in every agent.
#[derive(Debug, Parser)]
#[command(name = "agenthooks", version = crate::origin::version(), about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[cfg(feature = "engine")]
impl Cli {
    /// Whether this is `agenthooks run`, the bridge an agent calls, which
    /// must never fail (a panic allows, printed on one line).
    pub fn is_run(&self) -> bool {
        matches!(self.cmd, Cmd::Run(_))
    }
}

#[cfg(feature = "engine")]
/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// The bridge an agent's hook config calls: native JSON on stdin, native answer out.
    Run(run::Args),
    /// Send a made-up or recorded event through the real pipeline and show what each hook did.
    Fire(fire::Args),
    /// Print the JSON Schema of the hook input, the answer, or `.agents/hooks.json`.
    Schema(schema::Args),
    /// Review a project's hooks and allow them to run (`--list`, `--revoke`).
    Trust(trust::Args),
    /// Write agenthooks into agents' own hook configs (merging, with a backup).
    Install(install::Args),
    /// Write a plugin (extension) directory an agent loads with its own plugin command.
    Plugin(plugin::Args),
    /// Bring the hooks in agents' own config files into `.agents/hooks.json` (Claude's format).
    Import(import::Args),
    /// Remove what `install` wrote, restoring the original bytes where it can.
    Uninstall(install::UninstallArgs),
    /// Which agents are wired, which hooks run now, and the command that fixes each that does not.
    Status(status::Args),
    /// Lint `.agents/hooks.json` and what each installed agent cannot do with it.
    Check(check::Args),
    /// Compile wasm components into the compile cache ahead of time.
    Compile(compile::Args),
    /// Show the compile cache's entries against its budget; `cache clean` empties it.
    Cache(cache::Args),
    /// Check the audit log's hash chain and signatures (`audit verify`), print its public key (`audit public-key`).
    Audit(audit::Args),
    /// What each agent can do with a hook's answer, event by event.
    Agents(agents::Args),
    /// Add a vetted guard by name, or an `oci://` component, to `.agents/hooks.json` (`--list`).
    Add(add::Args),
    /// Scaffold a hook crate on agenthooks-sdk (a component and a command hook from one source).
    New(new::Args),
    /// Build the hook crates hooks.json's components come from, put each in place, precompile it.
    Build(build::Args),
    /// Push a wasm component to an OCI registry; print its digest reference.
    Publish(oci::PublishArgs),
    /// Download the `oci://` components the configs name into the cache, verified.
    Pull(oci::PullArgs),
    /// Pin each `oci://` reference's digest in `hooks.lock.json` beside its hooks.json.
    Lock(oci::LockArgs),
    /// Compile one component into the cache in the background (for `run`, `trust`, `install`).
    #[command(name = "__compile-worker", hide = true)]
    CompileWorker(compile_worker::Args),
    /// Run one `async` command hook past `run`'s exit, until its timeout.
    #[command(name = "__async-supervisor", hide = true)]
    AsyncSupervisor(async_supervisor::Args),
    /// Export the spans `run` spooled, after its answer (OTLP/HTTP).
    #[command(name = "__otel-flush", hide = true)]
    OtelFlush,
}

/// The exit code the configuration's own trouble calls for in `compile`,
/// `check` and `status` alike: [`EXIT_ERROR`] when a `hooks.json` cannot be
/// read at all (unreadable input), [`EXIT_FINDING`] when one was read and
/// does not parse (a problem found); `None` when every file loaded.
pub fn input_exit(config: &crate::config::Config) -> Option<u8> {
    if config.broken.iter().any(|b| b.unreadable) {
        Some(EXIT_ERROR)
    } else if config.broken.is_empty() {
        None
    } else {
        Some(EXIT_FINDING)
    }
}

#[cfg(feature = "engine")]
/// Parse the command line.
///
/// `--help` and `--version` print and give `Err(0)`; bad usage prints one
/// error and gives `Err(2)`, except under `run`, where it gives `Err(0)`
/// after a note: an agent must never be blocked because its hook config
/// passes an argument this version does not know.
///
/// # Errors
/// The exit code to end with when there is nothing to run.
pub fn parse<I, T>(args: I) -> Result<Cli, ExitCode>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    match Cli::try_parse_from(&args) {
        Ok(cli) => Ok(cli),
        Err(err) if !err.use_stderr() => {
            // --help / --version: a broken pipe here is not worth a panic.
            let _ = err.print();
            Err(ExitCode::SUCCESS)
        }
        Err(err) if args.get(1).is_some_and(|a| a == "run") => {
            let first = err.to_string();
            let line = first.lines().next().unwrap_or("bad arguments");
            let line = line.trim_start_matches("error: ");
            eprintln!("{}", report::note_line(&format!("{line}; allowing")));
            Err(ExitCode::SUCCESS)
        }
        Err(err) => {
            let _ = err.print();
            Err(ExitCode::from(EXIT_ERROR))
        }
    }
}

#[cfg(feature = "engine")]
/// Run a parsed command line.
///
/// # Errors
/// Whatever stopped the command; [`exit_on_error`] turns it into the one line
/// and the exit code.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.cmd {
        Cmd::Run(args) => Ok(probe::answer_if_probe(&args.agent).unwrap_or_else(|| run::run(args))),
        Cmd::Fire(args) => fire::run(args),
        Cmd::Schema(args) => schema::run(args),
        Cmd::Trust(args) => trust::run(args),
        Cmd::Install(args) => install::run(args),
        Cmd::Uninstall(args) => install::run_uninstall(args),
        Cmd::Status(args) => status::run(args),
        Cmd::Import(args) => import::run(args),
        Cmd::Plugin(args) => plugin::run(args),
        Cmd::Check(args) => check::run(args),
        Cmd::Compile(args) => compile::run(args),
        Cmd::Cache(args) => cache::run(args),
        Cmd::Audit(args) => audit::run(args),
        Cmd::Agents(args) => agents::run(args),
        Cmd::Add(args) => add::run(args),
        Cmd::New(args) => new::run(args),
        Cmd::Build(args) => build::run(args),
        Cmd::Publish(args) => oci::publish(args),
        Cmd::Pull(args) => oci::pull(args),
        Cmd::Lock(args) => oci::lock(args),
        Cmd::CompileWorker(args) => Ok(compile_worker::run(args)),
        Cmd::AsyncSupervisor(args) => Ok(async_supervisor::run(args)),
        Cmd::OtelFlush => {
            crate::telemetry::flush::flush();
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Print `err` as one line (`agenthooks: what: why: cause`) and give the exit
/// code: 0 for a closed stdout (`agenthooks ... | head`), else 2.
pub fn exit_on_error(err: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(err) {
        return ExitCode::SUCCESS;
    }
    crate::cli::report::say!("{err:#}");
    ExitCode::from(EXIT_ERROR)
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    /// What `run` spawns after its answer is the engine's hidden command.
    #[test]
    fn the_flusher_run_spawns_parses_as_its_hidden_command() {
        let cli = super::parse(["agenthooks", crate::telemetry::FLUSH_COMMAND]).unwrap();
        assert!(matches!(cli.cmd, super::Cmd::OtelFlush), "{:?}", cli.cmd);
    }
}
