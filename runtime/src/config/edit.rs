//! Adding a hook to a `.agents/hooks.json` without hand-editing it, and
//! without touching anything else the user wrote: comments, key order,
//! indentation, trailing commas and line endings stay byte for byte; only the
//! new handler (or matcher group) is inserted. Used by `agenthooks add` and
//! `agenthooks new`.
//!
//! The edit is on jsonc-parser's concrete syntax tree, which keeps every
//! byte; the write is locked and atomic (`crate::atomic`), and the file is
//! read bounded ([`crate::fsread`]) under that lock, so two `add`s at once
//! both land.

use std::io;
use std::path::Path;

use jsonc_parser::cst::{CstArray, CstInputValue, CstObject, CstRootNode};
use jsonc_parser::ParseOptions;
use serde_json::Value;

use crate::atomic;
use crate::encoding::cst_input as input;
use crate::fsread::{self, caps};

/// What [`add_handler`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// Added into the existing file.
    Merged,
    /// The file did not exist; created with the hook.
    Created,
    /// A handler with the same `component`, `command` or `url` was already
    /// in that group: nothing written.
    AlreadyThere,
}

/// Add `handler` under `event`, in the group whose `matcher` is `matcher`
/// (a group with no matcher when `None`; a new group at the end when there
/// is none), to the hooks.json at `path`: locked, atomic, the rest of the
/// file's bytes kept.
///
/// # Errors
/// One line naming the file, what is wrong and the fix: a file that cannot
/// be read or parsed, whose top level, `hooks` or event is not of the right
/// type, or that cannot be written.
pub fn add_handler(
    path: &Path,
    event: &str,
    matcher: Option<&str>,
    handler: &Value,
) -> Result<Added, String> {
    let shown = path.display();
    let target = atomic::resolve(path).map_err(|e| format!("`{shown}`: {e}"))?;
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    let _lock = atomic::Lock::acquire(&target, atomic::LOCK_WAIT)
        .map_err(|e| format!("cannot lock `{shown}`: {e}"))?;
    let existing = match fsread::read_bounded_string(&target, caps::HOOKS_JSON) {
        Ok(text) => Some(text),
        Err(fsread::ReadError::NotFound { .. }) => None,
        Err(e) => return Err(format!("cannot read `{shown}`: {e}")),
    };
    let (text, added) = match &existing {
        Some(text) => match merged(text, event, matcher, handler)
            .map_err(|why| format!("`{shown}`: {why}"))?
        {
            Some(text) => (text, Added::Merged),
            None => return Ok(Added::AlreadyThere),
        },
        None => (fresh(event, matcher, handler), Added::Created),
    };
    atomic::write(&target, text.as_bytes(), false)
        .map_err(|e: io::Error| format!("cannot write `{shown}`: {e}"))?;
    Ok(added)
}

/// The `"$schema"` of every `hooks.json` agenthooks creates (`add`, `new`,
/// `import`): agenthooks reads the key and ignores it, while Antigravity,
/// which reads `.agents/hooks.json` too, rejects a file that has it, and so
/// never runs its hooks natively, outside agenthooks' trust gate and sandbox
/// (docs/agents.md: "Agents that read these files themselves").
pub const SCHEMA: &str = "agenthooks";

/// A new hooks.json holding just the hook.
fn fresh(event: &str, matcher: Option<&str>, handler: &Value) -> String {
    let mut group = serde_json::Map::new();
    if let Some(m) = matcher {
        group.insert("matcher".into(), Value::from(m));
    }
    group.insert("hooks".into(), Value::Array(vec![handler.clone()]));
    let doc = serde_json::json!({"$schema": SCHEMA, "hooks": {event: [group]}});
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}

/// `text` with the hook added, or `None` when it is there already.
///
/// # Errors
/// Why the text cannot take it (what to fix in the file).
pub fn merged(
    text: &str,
    event: &str,
    matcher: Option<&str>,
    handler: &Value,
) -> Result<Option<String>, String> {
    // agenthooks reads hooks.json as strict JSON: a file with comments or
    // trailing commas would not load, with or without the new hook.
    if !text.trim().is_empty() {
        if let Err(e) = serde_json::from_str::<Value>(text) {
            return Err(format!(
                "is not valid JSON ({e}; comments and trailing commas are not allowed); fix it, then run this again"
            ));
        }
    }
    let root = CstRootNode::parse(text, &ParseOptions::default())
        .map_err(|e| format!("is not valid JSON ({e}); fix it, then run this again"))?;
    let top = if root.value().is_none() {
        root.object_value_or_set()
    } else {
        root.object_value()
            .ok_or("the top level is not a JSON object; make it `{\"hooks\": {}}`")?
    };
    let hooks = top
        .object_value_or_create("hooks")
        .ok_or("`hooks` is not an object of events; fix it, then run this again")?;
    let groups = hooks
        .array_value_or_create(event)
        .ok_or_else(|| format!("`hooks.{event}` is not a list of matcher groups; fix it"))?;
    match find_group(&groups, matcher) {
        Some(list) => {
            let present = list
                .elements()
                .iter()
                .filter_map(|h| h.to_serde_value())
                .any(|h| same_handler(&h, handler));
            if present {
                return Ok(None);
            }
            list.append(input(handler));
        }
        None => {
            let mut group = Vec::new();
            if let Some(m) = matcher {
                group.push(("matcher".to_string(), CstInputValue::String(m.into())));
            }
            group.push((
                "hooks".to_string(),
                CstInputValue::Array(vec![input(handler)]),
            ));
            groups.append(CstInputValue::Object(group));
        }
    }
    Ok(Some(root.to_string()))
}

