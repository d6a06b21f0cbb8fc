//! Loading: the user file, then the project file, resolved into [`Handler`]s.
//!
//! Loading never fails. A missing file is no hooks; a file that cannot be read
//! or parsed becomes one entry in [`Config::errors`] (file, line, column, what
//! to do) and the other scope still loads; an entry that cannot be used (a bad
//! regex, an unknown key, an unknown event) is a warning and the rest of the
//! file still runs. One broken line must not silently disable every hook, and
//! must not stop the agent either.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::hooks_json::{
    unknown_keys, AllowEntry, Group, HandlerType, HandlerWire, HooksFile, Unknown,
};
use super::if_rule::{self, IfSpec};
use super::{claude_env, Matcher};
use super::{
    AuditConfig, BrokenFile, CommandSpec, Config, Grants, Handler, HandlerKind, HttpSpec,
    ManagedPolicy, OnError, OnFailure, PromptSpec, Scope, Shell, WasmSpec, DEFAULT_PROMPT_TIMEOUT,
    DEFAULT_TIMEOUT,
};
use crate::fsread::{self, caps, ReadError};
use crate::protocol::{one_line, EventName};

/// The variable naming the project root, in commands and paths.
const PROJECT_DIR_VAR: &str = "CLAUDE_PROJECT_DIR";

/// Longest command shown in a handler's label, in characters.
const LABEL_MAX: usize = 60;

/// Where to look for the two `hooks.json` files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// The home directory (`~/.agents/hooks.json`); `crate::dirs::home` when `None`.
    pub home: Option<PathBuf>,
    /// The project root (`<root>/.agents/hooks.json`); no project scope when `None`.
    pub project_root: Option<PathBuf>,
}

/// The project root: `$CLAUDE_PROJECT_DIR` if set and not empty, else the
/// nearest ancestor of `cwd` (itself included) that holds `.agents/` or
/// `.git`. With no `cwd`, the process's working directory is used.
pub fn project_root(cwd: Option<&Path>) -> Option<PathBuf> {
    let fallback;
    let cwd = match cwd {
        Some(cwd) => Some(cwd),
        None => {
            fallback = env::current_dir().ok();
            fallback.as_deref()
        }
    };
    project_root_from(env::var_os(PROJECT_DIR_VAR), cwd)
}

