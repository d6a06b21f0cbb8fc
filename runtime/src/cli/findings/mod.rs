//! The one verdict per configured hook: whether it runs on this machine
//! now and, if not, why and the one command or edit that fixes it.
//! `agenthooks status` prints every verdict (exit 1 unless every hook
//! runs), `check` fails on those about the files and notes those about
//! this machine, and `run` tells the user about held-back hooks once per
//! session (SessionStart, [`notice`]).
//!
//! Nothing here decides a rule of its own: trust is the gate's
//! ([`trust::gate_with`]), whether a component runs is the wasm host's look
//! at it ([`WasmHost::ready`]), an `oci://` pin is the loader's, what was
//! not loaded is the loader's warnings ([`crate::config::WarningKind`]), a
//! crate behind a component is `build`'s convention, an agent's entries
//! are the install module's. Each finding is a [`Reason`]: a typed value
//! with a stable code, what it means and the command that fixes it.
//!
//! The parts: [`Reason`] (`reason`), the entries of a file that were not
//! loaded (`unloaded`), and the agents' wiring and what it lets run
//! (`wiring`). To add a finding, see [`Reason`].

mod reason;
mod unloaded;
mod wiring;

use std::path::Path;

use crate::agents::{Agent, AGENTS};
use crate::config::{Config, Handler, HandlerKind, OnError, Scope};
use crate::exec::wasm::WasmHost;
use crate::import::normalise;
use crate::import::twice::command_of;
use crate::install::{self, Env};
use crate::protocol::{Failure, Skip};
use crate::trust::{self, Standing, TrustStore};

pub use reason::{About, Reason, RecentFailure};
pub use unloaded::{is_hook_entry, Unloaded};
pub use wiring::{matcher_problem, tool_names};

/// One configured hook and what keeps it from running as declared.
#[derive(Debug, Clone)]
pub struct HookState {
    /// The hook, loaded or not.
    pub hook: Hook,
    /// Empty when it runs as declared.
    pub reasons: Vec<Reason>,
}

impl HookState {
    /// The verdict: whether it runs (no reason stops it).
    pub fn runs(&self) -> bool {
        self.reasons.iter().all(|r| !r.stops_it())
    }
}

/// A configured hook: one the loader made a [`Handler`] of, or an entry of
/// a file it could not use (which is a hook the user meant all the same).
#[derive(Debug, Clone)]
pub enum Hook {
    /// Loaded.
    Loaded(Box<Handler>),
    /// Not loaded: an entry, or a whole file.
    Unloaded(Unloaded),
}

impl Hook {
    /// The handler, when it was loaded.
    pub fn handler(&self) -> Option<&Handler> {
        match self {
            Hook::Loaded(h) => Some(h),
            Hook::Unloaded(_) => None,
        }
    }

    /// Its scope.
    pub fn scope(&self) -> Scope {
        match self {
            Hook::Loaded(h) => h.scope,
            Hook::Unloaded(u) => u.scope,
        }
    }

    /// The file that declares it.
    pub fn file(&self) -> &Path {
        match self {
            Hook::Loaded(h) => &h.file,
            Hook::Unloaded(u) => &u.file,
        }
    }

    /// The event as written (`None`: a whole file).
    pub fn event(&self) -> Option<String> {
        match self {
            Hook::Loaded(h) => Some(h.event.as_str().to_string()),
            Hook::Unloaded(u) => u.event.clone(),
        }
    }

    /// A short name: the handler's label, or where the entry is.
    pub fn label(&self) -> String {
        match self {
            Hook::Loaded(h) => h.label.clone(),
            Hook::Unloaded(u) => u.label(),
        }
    }

    /// What its failure counts as, when it was loaded.
    pub fn on_error(&self) -> Option<OnError> {
        self.handler().map(|h| h.on_error)
    }
}

/// One agent with agenthooks' entries in its own config.
#[derive(Clone)]
pub struct AgentState {
    /// The agent.
    pub agent: &'static dyn Agent,
    /// Per scope where its entries are, their native events.
    pub installed: Vec<(Scope, Vec<String>)>,
    /// What keeps its entries from running agenthooks.
    pub reasons: Vec<Reason>,
}

/// This machine, as far as a verdict depends on it.
pub struct Machine<'a> {
    /// The project root.
    pub root: &'a Path,
    /// Where the agents' files are.
    pub env: &'a Env,
    /// The trust store.
    pub store: &'a TrustStore,
    /// The wasm host (its compile cache).
    pub host: &'a WasmHost,
    /// What the per-session failure record says of a hook (issue 35, item
    /// 3): a hook that failed recently and was allowed. `|_| None` until
    /// that record exists; this is where it plugs in.
    pub recent: &'a dyn Fn(&Handler) -> Option<RecentFailure>,
}

