//! Undoing `import --move`: what it took out of an agent's file is
//! recorded beside that file's backups ([`crate::install::backups`]: under
//! agenthooks' state directory, never in the work tree), and `uninstall`
//! of that agent puts it back.
//!
//! When the file is as the move left it, but for agenthooks' own entries
//! (which `install` may have changed since), it gets its bytes from before
//! the move back, byte for byte; otherwise the moved entries are merged back
//! into it, each into the group of its matcher (or at its old place), and
//! the caller says so. `uninstall --keep-moved` only forgets the record:
//! the hooks stay in `.agents/hooks.json`.

use std::cell::Cell;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::edit::{edit_native, Changed};
use super::NativeFile;
use crate::agents::{Agent, NativeHook};
use crate::atomic::{self, Lock};
use crate::fsread::{caps, read_bounded};
use crate::install::backups::Slot;
use crate::install::{self, Env, InstallError, JsonDoc};

/// The record of one file's move (`moved.json` in its backups folder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// The agent whose file it is.
    pub agent: String,
    /// The file's text before the first move.
    pub before: String,
    /// Its text after the last move.
    pub after: String,
    /// The entries moved out, in file order.
    pub hooks: Vec<Entry>,
}

/// One entry moved out of a native file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// The native event key it was under.
    pub event: String,
    /// Its item's index in the event's array.
    pub item: usize,
    /// Its index in the item's `hooks` (nested shapes); `None`: the item was
    /// the handler.
    pub handler: Option<usize>,
    /// Nested shapes: its group's keys but `hooks` (the matcher, ...).
    pub group: Option<Map<String, Value>>,
    /// The handler (nested) or the item (flat) as it was.
    pub entry: Value,
}

/// A record is read bounded: two copies of a file and its entries.
const RECORD_CAP: u64 = 3 * caps::HOOKS_JSON;

