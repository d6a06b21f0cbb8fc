//! Which tool calls start agenthooks, and which binary they start: the
//! native matchers `install` writes, one entry per binary.
//!
//! An agent that filters by tool before it starts a hook pays nothing for
//! a tool call no hook selects. So, per tool event, `install` writes the
//! union of every scope's matchers for that event (managed, user and
//! project, loaded as `run` loads them), in the agent's own tool names
//! ([`ToolNames`]), split by binary: tools whose hooks are all command
//! hooks call the small front, tools with any other kind call the engine,
//! and no tool is in both (the engine runs command hooks too).
//!
//! It is a pre-filter only. A native matcher is never narrower than what
//! agenthooks selects: an exact name list maps to the agent's names (and
//! keeps the canonical one, for a tool the agent does not rename); a regex
//! goes as written where the agent reads Claude's names, and where it does
//! not (or a name cannot be mapped, as an MCP tool's) the entry stays a
//! catch-all calling the front, which hands what it cannot run to the
//! engine. agenthooks still selects after decoding (`if`, exact names).
//!
//! Each narrowed entry passes its coverage as `run --tools`, in Claude's
//! names: a host that runs the entry without honouring its matcher (VS
//! Code's Local harness ignores matchers) gets "no opinion" from the
//! entries that do not cover the tool, so each tool call is answered once.

use std::collections::{BTreeMap, BTreeSet};

use super::launcher::{Binary, Wired};
use crate::agents::{Agent, EventRow, ToolNames};
use crate::config::{Config, Handler, Matcher, Scope};
use crate::exec::Executors;
use crate::protocol::EventName;

/// One hook's claim on a tool event: its matcher, and whether it needs
/// the engine.
#[derive(Debug, Clone)]
struct Claim {
    matcher: Matcher,
    engine: bool,
}

/// What the hooks of every scope select, per event: what `install` writes
/// native matchers and binaries from.
#[derive(Debug, Clone, Default)]
pub struct Coverage {
    by_event: BTreeMap<EventName, Vec<Claim>>,
    /// Some hook of some event needs the engine (a session's start warms
    /// its compile cache then).
    any_engine: bool,
}

fn needs_engine(handler: &Handler) -> bool {
    !Executors::command_only().runs(&handler.kind)
}

impl Coverage {
    /// What the entries of a file at `scope` cover: `config`'s hooks, every
    /// scope `install` loaded (as `run` loads them; for the user's file run
    /// in a project, that project's too, so a tool both files cover is
    /// answered by the user's, see `head`). `None` when a file did not load
    /// (its hooks cannot be listed) and for a system-wide file (it runs
    /// hooks this machine cannot list): every entry stays a catch-all.
    pub fn of(config: &Config, scope: Scope) -> Option<Coverage> {
        if !config.broken.is_empty() || scope == Scope::Managed {
            return None;
        }
        let mut coverage = Coverage::default();
        for h in &config.handlers {
            let engine = needs_engine(h);
            coverage.any_engine |= engine;
            coverage.by_event.entry(h.event).or_default().push(Claim {
                matcher: h.matcher.clone(),
                engine,
            });
        }
        Some(coverage)
    }

    /// The binary a file's every entry calls where entries cannot be split
    /// (scripts, plugins, TOML and YAML registrations): the engine when some
    /// hook needs it, or for a system-wide entry (which runs hooks this
    /// machine cannot list); the front when the hooks are not known (it
    /// hands what it cannot run to the engine).
    pub fn binary_for_all(coverage: Option<&Coverage>, scope: Scope) -> Binary {
        match coverage {
            _ if scope == Scope::Managed => Binary::Engine,
            Some(c) if c.any_engine => Binary::Engine,
            _ => Binary::Front,
        }
    }

