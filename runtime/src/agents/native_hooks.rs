//! An agent's own hooks read back in Claude's format: where its users keep
//! them ([`NativeHooks`], declared in the agent's module beside its
//! `INSTALL`) and how one native entry reads as a `.agents/hooks.json`
//! handler ([`read`]).
//!
//! `agenthooks import` and the never-twice check (`crate::import`) use both.
//! The reverse mapping is derived from the data decode and install already
//! read: the event from the agent's [`Table`] rows, tool names in a matcher
//! from its tool rows, the command and timeout keys (and the timeout's unit)
//! from its [`JsonSpec`](super::JsonSpec) handler, the variables from [`NativeHooks::vars`].
//! Nothing here names an agent.

use serde_json::{Map, Value};

use super::{
    Agent, EventRow, Field, Registration, SystemFile, Table, TimeUnit, TomlSpec, UserPath,
};
use crate::config::hooks_json::HandlerType;
use crate::protocol::EventName;

/// Where an agent's users keep their own hooks, and the variables its hooks
/// get that Claude Code's spell otherwise.
///
/// A path whose last segment is `*.json` names every JSON file of that
/// directory (Copilot's `.github/hooks/*.json`).
#[derive(Debug, Clone, Copy)]
pub struct NativeHooks {
    /// Project files, relative to the root; `None`: the install spec's own.
    pub project: Option<&'static [&'static str]>,
    /// User files; `None`: the install spec's own.
    pub user: Option<&'static [UserPath]>,
    /// The machine's files (a `*.json` name: every JSON file of that
    /// folder); `None`: the install spec's system file.
    pub system: Option<SystemFile>,
    /// `(variable the agent sets, Claude Code's name for it)`; `None`: Claude
    /// Code has none (kept as written, and said so).
    pub vars: &'static [(&'static str, Option<&'static str>)],
    /// How a `matcher` is written there.
    pub matchers: MatcherSyntax,
    /// The handler key (and its default) whose `true` makes any non-zero
    /// exit block (SemaClaw's `blocking`): read as `onError: "deny"`.
    pub blocking: Option<(&'static str, bool)>,
}

/// How an agent writes a hook's `matcher`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherSyntax {
    /// Claude Code's: names separated by `|`, or a regex.
    Claude,
    /// A comma list of exact names or `*`-globs (SemaClaw's).
    CommaGlobs,
}

impl NativeHooks {
    /// Hooks in the files `install` writes, with no variables of the agent's own.
    pub const INSTALLED: NativeHooks = NativeHooks {
        project: None,
        user: None,
        system: None,
        vars: &[],
        matchers: MatcherSyntax::Claude,
        blocking: None,
    };

    /// The same, with matchers written as a comma list of `*`-globs.
    pub const fn with_glob_matchers(self) -> NativeHooks {
        NativeHooks {
            matchers: MatcherSyntax::CommaGlobs,
            ..self
        }
    }

    /// The same, where handler key `key` (`default` when absent) makes any
    /// non-zero exit block.
    pub const fn with_blocking(self, key: &'static str, default: bool) -> NativeHooks {
        NativeHooks {
            blocking: Some((key, default)),
            ..self
        }
    }

    /// The same, kept in these project and user files.
    pub const fn in_files(
        self,
        project: &'static [&'static str],
        user: &'static [UserPath],
    ) -> NativeHooks {
        NativeHooks {
            project: Some(project),
            user: Some(user),
            ..self
        }
    }

    /// The same, with the machine's hooks in `system`.
    pub const fn in_system_files(self, system: SystemFile) -> NativeHooks {
        NativeHooks {
            system: Some(system),
            ..self
        }
    }

    /// The same, with these variables of the agent's own.
    pub const fn with_vars(
        self,
        vars: &'static [(&'static str, Option<&'static str>)],
    ) -> NativeHooks {
        NativeHooks { vars, ..self }
    }
}

/// One handler of an agent's native hooks file.
#[derive(Debug, Clone, PartialEq)]
pub struct NativeHook {
    /// The native event key it is under.
    pub native_event: String,
    /// Its item's index in the event's array.
    pub item: usize,
    /// Its index in the item's `hooks` (nested shapes); `None`: the item is the handler.
    pub handler: Option<usize>,
    /// The command as the agent runs it (how agenthooks' own entries are told).
    pub command: Option<String>,
    /// The hook in Claude's format, or why it cannot be.
    pub import: Result<Imported, String>,
}

/// A native hook as a `.agents/hooks.json` handler.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// Its canonical event.
    pub event: EventName,
    /// Its matcher in Claude's tool names; `None`: every one.
    pub matcher: Option<String>,
    /// The handler object (`type`, `command`, `timeout` in seconds, ...).
    pub handler: Map<String, Value>,
    /// What of it could not be carried, each with the reason.
    pub dropped: Vec<String>,
}

