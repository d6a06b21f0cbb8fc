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
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
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
    Ok(doc.to_string())
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
            Scalar::Strs(items) => Value::Array(items.iter().map(String::as_str).collect::<Array>()),
        };
        t.insert(key, Item::Value(v));
    }
    t
}

/// Whether a table is ours: one of its string values is our launcher.
fn is_ours<'a>(mut values: impl Iterator<Item = Option<&'a Value>>, agent: &str) -> bool {
    values.any(|v| v.and_then(Value::as_str).is_some_and(|s| json::is_ours(s, agent)))
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
