//! One module per agent: its name table, decode, encode, install spec and
//! capability row.
//!
//! Stage 1 (decode) and stage 6 (encode) of the pipeline, and what `install`
//! writes. Adding an agent means adding one module and one line in [`AGENTS`].
//! The files it touches (checked 2026-12-02 against the code: five, seven
//! with recorded payloads, besides its unit tests and fixtures):
//!
//! - `agents/<id>/mod.rs`: everything below, including the text of a plugin or
//!   script it loads, the variables naming its user directory and its
//!   system-wide file; its unit tests in `agents/<id>/tests.rs`, for what
//!   the shared tests of `agents/tests.rs` do not already check;
//! - this file: `pub mod <id>;` and its line in [`AGENTS`];
//! - `agents/tests.rs`: its nine rows in
//!   `each_canonical_answer_is_each_agent_s_documented_answer` (the test
//!   fails for an agent without them), and, for recorded payloads with more
//!   to say than the checks every agent gets, a `RECORDED` entry;
//! - `tests/all/install.rs` `existing` (a config of the user's own, for the
//!   round-trip test, which fails for an agent without one);
//! - where a binary was run or a payload documented: its payloads under
//!   `tests/fixtures/agents/<id>-<version>/` (replayed by
//!   `every_recorded_payload_decodes_as_its_agent` with no further edit) and
//!   its native deny in `tests/all/agents.rs` `native_deny`;
//! - README's table of agents (made from `agents --json`) and docs/agents.md.
//!
//! A new event touches five files: `protocol/event.rs` (the variant and its
//! row of facts in `EventName::facts`), `agents/claude/mod.rs` (Claude's row:
//! `tests.rs` fails without it), `cli/fire.rs` (its sample payload: the match
//! is exhaustive) and the generated `runtime/schema/input.json` and
//! `runtime/schema/config.json` (`AGENTHOOKS_UPDATE_SCHEMAS=1 cargo test -p
//! agenthooks --lib schema`); each agent that serves it adds a row to its
//! table. A new resource limit: see [`crate::config::Limits`].
//!
//! Nothing outside `agents/` names an agent (`no_code_outside_agents_names_an_agent`
//! checks it): `crate::install`, `run`, `check` and `agenthooks agents`
//! iterate over [`AGENTS`].
//!
//! Every agent's native names live in its module's [`Table`]; decode, encode,
//! `install` and `agenthooks agents` all read that table. Where its hooks are
//! configured lives in the same module's [`InstallSpec`]. The shared halves
//! are the [`Agent`] trait's `decode` and `encode` ([`start_decode`] and
//! [`finish_decode`] around [`Agent::reshape`]; [`intent_for`] before
//! [`Agent::write`]), [`plan`] (which parts of an answer an agent acts on,
//! and the note for each part it cannot) and `crate::install` (merging,
//! backups, writing script and plugin files whose text the agent's spec
//! gives: nothing agent-specific).
//!
//! An agent module is mostly data:
//!
//! - `TABLE`: data, `agents/<agent>/table.toml` (its format in
//!   `TABLES.md`), which `runtime/build.rs` turns into the Rust an
//!   agent module would otherwise write by hand, and the module re-exports
//!   (`pub use super::tables::<agent>::TABLE`):
//!   [`Table::new`] and `with_*` methods, one [`EventRow`] per native event
//!   (its canonical event, an optional synthesized tool, whether `install`
//!   registers it, and the [`Caps`] it acts on, built from [`AnswerKind`]
//!   lists with [`Caps::of`]), [`ToolRow`]s, `tool_input` [`Rename`]s and
//!   top-level field renames. An agent that uses Claude's event names
//!   (`from_claude`) gets `claude_rows!`: Claude's rows ([`claude::row`])
//!   with the agent's exceptions. A table written in Rust with the same
//!   builders works as well;
//! - `INSTALL`: the [`InstallSpec`] `install`, `uninstall` and `check` read,
//!   built with [`InstallSpec::json`] (or [`InstallSpec::new`], or
//!   `project_and_home!` for the common layout) and `with_*` methods for
//!   what differs from the defaults:
//!   the native file at project, user and system scope ([`UserPath`] names
//!   the user directory the agent honours: `$HOME`, `$CODEX_HOME`, ...), how
//!   entries are registered ([`Registration`]: a JSON file with a
//!   [`JsonSpec`] (the [`Shape`], the handler's keys in order with the
//!   timeout's [`TimeUnit`], root keys such as Copilot's `version`, JSONC or
//!   not, the settings that switch all hooks off), one script per event
//!   ([`ScriptSpec`]: the script's text), or a plugin file ([`PluginSpec`]:
//!   its source)), and the paths whose presence means a project or user uses
//!   the agent;
//! - an `Info` (`agents/info.rs`): id, display name, `&TABLE`, `&INSTALL`, and where the agent
//!   differs from the defaults, its deadline (how long it waits for a hook),
//!   the other agent whose hooks it also runs (Copilot, Cursor and Devin run
//!   Claude's), the agents whose agenthooks entries it runs too with payloads
//!   told apart by their shape ([`Visits`]: VS Code runs Copilot's and
//!   Claude's), the payload keys that name its event, and where its users
//!   keep hooks of their own when that is not the install file, with the
//!   variables its hooks get ([`NativeHooks`], what `agenthooks import`
//!   reads through [`native_hooks::read`]);
//! - code only where its protocol is not Claude's: [`Agent::reshape`] (its
//!   payload into Claude's layout, past what the table renames),
//!   [`Agent::write`] (an [`Intent`], holding only what the row's [`Caps`]
//!   allow, in its own answer format) and [`Agent::no_opinion`] (Gemini
//!   answers `{}`).
//!
//! Agents close enough to Claude's protocol to need no code of their own
//! (Qwen, Factory, Antigravity, Goose, Crush, Auggie, Junie, Qoder, Devin)
//! are a [`ClaudeLike`] value: their `Info` and which answer [`Dialect`]
//! they read.
//!
//! Because dropping happens in [`plan::plan`] from the same [`Caps`] that
//! [`Agent::capabilities`] prints, the printed table and the encoder agree;
//! `tests.rs` checks it for every agent, event and answer kind.

