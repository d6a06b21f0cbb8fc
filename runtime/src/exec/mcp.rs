//! MCP tool hooks (Claude Code's `type: "mcp_tool"`): a tool of an MCP
//! server is called with the hook's `input`, and its text result is read
//! like a command hook's stdout.
//!
//! Why each piece is the way it is:
//!
//! - **The official SDK.** `rmcp` speaks the protocol (initialize, tools/list,
//!   tools/call), on stdio or streamable HTTP.
//! - **Started for the event, stopped with it.** A stdio server is a child we
//!   spawn ourselves (not rmcp's child-process transport) so that it leads
//!   its own process group, like a command hook, and the whole group is
//!   killed when the call ends or at the deadline: nothing it started
//!   outlives the event.
//! - **One deadline for everything.** Starting, listing the tools and the
//!   call share the hook's `timeout`.
//! - **Bounded.** One JSON-RPC message at most [`LINE_MAX`], the tool's text
//!   at most [`OUTPUT_LIMIT`], its stderr at most [`STDERR_MAX`], the tool
//!   list at most [`PAGES_MAX`] pages, the filled `input` at most [`INPUT_MAX`].
//! - **Typed failures.** An unknown server or tool, a server that does not
//!   start, a timeout, a protocol error and an `isError` result are each a
//!   [`Failure`]: allowed with a note, denied under `onError: "deny"`.

use std::process::Stdio;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, PaginatedRequestParams};
use rmcp::service::RunningService;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::AsyncReadExt;
use tokio::process::Command;

use super::command::OUTPUT_LIMIT;
use super::{ExecContext, Report};
use crate::config::{Handler, McpServer, McpToolSpec, McpTransport};
use crate::protocol::{one_line, parse_output, Event, Exit, Failure, Outcome};

/// The longest JSON-RPC message read from a server.
pub const LINE_MAX: usize = 4 << 20;
/// How much of a stdio server's stderr is kept (for the failure that quotes it).
pub const STDERR_MAX: usize = 4 << 10;
/// The most pages of `tools/list` read looking for the tool.
pub const PAGES_MAX: usize = 16;
/// The longest `input` after its placeholders are filled, in bytes.
pub const INPUT_MAX: usize = 1 << 20;
/// The most tool names a failure lists.
const NAMES_SHOWN: usize = 20;

/// What went wrong talking to the server, before it is named in a [`Failure`].
enum Trouble {
    /// It did not start or did not answer `initialize`.
    Start(String),
    /// It broke the protocol or answered an error.
    Protocol(String),
    /// It does not list the tool; the names it lists.
    UnknownTool(String),
}

/// Run one mcp_tool handler for `event` and report what it came to.
///
/// Never fails: every way the call can go wrong is a [`Failure`] in the
/// report's outcome, and the report comes back within the handler's timeout
/// (plus the time to kill the server).
pub async fn run(
    spec: &McpToolSpec,
    handler: &Handler,
    event: &Event,
    ctx: &ExecContext,
) -> Report {
    let mut report = Report::new(handler, "mcp_tool");
    report.outcome = match outcome(spec, handler, event, ctx, &mut report).await {
        Ok(outcome) => outcome,
        Err(failure) => Outcome::Failed(failure),
    };
    report
}

