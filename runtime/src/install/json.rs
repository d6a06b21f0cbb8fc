//! Editing an agent's JSON config without disturbing what else is in it.
//!
//! The file is parsed into a [`serde_json::Value`] (key order kept: the crate
//! builds serde_json with `preserve_order`), our entries are synced into its
//! `hooks` object, and the change is carried over to the file's own text
//! ([`Doc::render`], see `edit`): comments (where the agent accepts them),
//! trailing commas, indent and line endings stay. A file whose parsed value
//! does not change is never rewritten, so a second install leaves the bytes
//! alone.

use serde::Serialize;
use serde_json::{Map, Value};

use super::edit;
use super::InstallError;
use crate::agents::Shape;
use std::path::Path;

/// How a file was laid out, so a rewrite looks like the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The indent unit (`"  "`, `"    "`, `"\t"`), or `None` for a one-line file.
    indent: Option<String>,
    /// Lines end with `\r\n`.
    crlf: bool,
    /// The file ends with a line break.
    final_newline: bool,
}

impl Layout {
    /// The layout of a file agenthooks creates: two spaces and a final newline.
    pub(crate) fn fresh() -> Self {
        Layout {
            indent: Some("  ".to_string()),
            crlf: false,
            final_newline: true,
        }
    }

    /// The layout of existing text.
    pub(crate) fn detect(text: &str) -> Self {
        let crlf = text.contains("\r\n");
        let final_newline = text.ends_with('\n');
        let body = text.trim_end();
        // A one-line file stays on one line, except an empty `{}`: what we
        // add to it would make a long line no one chose.
        let empty = body.chars().filter(|c| !c.is_whitespace()).count() <= 2;
        let indent = if !body.contains('\n') && !empty {
            None
        } else {
            body.lines()
                .skip(1)
                .map(|l| l.trim_end_matches('\r'))
                .find(|l| !l.trim().is_empty() && l.starts_with([' ', '\t']))
                .map(|l| l[..l.len() - l.trim_start_matches([' ', '\t']).len()].to_string())
                .or_else(|| Some("  ".to_string()))
        };
        Layout {
            indent,
            crlf,
            final_newline,
        }
    }

    /// `value` as text in this layout.
    pub(crate) fn render(&self, value: &Value) -> String {
        let mut text = match &self.indent {
            None => serde_json::to_string(value).unwrap_or_default(),
            Some(indent) => {
                let mut out = Vec::new();
                let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
                let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
                // Serializing a Value into a Vec cannot fail: every key is a string.
                if value.serialize(&mut ser).is_err() {
                    return String::new();
                }
                String::from_utf8(out).unwrap_or_default()
            }
        };
        if self.final_newline {
            text.push('\n');
        }
        if self.crlf {
            text = text.replace('\n', "\r\n");
        }
        text
    }
}

/// A native JSON config file, parsed for editing: change [`Doc::root`]
/// (entries removed or inserted at any key path) and [`Doc::render`] writes
/// the change into the file's own text, keeping every byte it does not
/// touch: comments, trailing commas, layout, CRLF (see `edit`).
#[derive(Debug, Clone)]
pub struct Doc {
    /// The root object: edit this.
    pub root: Map<String, Value>,
    /// The root as read.
    original: Map<String, Value>,
    /// The text as read, without a byte order mark; `None` for a file that
    /// does not exist or holds only white space (it is written fresh).
    text: Option<String>,
    /// The file started with a byte order mark (written back).
    bom: bool,
    /// The layout, for a file written fresh.
    pub(crate) layout: Layout,
    /// The agent accepts comments and trailing commas in the file.
    jsonc: bool,
    path: std::path::PathBuf,
}

impl Doc {
    /// Parses `bytes` (the file at `path`; `None`: it does not exist) as a
    /// JSON object. An empty file is an empty object. `jsonc`: the agent
    /// accepts comments and trailing commas in this file, so they are read
    /// (and kept); elsewhere they are refused.
    ///
    /// # Errors
    /// The file is not (the agent's) JSON, or not an object.
    pub fn parse(path: &Path, bytes: Option<&[u8]>, jsonc: bool) -> Result<Doc, InstallError> {
        match bytes {
            Some(bytes) => parse(path, bytes, jsonc),
            None => Ok(Doc {
                root: Map::new(),
                original: Map::new(),
                text: None,
                bom: false,
                layout: Layout::fresh(),
                jsonc,
                path: path.to_path_buf(),
            }),
        }
    }

