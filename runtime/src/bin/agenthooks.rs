//! The `agenthooks` binary: the small front that answers `run` for command
//! hooks and hands everything else to `agenthooks-engine`
//! (`agenthooks::cli::front`).

fn main() -> std::process::ExitCode {
    agenthooks::cli::front::main()
}
