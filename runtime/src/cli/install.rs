//! `agenthooks install A… [--user | --system] [--dry-run] [--all-detected]` and
//! `agenthooks uninstall A… [--user | --system] [--dry-run] [--all-installed]`.
//!
//! `--system` writes each agent's own system-wide (managed, enterprise) hooks
//! file, which its users cannot switch off ([`crate::agents::SystemFile`]);
//! its entries call this binary by absolute path with `run --system`, which
//! runs the managed policy (`/etc/agenthooks/hooks.json`) with the user's and
//! the project's hooks, while the agent's user and project entries step aside.
//!
//! Prints one line per file (`created`, `updated`, `unchanged`, `removed`,
//! `restored`), after an install the step the agent itself still needs before
//! it runs the hooks (trust them there, switch hooks on, ...: its install
//! spec's `after_install`), one line per refusal on stderr, and exits 1 when
//! any agent could not be changed.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_ERROR, EXIT_OK};
use crate::agents::{self, Agent};
use crate::config::{self, Scope};
use crate::install::{self, Action, Env, FileChange, Request, Status};

/// `agenthooks install`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agents to install into: `claude`, `codex`, `gemini`, ... (see `agenthooks agents`).
    #[arg(value_name = "AGENT", required_unless_present = "all_detected")]
    pub agents: Vec<String>,
    /// Which config, and whether to write it.
    #[command(flatten)]
    pub target: Target,
    /// Every agent whose config folder exists in the project (or under `$HOME`
    /// with `--user`, or whose system folder exists with `--system`).
    #[arg(long)]
    pub all_detected: bool,
    /// Name this binary by its absolute path in the project's files too (by
    /// default they call `agenthooks` from `PATH`, so they work on every
    /// machine that has it; `--user` files always use the absolute path).
    #[arg(long)]
    pub absolute: bool,
    /// Do not wait, with progress on the terminal, for the compiles that
    /// warm the cache (they go on in the background either way).
    #[arg(long, short)]
    pub quiet: bool,
}

/// The options `install` and `uninstall` share.
#[derive(Debug, clap::Args)]
pub struct Target {
    /// Change the user-level config (under `$HOME`) instead of the project's.
    #[arg(long, conflicts_with = "system")]
    pub user: bool,
    /// Change each agent's system-wide (managed) hooks file, for every user
    /// of the machine (run as root / administrator).
    #[arg(long)]
    pub system: bool,
    /// Print what would change as a unified diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `agenthooks uninstall`.
#[derive(Debug, clap::Args)]
pub struct UninstallArgs {
    /// The agents to remove agenthooks from.
    #[arg(value_name = "AGENT", required_unless_present = "all_installed")]
    pub agents: Vec<String>,
    /// Which config, and whether to write it.
    #[command(flatten)]
    pub target: Target,
    /// Every agent that has agenthooks entries at this scope.
    #[arg(long)]
    pub all_installed: bool,
    /// Leave the hooks `import --move` took out of the agents' files in
    /// `.agents/hooks.json` (by default they go back into those files).
    #[arg(long)]
    pub keep_moved: bool,
}

/// Run `install`.
///
/// # Errors
/// Bad usage (an unknown agent) or no working directory / home.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ctx = Ctx::new(args.target.scope(), args.absolute, false)?;
    let detected = args
        .all_detected
        .then(|| install::detected(ctx.scope, &ctx.root, &ctx.env));
    let agents = chosen(&args.agents, detected.into_iter().flatten())?;
    if args.all_detected && agents.is_empty() {
        writeln!(
            io::stdout(),
            "no agent config folder found in `{}`",
            ctx.show(ctx.base())
        )?;
        return Ok(ExitCode::from(EXIT_OK));
    }
    ctx.warn_about_binary();
    let code = ctx.each(&agents, Action::Install, args.target.dry_run)?;
    if ctx.scope == Scope::Managed {
        // Compiling into root's cache would help nobody; the trust offer is
        // about a project.
        note_managed_policy(&mut io::stdout().lock(), &config::managed_file())?;
        return Ok(code);
    }
    let mut warming = Vec::new();
    if !args.target.dry_run {
        let root = (ctx.scope == Scope::Project).then(|| ctx.root.clone());
        warming = super::compile::warm_in_background(&mut io::stdout().lock(), root)?;
    }
    if ctx.scope == Scope::Project && !args.target.dry_run {
        // On a terminal, offer to trust the project's hooks after showing
        // them, as `agenthooks trust` does (docs/design.md §8); else say they wait.
        let mut out = io::stdout().lock();
        if !super::trust::offer(&ctx.root, Some(ctx.env.home.clone()), &mut out)? {
            ctx.note_untrusted(&mut out)?;
        }
    }
    io::stdout().flush()?;
    super::compile::wait_on_a_terminal(&warming, args.quiet);
    Ok(code)
}

