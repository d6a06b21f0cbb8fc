//! The model client prompt hooks use: where the model is, and one
//! non-streaming request to it in Anthropic's or OpenAI's wire shape.
//!
//! Why each piece is the way it is:
//!
//! - **The user's choice, or Claude Code's environment.** The `llm` setting
//!   comes from the managed or user file only (a project cannot pick where
//!   its events go); without it, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`
//!   (or `ANTHROPIC_AUTH_TOKEN` as a bearer token) and the model variables
//!   Claude Code reads, so a Claude Code user's prompt hooks just run.
//! - **The key stays a secret.** It is only ever a request header: the
//!   [`Endpoint`]'s `Debug` hides it, and no error or note is built from it.
//! - **Proxies.** Unlike an http hook (whose URL names where data goes),
//!   model traffic honours `HTTPS_PROXY` / `NO_PROXY`, since organisations
//!   route it through them.
//! - **Bounded.** One deadline for the whole request (ureq's global
//!   timeout), no redirects, the reply read to at most [`REPLY_LIMIT`].

use std::time::Duration;

use serde_json::{json, Value};

use crate::config::{LlmProvider, LlmSettings};
use crate::protocol::Failure;

/// The most bytes of a model's reply read; a longer one is a failure.
pub const REPLY_LIMIT: u64 = 1 << 20;

/// Anthropic's API, when neither `llm.baseUrl` nor `ANTHROPIC_BASE_URL` says otherwise.
pub const ANTHROPIC_API: &str = "https://api.anthropic.com";

/// The model asked when nothing names one (a current Haiku, as Claude Code does).
pub const DEFAULT_ANTHROPIC_MODEL: &str = "claude-haiku-4-5";

/// The most tokens a verdict may take: `{ok, reason}` is short.
const MAX_TOKENS: u32 = 1024;

/// How the request proves who it is.
#[derive(Clone, PartialEq, Eq)]
enum Auth {
    None,
    /// Anthropic's `x-api-key`.
    ApiKey(String),
    /// `Authorization: Bearer`.
    Bearer(String),
}

/// Where one prompt hook's request goes.
#[derive(Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The wire shape.
    pub provider: LlmProvider,
    /// The full URL POSTed to.
    pub url: String,
    /// The model asked.
    pub model: String,
    /// The hook's own model, when it named a Claude model and `llm.model`
    /// was asked in its place (see [`endpoint`]).
    pub in_place_of: Option<String>,
    auth: Auth,
}

/// Never the key: an endpoint may end up in a log line.
impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("url", &self.url)
            .field("model", &self.model)
            .field("in_place_of", &self.in_place_of)
            .field("auth", &self.auth_kind())
            .finish()
    }
}

impl Endpoint {
    /// The host (and port) the request goes to, for `fire` and the audit log.
    pub fn host(&self) -> String {
        self.url
            .parse::<ureq::http::Uri>()
            .ok()
            .and_then(|u| u.authority().map(|a| a.to_string()))
            .unwrap_or_default()
    }

    /// `none`, `x-api-key` or `bearer`: how it authenticates, never with what.
    pub fn auth_kind(&self) -> &'static str {
        match self.auth {
            Auth::None => "none",
            Auth::ApiKey(_) => "x-api-key",
            Auth::Bearer(_) => "bearer",
        }
    }
}

/// The endpoint a prompt or agent hook naming `hook_model` calls, with the
/// API key from the process environment; what is missing is the hook's
/// [`Failure::ModelRequest`](crate::protocol::Failure::ModelRequest). A
/// model asked in place of the hook's goes into `report`'s notes.
pub(crate) fn endpoint_for(
    settings: Option<&LlmSettings>,
    hook_model: Option<&str>,
    report: &mut super::Report,
) -> Result<Endpoint, crate::protocol::Failure> {
    let endpoint = endpoint(settings, hook_model, |name| std::env::var(name).ok())
        .map_err(|why| crate::protocol::Failure::ModelRequest { why })?;
    if let Some(named) = &endpoint.in_place_of {
        report.notes.push(in_place_of_note(named, &endpoint.model));
    }
    Ok(endpoint)
}