    /// The entries `agent`'s file at `scope` gets under `row`'s event.
    pub fn entries(
        coverage: Option<&Coverage>,
        agent: &dyn Agent,
        row: &EventRow,
        scope: Scope,
    ) -> Vec<Wired> {
        let whole = Wired::all(Coverage::binary_for_all(coverage, scope));
        let Some(c) = coverage else {
            return vec![whole];
        };
        if scope == Scope::Managed {
            return vec![whole];
        }
        let claims = c
            .by_event
            .get(&row.canonical)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let engine_here = claims.iter().any(|c| c.engine);
        let is_start = agent
            .table()
            .session_start()
            .is_some_and(|s| std::ptr::eq(s, row));
        if !row.canonical.is_tool_event() {
            // A session's start warms the compile cache for the wasm hooks:
            // the engine's work when there are any.
            let engine = engine_here || (is_start && c.any_engine);
            return vec![Wired::all(if engine {
                Binary::Engine
            } else {
                Binary::Front
            })];
        }
        let names = crate::agents::tool_names(agent.install_spec());
        let by_binary = if names == ToolNames::None || claims.is_empty() {
            None
        } else {
            split(agent, names, claims)
        };
        by_binary.unwrap_or_else(|| {
            // A catch-all: the engine only when every hook here needs it.
            let all_engine = !claims.is_empty() && claims.iter().all(|c| c.engine);
            vec![Wired::all(if all_engine {
                Binary::Engine
            } else {
                Binary::Front
            })]
        })
    }
}

impl Coverage {
    /// What of `event`'s tools the entries found under its key (`here`,
    /// none a catch-all for the check to matter) do not cover, or cover
    /// through the other binary than install writes now, into `missing` and
    /// `binary` (a [`Drift`](super::Drift)'s lists).
    pub(super) fn tool_drift(
        &self,
        event: EventName,
        here: &[&Found],
        missing: &mut Vec<String>,
        binary: &mut Vec<String>,
    ) {
        let Some(claims) = self.by_event.get(&event) else {
            return;
        };
        if !event.is_tool_event() || here.iter().any(|f| f.tools.is_none()) {
            return;
        }
        let push = |list: &mut Vec<String>, item: String| {
            if !list.contains(&item) {
                list.push(item);
            }
        };
        let fragments =
            |s: &str| -> BTreeSet<String> { s.split('|').map(|f| f.trim().to_string()).collect() };
        let wired: BTreeSet<String> = here
            .iter()
            .filter_map(|f| f.tools.as_deref())
            .flat_map(fragments)
            .collect();
        // Where a regex joins the names, one entry runs them all: its binary
        // is the event's, not a name's.
        let split = claims
            .iter()
            .all(|c| !matches!(c.matcher, Matcher::Regex(_)));
        for claim in claims {
            match &claim.matcher {
                Matcher::All => push(missing, format!("{event} for every tool")),
                Matcher::Regex(re) => {
                    if !fragments(re.as_str()).is_subset(&wired) {
                        push(missing, format!("{event} for `{}`", re.as_str()));
                    }
                }
                Matcher::Exact(names) => {
                    for name in names {
                        let covering: Vec<&&Found> =
                            here.iter().filter(|f| f.covers(Some(name))).collect();
                        if covering.is_empty() {
                            push(missing, format!("{event} for {name}"));
                            continue;
                        }
                        if !split {
                            continue;
                        }
                        let engine = claims.iter().any(|c| {
                            c.engine && matches!(&c.matcher, Matcher::Exact(n) if n.contains(name))
                        });
                        let (front, engines) = (
                            covering.iter().any(|f| !f.engine),
                            covering.iter().any(|f| f.engine),
                        );
                        if engine && !engines {
                            push(
                                binary,
                                format!(
                                    "{event} for {name} through agenthooks, not agenthooks-engine"
                                ),
                            );
                        } else if !engine && !front {
                            push(
                                binary,
                                format!(
                                    "{event} for {name} through agenthooks-engine, not agenthooks"
                                ),
                            );
                        }
                    }
                }
            }
        }
    }
}

/// One of agenthooks' entries as an agent's file has it: what its
/// launcher line says after `run`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The native event key it sits under.
    pub native: String,
    /// It starts the engine.
    pub engine: bool,
    /// It was written for the user's file (`--user`).
    pub user: bool,
    /// Its `--tools`; `None`: every tool.
    pub tools: Option<String>,
}

