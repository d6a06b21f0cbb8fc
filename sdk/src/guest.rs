//! The WIT bindings of the `hook` world and the one conversion each way between
//! them and the SDK's [`Event`] and [`Answer`].
//!
//! The bindings are generated on every target so that the conversions are
//! unit-tested natively; on non-wasm targets wit-bindgen stubs the imports,
//! which is why [`crate::log`] never calls them there. Only the export glue
//! that [`crate::export!`] expands to is wasm32-only.

use serde_json::Value;

use crate::{Answer, Event, HookOutput, Permission, ToolKind};

/// The code `wit_bindgen::generate!` writes for `wit/hook.wit`.
#[allow(missing_docs, clippy::all)]
pub mod bindings {
    wit_bindgen::generate!({
        // The SDK's own copy of the repository's `wit/`, so that the crate
        // builds from its package alone; `tests/all/new_build.rs` fails when
        // the two differ.
        path: "wit",
        world: "hook",
        // `export!` (ours) invokes this from the hook's crate.
        pub_export_macro: true,
        export_macro_name: "__export_hook_world",
    });
}

use bindings::agenthooks::hook::types as wit;

/// The export body: decode the event, call the hook, encode its answer.
pub fn handle<F, R>(event: wit::Event, hook: F) -> Result<wit::Answer, String>
where
    F: FnOnce(Event) -> R,
    R: HookOutput,
{
    let event = event_from_wit(event).map_err(|e| e.to_string())?;
    hook(event).into_result().map(answer_to_wit)
}

/// The WIT event record → [`Event`].
pub fn event_from_wit(event: wit::Event) -> Result<Event, crate::EventError> {
    let kind = event.tool_kind.map(|k| match k {
        wit::ToolKind::Shell => ToolKind::Shell,
        wit::ToolKind::Read => ToolKind::Read,
        wit::ToolKind::Write => ToolKind::Write,
        wit::ToolKind::Mcp => ToolKind::Mcp,
        wit::ToolKind::Other => ToolKind::Other,
    });
    Event::from_parts(
        event.name,
        event.harness,
        event.tool_name,
        kind,
        event.session_id,
        event.cwd,
        &event.input,
    )
}