/// Run `uninstall`.
///
/// # Errors
/// Bad usage (an unknown agent) or no working directory / home.
pub fn run_uninstall(args: UninstallArgs) -> anyhow::Result<ExitCode> {
    let ctx = Ctx::new(args.target.scope(), false, args.keep_moved)?;
    let installed = args
        .all_installed
        .then(|| install::installed(ctx.scope, &ctx.root, &ctx.env));
    let agents = chosen(&args.agents, installed.into_iter().flatten())?;
    if agents.is_empty() {
        writeln!(
            io::stdout(),
            "uninstall: nothing to remove: no agent has agenthooks' entries at the {} scope",
            ctx.scope
        )?;
        return Ok(ExitCode::from(EXIT_OK));
    }
    let code = ctx.each(&agents, Action::Uninstall, args.target.dry_run)?;
    if !args.target.dry_run && ctx.scope != Scope::Managed {
        ctx.note_unwired(&mut io::stdout().lock())?;
    }
    Ok(code)
}

impl Target {
    /// The scope the flags ask for.
    fn scope(&self) -> Scope {
        if self.system {
            Scope::Managed
        } else if self.user {
            Scope::User
        } else {
            Scope::Project
        }
    }
}

/// One line after `install --system`: which managed policy the entries
/// enforce (what `run` reads, [`config::managed_file`]), and whether it is
/// there yet.
fn note_managed_policy(out: &mut impl io::Write, policy: &Path) -> io::Result<()> {
    let state = if policy.is_file() {
        "it is in place"
    } else {
        "it is not there yet: put the organisation's hooks.json there"
    };
    // `run` reads the variable only in the agents' own environment.
    let by_var = std::env::var_os(config::MANAGED_ENV).is_some_and(|v| Path::new(&v) == policy);
    let by_var = if by_var {
        format!(
            ", named by {} here: the agents see it only if they run with it set",
            config::MANAGED_ENV
        )
    } else {
        String::new()
    };
    writeln!(
        out,
        "note: the system entries run every scope's hooks with the managed policy `{}` first ({state}{by_var}); the agents' user and project entries step aside",
        policy.display()
    )
}

/// Why `binary` (absolute) is a poor thing for an agent's config to name:
/// it lives in a cargo build directory (`cargo clean` or the next checkout
/// removes it) or in a temporary directory.
fn temporary_place(binary: &Path) -> Option<&'static str> {
    // `<dir>/target/<profile>/agenthooks`: a directory named `target` above
    // the binary's own directory.
    let parents = binary.parent().map(Path::components).into_iter().flatten();
    let dirs: Vec<_> = parents.map(|c| c.as_os_str()).collect();
    // A build directory of another name (`CARGO_TARGET_DIR`) is known by
    // the profile directory cargo made the binary in: `deps` and
    // `.fingerprint` beside it.
    let profile_dir = binary
        .parent()
        .is_some_and(|d| d.join("deps").is_dir() && d.join(".fingerprint").is_dir());
    if profile_dir || dirs.iter().rev().skip(1).any(|d| *d == "target") {
        return Some("a cargo build output (under `target/`) that `cargo clean` removes");
    }
    let temp = std::env::temp_dir();
    let temps = [
        temp.as_path(),
        Path::new("/tmp"),
        Path::new("/var/tmp"),
        Path::new("/dev/shm"),
    ];
    if temps.iter().any(|t| binary.starts_with(t)) {
        return Some("in a temporary directory");
    }
    None
}

/// The first executable `name` on `PATH`.
pub(crate) fn find_on_path(name: &Path) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.with_extension("exe").is_file() || p.is_file()
}

