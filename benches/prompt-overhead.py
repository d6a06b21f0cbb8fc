#!/usr/bin/env python3
"""What a prompt hook adds to `agenthooks run` beyond its model's own latency.

A fake Anthropic Messages server on 127.0.0.1 answers `{"ok": true}` after a
fixed sleep; `agenthooks run --agent claude` is timed N times with one user
prompt hook on PreToolUse and N times with no hooks (interleaved), and the
median difference minus the sleep is printed. Python's stdlib only.

    benches/prompt-overhead.py target/release/agenthooks [latency-s=0.2] [N=25]
"""
import json, os, subprocess, sys, tempfile, time, statistics
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def serve(port_file, latency):
    class Model(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            time.sleep(latency)
            body = json.dumps({"id": "m", "type": "message", "role": "assistant", "model": "m",
                               "content": [{"type": "text", "text": "{\"ok\": true}"}],
                               "stop_reason": "end_turn",
                               "usage": {"input_tokens": 1, "output_tokens": 1}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Model)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


def main():
    if sys.argv[1] == "--serve":
        return serve(sys.argv[2], float(sys.argv[3]))
    binary = os.path.abspath(sys.argv[1])
    latency = float(sys.argv[2]) if len(sys.argv) > 2 else 0.2
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    d = tempfile.mkdtemp(prefix="agenthooks-prompt-bench-")
    port_file = os.path.join(d, "port")
    model = subprocess.Popen([sys.executable, __file__, "--serve", port_file, str(latency)])
    try:
        while not os.path.exists(port_file):
            time.sleep(0.02)
        port = int(open(port_file).read())
        llm = {"provider": "anthropic", "baseUrl": "http://127.0.0.1:%d" % port, "model": "m"}

        def home(name, hooks):
            h = os.path.join(d, name)
            os.makedirs(os.path.join(h, ".agents"))
            with open(os.path.join(h, ".agents", "hooks.json"), "w") as f:
                json.dump({"llm": llm, "hooks": hooks}, f)
            return h

        prompt = home("prompt", {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"}]}]})
        bare = home("bare", {})
        project = os.path.join(d, "project")
        os.makedirs(os.path.join(project, ".git"))
        payload = json.dumps({"session_id": "s", "transcript_path": "/nonexistent", "cwd": project,
                              "hook_event_name": "PreToolUse", "tool_name": "Bash",
                              "tool_input": {"command": "ls"}, "tool_use_id": "t"})

        def once(h):
            env = {"PATH": os.environ["PATH"], "HOME": h, "XDG_DATA_HOME": h + "/.local/share",
                   "XDG_CACHE_HOME": h + "/.cache", "XDG_CONFIG_HOME": h + "/.config",
                   "AGENTHOOKS_MANAGED_CONFIG": h + "/no-managed.json"}
            start = time.perf_counter()
            ran = subprocess.run([binary, "run", "--agent", "claude"], input=payload, env=env,
                                 cwd=project, capture_output=True, text=True)
            took = time.perf_counter() - start
            if ran.returncode != 0:
                sys.exit("agenthooks run failed: " + ran.stderr)
            return took

        once(prompt), once(bare)
        with_hook, without = [], []
        for _ in range(n):
            with_hook.append(once(prompt))
            without.append(once(bare))
        a, b = statistics.median(with_hook) * 1000, statistics.median(without) * 1000
        print("model latency %.0f ms; run with a prompt hook: median %.1f ms; with no hooks: %.1f ms; "
              "the prompt hook adds %.1f ms beyond the model (N=%d)" % (latency * 1000, a, b, a - b - latency * 1000, n))
    finally:
        model.kill()


if __name__ == "__main__":
    main()
