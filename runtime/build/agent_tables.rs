//! The agent tables' reader and code generator, shared by `build.rs` and
//! its tests (`agents/tables_tests.rs`): `src/agents/<agent>/table.toml`
//! in, the Rust source of `pub static TABLE: Table` out.

use std::fmt::Write as _;

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

/// The Rust source of the table in `text`, or one line naming `file`, the
/// key and what is wrong there.
pub fn generate(file: &str, text: &str) -> Result<String, String> {
    table(file, text).map_err(|(key, why)| {
        let at = if key.is_empty() {
            String::new()
        } else {
            format!(" at `{key}`")
        };
        format!("{file}{at}: {why}")
    })
}

/// A failure: the key it is at and what is wrong there.
type Bad = (String, String);

fn bad<T>(key: &str, why: impl Into<String>) -> Result<T, Bad> {
    Err((key.to_string(), why.into()))
}

/// The Rust source of the file's `TABLE`.
fn table(file: &str, text: &str) -> Result<String, Bad> {
    let doc = text
        .parse::<DocumentMut>()
        .or_else(|e| bad("", format!("not TOML: {}", one_line(&e.to_string()))))?;
    only_keys(doc.as_table(), "", &["caps", "table"])?;
    let sets = match doc.get("caps") {
        None => Vec::new(),
        Some(item) => cap_sets(
            item.as_table()
                .ok_or(("caps".into(), "not a table".into()))?,
        )?,
    };
    let t = doc.get("table").and_then(Item::as_table).ok_or((
        "table".to_string(),
        "missing: the [table] section".to_string(),
    ))?;
    only_keys(
        t,
        "table",
        &[
            "from_claude",
            "events",
            "tools",
            "renames",
            "fields",
            "notes",
            "plain_stdout",
            "text_max",
        ],
    )?;
    let from_claude = flag(t.get("from_claude"), "table.from_claude")?;
    let mut code = format!(
        "/// This agent's table, generated from `{file}` by `build.rs`.\n\
         pub static TABLE: crate::agents::Table = crate::agents::Table::new({}[\n",
        if from_claude {
            "crate::agents::claude::claude_rows!"
        } else {
            "&"
        }
    );
    let events = array(t.get("events"), "table.events")?;
    if events.is_empty() {
        return bad("table.events", "missing: an agent has at least one event");
    }
    for (i, v) in events.iter().enumerate() {
        let key = format!("table.events[{i}]");
        let row = v
            .as_inline_table()
            .ok_or((key.clone(), "not an inline table".into()))?;
        writeln!(code, "    {},", event_row(row, &key, &sets, from_claude)?).unwrap();
    }
    code.push_str("])");
    let tools = pairs(t.get("tools"), "table.tools")?;
    if !tools.is_empty() {
        code.push_str("\n.with_tools(&[\n");
        for (canonical, native) in tools {
            writeln!(code, "    crate::agents::tool({canonical:?}, {native:?}),").unwrap();
        }
        code.push_str("])");
    }
    let renames = array(t.get("renames"), "table.renames")?;
    if !renames.is_empty() {
        code.push_str("\n.with_renames(&[\n");
        for (i, v) in renames.iter().enumerate() {
            let key = format!("table.renames[{i}]");
            let r = v
                .as_inline_table()
                .ok_or((key.clone(), "not an inline table".into()))?;
            only_keys_inline(r, &key, &["tools", "native", "canonical"])?;
            let tools = strings(r.get("tools"), &format!("{key}.tools"))?;
            let native = string(r.get("native"), &format!("{key}.native"))?;
            let canonical = string(r.get("canonical"), &format!("{key}.canonical"))?;
            writeln!(
                code,
                "    crate::agents::rename(&{tools:?}, {native:?}, {canonical:?}),"
            )
            .unwrap();
        }
        code.push_str("])");
    }
    let fields = pairs(t.get("fields"), "table.fields")?;
    if !fields.is_empty() {
        write!(code, "\n.with_fields(&{fields:?})").unwrap();
    }
    let notes = strings(t.get("notes").and_then(Item::as_value), "table.notes").or_else(|e| {
        if t.get("notes").is_none() {
            Ok(Vec::new())
        } else {
            Err(e)
        }
    })?;
    if !notes.is_empty() {
        code.push_str("\n.with_notes(&[\n");
        for note in notes {
            writeln!(code, "    {note:?},").unwrap();
        }
        code.push_str("])");
    }
    if flag(t.get("plain_stdout"), "table.plain_stdout")? {
        code.push_str("\n.with_plain_stdout()");
    }
    if let Some(item) = t.get("text_max") {
        let bytes = item.as_integer().filter(|n| *n > 0).ok_or((
            "table.text_max".to_string(),
            "not a positive whole number of bytes".to_string(),
        ))?;
        write!(code, "\n.with_text_max({bytes})").unwrap();
    }
    code.push_str(";\n");
    Ok(code)
}

