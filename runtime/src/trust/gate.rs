//! The trust gate: what each selected handler may do at one event (run or
//! not, which grants, how long), applied right after select, and what an
//! untrusted hook's answer may say. See the parent module for the rules.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::note::{Held, TrustNote, UNTRUSTED_PER_EVENT};
use super::TrustStore;
use crate::config::{Grants, Handler, HandlerKind, Limits, Scope, DEFAULT_TIMEOUT};
use crate::exec::Report;
pub use crate::exec::Standing;
use crate::fsread::lexical;
use crate::protocol::{
    Answer, Behavior, Decision, Failure, HookSpecificOutput, Outcome, PermissionDecision, Skip,
};

/// One selected handler after the trust gate.
#[derive(Debug, Clone)]
pub struct Gated {
    /// The handler to run: the selected one, with its wasm grants narrowed
    /// when it is an untrusted project hook.
    pub handler: Handler,
    /// Its standing.
    pub standing: Standing,
    /// `Some` when it must not run (an untrusted project command).
    pub skip: Option<Skip>,
    /// Notes for its report (grants withheld, ...).
    pub notes: Vec<TrustNote>,
    /// Set by [`Gate::clamp`]: why its timeout is shorter than configured,
    /// added to its report only if it timed out (when the clamp mattered).
    pub clamped: Option<String>,
}

/// The trust gate's result for one event.
#[derive(Debug, Clone, Default)]
pub struct Gate {
    /// Every selected handler, in the order given.
    pub handlers: Vec<Gated>,
    /// Notes for the whole run: at most one about untrusted hooks (naming
    /// `agenthooks trust`), and one if the store is corrupt.
    pub notes: Vec<TrustNote>,
    /// The store, to look up a sandboxed hook's trust only when needed.
    store: TrustStore,
    /// How to read the store when the gate did not need it: [`Gate::merge`]
    /// reads it only if a sandboxed hook's answer needs trust (a deny, the
    /// common answer, does not), so such an event opens no file for trust.
    deferred: Option<Loader>,
    /// Per declaring file.
    held: BTreeMap<PathBuf, Held>,
    /// Where in `notes` the note about untrusted hooks is.
    held_note: Option<usize>,
}

impl Gate {
    /// The handlers to execute, in order (the skipped ones left out).
    pub fn runnable(&self) -> Vec<&Handler> {
        self.handlers
            .iter()
            .filter(|g| g.skip.is_none())
            .map(|g| &g.handler)
            .collect()
    }

    /// Put the reports of [`Gate::runnable`] back among the skipped handlers,
    /// in the original order, with each handler's gate notes added; and take
    /// out of an untrusted project wasm hook's answer what only trust allows
    /// ([`restrict`]), with a note.
    ///
    /// Extra reports (there should be none) are kept at the end, so nothing
    /// an executor said is lost.
    pub fn merge(&mut self, reports: Vec<Report>) -> Vec<Report> {
        if let Some(load) = self.deferred {
            if self.merge_reads_files(&reports) {
                self.deferred = None;
                let (store, note) = load();
                self.store = store;
                self.note_store_trouble(note);
            }
        }
        let mut reports = reports.into_iter();
        let mut out = Vec::with_capacity(self.handlers.len());
        let mut restricted = Vec::new();
        for gated in &self.handlers {
            let mut report = match &gated.skip {
                Some(skip) => {
                    Report::skipped(&gated.handler, gated.handler.kind.name(), skip.clone())
                }
                None => match reports.next() {
                    Some(report) => report,
                    None => continue,
                },
            };
            report.standing = Some(gated.standing);
            report
                .notes
                .splice(0..0, gated.notes.iter().map(ToString::to_string));
            if let (Some(why), Outcome::Failed(Failure::Timeout { .. })) =
                (&gated.clamped, &report.outcome)
            {
                report.notes.push(why.clone());
            }
            // Decided on the component bytes that ran, when the executor
            // says which (it hashed them to compile them), not the file now.
            let trusts = || match &report.component_sha256 {
                Some(sha) => self.store.trusts_ran(&gated.handler, sha),
                None => self.store.trusts(&gated.handler),
            };
            let untrusted_wasm = || match gated.standing {
                Standing::Narrowed => true,
                Standing::Sandboxed => !trusts(),
                // Its grants were trusted on the file before the run; what
                // it may say depends on the bytes that ran.
                Standing::Trusted => report.component_sha256.is_some() && !trusts(),
                Standing::User | Standing::Untrusted | Standing::NotApplicable => false,
            };
            if let Outcome::Answered(answer) = &mut report.outcome {
                // Cheap check first: hashing the component is only worth it
                // when the answer holds something to take out.
                if needs_trust_to_say(answer) && untrusted_wasm() {
                    let removed = restrict(answer);
                    report.notes.push(format!(
                        "not trusted, so {} in its answer {} ignored",
                        removed.join(", "),
                        if removed.len() == 1 { "was" } else { "were" }
                    ));
                    restricted.push(gated.handler.file.clone());
                }
            }
            out.push(report);
        }
        out.extend(reports);
        for file in restricted {
            self.held.entry(file).or_default().restricted += 1;
        }
        self.refresh_held_note();
        out
    }