/// [`project_root`] with the environment passed in (testable without touching it).
fn project_root_from(var: Option<OsString>, cwd: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = var.filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    cwd?.ancestors()
        .find(|dir| dir.join(".agents").is_dir() || dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The variable naming the managed file, for tests and packaging. It applies
/// only where no managed file is installed at the platform's path, so a user
/// cannot point an installed policy away.
pub const MANAGED_ENV: &str = "AGENTHOOKS_MANAGED_CONFIG";

/// The platform's managed file: `/etc/agenthooks/hooks.json` (Linux and other
/// Unix), `/Library/Application Support/agenthooks/hooks.json` (macOS),
/// `%ProgramData%\agenthooks\hooks.json` (Windows).
fn platform_managed_file() -> PathBuf {
    if cfg!(windows) {
        crate::dirs::program_data()
            .join("agenthooks")
            .join("hooks.json")
    } else if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/agenthooks/hooks.json")
    } else {
        PathBuf::from("/etc/agenthooks/hooks.json")
    }
}

/// The managed file to read: the platform's when anything is installed
/// there, else [`MANAGED_ENV`] when set, else the platform's path (which
/// then does not exist: no managed scope).
pub fn managed_file() -> PathBuf {
    managed_file_from(env::var_os(MANAGED_ENV), platform_managed_file())
}

fn managed_file_from(var: Option<OsString>, platform: PathBuf) -> PathBuf {
    // Anything at the platform's path, even a broken link, is the policy.
    if fs::symlink_metadata(&platform).is_ok() {
        return platform;
    }
    var.filter(|v| !v.is_empty())
        .map_or(platform, PathBuf::from)
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
    if let Some(file) = managed {
        let base = file.parent().unwrap_or(Path::new("/"));
        let ctx = Ctx {
            file,
            scope: Scope::Managed,
            base,
            home: home.as_deref(),
            project_root: opts.project_root.as_deref(),
        };
        load_file(&ctx, &mut config);
    }
    let user_file = home.as_deref().map(crate::dirs::hooks_file);
    if let Some(policy) = config.managed.as_ref().filter(|m| m.managed_only) {
        let project = opts
            .project_root
            .as_ref()
            .map(|r| crate::dirs::hooks_file(r));
        for file in user_file.iter().chain(&project) {
            if file.exists() {
                config.warnings.push(format!(
                    "`{}`: not loaded: the managed policy `{}` sets `managedOnly`, so only its hooks run",
                    file.display(),
                    policy.file.display()
                ));
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
}

impl Ctx<'_> {
    /// A managed file that cannot be used still exists: it fails closed,
    /// and the user file cannot say otherwise.
    fn broken_policy(&self, config: &mut Config) {
        if self.scope == Scope::Managed {
            config.on_config_error = OnError::Deny;
            config.managed = Some(ManagedPolicy {
                file: self.file.to_path_buf(),
                sets_on_config_error: true,
                ..ManagedPolicy::default()
            });
        }
    }

    /// A key honoured in the managed and user files only: a warning for a
    /// project file, and for a user file when the managed file set it.
    fn only_managed_or_user(&self, config: &mut Config, key: &str, managed_set: bool) -> bool {
        match self.scope {
            Scope::Managed => true,
            Scope::User if !managed_set => true,
            Scope::User => {
                self.warn(
                    config,
                    format_args!("`{key}` is set by the managed policy; this one is ignored"),
                );
                false
            }
            Scope::Project => {
                self.warn(
                    config,
                    format_args!(
                        "`{key}` is honoured only in the user file `~/.agents/hooks.json` \
                         (or the managed one); ignored"
                    ),
                );
                false
            }
        }
    }

    /// Warnings and errors quote the file's own text (a key, an event name,
    /// serde's message about a value): each is cut to one bounded line
    /// ([`one_line`]), so a hostile file cannot flood stderr or fake a line.
    fn warn(&self, config: &mut Config, what: impl std::fmt::Display) {
        config
            .warnings
            .push(one_line(&format!("`{}`: {what}", self.file.display())));
    }

    /// The file cannot be used at all. `text` is what could be read of it:
    /// a policy it spells out is honoured as far as it can be.
    fn error(&self, config: &mut Config, what: impl std::fmt::Display, text: Option<&str>) {
        let says = |key| text.is_some_and(|t| OnError::denies_in(t, key));
        if self.scope == Scope::User
            && says("onConfigError")
            && !managed_sets(config, |m| m.sets_on_config_error)
        {
            config.on_config_error = OnError::Deny;
        }
        self.broken_policy(config);
        let broken = BrokenFile {
            file: self.file.to_path_buf(),
            scope: self.scope,
            why: one_line(&what.to_string()),
            lost_deny: text.is_some_and(OnError::handler_denies_in),
        };
        config.errors.push(broken.to_string());
        config.broken.push(broken);
    }
}

fn load_file(ctx: &Ctx<'_>, config: &mut Config) {
    // Either file may be a FIFO, a symlink to `/dev/zero` or gigabytes of
    // sparse zeros committed to git: a bounded read refuses them at once, so
    // the other scope still decides within the agent's deadline.
    let bytes = match fsread::read_bounded(ctx.file, caps::HOOKS_JSON) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound { .. }) => return,
        Err(e) => {
            // The error names the file and what to do.
            config.errors.push(format!("{e} (other scopes still run)"));
            config.broken.push(BrokenFile {
                file: ctx.file.to_path_buf(),
                scope: ctx.scope,
                why: e.to_string(),
                lost_deny: false,
            });
            ctx.broken_policy(config);
            return;
        }
    };
    config.files.push(ctx.file.to_path_buf());
    if ctx.scope == Scope::Managed {
        config.managed = Some(ManagedPolicy {
            file: ctx.file.to_path_buf(),
            ..ManagedPolicy::default()
        });
    }
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(e) => {
            ctx.error(
                config,
                format_args!(
                    "it is not UTF-8 text (an invalid byte at offset {}); save it as UTF-8",
                    e.valid_up_to()
                ),
                None,
            );
            return;
        }
    };
    if text.trim().is_empty() {
        return;
    }
    // Parse twice: as a plain value to find unknown keys, and typed. Both keep
    // serde_json's line and column, which `from_value` would lose.
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            ctx.error(config, json_error(&e), Some(text));
            return;
        }
    };
    // serde reads a struct from an array too (`[]` would be a file with no
    // hooks, silently): the file is an object or it is wrong.
    if let Some(kind) = not_an_object(&value) {
        ctx.error(
            config,
            format_args!("the top level is {kind}, not an object; write `{{\"hooks\": {{...}}}}`"),
            Some(text),
        );
        return;
    }
    let parsed: HooksFile =
        match serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(text)) {
            Ok(parsed) => parsed,
            Err(e) => {
                ctx.error(config, typed_error(&e), Some(text));
                return;
            }
        };
    for unknown in unknown_keys(&value) {
        match unknown {
            Unknown::Key {
                at,
                key,
                suggestion,
            } => ctx.warn(
                config,
                format_args!(
                    "{at}: unknown key `{key}`; ignored{}",
                    crate::suggest::hint(suggestion)
                ),
            ),
            Unknown::Event { name, suggestion } => ctx.warn(
                config,
                format_args!(
                    "unknown event `{name}` in `hooks`; its hooks never run{}",
                    crate::suggest::hint(suggestion)
                ),
            ),
            Unknown::HandlerType {
                at,
                type_: Some(ty),
            } => ctx.warn(
                config,
                format_args!(
                    "{at}: unknown handler type `{ty}`{}; this handler is skipped",
                    crate::suggest::did_you_mean(&ty, HandlerType::ALL.map(HandlerType::as_str))
                ),
            ),
            Unknown::HandlerType { at, type_: None } => ctx.warn(
                config,
                format_args!("{at}: the handler has no `type`; it is skipped"),
            ),
        }
    }

    if let Some(audit) = &parsed.audit {
        if ctx.only_managed_or_user(config, "audit", managed_sets(config, |m| m.sets_audit)) {
            config.audit = Some(AuditConfig {
                path: resolve_path(&audit.path, ctx),
                max_bytes: audit.max_bytes,
                include_input: audit.include_input.unwrap_or(false),
            });
            set_by_managed(ctx, config, |m| m.sets_audit = true);
        }
    }

    if let Some(policy) = parsed.on_config_error {
        let managed_set = managed_sets(config, |m| m.sets_on_config_error);
        if ctx.only_managed_or_user(config, "onConfigError", managed_set) {
            config.on_config_error = policy;
            set_by_managed(ctx, config, |m| m.sets_on_config_error = true);
        }
    }

    if let Some(mib) = parsed.event_memory_mib {
        if ctx.only_managed_or_user(
            config,
            "eventMemoryMiB",
            managed_sets(config, |m| m.sets_budgets),
        ) {
            if mib == 0 {
                ctx.warn(
                    config,
                    "`eventMemoryMiB` must be at least 1; the default is used",
                );
            } else {
                config.budgets.event_memory_mib = mib;
                set_by_managed(ctx, config, |m| m.sets_budgets = true);
            }
        }
    }

    llm_keys(ctx, config, &parsed);
    managed_keys(ctx, config, &parsed);

    let on_error = parsed.on_error.unwrap_or_default();
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
            resolve_group(ctx, config, event, &at, group, on_error);
        }
    }
}

