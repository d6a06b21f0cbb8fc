//! `agenthooks check`: the linter. It reads `.agents/hooks.json` (managed,
//! user and project) and what each installed agent cannot do with it.
//!
//! Guarantees: its exit code depends on the files alone, so CI can gate
//! on it: 1 when a hook in them cannot run in any clone (an entry that
//! does not load, an unknown event or handler type, a value of the wrong
//! type, a bad regex, a missing script or one without its executable bit,
//! a missing or invalid component, an MCP server no file defines), else 0;
//! `--strict` also fails on warnings (what an installed agent will not do
//! with a hook: an event it never fires, a matcher none of its tools
//! match, entries that fell behind, a variable only Claude Code sets).
//! This machine's trust, pull and compile state are notes: that is
//! `status`'s business, and the same verdicts ([`super::findings`]) say it.

use std::io::{self, Read as _, Write as _};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;

use super::findings::{self, About, HookState, Machine, Reason};
use super::{EXIT_FINDING, EXIT_OK};
use crate::agents::{Agent, Caps, NativeRead};
use crate::config::{self, Handler, HandlerKind, LoadOptions, Scope};
use crate::exec::wasm::WasmHost;
use crate::fsread::{self, ReadError};
use crate::install::{self, Env};
use crate::protocol::one_line;
use crate::trust::TrustStore;

/// The canonical tool names a hook can see from an agent (`fire` uses it).
pub(crate) use super::findings::tool_names;

/// `agenthooks check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Also fail (exit 1) on warnings, not only on errors.
    #[arg(long)]
    pub strict: bool,
}

/// What `check` found, in the order it prints.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// A `hooks.json` could not be read at all (exit 2, whatever else).
    pub unreadable: bool,
    /// Problems in the hooks files: a hook that cannot run in any clone (exit 1).
    pub errors: Vec<String>,
    /// What an installed agent will not do with the hooks (exit 1 with `--strict`).
    pub warnings: Vec<String>,
    /// Worth knowing, not a problem of the files: this machine's trust,
    /// pull and compile state, handler types agenthooks skips, ...
    pub notes: Vec<String>,
}

impl Findings {
    /// The exit code: 1 on an error (or, `strict`, a warning), else 0.
    pub fn exit_code(&self, strict: bool) -> u8 {
        if self.unreadable {
            super::EXIT_ERROR
        } else if !self.errors.is_empty() || (strict && !self.warnings.is_empty()) {
            EXIT_FINDING
        } else {
            EXIT_OK
        }
    }

    /// The last line: the counts, and what they mean for the exit code.
    pub fn summary(&self, strict: bool) -> String {
        let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        match (self.errors.len(), self.warnings.len()) {
            (0, 0) => "check: no problems found".to_string(),
            (0, w) if !strict => format!(
                "check: no errors; {} (`check --strict` fails on them)",
                count(w, "warning")
            ),
            (e, w) => format!(
                "check: {} ({}, {})",
                count(e + w, "problem"),
                count(e, "error"),
                count(w, "warning")
            ),
        }
    }
}

/// Run `check` in the working directory.
///
/// # Errors
/// No working directory or home.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let env = Env::from_process()?;
    let root = install::project_root(&cwd);
    let (store, store_note) = TrustStore::load();
    let mut found = check(&root, &env, &store);
    // The trust store is this machine's, not the files': a note.
    if let Some(note) = store_note {
        found.notes.push(note.to_string());
    }
    let mut out = io::stdout().lock();
    let paint = super::paint::Paint::stdout();
    for line in &found.errors {
        writeln!(out, "{}: {}", paint.error(), one_line(line))?;
    }
    for line in &found.warnings {
        writeln!(out, "{}: {}", paint.warning(), one_line(line))?;
    }
    for line in &found.notes {
        writeln!(out, "note: {}", one_line(line))?;
    }
    writeln!(out, "{}", found.summary(args.strict))?;
    Ok(ExitCode::from(found.exit_code(args.strict)))
}