    /// Whether [`Gate::merge`] of `reports` will hash a component: a
    /// sandboxed project hook answered with what only trust allows. Async
    /// callers then merge off the executor.
    pub fn merge_reads_files(&self, reports: &[Report]) -> bool {
        let runnable = self.handlers.iter().filter(|g| g.skip.is_none());
        runnable.zip(reports).any(|(gated, report)| {
            gated.standing == Standing::Sandboxed
                && matches!(&report.outcome, Outcome::Answered(a) if needs_trust_to_say(a))
        })
    }

    /// Keep every handler within `budget`, the time left under the calling
    /// agent's own hook deadline ([`crate::agents::deadline`]), so that a
    /// fail-closed hook still answers before the agent gives up and allows.
    /// A handler whose timeout is lowered and that then times out gets a
    /// note saying so (a note on every run for every hook with the default
    /// 60 s under a 30 s agent would be noise).
    pub fn clamp(&mut self, budget: Duration, agent: &str, deadline: Duration) {
        for gated in &mut self.handlers {
            if gated.skip.is_some() || gated.handler.timeout <= budget {
                continue;
            }
            gated.clamped = Some(format!(
                "timeout lowered from {}s to {}s to answer within {agent}'s {}s hook deadline",
                gated.handler.timeout.as_secs_f64(),
                budget.as_secs_f64(),
                deadline.as_secs_f64()
            ));
            gated.handler.timeout = budget;
        }
    }

    /// Put the note of a corrupt store first.
    fn note_store_trouble(&mut self, note: Option<TrustNote>) {
        if let Some(note) = note {
            self.notes.insert(0, note);
            if let Some(i) = self.held_note.as_mut() {
                *i += 1;
            }
        }
    }

    /// Write (or rewrite) the one note about untrusted hooks.
    fn refresh_held_note(&mut self) {
        let Some(note) = TrustNote::held_back(&self.held) else {
            return;
        };
        match self.held_note {
            Some(i) => self.notes[i] = note,
            None => {
                self.held_note = Some(self.notes.len());
                self.notes.push(note);
            }
        }
    }
}

/// Take out of `answer` what a hook may say only once trusted, because it
/// acts with the user's authority rather than merely refusing: allowing a
/// tool without the agent's permission prompt (`permissionDecision: allow`,
/// the deprecated `decision: approve`, PermissionRequest `behavior: allow`),
/// and changing what runs or what the model reads (`updatedInput`,
/// `updatedPermissions`, `updatedToolOutput`, ...). Deny, ask, block, stop,
/// context and messages stay: a sandboxed hook may always say no, and what it
/// can tell the model the repository's own files can tell it too. Returns the
/// names of what was removed.
pub fn restrict(answer: &mut Answer) -> Vec<String> {
    let mut removed = Vec::new();
    if answer.decision == Some(Decision::Approve) {
        answer.decision = None;
        removed.push("`decision: approve`".to_string());
    }
    let strip_updated = |extra: &mut serde_json::Map<String, Value>, removed: &mut Vec<String>| {
        let keys: Vec<String> = extra
            .keys()
            .filter(|k| k.starts_with("updated"))
            .cloned()
            .collect();
        for key in keys {
            extra.remove(&key);
            removed.push(format!("`{key}`"));
        }
    };
    if let Some(hso) = answer.hook_specific_output.as_mut() {
        if hso.permission_decision == Some(PermissionDecision::Allow) {
            hso.permission_decision = None;
            hso.permission_decision_reason = None;
            removed.push("`permissionDecision: allow`".to_string());
        }
        if hso.updated_input.take().is_some() {
            removed.push("`updatedInput`".to_string());
        }
        strip_updated(&mut hso.extra, &mut removed);
        if let Some(decision) = hso.decision.as_mut() {
            if decision.behavior == Some(Behavior::Allow) {
                hso.decision = None;
                removed.push("`decision.behavior: allow`".to_string());
            } else {
                if decision.updated_input.take().is_some() {
                    removed.push("`decision.updatedInput`".to_string());
                }
                strip_updated(&mut decision.extra, &mut removed);
            }
        }
        if hso == &HookSpecificOutput::default() {
            answer.hook_specific_output = None;
        }
    }
    removed
}

