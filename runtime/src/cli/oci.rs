//! `agenthooks publish`, `pull` and `lock`: components through an OCI
//! registry (`crate::oci`). The only commands that reach a registry.
//!
//! - `publish PATH oci://host/repo:tag` pushes a component and prints its
//!   digest reference (`oci://host/repo@sha256:…`).
//! - `lock` resolves every `oci://` reference the managed, user and project
//!   configs name and pins it in the `hooks.lock.json` beside the
//!   `hooks.json` that names it (a tag moves only here), and drops the
//!   entries of references that `hooks.json` no longer names.
//! - `pull` downloads every referenced component into the cache, verified
//!   against its pinned digest; a tag not pinned yet is pinned first.
//!
//! One line per reference; exit 0, 1 when any reference failed (or the
//! managed policy refused it), 2 on bad usage.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::progress::Progress;
use crate::config::{self, HandlerKind, LoadOptions};
use crate::oci::registry::{Registry, Resolved};
use crate::oci::{self, LockEntry, LockFile, OciRef, Store, Target};

/// `agenthooks publish`.
#[derive(Debug, clap::Args)]
pub struct PublishArgs {
    /// The component (`.wasm`) to push.
    pub path: PathBuf,
    /// Where: `oci://host[:port]/repository:tag`.
    pub reference: String,
    /// No progress on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `agenthooks pull`.
#[derive(Debug, clap::Args)]
pub struct PullArgs {
    /// No progress on the terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `agenthooks lock`.
#[derive(Debug, clap::Args)]
pub struct LockArgs {}

/// Push a component; print its digest reference.
///
/// # Errors
/// When stdout cannot be written.
pub fn publish(args: PublishArgs) -> anyhow::Result<ExitCode> {
    let reference = match OciRef::parse(&args.reference) {
        Ok(r) => r,
        Err(e) => {
            crate::cli::report::say!("{e}");
            return Ok(ExitCode::from(super::EXIT_ERROR));
        }
    };
    let registry = Registry::new(&reference);
    notes(&registry.notes);
    let start = Instant::now();
    let progress = Progress::start(args.quiet, format!("publishing `{}`", args.path.display()));
    let published = runtime()?.block_on(registry.publish(&args.path));
    drop(progress);
    match published {
        Ok(done) => {
            eprintln!(
                "published `{}` as `{reference}` ({} bytes, component {}) in {:.0} ms",
                args.path.display(),
                done.size,
                done.component,
                start.elapsed().as_secs_f64() * 1e3
            );
            writeln!(io::stdout(), "{}", reference.with_digest(&done.manifest))?;
            Ok(ExitCode::from(super::EXIT_OK))
        }
        Err(e) => {
            crate::cli::report::say!("{e}");
            Ok(ExitCode::from(super::EXIT_FINDING))
        }
    }
}

/// Pin every referenced component in its lock file, then drop from each
/// lock file the references its `hooks.json` no longer names.
///
/// # Errors
/// When stdout cannot be written.
pub fn lock(_args: LockArgs) -> anyhow::Result<ExitCode> {
    let code = each_reference(true, "resolving", |rt, registry, file, reference, store| {
        let r = rt.block_on(registry.resolve(&reference.target, store))?;
        pin(file, reference, &r)?;
        Ok(format!(
            "locked to {} (component {})",
            r.manifest, r.component
        ))
    })?;
    let locks_written = prune(&mut io::stdout().lock())?;
    Ok(if locks_written {
        code
    } else {
        ExitCode::from(super::EXIT_FINDING)
    })
}

/// Drop from the lock file beside each `hooks.json` the entries of
/// references that file no longer names, a line each; whether every lock
/// file could be read and written. A `hooks.json` that did not load keeps
/// its lock file as it is: its references are unknown, not gone. A
/// reference the managed policy refuses is kept wherever it is pinned (the
/// policy may allow it again).
fn prune(out: &mut impl Write) -> anyhow::Result<bool> {
    let loaded = config::load(&LoadOptions {
        home: None,
        project_root: config::project_root(None),
    });
    let refused: BTreeSet<String> = loaded
        .refused_components
        .iter()
        .filter_map(|c| OciRef::parse(c.trim()).ok())
        .map(|r| r.to_string())
        .collect();
    let mut named: BTreeMap<PathBuf, BTreeSet<String>> = loaded
        .files
        .iter()
        .filter(|f| !loaded.broken.iter().any(|b| &b.file == *f))
        .map(|f| (f.clone(), refused.clone()))
        .collect();
    for h in &loaded.handlers {
        if let (HandlerKind::Wasm(spec), Some(names)) = (&h.kind, named.get_mut(&h.file)) {
            if let Some(source) = &spec.oci {
                names.insert(source.reference.to_string());
            }
        }
    }
    let mut ok = true;
    for (file, keep) in named {
        let path = oci::lock_file_for(&file);
        let mut dropped = Vec::new();
        let changed = LockFile::update(&path, |lock| {
            lock.entries.retain(|reference, _| {
                let kept = keep.contains(reference);
                if !kept {
                    dropped.push(reference.clone());
                }
                kept
            });
        });
        match changed {
            Ok(_) => {
                for reference in dropped {
                    writeln!(
                        out,
                        "{reference}: no longer in `{}`; dropped from `{}`",
                        file.display(),
                        path.display()
                    )?;
                }
            }
            Err(e) => {
                ok = false;
                writeln!(out, "{}: failed: {e}", path.display())?;
            }
        }
    }
    Ok(ok)
}

/// Download every referenced component into the cache.
///
/// # Errors
/// When stdout cannot be written.
pub fn pull(args: PullArgs) -> anyhow::Result<ExitCode> {
    each_reference(
        args.quiet,
        "pulling",
        |rt, registry, file, reference, store| {
            let start = Instant::now();
            let (pinned, newly, fetched) = rt.block_on(async {
                let (pinned, newly) = pinned(file, reference, registry, store).await?;
                let fetched = registry.pull(&pinned, store).await?;
                Ok::<_, String>((pinned, newly, fetched))
            })?;
            let mut line = if fetched {
                format!(
                    "pulled {} ({} bytes, {:.0} ms)",
                    pinned.component,
                    pinned.size,
                    start.elapsed().as_secs_f64() * 1e3
                )
            } else {
                format!(
                    "already in the cache: {} ({} bytes)",
                    pinned.component, pinned.size
                )
            };
            if newly {
                line.push_str(&format!(", locked to {}", pinned.manifest));
            }
            Ok(line)
        },
    )
}

/// Do `each` for every `oci://` reference the configs name, printing
/// `REFERENCE: LINE` or `REFERENCE: failed: WHY`; exit 1 when any failed
/// or the managed policy refused one. Unless `quiet`, a spinner says
/// `verb REFERENCE` on a terminal while it runs.
fn each_reference(
    quiet: bool,
    verb: &str,
    mut each: impl FnMut(
        &tokio::runtime::Runtime,
        &Registry,
        &std::path::Path,
        &OciRef,
        &Store,
    ) -> Result<String, String>,
) -> anyhow::Result<ExitCode> {
    let Some((refs, store, mut failed)) = configured()? else {
        return Ok(ExitCode::from(super::EXIT_ERROR));
    };
    let rt = runtime()?;
    let mut out = io::stdout().lock();
    for (file, reference) in &refs {
        let registry = Registry::new(reference);
        notes(&registry.notes);
        let progress = Progress::start(quiet, format!("{verb} {reference}"));
        let done = each(&rt, &registry, file, reference, &store);
        drop(progress);
        match done {
            Ok(line) => writeln!(out, "{reference}: {line}")?,
            Err(e) => {
                failed = true;
                writeln!(out, "{reference}: failed: {e}")?;
            }
        }
    }
    if refs.is_empty() {
        writeln!(out, "no oci:// components configured")?;
    }
    Ok(ExitCode::from(if failed {
        super::EXIT_FINDING
    } else {
        super::EXIT_OK
    }))
}

/// What `reference` (named in `file`) is pinned to, from its lock file or
/// its own digest; a tag not in the lock file is resolved now and pinned
/// (`true`).
async fn pinned(
    file: &std::path::Path,
    reference: &OciRef,
    registry: &Registry,
    store: &Store,
) -> Result<(Resolved, bool), String> {
    let lock = LockFile::read(&oci::lock_file_for(file))?;
    if let Some(entry) = lock.entries.get(&reference.to_string()) {
        return Ok((
            Resolved {
                manifest: entry.manifest.clone(),
                component: entry.component.clone(),
                size: entry.size,
            },
            false,
        ));
    }
    let resolved = registry.resolve(&reference.target, store).await?;
    match reference.target {
        Target::Tag(_) => {
            pin(file, reference, &resolved)?;
            Ok((resolved, true))
        }
        Target::Digest(_) => Ok((resolved, false)),
    }
}

/// Record `resolved` for `reference` in the lock file beside `file`.
fn pin(file: &std::path::Path, reference: &OciRef, resolved: &Resolved) -> Result<bool, String> {
    LockFile::update(&oci::lock_file_for(file), |lock| {
        lock.entries.insert(
            reference.to_string(),
            LockEntry {
                manifest: resolved.manifest.clone(),
                component: resolved.component.clone(),
                size: resolved.size,
            },
        );
    })
}

/// The `oci://` references the configs name (each with the `hooks.json`
/// naming it, once per pair, in declaration order), the store, and whether
/// the managed policy refused any (said on stderr). `None` (said) without a
/// cache directory.
type Configured = (Vec<(PathBuf, OciRef)>, Store, bool);

fn configured() -> anyhow::Result<Option<Configured>> {
    let loaded = config::load(&LoadOptions {
        home: None,
        project_root: config::project_root(None),
    });
    for problem in loaded.problems() {
        eprintln!("{}", super::report::note_line(&problem));
    }
    let Some(store) = Store::from_env() else {
        crate::cli::report::say!("no cache directory (no home directory); set HOME");
        return Ok(None);
    };
    let mut refs: Vec<(PathBuf, OciRef)> = Vec::new();
    for h in &loaded.handlers {
        if let HandlerKind::Wasm(spec) = &h.kind {
            if let Some(source) = &spec.oci {
                let pair = (h.file.clone(), source.reference.clone());
                if !refs.contains(&pair) {
                    refs.push(pair);
                }
            }
        }
    }
    let refused = loaded
        .refused_components
        .iter()
        .any(|c| c.trim_start().starts_with(oci::SCHEME));
    Ok(Some((refs, store, refused)))
}

fn notes(list: &[String]) {
    for note in list {
        eprintln!("{}", super::report::note_line(note));
    }
}

/// A runtime for the registry client: network I/O and timers.
fn runtime() -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}
