//! Whole-process benchmark: what an agent pays per event for `agenthooks run`
//! (nothing selected, one command hook, one or ten cached wasm hooks, a
//! compile-cache miss) next to `/bin/true`, a hello-world Rust binary and the
//! same guard written as python3, bash+jq and node command hooks.
//!
//! Run it with `benches/whole-process.sh` (builds the guard component first;
//! `AGENTHOOKS_BENCH_BIN` times another build of the binary instead),
//! or `cargo bench -p agenthooks --bench whole_process -- [--runs N]
//! [--warmup N] [--miss-runs N]`. Prints a Markdown table: the median
//! wall-clock time, the ratio to `/bin/true`, p10/p90, and the median peak
//! RSS of each command.
//!
//! Why not hyperfine: each command must get the event JSON on stdin, as an
//! agent gives it, and the hyperfine here (1.15) can only do that through a
//! shell, whose start would be counted too. This loop spawns each command
//! directly (as hyperfine `-N` does), with stdin opened on the event file, and
//! reaps it with `wait4`, which also gives that run's peak RSS. Commands are
//! run in rounds (one run of each per round), so a load spike from other work
//! on the machine hits all of them alike.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// A component must be this much older than its first cached run for the
/// compile-cache index to record it (`exec/wasm/index.rs`, `SETTLE`, 3 s).
const SETTLE: Duration = Duration::from_millis(3500);

struct Options {
    runs: usize,
    warmup: usize,
    miss_runs: usize,
}

