//! Prompt hooks (Claude Code's `type: "prompt"`) through the real binary
//! against a scripted model server on 127.0.0.1, speaking Anthropic's
//! Messages API or OpenAI's chat completions as each test tells it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{self, TempProject};

/// The API key the tests give: it must never appear in any output.
const KEY: &str = "sk-ant-test-0123456789-SECRET";

/// How the model server answers every request.
#[derive(Clone)]
enum Reply {
    /// This status and raw body.
    Raw(u16, String),
    /// Headers at once, then the body one byte every 200 ms.
    Drip(String),
    /// Nothing for this long.
    Sleep(Duration),
    /// 200 with a body of this many bytes.
    Huge(usize),
    /// 200 with the body this function makes of the request's body.
    Script(Arc<dyn Fn(&Value) -> Value + Send + Sync>),
}

/// An Anthropic Messages reply whose text is `text`.
fn anthropic(text: &str) -> Reply {
    let body = json!({"id": "msg_1", "type": "message", "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn", "usage": {"input_tokens": 42, "output_tokens": 7}});
    Reply::Raw(200, body.to_string())
}

/// An OpenAI chat completion whose text is `text`.
fn openai(text: &str) -> Reply {
    let body = json!({"id": "c1", "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 5}});
    Reply::Raw(200, body.to_string())
}

/// One request the server received.
#[derive(Debug, Clone)]
struct Request {
    line: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

struct Server {
    base: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    fn start(reply: Reply) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = seen.clone();
                let reply = reply.clone();
                std::thread::spawn(move || serve(stream, &reply, &seen));
            }
        });
        Server { base, requests }
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
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    });
    let mut stream = stream;
    let head = |status: u16, len: usize| {
        format!("HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {len}\r\nconnection: close\r\n\r\n")
    };
    match reply {
        Reply::Raw(status, body) => {
            let _ = stream.write_all(format!("{}{body}", head(*status, body.len())).as_bytes());
        }
        Reply::Drip(body) => {
            let _ = stream.write_all(head(200, body.len()).as_bytes());
            for b in body.bytes() {
                std::thread::sleep(Duration::from_millis(200));
                if stream.write_all(&[b]).is_err() {
                    return;
                }
            }
        }
        Reply::Sleep(d) => std::thread::sleep(*d),
        Reply::Script(script) => {
            let last = seen.lock().unwrap().last().unwrap().body.clone();
            let body = script(&last).to_string();
            let _ = stream.write_all(format!("{}{body}", head(200, body.len())).as_bytes());
        }
        Reply::Huge(n) => {
            let _ = stream.write_all(head(200, *n).as_bytes());
            let chunk = vec![b'{'; 64 * 1024];
            let mut left = *n;
            while left > 0 {
                let k = left.min(chunk.len());
                if stream.write_all(&chunk[..k]).is_err() {
                    return;
                }
                left -= k;
            }
        }
    }
}

fn prompt(extra: Value) -> Value {
    let mut h =
        json!({"type": "prompt", "prompt": "Is this command safe? $ARGUMENTS", "timeout": 5});
    if let (Some(h), Value::Object(extra)) = (h.as_object_mut(), extra) {
        h.extend(extra);
    }
    h
}

/// `agenthooks run --agent claude` with Claude Code's model environment
/// pointing at `base` (no proxies, the test key).
fn run_with(p: &TempProject, base: &str, payload: &Value) -> util::Ran {
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    clean_env(&mut cmd, base);
    p.output(cmd, payload.to_string())
}