/// Every handler in `root` (an agent's parsed native file: JSON, or a TOML
/// file as JSON values), in file order. Empty for an agent whose hooks are
/// neither JSON entries nor TOML tables, or a file without them.
pub fn read(agent: &dyn Agent, root: &Map<String, Value>) -> Vec<NativeHook> {
    let spec = match &agent.install_spec().registration {
        Registration::Json(spec) => spec,
        Registration::Toml(spec) => return read_tables(agent, spec, root),
        _ => return Vec::new(),
    };
    let Some(Value::Object(hooks)) = root.get("hooks") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, items) in hooks {
        let Some(items) = items.as_array() else {
            continue;
        };
        let row = agent.table().by_native(key);
        for (i, item) in items.iter().enumerate() {
            let at = At {
                agent,
                handler: spec.handler,
                event_key: None,
                key,
                row,
            };
            if spec.shape.is_nested() {
                let Some(handlers) = item.get("hooks").and_then(Value::as_array) else {
                    continue;
                };
                for (j, h) in handlers.iter().enumerate() {
                    out.push(at.hook(item, h, i, Some(j)));
                }
            } else {
                out.push(at.hook(item, item, i, None));
            }
        }
    }
    out
}

/// The hooks of a TOML file's array of tables (Kimi's `[[hooks]]`: `event`,
/// `matcher`, `command`, `timeout` in each), in file order.
fn read_tables(agent: &dyn Agent, spec: &TomlSpec, root: &Map<String, Value>) -> Vec<NativeHook> {
    let Some(Value::Array(tables)) = root.get(spec.array) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        let key = table
            .get(spec.event_key)
            .and_then(Value::as_str)
            .unwrap_or_default();
        let at = At {
            agent,
            handler: spec.handler,
            event_key: Some(spec.event_key),
            key,
            row: agent.table().by_native(key),
        };
        out.push(at.hook(table, table, i, None));
    }
    out
}

/// `command` with the agent's own variables (`$GEMINI_PROJECT_DIR`) in
/// Claude Code's spelling (`$CLAUDE_PROJECT_DIR`); the variables Claude Code
/// has no equivalent of are kept and returned.
pub fn rewrite_vars(agent: &dyn Agent, command: &str) -> (String, Vec<&'static str>) {
    let mut text = command.to_string();
    let mut kept = Vec::new();
    for (native, claude) in agent.native_hooks().vars {
        let Some(claude) = claude else {
            if find_var(&text, native).is_some() {
                kept.push(*native);
            }
            continue;
        };
        text = replace_var(&text, native, claude);
    }
    (text, kept)
}

/// Where `$name` or `${name}` first occurs as a whole variable.
fn find_var(text: &str, name: &str) -> Option<usize> {
    text.match_indices('$').map(|(i, _)| i).find(|&i| {
        let tail = &text[i + 1..];
        let braced = tail.strip_prefix('{').and_then(|t| t.strip_prefix(name));
        braced.is_some_and(|t| t.starts_with('}'))
            || tail.strip_prefix(name).is_some_and(|t| !starts_word(t))
    })
}

fn starts_word(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
}

/// `text` with `$from` and `${from}` (whole variables) spelled `$to`, `${to}`.
fn replace_var(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        if let Some(t) = tail
            .strip_prefix('{')
            .and_then(|t| t.strip_prefix(from))
            .and_then(|t| t.strip_prefix('}'))
        {
            out.push_str(&format!("${{{to}}}"));
            rest = t;
        } else if let Some(t) = tail.strip_prefix(from).filter(|t| !starts_word(t)) {
            out.push('$');
            out.push_str(to);
            rest = t;
        } else {
            out.push('$');
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// The event key a hook is under, and what it is read with.
struct At<'a> {
    agent: &'a dyn Agent,
    /// The keys of the agent's handlers, as its install spec writes them.
    handler: &'a [(&'static str, Field)],
    /// The handler's own key that names its event (TOML tables), if any.
    event_key: Option<&'a str>,
    key: &'a str,
    row: Option<&'static EventRow>,
}

