//! How long one wasm hook takes in process: compiling a component, loading it
//! from the compile cache in a new `Runtime`, and dispatching an event on a
//! warm one (whose `InstancePre` is reused: a new store and instance per
//! event). Only the crate's public API is used.
//!
//! `cargo bench --bench wasm_dispatch` (builds `tests/guests` for
//! wasm32-wasip2 first). Prints the median and p10/p90 of each step, and
//! the events per second its median makes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use agenthooks::{CacheDir, Dispatched, Event, Outcome, Runtime, RuntimeOptions, WasmHost};

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
        "{name:<44} median {:>9.1} µs  p10 {:>9.1}  p90 {:>9.1}  {:>8.0} events/s  (n={})",
        at(0.5),
        at(0.1),
        at(0.9),
        1e6 / at(0.5),
        v.len()
    );
}

/// A runtime whose user-scope hooks.json (`<home>/.agents/hooks.json`) runs
/// a copy of `component` kept beside it (a component from elsewhere would
/// wait for trust) at PreToolUse, compiling into `cache`.
fn runtime(home: &Path, cache: &Path, component: &Path) -> Runtime {
    let copy = home.join(".agents/hooks/hook.wasm");
    std::fs::create_dir_all(home.join(".agents/hooks")).expect("mkdir");
    if !copy.is_file() {
        std::fs::copy(component, &copy).expect("copy the component");
    }
    let hooks = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "wasm", "component": copy, "timeout": 10}
    ]}]}});
    std::fs::write(home.join(".agents/hooks.json"), hooks.to_string()).expect("write hooks.json");
    Runtime::new(
        RuntimeOptions::default()
            .with_home(home)
            .with_cache(CacheDir::at(cache)),
    )
}

fn main() {
    let component = guest("deny");
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
    let answered = |done: &Dispatched| {
        assert!(
            matches!(done.reports[0].outcome, Outcome::Answered(_)),
            "{:?}",
            done.reports[0].outcome
        );
    };

    let compile: Vec<Duration> = (0..5)
        .map(|_| {
            let host = WasmHost::new(CacheDir::none());
            let t = Instant::now();
            host.compile(&component).0.expect("compiles");
            t.elapsed()
        })
        .collect();
    stats("compile (no cache, Cranelift)", compile);

    let dir = tempfile::tempdir().expect("a temporary directory");
    let (home, cache) = (dir.path().join("home"), dir.path().join("cache"));
    WasmHost::new(CacheDir::at(&cache))
        .compile(&component)
        .0
        .expect("compiles");
    // The runtime re-reads a config changed in the last 3 s on every event
    // (timestamps are coarse); measure the steady state.
    runtime(&home, &cache, &component);
    std::thread::sleep(Duration::from_millis(3100));
    let hits: Vec<Duration> = (0..200)
        .map(|_| {
            // Like `agenthooks run`, one event per runtime: no pool (200
            // pools would each reserve their slots' address space).
            let runtime = Runtime::new(
                RuntimeOptions::default()
                    .with_home(&home)
                    .with_cache(CacheDir::at(&cache))
                    .with_pooling(false),
            );
            let t = Instant::now();
            answered(&rt.block_on(runtime.dispatch(event.clone())));
            t.elapsed()
        })
        .collect();
    stats("new runtime: cache hit + link + dispatch", hits);

    let runtime = runtime(&home, &cache, &component);
    std::thread::sleep(Duration::from_millis(3100));
    rt.block_on(runtime.dispatch(event.clone()));
    let warm: Vec<Duration> = (0..2000)
        .map(|_| {
            let t = Instant::now();
            answered(&rt.block_on(runtime.dispatch(event.clone())));
            t.elapsed()
        })
        .collect();
    stats("warm runtime: new store + instance + dispatch", warm);
}
