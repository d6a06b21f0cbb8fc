//! Reading one `hooks.json`: bounded, UTF-8, parsed twice (a plain value to
//! find unknown keys, and typed), each failure one line naming the file.

use super::Ctx;
use crate::config::hooks_json::{unknown_keys, HooksFile};
use crate::config::warning::WarningKind;
use crate::config::{BrokenFile, Config};
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
            ctx.error(config, typed_error(&e), Some(text));
            None
        }
    }
}

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
