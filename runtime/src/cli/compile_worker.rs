//! `agenthooks __compile-worker`: hidden. Compiles one component into the
//! compile cache in the background, for `run` (which waits on it only until
//! the handler's timeout), `trust` and `install` (which warm the cache).
//! See `exec/wasm/worker.rs`; not a command for people.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::exec::wasm::{worker, CacheDir, Tier};

/// `agenthooks __compile-worker`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The sha256 (hex) of the component's bytes as the caller read them.
    #[arg(long)]
    pub digest: String,
    /// The descriptor holding the cache key's lock, handed over by the caller.
    #[arg(long)]
    pub lock_fd: Option<i32>,
    /// Be the capped child that compiles (the worker supervises it).
    #[arg(long)]
    pub child: bool,
    /// Compile with the baseline compiler (Winch) first, then Cranelift; as
    /// the child, with Winch only.
    #[arg(long)]
    pub baseline: bool,
    /// The component file.
    pub component: PathBuf,
}

/// Compile, supervised or as the capped child; the exit code tells `run` how it went.
pub fn run(args: Args) -> ExitCode {
    let cache = CacheDir::from_env();
    if args.child {
        let tier = if args.baseline {
            Tier::Baseline
        } else {
            Tier::Optimized
        };
        worker::compile_child(&cache, &args.component, &args.digest, tier)
    } else {
        worker::supervise(
            &cache,
            &args.component,
            &args.digest,
            args.lock_fd,
            args.baseline,
        )
    }
}
