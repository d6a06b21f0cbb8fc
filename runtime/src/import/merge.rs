//! Adding imported hooks to a `.agents/hooks.json`, each once.

use std::path::Path;

use serde_json::{Map, Value};

use super::normalise;
use crate::agents::Imported;

/// What became of one imported hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merged {
    /// Added to the file.
    Added,
    /// The file (or an earlier hook of this import) already runs it.
    AlreadyThere,
}

/// Adds `hook` to `root` (a parsed `.agents/hooks.json`) in Claude's shape:
/// into the first group of its event with the same matcher, else a new
/// group at the end of the event's array. A handler of the same type
/// running the same thing ([`normalise`]d command, or URL) under the same
/// event and matcher is not added twice.
///
/// # Errors
/// When `hooks` or the event's value is not what Claude's shape has there
/// (the key is named).
pub fn merge(
    root: &mut Map<String, Value>,
    hook: &Imported,
    project: Option<&Path>,
) -> Result<Merged, String> {
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err("`hooks` is not an object".to_string());
    };
    let groups = hooks
        .entry(hook.event.as_str())
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(groups) = groups else {
        return Err(format!("`hooks.{}` is not an array", hook.event.as_str()));
    };
    let wanted = matcher_key(hook.matcher.as_deref());
    let handler = Value::Object(hook.handler.clone());
    let mut target = None;
    for (i, group) in groups.iter().enumerate() {
        if matcher_key(group.get("matcher").and_then(Value::as_str)) != wanted {
            continue;
        }
        let handlers = group.get("hooks").and_then(Value::as_array);
        if handlers.is_some_and(|hs| hs.iter().any(|h| same(h, &handler, project))) {
            return Ok(Merged::AlreadyThere);
        }
        if target.is_none() && handlers.is_some() {
            target = Some(i);
        }
    }
    if let Some(handlers) = target.and_then(|i| groups[i].get_mut("hooks")?.as_array_mut()) {
        handlers.push(handler);
        return Ok(Merged::Added);
    }
    let mut group = Map::new();
    if let Some(m) = &hook.matcher {
        group.insert("matcher".into(), Value::String(m.clone()));
    }
    group.insert("hooks".into(), Value::Array(vec![handler]));
    groups.push(Value::Object(group));
    Ok(Merged::Added)
}

/// A matcher as compared: every "match all" spelling is one.
fn matcher_key(m: Option<&str>) -> &str {
    match m.map(str::trim) {
        None | Some("" | "*") => "*",
        Some(m) => m,
    }
}

/// Whether two handlers run the same thing.
fn same(a: &Value, b: &Value, project: Option<&Path>) -> bool {
    let ty = |h: &Value| {
        h.get("type")
            .and_then(Value::as_str)
            .unwrap_or("command")
            .to_string()
    };
    let key = |h: &Value, k: &str| {
        h.get(k)
            .and_then(Value::as_str)
            .map(|c| normalise(None, c, project))
    };
    ty(a) == ty(b)
        && key(a, "command") == key(b, "command")
        && key(a, "url") == key(b, "url")
        && key(a, "component") == key(b, "component")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::EventName;
    use serde_json::json;

    fn imported(matcher: Option<&str>, command: &str) -> Imported {
        Imported {
            event: EventName::PreToolUse,
            matcher: matcher.map(str::to_string),
            handler: json!({"type": "command", "command": command})
                .as_object()
                .unwrap()
                .clone(),
            dropped: Vec::new(),
        }
    }

    #[test]
    fn a_hook_joins_its_matcher_s_group_once() {
        let mut root = json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh"}]}
        ]}})
        .as_object()
        .unwrap()
        .clone();
        let b = imported(Some("Bash"), "./b.sh");
        assert_eq!(merge(&mut root, &b, None), Ok(Merged::Added));
        assert_eq!(merge(&mut root, &b, None), Ok(Merged::AlreadyThere));
        let a = imported(Some("Bash"), "  ./a.sh ");
        assert_eq!(merge(&mut root, &a, None), Ok(Merged::AlreadyThere));
        let all = imported(None, "./c.sh");
        assert_eq!(merge(&mut root, &all, None), Ok(Merged::Added));
        assert_eq!(
            Value::Object(root),
            json!({"hooks": {"PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "./a.sh"},
                    {"type": "command", "command": "./b.sh"}
                ]},
                {"hooks": [{"type": "command", "command": "./c.sh"}]}
            ]}})
        );
        let mut bad = json!({"hooks": []}).as_object().unwrap().clone();
        assert!(merge(&mut bad, &all, None).is_err());
    }
}