/// The agents named on the command line, then `found` (detected or
/// installed, with `--all-…`), each once.
fn chosen(
    ids: &[String],
    found: impl IntoIterator<Item = &'static dyn Agent>,
) -> anyhow::Result<Vec<&'static dyn Agent>> {
    let named = ids.iter().map(|id| agents::named(id));
    let mut out: Vec<&'static dyn Agent> = Vec::new();
    for agent in named
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .chain(found)
    {
        if !out.iter().any(|a| a.id() == agent.id()) {
            out.push(agent);
        }
    }
    Ok(out)
}

/// The agent's own step before it runs the installed hooks (its install
/// spec's `after_install`), as one `<agent>: note: ...` line; on a dry run
/// marked as applying once installed.
pub(crate) fn after_install(
    out: &mut impl io::Write,
    agent: &dyn Agent,
    dry_run: bool,
) -> io::Result<()> {
    let Some(hint) = agent.install_spec().after_install else {
        return Ok(());
    };
    let mark = if dry_run { " (once installed)" } else { "" };
    writeln!(out, "{}: note{mark}: {hint}", agent.id())
}

/// The name project entries call agenthooks by (looked up on `PATH`).
pub(crate) const NAME: &str = "agenthooks";

/// What the entries at `scope` call: [`NAME`] in a project's files (unless
/// `absolute`), this binary's absolute path elsewhere.
///
/// # Errors
/// When this binary cannot be found.
pub(crate) fn entry_binary(scope: Scope, absolute: bool) -> anyhow::Result<PathBuf> {
    Ok(if scope != Scope::Project || absolute {
        let exe = crate::dirs::front_exe().context("cannot find the agenthooks binary")?;
        exe.canonicalize().unwrap_or(exe)
    } else {
        PathBuf::from(NAME)
    })
}

/// Where this run works.
struct Ctx {
    scope: Scope,
    root: PathBuf,
    env: Env,
    /// What the entries call: [`NAME`], or this binary's absolute path.
    binary: PathBuf,
    /// `uninstall --keep-moved`: the hooks `import --move` took out of the
    /// agents' files stay in `.agents/hooks.json`.
    keep_moved: bool,
}

impl Ctx {
    fn new(scope: Scope, absolute: bool, keep_moved: bool) -> anyhow::Result<Ctx> {
        let cwd = std::env::current_dir().context("cannot read the working directory")?;
        let env = Env::from_process()?;
        let binary = entry_binary(scope, absolute)?;
        Ok(Ctx {
            scope,
            root: install::project_root(&cwd),
            env,
            binary,
            keep_moved,
        })
    }

    /// One line on stderr when the entries would call a binary that will
    /// not be there later: an absolute path in a build or temporary
    /// directory, or a name that is not on this machine's `PATH`.
    fn warn_about_binary(&self) {
        if self.binary.is_absolute() {
            if let Some(place) = temporary_place(&self.binary) {
                crate::cli::report::say!(
                    "warning: the entries will call `{}`, {place}; install agenthooks ({}) and run install again from there",
                    self.binary.display(),
                    crate::origin::install_line()
                );
            }
        } else if find_on_path(&self.binary).is_none() {
            crate::cli::report::say!(
                "note: `{}` is not on PATH here; the entries call it by name and skip (allow) until it is: {}",
                self.binary.display(),
                crate::origin::install_line()
            );
        }
    }

    fn base(&self) -> &Path {
        match self.scope {
            Scope::Project => &self.root,
            Scope::User | Scope::Managed => &self.env.home,
        }
    }

    /// A path as shown: relative to the project root, `~/…` under home, else absolute.
    fn show(&self, path: &Path) -> String {
        if self.scope == Scope::Project {
            if let Ok(rel) = path.strip_prefix(&self.root) {
                if !rel.as_os_str().is_empty() {
                    return rel.display().to_string();
                }
            }
        }
        if let Ok(rel) = path.strip_prefix(&self.env.home) {
            return format!("~/{}", rel.display());
        }
        path.display().to_string()
    }