/// Every verdict: the agents wired, and every configured hook.
pub struct Verdicts {
    /// The agents with entries of ours.
    pub agents: Vec<AgentState>,
    /// Every configured hook, loaded or not, in declaration order (whole
    /// files that could not be used first).
    pub hooks: Vec<HookState>,
}

/// The one verdict per configured hook of `config` on machine `m`.
pub fn verdicts(config: &Config, m: &Machine<'_>) -> Verdicts {
    let agents = agents(m.root, m.env, config);
    let wired = wiring::Wired::of(&agents, m.root, m.env);
    let mut hooks = unloaded::entries(config);
    for handler in &config.handlers {
        let mut reasons = wiring::file_reasons(handler, m.root);
        reasons.extend(hook_reasons(handler, m.store, m.host));
        reasons.extend(wired.reasons(handler));
        reasons.extend((m.recent)(handler).map(Reason::FailedRecently));
        hooks.push(HookState {
            hook: Hook::Loaded(Box::new(handler.clone())),
            reasons,
        });
    }
    mark_doubles(&mut hooks, config, m.root, m.env);
    Verdicts { agents, hooks }
}

/// The reasons of every hook of `config`, in declaration order.
pub fn hooks(config: &Config, store: &TrustStore, host: &WasmHost) -> Vec<HookState> {
    config
        .handlers
        .iter()
        .map(|h| HookState {
            hook: Hook::Loaded(Box::new(h.clone())),
            reasons: hook_reasons(h, store, host),
        })
        .collect()
}

/// What keeps `handler` from running as declared, as the gate and the wasm
/// host see it.
pub fn hook_reasons(handler: &Handler, store: &TrustStore, host: &WasmHost) -> Vec<Reason> {
    let mut reasons = Vec::new();
    if let HandlerKind::Unsupported { kind } = &handler.kind {
        reasons.push(Reason::Unsupported { kind: kind.clone() });
        return reasons;
    }
    let gate = trust::gate_with(store, &[handler]);
    if let Some(gated) = gate.handlers.first() {
        match (&gated.skip, gated.standing) {
            (Some(Skip::Untrusted), _) => reasons.push(Reason::Untrusted),
            (_, Standing::Narrowed) => reasons.push(Reason::Narrowed {
                withheld: (gated.notes.iter())
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
            }),
            _ => {}
        }
    }
    if let HandlerKind::Wasm(spec) = &handler.kind {
        reasons.extend(component_reason(spec, host));
    }
    if let HandlerKind::McpTool(spec) = &handler.kind {
        if let Some(failure) = mcp_problem(spec) {
            reasons.push(Reason::McpServer { failure });
        }
    }
    reasons
}

/// What is wrong with an mcp_tool hook's server whatever the event, as
/// `run` would report it (for `status` and `check`).
pub fn mcp_problem(spec: &crate::config::McpToolSpec) -> Option<String> {
    let failure = crate::protocol::Failure::McpServer {
        server: spec.server.clone(),
        why: spec.server_problem()?,
    };
    Some(failure.to_string())
}

/// Adds [`Reason::RunsTwice`] to each of `hooks` that an agent with
/// agenthooks' entries also runs from its own hook file.
pub fn mark_doubles(hooks: &mut [HookState], config: &Config, root: &Path, env: &Env) {
    let agents: Vec<&'static dyn Agent> = AGENTS
        .iter()
        .copied()
        .filter(|a| {
            [Scope::Project, Scope::User, Scope::Managed]
                .into_iter()
                .any(|scope| install::is_installed(*a, scope, root, env))
        })
        .collect();
    if agents.is_empty() {
        return;
    }
    for double in crate::import::twice::doubles(&agents, config, root, env) {
        let flag = crate::import::twice::import_flag(double.scope);
        let project = config.project_root.as_deref().or(Some(root));
        let native = normalise(Some(double.agent), &double.command, project);
        let twin = hooks.iter_mut().find(|h| {
            h.hook.handler().is_some_and(|h| {
                h.file == double.hooks_file
                    && h.event == double.event
                    && command_of(h).is_some_and(|c| normalise(None, c, project) == native)
            })
        });
        if let Some(twin) = twin {
            twin.reasons.push(Reason::RunsTwice {
                agent: double.agent.id(),
                native: double.native.clone(),
                flag,
            });
        }
    }
}