/// Whether the managed file set what `set` looks at.
fn managed_sets(config: &Config, set: impl Fn(&ManagedPolicy) -> bool) -> bool {
    config.managed.as_ref().is_some_and(set)
}

/// Record on the managed policy that the managed file set something.
fn set_by_managed(ctx: &Ctx<'_>, config: &mut Config, set: impl FnOnce(&mut ManagedPolicy)) {
    if ctx.scope == Scope::Managed {
        if let Some(policy) = config.managed.as_mut() {
            set(policy);
        }
    }
}

/// `llm` and `maxLlmCalls`: the managed or user file's (a project must not
/// choose where its events are sent); `allowLlmHooks`: the managed file's.
fn llm_keys(ctx: &Ctx<'_>, config: &mut Config, parsed: &HooksFile) {
    if let Some(entry) = &parsed.llm {
        if ctx.only_managed_or_user(config, "llm", managed_sets(config, |m| m.sets_llm)) {
            match super::llm::resolve(entry) {
                Ok(settings) => {
                    config.llm = Some(settings);
                    set_by_managed(ctx, config, |m| m.sets_llm = true);
                }
                Err(why) => ctx.warn(
                    config,
                    format_args!("`llm`: {why}; prompt hooks use Claude Code's environment"),
                ),
            }
        }
    }
    if let Some(calls) = parsed.max_llm_calls {
        if ctx.only_managed_or_user(
            config,
            "maxLlmCalls",
            managed_sets(config, |m| m.sets_budgets),
        ) {
            if calls == 0 {
                ctx.warn(
                    config,
                    "`maxLlmCalls` must be at least 1; the default is used",
                );
            } else {
                config.budgets.max_llm_calls = calls;
            }
        }
    }
    match (parsed.allow_llm_hooks, ctx.scope) {
        (Some(allow), Scope::Managed) => {
            set_by_managed(ctx, config, |m| m.forbids_llm_hooks = !allow);
        }
        (Some(_), _) => ctx.warn(
            config,
            "`allowLlmHooks` is honoured only in the managed file; ignored",
        ),
        (None, _) => {}
    }
}

