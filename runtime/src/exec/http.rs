//! Http hooks (Claude Code's `type: "http"`): the input POSTed as JSON to a
//! URL, the response body read as a command's stdout.
//!
//! Why each piece is the way it is:
//!
//! - **Claude Code's reading of the response.** A 2xx with an empty body is
//!   no opinion; a 2xx whose body is a JSON object is parsed exactly as a
//!   command's stdout on exit 0 ([`parse_output`]); a 2xx with any other
//!   body, any other status and a request that fails are failures, so
//!   `onError: "deny"` / `onFailure: "block"` can fail closed on them.
//! - **Nothing taken from the environment by surprise.** No proxy is read
//!   from `HTTP(S)_PROXY`/`ALL_PROXY` (a hook's URL names where its data
//!   goes), and header values expand only the variables the handler lists in
//!   `allowedEnvVars`, as Claude Code does; an unlisted one expands to
//!   nothing (the loader warns about it).
//! - **No redirects.** A 3xx is a failure naming its status: following one
//!   could send the event off to a host nobody reviewed.
//! - **Bounded.** One deadline for connect, send and the whole response
//!   (ureq's global timeout), and the body is read to at most
//!   [`RESPONSE_LIMIT`] bytes. The blocking request runs on a thread of its
//!   own, not tokio's blocking pool, so a request that outlived its
//!   deadline never holds up the process's exit.

use std::time::Duration;

use super::{ExecContext, Report};
use crate::config::http::VAR;
use crate::config::{Handler, HttpSpec};
use crate::protocol::{parse_output, Answer, Event, Exit, Failure, Outcome};

/// The most bytes of a response body read; a longer body is a failure.
pub const RESPONSE_LIMIT: u64 = 1 << 20;

/// How long past the handler's timeout the runtime waits for the request
/// thread before giving up on it (ureq's own timeout should end it first).
const GRACE: Duration = Duration::from_millis(250);

/// `value` with each `$NAME` / `${NAME}` replaced by `lookup(NAME)` when
/// `allowed` lists it, and by nothing otherwise (Claude Code's rule). An
/// unset variable is empty too.
pub fn interpolate(
    value: &str,
    allowed: &[String],
    lookup: impl Fn(&str) -> Option<String>,
) -> String {
    VAR.replace_all(value, |c: &regex_lite::Captures<'_>| {
        let name = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
        if allowed.iter().any(|a| a == name) {
            lookup(name).unwrap_or_default()
        } else {
            String::new()
        }
    })
    .into_owned()
}

/// What the request came to, before it is read as an answer.
enum Reply {
    /// A response with a 2xx status and its (bounded) body.
    Ok(Vec<u8>),
    /// A response with another status.
    Status(u16),
    /// No usable response.
    Failed(Failure),
}

/// Run one http handler for `event` and report what it came to.
///
/// Never fails: every way the request can go wrong is a [`Failure`] in the
/// report's outcome, and the report comes back within the handler's timeout
/// (plus a fraction of a second).
pub async fn run(spec: &HttpSpec, handler: &Handler, event: &Event, ctx: &ExecContext) -> Report {
    let mut report = Report::new(handler, "http");
    let body = event.to_json().to_string();
    let mut headers: Vec<(String, String)> = spec
        .headers
        .iter()
        .map(|(name, value)| {
            let value = interpolate(value, &spec.allowed_env_vars, |v| std::env::var(v).ok());
            (name.clone(), value)
        })
        .collect();
    // A traced event: the hook's own span is the request's parent (in
    // place of any the handler's own headers name).
    if let Some(span) = &ctx.trace {
        headers.retain(|(name, _)| {
            !name.eq_ignore_ascii_case("traceparent") && !name.eq_ignore_ascii_case("tracestate")
        });
        headers.push(("traceparent".into(), span.traceparent()));
        headers.extend(span.state.clone().map(|s| ("tracestate".into(), s)));
    }
    let url = spec.url.clone();
    let timeout = handler.timeout;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("agenthooks-http".into())
        .spawn(move || {
            let _ = tx.send(post(&url, &headers, body, timeout));
        });
    let reply = match spawned {
        Err(e) => Reply::Failed(Failure::Internal {
            why: format!("could not start the request thread: {e}"),
        }),
        Ok(_) => match tokio::time::timeout(timeout.saturating_add(GRACE), rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Reply::Failed(Failure::Internal {
                why: "the request thread ended without an answer".to_string(),
            }),
            Err(_) => Reply::Failed(Failure::Timeout { after: timeout }),
        },
    };
    report.outcome = match reply {
        Reply::Failed(failure) => Outcome::Failed(failure),
        Reply::Status(status) => Outcome::Failed(Failure::HttpStatus { status }),
        Reply::Ok(bytes) => {
            report.stdout = String::from_utf8_lossy(&bytes).into_owned();
            read_body(event, &report.stdout)
        }
    };
    report
}