    /// What the entries of an install carry: the hooks' coverage (native
    /// matchers and binaries), their status messages per event, and the
    /// events to register. Nothing for an uninstall.
    fn what_to_register(
        &self,
        action: Action,
    ) -> (
        Option<install::Coverage>,
        std::collections::BTreeMap<crate::protocol::EventName, String>,
        install::Used,
    ) {
        // An entry runs the hooks of every scope: their events are the ones
        // registered, their status messages go on it.
        let mut coverage = None;
        let (status_messages, used) = match action {
            Action::Install => {
                let config = self.load();
                coverage = install::Coverage::of(&config, self.scope);
                // A system-wide entry runs every user's and project's hooks,
                // which this machine cannot list: every event safe to register.
                let used = match self.scope {
                    Scope::Managed => install::Used::Unknown,
                    Scope::User | Scope::Project => install::Used::of(&config),
                };
                // A system-wide file is every user's: only the managed
                // policy's messages go there, not this project's.
                let handlers: Vec<_> = config
                    .handlers
                    .into_iter()
                    .filter(|h| self.scope != Scope::Managed || h.scope == Scope::Managed)
                    .collect();
                (install::status_messages(&handlers), used)
            }
            Action::Uninstall => (Default::default(), install::Used::Unknown),
        };
        (coverage, status_messages, used)
    }

