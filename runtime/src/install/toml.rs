//! Our entries as tables of an array in a TOML config of the user's
//! (`[[hooks]]`), edited with `toml_edit`: the user's tables, comments,
//! key order and blank lines keep their bytes; ours are appended at the end
//! of the file and removed again by uninstall.

use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, Value};

use super::json;
use super::text::{Entry, Scalar};
use crate::agents::TomlSpec;

/// `text` with `agent`'s tables in `spec.array` replaced by `wanted`
/// (none: removed; the array too when nothing is left in it). `text`
/// itself, unchanged, when its tables of ours already are `wanted`.
///
/// # Errors
/// One line when `text` is not TOML or the key is not an array.
pub(super) fn edit(
    text: &str,
    spec: &TomlSpec,
    agent: &str,
    wanted: &[Entry],
) -> Result<String, String> {
    // toml_edit writes `\n` only: a CRLF file is edited as LF and given its
    // CRLF back, so the user's line endings stay.
    let crlf = text.contains("\r\n");
    if crlf && text.replace("\r\n", "").contains('\n') {
        return Err("mixes CRLF and LF line endings, which agenthooks cannot keep".to_string());
    }
    let lf = text.replace("\r\n", "\n");
    let back = |s: String| if crlf { s.replace('\n', "\r\n") } else { s };
    let mut doc: DocumentMut = lf.parse().map_err(|e: toml_edit::TomlError| {
        let what = crate::protocol::one_line(&e.to_string());
        format!("not valid TOML ({what})")
    })?;
    let key = spec.array;
    let new: Vec<Table> = wanted.iter().map(|e| table(spec, e)).collect();
    match doc.get_mut(key) {
        None if new.is_empty() => return Ok(text.to_string()),
        None => {
            let mut array = ArrayOfTables::new();
            new.into_iter().for_each(|t| array.push(t));
            doc.insert(key, Item::ArrayOfTables(array));
        }
        Some(Item::ArrayOfTables(array)) => {
            let ours: Vec<_> = array
                .iter()
                .filter(|t| is_ours(t.iter().map(|(_, i)| i.as_value()), agent))
                .map(|t| summary(t.iter().map(|(k, i)| (k, i.as_value()))))
                .collect();
            let want: Vec<_> = new
                .iter()
                .map(|t| summary(t.iter().map(|(k, i)| (k, i.as_value()))))
                .collect();
            if ours == want {
                return Ok(text.to_string());
            }
            array.retain(|t| !is_ours(t.iter().map(|(_, i)| i.as_value()), agent));
            new.into_iter().for_each(|t| array.push(t));
            if array.is_empty() {
                doc.remove(key);
            }
        }
        // `hooks = [{...}]`: ours go into the same inline array.
        Some(Item::Value(Value::Array(array))) => {
            let inline = |v: &Value| v.as_inline_table().cloned();
            let ours: Vec<_> = array
                .iter()
                .filter_map(inline)
                .filter(|t| is_ours(t.iter().map(|(_, v)| Some(v)), agent))
                .map(|t| summary(t.iter().map(|(k, v)| (k, Some(v)))))
                .collect();
            let want: Vec<InlineTable> = new.into_iter().map(Table::into_inline_table).collect();
            let want_summary: Vec<_> = want
                .iter()
                .map(|t| summary(t.iter().map(|(k, v)| (k, Some(v)))))
                .collect();
            if ours == want_summary {
                return Ok(text.to_string());
            }
            array.retain(|v| {
                !v.as_inline_table()
                    .is_some_and(|t| is_ours(t.iter().map(|(_, v)| Some(v)), agent))
            });
            want.into_iter().for_each(|t| array.push(t));
        }
        Some(_) => {
            return Err(format!(
                "`{key}` is not an array of tables (`[[{key}]]`), where agenthooks adds its entries"
            ))
        }
    }
    Ok(back(doc.to_string()))
}

