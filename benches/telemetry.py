#!/usr/bin/env python3
"""What tracing costs an event: `agenthooks run` (the front, and the engine)
with no OTLP endpoint against the same with an endpoint that accepts
connections and never answers (the worst an export can do), and with one
that answers at once. Paired: the three run in alternation, round after
round, in each of their six orders in turn, so drift in the machine's load
and what one row leaves behind (a flusher at work) hit all alike. Prints each row's
median and p10-p90 and the ratio of the medians to no endpoint (the goal
for the hung one: at most 1.05).

    benches/telemetry.py [--bin-dir DIR] [--runs N] [--warmup N]

DIR holds `agenthooks` and `agenthooks-engine` (default: target/release,
built first with `cargo build --release -p agenthooks --bins`). The event
is a Claude PreToolUse that selects one user command hook (`true`), so the
pipeline runs and a hook span is recorded. The hung endpoint is a socket on
127.0.0.1 that accepts and never answers. Run it on an idle machine.
"""

import argparse
import itertools
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


ORDERS = list(itertools.permutations(("off", "hung", "ok")))


def hung_endpoint():
    """A socket that accepts every connection and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(128)
    held = []

    def accept():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    return "http://127.0.0.1:%d" % server.getsockname()[1], server


class Ok(BaseHTTPRequestHandler):
    """Reads the request and answers 200 with an empty body."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def ok_endpoint():
    """An OTLP endpoint that accepts everything at once."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Ok)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d" % server.server_address[1], server


def serve(kind):
    """`--serve hung|ok`: run one endpoint, print its URL, serve until killed."""
    url, _server = hung_endpoint() if kind == "hung" else ok_endpoint()
    print(url, flush=True)
    while True:
        time.sleep(3600)


def endpoint(kind):
    """An endpoint in a process of its own (its threads must not take the
    timing loop's interpreter lock), and that process."""
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve", kind],
                            stdout=subprocess.PIPE, text=True)
    return proc.stdout.readline().strip(), proc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--serve", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve)
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bin_dir = args.bin_dir
    if not bin_dir:
        subprocess.run(
            ["cargo", "build", "--quiet", "--release", "-p", "agenthooks", "--bins"],
            cwd=root, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
        bin_dir = os.path.join(target, "release")
    front = os.path.join(bin_dir, "agenthooks")
    engine = os.path.join(bin_dir, "agenthooks-engine")

    tmp = tempfile.mkdtemp(prefix="agenthooks-telemetry-bench-")
    home, project = os.path.join(tmp, "home"), os.path.join(tmp, "project")
    for d in (os.path.join(home, ".agents"), os.path.join(project, ".git")):
        os.makedirs(d)
    with open(os.path.join(home, ".agents", "hooks.json"), "w") as f:
        json.dump({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "true"}]}]}}, f)
    payload = json.dumps({
        "session_id": "bench", "cwd": project, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t"}).encode()
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("OTEL_") and k not in ("TRACEPARENT", "TRACESTATE")}
    base.update(HOME=home, XDG_STATE_HOME=os.path.join(home, ".state"),
                XDG_CACHE_HOME=os.path.join(home, ".cache"),
                XDG_CONFIG_HOME=os.path.join(home, ".config"),
                XDG_DATA_HOME=os.path.join(home, ".data"),
                AGENTHOOKS_MANAGED_CONFIG=os.path.join(tmp, "none.json"),
                AGENTHOOKS_SYSTEM_ROOT=os.path.join(tmp, "system"),
                AGENTHOOKS_ENGINE=engine)
    url, server = endpoint("hung")
    traced = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    # Each endpoint its own state directory (spool, exporter): the `ok`
    # row's exporter must not drain the `hung` row's spool, which fills
    # to its cap within a few hundred events, as it would with an endpoint
    # down, so most of its rounds measure a full spool.
    hung = dict(base, OTEL_EXPORTER_OTLP_ENDPOINT=url, TRACEPARENT=traced,
                XDG_STATE_HOME=os.path.join(home, ".state-hung"))
    ok_url, ok_server = endpoint("ok")
    ok = dict(base, OTEL_EXPORTER_OTLP_ENDPOINT=ok_url, TRACEPARENT=traced,
              XDG_STATE_HOME=os.path.join(home, ".state-ok"))

    envs = {"off": base, "hung": hung, "ok": ok}

    def once(exe, env):
        start = time.perf_counter()
        done = subprocess.run([exe, "run", "--agent", "claude"], input=payload, env=env,
                              cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        took = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit("run failed: %s" % done.stderr.decode(errors="replace"))
        return took

    rows = []
    for name, exe in (("front", front), ("engine", engine)):
        times = {"off": [], "hung": [], "ok": []}
        for i in range(args.warmup + args.runs):
            # Every order in turn: each row follows each other row as
            # often, so the flusher the `ok` row leaves lingering (and the
            # spool it fills) weighs on all rows alike.
            order = ORDERS[i % len(ORDERS)]
            for label, env in ((k, envs[k]) for k in order):
                took = once(exe, env)
                if i >= args.warmup:
                    times[label].append(took)
        rows.append((name, times))

    spool = os.path.join(home, ".state-hung", "agenthooks", "telemetry")
    print("| binary | endpoint | median ms | p10-p90 ms | / no endpoint |")
    print("|---|---|---|---|---|")
    shown = {"off": "none", "hung": "hung", "ok": "answers at once"}
    for name, times in rows:
        med = {k: statistics.median(v) for k, v in times.items()}
        for label in ("off", "hung", "ok"):
            qs = statistics.quantiles(times[label], n=10)
            ratio = "%.3f" % (med[label] / med["off"]) if label != "off" else ""
            print("| %s | %s | %.2f | %.2f-%.2f | %s |" % (
                name, shown[label], med[label] * 1e3, qs[0] * 1e3, qs[-1] * 1e3, ratio))
    print("load average after: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    dropped = os.path.join(spool, "dropped")
    print("hung spool after: %d bytes, %d spans dropped" % (
        os.path.getsize(os.path.join(spool, "spans.jsonl"))
        if os.path.exists(os.path.join(spool, "spans.jsonl")) else 0,
        os.path.getsize(dropped) if os.path.exists(dropped) else 0))
    server.kill()
    ok_server.kill()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
