//! Our entries in a YAML config of the user's (Hermes' `hooks:` mapping of
//! event to a list of `{command, timeout}`), as one fenced block of lines:
//! a begin comment naming the agent, the entries, an end comment. Uninstall
//! removes exactly those lines (and puts back the one line the block
//! replaced), so every other byte stays the user's, comments included.
//!
//! The layouts accepted, at the top level of a block-style document:
//! - no `hooks:` key: the block, with its own `hooks:` line, goes at the end;
//! - `hooks:` empty (`hooks:`, `hooks: {}`, `hooks: null`, `hooks: ~`): the
//!   block takes that line's place, and the begin comment keeps the line;
//! - `hooks:` with event keys of the user's below it: our event keys go in
//!   a block right under it, unless one of them is the user's already (two
//!   equal keys would drop one list), which is refused with one line.
//!
//! Anything else (a flow-style document, `hooks:` holding a list or a
//! scalar) is refused: nothing is written.

use super::text::{Entry, Scalar};
use crate::agents::YamlSpec;

/// How the begin comment starts; the agent's id follows.
const BEGIN: &str = "# agenthooks: begin ";
/// The end comment.
const END: &str = "# agenthooks: end";
/// In the begin comment: the line the block took the place of.
const WAS: &str = " was: ";
/// In the begin comment: the file ended without a newline before the block.
const NO_EOL: &str = " (no final newline before)";

/// `text` with `agent`'s block replaced by one holding `wanted` (none: the
/// block removed, what it replaced put back).
///
/// # Errors
/// One line when the file's layout is not one of those accepted (see the
/// module doc) or an event of ours is a key of the user's already.
pub(super) fn edit(
    text: &str,
    spec: &YamlSpec,
    agent: &str,
    wanted: &[Entry],
) -> Result<String, String> {
    let bare = remove(text, agent)?;
    if wanted.is_empty() {
        return Ok(bare);
    }
    let added = add(&bare, spec, agent, wanted)?;
    // The same block again: the caller sees no change.
    Ok(if added == text {
        text.to_string()
    } else {
        added
    })
}

/// The file's line ending (`\r\n` when it uses it anywhere).
fn eol(text: &str) -> &'static str {
    if text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// `text` without `agent`'s block, what the block replaced put back.
fn remove(text: &str, agent: &str) -> Result<String, String> {
    let begin = format!("{BEGIN}{agent}");
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let Some(start) = lines.iter().position(|l| is_marker(l, &begin)) else {
        return Ok(text.to_string());
    };
    let Some(len) = lines[start..].iter().position(|l| l.trim() == END) else {
        return Err(format!(
            "the `{begin}` comment has no `{END}` line after it; put it back or remove the block by hand"
        ));
    };
    let marker = lines[start].trim();
    let rest = &marker[begin.len()..];
    let mut out: String = lines[..start].concat();
    if let Some(was) = rest.strip_prefix(WAS) {
        let nl = lines[start + len]
            .strip_prefix(lines[start + len].trim_end())
            .unwrap_or("");
        out.push_str(was);
        out.push_str(nl);
    } else if rest == NO_EOL {
        // The newline install added before the block goes with it.
        if out.ends_with("\r\n") {
            out.truncate(out.len() - 2);
        } else if out.ends_with('\n') {
            out.pop();
        }
    }
    out.push_str(&lines[start + len + 1..].concat());
    Ok(out)
}

/// Whether `line` is a begin comment exactly for this agent (not one whose id
/// merely starts with it).
fn is_marker(line: &str, begin: &str) -> bool {
    line.trim()
        .strip_prefix(begin)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// A line that says nothing to YAML: blank or a comment.
fn is_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The value after `key:` on a line of a top-level key, comment removed.
fn value_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.trim_start_matches(' ');
    let rest = rest.strip_prefix(':')?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t', '\r', '\n'])) {
        return None;
    }
    let rest = rest.split(" #").next().unwrap_or("");
    Some(rest.trim())
}

