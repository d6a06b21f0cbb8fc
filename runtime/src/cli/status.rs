//! `agenthooks status [--json]`: the state of this machine for the project
//! in the working directory. Which agents have agenthooks' entries, at which
//! scope and for which events; every configured hook (managed, user,
//! project), whether it runs now and, if not, why and the one command that
//! fixes it ([`crate::cli::findings`]).
//!
//! Exit 1 when a configured hook would not run, a hooks.json cannot be used
//! or an agent's entries cannot reach agenthooks; 0 otherwise, so CI can
//! gate on it. `check` stays the linter; this is what runs here, now.

use std::io::{self, Write as _};
use std::process::ExitCode;

use anyhow::Context as _;
use serde_json::{json, Value};

use super::{EXIT_FINDING, EXIT_OK};
use crate::cli::findings::{self as status, AgentState, HookState, Reason};
use crate::config::{self, LoadOptions};
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
}

/// What `status` found.
pub struct Found {
    /// The agents with entries of ours.
    pub agents: Vec<AgentState>,
    /// Every configured hook.
    pub hooks: Vec<HookState>,
    /// Files that cannot be used (their hooks do not run), store trouble.
    pub errors: Vec<String>,
    /// What slows every event without stopping a hook (not a finding).
    pub notes: Vec<String>,
}

impl Found {
    /// Whether everything configured runs (exit 0).
    pub fn green(&self) -> bool {
        self.errors.is_empty()
            && self.agents.iter().all(|a| a.reasons.is_empty())
            && self
                .hooks
                .iter()
                .all(|h| h.reasons.iter().all(|r| !r.stops_it()))
    }
}

/// Run `status` in the working directory.
///
/// # Errors
/// No working directory or home, or a closed stdout.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let env = Env::from_process()?;
    let root = install::project_root(&cwd);
    let config = config::load(&LoadOptions {
        home: Some(env.home.clone()),
        project_root: Some(root.clone()),
    });
    let (store, store_note) = TrustStore::load();
    let mut hooks = status::hooks(&config, &store, WasmHost::global());
    status::mark_doubles(&mut hooks, &config, &root, &env);
    let found = Found {
        agents: status::agents(&root, &env, &config),
        hooks,
        errors: config
            .broken
            .iter()
            .map(ToString::to_string)
            .chain(store_note.map(|n| n.to_string()))
            .collect(),
        notes: launcher_note().into_iter().collect(),
    };
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", to_json(&found))?;
    } else {
        write_text(&mut out, &found)?;
    }
    Ok(ExitCode::from(if found.green() {
        EXIT_OK
    } else {
        EXIT_FINDING
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
    json!({"code": reason.code(), "why": one_line(&reason.why()), "fix": reason.fix()})
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

/// `status --json`: `{agents, hooks, hooks_not_listed, errors, ok}`.
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
            let handler = &h.handler;
            json!({
                "label": handler.label,
                "scope": handler.scope.as_str(),
                "file": handler.file,
                "event": handler.event.as_str(),
                "matcher": handler.matcher.to_string(),
                "type": crate::exec::kind_name(&handler.kind),
                "runs": h.reasons.iter().all(|r| !r.stops_it()),
                "findings": h.reasons.iter().map(reason_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "agents": agents,
        "hooks": hooks,
        "hooks_not_listed": found.hooks.len().saturating_sub(MAX_LISTED),
        "errors": found.errors.iter().map(|e| one_line(e)).collect::<Vec<_>>(),
        "notes": found.notes.iter().map(|e| one_line(e)).collect::<Vec<_>>(),
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

/// The text report: agents, then hooks, then a summary line.
///
/// # Errors
/// When `out` cannot be written.
pub fn write_text(out: &mut impl io::Write, found: &Found) -> io::Result<()> {
    for error in &found.errors {
        writeln!(out, "error: {}", one_line(error))?;
    }
    for note in &found.notes {
        writeln!(out, "note: {}", one_line(note))?;
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
                reason.fix_text()
            )?;
        }
    }
    if found.hooks.is_empty() {
        writeln!(out, "hooks: none configured")?;
    }
    for h in found.hooks.iter().take(MAX_LISTED) {
        let handler = &h.handler;
        let at = format!(
            "{} `{}`: {} {} {}",
            handler.scope,
            handler.file.display(),
            handler.event.as_str(),
            handler.matcher,
            handler.label
        );
        if h.reasons.is_empty() {
            writeln!(out, "hook {}: runs", one_line(&at))?;
        }
        for reason in &h.reasons {
            let verdict = if reason.stops_it() {
                "does not run"
            } else {
                "runs"
            };
            writeln!(
                out,
                "hook {}: {verdict}: {}; {}",
                one_line(&at),
                one_line(&reason.why()),
                reason.fix_text()
            )?;
        }
    }
    if found.hooks.len() > MAX_LISTED {
        writeln!(
            out,
            "hooks: {} more not listed (`status --json` counts them)",
            found.hooks.len() - MAX_LISTED
        )?;
    }
    let stopped = found
        .hooks
        .iter()
        .filter(|h| h.reasons.iter().any(Reason::stops_it))
        .count();
    let total = found.hooks.len();
    if found.green() {
        writeln!(out, "status: every configured hook runs ({total})")?;
    } else {
        writeln!(
            out,
            "status: {stopped} of {total} configured hook{} not running{}",
            if total == 1 { "" } else { "s" },
            if found.errors.is_empty() && found.agents.iter().all(|a| a.reasons.is_empty()) {
                ""
            } else {
                ", and problems above"
            }
        )?;
    }
    Ok(())
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
