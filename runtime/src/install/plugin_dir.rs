//! `agenthooks plugin`: the files of a plugin (or extension) directory an
//! agent loads, whose hooks call `agenthooks run --agent <id>` for the events
//! the hooks use. The layout is the agent's ([`PluginLayout`]); the hooks
//! file is the agent's own hooks-file format, built exactly as `install`
//! builds its entries, so `check` and `run` read a plugin's hooks as they
//! read an installed file's.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::launcher::{command_line_at, powershell_line};
use super::targets::{entry, native_timeout, root_keys};
use super::wiring::{rows, Used};
use super::Env;
use crate::agents::{Agent, PluginLayout, Registration};
use crate::config::Scope;
use crate::fsread::{caps, read_bounded};

/// The plugin's name in its manifest.
pub const PLUGIN_NAME: &str = "agenthooks";

/// The agent's plugin layout, or why it has none (one line).
///
/// # Errors
/// When the agent loads no plugin with hooks, or keeps its hooks in a format
/// other than a JSON hooks file.
pub fn layout(agent: &dyn Agent) -> Result<PluginLayout, String> {
    let spec = agent.install_spec();
    match (spec.plugin, &spec.registration) {
        (Some(layout), Registration::Json(_)) => Ok(layout),
        _ => Err(format!(
            "{} loads no plugin with hooks agenthooks can write; use `agenthooks install {}`",
            agent.display_name(),
            agent.id()
        )),
    }
}

/// The plugin's files (relative path, text) for `agent`, calling `binary`
/// (the bare `agenthooks`, looked up on `PATH`, or an absolute path) for
/// each event `used` selects.
///
/// # Errors
/// As [`layout`].
pub fn files(
    agent: &dyn Agent,
    binary: &Path,
    used: &Used,
) -> Result<Vec<(PathBuf, String)>, String> {
    let layout = layout(agent)?;
    let Registration::Json(spec) = &agent.install_spec().registration else {
        return Err(format!("{} has no JSON hooks file", agent.display_name()));
    };
    let mut hooks = Map::new();
    for row in rows(agent.table(), used) {
        let command = command_line_at(binary, agent, row.native, Scope::Project);
        let powershell = powershell_line(binary, agent, row.native, Scope::Project);
        let timeout = native_timeout(agent, row.canonical);
        let item = entry(spec, &command, &powershell, timeout, None, None);
        hooks.insert(row.native.to_string(), Value::Array(vec![item]));
    }
    let mut root: Map<String, Value> = root_keys(spec)
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    root.insert("hooks".to_string(), Value::Object(hooks));
    let manifest = json!({
        "name": PLUGIN_NAME,
        "version": env!("CARGO_PKG_VERSION"),
        "description": "Runs the hooks of .agents/hooks.json (the project's and ~/.agents/hooks.json) through agenthooks",
    });
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
    Ok(vec![
        (PathBuf::from(layout.manifest), pretty(&manifest)),
        (PathBuf::from(layout.hooks), pretty(&Value::Object(root))),
    ])
}

/// The most folders read at each level of an agent's plugin store (a store
/// of thousands is not searched further).
const MAX_STORE_DIRS: usize = 256;

/// The roots of the agenthooks plugins `agent` keeps in its plugin store
/// ([`PluginLayout::store`]): plugins whose hooks file calls `agenthooks run
/// --agent <id>`, found by content, not by name. Bounded: at most
/// 256 folders a level (`MAX_STORE_DIRS`), each hooks file read capped; what
/// cannot be read is left out.
pub fn installed(agent: &dyn Agent, env: &Env) -> Vec<PathBuf> {
    let Ok(layout) = layout(agent) else {
        return Vec::new();
    };
    let Some((store, depth)) = layout.store else {
        return Vec::new();
    };
    let mut level = vec![env.user_path(store)];
    for _ in 0..depth {
        level = level
            .iter()
            .flat_map(|d| subdirs(d))
            .take(MAX_STORE_DIRS)
            .collect();
    }
    level
        .into_iter()
        .map(|dir| {
            layout
                .link
                .and_then(|file| linked_root(&dir.join(file)))
                .unwrap_or(dir)
        })
        .filter(|root| calls_agenthooks(&root.join(layout.hooks), agent.id()))
        .collect()
}

/// The folders in `dir`, by name, at most [`MAX_STORE_DIRS`].
fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .take(MAX_STORE_DIRS * 4)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out.truncate(MAX_STORE_DIRS);
    out
}

/// The absolute `"source"` of a link file, when it is one.
fn linked_root(file: &Path) -> Option<PathBuf> {
    let bytes = read_bounded(file, caps::HOOKS_JSON).ok()?;
    let doc: Value = serde_json::from_slice(&bytes).ok()?;
    let source = PathBuf::from(doc.get("source")?.as_str()?);
    source.is_absolute().then_some(source)
}

/// Whether the hooks file at `path` holds an agenthooks entry for `id`.
fn calls_agenthooks(path: &Path, id: &str) -> bool {
    let Ok(bytes) = read_bounded(path, caps::HOOKS_JSON) else {
        return false;
    };
    let Ok(doc) = serde_json::from_slice::<Value>(&bytes) else {
        return false;
    };
    fn any_string(v: &Value, f: &dyn Fn(&str) -> bool) -> bool {
        match v {
            Value::String(s) => f(s),
            Value::Array(a) => a.iter().any(|v| any_string(v, f)),
            Value::Object(o) => o.values().any(|v| any_string(v, f)),
            _ => false,
        }
    }
    any_string(&doc, &|s| super::is_ours(s, id))
}
