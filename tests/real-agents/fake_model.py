#!/usr/bin/env python3
"""A scripted fake model server for driving real agent CLIs on 127.0.0.1.

It speaks the four model APIs the agents under test use:

- Anthropic Messages      POST /v1/messages              (Claude Code)
- OpenAI Responses        POST /v1/responses             (Codex)
- OpenAI Chat Completions POST /v1/chat/completions      (Copilot BYOK, Qwen Code, sema-core 2); streamed as SSE when asked: a delta with the tool_calls or the text, a finish chunk carrying the usage, [DONE]
- Gemini                  POST /v1beta/models/M:streamGenerateContent / :generateContent (Gemini CLI)

The script is the same for every agent:

1. call the shell tool with ``echo hello``
2. call the shell tool with the destructive command (``--rm-command``)
3. answer with text that quotes the last tool result

A request carrying agenthooks' prompt-hook system prompt (``JUDGE_SYSTEM``) is
a hook asking for a verdict, not the agent: it gets ``{"ok": false, "reason":
--judge-reason}`` when it is about the rm command, ``{"ok": true}`` otherwise.

The server is stateless: it picks the step by counting the tool results in the
request, so side requests (titles, routers, quota probes) cannot desync it.
A request that offers no shell tool gets plain text (or JSON, where JSON was
asked for). Every request is appended to ``--log`` as one JSON line
``{"path": ..., "tool_results": N, "body": <raw text>}`` so the harness can
check what the model saw. The chosen port is written to ``--port-file``.
"""

import argparse
import json
import os
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Shell tools by name, and the arguments each one wants for a command; any
# other property the tool's JSON schema requires is filled from the schema
# (fill_required), so a new agent's shell tool needs at most a name here.
SHELL_TOOLS = {
    "Bash": lambda cmd: {"command": cmd, "description": "run " + cmd.split()[0]},
    "exec_command": lambda cmd: {"cmd": cmd},
    "shell_command": lambda cmd: {"command": cmd},
    "shell": lambda cmd: {"command": ["bash", "-lc", cmd]},
    "bash": lambda cmd: {"command": cmd, "description": "run " + cmd.split()[0]},
    "run_shell_command": lambda cmd: {
        "command": cmd,
        "description": "run " + cmd.split()[0],
        "is_background": False,
    },
    "Execute": lambda cmd: {"command": cmd},
    "launch-process": lambda cmd: {"command": cmd},
    # sema-core 2's shell tool.
    "run_shell": lambda cmd: {"command": cmd, "description": "run " + cmd.split()[0]},
}


def filler(name, schema):
    """A plausible value for a required property the script does not know."""
    kind = (schema or {}).get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if (schema or {}).get("enum"):
        return schema["enum"][0]
    if kind == "boolean":
        return name in ("wait",)
    if kind in ("integer", "number"):
        return 30
    if kind == "array":
        return []
    if kind == "object":
        return {}
    return "run the command"


def fill_required(args, schema):
    """`args` plus a value for each property `schema` requires that it lacks."""
    schema = schema if isinstance(schema, dict) else {}
    props = schema.get("properties") or {}
    for name in schema.get("required") or []:
        if name not in args:
            args[name] = filler(name, props.get(name))
    return args


# Read tools by name (the `--read` script), and the path argument each
# takes; a schema that names `absolute_path` gets that instead.
READ_TOOLS = ("Read", "read_file")

FINAL_PREFIX = "FINAL-ANSWER. The last tool said: "