use serde_json::{Map, Value};

use crate::protocol::{Answer, Event, EventError, EventName, Note};

pub mod amp;
pub mod antigravity;
pub mod auggie;
pub mod claude;
mod claude_json;
mod claude_values;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod crush;
pub mod cursor;
pub mod deadline;
pub mod derived;
pub mod devin;
pub mod factory;
pub mod gemini;
pub mod goose;
pub mod hermes;
mod install_spec;
pub mod junie;
pub mod kilo;
pub mod kimi;
pub mod kiro;
pub mod letta;
pub mod native_hooks;
pub mod opencode;
pub mod pi;
pub mod plan;
pub mod qoder;
pub mod qwen;
pub mod response;
pub mod sema;
pub mod semaclaw;
mod shim;
mod table;
/// Each agent's [`Table`], generated by `runtime/build.rs` from
/// `agents/<agent>/table.toml`: `tables::<agent>::TABLE`.
mod tables {
    include!(concat!(env!("OUT_DIR"), "/agent_tables.rs"));
}
pub mod transcript;
pub mod vscode;
pub mod windsurf;

pub use claude_json::{ClaudeLike, Dialect};

// `Info` lives in a private module, so no other crate can name it and so
// none can implement [`Agent`] (whose `info` returns it): the trait is
// sealed and may grow.
mod info;
pub(crate) use info::Info;
pub use install_spec::{
    claude_handler, shows_status_message, tool_names, AlsoRuns, Field, InstallSpec, JsonSpec,
    Literal, Off, OffSwitches, PluginLayout, PluginSpec, Registration, ScriptSpec, Shape,
    SystemFile, TimeUnit, TomlSpec, ToolNames, UserDir, UserPath, WindowsShell, YamlSpec,
    COMMAND_AND_TIMEOUT, DISABLE_ALL_HOOKS, USER_ONLY,
};
use install_spec::{claude_handler_and, project_and_home};
pub use native_hooks::{Imported, NativeHook, NativeHooks};
pub use plan::{Intent, Verdict};
pub use shim::{NOT_INSTALLED, NOT_INSTALLED_WINDOWS};
pub use table::{
    rename, tool, AnswerKind, Capabilities, CapabilityRow, Caps, EventRow, Rename, Table, ToolRow,
    TEXT_MAX,
};

/// What `run` writes back to the agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Native {
    /// Written to stdout as is (often one JSON document, or nothing).
    pub stdout: String,
    /// The agent's own lines for stderr (a block reason), written first and
    /// unprefixed.
    pub stderr: Vec<String>,
    /// What the agent cannot do, and (after `run` or
    /// [`Runtime::dispatch_native`](crate::runtime::Runtime::dispatch_native))
    /// every note of the dispatch: written after [`Native::stderr`].
    pub notes: Vec<Note>,
    /// The process exit code.
    pub exit_code: i32,
}

