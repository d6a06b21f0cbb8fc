//! Compiling is inside the handler's deadline (issue 9, items 1 and 5): a
//! component the cache does not hold is compiled by a background worker the
//! event waits on only until the handler's timeout; a failed compile is
//! remembered; an oversized component is refused unread; a cache entry runs
//! only for the component it was compiled from; a low `RLIMIT_FSIZE` does
//! not kill `run`.
//!
//! The compile bomb is generated here with `wasm-encoder`: a core module of
//! many long functions full of live values (slow to register-allocate),
//! wrapped as a component. It does not implement the hook world, so once
//! compiled it fails to link, quickly: that is how a test tells "loaded from
//! the cache" from "still compiling".

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use wasm_encoder::{
    CodeSection, Component, Function, FunctionSection, InstanceSection, Instruction, Module,
    ModuleArg, ModuleSection, TypeSection, ValType,
};

use crate::util::{eventually, hooks, Ran, TempProject};

/// Functions in the bomb, and statements in each (about 10 bytes each): a
/// 1 MB component that takes about 10 s to compile in a debug build (36 s on
/// a loaded 2-core machine), 3.5 MB compiled.
const BOMB_FUNCS: u32 = 16;
const BOMB_STMTS: u32 = 6000;
const PARAMS: u32 = 8;
const LOCALS: u32 = 96;

/// A component whose one core module has `funcs` functions of `stmts`
/// statements; with `invalid_last`, the last function does not validate.
fn component(funcs: u32, stmts: u32, invalid_last: bool) -> Vec<u8> {
    let mut types = TypeSection::new();
    types
        .ty()
        .function(vec![ValType::I64; PARAMS as usize], [ValType::I64]);
    let mut functions = FunctionSection::new();
    let mut code = CodeSection::new();
    for f in 0..funcs {
        functions.function(0);
        let mut body = Function::new([(LOCALS, ValType::I64)]);
        let all = PARAMS + LOCALS;
        // Every local starts from a parameter, so nothing folds to a constant.
        for l in PARAMS..all {
            body.instruction(&Instruction::LocalGet(l % PARAMS));
            body.instruction(&Instruction::I64Const(i64::from(l + f)));
            body.instruction(&Instruction::I64Add);
            body.instruction(&Instruction::LocalSet(l));
        }
        for j in 0..stmts {
            body.instruction(&Instruction::LocalGet((j * 7) % all));
            body.instruction(&Instruction::LocalGet((j * 13 + 1) % all));
            body.instruction(&Instruction::I64Mul);
            body.instruction(&Instruction::LocalGet((j * 5 + 3) % all));
            body.instruction(&Instruction::I64Xor);
            body.instruction(&Instruction::LocalSet(PARAMS + (j * 11) % LOCALS));
        }
        if invalid_last && f == funcs - 1 {
            // An add with nothing on the stack: a validation error.
            body.instruction(&Instruction::Drop);
            body.instruction(&Instruction::Drop);
            body.instruction(&Instruction::I64Add);
        }
        body.instruction(&Instruction::LocalGet(PARAMS));
        body.instruction(&Instruction::End);
        code.function(&body);
    }
    let mut module = Module::new();
    module.section(&types).section(&functions).section(&code);
    let mut instances = InstanceSection::new();
    instances.instantiate(0, Vec::<(&str, ModuleArg)>::new());
    let mut component = Component::new();
    component
        .section(&ModuleSection(&module))
        .section(&instances);
    component.finish()
}

/// The compile bomb, written into the project.
fn bomb(p: &TempProject, name: &str, invalid_last: bool) -> PathBuf {
    p.write(
        &format!(".agents/{name}"),
        component(BOMB_FUNCS, BOMB_STMTS, invalid_last),
    )
}

/// The compile cache of `p`'s runs.
fn cache(p: &TempProject) -> PathBuf {
    p.home.join(".cache/agenthooks")
}

/// A user-scope PreToolUse wasm hook on `component` with `extra` settings.
fn wasm_hook(p: &TempProject, component: &Path, extra: Value) {
    let mut h = json!({"type": "wasm", "component": component});
    if let (Some(h), Value::Object(extra)) = (h.as_object_mut(), extra) {
        h.extend(extra);
    }
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([h])));
}

fn run(p: &TempProject) -> Ran {
    p.run(&p.bash("ls"))
}