class Script:
    """What the scripted model answers at each step."""

    def __init__(self, rm_command, patches=None, read=None):
        self.rm_command = rm_command
        # The patch script (Codex's `apply_patch`): these patches, one per
        # step, instead of the shell calls.
        self.patches = patches or []
        # The read script: this file is read first (the agent's read tool),
        # then the shell calls.
        self.read = read

    def step(self, n_results, last_result, tools):
        """Returns ("tool", name, args), ("patch", text) or ("text", text).
        `tools` maps each offered tool's name to its JSON schema (or None)."""
        if self.patches:
            if n_results < len(self.patches) and "apply_patch" in tools:
                return ("patch", self.patches[n_results])
            if n_results < len(self.patches) and "exec_command" in tools:
                # What Codex's instructions tell a model without the tool
                # to do: apply_patch as a command, which Codex intercepts.
                return ("tool", "exec_command",
                        {"cmd": "apply_patch <<'PATCH'\n%sPATCH\n" % self.patches[n_results]})
            if n_results < len(self.patches):
                return ("text", "OK.")
            return ("text", FINAL_PREFIX + (last_result or "")[:2000])
        shell = next((t for t in SHELL_TOOLS if t in tools), None)
        if shell is None:
            return ("text", "OK.")
        if self.read:
            reader = next((t for t in READ_TOOLS if t in tools), None)
            if reader is None:
                return ("text", "OK.")
            if n_results == 0:
                props = (tools[reader] or {}).get("properties") or {}
                key = "absolute_path" if "absolute_path" in props else "file_path"
                return ("tool", reader, fill_required({key: self.read}, tools[reader]))
            n_results -= 1
        if n_results == 0:
            return ("tool", shell, fill_required(SHELL_TOOLS[shell]("echo hello"), tools[shell]))
        if n_results == 1:
            return ("tool", shell, fill_required(SHELL_TOOLS[shell](self.rm_command), tools[shell]))
        return ("text", FINAL_PREFIX + (last_result or "")[:2000])


# agenthooks' prompt hooks ask with a system prompt that starts like this
# (runtime/src/exec/prompt.rs, SYSTEM_CHECK): the judge answers them.
JUDGE_SYSTEM = "You are a policy check run by a coding agent's hook"


def judge_request(body):
    """Whether an Anthropic Messages request is an agenthooks prompt hook's."""
    return JUDGE_SYSTEM in json.dumps(body.get("system", ""))


def judge_reply(handler, body, reason):
    """The prompt hook's verdict: an objection (`reason`) when the event is
    the destructive command, no objection otherwise."""
    asked = json.dumps(body.get("messages", []))
    if "rm -r" in asked:
        verdict = {"ok": False, "reason": reason}
    else:
        verdict = {"ok": True}
    handler.send_json({
        "id": "msg_" + uuid.uuid4().hex[:20], "type": "message", "role": "assistant",
        "model": body.get("model", "claude-fake"),
        "content": [{"type": "text", "text": json.dumps(verdict)}],
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    })