impl At<'_> {
    /// The handler `h` of `item` (the same value for flat shapes).
    fn hook(&self, item: &Value, h: &Value, i: usize, j: Option<usize>) -> NativeHook {
        let command = self.command_of(h);
        NativeHook {
            native_event: self.key.to_string(),
            item: i,
            handler: j,
            command,
            import: self.translate(item, h, j.is_some()),
        }
    }

    /// The command the agent runs for `h`: its spec's command key, else `command`.
    fn command_of(&self, h: &Value) -> Option<String> {
        let key = self
            .handler
            .iter()
            .find(|(_, f)| *f == Field::Command)
            .map_or("command", |(k, _)| *k);
        h.get(key)
            .or_else(|| h.get("command"))
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    fn translate(&self, item: &Value, h: &Value, nested: bool) -> Result<Imported, String> {
        let agent = self.agent;
        let row = self.row.ok_or_else(|| {
            format!(
                "{} event `{}` has no Claude Code equivalent agenthooks serves",
                agent.display_name(),
                crate::protocol::one_line(self.key)
            )
        })?;
        let Value::Object(h) = h else {
            return Err("the entry is not an object".to_string());
        };
        let ty = h.get("type").and_then(Value::as_str).unwrap_or("command");
        let kind = HandlerType::named(ty)
            .filter(|t| matches!(t, HandlerType::Command | HandlerType::Http))
            .ok_or_else(|| {
                format!(
                    "type `{}` is not run by agenthooks",
                    crate::protocol::one_line(ty)
                )
            })?;
        let mut dropped = Vec::new();
        let mut handler = Map::new();
        handler.insert("type".into(), Value::String(ty.to_string()));
        let blocking = agent.native_hooks().blocking;
        if let Some((key, default)) = blocking {
            // Any non-zero exit blocks there; here exit 2 does, and
            // `onError: "deny"` makes the other failures deny too.
            if h.get(key).and_then(Value::as_bool).unwrap_or(default) {
                handler.insert("onError".into(), Value::String("deny".into()));
                dropped.push(format!(
                    "`{key}`: carried as `onError: \"deny\"` (a non-zero exit blocks; so does a timeout under agenthooks, which {} lets pass)",
                    agent.display_name()
                ));
            }
        }
        for (key, value) in h {
            let (to, value) = match self.field(key) {
                _ if key == "type" || (!nested && key == "matcher") => continue,
                _ if self.event_key == Some(key.as_str()) => continue,
                _ if blocking.is_some_and(|(k, _)| k == key) => continue,
                Some(Field::Command) => ("command", self.vars(value, &mut dropped)),
                Some(Field::PowerShellCommand) => ("powershell", self.vars(value, &mut dropped)),
                // The spec's unit is its command handlers' (what install
                // writes); Qwen's http handlers count seconds.
                Some(Field::Timeout(unit)) if kind == HandlerType::Command => {
                    match seconds(value, unit) {
                        Some(v) => ("timeout", v),
                        None => {
                            dropped.push(format!("`{key}`: not a number of {unit:?}"));
                            continue;
                        }
                    }
                }
                Some(Field::StatusMessage) => ("statusMessage", value.clone()),
                Some(Field::Literal(_)) => {
                    dropped.push(format!("`{key}`: {} only", agent.display_name()));
                    continue;
                }
                _ if kind.has_key(key) => {
                    let value = match key.as_str() {
                        "command" | "powershell" | "args" => self.vars(value, &mut dropped),
                        _ => value.clone(),
                    };
                    (key.as_str(), value)
                }
                _ => {
                    dropped.push(format!(
                        "`{key}`: {} only, no such key in .agents/hooks.json",
                        agent.display_name()
                    ));
                    continue;
                }
            };
            if handler.contains_key(to) {
                dropped.push(format!("`{key}`: `{to}` is set already"));
            } else {
                handler.insert(to.to_string(), value);
            }
        }
        let required = kind.required().unwrap_or("command");
        if !handler.get(required).is_some_and(|v| v.is_string()) {
            return Err(format!("no `{required}` to run"));
        }
        if nested {
            self.group_keys(item, &mut handler, &mut dropped);
        }
        let raw = item.get("matcher").and_then(Value::as_str);
        let matcher = match agent.native_hooks().matchers {
            MatcherSyntax::Claude => matcher(agent.table(), row, raw, &mut dropped),
            MatcherSyntax::CommaGlobs => glob_matcher(agent.table(), row, raw),
        };
        Ok(Imported {
            event: row.canonical,
            matcher,
            handler,
            dropped,
        })
    }

    /// The keys of a nested entry's group (`item`) besides `matcher` and
    /// `hooks`: its `if` onto `handler` (unless the hook has one), the rest
    /// dropped with a line each.
    fn group_keys(
        &self,
        item: &Value,
        handler: &mut Map<String, Value>,
        dropped: &mut Vec<String>,
    ) {
        let agent = self.agent;
        if let Value::Object(group) = item {
            for (key, value) in group {
                match key.as_str() {
                    "matcher" | "hooks" => {}
                    "if" if !handler.contains_key("if") => {
                        handler.insert("if".into(), value.clone());
                    }
                    _ => dropped.push(format!(
                        "group `{key}`: {} only, no such key in .agents/hooks.json",
                        agent.display_name()
                    )),
                }
            }
        }
    }

    /// The field of our own handler a native key holds, by the spec.
    fn field(&self, key: &str) -> Option<Field> {
        self.handler
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, f)| *f)
    }

    /// A command-like value with the agent's variables rewritten; one line
    /// per variable Claude Code has no equivalent of.
    fn vars(&self, value: &Value, dropped: &mut Vec<String>) -> Value {
        let mut one = |s: &str| {
            let (text, kept) = rewrite_vars(self.agent, s);
            for var in kept {
                let line = format!(
                    "`${var}`: {} only, kept as written (it is empty under agenthooks)",
                    self.agent.display_name()
                );
                if !dropped.contains(&line) {
                    dropped.push(line);
                }
            }
            Value::String(text)
        };
        match value {
            Value::String(s) => one(s),
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| v.clone(), &mut one))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// A timeout of `unit`s in seconds, whole where it is whole.
fn seconds(value: &Value, unit: TimeUnit) -> Option<Value> {
    let n = value.as_f64().filter(|n| n.is_finite() && *n >= 0.0)?;
    let s = match unit {
        TimeUnit::Seconds => return Some(value.clone()),
        TimeUnit::Milliseconds => n / 1000.0,
    };
    if s.fract() == 0.0 && s <= u64::MAX as f64 {
        Some(Value::from(s as u64))
    } else {
        serde_json::Number::from_f64(s).map(Value::Number)
    }
}

