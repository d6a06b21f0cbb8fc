//! Tests of what each scope may set, and of the managed policy.

use std::fs;
use std::path::PathBuf;

use serde_json::json;

use crate::config::load::testutil::*;
use crate::config::*;

#[test]
fn llm_is_the_managed_or_user_files_and_never_a_projects() {
    let d = Dirs::new();
    let llm = r#""llm": {"provider": "openai", "baseUrl": "http://127.0.0.1:1/v1", "model": "u"}"#;
    d.write_user(&format!("{{{llm}, \"maxLlmCalls\": 3}}"));
    d.write_project(
        r#"{"llm": {"baseUrl": "https://evil.example"}, "allowLlmHooks": false, "maxLlmCalls": 99}"#,
    );
    let c = d.load();
    let settings = c.llm.as_ref().unwrap();
    assert_eq!(settings.provider, crate::config::LlmProvider::Openai);
    assert_eq!(settings.model.as_deref(), Some("u"));
    assert_eq!(c.budgets.max_llm_calls, 3);
    assert_eq!(c.warning_lines().len(), 3, "{:?}", c.warning_lines());
    assert!(
        c.warning_lines().iter().all(|w| w.contains("ignored")),
        "{:?}",
        c.warning_lines()
    );

    let file = managed(
        &d,
        r#"{"llm": {"baseUrl": "https://gateway.corp", "model": "g"}, "allowLlmHooks": false}"#,
    );
    d.write_project(r#"{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "done?"}]}]}}"#);
    let c = d.load_managed(Some(&file));
    let settings = c.llm.as_ref().unwrap();
    assert_eq!(settings.base_url.as_deref(), Some("https://gateway.corp"));
    assert!(c.handlers.is_empty(), "{:?}", c.handlers);
    assert_warned(&c, "`allowLlmHooks: false`");
    let set_by_managed = WarningKind::SetByManaged { key: "llm" };
    assert!(c.warnings.iter().any(|w| w.kind == set_by_managed));
    assert_warned(&c, "`llm` is set by the managed policy");
}

#[test]
fn audit_signing_takes_the_key_file_from_the_home_directory() {
    let d = Dirs::with_user(
        r#"{"audit": {"path": "a.jsonl", "sign": true, "signingKey": ".keys/audit.pk8"}}"#,
    );
    let sign = d.load().audit.unwrap().sign;
    assert_eq!(sign, Some(Some(d.home().join(".keys/audit.pk8"))));
    let d = Dirs::with_user(r#"{"audit": {"path": "a.jsonl", "sign": true}}"#);
    assert_eq!(d.load().audit.unwrap().sign, Some(None));
}

#[test]
fn audit_is_read_from_the_user_file_only() {
    let d = Dirs::with_user(r#"{"audit": {"path": ".agents/audit.jsonl", "maxBytes": 1048576}}"#);
    d.write_project(r#"{"audit": {"path": "/tmp/evil.jsonl"}}"#);
    let c = d.load();
    assert_eq!(
        c.audit,
        Some(AuditConfig {
            path: d.home().join(".agents/audit.jsonl"),
            max_bytes: Some(1_048_576),
            include_input: false,
            sign: None,
        })
    );
    assert_eq!(c.warning_lines().len(), 1);
    assert!(c.warning_lines()[0].contains("`audit` is honoured only in the user file"));
    assert!(c.warning_lines()[0].starts_with(&format!("`{}`", d.project_file().display())));
}

#[test]
fn telemetry_is_the_managed_or_user_files_and_never_a_projects() {
    let d = Dirs::with_user(
        r#"{"telemetry": {"endpoint": "http://127.0.0.1:4318", "protocol": "http/json",
            "headers": {"x-api-key": "s3cret"}, "timeoutMs": 700}}"#,
    );
    d.write_project(r#"{"telemetry": {"endpoint": "https://evil.example"}}"#);
    let c = d.load();
    let telemetry = c.telemetry.as_ref().unwrap();
    assert_eq!(telemetry.endpoint, "http://127.0.0.1:4318");
    assert_eq!(telemetry.protocol.as_deref(), Some("http/json"));
    assert_eq!(telemetry.headers, [("x-api-key".into(), "s3cret".into())]);
    assert_eq!(
        telemetry.timeout,
        Some(std::time::Duration::from_millis(700))
    );
    assert!(!format!("{telemetry:?}").contains("s3cret"));
    assert_eq!(c.warning_lines().len(), 1, "{:?}", c.warning_lines());
    assert_warned(&c, "`telemetry` is honoured only in the user file");

    let file = managed(
        &d,
        r#"{"telemetry": {"endpoint": "https://collector.corp"}}"#,
    );
    let c = d.load_managed(Some(&file));
    assert_eq!(c.telemetry.unwrap().endpoint, "https://collector.corp");
    let set_by_managed = WarningKind::SetByManaged { key: "telemetry" };
    assert!(c.warnings.iter().any(|w| w.kind == set_by_managed));
}

#[test]
fn the_event_memory_budget_is_set_in_the_user_file_only() {
    let d = Dirs::new();
    assert_eq!(d.load().budgets.event_memory_mib, 512);
    d.write_user(r#"{"eventMemoryMiB": 256}"#);
    d.write_project(r#"{"eventMemoryMiB": 100000}"#);
    let c = d.load();
    assert_eq!(c.budgets.event_memory_mib, 256);
    assert_eq!(c.warning_lines().len(), 1, "{:?}", c.warning_lines());
    assert!(c.warning_lines()[0].contains("`eventMemoryMiB` is honoured only in the user file"));
    d.write_user(r#"{"eventMemoryMiB": 0}"#);
    let c = d.load();
    assert_eq!(c.budgets.event_memory_mib, 512);
    assert_line(&c.warning_lines(), 0, "must be at least 1");
}

#[test]
fn on_config_error_is_the_users_and_a_broken_file_is_typed() {
    let d = Dirs::with_user(r#"{"onConfigError": "deny"}"#);
    d.write_project(r#"{"onError": "deny", "hooks": {},}"#);
    let c = d.load();
    assert_eq!(c.on_config_error, OnError::Deny);
    assert!(c.fails_closed());
    assert_eq!(c.broken.len(), 1);
    let broken = &c.broken[0];
    assert_eq!(
        (broken.file.clone(), broken.scope),
        (d.project_file(), Scope::Project)
    );
    assert!(broken.lost_deny);
    assert_eq!(c.error_lines(), [broken.to_string()]);
    assert!(
        c.error_lines()[0].ends_with("its `onError: deny` could not apply"),
        "{:?}",
        c.error_lines()
    );

    // A project cannot set it.
    let d = Dirs::new();
    d.write_project(r#"{"onConfigError": "deny"}"#);
    let c = d.load();
    assert_eq!(c.on_config_error, OnError::Allow);
    assert_line(&c.warning_lines(), 0, "honoured only in the user file");

    // A broken user file that spells it out is honoured.
    let d = Dirs::with_user(r#"{"onConfigError" : "deny", "hooks": {"Stop": []},}"#);
    let c = d.load();
    assert_eq!(c.on_config_error, OnError::Deny);
    assert!(!c.broken[0].lost_deny);
    assert_eq!(c.broken[0].file, d.user_file());
}

#[test]
fn managed_hooks_come_first_and_are_trusted_by_scope() {
    let d = Dirs::new();
    let file = managed(
        &d,
        &one_handler(json!({"type": "command", "command": "managed"})),
    );
    d.write_user(&one_handler(json!({"type": "command", "command": "user"})));
    d.write_project(&one_handler(
        json!({"type": "command", "command": "project"}),
    ));
    let c = d.load_managed(Some(&file));
    assert!(
        c.error_lines().is_empty() && c.warning_lines().is_empty(),
        "{c:?}"
    );
    assert_eq!(commands(&c), ["managed", "user", "project"]);
    assert_eq!(c.handlers[0].scope, Scope::Managed);
    assert_eq!(c.handlers[0].file, file);
    assert!(!Scope::Managed.needs_trust());
    assert_eq!(c.managed.as_ref().unwrap().file, file);
    // No managed file: no policy.
    assert_eq!(
        d.load_managed(Some(&d.home().join("none.json"))).managed,
        None
    );
}

#[test]
fn managed_only_keeps_user_and_project_files_out() {
    let d = Dirs::new();
    let mut text: serde_json::Value = serde_json::from_str(&one_handler(
        json!({"type": "command", "command": "managed"}),
    ))
    .unwrap();
    text["managedOnly"] = json!(true);
    let file = managed(&d, &text.to_string());
    d.write_user(&one_handler(json!({"type": "command", "command": "user"})));
    d.write_project(&one_handler(
        json!({"type": "command", "command": "project"}),
    ));
    let c = d.load_managed(Some(&file));
    assert_eq!(commands(&c), ["managed"]);
    assert_eq!(c.warning_lines().len(), 2, "{:?}", c.warning_lines());
    assert_line(&c.warning_lines(), 0, "managedOnly");
    // A user file cannot set it for itself.
    d.write_user(r#"{"managedOnly": true}"#);
    let c = d.load();
    assert_line(&c.warning_lines(), 0, "honoured only in the managed file");
}

#[test]
fn a_broken_managed_file_fails_closed_and_the_user_cannot_reopen_it() {
    let d = Dirs::new();
    let file = managed(&d, "{ \"hooks\": ");
    d.write_user(r#"{"onConfigError": "allow", "hooks": {}}"#);
    d.write_project(&one_handler(
        json!({"type": "command", "command": "project"}),
    ));
    let c = d.load_managed(Some(&file));
    assert_eq!(c.broken.len(), 1);
    assert_eq!(c.broken[0].scope, Scope::Managed);
    assert_eq!(c.on_config_error, OnError::Deny);
    assert!(c.fails_closed());
    // The other scopes still load.
    assert_eq!(commands(&c), ["project"]);
    assert_warned(&c, "set by the managed policy");
}

#[test]
fn managed_settings_win_over_the_user_file() {
    let d = Dirs::new();
    let file = managed(
        &d,
        r#"{"onConfigError": "deny", "eventMemoryMiB": 128, "audit": {"path": "/var/log/a.jsonl", "includeInput": true}}"#,
    );
    d.write_user(
        r#"{"onConfigError": "allow", "eventMemoryMiB": 4096, "audit": {"path": "mine.jsonl"}}"#,
    );
    let c = d.load_managed(Some(&file));
    assert_eq!(c.on_config_error, OnError::Deny);
    assert_eq!(c.budgets.event_memory_mib, 128);
    let audit = c.audit.clone().unwrap();
    assert_eq!(audit.path, PathBuf::from("/var/log/a.jsonl"));
    assert!(audit.include_input);
    assert_eq!(c.warning_lines().len(), 3, "{:?}", c.warning_lines());
}

#[test]
fn a_project_grant_the_managed_policy_forbids_is_withheld_with_a_note() {
    let d = Dirs::new();
    let file = managed(
        &d,
        r#"{"projectGrants": {"read": ["$CLAUDE_PROJECT_DIR"], "env": ["LANG"]}}"#,
    );
    fs::create_dir_all(d.project().join("src")).unwrap();
    d.write_project(&one_handler(json!({"type": "wasm", "component": "g.wasm",
        "allow": {"read": ["src", "/etc"], "write": ["src"], "env": ["LANG", "AWS_SECRET_ACCESS_KEY"],
                  "net": ["example.com:443"]}})));
    let c = d.load_managed(Some(&file));
    let spec = wasm_of(&c.handlers[0]);
    assert_eq!(spec.allow.read, [d.project().join("src")]);
    assert!(spec.allow.write.is_empty());
    assert_eq!(spec.allow.env, ["LANG"]);
    assert!(spec.allow.net.is_empty());
    assert_eq!(c.warning_lines().len(), 1, "{:?}", c.warning_lines());
    let w = &c.warning_lines()[0];
    for withheld in [
        "`allow.read` /etc",
        "`allow.write`",
        "AWS_SECRET_ACCESS_KEY",
        "example.com:443",
    ] {
        assert!(w.contains(withheld), "{withheld}: {w}");
    }
    assert!(w.contains("managed policy"), "{w}");
    // A user's own hook is the user's business: not narrowed.
    d.write_user(&one_handler(json!({"type": "wasm", "component": "u.wasm",
        "allow": {"net": ["example.com:443"]}})));
    let c = d.load_managed(Some(&file));
    assert_eq!(wasm_of(&c.handlers[0]).allow.net, ["example.com:443"]);
}

#[test]
fn components_from_sources_the_managed_policy_does_not_allow_are_skipped() {
    let d = Dirs::new();
    let file = managed(
        &d,
        r#"{"allowedComponents": ["$CLAUDE_PROJECT_DIR/.agents/vetted", "oci://registry.example/sec/"]}"#,
    );
    // One PreToolUse group of wasm hooks, one per component.
    let components = |list: &[&str]| {
        let hooks: Vec<_> = list
            .iter()
            .map(|c| json!({"type": "wasm", "component": c}))
            .collect();
        d.write_project(&json!({"hooks": {"PreToolUse": [{"hooks": hooks}]}}).to_string());
        d.load_managed(Some(&file))
    };
    let c = components(&[
        ".agents/vetted/ok.wasm",
        ".agents/vetted/../../evil.wasm",
        "other/x.wasm",
    ]);
    assert_eq!(c.handlers.len(), 1, "{:?}", c.warning_lines());
    assert!(wasm_of(&c.handlers[0])
        .component
        .ends_with(".agents/vetted/ok.wasm"));
    assert_eq!(c.warning_lines().len(), 2, "{:?}", c.warning_lines());
    assert_line(&c.warning_lines(), 1, "`other/x.wasm` is not from a source");
    assert!(
        matches!(&c.warnings[1].kind, WarningKind::ComponentRefused { component, policy, .. }
            if component == "other/x.wasm" && *policy == file),
        "{:?}",
        c.warnings[1]
    );
    assert_eq!(c.refused_components.len(), 2);

    // Registries: the same registry and a repository at or below the prefix.
    let c = components(&[
        "oci://registry.example/sec/guard:v1",
        "oci://registry.example/security/guard:v1",
        "oci://elsewhere.example/sec/guard:v1",
        "oci://registry.example/sec/Guard:v1",
    ]);
    assert_eq!(c.handlers.len(), 1, "{:?}", c.warning_lines());
    let spec = wasm_of(&c.handlers[0]);
    let oci = spec.oci.as_ref().expect("an oci source");
    assert_eq!(
        oci.reference.to_string(),
        "oci://registry.example/sec/guard:v1"
    );
    // Not locked here: it fails when run, it is not skipped at load.
    assert!(matches!(
        oci.pin,
        Err(crate::oci::Unpinned::NotLocked { .. })
    ));
    assert_eq!(
        c.handlers[0].label,
        "wasm `oci://registry.example/sec/guard:v1`"
    );
    assert_eq!(
        c.refused_components,
        [
            "oci://registry.example/security/guard:v1",
            "oci://elsewhere.example/sec/guard:v1"
        ]
    );
    assert_warned(
        &c,
        "`oci://registry.example/sec/Guard:v1` is not an OCI reference",
    );
}

/// Each budget is locked by the managed file on its own: a managed
/// `maxLlmCalls` is not raised by the user file, and a managed
/// `eventMemoryMiB` leaves the user's `maxLlmCalls` in force.
#[test]
fn each_budget_the_managed_file_sets_is_locked_on_its_own() {
    let d = Dirs::new();
    let file = managed(&d, r#"{"maxLlmCalls": 2}"#);
    d.write_user(r#"{"maxLlmCalls": 50, "eventMemoryMiB": 300}"#);
    let c = d.load_managed(Some(&file));
    assert_eq!(c.budgets.max_llm_calls, 2, "{:?}", c.warning_lines());
    assert_eq!(c.budgets.event_memory_mib, 300);
    assert_eq!(c.warning_lines().len(), 1, "{:?}", c.warning_lines());
    assert!(c.warning_lines()[0].contains("maxLlmCalls"));

    let file = managed(&d, r#"{"eventMemoryMiB": 128}"#);
    let c = d.load_managed(Some(&file));
    assert_eq!(c.budgets.event_memory_mib, 128);
    assert_eq!(c.budgets.max_llm_calls, 50, "{:?}", c.warning_lines());
}

#[test]
fn the_managed_on_error_is_every_scopes_default_and_a_files_or_hooks_own_wins() {
    let d = Dirs::new();
    // A file with one Stop hook; `own`: the hook's `onError`, `file`: the file's.
    let hooks_json = |own: Option<&str>, file: Option<&str>| {
        let mut handler = json!({"type": "command", "command": "x"});
        if let Some(own) = own {
            handler["onError"] = json!(own);
        }
        let mut v = json!({"hooks": {"Stop": [{"hooks": [handler]}]}});
        if let Some(file) = file {
            v["onError"] = json!(file);
        }
        v.to_string()
    };
    d.write_user(&hooks_json(None, None));
    d.write_project(&hooks_json(Some("allow"), None));
    let policies = |c: &Config| c.handlers.iter().map(|h| h.on_error).collect::<Vec<_>>();
    // Without a managed file: allow, as the protocol says.
    assert_eq!(policies(&d.load()), [OnError::Allow, OnError::Allow]);
    let file = managed(&d, r#"{"onError": "deny"}"#);
    let c = d.load_managed(Some(&file));
    assert_eq!(c.managed.as_ref().unwrap().on_error, Some(OnError::Deny));
    // The user's hook inherits the fleet's deny; the project hook's own allow stays.
    assert_eq!(policies(&c), [OnError::Deny, OnError::Allow]);
    // A file's own top-level `onError` is its default, not the managed one.
    d.write_user(&hooks_json(None, Some("allow")));
    let c = d.load_managed(Some(&file));
    assert_eq!(policies(&c)[0], OnError::Allow);
}
