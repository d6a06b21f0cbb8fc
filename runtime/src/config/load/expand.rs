//! Paths and variables in a file: `$CLAUDE_PROJECT_DIR`, `~/`, relative
//! paths, shell quoting, and the short labels notes show.

use std::path::{Path, PathBuf};

use super::files::PROJECT_DIR_VAR;
use super::Ctx;
use crate::config::hooks_json::AllowEntry;
use crate::config::{claude_env, Grants, Shell};

/// Longest command shown in a handler's label, in characters.
pub(super) const LABEL_MAX: usize = 60;

/// Grants as written, their paths resolved ([`resolve_path`]).
pub(super) fn resolve_grants(grants: AllowEntry, ctx: &Ctx<'_>) -> Grants {
    grants.map_paths(|p| resolve_path(&p, ctx))
}

/// A path from the file: `$CLAUDE_PROJECT_DIR` expanded, `~/` taken from the
/// home directory, and a relative path joined to the scope's base.
pub(super) fn resolve_path(raw: &str, ctx: &Ctx<'_>) -> PathBuf {
    let expanded = expand_project_dir(raw, ctx, false);
    let path = match (expanded.as_str(), ctx.home) {
        ("~", Some(home)) => home.to_path_buf(),
        (p, Some(home)) if p.starts_with("~/") => home.join(&p[2..]),
        (p, _) => PathBuf::from(p),
    };
    if path.is_absolute() {
        path
    } else {
        ctx.base.join(path)
    }
}

/// Replace `$CLAUDE_PROJECT_DIR` and `${CLAUDE_PROJECT_DIR}` with the
/// project root, and `$CLAUDE_PLUGIN_ROOT` (`${…}`) with the hook's plugin
/// root ([`claude_env::plugin_root`]; looked up only when named).
///
/// In a shell command a variable is left for the shell when its value holds
/// characters the shell would interpret (spaces, quotes, `$`, ...): the
/// command gets the variable in its environment too, and the shell's own
/// expansion of it is always safe.
pub(super) fn expand_project_dir(text: &str, ctx: &Ctx<'_>, for_shell: bool) -> String {
    let mut out = expand_var(text, PROJECT_DIR_VAR, ctx.project_root, for_shell);
    if out.contains(claude_env::PLUGIN_ROOT_VAR) {
        let plugin = claude_env::plugin_root(ctx.file, ctx.project_root);
        out = expand_var(
            &out,
            claude_env::PLUGIN_ROOT_VAR,
            plugin.as_deref(),
            for_shell,
        );
    }
    out
}

/// Replace `$NAME` and `${NAME}` in `text` with `value` (see [`expand_project_dir`]).
pub(super) fn expand_var(text: &str, name: &str, value: Option<&Path>, for_shell: bool) -> String {
    let Some(root) = value else {
        return text.to_string();
    };
    let root = root.to_string_lossy();
    if for_shell && !root.chars().all(is_shell_safe) {
        return text.to_string();
    }
    let braced = format!("${{{name}}}");
    let bare = format!("${name}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with(&braced) {
            out.push_str(&root);
            rest = &tail[braced.len()..];
        } else if tail.starts_with(&bare)
            && !tail[bare.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push_str(&root);
            rest = &tail[bare.len()..];
        } else {
            out.push('$');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

pub(super) fn is_shell_safe(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(
            c,
            '/' | '\\' | '.' | '_' | '-' | '+' | ',' | ':' | '@' | '%'
        )
}

/// Quote one word for `shell`.
pub(super) fn quote_for(shell: Shell, word: &str) -> String {
    match shell {
        // A single-quoted PowerShell string is literal; `'` is doubled.
        Shell::PowerShell => format!("'{}'", word.replace('\'', "''")),
        Shell::System if cfg!(windows) && !crate::quote::is_plain(word) => {
            format!("\"{}\"", word.replace('"', "\\\""))
        }
        Shell::System => crate::quote::sh(word),
    }
}

/// One line, at most [`LABEL_MAX`] characters, for notes.
pub(super) fn shorten(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= LABEL_MAX {
        one_line
    } else {
        let cut: String = one_line.chars().take(LABEL_MAX - 1).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
#[path = "expand_tests.rs"]
mod tests;
