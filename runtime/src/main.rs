//! The `agenthooks` binary: parse, run, turn an error into one line and an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match agenthooks::cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match agenthooks::cli::run(cli) {
        Ok(code) => code,
        Err(err) => agenthooks::cli::exit_on_error(&err),
    }
}