/// The `hooks` list of the group of `groups` whose matcher is `matcher`
/// (absent, `""` and `*` are all "every tool" for `None`).
fn find_group(groups: &CstArray, matcher: Option<&str>) -> Option<CstArray> {
    let every = |m: Option<&str>| matches!(m, None | Some("" | "*"));
    groups.elements().into_iter().find_map(|g| {
        let group: CstObject = g.as_object()?;
        let theirs = group
            .get("matcher")
            .and_then(|p| p.value())
            .and_then(|v| v.as_string_lit())
            .and_then(|s| s.decoded_value().ok());
        let same = match (matcher, theirs.as_deref()) {
            (m, t) if every(m) && every(t) => true,
            (Some(m), Some(t)) => m == t,
            _ => false,
        };
        if !same {
            return None;
        }
        group.get("hooks")?.value()?.as_array()
    })
}

/// Whether two handlers run the same thing.
fn same_handler(a: &Value, b: &Value) -> bool {
    ["component", "command", "url"]
        .iter()
        .any(|k| a.get(k).is_some_and(|v| Some(v) == b.get(k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value(text: &str) -> Value {
        CstRootNode::parse(text, &ParseOptions::default())
            .unwrap()
            .to_serde_value()
            .unwrap()
    }

    fn guard() -> Value {
        json!({"type": "wasm", "component": ".agents/hooks/g.wasm", "timeout": 5})
    }

    /// A team's file in its own layout: key order, indentation, one-line lists.
    const USER: &str = "{\n    \"onError\": \"deny\",\n    \"hooks\": {\n        \"PreToolUse\": [\n            { \"matcher\": \"Bash\",\n              \"hooks\": [ {\"type\": \"command\", \"command\": \"./check.sh\"} ] }\n        ]\n    }\n}\n";

    /// Whether `new` is `old` with text inserted only (no byte of `old` changed or removed).
    fn only_inserted(old: &str, new: &str) -> bool {
        similar::TextDiff::from_chars(old, new)
            .ops()
            .iter()
            .all(|op| {
                !matches!(
                    op.tag(),
                    similar::DiffTag::Delete | similar::DiffTag::Replace
                )
            })
    }

    /// [`USER`] with [`guard`] merged in at `event` and `matcher`, checked
    /// to be only insertions, as text and as a value.
    fn guarded(event: &str, matcher: Option<&str>) -> (String, Value) {
        let out = merged(USER, event, matcher, &guard()).unwrap().unwrap();
        assert!(only_inserted(USER, &out), "{out}");
        let parsed = value(&out);
        (out, parsed)
    }

    #[test]
    fn a_hook_joins_its_matcher_group_and_every_other_byte_stays() {
        let (out, parsed) = guarded("PreToolUse", Some("Bash"));
        let hooks = &parsed["hooks"]["PreToolUse"][0]["hooks"];
        assert_eq!(hooks[1], guard());
        assert_eq!(parsed["onError"], "deny");
        // Again: nothing to do.
        assert_eq!(merged(&out, "PreToolUse", Some("Bash"), &guard()), Ok(None));
    }

    #[test]
    fn another_matcher_or_event_gets_a_group_of_its_own() {
        let (_, parsed) = guarded("PreToolUse", Some("Write|Edit"));
        assert_eq!(parsed["hooks"]["PreToolUse"][1]["matcher"], "Write|Edit");
        let (_, parsed) = guarded("Stop", None);
        assert_eq!(parsed["hooks"]["Stop"][0], json!({"hooks": [guard()]}));
        assert_eq!(parsed["onError"], "deny");
    }

    #[test]
    fn a_file_of_the_wrong_shape_is_refused_with_the_fix() {
        for (text, want) in [
            ("[1]", "top level is not a JSON object"),
            (r#"{"hooks": 3}"#, "`hooks` is not an object"),
            (
                r#"{"hooks": {"PreToolUse": {}}}"#,
                "`hooks.PreToolUse` is not a list",
            ),
            ("{ nope", "is not valid JSON"),
            (
                "{\n  // a comment\n  \"hooks\": {}\n}",
                "comments and trailing commas are not allowed",
            ),
        ] {
            let why = merged(text, "PreToolUse", None, &guard()).unwrap_err();
            assert!(why.contains(want), "{text}: {why}");
        }
        let out = merged("", "PreToolUse", None, &guard()).unwrap().unwrap();
        assert!(out.contains("g.wasm"), "{out}");
    }

    #[test]
    fn add_handler_creates_then_merges_under_the_lock() {
        let (_tmp, path) = crate::fsread::temp_path(".agents/hooks.json");
        assert_eq!(
            add_handler(&path, "PreToolUse", Some("Bash"), &guard()),
            Ok(Added::Created)
        );
        let other = json!({"type": "command", "command": "./x.sh"});
        assert_eq!(
            add_handler(&path, "PreToolUse", Some("Bash"), &other),
            Ok(Added::Merged)
        );
        assert_eq!(
            add_handler(&path, "PreToolUse", Some("Bash"), &other),
            Ok(Added::AlreadyThere)
        );
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][1], other);
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, ["hooks.json"], "no lock or temporary left");
    }
}
