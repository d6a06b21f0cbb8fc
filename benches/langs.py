#!/usr/bin/env python3
"""Side by side, in one run: the dangerous-command guard as a Rust, Python and
JavaScript component and as python3 / node / bash+jq command hooks, each
behind `agenthooks run --agent claude` (release build).

    benches/langs.py BIN RUST.wasm PY.wasm JS.wasm [--runs N]

For each component: its size; the first event with a fresh cache (the
handler's timeout is 120 s, so the event waits for the compile); the first
event after `agenthooks compile` (what `agenthooks build` leaves); then the
median and p90 of N cached events. Peak RSS is `/usr/bin/time -v`'s maximum
resident set of the `run` process. Prints a Markdown table and the load.
`.ci/langs.sh` builds the components; run this when the machine is idle.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers")
EVENT = json.dumps({"session_id": "s", "cwd": "/tmp", "hook_event_name": "PreToolUse",
                    "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})


def timed(bin, env):
    """Wall seconds and peak RSS (KiB) of one `run`; fails unless it denied."""
    start = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", bin, "run", "--agent", "claude"], input=EVENT,
                       capture_output=True, text=True, env=env, timeout=300)
    wall = time.monotonic() - start
    if "deny" not in p.stdout:
        sys.exit(f"no denial: {p.stdout!r} {p.stderr[-300:]!r}")
    return wall, int(p.stderr.strip().splitlines()[-1])


def setup(root, name, handler):
    home = os.path.join(root, name)
    os.makedirs(os.path.join(home, ".agents"))
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}
    with open(os.path.join(home, ".agents", "hooks.json"), "w") as f:
        json.dump(hooks, f)
    return dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"))


def cached(bin, env, runs):
    walls, rss = zip(*(timed(bin, env) for _ in range(runs)))
    walls = sorted(walls)
    return f"{statistics.median(walls) * 1e3:.1f} ms (p90 {walls[int(0.9 * (runs - 1))] * 1e3:.1f})", max(rss)


def main():
    args = sys.argv[1:]
    runs = 20
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    bin, components = args[0], dict(zip(("Rust", "Python", "JavaScript"), args[1:4]))
    root = tempfile.mkdtemp()
    rows = []
    try:
        for lang, component in components.items():
            handler = {"type": "wasm", "component": os.path.abspath(component), "timeout": 120}
            env = setup(root, lang + "-cold", handler)
            first, first_rss = timed(bin, env)
            env = setup(root, lang + "-built", handler)
            subprocess.run([bin, "compile", handler["component"]], env=env, capture_output=True, check=True)
            built, built_rss = timed(bin, env)
            median, rss = cached(bin, env, runs)
            rows.append(f"| {lang} component | {os.path.getsize(component) / 1e6:.1f} MB | {first:.1f} s, "
                        f"{first_rss // 1024} MB | {built * 1e3:.0f} ms, {built_rss // 1024} MB | {median} | {rss // 1024} MB |")
        for name, command in (("python3", "python3 guard.py"), ("node", "node guard.js"), ("bash+jq", "bash guard.sh")):
            env = setup(root, name, {"type": "command", "command": f"cd {PEERS} && {command}"})
            median, rss = cached(bin, env, runs)
            rows.append(f"| {name} command hook | – | – | – | {median} | {rss // 1024} MB |")
    finally:
        shutil.rmtree(root)
    print("| guard | size | first event, fresh cache | first event after `build` | cached event | peak RSS (cached) |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\n{runs} cached runs each; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