/// One `events` row: `{ event, native, caps, tool, decode_only, changes_agent }`.
fn event_row(
    row: &InlineTable,
    key: &str,
    sets: &[(String, Vec<Step>)],
    from_claude: bool,
) -> Result<String, Bad> {
    only_keys_inline(
        row,
        key,
        &[
            "event",
            "native",
            "caps",
            "tool",
            "decode_only",
            "changes_agent",
        ],
    )?;
    let event = ident(row.get("event"), &format!("{key}.event"))?;
    let caps = match row.get("caps") {
        None => None,
        Some(v) => Some(caps(v, &format!("{key}.caps"), sets, &event)?),
    };
    if from_claude {
        // `claude_rows!` syntax: Claude's own row (name, caps, flags),
        // unless the entry says otherwise.
        only_keys_inline(row, key, &["event", "native", "caps"])?;
        let mut code = event;
        if let Some(native) = row.get("native") {
            write!(
                code,
                " as {:?}",
                string(Some(native), &format!("{key}.native"))?
            )
            .unwrap();
        }
        if let Some(caps) = caps {
            write!(code, " => {caps}").unwrap();
        }
        return Ok(code);
    }
    let native = string(row.get("native"), &format!("{key}.native"))?;
    let caps = caps.unwrap_or_else(|| "crate::agents::Caps::NONE".to_string());
    let mut code = format!(
        "crate::agents::EventRow::new(crate::protocol::EventName::{event}, {native:?}, {caps})"
    );
    if let Some(tool) = row.get("tool") {
        write!(
            code,
            ".for_tool({:?})",
            string(Some(tool), &format!("{key}.tool"))?
        )
        .unwrap();
    }
    if flag_value(row.get("decode_only"), &format!("{key}.decode_only"))? {
        code.push_str(".decode_only()");
    }
    if flag_value(row.get("changes_agent"), &format!("{key}.changes_agent"))? {
        code.push_str(".changes_agent()");
    }
    Ok(code)
}

/// The answer kinds a caps list may name (`AnswerKind`'s variants, which
/// `agents/tables_tests.rs` checks this list against).
pub const ANSWER_KINDS: &[&str] = &[
    "Deny",
    "Ask",
    "Allow",
    "UpdatedInput",
    "Context",
    "Block",
    "Stop",
    "SystemMessage",
];

/// One step of a caps list: take in (`true`) or leave out an answer kind.
type Step = (bool, String);

/// The `[caps]` sets, in order: each a list of answer kinds, earlier set
/// names, and `-Kind` to take a kind out again.
fn cap_sets(t: &Table) -> Result<Vec<(String, Vec<Step>)>, Bad> {
    let mut sets: Vec<(String, Vec<Step>)> = Vec::new();
    for (name, item) in t.iter() {
        let key = format!("caps.{name}");
        if !is_ident(name) {
            return bad(&key, "a set's name is a Rust identifier");
        }
        let value = item.as_value().ok_or((key.clone(), "not a list".into()))?;
        let (claude, steps) = steps(value, &key, &sets)?;
        if claude {
            return bad(
                &key,
                "`Claude` (Claude's caps for the event) belongs in a row, not a set",
            );
        }
        sets.push((name.to_string(), steps));
    }
    Ok(sets)
}

/// A row's `caps` list as Rust: from nothing (or from Claude's caps for
/// `event` when the list starts with `Claude`), each kind taken in or out.
fn caps(
    value: &Value,
    key: &str,
    sets: &[(String, Vec<Step>)],
    event: &str,
) -> Result<String, Bad> {
    let (claude, steps) = steps(value, key, sets)?;
    let mut code = if claude {
        format!("crate::agents::claude::row(crate::protocol::EventName::{event}).caps")
    } else {
        "crate::agents::Caps::NONE".to_string()
    };
    for (add, kind) in steps {
        let op = if add { "with" } else { "without" };
        write!(code, ".{op}(&[crate::agents::AnswerKind::{kind}])").unwrap();
    }
    Ok(code)
}

