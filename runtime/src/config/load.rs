//! Loading: the user file, then the project file, resolved into [`Handler`]s.
//!
//! Loading never fails. A missing file is no hooks; a file that cannot be read
//! or parsed becomes one entry in [`Config::errors`] (file, line, column, what
//! to do) and the other scope still loads; an entry that cannot be used (a bad
//! regex, an unknown key, an unknown event) is a warning and the rest of the
//! file still runs. One broken line must not silently disable every hook, and
//! must not stop the agent either.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::hooks_json::{
    unknown_keys, AllowEntry, Group, HandlerWire, HooksFile, Unknown, UNSUPPORTED_TYPES,
};
use super::if_rule::{self, IfSpec};
use super::{
    AuditConfig, BrokenFile, CommandSpec, Config, Grants, Handler, HandlerKind, OnError, Scope,
    Shell, WasmSpec, DEFAULT_FUEL, DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT,
};
use crate::fsread::{self, caps, ReadError};
use crate::protocol::EventName;
use crate::select::Matcher;

/// The variable naming the project root, in commands and paths.
const PROJECT_DIR_VAR: &str = "CLAUDE_PROJECT_DIR";

/// Longest command shown in a handler's label, in characters.
const LABEL_MAX: usize = 60;

/// Where to look for the two `hooks.json` files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// The home directory (`~/.agents/hooks.json`); [`crate::dirs::home`] when `None`.
    pub home: Option<PathBuf>,
    /// The project root (`<root>/.agents/hooks.json`); no project scope when `None`.
    pub project_root: Option<PathBuf>,
}

/// The project root: `$CLAUDE_PROJECT_DIR` if set and not empty, else the
/// nearest ancestor of `cwd` (itself included) that holds `.agents/` or
/// `.git`. With no `cwd`, the process's working directory is used.
pub fn project_root(cwd: Option<&Path>) -> Option<PathBuf> {
    let fallback;
    let cwd = match cwd {
        Some(cwd) => Some(cwd),
        None => {
            fallback = env::current_dir().ok();
            fallback.as_deref()
        }
    };
    project_root_from(env::var_os(PROJECT_DIR_VAR), cwd)
}

/// [`project_root`] with the environment passed in (testable without touching it).
fn project_root_from(var: Option<OsString>, cwd: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = var.filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    cwd?.ancestors()
        .find(|dir| dir.join(".agents").is_dir() || dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// Load `~/.agents/hooks.json`, then `<project>/.agents/hooks.json`.
///
/// Never fails; see the module docs for what becomes an error or a warning.
/// Handlers come in declaration order: user scope first, then project; events
/// and groups in file order.
pub fn load(opts: &LoadOptions) -> Config {
    let mut config = Config {
        project_root: opts.project_root.clone(),
        ..Config::default()
    };
    let home = opts.home.clone().or_else(crate::dirs::home);
    let user_file = home.as_deref().map(crate::dirs::hooks_file);
    if let (Some(home), Some(file)) = (&home, &user_file) {
        let ctx = Ctx {
            file,
            scope: Scope::User,
            base: home,
            home: Some(home),
            project_root: opts.project_root.as_deref(),
        };
        load_file(&ctx, &mut config);
    }
    if let Some(root) = &opts.project_root {
        let file = crate::dirs::hooks_file(root);
        let same = user_file.as_ref().is_some_and(|u| same_file(u, &file));
        if !same {
            let ctx = Ctx {
                file: &file,
                scope: Scope::Project,
                base: root,
                home: home.as_deref(),
                project_root: Some(root),
            };
            load_file(&ctx, &mut config);
        }
    }
    config
}

/// Whether two paths name the same file (when the home directory is the project).
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// What resolving one file needs to know.
struct Ctx<'a> {
    file: &'a Path,
    scope: Scope,
    /// Relative paths resolve against this: the project root, or home for the user file.
    base: &'a Path,
    home: Option<&'a Path>,
    project_root: Option<&'a Path>,
}

impl Ctx<'_> {
    fn warn(&self, config: &mut Config, what: impl std::fmt::Display) {
        config
            .warnings
            .push(format!("`{}`: {what}", self.file.display()));
    }

    /// The file cannot be used at all. `text` is what could be read of it:
    /// a policy it spells out is honoured as far as it can be.
    fn error(&self, config: &mut Config, what: impl std::fmt::Display, text: Option<&str>) {
        let says = |key| text.is_some_and(|t| OnError::denies_in(t, key));
        if self.scope == Scope::User && says("onConfigError") {
            config.on_config_error = OnError::Deny;
        }
        let broken = BrokenFile {
            file: self.file.to_path_buf(),
            scope: self.scope,
            why: what.to_string(),
            lost_deny: says("onError"),
        };
        config.errors.push(broken.to_string());
        config.broken.push(broken);
    }
}

