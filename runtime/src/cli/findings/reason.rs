//! [`Reason`]: why one configured hook (or an agent's entries) does not do
//! its work here, what that means in words, the one command or edit that
//! fixes it, whether it stops the hook, and whether it is about the files
//! (`check` fails on it) or about this machine (`check` notes it).

use std::path::PathBuf;

/// Why a hook (or an agent's entries) will not do its work now.
///
/// To add a finding: one variant here (its code, text, fix, [`Reason::stops_it`]
/// and [`Reason::about`] below) and one place that finds it in
/// [`super::verdicts`] (a per-hook look, an entry that could not be
/// loaded, or an agent's wiring).
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
    /// The compile cache does not hold it (or a compile of it is under
    /// way): its first event compiles it and may give up waiting, allowing.
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
    /// ([`crate::install::drift`]): those hooks do not run in that agent.
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
    /// Another agent runs this agent's entries too, with its own payloads
    /// ([`crate::agents::Visits`]: VS Code's Local harness runs Claude
    /// Code's and Copilot CLI's): agenthooks answers it there in its own
    /// dialect and runs each hook once among its entries. Informational.
    AlsoRunBy {
        /// The other agent's display name.
        guest: &'static str,
        /// When it does.
        when: &'static str,
    },
    /// A setting of the agent's own switches its hooks off, agenthooks'
    /// entries among them ([`crate::install::switched_off`]): nothing of
    /// agenthooks runs in it from those entries.
    SwitchedOff {
        /// The agent's display name.
        agent: &'static str,
        /// The file that holds the setting.
        file: PathBuf,
        /// The setting, a JSON pointer.
        setting: &'static str,
        /// Whether it stops only some of the agent's entries (those of
        /// other files than the system-wide one, whose own still run).
        some: bool,
    },
    /// An entry of a `hooks.json` that was not loaded as a hook (an unknown
    /// event or handler type, a value of the wrong type, a bad regex, a key
    /// it cannot do without, a policy that refused it, a file that does not
    /// parse): nothing of it runs.
    NotLoaded {
        /// A stable name ([`crate::config::WarningKind::name`]'s, or
        /// `broken-file`, `wrong-type`).
        code: &'static str,
        /// What is wrong, as the loader says it.
        why: String,
        /// The one edit that fixes it.
        fix: String,
        /// A command that fixes it, when one does (`agenthooks import gemini`).
        command: Option<String>,
        /// Whether this machine's policy refused it (the managed file's
        /// `allowLlmHooks`, `managedOnly`, `allowedComponents`) rather than
        /// the file being wrong.
        by_policy: bool,
    },
    /// The program a command hook runs is a path that does not exist.
    ScriptMissing {
        /// The path as the command names it.
        path: PathBuf,
    },
    /// The program a command hook runs is a file without its executable bit.
    ScriptNotExecutable {
        /// The path as the command names it.
        path: PathBuf,
    },
    /// A tool event's matcher that matches no tool of any wired agent
    /// (Claude Code's when none is wired).
    MatchesNoTool {
        /// The matcher as written.
        matcher: String,
        /// The agents whose tools were looked at.
        agents: String,
        /// `"; did you mean `Bash`?"` or nothing.
        hint: String,
    },
    /// No agent has agenthooks' entries at any scope: nothing calls it.
    NotWired {
        /// The agent to suggest (one whose folder is here), or `None`.
        agent: Option<&'static str>,
    },
    /// Agents are wired, and none of them has the hook's event.
    NoAgentFires {
        /// The event.
        event: String,
        /// The wired agents.
        wired: Vec<&'static str>,
        /// An agent that has the event, to install.
        candidate: Option<&'static str>,
    },
    /// A hook of a kind the small `agenthooks` binary hands to the engine,
    /// and the engine is not beside it.
    EngineMissing {
        /// Where the engine should be.
        engine: PathBuf,
    },
    /// The hook failed at a recent event and was allowed (failed open).
    ///
    /// The extension point for the per-session failure record (issue 35,
    /// item 3): [`super::Machine::recent`] returns one of these for a hook
    /// the record holds; nothing here builds the record.
    FailedRecently(RecentFailure),
}