impl Record {
    /// The record of `file`'s move kept under `env`'s state directory, if
    /// any; one that cannot be read or parsed counts as none.
    pub fn load(env: &Env, file: &Path) -> Option<Record> {
        let slot = slot(env, file)?;
        let bytes = read_bounded(&slot.moved(), RECORD_CAP).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Writes it into `file`'s backups folder (private, atomic).
    ///
    /// # Errors
    /// When it cannot be written.
    fn save(&self, env: &Env, file: &Path) -> Result<(), InstallError> {
        let Some(slot) = slot(env, file) else {
            return Ok(());
        };
        slot.ensure()
            .map_err(|e| InstallError::write(slot.dir(), e))?;
        let bytes = serde_json::to_vec_pretty(self).unwrap_or_default();
        atomic::write_with(&slot.moved(), atomic::Options::PRIVATE, |f| {
            std::io::Write::write_all(f, &bytes)
        })
        .map_err(|e| InstallError::write(&slot.moved(), e))
    }

    /// Forgets the record of `file` (its hooks are back, or are to stay
    /// where they are).
    ///
    /// # Errors
    /// When it cannot be removed.
    pub fn forget(env: &Env, file: &Path) -> Result<(), InstallError> {
        match slot(env, file) {
            Some(slot) => {
                atomic::remove(&slot.moved()).map_err(|e| InstallError::io(&slot.moved(), e))
            }
            None => Ok(()),
        }
    }
}

fn slot(env: &Env, file: &Path) -> Option<Slot> {
    env.state.as_deref().map(|state| Slot::of(state, file))
}

/// After `import --move` wrote `file` (from `before` to `after`), taking
/// `hooks` out of it: records that, on top of an earlier move of the same
/// file (whose `before` is kept: it is the file before any move).
///
/// # Errors
/// When the record cannot be written.
pub fn remember(
    env: &Env,
    file: &NativeFile,
    hooks: &[NativeHook],
    before: &[u8],
    after: &[u8],
) -> Result<(), InstallError> {
    let (Ok(before_text), Ok(after_text)) =
        (std::str::from_utf8(before), std::str::from_utf8(after))
    else {
        return Ok(());
    };
    let root = match JsonDoc::parse(&file.path, Some(before), super::jsonc(file.agent)) {
        Ok(doc) => doc.root,
        Err(_) => return Ok(()),
    };
    let mut entries: Vec<Entry> = hooks.iter().filter_map(|h| entry_of(&root, h)).collect();
    let mut record = Record {
        agent: file.agent.id().to_string(),
        before: before_text.to_string(),
        after: after_text.to_string(),
        hooks: Vec::new(),
    };
    let Some(slot) = slot(env, &file.path) else {
        return Ok(());
    };
    // One record per file, read and written under its own lock: two moves
    // of one file at once each add their hooks.
    slot.ensure()
        .map_err(|e| InstallError::write(slot.dir(), e))?;
    let _lock = Lock::acquire(&slot.moved(), atomic::LOCK_WAIT)
        .map_err(|e| InstallError::io(&atomic::lock_path(&slot.moved()), e))?;
    if let Some(earlier) = Record::load(env, &file.path).filter(|r| r.agent == record.agent) {
        record.before = earlier.before;
        let mut all = earlier.hooks;
        all.append(&mut entries);
        entries = all;
    }
    record.hooks = entries;
    record.save(env, &file.path)
}

/// The entry of `hook` in `root` (the file it was read from), as it is there.
fn entry_of(root: &Map<String, Value>, hook: &NativeHook) -> Option<Entry> {
    let item = root
        .get("hooks")?
        .get(&hook.native_event)?
        .as_array()?
        .get(hook.item)?;
    let (group, entry) = match hook.handler {
        Some(j) => {
            let mut group = item.as_object()?.clone();
            let handler = group.shift_remove("hooks")?.as_array()?.get(j)?.clone();
            (Some(group), handler)
        }
        None => (None, item.clone()),
    };
    Some(Entry {
        event: hook.native_event.clone(),
        item: hook.item,
        handler: hook.handler,
        group,
        entry,
    })
}

/// Puts `entries` back into `root` (an agent's parsed file): each one not
/// there already goes into the first group of its event with the same keys
/// but `hooks` (its matcher), at its old index where it can, else as its
/// own group (or item) at its old place. Returns how many went back.
///
/// # Errors
/// When `hooks` or an event's value is not what the agent's file has there
/// (the key is named).
pub fn put_back(root: &mut Map<String, Value>, entries: &[Entry]) -> Result<usize, String> {
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err("`hooks` is not an object".to_string());
    };
    let mut back = 0;
    for e in entries {
        let items = hooks
            .entry(e.event.as_str())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(items) = items else {
            return Err(format!("`hooks.{}` is not an array", e.event));
        };
        match &e.group {
            None => {
                if !items.contains(&e.entry) {
                    items.insert(e.item.min(items.len()), e.entry.clone());
                    back += 1;
                }
            }
            Some(group) => {
                let same_group = |item: &Value| {
                    item.as_object().is_some_and(|o| {
                        o.iter().filter(|(k, _)| *k != "hooks").count() == group.len()
                            && group.iter().all(|(k, v)| o.get(k) == Some(v))
                    })
                };
                let at = items
                    .iter()
                    .position(|i| same_group(i) && i.get("hooks").is_some_and(Value::is_array));
                match at.and_then(|i| items[i].get_mut("hooks")?.as_array_mut()) {
                    Some(handlers) if handlers.contains(&e.entry) => {}
                    Some(handlers) => {
                        let j = e.handler.unwrap_or(handlers.len()).min(handlers.len());
                        handlers.insert(j, e.entry.clone());
                        back += 1;
                    }
                    None => {
                        let mut item = group.clone();
                        item.insert("hooks".into(), Value::Array(vec![e.entry.clone()]));
                        items.insert(e.item.min(items.len()), Value::Object(item));
                        back += 1;
                    }
                }
            }
        }
    }
    Ok(back)
}

/// How one file's moved hooks came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Back {
    /// The file as it was before the move: nothing else had changed.
    AsTheyWere,
    /// Merged back into a file that changed since the move.
    Merged,
}

/// One file whose moved hooks `uninstall` put back (or would).
#[derive(Debug, Clone)]
pub struct PutBack {
    /// The file.
    pub path: PathBuf,
    /// How many entries were moved out of it.
    pub hooks: usize,
    /// How they came back.
    pub how: Back,
}

