//! `agenthooks compile [PATH...]`: compile wasm components into the compile
//! cache ahead of time, so the first event that runs them starts warm.
//!
//! Without paths it compiles every component the user and project configs
//! name. One line per component: its path, whether the cache already had it,
//! how long it took and the compiled size. Exit 0, or 1 when any failed (2
//! when a file named on the command line does not exist).
//! It compiles in this process and waits, however long it takes; `trust` and
//! `install` instead start background workers ([`warm_in_background`]).

use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::progress::Progress;
use crate::config::{self, Config, HandlerKind, LoadOptions};
use crate::exec::wasm::{worker, CacheStatus, WasmHost};
use crate::protocol::Failure;

/// `agenthooks compile`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Component files; every `wasm` handler's component in the configs when omitted.
    pub paths: Vec<PathBuf>,
    /// No progress on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Compile each component and print one line for it.
///
/// # Errors
/// When stdout cannot be written.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // A file named on the command line that is not there is bad usage (2);
    // a configured component that is missing is a finding (1).
    let named = !args.paths.is_empty();
    let quiet = args.quiet;
    let mut not_found = false;
    let mut config_error = None;
    let paths: Vec<PathBuf> = if args.paths.is_empty() {
        let (paths, trouble) = configured_input(config::project_root(None));
        config_error = trouble;
        paths
    } else {
        // The same file named twice is compiled and said once.
        let mut seen = BTreeSet::new();
        (args.paths.into_iter())
            .filter(|p| {
                let same = std::fs::canonicalize(p).or_else(|_| std::path::absolute(p));
                seen.insert(same.unwrap_or_else(|_| p.clone()))
            })
            .collect()
    };
    let host = WasmHost::global();
    let mut stdout = io::stdout().lock();
    let mut failed = false;
    if paths.is_empty() {
        writeln!(stdout, "no wasm hooks configured; nothing to compile")?;
    }
    for path in &paths {
        let progress = Progress::start(quiet, format!("compiling `{}`", path.display()));
        let (result, notes) = host.compile(path);
        drop(progress);
        // The result is said once, on stdout: a note that only repeats it
        // (the host's own line of how it loaded, or its failure) is left
        // out, and the tier that line names goes on the result's line.
        let said = result.as_ref().err().map(ToString::to_string);
        let mut tier = String::new();
        for note in notes {
            if said
                .as_ref()
                .is_some_and(|s| s.contains(&note) || note.contains(s.as_str()))
            {
                continue;
            }
            if let Some(rest) = repeats_the_result(&note, path) {
                tier = rest
                    .find(" (")
                    .map(|at| rest[at..].to_string())
                    .unwrap_or_default();
                continue;
            }
            eprintln!("{}", super::report::note_line(&note));
        }
        match result {
            Ok(c) => writeln!(
                stdout,
                "{}: {}, {:.1} ms, {} KiB{tier}",
                path.display(),
                match c.status {
                    CacheStatus::Hit => "cache hit",
                    CacheStatus::Compiled => "compiled",
                    CacheStatus::CompiledUncached => "compiled (not cached)",
                },
                c.duration.as_secs_f64() * 1e3,
                c.artifact_len.div_ceil(1024)
            )?,
            Err(failure) => {
                failed = true;
                not_found |= matches!(failure, Failure::ComponentNotFound { .. });
                writeln!(stdout, "{}: failed: {failure}", path.display())?;
            }
        }
    }
    // What was compiled replaces baseline entries; keep the cache in its budget.
    if let Some(dir) = crate::exec::wasm::CacheDir::from_env().path() {
        crate::exec::wasm::gc::after_store(dir);
    }
    Ok(ExitCode::from(if named && not_found {
        super::EXIT_ERROR
    } else if let Some(code) = config_error {
        code
    } else if failed {
        super::EXIT_FINDING
    } else {
        super::EXIT_OK
    }))
}

/// The rest of the wasm host's note on how `path` was loaded
/// (`` `g.wasm`: compiled and cached in 2219.3 ms (baseline tier, …) ``),
/// which the result's own line says already; `None` for any other note.
fn repeats_the_result<'a>(note: &'a str, path: &std::path::Path) -> Option<&'a str> {
    let rest = note.strip_prefix(&format!("`{}`: ", path.display()))?;
    [
        "loaded from the compile cache in ",
        "compiled and cached in ",
        "compiled in ",
    ]
    .iter()
    .any(|said| rest.starts_with(said))
    .then_some(rest)
}

