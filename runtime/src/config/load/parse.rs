//! Reading one `hooks.json`: bounded, UTF-8, parsed twice (a plain value to
//! find unknown keys, and typed), each failure one line naming the file.

use serde_json::Value;
use serde_path_to_error::Segment;

use super::Ctx;
use crate::config::hooks_json::{unknown_keys, HooksFile};
use crate::config::warning::WarningKind;
use crate::config::{BrokenFile, Config, OnError, Scope};
use crate::fsread::{self, caps, ReadError};

/// The file's bytes; `None` when it does not exist, or (an error) when it
/// cannot be read.
pub(super) fn read(ctx: &Ctx<'_>, config: &mut Config) -> Option<Vec<u8>> {
    // Either file may be a FIFO, a symlink to `/dev/zero` or gigabytes of
    // sparse zeros committed to git: a bounded read refuses them at once, so
    // the other scope still decides within the agent's deadline.
    match fsread::read_bounded(ctx.file, caps::HOOKS_JSON) {
        Ok(bytes) => Some(bytes),
        Err(ReadError::NotFound { .. }) => None,
        Err(e) => {
            config.broken.push(BrokenFile {
                file: ctx.file.to_path_buf(),
                scope: ctx.scope,
                // The error names the file and what to do.
                why: e.to_string(),
                lost_deny: false,
                unreadable: true,
            });
            ctx.broken_policy(config);
            None
        }
    }
}

/// The file as a plain value and typed; `None` when it is empty, or (an
/// error) when it is not UTF-8, not JSON, not an object or of wrong types.
pub(super) fn parse(
    ctx: &Ctx<'_>,
    config: &mut Config,
    bytes: &[u8],
) -> Option<(serde_json::Value, HooksFile)> {
    let text = match std::str::from_utf8(bytes) {
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
            return None;
        }
    };
    if text.trim().is_empty() {
        return None;
    }
    // Parse twice: as a plain value to find unknown keys, and typed. Both keep
    // serde_json's line and column, which `from_value` would lose.
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            ctx.error(config, json_error(&e), Some(text));
            return None;
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
        return None;
    }
    match serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(text)) {
        Ok(parsed) => Some((value, parsed)),
        Err(e) => {
            if may_skip_parts(ctx, config, text) {
                if let Some((parsed, skipped)) = without_wrong_types(&value) {
                    for kind in skipped {
                        ctx.warn(config, kind);
                    }
                    return Some((value, parsed));
                }
            }
            ctx.error(config, typed_error(&e), Some(text));
            None
        }
    }
}

/// The most values of the wrong type skipped in one file before it counts
/// as broken as a whole.
const MAX_SKIPPED: usize = 32;

/// Whether a value of the wrong type may skip only its part of the file
/// (its handler, group, event or key), the rest still loading: not in the
/// managed file (a policy is read exactly or fails closed), nor where a
/// broken file is to fail closed (`onConfigError: deny`), which a
/// partly-loaded file would slip past.
fn may_skip_parts(ctx: &Ctx<'_>, config: &Config, text: &str) -> bool {
    ctx.scope != Scope::Managed
        && config.on_config_error != OnError::Deny
        && !(ctx.scope == Scope::User && OnError::denies_in(text, "onConfigError"))
}

/// The file typed with each value of the wrong type skipped: a handler's
/// value skips the handler, a group's the group, an event's its whole
/// entry, a top-level key's that key; a warning for each. `None` when
/// that does not make it load, or a part skipped asked to fail closed
/// (`onError: deny`: the whole file is then broken, which says so).
fn without_wrong_types(value: &Value) -> Option<(HooksFile, Vec<WarningKind>)> {
    let mut value = value.clone();
    let mut skipped = Vec::new();
    for _ in 0..MAX_SKIPPED {
        let e = match serde_path_to_error::deserialize::<_, HooksFile>(&value) {
            Ok(parsed) => return Some((parsed, skipped)),
            Err(e) => e,
        };
        let path: Vec<Segment> = e.path().iter().cloned().collect();
        let (len, what) = match path.as_slice() {
            [Segment::Map { key }, ..] if key != "hooks" => (1, "key"),
            [_, _, _, Segment::Map { key }, Segment::Seq { .. }, ..] if key == "hooks" => {
                (5, "handler")
            }
            [_, _, _, ..] => (3, "group"),
            [_, _] => (2, "event"),
            _ => return None,
        };
        let part = replace(&mut value, &path[..len], what)?;
        if OnError::handler_denies_in(&part.to_string()) {
            return None;
        }
        let why = e
            .inner()
            .to_string()
            .replace("expected f64", "expected a number")
            .replace("expected u64", "expected a whole number")
            .replace("expected u32", "expected a whole number");
        let at = e.path().to_string();
        skipped.push(WarningKind::WrongType {
            at,
            entry: key_path(&path[..len]),
            why: crate::protocol::one_line(&why),
            skipped: what,
        });
    }
    None
}

/// `hooks.Stop[0].hooks[1]`: a path written as serde_path_to_error writes one.
fn key_path(path: &[Segment]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } if out.is_empty() => out.push_str(key),
            Segment::Map { key } => {
                out.push('.');
                out.push_str(key);
            }
            _ => out.push_str(".?"),
        }
    }
    out
}

/// Take the part of `value` at `path` out, leaving in its place what loads
/// as nothing and keeps the positions of its neighbours (so warnings about
/// them still name the right index): a handler no one runs, a group with
/// no handlers; an event or top-level key is removed. The part taken.
fn replace(value: &mut Value, path: &[Segment], what: &str) -> Option<Value> {
    let (last, parents) = path.split_last()?;
    let mut at = value;
    for segment in parents {
        at = match segment {
            Segment::Map { key } => at.get_mut(key.as_str())?,
            Segment::Seq { index } => at.get_mut(*index)?,
            _ => return None,
        };
    }
    let stand_in = match what {
        // No `type`: skipped without a word (the warning here says why).
        "handler" => serde_json::json!({"type": SKIPPED_TYPE}),
        _ => serde_json::json!({"hooks": []}),
    };
    match last {
        Segment::Seq { index } => {
            let slot = at.get_mut(*index)?;
            Some(std::mem::replace(slot, stand_in))
        }
        Segment::Map { key } => at.as_object_mut()?.remove(key.as_str()),
        _ => None,
    }
}

/// The `type` of a handler skipped for a value of the wrong type: not one
/// the format knows, so the loader skips it; warned about here only.
pub(super) const SKIPPED_TYPE: &str = " skipped: wrong type";

/// A warning for each key, event and handler type the file spells but
/// agenthooks does not know.
pub(super) fn warn_unknown(ctx: &Ctx<'_>, config: &mut Config, value: &serde_json::Value) {
    for unknown in unknown_keys(value) {
        ctx.warn(config, WarningKind::Unknown(unknown));
    }
}

/// What a JSON value is when it is not an object ("an array", ...).
pub(super) fn not_an_object(value: &serde_json::Value) -> Option<&'static str> {
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
pub(super) fn json_error(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let msg = msg.strip_suffix(&suffix).unwrap_or(&msg);
    format!("line {} column {}: {msg}", e.line(), e.column())
}

/// A value of the wrong type: where (line, column and key path) and what
/// was expected, in words rather than Rust's type names.
pub(super) fn typed_error(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let inner = json_error(e.inner())
        .replace("expected f64", "expected a number")
        .replace("expected u64", "expected a whole number")
        .replace("expected u32", "expected a whole number");
    let path = e.path().to_string();
    match inner.split_once(": ") {
        Some((at, what)) if path != "." => format!("{at}: `{path}`: {what}"),
        _ => inner,
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
