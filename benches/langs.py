#!/usr/bin/env python3
"""Side by side, in one run: the dangerous-command guard as a Rust, Python and
JavaScript component and as python3 / node / bash+jq command hooks, each
behind `agenthooks run --agent claude` (release build).

    benches/langs.py BIN RUST.wasm PY.wasm JS.wasm [--runs N] [--before OLD_BIN]

For each component: its size; the first event with a fresh cache (the
handler's timeout is 300 s, so the event waits for the compile), which the
baseline compiler (Winch) answers where it is used (x86_64 Unix); how long
after that event's start the background Cranelift compile had stored its
entry; the next event (loading that entry: what `agenthooks build` or
`compile` leave too); then the median and p90 of N cached events and their peak RSS
(`/usr/bin/time`'s maximum resident set of the `run` process; a background
compile worker is not counted). With `--before OLD_BIN`, also the first event
with a fresh cache through OLD_BIN (e.g. a build without the baseline tier),
in the same run. Prints a Markdown table and the load average before and
after. `.ci/langs.sh` builds the components; run this when the machine is
idle, never in CI (a fresh-cache event of a Python component is seconds of
CPU, a minute with Cranelift alone).
"""

import fcntl
import glob
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
                       capture_output=True, text=True, env=env, timeout=400)
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


def worker_done(env, limit=900):
    """Seconds until no compile worker holds a lock in `env`'s cache."""
    cache = os.path.join(env["XDG_CACHE_HOME"], "agenthooks")
    start = time.monotonic()
    while time.monotonic() - start < limit:
        busy = False
        for lock in glob.glob(os.path.join(cache, "locks", "*.lock")):
            with open(lock) as f:
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(f, fcntl.LOCK_UN)
                except BlockingIOError:
                    busy = True
        if not busy and glob.glob(os.path.join(cache, "*.cwasm")):
            return time.monotonic() - start
        time.sleep(0.05)
    sys.exit("the background compile never ended")


def cached(bin, env, runs):
    walls, rss = zip(*(timed(bin, env) for _ in range(runs)))
    walls = sorted(walls)
    return f"{statistics.median(walls) * 1e3:.1f} ms (p90 {walls[int(0.9 * (runs - 1))] * 1e3:.1f})", max(rss)


def loadavg():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main():
    args = sys.argv[1:]
    runs, before = 20, None
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    if "--before" in args:
        i = args.index("--before")
        before = args[i + 1]
        del args[i:i + 2]
    bin, components = args[0], dict(zip(("Rust", "Python", "JavaScript"), args[1:4]))
    root = tempfile.mkdtemp()
    rows = []
    load_before = loadavg()
    try:
        for lang, component in components.items():
            handler = {"type": "wasm", "component": os.path.abspath(component), "timeout": 300}
            env = setup(root, lang + "-cold", handler)
            first, first_rss = timed(bin, env)
            # Cranelift's entry, stored by the worker the first event started.
            optimized = first + worker_done(env)
            cold_env = env
            old = "–"
            if before:
                env = setup(root, lang + "-before", handler)
                old_first, _ = timed(before, env)
                worker_done(env)
                old = f"{old_first:.2f} s"
            built, _ = timed(bin, cold_env)
            median, rss = cached(bin, cold_env, runs)
            rows.append(f"| {lang} component | {os.path.getsize(component) / 1e6:.1f} MB | {first:.2f} s, "
                        f"{first_rss // 1024} MB | {old} | {optimized:.1f} s | {built * 1e3:.0f} ms | {median} | "
                        f"{rss // 1024} MB |")
        for name, command in (("python3", "python3 guard.py"), ("node", "node guard.js"), ("bash+jq", "bash guard.sh")):
            env = setup(root, name, {"type": "command", "command": f"cd {PEERS} && {command}"})
            median, rss = cached(bin, env, runs)
            rows.append(f"| {name} command hook | – | – | – | – | – | {median} | {rss // 1024} MB |")
    finally:
        shutil.rmtree(root)
    print("| guard | size | first event, fresh cache (peak RSS) | same, `--before` binary | "
          "Cranelift entry stored after | next event (Cranelift entry) | cached event | peak RSS (cached) |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\n{runs} cached runs each; load average (1, 5, 15 min) before {load_before}, "
          f"after {loadavg()}, on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