/// `managedOnly`, `projectGrants` and `allowedComponents`: the managed
/// file's alone (a warning anywhere else).
fn managed_keys(ctx: &Ctx<'_>, config: &mut Config, parsed: &HooksFile) {
    let keys = [
        ("managedOnly", parsed.managed_only.is_some()),
        ("projectGrants", parsed.project_grants.is_some()),
        ("allowedComponents", parsed.allowed_components.is_some()),
    ];
    if ctx.scope != Scope::Managed {
        for (key, _) in keys.iter().filter(|(_, set)| *set) {
            ctx.warn(
                config,
                format_args!("`{key}` is honoured only in the managed file; ignored"),
            );
        }
        return;
    }
    let grants = parsed
        .project_grants
        .clone()
        .map(|g| resolve_grants(g, ctx));
    if let Some(policy) = config.managed.as_mut() {
        policy.managed_only = parsed.managed_only.unwrap_or(false);
        policy.project_grants = grants;
        policy.allowed_components = parsed.allowed_components.clone();
    }
}

/// What the managed policy leaves of a user or project wasm handler: `None`
/// (with a warning) when its component is not from an allowed source; its
/// grants narrowed (with a warning per withheld grant) when it is a
/// project's and asks for more than `projectGrants` allows.
fn apply_managed(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    raw_component: &str,
    mut spec: WasmSpec,
) -> Option<WasmSpec> {
    let Some(policy) = config.managed.clone() else {
        return Some(spec);
    };
    if ctx.scope == Scope::Managed {
        return Some(spec);
    }
    if let Some(allowed) = &policy.allowed_components {
        // An `oci://` component is allowed by an `oci://` source covering its
        // registry and repository; a file by a directory it is inside.
        let ok = allowed.iter().any(|source| match &spec.oci {
            Some(oci) => oci.reference.allowed_by(source),
            None => {
                !source.starts_with(crate::oci::SCHEME)
                    && within(&spec.component, &resolve_path(source, ctx))
            }
        });
        if !ok {
            config.refused_components.push(raw_component.to_string());
            ctx.warn(
                config,
                format_args!(
                    "{at}: component `{raw_component}` is not from a source the managed policy \
                     `{}` allows ({}); this handler is skipped",
                    policy.file.display(),
                    allowed.join(", ")
                ),
            );
            return None;
        }
    }
    if let (Scope::Project, Some(max)) = (ctx.scope, &policy.project_grants) {
        let mut withheld = Vec::new();
        let mut keep_paths = |paths: &mut Vec<PathBuf>, limits: &[PathBuf], key: &str| {
            paths.retain(|p| {
                let ok = limits.iter().any(|l| within(p, l));
                if !ok {
                    withheld.push(format!("`allow.{key}` {}", p.display()));
                }
                ok
            });
        };
        keep_paths(&mut spec.allow.read, &max.read, "read");
        keep_paths(&mut spec.allow.write, &max.write, "write");
        let mut keep_names = |names: &mut Vec<String>, limits: &[String], key: &str| {
            names.retain(|n| {
                let ok = limits.contains(n);
                if !ok {
                    withheld.push(format!("`allow.{key}` {n}"));
                }
                ok
            });
        };
        keep_names(&mut spec.allow.env, &max.env, "env");
        keep_names(&mut spec.allow.net, &max.net, "net");
        if !withheld.is_empty() {
            ctx.warn(
                config,
                format_args!(
                    "{at}: the managed policy `{}` does not let a project grant {}; withheld",
                    policy.file.display(),
                    withheld.join(", ")
                ),
            );
        }
    }
    Some(spec)
}