/// Whether a wasm hook's component can run now, by the host's own look.
fn component_reason(spec: &crate::config::WasmSpec, host: &WasmHost) -> Option<Reason> {
    let not_pulled = |why: String| {
        spec.oci.as_ref().map(|oci| Reason::NotPulled {
            reference: oci.reference.to_string(),
            why,
        })
    };
    if let Some(Err(why)) = spec.oci.as_ref().map(|o| &o.pin) {
        return not_pulled(why.to_string());
    }
    let buildable = || super::build::buildable(&spec.component);
    match host.ready(&spec.component) {
        Ok(true) => None,
        Ok(false) => Some(Reason::NotCompiled),
        Err(Failure::ComponentNotFound { .. }) if spec.oci.is_some() => {
            not_pulled("is not in the cache".to_string())
        }
        Err(Failure::OciNotPulled { reference, why }) => Some(Reason::NotPulled { reference, why }),
        Err(Failure::ComponentNotFound { .. }) => Some(Reason::ComponentMissing {
            path: spec.component.clone(),
            buildable: buildable(),
        }),
        Err(failure) => Some(Reason::ComponentBroken {
            failure: failure.to_string(),
            buildable: buildable(),
        }),
    }
}

/// Every agent with agenthooks' entries at some scope (project, user,
/// system), with their native events and what keeps them from running.
pub fn agents(root: &Path, env: &Env, config: &Config) -> Vec<AgentState> {
    AGENTS
        .iter()
        .copied()
        .filter_map(|agent| {
            let installed: Vec<(Scope, Vec<String>)> =
                [Scope::Project, Scope::User, Scope::Managed]
                    .into_iter()
                    .filter(|&scope| install::is_installed(agent, scope, root, env))
                    .map(|scope| (scope, install::installed_events(agent, scope, root, env)))
                    .collect();
            if installed.is_empty() {
                return None;
            }
            let mut reasons = agent_reasons(&installed);
            reasons.extend(switched_off(agent, &installed, root, env));
            reasons.extend(
                install::plugin_dir::installed(agent, env)
                    .into_iter()
                    .map(|plugin| Reason::PluginToo {
                        agent: agent.id(),
                        plugin,
                    }),
            );
            reasons.extend(install::drift(agent, config, Some(root), env).map(|d| {
                Reason::StaleWiring {
                    agent: agent.id(),
                    missing: d.missing.iter().chain(&d.binary).cloned().collect(),
                    flag: match d.scope {
                        Scope::Project => "",
                        Scope::User => " --user",
                        Scope::Managed => " --system",
                    },
                }
            }));
            reasons.extend(also_run_by(agent));
            Some(AgentState {
                agent,
                installed,
                reasons,
            })
        })
        .collect()
}

/// The agent's own settings that switch off its entries at the
/// `installed` scopes ([`Reason::SwitchedOff`]).
pub fn switched_off(
    agent: &dyn Agent,
    installed: &[(Scope, Vec<String>)],
    root: &Path,
    env: &Env,
) -> Vec<Reason> {
    let scopes: Vec<Scope> = installed.iter().map(|(scope, _)| *scope).collect();
    install::switched_off(agent, &scopes, root, env)
        .into_iter()
        .map(|off| Reason::SwitchedOff {
            agent: agent.display_name(),
            some: off.stops.len() < scopes.len(),
            file: off.file,
            setting: off.setting,
        })
        .collect()
}

/// One line per setting that switches off the agenthooks entries of an
/// agent wired here (this one or another), for the message at a session's
/// start: an agent whose hooks are all off never starts one, so the others
/// say it. `None` when no switch is on.
pub fn switched_off_notice(root: &Path, env: &Env) -> Option<String> {
    let lines: Vec<String> = AGENTS
        .iter()
        .flat_map(|agent| {
            let installed: Vec<(Scope, Vec<String>)> =
                [Scope::Project, Scope::User, Scope::Managed]
                    .into_iter()
                    .filter(|&scope| install::is_installed(*agent, scope, root, env))
                    .map(|scope| (scope, Vec::new()))
                    .collect();
            switched_off(*agent, &installed, root, env)
        })
        .map(|reason| format!("agenthooks: {}; {}", reason.why(), reason.fix_text()))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Every other agent that runs `agent`'s entries too ([`Reason::AlsoRunBy`]).
pub fn also_run_by(agent: &dyn Agent) -> impl Iterator<Item = Reason> + '_ {
    AGENTS.iter().filter_map(move |guest| {
        let visits = guest.visits().filter(|v| v.entries.contains(&agent.id()))?;
        Some(Reason::AlsoRunBy {
            guest: guest.display_name(),
            when: visits.when,
        })
    })
}

/// What keeps an agent's entries from running agenthooks.
fn agent_reasons(installed: &[(Scope, Vec<String>)]) -> Vec<Reason> {
    let mut reasons = Vec::new();
    // Project files call `agenthooks` by name (install's launcher); user and
    // system files name this binary's path.
    if installed.iter().any(|(s, _)| *s == Scope::Project) && !on_path("agenthooks") {
        reasons.push(Reason::NotOnPath);
    }
    reasons
}

/// Whether an executable `name` is on `PATH`, as the launcher's `command -v`
/// finds it.
pub fn on_path(name: &str) -> bool {
    super::install::find_on_path(Path::new(name)).is_some()
}

