//! `agenthooks trust`: review a project's hooks and allow them to run with the user's rights.
//!
//! Shows each untrusted project hook the way a browser shows an extension's
//! permissions, asks on a terminal, and records the hooks' fingerprints in
//! the trust store ([`crate::trust`]). With no terminal it changes
//! nothing unless `--yes` is given, so a script never trusts by accident.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use super::{EXIT_FINDING, EXIT_OK};
use crate::config::{self, Config, LoadOptions};
use crate::trust::{self, TrustStore};

/// `agenthooks trust [--yes] [--list] [--revoke] [--project DIR]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Trust without asking (for scripts).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Show the trusted projects, and which hooks of this project are not trusted.
    #[arg(long, conflicts_with_all = ["yes", "revoke"])]
    pub list: bool,
    /// Forget every trusted hook of the project.
    #[arg(long, conflicts_with = "yes")]
    pub revoke: bool,
    /// The project (default: the project of the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// Run `agenthooks trust`.
///
/// # Errors
/// When there is no project, or the trust store cannot be written.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    const NO_PROJECT: &str =
        "no project here (no `.agents/` or `.git` above the current directory); pass `--project DIR`";
    let root = match &args.project {
        Some(dir) => Some(dir.clone()),
        None => config::project_root(None),
    };
    let root = root
        .map(|root| {
            std::fs::canonicalize(&root)
                .with_context(|| format!("cannot find the project `{}`", root.display()))
        })
        .transpose()?;
    let (store, note) = TrustStore::load();
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let mut stdout = io::stdout().lock();
    if args.list {
        // The trusted projects can be listed from anywhere.
        let project = root.as_deref().map(|root| (root, load(root)));
        list(&mut stdout, &store, project.as_ref().map(|(r, c)| (*r, c)))?;
        return Ok(ExitCode::from(EXIT_OK));
    }
    let root = root.context(NO_PROJECT)?;
    if args.revoke {
        let mut store = store;
        let count = store.revoke(&root);
        if count == 0 && store.project(&root).is_none() {
            writeln!(stdout, "Nothing was trusted in {}.", root.display())?;
        } else {
            store.save()?;
            writeln!(
                stdout,
                "Forgot {count} trusted {} of {}; its command hooks will not run until trusted again.",
                hooks(count),
                root.display()
            )?;
        }
        return Ok(ExitCode::from(EXIT_OK));
    }
    let config = load(&root);
    for line in config.problems() {
        crate::cli::report::say!("{line}");
    }
    let code = match review_and_trust(&root, &store, &config, args.yes, &mut stdout)? {
        Reviewed::NothingToTrust | Reviewed::Trusted(_) => EXIT_OK,
        Reviewed::Declined | Reviewed::NoTerminal | Reviewed::Incomplete(_) => EXIT_FINDING,
    };
    super::compile::warm_in_background(&mut stdout, Some(root.clone()))?;
    Ok(ExitCode::from(code))
}

/// What [`review_and_trust`] came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reviewed {
    /// Every project hook was trusted already or needs no trust.
    NothingToTrust,
    /// The user agreed (or `yes`): this many hooks are now trusted.
    Trusted(usize),
    /// The user said no.
    Declined,
    /// No terminal to ask on and no `yes`: nothing changed.
    NoTerminal,
    /// The user agreed, but some hooks could not be fingerprinted (a file
    /// they name is missing, a FIFO, too large): this many were trusted,
    /// the others were named.
    Incomplete(usize),
}

