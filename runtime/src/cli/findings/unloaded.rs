//! The hooks a file declares that the loader could not use: each entry it
//! skipped with a warning (an unknown event or handler type, a value of the
//! wrong type, a bad regex, a missing key, a policy that refused it), and
//! each whole file it could not read or parse. They are configured hooks
//! all the same, so they get a verdict: `does not run`, and the edit that
//! fixes it.

use std::path::PathBuf;

use super::{Hook, HookState, Reason};
use crate::agents::AGENTS;
use crate::config::hooks_json::HandlerType;
use crate::config::{Config, ConfigWarning, Scope, Unknown, WarningKind};
use crate::suggest;

/// An entry (or a whole file) of a `hooks.json` that was not loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unloaded {
    /// The file.
    pub file: PathBuf,
    /// Its scope.
    pub scope: Scope,
    /// Where in the file: `hooks.PreToolUse[0].hooks[1]`, `hooks.PreToolUs`,
    /// or `the whole file`.
    pub at: String,
    /// The event as written, when the entry is under one.
    pub event: Option<String>,
}

impl Unloaded {
    /// A short name: `entry `hooks.Stop[0].hooks[1]``, or `the whole file`.
    pub fn label(&self) -> String {
        if self.at == WHOLE_FILE {
            WHOLE_FILE.to_string()
        } else {
            format!("entry `{}`", self.at)
        }
    }
}

/// What stands for the whole of a file.
const WHOLE_FILE: &str = "the whole file";

/// A verdict for each entry `config`'s loader skipped, and each file it
/// could not use: whole files first, then entries in the order warned.
pub fn entries(config: &Config) -> Vec<HookState> {
    let scope_of = |file: &PathBuf| {
        (config.handlers.iter())
            .find(|h| &h.file == file)
            .map(|h| h.scope)
            .or_else(|| {
                config
                    .broken
                    .iter()
                    .find(|b| &b.file == file)
                    .map(|b| b.scope)
            })
            .unwrap_or_else(|| guess_scope(config, file))
    };
    let broken = config.broken.iter().map(|b| HookState {
        hook: Hook::Unloaded(Unloaded {
            file: b.file.clone(),
            scope: b.scope,
            at: WHOLE_FILE.to_string(),
            event: None,
        }),
        reasons: vec![Reason::NotLoaded {
            code: "broken-file",
            why: format!("it cannot be used: {}", b.why),
            fix: if b.unreadable {
                "make it a readable regular file".to_string()
            } else {
                "fix the file; the other scopes' hooks still run".to_string()
            },
            command: None,
            by_policy: false,
        }],
    });
    let skipped = config.warnings.iter().filter_map(|w| {
        let (at, reason) = skipped(w)?;
        Some(HookState {
            hook: Hook::Unloaded(Unloaded {
                file: w.file.clone(),
                scope: scope_of(&w.file),
                event: event_of(&at),
                at,
            }),
            reasons: vec![reason],
        })
    });
    broken.chain(skipped).collect()
}

/// The scope of a file no loaded hook names: the managed file, the user's
/// (under the home) or the project's.
fn guess_scope(config: &Config, file: &PathBuf) -> Scope {
    if config.managed.as_ref().is_some_and(|m| &m.file == file) {
        Scope::Managed
    } else if config
        .project_root
        .as_ref()
        .is_some_and(|root| file == &crate::dirs::hooks_file(root))
    {
        Scope::Project
    } else {
        Scope::User
    }
}

/// `Stop` of `hooks.Stop[0].hooks[1]`.
fn event_of(at: &str) -> Option<String> {
    let rest = at.strip_prefix("hooks.")?;
    let end = rest.find('[').unwrap_or(rest.len());
    Some(rest[..end].to_string())
}

/// Whether `warning` is about an entry that was skipped (a hook that then
/// has its own verdict), not a key ignored.
pub fn is_hook_entry(warning: &ConfigWarning) -> bool {
    skipped(warning).is_some()
}

