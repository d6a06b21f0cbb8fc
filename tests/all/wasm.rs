//! The wasm sandbox against hostile guests (`tests/guests/`): each misbehaviour
//! ends in its own failure, within the timeout, and nothing leaks. In process,
//! every guest runs under both compilers, Cranelift and the baseline tier
//! (Winch), which must end the same way.
//!
//! The guests are built once per test run for wasm32-wasip2 into
//! `target/guests`; their compiled forms are shared through one cache
//! directory, so only the first run pays for compiling them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use agenthooks::config::{Grants, Handler, HandlerKind, OnError, Scope, WasmSpec};
use agenthooks::exec::wasm::{CacheDir, EngineOptions, Tiers, WasmHost, GRACE};
use agenthooks::exec::{ExecContext, Report};
use agenthooks::protocol::{Event, EventName, Failure, Outcome, PermissionDecision};
use agenthooks::select::Matcher;
use serde_json::{json, Value};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("runtime/ is in the workspace")
        .to_path_buf()
}

fn guest_target() -> PathBuf {
    workspace().join("target/guests")
}

/// `XDG_CACHE_HOME` of the runs that share one warm compile cache.
pub fn xdg_cache() -> PathBuf {
    guest_target().join("xdg")
}

/// The shared compile cache itself.
pub fn test_cache() -> PathBuf {
    xdg_cache().join("agenthooks")
}

/// Build the guests (once per test binary) and return the path of `name`'s component.
pub fn guest(name: &str) -> PathBuf {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "build",
                "--release",
                "--target",
                "wasm32-wasip2",
                "--manifest-path",
            ])
            .arg(workspace().join("tests/guests/Cargo.toml"))
            .arg("--target-dir")
            .arg(guest_target())
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "building the guests failed (is `rustup target add wasm32-wasip2` done?):\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(guest_target().join("wasm32-wasip2/release"))
    });
    match dir {
        Ok(dir) => dir.join(format!("{name}.wasm")),
        Err(e) => panic!("{e}"),
    }
}

fn host() -> &'static WasmHost {
    static HOST: OnceLock<WasmHost> = OnceLock::new();
    HOST.get_or_init(|| WasmHost::new(CacheDir::at(test_cache())))
}

/// A host whose components never leave the baseline tier (Winch): the
/// sandbox must hold there exactly as under Cranelift.
fn baseline_host() -> &'static WasmHost {
    static HOST: OnceLock<WasmHost> = OnceLock::new();
    HOST.get_or_init(|| {
        let options = EngineOptions {
            tiers: Tiers::Baseline,
            ..EngineOptions::default()
        };
        WasmHost::with_options(CacheDir::at(test_cache()), options)
    })
}

fn spec(component: PathBuf) -> WasmSpec {
    WasmSpec {
        component,
        oci: None,
        limits: agenthooks::config::Limits::DEFAULT,
        allow: Grants::default(),
    }
}

fn handler(spec: &WasmSpec, timeout: Duration) -> Handler {
    Handler {
        event: EventName::PreToolUse,
        matcher: Matcher::All,
        if_: None,
        kind: HandlerKind::Wasm(spec.clone()),
        timeout,
        on_error: OnError::Allow,
        scope: Scope::User,
        file: PathBuf::from("hooks.json"),
        project_root: None,
        label: format!("wasm `{}`", spec.component.display()),
        status_message: None,
        once: false,
    }
}

fn bash_event(tool_input: Value) -> Event {
    Event::new(
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": tool_input,
               "cwd": "/work", "session_id": "s-1"}),
        None,
        "claude",
    )
    .unwrap()
}

/// Run `spec` in process under Cranelift and under the baseline tier: the
/// outcome must be the same; the Cranelift run's report and time.
fn run_in_process(spec: &WasmSpec, timeout: Duration, event: &Event) -> (Report, Duration) {
    let (baseline, _) = run_in_process_on(baseline_host(), spec, timeout, event);
    let (report, took) = run_in_process_on(host(), spec, timeout, event);
    assert_eq!(
        format!("{:?}", baseline.outcome),
        format!("{:?}", report.outcome),
        "the baseline tier (Winch) ended otherwise than Cranelift; notes {:?}",
        baseline.notes
    );
    (report, took)
}

/// Run `spec` in process on `host`, on a multi-thread runtime like the
/// CLI, and time it.
fn run_in_process_on(
    host: &WasmHost,
    spec: &WasmSpec,
    timeout: Duration,
    event: &Event,
) -> (Report, Duration) {
    // Loaded (compiled or from the cache) before the clock starts: the
    // timeout bounds the run, not the first compile.
    let (loaded, _) = host.compile(&spec.component);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let handler = handler(spec, timeout);
    let ctx = verbose_ctx();
    let start = Instant::now();
    let report = rt.block_on(host.run(&handler, spec, event, &ctx));
    let took = start.elapsed();
    rt.shutdown_background();
    if loaded.is_ok() {
        assert!(
            took < timeout + GRACE + Duration::from_millis(500),
            "took {took:?} with a {timeout:?} timeout"
        );
    }
    (report, took)
}

/// A context whose reports keep the details (`--verbose`).
fn verbose_ctx() -> ExecContext {
    ExecContext {
        verbose: true,
        ..ExecContext::default()
    }
}

