use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, Native};
use crate::protocol::Answer;
use crate::protocol::EventName;

#[test]
fn payloads_name_their_event_in_event_and_keep_goose_s_fields() {
    let all = decoded_fixtures(&AGENT);
    assert_eq!(all.len(), 6);
    // Without --event the payload's `event` names it.
    let payload = fixtures("goose").remove(2).2;
    let ev = decoded(&AGENT, payload);
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    let post = fixture_event(&AGENT, "03-PostToolUse.json");
    assert_eq!(post.input()["tool_response"]["stdout"], json!("hello"));
    assert_eq!(
        post.input()["tool_response_native"][0]["text"],
        json!("hello\n")
    );
    assert_eq!(post.input()["cwd"], json!("/w"));
    let prompt = fixture_event(&AGENT, "01-UserPromptSubmit.json");
    assert_eq!(prompt.input()["prompt"], json!("run echo hello"));
}

#[test]
fn a_deny_is_decision_block_and_other_events_stay_silent() {
    let ev = fixture_event(&AGENT, "04-PreToolUse.json");
    assert_eq!(
        stdout_json(&AGENT.encode(&ev, &deny("no"))),
        json!({"decision":"block","reason":"no"})
    );
    assert_eq!(
        stdout_json(&AGENT.encode(&ev, &allow())),
        json!({"decision":"allow"})
    );
    // No ask in Goose: a deny that says so.
    let n = AGENT.encode(&ev, &ask("sure?"));
    assert_eq!(stdout_json(&n)["decision"], json!("block"));
    assert_eq!(n.notes().count(), 1);
    let stop = fixture_event(&AGENT, "05-Stop.json");
    let n = AGENT.encode(&stop, &block("again"));
    assert_eq!((n.stdout.as_str(), n.exit_code), ("", 0));
    assert_eq!(n.notes().count(), 1);
    assert_eq!(AGENT.encode(&ev, &Answer::none()), Native::default());
}
