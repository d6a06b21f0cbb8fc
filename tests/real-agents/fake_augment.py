#!/usr/bin/env python3
"""A fake Augment backend (Auggie's `tenantURL`) on 127.0.0.1, for harness.py.

Auggie speaks no OpenAI or Anthropic API, only Augment's tenant API, so it
gets its own server; the script, the request log and the command line are
fake_model.py's (``--port-file``, ``--log``, ``--rm-command``), so the
harness checks Auggie's runs as every other agent's.

- ``POST /get-models``: one model, and the feature flag ``enable_hooks``
  (Auggie 0.36.0 loads no hook at all without it);
- ``POST /chat-stream``: newline-delimited JSON; a tool call is a node of
  type 5 carrying ``tool_use``, then a line with ``stop_reason`` 3; text ends
  with ``stop_reason`` 1. Tool results come back as ``tool_result_node`` in
  the request's ``nodes`` and ``chat_history[].request_nodes``; their count
  picks the step (stateless, as fake_model.py);
- an agenthooks prompt hook's Anthropic request (the prompt phase points
  the user's ``llm`` here): fake_model.py's judge;
- every other path (remote tools, MCP configs, error reports, ...): ``200 {}``.

Recipe: shared/reference/real-agents-2026.md section 5 (Auggie 0.36.0).
"""

import argparse
import itertools
import json
import os
import sys
import threading
from http.server import ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fake_model import Handler, Script, judge_reply, judge_request  # noqa: E402

# Auggie's shell tool and the arguments it wants besides the command.
SHELL = "launch-process"
# Node types in a chat-stream answer: 5 is a tool call.
TOOL_USE_NODE = 5
# `stop_reason` values: 1 the turn ended, 3 the model wants a tool.
END_TURN, TOOL_USE = 1, 3
IDS = itertools.count(1)


def augment_results(body):
    """The text of each tool result the request carries, in order."""
    out = []
    nodes = []
    for exchange in body.get("chat_history") or []:
        if isinstance(exchange, dict):
            nodes += exchange.get("request_nodes") or []
    # History first: the current request's nodes are the latest results.
    nodes += body.get("nodes") or []
    for node in nodes:
        if isinstance(node, dict) and isinstance(node.get("tool_result_node"), dict):
            content = node["tool_result_node"].get("content")
            out.append(content if isinstance(content, str) else json.dumps(content))
    return out


def augment_tools(body):
    """Offered tools: name -> JSON schema (Auggie sends `tool_definitions`
    with the schema as a JSON string); the shell tool when none are listed."""
    tools = {}
    for t in body.get("tool_definitions") or []:
        if not isinstance(t, dict) or not t.get("name"):
            continue
        schema = t.get("input_schema_json") or t.get("input_schema")
        if isinstance(schema, str):
            try:
                schema = json.loads(schema)
            except ValueError:
                schema = None
        tools[t["name"]] = schema
    return tools or {SHELL: None}


class AugmentHandler(Handler):
    """fake_model.py's handler (its JSON answers and request log), with
    Augment's routes."""

    server_version = "fake-augment/1"

    def send_ndjson(self, lines):
        data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.send_json({})
        self.record("", None, 200)

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
        path = self.path.split("?")[0].strip("/")
        n = None
        try:
            if path == "get-models":
                self.send_json({
                    "default_model": "fake",
                    "models": [{"name": "fake", "suggested_prefix_char_count": 0,
                                "suggested_suffix_char_count": 0}],
                    "languages": [],
                    "feature_flags": {"enable_hooks": True},
                    "user_tier": "ENTERPRISE_TIER",
                })
            elif path.endswith("messages") and judge_request(body):
                # The prompt phase's hook, on this server as the user's `llm`.
                judge_reply(self, body, self.server.judge_reason)
            elif path == "chat-stream":
                n = self.chat_stream(body)
            else:
                self.send_json({})
        except (BrokenPipeError, ConnectionResetError):
            n = None
        self.record(text, n, 200)

    def chat_stream(self, body):
        results = augment_results(body)
        tools = augment_tools(body)
        step = self.server.script.step(len(results), results[-1] if results else None, tools)
        if step[0] == "tool":
            args = dict(step[2])
            if step[1] == SHELL:
                # Auggie's own argument set (the recipe's), in the project: a
                # `cwd` that is no directory fails the spawn ("spawn bash
                # ENOENT"), and the rm would not run even when allowed.
                args.update({"wait": True, "max_wait_seconds": 30, "cwd": self.server.cwd})
            use = {"tool_use_id": "toolu_%d" % next(IDS), "tool_name": step[1], "input_json": json.dumps(args)}
            self.send_ndjson([
                {"text": "", "nodes": [{"id": 1, "type": TOOL_USE_NODE, "content": "", "tool_use": use}]},
                {"text": "", "nodes": [], "stop_reason": TOOL_USE},
            ])
        else:
            self.send_ndjson([{"text": step[1], "nodes": []}, {"text": "", "nodes": [], "stop_reason": END_TURN}])
        return len(results)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--rm-command", required=True)
    ap.add_argument("--cwd", default=os.getcwd(), help="the project: where the shell tool runs")
    ap.add_argument("--judge-reason", default="the prompt hook's model objects to this command",
                    help="the reason the judge gives agenthooks' prompt hooks for the rm command")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), AugmentHandler)
    server.daemon_threads = True
    server.script = Script(args.rm_command)
    server.cwd = args.cwd
    server.judge_reason = args.judge_reason
    server.log_path = args.log
    server.log_lock = threading.Lock()
    open(args.log, "a").close()
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
