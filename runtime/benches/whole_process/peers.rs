//! The peers' rows: the guard as python3, bash+jq and node command hooks
//! (`benches/peers/`), and, when `benches/whole-process.sh` could install
//! them, the closest competitor and a published guard:
//!
//! - `agent-harness-adapter` (crates.io; `AGENTHOOKS_BENCH_PEER_ADAPTER`, its
//!   binary): it runs a `.agents/hooks.json` in Claude Code's format as
//!   `agent-harness-adapter hook --hooks <file> claude pre-tool`, what it
//!   installs into Claude Code's settings; timed in the same projects as
//!   `agenthooks run` (nothing selected, one command hook `true`);
//! - `cc-safety-net` (npm; `AGENTHOOKS_BENCH_PEER_GUARD`, its script, run by
//!   node): alone, as Claude Code runs it (`hook --claude-code`), and as a
//!   command hook under `agenthooks run` and under the competitor.

use std::path::{Path, PathBuf};

use crate::measure::{real_python, which, Case};

/// Makes a case: name, program, arguments, scenario, what stdout must contain.
pub type MakeCase<'a> = &'a dyn Fn(&str, PathBuf, Vec<String>, &str, Option<&'static str>) -> Case;

/// What the peers' rows are made with.
pub struct Setup<'a> {
    /// The suite's temporary directory (one subdirectory per scenario).
    pub dir: &'a Path,
    /// The repository, for `benches/peers/`.
    pub root: &'a Path,
    /// The `agenthooks` binary under test.
    pub agenthooks: &'a Path,
    pub case: MakeCase<'a>,
    /// What a denying guard's answer contains.
    pub deny: &'static str,
}

/// The scenario of `agenthooks run`'s nothing-selected row (this binary's).
pub const NOTHING_SELECTED: &str = "none0";
/// The scenario of `agenthooks run`'s one-command-hook row.
pub const ONE_COMMAND: &str = "command0";

/// Append the peers' rows to `cases`, each only when its program is there.
pub fn add(cases: &mut Vec<Case>, s: &Setup) {
    let peers = s.root.join("benches/peers");
    let deny = Some(s.deny);
    if let Some(python) = real_python() {
        let script = peers.join("guard.py").display().to_string();
        cases.push((s.case)(
            "python3 command hook",
            python,
            vec![script],
            "peers",
            deny,
        ));
    }
    if let (Some(bash), Some(_jq)) = (which("bash"), which("jq")) {
        let script = peers.join("guard.sh").display().to_string();
        cases.push((s.case)(
            "bash + jq command hook",
            bash,
            vec![script],
            "peers",
            deny,
        ));
    }
    let node = which("node");
    if let Some(node) = &node {
        let script = peers.join("guard.js").display().to_string();
        cases.push((s.case)(
            "node command hook",
            node.clone(),
            vec![script],
            "peers",
            deny,
        ));
    }

    let adapter = peer("AGENTHOOKS_BENCH_PEER_ADAPTER");
    let home_hooks = |scenario: &str| s.dir.join(scenario).join("home/.agents/hooks.json");
    let project_hooks = |scenario: &str| s.dir.join(scenario).join("proj/.agents/hooks.json");
    let adapter_args = |hooks: PathBuf| {
        ["hook", "--hooks"]
            .into_iter()
            .map(String::from)
            .chain([
                hooks.display().to_string(),
                "claude".into(),
                "pre-tool".into(),
            ])
            .collect::<Vec<_>>()
    };
    if let Some(adapter) = &adapter {
        cases.push((s.case)(
            "`agent-harness-adapter hook`, nothing selected",
            adapter.clone(),
            adapter_args(project_hooks(NOTHING_SELECTED)),
            NOTHING_SELECTED,
            None,
        ));
        cases.push((s.case)(
            "`agent-harness-adapter hook`, one command hook (`true`)",
            adapter.clone(),
            adapter_args(home_hooks(ONE_COMMAND)),
            ONE_COMMAND,
            None,
        ));
    }

    let (Some(guard), Some(node)) = (peer("AGENTHOOKS_BENCH_PEER_GUARD"), node) else {
        return;
    };
    // Claude Code's own way to run it: `node <script> hook --claude-code`.
    let args = vec![
        guard.display().to_string(),
        "hook".into(),
        "--claude-code".into(),
    ];
    let command_line = std::iter::once(node.display().to_string())
        .chain(args.iter().cloned())
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let hooks = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": command_line}]}]}});
    let scenario = "published-guard";
    crate::write(&home_hooks(scenario), &hooks.to_string());
    std::fs::create_dir_all(s.dir.join(scenario).join("proj")).expect("mkdir");
    cases.push((s.case)(
        "cc-safety-net alone (node)",
        node,
        args,
        scenario,
        deny,
    ));
    cases.push((s.case)(
        "`agenthooks run`, cc-safety-net as a command hook",
        s.agenthooks.to_path_buf(),
        vec!["run".into(), "--agent".into(), "claude".into()],
        scenario,
        deny,
    ));
    if let Some(adapter) = adapter {
        cases.push((s.case)(
            "`agent-harness-adapter hook`, cc-safety-net as a command hook",
            adapter,
            adapter_args(home_hooks(scenario)),
            scenario,
            deny,
        ));
    }
}

/// The file an environment variable names, when it is one.
fn peer(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_file())
}