/// Everything `check` reports for the project at `root`, with this
/// machine's trust store (whose verdicts are notes).
pub fn check(root: &Path, env: &Env, store: &TrustStore) -> Findings {
    let config = config::load(&LoadOptions {
        home: Some(env.home.clone()),
        project_root: Some(root.to_path_buf()),
    });
    let machine = Machine {
        root,
        env,
        store,
        host: WasmHost::global(),
        recent: &|_| None,
    };
    let verdicts = findings::verdicts(&config, &machine);
    let agents: Vec<&'static dyn Agent> = verdicts.agents.iter().map(|a| a.agent).collect();
    // Whatever `run` would only warn about is an error here; the entries it
    // skipped are hooks, said with their verdicts below.
    let mut found = Findings {
        errors: (config.warnings.iter())
            .filter(|w| !findings::is_hook_entry(w))
            .map(ToString::to_string)
            .collect(),
        unreadable: super::input_exit(&config) == Some(super::EXIT_ERROR),
        ..Findings::default()
    };
    for h in &verdicts.hooks {
        hook_findings(h, !agents.is_empty(), &mut found);
    }
    let unwired = (verdicts.hooks.iter()).find_map(|h| {
        h.reasons
            .iter()
            .find(|r| matches!(r, Reason::NotWired { .. }))
    });
    if let Some(reason) = unwired {
        found.notes.push(format!(
            "on this machine: {}; {}",
            reason.why(),
            reason.fix_text()
        ));
    }
    found.notes.extend(scope_notes(&config.handlers));
    for double in crate::import::twice::doubles(&agents, &config, root, env) {
        found.warnings.push(double.line(root, &env.home));
    }
    let switched_off = (verdicts.agents.iter().flat_map(|a| &a.reasons))
        .filter(|r| matches!(r, Reason::SwitchedOff { .. }));
    for reason in switched_off {
        found
            .warnings
            .push(format!("{}; {}", reason.why(), reason.fix_text()));
    }
    for agent in &agents {
        agent_findings(*agent, &config.handlers, &mut found);
        for reason in super::findings::also_run_by(*agent) {
            found
                .notes
                .push(format!("{}: {}", agent.display_name(), reason.why()));
        }
        for plugin in install::plugin_dir::installed(*agent, env) {
            let reason = Reason::PluginToo {
                agent: agent.id(),
                plugin,
            };
            found
                .warnings
                .push(format!("{}; {}", reason.why(), reason.fix_text()));
        }
    }
    for agent in &agents {
        if let Some(drift) = install::drift(*agent, &config, Some(root), env) {
            found.warnings.push(drift.to_string());
        }
    }
    native_reader_findings(&config.files, root, env, &agents, &mut found);
    if config.managed.is_none() {
        let system: Vec<_> = install::installed(Scope::Managed, root, env)
            .iter()
            .map(|a| a.id())
            .collect();
        if !system.is_empty() {
            found.notes.push(format!(
                "agenthooks is installed in the system-wide files of {}, but there is no managed policy (`{}`): only the users' and projects' hooks run",
                system.join(", "),
                config::managed_file().display()
            ));
        }
    }
    for (host, other, also) in crate::agents::double_loads(&agents) {
        found
            .notes
            .push(crate::agents::double_load_note(host, other, also, true));
    }
    found
}