/// Where a prompt hook asking for `hook_model` sends its request, given the
/// `llm` setting (if any) and the environment (`env`). The error says what
/// to set.
pub fn endpoint(
    settings: Option<&LlmSettings>,
    hook_model: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Endpoint, String> {
    let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let claude_auth = || match (var("ANTHROPIC_API_KEY"), var("ANTHROPIC_AUTH_TOKEN")) {
        (Some(key), _) => Auth::ApiKey(key),
        (None, Some(token)) => Auth::Bearer(token),
        (None, None) => Auth::None,
    };
    let claude_model = || {
        var("ANTHROPIC_SMALL_FAST_MODEL")
            .or_else(|| var("ANTHROPIC_DEFAULT_HAIKU_MODEL"))
            .unwrap_or_else(|| DEFAULT_ANTHROPIC_MODEL.to_string())
    };
    let hook_model = hook_model.map(str::to_string);
    let Some(settings) = settings else {
        let base = var("ANTHROPIC_BASE_URL").unwrap_or_else(|| ANTHROPIC_API.to_string());
        return Ok(Endpoint {
            provider: LlmProvider::Anthropic,
            url: format!("{}/v1/messages", base.trim_end_matches('/')),
            model: hook_model.unwrap_or_else(claude_model),
            in_place_of: None,
            auth: claude_auth(),
        });
    };
    // Hooks written for Claude Code name Claude models. A server of the
    // user's own (`baseUrl`) with its own `llm.model` does not serve them:
    // the user's choice of model wins there. A hook naming any other model
    // asked for that model on purpose.
    let (hook_model, in_place_of) = match (hook_model, &settings.model) {
        (Some(named), Some(own)) if settings.base_url.is_some() && is_claude_model(&named) => {
            (Some(own.clone()), Some(named))
        }
        (named, _) => (named, None),
    };
    let named_key = match &settings.api_key_env {
        Some(name) => match var(name) {
            Some(key) => Some(key),
            None => {
                return Err(format!(
                    "`llm.apiKeyEnv` names `{name}`, which is not set; set it or drop `apiKeyEnv`"
                ))
            }
        },
        None => None,
    };
    match settings.provider {
        LlmProvider::Anthropic => {
            let base = settings
                .base_url
                .clone()
                .unwrap_or_else(|| ANTHROPIC_API.to_string());
            Ok(Endpoint {
                provider: LlmProvider::Anthropic,
                url: format!("{}/v1/messages", base.trim_end_matches('/')),
                model: hook_model
                    .or_else(|| settings.model.clone())
                    .unwrap_or_else(claude_model),
                in_place_of,
                auth: named_key.map_or_else(claude_auth, Auth::ApiKey),
            })
        }
        LlmProvider::Openai => {
            let Some(base) = settings.base_url.clone() else {
                return Err("`llm.provider: \"openai\"` needs `llm.baseUrl`".to_string());
            };
            let Some(model) = hook_model.or_else(|| settings.model.clone()) else {
                return Err(
                    "no model: set `llm.model` (or the hook's `model`) for `provider: \"openai\"`"
                        .to_string(),
                );
            };
            Ok(Endpoint {
                provider: LlmProvider::Openai,
                url: format!("{}/chat/completions", base.trim_end_matches('/')),
                model,
                in_place_of,
                auth: named_key.map_or(Auth::None, Auth::Bearer),
            })
        }
    }
}

/// Whether `name` is one of Claude's models, as Claude Code's hooks name
/// them: a model id (`claude-haiku-4-5`) or an alias (`haiku`).
fn is_claude_model(name: &str) -> bool {
    let name = name.trim().to_ascii_lowercase();
    name.starts_with("claude") || matches!(name.as_str(), "haiku" | "sonnet" | "opus")
}

/// The note a hook's report carries when `llm.model` was asked in place of
/// the Claude model it named.
fn in_place_of_note(named: &str, asked: &str) -> String {
    format!(
        "asked `{}` (`llm.model`) in place of the hook's Claude model `{}`: \
         the `llm` server is not Anthropic's",
        crate::protocol::one_line(asked),
        crate::protocol::one_line(named)
    )
}

/// What the model said: its text and what it cost.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    /// The text of its answer (every text block, joined).
    pub text: String,
    /// Tokens read, when the API says.
    pub input_tokens: Option<u64>,
    /// Tokens written, when the API says.
    pub output_tokens: Option<u64>,
}

/// The request body for `endpoint`: `system` as the instructions, `user` as
/// the one user message, no streaming.
pub fn request_body(endpoint: &Endpoint, system: &str, user: &str) -> Value {
    match endpoint.provider {
        LlmProvider::Anthropic => json!({
            "model": endpoint.model,
            "max_tokens": MAX_TOKENS,
            "stream": false,
            "system": system,
            "messages": [{"role": "user", "content": user}],
        }),
        LlmProvider::Openai => json!({
            "model": endpoint.model,
            "max_tokens": MAX_TOKENS,
            "stream": false,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
        }),
    }
}