fn load_file(ctx: &Ctx<'_>, config: &mut Config) {
    // Either file may be a FIFO, a symlink to `/dev/zero` or gigabytes of
    // sparse zeros committed to git: a bounded read refuses them at once, so
    // the other scope still decides within the agent's deadline.
    let bytes = match fsread::read_bounded(ctx.file, caps::HOOKS_JSON) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound { .. }) => return,
        Err(e) => {
            // The error names the file and what to do.
            config.errors.push(format!("{e} (other scopes still run)"));
            config.broken.push(BrokenFile {
                file: ctx.file.to_path_buf(),
                scope: ctx.scope,
                why: e.to_string(),
                lost_deny: false,
            });
            return;
        }
    };
    config.files.push(ctx.file.to_path_buf());
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(e) => {
            ctx.error(
                config,
                format_args!(
                    "it is not UTF-8 text (an invalid byte at offset {}); save it as UTF-8",
                    e.valid_up_to()
                ),
                None,
            );
            return;
        }
    };
    if text.trim().is_empty() {
        return;
    }
    // Parse twice: as a plain value to find unknown keys, and typed. Both keep
    // serde_json's line and column, which `from_value` would lose.
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            ctx.error(config, json_error(&e), Some(text));
            return;
        }
    };
    // serde reads a struct from an array too (`[]` would be a file with no
    // hooks, silently): the file is an object or it is wrong.
    if let Some(kind) = not_an_object(&value) {
        ctx.error(
            config,
            format_args!("the top level is {kind}, not an object; write `{{\"hooks\": {{...}}}}`"),
            Some(text),
        );
        return;
    }
    let parsed: HooksFile = match serde_json::from_str(text) {
        Ok(parsed) => parsed,
        Err(e) => {
            ctx.error(config, json_error(&e), Some(text));
            return;
        }
    };
    for unknown in unknown_keys(&value) {
        match unknown {
            Unknown::Key {
                at,
                key,
                suggestion,
            } => ctx.warn(
                config,
                format_args!(
                    "{at}: unknown key `{key}`; ignored{}",
                    crate::suggest::hint(suggestion)
                ),
            ),
            Unknown::Event { name, suggestion } => ctx.warn(
                config,
                format_args!(
                    "unknown event `{name}` in `hooks`; its hooks never run{}",
                    crate::suggest::hint(suggestion)
                ),
            ),
            Unknown::HandlerType {
                at,
                type_: Some(ty),
            } => ctx.warn(
                config,
                format_args!("{at}: unknown handler type `{ty}`; this handler is skipped"),
            ),
            Unknown::HandlerType { at, type_: None } => ctx.warn(
                config,
                format_args!("{at}: the handler has no `type`; it is skipped"),
            ),
        }
    }

    if let Some(audit) = &parsed.audit {
        match ctx.scope {
            Scope::User => {
                config.audit = Some(AuditConfig {
                    path: resolve_path(&audit.path, ctx),
                    max_bytes: audit.max_bytes,
                });
            }
            Scope::Project => ctx.warn(
                config,
                "`audit` is honoured only in the user file `~/.agents/hooks.json`; ignored",
            ),
        }
    }

    if let Some(policy) = parsed.on_config_error {
        match ctx.scope {
            Scope::User => config.on_config_error = policy,
            Scope::Project => ctx.warn(
                config,
                "`onConfigError` is honoured only in the user file `~/.agents/hooks.json`; ignored",
            ),
        }
    }

    if let Some(mib) = parsed.event_memory_mib {
        match ctx.scope {
            Scope::User if mib == 0 => ctx.warn(
                config,
                "`eventMemoryMiB` must be at least 1; the default is used",
            ),
            Scope::User => config.budgets.event_memory_mib = mib,
            Scope::Project => ctx.warn(
                config,
                "`eventMemoryMiB` is honoured only in the user file `~/.agents/hooks.json`; ignored",
            ),
        }
    }

    let on_error = parsed.on_error.unwrap_or_default();
    let Some(events) = parsed.hooks else {
        return;
    };
    for (name, groups) in events.0 {
        // Unknown names have no groups; `unknown_keys` warned about them.
        let (Ok(event), Some(groups)) = (name.parse::<EventName>(), groups) else {
            continue;
        };
        for (g, group) in groups.into_iter().enumerate() {
            let at = format!("hooks.{event}[{g}]");
            resolve_group(ctx, config, event, &at, group, on_error);
        }
    }
}