/// What the per-session failure record says of one hook (see
/// [`Reason::FailedRecently`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecentFailure {
    /// The failure, as its note said it (`could not reach its model
    /// (connection refused)`).
    pub failure: String,
    /// How many times, in the sessions the record covers.
    pub count: u32,
}

/// Whether a reason is about the files (the same in every clone: `check`
/// fails on it) or about this machine (trust, the caches, the wiring:
/// `check` notes it, `status` fails on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum About {
    /// The hooks files and what they name.
    Files,
    /// This machine's state.
    Machine,
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
            Reason::AlsoRunBy { .. } => "also-run-by",
            Reason::SwitchedOff { .. } => "switched-off",
            Reason::NotLoaded { code, .. } => code,
            Reason::ScriptMissing { .. } => "script-missing",
            Reason::ScriptNotExecutable { .. } => "script-not-executable",
            Reason::MatchesNoTool { .. } => "matches-no-tool",
            Reason::NotWired { .. } => "not-wired",
            Reason::NoAgentFires { .. } => "no-agent-fires-event",
            Reason::EngineMissing { .. } => "engine-missing",
            Reason::FailedRecently(_) => "failed-recently",
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
            Reason::ComponentBroken { failure, .. } | Reason::McpServer { failure } => {
                failure.clone()
            }
            Reason::NotCompiled => {
                "not compiled yet (or compiling now): its first event compiles it and may give up waiting, allowing".to_string()
            }
            Reason::Unsupported { kind } => format!("`{kind}` handlers are not run by agenthooks"),
            Reason::NotOnPath => {
                "its entries run `agenthooks` from PATH, where it is not found".to_string()
            }
            Reason::StaleWiring { agent, missing, .. } => format!(
                "{agent}'s entries do not call {}, which hooks use",
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
            Reason::AlsoRunBy { guest, when } => format!(
                "{guest} also runs these entries ({when}), with its own payloads: agenthooks reads them as {guest}'s, answers in its dialect and runs each hook once among the entries {guest} runs"
            ),
            Reason::SwitchedOff {
                agent,
                file,
                setting,
                some,
            } => format!(
                "`{}`: `{setting}` switches {} of {agent} off, agenthooks' entries included",
                file.display(),
                if *some { "the hooks of its other files" } else { "every hook" }
            ),
            other => other.why_more(),
        }
    }

    /// [`Reason::why`] of the reasons found past a hook's own handler.
    fn why_more(&self) -> String {
        match self {
            Reason::NotLoaded { why, .. } => why.clone(),
            Reason::ScriptMissing { path } => {
                format!("its script `{}` does not exist", path.display())
            }
            Reason::ScriptNotExecutable { path } => format!(
                "its script `{}` is not executable, so it fails with `Permission denied`",
                path.display()
            ),
            Reason::MatchesNoTool {
                matcher,
                agents,
                hint,
            } => format!("matcher `{matcher}` matches no tool {agents} has{hint}"),
            Reason::NotWired { .. } => {
                "no agent is wired to agenthooks here, so nothing calls it".to_string()
            }
            Reason::NoAgentFires { event, wired, .. } => {
                format!("no wired agent ({}) fires {event}", wired.join(", "))
            }
            Reason::EngineMissing { engine } => format!(
                "its kind runs in the engine, and `{}` does not exist",
                engine.display()
            ),
            Reason::FailedRecently(recent) => format!(
                "failed recently and was allowed ({}{})",
                recent.failure,
                match recent.count {
                    0 | 1 => String::new(),
                    n => format!(", {n} times"),
                }
            ),
            other => other.code().to_string(),
        }
    }

    /// The one command that fixes it; `None` when no command does (then
    /// [`Reason::fix_text`] says the edit).
    pub fn fix(&self) -> Option<String> {
        let build = || "agenthooks build".to_string();
        match self {
            Reason::Untrusted | Reason::Narrowed { .. } => Some("agenthooks trust".to_string()),
            Reason::NotPulled { .. } => Some("agenthooks pull".to_string()),
            Reason::ComponentMissing { buildable, .. }
            | Reason::ComponentBroken { buildable, .. } => buildable.then(build),
            Reason::NotCompiled => Some("agenthooks compile".to_string()),
            Reason::NotOnPath | Reason::EngineMissing { .. } => Some(crate::origin::install_line()),
            Reason::StaleWiring { agent, flag, .. } => {
                Some(format!("agenthooks install {agent}{flag}"))
            }
            Reason::RunsTwice { agent, flag, .. } => {
                flag.map(|flag| format!("agenthooks import {agent}{flag} --move"))
            }
            Reason::NotLoaded { command, .. } => command.clone(),
            Reason::ScriptNotExecutable { path } => Some(format!("chmod +x {}", path.display())),
            Reason::NotWired { agent } => {
                Some(format!("agenthooks install {}", agent.unwrap_or("<agent>")))
            }
            Reason::NoAgentFires { candidate, .. } => {
                candidate.map(|agent| format!("agenthooks install {agent}"))
            }
            _ => None,
        }
    }

    /// [`Reason::fix`] as a clause, or what to do when no command fixes it.
    pub fn fix_text(&self) -> String {
        match (self, self.fix()) {
            (Reason::NotOnPath | Reason::EngineMissing { .. }, Some(fix)) => {
                format!("install it: `{fix}`")
            }
            (Reason::NotLoaded { fix, .. }, Some(command)) => format!("{fix}: `{command}`"),
            (_, Some(fix)) => format!("run `{fix}`"),
            (Reason::NotLoaded { fix, .. }, None) => fix.clone(),
            (Reason::Unsupported { .. }, None) => "remove it or change its `type`".to_string(),
            (Reason::McpServer { .. }, None) => {
                "define the server in `.mcp.json` or `~/.claude.json`, or fix the hook's `server`"
                    .to_string()
            }
            (Reason::PluginToo { agent, .. }, None) => format!(
                "keep one: uninstall the plugin in {agent}, or the entries with `agenthooks uninstall {agent}` (with the scope's flag)"
            ),
            (Reason::AlsoRunBy { .. }, None) => "nothing to do".to_string(),
            (Reason::SwitchedOff { .. }, None) => {
                "remove the setting from that file to let agenthooks run there".to_string()
            }
            (Reason::RunsTwice { .. }, None) => {
                "remove it from hooks.json: the machine's file runs it for every project"
                    .to_string()
            }
            (Reason::ScriptMissing { .. }, None) => {
                "create the script, or fix the path in hooks.json".to_string()
            }
            (Reason::MatchesNoTool { .. }, None) => {
                "fix the matcher (`agenthooks agents` lists each agent's tools)".to_string()
            }
            (Reason::NoAgentFires { .. }, None) => {
                "move the hook to an event the wired agents fire (`agenthooks agents`)".to_string()
            }
            (Reason::FailedRecently(_), None) => {
                "see why with `agenthooks fire`; set `\"onError\": \"deny\"` to fail closed"
                    .to_string()
            }
            (_, None) => "fix the path or the file in hooks.json".to_string(),
        }
    }

    /// Whether the hook does not run at all, or may not decide, because of
    /// it (a narrowed hook runs without its grants; a hook an agent's own
    /// file runs still runs once).
    pub fn stops_it(&self) -> bool {
        !matches!(
            self,
            Reason::Narrowed { .. } | Reason::RunsTwice { .. } | Reason::AlsoRunBy { .. }
        )
    }

    /// Whether it is about the files or about this machine.
    pub fn about(&self) -> About {
        match self {
            Reason::NotLoaded { by_policy, .. } if !by_policy => About::Files,
            Reason::ComponentMissing { .. }
            | Reason::ComponentBroken { .. }
            | Reason::McpServer { .. }
            | Reason::Unsupported { .. }
            | Reason::ScriptMissing { .. }
            | Reason::ScriptNotExecutable { .. }
            | Reason::MatchesNoTool { .. } => About::Files,
            _ => About::Machine,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each variant.
    fn every_reason() -> Vec<Reason> {
        vec![
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
            Reason::McpServer {
                failure: "no server".into(),
            },
            Reason::Unsupported {
                kind: "agent".into(),
            },
            Reason::NotOnPath,
            Reason::StaleWiring {
                agent: "claude",
                missing: vec!["Stop".into()],
                flag: "",
            },
            Reason::RunsTwice {
                agent: "claude",
                native: "s.json".into(),
                flag: Some(""),
            },
            Reason::PluginToo {
                agent: "claude",
                plugin: "p".into(),
            },
            Reason::AlsoRunBy {
                guest: "VS Code",
                when: "its Local harness",
            },
            Reason::SwitchedOff {
                agent: "Gemini CLI",
                file: ".gemini/settings.json".into(),
                setting: "/hooksConfig/enabled",
                some: false,
            },
            Reason::NotLoaded {
                code: "unknown-event",
                why: "unknown event `PreToolUs`".into(),
                fix: "did you mean `PreToolUse`? rename it".into(),
                command: None,
                by_policy: false,
            },
            Reason::ScriptMissing {
                path: "./x.sh".into(),
            },
            Reason::ScriptNotExecutable {
                path: "./x.sh".into(),
            },
            Reason::MatchesNoTool {
                matcher: "Bsh".into(),
                agents: "Claude Code".into(),
                hint: String::new(),
            },
            Reason::NotWired { agent: None },
            Reason::NoAgentFires {
                event: "Stop".into(),
                wired: vec!["cursor"],
                candidate: Some("claude"),
            },
            Reason::EngineMissing {
                engine: "/bin/agenthooks-engine".into(),
            },
            Reason::FailedRecently(RecentFailure {
                failure: "timed out".into(),
                count: 3,
            }),
        ]
    }

    #[test]
    fn every_reason_has_a_code_its_own_words_and_a_fix() {
        let all = every_reason();
        let codes: std::collections::BTreeSet<_> = all.iter().map(Reason::code).collect();
        assert_eq!(codes.len(), all.len());
        for reason in &all {
            let why = reason.why();
            // A variant no `why` arm writes shows its bare code.
            assert_ne!(why, reason.code(), "{reason:?}");
            assert!(!reason.fix_text().is_empty());
            if let Some(fix) = reason.fix() {
                assert!(reason.fix_text().contains(&fix), "{reason:?}");
            }
        }
        // The line of the package manager this copy came from (a test
        // binary, built by cargo: the platform's release line), never a
        // build from a clone.
        assert_eq!(Reason::NotOnPath.fix(), Some(crate::origin::install_line()));
        assert!(!crate::origin::install_line().contains("cargo"));
        assert!(Reason::NotCompiled.stops_it() && Reason::Untrusted.stops_it());
        assert!(!Reason::Narrowed {
            withheld: String::new()
        }
        .stops_it());
        assert_eq!(
            Reason::ScriptNotExecutable {
                path: "./x.sh".into()
            }
            .fix_text(),
            "run `chmod +x ./x.sh`"
        );
    }

    #[test]
    fn the_files_and_the_machine_are_told_apart() {
        assert_eq!(Reason::Untrusted.about(), About::Machine);
        assert_eq!(Reason::NotCompiled.about(), About::Machine);
        let loaded = |by_policy| Reason::NotLoaded {
            code: "x",
            why: "y".into(),
            fix: "z".into(),
            command: None,
            by_policy,
        };
        assert_eq!(loaded(false).about(), About::Files);
        assert_eq!(loaded(true).about(), About::Machine);
        assert_eq!(
            Reason::ScriptMissing { path: "x".into() }.about(),
            About::Files
        );
    }
}
