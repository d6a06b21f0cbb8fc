//! Config warnings as data: what in a `hooks.json` was ignored or skipped,
//! typed by kind so a consumer can tell an unknown key from a component the
//! managed policy refused without reading the text.

use std::fmt;
use std::path::PathBuf;

use super::hooks_json::Unknown;
use crate::protocol::{one_line, EventName};

/// One thing in a `hooks.json` that was ignored or skipped; the rest of the
/// file still runs.
///
/// Display is one bounded line naming the file (`` `path`: what; fix ``):
/// the kinds quote the file's own text (a key, a regex, serde's message), so
/// a hostile file cannot flood stderr or fake a line.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ConfigWarning {
    /// The file the warning is about.
    pub file: PathBuf,
    /// What was wrong with it.
    pub kind: WarningKind,
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&one_line(&format!(
            "`{}`: {}",
            self.file.display(),
            self.kind
        )))
    }
}

/// What a [`ConfigWarning`] is about. `at` is where in the file:
/// `hooks.<Event>[i]` or `hooks.<Event>[i].hooks[j]`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum WarningKind {
    /// A key, event or handler type the format does not know.
    Unknown(Unknown),
    /// A value of the wrong type: the handler, group or key holding it is
    /// skipped and the rest of the file still loads.
    WrongType {
        /// The key path of the value (`hooks.Stop[0].hooks[0].timeout`).
        at: String,
        /// The key path of what is skipped (`hooks.Stop[0].hooks[0]`).
        entry: String,
        /// What was expected, in words.
        why: String,
        /// What is skipped (`handler`, `group`, `event`, `key`).
        skipped: &'static str,
    },
    /// The key a handler of its type cannot do without is missing or empty.
    MissingKey {
        /// Where.
        at: String,
        /// The key (`command`, `component`, `prompt`, ...).
        key: &'static str,
    },
    /// An mcp_tool handler's MCP server files could not be read.
    McpLookup {
        /// Where.
        at: String,
        /// The server's name.
        server: String,
        /// Why the lookup failed.
        why: String,
    },
    /// A user file's key that the managed file already set: ignored.
    SetByManaged {
        /// The key.
        key: &'static str,
    },
    /// A key honoured in the managed and user files only, in a project file.
    UserFileOnly {
        /// The key.
        key: &'static str,
    },
    /// A key honoured in the managed file only, elsewhere.
    ManagedFileOnly {
        /// The key.
        key: &'static str,
    },
    /// A count of 0 where at least 1 is needed: the default is used.
    BelowOne {
        /// The key (`eventMemoryMiB`, `maxLlmCalls`).
        key: &'static str,
    },
    /// An `llm` object that cannot be used.
    BadLlm {
        /// Why.
        why: String,
    },
    /// A matcher or `if` that is not a valid regex: its group or handler is skipped.
    InvalidRegex {
        /// Where.
        at: String,
        /// What it is (`matcher`, `` `if` regex ``).
        key: &'static str,
        /// The source as written.
        source: String,
        /// The event it is under.
        event: EventName,
        /// The regex error, on one line.
        why: String,
        /// What is skipped (`group`, `handler`).
        skipped: &'static str,
    },
    /// An `if` on an event that has no tool input: the handler never runs.
    IfWithoutToolInput {
        /// Where.
        at: String,
        /// The event.
        event: EventName,
    },
    /// What a Claude permission rule in `if` does differently than it reads.
    IfNote {
        /// Where.
        at: String,
        /// The note.
        note: String,
    },
    /// An `if` naming a tool the group's matcher never selects.
    IfToolNeverSelected {
        /// Where.
        at: String,
        /// The tool the rule names.
        tool: String,
    },
    /// A `timeout` that is not a positive number of seconds.
    BadTimeout {
        /// Where.
        at: String,
        /// The value as read.
        secs: f64,
        /// The default used instead, in seconds.
        default_secs: u64,
    },
    /// `onError` and `onFailure` disagree: the handler fails closed.
    OnErrorConflict {
        /// Where.
        at: String,
    },
    /// An http handler's `url` it cannot POST to: skipped.
    BadUrl {
        /// Where.
        at: String,
        /// Why.
        why: String,
    },
    /// A header naming a variable `allowedEnvVars` does not list: sent empty.
    UnlistedHeaderVar {
        /// Where.
        at: String,
        /// The header.
        header: String,
        /// The variable.
        var: String,
    },
    /// A `shell` other than bash or powershell: the system shell is used.
    UnsupportedShell {
        /// Where.
        at: String,
        /// The shell as written.
        shell: String,
    },
    /// An `oci://` component that is not a valid reference: skipped.
    BadOciReference {
        /// Where.
        at: String,
        /// Why.
        why: String,
    },
    /// A prompt or agent hook where none may run: skipped.
    LlmRefused {
        /// Where.
        at: String,
        /// Why (the managed policy, or an event Claude Code takes none on).
        why: String,
    },
    /// A component not from a source the managed policy allows: skipped.
    ComponentRefused {
        /// Where.
        at: String,
        /// The component as written.
        component: String,
        /// The managed file.
        policy: PathBuf,
        /// The sources it allows.
        allowed: Vec<String>,
    },
    /// Grants of a project handler that the managed policy's `projectGrants`
    /// does not allow: withheld.
    GrantsWithheld {
        /// Where.
        at: String,
        /// The managed file.
        policy: PathBuf,
        /// Each grant withheld (`` `allow.read` /etc ``).
        withheld: Vec<String>,
    },
    /// A user or project file not read because the managed policy sets
    /// `managedOnly`.
    NotLoaded {
        /// The managed file.
        policy: PathBuf,
    },
}