/// Where a warning's entry is and why it does not run, when the warning
/// says an entry was skipped (`None` for one about a key that is ignored,
/// after which the hook still runs).
fn skipped(warning: &ConfigWarning) -> Option<(String, Reason)> {
    let code = warning.kind.name();
    let not_loaded = |why: String, fix: &str| Reason::NotLoaded {
        code,
        why,
        fix: fix.to_string(),
        command: None,
        by_policy: false,
    };
    let by_policy = |why: String, fix: &str| Reason::NotLoaded {
        code,
        why,
        fix: fix.to_string(),
        command: None,
        by_policy: true,
    };
    let said = || warning.kind.to_string();
    Some(match &warning.kind {
        WarningKind::Unknown(Unknown::Event { name, suggestion }) => {
            (format!("hooks.{name}"), unknown_event(name, *suggestion))
        }
        WarningKind::Unknown(Unknown::HandlerType { at, type_ }) => {
            let all = HandlerType::ALL.map(HandlerType::as_str);
            let fix = match type_.as_deref().and_then(|t| suggest::closest(t, all)) {
                Some(meant) => format!("did you mean `{meant}`? change `type` to it"),
                None => format!("set `type` to one of {}", all.join(", ")),
            };
            let why = match type_ {
                Some(t) => format!("unknown handler type `{t}`"),
                None => "the handler has no `type`".to_string(),
            };
            (at.clone(), not_loaded(why, &fix))
        }
        WarningKind::MissingKey { at, key } => (
            at.clone(),
            not_loaded(
                format!("`{key}` is missing or empty"),
                &format!("give it a `{key}`"),
            ),
        ),
        // A top-level key of the wrong type is no hook: `check` names it.
        WarningKind::WrongType { skipped: "key", .. } => return None,
        WarningKind::WrongType { entry, .. } => (
            entry.clone(),
            not_loaded(said(), "fix the value's type (`agenthooks schema config` has them)"),
        ),
        WarningKind::InvalidRegex { at, .. } => {
            (at.clone(), not_loaded(said(), "fix the regex"))
        }
        WarningKind::IfWithoutToolInput { at, .. } | WarningKind::IfToolNeverSelected { at, .. } => {
            (at.clone(), not_loaded(said(), "fix or remove its `if`"))
        }
        WarningKind::BadUrl { at, .. } => (at.clone(), not_loaded(said(), "fix its `url`")),
        WarningKind::BadOciReference { at, .. } => {
            (at.clone(), not_loaded(said(), "fix its `component` reference"))
        }
        WarningKind::McpLookup { at, .. } => {
            (at.clone(), not_loaded(said(), "fix the MCP server file it names"))
        }
        WarningKind::LlmRefused { at, why } if why.contains("allowLlmHooks") => (
            at.clone(),
            Reason::NotLoaded {
                code: "llm-hooks-off",
                why: why.clone(),
                fix: "only the managed policy's administrator can allow them; use a command or wasm hook".to_string(),
                command: None,
                by_policy: true,
            },
        ),
        WarningKind::LlmRefused { at, .. } => {
            (at.clone(), not_loaded(said(), "use a command hook there"))
        }
        WarningKind::ComponentRefused { at, .. } => (
            at.clone(),
            by_policy(said(), "use a component from a source the managed policy allows"),
        ),
        WarningKind::NotLoaded { policy } => (
            WHOLE_FILE.to_string(),
            Reason::NotLoaded {
                code: "managed-only",
                why: format!(
                    "not read: the managed policy `{}` sets `managedOnly`, so only its hooks run",
                    policy.display()
                ),
                fix: "move the hooks into the managed file, or ask its administrator".to_string(),
                command: None,
                by_policy: true,
            },
        ),
        _ => return None,
    })
}

/// An unknown event: a typo (did you mean), an agent's own name for a
/// canonical event (import converts it), or neither.
fn unknown_event(name: &str, suggestion: Option<&'static str>) -> Reason {
    let native = AGENTS.iter().find_map(|agent| {
        let row = (agent.table().events.iter()).find(|r| r.native == name)?;
        (row.canonical.as_str() != name).then(|| (*agent, row.canonical.as_str()))
    });
    let (fix, command) = match (native, suggestion) {
        (Some((agent, canonical)), _) => (
            format!(
                "`{name}` is {}'s name for {canonical}; write {canonical}, or let import convert the agent's file",
                agent.display_name()
            ),
            Some(format!("agenthooks import {}", agent.id())),
        ),
        (None, Some(meant)) => (format!("did you mean `{meant}`? rename it"), None),
        (None, None) => (
            "use one of the events `agenthooks schema config` lists".to_string(),
            None,
        ),
    };
    Reason::NotLoaded {
        code: "unknown-event",
        why: format!("unknown event `{name}`"),
        fix,
        command,
        by_policy: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(kind: WarningKind) -> ConfigWarning {
        ConfigWarning {
            file: PathBuf::from("/p/.agents/hooks.json"),
            kind,
        }
    }

    #[test]
    fn a_typo_and_an_agents_own_event_name_each_say_their_fix() {
        let typo = unknown_event("PreToolUs", Some("PreToolUse"));
        assert_eq!(typo.fix_text(), "did you mean `PreToolUse`? rename it");
        let gemini = unknown_event("BeforeTool", None);
        assert_eq!(gemini.fix().as_deref(), Some("agenthooks import gemini"));
        assert!(
            gemini
                .fix_text()
                .contains("Gemini CLI's name for PreToolUse"),
            "{}",
            gemini.fix_text()
        );
    }

    #[test]
    fn skipped_entries_are_hooks_and_ignored_keys_are_not() {
        let (at, reason) = skipped(&warning(WarningKind::Unknown(Unknown::HandlerType {
            at: "hooks.PreToolUse[0].hooks[1]".into(),
            type_: Some("comand".into()),
        })))
        .unwrap();
        assert_eq!(at, "hooks.PreToolUse[0].hooks[1]");
        assert_eq!(event_of(&at).as_deref(), Some("PreToolUse"));
        assert_eq!(reason.code(), "unknown-handler-type");
        assert_eq!(
            reason.fix_text(),
            "did you mean `command`? change `type` to it"
        );
        assert!(reason.stops_it());
        let wrong = |skipped| {
            warning(WarningKind::WrongType {
                at: "hooks.Stop[0].hooks[0].timeout".into(),
                entry: "hooks.Stop[0].hooks[0]".into(),
                why: "invalid type".into(),
                skipped,
            })
        };
        let (at, reason) = skipped(&wrong("handler")).unwrap();
        assert_eq!(at, "hooks.Stop[0].hooks[0]");
        assert_eq!(reason.code(), "wrong-type");
        assert!(skipped(&wrong("key")).is_none());
        let key = warning(WarningKind::Unknown(Unknown::Key {
            at: "hooks.PreToolUse[0]".into(),
            key: "matchr".into(),
            suggestion: Some("matcher"),
        }));
        assert!(skipped(&key).is_none());
    }
}
