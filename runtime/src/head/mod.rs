//! The event head: the one way an event enters the pipeline, whoever brings
//! it: `run` in both binaries, `fire`, and [`Runtime::dispatch_native`]
//! (`crate::Runtime`).
//!
//! It decodes with the agent's deadline, then runs the agents' run policies
//! as named steps, always in this order:
//!
//! 1. **step aside** ([`Head::step_aside`]): another entry answers this
//!    event (the agent's system-wide entry, or the host agent's own entry
//!    when the host runs this agent's file too, as Copilot CLI runs
//!    Claude's);
//! 2. **arrival** ([`Head::hands_off_arrival`]): a session's arrival warms
//!    the compile cache, so a process that cannot do that hands it off;
//! 3. **drift** ([`Head::drift`]): at a session's start, hooks the agent's
//!    entries no longer call;
//! 4. **one select, never twice** ([`Head::select`]): the handlers for the
//!    event, less those the agent's own native files run already;
//! 5. **hand-off**: a selected kind this process does not carry.
//!
//! Then the pipeline (gate, execute, aggregate), and [`Head::answer`]: the
//! session's arrival, what is said once per session (a `hooks.json` that
//! does not load, a hook that failed and allowed: [`said`]), and the
//! agent's encoding. `fire` differs from `run` only in where the answer is
//! printed (and in writing no audit record for a made-up event).

pub(crate) mod arrival;
pub(crate) mod said;

pub(crate) use arrival::{Arrival, Arrived};

use std::path::{Path, PathBuf};

use crate::agents::deadline::{self, EventDeadline};
use crate::agents::{self, Agent, Native};
use crate::config::{self, Config, Handler, LoadOptions, Scope};
use crate::exec::{ExecContext, Executors};
use crate::install;
use crate::pipeline::{self, Dispatched, Tail};
use crate::protocol::{Event, Note, NoteKind, Source};
use crate::select::select;
use crate::telemetry::{self, spool::SpanRecord, EventTrace};

/// How an event entered: the agent and the entry's flags.
#[derive(Clone)]
pub(crate) struct Entry {
    /// The agent whose entry was called.
    pub agent: &'static dyn Agent,
    /// Called from the agent's system-wide file (`run --system`).
    pub system: bool,
    /// Called from the agent's user file (`run --user`).
    pub user: bool,
    /// Dispatched by a program embedding the library, from no agent's
    /// file: no user entry answers in its place.
    pub embedded: bool,
    /// The tools the entry answers for (`run --tools`); `None`: every tool.
    pub tools: Option<crate::config::Matcher>,
    /// Per-hook outcome lines among the notes (`run --verbose`).
    pub verbose: bool,
}

/// What a process running events carries: the handler kinds it runs and
/// what a session's arrival does there. The engine carries everything; the
/// small `agenthooks` binary only command hooks, and hands any other event
/// to the engine.
#[derive(Clone, Copy)]
pub(crate) struct Carried {
    /// The handler kinds run here.
    pub executors: Executors,
    /// What a session's arrival does here; `None`: such an event is handed off.
    pub arrival: Option<&'static dyn Arrival>,
}

/// Where an event went.
pub(crate) enum Passage {
    /// Answered here.
    Answered(Box<Answered>),
    /// The event needs what this process does not carry: nothing ran and
    /// nothing was recorded. The decoded event, to answer with if the
    /// process that does cannot start.
    HandOff(Box<Event>),
}

/// An answered event: the native answer and what led to it.
pub(crate) struct Answered {
    /// The event, as decoded.
    pub event: Event,
    /// The project root found from its `cwd`.
    pub root: Option<PathBuf>,
    /// The pipeline's result (empty when an entry stepped aside).
    pub done: Dispatched,
    /// The agent's native answer, with the notes.
    pub native: Native,
    /// The lines said once per session at this event (also inside `native`):
    /// `fire` marks them as such.
    pub once: Vec<String>,
    /// Why this entry stepped aside, when it did (another entry answers).
    pub aside: Option<String>,
    /// The event's spans, when telemetry is on: `run` spools them after
    /// the answer is written.
    pub spans: Vec<SpanRecord>,
}

