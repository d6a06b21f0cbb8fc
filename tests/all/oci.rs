//! `oci://` components against a real registry: Debian's `docker-registry`
//! (the CNCF distribution registry). `.ci/registry.sh start` runs one on
//! 127.0.0.1 and exports `AGENTHOOKS_TEST_REGISTRY`; the tests that must
//! stop a registry or corrupt its storage start their own private one with
//! the same binary. Without them a test skips with a printed reason, except
//! under `CI=true`, where a missing registry fails the test.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::util::{hooks, Ran, TempProject};
use crate::wasm::guest;

/// What the `deny` guest says when it runs.
const DENIED: &str = "denied by the wasm guest";

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Skip (or, under CI, fail) for `why`.
fn unavailable(why: &str) -> Option<String> {
    assert!(
        !in_ci(),
        "CI=true, but {why}: `.ci/run` starts the registry with `.ci/registry.sh start`"
    );
    eprintln!("skipped: {why} (run `eval \"$(.ci/registry.sh start)\"` first)");
    None
}

/// The shared registry `.ci/registry.sh start` runs (`host:port`).
fn shared() -> Option<String> {
    match std::env::var("AGENTHOOKS_TEST_REGISTRY") {
        Ok(addr) if !addr.is_empty() => Some(addr),
        _ => unavailable("AGENTHOOKS_TEST_REGISTRY is not set"),
    }
}

/// The shared registry and a fresh project to use it from.
fn shared_project() -> Option<(String, TempProject)> {
    shared().map(|addr| (addr, TempProject::new()))
}

/// A registry of this test's own, stopped (and its storage removed) on drop.
struct Private {
    addr: String,
    storage: PathBuf,
    child: Option<Child>,
    _dir: tempfile::TempDir,
}

