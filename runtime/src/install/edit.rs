//! Format-preserving edits of an agent's JSON (or JSON-with-comments) file.
//!
//! The rules about *what* a file should hold work on a [`serde_json::Value`]
//! (see `json::sync`); this module carries the difference between the value
//! read and the value wanted over to the file's concrete syntax tree
//! (`jsonc-parser`'s CST), so every byte the change does not touch (comments,
//! blank lines, trailing commas, indent, CRLF, the spelling of numbers and
//! escapes) stays as the user wrote it. Unchanged values are never visited;
//! changed objects are edited key by key and changed arrays element by
//! element (a line diff of the elements), so only our entries are inserted,
//! replaced or removed.

use std::time::{Duration, Instant};

use jsonc_parser::cst::{CstArray, CstNode, CstObject, CstObjectProp, CstRootNode};
use jsonc_parser::ParseOptions;
use serde_json::{Map, Value};

use crate::encoding::cst_input as input;

/// The syntax a file may use beyond JSON: comments and trailing commas where
/// the agent accepts them (`jsonc`), nothing otherwise.
pub(crate) fn options(jsonc: bool) -> ParseOptions {
    ParseOptions {
        allow_comments: jsonc,
        allow_trailing_commas: jsonc,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// How long an array's element diff may search for the smallest edit before
/// it settles for a coarser one (still correct, touching more elements).
const DIFF_DEADLINE: Duration = Duration::from_millis(200);

/// `text` (whose root object parsed to `old`) edited to hold `new`, or
/// `None` when the tree cannot be edited (`text` does not parse with
/// `jsonc`'s options, or its root is not an object).
///
/// The caller checks the result parses back to `new` (duplicate keys, for
/// one, make the tree and the value disagree).
pub(crate) fn apply(
    text: &str,
    jsonc: bool,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
) -> Option<String> {
    // The root must outlive every node taken from it (the tree's parents are
    // weak references).
    let root = CstRootNode::parse(text, &options(jsonc)).ok()?;
    let object = root.object_value()?;
    edit_object(&object, old, new);
    Some(root.to_string())
}

/// The comments of `text` (a file with `jsonc`'s syntax), in order.
pub(crate) fn comments(text: &str) -> Vec<String> {
    fn collect(node: CstNode, out: &mut Vec<String>) {
        if let Some(comment) = node.as_comment() {
            out.push(comment.to_string());
        }
        for child in node.children() {
            collect(child, out);
        }
    }
    let mut out = Vec::new();
    if let Ok(root) = CstRootNode::parse(text, &options(true)) {
        for child in root.children() {
            collect(child, &mut out);
        }
    }
    out
}

fn edit_object(object: &CstObject, old: &Map<String, Value>, new: &Map<String, Value>) {
    for prop in object.properties() {
        if prop.decoded_name().is_some_and(|k| !new.contains_key(&k)) {
            prop.remove();
        }
    }
    for (at, (key, wanted)) in new.iter().enumerate() {
        match (old.get(key), object.get(key)) {
            (Some(had), Some(_)) if had == wanted => {}
            (Some(had), Some(prop)) => edit_prop(&prop, had, wanted),
            _ => {
                let at = at.min(object.properties().len());
                object.insert(at, key, input(wanted));
            }
        }
    }
}

fn edit_prop(prop: &CstObjectProp, had: &Value, wanted: &Value) {
    match (had, wanted) {
        (Value::Object(o), Value::Object(n)) if prop.object_value().is_some() => {
            if let Some(object) = prop.object_value() {
                edit_object(&object, o, n);
            }
        }
        (Value::Array(o), Value::Array(n)) if prop.array_value().is_some() => {
            if let Some(array) = prop.array_value() {
                edit_array(&array, o, n);
            }
        }
        _ => prop.set_value(input(wanted)),
    }
}

fn edit_array(array: &CstArray, old: &[Value], new: &[Value]) {
    let keys = |items: &[Value]| items.iter().map(Value::to_string).collect::<Vec<_>>();
    let (old_keys, new_keys) = (keys(old), keys(new));
    let ops = similar::capture_diff_slices_deadline(
        similar::Algorithm::Myers,
        &old_keys,
        &new_keys,
        Some(Instant::now() + DIFF_DEADLINE),
    );
    // From the end, so the indices of the operations before stay valid.
    for op in ops.iter().rev() {
        match *op {
            similar::DiffOp::Equal { .. } => {}
            similar::DiffOp::Delete {
                old_index, old_len, ..
            } => remove_elements(array, old_index, old_len),
            similar::DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => insert_elements(array, old_index, &new[new_index..new_index + new_len]),
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } if old_len == new_len => {
                for i in 0..old_len {
                    edit_element(
                        array,
                        old_index + i,
                        &old[old_index + i],
                        &new[new_index + i],
                    );
                }
            }
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                remove_elements(array, old_index, old_len);
                insert_elements(array, old_index, &new[new_index..new_index + new_len]);
            }
        }
    }
}