impl WarningKind {
    /// A stable name for the kind (`unknown-key`, `component-refused`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            WarningKind::Unknown(Unknown::Key { .. }) => "unknown-key",
            WarningKind::Unknown(Unknown::Event { .. }) => "unknown-event",
            WarningKind::Unknown(Unknown::HandlerType { type_: Some(_), .. }) => {
                "unknown-handler-type"
            }
            WarningKind::Unknown(Unknown::HandlerType { type_: None, .. }) => "no-handler-type",
            WarningKind::WrongType { .. } => "wrong-type",
            WarningKind::MissingKey { .. } => "missing-key",
            WarningKind::McpLookup { .. } => "mcp-lookup",
            WarningKind::SetByManaged { .. } => "set-by-managed",
            WarningKind::UserFileOnly { .. } => "user-file-only",
            WarningKind::ManagedFileOnly { .. } => "managed-file-only",
            WarningKind::BelowOne { .. } => "below-one",
            WarningKind::BadLlm { .. } => "bad-llm",
            WarningKind::InvalidRegex { .. } => "invalid-regex",
            WarningKind::IfWithoutToolInput { .. } => "if-without-tool-input",
            WarningKind::IfNote { .. } => "if-note",
            WarningKind::IfToolNeverSelected { .. } => "if-tool-never-selected",
            WarningKind::BadTimeout { .. } => "bad-timeout",
            WarningKind::OnErrorConflict { .. } => "on-error-conflict",
            WarningKind::BadUrl { .. } => "bad-url",
            WarningKind::UnlistedHeaderVar { .. } => "unlisted-header-var",
            WarningKind::UnsupportedShell { .. } => "unsupported-shell",
            WarningKind::BadOciReference { .. } => "bad-oci-reference",
            WarningKind::LlmRefused { .. } => "llm-refused",
            WarningKind::ComponentRefused { .. } => "component-refused",
            WarningKind::GrantsWithheld { .. } => "grants-withheld",
            WarningKind::NotLoaded { .. } => "not-loaded",
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::Unknown(unknown) => unknown.fmt(f),
            WarningKind::WrongType {
                at, why, skipped, ..
            } => {
                write!(f, "`{at}`: {why}; this {skipped} is skipped")
            }
            WarningKind::MissingKey { at, key } => {
                write!(
                    f,
                    "{at}: `{key}` is missing or empty; this handler is skipped"
                )
            }
            WarningKind::McpLookup { at, server, why } => write!(
                f,
                "{at}: MCP server `{server}` cannot be looked up: {why}; this handler is skipped"
            ),
            WarningKind::SetByManaged { key } => {
                write!(
                    f,
                    "`{key}` is set by the managed policy; this one is ignored"
                )
            }
            WarningKind::UserFileOnly { key } => write!(
                f,
                "`{key}` is honoured only in the user file `~/.agents/hooks.json` \
                 (or the managed one); ignored"
            ),
            WarningKind::ManagedFileOnly { key } => {
                write!(f, "`{key}` is honoured only in the managed file; ignored")
            }
            WarningKind::BelowOne { key } => {
                write!(f, "`{key}` must be at least 1; the default is used")
            }
            WarningKind::BadLlm { why } => {
                write!(
                    f,
                    "`llm`: {why}; prompt hooks use Claude Code's environment"
                )
            }
            other => other.fmt_handler(f),
        }
    }
}