fn failure(report: &Report) -> &Failure {
    match &report.outcome {
        Outcome::Failed(f) => f,
        other => panic!(
            "expected a failure, got {other:?}; notes {:?}",
            report.notes
        ),
    }
}

fn context(report: &Report) -> String {
    match &report.outcome {
        Outcome::Answered(a) => a.additional_context().unwrap_or_default().to_string(),
        other => panic!(
            "expected an answer, got {other:?}; notes {:?}",
            report.notes
        ),
    }
}

const SHORT: Duration = Duration::from_secs(2);

#[test]
fn well_behaved_guest_denies_and_sees_the_event() {
    let spec = spec(guest("deny"));
    let (report, _) = run_in_process(&spec, SHORT, &bash_event(json!({"command": "rm -rf /"})));
    let Outcome::Answered(answer) = &report.outcome else {
        panic!("{:?}", report.outcome);
    };
    assert_eq!(answer.permission(), Some(PermissionDecision::Deny));
    assert_eq!(answer.permission_reason(), Some("denied by the wasm guest"));
    assert_eq!(
        answer.additional_context(),
        Some("name=PreToolUse harness=claude tool=Bash kind=shell cwd=/work session=s-1")
    );
    assert_eq!(report.kind, "wasm");
    assert_eq!(report.stdout, "stdout from the guest\n");
    assert_eq!(report.stderr, "stderr from the guest\n");
    assert!(
        report.details.iter().any(|n| n == "log info: deciding"),
        "{:?}",
        report.details
    );
    let fuel = report.fuel_used.expect("fuel is reported");
    assert!(fuel > 0 && fuel < spec.limits.fuel, "{fuel}");
}

/// A component whose optimized entry the cache holds (and indexes) runs
/// without the baseline engine being built: a warm `run` pays for one
/// engine, not two.
#[test]
fn a_component_cached_in_the_best_tier_never_builds_the_baseline_engine() {
    let cache = tempfile::tempdir().unwrap();
    // A copy left to settle (its stamp trusted), so its entry is indexed.
    let component = cache.path().join("deny.wasm");
    std::fs::copy(guest("deny"), &component).unwrap();
    // (Stamps count whole seconds: past SETTLE by a second at least.)
    std::thread::sleep(Duration::from_millis(4100));
    let spec = spec(component);
    let (filled, notes) = WasmHost::new(CacheDir::at(cache.path())).compile(&spec.component);
    filled.unwrap_or_else(|e| panic!("{e} {notes:?}"));
    let host = WasmHost::new(CacheDir::at(cache.path()));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = rt.block_on(host.run(
        &handler(&spec, SHORT),
        &spec,
        &bash_event(json!({"command": "ls"})),
        &verbose_ctx(),
    ));
    rt.shutdown_background();
    assert!(
        matches!(report.outcome, Outcome::Answered(_)),
        "{:?}",
        report.outcome
    );
    let debug = format!("{host:?}");
    assert!(debug.contains("engine_built: true"), "{debug}");
    assert!(debug.contains("baseline_built: false"), "{debug}");
}

#[test]
fn endless_loop_runs_out_of_fuel() {
    let spec = spec(guest("spin"));
    let (report, _) = run_in_process(&spec, Duration::from_secs(30), &bash_event(json!({})));
    assert_eq!(
        failure(&report),
        &Failure::OutOfFuel {
            fuel: spec.limits.fuel
        }
    );
    assert_eq!(report.fuel_used, Some(spec.limits.fuel));
}

#[test]
fn endless_loop_with_huge_fuel_times_out() {
    let mut spec = spec(guest("spin"));
    spec.limits.fuel = u64::MAX / 2;
    let timeout = Duration::from_millis(700);
    let (report, took) = run_in_process(&spec, timeout, &bash_event(json!({})));
    assert_eq!(failure(&report), &Failure::Timeout { after: timeout });
    assert!(took >= timeout, "{took:?}");
    assert_eq!(report.fuel_used, None);
}

#[test]
fn sleeping_in_a_host_call_is_stopped_by_the_hard_bound() {
    let spec = spec(guest("sleep"));
    let timeout = Duration::from_millis(700);
    let (report, took) = run_in_process(&spec, timeout, &bash_event(json!({})));
    assert_eq!(failure(&report), &Failure::Timeout { after: timeout });
    assert!(
        took >= timeout && took < timeout + Duration::from_secs(1),
        "{took:?}"
    );
}

#[test]
fn memory_bomb_hits_the_memory_limit() {
    let mut spec = spec(guest("memory_bomb"));
    spec.limits.memory_mib = 16;
    let (report, _) = run_in_process(&spec, SHORT, &bash_event(json!({})));
    assert_eq!(failure(&report), &Failure::MemoryLimit { limit_mib: 16 });
}

#[test]
fn deep_recursion_overflows_the_stack() {
    let (report, _) = run_in_process(&spec(guest("recursion")), SHORT, &bash_event(json!({})));
    assert_eq!(failure(&report), &Failure::StackOverflow);
}