fn options() -> Options {
    let mut o = Options {
        runs: 200,
        warmup: 20,
        miss_runs: 10,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || -> usize {
            args.get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{} needs a number", args[i]))
        };
        match args[i].as_str() {
            "--runs" => o.runs = value(),
            "--warmup" => o.warmup = value(),
            "--miss-runs" => o.miss_runs = value(),
            // `cargo bench` passes `--bench`; anything else is ignored too.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

/// One command under test.
struct Case {
    name: String,
    program: PathBuf,
    args: Vec<String>,
    env: Vec<(String, PathBuf)>,
    stdin: PathBuf,
    /// Runs before each timed run (not timed): the cache-miss case empties the cache.
    before: Option<PathBuf>,
    /// What its stdout must contain (checked once before timing).
    expect: Option<&'static str>,
    runs: usize,
    times: Vec<Duration>,
    rss_kib: Vec<u64>,
}

/// Spawn once, stdin from the event file, and reap with `wait4`: the wall
/// time and the peak RSS (KiB) of that one process.
// The child is reaped by `wait4` (for its rusage), which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn run_once(case: &Case) -> (Duration, u64, i32) {
    let stdin = File::open(&case.stdin).expect("the event file");
    let mut command = Command::new(&case.program);
    command
        .args(&case.args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (k, v) in &case.env {
        command.env(k, v);
    }
    let start = Instant::now();
    let child = command.spawn().expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet reaped (`Child` never waits on drop);
    // `status` and `usage` are valid for writes.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = start.elapsed();
    assert_eq!(reaped, pid, "wait4 failed");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (elapsed, usage.ru_maxrss as u64, code)
}

/// The command's stdout, once, for the sanity check.
fn output_of(case: &Case) -> String {
    let mut command = Command::new(&case.program);
    command
        .args(&case.args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(File::open(&case.stdin).expect("the event file"));
    for (k, v) in &case.env {
        command.env(k, v);
    }
    let out = command.output().expect("run");
    assert!(out.status.success(), "{} failed: {:?}", case.name, out);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// The interpreter itself, not a version manager's shim script in front of
/// it (pyenv's `python3` is a bash script that would be timed too).
fn real_python() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    path.is_file().then_some(path)
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

fn stats(v: &[Duration]) -> (f64, f64, f64) {
    let mut v: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.1), at(0.9))
}

fn median_u64(v: &[u64]) -> u64 {
    let mut v = v.to_vec();
    v.sort_unstable();
    v[v.len() / 2]
}

fn shell(cmd: &str) -> String {
    Command::new("sh")
        .args(["-c", cmd])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn main() {
    let opts = options();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // Another build of the binary (e.g. linked differently) can be compared.
    let agenthooks = std::env::var_os("AGENTHOOKS_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_agenthooks")));
    let guard = std::env::var_os("AGENTHOOKS_BENCH_GUARD")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/wasm32-wasip2/release/dangerous-command-guard.wasm"));
    assert!(
        guard.is_file(),
        "no guard component at {} (build it: cargo build --release --target \
         wasm32-wasip2 -p dangerous-command-guard, or run benches/whole-process.sh)",
        guard.display()
    );
    let peers = root.join("benches/peers");
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path();

    // The event: a Bash command the guard denies, so every guard does all its work.
    let event = |cwd: &Path| {
        serde_json::json!({
            "session_id": "bench", "transcript_path": "/tmp/bench.jsonl",
            "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "rm -rf /"}, "tool_use_id": "toolu_bench"
        })
        .to_string()
    };
    let deny = Some("\"permissionDecision\":\"deny\"");

    let mut cases: Vec<Case> = Vec::new();
    let case = |name: &str,
                program: PathBuf,
                args: Vec<String>,
                scenario: &str,
                expect: Option<&'static str>| {
        let base = dir.join(scenario);
        let stdin = base.join("event.json");
        write(&stdin, &event(&base.join("proj")));
        Case {
            name: name.to_string(),
            program,
            args,
            env: vec![
                ("HOME".into(), base.join("home")),
                ("XDG_CACHE_HOME".into(), base.join("cache")),
                ("XDG_DATA_HOME".into(), base.join("data")),
            ],
            stdin,
            before: None,
            expect,
            runs: opts.runs,
            times: Vec::new(),
            rss_kib: Vec::new(),
        }
    };
    let run = || vec!["run".to_string(), "--agent".into(), "claude".into()];
    let wasm_hooks = |n: usize| {
        let hooks: Vec<_> = (0..n)
            .map(|i| serde_json::json!({"type": "wasm", "component": format!(".agents/hooks/guard-{i}.wasm")}))
            .collect();
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}})
            .to_string()
    };
    let project = |scenario: &str, hooks_json: &str, components: usize| {
        let proj = dir.join(scenario).join("proj");
        write(&proj.join(".agents/hooks.json"), hooks_json);
        fs::create_dir_all(proj.join(".agents/hooks")).expect("mkdir");
        for i in 0..components {
            fs::copy(&guard, proj.join(format!(".agents/hooks/guard-{i}.wasm"))).expect("copy");
        }
        fs::create_dir_all(dir.join(scenario).join("home")).expect("mkdir");
    };

    let hello = dir.join("hello");
    let hello_built = Command::new("rustc")
        .args(["-O", "-o"])
        .arg(&hello)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .expect("piped")
                .write_all(b"fn main() { println!(\"hello\"); }")?;
            c.wait()
        })
        .is_ok_and(|s| s.success());

    project("true", "{}", 0);
    cases.push(case(
        "`/bin/true`",
        "/bin/true".into(),
        vec![],
        "true",
        None,
    ));
    if hello_built {
        cases.push(case(
            "hello-world Rust binary",
            hello.clone(),
            vec![],
            "true",
            None,
        ));
    }

    // Nothing selected: a project with a wasm hook for another tool.
    let other_tool = wasm_hooks(1).replace("\"Bash\"", "\"Write\"");
    project("none", &other_tool, 1);
    cases.push(case(
        "`agenthooks run`, nothing selected",
        agenthooks.clone(),
        run(),
        "none",
        None,
    ));

    // One command hook `true`, in the user's own hooks.json (user hooks need no trust).
    project("command", "{}", 0);
    write(
        &dir.join("command/home/.agents/hooks.json"),
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}"#,
    );
    cases.push(case(
        "`agenthooks run`, one command hook (`true`)",
        agenthooks.clone(),
        run(),
        "command",
        None,
    ));

    project("wasm1", &wasm_hooks(1), 1);
    cases.push(case(
        "`agenthooks run`, one wasm hook (the guard, cached)",
        agenthooks.clone(),
        run(),
        "wasm1",
        deny,
    ));
    project("wasm10", &wasm_hooks(10), 10);
    cases.push(case(
        "`agenthooks run`, ten wasm hooks (cached)",
        agenthooks.clone(),
        run(),
        "wasm10",
        deny,
    ));
    project("miss", &wasm_hooks(1), 1);
    cases.push(case(
        "`agenthooks run`, one wasm hook, compile-cache miss",
        agenthooks.clone(),
        run(),
        "miss",
        deny,
    ));
    let miss = cases.last_mut().expect("just pushed");
    miss.before = Some(dir.join("miss/cache"));
    miss.runs = opts.miss_runs;

    project("peers", "{}", 0);
    if let Some(python) = real_python() {
        let script = peers.join("guard.py").display().to_string();
        cases.push(case(
            "python3 command hook",
            python,
            vec![script],
            "peers",
            deny,
        ));
    }
    if let (Some(bash), Some(_jq)) = (which("bash"), which("jq")) {
        let script = peers.join("guard.sh").display().to_string();
        cases.push(case(
            "bash + jq command hook",
            bash,
            vec![script],
            "peers",
            deny,
        ));
    }
    if let Some(node) = which("node") {
        let script = peers.join("guard.js").display().to_string();
        cases.push(case("node command hook", node, vec![script], "peers", deny));
    }

    // Each command's answer, once: the guards deny, the rest say nothing.
    for c in &cases {
        let out = output_of(c);
        match c.expect {
            Some(want) => assert!(out.contains(want), "{}: {out}", c.name),
            None => assert!(!out.contains("deny"), "{}: {out}", c.name),
        }
    }
    // Let the components settle so the compile-cache index records them.
    let copied = SystemTime::now();
    std::thread::sleep(SETTLE.saturating_sub(copied.elapsed().unwrap_or_default()));

    let load_before = shell("cut -d' ' -f1-3 /proc/loadavg");
    for c in &cases {
        for _ in 0..opts.warmup.min(c.runs) {
            run_once(c);
        }
    }
    let rounds = cases.iter().map(|c| c.runs).max().unwrap_or(0);
    for round in 0..rounds {
        for c in cases.iter_mut() {
            if round >= c.runs {
                continue;
            }
            if let Some(cache) = &c.before {
                let _ = fs::remove_dir_all(cache);
            }
            let (time, rss, code) = run_once(c);
            assert_eq!(code, 0, "{} exited {code}", c.name);
            c.times.push(time);
            c.rss_kib.push(rss);
        }
    }
    let load_after = shell("cut -d' ' -f1-3 /proc/loadavg");

    let baseline = stats(&cases[0].times).0;
    println!(
        "| command | median | × `/bin/true` | p10 – p90 | peak RSS | runs |\n|---|---:|---:|---:|---:|---:|"
    );
    for c in &cases {
        let (median, p10, p90) = stats(&c.times);
        println!(
            "| {} | {median:.2} ms | {:.1}× | {p10:.2} – {p90:.2} ms | {:.1} MB | {} |",
            c.name,
            median / baseline,
            median_u64(&c.rss_kib) as f64 / 1024.0,
            c.times.len()
        );
    }
    println!();
    println!(
        "Machine: {} CPUs ({}), {} memory; load average {load_before} before, {load_after} after. \
         Warmup {} runs each; runs interleaved in rounds.",
        shell("nproc"),
        shell("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'"),
        shell("free -h | awk '/^Mem:/ {print $2}'"),
        opts.warmup
    );
}
