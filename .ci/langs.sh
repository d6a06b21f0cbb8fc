#!/usr/bin/env bash
# Hooks in Python and JavaScript, end to end (issue 12): installs the pinned
# toolchains (componentize-py from PyPI into a venv, componentize-js from npm,
# both under ~/.cache/agenthooks-langs), runs the examples' native tests,
# builds the Python and JavaScript examples and scaffolds into components (in
# a scratch directory: never committed), and runs them through the release
# `agenthooks` against the shared case table, with the sandbox's limits: a
# Python hook that loops runs out of fuel, one that reads a file it was not
# granted fails, and componentize-js's default `wasi:http` import is stubbed.
# The `agenthooks` it runs is the release packages' build (`scripts/dist.sh --bin-dir`).
#
# Prints `N passed, N failed` last; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD

CPY_VERSION=0.25.1
CJS_VERSION=0.23.0
tools=${AGENTHOOKS_LANGS_CACHE:-$HOME/.cache/agenthooks-langs}
mkdir -p "$tools"

if [ ! -x "$tools/venv/bin/componentize-py" ] ||
    ! "$tools/venv/bin/componentize-py" --version | grep -qx "componentize-py $CPY_VERSION"; then
    python3 -m venv "$tools/venv"
    "$tools/venv/bin/pip" install -q "componentize-py==$CPY_VERSION" pytest
fi
if [ ! -x "$tools/npm/node_modules/.bin/componentize-js" ] ||
    ! grep -q "\"version\": \"$CJS_VERSION\"" "$tools/npm/node_modules/@bytecodealliance/componentize-js/package.json"; then
    mkdir -p "$tools/npm"
    (cd "$tools/npm" && [ -f package.json ] || echo '{"private": true}' > package.json)
    (cd "$tools/npm" && npm install --no-audit --no-fund --cache "$tools/npm-cache" \
        "@bytecodealliance/componentize-js@$CJS_VERSION" > /dev/null)
fi
export PATH="$tools/venv/bin:$tools/npm/node_modules/.bin:$PATH"
echo "toolchains ready after ${SECONDS} s"

# The release packages' build (`scripts/dist.sh`): one release build for
# the packages, this step and the benches (CI's `.ci/dist.sh` made it).
bin=$("$repo/scripts/dist.sh" --bin-dir)/agenthooks

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAILED: $*"; }
check() { # NAME COMMAND...: one check, its output kept for a failure
    local name=$1
    shift
    if "$@" > "$scratch/out" 2>&1; then ok "$name"; else bad "$name"; sed 's/^/    /' "$scratch/out" | tail -20; fi
}

# Native tests: the same case table as the Rust examples.
check "python examples pass cases.json natively (pytest)" \
    sh -c "cd guest-examples/python && python -m pytest -q"
check "js examples pass cases.json natively (node --test)" \
    sh -c "cd guest-examples/js && node --test"

# Components, built from the examples.
py() { (cd "$1" && componentize-py -d "$repo/wit" -w hook componentize -p . "$2" -o "$3"); }
js() { (cd "$1" && componentize-js "$2" --wit "$repo/wit" --world-name hook "${@:4}" -o "$3" > /dev/null); }
check "build python dangerous-command-guard" py guest-examples/python dangerous_command_guard "$scratch/py-guard.wasm"
check "build python protected-paths" py guest-examples/python protected_paths "$scratch/py-paths.wasm"
# The guard with componentize-js's default build, which imports wasi:http:
# the host stubs it, and the guard must still agree with the table.
check "build js dangerous-command-guard (default build: imports wasi:http)" \
    js guest-examples/js dangerous-command-guard.js "$scratch/js-guard.wasm"
check "build js protected-paths" js guest-examples/js protected-paths.js "$scratch/js-paths.wasm" --disable http --disable fetch-event

# A Python hook probing the sandbox: "loop" loops, "read" reads a file it was
# not granted; both must fail the hook (a denial, under onError: deny).
mkdir -p "$scratch/probe"
cp guest-examples/python/agenthooks.py "$scratch/probe/"
cat > "$scratch/probe/probe.py" << 'EOF'
import agenthooks
from agenthooks import Answer

def probe(event):
    command = event.shell_command() or ""
    if command == "loop":
        while True:
            pass
    if command == "read":
        with open("/etc/hostname") as f:
            return Answer.deny("read /etc/hostname: " + f.read())
    return Answer.none()

WitWorld = agenthooks.component(probe)
EOF
check "build python sandbox probe" py "$scratch/probe" probe "$scratch/py-probe.wasm"

python3 - "$bin" "$scratch" << 'EOF'
import json, os, subprocess, sys, time

bin, scratch = sys.argv[1], sys.argv[2]
cases = json.load(open("guest-examples/cases.json"))["cases"]
results = []

def env_for(name):
    home = os.path.join(scratch, "home-" + name)
    os.makedirs(os.path.join(home, ".agents"), exist_ok=True)
    return home, dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"))

def configure(home, handler):
    entry = [{"hooks": [handler]}]
    hooks = {e: entry for e in ("PreToolUse", "PermissionRequest", "PostToolUse")}
    with open(os.path.join(home, ".agents", "hooks.json"), "w") as f:
        json.dump({"hooks": hooks}, f)

def run(env, event, tool, tool_input):
    payload = {"session_id": "s", "cwd": scratch, "hook_event_name": event,
               "tool_name": tool, "tool_input": tool_input}
    p = subprocess.run([bin, "run", "--agent", "claude"], input=json.dumps(payload),
                       capture_output=True, text=True, env=env, cwd=scratch, timeout=120)
    return p

