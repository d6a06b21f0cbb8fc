//! What the agents' wiring and the files a hook names let it do: an agent
//! that calls agenthooks for the hook's event, a matcher that matches one
//! of their tools, the engine for a kind the small binary hands over, and
//! a script that exists and can be executed.

use std::path::{Path, PathBuf};

use super::{AgentState, Reason};
use crate::agents::{claude, Agent, AGENTS};
use crate::config::{Handler, HandlerKind, Matcher, Scope};
use crate::install::{self, Env};
use crate::suggest;

/// The agents wired here and the canonical events each one's entries call.
pub(super) struct Wired {
    /// Per wired agent: the canonical events its entries call, and the
    /// scope flag `install` takes for its first scope.
    agents: Vec<(&'static dyn Agent, Vec<&'static str>, &'static str)>,
    /// An agent whose folder is in the project, to suggest when none is wired.
    detected: Option<&'static str>,
    /// Where the engine must be for a kind the front hands over, when it is not there.
    engine_missing: Option<PathBuf>,
}

impl Wired {
    /// From the agents `status` found.
    pub(super) fn of(agents: &[AgentState], root: &Path, env: &Env) -> Wired {
        let wired = agents
            .iter()
            .map(|a| {
                let table = a.agent.table();
                let events = (a.installed.iter())
                    .flat_map(|(_, natives)| natives)
                    .filter_map(|native| {
                        let row = table.events.iter().find(|r| r.native == native)?;
                        Some(row.canonical.as_str())
                    })
                    .collect();
                let flag = match a.installed.first().map(|(scope, _)| *scope) {
                    Some(Scope::User) => " --user",
                    Some(Scope::Managed) => " --system",
                    _ => "",
                };
                (a.agent, events, flag)
            })
            .collect();
        Wired {
            agents: wired,
            detected: install::detected(Scope::Project, root, env)
                .first()
                .map(|a| a.id()),
            engine_missing: engine_missing(),
        }
    }

    /// What the wiring leaves of `h`: whether an agent calls agenthooks for
    /// its event, whether its matcher matches a tool of those agents, and
    /// whether the engine is there for its kind.
    pub(super) fn reasons(&self, h: &Handler) -> Vec<Reason> {
        let mut reasons = Vec::new();
        let event = h.event.as_str();
        let firing: Vec<&'static dyn Agent> = (self.agents.iter())
            .filter(|(_, events, _)| events.contains(&event))
            .map(|(agent, ..)| *agent)
            .collect();
        if self.agents.is_empty() {
            reasons.push(Reason::NotWired {
                agent: self.detected,
            });
        } else if firing.is_empty() {
            let stale = (self.agents.iter())
                .find(|(agent, ..)| agent.table().installed().any(|r| r.canonical == h.event));
            reasons.push(match stale {
                Some((agent, _, flag)) => Reason::StaleWiring {
                    agent: agent.id(),
                    missing: vec![event.to_string()],
                    flag,
                },
                None => Reason::NoAgentFires {
                    event: event.to_string(),
                    wired: self.agents.iter().map(|(a, ..)| a.id()).collect(),
                    candidate: (AGENTS.iter())
                        .find(|a| a.table().installed().any(|r| r.canonical == h.event))
                        .map(|a| a.id()),
                },
            });
        }
        // Judged against the agents that fire the event, else Claude Code's
        // tools (the canonical names every agent's are mapped to).
        let judges: Vec<&'static dyn Agent> = if firing.is_empty() {
            vec![&claude::Claude]
        } else {
            firing
        };
        reasons.extend(matcher_reason(h, &judges));
        if let Some(engine) = &self.engine_missing {
            let refs = [h];
            if !crate::exec::Executors::command_only().runs_all(&refs) {
                reasons.push(Reason::EngineMissing {
                    engine: engine.clone(),
                });
            }
        }
        reasons
    }
}

/// The engine that the `agenthooks` on PATH (else this binary) hands
/// events to, when it is not there.
fn engine_missing() -> Option<PathBuf> {
    let front = super::super::install::find_on_path(Path::new("agenthooks"))
        .or_else(|| std::env::current_exe().ok())?;
    // The front looks beside the file it runs from, a link resolved.
    let front = std::fs::canonicalize(&front).unwrap_or(front);
    let engine = front.with_file_name(format!(
        "{}{}",
        crate::dirs::ENGINE_NAME,
        std::env::consts::EXE_SUFFIX
    ));
    (!engine.is_file()).then_some(engine)
}

/// What is wrong with the files a command hook names: its script missing,
/// or not executable.
pub(super) fn file_reasons(h: &Handler, root: &Path) -> Vec<Reason> {
    let HandlerKind::Command(spec) = &h.kind else {
        return Vec::new();
    };
    let dir = h.project_root.as_deref().unwrap_or(root);
    let diagnose = crate::exec::diagnose::script_problem(&spec.command, dir);
    diagnose
        .map(|(path, missing)| {
            if missing {
                Reason::ScriptMissing { path }
            } else {
                Reason::ScriptNotExecutable { path }
            }
        })
        .into_iter()
        .collect()
}

