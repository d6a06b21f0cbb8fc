//! `agenthooks import` and the never-twice check: an agent's own hooks, found
//! in its native files, in Claude's format.
//!
//! Where each agent keeps its hooks and how one reads in Claude's format is
//! the agent module's data ([`crate::agents::NativeHooks`],
//! [`crate::agents::native_hooks::read`]); this module finds the files,
//! reads them bounded, leaves agenthooks' own entries out
//! ([`crate::install::is_ours`]), compares commands ([`normalise`], the one
//! rule both import's "already there" and [`twice`] use) and merges into
//! `.agents/hooks.json` ([`merge`]); `--move` takes them out of the
//! agent's files ([`moving`]) and `uninstall` puts them back ([`undo`]).
//! Nothing here names an agent.

mod edit;
pub mod merge;
pub mod moving;
pub mod plan;
pub mod take_out;
pub mod twice;
pub mod undo;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::agents::{self, Agent, NativeHook, Registration, USER_ONLY};
use crate::config::Scope;
use crate::fsread::{caps, read_bounded, ReadError};
use crate::install::{Env, InstallError, Os};

/// The most files one `*.json` directory entry yields, the first by name (a
/// directory of thousands is not a hooks folder; the rest are left out).
pub const MAX_DIR_FILES: usize = 64;

/// Whether import reads `agent`'s hooks file: JSON entries, or TOML tables
/// ([`Registration::Toml`]). Hooks in code (scripts, plugins) and YAML
/// blocks are not read.
pub fn reads_hooks_of(agent: &dyn Agent) -> bool {
    matches!(
        agent.install_spec().registration,
        Registration::Json(_) | Registration::Toml(_)
    )
}

/// The native files of `agent` at `scope` (at [`Scope::Managed`]: the
/// machine's, which an administrator keeps) that may hold hooks,
/// existing or not (a `*.json` entry lists the directory: at most
/// [`MAX_DIR_FILES`] files, by name). Empty for an agent whose hooks file
/// import does not read ([`reads_hooks_of`]), and at project scope for one
/// with no project file.
pub fn files(agent: &dyn Agent, scope: Scope, root: &Path, env: &Env) -> Vec<PathBuf> {
    let spec = agent.install_spec();
    if !reads_hooks_of(agent) {
        return Vec::new();
    }
    let native = agent.native_hooks();
    let paths: Vec<PathBuf> = match scope {
        Scope::Project => match native.project {
            Some(paths) => paths.iter().map(|p| root.join(p)).collect(),
            None if spec.project == USER_ONLY => Vec::new(),
            None => vec![root.join(spec.project)],
        },
        Scope::User => match native.user {
            Some(paths) => paths.iter().map(|p| env.user_path(*p)).collect(),
            None => vec![env.user_path(spec.user)],
        },
        // The machine's own (managed, policy) hooks: the test root override
        // and the platform are `Env::system_path`'s.
        Scope::Managed => env
            .system_path(&native.system.unwrap_or(spec.system), Os::CURRENT)
            .into_iter()
            .collect(),
    };
    paths.into_iter().flat_map(expand).collect()
}

/// A path, or for `<dir>/*.json` the JSON files in `dir`, sorted, bounded.
fn expand(path: PathBuf) -> Vec<PathBuf> {
    if path.file_name().is_none_or(|n| n != "*.json") {
        return vec![path];
    }
    let Some(dir) = path.parent() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .take(MAX_DIR_FILES * 4)
        .collect();
    out.sort();
    out.truncate(MAX_DIR_FILES);
    out
}

/// One native file's hooks.
#[derive(Clone)]
pub struct NativeFile {
    /// The agent whose file it is.
    pub agent: &'static dyn Agent,
    /// The file.
    pub path: PathBuf,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its hooks that are the user's own (agenthooks' entries left out).
    pub hooks: Vec<NativeHook>,
}

/// The hooks of `agent`'s native file at `path`, bounded; `None` when it does
/// not exist.
///
/// # Errors
/// When it cannot be read or parsed.
pub fn read(agent: &'static dyn Agent, path: &Path) -> Result<Option<NativeFile>, InstallError> {
    let bytes = match read_bounded(path, caps::HOOKS_JSON) {
        Ok(b) => b,
        Err(ReadError::NotFound { .. }) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let root = match &agent.install_spec().registration {
        Registration::Toml(_) => toml_root(path, &bytes)?,
        _ => crate::install::JsonDoc::parse(path, Some(&bytes), jsonc(agent))?.root,
    };
    Ok(Some(NativeFile {
        agent,
        path: path.to_path_buf(),
        hooks: users_own(agent, &root),
        bytes,
    }))
}

/// Whether `agent`'s JSON file may hold comments and trailing commas (read
/// and kept where it does).
pub(crate) fn jsonc(agent: &dyn Agent) -> bool {
    match &agent.install_spec().registration {
        Registration::Json(j) => j.jsonc,
        _ => false,
    }
}

/// A TOML file's document as JSON values (what
/// [`agents::native_hooks::read`] reads), for reading only: nothing is
/// written back from it.
fn toml_root(path: &Path, bytes: &[u8]) -> Result<Map<String, Value>, InstallError> {
    let unreadable = |what: String| InstallError::Unchangeable {
        path: path.to_path_buf(),
        what,
    };
    let text = std::str::from_utf8(bytes).map_err(|_| unreadable("not UTF-8 text".into()))?;
    let doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        unreadable(format!(
            "not valid TOML ({})",
            crate::protocol::one_line(&e.to_string())
        ))
    })?;
    Ok(toml_table(doc.as_table()))
}

