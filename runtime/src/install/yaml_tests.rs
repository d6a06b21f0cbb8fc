use super::*;

const SPEC: YamlSpec = YamlSpec {
    key: "hooks",
    handler: &[],
    argv: true,
};

fn entry(event: &'static str) -> Entry {
    Entry {
        event,
        fields: vec![
            (
                "command",
                Scalar::Str(format!(
                    "sh -c 'exec agenthooks run --agent hermes --event {event}'"
                )),
            ),
            ("timeout", Scalar::Int(60)),
        ],
    }
}

/// Install then uninstall gives `text` back byte for byte; returns the
/// installed text.
fn round_trip(text: &str) -> String {
    let wanted = [entry("pre_tool_call"), entry("on_session_start")];
    let installed = edit(text, &SPEC, "hermes", &wanted).unwrap();
    assert_ne!(installed, text);
    assert_eq!(
        edit(&installed, &SPEC, "hermes", &wanted).unwrap(),
        installed,
        "installing again changes nothing"
    );
    assert_eq!(edit(&installed, &SPEC, "hermes", &[]).unwrap(), text);
    installed
}

#[test]
fn a_file_without_hooks_gets_the_block_at_its_end_and_back() {
    let text = "# my settings\nmodel:\n  default: x  # keep\n\nhooks_auto_accept: true\n";
    let installed = round_trip(text);
    assert!(installed.starts_with(text));
    assert!(installed.contains("\nhooks:\n  pre_tool_call:\n    - command: \"sh -c 'exec agenthooks run --agent hermes --event pre_tool_call'\"\n      timeout: 60\n"));
    round_trip("model: x");
    round_trip("");
    round_trip("a: 1\r\n# c\r\n");
    assert!(round_trip("a: 1\r\n").contains("hooks:\r\n"));
}

#[test]
fn an_empty_hooks_key_is_replaced_and_put_back() {
    for text in [
        "a: 1\nhooks: {}\nb: 2\n",
        "hooks:\n# later\nb: 2\n",
        "a: 1\nhooks: null  # none yet\n",
        "a: 1\nhooks: ~",
    ] {
        let installed = round_trip(text);
        assert_eq!(
            installed.matches("\nhooks:").count() + usize::from(installed.starts_with("hooks:")),
            1,
            "{installed}"
        );
    }
}

#[test]
fn the_user_s_own_events_stay_and_ours_go_under_the_key() {
    let text = "hooks:\n    # mine\n    post_tool_call:\n      - command: ~/fmt.sh\nother: 1\n";
    let installed = round_trip(text);
    assert!(
        installed.starts_with("hooks:\n    # agenthooks: begin hermes"),
        "{installed}"
    );
    assert!(
        installed.contains("\n    pre_tool_call:\n      - command: "),
        "{installed}"
    );
}

#[test]
fn what_cannot_be_kept_is_refused_in_one_line() {
    let wanted = [entry("pre_tool_call")];
    for (text, says) in [
        (
            "hooks:\n  pre_tool_call:\n    - command: mine\n",
            "`hooks.pre_tool_call` holds hooks of yours",
        ),
        ("{hooks: {}}\n", "not a block mapping"),
        ("hooks:\n  - command: x\n", "not a mapping of events"),
        ("hooks: {a: []}\n", "not a mapping of events"),
        (
            "a: 1\n# agenthooks: begin hermes\nhooks:\n",
            "no `# agenthooks: end`",
        ),
    ] {
        let e = edit(text, &SPEC, "hermes", &wanted).unwrap_err();
        assert!(e.contains(says), "{text:?}: {e}");
        assert!(!e.contains('\n'));
    }
}

#[test]
fn another_agent_s_block_is_not_ours() {
    let text = "a: 1\n";
    let theirs = edit(text, &SPEC, "hermes2", &[entry("pre_tool_call")]).unwrap();
    assert_eq!(edit(&theirs, &SPEC, "hermes", &[]).unwrap(), theirs);
}