#[test]
fn a_panic_is_a_trap_naming_the_panic() {
    let (report, _) = run_in_process(&spec(guest("panic")), SHORT, &bash_event(json!({})));
    let Failure::Trap { message } = failure(&report) else {
        panic!("{:?}", report.outcome);
    };
    assert!(
        message.contains("the guest panicked on purpose"),
        "{message}"
    );
}

#[test]
fn guest_err_is_a_guest_error() {
    let (report, _) = run_in_process(&spec(guest("guest_err")), SHORT, &bash_event(json!({})));
    assert_eq!(
        failure(&report),
        &Failure::GuestError {
            message: "the guest refused on purpose".into()
        }
    );
}

#[test]
fn flooding_stdout_hits_the_output_limit() {
    let (report, _) = run_in_process(&spec(guest("stdout_flood")), SHORT, &bash_event(json!({})));
    assert_eq!(
        failure(&report),
        &Failure::OutputLimit {
            limit: agenthooks::exec::wasm::OUTPUT_LIMIT
        }
    );
    assert_eq!(report.stdout.len(), agenthooks::exec::wasm::OUTPUT_LIMIT);
}

#[test]
fn flooding_the_log_keeps_the_quota_and_drops_the_rest() {
    // 20,000 host calls take well under a second idle, but past 2 s on a
    // loaded 2-core CI machine (a niced cold run at load 10 timed out): the
    // test is about the quota, not the deadline, so it gets a roomy one.
    let roomy = Duration::from_secs(30);
    let (report, _) = run_in_process(&spec(guest("log_flood")), roomy, &bash_event(json!({})));
    // The log is diagnostics: a flood loses its tail, not the hook's answer.
    assert_eq!(context(&report), "logged");
    let kept = report
        .details
        .iter()
        .filter(|n| n.starts_with("log debug: "))
        .count();
    assert_eq!(kept, agenthooks::exec::wasm::LOG_LIMIT / 1024);
    assert!(
        report.notes.iter().any(|n| n
            == "its log went past 1000 lines or 64 KiB in one call; \
                the 19936 lines after that were dropped"),
        "{:?}",
        report.notes
    );
}

#[test]
fn files_are_invisible_unless_granted() {
    let tmp = tempfile::tempdir().unwrap();
    let granted = tmp.path().join("granted");
    std::fs::create_dir(&granted).unwrap();
    std::fs::write(granted.join("ok.txt"), "visible").unwrap();
    std::fs::write(tmp.path().join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(tmp.path().join("secret.txt"), granted.join("link")).unwrap();
    let probe = |file: PathBuf, allow: Grants, content: Option<&str>| {
        let spec = WasmSpec {
            allow,
            ..spec(guest("fs_probe"))
        };
        let mut input = json!({"file_path": file.to_str().unwrap()});
        if let Some(content) = content {
            input["content"] = json!(content);
        }
        let (report, _) = run_in_process(&spec, SHORT, &bash_event(input));
        context(&report)
    };
    let read = Grants {
        read: vec![granted.clone()],
        ..Grants::default()
    };
    assert!(probe("/etc/passwd".into(), Grants::default(), None).starts_with("read failed"));
    assert!(probe("/etc/passwd".into(), read.clone(), None).starts_with("read failed"));
    assert_eq!(
        probe(granted.join("ok.txt"), read.clone(), None),
        "read ok: visible"
    );
    assert!(probe(granted.join("ok.txt"), Grants::default(), None).starts_with("read failed"));
    let escape = granted.join("../secret.txt");
    assert!(probe(escape, read.clone(), None).starts_with("read failed"));
    assert!(probe(granted.join("link"), read.clone(), None).starts_with("read failed"));
    // Read-only means read-only; `allow.write` lets it write.
    let out = granted.join("new.txt");
    assert!(probe(out.clone(), read, Some("x")).starts_with("write failed"));
    assert!(!out.exists());
    let write = Grants {
        write: vec![granted.clone()],
        ..Grants::default()
    };
    assert_eq!(probe(out.clone(), write, Some("written")), "write ok");
    assert_eq!(std::fs::read_to_string(out).unwrap(), "written");
}

#[test]
fn network_is_refused_unless_the_address_is_granted() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let probe = |net: Vec<String>| {
        let spec = WasmSpec {
            allow: Grants {
                net,
                ..Grants::default()
            },
            ..spec(guest("net_probe"))
        };
        let (report, _) = run_in_process(&spec, SHORT, &bash_event(json!({"url": addr})));
        context(&report)
    };
    assert!(probe(vec![]).starts_with("connect failed"));
    assert!(probe(vec!["127.0.0.1:1".into()]).starts_with("connect failed"));
    assert_eq!(probe(vec![addr.clone()]), "connect ok");
    // A name is resolved when the guest connects.
    let port = listener.local_addr().unwrap().port();
    assert_eq!(probe(vec![format!("localhost:{port}")]), "connect ok");
    assert!(probe(vec![format!("localhost:{}", port ^ 1)]).starts_with("connect failed"));
}

#[test]
fn environment_is_empty_unless_granted() {
    // PATH is set in every test environment and never granted by default.
    let value = std::env::var("PATH").unwrap();
    let probe = |env: Vec<String>| {
        let spec = WasmSpec {
            allow: Grants {
                env,
                ..Grants::default()
            },
            ..spec(guest("env_probe"))
        };
        let (report, _) = run_in_process(&spec, SHORT, &bash_event(json!({"name": "PATH"})));
        context(&report)
    };
    assert_eq!(probe(vec![]), "env absent (0 variables visible)");
    assert_eq!(probe(vec!["PATH".into()]), format!("env present: {value}"));
}