impl WarningKind {
    /// Display for the kinds about one group or handler.
    fn fmt_handler(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::InvalidRegex {
                at,
                key,
                source,
                event,
                why,
                skipped,
            } => write!(
                f,
                "{at}: invalid {key} `{source}` for {event}: {why}; this {skipped} is skipped"
            ),
            WarningKind::IfWithoutToolInput { at, event } => write!(
                f,
                "{at}: `if` tests the tool input, and {event} has none; this handler never runs"
            ),
            WarningKind::IfNote { at, note } => write!(f, "{at}: {note}"),
            WarningKind::IfToolNeverSelected { at, tool } => write!(
                f,
                "{at}: `if` names the tool `{tool}`, which the group's matcher never selects; \
                 this handler never runs"
            ),
            WarningKind::BadTimeout {
                at,
                secs,
                default_secs,
            } => write!(
                f,
                "{at}: `timeout` must be a positive number of seconds, not {secs}; \
                 using {default_secs}"
            ),
            WarningKind::OnErrorConflict { at } => write!(
                f,
                "{at}: `onError` and `onFailure` disagree (`onFailure: block` means \
                 `onError: deny`); it fails closed until you keep one of them"
            ),
            WarningKind::BadUrl { at, why } => {
                write!(f, "{at}: `url` {why}; this handler is skipped")
            }
            WarningKind::UnlistedHeaderVar { at, header, var } => write!(
                f,
                "{at}: header `{header}` uses `${var}`, which `allowedEnvVars` does not list; \
                 it is sent empty (list it to send its value)"
            ),
            WarningKind::UnsupportedShell { at, shell } => write!(
                f,
                "{at}: `shell: {shell}` is not supported (use `bash` or `powershell`); \
                 the command runs through `sh -c` (`cmd /C` on Windows)"
            ),
            WarningKind::BadOciReference { at, why } | WarningKind::LlmRefused { at, why } => {
                write!(f, "{at}: {why}; this handler is skipped")
            }
            other => other.fmt_policy(f),
        }
    }

    /// Display for the kinds the managed policy causes.
    fn fmt_policy(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::ComponentRefused {
                at,
                component,
                policy,
                allowed,
            } => write!(
                f,
                "{at}: component `{component}` is not from a source the managed policy \
                 `{}` allows ({}); this handler is skipped",
                policy.display(),
                allowed.join(", ")
            ),
            WarningKind::GrantsWithheld {
                at,
                policy,
                withheld,
            } => write!(
                f,
                "{at}: withheld {}: the managed policy `{}` does not let a project grant it",
                withheld.join(", "),
                policy.display()
            ),
            WarningKind::NotLoaded { policy } => write!(
                f,
                "not loaded: the managed policy `{}` sets `managedOnly`, so only its hooks run",
                policy.display()
            ),
            // Each kind is written by one of the three: `fmt` takes the
            // file-wide ones, `fmt_handler` the ones about one handler.
            other => write!(f, "{}", other.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each kind, with text to quote.
    fn every_kind() -> Vec<WarningKind> {
        let at = || "hooks.PreToolUse[0]".to_string();
        let policy = PathBuf::from("/etc/agenthooks/hooks.json");
        vec![
            WarningKind::Unknown(Unknown::Key {
                at: at(),
                key: "matchr".into(),
                suggestion: Some("matcher"),
            }),
            WarningKind::Unknown(Unknown::Event {
                name: "Stopp".into(),
                suggestion: None,
            }),
            WarningKind::Unknown(Unknown::HandlerType {
                at: at(),
                type_: Some("comand".into()),
            }),
            WarningKind::Unknown(Unknown::HandlerType {
                at: at(),
                type_: None,
            }),
            WarningKind::WrongType {
                at: at(),
                entry: at(),
                why: "invalid type: string \"soon\", expected a number".into(),
                skipped: "handler",
            },
            WarningKind::MissingKey {
                at: at(),
                key: "command",
            },
            WarningKind::McpLookup {
                at: at(),
                server: "lint".into(),
                why: "`.mcp.json` is not valid JSON".into(),
            },
            WarningKind::SetByManaged { key: "llm" },
            WarningKind::UserFileOnly { key: "audit" },
            WarningKind::ManagedFileOnly { key: "managedOnly" },
            WarningKind::BelowOne { key: "maxLlmCalls" },
            WarningKind::BadLlm {
                why: "no model".into(),
            },
            WarningKind::InvalidRegex {
                at: at(),
                key: "matcher",
                source: "(".into(),
                event: EventName::PreToolUse,
                why: "unclosed group".into(),
                skipped: "group",
            },
            WarningKind::IfWithoutToolInput {
                at: at(),
                event: EventName::Stop,
            },
            WarningKind::IfNote {
                at: at(),
                note: "runs for every Edit call".into(),
            },
            WarningKind::IfToolNeverSelected {
                at: at(),
                tool: "Edit".into(),
            },
            WarningKind::BadTimeout {
                at: at(),
                secs: -1.0,
                default_secs: 60,
            },
            WarningKind::OnErrorConflict { at: at() },
            WarningKind::BadUrl {
                at: at(),
                why: "is missing or empty".into(),
            },
            WarningKind::UnlistedHeaderVar {
                at: at(),
                header: "A".into(),
                var: "T".into(),
            },
            WarningKind::UnsupportedShell {
                at: at(),
                shell: "zsh".into(),
            },
            WarningKind::BadOciReference {
                at: at(),
                why: "no tag".into(),
            },
            WarningKind::LlmRefused {
                at: at(),
                why: "not on Stop".into(),
            },
            WarningKind::ComponentRefused {
                at: at(),
                component: "x.wasm".into(),
                policy: policy.clone(),
                allowed: vec!["oci://r/".into()],
            },
            WarningKind::GrantsWithheld {
                at: at(),
                policy: policy.clone(),
                withheld: vec!["`allow.net` x".into()],
            },
            WarningKind::NotLoaded { policy },
        ]
    }

    #[test]
    fn every_kind_has_its_own_name_and_its_own_text() {
        let kinds = every_kind();
        let mut names: Vec<_> = kinds.iter().map(WarningKind::name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), kinds.len(), "{names:?}");
        for kind in &kinds {
            // A kind no `fmt` arm writes would show its bare name.
            let text = kind.to_string();
            assert_ne!(text, kind.name(), "{kind:?}");
            assert!(text.len() > 20, "{text}");
        }
    }

    #[test]
    fn a_warning_is_one_bounded_line_naming_the_file() {
        let warning = ConfigWarning {
            file: PathBuf::from("/p/.agents/hooks.json"),
            kind: WarningKind::Unknown(Unknown::Key {
                at: "the top level".into(),
                key: format!("a\nwarning: forged{}", "x".repeat(100_000)),
                suggestion: None,
            }),
        };
        let line = warning.to_string();
        assert!(line.starts_with("`/p/.agents/hooks.json`: the top level: unknown key `a"));
        assert!(!line.contains('\n'), "{line}");
        assert!(line.chars().count() < 2_000, "{}", line.len());
    }
}