/// Whether `path` is `dir` or inside it, compared canonically when both
/// exist (so `..` and symlinks cannot leave `dir`), else lexically with no
/// `..` allowed.
fn within(path: &Path, dir: &Path) -> bool {
    if let (Ok(p), Ok(d)) = (fs::canonicalize(path), fs::canonicalize(dir)) {
        return p.starts_with(d);
    }
    let up = |p: &Path| {
        p.components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    };
    !up(path) && !up(dir) && path.starts_with(dir)
}

/// What a JSON value is when it is not an object ("an array", ...).
fn not_an_object(value: &serde_json::Value) -> Option<&'static str> {
    use serde_json::Value;
    match value {
        Value::Object(_) => None,
        Value::Array(_) => Some("an array"),
        Value::String(_) => Some("a string"),
        Value::Number(_) => Some("a number"),
        Value::Bool(_) => Some("a boolean"),
        Value::Null => Some("null"),
    }
}

/// serde_json's message, with its position moved to the front.
fn json_error(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let msg = msg.strip_suffix(&suffix).unwrap_or(&msg);
    format!("line {} column {}: {msg}", e.line(), e.column())
}

/// A value of the wrong type: where (line, column and key path) and what
/// was expected, in words rather than Rust's type names.
fn typed_error(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let inner = json_error(e.inner())
        .replace("expected f64", "expected a number")
        .replace("expected u64", "expected a whole number")
        .replace("expected u32", "expected a whole number");
    let path = e.path().to_string();
    match inner.split_once(": ") {
        Some((at, what)) if path != "." => format!("{at}: `{path}`: {what}"),
        _ => inner,
    }
}

/// One matcher group's handlers into `config`: its matcher and `if`, then
/// each handler's own `if`, the tool it narrows to, its type-specific part
/// and its timeout. Whatever cannot be used is skipped with a warning.
fn resolve_group(
    ctx: &Ctx<'_>,
    config: &mut Config,
    event: EventName,
    at: &str,
    group: Group,
    on_error: OnError,
) {
    let Some(matcher) = group_matcher(ctx, config, event, at, group.matcher.as_deref()) else {
        return;
    };
    let src = group.if_.as_deref();
    let key = ("`if` regex", src, event, "group");
    let Some(group_if) = valid_or_warn(ctx, config, at, compile_if(src), key) else {
        return;
    };
    for (h, entry) in group.hooks.into_iter().enumerate() {
        let at = format!("{at}.hooks[{h}]");
        let src = entry.if_.as_deref();
        let key = ("`if` regex", src, event, "handler");
        let Some(if_) = valid_or_warn(ctx, config, &at, compile_if(src), key) else {
            continue;
        };
        let if_ = if_.or_else(|| group_if.clone());
        let Some(handler_matcher) = narrowed(ctx, config, event, &at, &matcher, if_.as_ref())
        else {
            continue;
        };
        let raw_component = entry.component.clone().unwrap_or_default();
        let Some(mut resolved) = resolve_handler(ctx, config, &at, entry) else {
            continue;
        };
        if let HandlerKind::Wasm(spec) = resolved.kind {
            let Some(spec) = apply_managed(ctx, config, &at, &raw_component, spec) else {
                continue;
            };
            resolved.kind = HandlerKind::Wasm(spec);
        }
        if let HandlerKind::Prompt(_) | HandlerKind::Agent(_) = resolved.kind {
            if let Some(why) = super::llm::refused(event, config.managed.as_ref()) {
                ctx.warn(config, format_args!("{at}: {why}; this handler is skipped"));
                continue;
            }
        }
        let default_timeout = match resolved.kind {
            HandlerKind::Prompt(_) => DEFAULT_PROMPT_TIMEOUT,
            _ => DEFAULT_TIMEOUT,
        };
        let timeout = handler_timeout(ctx, config, &at, resolved.timeout, default_timeout);
        config.handlers.push(Handler {
            event,
            matcher: handler_matcher,
            if_: if_.map(|spec| spec.regex),
            kind: resolved.kind,
            timeout,
            on_error: resolved.on_error.unwrap_or(on_error),
            scope: ctx.scope,
            file: ctx.file.to_path_buf(),
            project_root: ctx.project_root.map(Path::to_path_buf),
            label: resolved.label,
            status_message: resolved.status_message,
            once: resolved.once,
        });
    }
}