/// An event on its way through the head.
pub(crate) struct Head {
    entry: Entry,
    event: Event,
    deadline: EventDeadline,
    root: Option<PathBuf>,
    /// The machine's homes, built once per event (`None`: no home).
    env: Option<install::Env>,
    notes: Vec<Note>,
    stale_wiring: Option<String>,
    /// When the event came in (its span's start).
    started: std::time::SystemTime,
    /// Its trace, when telemetry is on ([`Head::trace`]).
    trace: Option<EventTrace>,
}

impl Head {
    /// Decode `input` with the entry's agent (`event_name` for agents whose
    /// payload does not name the event), carrying the agent's deadline, and
    /// fill what the agent leaves out (`session_id`, `tool_use_id`).
    ///
    /// # Errors
    /// A payload the agent's adapter cannot decode.
    pub fn decode(
        entry: Entry,
        input: serde_json::Value,
        event_name: Option<&str>,
    ) -> anyhow::Result<Head> {
        use anyhow::Context as _;
        let decoded = deadline::decode(entry.agent, input, event_name)
            .context("the hook input cannot be read")?;
        Ok(Head::decoded(entry, decoded.event, decoded.deadline))
    }

    /// A head for an event decoded already (`fire`'s made-up events).
    pub fn decoded(entry: Entry, mut event: Event, deadline: EventDeadline) -> Head {
        agents::derived::fill(&mut event, &agents::derived::origin());
        let mut notes = Vec::new();
        notes.extend(cwd_problem(&event).map(|problem| {
            Note::runtime(
                NoteKind::Input,
                format!("{problem}: no project hooks can be found from it; check the agent's working directory"),
            )
        }));
        let root = config::project_root(event.cwd().as_deref());
        Head {
            entry,
            event,
            deadline,
            root,
            env: install::Env::from_process().ok(),
            notes,
            stale_wiring: None,
            started: std::time::SystemTime::now(),
            trace: None,
        }
    }

    /// This head with the project at `root` when given (a library
    /// [`Runtime`](crate::Runtime) fixed to one project), whatever the
    /// event's `cwd` says.
    pub fn with_root(mut self, root: Option<PathBuf>) -> Head {
        if root.is_some() {
            self.root = root;
        }
        self
    }

    /// The decoded event.
    pub fn event(&self) -> &Event {
        &self.event
    }

    /// The project root found from the event's `cwd`.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// The machine's homes, or an empty one where there is no home (a
    /// system file is still found).
    fn env_or_empty(&self) -> install::Env {
        self.env
            .clone()
            .unwrap_or_else(|| install::Env::with_home(""))
    }

    /// Step 1: why this entry steps aside, when another entry answers this
    /// event (this one then says nothing, so no hook runs twice).
    pub fn step_aside(&mut self) -> Option<String> {
        let agent = self.entry.agent;
        let why = if !self.entry.system && system_entry_installed(agent, &self.env_or_empty()) {
            format!(
                "{}'s system-wide file has the agenthooks entry, which runs this event; this entry steps aside",
                agent.display_name()
            )
        } else if let Some(why) = self.outside_own_tools() {
            why
        } else if let Some(why) = self.user_entry_covers() {
            why
        } else {
            let cwd = self.event.cwd();
            let at = self.root.as_deref().or(cwd.as_deref());
            let host = running_its_own_entry(agent, at, self.env.as_ref())?;
            format!(
                "{} runs this event through its own agenthooks entry; the {} entry steps aside",
                host.display_name(),
                agent.display_name()
            )
        };
        if self.entry.verbose {
            self.notes
                .push(Note::runtime(NoteKind::Verbose, why.clone()));
        }
        Some(why)
    }

    /// A narrowed entry called for a tool it does not answer for: by a host
    /// that does not honour native matchers (VS Code's Local harness runs
    /// every entry of an event), while the entry that covers the tool runs.
    fn outside_own_tools(&self) -> Option<String> {
        let tools = self.entry.tools.as_ref()?;
        if !self.event.name().is_tool_event() {
            return None;
        }
        let tool = self.event.tool_name()?;
        (!tools.matches(Some(tool))).then(|| {
            format!(
                "this {} entry answers for `{tools}` only; the entry that covers `{}` runs it",
                self.entry.agent.display_name(),
                crate::protocol::one_line(tool)
            )
        })
    }