impl Native {
    /// Exit 0, `stdout` as given, with `notes`.
    pub fn ok(stdout: String, notes: Vec<Note>) -> Native {
        Native {
            stdout,
            notes,
            ..Native::default()
        }
    }

    /// Exit 0 with `value` as one JSON document on stdout (nothing for `null`).
    pub fn json(value: &Value, notes: Vec<Note>) -> Native {
        let stdout = if value.is_null() {
            String::new()
        } else {
            value.to_string()
        };
        Native::ok(stdout, notes)
    }

    /// Exit 0 with `object` as one JSON document on stdout, or nothing when
    /// it is empty (the plugin agents' "no opinion").
    pub fn object_or_nothing(object: Map<String, Value>, notes: Vec<Note>) -> Native {
        if object.is_empty() {
            return Native::ok(String::new(), notes);
        }
        Native::json(&Value::Object(object), notes)
    }

    /// Exit 2 with `reason`, folded onto one line, as the stderr line
    /// (agents that answer by exit code only).
    pub fn exit2(reason: &str, notes: Vec<Note>) -> Native {
        Native {
            stderr: vec![reason.split_whitespace().collect::<Vec<_>>().join(" ")],
            notes,
            exit_code: 2,
            ..Native::default()
        }
    }

    /// The notes: what the agent cannot do (and the dispatch's, once added).
    pub fn notes(&self) -> impl Iterator<Item = &Note> {
        self.notes.iter()
    }

    /// This answer with `notes` after its own.
    pub fn with_notes(mut self, notes: impl IntoIterator<Item = Note>) -> Native {
        self.notes.extend(notes);
        self
    }

    /// Every line for stderr, as `run` writes them: the agent's own, then
    /// each note ([`Note::line`]).
    pub fn stderr_lines(&self) -> impl Iterator<Item = String> + '_ {
        self.stderr
            .iter()
            .cloned()
            .chain(self.notes.iter().map(Note::line))
    }
}

/// Why an agent's payload could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The payload is not valid as that agent's input.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The agent's event has no canonical equivalent.
    #[error(
        "`{agent}` event `{}` has no equivalent the runtime can serve",
        crate::protocol::one_line(event)
    )]
    UnmappedEvent {
        /// The agent id.
        agent: &'static str,
        /// The native event name.
        event: String,
    },
    /// Anything else wrong with the payload.
    #[error("{0}")]
    Invalid(String),
}

/// An agent adapter: [`find`] one by id, or take it from [`AGENTS`].
///
/// Sealed (its `info` names a type no other crate can name): the agents
/// are this crate's modules, so the trait can grow.
/// Outside the crate, an agent decodes its native input ([`Agent::decode`])
/// and encodes an answer ([`Agent::encode`], [`Agent::no_opinion`]); the
/// methods hidden from the docs are how the modules define an agent.
///
/// An agent implements [`Agent::info`] and, where its protocol differs from
/// Claude's, [`Agent::reshape`] (its payload into Claude's layout) and
/// [`Agent::write`] (an [`Intent`] in its own answer format); [`Agent::decode`]
/// and [`Agent::encode`] put the shared halves around them.
pub trait Agent: Sync + Send {
    #[doc(hidden)]
    /// The agent's id, names, table, install spec, deadline and event keys.
    fn info(&self) -> &Info;

