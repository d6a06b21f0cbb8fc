//! What stands between a configured hook and its running on this machine
//! now, and the one command that fixes it: `agenthooks status` prints it,
//! and `run` tells the user about it once per session (SessionStart).
//!
//! Nothing here decides a rule of its own: trust is the gate's
//! ([`trust::gate_with`]), whether a component runs is the wasm host's look
//! at it ([`WasmHost::ready`]), an `oci://` pin is the loader's, a crate
//! behind a component is `build`'s convention, an agent's entries are the
//! install module's. Each finding is a [`Reason`]: a typed value with a
//! stable code, what it means and the command that fixes it.

use std::path::{Path, PathBuf};

use crate::agents::{Agent, AGENTS};
use crate::config::{Config, Handler, HandlerKind, Scope};
use crate::exec::wasm::WasmHost;
use crate::import::normalise;
use crate::import::twice::command_of;
use crate::install::{self, Env};
use crate::protocol::{Failure, Skip};
use crate::trust::{self, Standing, TrustStore};

/// Why a hook (or an agent's entries) will not do its work now.
///
/// To add a finding: one variant here (its code, text and fix below) and
/// one call where it is found ([`hook_reasons`], [`mark_doubles`] or `agent_reasons` in [`agents`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// A project command or http hook the user has not trusted: the trust
    /// gate skips it.
    Untrusted,
    /// A project wasm hook not trusted: it runs, without what it asks for.
    Narrowed {
        /// The gate's note (what is withheld).
        withheld: String,
    },
    /// An `oci://` component that is not locked or not in the cache.
    NotPulled {
        /// The reference as configured.
        reference: String,
        /// What is missing.
        why: String,
    },
    /// The component file does not exist.
    ComponentMissing {
        /// The configured path.
        path: PathBuf,
        /// Whether `agenthooks build` builds it (a crate beside it).
        buildable: bool,
    },
    /// The component exists and cannot run (not a component, a compile
    /// remembered as failed, ...).
    ComponentBroken {
        /// What an event would report.
        failure: String,
        /// Whether `agenthooks build` rebuilds it.
        buildable: bool,
    },
    /// The compile cache does not hold it: the first event compiles it and
    /// may time out waiting.
    NotCompiled,
    /// An mcp_tool hook whose server no MCP file defines (or defines in a
    /// way agenthooks cannot reach): every event reports it as a failure.
    McpServer {
        /// The failure an event would report.
        failure: String,
    },
    /// A handler type agenthooks does not run (yet).
    Unsupported {
        /// The `type` as written.
        kind: String,
    },
    /// The agent's project entries call `agenthooks` from `PATH`, where it is not.
    NotOnPath,
    /// The hooks use events the agent's entries do not call
    /// ([`install::drift`]): those hooks do not run in that agent.
    StaleWiring {
        /// The agent's id.
        agent: &'static str,
        /// The events, canonical.
        missing: Vec<String>,
        /// `install`'s scope flag (``, ` --user`, ` --system`).
        flag: &'static str,
    },
    /// An agent's own hook file runs the same command for the same event
    /// ([`crate::import::twice::doubles`]): `run` skips this copy for that
    /// agent, so it runs once, from the agent's file.
    RunsTwice {
        /// The agent's id.
        agent: &'static str,
        /// The native file that runs it too.
        native: PathBuf,
        /// `import`'s scope flag (`` or ` --user`); `None` for the machine's
        /// file, which `import` does not edit.
        flag: Option<&'static str>,
    },
    /// An agent whose agenthooks entries are installed also keeps an
    /// agenthooks plugin ([`crate::install::plugin_dir::installed`]): it
    /// runs every hook twice.
    PluginToo {
        /// The agent's id.
        agent: &'static str,
        /// The plugin's root.
        plugin: PathBuf,
    },
}