    /// A project's entry, where the user's file has an entry of agenthooks
    /// (written with `--user`) that covers this event's tool: the agent runs
    /// both, and the user's runs every scope's hooks. The user's file is the
    /// one the agent always reads (a project's waits for the folder's
    /// trust in some), so it is the one that answers. Only for the agents
    /// whose entries `install` narrows by tool (`install::coverage`).
    fn user_entry_covers(&self) -> Option<String> {
        if self.entry.system || self.entry.user || self.entry.embedded {
            return None;
        }
        let agent = self.entry.agent;
        let narrows = agents::tool_names(agent.install_spec()) != agents::ToolNames::None;
        let env = self.env.as_ref()?;
        let row = agent.table().by_canonical(self.event.name())?;
        if !narrows {
            return None;
        }
        let tool = self
            .event
            .tool_name()
            .filter(|_| self.event.name().is_tool_event());
        let covered = install::coverage::found(agent, Scope::User, Path::new(""), env)
            .into_iter()
            .any(|f| f.user && f.native == row.native && f.covers(tool));
        covered.then(|| {
            format!(
                "the user's {} file has the agenthooks entry that runs this event (`fire --user` shows it); the project's entry steps aside",
                agent.display_name()
            )
        })
    }

    /// Step 2: whether this event must go to a process that can do a
    /// session's arrival (this one carries none, and the event may be one).
    pub fn hands_off_arrival(&self, carried: &Carried) -> bool {
        carried.arrival.is_none() && arrival::may_arrive(self.entry.agent, &self.event, None)
    }

    /// Load the configuration for the event's project.
    pub fn load(&self) -> Config {
        config::load(&LoadOptions {
            home: None,
            project_root: self.root.clone(),
        })
    }

    /// After loading: the event's trace, when telemetry is on for
    /// `config` (a few variable reads when it is off).
    pub fn trace(&mut self, config: &Config) {
        self.trace = telemetry::start(config, self.started);
    }

    /// Step 3: at a session's start (the one event `install` always
    /// registers), one note when `hooks.json` uses an event the agent's
    /// entries do not call ([`install::drift`]); said in the agent's window
    /// with the arrival message too.
    pub fn drift(&mut self, config: &Config) {
        let agent = self.entry.agent;
        let starts = agent
            .table()
            .session_start()
            .is_some_and(|row| row.canonical == self.event.name());
        if !starts {
            return;
        }
        let env = self.env_or_empty();
        let Some(drift) = install::drift(agent, config, self.root(), &env) else {
            return;
        };
        let line = drift.to_string();
        self.stale_wiring = Some(line.clone());
        self.notes
            .push(Note::new(Source::Config, NoteKind::Wiring, line));
    }

