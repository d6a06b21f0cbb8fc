//! The `agenthooks-engine` binary: the whole command line. Agents and users
//! call `agenthooks` (`agenthooks.rs`), which answers most events itself and
//! hands the rest, and every other command, to this one.

use std::process::ExitCode;

use agenthooks::cli::front;

fn main() -> ExitCode {
    front::survive_file_size_limit();
    let cli = match agenthooks::cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    if cli.is_run() {
        front::allow_on_panic();
    }
    match agenthooks::cli::run(cli) {
        Ok(code) => code,
        Err(err) => agenthooks::cli::exit_on_error(&err),
    }
}