/// The text and usage of a reply body in `provider`'s shape, or what is
/// wrong with it.
pub fn read_reply(provider: LlmProvider, body: &[u8]) -> Result<Reply, String> {
    reply_of(provider, &parse_body(body)?)
}

fn parse_body(body: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(body).map_err(|e| format!("the reply is not the API's JSON ({e})"))
}

/// The text and usage of a parsed reply in `provider`'s shape.
pub fn reply_of(provider: LlmProvider, value: &Value) -> Result<Reply, String> {
    let u64_at = |pointer: &str| value.pointer(pointer).and_then(Value::as_u64);
    let reply = match provider {
        LlmProvider::Anthropic => {
            let blocks = value
                .get("content")
                .and_then(Value::as_array)
                .ok_or("the reply has no `content` array")?;
            let text = blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n");
            Reply {
                text,
                input_tokens: u64_at("/usage/input_tokens"),
                output_tokens: u64_at("/usage/output_tokens"),
            }
        }
        LlmProvider::Openai => {
            let text = value
                .pointer("/choices/0/message/content")
                .and_then(Value::as_str)
                .ok_or("the reply has no `choices[0].message.content`")?;
            Reply {
                text: text.to_string(),
                input_tokens: u64_at("/usage/prompt_tokens"),
                output_tokens: u64_at("/usage/completion_tokens"),
            }
        }
    };
    Ok(reply)
}

/// How long past a request's deadline the runtime waits for its thread
/// before giving up on it (ureq's own timeout should end it first).
const GRACE: Duration = Duration::from_millis(250);

/// [`post`] on a thread of its own (not tokio's blocking pool, so a request
/// that outlived its deadline never holds up the process's exit), awaited
/// for at most `left`; a timeout is reported as `after` (the handler's).
pub async fn post_within(
    endpoint: &Endpoint,
    body: Value,
    left: Duration,
    after: Duration,
) -> Result<Value, Failure> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let endpoint = endpoint.clone();
    let spawned = std::thread::Builder::new()
        .name("agenthooks-llm".into())
        .spawn(move || {
            let _ = tx.send(post(&endpoint, &body, left).map_err(|f| match f {
                Failure::ModelTimeout { .. } => Failure::ModelTimeout { after },
                other => other,
            }));
        });
    if let Err(e) = spawned {
        return Err(Failure::Internal {
            why: format!("could not start the request thread: {e}"),
        });
    }
    match tokio::time::timeout(left.saturating_add(GRACE), rx).await {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(Failure::Internal {
            why: "the request thread ended without an answer".to_string(),
        }),
        Err(_) => Err(Failure::ModelTimeout { after }),
    }
}