#[test]
fn garbage_is_not_a_component() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("garbage.wasm");
    std::fs::write(&path, b"\0asm\x0d\0\x01\0garbage garbage").unwrap();
    let (report, _) = run_in_process(&spec(path.clone()), SHORT, &bash_event(json!({})));
    assert!(
        matches!(failure(&report), Failure::NotAComponent { path: p, .. } if *p == path.display().to_string()),
        "{:?}",
        report.outcome
    );
}

#[test]
fn a_command_component_is_the_wrong_world() {
    let (report, _) = run_in_process(&spec(guest("wrong_world")), SHORT, &bash_event(json!({})));
    assert!(
        matches!(failure(&report), Failure::WrongWorld { .. }),
        "{:?}",
        report.outcome
    );
}

#[test]
fn a_missing_component_is_not_found() {
    let (report, _) = run_in_process(
        &spec("/no/such/hook.wasm".into()),
        SHORT,
        &bash_event(json!({})),
    );
    assert_eq!(
        failure(&report),
        &Failure::ComponentNotFound {
            path: "/no/such/hook.wasm".into()
        }
    );
}

// ---------------------------------------------------------------------------
// Through the real binary: `agenthooks run --agent claude` in a temp project.

use crate::util::{command, hooks, Ran, TempProject};

/// Every guest, compiled into the shared cache by `agenthooks compile` once,
/// so the timed runs below load them warm.
const GUESTS: &[&str] = &[
    "deny",
    "spin",
    "sleep",
    "memory_bomb",
    "recursion",
    "fs_probe",
    "net_probe",
    "env_probe",
    "stdout_flood",
    "panic",
    "log_flood",
    "guest_err",
];

fn warm() {
    static WARM: OnceLock<()> = OnceLock::new();
    WARM.get_or_init(|| {
        let paths: Vec<PathBuf> = GUESTS.iter().map(|g| guest(g)).collect();
        let out = std::process::Command::new(crate::util::bin())
            .arg("compile")
            .args(&paths)
            .env("XDG_CACHE_HOME", xdg_cache())
            .output()
            .expect("run agenthooks compile");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(stdout.lines().count(), GUESTS.len(), "{stdout}");
    });
}

/// A command hook on the same event that adds context: it must still count
/// whatever the wasm hook does.
const ALSO: &str = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"the command hook ran"}}'"#;

fn wasm_handler(component: &Path, extra: Value) -> Value {
    let mut h = json!({"type": "wasm", "component": component});
    if let (Some(h), Value::Object(extra)) = (h.as_object_mut(), extra) {
        h.extend(extra);
    }
    h
}

/// A project whose PreToolUse hooks are `wasm` (user scope, so grants are
/// not narrowed by trust) and the command hook [`ALSO`].
fn project(wasm: Value) -> TempProject {
    let p = TempProject::new();
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([wasm, command(ALSO)])));
    p
}

/// `agenthooks run --agent claude` on a Bash PreToolUse with the warm cache.
fn run_warm(p: &TempProject, tool_input: Value, verbose: bool) -> Ran {
    warm();
    let mut args = vec!["run", "--agent", "claude"];
    if verbose {
        args.push("--verbose");
    }
    let mut cmd = p.cmd(args);
    cmd.env("XDG_CACHE_HOME", xdg_cache());
    let payload = p.payload(
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": tool_input, "tool_use_id": "t1"}),
    );
    p.output(cmd, payload.to_string())
}

/// Run `component` with `extra` config twice: failing open (the default) and
/// with `onError: "deny"`; each time the note is `note`, the command hook
/// still counts, and the run ends within `timeout` + 1 s.
fn assert_fails(component: &Path, extra: Value, note: &str) {
    let timeout = extra
        .get("timeout")
        .and_then(Value::as_f64)
        .map_or(Duration::from_secs(60), Duration::from_secs_f64);
    for on_error in ["allow", "deny"] {
        let mut extra = extra.clone();
        extra["onError"] = json!(on_error);
        let p = project(wasm_handler(component, extra));
        let ran = run_warm(&p, json!({"command": "ls"}), false);
        let stderr = ran.stderr();
        assert_eq!(ran.code(), 0, "{stderr}");
        assert!(stderr.contains(note), "note `{note}` missing in:\n{stderr}");
        let answer = ran.json();
        let hso = &answer["hookSpecificOutput"];
        assert_eq!(hso["additionalContext"], "the command hook ran", "{answer}");
        match on_error {
            "allow" => assert_eq!(hso["permissionDecision"], Value::Null, "{answer}"),
            _ => {
                assert_eq!(hso["permissionDecision"], "deny", "{answer}");
                let reason = hso["permissionDecisionReason"].as_str().unwrap_or_default();
                assert!(reason.contains(note), "{reason}");
            }
        }
        assert!(
            ran.elapsed < timeout + Duration::from_secs(1),
            "took {:?} with a {timeout:?} timeout",
            ran.elapsed
        );
    }
}