/// What a JSON value is when it is not an object ("an array", ...).
fn not_an_object(value: &serde_json::Value) -> Option<&'static str> {
    use serde_json::Value;
    match value {
        Value::Object(_) => None,
        Value::Array(_) => Some("an array"),
        Value::String(_) => Some("a string"),
        Value::Number(_) => Some("a number"),
        Value::Bool(_) => Some("a boolean"),
        Value::Null => Some("null"),
    }
}

/// serde_json's message, with its position moved to the front.
fn json_error(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let msg = msg.strip_suffix(&suffix).unwrap_or(&msg);
    format!("line {} column {}: {msg}", e.line(), e.column())
}

fn resolve_group(
    ctx: &Ctx<'_>,
    config: &mut Config,
    event: EventName,
    at: &str,
    group: Group,
    on_error: OnError,
) {
    let matcher = match Matcher::parse(group.matcher.as_deref()) {
        Ok(matcher) => matcher,
        // Claude Code ignores a matcher where the event has none; so do we, even a broken one.
        Err(_) if event.matcher_field().is_none() => Matcher::All,
        Err(e) => {
            ctx.warn(
                config,
                format_args!(
                    "{at}: invalid matcher `{}` for {event}: {}; this group is skipped",
                    group.matcher.as_deref().unwrap_or_default(),
                    regex_error(&e)
                ),
            );
            return;
        }
    };
    let group_if = match compile_if(group.if_.as_deref()) {
        Ok(spec) => spec,
        Err(e) => {
            ctx.warn(
                config,
                format_args!(
                    "{at}: invalid `if` regex `{}` for {event}: {}; this group is skipped",
                    group.if_.as_deref().unwrap_or_default(),
                    regex_error(&e)
                ),
            );
            return;
        }
    };
    for (h, entry) in group.hooks.into_iter().enumerate() {
        let at = format!("{at}.hooks[{h}]");
        let if_ = match compile_if(entry.if_.as_deref()) {
            Ok(Some(spec)) => Some(spec),
            Ok(None) => group_if.clone(),
            Err(e) => {
                ctx.warn(
                    config,
                    format_args!(
                        "{at}: invalid `if` regex `{}` for {event}: {}; this handler is skipped",
                        entry.if_.as_deref().unwrap_or_default(),
                        regex_error(&e)
                    ),
                );
                continue;
            }
        };
        let mut handler_matcher = matcher.clone();
        if let Some(spec) = &if_ {
            if !event.is_tool_event() {
                ctx.warn(
                    config,
                    format_args!(
                        "{at}: `if` tests the tool input, and {event} has none; \
                         this handler never runs"
                    ),
                );
                continue;
            }
            if let Some(note) = &spec.note {
                ctx.warn(config, format_args!("{at}: {note}"));
            }
            // A permission rule names its tool: the handler runs for that tool only.
            if let Some(tool) = &spec.tool {
                if !matcher.matches(Some(tool)) {
                    ctx.warn(
                        config,
                        format_args!(
                            "{at}: `if` names the tool `{tool}`, which the group's matcher \
                             never selects; this handler never runs"
                        ),
                    );
                    continue;
                }
                handler_matcher = Matcher::Exact(vec![tool.clone()]);
            }
        }
        let Some(resolved) = resolve_handler(ctx, config, &at, entry) else {
            continue;
        };
        let timeout = match resolved.timeout {
            None => DEFAULT_TIMEOUT,
            Some(secs) => match timeout(secs) {
                Some(t) => t,
                None => {
                    ctx.warn(
                        config,
                        format_args!(
                            "{at}: `timeout` must be a positive number of seconds, not {secs}; \
                             using {}",
                            DEFAULT_TIMEOUT.as_secs()
                        ),
                    );
                    DEFAULT_TIMEOUT
                }
            },
        };
        config.handlers.push(Handler {
            event,
            matcher: handler_matcher,
            if_: if_.map(|spec| spec.regex),
            kind: resolved.kind,
            timeout,
            on_error: resolved.on_error.unwrap_or(on_error),
            scope: ctx.scope,
            file: ctx.file.to_path_buf(),
            project_root: ctx.project_root.map(Path::to_path_buf),
            label: resolved.label,
            status_message: resolved.status_message,
        });
    }
}