    /// The id users type (`claude`, `codex`, ...).
    fn id(&self) -> &'static str {
        self.info().id
    }

    /// The agent's display name.
    fn display_name(&self) -> &'static str {
        self.info().name
    }

    #[doc(hidden)]
    /// The agent's events, tools, renames and capabilities.
    fn table(&self) -> &'static Table {
        self.info().table
    }

    #[doc(hidden)]
    /// Where `install` registers the agent's hooks and what an entry looks
    /// like (the module's `INSTALL`).
    fn install_spec(&self) -> &'static InstallSpec {
        self.info().install
    }

    #[doc(hidden)]
    /// How long the agent waits for a hook before it gives up (and allows);
    /// [`deadline::UNVERIFIED`] where the agent does not document it.
    fn deadline(&self) -> deadline::Deadline {
        self.info().deadline
    }

    #[doc(hidden)]
    /// Another agent's hooks config this agent also runs (see [`AlsoRuns`]);
    /// `None` for most agents.
    fn also_runs(&self) -> Option<AlsoRuns> {
        self.info().also_runs
    }

    #[doc(hidden)]
    /// Other agents' agenthooks entries this agent runs too, and how its
    /// payloads are told apart there (see [`Visits`]); `None` for most.
    fn visits(&self) -> Option<Visits> {
        self.info().visits
    }

    #[doc(hidden)]
    /// Where the agent's users keep their own hooks and the variables its
    /// hooks get (what `agenthooks import` reads, see [`native_hooks`]).
    fn native_hooks(&self) -> NativeHooks {
        self.info().native_hooks
    }

    /// What its `transcript_path` holds, for the Claude-shaped view hooks
    /// get (`exec::transcript`); unknown unless the agent says.
    #[doc(hidden)]
    fn transcript(&self) -> transcript::TranscriptShape {
        self.info().transcript
    }

    #[doc(hidden)]
    /// What this agent does with agenthooks' own `.agents/hooks.json` (parsed)
    /// when it reads that path itself, natively (Antigravity does); `None`
    /// for the agents that do not read it. `check` warns from this.
    fn reads_hooks_file(&self, _file: &Value) -> Option<NativeRead> {
        None
    }

    #[doc(hidden)]
    /// The agent's payload, once its event's `row` is known, reshaped into
    /// Claude's layout where it differs beyond names (which the table
    /// renames): nothing for agents that send Claude's payload.
    fn reshape(&self, _row: &EventRow, _input: &mut Map<String, Value>) {}

    /// Native input → canonical event. `event` is the `--event` argument, native
    /// or canonical spelling, for agents whose payload does not name the event.
    ///
    /// A payload of another agent that runs this agent's entries too
    /// ([`visitor`]: VS Code's, through Claude's or Copilot's) is decoded as
    /// that agent's (its event named by its payload), so the event's
    /// `harness` names it and [`Agent::encode`] answers in its dialect.
    /// Otherwise [`Agent::decode_own`].
    ///
    /// # Errors
    /// When the payload cannot be read as this agent's input, or its event has
    /// no canonical equivalent ([`DecodeError::UnmappedEvent`]).
    fn decode(&self, input: Value, event: Option<&str>) -> Result<Event, DecodeError> {
        match visitor(self.id(), &input) {
            Some(guest) => guest.decode_own(input, None),
            None => self.decode_own(input, event),
        }
    }

    #[doc(hidden)]
    /// This agent's own payload → canonical event: [`start_decode`] with the
    /// agent's `Info::names`, [`Agent::reshape`], then [`finish_decode`].
    ///
    /// # Errors
    /// As [`Agent::decode`].
    fn decode_own(&self, input: Value, event: Option<&str>) -> Result<Event, DecodeError> {
        let info = self.info();
        let (mut input, row) = start_decode(info.id, info.table, input, event, info.names)?;
        self.reshape(row, &mut input);
        finish_decode(info.id, info.table, row, input)
    }

    #[doc(hidden)]
    /// What the agent acts on, `intent` (planned for `row`), in its own
    /// answer format: Claude's JSON answer unless the agent says otherwise.
    fn write(&self, event: &Event, row: &EventRow, intent: Intent) -> Native {
        let value = claude_json::claude_json(event.name(), row.native, &intent);
        Native::json(&value, intent.notes)
    }

    /// Aggregated answer → what this agent acts on, with a note for each part
    /// it cannot do: [`Agent::encode_own`], or, for an event another agent
    /// sent through this agent's entry ([`Agent::decode`]), that agent's.
    fn encode(&self, event: &Event, answer: &Answer) -> Native {
        match find(event.harness()).filter(|guest| is_visitor_of(*guest, self.id())) {
            Some(guest) => guest.encode_own(event, answer),
            None => self.encode_own(event, answer),
        }
    }

    #[doc(hidden)]
    /// This agent's answer: [`intent_for`], then [`Agent::write`].
    fn encode_own(&self, event: &Event, answer: &Answer) -> Native {
        match intent_for(self, event, answer) {
            Ok((row, intent)) => self.write(event, row, intent),
            Err(native) => native,
        }
    }

    /// "No opinion" in this agent's dialect, with `notes` on stderr: what
    /// `run` answers when it has nothing to say or hits trouble of its own.
    /// Exit 0 and an empty stdout, unless the agent reads an empty stdout
    /// otherwise (Gemini then parses stderr as the answer).
    fn no_opinion(&self, notes: Vec<Note>) -> Native {
        Native::ok(String::new(), notes)
    }

    /// The canonical events this agent fires and the runtime can serve.
    fn events(&self) -> Vec<EventName> {
        self.table().canonical_events()
    }

    #[doc(hidden)]
    /// The capability row `agenthooks agents` prints, derived from [`Agent::table`].
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            status_message: install_spec::shows_status_message(self.install_spec()),
            tool_filter: match install_spec::tool_names(self.install_spec()) {
                ToolNames::Canonical => {
                    "install writes native matchers in Claude's tool names: only the tool calls a hook selects start agenthooks"
                }
                ToolNames::Native => {
                    "install writes native matchers in the agent's own tool names (a catch-all for a regex or an MCP tool): only the tool calls a hook selects start agenthooks"
                }
                ToolNames::None => {
                    "install writes a catch-all per tool event (no matcher it may narrow): every tool call of a wired event starts agenthooks, which selects"
                }
            },
            ..Capabilities::from_table(self.id(), self.display_name(), self.table())
        }
    }

    #[doc(hidden)]
    /// The table row an event was decoded from (its recorded native name),
    /// else the row serving its canonical name (events made up by `fire`).
    fn row_for(&self, event: &Event) -> Option<&'static EventRow> {
        let table = self.table();
        event
            .native_name()
            .and_then(|n| table.by_native(n))
            .filter(|r| r.canonical == event.name())
            .or_else(|| table.by_canonical(event.name()))
    }
}

