//! The JSON Schema of `.agents/hooks.json` (`agenthooks schema config`),
//! generated from the same serde types the loader reads: one object per
//! handler type, events in file order.

use schemars::gen::SchemaGenerator;
use schemars::schema::{
    InstanceType, Metadata, ObjectValidation, RootSchema, Schema, SchemaObject, SingleOrVec,
    SubschemaValidation,
};
use schemars::JsonSchema;

use super::*;

impl JsonSchema for EventMap {
    fn schema_name() -> String {
        "EventMap".to_string()
    }

    fn json_schema(gen: &mut SchemaGenerator) -> Schema {
        let groups = gen.subschema_for::<Vec<Group>>();
        let mut object = ObjectValidation::default();
        for name in EventName::ALL {
            object
                .properties
                .insert(name.as_str().to_string(), groups.clone());
        }
        // Unknown event names are warnings in `run` and errors in `check`.
        object.additional_properties = Some(Box::new(Schema::Bool(false)));
        SchemaObject {
            instance_type: Some(InstanceType::Object.into()),
            object: Some(Box::new(object)),
            metadata: Some(Box::new(schemars::schema::Metadata {
                description: Some(
                    "Event name (as Claude Code spells it) → matcher groups, run in order."
                        .to_string(),
                ),
                ..Default::default()
            })),
            ..Default::default()
        }
        .into()
    }
}

/// One handler in the JSON Schema: an object per [`HandlerType`], each with
/// that type's properties of [`HandlerWire`]. Only a schema: the loader
/// reads [`HandlerWire`].
pub(super) struct HandlerEntry;

impl JsonSchema for HandlerEntry {
    fn schema_name() -> String {
        "HandlerEntry".to_string()
    }

    fn json_schema(gen: &mut SchemaGenerator) -> Schema {
        let wire = HandlerWire::json_schema(gen).into_object();
        let properties = wire.object.map(|o| o.properties).unwrap_or_default();
        let one_of = HandlerType::ALL
            .into_iter()
            .map(|ty| {
                let mut object = ObjectValidation::default();
                object.required.insert("type".to_string());
                for key in ty.keys() {
                    let schema = if key == "type" {
                        SchemaObject {
                            instance_type: Some(InstanceType::String.into()),
                            enum_values: Some(vec![Value::from(ty.as_str())]),
                            ..Default::default()
                        }
                        .into()
                    } else if ty.required() == Some(key) {
                        object.required.insert(key.to_string());
                        not_null(properties.get(key).cloned())
                    } else {
                        properties.get(key).cloned().unwrap_or(Schema::Bool(true))
                    };
                    object.properties.insert(key.to_string(), schema);
                }
                SchemaObject {
                    metadata: described(ty.description()),
                    instance_type: Some(InstanceType::Object.into()),
                    object: Some(Box::new(object)),
                    ..Default::default()
                }
                .into()
            })
            .collect();
        SchemaObject {
            metadata: described("One handler, by its `type`."),
            subschemas: Some(Box::new(SubschemaValidation {
                one_of: Some(one_of),
                ..Default::default()
            })),
            ..Default::default()
        }
        .into()
    }
}

/// The schema of a required key: its optional field's schema without `null`
/// or a default.
fn not_null(schema: Option<Schema>) -> Schema {
    let Some(Schema::Object(mut object)) = schema else {
        return Schema::Bool(true);
    };
    if let Some(SingleOrVec::Vec(types)) = &object.instance_type {
        let types: Vec<InstanceType> = types
            .iter()
            .copied()
            .filter(|t| *t != InstanceType::Null)
            .collect();
        object.instance_type = Some(match types.as_slice() {
            [one] => SingleOrVec::Single(Box::new(*one)),
            _ => SingleOrVec::Vec(types),
        });
    }
    if let Some(metadata) = object.metadata.as_mut() {
        metadata.default = None;
    }
    object.into()
}

fn described(text: &str) -> Option<Box<Metadata>> {
    Some(Box::new(Metadata {
        description: Some(text.to_string()),
        ..Default::default()
    }))
}

/// The JSON Schema of `.agents/hooks.json`.
pub fn config_schema() -> RootSchema {
    schemars::schema_for!(HooksFile)
}

#[cfg(test)]
mod tests {
    use super::super::unknown::fields_of;
    use super::*;
    use serde_json::Value;

    /// The properties of the schema object at `pointer`, sorted.
    fn schema_keys(schema: &Value, pointer: &str) -> Vec<String> {
        let props = schema
            .pointer(pointer)
            .unwrap_or_else(|| panic!("{pointer}"));
        let mut keys: Vec<String> = props.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    }

    fn sorted<'a>(keys: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut v: Vec<String> = keys.into_iter().map(str::to_string).collect();
        v.sort();
        v
    }

    #[test]
    fn known_keys_are_the_keys_serde_reads_and_the_schema_shows() {
        let schema = serde_json::to_value(config_schema()).unwrap();
        let keys = |pointer: &str| schema_keys(&schema, pointer);
        let fields = |f: &[&'static str]| sorted(f.iter().copied());
        assert_eq!(keys("/properties"), fields(fields_of::<HooksFile>()));
        assert_eq!(
            keys("/definitions/AuditEntry/properties"),
            fields(fields_of::<AuditEntry>())
        );
        assert_eq!(
            keys("/definitions/Group/properties"),
            fields(fields_of::<Group>())
        );
        assert_eq!(
            keys("/definitions/AllowEntry/properties"),
            fields(fields_of::<AllowEntry>())
        );
        assert!(
            fields_of::<HooksFile>().contains(&"$schema"),
            "renames are kept"
        );
        let variants = &schema["definitions"]["HandlerEntry"]["oneOf"];
        for (i, ty) in HandlerType::ALL.into_iter().enumerate() {
            assert_eq!(variants[i]["properties"]["type"]["enum"][0], ty.as_str());
            let pointer = format!("/definitions/HandlerEntry/oneOf/{i}/properties");
            assert_eq!(keys(&pointer), sorted(ty.keys()), "{ty:?}");
            assert_eq!(HandlerType::named(ty.as_str()), Some(ty));
        }
    }

    #[test]
    fn required_keys_are_neither_null_nor_defaulted_in_the_schema() {
        let schema = serde_json::to_value(config_schema()).unwrap();
        let variants = &schema["definitions"]["HandlerEntry"]["oneOf"];
        for (i, ty) in HandlerType::ALL.into_iter().enumerate() {
            let Some(key) = ty.required() else { continue };
            let want: Vec<Value> = vec![key.into(), "type".into()];
            let mut required = variants[i]["required"].as_array().unwrap().clone();
            required.sort_by_key(|v| v.as_str().unwrap().to_string());
            let mut want = want;
            want.sort_by_key(|v| v.as_str().unwrap().to_string());
            assert_eq!(required, want, "{ty:?}");
            let prop = &variants[i]["properties"][key];
            assert_eq!(prop["type"], "string", "{ty:?}");
            assert!(prop.get("default").is_none(), "{ty:?}");
        }
    }

    #[test]
    fn schema_lists_every_event_and_handler_type() {
        let schema = serde_json::to_value(config_schema()).unwrap();
        let events = &schema["definitions"]["EventMap"]["properties"];
        for name in EventName::ALL {
            assert!(events.get(name.as_str()).is_some(), "{name}");
        }
        let text = schema.to_string();
        for ty in ["command", "wasm", "prompt", "agent", "http", "mcp_tool"] {
            assert!(text.contains(&format!("\"{ty}\"")), "{ty}");
        }
    }
}
