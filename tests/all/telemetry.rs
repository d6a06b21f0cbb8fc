//! Tracing through the real binary: spans exported over OTLP/HTTP to a
//! receiver on 127.0.0.1 that decodes them with the official types
//! (protobuf and JSON alike), the trace handed on to command and http
//! hooks, the once-per-session note of an unreachable endpoint, an answer
//! that never waits for a hung one, and `audit export`'s log records.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::logs::v1::ExportLogsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{any_value, KeyValue};
use opentelemetry_proto::tonic::logs::v1::LogRecord;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message as _;
use serde_json::{json, Value};

use crate::util::{self, TempProject};

const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const AGENT_SPAN: &str = "00f067aa0ba902b7";

/// One request the receiver got.
#[derive(Debug, Clone)]
struct Request {
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn is_json(&self) -> bool {
        self.header("content-type") == Some("application/json")
    }

    /// The spans of an OTLP traces request, decoded as its content type says.
    fn spans(&self) -> Vec<Span> {
        let request: ExportTraceServiceRequest = if self.is_json() {
            serde_json::from_slice(&self.body).expect("OTLP/JSON traces")
        } else {
            assert_eq!(self.header("content-type"), Some("application/x-protobuf"));
            ExportTraceServiceRequest::decode(&self.body[..]).expect("OTLP protobuf traces")
        };
        request
            .resource_spans
            .into_iter()
            .flat_map(|r| r.scope_spans)
            .flat_map(|s| s.spans)
            .collect()
    }

    /// The log records of an OTLP logs request.
    fn log_records(&self) -> Vec<LogRecord> {
        let request: ExportLogsServiceRequest = if self.is_json() {
            serde_json::from_slice(&self.body).expect("OTLP/JSON logs")
        } else {
            ExportLogsServiceRequest::decode(&self.body[..]).expect("OTLP protobuf logs")
        };
        request
            .resource_logs
            .into_iter()
            .flat_map(|r| r.scope_logs)
            .flat_map(|s| s.log_records)
            .collect()
    }
}

/// A string attribute's value.
fn attr(attrs: &[KeyValue], key: &str) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.key == key)
        .and_then(|a| match a.value.as_ref()?.value.as_ref()? {
            any_value::Value::StringValue(s) => Some(s.clone()),
            any_value::Value::IntValue(i) => Some(i.to_string()),
            other => Some(format!("{other:?}")),
        })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The OTLP receiver (and http hook endpoint): records every request;
/// answers 200 with an empty body, or (`hang`) never answers.
struct Receiver {
    base: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Receiver {
    fn start(hang: bool) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = seen.clone();
                std::thread::spawn(move || serve(stream, hang, &seen));
            }
        });
        Receiver { base, requests }
    }

    fn requests(&self, path: &str) -> Vec<Request> {
        let all = self.requests.lock().unwrap().clone();
        all.into_iter().filter(|r| r.path == path).collect()
    }

    /// Every span received so far.
    fn spans(&self) -> Vec<Span> {
        self.requests("/v1/traces")
            .iter()
            .flat_map(Request::spans)
            .collect()
    }

    /// Wait for at least `n` spans.
    fn wait_spans(&self, n: usize) -> Vec<Span> {
        util::eventually(Duration::from_secs(20), || self.spans().len() >= n);
        self.spans()
    }
}

fn serve(stream: TcpStream, hang: bool, seen: &Mutex<Vec<Request>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(stream.try_clone().expect("clone the stream"));
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
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
        path,
        headers,
        body,
    });
    if hang {
        // Accepts and reads, never answers: the exporter's timeout ends it.
        std::thread::sleep(Duration::from_secs(30));
        return;
    }
    let mut stream = stream;
    let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
}

/// Waits, when dropped (before the project it borrows), for the exporters
/// the test's events started to end: they run in the project, and one
/// still writing to its spool would keep its temporary home from being
/// removed. Linux: a process whose working directory is the project.
struct Settle<'a>(&'a TempProject);