impl Reason {
    /// A stable kebab-case name, for `status --json`.
    pub fn code(&self) -> &'static str {
        match self {
            Reason::Untrusted => "untrusted",
            Reason::Narrowed { .. } => "narrowed",
            Reason::NotPulled { .. } => "not-pulled",
            Reason::ComponentMissing { .. } => "component-missing",
            Reason::ComponentBroken { .. } => "component-broken",
            Reason::NotCompiled => "not-compiled",
            Reason::McpServer { .. } => "mcp-server",
            Reason::Unsupported { .. } => "unsupported",
            Reason::NotOnPath => "not-on-path",
            Reason::StaleWiring { .. } => "stale-wiring",
            Reason::RunsTwice { .. } => "runs-twice",
            Reason::PluginToo { .. } => "plugin-too",
        }
    }

    /// What it means, in a few words.
    pub fn why(&self) -> String {
        match self {
            Reason::Untrusted => "not trusted yet".to_string(),
            Reason::Narrowed { withheld } => format!("not trusted yet: {withheld}"),
            Reason::NotPulled { reference, why } => format!("`{reference}` {why}"),
            Reason::ComponentMissing { path, .. } => {
                format!("component `{}` does not exist", path.display())
            }
            Reason::ComponentBroken { failure, .. } => failure.clone(),
            Reason::NotCompiled => {
                "not compiled yet: its first event compiles it and may give up waiting".to_string()
            }
            Reason::McpServer { failure } => failure.clone(),
            Reason::Unsupported { kind } => format!("`{kind}` handlers are not run by agenthooks"),
            Reason::NotOnPath => {
                "its entries run `agenthooks` from PATH, where it is not found".to_string()
            }
            Reason::StaleWiring { missing, .. } => format!(
                "its entries do not call {}, which hooks use",
                missing.join(", ")
            ),
            Reason::RunsTwice { agent, native, .. } => format!(
                "`{}` runs it too: {agent} runs it from there, agenthooks skips its copy there",
                native.display()
            ),
            Reason::PluginToo { agent, plugin } => format!(
                "{agent} also loads the agenthooks plugin `{}`, so it runs every hook twice (once from the plugin, once from the entries)",
                plugin.display()
            ),
        }
    }

    /// The one command that fixes it; `None` when no command does.
    pub fn fix(&self) -> Option<String> {
        let build = || "agenthooks build".to_string();
        match self {
            Reason::Untrusted | Reason::Narrowed { .. } => Some("agenthooks trust".to_string()),
            Reason::NotPulled { .. } => Some("agenthooks pull".to_string()),
            Reason::ComponentMissing { buildable, .. }
            | Reason::ComponentBroken { buildable, .. } => buildable.then(build),
            Reason::NotCompiled => Some("agenthooks compile".to_string()),
            Reason::McpServer { .. } | Reason::Unsupported { .. } => None,
            Reason::NotOnPath => Some(crate::origin::install_line()),
            Reason::StaleWiring { agent, flag, .. } => {
                Some(format!("agenthooks install {agent}{flag}"))
            }
            Reason::RunsTwice { agent, flag, .. } => {
                flag.map(|flag| format!("agenthooks import {agent}{flag} --move"))
            }
            Reason::PluginToo { .. } => None,
        }
    }

    /// [`Reason::fix`] as a clause, or what to do when no command fixes it.
    pub fn fix_text(&self) -> String {
        match (self, self.fix()) {
            (Reason::NotOnPath, Some(fix)) => format!("install it: `{fix}`"),
            (_, Some(fix)) => format!("run `{fix}`"),
            (Reason::Unsupported { .. }, None) => "remove it or change its `type`".to_string(),
            (Reason::McpServer { .. }, None) => {
                "define the server in `.mcp.json` or `~/.claude.json`, or fix the hook's `server`"
                    .to_string()
            }
            (Reason::PluginToo { agent, .. }, None) => format!(
                "keep one: uninstall the plugin in {agent}, or the entries with `agenthooks uninstall {agent}` (with the scope's flag)"
            ),
            (Reason::RunsTwice { .. }, None) => {
                "remove it from hooks.json: the machine's file runs it for every project"
                    .to_string()
            }
            (_, None) => "fix the path or the file in hooks.json".to_string(),
        }
    }

    /// Whether the hook runs at all (narrowed and uncompiled hooks do).
    pub fn stops_it(&self) -> bool {
        !matches!(
            self,
            Reason::Narrowed { .. } | Reason::NotCompiled | Reason::RunsTwice { .. }
        )
    }
}

