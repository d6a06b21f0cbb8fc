//! Http hooks (Claude Code's `type: "http"`) through the real binary against
//! a real server on 127.0.0.1, started by each test: a std `TcpListener`
//! thread that records each request and answers as the test tells it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{self, TempProject};

/// How the test server answers every request.
#[derive(Clone)]
enum Reply {
    /// This status and body (JSON content type).
    Status(u16, String),
    /// A redirect to `location`.
    Redirect(String),
    /// Nothing for this long, then 200 with no body.
    Sleep(Duration),
    /// 200 with a body of this many bytes.
    Huge(usize),
}

/// One request the server received.
#[derive(Debug, Clone)]
struct Request {
    /// The request line, e.g. `POST /hook HTTP/1.1`.
    line: String,
    /// Header names lower-cased, in order.
    headers: Vec<(String, String)>,
    body: String,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The test server: its URL and what it received.
struct Server {
    url: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    fn start(reply: Reply) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        // Ends with the test process; every connection is answered on its own thread.
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = seen.clone();
                let reply = reply.clone();
                std::thread::spawn(move || serve(stream, &reply, &seen));
            }
        });
        Server { url, requests }
    }

    fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, reply: &Reply, seen: &Mutex<Vec<Request>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(stream.try_clone().expect("clone the stream"));
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = h.trim_end().split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    let _ = reader.read_exact(&mut body);
    seen.lock().unwrap().push(Request {
        line: line.trim_end().to_string(),
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    });
    let mut stream = stream;
    let response = match reply {
        Reply::Status(status, body) => format!(
            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        ),
        Reply::Redirect(location) => format!(
            "HTTP/1.1 302 Found\r\nlocation: {location}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        ),
        Reply::Sleep(d) => {
            std::thread::sleep(*d);
            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".to_string()
        }
        Reply::Huge(n) => {
            let head = format!("HTTP/1.1 200 OK\r\ncontent-length: {n}\r\nconnection: close\r\n\r\n");
            let _ = stream.write_all(head.as_bytes());
            let chunk = vec![b' '; 64 * 1024];
            let mut left = *n;
            while left > 0 {
                let k = left.min(chunk.len());
                if stream.write_all(&chunk[..k]).is_err() {
                    return;
                }
                left -= k;
            }
            return;
        }
    };
    let _ = stream.write_all(response.as_bytes());
}

/// A URL on 127.0.0.1 where nothing listens.
fn closed_port_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}/hook")
}

fn http(url: &str, extra: Value) -> Value {
    let mut h = json!({"type": "http", "url": url, "timeout": 5});
    if let (Some(h), Value::Object(extra)) = (h.as_object_mut(), extra) {
        h.extend(extra);
    }
    h
}

fn user_project(handler: Value) -> TempProject {
    let p = TempProject::new();
    p.user_hooks(&util::hooks("PreToolUse", "Bash", json!([handler])));
    p
}

/// The permission decision `run` gave Claude Code (`null` when none), with
/// stderr shown when a test fails on it.
#[track_caller]
fn decision(ran: &util::Ran) -> Value {
    let d = ran.json()["hookSpecificOutput"]["permissionDecision"].clone();
    eprintln!("stderr: {}", ran.stderr());
    d
}

fn deny_answer(reason: &str) -> String {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": reason}})
    .to_string()
}