/// The matcher of a hook under `row`, in Claude Code's tool names.
///
/// A row about one tool (Cursor's `beforeShellExecution`) matches that tool.
/// On a tool event each `|`-separated name (an anchored `^name$` too) is
/// translated by the agent's tool table; a piece that is a pattern is kept
/// as written, with a line. Other events keep the matcher as written.
fn matcher(
    table: &Table,
    row: &EventRow,
    raw: Option<&str>,
    dropped: &mut Vec<String>,
) -> Option<String> {
    let raw = raw.map(str::trim).filter(|m| !m.is_empty() && *m != "*");
    if let Some(tool) = row.tool {
        if let Some(m) = raw {
            dropped.push(format!(
                "matcher `{}`: the event is about {tool} only",
                crate::protocol::one_line(m)
            ));
        }
        return Some(tool.to_string());
    }
    let raw = raw?;
    if !row.canonical.is_tool_event() {
        return Some(raw.to_string());
    }
    let mut names: Vec<String> = Vec::new();
    for piece in raw.split('|').map(str::trim) {
        let bare = piece.strip_prefix('^').unwrap_or(piece);
        let bare = bare.strip_suffix('$').unwrap_or(bare);
        let plain = !bare.is_empty()
            && bare
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let name = if plain {
            table.canonical_tool(bare).to_string()
        } else {
            dropped.push(format!(
                "matcher `{}`: a pattern, kept as written; check it against Claude Code's tool names",
                crate::protocol::one_line(piece)
            ));
            piece.to_string()
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Some(names.join("|"))
}

/// A comma list of exact names and `*`-globs (on a tool event; ignored on
/// the others, as SemaClaw ignores it) as Claude Code's matcher: names in
/// Claude's spelling, `|`-separated when every piece is a name, else one
/// anchored regex.
fn glob_matcher(table: &Table, row: &EventRow, raw: Option<&str>) -> Option<String> {
    if let Some(tool) = row.tool {
        return Some(tool.to_string());
    }
    let raw = raw.map(str::trim).filter(|m| !m.is_empty())?;
    if !row.canonical.is_tool_event() {
        return None;
    }
    let pieces: Vec<&str> = raw
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if pieces.is_empty() || pieces.contains(&"*") {
        return None;
    }
    let names: Vec<String> = pieces
        .iter()
        .map(|p| {
            if p.contains('*') {
                (*p).to_string()
            } else {
                table.canonical_tool(p).to_string()
            }
        })
        .collect();
    if names.iter().all(|n| !n.contains('*')) {
        return Some(names.join("|"));
    }
    let alternatives: Vec<String> = names
        .iter()
        .map(|n| {
            n.split('*')
                .map(regex_lite::escape)
                .collect::<Vec<_>>()
                .join(".*")
        })
        .collect();
    Some(format!("^(?:{})$", alternatives.join("|")))
}

#[cfg(test)]
#[path = "native_hooks_tests.rs"]
mod tests;