async fn outcome(
    spec: &McpToolSpec,
    handler: &Handler,
    event: &Event,
    ctx: &ExecContext,
    report: &mut Report,
) -> Result<Outcome, Failure> {
    let Some(server) = spec.found.as_ref() else {
        return Err(server_failure(spec));
    };
    let template: Value = serde_json::from_str(&spec.input).unwrap_or(Value::Object(Map::new()));
    let arguments = match fill(&template, &event.to_json()) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let size = Value::Object(arguments.clone()).to_string().len();
    if size > INPUT_MAX {
        return Err(Failure::McpProtocol {
            server: spec.server.clone(),
            why: format!(
                "the hook's `input` is {size} bytes once filled from the event, over {} MiB; \
                 use narrower `${{...}}` placeholders",
                INPUT_MAX >> 20
            ),
        });
    }
    let call = Call {
        tool: &spec.tool,
        arguments,
        timeout: handler.timeout,
    };
    let result = match &server.transport {
        McpTransport::Stdio { command, args, env } => {
            let (result, stderr) = stdio(&call, command, args, env, event, ctx).await;
            report.stderr = stderr;
            result
        }
        McpTransport::Http { url, headers } => http(&call, url, headers).await,
        McpTransport::Unusable { .. } => return Err(server_failure(spec)),
    };
    let result = result.map_err(|trouble| match trouble {
        None => Failure::Timeout {
            after: handler.timeout,
        },
        Some(trouble) => named(trouble, spec, server, &report.stderr),
    })?;
    let (text, cut) = text_of(&result);
    if cut {
        report.notes.push(format!(
            "its text was over {} MiB; the rest was dropped",
            OUTPUT_LIMIT >> 20
        ));
    }
    report.stdout = text.clone();
    if result.is_error == Some(true) {
        return Err(Failure::McpToolError {
            tool: spec.tool.clone(),
            message: if text.trim().is_empty() {
                "(no text)".to_string()
            } else {
                one_line(&text)
            },
        });
    }
    Ok(parse_output(event.name(), Exit::Code(0), &text, ""))
}

/// The failure of a hook whose server is defined nowhere, or unusably.
fn server_failure(spec: &McpToolSpec) -> Failure {
    Failure::McpServer {
        server: spec.server.clone(),
        why: spec.server_problem().unwrap_or_default(),
    }
}

/// A [`Trouble`] as the hook's failure, naming the server.
fn named(trouble: Trouble, spec: &McpToolSpec, server: &McpServer, stderr: &str) -> Failure {
    let said = stderr
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| format!(" (its stderr: {})", one_line(l)))
        .unwrap_or_default();
    match trouble {
        Trouble::Start(why) => Failure::McpStart {
            server: spec.server.clone(),
            why: format!("{why}{said}"),
            file: server.file.display().to_string(),
        },
        Trouble::Protocol(why) => Failure::McpProtocol {
            server: spec.server.clone(),
            why: format!("{why}{said}"),
        },
        Trouble::UnknownTool(available) => Failure::McpUnknownTool {
            server: spec.server.clone(),
            tool: spec.tool.clone(),
            available,
        },
    }
}

/// One tool call: what to call and within what time.
struct Call<'a> {
    tool: &'a str,
    arguments: Map<String, Value>,
    timeout: Duration,
}

/// `Err(None)`: the deadline passed.
type Talked = Result<CallToolResult, Option<Trouble>>;

/// Start `command`, call the tool, kill the server's process group; the
/// result and what the server wrote to stderr (bounded).
async fn stdio(
    call: &Call<'_>,
    command: &str,
    args: &[String],
    env: &[(String, String)],
    event: &Event,
    ctx: &ExecContext,
) -> (Talked, String) {
    let program = expand_env(command);
    let mut cmd = Command::new(&program);
    cmd.args(args.iter().map(|a| expand_env(a)))
        .envs(env.iter().map(|(k, v)| (k, expand_env(v))))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(root) = &ctx.project_root {
        cmd.env("CLAUDE_PROJECT_DIR", root);
    }
    let dir = event
        .cwd()
        .filter(|d| d.is_dir())
        .or_else(|| ctx.project_root.clone().filter(|d| d.is_dir()));
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    // Its own group, so the end of the event kills all it started.
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => {
            let why = format!("`{}` could not be run: {e}", one_line(&program));
            return (Err(Some(Trouble::Start(why))), String::new());
        }
    };
    let pid = child.id();
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        let _ = child.start_kill();
        let why = "its stdio could not be connected".to_string();
        return (Err(Some(Trouble::Start(why))), String::new());
    };
    let stderr = tokio::spawn(bounded_stderr(child.stderr.take()));
    let transport = AsyncRwTransport::new_client(stdout, stdin).with_max_line_length(LINE_MAX);
    let talked = talk(call, transport).await;
    // The call is over (or timed out): end the server and all it started.
    #[cfg(unix)]
    if let Some(pgid) = pid.and_then(|p| i32::try_from(p).ok()) {
        // SAFETY: kill(2) on the group this server leads (`process_group(0)`).
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
    let _ = child.start_kill();
    let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
    let stderr = tokio::time::timeout(Duration::from_millis(500), stderr)
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    (talked, stderr)
}

