//! The rules for prompt hooks that belong to loading: which events may have
//! them, whether the managed policy allows them, and the `llm` setting.

use super::hooks_json::LlmEntry;
use super::{LlmSettings, ManagedPolicy};
use crate::protocol::EventName;

/// The events Claude Code accepts prompt (and agent) hooks on; the others
/// take commands only, so a prompt hook there is refused, as Claude does.
pub const PROMPT_EVENTS: &[EventName] = &[
    EventName::PreToolUse,
    EventName::PermissionRequest,
    EventName::PermissionDenied,
    EventName::PostToolUse,
    EventName::PostToolUseFailure,
    EventName::PostToolBatch,
    EventName::Stop,
    EventName::SubagentStop,
    EventName::TaskCreated,
    EventName::TaskCompleted,
    EventName::TeammateIdle,
    EventName::UserPromptSubmit,
    EventName::UserPromptExpansion,
];

/// Why a prompt hook on `event` cannot run under `managed`, if it cannot.
pub fn refused(event: EventName, managed: Option<&ManagedPolicy>) -> Option<String> {
    if let Some(policy) = managed.filter(|m| m.forbids_llm_hooks) {
        return Some(format!(
            "the managed policy `{}` sets `allowLlmHooks: false`, so no prompt or agent hook runs",
            policy.file.display()
        ));
    }
    if !PROMPT_EVENTS.contains(&event) {
        return Some(format!(
            "prompt and agent hooks are not allowed on {event} (Claude Code takes them on {}); \
             use a command hook there",
            PROMPT_EVENTS
                .iter()
                .map(|e| e.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    None
}

/// The `llm` object as settings, or why it cannot be used.
pub fn resolve(entry: &LlmEntry) -> Result<LlmSettings, String> {
    let base_url = entry
        .base_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty());
    if let Some(url) = base_url {
        super::http::check_url(url).map_err(|why| format!("`baseUrl` {why}"))?;
    }
    if let Some(name) = &entry.api_key_env {
        let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok {
            return Err(format!(
                "`apiKeyEnv` must name an environment variable, not `{}`",
                crate::protocol::one_line(name)
            ));
        }
    }
    let provider = entry.provider.unwrap_or_default();
    if provider == super::LlmProvider::Openai && base_url.is_none() {
        return Err("`provider: \"openai\"` needs a `baseUrl` (the part before \
                    `/chat/completions`, e.g. `http://127.0.0.1:11434/v1`)"
            .to_string());
    }
    Ok(LlmSettings {
        provider,
        base_url: base_url.map(|u| u.trim_end_matches('/').to_string()),
        model: entry.model.clone().filter(|m| !m.trim().is_empty()),
        api_key_env: entry.api_key_env.clone(),
    })
}