    /// Step 4: select the handlers for the event, once, less the command
    /// hooks the agent's own native files already run for it (never twice).
    pub fn select<'c>(&mut self, config: &'c Config) -> Vec<&'c Handler> {
        let mut selected = select(&config.handlers, &self.event);
        self.notes.extend(crate::import::twice::drop_doubles(
            self.entry.agent,
            &self.event,
            &mut selected,
            self.root.as_deref(),
            self.env.as_ref(),
        ));
        selected
    }

    /// The execution context for the selected handlers: the agent's
    /// deadline, the project, what this process carries; the budgets and
    /// model settings are `config`'s.
    pub fn context(&self, config: &Config, executors: Executors, per_hook: bool) -> ExecContext {
        ExecContext {
            project_root: self.root.clone(),
            verbose: self.entry.verbose || per_hook,
            agent_deadline: Some(self.deadline),
            budgets: config.budgets,
            llm: config.llm.clone(),
            trace: self.trace.as_ref().map(|t| t.span.clone()),
            ..ExecContext::carrying(executors)
        }
    }

    /// The end of the head: the pipeline's tail (config notes, audit), the
    /// session's arrival where this process does it, what is said once per
    /// session, and the agent's encoding.
    pub fn answer(
        mut self,
        config: &Config,
        done: Dispatched,
        audit: bool,
        arrival: Option<&dyn Arrival>,
    ) -> Answered {
        let tail = Tail {
            config,
            root: self.root.as_deref(),
            verbose: self.entry.verbose,
            audit,
        };
        let mut done = pipeline::finish(&self.event, &tail, done);
        let mut notes = std::mem::take(&mut self.notes);
        notes.append(&mut done.notes);
        let spans = match &self.trace {
            Some(trace) => {
                let spool = telemetry::spool::Spool::open();
                notes.extend(
                    spool
                        .as_ref()
                        .and_then(|s| telemetry::trouble(&self.event, s)),
                );
                let log = tail.audit_log();
                telemetry::spans(
                    trace,
                    &self.event,
                    &done.reports,
                    &done.answer,
                    log.as_ref(),
                )
            }
            None => Vec::new(),
        };
        let mut once = Vec::new();
        if let Some(arrival) = arrival {
            let arrived = Arrived {
                agent: self.entry.agent,
                event: &self.event,
                config,
                stale_wiring: self.stale_wiring.take(),
            };
            once.extend(arrival.arrive(&arrived, &mut done.answer, &mut notes));
        }
        let place = said::Place {
            agent: self.entry.agent,
            event: &self.event,
            root: self.root.as_deref(),
            dir: None,
        };
        once.extend(said::once_per_session(
            &place,
            config,
            &done.failed_open,
            &mut done.answer,
            &mut notes,
        ));
        let native = self
            .entry
            .agent
            .encode(&self.event, &done.answer)
            .with_notes(notes.iter().cloned());
        done.notes = notes;
        Answered {
            event: self.event,
            root: self.root,
            done,
            native,
            once,
            aside: None,
            spans,
        }
    }

    /// The agent's "no opinion", nothing run: this entry stepped aside.
    pub fn aside(mut self, why: String) -> Answered {
        let notes = std::mem::take(&mut self.notes);
        Answered {
            native: self
                .entry
                .agent
                .no_opinion(Vec::new())
                .with_notes(notes.iter().cloned()),
            done: Dispatched {
                notes,
                ..Dispatched::default()
            },
            event: self.event,
            root: self.root,
            once: Vec::new(),
            aside: Some(why),
            spans: Vec::new(),
        }
    }
}

/// How a synchronous caller (`run`, `fire`) wants its event handled.
pub(crate) struct Options {
    /// Each hook's details kept in its report (`fire` shows them), apart
    /// from the notes.
    pub per_hook: bool,
    /// Write the audit record.
    pub audit: bool,
}

/// Every step, in order, on a one-thread runtime started only when a
/// handler is selected: what `run` and `fire` do with a decoded event.
///
/// # Errors
/// When the async runtime cannot start.
pub(crate) fn enter(
    mut head: Head,
    carried: Carried,
    options: &Options,
) -> anyhow::Result<Passage> {
    if let Some(why) = head.step_aside() {
        return Ok(Passage::Answered(Box::new(head.aside(why))));
    }
    if head.hands_off_arrival(&carried) {
        return Ok(Passage::HandOff(Box::new(head.event)));
    }
    let config = head.load();
    head.trace(&config);
    head.drift(&config);
    let selected = head.select(&config);
    if !carried.executors.runs_all(&selected) {
        return Ok(Passage::HandOff(Box::new(head.event)));
    }
    let done = if selected.is_empty() && !config.fails_closed() {
        Dispatched::default()
    } else {
        let ctx = head.context(&config, carried.executors, options.per_hook);
        pipeline::block_on(pipeline::dispatch_selected(
            &head.event,
            &config,
            &selected,
            &ctx,
        ))?
    };
    Ok(Passage::Answered(Box::new(head.answer(
        &config,
        done,
        options.audit,
        carried.arrival,
    ))))
}