/// Other agents' agenthooks entries an agent runs as well as its own (VS
/// Code's Local harness runs Claude Code's and Copilot CLI's), where its
/// payloads are told apart by what they hold rather than by a variable
/// (unlike [`AlsoRuns`]): decoded and answered as its own there
/// ([`Agent::decode`], [`Agent::encode`]), and run through one entry only
/// ([`preferred_entry`]).
#[derive(Debug, Clone, Copy)]
pub struct Visits {
    /// The ids of the agents whose entries it runs, in the order of
    /// preference for the one entry that runs its events (its own entry
    /// comes before them all).
    pub entries: &'static [&'static str],
    /// Whether a payload that arrived through one of those entries is this
    /// agent's.
    pub recognise: fn(&Map<String, Value>) -> bool,
    /// When it runs them, for `check` (VS Code: by default, a setting).
    pub when: &'static str,
}

/// The agent whose payload `input` is, when that agent runs the entries of
/// `entry` (an agent id) too and recognises `input` as its own ([`Visits`]).
pub fn visitor(entry: &str, input: &Value) -> Option<&'static dyn Agent> {
    let input = input.as_object()?;
    AGENTS.iter().copied().find(|guest| {
        guest.id() != entry
            && guest
                .visits()
                .is_some_and(|v| v.entries.contains(&entry) && (v.recognise)(input))
    })
}

/// Whether `guest` runs the entries of the agent `entry` ([`Visits`]).
fn is_visitor_of(guest: &dyn Agent, entry: &str) -> bool {
    guest.id() != entry && guest.visits().is_some_and(|v| v.entries.contains(&entry))
}

/// For an event `guest` sent through `entry`'s agenthooks entry: the entry
/// that runs it instead, when one `guest` prefers is `installed` (its own,
/// then its [`Visits::entries`] in order), so each hook runs once however
/// many of those entries are installed. `None`: `entry`'s runs it.
pub fn preferred_entry(
    guest: &'static dyn Agent,
    entry: &dyn Agent,
    installed: impl Fn(&dyn Agent) -> bool,
) -> Option<&'static dyn Agent> {
    let visits = guest.visits().filter(|_| guest.id() != entry.id())?;
    std::iter::once(guest.id())
        .chain(visits.entries.iter().copied())
        .take_while(|id| *id != entry.id())
        .filter_map(find)
        .find(|a| installed(*a))
}

/// Whether `guest`, running another agent's entry registered under that
/// agent's native event name `native`, calls it for `event`: the name as
/// it is, or with its first letter capitalized (VS Code reads Copilot CLI's
/// `preToolUse` as its `PreToolUse`, and has no `UserPromptSubmitted`).
pub fn calls_entry_for(guest: &dyn Agent, native: &str, event: EventName) -> bool {
    let mut chars = native.chars();
    let capitalized: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    [native, capitalized.as_str()].iter().any(|name| {
        guest
            .table()
            .resolve(name)
            .is_some_and(|row| row.canonical == event)
    })
}

