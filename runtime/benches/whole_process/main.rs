//! Whole-process benchmark: what an agent pays per event for `agenthooks run`
//! (nothing selected, one command hook, one cached wasm hook, ten *different*
//! cached wasm hooks, a compile-cache miss of every example component) next to
//! `/bin/true`, a hello-world Rust binary, the guard's own code compiled as a
//! native Rust command hook (the floor of a process per event), the same
//! guard written as python3, bash+jq and node command hooks, and the peers
//! `peers.rs` describes (agent-harness-adapter, cc-safety-net).
//!
//! Run it with `benches/whole-process.sh` (builds the example components and
//! the native guard and installs the peers first; `AGENTHOOKS_BENCH_BIN` times
//! another build of the binary instead, and `AGENTHOOKS_BENCH_BASELINE` (a
//! `:`-separated list of other builds) adds their `agenthooks` rows side by
//! side, to measure a change), or `cargo bench -p agenthooks --bench
//! whole_process -- [--runs N] [--warmup N] [--miss-runs N]`. Prints a
//! Markdown table: the median wall-clock time and the ratio to `/bin/true`,
//! the same through `sh -c` (agents start hooks through a shell) and the ratio
//! to `sh -c /bin/true`, p10/p90, and the median peak RSS of each command.
//! Each ratio is the median of per-round ratios (`paired_ratio`).
//!
//! Why not hyperfine: each command must get the event JSON on stdin, as an
//! agent gives it, and the hyperfine here (1.15) can only do that through a
//! shell, whose start would be counted too. This loop spawns each command
//! directly (as hyperfine `-N` does), with stdin opened on the event file, and
//! reaps it with `wait4`, which also gives that run's peak RSS. Commands are
//! run in rounds (one run of each per round), so a load spike from other work
//! on the machine hits all of them alike.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

mod measure;
mod peers;

use measure::{median_u64, output_of, run_once, shell, stats, Case};

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

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

/// What an example component is given to do its work, and what it must answer.
struct Example {
    /// Its name in `guest-examples/` (a `python-`/`js-` prefix for those builds).
    name: &'static str,
    tool: &'static str,
    input: serde_json::Value,
    /// `SessionStart` instead of `PreToolUse`.
    session_start: bool,
    /// Its `allow` grants in hooks.json.
    grants: serde_json::Value,
    expect: &'static str,
}

const DENY: &str = "\"permissionDecision\":\"deny\"";

fn examples() -> Vec<Example> {
    let bash = |command: &str| serde_json::json!({ "command": command });
    let read = serde_json::json!({"read": ["$CLAUDE_PROJECT_DIR"]});
    let none = serde_json::json!({});
    let guard = |name| Example {
        name,
        tool: "Bash",
        input: bash("rm -rf /"),
        session_start: false,
        grants: none.clone(),
        expect: DENY,
    };
    let paths = |name| Example {
        name,
        tool: "Write",
        input: serde_json::json!({"file_path": ".env", "content": "x"}),
        session_start: false,
        grants: none.clone(),
        expect: DENY,
    };
    vec![
        guard("dangerous-command-guard"),
        Example {
            name: "protected-branch-push",
            tool: "Bash",
            input: bash("git push origin main"),
            session_start: false,
            grants: read.clone(),
            expect: DENY,
        },
        paths("protected-paths"),
        Example {
            name: "session-branch-context",
            tool: "",
            input: serde_json::Value::Null,
            session_start: true,
            grants: read,
            expect: "current git branch: bench",
        },
        guard("python-dangerous-command-guard"),
        paths("python-protected-paths"),
        guard("js-dangerous-command-guard"),
        paths("js-protected-paths"),
    ]
}