fn compile_if(src: Option<&str>) -> Result<Option<IfSpec>, regex::Error> {
    src.map(if_rule::compile).transpose()
}

/// A regex error on one line (regex's own display draws a caret diagram).
fn regex_error(e: &regex::Error) -> String {
    let text = e.to_string();
    text.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .map(str::to_string)
        .unwrap_or_else(|| text.lines().next().unwrap_or_default().trim().to_string())
}

/// A timeout in seconds, if it is a usable one.
fn timeout(secs: f64) -> Option<Duration> {
    if secs.is_finite() && secs > 0.0 {
        Duration::try_from_secs_f64(secs).ok()
    } else {
        None
    }
}

/// The parts of a handler that depend on its type.
struct Resolved {
    kind: HandlerKind,
    label: String,
    timeout: Option<f64>,
    on_error: Option<OnError>,
    status_message: Option<String>,
}

fn resolve_handler(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    entry: HandlerWire,
) -> Option<Resolved> {
    let kind = match entry.type_.as_deref() {
        Some("command") => match entry.command.as_deref() {
            Some(command) if !command.trim().is_empty() => resolve_command(ctx, config, at, &entry),
            _ => {
                ctx.warn(
                    config,
                    format_args!("{at}: `command` is missing or empty; this handler is skipped"),
                );
                return None;
            }
        },
        Some("wasm") => match entry.component.as_deref() {
            Some(component) if !component.trim().is_empty() => resolve_wasm(ctx, component, &entry),
            _ => {
                ctx.warn(
                    config,
                    format_args!("{at}: `component` is missing or empty; this handler is skipped"),
                );
                return None;
            }
        },
        Some(other) if UNSUPPORTED_TYPES.contains(&other) => (
            HandlerKind::Unsupported {
                kind: other.to_string(),
            },
            format!("{other} handler"),
        ),
        // An unknown or missing type: `unknown_keys` has warned.
        _ => return None,
    };
    Some(Resolved {
        kind: kind.0,
        label: kind.1,
        timeout: entry.timeout,
        on_error: entry.on_error,
        status_message: entry.status_message,
    })
}

/// A command handler's kind and label.
fn resolve_command(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    entry: &HandlerWire,
) -> (HandlerKind, String) {
    let (raw, shell) = match &entry.powershell {
        // Copilot's pair: `powershell` on Windows, `command` elsewhere.
        Some(ps) if cfg!(windows) && !ps.trim().is_empty() => (ps.clone(), Shell::PowerShell),
        _ => (
            entry.command.clone().unwrap_or_default(),
            shell_named(ctx, config, at, entry.shell.as_deref()),
        ),
    };
    let (command, shown) = match &entry.args {
        // Exec form: quote every word so the shell passes them through unchanged.
        Some(args) => {
            let words = std::iter::once(&raw).chain(args);
            let quoted = words
                .clone()
                .map(|w| quote_for(shell, &expand_project_dir(w, ctx.project_root, false)))
                .collect::<Vec<_>>()
                .join(" ");
            // PowerShell runs a quoted program name only with the call operator.
            let command = match shell {
                Shell::PowerShell => format!("& {quoted}"),
                Shell::System => quoted,
            };
            let shown = words.map(String::as_str).collect::<Vec<_>>().join(" ");
            (command, shown)
        }
        None => {
            // `$CLAUDE_PROJECT_DIR` is not PowerShell's syntax for a variable
            // (`$env:…`): there it is always replaced.
            let for_sh = shell == Shell::System;
            (
                expand_project_dir(&raw, ctx.project_root, for_sh),
                raw.clone(),
            )
        }
    };
    let async_ = entry.async_.unwrap_or(false) || entry.async_rewake.unwrap_or(false);
    (
        HandlerKind::Command(CommandSpec {
            command,
            async_,
            shell,
        }),
        format!("command `{}`", shorten(&shown)),
    )
}