def denial(stdout):
    if not stdout.strip():
        return None
    s = json.loads(stdout).get("hookSpecificOutput", {})
    if "decision" in s:
        return s["decision"].get("message") if s["decision"].get("behavior") == "deny" else "?"
    return s.get("permissionDecisionReason") if s.get("permissionDecision") == "deny" else "?"

def record(name, good, detail=""):
    results.append(good)
    print(("ok: " if good else "FAILED: ") + name + ("" if good else "\n    " + detail))

for lang in ("py", "js"):
    for hook, file in (("dangerous-command-guard", "guard"), ("protected-paths", "paths")):
        component = os.path.join(scratch, f"{lang}-{file}.wasm")
        if not os.path.exists(component):
            record(f"{lang} {hook}: component", False, "not built")
            continue
        home, env = env_for(f"{lang}-{file}")
        configure(home, {"type": "wasm", "component": component, "timeout": 120})
        start = time.monotonic()
        warm = subprocess.run([bin, "compile", component], capture_output=True, text=True, env=env)
        print(f"   {lang} {hook}: {os.path.getsize(component) / 1e6:.1f} MB, "
              f"compiled in {time.monotonic() - start:.1f} s")
        wrong = []
        for c in (c for c in cases if c["hook"] == hook):
            p = run(env, c["event"], c["tool"], c["tool_input"])
            got = denial(p.stdout)
            if got != c["deny"] or p.returncode != 0:
                wrong.append(f"{c['tool_input']}: expected {c['deny']!r}, got {got!r} {p.stderr.strip()}")
        record(f"{lang} {hook} component agrees with cases.json through `agenthooks run`",
               not wrong, "\n    ".join(wrong[:5]))

# A first event with a fresh cache (nothing precompiled): answered correctly
# within the handler's timeout; on x86_64 by the baseline tier (Winch), which
# the compile worker stores first, while Cranelift compiles in the background.
import platform
for lang in ("py", "js"):
    component = os.path.join(scratch, f"{lang}-guard.wasm")
    home, env = env_for(f"{lang}-fresh")
    configure(home, {"type": "wasm", "component": component, "timeout": 60})
    payload = {"session_id": "s", "cwd": scratch, "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}
    start = time.monotonic()
    p = subprocess.run([bin, "run", "--agent", "claude", "--verbose"], input=json.dumps(payload),
                       capture_output=True, text=True, env=env, cwd=scratch, timeout=120)
    took = time.monotonic() - start
    winch = platform.machine() == "x86_64" and sys.platform.startswith("linux")
    print(f"   {lang} guard, fresh cache: first event in {took:.1f} s")
    record(f"{lang} guard: the first event with a fresh cache denies"
           + (" from the baseline tier (Winch)" if winch else ""),
           (denial(p.stdout) or "").startswith("dangerous-command-guard:")
           and (not winch or "baseline tier, Winch" in p.stderr), p.stdout + p.stderr[-2000:])

# The default componentize-js build: loads with wasi:http stubbed, named in a note.
home, env = env_for("js-guard")
p = run(env, "PreToolUse", "Bash", {"command": "rm -rf /"})
record("a js component importing wasi:http loads (stubbed, said in a note) and denies",
       (denial(p.stdout) or "").startswith("dangerous-command-guard:")
       and "`wasi:http/types@" in p.stderr and "stubs" in p.stderr, p.stdout + p.stderr)

# The sandbox holds for Python: fuel and file grants.
home, env = env_for("probe")
probe = os.path.join(scratch, "py-probe.wasm")
configure(home, {"type": "wasm", "component": probe, "timeout": 60, "fuel": 200000000, "onError": "deny"})
subprocess.run([bin, "compile", probe], capture_output=True, env=env)
p = run(env, "PreToolUse", "Bash", {"command": "loop"})
record("a looping python hook runs out of fuel (and denies under onError: deny)",
       "ran out of fuel" in p.stderr and denial(p.stdout) is not None, p.stdout + p.stderr)
p = run(env, "PreToolUse", "Bash", {"command": "read"})
record("a python hook reading a file it was not granted fails (no read, a denial by onError)",
       "returned an error" in p.stderr and "read /etc/hostname" not in p.stdout, p.stdout + p.stderr)
p = run(env, "PreToolUse", "Bash", {"command": "ls"})
record("the probe answers nothing for a plain command", denial(p.stdout) is None, p.stdout + p.stderr)

with open(os.path.join(scratch, "counts"), "w") as f:
    f.write(f"{sum(results)} {len(results) - sum(results)}\n")
EOF
read -r p f < "$scratch/counts"
passed=$((passed + p))
failed=$((failed + f))

# `new --lang` scaffolds build through `agenthooks build` and deny through `fire`.
for lang in python js; do
    project=$scratch/new-$lang
    mkdir -p "$project"
    (cd "$project" && git init -q && "$bin" new guard --lang "$lang" > /dev/null)
    if [ "$lang" = js ]; then ln -s "$tools/npm/node_modules" "$project/.agents/hooks/guard/node_modules"; fi
    check "new --lang $lang: native test" sh -c "cd '$project/.agents/hooks/guard' && if [ $lang = python ]; then python -m pytest -q; else node --test; fi"
    check "new --lang $lang: agenthooks build" sh -c "cd '$project' && HOME='$scratch/home-new' XDG_CACHE_HOME='$scratch/cache-new' '$bin' build guard"
    check "new --lang $lang: fire denies a force push" sh -c "cd '$project' && HOME='$scratch/home-new' XDG_CACHE_HOME='$scratch/cache-new' \
        '$bin' fire PreToolUse --tool Bash --input '{\"command\":\"git push --force\"}' --expect deny"
done

echo "(${SECONDS} s in all)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