/// What `check` says of one hook's verdict: a reason about the files is an
/// error (a matcher a warning: which tools there are depends on the agents
/// wired), one about this machine a note; the lints of its own (a
/// component's bytes, a variable only Claude Code sets) besides.
fn hook_findings(h: &HookState, wired: bool, found: &mut Findings) {
    let at = where_(h);
    for reason in &h.reasons {
        let line = || format!("{at}: {}; {}", reason.why(), reason.fix_text());
        match reason {
            // The bytes of a component are judged below, with more to say.
            Reason::ComponentMissing { .. } | Reason::ComponentBroken { .. } => {}
            // Said per agent (`agent_findings`, the drift, the doubles).
            Reason::StaleWiring { .. } | Reason::NoAgentFires { .. } | Reason::RunsTwice { .. } => {
            }
            Reason::MatchesNoTool { .. } if wired => {}
            Reason::MatchesNoTool { .. } => found.warnings.push(line()),
            // Parsed (a pasted settings block keeps them), not run: not a problem.
            Reason::Unsupported { kind } => found.notes.push(format!(
                "{at}: `{kind}` handlers are skipped by agenthooks until it supports them"
            )),
            // Said once for all hooks, by `check` itself.
            Reason::NotWired { .. } => {}
            _ if reason.about() == About::Files => found.errors.push(line()),
            _ => found.notes.push(format!(
                "{at}: on this machine: {}; {}",
                reason.why(),
                reason.fix_text()
            )),
        }
    }
    let Some(h) = h.hook.handler() else {
        return;
    };
    match &h.kind {
        HandlerKind::Wasm(spec) => {
            // An `oci://` component not locked fails at run time as this
            // (the lock file is the project's); one not pulled yet is this
            // machine's cache, a note above.
            let problem = match spec.oci.as_ref().map(|o| (o, &o.pin)) {
                Some((oci, Err(why))) => Some(
                    crate::protocol::Failure::OciNotPulled {
                        reference: oci.reference.to_string(),
                        why: why.to_string(),
                    }
                    .to_string(),
                ),
                Some(_) => None,
                None => {
                    // Where the hook's own tree starts: the project, or the
                    // directory holding `.agents/` (the home).
                    let tree = h
                        .project_root
                        .as_deref()
                        .or_else(|| h.file.parent().and_then(Path::parent));
                    component_problem(&spec.component, tree)
                }
            };
            if let Some(problem) = problem {
                found.errors.push(format!("{at}: {problem}"));
            }
        }
        HandlerKind::Command(spec) => {
            for (var, fix) in config::claude_env::claude_only_used(&spec.command) {
                found.warnings.push(format!(
                    "{at}: uses `${var}`, which only Claude Code sets (agenthooks cannot \
                     derive it, so it is empty in other agents); {fix}"
                ));
            }
        }
        _ => {}
    }
}