/// Whether `answer` says something [`restrict`] would take out.
fn needs_trust_to_say(answer: &Answer) -> bool {
    !restrict(&mut answer.clone()).is_empty()
}

/// Whether [`gate`] may hash files for these handlers (a project command
/// hook's scripts, a project wasm hook's component when it asks for more
/// than the sandbox defaults): async callers then gate off the executor.
/// Reading the trust store alone (small, bounded) does not count.
pub fn gate_reads_files(selected: &[&Handler]) -> bool {
    selected.iter().any(|h| {
        h.scope == Scope::Project
            && match &h.kind {
                HandlerKind::Command(_) => true,
                HandlerKind::Wasm(spec) => {
                    spec.allow != Grants::default()
                        || !raised_limits(h).is_empty()
                        || component_outside(spec, h.project_root.as_deref()).is_some()
                }
                HandlerKind::Http(_)
                | HandlerKind::Prompt(_)
                | HandlerKind::Agent(_)
                | HandlerKind::McpTool(_)
                | HandlerKind::Unsupported { .. } => false,
            }
    })
}

/// Apply trust to the selected handlers, reading the store only when a
/// project hook is among them (the common path touches no file).
pub fn gate(selected: &[&Handler]) -> Gate {
    gate_loading(selected, TrustStore::load)
}

/// Reads the trust store: [`TrustStore::load`], or a stand-in in tests.
pub(crate) type Loader = fn() -> (TrustStore, Option<TrustNote>);

/// [`gate`], reading the store with `load`, and only when some handler's
/// gating depends on it; otherwise [`Gate::merge`] reads it if an answer does.
pub(crate) fn gate_loading(selected: &[&Handler], load: Loader) -> Gate {
    if selected.iter().all(|h| !h.scope.needs_trust()) {
        return gate_with(&TrustStore::empty(), selected);
    }
    if gated_without_store(selected) {
        let mut gate = gate_with(&TrustStore::empty(), selected);
        gate.deferred = Some(load);
        return gate;
    }
    let (store, note) = load();
    let mut gate = gate_with(&store, selected);
    gate.note_store_trouble(note);
    gate
}

/// Whether [`gate_with`] comes to the same with any store: every project
/// hook is a wasm hook asking for nothing the sandbox withholds (it runs as
/// declared, trusted or not), and they are not more than the cap (past it,
/// trust decides which run).
fn gated_without_store(selected: &[&Handler]) -> bool {
    let mut project = 0;
    let all_sandboxed = selected.iter().all(|h| {
        if !h.scope.needs_trust() {
            return true;
        }
        project += 1;
        match &h.kind {
            HandlerKind::Wasm(spec) => {
                narrow(&spec.allow, h.project_root.as_deref()).1.is_empty()
                    && raised_limits(h).is_empty()
            }
            HandlerKind::Command(_)
            | HandlerKind::Http(_)
            | HandlerKind::Prompt(_)
            | HandlerKind::Agent(_)
            | HandlerKind::McpTool(_)
            | HandlerKind::Unsupported { .. } => false,
        }
    });
    all_sandboxed && project <= UNTRUSTED_PER_EVENT
}