/// Start a detached compile worker for every component the user's and the
/// project's configs name that the cache does not hold yet, and say so in
/// one line: `trust` and `install` warm the cache before the first event.
/// The locks the started compiles hold until they are done.
///
/// # Errors
/// When `out` cannot be written.
pub fn warm_in_background(
    out: &mut impl Write,
    project_root: Option<PathBuf>,
) -> io::Result<Vec<PathBuf>> {
    let paths = configured_components(project_root, false);
    let locks = worker::warm_in_background(&paths);
    let started = locks.len();
    if started > 0 {
        writeln!(
            out,
            "compiling {started} wasm component{} in the background to warm the compile cache",
            if started == 1 { "" } else { "s" }
        )?;
    }
    Ok(locks)
}

/// On a terminal (and not `quiet`), wait for the background compiles whose
/// `locks` [`warm_in_background`] gave, with their progress, so the first
/// event after this command starts warm; the compiles are detached (a
/// session of their own), so Ctrl-C only stops the waiting.
pub(super) fn wait_on_a_terminal(locks: &[PathBuf], quiet: bool) {
    if locks.is_empty() || !Progress::wanted(quiet) {
        return;
    }
    let total = locks.len();
    let progress = Progress::start(
        quiet,
        format!("warming the compile cache: 0 of {total} compiled (Ctrl-C stops waiting, not the compile)"),
    );
    loop {
        let done = locks.iter().filter(|l| worker::lock_free(l)).count();
        progress.message(format!(
            "warming the compile cache: {done} of {total} compiled (Ctrl-C stops waiting, not the compile)"
        ));
        if done == total {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// [`configured_components`] with their problems on stderr, and the exit
/// code those problems call for ([`super::input_exit`]).
fn configured_input(project_root: Option<PathBuf>) -> (Vec<PathBuf>, Option<u8>) {
    let loaded = config::load(&LoadOptions {
        home: None,
        project_root,
    });
    for problem in loaded.problems() {
        eprintln!("{}", super::report::note_line(&problem));
    }
    (components_of(&loaded, true), super::input_exit(&loaded))
}

/// Every component the user's and `project_root`'s configs name, once each,
/// sorted; their problems on stderr when `report`.
fn configured_components(project_root: Option<PathBuf>, report: bool) -> Vec<PathBuf> {
    configured(project_root, report).0
}

/// [`configured_components`], and whether a hooks.json had an error (which
/// may hide components): the one reading of "what the configs name" that
/// `compile`, the warm-up and `build` share.
pub(super) fn configured(project_root: Option<PathBuf>, report: bool) -> (Vec<PathBuf>, bool) {
    let loaded = config::load(&LoadOptions {
        home: None,
        project_root,
    });
    if report {
        for problem in loaded.problems() {
            eprintln!("{}", super::report::note_line(&problem));
        }
    }
    (components_of(&loaded, report), !loaded.broken.is_empty())
}

/// The components `config`'s wasm hooks name, once each, sorted; an
/// `oci://` one not pulled is left out (said on stderr when `report`).
pub(super) fn components_of(config: &Config, report: bool) -> Vec<PathBuf> {
    let set: BTreeSet<PathBuf> = config
        .handlers
        .iter()
        .filter_map(|h| match &h.kind {
            // An `oci://` component is compiled once pulled; until then
            // there is no file, and the note says what to do.
            HandlerKind::Wasm(spec) => match spec.oci.as_ref().map(|o| (o, &o.pin)) {
                Some((oci, Err(why))) => {
                    if report {
                        let failure = Failure::OciNotPulled {
                            reference: oci.reference.to_string(),
                            why: why.to_string(),
                        };
                        eprintln!("{}", super::report::note_line(&failure.to_string()));
                    }
                    None
                }
                _ => Some(spec.component.clone()),
            },
            _ => None,
        })
        .collect();
    set.into_iter().collect()
}