/// The short message for the user, in the agent's own window, when hooks
/// are held back or cannot run: "agenthooks: 2 project hooks are not trusted
/// yet and did not run; run `agenthooks trust`", one clause per reason, at
/// most [`NOTICE_CLAUSES`]. Hooks that only wait for their compile (started
/// at SessionStart) are left out. `None` when nothing is held back.
pub fn notice(hooks: &[HookState]) -> Option<String> {
    let mut groups: Vec<(&'static str, usize, &Reason)> = Vec::new();
    for reason in hooks.iter().flat_map(|h| &h.reasons) {
        if *reason == Reason::NotCompiled {
            continue;
        }
        match groups.iter_mut().find(|(code, ..)| *code == reason.code()) {
            Some(group) => group.1 += 1,
            None => groups.push((reason.code(), 1, reason)),
        }
    }
    if groups.is_empty() {
        return None;
    }
    let clauses: Vec<String> = groups
        .iter()
        .take(NOTICE_CLAUSES)
        .map(|(_, n, reason)| {
            let hooks = if *n == 1 { "hook" } else { "hooks" };
            let (is, did) = if *n == 1 { ("is", "does") } else { ("are", "do") };
            let what = match reason {
                Reason::Untrusted => format!("{n} project {hooks} {is} not trusted yet and did not run"),
                Reason::Narrowed { .. } => {
                    let runs = if *n == 1 { "runs" } else { "run" };
                    format!("{n} project wasm {hooks} {is} not trusted yet and {runs} without the access asked for")
                }
                Reason::NotPulled { .. } => format!("{n} {hooks} from a registry {is} not pulled and {did} not run"),
                Reason::ComponentMissing { .. } if *n == 1 => {
                    "1 hook's component is missing".to_string()
                }
                Reason::ComponentMissing { .. } => format!("{n} hooks' components are missing"),
                Reason::Unsupported { .. } => format!("{n} {hooks} of a type agenthooks does not run {did} not run"),
                _ => format!("{n} {hooks} cannot run: {}", reason.why()),
            };
            format!("{what}; {}", reason.fix_text())
        })
        .collect();
    let more = if groups.len() > NOTICE_CLAUSES {
        "; `agenthooks status` says more"
    } else {
        ""
    };
    Some(crate::protocol::prefixed!("{}{more}", clauses.join("; ")))
}

/// The most reasons [`notice`] names.
pub const NOTICE_CLAUSES: usize = 3;

/// A command handler for tests: `command` on `event` under `matcher`.
#[cfg(test)]
pub(super) fn handler(event: crate::protocol::EventName, matcher: &str, command: &str) -> Handler {
    use crate::config::{CommandSpec, Matcher, Shell};
    Handler {
        event,
        matcher: Matcher::parse(Some(matcher)).expect("a valid matcher"),
        if_: None,
        kind: HandlerKind::Command(CommandSpec {
            command: command.into(),
            async_: false,
            shell: Shell::System,
        }),
        timeout: std::time::Duration::from_secs(5),
        on_error: OnError::Allow,
        scope: Scope::Project,
        file: std::path::PathBuf::from("hooks.json"),
        project_root: None,
        label: format!("command `{command}`"),
        status_message: None,
        once: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::EventName;

    fn hook(reasons: Vec<Reason>) -> HookState {
        HookState {
            hook: Hook::Loaded(Box::new(handler(EventName::PreToolUse, "", "true"))),
            reasons,
        }
    }

    #[test]
    fn the_notice_counts_each_reason_once_with_its_fix() {
        assert_eq!(
            notice(&[hook(vec![]), hook(vec![Reason::NotCompiled])]),
            None
        );
        let missing = || Reason::ComponentMissing {
            path: "g.wasm".into(),
            buildable: true,
        };
        let said = notice(&[
            hook(vec![Reason::Untrusted]),
            hook(vec![missing()]),
            hook(vec![missing()]),
            hook(vec![Reason::NotCompiled]),
        ])
        .unwrap();
        assert_eq!(
            said,
            "agenthooks: 1 project hook is not trusted yet and did not run; run `agenthooks trust`; \
             2 hooks' components are missing; run `agenthooks build`"
        );
        // Past NOTICE_CLAUSES kinds, `status` says the rest.
        let many = notice(&[
            hook(vec![Reason::Untrusted]),
            hook(vec![missing()]),
            hook(vec![Reason::Unsupported {
                kind: "prompt".into(),
            }]),
            hook(vec![Reason::NotPulled {
                reference: "oci://h/r:t".into(),
                why: "is not pulled".into(),
            }]),
        ])
        .unwrap();
        assert!(many.ends_with("; `agenthooks status` says more"), "{many}");
        assert!(!many.contains("pull"), "{many}");
    }
}
