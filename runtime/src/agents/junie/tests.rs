use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;

#[test]
fn a_deny_is_exit_2_with_the_reason_and_nothing_else_is_said() {
    let ev = fixture_event(&AGENT, "02-PreToolUse.json");
    assert_eq!(ev.tool_name(), Some("Bash"));
    let n = AGENT.encode(&ev, &deny("no rm"));
    assert_eq!((n.exit_code, n.stdout.as_str()), (2, ""));
    assert_eq!(n.stderr[0], "no rm");
    let n = AGENT.encode(&ev, &rewrite(json!({"command":"ls"})));
    assert_eq!(n.exit_code, 2, "a rewrite it cannot apply denies");
    let n = AGENT.encode(&ev, &allow());
    assert_eq!((n.exit_code, n.notes().count()), (0, 1));
    let start = fixture_event(&AGENT, "00-SessionStart.json");
    assert_eq!(AGENT.encode(&start, &context("c")).exit_code, 0);
}

#[test]
fn there_is_no_project_file_to_install_into() {
    assert_eq!(INSTALL.project, USER_ONLY);
    assert!(INSTALL.detect.is_empty());
}
