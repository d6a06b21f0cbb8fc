//! What `agenthooks trust` and `agenthooks install` show and record: which
//! project hooks still need trust, the review text, and trusting a project.

use std::path::{Path, PathBuf};

use super::gate::kind_name;
use super::{command_files, file_sha256, TrustError, TrustStore};
use crate::config::{Handler, HandlerKind, Scope};
use crate::fsread::caps;
use crate::select::Matcher;

/// Whether trusting `handler` would change what it may do: a project command
/// hook (it runs at all), or a project wasm hook (its grants beyond reading
/// the project, and answers that allow a tool or change its input).
pub fn needs_trust(handler: &Handler) -> bool {
    if handler.scope != Scope::Project {
        return false;
    }
    match &handler.kind {
        // A wasm hook's access beyond reading the project needs trust, and so
        // does an answer that allows or rewrites ([`restrict`]).
        HandlerKind::Command(_) | HandlerKind::Wasm(_) => true,
        HandlerKind::Unsupported { .. } => false,
    }
}

/// The project hooks among `handlers` that need trust and are not trusted.
pub fn pending<'a>(store: &TrustStore, handlers: &'a [Handler]) -> Vec<&'a Handler> {
    handlers
        .iter()
        .filter(|h| needs_trust(h) && !store.trusts(h))
        .collect()
}

/// The screen that shows `hooks` before they are trusted, the way a browser
/// shows an extension's permissions: for a command, its event, matcher and
/// exact command line and that it runs with the user's rights; for a wasm
/// hook, its component's hash, its limits and each grant it asks for.
pub fn review(project_root: &Path, hooks: &[&Handler]) -> String {
    let mut out = String::new();
    let files: Vec<String> = {
        let mut files: Vec<String> = hooks
            .iter()
            .map(|h| shown_path(&h.file, project_root))
            .collect();
        files.dedup();
        files
    };
    let these = if hooks.len() == 1 {
        "this hook"
    } else {
        "these hooks"
    };
    out.push_str(&format!(
        "The project {} wants to run {these} ({}):\n",
        project_root.display(),
        files.join(", ")
    ));
    for (i, h) in hooks.iter().enumerate() {
        out.push('\n');
        let mut head = format!("  {}. {} hook on {}", i + 1, kind_name(h), h.event.as_str());
        match &h.matcher {
            Matcher::All => {}
            m => head.push_str(&format!(", matcher `{m}`")),
        }
        if let Some(re) = &h.if_ {
            head.push_str(&format!(", if `{}`", re.as_str()));
        }
        out.push_str(&head);
        out.push('\n');
        match &h.kind {
            HandlerKind::Command(spec) => {
                out.push_str(&format!("       $ {}\n", spec.command));
                for (rel, path) in command_files(&spec.command, project_root) {
                    let hash = file_sha256(&path, caps::SCRIPT)
                        .unwrap_or_else(|e| format!("(cannot read the file: {e})"));
                    out.push_str(&format!("       runs {rel} (sha256 {hash})\n"));
                }
                let background = if spec.async_ {
                    " in the background"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "     ! runs unsandboxed{background} with your rights: it can read, change \
                     and send anything you can\n"
                ));
            }
            HandlerKind::Wasm(spec) => {
                out.push_str(&format!(
                    "       component {}\n",
                    shown_path(&spec.component, project_root)
                ));
                let hash = file_sha256(&spec.component, caps::COMPONENT)
                    .unwrap_or_else(|e| format!("(cannot read the file: {e})"));
                out.push_str(&format!("       sha256    {hash}\n"));
                out.push_str(&format!(
                    "     runs sandboxed: fuel {}, memory {} MiB, timeout {}s\n",
                    spec.fuel,
                    spec.memory_mib,
                    h.timeout.as_secs_f64()
                ));
                let g = &spec.allow;
                let mut asks = Vec::new();
                let list = |ps: &[PathBuf]| {
                    ps.iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                if !g.read.is_empty() {
                    asks.push(format!("read files in {}", list(&g.read)));
                }
                if !g.write.is_empty() {
                    asks.push(format!("write files in {}", list(&g.write)));
                }
                if !g.env.is_empty() {
                    asks.push(format!("read environment variables {}", g.env.join(", ")));
                }
                if !g.net.is_empty() {
                    asks.push(format!("connect to {}", g.net.join(", ")));
                }
                for (j, ask) in asks.iter().enumerate() {
                    let lead = if j == 0 { "asks to:" } else { "        " };
                    out.push_str(&format!("     {lead} {ask}\n"));
                }
                out.push_str(
                    "     until trusted: read-only access inside the project, no environment, no network,\n       no more than the default limits, and its answers cannot allow a tool without\n       asking or change its input\n",
                );
            }
            HandlerKind::Unsupported { kind } => {
                out.push_str(&format!(
                    "     `{kind}` handlers are not run by agenthooks\n"
                ));
            }
        }
    }
    out
}

/// `path` relative to the project root when inside it.
fn shown_path(path: &Path, project_root: &Path) -> String {
    path.strip_prefix(project_root)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.display().to_string())
}

/// Trust every current project hook of `handlers` for `project_root` and
/// save the store: what `agenthooks trust --yes` does, and what `install`
/// calls after showing [`review`] of [`pending`]. Returns how many hooks are
/// now trusted.
///
/// # Errors
/// When the project does not exist or the store cannot be written.
pub fn trust_project(project_root: &Path, handlers: &[Handler]) -> Result<usize, TrustError> {
    // A corrupt store is replaced: its note was shown when it was read.
    let (mut store, _note) = TrustStore::load();
    if store.path().is_none() {
        return Err(TrustError::NoHome);
    }
    let count = store.trust(project_root, handlers)?;
    store.save()?;
    Ok(count)
}