#[test]
fn cli_well_behaved_guest_denies_next_to_a_command_hook() {
    let p = project(wasm_handler(&guest("deny"), json!({})));
    let ran = run_warm(&p, json!({"command": "rm -rf /"}), true);
    let answer = ran.json();
    let hso = &answer["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "deny", "{}", ran.stderr());
    assert_eq!(hso["permissionDecisionReason"], "denied by the wasm guest");
    let context = hso["additionalContext"].as_str().unwrap();
    assert!(context.contains("the command hook ran"), "{context}");
    assert!(
        context.contains("name=PreToolUse harness=claude tool=Bash kind=shell"),
        "{context}"
    );
    // --verbose shows the guest's log.
    ran.assert_stderr_contains("log info: deciding");
}

#[test]
fn cli_endless_loop_runs_out_of_fuel() {
    assert_fails(
        &guest("spin"),
        json!({}),
        "ran out of fuel (2000000000 units)",
    );
}

#[test]
fn cli_endless_loop_with_huge_fuel_times_out() {
    let extra = json!({"fuel": 1_000_000_000_000_000_000u64, "timeout": 1});
    assert_fails(&guest("spin"), extra, "timed out after 1s");
}

#[test]
fn cli_sleep_in_a_host_call_times_out() {
    assert_fails(&guest("sleep"), json!({"timeout": 1}), "timed out after 1s");
}

#[test]
fn cli_memory_bomb_hits_the_memory_limit() {
    let extra = json!({"memoryMiB": 16});
    assert_fails(
        &guest("memory_bomb"),
        extra,
        "exceeded its memory limit of 16 MiB",
    );
}

#[test]
fn cli_deep_recursion_overflows_the_stack() {
    assert_fails(&guest("recursion"), json!({}), "overflowed the wasm stack");
}

#[test]
fn cli_panic_is_a_trap() {
    assert_fails(
        &guest("panic"),
        json!({}),
        "crashed (wasm trap: wasm `unreachable` instruction executed; the guest panicked: the guest panicked on purpose)",
    );
}

#[test]
fn cli_guest_err_is_a_guest_error() {
    assert_fails(
        &guest("guest_err"),
        json!({}),
        "returned an error: the guest refused on purpose",
    );
}

#[test]
fn cli_stdout_flood_hits_the_output_limit() {
    assert_fails(
        &guest("stdout_flood"),
        json!({}),
        "exceeded its output limit of 65536 bytes",
    );
}

#[test]
fn cli_log_flood_is_cut_with_a_note_and_the_hook_still_answers() {
    let p = project(wasm_handler(&guest("log_flood"), json!({})));
    let ran = run_warm(&p, json!({"command": "ls"}), false);
    ran.assert_stderr_contains("its log went past 1000 lines or 64 KiB in one call");
    let answer = ran.json();
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default();
    assert!(context.contains("logged"), "{answer}");
    assert!(context.contains("the command hook ran"), "{answer}");
}

#[test]
fn cli_garbage_is_not_a_component() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("garbage.wasm");
    std::fs::write(&path, b"this is not wasm at all").unwrap();
    assert_fails(&path, json!({}), "is not a WebAssembly component");
}

#[test]
fn cli_a_command_component_is_the_wrong_world() {
    assert_fails(
        &guest("wrong_world"),
        json!({}),
        "does not implement the `agenthooks:hook` world",
    );
}

#[test]
fn cli_another_handle_signature_is_the_wrong_world() {
    assert_fails(
        &guest("other_signature"),
        json!({}),
        "does not implement the `agenthooks:hook` world: type-checking export func `handle`",
    );
}

#[test]
fn cli_a_missing_component_is_named() {
    assert_fails(
        Path::new("/no/such/hook.wasm"),
        json!({}),
        "component `/no/such/hook.wasm` not found",
    );
}

#[test]
fn cli_grants_open_files_env_and_network_and_nothing_else() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let context = |component: &str, allow: Value, input: Value| {
        let p = project(wasm_handler(&guest(component), json!({"allow": allow})));
        let ran = run_warm(&p, input, false);
        let answer = ran.json();
        answer["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer} {}", ran.stderr()))
            .to_string()
    };
    let passwd = json!({"file_path": "/etc/passwd"});
    assert!(context("fs_probe", json!({}), passwd.clone()).starts_with("read failed"));
    assert!(context("fs_probe", json!({"read": ["/tmp"]}), passwd).starts_with("read failed"));
    let url = json!({"url": addr});
    assert!(context("net_probe", json!({}), url.clone()).starts_with("connect failed"));
    assert!(context("net_probe", json!({"net": [addr]}), url).starts_with("connect ok"));
    // TempProject sets HOME for the run; it is the variable to pass through.
    let name = json!({"name": "HOME"});
    assert!(context("env_probe", json!({}), name.clone()).starts_with("env absent"));
    assert!(context("env_probe", json!({"env": ["HOME"]}), name).starts_with("env present: /"));
}

// ---------------------------------------------------------------------------
// The compile cache and `agenthooks compile`.

/// `agenthooks compile ARGS` with `XDG_CACHE_HOME=xdg`.
fn compile(p: &TempProject, xdg: &Path, args: &[&Path]) -> Ran {
    let mut cmd = p.cmd(["compile"]);
    cmd.args(args).env("XDG_CACHE_HOME", xdg);
    p.output(cmd, "")
}

