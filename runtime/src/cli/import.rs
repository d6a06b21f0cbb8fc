//! `agenthooks import [AGENT...] [--user] [--move] [--dry-run]`: bring the
//! hooks in agents' own config files into `.agents/hooks.json`, in Claude's
//! format.
//!
//! Prints one line per hook imported, already there, or not imported, and
//! per thing a hook could not carry, each with the reason; then what
//! happened to `.agents/hooks.json` (with `--dry-run`, its unified diff);
//! then, for a project, that the imported command hooks wait for
//! `agenthooks trust` (they are the user's own, but agenthooks trusts
//! nothing silently); with `--move`, one line per agent file changed (see
//! [`crate::import::moving`]). Exit 2 when a file could not be read or
//! written.

use std::io::{self, IsTerminal as _, Write as _};
use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_ERROR, EXIT_OK};
use crate::agents::{self, Agent, Registration};
use crate::config::Scope;
use crate::import::moving;
use crate::import::plan::{self, Plan, Request};
use crate::install::{self, Env};
use crate::protocol::one_line;

/// `agenthooks import`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agents whose hooks to import (default: every agent with a hooks file).
    #[arg(value_name = "AGENT")]
    pub agents: Vec<String>,
    /// Import the user's hooks (under `$HOME`) into `~/.agents/hooks.json`
    /// instead of the project's.
    #[arg(long)]
    pub user: bool,
    /// Also take the imported hooks out of the agent's file and install
    /// agenthooks' entry there, so each hook runs once.
    #[arg(long = "move")]
    pub move_: bool,
    /// Print what would change as a unified diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// Run `import`.
///
/// # Errors
/// Bad usage (an unknown agent) or no working directory / home.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let env = Env::from_process()?;
    let root = install::project_root(&cwd);
    let scope = if args.user {
        Scope::User
    } else {
        Scope::Project
    };
    let agents = chosen(&args.agents)?;
    let req = Request {
        agents: &agents,
        scope,
        root: &root,
        env: &env,
    };
    let mut out = io::stdout().lock();
    let result = if args.dry_run {
        plan::plan(&req)
    } else {
        plan::apply(&req)
    };
    let planned = match result {
        Ok(p) => p,
        Err(e) => {
            crate::cli::report::say!("import: {e}");
            return Ok(ExitCode::from(EXIT_ERROR));
        }
    };
    for line in &planned.lines {
        writeln!(out, "{line}")?;
    }
    for line in &planned.errors {
        crate::cli::report::say!("import: {}", one_line(line));
    }
    report(&mut out, &req, &planned, args.dry_run)?;
    let mut failed = !planned.errors.is_empty();
    if args.move_ {
        failed |= !move_out(&mut out, &req, &planned, args.dry_run)?;
        // Never in a script: there, the note above says `agenthooks trust`.
        if !args.dry_run && scope == Scope::Project && io::stdin().is_terminal() {
            offer_trust(&mut out, &req, &planned)?;
        }
    }
    if args.dry_run {
        writeln!(out, "dry run: nothing was written")?;
    }
    Ok(ExitCode::from(if failed { EXIT_ERROR } else { EXIT_OK }))
}

/// `--move`: per agent whose hooks were imported, takes them out of its
/// files and installs agenthooks' entry; one line per file (a diff on a
/// dry run), one line on stderr per agent that failed. Whether all worked.
fn move_out(
    out: &mut impl io::Write,
    req: &Request<'_>,
    planned: &Plan,
    dry_run: bool,
) -> anyhow::Result<bool> {
    let binary = super::install::entry_binary(req.scope, false)?;
    // Loaded after the import: the entries carry its status messages.
    let config = crate::config::load(&crate::config::LoadOptions {
        home: Some(req.env.home.clone()),
        project_root: Some(req.root.to_path_buf()),
    });
    // On a dry run the moved hooks are not in `.agents/hooks.json` yet:
    // their matchers are not known, the entries stay catch-alls.
    let coverage = if dry_run && !planned.moved.is_empty() {
        None
    } else {
        install::Coverage::of(&config, req.scope)
    };
    let status_messages = install::status_messages(&config.handlers);
    // The entries are for the events the hooks use: on a dry run the
    // imported hooks are not in `.agents/hooks.json` yet, so theirs count too.
    let used = match install::Used::of(&config) {
        install::Used::Events(mut events) => {
            events.extend(planned.moved.iter().flat_map(|(_, hooks)| {
                hooks
                    .iter()
                    .filter_map(|h| h.import.as_ref().ok().map(|i| i.event))
            }));
            install::Used::Events(events)
        }
        install::Used::Unknown => install::Used::Unknown,
    };
    let wiring = moving::Wiring {
        scope: req.scope,
        root: req.root,
        env: req.env,
        binary: &binary,
        coverage: coverage.as_ref(),
        status_messages: &status_messages,
        used: &used,
    };
    let mut ok = true;
    for agent in req.agents {
        let moved: Vec<_> = planned
            .moved
            .iter()
            .filter(|(file, _)| file.agent.id() == agent.id())
            .cloned()
            .collect();
        if moved.is_empty() {
            continue;
        }
        match moving::move_out(*agent, &moved, &wiring, dry_run) {
            Ok(changes) => {
                for c in changes {
                    let shown = crate::import::show(&c.path, req.root, &req.env.home);
                    writeln!(out, "{}: {} {shown}", agent.id(), c.word(dry_run))?;
                    if dry_run && c.before != c.after {
                        let diff =
                            install::unified_diff(&shown, c.before.as_deref(), c.after.as_deref());
                        write!(out, "{diff}")?;
                    }
                }
                // What the agent itself still needs before it runs the entry.
                super::install::after_install(out, *agent, dry_run)?;
            }
            Err(e) => {
                ok = false;
                crate::cli::report::say!("import: {}: {e}", agent.id());
            }
        }
    }
    Ok(ok)
}

