//! What a `hooks.json` holds that the format does not know: keys, event
//! names and handler types, listed (not rejected) so that `run` can warn
//! and `check` can fail.

use serde::de::Visitor;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::*;

/// Something in a file that the format does not know: a warning in `run`, an error in `check`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unknown {
    /// A key no one reads, at a path like `hooks.PreToolUse[0].hooks[1]`.
    Key {
        /// Where: `the top level`, `audit`, `hooks.<Event>[i]`, `...hooks[j]`, `...allow`.
        at: String,
        /// The key.
        key: String,
        /// The known key it is closest to (`memoryMib` → `memoryMiB`).
        suggestion: Option<&'static str>,
    },
    /// A name under `hooks` that is not a Claude Code event.
    Event {
        /// The name as written.
        name: String,
        /// The event it is closest to (`PreToolUs` → `PreToolUse`).
        suggestion: Option<&'static str>,
    },
    /// A handler whose `type` is missing (`None`) or not one this runtime knows.
    HandlerType {
        /// Where: `hooks.<Event>[i].hooks[j]`.
        at: String,
        /// The `type` as written.
        type_: Option<String>,
    },
}

impl std::fmt::Display for Unknown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::suggest::{did_you_mean, hint};
        match self {
            Unknown::Key {
                at,
                key,
                suggestion,
            } => write!(f, "{at}: unknown key `{key}`; ignored{}", hint(*suggestion)),
            Unknown::Event { name, suggestion } => write!(
                f,
                "unknown event `{name}` in `hooks`; its hooks never run{}",
                hint(*suggestion)
            ),
            Unknown::HandlerType {
                at,
                type_: Some(type_),
            } => write!(
                f,
                "{at}: unknown handler type `{type_}`{}; this handler is skipped",
                did_you_mean(type_, HandlerType::ALL.map(HandlerType::as_str))
            ),
            Unknown::HandlerType { at, type_: None } => {
                write!(f, "{at}: the handler has no `type`; it is skipped")
            }
        }
    }
}

/// Every key, event name and handler type of a parsed file that the format
/// does not know, in file order.
pub fn unknown_keys(file: &Value) -> Vec<Unknown> {
    let mut found = Vec::new();
    let Value::Object(top) = file else {
        return found;
    };
    extra_keys(top, fields_of::<HooksFile>(), "the top level", &mut found);
    if let Some(Value::Object(audit)) = top.get("audit") {
        extra_keys(audit, fields_of::<AuditEntry>(), "audit", &mut found);
    }
    if let Some(Value::Object(llm)) = top.get("llm") {
        extra_keys(llm, fields_of::<LlmEntry>(), "llm", &mut found);
    }
    if let Some(Value::Object(telemetry)) = top.get("telemetry") {
        extra_keys(
            telemetry,
            fields_of::<TelemetryEntry>(),
            "telemetry",
            &mut found,
        );
    }
    let Some(Value::Object(events)) = top.get("hooks") else {
        return found;
    };
    for (event, groups) in events {
        if event.parse::<EventName>().is_err() {
            found.push(Unknown::Event {
                name: event.clone(),
                suggestion: crate::suggest::closest(
                    event,
                    EventName::ALL.iter().map(|e| e.as_str()),
                ),
            });
            continue;
        }
        let Value::Array(groups) = groups else {
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let Value::Object(group) = group else {
                continue;
            };
            let at = format!("hooks.{event}[{g}]");
            extra_keys(group, fields_of::<Group>(), &at, &mut found);
            let Some(Value::Array(handlers)) = group.get("hooks") else {
                continue;
            };
            for (h, handler) in handlers.iter().enumerate() {
                if let Value::Object(handler) = handler {
                    unknown_handler_keys(handler, &format!("{at}.hooks[{h}]"), &mut found);
                }
            }
        }
    }
    found
}

