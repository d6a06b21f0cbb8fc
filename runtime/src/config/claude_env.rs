//! Claude Code's hook environment, as far as agenthooks can give it in
//! every agent: the plugin root and data directory it derives, and the
//! variables only Claude Code can set (which `check` flags).
//!
//! Why each piece is the way it is:
//!
//! - **The plugin root is where the hooks file lies.** A Claude Code plugin
//!   keeps `.claude-plugin/plugin.json` beside `hooks/hooks.json`; a hooks
//!   file in such a directory (or in `.agents/` of a plugin's repository)
//!   gets that directory. Anything else gets the project root, which is
//!   where hooks copied out of a plugin keep their scripts.
//! - **Plugin data is per plugin root, under agenthooks' data directory.**
//!   Claude Code's `CLAUDE_PLUGIN_DATA` outlives plugin updates; a
//!   directory keyed by the root's path does the same here, and is made
//!   only when a hook can use it (a plugin, or a command that names it).
//! - **Some variables cannot be derived.** `CLAUDE_ENV_FILE` is sourced by
//!   Claude Code's own shell; no other agent reads it, so a file agenthooks
//!   made up would swallow what the hook wrote. Those stay unset, and
//!   `check` says so with the fix.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The plugin root variable hooks read.
pub const PLUGIN_ROOT_VAR: &str = "CLAUDE_PLUGIN_ROOT";
/// The plugin data variable hooks read.
pub const PLUGIN_DATA_VAR: &str = "CLAUDE_PLUGIN_DATA";

/// The marker of a Claude Code plugin, under its root.
const PLUGIN_MANIFEST: &str = ".claude-plugin/plugin.json";

/// Variables only Claude Code sets, with what to do instead. In Claude
/// Code itself they are set and inherited by agenthooks' hooks; elsewhere
/// they are empty.
pub const CLAUDE_ONLY: &[(&str, &str)] = &[
    (
        "CLAUDE_ENV_FILE",
        "other agents never source it: print `additionalContext` instead, or guard with `[ -n \"$CLAUDE_ENV_FILE\" ]`",
    ),
    (
        "CLAUDE_CODE_REMOTE",
        "treat an empty value as local, or read it with a default (`${CLAUDE_CODE_REMOTE:-false}`)",
    ),
    (
        "CLAUDE_CODE_BRIDGE_SESSION_ID",
        "use `session_id` from the event on stdin",
    ),
    (
        "CLAUDE_EFFORT",
        "read it with a default (`${CLAUDE_EFFORT:-medium}`)",
    ),
];

/// The plugin directory a hooks file at `file` belongs to: its own
/// directory or that directory's parent, whichever holds
/// `.claude-plugin/plugin.json` (`<plugin>/hooks/hooks.json`,
/// `<plugin>/.agents/hooks.json`); `None` for a relative path or no plugin.
pub fn plugin_dir(file: &Path) -> Option<PathBuf> {
    if !file.is_absolute() {
        return None;
    }
    let dir = file.parent()?;
    [Some(dir), dir.parent()]
        .into_iter()
        .flatten()
        .find(|d| d.join(PLUGIN_MANIFEST).is_file())
        .map(Path::to_path_buf)
}

/// `CLAUDE_PLUGIN_ROOT` for a hook declared in `file`: its plugin directory
/// ([`plugin_dir`]), else `project_root`.
pub fn plugin_root(file: &Path, project_root: Option<&Path>) -> Option<PathBuf> {
    plugin_dir(file).or_else(|| project_root.map(Path::to_path_buf))
}

/// `CLAUDE_PLUGIN_DATA` for the plugin rooted at `root`: `plugin-data/<name>-<hash>`
/// under `data` (agenthooks' data directory), the hash being of the root's path.
pub fn plugin_data(data: &Path, root: &Path) -> PathBuf {
    let digest = Sha256::digest(root.to_string_lossy().as_bytes());
    let hash: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    data.join("plugin-data").join(format!("{name}-{hash}"))
}

/// The shell variables `command` reads, `$NAME` or `${NAME...}`, in order
/// of first use.
pub fn variables_used(command: &str) -> Vec<&str> {
    let mut found: Vec<&str> = Vec::new();
    let mut rest = command;
    while let Some(i) = rest.find('$') {
        let after = &rest[i + 1..];
        let name_at = after.strip_prefix('{').unwrap_or(after);
        let len = name_at
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(name_at.len());
        let name = &name_at[..len];
        if !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && !found.contains(&name)
        {
            found.push(name);
        }
        rest = after;
    }
    found
}

/// The Claude-only variables ([`CLAUDE_ONLY`]) `command` reads, each with its fix.
pub fn claude_only_used(command: &str) -> Vec<(&'static str, &'static str)> {
    let used = variables_used(command);
    CLAUDE_ONLY
        .iter()
        .filter(|(name, _)| used.contains(name))
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugin_shaped_directory_is_the_plugin_root() {
        let d = tempfile::tempdir().unwrap();
        let (plugin, project) = (d.path().join("my-plugin"), d.path().join("project"));
        std::fs::create_dir_all(plugin.join(".claude-plugin")).unwrap();
        std::fs::create_dir_all(plugin.join("hooks")).unwrap();
        let hooks = plugin.join("hooks/hooks.json");
        // No manifest yet: the project root.
        assert_eq!(plugin_root(&hooks, Some(&project)), Some(project.clone()));
        std::fs::write(plugin.join(PLUGIN_MANIFEST), "{}").unwrap();
        assert_eq!(plugin_root(&hooks, Some(&project)), Some(plugin.clone()));
        assert_eq!(
            plugin_dir(&plugin.join(".agents/hooks.json")),
            Some(plugin.clone())
        );
        // Two levels up is someone else's directory, and relative paths say nothing.
        assert_eq!(plugin_dir(&plugin.join("a/b/hooks.json")), None);
        assert_eq!(plugin_dir(Path::new("hooks/hooks.json")), None);
        assert_eq!(plugin_root(Path::new("hooks.json"), None), None);
    }

    #[test]
    fn plugin_data_is_stable_per_root_and_apart_between_roots() {
        let data = Path::new("/data");
        let a = plugin_data(data, Path::new("/x/my plugin"));
        assert_eq!(a, plugin_data(data, Path::new("/x/my plugin")));
        assert_ne!(a, plugin_data(data, Path::new("/y/my plugin")));
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("my_plugin-"), "{name}");
        assert!(a.starts_with("/data/plugin-data"));
    }

    #[test]
    fn variables_are_found_in_both_spellings_and_only_claudes_are_flagged() {
        let cmd = r#"echo "$CLAUDE_ENV_FILE" ${CLAUDE_EFFORT:-x} $CLAUDE_ENV_FILES $1 $$ ${HOME}"#;
        assert_eq!(
            variables_used(cmd),
            [
                "CLAUDE_ENV_FILE",
                "CLAUDE_EFFORT",
                "CLAUDE_ENV_FILES",
                "HOME"
            ]
        );
        let flagged: Vec<_> = claude_only_used(cmd).iter().map(|(n, _)| *n).collect();
        assert_eq!(flagged, ["CLAUDE_ENV_FILE", "CLAUDE_EFFORT"]);
        assert!(claude_only_used("$CLAUDE_PLUGIN_ROOT/x.sh $CLAUDE_PROJECT_DIR").is_empty());
    }
}
