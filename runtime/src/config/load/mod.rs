//! Loading: the managed file, the user file, then the project file, resolved
//! into [`Handler`](super::Handler)s.
//!
//! Loading never fails. A missing file is no hooks; a file that cannot be read
//! or parsed becomes one entry in [`Config::broken`] (file, line, column, what
//! to do) and the other scope still loads; an entry that cannot be used (a bad
//! regex, an unknown key, an unknown event) is a [`ConfigWarning`] and the
//! rest of the file still runs. One broken line must not silently disable every hook, and
//! must not stop the agent either.

mod expand;
mod files;
mod handlers;
mod parse;
mod resolve;
mod scope;

use std::fs;
use std::path::{Path, PathBuf};

use super::warning::{ConfigWarning, WarningKind};
use super::{BrokenFile, Config, ManagedPolicy, OnError, Scope};
use crate::protocol::{one_line, EventName};

pub use files::{managed_file, project_root, MANAGED_ENV};

/// Where to look for the two `hooks.json` files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// The home directory (`~/.agents/hooks.json`); `crate::dirs::home` when `None`.
    pub home: Option<PathBuf>,
    /// The project root (`<root>/.agents/hooks.json`); no project scope when `None`.
    pub project_root: Option<PathBuf>,
}

impl LoadOptions {
    /// The defaults: the user scope from the home directory, no project scope.
    pub fn new() -> LoadOptions {
        LoadOptions::default()
    }

    /// Read the user scope from `home` instead of the home directory.
    pub fn with_home(self, home: impl Into<PathBuf>) -> LoadOptions {
        LoadOptions {
            home: Some(home.into()),
            ..self
        }
    }

    /// Read the project scope from `<root>/.agents/hooks.json`.
    pub fn with_project_root(self, root: impl Into<PathBuf>) -> LoadOptions {
        LoadOptions {
            project_root: Some(root.into()),
            ..self
        }
    }
}

/// Load the managed file ([`managed_file`]), then `~/.agents/hooks.json`,
/// then `<project>/.agents/hooks.json`.
///
/// Never fails; see the module docs for what becomes an error or a warning.
/// Handlers come in declaration order: managed scope first, then user, then
/// project; events and groups in file order.
pub fn load(opts: &LoadOptions) -> Config {
    load_with_managed(opts, Some(&managed_file()))
}

/// [`load`] with the managed file given (`None`: no managed scope).
///
/// The managed file's hooks always run. With `"managedOnly": true` the user
/// and project files are not read. A managed file that cannot be read or
/// parsed fails closed: tool calls and prompts are refused (as under
/// `"onConfigError": "deny"`) until it is fixed, since a policy that silently
/// lapsed on a typo would not be one; the other scopes' hooks still run.
pub fn load_with_managed(opts: &LoadOptions, managed: Option<&Path>) -> Config {
    let mut config = Config {
        project_root: opts.project_root.clone(),
        ..Config::default()
    };
    let home = opts.home.clone().or_else(crate::dirs::home);
    let mcp = crate::config::mcp::McpFiles::default();
    if let Some(file) = managed {
        let base = file.parent().unwrap_or(Path::new("/"));
        let ctx = Ctx {
            file,
            scope: Scope::Managed,
            base,
            home: home.as_deref(),
            project_root: opts.project_root.as_deref(),
            mcp: &mcp,
        };
        load_file(&ctx, &mut config);
    }
    let user_file = home.as_deref().map(crate::dirs::hooks_file);
    if let Some(policy) = config.managed.as_ref().filter(|m| m.managed_only) {
        let project = opts.project_root.as_deref().map(crate::dirs::hooks_file);
        let policy = policy.file.clone();
        for file in user_file.into_iter().chain(project) {
            if file.exists() {
                let kind = WarningKind::NotLoaded {
                    policy: policy.clone(),
                };
                config.warnings.push(ConfigWarning { file, kind });
            }
        }
        return config;
    }
    if let (Some(home), Some(file)) = (&home, &user_file) {
        let ctx = Ctx {
            file,
            scope: Scope::User,
            base: home,
            home: Some(home),
            project_root: opts.project_root.as_deref(),
            mcp: &mcp,
        };
        load_file(&ctx, &mut config);
    }
    if let Some(root) = &opts.project_root {
        let file = crate::dirs::hooks_file(root);
        let same = user_file.as_ref().is_some_and(|u| same_file(u, &file));
        if !same {
            let ctx = Ctx {
                file: &file,
                scope: Scope::Project,
                base: root,
                home: home.as_deref(),
                project_root: Some(root),
                mcp: &mcp,
            };
            load_file(&ctx, &mut config);
        }
    }
    config
}