/// What an agent that reads `.agents/hooks.json` natively does with one
/// ([`Agent::reads_hooks_file`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NativeRead {
    /// It rejects the file and runs none of it (its hooks then run there
    /// only through agenthooks' own entry).
    Ignores,
    /// It would run this many command hooks of the file itself: unsandboxed
    /// and past agenthooks' trust gate.
    Runs(usize),
}

/// Every agent, in the order `agenthooks agents` prints them.
pub static AGENTS: &[&dyn Agent] = &[
    &claude::Claude,
    &codex::Codex,
    &gemini::Gemini,
    &copilot::Copilot,
    &vscode::VsCode,
    &qwen::AGENT,
    &cursor::Cursor,
    &windsurf::Windsurf,
    &cline::Cline,
    &factory::AGENT,
    &kiro::Kiro,
    &opencode::OpenCode,
    &kilo::Kilo,
    &pi::Pi,
    &amp::Amp,
    &antigravity::AGENT,
    &goose::AGENT,
    &crush::AGENT,
    &auggie::AGENT,
    &junie::AGENT,
    &kimi::AGENT,
    &letta::AGENT,
    &hermes::Hermes,
    &qoder::AGENT,
    &devin::AGENT,
    &semaclaw::SemaClaw,
    &sema::Sema,
];

/// Every pair among `agents` where the first also runs the second's hooks
/// config ([`Agent::also_runs`]), with how.
pub fn double_loads<'a>(
    agents: &'a [&'static dyn Agent],
) -> impl Iterator<Item = (&'static dyn Agent, &'static dyn Agent, AlsoRuns)> + 'a {
    agents.iter().filter_map(move |host| {
        let also = host.also_runs()?;
        let other = agents.iter().find(|a| a.id() == also.agent)?;
        Some((*host, *other, also))
    })
}

/// The one line `install` and `check` print about `host` running `other`'s
/// hooks file as well as its own: what `run` does about it when `host`'s own
/// entry is installed, or what to do when it is not.
pub fn double_load_note(
    host: &dyn Agent,
    other: &dyn Agent,
    also: AlsoRuns,
    host_installed: bool,
) -> String {
    let when = also.when.map(|w| format!(" ({w})")).unwrap_or_default();
    let file = other.install_spec().project;
    let (h, o) = (host.display_name(), other.display_name());
    if host_installed {
        format!(
            "{h} also runs the hooks in `{file}`{when}; with both agents installed, that {o} entry steps aside under {h} (`{}` set), so each hook runs once",
            also.env
        )
    } else {
        format!(
            "{h} also runs the hooks in `{file}`{when}, where the {o} entry sees {h}'s payloads under {o}'s names; `agenthooks install {}` gives {h} its own entry, and the {o} entry then steps aside under it",
            host.id()
        )
    }
}

/// The agent with this id.
pub fn find(id: &str) -> Option<&'static dyn Agent> {
    AGENTS.iter().copied().find(|a| a.id() == id)
}

/// The agent a user named, or an error that lists the ids there are.
///
/// # Errors
/// [`UnknownAgent`] when no agent has this id.
pub fn named(id: &str) -> Result<&'static dyn Agent, UnknownAgent> {
    find(id).ok_or_else(|| UnknownAgent { id: id.to_string() })
}

/// An agent id that names no agent (`--agent`, `install`, `agents`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no agent named `{id}`{hint} (known: {known})",
    hint = crate::suggest::did_you_mean(.id, AGENTS.iter().map(|a| a.id())),
    known = known_ids()
)]
pub struct UnknownAgent {
    /// The id as given.
    pub id: String,
}

fn known_ids() -> String {
    AGENTS.iter().map(|a| a.id()).collect::<Vec<_>>().join(", ")
}