/// [`unknown_keys`] of one handler at `at`.
fn unknown_handler_keys(
    handler: &serde_json::Map<String, Value>,
    at: &str,
    found: &mut Vec<Unknown>,
) {
    let type_ = handler.get("type").and_then(Value::as_str);
    match type_.and_then(HandlerType::named) {
        Some(ty) if ty.runs() => {
            let known: Vec<&'static str> = ty.keys().collect();
            extra_keys(handler, &known, at, found);
            if let (true, Some(Value::Object(allow))) = (ty.has_key("allow"), handler.get("allow"))
            {
                extra_keys(
                    allow,
                    fields_of::<AllowEntry>(),
                    &format!("{at}.allow"),
                    found,
                );
            }
        }
        Some(_) => {}
        None => found.push(Unknown::HandlerType {
            at: at.to_string(),
            type_: type_.map(str::to_string),
        }),
    }
}

fn extra_keys(
    object: &serde_json::Map<String, Value>,
    known: &[&'static str],
    at: &str,
    found: &mut Vec<Unknown>,
) {
    for key in object.keys() {
        if !known.contains(&key.as_str()) {
            found.push(Unknown::Key {
                at: at.to_string(),
                key: key.clone(),
                suggestion: crate::suggest::closest(key, known.iter().copied()),
            });
        }
    }
}

/// The keys serde reads for the struct `T`, as the file spells them: the
/// list its derived `Deserialize` hands to the deserializer, so it cannot
/// drift from the struct (`T` must not use `#[serde(flatten)]`, which hides
/// the list).
pub(super) fn fields_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    // The error is expected: the deserializer stops once it has the list.
    let _ = T::deserialize(StructFields(&mut fields));
    fields
}

/// A deserializer that only records the field list of the struct asked for.
struct StructFields<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for StructFields<'_> {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(serde::de::Error::custom("fields recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_handler_key_belongs_to_a_type_and_every_type_key_is_read() {
        let wire = fields_of::<HandlerWire>();
        for key in wire {
            assert!(
                HandlerType::ALL.iter().any(|t| t.has_key(key)),
                "`{key}` is read but no handler type has it"
            );
        }
        for ty in HandlerType::ALL {
            for key in ty.keys() {
                assert!(
                    wire.contains(&key),
                    "{ty:?} has `{key}`, which HandlerWire does not read"
                );
            }
            assert_eq!(ty.required().is_some(), ty.runs(), "{ty:?}");
        }
    }

    #[test]
    fn unknown_keys_are_listed_with_where() {
        let v = json!({
            "hook": {},
            "audit": {"path": "a", "size": 1},
            "hooks": {
                "PreToolUse": [{
                    "matcher": "Bash", "matchr": "x",
                    "hooks": [
                        {"type": "command", "command": "x", "comand": "y"},
                        {"type": "wasm", "component": "c", "allow": {"read": [], "exec": []}},
                        {"type": "prompt", "prompt": "p", "model": "m"},
                        {"type": "shell"},
                        {"command": "z"}
                    ]
                }],
                "PreToolUze": []
            }
        });
        let found = unknown_keys(&v);
        let key = |at: &str, key: &str, suggestion| Unknown::Key {
            at: at.into(),
            key: key.into(),
            suggestion,
        };
        let expect = [
            key("the top level", "hook", Some("hooks")),
            key("audit", "size", None),
            key("hooks.PreToolUse[0]", "matchr", Some("matcher")),
            key("hooks.PreToolUse[0].hooks[0]", "comand", Some("command")),
            key("hooks.PreToolUse[0].hooks[1].allow", "exec", None),
            Unknown::HandlerType {
                at: "hooks.PreToolUse[0].hooks[3]".into(),
                type_: Some("shell".into()),
            },
            Unknown::HandlerType {
                at: "hooks.PreToolUse[0].hooks[4]".into(),
                type_: None,
            },
            Unknown::Event {
                name: "PreToolUze".into(),
                suggestion: Some("PreToolUse"),
            },
        ];
        assert_eq!(found, expect);
    }
}
