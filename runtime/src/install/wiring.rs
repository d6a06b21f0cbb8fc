//! Which of an agent's events `install` registers, and noticing when the
//! registration fell behind `hooks.json` ([`drift`]).
//!
//! Every registered event costs the agent a process each time it fires, and
//! on some events a hook's mere presence changes the agent (Claude Code runs
//! a WorktreeCreate hook instead of `git worktree add`:
//! [`EventRow::changes_agent`]). So `install` registers the events some
//! scope's hooks can select, plus the agent's session start
//! ([`Table::session_start`]) for agenthooks' own work there; never an event
//! that changes the agent unless a hook handles it. When that cannot be told
//! (a `hooks.json` that does not load; a system-wide entry, which runs every
//! user's and project's hooks), it registers every event that is safe to.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use super::coverage::{self, Coverage, Found};
use super::detect::file_is_ours;
use super::{json, targets, Env};
use crate::agents::{Agent, EventRow, Registration, Table};
use crate::config::{Config, Scope};
use crate::fsread::{self, caps};
use crate::protocol::EventName;

/// The canonical events the hooks can select: what `install` wires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Used {
    /// Exactly these events have hooks in some scope.
    Events(BTreeSet<EventName>),
    /// Cannot tell: every event that is safe to register.
    Unknown,
}

impl Used {
    /// The events of `config`'s hooks (managed, user and project, loaded as
    /// `run` loads them); [`Used::Unknown`] when a file did not load, whose
    /// hooks (an `onConfigError: deny` policy among them) still need their
    /// events to reach agenthooks.
    pub fn of(config: &Config) -> Used {
        if !config.broken.is_empty() {
            return Used::Unknown;
        }
        Used::Events(config.handlers.iter().map(|h| h.event).collect())
    }

    fn selects(&self, row: &EventRow) -> bool {
        match self {
            Used::Events(events) => events.contains(&row.canonical),
            Used::Unknown => !row.changes_agent,
        }
    }
}

/// The rows of `table` that `install` registers for `used`, in table order.
pub fn rows(table: &Table, used: &Used) -> Vec<&'static EventRow> {
    let start = table.session_start();
    table
        .installed()
        .filter(|row| used.selects(row) || start.is_some_and(|s| std::ptr::eq(s, *row)))
        .collect()
}

/// What the hooks select that an agent with agenthooks installed is not
/// wired for, or wired for through the wrong binary: what `check`,
/// `status` and `run` at a session's start report.
#[derive(Clone)]
pub struct Drift {
    /// The agent.
    pub agent: &'static dyn Agent,
    /// What the entries do not call: canonical events (`Stop`), or a tool
    /// of one (`PreToolUse for Read`), in [`EventName`] order.
    pub missing: Vec<String>,
    /// Tools called through the other binary than their hooks need
    /// (`PreToolUse for Bash through agenthooks, not agenthooks-engine`):
    /// they run, more slowly.
    pub binary: Vec<String>,
    /// The narrowest scope the agent has agenthooks' entries at (the one
    /// `install` must be run again for).
    pub scope: Scope,
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// Items named before "and N more": the line stays short.
        const SHOWN: usize = 4;
        let list = |items: &[String]| {
            let names: Vec<&str> = items.iter().take(SHOWN).map(String::as_str).collect();
            let more = items.len().saturating_sub(SHOWN);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            format!("{}{more}", names.join(", "))
        };
        let flag = match self.scope {
            Scope::Project => "",
            Scope::User => " --user",
            Scope::Managed => " --system",
        };
        let name = self.agent.display_name();
        let mut said = Vec::new();
        if !self.missing.is_empty() {
            said.push(format!(
                "hooks.json has hooks for {} that {name}'s agenthooks entries do not call, so they do not run there",
                list(&self.missing)
            ));
        }
        if !self.binary.is_empty() {
            said.push(format!(
                "{name}'s agenthooks entries call {} (they run, more slowly)",
                list(&self.binary)
            ));
        }
        write!(
            f,
            "{}: run `agenthooks install {}{flag}`",
            said.join("; "),
            self.agent.id()
        )
    }
}

/// What `config`'s hooks select that `agent` is not wired for at any scope
/// where agenthooks is installed for it (project at `project_root`, user,
/// system-wide): events, and for the agents whose entries `install`
/// narrows by tool ([`Coverage`]), tools, and tools wired to the wrong
/// binary. `None` when there is nothing, when agenthooks is installed for
/// the agent nowhere, or when a `hooks.json` did not load. Reads at most
/// the agent's three native files, bounded.
pub fn drift(
    agent: &'static dyn Agent,
    config: &Config,
    project_root: Option<&Path>,
    env: &Env,
) -> Option<Drift> {
    let Used::Events(events) = Used::of(config) else {
        return None;
    };
    let table = agent.table();
    // The rows the hooks need and the agent can fire (a decode-only event
    // never reaches agenthooks: `check` says so on its own).
    let needed: Vec<&EventRow> = events
        .iter()
        .filter_map(|e| table.by_canonical(*e))
        .filter(|row| row.install)
        .collect();
    if needed.is_empty() {
        return None;
    }
    let mut found: Vec<Found> = Vec::new();
    let mut narrowest = None;
    for scope in [Scope::Managed, Scope::User, Scope::Project] {
        let root = match (scope, project_root) {
            (Scope::Project, None) => continue,
            (Scope::Project, Some(root)) => root,
            _ => Path::new(""),
        };
        if let Some(natives) = wired_at(agent, scope, root, env) {
            let mut here = coverage::found(agent, scope, root, env);
            // Scripts, plugins and text files: one catch-all per event.
            for native in natives {
                if !here.iter().any(|f| f.native == native) {
                    here.push(Found {
                        native: native.to_string(),
                        engine: false,
                        user: scope == Scope::User,
                        tools: None,
                    });
                }
            }
            found.extend(here);
            narrowest = Some(scope);
        }
    }
    let scope = narrowest?;
    let mut drift = Drift {
        agent,
        missing: Vec::new(),
        binary: Vec::new(),
        scope,
    };
    let coverage = Coverage::of(config, Scope::Project);
    for row in needed {
        let here: Vec<&Found> = found.iter().filter(|f| f.native == row.native).collect();
        if here.is_empty() {
            drift.missing.push(row.canonical.as_str().to_string());
            continue;
        }
        if let Some(c) = &coverage {
            c.tool_drift(row.canonical, &here, &mut drift.missing, &mut drift.binary);
        }
    }
    (!drift.missing.is_empty() || !drift.binary.is_empty()).then_some(drift)
}