/// POST `body` to `endpoint` within `timeout` and parse its reply as JSON
/// (blocking).
///
/// # Errors
/// Every way it can go wrong, typed: a timeout, a non-2xx status, a reply
/// over [`REPLY_LIMIT`], a failed request (refused, TLS, ...), a body that
/// is not JSON. None of them holds the key.
pub fn post(endpoint: &Endpoint, body: &Value, timeout: Duration) -> Result<Value, Failure> {
    // Organisations route model traffic through their proxy.
    let mut request = super::http::agent(timeout, ureq::Proxy::try_from_env())
        .post(&endpoint.url)
        .header("content-type", "application/json");
    if endpoint.provider == LlmProvider::Anthropic {
        request = request.header("anthropic-version", "2023-06-01");
    }
    request = match &endpoint.auth {
        Auth::None => request,
        Auth::ApiKey(key) => request.header("x-api-key", key.as_str()),
        Auth::Bearer(token) => request.header("authorization", format!("Bearer {token}")),
    };
    let failure = |e: ureq::Error| match e {
        ureq::Error::Timeout(_) => Failure::ModelTimeout { after: timeout },
        ureq::Error::BodyExceedsLimit(_) => Failure::OutputLimit {
            limit: REPLY_LIMIT as usize,
        },
        other => Failure::ModelRequest {
            why: other.to_string(),
        },
    };
    let mut response = request.send(body.to_string()).map_err(failure)?;
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(Failure::ModelStatus { status });
    }
    let bytes = response
        .body_mut()
        .with_config()
        .limit(REPLY_LIMIT)
        .read_to_vec()
        .map_err(failure)?;
    parse_body(&bytes).map_err(|why| Failure::ModelRequest { why })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::env_of as env;

    #[test]
    fn claude_environment_is_the_default() {
        let e = endpoint(None, None, env(&[])).unwrap();
        assert_eq!(e.url, "https://api.anthropic.com/v1/messages");
        assert_eq!(e.model, DEFAULT_ANTHROPIC_MODEL);
        assert_eq!(e.auth_kind(), "none");
        let vars = [
            ("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/"),
            ("ANTHROPIC_AUTH_TOKEN", "tok"),
            ("ANTHROPIC_SMALL_FAST_MODEL", "small"),
        ];
        let e = endpoint(None, None, env(&vars)).unwrap();
        assert_eq!(
            (e.url.as_str(), e.model.as_str(), e.auth_kind()),
            ("http://127.0.0.1:9/v1/messages", "small", "bearer")
        );
        let both = [("ANTHROPIC_API_KEY", "k"), ("ANTHROPIC_AUTH_TOKEN", "t")];
        let e = endpoint(None, Some("hooked"), env(&both)).unwrap();
        assert_eq!((e.model.as_str(), e.auth_kind()), ("hooked", "x-api-key"));
    }

    #[test]
    fn a_servers_own_model_wins_over_a_claude_model_name_only() {
        let local = |provider, model: Option<&str>| LlmSettings {
            provider,
            base_url: Some("http://127.0.0.1:11434/v1".into()),
            model: model.map(str::to_string),
            api_key_env: None,
        };
        let asked = |settings: &LlmSettings, hook: Option<&str>| {
            let e = endpoint(Some(settings), hook, env(&[])).unwrap();
            (e.model, e.in_place_of)
        };
        for provider in [LlmProvider::Openai, LlmProvider::Anthropic] {
            let own = local(provider, Some("llama3"));
            for claude in ["claude-haiku-4-5", "haiku", "Sonnet", "claude-opus-4-1"] {
                assert_eq!(
                    asked(&own, Some(claude)),
                    ("llama3".to_string(), Some(claude.to_string()))
                );
            }
            // Another model was named on purpose; no model named: the server's.
            assert_eq!(asked(&own, Some("qwen2.5")), ("qwen2.5".to_string(), None));
            assert_eq!(asked(&own, None), ("llama3".to_string(), None));
        }
        // No model of its own: the hook's name goes as written.
        let bare = local(LlmProvider::Openai, None);
        assert_eq!(asked(&bare, Some("haiku")), ("haiku".to_string(), None));
        // Anthropic's own API (no baseUrl) serves Claude models.
        let anthropic = LlmSettings {
            base_url: None,
            ..local(LlmProvider::Anthropic, Some("claude-sonnet-4-5"))
        };
        assert_eq!(
            asked(&anthropic, Some("claude-haiku-4-5")),
            ("claude-haiku-4-5".to_string(), None)
        );
    }

    #[test]
    fn llm_setting_picks_provider_url_model_and_key() {
        let settings = LlmSettings {
            provider: LlmProvider::Openai,
            base_url: Some("http://127.0.0.1:11434/v1".into()),
            model: Some("llama".into()),
            api_key_env: Some("MY_KEY".into()),
        };
        let e = endpoint(Some(&settings), None, env(&[("MY_KEY", "sekrit")])).unwrap();
        assert_eq!(e.url, "http://127.0.0.1:11434/v1/chat/completions");
        assert_eq!((e.model.as_str(), e.auth_kind()), ("llama", "bearer"));
        assert_eq!(e.host(), "127.0.0.1:11434");
        assert!(!format!("{e:?}").contains("sekrit"));
        let err = endpoint(Some(&settings), None, env(&[])).unwrap_err();
        assert!(err.contains("MY_KEY") && err.contains("not set"), "{err}");
        let no_model = LlmSettings {
            model: None,
            api_key_env: None,
            ..settings
        };
        assert!(endpoint(Some(&no_model), None, env(&[])).is_err());
        assert!(endpoint(Some(&no_model), Some("m"), env(&[])).is_ok());
    }

    #[test]
    fn replies_of_both_apis_are_read() {
        let anthropic = br#"{"content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"{\"ok\":true}"}],"usage":{"input_tokens":7,"output_tokens":3}}"#;
        let r = read_reply(LlmProvider::Anthropic, anthropic).unwrap();
        assert_eq!(
            (r.text.as_str(), r.input_tokens, r.output_tokens),
            ("{\"ok\":true}", Some(7), Some(3))
        );
        let openai = br#"{"choices":[{"message":{"role":"assistant","content":"hi"}}],"usage":{"prompt_tokens":5,"completion_tokens":1}}"#;
        let r = read_reply(LlmProvider::Openai, openai).unwrap();
        assert_eq!((r.text.as_str(), r.input_tokens), ("hi", Some(5)));
        assert!(read_reply(LlmProvider::Openai, b"{}").is_err());
        assert!(read_reply(LlmProvider::Anthropic, b"not json").is_err());
    }
}