/// Whether the cache holds one entry, of the optimized tier: Cranelift's,
/// with the baseline entry it replaced deleted by the sweep
/// (`exec::wasm::gc`), as the compile cache must end up for one component.
fn only_optimized(dir: &Path) -> bool {
    use agenthooks::exec::wasm::gc::{entries, EntryTier};
    let all = entries(dir);
    all.len() == 1 && all[0].tier == EntryTier::Optimized
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    // Not the temporary file an entry is written to before its rename.
    v.retain(|p| {
        p.extension().is_some_and(|e| e == "cwasm")
            && !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
    });
    v
}

#[test]
fn compile_reports_cache_hits_and_rebuilds_damaged_entries() {
    let p = TempProject::new();
    let xdg = p.tmp().join("xdg");
    let deny = guest("guest_err");
    let first = compile(&p, &xdg, &[&deny]);
    assert_eq!(first.code(), 0, "{}", first.stderr());
    assert!(
        first.stdout().contains(": compiled, "),
        "{}",
        first.stdout()
    );
    let cache = xdg.join("agenthooks");
    let found = entries(&cache);
    assert_eq!(found.len(), 1, "{found:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&cache).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
    let again = compile(&p, &xdg, &[&deny]);
    assert!(
        again.stdout().contains(": cache hit, "),
        "{}",
        again.stdout()
    );

    // A flipped byte, a truncation: detected, deleted, rebuilt.
    let entry = &found[0];
    let good = std::fs::read(entry).unwrap();
    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    for damaged in [flipped, good[..good.len() / 3].to_vec()] {
        std::fs::write(entry, damaged).unwrap();
        let ran = compile(&p, &xdg, &[&deny]);
        assert!(ran.stdout().contains(": compiled, "), "{}", ran.stdout());
        ran.assert_stderr_contains("is corrupt; rebuilt");
        assert_eq!(std::fs::read(entry).unwrap(), good);
    }

    // Intact framing (artifact, the component's SHA-256, the SHA-256 of
    // both, the magic as a trailer) around bytes wasmtime refuses: stale, rebuilt.
    use sha2::Digest as _;
    let payload = b"not a wasmtime artifact";
    let component = sha2::Sha256::digest(std::fs::read(&deny).unwrap());
    let mut stale = payload.to_vec();
    stale.extend_from_slice(&component);
    stale.extend_from_slice(&sha2::Sha256::digest(&stale));
    stale.extend_from_slice(b"AHCWASM3");
    std::fs::write(entry, stale).unwrap();
    let ran = compile(&p, &xdg, &[&deny]);
    assert!(ran.stdout().contains(": compiled, "), "{}", ran.stdout());
    ran.assert_stderr_contains("is stale");

    // A precompiled artifact handed in as a component is refused, never loaded.
    let cwasm = p.tmp().join("hook.cwasm");
    // The entry without its trailer (two SHA-256s and the magic, 72 bytes).
    std::fs::write(&cwasm, &good[..good.len() - 72]).unwrap();
    let ran = compile(&p, &xdg, &[&cwasm]);
    assert_eq!(ran.code(), 1);
    assert!(
        ran.stdout()
            .contains("a precompiled artifact is not accepted"),
        "{}",
        ran.stdout()
    );
}

/// A cold component's first event runs the baseline tier (Winch), which the
/// compile worker stores first; Cranelift's entry follows in the background,
/// and later events load it instead. (x86_64 Unix: elsewhere Cranelift alone.)
#[cfg(all(unix, target_arch = "x86_64"))]
#[test]
fn a_cold_component_answers_from_winch_until_cranelift_replaces_it() {
    let p = project(wasm_handler(&guest("deny"), json!({"timeout": 120})));
    let xdg = p.tmp().join("xdg");
    let run = || {
        let mut cmd = p.cmd(["run", "--agent", "claude", "--verbose"]);
        cmd.env("XDG_CACHE_HOME", &xdg);
        let payload = p.payload(
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "tool_use_id": "t1"}),
        );
        p.output(cmd, payload.to_string())
    };
    let first = run();
    assert_eq!(
        first.json()["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        first.stderr()
    );
    first.assert_stderr_contains("(baseline tier, Winch; Cranelift replaces it)");
    // Cranelift's entry replaces Winch's, which is then deleted.
    let cache = xdg.join("agenthooks");
    assert!(
        crate::util::eventually(Duration::from_secs(600), || only_optimized(&cache)),
        "Cranelift's entry never replaced Winch's: {:?}",
        entries(&cache)
    );
    let later = run();
    assert_eq!(
        later.json()["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    later.assert_stderr_contains("loaded from the compile cache");
    assert!(
        !later.stderr().contains("baseline tier"),
        "{}",
        later.stderr()
    );
}

/// A teammate's first day: `install` starts compiling the project's
/// components in the background (as `trust` does), so the first event an
/// agent sends afterwards loads the compiled entry instead of compiling.
#[cfg(unix)]
#[test]
fn install_warms_the_cache_so_the_first_event_loads_from_it() {
    let p = TempProject::new();
    std::fs::create_dir_all(p.path(".agents/hooks")).unwrap();
    std::fs::copy(guest("deny"), p.path(".agents/hooks/deny.wasm")).unwrap();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": ".agents/hooks/deny.wasm", "timeout": 120}]),
    ));
    let xdg = p.tmp().join("xdg");
    let mut cmd = p.cmd(["install", "claude"]);
    cmd.env("XDG_CACHE_HOME", &xdg);
    let installed = p.output(cmd, "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    assert!(
        installed
            .stdout()
            .contains("compiling 1 wasm component in the background"),
        "{}",
        installed.stdout()
    );
    // The worker's last tier: Cranelift's entry (Winch's before it, on
    // x86_64, is deleted once Cranelift's is in place).
    let cache = xdg.join("agenthooks");
    assert!(
        crate::util::eventually(Duration::from_secs(600), || only_optimized(&cache)),
        "the background compile never filled the cache: {:?}",
        entries(&cache)
    );
    let mut cmd = p.cmd(["run", "--agent", "claude", "--verbose"]);
    cmd.env("XDG_CACHE_HOME", &xdg);
    let first = p.output(cmd, p.bash("rm -rf /").to_string());
    assert_eq!(
        first.json()["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        first.stderr()
    );
    first.assert_stderr_contains("loaded from the compile cache");
}

#[test]
fn an_unusable_cache_dir_degrades_to_compiling_in_memory() {
    let p = TempProject::new();
    let component = guest("guest_err");
    // A file where the directory should be: it cannot be created.
    let blocked = p.tmp().join("blocked");
    std::fs::write(&blocked, "").unwrap();
    let ran = compile(&p, &blocked, &[&component]);
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout().contains(": compiled (not cached), "),
        "{}",
        ran.stdout()
    );
    ran.assert_stderr_contains("cannot be created");

    // A directory others can write to is not trusted.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let open = p.tmp().join("open");
        std::fs::create_dir_all(open.join("agenthooks")).unwrap();
        std::fs::set_permissions(
            open.join("agenthooks"),
            std::fs::Permissions::from_mode(0o777),
        )
        .unwrap();
        let ran = compile(&p, &open, &[&component]);
        assert!(
            ran.stdout().contains(": compiled (not cached), "),
            "{}",
            ran.stdout()
        );
        ran.assert_stderr_contains("is not private");
        assert!(entries(&open.join("agenthooks")).is_empty());
    }

    // An entry that cannot be written (a directory in its place): compiled anyway.
    let good = p.tmp().join("good");
    compile(&p, &good, &[&component]);
    let name = entries(&good.join("agenthooks")).remove(0);
    let stuck = p.tmp().join("stuck");
    let squat = stuck.join("agenthooks").join(name.file_name().unwrap());
    std::fs::create_dir_all(squat.join("x")).unwrap();
    let ran = compile(&p, &stuck, &[&component]);
    assert_eq!(ran.code(), 0);
    assert!(
        ran.stdout().contains(": compiled (not cached), "),
        "{}",
        ran.stdout()
    );
    ran.assert_stderr_contains("is not writable");

    // `run` works the same without a cache, and says why.
    let wasm = wasm_handler(&component, json!({}));
    let p2 = project(wasm);
    let mut cmd = p2.cmd(["run", "--agent", "claude"]);
    cmd.env("XDG_CACHE_HOME", &blocked);
    let ran = p2.output(cmd, p2.bash("ls").to_string());
    ran.assert_stderr_contains("returned an error");
    ran.assert_stderr_contains("cannot be created");
}

