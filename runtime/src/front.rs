//! The `agenthooks` binary: the small front that answers `run` for command
//! hooks and hands everything else to `agenthooks-engine`
//! (`agenthooks::cli::front`).

// The static musl build's allocator (see Cargo.toml).
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    agenthooks::cli::front::main()
}