def text_of(value):
    """Flattens a tool result (string, list of blocks, object) to text."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value)


# ---------------------------------------------------------------- Anthropic


def anthropic_results(body):
    results = []
    for msg in body.get("messages", []):
        content = msg.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    results.append(text_of(block.get("content")))
    return results


def anthropic_reply(handler, body, script):
    tools = {t.get("name"): t.get("input_schema") for t in body.get("tools", []) or [] if isinstance(t, dict)}
    results = anthropic_results(body)
    step = script.step(len(results), results[-1] if results else None, tools)
    msg_id = "msg_" + uuid.uuid4().hex[:20]
    model = body.get("model", "claude-fake")
    usage = {"input_tokens": 10, "output_tokens": 5}
    if step[0] == "tool":
        block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20], "name": step[1], "input": step[2]}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": step[1]}
        stop = "end_turn"
    if not body.get("stream"):
        handler.send_json(
            {
                "id": msg_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [block],
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": usage,
            }
        )
        return len(results)
    events = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": msg_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1},
                },
            },
        )
    ]
    if block["type"] == "tool_use":
        start = dict(block, input={})
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    else:
        start = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    events += [
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}},
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    handler.send_sse([(name, data) for name, data in events])
    return len(results)


# ---------------------------------------------------------- OpenAI Responses


def responses_results(body):
    results = []
    items = body.get("input", [])
    if isinstance(items, list):
        for item in items:
            if isinstance(item, dict) and item.get("type") in (
                "function_call_output",
                "custom_tool_call_output",
                "local_shell_call_output",
            ):
                results.append(text_of(item.get("output")))
    return results


def responses_reply(handler, body, script):
    tools = {}
    # Whether each tool is freeform (`"type": "custom"`: its input is text).
    custom = {}
    for t in body.get("tools", []) or []:
        if isinstance(t, dict):
            fn = t.get("function") or {}
            tools[t.get("name") or fn.get("name")] = t.get("parameters") or fn.get("parameters")
            custom[t.get("name") or fn.get("name")] = t.get("type") == "custom"
    results = responses_results(body)
    step = script.step(len(results), results[-1] if results else None, tools)
    resp_id = "resp_" + uuid.uuid4().hex[:20]
    if step[0] == "patch" and not custom.get("apply_patch"):
        # apply_patch as a function tool: the patch under `input`.
        step = ("tool", "apply_patch", {"input": step[1]})
    if step[0] == "patch":
        # Codex's freeform tool: the patch text is the whole input.
        item = {
            "type": "custom_tool_call",
            "id": "ctc_" + uuid.uuid4().hex[:20],
            "call_id": "call_" + uuid.uuid4().hex[:20],
            "name": "apply_patch",
            "input": step[1],
            "status": "completed",
        }
    elif step[0] == "tool":
        item = {
            "type": "function_call",
            "id": "fc_" + uuid.uuid4().hex[:20],
            "call_id": "call_" + uuid.uuid4().hex[:20],
            "name": step[1],
            "arguments": json.dumps(step[2]),
            "status": "completed",
        }
    else:
        item = {
            "type": "message",
            "id": "msg_" + uuid.uuid4().hex[:20],
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": step[1], "annotations": []}],
        }
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    base = {"id": resp_id, "object": "response", "created_at": int(time.time()), "model": body.get("model", "gpt-5")}
    events = [
        ("response.created", {"type": "response.created", "response": dict(base, status="in_progress", output=[])}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
    ]
    if item["type"] == "message":
        events.append(
            (
                "response.output_text.delta",
                {"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0, "content_index": 0, "delta": step[1]},
            )
        )
    events += [
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        (
            "response.completed",
            {"type": "response.completed", "response": dict(base, status="completed", output=[item], usage=usage)},
        ),
    ]
    if not body.get("stream", True):
        handler.send_json(dict(base, status="completed", output=[item], usage=usage))
    else:
        handler.send_sse(events)
    return len(results)


# ----------------------------------------------------- OpenAI Chat Completions


def chat_results(body):
    results = []
    for msg in body.get("messages", []):
        if isinstance(msg, dict) and msg.get("role") == "tool":
            results.append(text_of(msg.get("content")))
    return results


def chat_reply(handler, body, script):
    tools = {}
    for t in body.get("tools", []) or []:
        if isinstance(t, dict):
            fn = t.get("function") or {}
            tools[fn.get("name") or t.get("name")] = fn.get("parameters") or t.get("parameters")
    results = chat_results(body)
    step = script.step(len(results), results[-1] if results else None, tools)
    wants_json = (body.get("response_format") or {}).get("type") in ("json_object", "json_schema")
    if step[0] == "text" and wants_json:
        step = ("text", json.dumps(universal_json()))
    chat_id = "chatcmpl-" + uuid.uuid4().hex[:20]
    model = body.get("model", "gpt-fake")
    created = int(time.time())
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if step[0] == "tool":
        call = {
            "id": "call_" + uuid.uuid4().hex[:20],
            "type": "function",
            "function": {"name": step[1], "arguments": json.dumps(step[2])},
        }
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": step[1]}
        finish = "stop"
    if not body.get("stream"):
        handler.send_json(
            {
                "id": chat_id,
                "object": "chat.completion",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": usage,
            }
        )
        return len(results)

    def chunk(delta, finish_reason=None, with_usage=False):
        c = {
            "id": chat_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        }
        if with_usage:
            c["usage"] = usage
        return (None, c)

    if step[0] == "tool":
        call = dict(message["tool_calls"][0], index=0)
        events = [chunk({"role": "assistant", "content": None, "tool_calls": [call]})]
    else:
        events = [chunk({"role": "assistant", "content": step[1]})]
    events.append(chunk({}, finish, with_usage=True))
    handler.send_sse(events, done_marker=True)
    return len(results)


# ------------------------------------------------------------------- Gemini


def universal_json():
    """One JSON answer that satisfies every structured side request we know of
    (Gemini's model router and next-speaker check, title generators)."""
    return {
        "reasoning": "scripted",
        "model_choice": "flash",
        "complexity_reasoning": "scripted",
        "complexity_score": 1,
        "next_speaker": "user",
        "title": "scripted",
    }


def gemini_results(body):
    results = []
    for content in body.get("contents", []):
        for part in content.get("parts", []) or []:
            if isinstance(part, dict) and "functionResponse" in part:
                results.append(text_of(part["functionResponse"].get("response")))
    return results


def gemini_reply(handler, body, script, stream):
    tools = {}
    for t in body.get("tools", []) or []:
        for decl in (t or {}).get("functionDeclarations", []) or []:
            tools[decl.get("name")] = decl.get("parameters") or decl.get("parametersJsonSchema")
    results = gemini_results(body)
    step = script.step(len(results), results[-1] if results else None, tools)
    gen_cfg = body.get("generationConfig") or body.get("config") or {}
    if step[0] == "text" and gen_cfg.get("responseMimeType") == "application/json":
        step = ("text", json.dumps(universal_json()))
    if step[0] == "tool":
        part = {"functionCall": {"name": step[1], "args": step[2]}}
    else:
        part = {"text": step[1]}
    answer = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-fake",
    }
    if stream:
        handler.send_sse([(None, answer)])
    else:
        handler.send_json(answer)
    return len(results)