/// The native events agenthooks' entries for `agent` cover at `scope`;
/// `None` when it has none there (or the file cannot be read).
fn wired_at(
    agent: &dyn Agent,
    scope: Scope,
    project_root: &Path,
    env: &Env,
) -> Option<Vec<&'static str>> {
    let spec = agent.install_spec();
    if scope == Scope::Project && spec.project == crate::agents::USER_ONLY {
        return None;
    }
    let path = targets::path(spec, scope, project_root, env)?;
    let table = agent.table();
    let natives: Vec<&'static str> = match &spec.registration {
        Registration::Json(j) => {
            let bytes = fsread::read_bounded(&path, caps::HOOKS_JSON).ok()?;
            let doc = json::parse(&path, &bytes, j.jsonc).ok()?;
            let keys = json::ours_keys(&doc.root, j.shape, agent.id());
            table
                .installed()
                .filter(|row| keys.iter().any(|k| k == row.native))
                .map(|row| row.native)
                .collect()
        }
        Registration::Scripts(_) => table
            .installed()
            .filter(|row| file_is_ours(&path.join(row.native), agent.id()))
            .map(|row| row.native)
            .collect(),
        // The plugin names each event it serves as a JS string.
        Registration::Plugin(_) => {
            let bytes = fsread::read_bounded(&path, caps::SCRIPT).ok()?;
            let text = String::from_utf8_lossy(&bytes);
            if !text.lines().any(|l| json::is_ours(l, agent.id())) {
                return None;
            }
            table
                .installed()
                .filter(|row| {
                    serde_json::to_string(row.native).is_ok_and(|name| text.contains(&name))
                })
                .map(|row| row.native)
                .collect()
        }
        Registration::Toml(_) | Registration::Yaml(_) => {
            let events = super::detect::installed_events(agent, scope, project_root, env);
            table
                .installed()
                .filter(|row| events.iter().any(|e| e == row.native))
                .map(|row| row.native)
                .collect()
        }
    };
    (!natives.is_empty()).then_some(natives)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents;

    fn natives(id: &str, used: &Used) -> Vec<&'static str> {
        rows(agents::find(id).unwrap().table(), used)
            .iter()
            .map(|r| r.native)
            .collect()
    }

    #[test]
    fn only_the_events_hooks_use_and_the_session_start_are_registered() {
        let used = Used::Events([EventName::PreToolUse].into());
        assert_eq!(natives("claude", &used), ["SessionStart", "PreToolUse"]);
        assert_eq!(natives("gemini", &used), ["SessionStart", "BeforeTool"]);
        let none = Used::Events(BTreeSet::new());
        assert_eq!(natives("claude", &none), ["SessionStart"]);
    }

    #[test]
    fn an_event_that_changes_the_agent_only_when_a_hook_handles_it() {
        let all = natives("claude", &Used::Unknown);
        assert!(
            all.contains(&"PreToolUse") && all.contains(&"Stop"),
            "{all:?}"
        );
        assert!(!all.contains(&"WorktreeCreate") && !all.contains(&"WorktreeRemove"));
        let used = Used::Events([EventName::WorktreeCreate].into());
        assert_eq!(natives("claude", &used), ["SessionStart", "WorktreeCreate"]);
    }

    #[test]
    fn every_agent_keeps_a_session_start_that_changes_nothing() {
        for agent in agents::AGENTS {
            let table = agent.table();
            if table.installed().next().is_none() {
                continue;
            }
            let start = table
                .session_start()
                .unwrap_or_else(|| panic!("{}", agent.id()));
            assert!(!start.changes_agent, "{}", agent.id());
            let none = rows(table, &Used::Events(BTreeSet::new()));
            assert_eq!(none.len(), 1, "{}", agent.id());
        }
    }

    #[test]
    fn the_drift_line_is_one_bounded_line_naming_the_install() {
        let claude = agents::find("claude").unwrap();
        let drift = Drift {
            agent: claude,
            missing: EventName::ALL
                .iter()
                .map(|e| e.as_str().to_string())
                .collect(),
            binary: vec!["PreToolUse for Bash through agenthooks, not agenthooks-engine".into()],
            scope: Scope::User,
        };
        let line = drift.to_string();
        assert!(!line.contains('\n') && line.len() < 400, "{line}");
        assert!(
            line.ends_with("run `agenthooks install claude --user`"),
            "{line}"
        );
        assert!(line.contains("more"), "{line}");
    }
}