    /// Plans and applies (or prints) every agent's change; exit 1 if any was refused.
    fn each(
        &self,
        agents: &[&'static dyn Agent],
        action: Action,
        dry_run: bool,
    ) -> anyhow::Result<ExitCode> {
        let mut out = io::stdout().lock();
        let mut failed = false;
        let (coverage, status_messages, used) = self.what_to_register(action);
        for agent in agents {
            let req = Request {
                agent: *agent,
                action,
                scope: self.scope,
                project_root: &self.root,
                env: &self.env,
                binary: &self.binary,
                coverage: coverage.as_ref(),
                status_messages: &status_messages,
                used: &used,
            };
            let result = match action {
                // What `import --move` took out of the agent's files comes
                // back with the uninstall (or, kept, is said to stay).
                Action::Uninstall if self.scope != Scope::Managed => {
                    crate::import::undo::uninstall(&req, self.keep_moved, dry_run)
                        .map(Some)
                        .map(|u| (Vec::new(), u))
                }
                _ if dry_run => install::plan(&req).map(|c| (c, None)),
                _ => install::change(&req).map(|c| (c, None)),
            };
            match result {
                Ok((mut changes, undone)) => {
                    if let Some(undone) = &undone {
                        for c in &undone.others {
                            let word = c.word(dry_run);
                            writeln!(out, "{}: {word} {}", agent.id(), self.show(&c.path))?;
                            if dry_run && c.before != c.after {
                                let diff = install::unified_diff(
                                    &self.show(&c.path),
                                    c.before.as_deref(),
                                    c.after.as_deref(),
                                );
                                write!(out, "{diff}")?;
                            }
                        }
                        changes = undone.changes.clone();
                    }
                    let moved_back = undone.as_ref().is_some_and(|u| !u.others.is_empty());
                    let none = changes.iter().all(|c| c.status() == Status::Unchanged);
                    if action == Action::Uninstall && none && !moved_back {
                        writeln!(
                            out,
                            "{}: nothing to remove: {} has no entries of agenthooks at the {} scope",
                            agent.id(),
                            agent.display_name(),
                            self.scope
                        )?;
                        continue;
                    }
                    self.print(&mut out, agent.id(), &changes, dry_run)?;
                    if let Some(undone) = &undone {
                        self.print_moved(&mut out, *agent, undone, dry_run)?;
                    }
                    // The hints are about trusting user and project hooks in
                    // the agent; its system-wide hooks are trusted by policy.
                    if action == Action::Install && self.scope != Scope::Managed {
                        after_install(&mut out, *agent, dry_run)?;
                    }
                }
                Err(err) => {
                    failed = true;
                    let hint = if self.scope == Scope::Managed && err.permission_denied() {
                        "; `--system` changes machine-wide files: run it as root (sudo) or an administrator"
                    } else {
                        ""
                    };
                    crate::cli::report::say!("{}: {err}{hint}", agent.id());
                }
            }
        }
        // Those agents read the other's user and project files, not its
        // system-wide one.
        if action == Action::Install && !dry_run && self.scope != Scope::Managed {
            self.note_double_loads(&mut out, agents)?;
            self.warn_doubles(&mut out, agents)?;
        }
        if dry_run {
            writeln!(out, "dry run: nothing was written")?;
        }
        // A file that could not be changed is an error (README: 2), not a finding.
        Ok(ExitCode::from(if failed { EXIT_ERROR } else { EXIT_OK }))
    }

    /// One line per agent that runs another's hooks file as well as its own
    /// (Copilot, Cursor, Devin run Claude's), where one of `just` is either:
    /// how each hook still runs once when both entries are installed, or
    /// which install gives the host its own entry when its folder is there
    /// but its entry is not.
    fn note_double_loads(
        &self,
        out: &mut impl io::Write,
        just: &[&'static dyn Agent],
    ) -> io::Result<()> {
        let installed = install::installed(self.scope, &self.root, &self.env);
        let detected = install::detected(self.scope, &self.root, &self.env);
        let named = |a: &dyn Agent| just.iter().any(|j| j.id() == a.id());
        for host in crate::agents::AGENTS.iter().copied() {
            let Some(also) = host.also_runs() else {
                continue;
            };
            let Some(other) = installed.iter().find(|a| a.id() == also.agent) else {
                continue;
            };
            let host_installed = installed.iter().any(|a| a.id() == host.id());
            let host_here = host_installed || detected.iter().any(|a| a.id() == host.id());
            if host_here && (named(host) || named(*other)) {
                let note = crate::agents::double_load_note(host, *other, also, host_installed);
                writeln!(out, "{}: note: {note}", host.id())?;
            }
        }
        Ok(())
    }

    /// One line per hook that both an agent's own file and
    /// `.agents/hooks.json` run, which the agent would run twice now.
    fn warn_doubles(
        &self,
        out: &mut impl io::Write,
        just: &[&'static dyn Agent],
    ) -> io::Result<()> {
        let config = self.load();
        for double in crate::import::twice::doubles(just, &config, &self.root, &self.env) {
            writeln!(
                out,
                "{}: warning: {}",
                double.agent.id(),
                double.line(&self.root, &self.env.home)
            )?;
        }
        Ok(())
    }

    /// Both scopes' hooks, as `run` will see them from this project.
    fn load(&self) -> crate::config::Config {
        crate::config::load(&crate::config::LoadOptions {
            home: Some(self.env.home.clone()),
            project_root: Some(self.root.clone()),
        })
    }

    /// One line when project command (or http) hooks will be skipped until trusted.
    fn note_untrusted(&self, out: &mut impl io::Write) -> io::Result<()> {
        use crate::config::HandlerKind;
        let config = self.load();
        let (store, _) = crate::trust::TrustStore::load();
        let untrusted: Vec<_> = config
            .handlers
            .iter()
            .filter(|h| h.scope == Scope::Project)
            .filter(|h| {
                matches!(
                    h.kind,
                    HandlerKind::Command(_)
                        | HandlerKind::Http(_)
                        | HandlerKind::Prompt(_)
                        | HandlerKind::Agent(_)
                )
            })
            .filter(|h| !store.trusts(h))
            .collect();
        let kind = if untrusted.iter().any(|h| {
            matches!(
                h.kind,
                HandlerKind::Http(_) | HandlerKind::Prompt(_) | HandlerKind::Agent(_)
            )
        }) {
            "command, http or prompt"
        } else {
            "command"
        };
        let untrusted = untrusted.len();
        if untrusted > 0 {
            writeln!(
                out,
                "note: {untrusted} {kind} hook{} in `.agents/hooks.json` will be skipped until you review and trust {}: `agenthooks trust`",
                if untrusted == 1 { "" } else { "s" },
                if untrusted == 1 { "it" } else { "them" },
            )?;
        }
        Ok(())
    }

    /// One line per file whose moved hooks came back (or would), or, kept
    /// in `.agents/hooks.json`, that the agent runs them no more.
    fn print_moved(
        &self,
        out: &mut impl io::Write,
        agent: &dyn Agent,
        undone: &crate::import::undo::Undone,
        dry_run: bool,
    ) -> io::Result<()> {
        use crate::import::undo::Back;
        // "the 1 hook ... it was", "the 2 hooks ... they were".
        let words = |k: usize| {
            if k == 1 {
                ("1 hook".to_string(), "it was", "it", "stays")
            } else {
                (format!("{k} hooks"), "they were", "them", "stay")
            }
        };
        for p in &undone.put_back {
            let file = self.show(&p.path);
            let (hooks, was, _, _) = words(p.hooks);
            let (put, merged) = if dry_run {
                ("would put back", "would merge back")
            } else {
                ("put back", "merged back")
            };
            match p.how {
                Back::AsTheyWere => writeln!(
                    out,
                    "{}: {put} the {hooks} `import --move` took out of {file}, as {was}",
                    agent.id(),
                )?,
                Back::Merged => writeln!(
                    out,
                    "{}: {merged} the {hooks} `import --move` took out of {file}: the file changed since the move, so check it",
                    agent.id(),
                )?,
            }
        }
        for (path, count) in &undone.kept {
            let (hooks, _, them, stay) = words(*count);
            writeln!(
                out,
                "{}: the {hooks} `import --move` took out of {} {stay} in .agents/hooks.json only; {} no longer runs {them}",
                agent.id(),
                self.show(path),
                agent.display_name()
            )?;
        }
        Ok(())
    }

    /// After an uninstall: one line when hooks of this scope's
    /// `.agents/hooks.json` are left that no agent runs any more.
    fn note_unwired(&self, out: &mut impl io::Write) -> io::Result<()> {
        if !install::installed(self.scope, &self.root, &self.env).is_empty() {
            return Ok(());
        }
        let file = crate::dirs::hooks_file(self.base());
        let hooks = self
            .load()
            .handlers
            .iter()
            .filter(|h| h.scope == self.scope)
            .count();
        if hooks == 0 {
            return Ok(());
        }
        let (s, them) = if hooks == 1 {
            ("", "it")
        } else {
            ("s", "them")
        };
        writeln!(
            out,
            "note: no agent runs the {hooks} hook{s} of {} any more; `agenthooks install <agent>` wires {them} again",
            self.show(&file)
        )
    }

    fn print(
        &self,
        out: &mut impl io::Write,
        agent: &str,
        changes: &[FileChange],
        dry_run: bool,
    ) -> io::Result<()> {
        for change in changes {
            let status = change.status();
            let word = if dry_run {
                status.planned()
            } else {
                status.as_str()
            };
            let mut line = format!("{agent}: {word} {}", self.show(&change.path));
            if let (Some(backup), false) = (&change.backup, dry_run) {
                line.push_str(&format!(" (backup: {})", self.show(backup)));
            }
            if status == Status::Restored {
                line.push_str(" (from its backup, now removed)");
            } else if let (Some(slot), false) = (&change.backups, dry_run) {
                // Where to look when the result is not what the user wanted.
                let changed = status != Status::Unchanged && change.after.is_some();
                if changed && change.backup.is_none() && slot.exists() {
                    line.push_str(&format!(" (backups: {})", self.show(slot.dir())));
                }
            }
            writeln!(out, "{line}")?;
            if dry_run && status != Status::Unchanged {
                write!(out, "{}", change.diff(&self.show(&change.path)))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_and_temporary_directories_are_told_apart_from_installed_places() {
        let t = |p: &str| temporary_place(Path::new(p));
        assert!(t("/home/me/agenthooks/target/debug/agenthooks").is_some());
        assert!(t("/w/target/x86_64-unknown-linux-gnu/release/agenthooks").is_some());
        assert!(t("/tmp/x/agenthooks").is_some());
        assert!(t("/home/me/.cargo/bin/agenthooks").is_none());
        assert!(t("/usr/local/bin/agenthooks").is_none());
        // A directory of that name holding the binary itself is a choice, not a build.
        assert!(t("/opt/target/agenthooks").is_none());
    }

    #[test]
    fn a_build_directory_of_another_name_is_known_by_cargo_s_profile_layout() {
        let dir = tempfile::tempdir().unwrap();
        let profile = dir.path().join("builds/release");
        let binary = profile.join("agenthooks");
        let cargo = |why: Option<&str>| why.is_some_and(|w| w.contains("cargo build output"));
        std::fs::create_dir_all(profile.join("deps")).unwrap();
        // Unless the temporary directory is itself below a `target` (as in
        // CI, whose TMPDIR is in the build directory), `deps` alone is not it.
        let below_target = dir.path().components().any(|c| c.as_os_str() == "target");
        assert_eq!(cargo(temporary_place(&binary)), below_target);
        std::fs::create_dir_all(profile.join(".fingerprint")).unwrap();
        assert!(cargo(temporary_place(&binary)));
    }
}