/// Up to [`STDERR_MAX`] bytes of `pipe`, the rest read and dropped (so the
/// server never blocks on a full pipe).
async fn bounded_stderr(pipe: Option<tokio::process::ChildStderr>) -> String {
    let Some(mut pipe) = pipe else {
        return String::new();
    };
    let mut kept = Vec::new();
    let mut buf = vec![0u8; 8 * 1024];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = STDERR_MAX.saturating_sub(kept.len()).min(n);
                kept.extend_from_slice(&buf[..room]);
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// Call the tool at the streamable-HTTP endpoint `url`.
async fn http(call: &Call<'_>, url: &str, headers: &[(String, String)]) -> Talked {
    // reqwest is built without a crypto provider of its own (see Cargo.toml).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut config = StreamableHttpClientTransportConfig::with_uri(expand_env(url));
    for (name, value) in headers {
        let name = http::HeaderName::from_bytes(name.as_bytes());
        let value = http::HeaderValue::from_str(&expand_env(value));
        match (name, value) {
            (Ok(name), Ok(value)) => {
                config.custom_headers.insert(name, value);
            }
            _ => {
                let why = "a header in its definition is not a valid HTTP header".to_string();
                return Err(Some(Trouble::Start(why)));
            }
        }
    }
    let transport = StreamableHttpClientTransport::from_config(config);
    talk(call, transport).await
}

/// Initialize, find the tool, call it: all within `call.timeout`.
async fn talk<T, E, A>(call: &Call<'_>, transport: T) -> Talked
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let conversation = async {
        let client: RunningService<RoleClient, ()> = ()
            .serve(transport)
            .await
            .map_err(|e| Trouble::Start(start_error(&e.to_string())))?;
        let result = find_and_call(&client, call).await;
        let _ = client.cancel().await;
        result
    };
    match tokio::time::timeout(call.timeout, conversation).await {
        Ok(result) => result.map_err(Some),
        Err(_) => Err(None),
    }
}

/// rmcp's initialize error, said for a person.
fn start_error(error: &str) -> String {
    if error.contains("connection closed") {
        "it ended before answering `initialize`".to_string()
    } else {
        format!("`initialize` failed: {}", one_line(error))
    }
}

async fn find_and_call(
    client: &RunningService<RoleClient, ()>,
    call: &Call<'_>,
) -> Result<CallToolResult, Trouble> {
    let protocol =
        |what: &str, e: rmcp::ServiceError| Trouble::Protocol(one_line(&format!("{what}: {e}")));
    let mut names = Vec::new();
    let mut cursor = None;
    let mut found = false;
    for _ in 0..PAGES_MAX {
        let params = PaginatedRequestParams::default().with_cursor(cursor.take());
        let page = client
            .list_tools(Some(params))
            .await
            .map_err(|e| protocol("`tools/list` failed", e))?;
        if page.tools.iter().any(|t| t.name == call.tool) {
            found = true;
            break;
        }
        names.extend(page.tools.iter().map(|t| t.name.to_string()));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    if !found {
        let shown: Vec<&str> = names.iter().take(NAMES_SHOWN).map(String::as_str).collect();
        let more = names.len().saturating_sub(NAMES_SHOWN);
        let mut list = if shown.is_empty() {
            "none".to_string()
        } else {
            shown.join(", ")
        };
        if more > 0 {
            list.push_str(&format!(" and {more} more"));
        }
        return Err(Trouble::UnknownTool(list));
    }
    let params =
        CallToolRequestParams::new(call.tool.to_string()).with_arguments(call.arguments.clone());
    client
        .call_tool(params)
        .await
        .map_err(|e| protocol("`tools/call` failed", e))
}

/// The result's text blocks joined by newlines (its structured content
/// when it has no text), at most [`OUTPUT_LIMIT`] bytes, and whether it was cut.
fn text_of(result: &CallToolResult) -> (String, bool) {
    let mut text = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n");
    if text.is_empty() {
        if let Some(structured) = &result.structured_content {
            text = structured.to_string();
        }
    }
    if text.len() <= OUTPUT_LIMIT {
        return (text, false);
    }
    let mut end = OUTPUT_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    (text, true)
}

/// `template` with every `${path}` in its strings replaced by the value at
/// `path` in `input` (dots between keys, numbers index arrays): a string as
/// itself, anything else as JSON, nothing when the path is absent.
pub fn fill(template: &Value, input: &Value) -> Value {
    match template {
        Value::String(s) => Value::String(fill_str(s, input)),
        Value::Array(items) => Value::Array(items.iter().map(|v| fill(v, input)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill(v, input)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn fill_str(s: &str, input: &Value) -> String {
    expand(s, |path| match lookup(input, path) {
        Some(Value::String(v)) => v.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    })
}

/// `text` with each `${inner}` replaced by `value(inner)`; an unclosed
/// `${` and what follows it are kept as they are.
fn expand(text: &str, mut value: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        let Some(len) = rest[at + 2..].find('}') else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push_str(&value(&rest[at + 2..at + 2 + len]));
        rest = &rest[at + 2 + len + 1..];
    }
    out.push_str(rest);
    out
}

fn lookup<'v>(input: &'v Value, path: &str) -> Option<&'v Value> {
    path.trim()
        .split('.')
        .try_fold(input, |value, key| match value {
            Value::Object(map) => map.get(key),
            Value::Array(items) => items.get(key.parse::<usize>().ok()?),
            _ => None,
        })
}

/// `text` with `${VAR}` and `${VAR:-default}` expanded from the environment,
/// as Claude Code does in `.mcp.json` (unset and no default: empty).
fn expand_env(text: &str) -> String {
    expand(text, |inner| {
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        match std::env::var(name) {
            Ok(value) if !value.is_empty() || default.is_none() => value,
            _ => default.unwrap_or_default().to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_are_filled_from_the_event() {
        let input = json!({"tool_input": {"command": "rm -rf /", "n": 3, "list": ["a", "b"]}});
        let template = json!({
            "cmd": "run: ${tool_input.command}",
            "n": "${tool_input.n}",
            "second": "${tool_input.list.1}",
            "missing": "[${nope.x}]",
            "nested": {"all": ["${tool_input.list}"]},
            "kept": 7,
            "open": "${unclosed"
        });
        assert_eq!(
            fill(&template, &input),
            json!({
                "cmd": "run: rm -rf /",
                "n": "3",
                "second": "b",
                "missing": "[]",
                "nested": {"all": ["[\"a\",\"b\"]"]},
                "kept": 7,
                "open": "${unclosed"
            })
        );
    }

    #[test]
    fn environment_variables_expand_with_defaults() {
        let path = std::env::var("PATH").unwrap_or_default();
        assert_eq!(expand_env("${PATH}"), path);
        assert_eq!(
            expand_env("x${AGENTHOOKS_SURELY_UNSET_9}y${AGENTHOOKS_SURELY_UNSET_9:-d}"),
            "xyd"
        );
        assert_eq!(expand_env("no ${end"), "no ${end");
    }
}