impl Found {
    /// Whether this entry answers for `tool` (`None`: an event without a
    /// tool, which every entry under its key answers for).
    pub fn covers(&self, tool: Option<&str>) -> bool {
        match (&self.tools, tool) {
            (None, _) | (_, None) => true,
            (Some(tools), Some(tool)) => tools_matcher(tools).matches(Some(tool)),
        }
    }
}

/// A `--tools` value as a matcher; one that does not compile covers every
/// tool (an entry never goes quiet over its own flag).
pub fn tools_matcher(tools: &str) -> Matcher {
    Matcher::parse(Some(tools)).unwrap_or(Matcher::All)
}

/// `agent`'s entries of ours at `scope`, as [`Found`]; empty where it has
/// none or the file cannot be read. Bounded reads ([`installed_entries`]).
///
/// [`installed_entries`]: super::installed_entries
pub fn found(
    agent: &dyn Agent,
    scope: Scope,
    project_root: &std::path::Path,
    env: &super::Env,
) -> Vec<Found> {
    super::installed_entries(agent, scope, project_root, env)
        .into_iter()
        .filter_map(|(native, entry)| match entry {
            super::Entry::Shell(line) => parse_line(&line, agent.id()).map(|mut f| {
                f.native = native;
                f
            }),
            _ => Some(Found {
                native,
                engine: false,
                user: scope == Scope::User,
                tools: None,
            }),
        })
        .collect()
}

/// The flags of the launcher line `line` (see `launcher`): the words after
/// ` run --agent <agent>` up to `||` or `;`, shell-unquoted.
fn parse_line(line: &str, agent: &str) -> Option<Found> {
    let needle = format!(" run --agent {agent}");
    let at = line.find(&needle)?;
    let program = line[..at].rsplit([' ', '&']).next().unwrap_or_default();
    let engine = program
        .trim_matches(['\'', '"'])
        .rsplit(['/', '\\'])
        .next()
        .is_some_and(|name| name.starts_with(crate::dirs::ENGINE_NAME));
    let words = sh_words(&line[at + needle.len()..]);
    let mut found = Found {
        native: String::new(),
        engine,
        user: false,
        tools: None,
    };
    let mut words = words.into_iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "||" | ";" | "&&" => break,
            super::launcher::USER_FLAG => found.user = true,
            super::launcher::TOOLS_FLAG => found.tools = words.next(),
            _ => {}
        }
    }
    Some(found)
}

/// `text` split into words as sh does for the launcher's own quoting: plain
/// words, and `'…'` strings with `'\''` for a quote.
fn sh_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            '\\' if !quoted => {
                if let Some(next) = chars.next() {
                    word.get_or_insert_with(String::new).push(next);
                }
            }
            c if c.is_whitespace() && !quoted => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The entries for `claims` split by binary, in `names`; `None` when they
/// cannot be written narrower than a catch-all.
fn split(agent: &dyn Agent, names: ToolNames, claims: &[Claim]) -> Option<Vec<Wired>> {
    if claims.iter().any(|c| matches!(c.matcher, Matcher::All)) {
        return None;
    }
    let exact = claims
        .iter()
        .all(|c| matches!(c.matcher, Matcher::Exact(_)));
    if !exact {
        // A regex over Claude's names goes as written where the agent reads
        // Claude's names; alternatives joined stay an unanchored regex,
        // never narrower than each one.
        if names != ToolNames::Canonical {
            return None;
        }
        let joined = claims
            .iter()
            .map(|c| c.matcher.to_string())
            .collect::<Vec<_>>()
            .join("|");
        let engine = claims.iter().any(|c| c.engine);
        return Some(vec![Wired {
            matcher: Some(joined.clone()),
            tools: Some(joined),
            binary: if engine {
                Binary::Engine
            } else {
                Binary::Front
            },
        }]);
    }
    let mut engine: BTreeSet<&str> = BTreeSet::new();
    let mut front: BTreeSet<&str> = BTreeSet::new();
    for claim in claims {
        let Matcher::Exact(list) = &claim.matcher else {
            continue;
        };
        let into = if claim.engine {
            &mut engine
        } else {
            &mut front
        };
        into.extend(list.iter().map(String::as_str));
    }
    front.retain(|t| !engine.contains(t));
    let mut out = Vec::new();
    for (tools, binary) in [(front, Binary::Front), (engine, Binary::Engine)] {
        if tools.is_empty() {
            continue;
        }
        let matcher = native_list(agent, names, &tools)?;
        out.push(Wired {
            matcher: Some(matcher),
            tools: Some(tools.into_iter().collect::<Vec<_>>().join("|")),
            binary,
        });
    }
    Some(out)
}

