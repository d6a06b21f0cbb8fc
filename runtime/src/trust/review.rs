//! What `agenthooks trust` and `agenthooks install` show and record: which
//! project hooks still need trust, the review text, and trusting a project.

use std::path::{Path, PathBuf};

use super::{
    command_files, file_sha256, fingerprint, Fingerprint, TrustError, TrustStore, TrustedHook,
};
use crate::config::{Grants, Handler, HandlerKind, Scope};
use crate::fsread::{self, caps};
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
        HandlerKind::Command(_)
        | HandlerKind::Wasm(_)
        | HandlerKind::Http(_)
        | HandlerKind::Prompt(_)
        | HandlerKind::Agent(_)
        | HandlerKind::McpTool(_) => true,
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
///
/// `previous` (from [`previous`], one per hook) is what a changed hook was
/// when it was trusted: its review then shows the lines that changed.
///
/// The files are read first (`Item::read`), then the screen is rendered
/// from what was read, without I/O.
pub fn review(
    project_root: &Path,
    hooks: &[&Handler],
    previous: &[Option<&TrustedHook>],
) -> String {
    let items: Vec<Item<'_>> = hooks
        .iter()
        .enumerate()
        .map(|(i, h)| Item::read(h, project_root, previous.get(i).copied().flatten()))
        .collect();
    let mut files: Vec<String> = hooks
        .iter()
        .map(|h| shown_path(&h.file, project_root))
        .collect();
    files.dedup();
    let these = if hooks.len() == 1 {
        "this hook"
    } else {
        "these hooks"
    };
    let mut out = format!(
        "The project {} wants to run {these} ({}):\n",
        project_root.display(),
        files.join(", ")
    );
    for (i, item) in items.iter().enumerate() {
        out.push('\n');
        item.render(i + 1, project_root, &mut out);
    }
    out
}

/// What the review shows of one hook, with what it needs from disk already
/// read: the digests of the files it runs, and what changed since it was
/// trusted.
struct Item<'a> {
    handler: &'a Handler,
    /// A command's project scripts: the path shown and its sha256 (or why
    /// it cannot be read).
    scripts: Vec<(String, String)>,
    /// A wasm hook's component sha256 (or why it cannot be read).
    component: Option<String>,
    /// "changed since you trusted it" and the diff, for a changed hook.
    changed: Option<String>,
}