/// Whether the cache holds an entry, or a failure record, for the component.
fn settled_in_cache(p: &TempProject, component: &Path) -> bool {
    let digest = hex(&Sha256::digest(std::fs::read(component).unwrap()));
    let has = |dir: PathBuf| {
        std::fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(&digest))
        })
    };
    has(cache(p)) || has(cache(p).join("failed"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn decision(ran: &Ran) -> Value {
    ran.json()["hookSpecificOutput"]["permissionDecision"].clone()
}

/// How long the worker may take to finish the bomb in a debug build on a
/// busy 2-core machine; only a bound for polling, not a measurement.
const WORKER_DONE: Duration = Duration::from_secs(600);

#[test]
fn a_compile_bomb_is_answered_in_time_and_then_runs_from_the_cache() {
    let p = TempProject::new();
    let component = bomb(&p, "bomb.wasm", false);
    let one_second = Duration::from_secs(1);

    // Failing closed: denied in time, with the still-compiling note.
    wasm_hook(&p, &component, json!({"timeout": 1, "onError": "deny"}));
    let ran = run(&p);
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_stderr_contains("still compiling (");
    ran.assert_stderr_contains("run `agenthooks compile` to warm the cache");
    assert_eq!(decision(&ran), "deny", "{}", ran.stdout());
    ran.assert_took_less_than(one_second + Duration::from_secs(1));

    // Failing open, while the first worker still compiles: allowed in time.
    wasm_hook(&p, &component, json!({"timeout": 1}));
    let ran = run(&p);
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    if !settled_in_cache(&p, &component) {
        ran.assert_stderr_contains("still compiling (");
        assert_eq!(decision(&ran), Value::Null, "{}", ran.stdout());
    }
    ran.assert_took_less_than(one_second + Duration::from_secs(1));

    assert!(
        eventually(WORKER_DONE, || settled_in_cache(&p, &component)),
        "the background compile never filled the cache"
    );
    // From the cache now: it loads, and fails to link (it is no hook). The
    // timeout leaves a debug build time to verify the entry; compiling
    // again would take far longer.
    wasm_hook(&p, &component, json!({"timeout": 10}));
    let ran = run(&p);
    let stderr = ran.stderr();
    assert!(!stderr.contains("still compiling"), "{stderr}");
    ran.assert_stderr_contains("does not implement the `agenthooks:hook` world");
}

#[test]
fn a_failed_compile_is_remembered() {
    let p = TempProject::new();
    let component = bomb(&p, "invalid.wasm", true);
    wasm_hook(&p, &component, json!({"timeout": 1}));
    let first = run(&p);
    assert_eq!(first.code(), 0, "{}", first.stderr());
    first.assert_took_less_than(Duration::from_secs(2));
    assert!(
        eventually(WORKER_DONE, || settled_in_cache(&p, &component)),
        "the background compile never ended"
    );
    // Every later event fails at once with wasmtime's reason, not compiling again.
    wasm_hook(&p, &component, json!({"timeout": 10}));
    for _ in 0..2 {
        let ran = run(&p);
        let stderr = ran.stderr();
        assert!(!stderr.contains("still compiling"), "{stderr}");
        ran.assert_stderr_contains("is not a WebAssembly component");
        ran.assert_stderr_contains("invalid.wasm");
    }
}

#[test]
fn a_sparse_2_gib_component_is_refused_unread() {
    let p = TempProject::new();
    let component = p.path(".agents/z.wasm");
    std::fs::File::create(&component)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    wasm_hook(&p, &component, json!({"timeout": 5}));
    let time = Path::new("/usr/bin/time");
    let (ran, peak_kib) = if time.exists() {
        let mut cmd = assert_cmd::Command::from_std(p.isolated(time));
        cmd.args(["-v", crate::util::bin(), "run", "--agent", "claude"])
            .timeout(Duration::from_secs(60));
        let ran = p.output(cmd, p.bash("ls").to_string());
        let peak = ran
            .stderr()
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("Maximum resident set size (kbytes): ")
            })
            .and_then(|v| v.trim().parse::<u64>().ok());
        (ran, peak)
    } else {
        (run(&p), None)
    };
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_stderr_contains("z.wasm");
    ran.assert_stderr_contains("over the 67108864-byte (64 MiB) limit");
    ran.assert_took_less_than(Duration::from_secs(5));
    if let Some(kib) = peak_kib {
        assert!(kib < 200 << 10, "peak RSS {kib} KiB");
    }
}

#[test]
fn a_core_module_is_refused_by_its_magic() {
    let p = TempProject::new();
    let component = p.write(".agents/core.wasm", b"\0asm\x01\0\0\0");
    wasm_hook(&p, &component, json!({}));
    let ran = run(&p);
    ran.assert_stderr_contains("core wasm module");
}