/// A group's matcher, or `None` (with a warning: the group is skipped) when
/// it is not a valid one for an event that has a matcher.
fn group_matcher(
    ctx: &Ctx<'_>,
    config: &mut Config,
    event: EventName,
    at: &str,
    src: Option<&str>,
) -> Option<Matcher> {
    match Matcher::parse(src) {
        // Claude Code ignores a matcher where the event has none; so do we, even a broken one.
        Err(_) if event.matcher_field().is_none() => Some(Matcher::All),
        parsed => valid_or_warn(ctx, config, at, parsed, ("matcher", src, event, "group")),
    }
}

/// The value of a regex-bearing key, or `None` with a warning that names
/// it: `(key, source, event, what is skipped)`.
fn valid_or_warn<T>(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    parsed: Result<T, regex::Error>,
    (key, src, event, what): (&str, Option<&str>, EventName, &str),
) -> Option<T> {
    match parsed {
        Ok(value) => Some(value),
        Err(e) => {
            ctx.warn(
                config,
                format_args!(
                    "{at}: invalid {key} `{}` for {event}: {}; this {what} is skipped",
                    src.unwrap_or_default(),
                    regex_error(&e)
                ),
            );
            None
        }
    }
}

/// The matcher a handler runs under: the group's, narrowed to the tool a
/// permission rule in its `if` names; `None` (with a warning) when the
/// handler could never run.
fn narrowed(
    ctx: &Ctx<'_>,
    config: &mut Config,
    event: EventName,
    at: &str,
    matcher: &Matcher,
    if_: Option<&IfSpec>,
) -> Option<Matcher> {
    let Some(spec) = if_ else {
        return Some(matcher.clone());
    };
    if !event.is_tool_event() {
        ctx.warn(
            config,
            format_args!(
                "{at}: `if` tests the tool input, and {event} has none; this handler never runs"
            ),
        );
        return None;
    }
    if let Some(note) = &spec.note {
        ctx.warn(config, format_args!("{at}: {note}"));
    }
    // A permission rule names its tool: the handler runs for that tool only.
    let Some(tool) = &spec.tool else {
        return Some(matcher.clone());
    };
    if !matcher.matches(Some(tool)) {
        ctx.warn(
            config,
            format_args!(
                "{at}: `if` names the tool `{tool}`, which the group's matcher never selects; \
                 this handler never runs"
            ),
        );
        return None;
    }
    Some(Matcher::Exact(vec![tool.clone()]))
}

/// A handler's timeout: its `timeout` when usable, else (with a warning
/// when it was set) [`DEFAULT_TIMEOUT`].
fn handler_timeout(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    secs: Option<f64>,
    default: Duration,
) -> Duration {
    let Some(secs) = secs else {
        return default;
    };
    timeout(secs).unwrap_or_else(|| {
        ctx.warn(
            config,
            format_args!(
                "{at}: `timeout` must be a positive number of seconds, not {secs}; using {}",
                default.as_secs()
            ),
        );
        default
    })
}

fn compile_if(src: Option<&str>) -> Result<Option<IfSpec>, regex::Error> {
    src.map(if_rule::compile).transpose()
}

/// A regex error on one line (regex's own display draws a caret diagram).
fn regex_error(e: &regex::Error) -> String {
    let text = e.to_string();
    text.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .map(str::to_string)
        .unwrap_or_else(|| text.lines().next().unwrap_or_default().trim().to_string())
}

/// A timeout in seconds, if it is a usable one.
fn timeout(secs: f64) -> Option<Duration> {
    if secs.is_finite() && secs > 0.0 {
        Duration::try_from_secs_f64(secs).ok()
    } else {
        None
    }
}

/// The parts of a handler that depend on its type.
struct Resolved {
    kind: HandlerKind,
    label: String,
    timeout: Option<f64>,
    on_error: Option<OnError>,
    status_message: Option<String>,
    once: bool,
}