# ------------------------------------------------------------------ server


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-model/1"

    def log_message(self, fmt, *args):  # keep stderr quiet; requests go to the log file
        pass

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_sse(self, events, done_marker=False):
        out = []
        for name, data in events:
            if name:
                out.append("event: %s\n" % name)
            out.append("data: %s\n\n" % json.dumps(data))
        if done_marker:
            out.append("data: [DONE]\n\n")
        data = "".join(out).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def record(self, raw, tool_results, status):
        entry = {
            "time": time.time(),
            "method": self.command,
            "path": self.path,
            "status": status,
            "tool_results": tool_results,
            "body": raw,
        }
        with self.server.log_lock, open(self.server.log_path, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def do_GET(self):
        path = self.path.split("?")[0]
        if path.endswith("/models"):
            ids = ["gpt-5", "gpt-4o", "claude-fake", "gemini-2.5-pro", "gemini-2.5-flash"]
            self.send_json(
                {
                    "object": "list",
                    "data": [{"id": i, "object": "model", "created": 0, "owned_by": "fake"} for i in ids],
                    "models": [{"slug": i, "id": i} for i in ids],
                }
            )
            self.record("", None, 200)
            return
        self.send_json({"error": {"message": "not found: " + self.path}}, 404)
        self.record("", None, 404)

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        text = raw.decode("utf-8", "replace")
        try:
            body = json.loads(text) if text else {}
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        path = self.path.split("?")[0]
        script = self.server.script
        try:
            if path.endswith("/messages/count_tokens"):
                self.send_json({"input_tokens": 10})
                n = None
            elif path.endswith("/messages") and judge_request(body):
                judge_reply(self, body, self.server.judge_reason)
                n = None
            elif path.endswith("/messages"):
                n = anthropic_reply(self, body, script)
            elif path.endswith("/responses"):
                n = responses_reply(self, body, script)
            elif path.endswith("/chat/completions"):
                n = chat_reply(self, body, script)
            elif ":streamGenerateContent" in path:
                n = gemini_reply(self, body, script, stream=True)
            elif ":generateContent" in path:
                n = gemini_reply(self, body, script, stream=False)
            elif ":countTokens" in path:
                self.send_json({"totalTokens": 10})
                n = None
            else:
                self.send_json({"error": {"message": "not found: " + self.path}}, 404)
                self.record(text, None, 404)
                return
        except (BrokenPipeError, ConnectionResetError):
            n = None
        self.record(text, n, 200)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--rm-command", required=True)
    ap.add_argument("--patch", action="append", default=[],
                    help="the patch script: call apply_patch with each of these, in order (repeatable)")
    ap.add_argument("--read", help="the read script: read this file first, then the shell calls")
    ap.add_argument("--judge-reason", default="the prompt hook's model objects to this command",
                    help="the reason the judge gives agenthooks' prompt hooks for the rm command")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.script = Script(args.rm_command, args.patch, args.read)
    server.judge_reason = args.judge_reason
    server.log_path = args.log
    server.log_lock = threading.Lock()
    open(args.log, "a").close()
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    # Rename so a reader never sees a half-written port.
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