    /// Whether [`Doc::root`] differs from what was read.
    pub fn changed(&self) -> bool {
        self.root != self.original
    }

    /// The file's bytes holding [`Doc::root`]: the text read with just the
    /// changed values edited, or (a new or blank file) the root written out
    /// in two-space indent.
    ///
    /// # Errors
    /// The edit could not be carried over to the text while keeping its
    /// comments (the file has duplicate keys, say); nothing should be written.
    pub fn render(&self) -> Result<Vec<u8>, InstallError> {
        let root = Value::Object(self.root.clone());
        let Some(text) = &self.text else {
            return Ok(self.layout.render(&root).into_bytes());
        };
        if !self.changed() {
            return Ok(self.with_bom(text.clone()));
        }
        let edited = edit::apply(text, self.jsonc, &self.original, &self.root)
            .filter(|edited| reads_as(edited, self.jsonc, &root));
        match edited {
            Some(edited) => Ok(self.with_bom(edited)),
            // A strict JSON file holds nothing a rewrite would lose but its
            // spacing: write it out whole in its own layout.
            None if serde_json::from_str::<Value>(text).is_ok() => {
                Ok(self.with_bom(self.layout.render(&root)))
            }
            None => Err(InstallError::Unkeepable {
                path: self.path.clone(),
            }),
        }
    }

    /// The value at the key path `path` (`["hooks", "PreToolUse"]`), if
    /// there is one.
    pub fn get(&self, path: &[&str]) -> Option<&Value> {
        let (first, rest) = path.split_first()?;
        rest.iter()
            .try_fold(self.root.get(*first)?, |v, k| v.as_object()?.get(*k))
    }

    /// Removes the value at the key path `path` and returns it; the objects
    /// on the way stay (an object it leaves empty too).
    pub fn remove(&mut self, path: &[&str]) -> Option<Value> {
        let (last, parents) = path.split_last()?;
        let mut map = &mut self.root;
        for key in parents {
            map = map.get_mut(*key)?.as_object_mut()?;
        }
        map.shift_remove(*last)
    }

    /// Puts `value` at the key path `path`, creating the objects on the way
    /// (a new key goes last) and replacing what was there.
    ///
    /// # Errors
    /// A key on the way holds something other than an object.
    pub fn insert(&mut self, path: &[&str], value: Value) -> Result<(), InstallError> {
        let Some((last, parents)) = path.split_last() else {
            return Ok(());
        };
        let mut map = &mut self.root;
        for (i, key) in parents.iter().enumerate() {
            let slot = map
                .entry((*key).to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            map = slot
                .as_object_mut()
                .ok_or_else(|| InstallError::NotAnObject {
                    path: self.path.clone(),
                    key: Some(parents[..=i].join(".")),
                })?;
        }
        map.insert((*last).to_string(), value);
        Ok(())
    }

    /// Whether the comments of the file as read are all in `other` (a
    /// file's bytes): giving `other` back loses none of the user's notes.
    pub(crate) fn comments_kept_by(&self, other: &[u8]) -> bool {
        let Some(text) = &self.text else {
            return true;
        };
        let mine = edit::comments(text);
        if mine.is_empty() {
            return true;
        }
        let theirs = edit::comments(&String::from_utf8_lossy(other));
        mine.iter().all(|c| theirs.contains(c))
    }

    fn with_bom(&self, text: String) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() + 3);
        if self.bom {
            out.extend_from_slice("\u{feff}".as_bytes());
        }
        out.extend_from_slice(text.as_bytes());
        out
    }
}

/// Whether `text` parses (with the file's syntax) to exactly `value`.
fn reads_as(text: &str, jsonc: bool, value: &Value) -> bool {
    if !jsonc {
        return serde_json::from_str::<Value>(text).ok().as_ref() == Some(value);
    }
    jsonc_parser::cst::CstRootNode::parse(text, &edit::options(true))
        .ok()
        .and_then(|root| root.to_serde_value())
        .as_ref()
        == Some(value)
}