#[test]
fn compile_without_paths_compiles_the_configured_components() {
    let p = TempProject::new();
    let xdg = p.tmp().join("xdg");
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([
            wasm_handler(&guest("guest_err"), json!({})),
            wasm_handler(Path::new("/no/such/hook.wasm"), json!({}))
        ]),
    ));
    let ran = compile(&p, &xdg, &[]);
    assert_eq!(ran.code(), 1, "{}", ran.stderr());
    let out = ran.stdout();
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.contains("/no/such/hook.wasm: failed: component"),
        "{out}"
    );
    assert!(out.contains("guest_err.wasm: compiled, "), "{out}");
}

#[cfg(unix)]
#[test]
fn cli_a_guest_blocked_on_a_fifo_does_not_hold_the_process() {
    // Opening a FIFO nobody writes blocks in the host's file I/O thread, not
    // in wasm: only the async timeout ends it, and the process must not wait
    // for that thread on the way out.
    let p = TempProject::new();
    let dir = p.tmp().join("granted");
    std::fs::create_dir(&dir).unwrap();
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let wasm = wasm_handler(
        &guest("fs_probe"),
        json!({"timeout": 1, "allow": {"read": [dir]}}),
    );
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([wasm, command(ALSO)])));
    let ran = run_warm(&p, json!({"file_path": fifo}), false);
    ran.assert_stderr_contains("timed out after 1s");
    assert_eq!(
        ran.json()["hookSpecificOutput"]["additionalContext"],
        "the command hook ran"
    );
    ran.assert_took_less_than(Duration::from_secs(2));
}