/// [`Answer`] → the WIT answer record: field by field; JSON values as JSON text.
pub fn answer_to_wit(answer: Answer) -> wit::Answer {
    let owned = |s: Option<&str>| s.map(str::to_string);
    wit::Answer {
        permission: answer.permission().map(|p| match p {
            Permission::Allow => wit::Permission::Allow,
            Permission::Ask => wit::Permission::Ask,
            Permission::Defer => wit::Permission::Defer,
            Permission::Deny => wit::Permission::Deny,
        }),
        block: answer.is_block(),
        reason: owned(answer.reason()),
        additional_context: owned(answer.additional_context()),
        updated_input: answer.updated_input().map(Value::to_string),
        system_message: owned(answer.system_message()),
        continue_: answer.continue_(),
        stop_reason: owned(answer.stop_reason()),
        extra: (!answer.extra().is_empty())
            .then(|| Value::Object(answer.extra().clone()).to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wit_event(input: Value) -> wit::Event {
        wit::Event {
            name: "PreToolUse".into(),
            harness: "codex".into(),
            tool_name: Some("Bash".into()),
            tool_kind: Some(wit::ToolKind::Shell),
            session_id: Some("s".into()),
            cwd: Some("/repo".into()),
            input: input.to_string(),
        }
    }

    #[test]
    fn event_from_wit_keeps_the_typed_fields_and_the_input() {
        let ev = event_from_wit(wit_event(json!({"tool_input": {"command": "ls"}}))).unwrap();
        assert_eq!(ev.name(), "PreToolUse");
        assert_eq!(ev.harness(), "codex");
        assert_eq!(ev.tool_name(), Some("Bash"));
        assert_eq!(ev.tool_kind(), Some(ToolKind::Shell));
        assert_eq!(ev.session_id(), Some("s"));
        assert_eq!(ev.cwd(), Some("/repo"));
        assert_eq!(ev.shell_command(), Some("ls"));
    }

    #[test]
    fn every_tool_kind_converts() {
        for (w, k) in [
            (wit::ToolKind::Shell, ToolKind::Shell),
            (wit::ToolKind::Read, ToolKind::Read),
            (wit::ToolKind::Write, ToolKind::Write),
            (wit::ToolKind::Mcp, ToolKind::Mcp),
            (wit::ToolKind::Other, ToolKind::Other),
        ] {
            let mut ev = wit_event(json!({}));
            ev.tool_kind = Some(w);
            assert_eq!(event_from_wit(ev).unwrap().tool_kind(), Some(k));
        }
    }

    #[test]
    fn bad_input_text_is_a_guest_error() {
        let mut ev = wit_event(json!({}));
        ev.input = "not json".into();
        let err = handle(ev, |_| Answer::allow()).unwrap_err();
        assert!(err.starts_with("the hook input is not JSON"), "{err}");
        let mut ev = wit_event(json!({}));
        ev.input = "[]".into();
        assert_eq!(
            handle(ev, |_| Answer::allow()).unwrap_err(),
            "the hook input is not a JSON object"
        );
    }

    #[test]
    fn answer_to_wit_maps_every_field() {
        let a = Answer::deny("why")
            .with_context("ctx")
            .with_updated_input(json!({"command": "ls"}))
            .with_system_message("msg")
            .with_extra("hookSpecificOutput", json!({"sessionTitle": "t"}));
        let w = answer_to_wit(a);
        assert!(matches!(w.permission, Some(wit::Permission::Deny)));
        assert!(!w.block);
        assert_eq!(w.reason.as_deref(), Some("why"));
        assert_eq!(w.additional_context.as_deref(), Some("ctx"));
        assert_eq!(w.updated_input.as_deref(), Some(r#"{"command":"ls"}"#));
        assert_eq!(w.system_message.as_deref(), Some("msg"));
        assert_eq!(w.continue_, None);
        assert_eq!(w.stop_reason, None);
        assert_eq!(
            w.extra.as_deref(),
            Some(r#"{"hookSpecificOutput":{"sessionTitle":"t"}}"#)
        );

        let w = answer_to_wit(Answer::stop("halt"));
        assert_eq!(w.continue_, Some(false));
        assert_eq!(w.stop_reason.as_deref(), Some("halt"));
        let w = answer_to_wit(Answer::block("b"));
        assert!(w.block);
        assert_eq!(w.reason.as_deref(), Some("b"));
        for (p, expect) in [
            (Permission::Allow, "allow"),
            (Permission::Ask, "ask"),
            (Permission::Defer, "defer"),
        ] {
            let w = answer_to_wit(Answer::none().with_permission(p));
            let got = match w.permission {
                Some(wit::Permission::Allow) => "allow",
                Some(wit::Permission::Ask) => "ask",
                Some(wit::Permission::Defer) => "defer",
                Some(wit::Permission::Deny) => "deny",
                None => "none",
            };
            assert_eq!(got, expect);
        }
    }

    #[test]
    fn empty_answer_is_the_empty_record() {
        let w = answer_to_wit(Answer::none());
        assert!(w.permission.is_none() && !w.block && w.reason.is_none());
        assert!(w.additional_context.is_none() && w.updated_input.is_none());
        assert!(w.system_message.is_none() && w.continue_.is_none());
        assert!(w.stop_reason.is_none() && w.extra.is_none());
    }

    #[test]
    fn a_hook_error_becomes_the_err_string() {
        let ev = wit_event(json!({}));
        let r = handle(ev, |_| -> Result<Answer, std::io::Error> {
            Err(std::io::Error::other("disk on fire"))
        });
        assert_eq!(r.unwrap_err(), "disk on fire");
    }
}