/// The `deny` test guest and another (`guest_err`), compiled into `p`'s cache.
fn two_guests(p: &TempProject) -> (PathBuf, PathBuf) {
    let deny = super::wasm::guest("deny");
    let other = super::wasm::guest("guest_err");
    let out = p
        .cmd(["compile".as_ref(), deny.as_os_str(), other.as_os_str()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    (deny, other)
}

/// The cache entry of `component` in `p`'s cache.
fn entry_of(p: &TempProject, component: &Path) -> PathBuf {
    let digest = hex(&Sha256::digest(std::fs::read(component).unwrap()));
    std::fs::read_dir(cache(p))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|e| {
            e.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&digest))
        })
        .unwrap_or_else(|| panic!("no entry for {}", component.display()))
}

#[test]
fn a_forged_cache_entry_is_refused_and_rebuilt() {
    let p = TempProject::new();
    let (deny, other) = two_guests(&p);
    let guard = entry_of(&p, &deny);
    std::fs::copy(entry_of(&p, &other), &guard).unwrap();
    // No index record points at the copy: the entry is looked up by key.
    let _ = std::fs::remove_dir_all(cache(&p).join("index"));
    wasm_hook(&p, &deny, json!({"timeout": 60}));
    let ran = run(&p);
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
    // Rebuilt: the entry under the guard's key is the guard's again.
    let ran = run(&p);
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
    assert_ne!(
        std::fs::read(&guard).unwrap(),
        std::fs::read(entry_of(&p, &other)).unwrap()
    );
}

#[cfg(unix)]
#[test]
fn a_low_file_size_limit_does_not_kill_run() {
    use std::os::unix::process::CommandExt;
    let p = TempProject::new();
    let deny = super::wasm::guest("deny");
    wasm_hook(&p, &deny, json!({"timeout": 60}));
    let mut cmd = p.isolated(crate::util::bin());
    cmd.args(["run", "--agent", "claude"]);
    // SAFETY: setrlimit between fork and exec, async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 4096,
                rlim_max: 4096,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            Ok(())
        });
    }
    let mut cmd = assert_cmd::Command::from_std(cmd);
    cmd.timeout(Duration::from_secs(120));
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(
        ran.output.status.code(),
        Some(0),
        "{:?}: {}",
        ran.output.status,
        ran.stderr()
    );
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
}

#[test]
fn in_process_a_cold_compile_is_bounded_by_the_deadline() {
    use agenthooks::config::{Grants, Handler, HandlerKind, OnError, Scope, WasmSpec};
    use agenthooks::exec::wasm::{CacheDir, WasmHost, GRACE};
    use agenthooks::exec::ExecContext;
    use agenthooks::protocol::{Event, EventName, Failure, Outcome};
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("bomb.wasm");
    std::fs::write(&path, component(BOMB_FUNCS, BOMB_STMTS, false)).unwrap();
    let spec = WasmSpec {
        component: path.clone(),
        oci: None,
        limits: agenthooks::config::Limits::DEFAULT,
        allow: Grants::default(),
    };
    let timeout = Duration::from_secs(1);
    let handler = Handler {
        event: EventName::PreToolUse,
        matcher: agenthooks::select::Matcher::All,
        if_: None,
        kind: HandlerKind::Wasm(spec.clone()),
        timeout,
        on_error: OnError::Allow,
        scope: Scope::User,
        file: PathBuf::from("hooks.json"),
        project_root: None,
        label: "bomb".into(),
        status_message: None,
        once: false,
    };
    let event = Event::new(
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "ls"}}),
        None,
        "claude",
    )
    .unwrap();
    let host = WasmHost::new(CacheDir::at(tmp.path().join("cache")));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let ctx = ExecContext::default();
    let start = Instant::now();
    let report = rt.block_on(host.run(&handler, &spec, &event, &ctx));
    let took = start.elapsed();
    assert!(
        matches!(
            report.outcome,
            Outcome::Failed(Failure::StillCompiling { .. })
        ),
        "{:?}",
        report.outcome
    );
    assert!(took < timeout + GRACE + Duration::from_secs(1), "{took:?}");
    // The compile went on; a second event, sharing it, gets the same answer in time.
    let report = rt.block_on(host.run(&handler, &spec, &event, &ctx));
    assert!(
        matches!(
            report.outcome,
            Outcome::Failed(Failure::StillCompiling { .. } | Failure::WrongWorld { .. })
        ),
        "{:?}",
        report.outcome
    );
    rt.shutdown_background();
}
