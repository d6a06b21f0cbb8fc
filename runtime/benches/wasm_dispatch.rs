//! How long one wasm hook takes in process: compiling a component, loading it
//! from the compile cache, and dispatching an event on a warm `WasmHost`
//! (whose `InstancePre` is reused: a new store and instance per event).
//!
//! `cargo bench --bench wasm_dispatch` (builds `tests/guests` for
//! wasm32-wasip2 first). Prints the median and p10/p90 of each step.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use agenthooks::config::{Grants, Handler, HandlerKind, OnError, Scope, WasmSpec};
use agenthooks::exec::wasm::{CacheDir, WasmHost};
use agenthooks::exec::ExecContext;
use agenthooks::protocol::{Event, EventName, Outcome};
use agenthooks::select::Matcher;

fn guest(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target = root.join("target/guests");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "build",
            "--release",
            "--target",
            "wasm32-wasip2",
            "--manifest-path",
        ])
        .arg(root.join("tests/guests/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .status()
        .expect("run cargo");
    assert!(status.success(), "building the guests failed");
    target.join(format!("wasm32-wasip2/release/{name}.wasm"))
}

fn stats(name: &str, mut v: Vec<Duration>) {
    v.sort();
    let at = |q: f64| v[((v.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e6;
    println!(
        "{name:<44} median {:>9.1} µs  p10 {:>9.1}  p90 {:>9.1}  (n={})",
        at(0.5),
        at(0.1),
        at(0.9),
        v.len()
    );
}

fn main() {
    let component = guest("deny");
    let spec = WasmSpec {
        component: component.clone(),
        oci: None,
        limits: agenthooks::config::Limits::DEFAULT,
        allow: Grants::default(),
    };
    let handler = Handler {
        event: EventName::PreToolUse,
        matcher: Matcher::All,
        if_: None,
        kind: HandlerKind::Wasm(spec.clone()),
        timeout: Duration::from_secs(10),
        on_error: OnError::Allow,
        scope: Scope::User,
        file: "hooks.json".into(),
        project_root: None,
        label: "bench".into(),
        status_message: None,
        once: false,
    };
    let event = Event::new(
        serde_json::json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}),
        None,
        "claude",
    )
    .expect("a valid event");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let ctx = ExecContext::default();

    let compile: Vec<Duration> = (0..5)
        .map(|_| {
            let host = WasmHost::new(CacheDir::none());
            let t = Instant::now();
            host.compile(&component).0.expect("compiles");
            t.elapsed()
        })
        .collect();
    stats("compile (no cache, Cranelift)", compile);

    let cache = tempfile::tempdir().expect("a temporary directory");
    WasmHost::new(CacheDir::at(cache.path()))
        .compile(&component)
        .0
        .expect("compiles");
    let hits: Vec<Duration> = (0..200)
        .map(|_| {
            let host = WasmHost::new(CacheDir::at(cache.path()));
            let t = Instant::now();
            let report = rt.block_on(host.run(&handler, &spec, &event, &ctx));
            assert!(matches!(report.outcome, Outcome::Answered(_)));
            t.elapsed()
        })
        .collect();
    stats("new host: cache hit + link + run", hits);

    let host = WasmHost::new(CacheDir::at(cache.path()));
    rt.block_on(host.run(&handler, &spec, &event, &ctx));
    let warm: Vec<Duration> = (0..2000)
        .map(|_| {
            let t = Instant::now();
            let report = rt.block_on(host.run(&handler, &spec, &event, &ctx));
            assert!(matches!(report.outcome, Outcome::Answered(_)));
            t.elapsed()
        })
        .collect();
    stats("warm host: new store + instance + call", warm);
}
