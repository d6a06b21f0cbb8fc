//! `agenthooks status [--json] [--probe]`: the state of this machine for
//! the project in the working directory. Which agents have agenthooks'
//! entries, at which scope and for which events; every configured hook
//! (managed, user, project; also the entries a file declares that could not
//! be loaded), whether it runs now and, if not, why and the one command or
//! edit that fixes it ([`crate::cli::findings`], the one verdict per hook).
//!
//! Guarantees: one line per configured hook (up to [`MAX_LISTED`]), its
//! verdict and its failure policy; a summary whose counts are those lines';
//! exit 1 unless every hook runs and every wired agent reaches agenthooks,
//! 0 otherwise; `--probe` also runs each wired entry as its agent would
//! ([`super::status_probe`]) and exits 1 when one does not answer. `check` stays
//! the linter; this is what runs here, now.

use std::io::{self, Write as _};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;
use serde_json::{json, Value};

use super::findings::{self, AgentState, HookState, Machine, Reason, RecentFailure};
use super::status_probe::{self, Probe};
use super::{EXIT_FINDING, EXIT_OK};
use crate::config::{self, LoadOptions, OnError};
use crate::exec::wasm::WasmHost;
use crate::install::{self, Env};
use crate::protocol::one_line;
use crate::trust::TrustStore;

/// The most hooks listed; the rest are counted.
pub const MAX_LISTED: usize = 200;

/// `agenthooks status`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Also run each wired entry as its agent would (its command, its
    /// shell, this PATH) with a probe event agenthooks answers itself,
    /// and say whether the answer came back.
    #[arg(long)]
    pub probe: bool,
}

/// What `status` found.
pub struct Found {
    /// The project root; `None` outside a project.
    pub project: Option<std::path::PathBuf>,
    /// The agents with entries of ours.
    pub agents: Vec<AgentState>,
    /// Every configured hook.
    pub hooks: Vec<HookState>,
    /// Trouble outside any one hook (the trust store cannot be read).
    pub errors: Vec<String>,
    /// What slows every event without stopping a hook (not a finding).
    pub notes: Vec<String>,
    /// What `--probe` found, when asked.
    pub probes: Vec<Probe>,
}

impl Found {
    /// How many configured hooks do not run.
    pub fn not_running(&self) -> usize {
        self.hooks.iter().filter(|h| !h.runs()).count()
    }

    /// How many problems are not a hook's: agents' and others.
    fn other_problems(&self) -> usize {
        self.errors.len()
            + (self.agents.iter())
                .map(|a| a.reasons.iter().filter(|r| r.stops_it()).count())
                .sum::<usize>()
            + self.probes.iter().filter(|p| !p.answered()).count()
    }

    /// Whether everything configured runs (exit 0).
    pub fn green(&self) -> bool {
        self.not_running() == 0 && self.other_problems() == 0
    }
}

/// Run `status` in the working directory.
///
/// # Errors
/// No working directory or home, or a closed stdout.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let env = Env::from_process()?;
    let project = config::project_root(Some(&cwd));
    let root = install::project_root(&cwd);
    let config = config::load(&LoadOptions {
        home: Some(env.home.clone()),
        project_root: project.clone(),
    });
    let (store, store_note) = TrustStore::load();
    // What the head's once-per-session record counted as failing open.
    let failed = crate::head::said::recent_failures(project.as_deref(), None);
    let recent = |h: &crate::config::Handler| {
        failed.get(&h.label).map(|(count, failure)| RecentFailure {
            failure: failure.clone(),
            count: u32::try_from(*count).unwrap_or(u32::MAX),
        })
    };
    let machine = Machine {
        root: &root,
        env: &env,
        store: &store,
        host: WasmHost::global(),
        recent: &recent,
    };
    let verdicts = findings::verdicts(&config, &machine);
    let probes = if args.probe {
        status_probe::probe_all(&verdicts.agents, &root, &env)
    } else {
        Vec::new()
    };
    let found = Found {
        project,
        agents: verdicts.agents,
        hooks: verdicts.hooks,
        errors: store_note.map(|n| n.to_string()).into_iter().collect(),
        notes: launcher_note().into_iter().collect(),
        probes,
    };
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", to_json(&found))?;
    } else {
        write_text(&mut out, &found, &cwd, super::paint::Paint::stdout())?;
    }
    Ok(ExitCode::from(match super::input_exit(&config) {
        Some(super::EXIT_ERROR) => super::EXIT_ERROR,
        _ if found.green() => EXIT_OK,
        _ => EXIT_FINDING,
    }))
}