/// Show the hooks of `config` that need trust at `root` and trust them if
/// the user agrees on the terminal (or `yes` is given): the flow of
/// `agenthooks trust`, for `install` to reuse after it wrote the agents'
/// configs. With no terminal and no `yes` it changes nothing and says how.
///
/// # Errors
/// Writing to `out`, reading the answer, or saving the trust store.
pub fn review_and_trust(
    root: &Path,
    store: &TrustStore,
    config: &Config,
    yes: bool,
    out: &mut impl Write,
) -> anyhow::Result<Reviewed> {
    let pending = trust::pending(store, &config.handlers);
    if pending.is_empty() {
        let has_project_hooks = config
            .handlers
            .iter()
            .any(|h| h.scope == config::Scope::Project);
        if has_project_hooks {
            writeln!(
                out,
                "Every hook of {} is trusted or needs no trust.",
                root.display()
            )?;
        } else {
            writeln!(out, "{} has no project hooks.", root.display())?;
        }
        return Ok(Reviewed::NothingToTrust);
    }
    let previous = trust::previous(store, root, &config.handlers, &pending);
    write!(out, "{}", trust::review(root, &pending, &previous))?;
    writeln!(out)?;
    let confirmed = if yes {
        true
    } else if io::stdin().is_terminal() {
        write!(
            out,
            "Trust {} for {}? [y/N] ",
            these(pending.len()),
            root.display()
        )?;
        out.flush()?;
        confirm(&mut io::stdin().lock())?
    } else {
        writeln!(
            out,
            "Nothing was trusted: there is no terminal to ask on. To trust {}, run \
             `agenthooks trust --yes` in {}.",
            these(pending.len()),
            root.display()
        )?;
        return Ok(Reviewed::NoTerminal);
    };
    if !confirmed {
        writeln!(out, "Nothing was trusted.")?;
        return Ok(Reviewed::Declined);
    }
    let count = trust::trust_project(root, &config.handlers)?;
    writeln!(
        out,
        "Trusted {count} {} of {}; a hook that changes will be asked about again.",
        hooks(count),
        root.display()
    )?;
    let refused = TrustStore::untrustable(&config.handlers);
    for line in &refused {
        writeln!(out, "{}", crate::protocol::one_line(line))?;
    }
    if !refused.is_empty() {
        return Ok(Reviewed::Incomplete(count));
    }
    Ok(Reviewed::Trusted(count))
}

/// For `install` run in a project: on a terminal, when some project hooks
/// need trust, show them and ask (see [`review_and_trust`]). Returns whether
/// it asked; `false` (no terminal, or nothing to trust) leaves it to the
/// caller to say that hooks are waiting for `agenthooks trust`.
///
/// # Errors
/// Writing to `out`, reading the answer, or saving the trust store.
pub fn offer(root: &Path, home: Option<PathBuf>, out: &mut impl Write) -> anyhow::Result<bool> {
    if !io::stdin().is_terminal() {
        return Ok(false);
    }
    let config = config::load(&LoadOptions {
        home,
        project_root: Some(root.to_path_buf()),
    });
    let (store, _note) = TrustStore::load();
    if trust::pending(&store, &config.handlers).is_empty() {
        return Ok(false);
    }
    writeln!(out)?;
    review_and_trust(root, &store, &config, false, out)?;
    Ok(true)
}

fn load(root: &Path) -> Config {
    config::load(&LoadOptions {
        home: None,
        project_root: Some(root.to_path_buf()),
    })
}

fn hooks(n: usize) -> &'static str {
    if n == 1 {
        "hook"
    } else {
        "hooks"
    }
}

fn these(n: usize) -> String {
    if n == 1 {
        "this hook".to_string()
    } else {
        format!("these {n} hooks")
    }
}