/// Apply trust to the selected handlers with a given store.
///
/// User-scope hooks run as declared. A project command hook runs only if
/// trusted, else it is skipped ([`Skip::Untrusted`]). A project wasm hook
/// always runs; untrusted, it keeps only read access inside the project root
/// (a write grant inside the project is downgraded to read-only), its report
/// says what was withheld, and [`Gate::merge`] takes out of its answer what
/// only trust allows. One note for the run counts what was held back and
/// names `agenthooks trust`.
pub fn gate_with(store: &TrustStore, selected: &[&Handler]) -> Gate {
    let mut gate = Gate {
        store: store.clone(),
        ..Gate::default()
    };
    for &handler in selected {
        let mut gated = Gated {
            handler: handler.clone(),
            standing: Standing::User,
            skip: None,
            notes: Vec::new(),
            clamped: None,
        };
        if !handler.scope.needs_trust() {
            gate.handlers.push(gated);
            continue;
        }
        match &handler.kind {
            HandlerKind::Unsupported { .. } => gated.standing = Standing::NotApplicable,
            HandlerKind::Command(_)
            | HandlerKind::Http(_)
            | HandlerKind::Prompt(_)
            | HandlerKind::Agent(_)
            | HandlerKind::McpTool(_) => {
                let trusted = store.lookup(handler).unwrap_or_else(|e| {
                    // A script that became a FIFO or a huge file: changed.
                    gated.notes.push(TrustNote::Changed { why: e.to_string() });
                    false
                });
                if trusted {
                    gated.standing = Standing::Trusted;
                } else {
                    gated.standing = Standing::Untrusted;
                    gated.skip = Some(Skip::Untrusted);
                    let held = gate.held.entry(handler.file.clone()).or_default();
                    match handler.kind {
                        HandlerKind::Http(_) => held.skipped_http += 1,
                        HandlerKind::Prompt(_) | HandlerKind::Agent(_) => held.skipped_llm += 1,
                        HandlerKind::McpTool(_) => held.skipped_mcp += 1,
                        _ => held.skipped += 1,
                    }
                }
            }
            HandlerKind::Wasm(spec)
                if component_outside(spec, handler.project_root.as_deref()).is_some() =>
            {
                // A project naming a file of someone else's (another
                // project's, the user's): only trust lets it run. Refused
                // ones are counted in the run's one held-back note.
                if store.trusts(handler) {
                    gated.standing = Standing::Trusted;
                    gated.notes.extend(
                        component_outside(spec, handler.project_root.as_deref())
                            .map(|(component, root)| TrustNote::OutsideProject { component, root }),
                    );
                } else {
                    gated.standing = Standing::Untrusted;
                    gated.skip = Some(Skip::Untrusted);
                    let held = gate.held.entry(handler.file.clone()).or_default();
                    held.refused_outside += 1;
                }
            }
            HandlerKind::Wasm(spec) => {
                let root = handler.project_root.as_deref();
                let (narrowed, mut withheld) = narrow(&spec.allow, root);
                withheld.extend(raised_limits(handler));
                if withheld.is_empty() {
                    // Trust would change its access in nothing: leave the
                    // component unhashed unless its answer needs trust.
                    gated.standing = Standing::Sandboxed;
                } else if store.trusts(handler) {
                    gated.standing = Standing::Trusted;
                } else {
                    gated.standing = Standing::Narrowed;
                    if let HandlerKind::Wasm(spec) = &mut gated.handler.kind {
                        spec.allow = narrowed;
                        spec.limits = spec.limits.capped_at(Limits::DEFAULT);
                    }
                    gated.handler.timeout = gated.handler.timeout.min(DEFAULT_TIMEOUT);
                    gated.notes.push(TrustNote::Withheld { withheld });
                    gate.held.entry(handler.file.clone()).or_default().narrowed += 1;
                }
            }
        }
        gate.handlers.push(gated);
    }
    cap_untrusted(&mut gate, store);
    gate.refresh_held_note();
    gate
}

/// Why a project's wasm hook names a component outside the project (a
/// file, not an `oci://` reference, which the lock pins by digest), or
/// `None`. Symbolic links are followed where the paths exist.
fn component_outside(
    spec: &crate::config::WasmSpec,
    root: Option<&Path>,
) -> Option<(PathBuf, PathBuf)> {
    let root = root?;
    if spec.oci.is_some() {
        return None;
    }
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| lexical(p));
    let inside = real(&spec.component).starts_with(real(root));
    (!inside).then(|| (spec.component.clone(), root.to_path_buf()))
}