/// Every event gets a fresh instance, however the host reuses memory between
/// them: the guest's static counter and its zeroed heap must look new on each
/// call, pooled (a slot reset to its image, only the pages dirtied) or not.
#[test]
fn each_event_sees_fresh_guest_memory_pooled_or_not() {
    let spec = spec(guest("fresh_state"));
    let handler = handler(&spec, SHORT);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    for pooling in [true, false] {
        let options = EngineOptions {
            pooling,
            tiers: Tiers::Optimized,
        };
        let host = WasmHost::with_options(CacheDir::at(test_cache()), options);
        // Compiled before the first event: the hook's timeout bounds its
        // run, not a first compile on a loaded machine.
        host.compile(&spec.component).0.expect("the guest compiles");
        for call in 0..4 {
            let report =
                rt.block_on(host.run(&handler, &spec, &bash_event(json!({})), &verbose_ctx()));
            assert_eq!(context(&report), "fresh", "pooling {pooling}, call {call}");
        }
    }
}

#[test]
fn a_long_lived_host_reuses_components_and_notices_a_rebuilt_one() {
    use agenthooks::exec::wasm::EngineOptions;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hook.wasm");
    std::fs::copy(guest("deny"), &path).unwrap();
    // Pooling, as a long-lived library process would use it; Cranelift
    // alone, so the second event is warm whatever the first compiled.
    let options = EngineOptions {
        pooling: true,
        tiers: Tiers::Optimized,
    };
    let host = WasmHost::with_options(CacheDir::at(test_cache()), options);
    let spec = spec(path.clone());
    let handler = handler(&spec, SHORT);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let ctx = verbose_ctx();
    let event = bash_event(json!({}));
    let first = rt.block_on(host.run(&handler, &spec, &event, &ctx));
    assert!(
        matches!(first.outcome, Outcome::Answered(_)),
        "{:?}",
        first.outcome
    );
    assert!(first
        .details
        .iter()
        .any(|n| n.contains("compile cache") || n.contains("compiled")));
    let second = rt.block_on(host.run(&handler, &spec, &event, &ctx));
    assert!(matches!(second.outcome, Outcome::Answered(_)));
    // Warm: no load note the second time.
    assert!(
        !second.details.iter().any(|n| n.contains("compile")),
        "{:?}",
        second.details
    );
    // In the cache already, so the swapped file loads within the timeout
    // (which counts compiling too).
    host.compile(&guest("guest_err")).0.unwrap();
    std::fs::copy(guest("guest_err"), &path).unwrap();
    let third = rt.block_on(host.run(&handler, &spec, &event, &ctx));
    assert!(
        matches!(third.outcome, Outcome::Failed(Failure::GuestError { .. })),
        "{:?}",
        third.outcome
    );
}

/// In library mode a cold component is compiled in process: Winch answers
/// the first event, and the same thread goes on to Cranelift, whose entry
/// the cache keeps. (x86_64 Unix: elsewhere Cranelift alone.)
#[cfg(all(unix, target_arch = "x86_64"))]
#[test]
fn in_process_a_cold_component_runs_on_winch_then_on_cranelift() {
    use agenthooks::exec::wasm::{CacheStatus, Tier};
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hook.wasm");
    std::fs::copy(guest("deny"), &path).unwrap();
    let cache = tmp.path().join("cache");
    let host = WasmHost::new(CacheDir::at(&cache));
    let spec = spec(path.clone());
    let handler = handler(&spec, Duration::from_secs(120));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let ctx = verbose_ctx();
    let event = bash_event(json!({"command": "rm -rf /"}));
    let first = rt.block_on(host.run(&handler, &spec, &event, &ctx));
    let Outcome::Answered(answer) = &first.outcome else {
        panic!("{:?}", first.outcome);
    };
    assert_eq!(answer.permission(), Some(PermissionDecision::Deny));
    assert!(
        first
            .details
            .iter()
            .any(|n| n.contains("(baseline tier, Winch; Cranelift replaces it)")),
        "{:?}",
        first.details
    );
    assert!(
        crate::util::eventually(Duration::from_secs(600), || only_optimized(&cache)),
        "Cranelift's entry never replaced Winch's: {:?}",
        entries(&cache)
    );
    let (compiled, _) = host.compile(&path);
    let compiled = compiled.unwrap();
    assert_eq!(
        (compiled.status, compiled.tier),
        (CacheStatus::Hit, Tier::Optimized)
    );
    let later = rt.block_on(host.run(&handler, &spec, &event, &ctx));
    assert!(matches!(later.outcome, Outcome::Answered(_)));
    rt.shutdown_background();
}

#[test]
fn every_guest_is_used_by_a_test() {
    // Guests that test trust and failing closed are used by those areas.
    let source = [
        include_str!("wasm.rs"),
        include_str!("trust.rs"),
        include_str!("fail_closed.rs"),
        include_str!("first_day.rs"),
        include_str!("budgets.rs"),
        include_str!("telemetry.rs"),
    ]
    .concat();
    let bins = workspace().join("tests/guests/src/bin");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&bins).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let name = name.trim_end_matches(".rs").to_string();
        assert!(
            source.contains(&format!("guest(\"{name}\")")),
            "tests/guests/src/bin/{name}.rs is not used by any test"
        );
        names.push(name);
    }
    assert!(names.len() >= 13, "{names:?}");
}