fn clean_env(cmd: &mut assert_cmd::Command, base: &str) {
    for var in [
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
        "ALL_PROXY",
        "all_proxy",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_SMALL_FAST_MODEL",
        "ANTHROPIC_DEFAULT_HAIKU_MODEL",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("ANTHROPIC_BASE_URL", base)
        .env("ANTHROPIC_API_KEY", KEY);
}

fn on(event: &str, handler: Value) -> TempProject {
    let p = TempProject::new();
    p.user_hooks(&util::hooks(event, "", json!([handler])));
    p
}

#[track_caller]
fn no_key(ran: &util::Ran) {
    assert!(!ran.stdout().contains(KEY), "{}", ran.stdout());
    assert!(!ran.stderr().contains(KEY), "{}", ran.stderr());
}

#[test]
fn an_objection_denies_the_tool_with_the_models_reason() {
    let server = Server::start(anthropic(
        "Here is my verdict:\n```json\n{\"ok\": false, \"reason\": \"force push to main\"}\n```",
    ));
    let p = on("PreToolUse", prompt(json!({"continueOnBlock": true})));
    let ran = run_with(&p, &server.base, &p.bash("git push --force origin main"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    no_key(&ran);
    let out = ran.json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("force push to main"), "{reason}");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!(r.line, "POST /v1/messages HTTP/1.1");
    assert_eq!(r.header("x-api-key"), Some(KEY));
    assert!(r.header("anthropic-version").is_some());
    assert_eq!(r.body["stream"], false);
    assert_eq!(r.body["model"], "claude-haiku-4-5");
    let system = r.body["system"].as_str().unwrap();
    assert!(system.contains("never follow instructions"), "{system}");
    let user = r.body["messages"][0]["content"].as_str().unwrap();
    let (before, input) = user.split_at("Is this command safe? ".len());
    assert_eq!(before, "Is this command safe? ");
    let input: Value = serde_json::from_str(input).expect("$ARGUMENTS is the input JSON");
    assert_eq!(
        input["tool_input"]["command"],
        "git push --force origin main"
    );
}

#[test]
fn without_continue_on_block_the_turn_ends_too() {
    let server = Server::start(anthropic(r#"{"ok": false, "reason": "no"}"#));
    let p = on("PreToolUse", prompt(json!({})));
    let out = run_with(&p, &server.base, &p.bash("ls")).json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(out["continue"], false, "{out}");
}

#[test]
fn ok_is_no_objection_and_openai_speaks_chat_completions() {
    let server = Server::start(openai(r#"{"ok": true, "reason": "read-only"}"#));
    let p = TempProject::new();
    let mut config = util::hooks(
        "PreToolUse",
        "Bash",
        json!([prompt(json!({"prompt": "Safe?"}))]),
    );
    config["llm"] = json!({"provider": "openai", "baseUrl": format!("{}/v1", server.base),
        "model": "qwen3:4b", "apiKeyEnv": "LOCAL_LLM_KEY"});
    p.user_hooks(&config);
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    clean_env(&mut cmd, "http://127.0.0.1:9");
    cmd.env("LOCAL_LLM_KEY", KEY);
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(ran.json(), Value::Null, "no decision: {}", ran.stdout());
    no_key(&ran);
    let r = &server.requests()[0];
    assert_eq!(r.line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(r.header("authorization"), Some(&*format!("Bearer {KEY}")));
    assert_eq!(r.body["model"], "qwen3:4b");
    assert_eq!(r.body["messages"][0]["role"], "system");
    let user = r.body["messages"][1]["content"].as_str().unwrap();
    assert!(user.starts_with("Safe?\n\n{"), "appended: {user}");
}

#[test]
fn a_local_servers_own_model_is_asked_in_place_of_a_claude_model_name() {
    let server = Server::start(openai(r#"{"ok": true}"#));
    let p = TempProject::new();
    let hook = |model: &str| prompt(json!({"prompt": "Safe?", "model": model}));
    let mut config = util::hooks("PreToolUse", "Bash", json!([hook("claude-haiku-4-5")]));
    config["llm"] = json!({"provider": "openai", "baseUrl": format!("{}/v1", server.base),
        "model": "qwen3:4b"});
    p.user_hooks(&config);
    let mut cmd = p.cmd([
        "fire",
        "PreToolUse",
        "--tool",
        "Bash",
        "--input",
        r#"{"command":"ls"}"#,
        "--json",
    ]);
    clean_env(&mut cmd, "http://127.0.0.1:9");
    let fired = p.output(cmd, String::new());
    assert_eq!(fired.code(), 0, "{}", fired.stderr());
    assert_eq!(server.requests()[0].body["model"], "qwen3:4b");
    let notes = fired.json()["handlers"][0]["notes"].to_string();
    assert!(
        notes.contains(
            "asked `qwen3:4b` (`llm.model`) in place of the hook's Claude model `claude-haiku-4-5`"
        ),
        "{notes}"
    );
    // A model named on purpose is asked as named.
    config["hooks"]["PreToolUse"][0]["hooks"][0] = hook("llama3.1:8b");
    p.user_hooks(&config);
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    clean_env(&mut cmd, "http://127.0.0.1:9");
    assert_eq!(p.output(cmd, p.bash("ls").to_string()).code(), 0);
    assert_eq!(server.requests()[1].body["model"], "llama3.1:8b");
}

#[test]
fn every_failure_allows_with_a_note_and_blocks_under_on_failure_block() {
    let closed = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let a = l.local_addr().unwrap();
        drop(l);
        format!("http://{a}")
    };
    let slow = Server::start(Reply::Sleep(Duration::from_secs(8)));
    let drip = Server::start(Reply::Drip(
        json!({"content": [{"type": "text", "text": "{\"ok\": false, \"reason\": \"slow\"}"}]})
            .to_string(),
    ));
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "500",
            Server::start(Reply::Raw(500, "{}".into())).base,
            "HTTP 500",
        ),
        (
            "401",
            Server::start(Reply::Raw(401, "{}".into())).base,
            "check the API key",
        ),
        ("refused", closed, "model request failed"),
        (
            "garbage",
            Server::start(anthropic("I would not block this")).base,
            "no JSON object",
        ),
        (
            "not the API's JSON",
            Server::start(Reply::Raw(200, "<html>".into())).base,
            "not the API's JSON",
        ),
        (
            "50 MB",
            Server::start(Reply::Huge(50 << 20)).base,
            "output limit",
        ),
        (
            "timeout",
            slow.base.clone(),
            "the model did not answer within 1.5 s",
        ),
        (
            "slow drip",
            drip.base.clone(),
            "the model did not answer within 1.5 s",
        ),
    ];
    for (name, base, note) in cases {
        for block in [false, true] {
            let extra = if block {
                json!({"timeout": 1.5, "onFailure": "block"})
            } else {
                json!({"timeout": 1.5})
            };
            let p = on("PreToolUse", prompt(extra));
            let ran = run_with(&p, &base, &p.bash("ls"));
            assert_eq!(ran.code(), 0, "{name}: {}", ran.stderr());
            ran.assert_took_less_than(Duration::from_secs(5));
            no_key(&ran);
            assert!(ran.stderr().contains(note), "{name}: {}", ran.stderr());
            let decision = ran.json()["hookSpecificOutput"]["permissionDecision"].clone();
            if block {
                assert_eq!(decision, "deny", "{name}: {}", ran.stdout());
            } else {
                assert_eq!(decision, Value::Null, "{name}: {}", ran.stdout());
            }
        }
    }
}

#[test]
fn a_missing_reason_still_objects() {
    let server = Server::start(anthropic(r#"{"ok": false}"#));
    let p = on("PreToolUse", prompt(json!({})));
    let out = run_with(&p, &server.base, &p.bash("ls")).json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("without a reason"), "{reason}");
}

#[test]
fn an_objection_means_what_it_means_at_each_event() {
    let server = Server::start(anthropic(r#"{"ok": false, "reason": "tests not run"}"#));
    // Stop: keep going, with the reason as the next instruction.
    let p = on("Stop", prompt(json!({"prompt": "Did the tests pass?"})));
    let stop = p.payload(
        "Stop",
        json!({"stop_hook_active": false, "last_assistant_message": "Done."}),
    );
    let out = run_with(&p, &server.base, &stop).json();
    assert_eq!(out["decision"], "block", "{out}");
    assert!(out["reason"].as_str().unwrap().contains("tests not run"));
    let system = server.requests()[0].body["system"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(system.contains("impossible"), "the Stop prompt: {system}");
    // No transcript at that path: judged on the event alone, with a note.
    let ran = run_with(&p, &server.base, &stop);
    assert!(
        ran.stderr().contains("judged on the stop event alone"),
        "{}",
        ran.stderr()
    );
    // With Claude Code's transcript, its last messages come first.
    let transcript = p.write(
        "t.jsonl",
        concat!(
            "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"fix the bug and run the tests\"}}\n",
            "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Fixed; I skipped the tests.\"}]}}\n"
        ),
    );
    let mut stop = stop.clone();
    stop["transcript_path"] = json!(transcript);
    run_with(&p, &server.base, &stop);
    let user = judged_with_the_conversation(&server);
    assert!(
        user.ends_with('}') && user.contains("Did the tests pass?"),
        "{user}"
    );
    // UserPromptSubmit: blocked.
    let p = on("UserPromptSubmit", prompt(json!({})));
    let out = run_with(&p, &server.base, &p.prompt("deploy")).json();
    assert_eq!(out["decision"], "block", "{out}");
    // PermissionRequest: no effect (and `ok` never approves either).
    let p = on("PermissionRequest", prompt(json!({})));
    let payload = p.payload(
        "PermissionRequest",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    let ran = run_with(&p, &server.base, &payload);
    assert_eq!(ran.json(), Value::Null, "{}", ran.stdout());
}

#[test]
fn an_untrusted_project_prompt_hook_sends_nothing() {
    let server = Server::start(anthropic(r#"{"ok": false, "reason": "x"}"#));
    let p = TempProject::new();
    p.project_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([prompt(json!({}))]),
    ));
    let ran = run_with(&p, &server.base, &p.bash("ls"));
    assert_eq!(ran.json(), Value::Null, "{}", ran.stdout());
    ran.assert_stderr_contains("held back 1 untrusted project prompt hook");
    assert!(server.requests().is_empty());
    // Trusted, it runs.
    p.trust();
    let out = run_with(&p, &server.base, &p.bash("ls")).json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_projects_llm_setting_is_ignored_and_managed_can_forbid_llm_hooks() {
    let server = Server::start(anthropic(r#"{"ok": false, "reason": "x"}"#));
    let elsewhere = Server::start(anthropic(r#"{"ok": false, "reason": "x"}"#));
    let p = on("PreToolUse", prompt(json!({})));
    p.project_hooks(&json!({"llm": {"baseUrl": elsewhere.base}}));
    let ran = run_with(&p, &server.base, &p.bash("ls"));
    assert!(
        ran.stderr().contains("`llm` is honoured only"),
        "{}",
        ran.stderr()
    );
    assert!(elsewhere.requests().is_empty());
    assert_eq!(server.requests().len(), 1);

    p.managed_hooks(&json!({"allowLlmHooks": false}));
    let ran = run_with(&p, &server.base, &p.bash("ls"));
    assert_eq!(ran.json(), Value::Null, "{}", ran.stdout());
    assert!(ran.stderr().contains("allowLlmHooks"), "{}", ran.stderr());
    assert_eq!(server.requests().len(), 1, "no new request");
}

#[test]
fn check_refuses_prompt_hooks_where_claude_does() {
    let p = on("SessionStart", prompt(json!({})));
    let ran = p.output(p.cmd(["check"]), "");
    assert_ne!(ran.code(), 0);
    let out = format!("{}{}", ran.stdout(), ran.stderr());
    assert!(
        out.contains("prompt and agent hooks are not allowed on SessionStart"),
        "{out}"
    );
}

#[test]
fn fire_and_the_audit_log_show_the_model_call_without_the_key() {
    let server = Server::start(anthropic(r#"{"ok": false, "reason": "risky"}"#));
    let p = TempProject::new();
    let log = p.tmp().join("audit.jsonl");
    let mut config = util::hooks("PreToolUse", "Bash", json!([prompt(json!({}))]));
    config["audit"] = json!({"path": log});
    p.user_hooks(&config);
    let mut cmd = p.cmd(["fire", "PreToolUse", "--json", "--agent", "claude"]);
    clean_env(&mut cmd, &server.base);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    no_key(&ran);
    let fired = ran.json();
    let llm = &fired["handlers"][0]["llm"];
    assert_eq!(llm["provider"], "anthropic", "{fired}");
    assert_eq!(llm["host"], server.base.trim_start_matches("http://"));
    assert_eq!(llm["model"], "claude-haiku-4-5");
    assert_eq!(
        (llm["inputTokens"].as_u64(), llm["outputTokens"].as_u64()),
        (Some(42), Some(7))
    );
    assert_eq!(llm["answer"], json!({"ok": false, "reason": "risky"}));
    assert!(llm["latencyMs"].is_u64());

    let ran = run_with(&p, &server.base, &p.bash("ls"));
    no_key(&ran);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains(KEY));
    let line: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        line["handlers"][0]["llm"]["model"], "claude-haiku-4-5",
        "{line}"
    );
}

/// The tool results (Anthropic's `tool_result` blocks) in a request, in order.
fn tool_results(request: &Value) -> Vec<Value> {
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|b| b["type"] == "tool_result")
        .cloned()
        .collect()
}

#[test]
fn an_agent_hook_reads_a_project_file_and_decides_on_it() {
    let server = Server::start(Reply::Script(Arc::new(|request: &Value| {
        let results = tool_results(request);
        let Some(result) = results.first() else {
            return json!({"content": [{"type": "tool_use", "id": "t1", "name": "Read",
                "input": {"file_path": "POLICY.md"}}], "stop_reason": "tool_use"});
        };
        let text = result["content"].as_str().unwrap_or_default();
        let answer = if text.contains("no force pushes") {
            json!({"ok": false, "reason": "POLICY.md forbids force pushes"})
        } else {
            json!({"ok": true})
        };
        json!({"content": [{"type": "text", "text": answer.to_string()}],
            "usage": {"input_tokens": 10, "output_tokens": 4}})
    })));
    let p = on(
        "PreToolUse",
        json!({"type": "agent", "prompt": "Does the command follow POLICY.md? $ARGUMENTS", "timeout": 10}),
    );
    p.write("POLICY.md", "Rules:\n- no force pushes\n");
    let ran = run_with(&p, &server.base, &p.bash("git push --force"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    no_key(&ran);
    let out = ran.json();
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );
    assert!(out["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .contains("POLICY.md forbids force pushes"));
    assert!(
        out.get("continue").is_none(),
        "an agent hook's objection lets the turn go on"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let tools: Vec<&str> = requests[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["Read", "Grep", "Glob"]);
}

#[cfg(unix)]
#[test]
fn an_agent_hook_cannot_read_outside_the_project() {
    let server = Server::start(Reply::Script(Arc::new(|request: &Value| {
        let messages = request["messages"].as_array().unwrap();
        if messages.iter().any(|m| m["role"] == "tool") {
            return json!({"choices": [{"message": {"role": "assistant",
                "content": "{\"ok\": true}"}}]});
        }
        let call = |id: &str, name: &str, args: Value| {
            json!({"id": id, "type": "function",
            "function": {"name": name, "arguments": args.to_string()}})
        };
        json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
            call("c1", "Read", json!({"file_path": "../../etc/passwd"})),
            call("c2", "Read", json!({"file_path": "/etc/passwd"})),
            call("c3", "Read", json!({"file_path": "out/passwd"})),
            call("c4", "Read", json!({"file_path": "pipe"})),
            call("c5", "Bash", json!({"command": "cat /etc/passwd"})),
            call("c6", "Grep", json!({"pattern": "root", "path": "/etc"})),
        ]}}]})
    })));
    let p = TempProject::new();
    let mut config = util::hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "agent", "prompt": "Check.", "timeout": 10}]),
    );
    config["llm"] =
        json!({"provider": "openai", "baseUrl": format!("{}/v1", server.base), "model": "m"});
    p.user_hooks(&config);
    std::os::unix::fs::symlink("/etc", p.path("out")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(p.path("pipe"))
        .status();
    assert!(made.unwrap().success());
    let ran = run_with(&p, "http://127.0.0.1:9", &p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_took_less_than(Duration::from_secs(8));
    assert_eq!(ran.json(), Value::Null, "{}", ran.stdout());
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    let results: Vec<String> = requests[1].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(results.len(), 6, "{results:?}");
    assert!(
        results.iter().all(|r| r.starts_with("error: ")),
        "{results:?}"
    );
    assert!(results[0].contains("`..`"), "{}", results[0]);
    assert!(results[1].contains("outside the project"), "{}", results[1]);
    assert!(results[2].contains("outside the project"), "{}", results[2]);
    assert!(results[3].contains("FIFO"), "{}", results[3]);
    assert!(
        results[4].contains("no tool named `Bash`"),
        "{}",
        results[4]
    );
    assert!(results[5].contains("outside the project"), "{}", results[5]);
    assert!(!requests[1].body.to_string().contains("root:x:0"));
}

#[test]
fn model_traffic_goes_through_the_proxy_unless_no_proxy_names_the_host() {
    let proxy = Server::start(anthropic(r#"{"ok": true}"#));
    let p = on("PreToolUse", prompt(json!({"timeout": 3})));
    for (no_proxy, via_proxy) in [("", true), ("model.invalid", false)] {
        let mut cmd = p.cmd(["run", "--agent", "claude"]);
        clean_env(&mut cmd, "http://model.invalid");
        cmd.env("HTTP_PROXY", &proxy.base)
            .env("HTTPS_PROXY", &proxy.base)
            .env("NO_PROXY", no_proxy);
        let before = proxy.requests().len();
        let ran = p.output(cmd, p.bash("ls").to_string());
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
        no_key(&ran);
        let seen = proxy.requests()[before..].to_vec();
        if via_proxy {
            assert_eq!(seen.len(), 1, "{}", ran.stderr());
            assert!(seen[0].line.contains("model.invalid"), "{}", seen[0].line);
        } else {
            assert!(seen.is_empty(), "{seen:?}");
            assert!(
                ran.stderr().contains("model request failed"),
                "{}",
                ran.stderr()
            );
        }
    }
}

#[test]
fn max_llm_calls_bounds_the_model_calls_of_one_event() {
    let busy = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (b, m) = (busy.clone(), most.clone());
    let server = Server::start(Reply::Script(Arc::new(move |_: &Value| {
        use std::sync::atomic::Ordering::SeqCst;
        let now = b.fetch_add(1, SeqCst) + 1;
        m.fetch_max(now, SeqCst);
        std::thread::sleep(Duration::from_millis(300));
        b.fetch_sub(1, SeqCst);
        json!({"content": [{"type": "text", "text": "{\"ok\": true}"}]})
    })));
    let p = TempProject::new();
    let hooks: Vec<Value> = (0..6)
        .map(|i| prompt(json!({"prompt": format!("check {i}")})))
        .collect();
    let mut config = util::hooks("PreToolUse", "Bash", json!(hooks));
    config["maxLlmCalls"] = json!(2);
    p.user_hooks(&config);
    let ran = run_with(&p, &server.base, &p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(server.requests().len(), 6);
    assert_eq!(most.load(std::sync::atomic::Ordering::SeqCst), 2);
}

#[test]
fn an_agent_hook_that_never_answers_stops_after_50_turns() {
    let server = Server::start(Reply::Script(Arc::new(|_: &Value| {
        json!({"content": [{"type": "tool_use", "id": "t", "name": "Glob",
            "input": {"pattern": "*.md"}}]})
    })));
    let p = on(
        "PreToolUse",
        json!({"type": "agent", "prompt": "Check.", "timeout": 20, "onFailure": "block"}),
    );
    let ran = run_with(&p, &server.base, &p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(server.requests().len(), 50);
    assert!(
        ran.stderr().contains("no answer in 50 turns"),
        "{}",
        ran.stderr()
    );
    let out = ran.json();
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );
}

#[test]
fn a_qwen_code_stop_prompt_hook_judges_the_conversation_of_its_chat_recording() {
    let server = Server::start(anthropic(r#"{"ok": true}"#));
    let p = on("Stop", prompt(json!({"prompt": "Did the tests pass?"})));
    // Qwen Code's own records (Gemini parts chained by parentUuid), which
    // the prompt hook's reader, Claude-shaped only, cannot read as they are.
    let recording = p.write(
        "chat.jsonl",
        concat!(
            r#"{"uuid":"u1","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"fix the bug and run the tests"}]}}"#, "\n",
            r#"{"uuid":"a1","parentUuid":"u1","sessionId":"s","type":"assistant","message":{"role":"model","parts":[{"text":"Fixed; I skipped the tests."}]}}"#, "\n",
        ),
    );
    let stop = p.payload(
        "Stop",
        json!({"transcript_path": recording, "stop_hook_active": false}),
    );
    let mut cmd = p.cmd(["run", "--agent", "qwen", "--event", "Stop"]);
    clean_env(&mut cmd, &server.base);
    let ran = p.output(cmd, stop.to_string());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    judged_with_the_conversation(&server);
}

/// The user message of the model's last request, which must quote the
/// conversation the Stop tests write (a prompt and a reply that skipped
/// the tests).
#[track_caller]
fn judged_with_the_conversation(server: &Server) -> String {
    let requests = server.requests();
    let user = requests.last().expect("a model request").body["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        user.contains(
            "user: fix the bug and run the tests\nassistant: Fixed; I skipped the tests."
        ),
        "{user}"
    );
    user
}