/// Makes `doc` (the agent's file at `path` now) hold the moved hooks of
/// `record` again: the text before the move when the file is as the move
/// left it but for agenthooks' entries and has no comment the text before
/// lacks, else the entries merged back.
///
/// # Errors
/// When a version of the file cannot be parsed, or the entries cannot be
/// merged back (a `hooks` that is no object, ...).
fn restore(
    agent: &dyn Agent,
    path: &Path,
    doc: &mut JsonDoc,
    record: &Record,
) -> Result<Back, InstallError> {
    let jsonc = super::jsonc(agent);
    let after = JsonDoc::parse(path, Some(record.after.as_bytes()), jsonc)?;
    let untouched = install::without_ours(agent, path, &doc.root)?
        == install::without_ours(agent, path, &after.root)?
        && doc.comments_kept_by(record.before.as_bytes());
    if untouched {
        *doc = JsonDoc::parse(path, Some(record.before.as_bytes()), jsonc)?;
        return Ok(Back::AsTheyWere);
    }
    // Into the user's own groups, never into one of agenthooks' (which go).
    doc.root = install::without_ours(agent, path, &doc.root)?;
    put_back(&mut doc.root, &record.hooks).map_err(|why| InstallError::Conflict {
        path: path.to_path_buf(),
        why: format!(
            "the hooks `import --move` took out of it cannot be merged back: {why}; they stay in .agents/hooks.json"
        ),
    })?;
    Ok(Back::Merged)
}

/// What `uninstall` of one agent changed (or would) besides its own entries.
#[derive(Debug, Clone, Default)]
pub struct Undone {
    /// The install target's changes ([`install::change_with`]).
    pub changes: Vec<install::FileChange>,
    /// The agent's other files the hooks went back into.
    pub others: Vec<Changed>,
    /// Per file, how its hooks came back.
    pub put_back: Vec<PutBack>,
    /// Per file whose hooks stay in `.agents/hooks.json` (`--keep-moved`),
    /// how many there were.
    pub kept: Vec<(PathBuf, usize)>,
}

/// `uninstall` of `req.agent` (an [`install::Action::Uninstall`] request):
/// its entries go, and the hooks `import --move` took out of its files come
/// back (`keep_moved`: stay in `.agents/hooks.json`, the records are
/// forgotten); with `dry_run`, only planned.
///
/// # Errors
/// The first file that cannot be read, parsed, merged into or written; the
/// files before it stay changed (each one whole), the others untouched.
pub fn uninstall(
    req: &install::Request<'_>,
    keep_moved: bool,
    dry_run: bool,
) -> Result<Undone, InstallError> {
    let agent = req.agent;
    let target = install::native_file(agent, req.scope, req.project_root, req.env);
    let mut undone = Undone::default();
    let mut paths = super::files(agent, req.scope, req.project_root, req.env);
    if let Some(t) = target.as_ref().filter(|t| !paths.contains(t)) {
        paths.push(t.clone());
    }
    let records: Vec<(PathBuf, Record)> = paths
        .into_iter()
        .filter_map(|p| Some((p.clone(), Record::load(req.env, &p)?)))
        .filter(|(_, r)| r.agent == agent.id())
        .collect();
    if keep_moved {
        undone.kept = records
            .iter()
            .map(|(p, r)| (p.clone(), r.hooks.len()))
            .collect();
        undone.changes = if dry_run {
            install::plan(req)?
        } else {
            install::change(req)?
        };
        if !dry_run {
            for (path, _) in &records {
                Record::forget(req.env, path)?;
            }
        }
        return Ok(undone);
    }
    let mut in_target = None;
    for (path, record) in records {
        if Some(&path) == target.as_ref() {
            in_target = Some(record);
            continue;
        }
        let (changed, how) = restore_other(agent, &path, &record, dry_run)?;
        if !dry_run {
            Record::forget(req.env, &path)?;
        }
        undone.others.push(changed);
        undone.put_back.push(PutBack {
            path,
            hooks: record.hooks.len(),
            how,
        });
    }
    let how = Cell::new(None);
    let edit = |doc: &mut JsonDoc| {
        if let (Some(record), Some(path)) = (&in_target, &target) {
            how.set(Some(restore(agent, path, doc, record)?));
        }
        Ok(())
    };
    undone.changes = if dry_run {
        install::plan_with(req, &edit)?
    } else {
        install::change_with(req, &edit)?
    };
    if let (Some(record), Some(path), Some(how)) = (&in_target, &target, how.get()) {
        if !dry_run {
            Record::forget(req.env, path)?;
        }
        undone.put_back.push(PutBack {
            path: path.clone(),
            hooks: record.hooks.len(),
            how,
        });
    }
    Ok(undone)
}