impl<'a> Item<'a> {
    /// Read what the review of `h` shows from disk.
    fn read(h: &'a Handler, project_root: &Path, previous: Option<&TrustedHook>) -> Item<'a> {
        let sha256 = |path: &Path, cap| {
            file_sha256(path, cap).unwrap_or_else(|e| format!("(cannot read the file: {e})"))
        };
        let (scripts, component) = match &h.kind {
            HandlerKind::Command(spec) => {
                let scripts = command_files(&spec.command, project_root)
                    .into_iter()
                    .map(|(rel, path)| (rel, sha256(&path, caps::SCRIPT)))
                    .collect();
                (scripts, None)
            }
            HandlerKind::Wasm(spec) => (Vec::new(), Some(sha256(&spec.component, caps::COMPONENT))),
            HandlerKind::Http(_)
            | HandlerKind::Prompt(_)
            | HandlerKind::Agent(_)
            | HandlerKind::McpTool(_)
            | HandlerKind::Unsupported { .. } => (Vec::new(), None),
        };
        let changed = previous.map(|before| changed_since(before, &reviewed_text(h, project_root)));
        Item {
            handler: h,
            scripts,
            component,
            changed,
        }
    }

    /// The hook's entry, numbered `n`, onto `out`.
    fn render(&self, n: usize, project_root: &Path, out: &mut String) {
        let h = self.handler;
        out.push_str(&format!("  {n}. {}\n", headline(h)));
        match &h.kind {
            HandlerKind::Command(spec) => {
                out.push_str(&format!("       $ {}\n", spec.command));
                for (rel, hash) in &self.scripts {
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
            HandlerKind::Http(spec) => {
                for line in http_lines(spec) {
                    out.push_str(&format!("       {line}\n"));
                }
                out.push_str(
                    "     ! sends each event's input (commands, file paths, prompts) to that URL\n",
                );
            }
            HandlerKind::Prompt(spec) | HandlerKind::Agent(spec) => {
                for line in prompt_lines(spec) {
                    out.push_str(&format!("       {line}\n"));
                }
                out.push_str(
                    "     ! sends each event's input (commands, file paths, prompts) to your model\n",
                );
            }
            HandlerKind::McpTool(spec) => {
                for line in mcp_lines(spec) {
                    out.push_str(&format!("       {line}\n"));
                }
                out.push_str(
                    "     ! starts that server with your rights (or calls that URL) and sends it the input\n",
                );
            }
            HandlerKind::Wasm(spec) => {
                out.push_str(&format!(
                    "       component {}\n",
                    shown_component(spec, project_root)
                ));
                let hash = self.component.as_deref().unwrap_or_default();
                out.push_str(&format!("       sha256    {hash}\n"));
                out.push_str(&format!(
                    "     runs sandboxed: {}, timeout {}s\n",
                    spec.limits,
                    h.timeout.as_secs_f64()
                ));
                for (j, ask) in asks(&spec.allow).iter().enumerate() {
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
        if let Some(changed) = &self.changed {
            out.push_str(changed);
        }
    }
}

/// What a wasm hook's grants ask for, one line each.
fn asks(g: &Grants) -> Vec<String> {
    let list = |ps: &[PathBuf]| {
        ps.iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut asks = Vec::new();
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
    asks
}

/// The most bytes of a hook's reviewed text the trust store keeps.
pub const TEXT_CAP: usize = 8 << 10;

/// The most lines of a diff a re-review shows.
const DIFF_LINES: usize = 60;

/// A hook in one line: `command hook on PreToolUse, matcher `Bash`, if `^git``.
fn headline(h: &Handler) -> String {
    let mut head = format!("{} hook on {}", h.kind.name(), h.event.as_str());
    match &h.matcher {
        Matcher::All => {}
        m => head.push_str(&format!(", matcher `{m}`")),
    }
    if let Some(re) = &h.if_ {
        head.push_str(&format!(", if `{}`", re.as_str()));
    }
    head
}

/// The hook as the user reviews it, in plain lines: its headline, its
/// command and the text of each project script it runs, or its component's
/// digest, limits and grants. The trust store keeps it (at most
/// [`TEXT_CAP`] bytes) so that a re-review can show what changed.
pub fn reviewed_text(h: &Handler, project_root: &Path) -> String {
    let mut out = headline(h);
    out.push('\n');
    match &h.kind {
        HandlerKind::Command(spec) => {
            out.push_str(&format!("$ {}\n", spec.command));
            for (rel, path) in command_files(&spec.command, project_root) {
                // The text only of a script small enough to keep; else its digest.
                let text = fsread::read_bounded(&path, TEXT_CAP as u64)
                    .ok()
                    .and_then(|bytes| String::from_utf8(bytes).ok());
                match text {
                    Some(text) => out.push_str(&format!("--- {rel}\n{text}\n")),
                    None => {
                        let hash =
                            file_sha256(&path, caps::SCRIPT).unwrap_or_else(|e| e.to_string());
                        out.push_str(&format!("--- {rel} (sha256 {hash})\n"));
                    }
                }
            }
        }
        HandlerKind::Http(spec) => {
            for line in http_lines(spec) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        HandlerKind::Prompt(spec) | HandlerKind::Agent(spec) => {
            for line in prompt_lines(spec) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        HandlerKind::McpTool(spec) => {
            for line in mcp_lines(spec) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        HandlerKind::Wasm(spec) => {
            let hash =
                file_sha256(&spec.component, caps::COMPONENT).unwrap_or_else(|e| e.to_string());
            out.push_str(&format!(
                "component {} (sha256 {hash})\n{}, timeout {}s\nallow {}\n",
                shown_component(spec, project_root),
                spec.limits,
                h.timeout.as_secs_f64(),
                spec.allow.to_json()
            ));
        }
        HandlerKind::Unsupported { .. } => {}
    }
    if out.len() > TEXT_CAP {
        out.truncate(out.floor_char_boundary(TEXT_CAP));
        out.push_str("\n… (the rest is not kept)\n");
    }
    out
}

/// For each of `pending`, the trusted hook it is most likely a changed
/// version of, if any: a hook of the project's trusted set whose fingerprint
/// no current hook has any more, for the same event, preferring the same
/// label, then the most similar reviewed text. Each is paired at most once.
pub fn previous<'s>(
    store: &'s TrustStore,
    project_root: &Path,
    handlers: &[Handler],
    pending: &[&Handler],
) -> Vec<Option<&'s TrustedHook>> {
    let Some(project) = store.project(project_root) else {
        return vec![None; pending.len()];
    };
    let current: Vec<Fingerprint> = handlers
        .iter()
        .filter(|h| h.scope == Scope::Project)
        .filter_map(|h| fingerprint(h).ok().flatten())
        .collect();
    let mut stale: Vec<&TrustedHook> = project
        .hooks
        .iter()
        .filter(|(fp, _)| !current.contains(fp))
        .map(|(_, hook)| hook)
        .collect();
    pending
        .iter()
        .map(|h| {
            let text = reviewed_text(h, project_root);
            let score = |old: &TrustedHook| {
                let same_label = if old.label == h.label { 1.0 } else { 0.0 };
                let similar = old.text.as_deref().map_or(0.0, |old| {
                    similar::TextDiff::from_lines(old, text.as_str()).ratio()
                });
                same_label + similar
            };
            let best = stale
                .iter()
                .enumerate()
                .filter(|(_, old)| old.event == h.event.as_str())
                .max_by(|(_, a), (_, b)| score(a).total_cmp(&score(b)))
                .map(|(i, _)| i)?;
            Some(stale.remove(best))
        })
        .collect()
}

/// "changed since you trusted it", and a diff of the reviewed texts.
fn changed_since(before: &TrustedHook, now: &str) -> String {
    let mut out = format!(
        "     changed since you trusted it ({}):\n",
        before.trusted_at
    );
    let Some(old) = before.text.as_deref() else {
        out.push_str("       (what it was is not known: trusted by an older agenthooks)\n");
        return out;
    };
    let diff = similar::TextDiff::from_lines(old, now);
    let mut lines = Vec::new();
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Equal => continue,
            similar::ChangeTag::Delete => '-',
            similar::ChangeTag::Insert => '+',
        };
        lines.push(format!(
            "       {sign} {}",
            change.value().trim_end_matches('\n')
        ));
    }
    let more = lines.len().saturating_sub(DIFF_LINES);
    for line in lines.iter().take(DIFF_LINES) {
        out.push_str(line);
        out.push('\n');
    }
    if more > 0 {
        out.push_str(&format!("       … {more} more changed lines\n"));
    }
    out
}

/// `path` relative to the project root when inside it.
/// A wasm handler's component as the review shows it: its `oci://`
/// reference (the digest beside it is of the pulled bytes), else its path.
fn shown_component(spec: &crate::config::WasmSpec, project_root: &Path) -> String {
    match &spec.oci {
        Some(oci) => oci.reference.to_string(),
        None => shown_path(&spec.component, project_root),
    }
}

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

/// What a prompt hook's review shows: its prompt (each line), model and policy.
/// A server's env or header value as the review shows (and the trust store
/// keeps) it: a `${VAR}` reference as written, a literal (often a token)
/// not at all. The fingerprint still covers it, so a change untrusts.
fn shown_secret(value: &str) -> &str {
    if value.contains("${") {
        value
    } else {
        "(a literal value, not shown)"
    }
}

/// An mcp_tool hook as reviewed: its server's definition, tool and input.
fn mcp_lines(spec: &crate::config::McpToolSpec) -> Vec<String> {
    use crate::config::McpTransport;
    let mut lines = vec![format!("server  {}", spec.server)];
    match spec.found.as_ref().map(|s| (&s.transport, &s.file)) {
        Some((McpTransport::Stdio { command, args, env }, file)) => {
            lines.push(format!("        $ {command} {}", args.join(" ")));
            for (k, v) in env {
                lines.push(format!("        env {k}={}", shown_secret(v)));
            }
            lines.push(format!("        (from {})", file.display()));
        }
        Some((McpTransport::Http { url, headers }, file)) => {
            lines.push(format!("        POST {url}"));
            for (k, v) in headers {
                lines.push(format!("        header {k}: {}", shown_secret(v)));
            }
            lines.push(format!("        (from {})", file.display()));
        }
        Some((McpTransport::Unusable { why }, _)) => lines.push(format!("        unusable: {why}")),
        None => lines.push("        (not defined in any MCP file)".to_string()),
    }
    lines.push(format!("tool    {}", spec.tool));
    lines.push(format!("input   {}", spec.input));
    lines
}

fn prompt_lines(spec: &crate::config::PromptSpec) -> Vec<String> {
    let mut lines: Vec<String> = spec
        .prompt
        .lines()
        .map(|l| format!("prompt  {l}"))
        .collect();
    lines.push(format!(
        "model   {}",
        spec.model.as_deref().unwrap_or("(your `llm` setting's)")
    ));
    if spec.continue_on_block {
        lines.push("continueOnBlock true".to_string());
    }
    lines
}

/// An http hook as the user reviews it: where it POSTs, and its headers as
/// written (a `$VAR` is shown, never its value).
fn http_lines(spec: &crate::config::HttpSpec) -> Vec<String> {
    let mut lines = vec![format!("POST {}", spec.url)];
    for (name, value) in &spec.headers {
        lines.push(format!("header {name}: {value}"));
    }
    if !spec.allowed_env_vars.is_empty() {
        lines.push(format!(
            "headers may use {}",
            spec.allowed_env_vars.join(", ")
        ));
    }
    lines
}