fn resolve_handler(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    entry: HandlerWire,
) -> Option<Resolved> {
    // An unknown or missing type: `unknown_keys` has warned.
    let type_ = entry.type_.as_deref().and_then(HandlerType::named)?;
    let kind = match type_ {
        HandlerType::Command => match entry.command.as_deref() {
            Some(command) if !command.trim().is_empty() => resolve_command(ctx, config, at, &entry),
            _ => return skip_missing(ctx, config, at, type_),
        },
        HandlerType::Wasm => match entry.component.as_deref() {
            Some(component) if !component.trim().is_empty() => {
                resolve_wasm(ctx, config, at, component, &entry)?
            }
            _ => return skip_missing(ctx, config, at, type_),
        },
        HandlerType::Http => resolve_http(ctx, config, at, &entry)?,
        HandlerType::Prompt | HandlerType::Agent => match entry.prompt.as_deref() {
            Some(prompt) if !prompt.trim().is_empty() => {
                let spec = PromptSpec {
                    prompt: prompt.to_string(),
                    model: entry.model.clone().filter(|m| !m.trim().is_empty()),
                    continue_on_block: entry.continue_on_block.unwrap_or(false),
                };
                let label = format!("{} `{}`", type_.as_str(), shorten(prompt));
                match type_ {
                    HandlerType::Agent => (HandlerKind::Agent(spec), label),
                    _ => (HandlerKind::Prompt(spec), label),
                }
            }
            _ => return skip_missing(ctx, config, at, type_),
        },
        HandlerType::McpTool => (
            HandlerKind::Unsupported {
                kind: type_.as_str().to_string(),
            },
            format!("{} handler", type_.as_str()),
        ),
    };
    let on_error = match OnFailure::combine(entry.on_error, entry.on_failure) {
        Ok(policy) => policy,
        Err(closed) => {
            ctx.warn(
                config,
                format_args!(
                    "{at}: `onError` and `onFailure` disagree (`onFailure: block` means \
                     `onError: deny`); it fails closed until you keep one of them"
                ),
            );
            Some(closed)
        }
    };
    Some(Resolved {
        kind: kind.0,
        label: kind.1,
        timeout: entry.timeout,
        on_error,
        status_message: entry.status_message,
        once: entry.once.unwrap_or(false),
    })
}

/// No handler: the key a handler of type `type_` cannot do without is
/// missing or empty (a warning).
fn skip_missing<T>(ctx: &Ctx<'_>, config: &mut Config, at: &str, type_: HandlerType) -> Option<T> {
    let key = type_.required().unwrap_or("type");
    ctx.warn(
        config,
        format_args!("{at}: `{key}` is missing or empty; this handler is skipped"),
    );
    None
}

/// An http handler's kind and label, or `None` (with a warning) when its
/// URL is not one it can POST to.
fn resolve_http(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    entry: &HandlerWire,
) -> Option<(HandlerKind, String)> {
    let url = entry.url.as_deref().unwrap_or_default().trim();
    if let Err(why) = super::http::check_url(url) {
        ctx.warn(
            config,
            format_args!("{at}: `url` {why}; this handler is skipped"),
        );
        return None;
    }
    let allowed = entry.allowed_env_vars.clone().unwrap_or_default();
    let headers: Vec<(String, String)> = entry
        .headers
        .clone()
        .unwrap_or_default()
        .into_iter()
        .collect();
    for (name, value) in &headers {
        for var in super::http::unlisted_vars(value, &allowed) {
            ctx.warn(
                config,
                format_args!(
                    "{at}: header `{name}` uses `${var}`, which `allowedEnvVars` does not list; \
                     it is sent empty (list it to send its value)"
                ),
            );
        }
    }
    let label = format!("http `{}`", shorten(url));
    Some((
        HandlerKind::Http(HttpSpec {
            url: url.to_string(),
            headers,
            allowed_env_vars: allowed,
        }),
        label,
    ))
}