/// Parses `bytes` (the file at `path`) as a JSON object. An empty file is an
/// empty object.
///
/// `jsonc` says whether the agent itself accepts comments and trailing
/// commas in this file: they are read there, refused elsewhere.
pub(crate) fn parse(path: &Path, bytes: &[u8], jsonc: bool) -> Result<Doc, InstallError> {
    let text = std::str::from_utf8(bytes).map_err(|e| InstallError::Parse {
        path: path.to_path_buf(),
        line: line_of(bytes, e.valid_up_to()),
        column: 0,
        what: "not UTF-8 text".to_string(),
    })?;
    let text_no_bom = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut doc = Doc {
        root: Map::new(),
        original: Map::new(),
        text: None,
        bom: text_no_bom.len() != text.len(),
        layout: Layout::fresh(),
        jsonc,
        path: path.to_path_buf(),
    };
    if text_no_bom.trim().is_empty() {
        if !text.is_empty() {
            doc.layout = Layout::detect(text);
        }
        return Ok(doc);
    }
    let root = match serde_json::from_str::<Value>(text_no_bom) {
        Ok(root) => root,
        Err(e) if jsonc => read_jsonc(path, text_no_bom, &e)?,
        Err(e) => {
            if let Some((stripped, (line, column))) = strip_comments(text_no_bom) {
                if serde_json::from_str::<Value>(&stripped).is_ok() {
                    return Err(InstallError::Comments {
                        path: path.to_path_buf(),
                        line,
                        column,
                    });
                }
            }
            return Err(InstallError::Parse {
                path: path.to_path_buf(),
                line: e.line(),
                column: e.column(),
                what: e.to_string(),
            });
        }
    };
    let Value::Object(root) = root else {
        return Err(InstallError::NotAnObject {
            path: path.to_path_buf(),
            key: None,
        });
    };
    doc.original = root.clone();
    doc.root = root;
    doc.layout = Layout::detect(text_no_bom);
    doc.text = Some(text_no_bom.to_string());
    Ok(doc)
}

/// The value of a file with comments or trailing commas (`strict` is what
/// the JSON parser said about it).
fn read_jsonc(path: &Path, text: &str, strict: &serde_json::Error) -> Result<Value, InstallError> {
    let root = jsonc_parser::cst::CstRootNode::parse(text, &edit::options(true)).map_err(|e| {
        InstallError::Parse {
            path: path.to_path_buf(),
            line: e.line_display(),
            column: e.column_display(),
            what: e.kind().to_string(),
        }
    })?;
    root.to_serde_value().ok_or_else(|| InstallError::Parse {
        path: path.to_path_buf(),
        line: strict.line(),
        column: strict.column(),
        what: strict.to_string(),
    })
}

fn line_of(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset].iter().filter(|b| **b == b'\n').count() + 1
}

/// `text` with its `//` and `/* */` comments outside strings replaced by
/// spaces (to tell "has comments" from "is broken"), and the line and column
/// (1-based) where the first comment starts; `None` when there is none.
fn strip_comments(text: &str) -> Option<(String, (usize, usize))> {
    let mut out = String::with_capacity(text.len());
    let mut first = None;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !in_string && c == '/' && matches!(chars.peek(), Some('/' | '*')) && first.is_none() {
            // Up to here `out` is `text` itself.
            let line = out.matches('\n').count() + 1;
            let column = out.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            first = Some((line, column));
        }
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut prev = ' ';
            for c in chars.by_ref() {
                if prev == '*' && c == '/' {
                    break;
                }
                if c == '\n' {
                    out.push('\n');
                }
                prev = c;
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    first.map(|at| (out, at))
}

/// Whether a command line is one agenthooks wrote for `agent`: it names
/// agenthooks and runs `run --agent <agent>`.
pub fn is_ours(command: &str, agent: &str) -> bool {
    if !command.contains("agenthooks") {
        return false;
    }
    let needle = format!(" run --agent {agent}");
    command.match_indices(&needle).any(|(at, _)| {
        let rest = &command[at + needle.len()..];
        rest.is_empty() || rest.starts_with(' ')
    })
}

/// The command-like string fields of a handler object.
const COMMAND_KEYS: &[&str] = &["command", "bash", "powershell"];

fn handler_is_ours(handler: &Value, agent: &str) -> bool {
    COMMAND_KEYS.iter().any(|k| {
        handler
            .get(*k)
            .and_then(Value::as_str)
            .is_some_and(|c| is_ours(c, agent))
    })
}

/// The handlers of an item of an event's array: the item itself for
/// [`Shape::Flat`], its group's `hooks` otherwise.
fn handlers_in(item: &Value, shape: Shape) -> &[Value] {
    match shape {
        Shape::Flat => std::slice::from_ref(item),
        Shape::Nested | Shape::NestedMatching(_) => item
            .get("hooks")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice),
    }
}

