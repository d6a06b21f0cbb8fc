use super::*;
use crate::config::Scope;
use crate::exec::HookSpan;
use crate::protocol::Failure;
use std::time::Duration;

fn event() -> Event {
    Event::new(
        serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s1",
            "tool_use_id": "t1", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
        None,
        "claude",
    )
    .unwrap()
}

/// An event's trace under the agent's span, with the `traceparent` flags
/// `flags` (`01` sampled, `00` not).
fn under_agent(flags: &str) -> EventTrace {
    let traceparent = format!("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-{flags}");
    let parent = TraceContext::parse(&traceparent, None).unwrap();
    EventTrace {
        span: parent.child(),
        parent: Some(parent),
        started: SystemTime::now(),
    }
}

#[test]
fn the_event_span_is_the_agents_child_and_the_hooks_are_its() {
    let trace = under_agent("01");
    let mut report = Report::of("command `x`", "command", Scope::User, "f".into());
    report.span = Some(HookSpan {
        id: [1, 2, 3, 4, 5, 6, 7, 8],
        started: SystemTime::now(),
    });
    report.duration = Duration::from_millis(3);
    let mut failed = report.clone().failed(Failure::Timeout {
        after: Duration::from_secs(1),
    });
    failed.span = None;
    let spans = spans(&trace, &event(), &[report, failed], &Answer::none(), None);
    assert_eq!(spans.len(), 2, "a hook that did not run has no span");
    let (ev, hook) = (&spans[0], &spans[1]);
    assert_eq!(ev.trace, "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(ev.parent.as_deref(), Some("00f067aa0ba902b7"));
    assert_eq!(ev.name, "agenthooks PreToolUse");
    assert_eq!(hook.parent.as_deref(), Some(ev.span.as_str()));
    assert_eq!(hook.span, "0102030405060708");
    let get =
        |s: &SpanRecord, k: &str| s.attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let s = |v: &str| Some(Attr::Str(v.into()));
    assert_eq!(get(ev, attr::TOOL_NAME), s("Bash"));
    assert_eq!(get(ev, attr::TOOL_CALL_ID), s("t1"));
    assert_eq!(get(ev, attr::CONVERSATION_ID), s("s1"));
    assert_eq!(get(ev, attr::DECISION), s("none"));
    assert_eq!(get(ev, attr::HOOKS), Some(Attr::Int(2)));
    assert_eq!(get(hook, attr::HOOK_KIND), s("command"));
    assert_eq!(get(hook, attr::HOOK_SCOPE), s("user"));
    assert_eq!(get(hook, attr::HOOK_OUTCOME), s("answered"));
    assert_eq!(get(hook, attr::HOOK_DECISION), s("none"));
    assert_eq!(hook.end - hook.start, 3_000_000);
}

#[test]
fn the_export_trouble_is_said_once_per_session() {
    let dir = tempfile::tempdir().unwrap();
    let spool = Spool::at(dir.path());
    assert!(trouble(&event(), &spool).is_none());
    spool.set_last_error(Some(&LastError {
        endpoint: "http://127.0.0.1:9/v1/traces".into(),
        why: "refused".into(),
    }));
    let note = trouble(&event(), &spool).expect("said");
    assert_eq!(note.kind, NoteKind::Telemetry);
    assert!(note.text.contains("refused"), "{}", note.text);
    assert!(trouble(&event(), &spool).is_none());
    // Spans dropped past the cap are counted in the next session's note.
    let big = SpanRecord {
        trace: String::new(),
        span: String::new(),
        parent: None,
        state: None,
        name: "x".repeat(spool::CAP as usize),
        start: 0,
        end: 0,
        error: None,
        attrs: Vec::new(),
    };
    spool.append(&[big]).unwrap();
    let mut next = event();
    next.input_mut().insert("session_id".into(), "s2".into());
    let note = trouble(&next, &spool).expect("said in the next session");
    assert!(note.text.contains("1 spans dropped"), "{}", note.text);
}

#[test]
fn an_unsampled_agent_trace_is_handed_on_and_not_recorded() {
    let trace = under_agent("00");
    assert!(trace.span.traceparent().ends_with("-00"));
    assert!(spans(&trace, &event(), &[], &Answer::none(), None).is_empty());
}
