//! Library-mode dispatch ([`agenthooks::Runtime`]) with criterion: one event
//! through select, trust, execute and aggregate, with everything warm.
//!
//! - `dispatch/one_wasm_hook`: the dangerous-command guard;
//! - `dispatch/ten_wasm_hooks`: ten copies of it (ten instances per event);
//! - `dispatch/one_command_hook`: `true`, a process per event;
//! - `dispatch/one_trivial_wasm_hook`: the test suite's `deny` guest (when
//!   `cargo test` has built it), which does next to nothing: the runtime's own cost;
//! - `throughput/*`: events per second on one core (a current-thread runtime),
//!   one at a time and 64 at once.
//!
//! Every case prints events per second (`thrpt`) beside its time.
//!
//! `cargo bench -p agenthooks --bench dispatch` (builds the guard component
//! for wasm32-wasip2 first when it is missing).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use agenthooks::{CacheDir, Event, Outcome};
use agenthooks::{Runtime, RuntimeOptions};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

fn guard() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let wasm = root.join("target/wasm32-wasip2/release/dangerous-command-guard.wasm");
    if !wasm.is_file() {
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--release", "--target", "wasm32-wasip2"])
            .args(["-p", "dangerous-command-guard"])
            .current_dir(&root)
            .status()
            .expect("run cargo");
        assert!(status.success(), "building the guard component failed");
    }
    wasm
}

/// A project whose `PreToolUse` hooks for Bash are `hooks` (JSON array
/// text), and the user's `user_hooks` (user hooks need no trust, so the
/// command hook goes there).
struct Project {
    _dir: tempfile::TempDir,
    runtime: Runtime,
    event: Event,
}

fn project(hooks: &str, user_hooks: &str, components: usize, component: &Path) -> Project {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let proj = dir.path().join("proj");
    std::fs::create_dir_all(proj.join(".agents/hooks")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("home/.agents")).expect("mkdir");
    for i in 0..components {
        std::fs::copy(
            component,
            proj.join(format!(".agents/hooks/guard-{i}.wasm")),
        )
        .expect("copy");
    }
    std::fs::write(
        proj.join(".agents/hooks.json"),
        format!(r#"{{"hooks":{{"PreToolUse":[{{"matcher":"Bash","hooks":{hooks}}}]}}}}"#),
    )
    .expect("write hooks.json");
    std::fs::write(
        dir.path().join("home/.agents/hooks.json"),
        format!(r#"{{"hooks":{{"PreToolUse":[{{"matcher":"Bash","hooks":{user_hooks}}}]}}}}"#),
    )
    .expect("write hooks.json");
    // The runtime re-reads a config changed in the last 3 s on every event
    // (timestamps are coarse); measure the steady state.
    std::thread::sleep(Duration::from_millis(3100));
    let runtime = Runtime::new(
        RuntimeOptions::default()
            .with_home(dir.path().join("home"))
            .with_project_root(proj.clone())
            .with_cache(CacheDir::at(dir.path().join("cache"))),
    );
    // Compile each component with the optimizing tier before timing: a
    // first event would run the baseline tier while Cranelift compiles on
    // the other core, and the measurement would mix the two.
    for i in 0..components {
        let path = proj.join(format!(".agents/hooks/guard-{i}.wasm"));
        let (compiled, notes) = runtime.wasm_host().compile(&path);
        compiled.unwrap_or_else(|e| panic!("compiling {}: {e} {notes:?}", path.display()));
    }
    let event = Event::new(
        serde_json::json!({
            "session_id": "bench", "cwd": proj, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}
        }),
        None,
        "claude",
    )
    .expect("a valid event");
    Project {
        _dir: dir,
        runtime,
        event,
    }
}

fn wasm_hooks(n: usize) -> String {
    let hooks: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"type":"wasm","component":".agents/hooks/guard-{i}.wasm"}}"#))
        .collect();
    format!("[{}]", hooks.join(","))
}

fn one_core() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn check(p: &Project, rt: &tokio::runtime::Runtime, denies: bool) {
    let done = rt.block_on(p.runtime.dispatch(p.event.clone()));
    assert!(
        done.reports
            .iter()
            .all(|r| matches!(r.outcome, Outcome::Answered(_))),
        "{:?}",
        done.reports
    );
    assert_eq!(
        serde_json::to_string(&done.answer)
            .expect("json")
            .contains("deny"),
        denies
    );
}

fn dispatch(c: &mut Criterion) {
    let rt = one_core();
    let mut group = c.benchmark_group("dispatch");
    // One event per iteration: criterion prints events/s beside the time.
    group.throughput(Throughput::Elements(1));
    let command = r#"[{"type":"command","command":"true"}]"#.to_string();
    let guard = guard();
    let mut cases = vec![
        (
            "one_wasm_hook",
            wasm_hooks(1),
            "[]".to_string(),
            1,
            guard.clone(),
        ),
        (
            "ten_wasm_hooks",
            wasm_hooks(10),
            "[]".to_string(),
            10,
            guard.clone(),
        ),
        (
            "one_command_hook",
            "[]".to_string(),
            command,
            0,
            guard.clone(),
        ),
    ];
    // The test suite's trivial `deny` guest, when built (`cargo test`): what
    // the runtime itself costs per wasm hook, without the guard's own work.
    let trivial = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/guests/wasm32-wasip2/release/deny.wasm");
    if trivial.is_file() {
        cases.push((
            "one_trivial_wasm_hook",
            wasm_hooks(1),
            "[]".to_string(),
            1,
            trivial,
        ));
    }
    for (name, hooks, user_hooks, components, component) in cases {
        let denies = components > 0;
        let p = project(&hooks, &user_hooks, components, &component);
        check(&p, &rt, denies);
        group.bench_function(name, |b| {
            b.iter_batched(
                || p.event.clone(),
                |event| rt.block_on(p.runtime.dispatch(event)),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn throughput(c: &mut Criterion) {
    let rt = one_core();
    let p = project(&wasm_hooks(1), "[]", 1, &guard());
    check(&p, &rt, true);
    let mut group = c.benchmark_group("throughput");
    group.throughput(Throughput::Elements(1));
    group.bench_function("one_wasm_hook_sequential", |b| {
        b.iter_batched(
            || p.event.clone(),
            |event| rt.block_on(p.runtime.dispatch(event)),
            BatchSize::SmallInput,
        )
    });
    const AT_ONCE: usize = 64;
    group.throughput(Throughput::Elements(AT_ONCE as u64));
    group.bench_function("one_wasm_hook_64_at_once", |b| {
        b.iter_batched(
            || vec![p.event.clone(); AT_ONCE],
            |events| {
                rt.block_on(futures_util::future::join_all(
                    events.into_iter().map(|e| p.runtime.dispatch(e)),
                ))
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, dispatch, throughput);
criterion_main!(benches);