/// Whether an item of an event's array is ours. For [`Shape::Nested`] that is a
/// group whose handlers are all ours.
fn item_is_ours(item: &Value, shape: Shape, agent: &str) -> bool {
    let handlers = handlers_in(item, shape);
    !handlers.is_empty() && handlers.iter().all(|h| handler_is_ours(h, agent))
}

/// Whether an item of an event's array is or holds a handler of ours.
fn item_has_ours(item: &Value, shape: Shape, agent: &str) -> bool {
    handlers_in(item, shape)
        .iter()
        .any(|h| handler_is_ours(h, agent))
}

/// Whether `root` holds any entry of ours for `agent` under `hooks`.
pub(crate) fn has_ours(root: &Map<String, Value>, shape: Shape, agent: &str) -> bool {
    !ours_keys(root, shape, agent).is_empty()
}

/// The event keys under `hooks` in `root` that hold an entry of ours for
/// `agent`.
pub(crate) fn ours_keys(root: &Map<String, Value>, shape: Shape, agent: &str) -> Vec<String> {
    let Some(hooks) = root.get("hooks").and_then(Value::as_object) else {
        return Vec::new();
    };
    hooks
        .iter()
        .filter(|(_, items)| {
            items
                .as_array()
                .is_some_and(|items| items.iter().any(|item| item_has_ours(item, shape, agent)))
        })
        .map(|(key, _)| key.clone())
        .collect()
}

/// The native event of one of our command lines: its `--event` value,
/// unquoted; `None` for a line that is not ours for `agent` or names none.
pub(crate) fn event_of(command: &str, agent: &str) -> Option<String> {
    if !is_ours(command, agent) {
        return None;
    }
    let (_, rest) = command.split_once(" --event ")?;
    let word = rest.split_whitespace().next()?;
    let word = word.trim_matches(|c| c == '\'' || c == '"');
    (!word.is_empty()).then(|| word.to_string())
}

/// The native events of `root`'s entries of ours for `agent` (their
/// `--event`), once each, in file order.
pub(crate) fn ours_events(root: &Map<String, Value>, shape: Shape, agent: &str) -> Vec<String> {
    let Some(hooks) = root.get("hooks").and_then(Value::as_object) else {
        return Vec::new();
    };
    let handlers = hooks.values().flat_map(|items| handlers_of(items, shape));
    let mut events: Vec<String> = Vec::new();
    for handler in handlers {
        let found = COMMAND_KEYS
            .iter()
            .filter_map(|k| handler.get(*k).and_then(Value::as_str))
            .find_map(|c| event_of(c, agent));
        if let Some(event) = found.filter(|e| !events.contains(e)) {
            events.push(event);
        }
    }
    events
}

/// The handler objects of one event's array: its items ([`Shape::Flat`])
/// or their groups' `hooks`.
fn handlers_of(items: &Value, shape: Shape) -> Vec<&Value> {
    let items = items.as_array().into_iter().flatten();
    items.flat_map(|item| handlers_in(item, shape)).collect()
}

/// The command lines of `root`'s entries of ours for `agent`, with the
/// native event each is under (the event key, else its `--event`), in file
/// order: what the agent runs for that event (`agenthooks status --probe`).
/// The `powershell` field is left out where `command` or `bash` is there.
pub(crate) fn ours_commands(
    root: &Map<String, Value>,
    shape: Shape,
    agent: &str,
) -> Vec<(String, String)> {
    let Some(hooks) = root.get("hooks").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (key, items) in hooks {
        for handler in handlers_of(items, shape) {
            let command = COMMAND_KEYS
                .iter()
                .filter_map(|k| handler.get(*k).and_then(Value::as_str))
                .find(|c| is_ours(c, agent));
            if let Some(command) = command {
                let event = event_of(command, agent).unwrap_or_else(|| key.clone());
                found.push((event, command.to_string()));
            }
        }
    }
    found
}