/// The project's `.agents/hooks.json` as each agent that reads that path
/// itself sees it ([`Agent::reads_hooks_file`]; Antigravity, whose
/// named-hook schema reads a Claude-shaped file of command hooks as one hook
/// named `hooks` and runs it natively, unsandboxed and past the trust gate).
/// A warning where that agent is in use (its folder under the home, or our
/// entry installed), a note elsewhere; and where it ignores the file (as it
/// should) but has no entry of ours, what to install so the hooks still run
/// there.
fn native_reader_findings(
    files: &[std::path::PathBuf],
    root: &Path,
    env: &Env,
    installed: &[&'static dyn Agent],
    found: &mut Findings,
) {
    let detected = install::detected(Scope::User, root, env);
    let project_files: Vec<(&std::path::PathBuf, serde_json::Value)> = files
        .iter()
        .filter(|f| f.starts_with(root))
        .filter_map(|f| {
            let bytes = fsread::read_bounded(f, fsread::caps::HOOKS_JSON).ok()?;
            Some((f, serde_json::from_slice(&bytes).ok()?))
        })
        .collect();
    for agent in crate::agents::AGENTS {
        let has_entry = installed.iter().any(|a| a.id() == agent.id());
        let in_use = has_entry || detected.iter().any(|a| a.id() == agent.id());
        let name = agent.display_name();
        for (file, value) in &project_files {
            let file = file.display();
            match agent.reads_hooks_file(value) {
                Some(NativeRead::Runs(n)) if n > 0 => {
                    let line = format!(
                        "`{file}`: {name} reads this file itself and would run its {n} command hook{} natively, outside agenthooks' trust gate and sandbox; add `\"$schema\": \"agenthooks\"` at its top so {name} ignores it (docs/agents.md: {name})",
                        if n == 1 { "" } else { "s" }
                    );
                    if in_use {
                        found.warnings.push(line);
                    } else {
                        found.notes.push(line);
                    }
                }
                Some(NativeRead::Ignores) if in_use && !has_entry => found.warnings.push(format!(
                    "`{file}`: {name} ignores this file (its loader rejects agenthooks' format), so its hooks run in {name} only through agenthooks: `agenthooks install {} --user`",
                    agent.id()
                )),
                _ => {}
            }
        }
    }
}

/// Why a component file cannot be run, if it cannot: one line naming the
/// file, what is wrong and what to do. `tree`: where the hook's own files
/// start (the project); only a `target/` below it is a build directory, not
/// one in the path to the project itself.
fn component_problem(path: &Path, tree: Option<&Path>) -> Option<String> {
    let shown = path.display();
    let build = "build it with `agenthooks build` (or your own build, then `agenthooks compile`)";
    // Only the magic bytes, through a bounded open: a FIFO or a 2 GiB file
    // is a finding, not a hang.
    let mut magic = Vec::with_capacity(8);
    let read = match fsread::open_bounded(path, fsread::caps::COMPONENT) {
        Ok((file, _)) => file.take(8).read_to_end(&mut magic),
        Err(ReadError::NotFound { .. }) => {
            return Some(format!(
                "component `{shown}` does not exist; {build}, or fix the path"
            ))
        }
        Err(e) => return Some(format!("component {e}")),
    };
    if let Err(e) = read {
        return Some(format!("component `{shown}` cannot be read: {e}"));
    }
    match magic[..] {
        [0, b'a', b's', b'm', _, _, 1, 0] => {}
        [0, b'a', b's', b'm', 1, 0, 0, 0] => {
            return Some(format!(
                "`{shown}` is a core wasm module, not a component; build for wasm32-wasip2 (or run `wasm-tools component new`)"
            ))
        }
        _ => return Some(format!("`{shown}` is not a WebAssembly component; {build}")),
    }
    // A build directory is not committed: a teammate's clone has no component there.
    // Outside the hook's tree (the OCI cache, another checkout) a clone
    // would not have it either way: only a `target/` below the tree is ours.
    let inside = match tree {
        Some(tree) => path.strip_prefix(tree).ok(),
        None => Some(path),
    };
    if inside.is_some_and(|p| p.components().any(|c| c.as_os_str() == "target")) {
        return Some(format!(
            "component `{shown}` is inside a build directory (`target/`), which is not committed, so a fresh clone has no component there; put it beside hooks.json (`agenthooks build` does)"
        ));
    }
    None
}

fn agent_findings(agent: &dyn Agent, handlers: &[Handler], found: &mut Findings) {
    let name = agent.display_name();
    let table = agent.table();
    // What install registers: a decode-only event never reaches the runtime.
    let events: Vec<_> = table.installed().map(|r| r.canonical).collect();
    let tools = tool_names(agent);
    let mut noted = Vec::new();
    if !crate::agents::shows_status_message(agent.install_spec()) {
        let with: Vec<&str> = handlers
            .iter()
            .filter(|h| h.status_message.is_some() && events.contains(&h.event))
            .map(|h| h.label.as_str())
            .collect();
        if let Some(first) = with.first() {
            let more = match with.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            found.notes.push(format!(
                "{name} does not show a hook's `statusMessage` (set by {first}{more}); it runs without one there"
            ));
        }
    }
    for h in handlers {
        let at = where_handler(h);
        if !events.contains(&h.event) {
            found.warnings.push(format!(
                "{at}: never runs in {name}, which has no `{}` event agenthooks can register",
                h.event.as_str()
            ));
            continue;
        }
        let rows: Vec<_> = table
            .installed()
            .filter(|r| r.canonical == h.event)
            .collect();
        if rows.iter().all(|r| r.caps == Caps::NONE) && !noted.contains(&h.event) {
            noted.push(h.event);
            found.notes.push(format!(
                "{name} ignores every answer to `{}` (observe only): hooks there can log, not decide",
                h.event.as_str()
            ));
        }
        if let Some(tools) = &tools {
            found.warnings.extend(matcher_warning(h, name, tools));
        }
    }
}

/// The warning for a tool event's matcher that matches none of `tools`
/// (the agent `name`'s, as hooks see them), with a did-you-mean.
fn matcher_warning(h: &Handler, name: &str, tools: &[&str]) -> Option<String> {
    let hint = findings::matcher_problem(h, tools)?;
    Some(format!(
        "{}: matcher `{}` matches no tool {name} has{hint} (as hooks see them: {})",
        where_handler(h),
        h.matcher,
        tools.join(", ")
    ))
}

/// The most hooks a scope note names; the rest are counted.
const NAMED_PER_FILE: usize = 8;

/// One note per file that declared hooks: its scope, the file and the hooks
/// it declared (the first [`NAMED_PER_FILE`]), in declaration order
/// (managed, user, project), so `check` shows where each hook comes from.
fn scope_notes(handlers: &[Handler]) -> Vec<String> {
    let mut notes = Vec::new();
    let mut rest = handlers;
    while let Some(first) = rest.first() {
        let n = rest
            .iter()
            .take_while(|h| h.scope == first.scope && h.file == first.file)
            .count();
        let (these, after) = rest.split_at(n);
        let mut named: Vec<String> = these
            .iter()
            .take(NAMED_PER_FILE)
            .map(|h| format!("{} on {}", h.label, h.event.as_str()))
            .collect();
        if n > NAMED_PER_FILE {
            named.push(format!("and {} more", n - NAMED_PER_FILE));
        }
        notes.push(format!(
            "{} scope `{}`: {n} hook{}: {}",
            first.scope,
            first.file.display(),
            if n == 1 { "" } else { "s" },
            named.join(", ")
        ));
        rest = after;
    }
    notes
}

/// Where a finding is: the hook's file and scope, its event and label (or
/// the entry that was not loaded).
fn where_(h: &HookState) -> String {
    let hook = &h.hook;
    match hook.handler() {
        Some(handler) => where_handler(handler),
        None => format!(
            "`{}` ({}): {}",
            hook.file().display(),
            hook.scope(),
            hook.label()
        ),
    }
}

/// [`where_`] of a loaded handler.
fn where_handler(h: &Handler) -> String {
    format!(
        "`{}` ({}): {} {}",
        h.file.display(),
        h.scope,
        h.event.as_str(),
        h.label
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn component_problems_are_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        std::fs::write(p("c.wasm"), [0, b'a', b's', b'm', 0x0d, 0, 1, 0]).unwrap();
        std::fs::write(p("m.wasm"), [0, b'a', b's', b'm', 1, 0, 0, 0]).unwrap();
        std::fs::write(p("t.wasm"), b"hello").unwrap();
        let problem = |path: &Path| component_problem(path, Some(dir.path()));
        assert_eq!(problem(&p("c.wasm")), None);
        assert!(problem(&p("m.wasm")).unwrap().contains("core wasm module"));
        assert!(problem(&p("t.wasm"))
            .unwrap()
            .contains("not a WebAssembly component"));
        let missing = problem(&p("none.wasm")).unwrap();
        assert!(missing.contains("does not exist"), "{missing}");
        assert!(missing.contains("agenthooks build"), "{missing}");
        let is_dir = problem(dir.path()).unwrap();
        assert!(is_dir.contains("a directory"), "{is_dir}");
        std::fs::create_dir_all(p("target/wasm32-wasip2/release")).unwrap();
        let built = p("target/wasm32-wasip2/release/g.wasm");
        std::fs::copy(p("c.wasm"), &built).unwrap();
        let ignored = problem(&built).unwrap();
        assert!(ignored.contains("inside a build directory"), "{ignored}");
        // A project that itself lives under a directory named `target`
        // (a CI build directory, say) has no build directory of its own.
        let project = p("target/work/project");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::copy(p("c.wasm"), project.join("g.wasm")).unwrap();
        assert_eq!(
            component_problem(&project.join("g.wasm"), Some(&project)),
            None
        );
    }

    #[cfg(unix)]
    #[test]
    fn hostile_components_are_findings_not_hangs() {
        let (dir, fifo) = crate::fsread::temp_fifo("f.wasm");
        let problem = component_problem(&fifo, None).unwrap();
        assert!(
            problem.contains("is a FIFO, not a regular file"),
            "{problem}"
        );
        let big = dir.path().join("big.wasm");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(2 << 30)
            .unwrap();
        let problem = component_problem(&big, None).unwrap();
        assert!(
            problem.contains("over the 67108864-byte limit"),
            "{problem}"
        );
    }
}