fn toml_table<'a>(
    items: impl IntoIterator<Item = (&'a str, &'a toml_edit::Item)>,
) -> Map<String, Value> {
    items
        .into_iter()
        .map(|(k, item)| (k.to_string(), toml_item(item)))
        .collect()
}

fn toml_item(item: &toml_edit::Item) -> Value {
    match item {
        toml_edit::Item::Value(v) => toml_value(v),
        toml_edit::Item::Table(t) => Value::Object(toml_table(t.iter())),
        toml_edit::Item::ArrayOfTables(a) => a
            .iter()
            .map(|t| Value::Object(toml_table(t.iter())))
            .collect(),
        toml_edit::Item::None => Value::Null,
    }
}

fn toml_value(v: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match v {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::from(*i.value()),
        T::Float(f) => serde_json::Number::from_f64(*f.value()).map_or(Value::Null, Value::Number),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(a) => a.iter().map(toml_value).collect(),
        T::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), toml_value(v)))
                .collect(),
        ),
    }
}

/// The hooks in `root` that are not agenthooks' own entries (of any agent:
/// a file may hold another agent's, as Copilot's folder may).
fn users_own(agent: &dyn Agent, root: &Map<String, Value>) -> Vec<NativeHook> {
    agents::native_hooks::read(agent, root)
        .into_iter()
        .filter(|h| !h.command.as_deref().is_some_and(is_ours_any))
        .collect()
}

/// Whether `command` is one of agenthooks' own launchers, for any agent.
pub fn is_ours_any(command: &str) -> bool {
    agents::AGENTS
        .iter()
        .any(|a| crate::install::is_ours(command, a.id()))
}

/// Every existing native file of `agent` at `scope`, read; files that
/// cannot be read are returned as one line each.
pub fn native_files(
    agent: &'static dyn Agent,
    scope: Scope,
    root: &Path,
    env: &Env,
) -> (Vec<NativeFile>, Vec<String>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for path in files(agent, scope, root, env) {
        match read(agent, &path) {
            Ok(Some(file)) => found.push(file),
            Ok(None) => {}
            Err(e) => errors.push(e.to_string()),
        }
    }
    (found, errors)
}

/// A command as compared for "the same hook": the agent's variables in Claude
/// Code's spelling, `$CLAUDE_PROJECT_DIR` (either spelling) as `root` where
/// it is known (the loader expands it so), whitespace runs as one space.
pub fn normalise(agent: Option<&dyn Agent>, command: &str, root: Option<&Path>) -> String {
    let text = match agent {
        Some(a) => agents::native_hooks::rewrite_vars(a, command).0,
        None => command.to_string(),
    };
    let text = text.replace("${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR");
    let text = match root {
        Some(r) => expand_root(&text, &r.to_string_lossy()),
        None => text,
    };
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `$CLAUDE_PROJECT_DIR` (as a whole variable) replaced by `root`.
fn expand_root(text: &str, root: &str) -> String {
    const VAR: &str = "$CLAUDE_PROJECT_DIR";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(VAR) {
        out.push_str(&rest[..i]);
        let tail = &rest[i + VAR.len()..];
        if tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(VAR);
        } else {
            out.push_str(root);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// A path as shown in a line: relative to `root` when under it, `~/…` under
/// `home`, else as is.
pub fn show(path: &Path, root: &Path, home: &Path) -> String {
    if let Ok(rel) = path.strip_prefix(root) {
        if !rel.as_os_str().is_empty() {
            return rel.display().to_string();
        }
    }
    if let Ok(rel) = path.strip_prefix(home) {
        return format!("~/{}", rel.display());
    }
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_compare_after_variables_root_and_whitespace() {
        let gemini = agents::find("gemini").unwrap();
        let root = Path::new("/p");
        assert_eq!(
            normalise(Some(gemini), "  $GEMINI_PROJECT_DIR/x.sh\t--a ", Some(root)),
            normalise(None, "${CLAUDE_PROJECT_DIR}/x.sh --a", Some(root)),
        );
        assert_eq!(normalise(None, "/p/x.sh  --a", Some(root)), "/p/x.sh --a");
        assert_eq!(
            normalise(None, "$CLAUDE_PROJECT_DIRX", Some(root)),
            "$CLAUDE_PROJECT_DIRX"
        );
        assert_ne!(
            normalise(None, "./a.sh", None),
            normalise(None, "./b.sh", None)
        );
    }
}
