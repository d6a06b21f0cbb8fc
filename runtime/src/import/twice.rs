//! Never twice: hooks that both an agent's native file and
//! `.agents/hooks.json` run, so that the agent would run them once natively
//! and once through agenthooks' entry.
//!
//! [`doubles`] is the one detection (`install` and `check` print its lines;
//! a future `status` can too); [`drop_doubles`] is what `run` does with it
//! for one event: the copy in `.agents/hooks.json` steps aside, with a note.
//!
//! And one event reaching several of agenthooks' own entries: VS Code's
//! Local harness runs its own, Copilot CLI's and Claude Code's
//! ([`crate::agents::Visits`]), each with the same payload; only the first
//! installed of those runs the event's hooks ([`entry_steps_aside`]).

use std::path::{Path, PathBuf};

use super::plan::shorten;
use super::{native_files, normalise, show};
use crate::agents::Agent;
use crate::config::{Config, Handler, HandlerKind, Scope};
use crate::install::{installed_events, Env};
use crate::protocol::{one_line, Event, EventName, Note, NoteKind};
use crate::select::Matcher;

/// One hook run twice.
#[derive(Clone)]
pub struct Double {
    /// The agent that runs both.
    pub agent: &'static dyn Agent,
    /// Its native file holding the hook.
    pub native: PathBuf,
    /// That file's scope ([`Scope::Managed`]: the machine's).
    pub scope: Scope,
    /// The `.agents/hooks.json` holding it too.
    pub hooks_file: PathBuf,
    /// The canonical event.
    pub event: EventName,
    /// The command as the native file has it.
    pub command: String,
}

impl Double {
    /// The one line `install` and `check` print, paths shown relative to
    /// `root` or `home`.
    pub fn line(&self, root: &Path, home: &Path) -> String {
        format!(
            "`{}` and `{}` both run `{}` on {}: {} runs it twice; {}",
            show(&self.native, root, home),
            show(&self.hooks_file, root, home),
            one_line(&shorten(&self.command)),
            self.event.as_str(),
            self.agent.display_name(),
            keep_one(self.agent, self.scope),
        )
    }
}

/// `import`'s scope flag for a native file of `scope`; `None` for the
/// machine's files, which `import` does not edit (an administrator's).
pub fn import_flag(scope: Scope) -> Option<&'static str> {
    match scope {
        Scope::Project => Some(""),
        Scope::User => Some(" --user"),
        Scope::Managed => None,
    }
}

/// How to run a hook that `agent`'s native file of `scope` runs too only
/// once, as a clause.
pub fn keep_one(agent: &dyn Agent, scope: Scope) -> String {
    match import_flag(scope) {
        Some(flag) => format!(
            "`agenthooks import {}{flag} --move` keeps the one in .agents/hooks.json",
            agent.id()
        ),
        None => {
            "the machine's file runs it for every project, so remove it from .agents/hooks.json"
                .to_string()
        }
    }
}