/// A 2xx body as Claude Code reads it: nothing is no opinion, a JSON object
/// is a command's stdout on exit 0, anything else is a failure.
fn read_body(event: &Event, body: &str) -> Outcome {
    let text = body.trim();
    if text.is_empty() {
        return Outcome::Answered(Answer::none());
    }
    if text.starts_with('{') {
        return parse_output(event.name(), Exit::Code(0), text, "");
    }
    Outcome::Failed(Failure::BadOutput {
        why: "an http hook answers with a JSON object or an empty body, not plain text".to_string(),
    })
}

/// The HTTP client of every request agenthooks makes (http hooks, model
/// calls, span export): one request within `timeout`, no redirect (a
/// redirect would send the data somewhere not configured), a status read as
/// an answer rather than an error, agenthooks' user agent, and `proxy`
/// (`None`: no proxy, whatever the environment says).
pub fn agent(timeout: Duration, proxy: Option<ureq::Proxy>) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .proxy(proxy)
        .max_redirects(0)
        .http_status_as_error(false)
        .user_agent(concat!("agenthooks/", env!("CARGO_PKG_VERSION")))
        .build();
    ureq::Agent::new_with_config(config)
}

/// The blocking request: POST `body` to `url` within `timeout`.
fn post(url: &str, headers: &[(String, String)], body: String, timeout: Duration) -> Reply {
    // Never a proxy from the environment: the URL says where the data goes.
    let mut request = agent(timeout, None)
        .post(url)
        .header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(name.as_str(), value.as_str());
    }
    let mut response = match request.send(body) {
        Ok(response) => response,
        Err(e) => return Reply::Failed(failure_of(e, timeout)),
    };
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Reply::Status(status);
    }
    match response
        .body_mut()
        .with_config()
        .limit(RESPONSE_LIMIT)
        .read_to_vec()
    {
        Ok(bytes) => Reply::Ok(bytes),
        Err(e) => Reply::Failed(failure_of(e, timeout)),
    }
}

/// The typed failure of a request error.
fn failure_of(e: ureq::Error, timeout: Duration) -> Failure {
    match e {
        ureq::Error::Timeout(_) => Failure::Timeout { after: timeout },
        ureq::Error::BodyExceedsLimit(_) => Failure::OutputLimit {
            limit: RESPONSE_LIMIT as usize,
        },
        other => Failure::HttpRequest {
            why: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn only_listed_variables_expand() {
        let allowed = list(&["TOKEN", "TEAM"]);
        let env = |name: &str| match name {
            "TOKEN" => Some("t0k".to_string()),
            "SECRET" => Some("leak".to_string()),
            _ => None,
        };
        assert_eq!(
            interpolate("Bearer $TOKEN/${TOKEN}-$SECRET-${TEAM}.", &allowed, env),
            "Bearer t0k/t0k--."
        );
        assert_eq!(interpolate("no vars, $ 5", &allowed, env), "no vars, $ 5");
    }
}