/// A note when the `agenthooks` on `PATH` is a script instead of the native
/// binary: npm's launcher, which stays in place when npm ran with install
/// scripts disabled (its install script swaps in the native binary). It
/// still works, but every event starts node before agenthooks.
fn launcher_note() -> Option<String> {
    let path = super::install::find_on_path(std::path::Path::new(super::install::NAME))?;
    let mut head = Vec::new();
    let file = std::fs::File::open(&path).ok()?;
    std::io::Read::read_to_end(&mut std::io::Read::take(file, 128), &mut head).ok()?;
    script_note(&path, &head)
}

/// [`launcher_note`]'s line for the file at `path` that starts with `head`.
fn script_note(path: &std::path::Path, head: &[u8]) -> Option<String> {
    let first = head.strip_prefix(b"#!")?.split(|b| *b == b'\n').next()?;
    let node = String::from_utf8_lossy(first).contains("node");
    Some(if node {
        format!(
            "`agenthooks` on PATH (`{}`) is npm's node launcher, not the native binary (npm installed it with install scripts disabled): every event starts node first; `npm rebuild -g agenthooks` with scripts allowed puts the native binary there",
            path.display()
        )
    } else {
        format!(
            "`agenthooks` on PATH (`{}`) is a script, not the native binary: every event starts its interpreter first; reinstall: `{}`",
            path.display(),
            crate::origin::install_line()
        )
    })
}

fn reason_json(reason: &Reason) -> Value {
    json!({
        "code": reason.code(),
        "why": one_line(&reason.why()),
        "fix": reason.fix(),
        "fixText": one_line(&reason.fix_text()),
        "stops": reason.stops_it(),
    })
}

/// The native events as the agent calls them, with the canonical ones.
fn events_json(agent: &AgentState, natives: &[String]) -> Value {
    let table = agent.agent.table();
    natives
        .iter()
        .map(|native| {
            let canonical = table
                .events
                .iter()
                .find(|r| r.native == native)
                .map(|r| r.canonical.as_str());
            json!({"native": native, "event": canonical})
        })
        .collect()
}

/// A hook's failure policy as the file spells it.
fn on_error_name(policy: OnError) -> &'static str {
    match policy {
        OnError::Allow => "allow",
        OnError::Deny => "deny",
    }
}

