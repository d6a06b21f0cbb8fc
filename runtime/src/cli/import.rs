//! `agenthooks import [AGENT...] [--user] [--move] [--dry-run]`: bring the
//! hooks in agents' own config files into `.agents/hooks.json`, in Claude's
//! format.
//!
//! Prints one line per hook imported, already there, or not imported, and
//! per thing a hook could not carry, each with the reason; then what
//! happened to `.agents/hooks.json` (with `--dry-run`, its unified diff);
//! then, for a project, that the imported command hooks wait for
//! `agenthooks trust` (they are the user's own, but agenthooks trusts
//! nothing silently). Exit 2 when a file could not be read or written.

use std::io::{self, Write as _};
use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_ERROR, EXIT_OK};
use crate::agents::{self, Agent, Registration};
use crate::config::Scope;
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
            eprintln!("agenthooks: import: {e}");
            return Ok(ExitCode::from(EXIT_ERROR));
        }
    };
    for line in &planned.lines {
        writeln!(out, "{line}")?;
    }
    for line in &planned.errors {
        eprintln!("agenthooks: import: {}", one_line(line));
    }
    report(&mut out, &req, &planned, args.dry_run)?;
    if args.move_ {
        writeln!(
            out,
            "note: --move is not done yet: the hooks stay in the agents' files too; remove them there by hand (each would run twice)"
        )?;
    }
    Ok(ExitCode::from(if planned.errors.is_empty() {
        EXIT_OK
    } else {
        EXIT_ERROR
    }))
}

/// What happened to `.agents/hooks.json`, and the trust step.
fn report(out: &mut impl io::Write, req: &Request<'_>, p: &Plan, dry_run: bool) -> io::Result<()> {
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
        let (n, s, them) = if p.added == 1 {
            (1, "", "it")
        } else {
            (p.added, "s", "them")
        };
        let when = if dry_run { "once imported, " } else { "" };
        writeln!(
            out,
            "note: {when}the {n} imported hook{s} in the project's .agents/hooks.json run only after you review and trust {them}: `agenthooks trust`"
        )?;
    }
    if dry_run {
        writeln!(out, "dry run: nothing was written")?;
    }
    Ok(())
}

/// The agents named, or every agent whose hooks are JSON entries.
fn chosen(ids: &[String]) -> anyhow::Result<Vec<&'static dyn Agent>> {
    if ids.is_empty() {
        return Ok(agents::AGENTS
            .iter()
            .copied()
            .filter(|a| matches!(a.install_spec().registration, Registration::Json(_)))
            .collect());
    }
    let mut out: Vec<&'static dyn Agent> = Vec::new();
    for id in ids {
        let agent = agents::named(id)?;
        if !matches!(agent.install_spec().registration, Registration::Json(_)) {
            anyhow::bail!(
                "{} keeps its hooks in code (scripts or a plugin), not in a hooks file agenthooks can read; move them into .agents/hooks.json by hand",
                agent.display_name()
            );
        }
        if !out.iter().any(|a| a.id() == agent.id()) {
            out.push(agent);
        }
    }
    Ok(out)
}