/// The shared start of every decode: the payload as a JSON object and the
/// table row of its event, named on the command line (`argv`, native or
/// canonical spelling) or else by the first of `name_keys` the payload has
/// as a string (`hook_event_name`, Copilot's `hookName`, ...).
///
/// # Errors
/// [`EventError::NotAnObject`] for a payload that is not an object;
/// [`EventError::NoEventName`] when nothing names the event;
/// [`DecodeError::UnmappedEvent`] when the agent's table does not serve it.
pub fn start_decode(
    agent: &'static str,
    table: &Table,
    input: Value,
    argv: Option<&str>,
    name_keys: &[&str],
) -> Result<(Map<String, Value>, &'static EventRow), DecodeError> {
    let Value::Object(input) = input else {
        return Err(EventError::NotAnObject.into());
    };
    let named = || {
        name_keys
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str))
    };
    let name = argv.or_else(named).ok_or(EventError::NoEventName)?;
    let row = table
        .resolve(name)
        .ok_or_else(|| DecodeError::UnmappedEvent {
            agent,
            event: name.to_string(),
        })?;
    Ok((input, row))
}

/// The shared end of every decode: `input` is already Claude-shaped except for
/// names. Copies the table's top-level field renames, maps `tool_name`
/// (or sets the row's synthesized tool), parses a `tool_input` sent as a JSON
/// string, renames `tool_input` keys, makes a file tool's path absolute,
/// gives the fields of [`response`] and the matcher fields Claude's values
/// (`claude_values`), records the native event name on it and builds the
/// [`Event`].
///
/// # Errors
/// Only what [`Event::new`] rejects.
pub fn finish_decode(
    agent: &'static str,
    table: &Table,
    row: &EventRow,
    mut input: Map<String, Value>,
) -> Result<Event, DecodeError> {
    for (native, canonical) in table.fields {
        if let Some(v) = input.get(*native).cloned() {
            input.entry(canonical.to_string()).or_insert(v);
        }
    }
    let tool = match row.tool {
        Some(t) => Some(t.to_string()),
        None => input
            .get("tool_name")
            .and_then(Value::as_str)
            .map(|n| table.canonical_tool(n).to_string()),
    };
    if let Some(tool) = tool {
        if let Some(Value::String(s)) = input.get("tool_input") {
            if let Ok(parsed @ Value::Object(_)) = serde_json::from_str::<Value>(s) {
                input.insert("tool_input".into(), parsed);
            }
        }
        let cwd = input.get("cwd").and_then(Value::as_str).map(str::to_string);
        if let Some(Value::Object(args)) = input.get_mut("tool_input") {
            plan::to_canonical_input(table, &tool, args);
            claude_values::file_tool_input(&tool, cwd.as_deref(), args);
        }
        input.insert("tool_name".into(), Value::String(tool));
    }
    response::normalise(row.canonical, &mut input);
    claude_values::normalise(row, &mut input);
    Ok(Event::new(Value::Object(input), Some(row.canonical), agent)?.with_native(row.native))
}

/// The row `event` is answered under and the parts of `answer` the agent acts
/// on there; or, for an event the agent does not serve, the native answer to
/// give (nothing, with a note when the answer said something).
///
/// # Errors
/// The [`Native`] to write when the agent does not serve the event.
pub fn intent_for<A: Agent + ?Sized>(
    agent: &A,
    event: &Event,
    answer: &Answer,
) -> Result<(&'static EventRow, Intent), Native> {
    match agent.row_for(event) {
        Some(row) => Ok((
            row,
            plan::plan(agent.id(), agent.table(), row, event, answer),
        )),
        None => {
            let notes = if answer.is_empty() {
                Vec::new()
            } else {
                vec![plan::agent_note(
                    agent.id(),
                    crate::protocol::NoteKind::NoEvent,
                    format!(
                        "{} has no `{}` event; the answer was dropped",
                        agent.id(),
                        event.name()
                    ),
                )]
            };
            Err(agent.no_opinion(notes))
        }
    }
}

/// Sets `cwd`, where the payload has none, to the first of the workspace
/// roots listed under `key` (Cursor's `workspace_roots`, Cline's `workspaceRoots`).
pub(crate) fn cwd_from_roots(input: &mut Map<String, Value>, key: &str) {
    let root = input
        .get(key)
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .cloned();
    if let Some(root) = root {
        input.entry("cwd").or_insert(root);
    }
}

/// `value` parsed as a JSON object when it is a string holding one, else itself.
pub fn parse_if_string(value: Value) -> Value {
    match value {
        Value::String(s) => match serde_json::from_str::<Value>(&s) {
            Ok(v @ Value::Object(_)) => v,
            _ => Value::String(s),
        },
        other => other,
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "fidelity_tests.rs"]
mod fidelity_tests;

#[cfg(test)]
#[path = "tables_tests.rs"]
mod tables_tests;