/// Every hook of `config` (command hooks) that one of `agents`' native files
/// (project and user) also runs for the same event, by [`normalise`]d
/// command. Unreadable native files are left out (`install` and `check`
/// say so elsewhere).
pub fn doubles(
    agents: &[&'static dyn Agent],
    config: &Config,
    root: &Path,
    env: &Env,
) -> Vec<Double> {
    let project = config.project_root.as_deref().or(Some(root));
    let mut out = Vec::new();
    for agent in agents {
        for scope in [Scope::Project, Scope::User, Scope::Managed] {
            for file in native_files(*agent, scope, root, env).0 {
                for hook in &file.hooks {
                    let (Ok(imported), Some(command)) = (&hook.import, &hook.command) else {
                        continue;
                    };
                    let native = normalise(Some(*agent), command, project);
                    let twin = config.handlers.iter().find(|h| {
                        h.event == imported.event
                            && command_of(h).is_some_and(|c| normalise(None, c, project) == native)
                    });
                    if let Some(twin) = twin {
                        out.push(Double {
                            agent: *agent,
                            native: file.path.clone(),
                            scope,
                            hooks_file: twin.file.clone(),
                            event: imported.event,
                            command: command.clone(),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The command a command hook runs (`None` for other handler types).
pub fn command_of(h: &Handler) -> Option<&str> {
    match &h.kind {
        HandlerKind::Command(spec) => Some(&spec.command),
        _ => None,
    }
}

/// For an event another agent sent through `agent`'s entry (VS Code's
/// through Claude's or Copilot's, [`crate::agents::Visits`]): when an entry
/// that agent prefers is installed for this event, at the project's `root`
/// or (with `env`) for the user, that entry runs the event, so this one
/// takes every selected hook out of `selected` and says so in one note.
///
/// Cheap: nothing is read unless the event came from another agent and a
/// hook is selected; then at most the preferred entries' few small files.
pub fn entry_steps_aside(
    agent: &'static dyn Agent,
    event: &Event,
    selected: &mut Vec<&Handler>,
    root: Option<&Path>,
    env: Option<&Env>,
) -> Option<Note> {
    if event.harness() == agent.id() || selected.is_empty() {
        return None;
    }
    let guest = crate::agents::find(event.harness())?;
    // Installed with an entry the guest calls for this event: VS Code does
    // not call Copilot's `userPromptSubmitted`, so Claude's entry keeps it.
    let no_home = Env::with_home("");
    let calls_here = |a: &dyn Agent, scope: Scope, base: &Path, env: &Env| {
        installed_events(a, scope, base, env)
            .iter()
            .any(|native| crate::agents::calls_entry_for(guest, native, event.name()))
    };
    let installed = |a: &dyn Agent| {
        root.is_some_and(|r| calls_here(a, Scope::Project, r, env.unwrap_or(&no_home)))
            || env.is_some_and(|e| calls_here(a, Scope::User, Path::new(""), e))
    };
    let runner = crate::agents::preferred_entry(guest, agent, installed)?;
    selected.clear();
    Some(Note::runtime(
        NoteKind::Double,
        format!(
            "{} runs this event through the {} entry of agenthooks as well; the {} entry steps aside, so each hook runs once",
            guest.display_name(),
            runner.display_name(),
            agent.display_name()
        ),
    ))
}

/// For the event head: takes out of `selected` (the handlers selected for
/// `event`) the command hooks that `agent`'s own native files (the
/// project's at `root`, and with `env` the user's) run for this event
/// already, returning one note per hook taken out. First, an event another agent sent through `agent`'s entry
/// that an entry it prefers runs ([`entry_steps_aside`]) loses all its hooks
/// here, with that one note.
///
/// Cheap: nothing is read unless a command hook is selected; then at most
/// the agent's few native files, each bounded.
pub fn drop_doubles(
    agent: &'static dyn Agent,
    event: &Event,
    selected: &mut Vec<&Handler>,
    root: Option<&Path>,
    env: Option<&Env>,
) -> Vec<Note> {
    if let Some(note) = entry_steps_aside(agent, event, selected, root, env) {
        return vec![note];
    }
    if !selected.iter().any(|h| command_of(h).is_some()) {
        return Vec::new();
    }
    let target = event.matcher_target();
    let mut native: Vec<(String, PathBuf, Scope)> = Vec::new();
    let no_home = Env::with_home("");
    let places = [
        root.map(|r| (Scope::Project, r, env.unwrap_or(&no_home))),
        env.map(|e| (Scope::User, Path::new(""), e)),
        env.map(|e| (Scope::Managed, Path::new(""), e)),
    ];
    for (scope, base, env) in places.into_iter().flatten() {
        for file in native_files(agent, scope, base, env).0 {
            for hook in &file.hooks {
                let (Ok(imported), Some(command)) = (&hook.import, &hook.command) else {
                    continue;
                };
                let runs_here = imported.event == event.name()
                    && (!event.name().is_tool_event()
                        || Matcher::parse(imported.matcher.as_deref())
                            .is_ok_and(|m| m.matches(target)));
                if runs_here {
                    native.push((
                        normalise(Some(agent), command, root),
                        file.path.clone(),
                        scope,
                    ));
                }
            }
        }
    }
    let mut notes = Vec::new();
    selected.retain(|h| {
        let Some(c) = command_of(h) else {
            return true;
        };
        let c = normalise(None, c, root);
        let Some((_, file, scope)) = native.iter().find(|(n, _, _)| *n == c) else {
            return true;
        };
        notes.push(Note::runtime(
            NoteKind::Double,
            format!(
                "{} skipped: {} runs the same command from `{}` for this event; {}",
                h.label,
                agent.display_name(),
                file.display(),
                keep_one(agent, *scope)
            ),
        ));
        false
    });
    notes
}