/// `tools` (Claude's names) as a name list in the agent's names: each
/// tool's native names from the agent's table, and the name itself (a tool
/// the agent does not rename arrives under it). `None` for a name the
/// agent may send under a name its table does not know (an MCP tool's).
fn native_list(agent: &dyn Agent, names: ToolNames, tools: &BTreeSet<&str>) -> Option<String> {
    let mut natives: Vec<&str> = Vec::new();
    if names == ToolNames::Native {
        for tool in tools {
            if tool.starts_with("mcp__") {
                return None;
            }
            let rows = agent.table().tools.iter().filter(|r| r.canonical == *tool);
            for row in rows {
                if !natives.contains(&row.native) {
                    natives.push(row.native);
                }
            }
        }
    }
    for tool in tools {
        if !natives.contains(tool) {
            natives.push(tool);
        }
    }
    Some(natives.join("|"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents;

    fn claim(m: &str, engine: bool) -> Claim {
        Claim {
            matcher: Matcher::parse(Some(m)).unwrap(),
            engine,
        }
    }

    fn coverage(event: EventName, claims: Vec<Claim>) -> Coverage {
        let any_engine = claims.iter().any(|c| c.engine);
        Coverage {
            by_event: [(event, claims)].into(),
            any_engine,
        }
    }

    fn wired(
        id: &str,
        event: EventName,
        c: &Coverage,
    ) -> Vec<(Option<String>, Option<String>, Binary)> {
        let agent = agents::find(id).unwrap();
        let row = agent.table().by_canonical(event).unwrap();
        Coverage::entries(Some(c), agent, row, Scope::Project)
            .into_iter()
            .map(|w| (w.matcher, w.tools, w.binary))
            .collect()
    }

    fn some(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    #[test]
    fn the_launchers_flags_are_read_back() {
        let claude = agents::find("claude").unwrap();
        let row = claude.table().by_canonical(EventName::PreToolUse).unwrap();
        let wired = Wired {
            matcher: Some("Bash|mcp__it's".into()),
            tools: Some("Bash|mcp__it's".into()),
            binary: Binary::Engine,
        };
        for (front, scope) in [
            ("agenthooks", Scope::Project),
            ("/opt/my tools/agenthooks", Scope::User),
        ] {
            let (line, _) = super::super::launcher::entry_lines(
                std::path::Path::new(front),
                claude,
                row.native,
                scope,
                &wired,
            );
            let found = parse_line(&line, "claude").unwrap();
            assert!(found.engine, "{line}");
            assert_eq!(found.user, scope == Scope::User, "{line}");
            assert_eq!(found.tools.as_deref(), Some("Bash|mcp__it's"), "{line}");
        }
        let plain = super::super::launcher::command_line(
            std::path::Path::new("agenthooks"),
            claude,
            "Stop",
        );
        let found = parse_line(&plain, "claude").unwrap();
        assert!(!found.engine && !found.user && found.tools.is_none());
        assert!(found.covers(Some("Read")) && found.covers(None));
    }

    #[test]
    fn exact_names_split_by_binary_in_the_agents_own_names() {
        let c = coverage(
            EventName::PreToolUse,
            vec![
                claim("Bash", true),
                claim("Write|Edit", false),
                claim("Bash", false),
            ],
        );
        assert_eq!(
            wired("claude", EventName::PreToolUse, &c),
            [
                (some("Edit|Write"), some("Edit|Write"), Binary::Front),
                (some("Bash"), some("Bash"), Binary::Engine),
            ]
        );
        assert_eq!(
            wired("gemini", EventName::PreToolUse, &c),
            [
                (
                    some("replace|write_file|Edit|Write"),
                    some("Edit|Write"),
                    Binary::Front
                ),
                (some("run_shell_command|Bash"), some("Bash"), Binary::Engine),
            ]
        );
        // Qwen's Edit arrives as `edit` or `replace`.
        let qwen = wired("qwen", EventName::PreToolUse, &c);
        assert_eq!(qwen[0].0, some("edit|replace|write_file|Edit|Write"));
    }

    #[test]
    fn what_cannot_be_narrowed_stays_a_catch_all() {
        let star = coverage(
            EventName::PreToolUse,
            vec![claim("*", false), claim("Bash", true)],
        );
        assert_eq!(
            wired("claude", EventName::PreToolUse, &star),
            [(None, None, Binary::Front)]
        );
        let wasm_only = coverage(EventName::PreToolUse, vec![claim("*", true)]);
        assert_eq!(
            wired("claude", EventName::PreToolUse, &wasm_only),
            [(None, None, Binary::Engine)]
        );
        // A regex: as written where the agent reads Claude's names, a
        // catch-all where it does not; an MCP name cannot be mapped.
        let regex = coverage(
            EventName::PreToolUse,
            vec![claim("Bash", false), claim("mcp__gh__.*", false)],
        );
        assert_eq!(
            wired("claude", EventName::PreToolUse, &regex),
            [(
                some("Bash|mcp__gh__.*"),
                some("Bash|mcp__gh__.*"),
                Binary::Front
            )]
        );
        assert_eq!(
            wired("gemini", EventName::PreToolUse, &regex),
            [(None, None, Binary::Front)]
        );
        let mcp = coverage(
            EventName::PreToolUse,
            vec![claim("mcp__gh__create_issue", false)],
        );
        assert_eq!(
            wired("gemini", EventName::PreToolUse, &mcp),
            [(None, None, Binary::Front)]
        );
        assert_eq!(
            wired("claude", EventName::PreToolUse, &mcp),
            [(
                some("mcp__gh__create_issue"),
                some("mcp__gh__create_issue"),
                Binary::Front
            )]
        );
        // An agent whose file takes no matcher we may narrow.
        let c = coverage(EventName::PreToolUse, vec![claim("Bash", false)]);
        assert_eq!(
            wired("copilot", EventName::PreToolUse, &c),
            [(None, None, Binary::Front)]
        );
    }

    #[test]
    fn other_events_call_the_engine_only_for_its_kinds() {
        let c = coverage(EventName::Stop, vec![claim("*", true)]);
        assert_eq!(
            wired("claude", EventName::Stop, &c),
            [(None, None, Binary::Engine)]
        );
        // The session start warms the compile cache when any hook is wasm.
        assert_eq!(
            wired("claude", EventName::SessionStart, &c),
            [(None, None, Binary::Engine)]
        );
        let commands = coverage(EventName::Stop, vec![claim("*", false)]);
        assert_eq!(
            wired("claude", EventName::SessionStart, &commands),
            [(None, None, Binary::Front)]
        );
    }

    #[test]
    fn a_system_wide_entry_runs_everything_in_the_engine_an_unknown_coverage_in_the_front() {
        let c = coverage(EventName::PreToolUse, vec![claim("Bash", false)]);
        let claude = agents::find("claude").unwrap();
        let row = claude.table().by_canonical(EventName::PreToolUse).unwrap();
        let system = Coverage::entries(Some(&c), claude, row, Scope::Managed);
        assert_eq!(system, [Wired::all(Binary::Engine)]);
        let unknown = Coverage::entries(None, claude, row, Scope::Project);
        assert_eq!(unknown, [Wired::all(Binary::Front)]);
    }
}
