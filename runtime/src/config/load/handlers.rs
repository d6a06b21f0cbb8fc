//! The type-specific part of a handler: command, http, wasm, prompt.

use super::expand::{expand_project_dir, quote_for, resolve_grants, resolve_path, shorten};
use super::Ctx;
use crate::config::hooks_json::{HandlerType, HandlerWire};
use crate::config::warning::WarningKind;
use crate::config::{
    CommandSpec, Config, HandlerKind, HttpSpec, McpToolSpec, PromptSpec, Shell, WasmSpec,
};

/// An http handler's kind and label, or `None` (with a warning) when its
/// URL is not one it can POST to.
pub(super) fn resolve_http(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    entry: &HandlerWire,
) -> Option<(HandlerKind, String)> {
    let url = entry.url.as_deref().unwrap_or_default().trim();
    if let Err(why) = crate::config::http::check_url(url) {
        let (at, why) = (at.to_string(), why.to_string());
        ctx.warn(config, WarningKind::BadUrl { at, why });
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
        for var in crate::config::http::unlisted_vars(value, &allowed) {
            let warning = WarningKind::UnlistedHeaderVar {
                at: at.to_string(),
                header: name.clone(),
                var: var.to_string(),
            };
            ctx.warn(config, warning);
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
pub(super) fn resolve_command(
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
pub(super) fn shell_named(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    name: Option<&str>,
) -> Shell {
    match name {
        None | Some("bash" | "sh") => Shell::System,
        Some("powershell" | "pwsh") => Shell::PowerShell,
        Some(other) => {
            let (at, shell) = (at.to_string(), other.to_string());
            ctx.warn(config, WarningKind::UnsupportedShell { at, shell });
            Shell::System
        }
    }
}

/// A wasm handler's kind and label; `None` (with a warning) for an
/// `oci://` component that is not a valid reference.
pub(super) fn resolve_wasm(
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
                let (at, why) = (at.to_string(), e.to_string());
                ctx.warn(config, WarningKind::BadOciReference { at, why });
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

/// `value`, trimmed, when it says something.
fn named(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|s| !s.is_empty())
}

/// An mcp_tool handler's kind and label, or `None` (with a warning) when
/// it lacks `server` or `tool`, or the MCP files cannot be read. A server
/// no file defines is not a warning here: `check` names it, and `run`
/// reports it as the hook's failure.
pub(super) fn resolve_mcp_tool(
    ctx: &Ctx<'_>,
    config: &mut Config,
    at: &str,
    entry: &HandlerWire,
) -> Option<(HandlerKind, String)> {
    let server = named(entry.server.as_deref());
    let tool = named(entry.tool.as_deref());
    let (Some(server), Some(tool)) = (server, tool) else {
        let key = if server.is_none() { "server" } else { "tool" };
        let at = at.to_string();
        ctx.warn(config, WarningKind::MissingKey { at, key });
        return None;
    };
    let found = crate::config::mcp::find(server, ctx.scope, ctx.home, ctx.project_root, ctx.mcp);
    let (found, searched) = match found {
        Ok(found) => found,
        Err(why) => {
            let (at, server) = (at.to_string(), server.to_string());
            ctx.warn(config, WarningKind::McpLookup { at, server, why });
            return None;
        }
    };
    let input = serde_json::Value::Object(entry.input.clone().unwrap_or_default()).to_string();
    let label = format!("mcp_tool `{}/{}`", shorten(server), shorten(tool));
    let spec = McpToolSpec {
        server: server.to_string(),
        tool: tool.to_string(),
        input,
        found,
        searched,
    };
    Some((HandlerKind::McpTool(spec), label))
}

/// A prompt or agent handler's kind and label.
pub(super) fn resolve_prompt(
    type_: HandlerType,
    prompt: &str,
    entry: &HandlerWire,
) -> (HandlerKind, String) {
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

#[cfg(test)]
#[path = "handlers_tests.rs"]
mod tests;
