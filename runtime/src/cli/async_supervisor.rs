//! `agenthooks __async-supervisor`: hidden. Runs one `async` command hook
//! for `run`, which has already answered the agent, and ends it (and what
//! it left behind) at its timeout. See `exec/supervise.rs` and
//! `exec/command.rs`; not a command
//! for people.

use std::process::ExitCode;
use std::time::Duration;

use crate::config::Shell;
use crate::exec::command;

/// `agenthooks __async-supervisor`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hook's timeout, in milliseconds.
    #[arg(long)]
    pub timeout_ms: u64,
    /// `system` (`sh -c`, `cmd /C`) or `powershell`.
    #[arg(long, default_value = "system")]
    pub shell: String,
    /// The hook's command line.
    #[arg(last = true)]
    pub command: String,
}

/// Supervise the hook; its stdin is this process's.
pub fn run(args: Args) -> ExitCode {
    let shell = if args.shell == "powershell" {
        Shell::PowerShell
    } else {
        Shell::System
    };
    command::supervise(&args.command, shell, Duration::from_millis(args.timeout_ms))
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_spawned_command_line_parses_as_this_subcommand() {
        let cli = crate::cli::parse([
            "agenthooks",
            crate::exec::supervise::SUBCOMMAND,
            "--timeout-ms",
            "2000",
            "--shell",
            "powershell",
            "--",
            "echo --not-a-flag",
        ])
        .unwrap();
        let crate::cli::Cmd::AsyncSupervisor(args) = cli.cmd else {
            panic!("{:?}", cli.cmd)
        };
        assert_eq!(args.timeout_ms, 2000);
        assert_eq!(args.shell, "powershell");
        assert_eq!(args.command, "echo --not-a-flag");
    }
}