/// Whether two paths name the same file (when the home directory is the project).
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// What resolving one file needs to know.
struct Ctx<'a> {
    file: &'a Path,
    scope: Scope,
    /// Relative paths resolve against this: the project root, or home for the user file.
    base: &'a Path,
    home: Option<&'a Path>,
    project_root: Option<&'a Path>,
    /// The MCP files this load has read (shared by its scopes).
    mcp: &'a crate::config::mcp::McpFiles,
}

impl Ctx<'_> {
    /// A warning about this file.
    fn warn(&self, config: &mut Config, kind: WarningKind) {
        config.warnings.push(ConfigWarning {
            file: self.file.to_path_buf(),
            kind,
        });
    }

    /// The file cannot be used at all. `text` is what could be read of it:
    /// a policy it spells out is honoured as far as it can be.
    fn error(&self, config: &mut Config, what: impl std::fmt::Display, text: Option<&str>) {
        let says = |key| text.is_some_and(|t| OnError::denies_in(t, key));
        if self.scope == Scope::User
            && says("onConfigError")
            && !scope::managed_sets(config, |m| m.sets_on_config_error)
        {
            config.on_config_error = OnError::Deny;
        }
        self.broken_policy(config);
        let broken = BrokenFile {
            file: self.file.to_path_buf(),
            scope: self.scope,
            why: one_line(&what.to_string()),
            lost_deny: text.is_some_and(OnError::handler_denies_in),
            unreadable: false,
        };
        config.broken.push(broken);
    }
}

/// One file into `config`: read and parsed ([`parse`]), its top-level keys
/// honoured where its scope may set them ([`scope`]), then its events'
/// groups resolved into handlers ([`resolve`]).
fn load_file(ctx: &Ctx<'_>, config: &mut Config) {
    let Some(bytes) = parse::read(ctx, config) else {
        return;
    };
    config.files.push(ctx.file.to_path_buf());
    if ctx.scope == Scope::Managed {
        config.managed = Some(ManagedPolicy {
            file: ctx.file.to_path_buf(),
            ..ManagedPolicy::default()
        });
    }
    let Some((value, parsed)) = parse::parse(ctx, config, &bytes) else {
        return;
    };
    parse::warn_unknown(ctx, config, &value);
    scope::user_keys(ctx, config, &parsed);
    scope::llm_keys(ctx, config, &parsed);
    scope::managed_keys(ctx, config, &parsed);

    // The managed file's `onError` is every scope's default: a file or a
    // hook that sets its own keeps it.
    let inherited = match (ctx.scope, config.managed.as_mut()) {
        (Scope::Managed, Some(managed)) => {
            managed.on_error = parsed.on_error;
            None
        }
        (_, managed) => managed.and_then(|m| m.on_error),
    };
    let on_error = parsed.on_error.or(inherited).unwrap_or_default();
    let Some(events) = parsed.hooks else {
        return;
    };
    for (name, groups) in events.0 {
        // Unknown names have no groups; `unknown_keys` warned about them.
        let (Ok(event), Some(groups)) = (name.parse::<EventName>(), groups) else {
            continue;
        };
        for (g, group) in groups.into_iter().enumerate() {
            let at = format!("hooks.{event}[{g}]");
            resolve::resolve_group(ctx, config, event, &at, group, on_error);
        }
    }
}

#[cfg(test)]
mod testutil;

#[cfg(test)]
mod tests;