impl Drop for Settle<'_> {
    fn drop(&mut self) {
        let root = self.0.root.clone();
        let busy = || {
            std::fs::read_dir("/proc")
                .into_iter()
                .flatten()
                .flatten()
                .any(|entry| {
                    let is_pid = entry
                        .file_name()
                        .to_str()
                        .is_some_and(|n| n.parse::<u32>().is_ok());
                    is_pid
                        && std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd == root)
                })
        };
        util::eventually(Duration::from_secs(20), || !busy());
    }
}

/// `run --agent claude` with `payload`, the OTLP endpoint `endpoint`, and
/// `TRACEPARENT` (when given) as the agent's.
fn run(p: &TempProject, payload: &Value, endpoint: &str, extra: &[(&str, &str)]) -> util::Ran {
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    p.output(cmd, payload.to_string())
}

/// The spool's directory in `p`'s home.
fn spool(p: &TempProject) -> PathBuf {
    p.home.join(".local/state/agenthooks/telemetry")
}

/// A user command hook that writes its `TRACEPARENT` to `out`, and answers nothing.
fn env_writing_hook(p: &TempProject, out: &Path) {
    let hook = p.script(
        "env.sh",
        &format!("printenv TRACEPARENT > '{}'\n", out.display()),
    );
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([util::command(&format!("sh {}", hook.display()))]),
    ));
}

fn trace_reaches_spans_and_the_command_hook(protocol: &str) {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let out = p.tmp().join("traceparent");
    env_writing_hook(&p, &out);
    let audit = p.tmp().join("audit.jsonl");
    let receiver = Receiver::start(false);
    let ran = run(
        &p,
        &p.bash("ls"),
        &receiver.base,
        &[
            ("TRACEPARENT", TRACEPARENT),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", protocol),
            ("AGENTHOOKS_AUDIT", audit.to_str().unwrap()),
            (
                "OTEL_RESOURCE_ATTRIBUTES",
                "deployment.environment=test%20env",
            ),
        ],
    );
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let spans = receiver.wait_spans(2);
    assert_eq!(spans.len(), 2, "{spans:?}");
    let event = spans
        .iter()
        .find(|s| s.name == "agenthooks PreToolUse")
        .expect("the event span");
    let hook = spans
        .iter()
        .find(|s| s.name == "hook command")
        .expect("the hook span");
    // The agent's trace, the event under the agent's span, the hook under the event's.
    assert_eq!(hex(&event.trace_id), TRACE_ID);
    assert_eq!(hex(&hook.trace_id), TRACE_ID);
    assert_eq!(hex(&event.parent_span_id), AGENT_SPAN);
    assert_eq!(hook.parent_span_id, event.span_id);
    // The hook continued the trace: its TRACEPARENT names its own span.
    let handed = std::fs::read_to_string(&out).expect("the hook wrote its TRACEPARENT");
    assert_eq!(
        handed.trim(),
        format!("00-{TRACE_ID}-{}-01", hex(&hook.span_id))
    );
    let a = |s: &Span, k: &str| attr(&s.attributes, k);
    assert_eq!(a(event, "agenthooks.event").as_deref(), Some("PreToolUse"));
    assert_eq!(a(event, "agenthooks.agent").as_deref(), Some("claude"));
    assert_eq!(a(event, "gen_ai.tool.name").as_deref(), Some("Bash"));
    assert_eq!(a(event, "gen_ai.tool.call.id").as_deref(), Some("toolu_1"));
    assert_eq!(
        a(event, "gen_ai.conversation.id").as_deref(),
        Some("11111111-2222-4333-8444-555555555555")
    );
    assert_eq!(a(event, "agenthooks.decision").as_deref(), Some("none"));
    // The anchor: the audit log's last record hash.
    let log = std::fs::read_to_string(&audit).unwrap();
    let last = log.lines().last().unwrap();
    assert_eq!(
        a(event, "agenthooks.audit.last_hash"),
        Some(agenthooks_hash(last.as_bytes()))
    );
    assert_eq!(a(hook, "agenthooks.hook.kind").as_deref(), Some("command"));
    // The hook's label, as notes show it (capped at 60 characters, so the
    // script's path may be cut under a long TMPDIR).
    let label = a(hook, "agenthooks.hook.label").unwrap();
    assert!(label.starts_with("command `sh "), "{label}");
    assert_eq!(a(hook, "agenthooks.hook.scope").as_deref(), Some("user"));
    assert_eq!(
        a(hook, "agenthooks.hook.outcome").as_deref(),
        Some("answered")
    );
    assert_eq!(a(hook, "agenthooks.hook.decision").as_deref(), Some("none"));
    assert!(a(hook, "agenthooks.hook.duration_ms").is_some());
    assert!(hook.end_time_unix_nano >= hook.start_time_unix_nano);
    // The resource: the service, and what OTEL_RESOURCE_ATTRIBUTES adds.
    let request = &receiver.requests("/v1/traces")[0];
    let resource: ExportTraceServiceRequest = if request.is_json() {
        serde_json::from_slice(&request.body).unwrap()
    } else {
        ExportTraceServiceRequest::decode(&request.body[..]).unwrap()
    };
    let attrs = &resource.resource_spans[0]
        .resource
        .as_ref()
        .unwrap()
        .attributes;
    assert_eq!(attr(attrs, "service.name").as_deref(), Some("agenthooks"));
    assert_eq!(
        attr(attrs, "deployment.environment").as_deref(),
        Some("test env")
    );
}