fn remove_elements(array: &CstArray, from: usize, len: usize) {
    for i in (from..from + len).rev() {
        if let Some(element) = array.elements().get(i).cloned() {
            element.remove();
        }
    }
}

fn insert_elements(array: &CstArray, at: usize, values: &[Value]) {
    for (i, value) in values.iter().enumerate() {
        let at = (at + i).min(array.elements().len());
        array.insert(at, input(value));
    }
}

fn edit_element(array: &CstArray, at: usize, had: &Value, wanted: &Value) {
    let Some(element) = array.elements().get(at).cloned() else {
        return;
    };
    match (had, wanted, element.as_object(), element.as_array()) {
        (Value::Object(o), Value::Object(n), Some(object), _) => edit_object(&object, o, n),
        (Value::Array(o), Value::Array(n), _, Some(inner)) => edit_array(&inner, o, n),
        _ => {
            element.remove();
            insert_elements(array, at, std::slice::from_ref(wanted));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::obj;
    use serde_json::json;

    #[test]
    fn only_the_changed_values_are_touched() {
        let text = "{\r\n  // the model\r\n  \"model\": 1e-88, /* kept */\r\n  \"hooks\": {\r\n    \"Stop\": [\r\n      {\"command\": \"mine\"}, // mine\r\n    ],\r\n  },\r\n}\r\n";
        let old = obj(json!({"model": 1e-88, "hooks": {"Stop": [{"command": "mine"}]}}));
        let new = obj(
            json!({"model": 1e-88, "hooks": {"Stop": [{"command": "mine"}, {"command": "ours"}], "Start": [{"command": "ours"}]}}),
        );
        let edited = apply(text, true, &old, &new).unwrap();
        assert!(
            edited.contains("// the model\r\n  \"model\": 1e-88, /* kept */\r\n"),
            "{edited}"
        );
        assert!(
            edited.contains("{\"command\": \"mine\"}, // mine\r\n"),
            "{edited}"
        );
        crate::test_support::assert_crlf_only(&edited);
        let back = CstRootNode::parse(&edited, &options(true))
            .unwrap()
            .to_serde_value()
            .unwrap();
        assert_eq!(back, Value::Object(new.clone()));
        assert_eq!(apply(&edited, true, &new, &old).unwrap(), text);
    }

    #[test]
    fn odd_layouts_take_an_entry_and_give_it_back() {
        let entry = json!({"matcher": "*", "hooks": [{"command": "ours \"q\" \u{1}"}]});
        for text in [
            "{\"a\":1 // c\n}",
            "{/*c*/}",
            "// lead\n{}\n// trail",
            "{\"hooks\": {\"Stop\": [ /* only a comment */ ]}}",
            "{\"hooks\":{\"Stop\":[{\"command\":\"x\"},]},}",
            "{\r\n\t\"hooks\" : { } ,\r\n}",
            "{\"a\": [1, 2,] /* x */, \"hooks\": {\"Stop\": []}}",
        ] {
            let old = CstRootNode::parse(text, &options(true))
                .unwrap()
                .to_serde_value()
                .unwrap();
            let Value::Object(old) = old else {
                panic!("{text}")
            };
            let mut new = old.clone();
            let hooks = new
                .entry("hooks")
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .unwrap();
            match hooks.get_mut("Stop").and_then(Value::as_array_mut) {
                Some(items) => items.push(entry.clone()),
                None => {
                    hooks.insert("Stop".into(), json!([entry.clone()]));
                }
            }
            let edited = apply(text, true, &old, &new).unwrap();
            let back = CstRootNode::parse(&edited, &options(true))
                .unwrap_or_else(|e| panic!("{text:?} -> {edited:?}: {e}"))
                .to_serde_value();
            assert_eq!(
                back,
                Some(Value::Object(new.clone())),
                "{text:?} -> {edited:?}"
            );
            assert!(edited.contains("/*") || !text.contains("/*"), "{edited:?}");
            let undone = apply(&edited, true, &new, &old).unwrap();
            let back = CstRootNode::parse(&undone, &options(true))
                .unwrap()
                .to_serde_value();
            assert_eq!(back, Some(Value::Object(old)), "{text:?} -> {undone:?}");
        }
    }

    #[test]
    fn a_changed_element_is_edited_in_place() {
        let text = "[1]";
        assert!(apply(text, false, &Map::new(), &Map::new()).is_none());
        let text = "{\"a\": [1, {\"b\": 2, \"c\": 3}, 4]}";
        let old = obj(json!({"a": [1, {"b": 2, "c": 3}, 4]}));
        let new = obj(json!({"a": [1, {"b": 5, "c": 3}, 4]}));
        assert_eq!(
            apply(text, false, &old, &new).unwrap(),
            "{\"a\": [1, {\"b\": 5, \"c\": 3}, 4]}"
        );
    }
}
