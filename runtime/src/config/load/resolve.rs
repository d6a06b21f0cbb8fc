//! One matcher group into handlers: its matcher and `if`, each handler's
//! own `if` and the tool it narrows to, its type, the policies that may
//! refuse it, and its timeout.

use std::path::Path;
use std::time::Duration;

use super::handlers::{
    resolve_command, resolve_http, resolve_mcp_tool, resolve_prompt, resolve_wasm,
};
use super::scope::apply_managed;
use super::Ctx;
use crate::config::hooks_json::{Group, HandlerType, HandlerWire};
use crate::config::if_rule::{self, IfSpec};
use crate::config::warning::WarningKind;
use crate::config::{
    Config, Handler, HandlerKind, Matcher, OnError, OnFailure, DEFAULT_MCP_TIMEOUT,
    DEFAULT_PROMPT_TIMEOUT, DEFAULT_TIMEOUT,
};
use crate::protocol::EventName;

/// One matcher group's handlers into `config`: its matcher and `if`, then
/// each handler's own `if`, the tool it narrows to, its type-specific part
/// and its timeout. Whatever cannot be used is skipped with a warning.
pub(super) fn resolve_group(
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
        let Some(resolved) = resolve_handler(ctx, config, &at, entry)
            .and_then(|r| policed(ctx, config, event, &at, &raw_component, r))
        else {
            continue;
        };
        let default_timeout = match resolved.kind {
            HandlerKind::Prompt(_) => DEFAULT_PROMPT_TIMEOUT,
            HandlerKind::McpTool(_) => DEFAULT_MCP_TIMEOUT,
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

/// What the managed policy and the model rules leave of a resolved
/// handler: `None` (with a warning) when it must not run.
fn policed(
    ctx: &Ctx<'_>,
    config: &mut Config,
    event: EventName,
    at: &str,
    raw_component: &str,
    mut resolved: Resolved,
) -> Option<Resolved> {
    if let HandlerKind::Wasm(spec) = resolved.kind {
        resolved.kind = HandlerKind::Wasm(apply_managed(ctx, config, at, raw_component, spec)?);
    }
    if let HandlerKind::Prompt(_) | HandlerKind::Agent(_) = resolved.kind {
        if let Some(why) = crate::config::llm::refused(event, config.managed.as_ref()) {
            let at = at.to_string();
            ctx.warn(config, WarningKind::LlmRefused { at, why });
            return None;
        }
    }
    Some(resolved)
}

/// A group's matcher, or `None` (with a warning: the group is skipped) when
/// it is not a valid one for an event that has a matcher.
pub(super) fn group_matcher(
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
pub(super) fn valid_or_warn<T>(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    parsed: Result<T, regex_lite::Error>,
    (key, src, event, what): (&'static str, Option<&str>, EventName, &'static str),
) -> Option<T> {
    match parsed {
        Ok(value) => Some(value),
        Err(e) => {
            let warning = WarningKind::InvalidRegex {
                at: at.to_string(),
                key,
                source: src.unwrap_or_default().to_string(),
                event,
                why: regex_error(&e),
                skipped: what,
            };
            ctx.warn(config, warning);
            None
        }
    }
}

/// The matcher a handler runs under: the group's, narrowed to the tool a
/// permission rule in its `if` names; `None` (with a warning) when the
/// handler could never run.
pub(super) fn narrowed(
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
        let at = at.to_string();
        ctx.warn(config, WarningKind::IfWithoutToolInput { at, event });
        return None;
    }
    if let Some(note) = &spec.note {
        let (at, note) = (at.to_string(), note.clone());
        ctx.warn(config, WarningKind::IfNote { at, note });
    }
    // A permission rule names its tool: the handler runs for that tool only.
    let Some(tool) = &spec.tool else {
        return Some(matcher.clone());
    };
    if !matcher.matches(Some(tool)) {
        let (at, tool) = (at.to_string(), tool.clone());
        ctx.warn(config, WarningKind::IfToolNeverSelected { at, tool });
        return None;
    }
    Some(Matcher::Exact(vec![tool.clone()]))
}

/// A handler's timeout: its `timeout` when usable, else (with a warning
/// when it was set) [`DEFAULT_TIMEOUT`].
pub(super) fn handler_timeout(
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
        let warning = WarningKind::BadTimeout {
            at: at.to_string(),
            secs,
            default_secs: default.as_secs(),
        };
        ctx.warn(config, warning);
        default
    })
}

pub(super) fn compile_if(src: Option<&str>) -> Result<Option<IfSpec>, regex_lite::Error> {
    src.map(if_rule::compile).transpose()
}

/// A regex error on one line (regex's own display draws a caret diagram).
pub(super) fn regex_error(e: &regex_lite::Error) -> String {
    let text = e.to_string();
    text.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .map(str::to_string)
        .unwrap_or_else(|| text.lines().next().unwrap_or_default().trim().to_string())
}

/// A timeout in seconds, if it is a usable one.
pub(super) fn timeout(secs: f64) -> Option<Duration> {
    if secs.is_finite() && secs > 0.0 {
        Duration::try_from_secs_f64(secs).ok()
    } else {
        None
    }
}

/// The parts of a handler that depend on its type.
pub(super) struct Resolved {
    kind: HandlerKind,
    label: String,
    timeout: Option<f64>,
    on_error: Option<OnError>,
    status_message: Option<String>,
    once: bool,
}

pub(super) fn resolve_handler(
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
            Some(prompt) if !prompt.trim().is_empty() => resolve_prompt(type_, prompt, &entry),
            _ => return skip_missing(ctx, config, at, type_),
        },
        HandlerType::McpTool => resolve_mcp_tool(ctx, config, at, &entry)?,
    };
    let on_error = match OnFailure::combine(entry.on_error, entry.on_failure) {
        Ok(policy) => policy,
        Err(closed) => {
            let at = at.to_string();
            ctx.warn(config, WarningKind::OnErrorConflict { at });
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
pub(super) fn skip_missing<T>(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    type_: HandlerType,
) -> Option<T> {
    let key = type_.required().unwrap_or("type");
    let at = at.to_string();
    ctx.warn(config, WarningKind::MissingKey { at, key });
    None
}

#[cfg(test)]
#[path = "resolve_tests.rs"]
mod tests;