/// `sha256:<hex>` of a line, as the audit chain hashes it.
fn agenthooks_hash(line: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("sha256:{:x}", Sha256::digest(line))
}

#[test]
fn the_agents_trace_reaches_the_spans_and_the_command_hook_protobuf() {
    trace_reaches_spans_and_the_command_hook("http/protobuf");
}

#[test]
fn the_agents_trace_reaches_the_spans_and_the_command_hook_json() {
    trace_reaches_spans_and_the_command_hook("http/json");
}

#[test]
fn a_malformed_traceparent_starts_a_fresh_trace() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let out = p.tmp().join("traceparent");
    env_writing_hook(&p, &out);
    let receiver = Receiver::start(false);
    let ran = run(
        &p,
        &p.bash("ls"),
        &receiver.base,
        &[("TRACEPARENT", "00-zz-yy-01")],
    );
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let spans = receiver.wait_spans(2);
    let event = spans
        .iter()
        .find(|s| s.name.starts_with("agenthooks"))
        .unwrap();
    assert!(event.parent_span_id.is_empty(), "a root span");
    assert_eq!(event.trace_id.len(), 16);
    let handed = std::fs::read_to_string(&out).unwrap();
    assert!(
        handed.starts_with(&format!("00-{}-", hex(&event.trace_id))),
        "{handed}"
    );
}

#[test]
fn an_http_hook_receives_a_traceparent_header() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let receiver = Receiver::start(false);
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "http", "url": format!("{}/hook", receiver.base), "timeout": 10}]),
    ));
    let ran = run(
        &p,
        &p.bash("ls"),
        &receiver.base,
        &[("TRACEPARENT", TRACEPARENT)],
    );
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let hooked = receiver.requests("/hook");
    assert_eq!(hooked.len(), 1);
    let header = hooked[0]
        .header("traceparent")
        .expect("a traceparent header")
        .to_string();
    let spans = receiver.wait_spans(2);
    let hook = spans
        .iter()
        .find(|s| s.name == "hook http")
        .expect("the hook span");
    assert_eq!(header, format!("00-{TRACE_ID}-{}-01", hex(&hook.span_id)));
}

#[test]
fn a_wasm_hook_finds_its_span_in_its_input() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let receiver = Receiver::start(false);
    let guest = crate::wasm::guest("trace_probe");
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": guest, "timeout": 20}]),
    ));
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("OTEL_EXPORTER_OTLP_ENDPOINT", &receiver.base)
        .env("TRACEPARENT", TRACEPARENT)
        .env("XDG_CACHE_HOME", crate::wasm::xdg_cache());
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let context = ran.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let spans = receiver.wait_spans(2);
    let hook = spans
        .iter()
        .find(|s| s.name == "hook wasm")
        .expect("the hook span");
    assert_eq!(
        context,
        format!("traceparent=00-{TRACE_ID}-{}-01", hex(&hook.span_id)),
        "{}",
        ran.stdout()
    );
    let fuel = attr(&hook.attributes, "agenthooks.hook.fuel").expect("the fuel it used");
    assert!(fuel.parse::<u64>().unwrap() > 0, "{fuel}");
}