/// On a terminal, after `--move`: shows the project hooks that now run
/// what the agents' own files ran (and ran without asking) and offers to
/// trust them, as `agenthooks trust` would; the project's other hooks that
/// wait for trust are not part of the offer, and those trusted stay so.
fn offer_trust(out: &mut impl io::Write, req: &Request<'_>, planned: &Plan) -> anyhow::Result<()> {
    let mut config = crate::config::load(&crate::config::LoadOptions {
        home: Some(req.env.home.clone()),
        project_root: Some(req.root.to_path_buf()),
    });
    let (store, _) = crate::trust::TrustStore::load();
    let moved: Vec<bool> = {
        let found = moving::handlers_moved(&planned.moved, &config, Scope::Project, req.root);
        config
            .handlers
            .iter()
            .map(|h| found.iter().any(|m| std::ptr::eq(*m, h)))
            .collect()
    };
    let pending = config
        .handlers
        .iter()
        .zip(&moved)
        .any(|(h, m)| *m && crate::trust::needs_trust(h) && !store.trusts(h));
    if !pending {
        return Ok(());
    }
    // Trusting replaces the project's trusted set: the hooks trusted
    // already go along, so they stay trusted.
    let mut moved = moved.into_iter();
    config
        .handlers
        .retain(|h| moved.next().unwrap_or(false) || store.trusts(h));
    writeln!(out)?;
    super::trust::review_and_trust(req.root, &store, &config, false, out)?;
    Ok(())
}

/// What happened to `.agents/hooks.json`, and the trust step.
fn report(out: &mut impl io::Write, req: &Request<'_>, p: &Plan, dry_run: bool) -> io::Result<()> {
    if p.lines.is_empty() && p.errors.is_empty() {
        let place = if req.scope == Scope::User {
            "the user's"
        } else {
            "this project's"
        };
        return writeln!(
            out,
            "no hooks in {place} agent files (agenthooks' own entries aside): nothing to import"
        );
    }
    let shown = crate::import::show(&p.hooks_file, req.root, &req.env.home);
    let word = match (&p.before, p.after == p.before, dry_run) {
        (_, true, _) => "unchanged",
        (None, false, false) => "created",
        (None, false, true) => "would create",
        (Some(_), false, false) => "updated",
        (Some(_), false, true) => "would update",
    };
    writeln!(out, "{word} {shown}")?;
    if dry_run && p.after != p.before {
        let diff = install::unified_diff(&shown, p.before.as_deref(), p.after.as_deref());
        write!(out, "{diff}")?;
    }
    if p.added > 0 && req.scope == Scope::Project {
        let (n, s, run, them) = if p.added == 1 {
            (1, "", "runs", "it")
        } else {
            (p.added, "s", "run", "them")
        };
        let when = if dry_run { "once imported, " } else { "" };
        writeln!(
            out,
            "note: {when}the {n} imported hook{s} in the project's .agents/hooks.json {run} only after you review and trust {them}: `agenthooks trust`"
        )?;
    }
    Ok(())
}

/// The agents named, or every agent whose hooks file import reads.
fn chosen(ids: &[String]) -> anyhow::Result<Vec<&'static dyn Agent>> {
    if ids.is_empty() {
        return Ok(agents::AGENTS
            .iter()
            .copied()
            .filter(|a| crate::import::reads_hooks_of(*a))
            .collect());
    }
    let mut out: Vec<&'static dyn Agent> = Vec::new();
    for id in ids {
        let agent = agents::named(id)?;
        if !crate::import::reads_hooks_of(agent) {
            let kept = match agent.install_spec().registration {
                Registration::Yaml(_) => "in YAML, which import does not read yet",
                _ => "in code (scripts or a plugin), not in a hooks file agenthooks can read",
            };
            anyhow::bail!(
                "{} keeps its hooks {kept}; move them into .agents/hooks.json by hand",
                agent.display_name()
            );
        }
        if !out.iter().any(|a| a.id() == agent.id()) {
            out.push(agent);
        }
    }
    Ok(out)
}