/// Puts the hooks of `record` back into `path`, one of the agent's files
/// other than its install target (which holds no entry of ours), under its
/// lock unless `dry_run`; a file removed since is created again.
fn restore_other(
    agent: &dyn Agent,
    path: &Path,
    record: &Record,
    dry_run: bool,
) -> Result<(Changed, Back), InstallError> {
    let edit = |doc: &mut JsonDoc| restore(agent, path, doc, record);
    let (changed, how) = edit_native(agent, path, dry_run, true, edit)?;
    Ok((changed, how.unwrap_or(Back::Merged)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{find, native_hooks};
    use crate::test_support::obj;
    use serde_json::json;

    #[test]
    fn moved_entries_go_back_into_their_groups_at_their_places_once() {
        let claude = find("claude").unwrap();
        let was = obj(json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh"}, {"type": "command", "command": "./keep.sh"}]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "./b.sh"}]}
            ]
        }}));
        let moved: Vec<NativeHook> = native_hooks::read(claude, &was)
            .into_iter()
            .filter(|h| h.command.as_deref() != Some("./keep.sh"))
            .collect();
        let entries: Vec<Entry> = moved.iter().filter_map(|h| entry_of(&was, h)).collect();
        assert_eq!(entries.len(), 2);
        let mut now = was.clone();
        super::super::take_out::take_out(claude, &mut now, &moved);
        // The user added a hook since the move.
        now["hooks"]["PreToolUse"][0]["hooks"]
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "command", "command": "./new.sh"}));
        assert_eq!(put_back(&mut now, &entries), Ok(2));
        assert_eq!(
            Value::Object(now.clone()),
            json!({"hooks": {"PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "./a.sh"},
                    {"type": "command", "command": "./keep.sh"},
                    {"type": "command", "command": "./new.sh"}
                ]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "./b.sh"}]}
            ]}})
        );
        // Again: each is there already.
        assert_eq!(put_back(&mut now, &entries), Ok(0));
        // A flat file's items, and a `hooks` that is not an object.
        let copilot = find("copilot").unwrap();
        let flat = obj(
            json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./c.sh"}]}}),
        );
        let hooks = native_hooks::read(copilot, &flat);
        let entries: Vec<Entry> = hooks.iter().filter_map(|h| entry_of(&flat, h)).collect();
        let mut emptied = obj(json!({"version": 1}));
        assert_eq!(put_back(&mut emptied, &entries), Ok(1));
        assert_eq!(Value::Object(emptied), Value::Object(flat));
        let mut bad = obj(json!({"hooks": []}));
        assert!(put_back(&mut bad, &entries).is_err());
    }

    #[test]
    fn an_untouched_file_gets_its_text_back_and_an_edited_one_a_merge() {
        let gemini = find("gemini").unwrap();
        let path = Path::new("/p/.gemini/settings.json");
        let before = "{\n  // mine\n  \"hooks\": {\"AfterAgent\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./n.sh\"}]}]}\n}\n";
        let after = "{\n  // mine\n}\n";
        let was = JsonDoc::parse(path, Some(before.as_bytes()), true).unwrap();
        let entries = native_hooks::read(gemini, &was.root)
            .iter()
            .filter_map(|h| entry_of(&was.root, h))
            .collect();
        let record = Record {
            agent: "gemini".into(),
            before: before.into(),
            after: after.into(),
            hooks: entries,
        };
        let mut doc = JsonDoc::parse(path, Some(after.as_bytes()), true).unwrap();
        assert_eq!(
            restore(gemini, path, &mut doc, &record).unwrap(),
            Back::AsTheyWere
        );
        assert_eq!(doc.render().unwrap(), before.as_bytes());
        // A key or a comment added since: merged, and what was added stays.
        for (edited, added) in [
            ("{\n  // mine\n  \"model\": \"x\"\n}\n", "\"model\": \"x\""),
            ("{\n  // mine\n  // and a note\n}\n", "and a note"),
        ] {
            let mut doc = JsonDoc::parse(path, Some(edited.as_bytes()), true).unwrap();
            let how = restore(gemini, path, &mut doc, &record).unwrap();
            assert_eq!(how, Back::Merged);
            let text = String::from_utf8(doc.render().unwrap()).unwrap();
            assert!(text.contains(added) && text.contains("./n.sh"), "{text}");
        }
    }
}
