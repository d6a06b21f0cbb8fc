//! The wasm sandbox against hostile guests (`tests/guests/`): each misbehaviour
//! ends in its own failure, within the timeout, and nothing leaks.
//!
//! The guests are built once per test run for wasm32-wasip2 into
//! `target/guests`; their compiled forms are shared through one cache
//! directory, so only the first run pays for compiling them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use agenthooks::config::{Grants, Handler, HandlerKind, OnError, Scope, WasmSpec};
use agenthooks::exec::wasm::{CacheDir, WasmHost, GRACE};
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

/// The shared compile cache of these tests.
pub fn test_cache() -> PathBuf {
    guest_target().join("cache")
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

fn spec(component: PathBuf) -> WasmSpec {
    WasmSpec {
        component,
        fuel: agenthooks::config::DEFAULT_FUEL,
        memory_mib: agenthooks::config::DEFAULT_MEMORY_MIB,
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

/// Run `spec` in process on a multi-thread runtime, like the CLI, and time it.
fn run_in_process(spec: &WasmSpec, timeout: Duration, event: &Event) -> (Report, Duration) {
    // Loaded (compiled or from the cache) before the clock starts: the
    // timeout bounds the run, not the first compile.
    let (loaded, _) = host().compile(&spec.component);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let handler = handler(spec, timeout);
    let ctx = ExecContext {
        verbose: true,
        ..ExecContext::default()
    };
    let start = Instant::now();
    let report = rt.block_on(host().run(&handler, spec, event, &ctx));
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
        report.notes.iter().any(|n| n == "log info: deciding"),
        "{:?}",
        report.notes
    );
    let fuel = report.fuel_used.expect("fuel is reported");
    assert!(fuel > 0 && fuel < spec.fuel, "{fuel}");
}

#[test]
fn endless_loop_runs_out_of_fuel() {
    let spec = spec(guest("spin"));
    let (report, _) = run_in_process(&spec, Duration::from_secs(30), &bash_event(json!({})));
    assert_eq!(failure(&report), &Failure::OutOfFuel { fuel: spec.fuel });
    assert_eq!(report.fuel_used, Some(spec.fuel));
}

#[test]
fn endless_loop_with_huge_fuel_times_out() {
    let spec = WasmSpec {
        fuel: u64::MAX / 2,
        ..spec(guest("spin"))
    };
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
    let spec = WasmSpec {
        memory_mib: 16,
        ..spec(guest("memory_bomb"))
    };
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
fn flooding_the_log_hits_the_output_limit() {
    let (report, _) = run_in_process(&spec(guest("log_flood")), SHORT, &bash_event(json!({})));
    assert_eq!(
        failure(&report),
        &Failure::OutputLimit {
            limit: agenthooks::exec::wasm::LOG_LIMIT
        }
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