/// The shell Claude Code's `shell` key names; an unknown one is a warning
/// and the system shell.
fn shell_named(ctx: &Ctx<'_>, config: &mut Config, at: &str, name: Option<&str>) -> Shell {
    match name {
        None | Some("bash" | "sh") => Shell::System,
        Some("powershell" | "pwsh") => Shell::PowerShell,
        Some(other) => {
            ctx.warn(
                config,
                format_args!(
                    "{at}: `shell: {other}` is not supported (use `bash` or `powershell`); \
                     the command runs through `sh -c` (`cmd /C` on Windows)"
                ),
            );
            Shell::System
        }
    }
}

/// A wasm handler's kind and label.
fn resolve_wasm(ctx: &Ctx<'_>, raw: &str, entry: &HandlerWire) -> (HandlerKind, String) {
    let component = resolve_path(raw, ctx);
    let name = component
        .file_name()
        .map_or_else(|| raw.to_string(), |n| n.to_string_lossy().into_owned());
    let AllowEntry {
        read,
        write,
        env,
        net,
    } = entry.allow.clone().unwrap_or_default();
    let allow = Grants {
        read: read.iter().map(|p| resolve_path(p, ctx)).collect(),
        write: write.iter().map(|p| resolve_path(p, ctx)).collect(),
        env,
        net,
    };
    (
        HandlerKind::Wasm(WasmSpec {
            component,
            fuel: entry.fuel.unwrap_or(DEFAULT_FUEL),
            memory_mib: entry.memory_mib.unwrap_or(DEFAULT_MEMORY_MIB),
            allow,
        }),
        format!("wasm `{}`", shorten(&name)),
    )
}

/// A path from the file: `$CLAUDE_PROJECT_DIR` expanded, `~/` taken from the
/// home directory, and a relative path joined to the scope's base.
fn resolve_path(raw: &str, ctx: &Ctx<'_>) -> PathBuf {
    let expanded = expand_project_dir(raw, ctx.project_root, false);
    let path = match (expanded.as_str(), ctx.home) {
        ("~", Some(home)) => home.to_path_buf(),
        (p, Some(home)) if p.starts_with("~/") => home.join(&p[2..]),
        (p, _) => PathBuf::from(p),
    };
    if path.is_absolute() {
        path
    } else {
        ctx.base.join(path)
    }
}

/// Replace `$CLAUDE_PROJECT_DIR` and `${CLAUDE_PROJECT_DIR}` with the project root.
///
/// In a shell command the variable is left for the shell when the root holds
/// characters the shell would interpret (spaces, quotes, `$`, ...): the
/// command gets the variable in its environment too, and the shell's own
/// expansion of it is always safe.
fn expand_project_dir(text: &str, root: Option<&Path>, for_shell: bool) -> String {
    let Some(root) = root else {
        return text.to_string();
    };
    let root = root.to_string_lossy();
    if for_shell && !root.chars().all(is_shell_safe) {
        return text.to_string();
    }
    let braced = format!("${{{PROJECT_DIR_VAR}}}");
    let bare = format!("${PROJECT_DIR_VAR}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with(&braced) {
            out.push_str(&root);
            rest = &tail[braced.len()..];
        } else if tail.starts_with(&bare)
            && !tail[bare.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push_str(&root);
            rest = &tail[bare.len()..];
        } else {
            out.push('$');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

fn is_shell_safe(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(
            c,
            '/' | '\\' | '.' | '_' | '-' | '+' | ',' | ':' | '@' | '%'
        )
}

/// Quote one word for `shell`.
fn quote_for(shell: Shell, word: &str) -> String {
    match shell {
        // A single-quoted PowerShell string is literal; `'` is doubled.
        Shell::PowerShell => format!("'{}'", word.replace('\'', "''")),
        Shell::System => shell_quote(word),
    }
}

/// Quote one word for the system shell (`sh`, `cmd` on Windows).
fn shell_quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| is_shell_safe(c) && c != '\\') {
        return word.to_string();
    }
    if cfg!(windows) {
        format!("\"{}\"", word.replace('"', "\\\""))
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// One line, at most [`LABEL_MAX`] characters, for notes.
fn shorten(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= LABEL_MAX {
        one_line
    } else {
        let cut: String = one_line.chars().take(LABEL_MAX - 1).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