#[test]
fn an_unreachable_endpoint_is_noted_once_per_session() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let notes = |ran: &util::Ran| ran.stderr().matches("telemetry:").count();
    let first = run(&p, &p.bash("ls"), &closed, &[]);
    assert_eq!(first.code(), 0);
    // The first event answered before its export failed; the flusher
    // leaves the failure for the next events of the session to say.
    assert!(
        util::eventually(Duration::from_secs(20), || spool(&p)
            .join("last-error")
            .is_file()),
        "the flusher recorded no failure"
    );
    let second = run(&p, &p.bash("ls"), &closed, &[]);
    let third = run(&p, &p.bash("ls"), &closed, &[]);
    assert_eq!(
        notes(&first) + notes(&second) + notes(&third),
        1,
        "{}\n{}\n{}",
        first.stderr(),
        second.stderr(),
        third.stderr()
    );
    let said = second.stderr() + &third.stderr();
    assert!(said.contains(&format!("{closed}/v1/traces")), "{said}");
}

#[test]
fn an_exporter_that_cannot_start_is_noted_once_per_session() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let receiver = Receiver::start(false);
    let missing = p.tmp().join("no-engine");
    let engine = [("AGENTHOOKS_ENGINE", missing.to_str().unwrap())];
    let first = run(&p, &p.bash("ls"), &receiver.base, &engine);
    let second = run(&p, &p.bash("ls"), &receiver.base, &engine);
    let third = run(&p, &p.bash("ls"), &receiver.base, &engine);
    assert_eq!(first.code(), 0);
    assert!(!first.stderr().contains("telemetry:"), "{}", first.stderr());
    second.assert_stderr_contains("cannot be started");
    assert!(!third.stderr().contains("telemetry:"), "{}", third.stderr());
}

#[test]
fn a_hung_endpoint_does_not_hold_the_answer() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    p.counting_deny("Bash", "no shell");
    let receiver = Receiver::start(true);
    // The exporter's longest wait (its cap), so that the export is surely
    // still waiting when the test looks.
    let slow = [("OTEL_EXPORTER_OTLP_TIMEOUT", "60000")];
    let ran = run(&p, &p.bash("rm -rf /"), &receiver.base, &slow);
    // The process ended with its whole answer written...
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(
        ran.json()["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        ran.stdout()
    );
    // ...while the export it left behind waits on the endpoint, which
    // never answers: the flusher holds its lock, the spans sent.
    assert!(
        util::eventually(Duration::from_secs(20), || !receiver.spans().is_empty()),
        "the flusher never sent the spans"
    );
    assert!(receiver
        .spans()
        .iter()
        .any(|s| s.name == "agenthooks PreToolUse"));
    assert!(spool(&p).join("flush.lock").is_file(), "the export ended");
    // When it gives up, the spans go back to the spool for the next event.
    assert!(
        util::eventually(Duration::from_secs(20), || {
            std::fs::read_to_string(spool(&p).join("spans.jsonl"))
                .is_ok_and(|t| t.contains("agenthooks PreToolUse"))
        }),
        "the spans were not kept"
    );
    let error = std::fs::read_to_string(spool(&p).join("last-error")).unwrap();
    assert!(error.contains("did not answer within 5000 ms"), "{error}");
}