/// A command handler's kind and label.
fn resolve_command(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    entry: &HandlerWire,
) -> (HandlerKind, String) {
    let (raw, shell) = match &entry.powershell {
        // Copilot's pair: `powershell` on Windows, `command` elsewhere.
        Some(ps) if cfg!(windows) && !ps.trim().is_empty() => (ps.clone(), Shell::PowerShell),
        _ => (
            entry.command.clone().unwrap_or_default(),
            shell_named(ctx, config, at, entry.shell.as_deref()),
        ),
    };
    let (command, shown) = match &entry.args {
        // Exec form: quote every word so the shell passes them through unchanged.
        Some(args) => {
            let words = std::iter::once(&raw).chain(args);
            let quoted = words
                .clone()
                .map(|w| quote_for(shell, &expand_project_dir(w, ctx, false)))
                .collect::<Vec<_>>()
                .join(" ");
            // PowerShell runs a quoted program name only with the call operator.
            let command = match shell {
                Shell::PowerShell => format!("& {quoted}"),
                Shell::System => quoted,
            };
            let shown = words.map(String::as_str).collect::<Vec<_>>().join(" ");
            (command, shown)
        }
        None => {
            // `$CLAUDE_PROJECT_DIR` is not PowerShell's syntax for a variable
            // (`$env:…`): there it is always replaced.
            let for_sh = shell == Shell::System;
            (expand_project_dir(&raw, ctx, for_sh), raw.clone())
        }
    };
    let async_ = entry.async_.unwrap_or(false) || entry.async_rewake.unwrap_or(false);
    (
        HandlerKind::Command(CommandSpec {
            command,
            async_,
            shell,
        }),
        format!("command `{}`", shorten(&shown)),
    )
}

/// The shell Claude Code's `shell` key names; an unknown one is a warning
/// and the system shell.
fn shell_named(ctx: &Ctx<'_>, config: &mut Config, at: &str, name: Option<&str>) -> Shell {
    match name {
        None | Some("bash" | "sh") => Shell::System,
        Some("powershell" | "pwsh") => Shell::PowerShell,
        Some(other) => {
            ctx.warn(
                config,
                format_args!(
                    "{at}: `shell: {other}` is not supported (use `bash` or `powershell`); \
                     the command runs through `sh -c` (`cmd /C` on Windows)"
                ),
            );
            Shell::System
        }
    }
}

/// A wasm handler's kind and label; `None` (with a warning) for an
/// `oci://` component that is not a valid reference.
fn resolve_wasm(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    raw: &str,
    entry: &HandlerWire,
) -> Option<(HandlerKind, String)> {
    let (component, oci, name) = if raw.trim_start().starts_with(crate::oci::SCHEME) {
        match crate::oci::resolve(raw, ctx.file) {
            Ok((path, source)) => {
                let name = source.reference.to_string();
                (path, Some(source), name)
            }
            Err(e) => {
                ctx.warn(config, format_args!("{at}: {e}; this handler is skipped"));
                return None;
            }
        }
    } else {
        let component = resolve_path(raw, ctx);
        let name = component
            .file_name()
            .map_or_else(|| raw.to_string(), |n| n.to_string_lossy().into_owned());
        (component, None, name)
    };
    let allow = resolve_grants(entry.allow.clone().unwrap_or_default(), ctx);
    Some((
        HandlerKind::Wasm(WasmSpec {
            component,
            oci,
            limits: entry.limits(),
            allow,
        }),
        format!("wasm `{}`", shorten(&name)),
    ))
}

/// Grants as written, their paths resolved ([`resolve_path`]).
fn resolve_grants(grants: AllowEntry, ctx: &Ctx<'_>) -> Grants {
    grants.map_paths(|p| resolve_path(&p, ctx))
}

/// A path from the file: `$CLAUDE_PROJECT_DIR` expanded, `~/` taken from the
/// home directory, and a relative path joined to the scope's base.
fn resolve_path(raw: &str, ctx: &Ctx<'_>) -> PathBuf {
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
fn expand_project_dir(text: &str, ctx: &Ctx<'_>, for_shell: bool) -> String {
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
fn expand_var(text: &str, name: &str, value: Option<&Path>, for_shell: bool) -> String {
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

fn is_shell_safe(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(
            c,
            '/' | '\\' | '.' | '_' | '-' | '+' | ',' | ':' | '@' | '%'
        )
}

/// Quote one word for `shell`.
fn quote_for(shell: Shell, word: &str) -> String {
    match shell {
        // A single-quoted PowerShell string is literal; `'` is doubled.
        Shell::PowerShell => format!("'{}'", word.replace('\'', "''")),
        Shell::System => shell_quote(word),
    }
}

/// Quote one word for the system shell (`sh`, `cmd` on Windows).
fn shell_quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| is_shell_safe(c) && c != '\\') {
        return word.to_string();
    }
    if cfg!(windows) {
        format!("\"{}\"", word.replace('"', "\\\""))
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// One line, at most [`LABEL_MAX`] characters, for notes.
fn shorten(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= LABEL_MAX {
        one_line
    } else {
        let cut: String = one_line.chars().take(LABEL_MAX - 1).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