/// Makes `root.hooks` hold exactly `wanted` (native event key → entry) of our
/// entries for `agent`, in place, touching nothing else. With `wanted` empty
/// this removes all of ours (uninstall).
///
/// An entry already there and equal stays where it is; one of ours that
/// differs is replaced in place; a missing one is appended. Event arrays and
/// the `hooks` object that become empty through a removal are removed; ones
/// the user left empty stay.
pub(crate) fn sync(
    path: &Path,
    root: &mut Map<String, Value>,
    shape: Shape,
    agent: &str,
    wanted: &[(String, Value)],
) -> Result<(), InstallError> {
    if !root.contains_key("hooks") {
        if wanted.is_empty() {
            return Ok(());
        }
        root.insert("hooks".to_string(), Value::Object(Map::new()));
    }
    let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) else {
        return Err(InstallError::NotAnObject {
            path: path.to_path_buf(),
            key: Some("hooks".to_string()),
        });
    };
    let was_empty = hooks.is_empty();
    let keys: Vec<String> = hooks.keys().cloned().collect();
    for key in &keys {
        let want: Vec<&Value> = wanted
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v)
            .collect();
        let Some(items) = hooks.get_mut(key).and_then(Value::as_array_mut) else {
            if !want.is_empty() {
                return Err(InstallError::NotAnObject {
                    path: path.to_path_buf(),
                    key: Some(format!("hooks.{key}")),
                });
            }
            continue;
        };
        let before = items.len();
        // Our handlers inside a group the user also put theirs in: take ours out.
        if shape.is_nested() {
            for item in items.iter_mut() {
                if item_is_ours(item, shape, agent) {
                    continue;
                }
                if let Some(hs) = item.get_mut("hooks").and_then(Value::as_array_mut) {
                    hs.retain(|h| !handler_is_ours(h, agent));
                }
            }
        }
        // Ours are rewritten in place, in order, so an unchanged wiring
        // leaves the bytes as they are; extra ones go, missing ones are
        // added after the last of ours (or at the end).
        let mut kept = 0;
        let mut last_ours = None;
        let mut i = 0;
        while i < items.len() {
            if !item_is_ours(&items[i], shape, agent) {
                i += 1;
                continue;
            }
            match want.get(kept) {
                Some(w) => {
                    if &items[i] != *w {
                        items[i] = (*w).clone();
                    }
                    kept += 1;
                    last_ours = Some(i);
                    i += 1;
                }
                None => {
                    items.remove(i);
                }
            }
        }
        let at = last_ours.map_or(items.len(), |i| i + 1);
        let missing: Vec<Value> = want.iter().skip(kept).map(|w| (*w).clone()).collect();
        items.splice(at..at, missing);
        if items.is_empty() && before > 0 {
            hooks.shift_remove(key);
        }
    }
    for (key, entry) in wanted {
        if keys.contains(key) {
            continue;
        }
        match hooks.get_mut(key).and_then(Value::as_array_mut) {
            // A second entry of a key this call added.
            Some(items) => items.push(entry.clone()),
            None => {
                hooks.insert(key.clone(), Value::Array(vec![entry.clone()]));
            }
        }
    }
    if hooks.is_empty() && !was_empty {
        root.shift_remove("hooks");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::obj;
    use serde_json::json;

    const CMD: &str = "'/opt/bin/agenthooks' run --agent claude --event PreToolUse";

    fn group(cmd: &str) -> Value {
        json!({"matcher": "*", "hooks": [{"type": "command", "command": cmd, "timeout": 600}]})
    }

    /// Claude's nested shape: our entries made `wanted` in `root`.
    fn sync_claude(root: &mut Map<String, Value>, wanted: &[(String, Value)]) {
        sync(Path::new("s.json"), root, Shape::Nested, "claude", wanted).unwrap();
    }

    #[test]
    fn layout_is_detected_and_reproduced() {
        for text in [
            "{\n  \"a\": 1\n}\n",
            "{\n    \"a\": [\n        1\n    ]\n}",
            "{\n\t\"a\": 1\n}\n",
            "{\"a\":1}",
            "{\r\n  \"a\": 1\r\n}\r\n",
            // Floats the inexact parser reads 1 ulp off (`1e-88` was written
            // back as `1.0000000000000001e-88`): the user's value, unchanged.
            "{\"a\":[1e-88,9.2004e+132,5.91056283096e+116,1.2425579316619293e+93]}",
        ] {
            let doc = parse(Path::new("x.json"), text.as_bytes(), false).unwrap();
            assert_eq!(
                doc.layout.render(&Value::Object(doc.root)),
                text,
                "{text:?}"
            );
        }
    }

    #[test]
    fn an_empty_one_line_object_is_written_out_pretty() {
        let doc = parse(Path::new("x.json"), b"{}\n", false).unwrap();
        assert_eq!(
            doc.layout.render(&serde_json::json!({"a": 1})),
            "{\n  \"a\": 1\n}\n"
        );
    }

    #[test]
    fn broken_json_is_located() {
        let err = parse(Path::new("s.json"), b"{\n  \"a\": 1,\n  oops\n}\n", false).unwrap_err();
        match err {
            InstallError::Parse { line, column, .. } => assert_eq!((line, column), (3, 3)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn comments_are_told_apart_from_breakage() {
        let text = "{\n  // mine\n  \"a\": \"http://x\" /* b */\n}\n";
        match parse(Path::new("s.json"), text.as_bytes(), false).unwrap_err() {
            InstallError::Comments { line, column, .. } => assert_eq!((line, column), (2, 3)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse(Path::new("s.json"), b"[1]", false),
            Err(InstallError::NotAnObject { .. })
        ));
        assert!(parse(Path::new("s.json"), b"", false)
            .unwrap()
            .root
            .is_empty());
    }

    #[test]
    fn where_the_agent_accepts_comments_they_are_read_and_kept() {
        let text = "\u{feff}{\r\n  // mine\r\n  \"a\": \"http://x\", /* b */\r\n  \"hooks\": {\r\n    \"Stop\": [\r\n      {\"command\": \"mine\"}, // c\r\n    ],\r\n  },\r\n}\r\n";
        let mut doc = parse(Path::new("s.json"), text.as_bytes(), true).unwrap();
        let mine = json!({"command": "mine"});
        assert_eq!(
            Value::Object(doc.root.clone()),
            json!({"a": "http://x", "hooks": {"Stop": [mine]}})
        );
        assert_eq!(
            doc.render().unwrap(),
            text.as_bytes(),
            "unchanged: the same bytes"
        );
        sync_claude(&mut doc.root, &[("Stop".to_string(), group(CMD))]);
        let installed = String::from_utf8(doc.render().unwrap()).unwrap();
        assert!(
            installed.starts_with("\u{feff}{\r\n  // mine\r\n  \"a\": \"http://x\", /* b */\r\n"),
            "{installed:?}"
        );
        crate::test_support::assert_crlf_only(&installed);
        let mut doc = parse(Path::new("s.json"), installed.as_bytes(), true).unwrap();
        sync_claude(&mut doc.root, &[]);
        assert_eq!(String::from_utf8(doc.render().unwrap()).unwrap(), text);
        // Broken JSONC is located; elsewhere a trailing comma is broken JSON.
        match parse(Path::new("s.json"), b"{\n  // x\n  \"a\": ,\n}", true).unwrap_err() {
            InstallError::Parse { line, .. } => assert_eq!(line, 3),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse(Path::new("s.json"), b"{\"a\": 1,}", false),
            Err(InstallError::Parse { .. })
        ));
    }

    #[test]
    fn entries_are_removed_and_inserted_at_a_key_path_keeping_the_comments() {
        let text = "{\n  // mine\n  \"hooks\": {\n    \"BeforeTool\": [{\"command\": \"a\"}], // a\n    \"AfterTool\": [],\n  },\n}\n";
        let mut doc = Doc::parse(Path::new("s.json"), Some(text.as_bytes()), true).unwrap();
        assert_eq!(doc.get(&["hooks", "AfterTool"]), Some(&json!([])));
        assert_eq!(doc.remove(&["hooks", "AfterTool"]), Some(json!([])));
        assert_eq!(doc.remove(&["hooks", "nothing", "here"]), None);
        doc.insert(&["hooks", "Stop"], json!([{"command": "b"}]))
            .unwrap();
        doc.insert(&["model", "name"], json!("x")).unwrap();
        let out = String::from_utf8(doc.render().unwrap()).unwrap();
        assert!(
            out.starts_with(
                "{\n  // mine\n  \"hooks\": {\n    \"BeforeTool\": [{\"command\": \"a\"}], // a\n"
            ),
            "{out}"
        );
        let back = Doc::parse(Path::new("s.json"), Some(out.as_bytes()), true).unwrap();
        assert_eq!(
            Value::Object(back.root),
            json!({"hooks": {"BeforeTool": [{"command": "a"}], "Stop": [{"command": "b"}]}, "model": {"name": "x"}})
        );
        assert!(matches!(
            doc.insert(&["hooks", "Stop", "x"], json!(1)),
            Err(InstallError::NotAnObject { key: Some(k), .. }) if k == "hooks.Stop"
        ));
        let fresh = Doc::parse(Path::new("n.json"), None, false).unwrap();
        assert_eq!(fresh.render().unwrap(), b"{}\n");
    }

    #[test]
    fn a_jsonc_file_whose_text_and_value_disagree_is_not_rewritten() {
        // Two `hooks` keys: the value holds the second, an edit would reach the first.
        let text = "{\n  // c\n  \"hooks\": {\"Stop\": []},\n  \"hooks\": {}\n}\n";
        let mut doc = parse(Path::new("s.json"), text.as_bytes(), true).unwrap();
        sync_claude(&mut doc.root, &[("Stop".to_string(), group(CMD))]);
        assert!(matches!(doc.render(), Err(InstallError::Unkeepable { .. })));
    }

    #[test]
    fn ours_needs_the_name_and_the_agent() {
        assert!(is_ours(CMD, "claude"));
        assert!(is_ours("/x/agenthooks run --agent claude", "claude"));
        assert!(!is_ours(CMD, "codex"));
        assert!(!is_ours(
            "/x/agenthooks run --agent claude2 --event X",
            "claude"
        ));
        assert!(!is_ours("/x/other run --agent claude --event X", "claude"));
        // The launcher form (see `launcher::command_line`) and the older bare form.
        let launcher = "command -v agenthooks >/dev/null 2>&1 && exec agenthooks run --agent claude --event Stop || echo 'hint' >&2";
        assert!(is_ours(launcher, "claude"));
        assert!(!is_ours(launcher, "codex"));
    }

    #[test]
    fn sync_adds_keeps_and_removes_only_ours() {
        let user =
            json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]});
        let mut root = obj(json!({"model": "x", "hooks": {"PreToolUse": [user.clone()]}}));
        let wanted = vec![
            ("PreToolUse".to_string(), group(CMD)),
            ("Stop".to_string(), group(CMD)),
        ];
        sync_claude(&mut root, &wanted);
        assert_eq!(
            Value::Object(root.clone()),
            json!({"model": "x", "hooks": {"PreToolUse": [user.clone(), group(CMD)], "Stop": [group(CMD)]}})
        );
        let once = root.clone();
        sync_claude(&mut root, &wanted);
        assert_eq!(root, once, "idempotent");
        sync_claude(&mut root, &[]);
        assert_eq!(
            Value::Object(root),
            json!({"model": "x", "hooks": {"PreToolUse": [user]}})
        );
    }

    #[test]
    fn sync_replaces_a_stale_entry_in_place_and_drops_duplicates() {
        let old = group("/old/agenthooks run --agent claude --event PreToolUse");
        let user = group("./mine.sh");
        let mut root = obj(json!({"hooks": {"PreToolUse": [old.clone(), user.clone(), old]}}));
        let wanted = vec![("PreToolUse".to_string(), group(CMD))];
        sync_claude(&mut root, &wanted);
        assert_eq!(
            Value::Object(root),
            json!({"hooks": {"PreToolUse": [group(CMD), user]}})
        );
    }

    #[test]
    fn sync_takes_our_handler_out_of_a_mixed_group() {
        let mixed = json!({"hooks": [{"command": "./mine.sh"}, {"command": CMD}]});
        let mut root = obj(json!({"hooks": {"PreToolUse": [mixed]}}));
        sync_claude(&mut root, &[]);
        assert_eq!(
            Value::Object(root),
            json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "./mine.sh"}]}]}})
        );
    }

    #[test]
    fn sync_keeps_containers_the_user_left_empty() {
        let mut root = obj(json!({"hooks": {"Stop": []}}));
        sync(Path::new("f"), &mut root, Shape::Flat, "cursor", &[]).unwrap();
        assert_eq!(Value::Object(root), json!({"hooks": {"Stop": []}}));
        let mut root = obj(json!({"hooks": {}}));
        sync(Path::new("f"), &mut root, Shape::Flat, "cursor", &[]).unwrap();
        assert_eq!(Value::Object(root), json!({"hooks": {}}));
    }

    #[test]
    fn sync_refuses_a_hooks_value_that_is_not_an_object() {
        let mut root = obj(json!({"hooks": [1]}));
        let wanted = vec![("stop".to_string(), json!({"command": CMD}))];
        assert!(matches!(
            sync(Path::new("f"), &mut root, Shape::Flat, "claude", &wanted),
            Err(InstallError::NotAnObject { .. })
        ));
    }
}