/// One configured hook and what keeps it from running as declared.
#[derive(Debug, Clone)]
pub struct HookState {
    /// The hook.
    pub handler: Handler,
    /// Empty when it runs as declared.
    pub reasons: Vec<Reason>,
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

/// The reasons of every hook of `config`, in declaration order.
pub fn hooks(config: &Config, store: &TrustStore, host: &WasmHost) -> Vec<HookState> {
    config
        .handlers
        .iter()
        .map(|h| HookState {
            handler: h.clone(),
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
            h.handler.file == double.hooks_file
                && h.handler.event == double.event
                && command_of(&h.handler).is_some_and(|c| normalise(None, c, project) == native)
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
    let used = install::Used::of(config);
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
            reasons.extend(
                install::plugin_dir::installed(agent, env)
                    .into_iter()
                    .map(|plugin| Reason::PluginToo {
                        agent: agent.id(),
                        plugin,
                    }),
            );
            reasons.extend(install::drift(agent, &used, Some(root), env).map(|d| {
                Reason::StaleWiring {
                    agent: agent.id(),
                    missing: d.missing.iter().map(|e| e.as_str().to_string()).collect(),
                    flag: match d.scope {
                        Scope::Project => "",
                        Scope::User => " --user",
                        Scope::Managed => " --system",
                    },
                }
            }));
            Some(AgentState {
                agent,
                installed,
                reasons,
            })
        })
        .collect()
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
    Some(format!("agenthooks: {}{more}", clauses.join("; ")))
}

/// The most reasons [`notice`] names.
pub const NOTICE_CLAUSES: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{CommandSpec, OnError, Shell};
    use crate::protocol::EventName;
    use crate::select::Matcher;

    fn hook(reasons: Vec<Reason>) -> HookState {
        HookState {
            handler: Handler {
                event: EventName::PreToolUse,
                matcher: Matcher::All,
                if_: None,
                kind: HandlerKind::Command(CommandSpec {
                    command: "true".into(),
                    async_: false,
                    shell: Shell::System,
                }),
                timeout: std::time::Duration::from_secs(5),
                on_error: OnError::Allow,
                scope: Scope::Project,
                file: PathBuf::from("hooks.json"),
                project_root: None,
                label: "command `true`".into(),
                status_message: None,
                once: false,
            },
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

    #[test]
    fn every_reason_has_a_code_and_says_what_fixes_it() {
        let all = [
            Reason::Untrusted,
            Reason::Narrowed {
                withheld: "x".into(),
            },
            Reason::NotPulled {
                reference: "r".into(),
                why: "w".into(),
            },
            Reason::ComponentMissing {
                path: "p".into(),
                buildable: false,
            },
            Reason::ComponentBroken {
                failure: "f".into(),
                buildable: true,
            },
            Reason::NotCompiled,
            Reason::Unsupported {
                kind: "agent".into(),
            },
            Reason::NotOnPath,
        ];
        let codes: std::collections::BTreeSet<_> = all.iter().map(Reason::code).collect();
        assert_eq!(codes.len(), all.len());
        for reason in &all {
            assert!(!reason.why().is_empty());
            if let Some(fix) = reason.fix() {
                assert!(reason.fix_text().contains(&fix), "{reason:?}");
            }
        }
        // The line of the package manager this copy came from (a test
        // binary, built by cargo: the platform's release line), never a
        // build from a clone.
        assert_eq!(Reason::NotOnPath.fix(), Some(crate::origin::install_line()));
        assert!(!crate::origin::install_line().contains("cargo"));
        assert!(!Reason::NotCompiled.stops_it() && Reason::Untrusted.stops_it());
    }
}