/// Skip the untrusted project hooks past the first [`UNTRUSTED_PER_EVENT`]
/// that would run. Only sandboxed (unhashed) hooks past the cap have their
/// trust looked up, and only in a project the user trusted something in: a
/// trusted hook runs whatever the count.
fn cap_untrusted(gate: &mut Gate, store: &TrustStore) {
    let mut run = 0;
    for gated in &mut gate.handlers {
        let untrusted = match gated.standing {
            Standing::Narrowed | Standing::Sandboxed => gated.skip.is_none(),
            Standing::User | Standing::Trusted | Standing::Untrusted | Standing::NotApplicable => {
                false
            }
        };
        if !untrusted {
            continue;
        }
        if run < UNTRUSTED_PER_EVENT {
            run += 1;
            continue;
        }
        let known = gated
            .handler
            .project_root
            .as_deref()
            .is_some_and(|root| store.project(root).is_some());
        if gated.standing == Standing::Sandboxed && known && store.trusts(&gated.handler) {
            gated.standing = Standing::Trusted;
            continue;
        }
        gated.skip = Some(Skip::OverUntrustedCap {
            cap: UNTRUSTED_PER_EVENT,
        });
        let held = gate.held.entry(gated.handler.file.clone()).or_default();
        held.capped += 1;
        if gated.standing == Standing::Narrowed {
            // It does not run at all, narrowed or not.
            held.narrowed -= 1;
            gated.notes.clear();
        }
    }
}

/// The limits of a project wasm hook raised above the sandbox defaults
/// (fuel, memory, timeout), each described with the default it gets until
/// trusted: a cloned repository must not be able to ask for all the memory
/// or CPU time of the machine.
pub fn raised_limits(handler: &Handler) -> Vec<String> {
    let HandlerKind::Wasm(spec) = &handler.kind else {
        return Vec::new();
    };
    let mut raised = spec.limits.raised_over(&Limits::DEFAULT);
    if handler.timeout > DEFAULT_TIMEOUT {
        raised.push(format!(
            "`timeout` {}s ({}s instead)",
            handler.timeout.as_secs_f64(),
            DEFAULT_TIMEOUT.as_secs_f64()
        ));
    }
    raised
}

/// What an untrusted project wasm hook may keep of `grants`: reads inside the
/// project root, and writes inside it downgraded to reads. Returns the
/// narrowed grants and a description of each withheld part (empty when
/// nothing is withheld).
///
/// Paths are compared canonicalized, so `..` and symlinks cannot reach
/// outside the project; a path that does not exist is withheld.
pub fn narrow(grants: &Grants, project_root: Option<&Path>) -> (Grants, Vec<String>) {
    if *grants == Grants::default() {
        // Nothing to narrow: skip resolving the root (syscalls on every event).
        return (Grants::default(), Vec::new());
    }
    let root = project_root.and_then(|r| std::fs::canonicalize(r).ok());
    let inside = |p: &Path| -> Option<PathBuf> {
        let root = root.as_ref()?;
        let canonical = std::fs::canonicalize(p).ok()?;
        canonical.starts_with(root).then_some(canonical)
    };
    let mut narrowed = Grants::default();
    let mut withheld = Vec::new();
    for p in &grants.read {
        match inside(p) {
            Some(c) => narrowed.read.push(c),
            None => withheld.push(format!(
                "`allow.read` {} (outside the project)",
                p.display()
            )),
        }
    }
    for p in &grants.write {
        match inside(p) {
            Some(c) => {
                withheld.push(format!("`allow.write` {} (read-only instead)", p.display()));
                if !narrowed.read.contains(&c) {
                    narrowed.read.push(c);
                }
            }
            None => withheld.push(format!("`allow.write` {}", p.display())),
        }
    }
    if !grants.env.is_empty() {
        withheld.push(format!("`allow.env` {}", grants.env.join(", ")));
    }
    if !grants.net.is_empty() {
        withheld.push(format!("`allow.net` {}", grants.net.join(", ")));
    }
    (narrowed, withheld)
}