/// The steps a caps list names, and whether it starts from Claude's caps.
fn steps(value: &Value, key: &str, sets: &[(String, Vec<Step>)]) -> Result<(bool, Vec<Step>), Bad> {
    let mut claude = false;
    let mut out: Vec<Step> = Vec::new();
    for (i, entry) in strings(Some(value), key)?.into_iter().enumerate() {
        let at = format!("{key}[{i}]");
        if entry == "Claude" {
            if i > 0 {
                return bad(&at, "`Claude` (Claude's caps for the event) comes first");
            }
            claude = true;
        } else if let Some(kind) = entry.strip_prefix('-') {
            if !ANSWER_KINDS.contains(&kind) {
                return bad(
                    &at,
                    format!("`{entry}`: `-` takes an answer kind, such as `-Ask`"),
                );
            }
            out.push((false, kind.to_string()));
        } else if let Some((_, set)) = sets.iter().find(|(name, _)| *name == entry) {
            out.extend(set.iter().cloned());
        } else if ANSWER_KINDS.contains(&entry.as_str()) {
            out.push((true, entry));
        } else {
            return bad(
                &at,
                format!("`{entry}` is neither an answer kind (such as `Deny`), `Claude`, nor a set in [caps] above"),
            );
        }
    }
    Ok((claude, out))
}

/// Fails on a key of `t` not in `known`.
fn only_keys(t: &Table, at: &str, known: &[&str]) -> Result<(), Bad> {
    for (k, _) in t.iter() {
        if !known.contains(&k) {
            let key = if at.is_empty() {
                k.to_string()
            } else {
                format!("{at}.{k}")
            };
            return bad(&key, format!("unknown key (known: {})", known.join(", ")));
        }
    }
    Ok(())
}

/// [`only_keys`] for an inline table.
fn only_keys_inline(t: &InlineTable, at: &str, known: &[&str]) -> Result<(), Bad> {
    for (k, _) in t.iter() {
        if !known.contains(&k) {
            return bad(
                &format!("{at}.{k}"),
                format!("unknown key (known: {})", known.join(", ")),
            );
        }
    }
    Ok(())
}

/// An array (absent: empty).
fn array<'a>(item: Option<&'a Item>, key: &str) -> Result<Vec<&'a Value>, Bad> {
    match item {
        None => Ok(Vec::new()),
        Some(item) => Ok(item
            .as_array()
            .map(Array::iter)
            .ok_or((key.to_string(), "not a list".to_string()))?
            .collect()),
    }
}

/// A list of `[a, b]` string pairs (absent: empty).
fn pairs(item: Option<&Item>, key: &str) -> Result<Vec<(String, String)>, Bad> {
    let mut out = Vec::new();
    for (i, v) in array(item, key)?.into_iter().enumerate() {
        let at = format!("{key}[{i}]");
        match strings(Some(v), &at)?.as_slice() {
            [a, b] => out.push((a.clone(), b.clone())),
            _ => return bad(&at, "not a pair of strings [\"a\", \"b\"]"),
        }
    }
    Ok(out)
}

/// A list of strings.
fn strings(value: Option<&Value>, key: &str) -> Result<Vec<String>, Bad> {
    let list = value
        .and_then(Value::as_array)
        .ok_or((key.to_string(), "not a list of strings".to_string()))?;
    list.iter()
        .enumerate()
        .map(|(i, v)| string(Some(v), &format!("{key}[{i}]")))
        .collect()
}

/// A string.
fn string(value: Option<&Value>, key: &str) -> Result<String, Bad> {
    match value {
        None => bad(key, "missing"),
        Some(v) => v
            .as_str()
            .map(str::to_string)
            .ok_or((key.to_string(), "not a string".to_string())),
    }
}

/// A string that is a Rust identifier (an event's name).
fn ident(value: Option<&Value>, key: &str) -> Result<String, Bad> {
    let s = string(value, key)?;
    if is_ident(&s) {
        Ok(s)
    } else {
        bad(
            key,
            format!("`{s}` is not an event name such as `PreToolUse`"),
        )
    }
}

/// An optional top-level boolean (absent: false).
fn flag(item: Option<&Item>, key: &str) -> Result<bool, Bad> {
    flag_value(item.and_then(Item::as_value), key).and_then(|b| {
        if item.is_some() && item.and_then(Item::as_value).is_none() {
            bad(key, "not true or false")
        } else {
            Ok(b)
        }
    })
}

/// An optional boolean value (absent: false).
fn flag_value(value: Option<&Value>, key: &str) -> Result<bool, Bad> {
    match value {
        None => Ok(false),
        Some(v) => v
            .as_bool()
            .ok_or((key.to_string(), "not true or false".to_string())),
    }
}

fn is_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The first line of a message, for a one-line failure.
fn one_line(s: &str) -> String {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .to_string()
}
