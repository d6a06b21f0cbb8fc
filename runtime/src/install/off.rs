//! An agent's own off switch: a setting in one of its files that silently
//! stops it running its hooks, agenthooks' entries among them (Gemini CLI's
//! `hooksConfig.enabled: false`, Claude Code's `disableAllHooks`). The
//! settings and files are the agent module's ([`OffSwitches`]); this reads
//! them, for `check`, `status` and the SessionStart message.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{json, targets, Env};
use crate::agents::{Agent, Off, OffSwitches, Registration};
use crate::config::Scope;
use crate::fsread::{self, caps};

/// One setting that switches off some of an agent's agenthooks entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchedOff {
    /// The file that holds it.
    pub file: PathBuf,
    /// The setting, a JSON pointer (`/hooksConfig/enabled`).
    pub setting: &'static str,
    /// The scopes of the entries it stops, of those installed.
    pub stops: Vec<Scope>,
}

/// The settings of `agent`'s own files that stop its entries at the
/// `installed` scopes, in the order the agent's files are read (project,
/// user, system; each scope's hooks file before its other settings files).
pub fn switched_off(
    agent: &dyn Agent,
    installed: &[Scope],
    project_root: &Path,
    env: &Env,
) -> Vec<SwitchedOff> {
    let spec = agent.install_spec();
    let Registration::Json(j) = &spec.registration else {
        return Vec::new();
    };
    let off = &j.off;
    if off.settings.is_empty() || installed.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (scope, file) in files(agent, off, project_root, env) {
        let Some(root) = read(&file, j.jsonc) else {
            continue;
        };
        for &(setting, value) in off.settings {
            if !holds(&root, setting, value) {
                continue;
            }
            let stops: Vec<Scope> = (installed.iter().copied())
                .filter(|&entries| stops(off, setting, scope, entries))
                .collect();
            if !stops.is_empty() {
                found.push(SwitchedOff {
                    file: file.clone(),
                    setting,
                    stops,
                });
            }
        }
    }
    found
}

/// Every file the agent reads its switches from, with its scope.
fn files(agent: &dyn Agent, off: &OffSwitches, root: &Path, env: &Env) -> Vec<(Scope, PathBuf)> {
    let spec = agent.install_spec();
    let hooks_file = |scope| {
        off.in_hooks_files
            .then(|| targets::path(spec, scope, root, env))
            .flatten()
    };
    let mut files: Vec<(Scope, PathBuf)> = Vec::new();
    files.extend(hooks_file(Scope::Project).map(|f| (Scope::Project, f)));
    files.extend(off.project.iter().map(|p| (Scope::Project, root.join(p))));
    files.extend(hooks_file(Scope::User).map(|f| (Scope::User, f)));
    files.extend(off.user.iter().map(|p| (Scope::User, env.user_path(*p))));
    files.extend(hooks_file(Scope::Managed).map(|f| (Scope::Managed, f)));
    files
}

/// The file's JSON object, when it is a readable JSON (or JSONC) file.
fn read(file: &Path, jsonc: bool) -> Option<Value> {
    let bytes = fsread::read_bounded(file, caps::HOOKS_JSON).ok()?;
    let doc = json::parse(file, &bytes, jsonc).ok()?;
    Some(Value::Object(doc.root))
}

/// Whether `root` holds `setting` as `value` says switches hooks off.
fn holds(root: &Value, setting: &str, value: Off) -> bool {
    let Some(found) = root.pointer(setting) else {
        return false;
    };
    match value {
        Off::Is(off) => found.as_bool() == Some(off),
        Off::Lists(name) => found
            .as_array()
            .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(name))),
    }
}

/// Whether `setting`, found in a file of scope `file`, stops the entries at
/// scope `entries`: an agent whose system-wide entries run whatever another
/// file says ([`OffSwitches::system_exempt`]) keeps them, and its
/// [`OffSwitches::managed_only`] setting stops every other scope's.
fn stops(off: &OffSwitches, setting: &str, file: Scope, entries: Scope) -> bool {
    if off.managed_only == Some(setting) {
        return file == Scope::Managed && entries != Scope::Managed;
    }
    !(off.system_exempt && file != Scope::Managed && entries == Scope::Managed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find;

    fn env(home: &Path) -> Env {
        Env::with_home(home)
    }

    #[test]
    fn gemini_s_switches_are_read_from_its_settings() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (root, home) = (dir.path().join("p"), dir.path().join("h"));
        let gemini = find("gemini").expect("gemini");
        let write = |rel: &Path, text: &str| {
            std::fs::create_dir_all(rel.parent().expect("a parent")).expect("mkdir");
            std::fs::write(rel, text).expect("write");
        };
        let scopes = [Scope::Project, Scope::User];
        assert_eq!(switched_off(gemini, &scopes, &root, &env(&home)), vec![]);
        // JSONC, as Gemini CLI reads it.
        write(
            &root.join(".gemini/settings.json"),
            "{\n  // off for now\n  \"hooksConfig\": {\"enabled\": false}\n}\n",
        );
        write(
            &home.join(".gemini/settings.json"),
            r#"{"hooksConfig": {"disabled": ["fmt", "agenthooks"]}, "hooks": {"disabled": ["x"]}}"#,
        );
        let found = switched_off(gemini, &scopes, &root, &env(&home));
        let settings: Vec<&str> = found.iter().map(|s| s.setting).collect();
        assert_eq!(settings, ["/hooksConfig/enabled", "/hooksConfig/disabled"]);
        assert_eq!(found[0].file, root.join(".gemini/settings.json"));
        assert_eq!(found[0].stops, scopes);
        // Nothing installed: nothing stopped.
        assert_eq!(switched_off(gemini, &[], &root, &env(&home)), vec![]);
    }

    #[test]
    fn claude_s_managed_entries_run_under_a_user_s_switch() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (root, home) = (dir.path().join("p"), dir.path().join("h"));
        let claude = find("claude").expect("claude");
        std::fs::create_dir_all(root.join(".claude")).expect("mkdir");
        std::fs::write(
            root.join(".claude/settings.local.json"),
            r#"{"disableAllHooks": true}"#,
        )
        .expect("write");
        let env = env(&home);
        let found = switched_off(claude, &[Scope::Project, Scope::Managed], &root, &env);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].setting, "/disableAllHooks");
        assert_eq!(found[0].stops, [Scope::Project]);
        assert_eq!(switched_off(claude, &[Scope::Managed], &root, &env), vec![]);
        let off = &OffSwitches::NONE;
        assert!(stops(off, "/x", Scope::User, Scope::Managed));
        // The managed file's `allowManagedHooksOnly` stops the others only.
        let system = dir.path().join("system");
        let env = Env::with_home(&home).with_system_root(&system);
        let managed =
            crate::install::targets::path(claude.install_spec(), Scope::Managed, &root, &env)
                .expect("Claude Code has a managed file");
        std::fs::create_dir_all(managed.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&managed, r#"{"allowManagedHooksOnly": true}"#).expect("write");
        std::fs::remove_file(root.join(".claude/settings.local.json")).expect("rm");
        let found = switched_off(claude, &[Scope::User, Scope::Managed], &root, &env);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].setting, &found[0].stops, &found[0].file),
            ("/allowManagedHooksOnly", &vec![Scope::User], &managed)
        );
    }
}