/// Waits (at most 5 min) until no `agenthooks __compile-worker` process is
/// left: the background compiles a cache miss starts outlive its event.
fn wait_for_compile_workers() {
    let deadline = Instant::now() + Duration::from_secs(300);
    while Instant::now() < deadline && compile_workers_running() {
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn compile_workers_running() -> bool {
    let Ok(procs) = fs::read_dir("/proc") else {
        return false;
    };
    procs.flatten().any(|p| {
        fs::read(p.path().join("cmdline"))
            .is_ok_and(|c| c.windows(17).any(|w| w == b"__compile-worker\0"))
    })
}

/// `wasm` with one more custom section naming `variant`: a component that
/// runs the same code but is, byte for byte, a different component (its own
/// digest, compile-cache entry and mapping). Ten identical files would
/// measure one hook: `run` loads a compiled entry once per digest.
fn variant(wasm: &[u8], variant: usize) -> Vec<u8> {
    fn leb(mut n: usize, out: &mut Vec<u8>) {
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            out.push(if n == 0 { byte } else { byte | 0x80 });
            if n == 0 {
                break;
            }
        }
    }
    let name = b"agenthooks-bench-variant";
    let mut payload = Vec::new();
    leb(name.len(), &mut payload);
    payload.extend_from_slice(name);
    payload.extend_from_slice(variant.to_string().as_bytes());
    let mut out = wasm.to_vec();
    out.push(0); // custom section
    leb(payload.len(), &mut out);
    out.extend_from_slice(&payload);
    out
}

/// A copy of `bin` in `dir`, with the engine beside it when there is one
/// (a front hands events off to the engine next to itself): every build
/// timed starts from a file written the same way, as `cargo install` copies
/// it. The same binary started 0.4 ms slower from the linker's output in
/// `target/` than from a copy of it (the page cache holds the two files in
/// pages of different sizes, and each start faults them in).
fn installed_copy(bin: &Path, dir: &Path) -> PathBuf {
    fs::create_dir_all(dir).expect("mkdir");
    let engine = bin.with_file_name(format!("agenthooks-engine{}", std::env::consts::EXE_SUFFIX));
    if engine.is_file() && engine != bin {
        let to = dir.join(engine.file_name().expect("a file name"));
        fs::copy(&engine, to).expect("copy the engine");
    }
    let to = dir.join(bin.file_name().expect("a file name"));
    fs::copy(bin, &to).expect("copy the binary");
    to
}

fn main() {
    let opts = options();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // Another build of the binary (e.g. linked differently) can be compared.
    let agenthooks = std::env::var_os("AGENTHOOKS_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_agenthooks")));
    let components = std::env::var_os("AGENTHOOKS_BENCH_COMPONENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/wasm32-wasip2/release"));
    let guard = components.join("dangerous-command-guard.wasm");
    assert!(
        guard.is_file(),
        "no guard component at {} (run benches/whole-process.sh, which builds it)",
        guard.display()
    );
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path();
    let agenthooks = installed_copy(&agenthooks, &dir.join("bin"));

    // The event: a Bash command the guard denies, so every guard does all its work.
    let bash_rm = |cwd: &Path| {
        serde_json::json!({
            "session_id": "bench", "transcript_path": "/tmp/bench.jsonl",
            "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "rm -rf /"}, "tool_use_id": "toolu_bench"
        })
    };
    let deny = Some(DENY);

    let mut cases: Vec<Case> = Vec::new();
    let case_with = |name: &str,
                     program: PathBuf,
                     args: Vec<String>,
                     scenario: &str,
                     event: serde_json::Value,
                     expect: Option<&'static str>| {
        let base = dir.join(scenario);
        let stdin = base.join("event.json");
        write(&stdin, &event.to_string());
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
            through_shell: true,
            times: Vec::new(),
            rss_kib: Vec::new(),
            shell_times: Vec::new(),
        }
    };
    let case = |name: &str,
                program: PathBuf,
                args: Vec<String>,
                scenario: &str,
                expect: Option<&'static str>| {
        let event = bash_rm(&dir.join(scenario).join("proj"));
        case_with(name, program, args, scenario, event, expect)
    };
    let run = || vec!["run".to_string(), "--agent".into(), "claude".into()];
    let wasm_hooks = |n: usize| {
        let hooks: Vec<_> = (0..n)
            .map(|i| serde_json::json!({"type": "wasm", "component": format!(".agents/hooks/guard-{i}.wasm")}))
            .collect();
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}})
            .to_string()
    };
    // A project whose components are `guard-{i}.wasm`, each a different
    // variant of `component` when `different`, else copies of it.
    let project =
        |scenario: &str, hooks_json: &str, component: &Path, n: usize, different: bool| {
            let proj = dir.join(scenario).join("proj");
            write(&proj.join(".agents/hooks.json"), hooks_json);
            fs::create_dir_all(proj.join(".agents/hooks")).expect("mkdir");
            let bytes = fs::read(component).expect("the component");
            for i in 0..n {
                let bytes = if different {
                    variant(&bytes, i)
                } else {
                    bytes.clone()
                };
                fs::write(proj.join(format!(".agents/hooks/guard-{i}.wasm")), bytes).expect("copy");
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

    project("true", "{}", &guard, 0, false);
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
    // The guard's own code built natively (`cargo build --release -p
    // dangerous-command-guard`): a Claude Code command hook, what a process per
    // event costs at the least for this check.
    let native = std::env::var_os("AGENTHOOKS_BENCH_NATIVE_GUARD").map(PathBuf::from);
    if let Some(native) = native.filter(|p| p.is_file()) {
        cases.push(case(
            "native Rust command hook (the guard's code)",
            native,
            vec![],
            "true",
            deny,
        ));
    }

    // The hot rows, for this binary and (side by side, to measure a change)
    // each build listed in `AGENTHOOKS_BENCH_BASELINE`.
    let mut binaries = vec![(String::new(), agenthooks.clone())];
    // What `install` wires when some hook needs more than the front carries
    // (`cli/install.rs`): the same events, run by the engine directly.
    let engine =
        agenthooks.with_file_name(format!("agenthooks-engine{}", std::env::consts::EXE_SUFFIX));
    if engine.is_file() {
        binaries.push((" [agenthooks-engine]".to_string(), engine));
    }
    if let Some(list) = std::env::var_os("AGENTHOOKS_BENCH_BASELINE") {
        for (i, base) in std::env::split_paths(&list).enumerate() {
            let name = base.file_name().unwrap_or_default().to_string_lossy();
            let copy = installed_copy(&base, &dir.join(format!("baseline-{i}")));
            binaries.push((format!(" [{name}]"), copy));
        }
    }
    for (n, (label, bin)) in binaries.iter().enumerate() {
        // Nothing selected: a project with a wasm hook for another tool.
        let other_tool = wasm_hooks(1).replace("\"Bash\"", "\"Write\"");
        let none = format!("none{n}");
        project(&none, &other_tool, &guard, 1, false);
        cases.push(case(
            &format!("`agenthooks run`, nothing selected{label}"),
            bin.clone(),
            run(),
            &none,
            None,
        ));

        // One command hook `true`, in the user's own hooks.json (user hooks need no trust).
        let command = format!("command{n}");
        project(&command, "{}", &guard, 0, false);
        write(
            &dir.join(&command).join("home/.agents/hooks.json"),
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}"#,
        );
        cases.push(case(
            &format!("`agenthooks run`, one command hook (`true`){label}"),
            bin.clone(),
            run(),
            &command,
            None,
        ));

        let wasm1 = format!("wasm1-{n}");
        project(&wasm1, &wasm_hooks(1), &guard, 1, false);
        cases.push(case(
            &format!("`agenthooks run`, one wasm hook (the guard, cached){label}"),
            bin.clone(),
            run(),
            &wasm1,
            deny,
        ));
        let wasm10 = format!("wasm10-{n}");
        project(&wasm10, &wasm_hooks(10), &guard, 10, true);
        cases.push(case(
            &format!("`agenthooks run`, ten different wasm hooks (cached){label}"),
            bin.clone(),
            run(),
            &wasm10,
            deny,
        ));
    }

    // A compile-cache miss of each example component that was built, by each
    // binary (a packaged build's first compile is compared too): the event
    // waits for the compile (a timeout of 300 s).
    // `--miss-runs 0` leaves the misses out (each takes seconds).
    let examples = examples();
    let misses = binaries
        .iter()
        .enumerate()
        .flat_map(|(n, binary)| examples.iter().map(move |example| (n, binary, example)))
        .filter(|_| opts.miss_runs > 0);
    for (n, (label, bin), example) in misses {
        let component = components.join(format!("{}.wasm", example.name));
        if !component.is_file() {
            continue;
        }
        let scenario = format!("miss{n}-{}", example.name);
        let proj = dir.join(&scenario).join("proj");
        let hook = serde_json::json!({"type": "wasm", "component": ".agents/hooks/guard-0.wasm",
            "timeout": 300, "allow": example.grants});
        let (event_name, matcher) = if example.session_start {
            ("SessionStart", serde_json::json!({"hooks": [hook]}))
        } else {
            (
                "PreToolUse",
                serde_json::json!({"matcher": example.tool, "hooks": [hook]}),
            )
        };
        let hooks = serde_json::json!({"hooks": {event_name: [matcher]}}).to_string();
        // In the user's hooks.json, which needs no trust for its grants and timeout.
        project(&scenario, "{}", &component, 0, false);
        let home = dir.join(&scenario).join("home");
        write(&home.join(".agents/hooks.json"), &hooks);
        write(&proj.join(".git/HEAD"), "ref: refs/heads/bench\n");
        fs::create_dir_all(home.join(".agents/hooks")).expect("mkdir");
        fs::copy(&component, home.join(".agents/hooks/guard-0.wasm")).expect("copy");
        let mut event = serde_json::json!({
            "session_id": "bench", "transcript_path": "/tmp/bench.jsonl",
            "cwd": proj, "hook_event_name": event_name,
        });
        if example.session_start {
            event["source"] = "startup".into();
        } else {
            event["tool_name"] = example.tool.into();
            event["tool_input"] = example.input.clone();
            event["tool_use_id"] = "toolu_bench".into();
        }
        let kib = fs::metadata(&component).map(|m| m.len() >> 10).unwrap_or(0);
        cases.push(case_with(
            &format!(
                "`agenthooks run`, compile-cache miss: {} ({kib} KB){label}",
                example.name
            ),
            bin.clone(),
            run(),
            &scenario,
            event,
            Some(example.expect),
        ));
        let miss = cases.last_mut().expect("just pushed");
        miss.before = Some(dir.join(&scenario).join("cache"));
        miss.runs = opts.miss_runs;
        miss.through_shell = false;
    }

    project("peers", "{}", &guard, 0, false);
    peers::add(
        &mut cases,
        &peers::Setup {
            dir,
            root: &root,
            agenthooks: &agenthooks,
            case: &case,
            deny: DENY,
        },
    );

    // Each command's answer, once: the guards deny, the rest say nothing, and
    // `agenthooks` notes no trouble (a hook that failed would allow too).
    for c in &cases {
        let (out, err) = output_of(c);
        match c.expect {
            Some(want) => assert!(out.contains(want), "{}: {out} {err}", c.name),
            None => assert!(!out.contains("deny"), "{}: {out}", c.name),
        }
        if binaries.iter().any(|(_, bin)| *bin == c.program) {
            assert!(err.is_empty(), "{}: {err}", c.name);
        }
    }
    // Let the components settle so the compile-cache index records them.
    let copied = SystemTime::now();
    std::thread::sleep(SETTLE.saturating_sub(copied.elapsed().unwrap_or_default()));

    let load_before = shell("cut -d' ' -f1-3 /proc/loadavg");
    for c in &cases {
        for _ in 0..opts.warmup.min(c.runs) {
            run_once(c, false);
            if c.through_shell {
                run_once(c, true);
            }
        }
    }
    wait_for_compile_workers();
    let rounds = cases.iter().map(|c| c.runs).max().unwrap_or(0);
    for round in 0..rounds {
        for c in cases.iter_mut() {
            if round >= c.runs {
                continue;
            }
            if let Some(cache) = &c.before {
                let _ = fs::remove_dir_all(cache);
            }
            let (time, rss, code) = run_once(c, false);
            assert_eq!(code, 0, "{} exited {code}", c.name);
            c.times.push(time);
            c.rss_kib.push(rss);
            if c.before.is_some() {
                // A miss leaves a niced Cranelift compile running after the
                // answer; timing the next command beside it would measure
                // the machine's second core being busy, not that command.
                wait_for_compile_workers();
            }
            if c.through_shell {
                let (time, _, code) = run_once(c, true);
                assert_eq!(code, 0, "{} through sh -c exited {code}", c.name);
                c.shell_times.push(time);
            }
        }
    }
    let load_after = shell("cut -d' ' -f1-3 /proc/loadavg");

    println!(
        "| command | median | × `/bin/true` | through `sh -c` | × `sh -c /bin/true` | p10 – p90 | peak RSS | runs |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|"
    );
    let (base, base_shell) = (&cases[0].times, &cases[0].shell_times);
    for c in &cases {
        let (median, p10, p90) = stats(&c.times);
        let shell_cells = if c.shell_times.is_empty() {
            "— | —".to_string()
        } else {
            format!(
                "{:.2} ms | {:.2}×",
                stats(&c.shell_times).0,
                paired_ratio(&c.shell_times, base_shell)
            )
        };
        println!(
            "| {} | {median:.2} ms | {:.2}× | {shell_cells} | {p10:.2} – {p90:.2} ms | {:.1} MB | {} |",
            c.name,
            paired_ratio(&c.times, base),
            median_u64(&c.rss_kib) as f64 / 1024.0,
            c.times.len()
        );
    }
    println!();
    println!(
        "Machine: {} CPUs ({}), {} memory; load average {load_before} before, {load_after} after. \
         Each command spawned directly, and again through `sh -c` as agents start hooks, \
         event JSON on stdin; warmup {} runs each; runs interleaved in rounds; each × is the \
         median of the per-round ratios to `/bin/true` (to `sh -c /bin/true` through the shell).",
        shell("nproc"),
        shell("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'"),
        shell("free -h | awk '/^Mem:/ {print $2}'"),
        opts.warmup
    );
}

/// The median of `times[i] / base[i]`: each run paired with the baseline's
/// run of the same round, so load that comes and goes hits both alike.
fn paired_ratio(times: &[Duration], base: &[Duration]) -> f64 {
    let mut ratios: Vec<f64> = times
        .iter()
        .zip(base)
        .map(|(t, b)| t.as_secs_f64() / b.as_secs_f64().max(1e-9))
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN)
}