/// Read one answer: `y` or `yes` (any case) confirms; anything else, or end of input, does not.
fn confirm(input: &mut impl BufRead) -> io::Result<bool> {
    let mut line = String::new();
    input.read_line(&mut line)?;
    Ok(matches!(
        line.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// `--list`: every trusted project, then, in a project, the state of each
/// of its hooks: trusted, changed since trusted, or new.
fn list(
    out: &mut impl Write,
    store: &TrustStore,
    project: Option<(&Path, &Config)>,
) -> io::Result<()> {
    list_store(out, store, project.map(|(root, _)| root))?;
    let Some((root, config)) = project else {
        writeln!(
            out,
            "\nNot in a project: run `agenthooks trust --list` in one (or pass `--project DIR`) to see its hooks."
        )?;
        return Ok(());
    };
    // Managed and user hooks need no trust; say where each comes from.
    let own: Vec<&config::Handler> = config
        .handlers
        .iter()
        .filter(|h| !h.scope.needs_trust())
        .collect();
    if !own.is_empty() {
        writeln!(out, "\nRun without trust (managed and user scopes):")?;
        for h in own {
            writeln!(out, "  {}", listed(h))?;
        }
    }
    list_project(out, store, root, config)
}

/// The store's file and each trusted project with its hooks, but the
/// hooks of `project` (listed after, each in its current state).
fn list_store(out: &mut impl Write, store: &TrustStore, project: Option<&Path>) -> io::Result<()> {
    match store.path() {
        Some(path) => writeln!(out, "Trust store: {}", path.display())?,
        None => writeln!(
            out,
            "Trust store: none (no home directory: set HOME, or USERPROFILE on Windows)"
        )?,
    }
    if store.projects().is_empty() {
        writeln!(out, "No trusted projects.")?;
    }
    // The store is keyed by the canonical root, as `run` canonicalized it.
    let here = project.map(|root| root.to_string_lossy().into_owned());
    for (name, trusted) in store.projects() {
        let n = trusted.hooks.len();
        writeln!(
            out,
            "{name}: {n} trusted {} (since {})",
            hooks(n),
            trusted.trusted_at
        )?;
        // This project's hooks are listed below, each in its current state.
        if here.as_deref() == Some(name.as_str()) {
            continue;
        }
        for hook in trusted.hooks.values() {
            writeln!(out, "  {} on {}", hook.label, hook.event)?;
        }
    }
    Ok(())
}

/// The hooks of the project at `root` as trust sees them: trusted, changed
/// since trusted, or new.
fn list_project(
    out: &mut impl Write,
    store: &TrustStore,
    root: &Path,
    config: &Config,
) -> io::Result<()> {
    let pending = trust::pending(store, &config.handlers);
    let previous = trust::previous(store, root, &config.handlers, &pending);
    let trusted: Vec<&config::Handler> = config
        .handlers
        .iter()
        .filter(|h| trust::needs_trust(h) && !pending.iter().any(|p| std::ptr::eq(*p, *h)))
        .collect();
    writeln!(out)?;
    if !trusted.is_empty() {
        writeln!(out, "Trusted in {}:", root.display())?;
        for h in &trusted {
            writeln!(out, "  {}", listed(h))?;
        }
    }
    if pending.is_empty() {
        writeln!(
            out,
            "Every hook of {} is trusted or needs no trust.",
            root.display()
        )?;
        return Ok(());
    }
    let (changed, new): (Vec<_>, Vec<_>) = pending
        .iter()
        .zip(&previous)
        .partition(|(_, p)| p.is_some());
    if !changed.is_empty() {
        writeln!(
            out,
            "Changed since trusted (not trusted until reviewed again):"
        )?;
        for (h, before) in &changed {
            let since = before.map(|b| b.trusted_at.as_str()).unwrap_or_default();
            writeln!(
                out,
                "  {} on {} (trusted {since})",
                h.label,
                h.event.as_str()
            )?;
        }
    }
    if !new.is_empty() {
        writeln!(out, "Not trusted in {}:", root.display())?;
        for (h, _) in &new {
            writeln!(out, "  {}", listed(h))?;
        }
    }
    writeln!(out, "Review them with `agenthooks trust`.")?;
    Ok(())
}

/// A hook as `trust --list` lists it: label, event, and the scope and file
/// it was declared in.
fn listed(h: &config::Handler) -> String {
    format!(
        "{} on {} ({}: {})",
        h.label,
        h.event.as_str(),
        h.scope,
        h.file.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_yes_confirms() {
        for (answer, want) in [
            ("y\n", true),
            ("YES\n", true),
            (" yes \n", true),
            ("n\n", false),
            ("\n", false),
            ("", false),
            ("yep\n", false),
        ] {
            assert_eq!(confirm(&mut answer.as_bytes()).unwrap(), want, "{answer:?}");
        }
    }
}