/// `bare` (holding no block of ours) with our block added.
fn add(bare: &str, spec: &YamlSpec, agent: &str, wanted: &[Entry]) -> Result<String, String> {
    let nl = eol(bare);
    let key = spec.key;
    let lines: Vec<&str> = bare.split_inclusive('\n').collect();
    if let Some(l) = lines
        .iter()
        .find(|l| !is_blank(l) && indent_of(l) == 0 && !l.starts_with("---"))
    {
        if l.starts_with(['{', '[', '-']) {
            return Err("the top level is not a block mapping (`key: value` lines), where agenthooks adds its block".to_string());
        }
    }
    let begin = format!("{BEGIN}{agent} (written by `agenthooks install {agent}`; `agenthooks uninstall {agent}` removes it)");
    let Some(at) = lines
        .iter()
        .position(|l| indent_of(l) == 0 && value_after(l, key).is_some())
    else {
        // No key: the block at the end, with its own key line.
        let mut out = bare.to_string();
        let mut marker = begin;
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(nl);
            marker = format!("{BEGIN}{agent}{NO_EOL}");
        }
        out.push_str(&block(&marker, Some(key), 0, wanted, nl));
        return Ok(out);
    };
    let value = value_after(lines[at], key).unwrap_or("");
    let children: Vec<&str> = lines[at + 1..]
        .iter()
        .take_while(|l| is_blank(l) || indent_of(l) > 0)
        .filter(|l| !is_blank(l))
        .copied()
        .collect();
    let mut out: String = lines[..at].concat();
    let tail = lines[at + 1..].concat();
    match (value, children.first()) {
        ("" | "{}" | "null" | "~", None) => {
            let was = lines[at].trim_end_matches(['\r', '\n']);
            let marker = format!("{BEGIN}{agent}{WAS}{was}");
            out.push_str(&block(&marker, Some(key), 0, wanted, nl));
            if !lines[at].ends_with('\n') {
                // The key line was the file's last, without a newline.
                out.truncate(out.len() - nl.len());
                let mut fixed = out;
                fixed.push_str(&tail);
                return Ok(fixed);
            }
        }
        ("", Some(first)) if !first.trim_start().starts_with('-') => {
            let indent = indent_of(first);
            for entry in wanted {
                let taken = children.iter().any(|l| {
                    indent_of(l) == indent && value_after(l.trim_start(), entry.event).is_some()
                });
                if taken {
                    return Err(format!(
                        "`{key}.{}` holds hooks of yours already, and a second `{}` key would drop one list; move them into .agents/hooks.json first",
                        entry.event, entry.event
                    ));
                }
            }
            out.push_str(lines[at]);
            out.push_str(&block(&begin, None, indent, wanted, nl));
        }
        _ => {
            return Err(format!(
                "`{key}:` is not a mapping of events to lists, where agenthooks adds its entries"
            ))
        }
    }
    out.push_str(&tail);
    Ok(out)
}

/// The fenced block: `marker`, the key line (when given), one list per
/// event, the end comment; each line indented by `indent` spaces.
fn block(marker: &str, key: Option<&str>, indent: usize, wanted: &[Entry], nl: &str) -> String {
    let pad = " ".repeat(indent);
    let mut out = format!("{pad}{marker}{nl}");
    let mut event_pad = pad.clone();
    if let Some(key) = key {
        out.push_str(&format!("{pad}{key}:{nl}"));
        event_pad.push_str("  ");
    }
    for entry in wanted {
        out.push_str(&format!("{event_pad}{}:{nl}", entry.event));
        for (i, (k, v)) in entry.fields.iter().enumerate() {
            let lead = if i == 0 { "  - " } else { "    " };
            out.push_str(&format!("{event_pad}{lead}{k}: {}{nl}", scalar(v)));
        }
    }
    out.push_str(&format!("{pad}{END}{nl}"));
    out
}

/// A value as YAML: strings double-quoted (JSON's escapes are YAML's).
fn scalar(v: &Scalar) -> String {
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
    match v {
        Scalar::Str(s) => quote(s),
        Scalar::Int(n) => n.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Strs(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|s| quote(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
#[path = "yaml_tests.rs"]
mod tests;