impl Private {
    fn start() -> Option<Private> {
        let bin = std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join("docker-registry"))
                .find(|p| p.is_file())
        });
        let Some(bin) = bin else {
            unavailable("`docker-registry` is not installed")?;
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr = format!("127.0.0.1:{port}");
        let storage = dir.path().join("storage");
        let config = dir.path().join("config.yml");
        std::fs::write(
            &config,
            format!(
                "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: {addr}\n",
                storage.display()
            ),
        )
        .unwrap();
        let child = std::process::Command::new(bin)
            .arg("serve")
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let registry = Private {
            addr,
            storage,
            child: Some(child),
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&registry.addr).is_err() {
            assert!(Instant::now() < deadline, "docker-registry did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(registry)
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The registry's copy of the blob `digest` (`sha256:…`).
    fn blob(&self, digest: &str) -> PathBuf {
        let hex = digest.strip_prefix("sha256:").unwrap();
        self.storage
            .join("docker/registry/v2/blobs/sha256")
            .join(&hex[..2])
            .join(hex)
            .join("data")
    }
}

impl Drop for Private {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `agenthooks ARGS` in `p`, with no registry credentials of the machine's.
fn ah(p: &TempProject, args: &[&str]) -> Ran {
    let mut cmd = p.cmd(args);
    cmd.env_remove("REGISTRY_AUTH_FILE")
        .env_remove("DOCKER_CONFIG")
        .env_remove("XDG_RUNTIME_DIR");
    p.output(cmd, "")
}

fn ok(ran: &Ran) -> &Ran {
    assert_eq!(
        ran.code(),
        0,
        "stdout: {}\nstderr: {}",
        ran.stdout(),
        ran.stderr()
    );
    ran
}

/// A unique repository for one test (tests share the CI registry).
fn repo(addr: &str, name: &str) -> String {
    format!("oci://{addr}/agenthooks-test/{name}-{}", std::process::id())
}

/// Publish `component` as `reference`; the digest reference it printed.
fn publish(p: &TempProject, component: &Path, reference: &str) -> String {
    let ran = ah(p, &["publish", component.to_str().unwrap(), reference]);
    let printed = ok(&ran).stdout().trim().to_string();
    let (base, _) = reference.rsplit_once(':').unwrap();
    assert!(
        printed.starts_with(&format!("{base}@sha256:")) && printed.len() == base.len() + 72,
        "{printed}"
    );
    printed
}

/// A PreToolUse Bash hook running the component `reference`.
fn wasm_hook(reference: &str, extra: Value) -> Value {
    let mut handler = json!({"type": "wasm", "component": reference});
    if let (Some(h), Value::Object(extra)) = (handler.as_object_mut(), extra) {
        h.extend(extra);
    }
    hooks("PreToolUse", "Bash", json!([handler]))
}

fn decision(ran: &Ran) -> Value {
    ran.json()["hookSpecificOutput"]["permissionDecision"].clone()
}

fn lock_file(p: &TempProject) -> PathBuf {
    p.path(".agents/hooks.lock.json")
}

fn cached_blobs(p: &TempProject) -> Vec<PathBuf> {
    let dir = p.home.join(".cache/agenthooks/oci/blobs/sha256");
    std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

#[test]
fn publish_lock_pull_then_run_by_tag_and_by_digest() {
    let Some((addr, p)) = shared_project() else {
        return;
    };
    let tag = format!("{}:v1", repo(&addr, "guard"));
    let by_digest = publish(&p, &guest("deny"), &tag);
    // Publishing is deterministic: the same component gives the same digest.
    assert_eq!(publish(&p, &guest("deny"), &tag), by_digest);

    p.project_hooks(&wasm_hook(&tag, json!({})));
    // Not locked, not pulled: `run` allows with one line saying what to do,
    // and `check` reports it.
    let ran = p.run(&p.bash("git push"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.decided(), Value::Null);
    let line = ran.stderr();
    assert!(
        line.contains("is a tag with no entry in") && line.contains("run `agenthooks pull`"),
        "{line}"
    );
    let check = ah(&p, &["check"]);
    assert_eq!(check.code(), 1);
    assert!(
        check.stdout().contains("run `agenthooks pull`"),
        "{}",
        check.stdout()
    );

    // `lock` pins the tag; a second `lock` writes the same bytes.
    let locked = ok(&ah(&p, &["lock"])).stdout();
    let manifest = by_digest.rsplit_once('@').unwrap().1;
    assert!(
        locked.contains(&format!("{tag}: locked to {manifest}")),
        "{locked}"
    );
    let bytes = std::fs::read(lock_file(&p)).unwrap();
    let lock: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(lock["components"][&tag]["manifest"], manifest);
    ok(&ah(&p, &["lock"]));
    assert_eq!(std::fs::read(lock_file(&p)).unwrap(), bytes);
    // Locked, not pulled yet.
    let ran = p.run(&p.bash("git push"));
    assert!(
        ran.stderr().contains("is not in the cache"),
        "{}",
        ran.stderr()
    );

    let pulled = ok(&ah(&p, &["pull"])).stdout();
    assert!(
        pulled.contains(&format!("{tag}: pulled sha256:")),
        "{pulled}"
    );
    let again = ok(&ah(&p, &["pull"])).stdout();
    assert!(again.contains("already in the cache"), "{again}");
    assert_eq!(cached_blobs(&p).len(), 1);
    let ran = p.run(&p.bash("git push"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
    assert!(ran.stdout().contains(DENIED));
    ok(&ah(&p, &["check"]));

    // By digest, from the user's file: pulled without a lock entry.
    let q = TempProject::new();
    q.user_hooks(&wasm_hook(&by_digest, json!({})));
    let ran = q.run(&q.bash("git push"));
    assert!(
        ran.stderr().contains("is not in the cache"),
        "{}",
        ran.stderr()
    );
    let pulled = ok(&ah(&q, &["pull"])).stdout();
    assert!(pulled.contains("pulled sha256:"), "{pulled}");
    assert!(!q.home.join(".agents/hooks.lock.json").exists());
    let ran = q.run(&q.bash("git push"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
}

/// `lock` drops the entry of a reference its `hooks.json` no longer names,
/// and leaves the lock file of a `hooks.json` that does not load alone.
#[test]
fn lock_drops_what_hooks_json_no_longer_names() {
    let Some((addr, p)) = shared_project() else {
        return;
    };
    let one = format!("{}:v1", repo(&addr, "prune-one"));
    let two = format!("{}:v1", repo(&addr, "prune-two"));
    publish(&p, &guest("deny"), &one);
    publish(&p, &guest("deny"), &two);
    let both = hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": one}, {"type": "wasm", "component": two}]),
    );
    p.project_hooks(&both);
    ok(&ah(&p, &["lock"]));
    let entries = |p: &TempProject| -> Vec<String> {
        let lock: Value = serde_json::from_slice(&std::fs::read(lock_file(p)).unwrap()).unwrap();
        lock["components"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(entries(&p), [one.clone(), two.clone()]);

    // A broken hooks.json: its references are unknown, so nothing is dropped.
    let before = std::fs::read(lock_file(&p)).unwrap();
    p.write(".agents/hooks.json", "{ not json");
    let ran = ah(&p, &["lock"]);
    assert!(!ran.stdout().contains("dropped"), "{}", ran.stdout());
    assert_eq!(std::fs::read(lock_file(&p)).unwrap(), before);

    // One reference left: the other's entry goes, said in one line.
    p.project_hooks(&wasm_hook(&one, json!({})));
    let ran = ok(&ah(&p, &["lock"])).stdout();
    assert!(
        ran.contains(&format!("{two}: no longer in `")) && ran.contains("; dropped from `"),
        "{ran}"
    );
    assert_eq!(entries(&p), [one]);
    // Nothing more to drop: the bytes stay.
    let bytes = std::fs::read(lock_file(&p)).unwrap();
    let again = ok(&ah(&p, &["lock"])).stdout();
    assert!(!again.contains("dropped"), "{again}");
    assert_eq!(std::fs::read(lock_file(&p)).unwrap(), bytes);

    // Refused by the managed policy: not locked, but its entry is kept
    // (the policy may allow it again).
    p.managed_hooks(&json!({"allowedComponents": [format!("oci://{addr}/elsewhere")]}));
    let ran = ah(&p, &["lock"]);
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    assert!(!ran.stdout().contains("dropped"), "{}", ran.stdout());
    assert_eq!(std::fs::read(lock_file(&p)).unwrap(), bytes);
}

#[test]
fn a_component_not_pulled_fails_closed_when_the_hook_asks() {
    let Some((addr, p)) = shared_project() else {
        return;
    };
    let tag = format!("{}:v1", repo(&addr, "closed"));
    p.project_hooks(&wasm_hook(&tag, json!({"onError": "deny"})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stdout());
    assert!(
        ran.stdout().contains("run `agenthooks pull`"),
        "{}",
        ran.stdout()
    );
    // Nothing published under that tag: pull says so on one line, exit 1.
    let pulled = ah(&p, &["pull"]);
    assert_eq!(pulled.code(), 1);
    let out = pulled.stdout();
    assert!(out.contains(&format!("{tag}: failed: ")), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
}

#[test]
fn run_uses_the_pinned_digest_offline_after_the_registry_stopped() {
    let Some(mut registry) = Private::start() else {
        return;
    };
    let p = TempProject::new();
    let tag = format!("oci://{}/org/guard:v1", registry.addr);
    publish(&p, &guest("deny"), &tag);
    p.project_hooks(&wasm_hook(&tag, json!({})));
    let pulled = ok(&ah(&p, &["pull"])).stdout();
    assert!(pulled.contains("locked to sha256:"), "{pulled}");
    // The tag moves on the registry; the lock keeps the pinned bytes.
    publish(&p, &guest("guest_err"), &tag);
    let ran = p.run(&p.bash("git push"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());

    registry.stop();
    let ran = p.run(&p.bash("git push"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
    assert!(ran.stdout().contains(DENIED));
    // `lock` needs the registry: one line per reference, exit 1.
    let locked = ah(&p, &["lock"]);
    assert_eq!(locked.code(), 1);
    assert!(
        locked.stdout().contains(&format!("{tag}: failed: ")),
        "{}",
        locked.stdout()
    );
    assert_eq!(locked.stdout().lines().count(), 1, "{}", locked.stdout());
}

#[test]
fn a_blob_changed_on_the_registry_or_in_the_cache_is_refused() {
    let Some(registry) = Private::start() else {
        return;
    };
    let p = TempProject::new();
    let tag = format!("oci://{}/org/guard:v1", registry.addr);
    publish(&p, &guest("deny"), &tag);
    p.project_hooks(&wasm_hook(&tag, json!({})));
    ok(&ah(&p, &["lock"]));
    let lock: Value = serde_json::from_slice(&std::fs::read(lock_file(&p)).unwrap()).unwrap();
    let component = lock["components"][&tag]["component"]
        .as_str()
        .unwrap()
        .to_string();

    // The registry's copy changes under the same digest (same length).
    let blob = registry.blob(&component);
    let good = std::fs::read(&blob).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0xff;
    std::fs::write(&blob, &bad).unwrap();
    let pulled = ah(&p, &["pull"]);
    assert_eq!(pulled.code(), 1, "{}", pulled.stdout());
    assert!(pulled.stdout().contains("refused"), "{}", pulled.stdout());
    assert!(cached_blobs(&p).is_empty(), "{:?}", cached_blobs(&p));
    let ran = p.run(&p.bash("git push"));
    assert_eq!(ran.decided(), serde_json::Value::Null);
    assert!(
        ran.stderr().contains("run `agenthooks pull`"),
        "{}",
        ran.stderr()
    );

    // Restored: pulled. Then the cached copy is swapped for another
    // component: never run, whatever the compile cache holds.
    std::fs::write(&blob, &good).unwrap();
    ok(&ah(&p, &["pull"]));
    let ran = p.run(&p.bash("git push"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
    let cached = &cached_blobs(&p)[0];
    std::fs::copy(guest("guest_err"), cached).unwrap();
    let ran = p.run(&p.bash("git push"));
    assert_eq!(ran.stdout(), "", "{}", ran.stderr());
    assert!(
        ran.stderr()
            .contains(&format!("is not the pinned {component}")),
        "{}",
        ran.stderr()
    );
    // `pull` puts the pinned bytes back.
    ok(&ah(&p, &["pull"]));
    let ran = p.run(&p.bash("git push"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
}

#[test]
fn a_registry_the_managed_policy_does_not_allow_is_refused_at_pull_and_run() {
    let Some((addr, p)) = shared_project() else {
        return;
    };
    let allowed = format!("{}:v1", repo(&addr, "vetted/guard"));
    let other = format!("{}:v1", repo(&addr, "unvetted/guard"));
    publish(&p, &guest("deny"), &allowed);
    publish(&p, &guest("deny"), &other);
    let vetted = allowed.rsplit_once("/guard").unwrap().0.to_string();
    p.managed_hooks(&json!({"allowedComponents": [vetted]}));

    p.project_hooks(&wasm_hook(&other, json!({})));
    let pulled = ah(&p, &["pull"]);
    assert_eq!(pulled.code(), 1, "{}", pulled.stdout());
    assert!(
        pulled
            .stderr()
            .contains("is not from a source the managed policy"),
        "{}",
        pulled.stderr()
    );
    assert!(cached_blobs(&p).is_empty());
    let ran = p.run(&p.bash("git push"));
    assert_eq!(ran.decided(), Value::Null);
    assert!(
        ran.stderr().contains("is not from a source"),
        "{}",
        ran.stderr()
    );

    // The same component from the allowed repository is pulled and runs.
    p.project_hooks(&wasm_hook(&allowed, json!({})));
    ok(&ah(&p, &["pull"]));
    let ran = p.run(&p.bash("git push"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
}

/// `agenthooks add oci://…` (issue 26, item 6): merged into the user's file
/// with its bytes kept, pinned in the lock file and pulled, then it runs.
#[test]
fn add_an_oci_component_merges_pins_and_pulls_it() {
    let Some((addr, p)) = shared_project() else {
        return;
    };
    let tag = format!("{}:v1", repo(&addr, "added"));
    let by_digest = publish(&p, &guest("deny"), &tag);
    let user = "{\n    \"onError\": \"allow\",\n    \"hooks\": {}\n}\n";
    p.write(".agents/hooks.json", user);
    let added = ok(&ah(&p, &["add", &tag, "--matcher", "Bash", "--quiet"])).stdout();
    assert!(
        added.contains(&format!("`{tag}` on PreToolUse `Bash`")),
        "{added}"
    );
    assert!(added.contains(&format!("{tag}: pulled sha256:")), "{added}");
    let text = std::fs::read_to_string(p.path(".agents/hooks.json")).unwrap();
    assert!(
        text.starts_with("{\n    \"onError\": \"allow\",\n    \"hooks\": {"),
        "{text}"
    );
    let lock: Value = serde_json::from_slice(&std::fs::read(lock_file(&p)).unwrap()).unwrap();
    let manifest = by_digest.rsplit_once('@').unwrap().1;
    assert_eq!(lock["components"][&tag]["manifest"], manifest);
    let ran = p.run(&p.bash("git push"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stderr());
    // Added again: the file stays as it is.
    let again = ok(&ah(&p, &["add", &tag, "--matcher", "Bash", "-q"])).stdout();
    assert!(again.contains("already in"), "{again}");
    assert_eq!(
        std::fs::read_to_string(p.path(".agents/hooks.json")).unwrap(),
        text
    );
}