/// [`Reason::MatchesNoTool`] when `h`'s matcher matches no tool of any of
/// `agents` (those that say which tools they have).
fn matcher_reason(h: &Handler, agents: &[&'static dyn Agent]) -> Option<Reason> {
    let mut tools: Vec<&'static str> = agents
        .iter()
        .filter_map(|a| tool_names(*a))
        .flatten()
        .collect();
    if tools.is_empty() {
        return None;
    }
    tools.sort_unstable();
    tools.dedup();
    let hint = matcher_problem(h, &tools)?;
    let names: Vec<&str> = agents.iter().map(|a| a.display_name()).collect();
    Some(Reason::MatchesNoTool {
        matcher: h.matcher.to_string(),
        agents: names.join(" or "),
        hint,
    })
}

/// Whether a tool event's matcher matches none of `tools`: `Some` with a
/// did-you-mean tail (possibly empty) when it does not; `None` when it
/// matches one, is no tool matcher, or is about MCP tools (open-ended
/// names that cannot be judged). The one rule `status` and `check` use.
pub fn matcher_problem(h: &Handler, tools: &[&str]) -> Option<String> {
    if !h.event.is_tool_event() || matches!(h.matcher, Matcher::All) {
        return None;
    }
    let source = h.matcher.to_string();
    if source.to_ascii_lowercase().contains("mcp") {
        return None;
    }
    if tools.iter().any(|t| h.matcher.matches(Some(t))) {
        return None;
    }
    Some(
        source
            .split('|')
            .map(|word| suggest::did_you_mean(word, tools.iter().copied()))
            .find(|hint| !hint.is_empty())
            .unwrap_or_default(),
    )
}

/// The canonical tool names a hook can see from this agent, or `None` when
/// the agent does not say which tools it has (nothing to check against).
pub fn tool_names(agent: &dyn Agent) -> Option<Vec<&'static str>> {
    let table = agent.table();
    // Claude Code's names are the canonical ones: its table renames nothing.
    if std::ptr::eq(table, &claude::TABLE) {
        return Some(claude::TOOLS.to_vec());
    }
    if table.tools.is_empty() {
        return None;
    }
    let mut names: Vec<&'static str> = table.tools.iter().map(|t| t.canonical).collect();
    names.extend(table.events.iter().filter_map(|r| r.tool));
    names.sort_unstable();
    names.dedup();
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::super::handler;
    use super::*;
    use crate::protocol::EventName;

    fn wired(agents: Vec<(&'static dyn Agent, Vec<&'static str>, &'static str)>) -> Wired {
        Wired {
            agents,
            detected: None,
            engine_missing: None,
        }
    }

    #[test]
    fn a_hook_runs_where_a_wired_agent_calls_its_event_and_its_matcher_matches() {
        let claude = crate::agents::find("claude").unwrap();
        let w = wired(vec![(claude, vec!["PreToolUse"], "")]);
        assert_eq!(
            w.reasons(&handler(EventName::PreToolUse, "Bash", "true")),
            []
        );
        assert_eq!(
            w.reasons(&handler(EventName::Stop, "", "true")),
            [Reason::StaleWiring {
                agent: "claude",
                missing: vec!["Stop".into()],
                flag: "",
            }]
        );
        let typo = w.reasons(&handler(EventName::PreToolUse, "Bsh", "true"));
        assert!(
            matches!(&typo[..], [Reason::MatchesNoTool { hint, .. }] if hint.contains("`Bash`")),
            "{typo:?}"
        );
        // Nothing wired: nothing calls agenthooks.
        assert_eq!(
            wired(vec![]).reasons(&handler(EventName::Stop, "", "true")),
            [Reason::NotWired { agent: None }]
        );
        // An event the one wired agent does not have at all.
        let (agent, event) = AGENTS
            .iter()
            .find_map(|a| {
                let missing = EventName::ALL
                    .iter()
                    .find(|e| !a.table().installed().any(|r| r.canonical == **e))?;
                Some((*a, *missing))
            })
            .expect("some agent lacks some event");
        let reasons = wired(vec![(agent, vec![], "")]).reasons(&handler(event, "", "true"));
        assert!(
            matches!(&reasons[..], [Reason::NoAgentFires { .. }]),
            "{reasons:?}"
        );
        // The engine missing matters to the kinds the front hands over only.
        let mut w = wired(vec![(claude, vec!["PreToolUse"], "")]);
        w.engine_missing = Some(PathBuf::from("/b/agenthooks-engine"));
        assert_eq!(
            w.reasons(&handler(EventName::PreToolUse, "Bash", "true")),
            []
        );
    }

    #[test]
    fn a_matcher_is_judged_against_tools_and_mcp_is_left_alone() {
        let h = |m: &str| handler(EventName::PreToolUse, m, "true");
        assert_eq!(matcher_problem(&h("Bash"), &["Bash", "Read"]), None);
        assert_eq!(
            matcher_problem(&h("Bahs"), &["Bash", "Read"]).as_deref(),
            Some("; did you mean `Bash`?")
        );
        assert_eq!(matcher_problem(&h("mcp__x__y"), &["Bash"]), None);
        assert_eq!(matcher_problem(&h("*"), &["Bash"]), None);
    }
}