/// `status --json`: `{project, agents, hooks, hooks_not_listed,
/// not_running, errors, probes, ok}`.
pub fn to_json(found: &Found) -> Value {
    let agents: Vec<Value> = found
        .agents
        .iter()
        .map(|a| {
            json!({
                "agent": a.agent.id(),
                "name": a.agent.display_name(),
                "installed": a.installed.iter().map(|(scope, events)| json!({
                    "scope": scope.as_str(),
                    "events": events_json(a, events),
                })).collect::<Vec<_>>(),
                "findings": a.reasons.iter().map(reason_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    let hooks: Vec<Value> = found
        .hooks
        .iter()
        .take(MAX_LISTED)
        .map(|h| {
            let handler = h.hook.handler();
            json!({
                "label": h.hook.label(),
                "scope": h.hook.scope().as_str(),
                "file": h.hook.file(),
                "event": h.hook.event(),
                "matcher": handler.map(|h| h.matcher.to_string()),
                "type": handler.map(|h| h.kind.name()),
                "onError": h.hook.on_error().map(on_error_name),
                "loaded": handler.is_some(),
                "runs": h.runs(),
                "findings": h.reasons.iter().map(reason_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "project": found.project,
        "agents": agents,
        "hooks": hooks,
        "hooks_not_listed": found.hooks.len().saturating_sub(MAX_LISTED),
        "not_running": found.not_running(),
        "errors": found.errors.iter().map(|e| one_line(e)).collect::<Vec<_>>(),
        "notes": found.notes.iter().map(|e| one_line(e)).collect::<Vec<_>>(),
        "probes": found.probes.iter().map(Probe::to_json).collect::<Vec<_>>(),
        "ok": found.green(),
    })
}

/// The most native events named per scope; the rest are counted.
const EVENTS_SHOWN: usize = 8;

/// An agent's events at one scope, short: the first [`EVENTS_SHOWN`] and a
/// count (`install` registers the events the hooks use, so the list is
/// short unless a `hooks.json` does not load or the entry is system-wide).
fn events_text(events: &[String]) -> String {
    let mut text = events
        .iter()
        .take(EVENTS_SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if events.len() > EVENTS_SHOWN {
        text.push_str(&format!(" and {} more", events.len() - EVENTS_SHOWN));
    }
    text
}

/// Where a hook is and what it is, for its line.
fn hook_at(h: &HookState) -> String {
    let hook = &h.hook;
    let what = match hook.handler() {
        Some(handler) => format!(
            "{} {} {} (onError: {})",
            handler.event.as_str(),
            handler.matcher,
            handler.label,
            on_error_name(handler.on_error)
        ),
        None => hook.label(),
    };
    one_line(&format!(
        "{} `{}`: {what}",
        hook.scope(),
        hook.file().display()
    ))
}

/// The text report: agents, then hooks (one line each, a further reason
/// on an indented line), then probes, then a summary line whose counts
/// are those of the lines above it.
///
/// # Errors
/// When `out` cannot be written.
pub fn write_text(
    out: &mut impl io::Write,
    found: &Found,
    cwd: &Path,
    paint: super::paint::Paint,
) -> io::Result<()> {
    for error in &found.errors {
        writeln!(out, "{}: {}", paint.error(), one_line(error))?;
    }
    for note in &found.notes {
        writeln!(out, "note: {}", one_line(note))?;
    }
    if found.project.is_none() {
        writeln!(
            out,
            "project: none (no `.agents/` or `.git` at or above `{}`); only the user's and the managed hooks are listed",
            cwd.display()
        )?;
    }
    if found.agents.is_empty() {
        writeln!(
            out,
            "agents: none has agenthooks' entries; `agenthooks install <agent>` wires one"
        )?;
    }
    for a in &found.agents {
        let scopes: Vec<String> = a
            .installed
            .iter()
            .map(|(scope, events)| format!("{scope} ({})", events_text(events)))
            .collect();
        writeln!(
            out,
            "agent {}: installed at {}",
            a.agent.id(),
            one_line(&scopes.join("; "))
        )?;
        for reason in &a.reasons {
            writeln!(
                out,
                "agent {}: {}; {}",
                a.agent.id(),
                one_line(&reason.why()),
                one_line(&reason.fix_text())
            )?;
        }
    }
    for h in found.hooks.iter().take(MAX_LISTED) {
        write_hook(out, h)?;
    }
    if found.hooks.len() > MAX_LISTED {
        writeln!(
            out,
            "hooks: {} more not listed (`status --json` lists them)",
            found.hooks.len() - MAX_LISTED
        )?;
    }
    for p in &found.probes {
        writeln!(out, "{}", one_line(&p.line()))?;
    }
    writeln!(out, "{}", summary(found))
}

/// One hook's line: its verdict with the first reason (a stopping one
/// first), and each further reason on an indented line.
fn write_hook(out: &mut impl io::Write, h: &HookState) -> io::Result<()> {
    let at = hook_at(h);
    let mut reasons: Vec<&Reason> = h.reasons.iter().collect();
    reasons.sort_by_key(|r| !r.stops_it());
    let verdict = if h.runs() { "runs" } else { "does not run" };
    if reasons.is_empty() {
        return writeln!(out, "hook {at}: runs");
    }
    for (i, reason) in reasons.iter().enumerate() {
        let lead = if i == 0 {
            format!("hook {at}: {verdict}")
        } else {
            "  and".to_string()
        };
        let (why, fix) = (one_line(&reason.why()), one_line(&reason.fix_text()));
        writeln!(out, "{lead}: {why}; {fix}")?;
    }
    Ok(())
}

/// The last line: how many hooks run of how many, and the other problems.
fn summary(found: &Found) -> String {
    let total = found.hooks.len();
    if total == 0 {
        let other = match found.other_problems() {
            0 => String::new(),
            n => format!("; {n} other problem{} above", plural(n)),
        };
        return format!(
            "status: no hooks configured (`.agents/hooks.json` in the project or the home directory); `agenthooks add --list` or `agenthooks new` starts one{other}"
        );
    }
    let stopped = found.not_running();
    let other = match found.other_problems() {
        0 => String::new(),
        n => format!(", and {n} other problem{} above", plural(n)),
    };
    if stopped == 0 && other.is_empty() {
        return format!("status: every configured hook runs ({total})");
    }
    format!(
        "status: {stopped} of {total} configured hook{} not running{other}",
        plural(total)
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_on_path_is_noted_and_the_native_binary_is_not() {
        let path = std::path::Path::new("/p/bin/agenthooks");
        let note = script_note(path, b"#!/usr/bin/env node\nrequire('x')").unwrap();
        assert!(note.contains("npm's node launcher"), "{note}");
        assert!(note.contains("npm rebuild -g agenthooks"), "{note}");
        let note = script_note(path, b"#!/bin/sh\nexec x").unwrap();
        assert!(note.contains("is a script"), "{note}");
        assert_eq!(script_note(path, b"\x7fELF\x02\x01"), None);
        assert_eq!(script_note(path, b"MZ\x90\x00"), None);
    }
}