/// Our table for `entry`: the event key first, then the handler's keys.
fn table(spec: &TomlSpec, entry: &Entry) -> Table {
    let mut t = Table::new();
    t.insert(spec.event_key, toml_edit::value(entry.event));
    for (key, scalar) in &entry.fields {
        let v: Value = match scalar {
            Scalar::Str(s) => s.as_str().into(),
            Scalar::Int(n) => i64::try_from(*n).unwrap_or(i64::MAX).into(),
            Scalar::Bool(b) => (*b).into(),
            Scalar::Strs(items) => {
                Value::Array(items.iter().map(String::as_str).collect::<Array>())
            }
        };
        t.insert(key, Item::Value(v));
    }
    t
}

/// Whether a table is ours: one of its string values is our launcher.
fn is_ours<'a>(mut values: impl Iterator<Item = Option<&'a Value>>, agent: &str) -> bool {
    values.any(|v| {
        v.and_then(Value::as_str)
            .is_some_and(|s| json::is_ours(s, agent))
    })
}

/// A table's keys and values with their layout left out, to tell whether
/// the tables of ours already are the ones install would write.
fn summary<'a>(items: impl Iterator<Item = (&'a str, Option<&'a Value>)>) -> Vec<(String, String)> {
    items
        .map(|(k, v)| {
            let v = v.map(|v| {
                let mut v = v.clone();
                v.decor_mut().clear();
                v.to_string()
            });
            (k.to_string(), v.unwrap_or_default())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: TomlSpec = TomlSpec {
        array: "hooks",
        event_key: "event",
        handler: &[],
        timeout_range: (1, 600),
    };

    fn entry(event: &'static str) -> Entry {
        Entry {
            event,
            fields: vec![
                (
                    "command",
                    Scalar::Str(format!("exec agenthooks run --agent kimi --event {event}")),
                ),
                ("timeout", Scalar::Int(30)),
            ],
        }
    }

    /// Install, install again, uninstall: the installed text, and `text`
    /// back byte for byte at the end.
    fn round_trip(text: &str) -> String {
        let wanted = [entry("PreToolUse"), entry("SessionStart")];
        let installed = edit(text, &SPEC, "kimi", &wanted).unwrap();
        assert_ne!(installed, text);
        assert_eq!(edit(&installed, &SPEC, "kimi", &wanted).unwrap(), installed);
        assert_eq!(
            edit(&installed, &SPEC, "kimi", &[]).unwrap(),
            text,
            "{installed:?}"
        );
        installed
    }

    #[test]
    fn tables_of_ours_go_and_come_back_out_leaving_the_user_s_bytes() {
        let installed = round_trip("# mine\nmodel = \"k2\"  # fast\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"say done\"\n\n[ui]\ntheme = 'dark'\n");
        assert!(installed.contains("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exec agenthooks run --agent kimi --event PreToolUse\"\ntimeout = 30\n"), "{installed}");
        round_trip("");
        // toml_edit ends the last line it renders with a newline: without
        // ours, a file that had none differs only there (`text::plan` then
        // puts the backup's bytes back).
        let installed = edit("model = \"k2\"", &SPEC, "kimi", &[entry("Stop")]).unwrap();
        assert_eq!(
            edit(&installed, &SPEC, "kimi", &[]).unwrap(),
            "model = \"k2\"\n"
        );
        round_trip("a = 1\r\n# c\r\n");
        let inline = round_trip("hooks = [\n  { event = \"Stop\", command = \"say\" },\n]\n");
        assert!(inline.contains("event = \"PreToolUse\""), "{inline}");
    }

    #[test]
    fn a_stale_entry_is_replaced_and_other_values_are_refused() {
        let old = edit("", &SPEC, "kimi", &[entry("Stop")]).unwrap();
        let new = edit(&old, &SPEC, "kimi", &[entry("PreToolUse")]).unwrap();
        assert!(!new.contains("Stop") && new.contains("PreToolUse"), "{new}");
        for (text, says) in [
            ("hooks = 3\n", "not an array of tables"),
            ("[hooks\n", "not valid TOML"),
        ] {
            let e = edit(text, &SPEC, "kimi", &[entry("Stop")]).unwrap_err();
            assert!(e.contains(says) && !e.contains('\n'), "{e}");
        }
    }
}