#[test]
fn the_input_is_posted_and_a_deny_in_the_body_denies() {
    let server = Server::start(Reply::Status(200, deny_answer("the server says no")));
    let p = user_project(http(&server.url, json!({})));
    let ran = p.run(&p.bash("git push"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let out = ran.json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"],
        "the server says no"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!(r.line, "POST /hook HTTP/1.1");
    assert_eq!(r.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_str(&r.body).expect("the body is the input JSON");
    assert_eq!(body["tool_input"]["command"], "git push");
    assert_eq!(body["hook_event_name"], "PreToolUse");
    assert_eq!(body["harness"], "claude");
}

#[test]
fn an_empty_2xx_allows_without_a_note() {
    let server = Server::start(Reply::Status(204, String::new()));
    let p = user_project(http(&server.url, json!({})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.json(), Value::Null, "{}", ran.stdout());
    assert!(!ran.stderr().contains("http"), "{}", ran.stderr());
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_non_2xx_status_fails_open_or_closed_as_the_handler_says() {
    let server = Server::start(Reply::Status(500, deny_answer("ignored: not a 2xx")));
    let p = user_project(http(&server.url, json!({})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.decided(), Value::Null);
    ran.assert_stderr_contains("answered HTTP 500; only a 2xx answer counts");

    let p = user_project(http(&server.url, json!({"onFailure": "block"})));
    let ran = p.run(&p.bash("ls"));
    let out = ran.json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("fail closed: answered HTTP 500"),
        "{reason}"
    );
}

#[test]
fn plain_text_in_a_2xx_is_a_failure_as_in_claude_code() {
    let server = Server::start(Reply::Status(200, "looks fine to me".into()));
    let p = user_project(http(&server.url, json!({})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.decided(), Value::Null);
    ran.assert_stderr_contains("a JSON object or an empty body, not plain text");
}

#[test]
fn a_server_that_sleeps_past_the_timeout_is_a_timeout_within_the_deadline() {
    let server = Server::start(Reply::Sleep(Duration::from_secs(20)));
    let p = user_project(http(&server.url, json!({"timeout": 1})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    ran.assert_stderr_contains("timed out after 1s");
    // The handler's timeout plus a second, never the server's 20 s.
    ran.assert_took_less_than(Duration::from_secs(2));

    let p = user_project(http(&server.url, json!({"timeout": 1, "onError": "deny"})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(decision(&ran), "deny");
    ran.assert_took_less_than(Duration::from_secs(2));
}

#[test]
fn an_unreachable_server_is_a_request_failure() {
    let url = closed_port_url();
    let p = user_project(http(&url, json!({})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.decided(), Value::Null);
    ran.assert_stderr_contains("request failed:");

    let p = user_project(http(&url, json!({"onFailure": "block"})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(decision(&ran), "deny");
}

#[test]
fn an_oversize_response_is_cut_off_and_a_failure() {
    let server = Server::start(Reply::Huge(3 << 20));
    let p = user_project(http(&server.url, json!({})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    ran.assert_stderr_contains("exceeded its output limit of 1048576 bytes");
}

#[test]
fn redirects_are_not_followed() {
    let target = Server::start(Reply::Status(200, deny_answer("followed")));
    let server = Server::start(Reply::Redirect(target.url.clone()));
    let p = user_project(http(&server.url, json!({})));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.decided(), Value::Null);
    ran.assert_stderr_contains("answered HTTP 302");
    assert!(target.requests().is_empty(), "the redirect was followed");
}

#[test]
fn no_proxy_is_taken_from_the_environment() {
    let server = Server::start(Reply::Status(200, deny_answer("direct")));
    let p = user_project(http(&server.url, json!({})));
    let proxy = closed_port_url();
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
        cmd.env(var, &proxy);
    }
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(decision(&ran), "deny");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn headers_expand_only_the_variables_allowed_env_vars_lists() {
    let server = Server::start(Reply::Status(200, String::new()));
    let handler = http(
        &server.url,
        json!({
            "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Leak": "[${HOOK_SECRET}]"},
            "allowedEnvVars": ["HOOK_TOKEN"]
        }),
    );
    let p = user_project(handler);
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("HOOK_TOKEN", "t0ken").env("HOOK_SECRET", "hunter2");
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_stderr_contains(
        "header `X-Leak` uses `$HOOK_SECRET`, which `allowedEnvVars` does not list; it is sent empty",
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].header("authorization"), Some("Bearer t0ken"));
    assert_eq!(requests[0].header("x-leak"), Some("[]"));
    assert!(!requests[0].body.contains("hunter2"));
}

#[test]
fn an_untrusted_project_http_hook_sends_nothing_until_trusted() {
    let server = Server::start(Reply::Status(200, deny_answer("project server")));
    let p = TempProject::new();
    p.project_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([http(
            &server.url,
            json!({"headers": {"X-Team": "$TEAM"}, "allowedEnvVars": ["TEAM"]})
        )]),
    ));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.json(), Value::Null);
    ran.assert_stderr_contains("held back 1 untrusted project http hook");
    assert!(
        server.requests().is_empty(),
        "an untrusted hook sent the event"
    );

    // `check` notes it (this machine's trust is not the files'), `status` fails on it.
    let check = p.output(p.cmd(["check"]), "");
    assert_eq!(check.code(), 0);
    assert!(check.stdout().contains("not trusted") || check.stderr().contains("not trusted"));

    p.trust();
    let ran = p.run(&p.bash("ls"));
    assert_eq!(decision(&ran), "deny");
    assert_eq!(server.requests().len(), 1);

    // A changed header is a changed hook: untrusted again.
    p.project_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([http(
            &server.url,
            json!({"headers": {"X-Team": "$HOME"}, "allowedEnvVars": ["TEAM", "HOME"]})
        )]),
    ));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.json(), Value::Null);
    assert_eq!(server.requests().len(), 1, "the changed hook ran untrusted");
}