#[test]
fn telemetry_is_off_without_an_endpoint_and_with_otel_sdk_disabled() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let out = p.tmp().join("traceparent");
    env_writing_hook(&p, &out);
    let receiver = Receiver::start(false);
    let ran = run(
        &p,
        &p.bash("ls"),
        &receiver.base,
        &[("TRACEPARENT", TRACEPARENT), ("OTEL_SDK_DISABLED", "true")],
    );
    assert_eq!(ran.code(), 0);
    // Off: the hook inherits the agent's TRACEPARENT unchanged, nothing is spooled.
    assert_eq!(std::fs::read_to_string(&out).unwrap().trim(), TRACEPARENT);
    assert!(!spool(&p).join("spans.jsonl").exists());
}

#[test]
fn a_project_file_cannot_turn_telemetry_on() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let receiver = Receiver::start(false);
    p.project_hooks(&json!({"telemetry": {"endpoint": receiver.base}, "hooks": {}}));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    ran.assert_stderr_contains("telemetry");
    assert!(!spool(&p).exists(), "a project file chose where spans go");
}

#[test]
fn the_user_files_telemetry_object_turns_it_on() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let receiver = Receiver::start(false);
    p.user_hooks(
        &json!({"telemetry": {"endpoint": receiver.base, "protocol": "http/json"},
        "hooks": {"PreToolUse": [{"hooks": [util::command("true")]}]}}),
    );
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let spans = receiver.wait_spans(2);
    assert_eq!(spans.len(), 2);
    assert!(receiver.requests("/v1/traces")[0].is_json());
}

#[test]
fn audit_export_sends_the_records_as_log_records() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let audit = p.tmp().join("audit.jsonl");
    p.counting_deny("Bash", "no shell");
    for command in ["ls", "rm -rf /"] {
        let mut cmd = p.cmd(["run", "--agent", "claude"]);
        cmd.env("AGENTHOOKS_AUDIT", &audit);
        p.output(cmd, p.bash(command).to_string());
    }
    let lines: Vec<String> = std::fs::read_to_string(&audit)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 2);
    let receiver = Receiver::start(false);
    let mut cmd = p.cmd(["audit", "export"]);
    cmd.env("AGENTHOOKS_AUDIT", &audit)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &receiver.base)
        .env("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=s3cret");
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout().contains("2 records sent to"),
        "{}",
        ran.stdout()
    );
    assert!(!ran.stdout().contains("s3cret") && !ran.stderr().contains("s3cret"));
    let requests = receiver.requests("/v1/logs");
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].header("x-api-key"), Some("s3cret"));
    let records = requests[0].log_records();
    assert_eq!(records.len(), 2);
    for (record, line) in records.iter().zip(&lines) {
        let a = |k: &str| attr(&record.attributes, k);
        assert_eq!(a("agenthooks.event").as_deref(), Some("PreToolUse"));
        assert_eq!(a("agenthooks.agent").as_deref(), Some("claude"));
        assert_eq!(a("gen_ai.tool.name").as_deref(), Some("Bash"));
        assert_eq!(
            a("agenthooks.audit.hash"),
            Some(agenthooks_hash(line.as_bytes()))
        );
        assert_eq!(record.event_name, "agenthooks.audit");
        assert!(record.time_unix_nano > 0);
        match record.body.as_ref().and_then(|b| b.value.as_ref()) {
            Some(any_value::Value::StringValue(body)) => assert_eq!(body, line),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(
        attr(&records[1].attributes, "agenthooks.decision").as_deref(),
        Some("deny")
    );
    assert_eq!(
        attr(&records[1].attributes, "agenthooks.audit.prev"),
        Some(agenthooks_hash(lines[0].as_bytes()))
    );
}

#[test]
fn audit_export_to_a_closed_port_fails_in_one_line_naming_the_endpoint() {
    let p = TempProject::new();
    let _settle = Settle(&p);
    let audit = p.write("audit.jsonl", "{\"event\":\"Stop\",\"agent\":\"claude\"}\n");
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let mut cmd = p.cmd(["audit", "export"]);
    cmd.arg(&audit).env("OTEL_EXPORTER_OTLP_ENDPOINT", &closed);
    let ran = p.output(cmd, "");
    assert_ne!(ran.code(), 0);
    let err = ran.stderr();
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(&format!("{closed}/v1/logs")), "{err}");
}