/// Whether `agent`'s system-wide hooks file (`install --system`) holds our
/// entry: the agent then runs it for every event, and it runs every scope's
/// hooks, so a user or project entry running them too would run each hook
/// twice. Costs one `stat` where the agent has no system file installed.
fn system_entry_installed(agent: &dyn Agent, env: &install::Env) -> bool {
    if agent.install_spec().system == crate::agents::SystemFile::NONE {
        return false;
    }
    install::is_installed(agent, Scope::Managed, Path::new(""), env)
}

/// The agent that is running `agent`'s entry as well as its own (see
/// [`agents::AlsoRuns`]: Copilot CLI runs Claude's), when its own agenthooks
/// entries are installed for the project at `root`, the user or the machine
/// (`install --system`). Without its own entry installed, `agent`'s entry is
/// the only one and runs as usual.
///
/// Cheap where it matters: outside such an agent (Claude Code itself) this is
/// one variable lookup; inside, it reads at most our three small files.
fn running_its_own_entry(
    agent: &dyn Agent,
    root: Option<&Path>,
    env: Option<&install::Env>,
) -> Option<&'static dyn Agent> {
    let host = agents::AGENTS.iter().copied().find(|host| {
        host.also_runs().is_some_and(|also| {
            also.agent == agent.id() && std::env::var_os(also.env).is_some_and(|v| !v.is_empty())
        })
    })?;
    let in_project = |env: &install::Env| {
        root.is_some_and(|r| install::is_installed(host, Scope::Project, r, env))
    };
    let installed = match env {
        Some(env) => {
            in_project(env)
                || install::is_installed(host, Scope::User, Path::new(""), env)
                || install::is_installed(host, Scope::Managed, Path::new(""), env)
        }
        // No home: only the project's entry can be found (the home is not
        // read at project scope).
        None => in_project(&install::Env::with_home("")),
    };
    installed.then_some(host)
}

/// What is wrong with the event's `cwd`, when it names no directory (the
/// start of a line: the caller says what it means there): the project, and
/// its hooks, is found from it, so a wrong one must not pass silently.
/// `None` for a directory or no `cwd` at all.
pub(crate) fn cwd_problem(event: &Event) -> Option<String> {
    let cwd = event.cwd()?;
    let what = match std::fs::metadata(&cwd) {
        Ok(meta) if meta.is_dir() => return None,
        Ok(_) => "is not a directory",
        Err(_) => "does not exist",
    };
    Some(format!(
        "the event's `cwd` `{}` {what}",
        crate::protocol::one_line(&cwd.to_string_lossy())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A head for a Claude Bash call entered as `entry` says, with the user's
    /// file at `home` holding a `--user` entry that covers Bash.
    fn aside(user: bool, embedded: bool, tools: Option<&str>) -> Option<String> {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::write(
            home.join(".claude/settings.json"),
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": "agenthooks run --agent claude --event PreToolUse --user --tools Bash"}]}]}}"#,
        )
        .unwrap();
        let claude = agents::find("claude").unwrap();
        let entry = Entry {
            agent: claude,
            system: false,
            user,
            embedded,
            tools: tools.map(crate::install::coverage::tools_matcher),
            verbose: false,
        };
        let payload = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
            "cwd": dir.path(), "tool_name": "Bash", "tool_input": {"command": "ls"}});
        let mut head = Head::decode(entry, payload, None).unwrap();
        head.env = Some(install::Env::with_home(&home).with_system_root(dir.path().join("system")));
        head.step_aside()
    }

    #[test]
    fn a_project_entry_steps_aside_for_a_user_entry_that_covers_the_tool() {
        let why = aside(false, false, None).expect("steps aside");
        assert!(why.contains("the user's Claude Code file"), "{why}");
        // The user's own entry runs it; so does a program embedding the
        // library, which no agent's file called.
        assert_eq!(aside(true, false, None), None);
        assert_eq!(aside(false, true, None), None);
    }

    #[test]
    fn an_entry_steps_aside_for_a_tool_outside_its_tools() {
        let why = aside(true, false, Some("Edit|Write")).expect("steps aside");
        assert!(why.contains("answers for `Edit|Write` only"), "{why}");
        assert_eq!(aside(true, false, Some("Bash")), None);
    }
}
