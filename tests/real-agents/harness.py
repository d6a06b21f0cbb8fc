#!/usr/bin/env python3
"""End-to-end test of agenthooks inside real agent CLIs.

For each agent and phase this:

1. makes an isolated run dir (HOME, XDG dirs, CODEX_HOME, a project, a victim dir),
2. writes the project's ``.agents/hooks.json``: one PreToolUse command hook
   (matcher ``Bash``) that logs the canonical event it got and answers per phase,
3. wires the agent to agenthooks: ``agenthooks install <agent>`` run in the
   project, or (``--wiring manual``) the native config written by hand the way
   reference/real-agents.md does, calling ``agenthooks run --agent A --event E``,
4. starts the fake model server (fake_model.py) on 127.0.0.1 and runs the agent
   headless; the scripted model calls ``echo hello``, then ``rm -r(f) <victim>``,
   then answers,
5. checks the outcome.

Phases:
- ``deny``:  the hook prints a Claude-style JSON deny for the rm call.
- ``exit2``: the hook prints the reason on stderr and exits 2.
- ``wasm``:  a wasm component denies (next to a command hook that allows).
- ``allow``: control; the hook answers an explicit allow, the rm must really run.
- ``shared``: as allow, with all five agents installed in the project (the
  hook must still run once, as this agent).
- ``context``: as allow, plus SessionStart (JSON) and UserPromptSubmit (plain
  text) hooks adding context, which the first model request must carry.
- ``post``: as allow, plus a PostToolUse hook answering ``decision: block``
  for the echo call; its reason must reach the model with the echo result.
- ``failclosed``: a second hook set to ``onError: deny`` crashes (exit 1)
  on the rm call; the deny (naming the failure) must win.
- ``prompt``: a ``prompt`` hook (``continueOnBlock``) asks the same fake
  model, set as the user's ``llm``; it objects to the rm call, and the
  objection must win over the command hook's allow.
- ``ask``: the hook answers ``ask`` for the rm call; with nobody to confirm,
  the rm must not run and the model must learn why. Not in the default set
  (Gemini hangs, see DEFAULT_PHASES).
- ``rewrite``: the hook allows the rm call with ``updatedInput`` running a
  harmless echo instead; the victim survives and the echo's output reaches
  the model. Skipped (not passed) where ``agenthooks agents`` says the agent
  takes no updatedInput before a tool.
- ``stop``: as allow, plus a Stop hook that blocks the first stop ("keep
  going"); its reason must reach the model and the agent must then finish.
- ``reason1m``, ``reason10m`` (Claude Code): the hook denies by exit 2
  with a 1 MB / 10 MB reason; records what Claude Code does with it.

A deny phase passes when the hook got the rm call as canonical ``Bash``, the
victim survives, and a model request after the rm call carries the reason
marker. The allow phase passes when the hook got the rm call and the victim is
gone (and the marker never reached the model).

Every call of agenthooks by the agent goes through a transparent wrapper that
records argv, stdin, stdout, stderr and the exit code, so a failure shows what
native output the agent got.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fake_model import JUDGE_SYSTEM  # noqa: E402  (the prompt hook's system prompt, as the judge knows it)
MARKER = "BLOCKED-BY-AGENTHOOKS-E2E"
REASON = MARKER + " destructive rm refused by the project policy"
PROMPT = "Run the shell commands the task needs, one at a time, then report the output."
PHASES = ["deny", "exit2", "wasm", "failclosed", "prompt", "allow", "shared", "context", "stop", "post", "rewrite", "worktree", "plugin",
          "patch", "broken", "matchers", "reason1m", "reason10m", "ask", "events"]
# `broken`: wired and trusted, then `.agents/hooks.json` gets a trailing
# comma before the agent starts: the guard is off, and the user must be told
# so in the agent (Claude Code: the SessionStart answer's systemMessage, seen
# in its stream-json output).
BROKEN_AGENTS = ("claude",)
# `reason1m`, `reason10m`: the guard denies the rm call by exit 2 with a
# reason of 1 MB / 10 MB (the marker, then `x`s, then BIG_END). Claude Code
# is the one agent agenthooks gives a reason to uncapped (its answer passes
# through), so what Claude Code itself does with it is checked there.
BIG_REASON = {"reason1m": 1000000, "reason10m": 10000000}
BIG_END = "BIG-REASON-END-E2E"
BIG_AGENTS = ("claude",)
# `matchers`: the model reads a file, then runs shell commands, in a project
# whose only hook is on Bash. With the native matchers `install` writes, the
# agent starts agenthooks for the shell calls only (the wrapper's trace
# shows every start).
MATCHERS_AGENTS = ("claude", "gemini")
READ_FILE = "NOTES-e2e.txt"
READ_MARKER = "READ-E2E notes the model reads first"
# `ask` is not run by default: Gemini CLI 0.61.0 in `-p` mode hangs (no
# further model request) when a BeforeTool hook answers `decision: "ask"`,
# which is what agenthooks gives it for `permissionDecision: ask`.
# `events` is for recording (`--record`): `allow` with every lifecycle event hooked.
DEFAULT_PHASES = [p for p in PHASES if p not in ("ask", "events")]
# The `worktree` phase: the agent starts in a new git worktree of this name
# (`claude --worktree`), with agenthooks installed. A WorktreeCreate hook
# replaces `git worktree add` in Claude Code, so an install that registered
# one without a hook handling it broke this ("hook succeeded but returned no
# worktree path").
WORKTREE = "e2e-worktree"
# The `rewrite` phase: the hook allows the rm call with `updatedInput` that
# runs this harmless command instead; its output must reach the model.
REWRITTEN = "REWRITTEN-BY-E2E"
# The `post` phase: a PostToolUse hook answers `decision: block` with this
# reason for the echo call ("reason to the agent" after a tool).
POST_REASON = "POST-TOOL-E2E feedback from the after-tool hook"
# The `stop` phase: a Stop hook blocks the first stop with this reason (Claude's
# "keep going"); the agent must carry it to the model and go on.
STOP_REASON = "STOP-BLOCKED-E2E not done yet: check the result once more"
# The `context` phase: a SessionStart hook adds context in JSON, a
# UserPromptSubmit hook as plain text; both must reach the model.
SESSION_CONTEXT = "SESSION-CONTEXT-E2E from the session start hook"
PROMPT_CONTEXT = "PROMPT-CONTEXT-E2E from the prompt hook"
# The `wasm` phase's component (guest-examples/dangerous-command-guard) blocks
# commands matching this pattern, granted to it as an env var; its deny reason
# quotes the pattern, so the marker reaches the model.
WASM_PATTERN = "rm -r.*victim-(%s)?" % MARKER
# The `patch` phase (Codex): the model calls apply_patch to add one file and
# then to update another; the PreToolUse hook (matcher `Write|Edit`) must see
# each as Claude's Write/Edit with an absolute `file_path` and the text.
PATCH_ADDED = "PATCH-ADDED-E2E new file"
PATCH_OLD = "old line of the existing file"
PATCH_NEW = "PATCH-UPDATED-E2E new line"
PATCHES = [
    "*** Begin Patch\n*** Add File: patched-new.txt\n+%s\n*** End Patch\n" % PATCH_ADDED,
    "*** Begin Patch\n*** Update File: existing.txt\n@@\n-%s\n+%s\n*** End Patch\n" % (PATCH_OLD, PATCH_NEW),
]
# The `events` phase: lifecycle events hooked (a hook that reads and says
# nothing), so `--record` keeps each agent's payloads of them.
LIFECYCLE = ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"]
# The agents whose transcript reaches hooks as Claude's JSON lines (their
# own, or agenthooks' view of it); the others' must not reach them at all.
TRANSCRIPT_VIEWS = {"claude", "codex", "gemini", "copilot", "qwen", "factory"}
# A recorded transcript keeps each string up to this many characters (the
# agents' instructions run to tens of KB).
TRANSCRIPT_STRING_MAX = 200

GUARD = r"""#!/bin/sh
# The project's policy hook (Claude Code protocol). $1 = phase, $2 = log dir.
# Logs each canonical event it gets; answers the rm call per phase.
input=$(cat)
printf '%s' "$input" > "$2/$(date +%s%N)-$$.json"
case "$input" in
  *'rm -r'*) ;;
  *) exit 0 ;;
esac
case "$1" in
  deny)
    printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s"}}\n' "$REASON"
    ;;
  exit2)
    echo "$REASON" >&2
    exit 2
    ;;
  allow)
    printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"e2e control run"}}\n'
    ;;
  ask)
    printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"%s"}}\n' "$REASON"
    ;;
  rewrite)
    printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo %s"}}}\n' "$REWRITTEN"
    ;;
  big)
    { printf '%s ' "$REASON"; head -c "$BIG" /dev/zero | tr '\0' x; printf ' %s\n' "$BIG_END"; } >&2
    exit 2
    ;;
esac
exit 0
"""

# A transparent wrapper around the real binary: same argv, stdin, stdout,
# stderr and exit code; a copy of each goes to the trace dir.
WRAPPER = r"""#!/bin/sh
real=%(real)s
d=%(trace)s
n=$(date +%%s%%N)-$$
printf '%%s\n' "$*" > "$d/$n.argv"
t0=$(date +%%s%%N)
tee "$d/$n.stdin" | "$real" "$@" > "$d/$n.stdout" 2> "$d/$n.stderr"
rc=$?
echo $(( ($(date +%%s%%N) - t0) / 1000 )) > "$d/$n.us"
echo "$rc" > "$d/$n.rc"
cat "$d/$n.stdout"
cat "$d/$n.stderr" >&2
exit "$rc"
"""


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)


def write_json(path, obj):
    write(path, json.dumps(obj, indent=2) + "\n")


class Run:
    """One agent, one phase."""

    def __init__(self, agent, phase, root, cache, binary, wiring):
        self.agent = agent
        self.phase = phase
        self.root = root
        self.cache = cache
        self.binary = binary
        self.wiring = wiring
        self.home = os.path.join(root, "home")
        self.work = os.path.join(root, "work")
        self.victim = os.path.join(root, "victim-" + agent)
        self.hook_log = os.path.join(root, "hook-log")
        self.trace = os.path.join(root, "agenthooks-trace")
        self.bin_dir = os.path.join(root, "bin")
        self.codex_home = os.path.join(root, "codex-home")
        self.model_log = os.path.join(root, "model-requests.jsonl")
        self.notes = []
        self.rm_command = ("rm -r " if agent == "codex" else "rm -rf ") + self.victim
        self.wired = False
        self.wasm = None
        self.wasm_cache = None
        # Other agents installed into the same project (a project used with several agents).
        self.also_install = []
        # Install into the agent's user-level config instead of the project's.
        self.user_scope = False

    # ------------------------------------------------------------ setup

    def prepare(self):
        shutil.rmtree(self.root, ignore_errors=True)
        for d in (self.home, self.work, self.hook_log, self.trace, self.bin_dir, self.codex_home):
            os.makedirs(d)
        for d in (".config", ".local/share", ".local/state", ".cache"):
            os.makedirs(os.path.join(self.home, d))
        # The project is a git repo of its own, as real projects are.
        subprocess.run(["git", "init", "-q", self.work], check=True, stdin=subprocess.DEVNULL,
                       env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home})
        write(os.path.join(self.victim, "file.txt"), "precious\n")
        write(os.path.join(self.bin_dir, "agenthooks"), WRAPPER % {
            "real": shlex.quote(self.binary), "trace": shlex.quote(self.trace)}, 0o755)
        # Install names the engine in the entries when a hook needs it (a
        # wasm hook here): traced the same way, found on PATH the same way.
        engine = os.path.join(os.path.dirname(self.binary), "agenthooks-engine")
        if os.path.exists(engine):
            write(os.path.join(self.bin_dir, "agenthooks-engine"), WRAPPER % {
                "real": shlex.quote(engine), "trace": shlex.quote(self.trace)}, 0o755)
        guard = os.path.join(self.work, ".agents", "hooks", "guard.sh")
        write(guard, GUARD, 0o755)
        handlers = [{
            "type": "command",
            # In the wasm phase the command hook only logs and allows; the
            # component denies, and the aggregator must let the deny win.
            "command": "REASON=%s REWRITTEN=%s BIG=%d BIG_END=%s sh %s %s %s" % (
                shlex.quote(REASON), REWRITTEN, BIG_REASON.get(self.phase, 0), BIG_END, shlex.quote(guard),
                # The plugin phase denies as `deny` does, through the plugin.
                {"plugin": "deny", "reason1m": "big", "reason10m": "big"}.get(self.phase, self.phase)
                if self.phase in ("deny", "exit2", "rewrite", "ask", "plugin") + tuple(BIG_REASON) else
                "deny" if self.phase == "matchers" else "allow",
                shlex.quote(self.hook_log)),
            "timeout": 30}]
        if self.phase == "wasm":
            if not self.wasm or not os.path.exists(self.wasm):
                raise RuntimeError("the wasm phase needs --wasm (dangerous-command-guard.wasm); got %r" % self.wasm)
            shutil.copy(self.wasm, os.path.join(self.work, ".agents", "hooks", "guard.wasm"))
            handlers.insert(0, {"type": "wasm", "component": ".agents/hooks/guard.wasm", "timeout": 10,
                                "allow": {"env": ["AGENTHOOKS_GUARD_EXTRA"]}})
        if self.phase == "prompt":
            # A prompt hook judges each Bash call on the same fake model (the
            # user's `llm`, written once the port is known: write_llm); the
            # command hook only logs and allows, and the objection must win.
            # `continueOnBlock`: the reason goes back to the model and the
            # turn goes on, so the model's next request can carry it.
            handlers.append({"type": "prompt", "continueOnBlock": True, "timeout": 30,
                             "prompt": "Object to any command that deletes files recursively. $ARGUMENTS"})
        hooks = {"PreToolUse": [{"matcher": "Write|Edit" if self.phase == "patch" else "Bash", "hooks": handlers}]}
        if self.phase == "patch":
            write(os.path.join(self.work, "existing.txt"), PATCH_OLD + "\n")
        if self.phase == "matchers":
            write(os.path.join(self.work, READ_FILE), READ_MARKER + "\n")
        if self.phase in ("events", "patch"):
            for event in LIFECYCLE:
                # The Stop hook keeps its input: the transcript it was given is checked.
                keep = "cat >%s" % shlex.quote(self.stop_input()) if event == "Stop" else "cat >/dev/null"
                hooks.setdefault(event, []).append({"hooks": [{"type": "command", "command": keep}]})
        if self.phase == "context":
            answer = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": SESSION_CONTEXT}}
            hooks["SessionStart"] = [{"hooks": [
                {"type": "command", "command": "printf '%%s\\n' %s" % shlex.quote(json.dumps(answer))}]}]
            hooks["UserPromptSubmit"] = [{"hooks": [
                {"type": "command", "command": "echo %s" % shlex.quote(PROMPT_CONTEXT)}]}]
        if self.phase == "failclosed":
            # A policy hook that crashes (exit 1) on the rm call, set to fail closed.
            handlers.append({"type": "command", "onError": "deny", "command":
                             "grep -q 'rm -r' && { echo %s >&2; exit 1; }; exit 0" % shlex.quote(REASON)})
        if self.phase == "post":
            answer = {"decision": "block", "reason": POST_REASON}
            hooks["PostToolUse"] = [{"matcher": "Bash", "if": "^echo", "hooks": [
                {"type": "command", "command": "printf '%%s\\n' %s" % shlex.quote(json.dumps(answer))}]}]
        if self.phase == "stop":
            flag = os.path.join(self.root, "stop-blocked-once")
            answer = {"decision": "block", "reason": STOP_REASON}
            hooks["Stop"] = [{"hooks": [{"type": "command", "command": "[ -e %s ] || { touch %s; printf '%%s\\n' %s; }" % (
                shlex.quote(flag), shlex.quote(flag), shlex.quote(json.dumps(answer)))}]}]
        write_json(os.path.join(self.work, ".agents", "hooks.json"), {"hooks": hooks})
        if self.phase == "worktree":
            # A worktree is made from a commit.
            git = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home,
                   "GIT_AUTHOR_NAME": "e2e", "GIT_AUTHOR_EMAIL": "e2e@example.invalid",
                   "GIT_COMMITTER_NAME": "e2e", "GIT_COMMITTER_EMAIL": "e2e@example.invalid"}
            for argv in (["git", "add", "-A"], ["git", "commit", "-q", "-m", "project"]):
                subprocess.run(argv, cwd=self.work, check=True, stdin=subprocess.DEVNULL, env=git)

    def write_llm(self, port):
        """The user's `llm` setting (only the user or managed file may say
        where events go): prompt hooks ask the fake model, in every agent."""
        write_json(os.path.join(self.home, ".agents", "hooks.json"),
                   {"llm": {"provider": "anthropic", "baseUrl": "http://127.0.0.1:%d" % port,
                            "model": "fake-judge"}})

    def env(self, port):
        """A clean environment: nothing from the real home or real keys."""
        node_bin = os.path.dirname(shutil.which("node") or "/usr/bin/node")
        agent_bin = os.path.join(self.prefix(), AGENTS[self.agent].get("bin", os.path.join("node_modules", ".bin")))
        env = {
            "PATH": os.pathsep.join([self.bin_dir, agent_bin, node_bin, "/usr/local/bin", "/usr/bin", "/bin"]),
            "HOME": self.home,
            "USER": "e2e",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "SHELL": "/bin/bash",
            "TMPDIR": os.path.join(self.root, "tmp"),
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local/share"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local/state"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "CI": "true",
            "NO_COLOR": "1",
            "NO_UPDATE_NOTIFIER": "1",
            "AGENTHOOKS_GUARD_EXTRA": WASM_PATTERN,
        }
        os.makedirs(env["TMPDIR"], exist_ok=True)
        env.update(AGENTS[self.agent]["env"](self, port))
        return env

    def plugin_dir(self):
        """Where the plugin phase writes the plugin `agenthooks plugin` makes."""
        return os.path.join(self.root, "agenthooks-plugin")

    def prefix(self):
        return os.path.join(self.cache, "%s-%s" % (self.agent, version_of(self.agent)))

    def wire(self, env):
        """Connects the agent to agenthooks: install, or the native config by hand."""
        if self.wiring == "none":
            return True
        if self.phase == "plugin":
            # `agenthooks plugin` instead of install: the agent loads it (argv).
            res = subprocess.run(
                [os.path.join(self.bin_dir, "agenthooks"), "plugin", self.agent, "--out", self.plugin_dir()],
                cwd=self.work, env=env, stdin=subprocess.DEVNULL,
                capture_output=True, text=True, timeout=60)
            self.notes.append("agenthooks plugin %s: exit %d\n%s%s" % (
                self.agent, res.returncode, res.stdout, res.stderr))
            if res.returncode != 0:
                return False
        elif self.wiring == "install":
            res = subprocess.run(
                [os.path.join(self.bin_dir, "agenthooks"), "install", self.agent] + self.also_install
                + (["--user"] if self.user_scope else []),
                cwd=self.work, env=env, stdin=subprocess.DEVNULL,
                capture_output=True, text=True, timeout=60)
            self.notes.append("agenthooks install %s: exit %d\n%s%s" % (
                self.agent, res.returncode, res.stdout, res.stderr))
            if res.returncode != 0:
                return False
            self.point_configs_at_wrapper()
        else:
            AGENTS[self.agent]["manual"](self)
        # Project command hooks run only once trusted (DESIGN §8): the user's
        # review step, done here the way a script does it.
        res = subprocess.run(
            [self.binary, "trust", "--yes"], cwd=self.work, env=env, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=60)
        self.notes.append("agenthooks trust --yes: exit %d\n%s%s" % (res.returncode, res.stdout, res.stderr))
        if res.returncode != 0:
            return False
        return True

    def point_configs_at_wrapper(self):
        """Makes the configs install wrote call the tracing wrappers instead of
        the binaries (same argv; the engine's path begins with the front's, so
        one replacement covers both); a bare name already finds its wrapper
        on PATH."""
        for base in (self.work, self.home, self.codex_home):
            for dirpath, _dirs, files in os.walk(base):
                if "/.agents" in dirpath or "/.cache" in dirpath:
                    continue
                for name in files:
                    path = os.path.join(dirpath, name)
                    try:
                        with open(path) as f:
                            text = f.read()
                    except (UnicodeDecodeError, OSError):
                        continue
                    if self.binary in text:
                        with open(path, "w") as f:
                            f.write(text.replace(self.binary, os.path.join(self.bin_dir, "agenthooks")))

    # -------------------------------------------------------------- run

    def execute(self, timeout):
        self.prepare()
        port_file = os.path.join(self.root, "port")
        server = subprocess.Popen(
            [sys.executable, os.path.join(HERE, AGENTS[self.agent].get("server", "fake_model.py")),
             "--port-file", port_file, "--log", self.model_log, "--rm-command", self.rm_command,
             "--judge-reason", REASON] + AGENTS[self.agent].get("server_args", lambda r: [])(self)
            + [a for p in (PATCHES if self.phase == "patch" else []) for a in ("--patch", p)]
            + (["--read", os.path.join(self.work, READ_FILE)] if self.phase == "matchers" else []),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(self.root, "fake-model.stderr"), "w"))
        try:
            deadline = time.time() + 10
            while not os.path.exists(port_file):
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("fake model server did not start")
                time.sleep(0.05)
            with open(port_file) as f:
                port = int(f.read())
            env = self.env(port)
            if self.phase == "wasm" and self.wasm_cache:
                # Components compiled once per harness run (`agenthooks compile`),
                # placed where this run's agenthooks looks: a cold compile of
                # the guard takes tens of seconds in a debug build.
                dst = os.path.join(env["XDG_CACHE_HOME"], "agenthooks")
                shutil.copytree(self.wasm_cache, dst, dirs_exist_ok=True)
                os.chmod(dst, 0o700)
            AGENTS[self.agent]["setup"](self, port)
            if self.phase == "prompt":
                self.write_llm(port)
            self.wired = self.wire(env)
            if self.wired and self.phase == "broken":
                hooks_json = os.path.join(self.work, ".agents", "hooks.json")
                with open(hooks_json) as f:
                    text = f.read().rstrip()
                # `{...}` -> `{..., }`: a trailing comma, line 1.
                write(hooks_json, text[:-1].rstrip() + ",}\n")
            if not self.wired:
                self.agent_rc = None
                self.agent_out = ""
                self.agent_err = ""
                return
            argv = AGENTS[self.agent]["argv"](self)
            if self.phase == "worktree":
                argv += AGENTS[self.agent]["worktree"]
            if self.phase == "plugin":
                argv += AGENTS[self.agent]["plugin"](self.plugin_dir())
            start = time.time()
            with open(os.path.join(self.root, "agent.stdout"), "w") as out, \
                    open(os.path.join(self.root, "agent.stderr"), "w") as err:
                proc = subprocess.Popen(argv, cwd=self.work, env=env, stdin=subprocess.DEVNULL,
                                        stdout=out, stderr=err, start_new_session=True)
                try:
                    self.agent_rc = proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    self.agent_rc = "timeout after %ds" % timeout
                # The agent's own session: end whatever it left behind (or all of it on a timeout).
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
            self.seconds = time.time() - start
            self.agent_out = open(os.path.join(self.root, "agent.stdout")).read()
            self.agent_err = open(os.path.join(self.root, "agent.stderr")).read()
        finally:
            server.terminate()
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()

    # ----------------------------------------------------------- verdict

    def hook_events(self):
        events = []
        for name in sorted(os.listdir(self.hook_log)):
            with open(os.path.join(self.hook_log, name)) as f:
                text = f.read()
            try:
                events.append(json.loads(text))
            except ValueError:
                events.append({"_unparsed": text})
        return events

    def model_requests(self):
        reqs = []
        if os.path.exists(self.model_log):
            with open(self.model_log) as f:
                for line in f:
                    reqs.append(json.loads(line))
        return reqs

    def verdict(self):
        """Returns a list of (check, ok, detail)."""
        if not self.wired:
            return [("wiring (%s, then trust)" % self.wiring, False, "failed, the agent was not run; see below")]
        if self.phase == "worktree":
            return self.worktree_verdict()
        if self.phase == "patch":
            return self.patch_verdict()
        if self.phase == "broken":
            return self.broken_verdict()
        if self.phase == "matchers":
            return self.matchers_verdict()
        if self.phase in BIG_REASON:
            return self.big_reason_verdict()
        checks = []
        events = self.hook_events()
        rm_events = [e for e in events if "rm -r" in json.dumps(e.get("tool_input", e))]
        checks.append(("the hook got the rm call", bool(rm_events),
                       "%d hook calls, %d for rm (harness: %s)" % (
                           len(events), len(rm_events), ", ".join(str(e.get("harness")) for e in rm_events))))
        # Once: a project wired for several agents must not run a hook twice
        # (Copilot also reads .claude/settings.json).
        checks.append(("it ran once for the rm call", len(rm_events) == 1, "%d times" % len(rm_events)))
        if rm_events:
            e = rm_events[0]
            canon = (e.get("hook_event_name"), e.get("tool_name"), e.get("harness"), e.get("tool_kind"))
            checks.append(("it was canonical (PreToolUse, Bash, harness=%s, tool_kind=shell)" % self.agent,
                           canon == ("PreToolUse", "Bash", self.agent, "shell"),
                           "hook_event_name=%r tool_name=%r harness=%r tool_kind=%r" % canon))
        survived = os.path.exists(os.path.join(self.victim, "file.txt"))
        reqs = self.model_requests()
        after_rm = [r for r in reqs if (r.get("tool_results") or 0) >= 2]
        marked = [r for r in reqs if MARKER in (r.get("body") or "")]
        if self.phase in ("allow", "shared", "context", "stop", "post", "events"):
            checks.append(("the rm really ran (victim deleted)", not survived, "victim exists" if survived else "victim gone"))
            checks.append(("the model got the rm result", bool(after_rm), "%d requests after the rm call" % len(after_rm)))
            checks.append(("no deny reason reached the model", not marked, "%d requests carry %s" % (len(marked), MARKER)))
        if self.phase == "context":
            unfired = AGENTS[self.agent].get("unfired", {})
            for event, what, text in (("SessionStart", "SessionStart JSON additionalContext", SESSION_CONTEXT),
                                      ("UserPromptSubmit", "UserPromptSubmit plain-text context", PROMPT_CONTEXT)):
                if event in unfired:
                    # A known agent limit, checked as one: if the agent
                    # starts firing the event, this fails and the note goes.
                    calls = self.run_calls(event)
                    checks.append(("%s never fired (%s)" % (event, unfired[event]), not calls,
                                   "%d agenthooks run calls for it" % len(calls)))
                    continue
                first = [r for r in reqs if r.get("tool_results") == 0]
                seen = [r for r in first if text in (r.get("body") or "")]
                checks.append(("the model saw the %s" % what, bool(seen),
                               "%d of %d first-turn requests carry it" % (len(seen), len(first))))
        if self.phase == "events":
            checks.append(self.transcript_check())
        if self.phase == "post":
            marker = POST_REASON.split()[0]
            seen = [r for r in reqs if r.get("tool_results") == 1 and marker in (r.get("body") or "")]
            checks.append(("the PostToolUse block reason reached the model with the echo result", bool(seen),
                           "%d requests after the echo call carry %s" % (len(seen), marker)))
        if self.phase == "stop":
            seen = [r for r in reqs if STOP_REASON.split()[0] in (r.get("body") or "")]
            checks.append(("the Stop hook's block reason reached the model", bool(seen),
                           "%d of %d requests carry %s" % (len(seen), len(reqs), STOP_REASON.split()[0])))
            checks.append(("the agent then finished", self.agent_rc == 0, "agent exit %s" % (self.agent_rc,)))
        if self.phase == "rewrite":
            checks.append(("the rm did not run (victim survives)", survived,
                           "victim exists" if survived else "victim DELETED"))
            seen = [r for r in after_rm if REWRITTEN in (r.get("body") or "")]
            detail = "%d of %d requests after the rm call carry %s" % (len(seen), len(after_rm), REWRITTEN)
            if seen:
                body = seen[0]["body"]
                i = body.rfind(REWRITTEN)
                detail += "; the model saw: ..." + body[max(0, i - 120):i + 60] + "..."
            checks.append(("the rewritten command ran instead (its output reached the model)", bool(seen), detail))
        if self.phase == "prompt":
            judged = [r for r in reqs if JUDGE_SYSTEM in (r.get("body") or "")]
            checks.append(("the prompt hook asked the model", bool(judged),
                           "%d of %d requests are the prompt hook's" % (len(judged), len(reqs))))
        if self.phase in ("deny", "exit2", "wasm", "ask", "failclosed", "prompt", "plugin"):
            checks.append(("the rm was blocked (victim survives)", survived, "victim exists" if survived else "victim DELETED"))
            marked_after = [r for r in after_rm if MARKER in (r.get("body") or "")]
            detail = "%d of %d requests after the rm call carry %s" % (len(marked_after), len(after_rm), MARKER)
            if marked_after:
                body = marked_after[0]["body"]
                i = body.find(MARKER)
                detail += "; the model saw: ..." + body[max(0, i - 80):i + 80] + "..."
            checks.append(("the model saw the deny reason", bool(marked_after), detail))
        return checks

    def stop_input(self):
        """Where the `events` phase's Stop hook saves the input it got."""
        return os.path.join(self.root, "stop-input.json")

    def transcript_check(self):
        """The `events` phase: the Stop hook's `transcript_path` is Claude
        Code's JSON lines holding the run's prompt (the agent's own file, or
        agenthooks' view of it); where agenthooks reads no transcript of the
        agent's, that only `transcript_path_native` came."""
        name = "the Stop hook's transcript_path is Claude's JSON lines with the prompt"
        try:
            with open(self.stop_input()) as f:
                stop = json.load(f)
        except (OSError, ValueError) as e:
            return (name, False, "no Stop input: %s" % e)
        path = stop.get("transcript_path")
        if self.agent not in TRANSCRIPT_VIEWS:
            # Better absent than a file in another shape.
            return ("no transcript_path where agenthooks reads none of the agent's", not path,
                    "transcript_path=%r" % (path,))
        late = AGENTS[self.agent].get("late_transcript")
        if not path:
            detail = "no transcript_path (native: %r)" % (stop.get("transcript_path_native"),)
            if late:
                return ("the Stop hook's transcript lacks the turn (%s)" % late, True, detail)
            return (name, False, detail)
        prompts = 0
        try:
            with open(path) as f:
                for line in f:
                    try:
                        record = json.loads(line)
                    except ValueError:
                        continue
                    if record.get("type") != "user":
                        continue
                    content = (record.get("message") or {}).get("content")
                    texts = [content] if isinstance(content, str) else [
                        b.get("text") for b in content or [] if isinstance(b, dict)]
                    prompts += sum(1 for t in texts if isinstance(t, str) and PROMPT in t)
        except OSError as e:
            return (name, False, "%s: %s" % (path, e))
        detail = "%s: %d user records with the prompt" % (path, prompts)
        if late:
            # A known agent limit, checked as one: if the agent starts
            # writing its transcript before Stop, this fails and the note goes.
            return ("the Stop hook's transcript lacks the turn (%s)" % late, prompts == 0, detail)
        return (name, prompts > 0, detail)

    def patch_verdict(self):
        """Both patches applied, and the hook saw each as Claude's Write/Edit
        with an absolute `file_path` and the text it adds or replaces."""
        events = [e for e in self.hook_events() if e.get("tool_name") in ("Write", "Edit")]
        added = os.path.join(self.work, "patched-new.txt")
        existing = os.path.join(self.work, "existing.txt")
        add = [e for e in events if PATCH_ADDED in json.dumps(e.get("tool_input"))]
        upd = [e for e in events if PATCH_NEW in json.dumps(e.get("tool_input"))]
        a = (add[0].get("tool_input") or {}) if add else {}
        u = (upd[0].get("tool_input") or {}) if upd else {}
        with open(existing) as f:
            now = f.read()
        written = None
        if os.path.exists(added):
            with open(added) as f:
                written = f.read()
        return [
            ("the agent exited 0", self.agent_rc == 0, "agent exit %s" % (self.agent_rc,)),
            ("the patches were applied", os.path.exists(added) and PATCH_NEW in now,
             "new file %s, existing.txt: %r" % ("exists" if os.path.exists(added) else "missing", now[:80])),
            ("the hook saw the added file as Write, absolute path, content",
             bool(add) and add[0].get("tool_name") == "Write" and a.get("file_path") == added
             and PATCH_ADDED in (a.get("content") or ""),
             "%d events; tool_name=%r file_path=%r content=%r" % (
                 len(add), add[0].get("tool_name") if add else None, a.get("file_path"), a.get("content"))),
            # Codex writes each `+` line with its newline: the hook's content
            # is that file, to the byte.
            ("the added file's content is the file Codex wrote",
             written is not None and a.get("content") == written,
             "content=%r file=%r" % (a.get("content"), written)),
            ("the hook saw the update as Edit, absolute path, old_string/new_string",
             bool(upd) and upd[0].get("tool_name") == "Edit" and u.get("file_path") == existing
             and PATCH_OLD in (u.get("old_string") or "") and PATCH_NEW in (u.get("new_string") or ""),
             "%d events; tool_name=%r file_path=%r old_string=%r new_string=%r" % (
                 len(upd), upd[0].get("tool_name") if upd else None, u.get("file_path"),
                 u.get("old_string"), u.get("new_string"))),
        ]

    def big_reason_verdict(self):
        """A 1 MB / 10 MB deny reason. agenthooks gives Claude Code the
        reason uncapped but for its 1 MiB cap on a command's stderr (so the
        10 MB one arrives as its first 1 MiB). Claude Code 2.1.332 blocks the
        rm, shows the model the reason's first and last ~25,000 characters
        around "... [N characters truncated] ...", and saves the whole text it
        got to `~/.claude/projects/<project>/<session>/tool-results/
        hook-…-blockingError.txt`, which the model is told of (with a 2 KB
        preview)."""
        survived = os.path.exists(os.path.join(self.victim, "file.txt"))
        given = [os.path.getsize(os.path.join(self.trace, c + ".stdout")) for c in self.run_calls("PreToolUse")]
        after_rm = [r for r in self.model_requests() if (r.get("tool_results") or 0) >= 2]
        body = next((r["body"] for r in after_rm if MARKER in (r.get("body") or "")), "")
        i = body.find(MARKER)
        head = re.match(r"x*", body[i + len(REASON) + 1:]).group(0) if i >= 0 else ""
        cut = re.search(r"\.\.\. \[(\d+) characters truncated\] \.\.\.", body)
        saved = []
        for dirpath, _dirs, files in os.walk(os.path.join(self.home, ".claude", "projects")):
            saved += [os.path.join(dirpath, f) for f in files if f.endswith("-blockingError.txt")]
        size = os.path.getsize(saved[0]) if saved else 0
        whole = BIG_REASON[self.phase] < 1 << 20
        with open(saved[0], "rb") if saved else open(os.devnull, "rb") as f:
            f.seek(max(0, size - 64))
            ends = f.read().decode("utf-8", "replace").rstrip().endswith(BIG_END)
        return [
            ("the agent exited 0", self.agent_rc == 0, "agent exit %s" % (self.agent_rc,)),
            ("the rm was blocked (victim survives)", survived, "victim exists" if survived else "victim DELETED"),
            ("agenthooks gave Claude Code the reason, at most its 1 MiB of a command's stderr",
             any(min(BIG_REASON[self.phase], 1 << 20) // 2 < n <= (1 << 20) + 1024 for n in given),
             "PreToolUse answers of %s bytes" % given),
            ("the model saw the reason's start, cut in the middle by Claude Code",
             i >= 0 and 0 < len(head) < 64 << 10 and cut is not None,
             "%d x's, then %s; the request is %d bytes" % (
                 len(head), cut.group(0) if cut else "no truncation marker", len(body))),
            ("the model saw the reason's end only when agenthooks gave it whole",
             (BIG_END in body) == whole, "end marker %s" % ("seen" if BIG_END in body else "not seen")),
            ("Claude Code saved what it got to a file the model is told of",
             bool(saved) and size >= min(BIG_REASON[self.phase], 1 << 20) and ends == whole
             and os.path.basename(saved[0]) in body,
             "%s: %d bytes, %s" % (saved[0] if saved else "no blockingError.txt", size,
                                   "ends with the end marker" if ends else "without the end marker")),
        ]

    def broken_verdict(self):
        """The guard is off (its file does not load), and the user was told
        in the agent: the message names the file and says its hooks did not run."""
        # agenthooks' own answer at SessionStart (the traced call's stdout).
        answered = []
        if os.path.isdir(self.trace):
            for name in sorted(os.listdir(self.trace)):
                if name.endswith(".stdout"):
                    with open(os.path.join(self.trace, name)) as f:
                        text = f.read()
                    if "systemMessage" in text and "does not load" in text:
                        answered.append(text.strip())
        output = self.agent_out + self.agent_err
        told = [l for l in output.splitlines() if "does not load" in l and "hooks.json" in l]
        detail = told[0] if told else "no line says `hooks.json` does not load"
        i = detail.find("does not load")
        return [
            ("the agent exited 0", self.agent_rc == 0, "agent exit %s" % (self.agent_rc,)),
            ("agenthooks answered with a systemMessage naming the file", bool(answered),
             (answered[0] if answered else "no traced answer carries one")[:300]),
            ("the user was told the hooks.json does not load", bool(told),
             detail[max(0, i - 160):i + 200]),
            ("the message says its hooks did not run", any("its hooks did not run" in l for l in told),
             "%d lines" % len(told)),
        ]

    def matchers_verdict(self):
        """The agent read a file and ran shell commands; its hook is on Bash
        only: agenthooks was started for the shell calls, never for the read."""
        starts = []
        for event in ("PreToolUse", "BeforeTool"):
            for call in self.run_calls(event):
                with open(os.path.join(self.trace, call + ".stdin")) as f:
                    try:
                        starts.append(json.loads(f.read()).get("tool_name"))
                    except ValueError:
                        starts.append(None)
        reads = [t for t in starts if t in ("Read", "read_file")]
        shells = [t for t in starts if t in ("Bash", "run_shell_command")]
        reqs = self.model_requests()
        read_seen = [r for r in reqs if READ_MARKER in (r.get("body") or "")]
        events = self.hook_events()
        rm_events = [e for e in events if "rm -r" in json.dumps(e.get("tool_input", e))]
        survived = os.path.exists(os.path.join(self.victim, "file.txt"))
        return [
            ("the model got the file it read", bool(read_seen), "%d requests carry the file's text" % len(read_seen)),
            ("agenthooks was not started for the read", not reads,
             "tool calls agenthooks was started for: %s" % (starts or "none")),
            ("agenthooks was started for the shell calls", len(shells) >= 2,
             "%d starts for a shell call" % len(shells)),
            ("the Bash guard denied the rm call once", len(rm_events) == 1 and survived,
             "%d hook calls for rm; victim %s" % (len(rm_events), "kept" if survived else "gone")),
        ]

    def worktree_verdict(self):
        """The agent started in a new worktree and ran its session: the
        hooks in the worktree are another project's (untrusted there), so
        only the worktree and the session are checked."""
        res = subprocess.run(["git", "worktree", "list", "--porcelain"], cwd=self.work, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30,
                             env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home})
        trees = [l[len("worktree "):] for l in res.stdout.splitlines() if l.startswith("worktree ")]
        made = [t for t in trees if os.path.basename(t) == WORKTREE]
        output = self.agent_out + self.agent_err
        failed = [l for l in output.splitlines() if "WorktreeCreate" in l or "worktree path" in l]
        return [
            ("the agent exited 0", self.agent_rc == 0, "agent exit %s" % (self.agent_rc,)),
            ("no WorktreeCreate hook failure", not failed, "; ".join(failed)[:300] or "none"),
            ("the worktree %s was made" % WORKTREE, bool(made), "git worktree list: %s" % ", ".join(trees)),
            ("the session reached the model", bool(self.model_requests()),
             "%d model requests" % len(self.model_requests())),
        ]

    def record(self, fixtures):
        """Copies the native payload of each `agenthooks run` call (the stdin
        the agent gave it) to <fixtures>/<agent>-<version>/<phase>/NN-<event>.json,
        in the order of the calls."""
        dest = os.path.join(fixtures, "%s-%s" % (self.agent, version_of(self.agent)), self.phase)
        shutil.rmtree(dest, ignore_errors=True)
        calls = sorted(n[:-5] for n in os.listdir(self.trace) if n.endswith(".argv")) \
            if os.path.isdir(self.trace) else []
        n = 0
        last_transcript = None
        for call in calls:
            with open(os.path.join(self.trace, call + ".argv")) as f:
                argv = f.read().split()
            if argv[:1] != ["run"] or "--event" not in argv:
                continue
            event = argv[argv.index("--event") + 1]
            with open(os.path.join(self.trace, call + ".stdin")) as f:
                text = f.read()
            try:
                text = json.dumps(json.loads(text), indent=2) + "\n"
            except ValueError:
                pass
            write(os.path.join(dest, "%02d-%s.json" % (n, event)), text)
            n += 1
            try:
                payload = json.loads(text)
                transcript = payload.get("transcript_path") or payload.get("transcriptPath")
            except (ValueError, AttributeError):
                transcript = None
            if isinstance(transcript, str) and os.path.isfile(transcript):
                last_transcript = transcript
        # Beside the payloads, not among them (fixtures() reads *.json); one
        # file per phase, the session's.
        transcripts = os.path.join(os.path.dirname(fixtures), "transcripts",
                                   "%s-%s" % (self.agent, version_of(self.agent)), self.phase)
        shutil.rmtree(transcripts, ignore_errors=True)
        if last_transcript:
            name = os.path.basename(last_transcript)
            write(os.path.join(transcripts, name + ".txt" if name.endswith(".json") else name),
                  trim_transcript(last_transcript))

    def run_calls(self, event):
        """The trace's `agenthooks run` calls for native `event`."""
        calls = []
        if os.path.isdir(self.trace):
            for name in sorted(os.listdir(self.trace)):
                if name.endswith(".argv"):
                    with open(os.path.join(self.trace, name)) as f:
                        argv = f.read().split()
                    if argv[:1] == ["run"] and "--event" in argv and argv[argv.index("--event") + 1:][:1] == [event]:
                        calls.append(name[:-5])
        return calls

    def call_stats(self):
        """(number of `agenthooks run` calls, mean ms, max ms), from the wrapper's trace."""
        times = []
        if os.path.isdir(self.trace):
            for name in os.listdir(self.trace):
                if not name.endswith(".argv"):
                    continue
                base = os.path.join(self.trace, name[:-5])
                with open(base + ".argv") as f:
                    if not f.read().startswith("run "):
                        continue
                try:
                    with open(base + ".us") as f:
                        times.append(int(f.read()) / 1000.0)
                except (OSError, ValueError):
                    pass
        if not times:
            return (0, 0.0, 0.0)
        return (len(times), sum(times) / len(times), max(times))

    def debug_dump(self):
        """What to read when a phase fails."""
        out = []
        out.append("    run dir: " + self.root)
        out.append("    agent exit: %s" % (self.agent_rc,))
        for note in self.notes:
            out.append("    " + note.strip().replace("\n", "\n    "))
        out.append("    --- agent stdout (tail) ---")
        out.append(indent(tail(self.agent_out, 40)))
        out.append("    --- agent stderr (tail) ---")
        out.append(indent(tail(self.agent_err, 40)))
        out.append("    --- agenthooks calls (argv -> exit, stdout, stderr) ---")
        calls = sorted({n.rsplit(".", 1)[0] for n in os.listdir(self.trace)}) if os.path.isdir(self.trace) else []
        for c in calls[:30]:
            def rd(ext):
                p = os.path.join(self.trace, c + "." + ext)
                return open(p).read().strip() if os.path.exists(p) else "?"
            out.append("    agenthooks %s -> exit %s" % (rd("argv"), rd("rc")))
            out.append("      stdin:  " + rd("stdin")[:400])
            out.append("      stdout: " + rd("stdout")[:400])
            out.append("      stderr: " + rd("stderr")[:600].replace("\n", "\n              "))
        out.append("    --- model requests ---")
        for r in self.model_requests():
            out.append("    %s %s -> %s, tool results: %s, %d bytes" % (
                r.get("method"), r.get("path"), r.get("status"), r.get("tool_results"), len(r.get("body") or "")))
        return "\n".join(out)


def trim_strings(value):
    """`value` with each string cut to TRANSCRIPT_STRING_MAX characters."""
    if isinstance(value, str) and len(value) > TRANSCRIPT_STRING_MAX:
        return value[:TRANSCRIPT_STRING_MAX] + "...[trimmed]"
    if isinstance(value, list):
        return [trim_strings(v) for v in value]
    if isinstance(value, dict):
        return {k: trim_strings(v) for k, v in value.items()}
    return value


def trim_transcript(path):
    """An agent's transcript (JSON or JSONL) as recorded: every line or the
    whole document kept, its long strings (instructions, tool schemas)
    trimmed so the fixture stays a few KB."""
    with open(path) as f:
        text = f.read()
    try:
        return json.dumps(trim_strings(json.loads(text)), indent=2) + "\n"
    except ValueError:
        pass
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.dumps(trim_strings(json.loads(line))))
        except ValueError:
            lines.append(line[:TRANSCRIPT_STRING_MAX])
    return "\n".join(lines) + "\n"


def tail(text, n):
    lines = (text or "").splitlines()
    return "\n".join(lines[-n:])


def indent(text):
    return "\n".join("      " + line for line in text.splitlines())


# ---------------------------------------------------------------- agents


def version_of(agent):
    return os.environ.get(agent.upper() + "_VERSION") or DEFAULT_VERSIONS[agent]


def pinned_versions():
    """The pins of versions.sh (one place for them), e.g. {"claude": "2.1.332"}."""
    with open(os.path.join(HERE, "versions.sh")) as f:
        text = f.read()
    return dict(re.findall(r'^\s*(\w+)\) echo "\$\{\w+_VERSION:-([^}]+)\}"', text, re.M))


DEFAULT_VERSIONS = pinned_versions()


def run_cmd(run, event):
    return "agenthooks run --agent %s --event %s" % (run.agent, event)


# Claude Code
def claude_env(run, port):
    return {
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:%d" % port,
        "ANTHROPIC_API_KEY": "sk-ant-fake",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "IS_SANDBOX": "1",
    }


def claude_manual(run):
    write_json(os.path.join(run.work, ".claude", "settings.json"), {"hooks": {"PreToolUse": [
        {"matcher": "*", "hooks": [{"type": "command", "command": run_cmd(run, "PreToolUse"), "timeout": 60}]}]}})


# Codex
def codex_setup(run, port):
    write(os.path.join(run.codex_home, "config.toml"), """\
model = "%s"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:%d/v1"
wire_api = "responses"
env_key = "FAKE_OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false

[projects.%s]
trust_level = "trusted"
""" % (PATCH_MODEL if run.phase == "patch" else "gpt-5", port, json.dumps(run.work)))


# Codex offers its apply_patch tool only for models whose metadata asks for
# it; "gpt-5" is not in 0.171.0's bundled catalog (it falls back, with no
# tool, and a model may then run `apply_patch <<'PATCH'` as a shell command,
# which reaches hooks as Bash). This one is, with the freeform tool.
PATCH_MODEL = "gpt-5.5"


def codex_manual(run):
    write_json(os.path.join(run.codex_home, "hooks.json"), {"hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "command": run_cmd(run, "PreToolUse"), "timeout": 60}]}]}})


# Gemini CLI
def gemini_setup(run, port):
    write_json(os.path.join(run.home, ".gemini", "settings.json"), {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True},
    })


def gemini_manual(run):
    write_json(os.path.join(run.work, ".gemini", "settings.json"), {
        "hooksConfig": {"enabled": True},
        "hooks": {"BeforeTool": [{"matcher": "*", "hooks": [
            {"name": "agenthooks", "type": "command", "command": run_cmd(run, "BeforeTool"), "timeout": 60000}]}]}})


# Copilot CLI
def copilot_manual(run):
    write_json(os.path.join(run.work, ".github", "hooks", "agenthooks.json"), {"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": run_cmd(run, "preToolUse"), "timeoutSec": 60}]}})


# Qwen Code
def qwen_setup(run, port):
    write_json(os.path.join(run.home, ".qwen", "settings.json"), {"security": {"auth": {"selectedType": "openai"}}})


def qwen_manual(run):
    write_json(os.path.join(run.work, ".qwen", "settings.json"), {"hooks": {"PreToolUse": [
        {"matcher": "*", "hooks": [{"type": "command", "command": run_cmd(run, "PreToolUse"), "timeout": 60000}]}]}})


# OpenCode and Kilo (its fork): a provider in the project config, pointing at
# the fake model's Chat Completions; `external_directory: allow`, or OpenCode
# refuses the rm of a path outside the project by itself (and a deny phase
# would pass with no hook at all).
def opencode_config(port):
    return {
        "provider": {"fake": {
            "npm": "@ai-sdk/openai-compatible", "name": "Fake",
            "options": {"baseURL": "http://127.0.0.1:%d/v1" % port, "apiKey": "fake-key"},
            "models": {"gpt-5": {"name": "gpt-5", "tool_call": True}}}},
        "model": "fake/gpt-5", "small_model": "fake/gpt-5", "autoupdate": False, "share": "disabled",
        "permission": {"bash": "allow", "edit": "allow", "external_directory": "allow"},
    }


def opencode_env(prefix):
    """OpenCode's (OPENCODE_) or Kilo's (KILO_) switches for an offline run. Each
    tries an `npm install` of its plugin package per config dir at start-up;
    a registry on a closed port makes that fail at once instead of retrying."""
    env = {prefix + "_DISABLE_" + what: "1" for what in (
        "AUTOUPDATE", "MODELS_FETCH", "LSP_DOWNLOAD", "SHARE", "DEFAULT_PLUGINS")}
    env.update({"npm_config_registry": "http://127.0.0.1:9/", "npm_config_fetch_retries": "0"})
    return env


def opencode_setup(run, port):
    write_json(os.path.join(run.work, "opencode.json"), opencode_config(port))


def kilo_setup(run, port):
    write_json(os.path.join(run.work, "kilo.json"), opencode_config(port))


# Pi: a provider in the user's models.json.
def pi_setup(run, port):
    write_json(os.path.join(run.home, ".pi", "agent", "models.json"), {"providers": {"fake": {
        "baseUrl": "http://127.0.0.1:%d/v1" % port, "api": "openai-completions", "apiKey": "fake-key",
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [{"id": "gpt-5", "reasoning": False}]}}})


# sema-core 2: an engine library from PyPI, driven by sema_driver.py with the
# venv's Python; its user layer ($SEMA_ROOT) lives in the isolated HOME.
def sema_env(run, port):
    return {
        "SEMA_ROOT": os.path.join(run.home, ".sema"),
        "FAKE_MODEL_BASE_URL": "http://127.0.0.1:%d/v1" % port,
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def sema_setup(run, port):
    """sema-core's Python SDK starts its engine with PATH = node's directory
    plus the PATH of an interactive login shell (`$SHELL -ilc`), not the
    caller's PATH; hooks get that PATH. A user has agenthooks on it through
    their shell profile, as this isolated HOME does."""
    write(os.path.join(run.home, ".bash_profile"), "export PATH=%s:\"$PATH\"\n" % shlex.quote(run.bin_dir))


def sema_manual(run):
    write_json(os.path.join(run.work, ".sema", "hooks", "hooks.json"), {"hooks": {"PreToolUse": [
        {"matcher": "*", "hooks": [{"type": "command", "command": run_cmd(run, "PreToolUse"), "timeout": 60}]}]}})


# Factory Droid: BYOK, a custom model on the fake model's Chat Completions
# (no login, no FACTORY_API_KEY); its id is `custom:<displayName>-<index>`.
# Airgapped, or it tries Factory's endpoints first (3 s become 8 s).
def factory_env(run, port):
    return {"FACTORY_AIRGAP_ENABLED": "1", "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false",
            "FACTORY_DISABLE_KEYRING": "1"}


def factory_setup(run, port):
    write_json(os.path.join(run.home, ".factory", "settings.json"), {
        "customModels": [{"model": "fake-chat", "displayName": "Fake", "baseUrl": "http://127.0.0.1:%d/v1" % port,
                          "apiKey": "fake-key", "provider": "generic-chat-completion-api",
                          "maxOutputTokens": 4096}],
        "autoUpdateEnabled": False})


def factory_manual(run):
    write_json(os.path.join(run.work, ".factory", "settings.json"), {"hooks": {"PreToolUse": [
        {"matcher": "*", "hooks": [{"type": "command", "command": run_cmd(run, "PreToolUse"), "timeout": 60}]}]}})


# Auggie: the fake Augment backend (fake_augment.py) as the tenant, with a
# fake token; its hooks load only because that backend sends `enable_hooks`.
def auggie_env(run, port):
    auth = {"accessToken": "fake", "tenantURL": "http://127.0.0.1:%d/" % port, "scopes": ["email"]}
    return {"AUGMENT_SESSION_AUTH": json.dumps(auth), "AUGMENT_DISABLE_AUTO_UPDATE": "1"}


def auggie_manual(run):
    write_json(os.path.join(run.work, ".augment", "settings.json"), {"hooks": {"PreToolUse": [
        {"matcher": ".*", "hooks": [{"type": "command", "command": run_cmd(run, "PreToolUse"),
                                     "timeout": 60000}]}]}})


def install_only(run):
    """Plugin agents have no hooks config to write by hand: their plugin is
    what `agenthooks install` writes."""
    raise RuntimeError("%s is wired by `agenthooks install` only (its plugin is generated)" % run.agent)


def nothing(run, port):
    pass


AGENTS = {
    "claude": {
        "env": claude_env,
        "setup": nothing,
        "manual": claude_manual,
        # The `broken` phase reads what the user is shown: hook output is
        # in Claude Code's stream-json events (with --verbose), not its json.
        "argv": lambda r: ["claude", "-p", PROMPT, "--permission-mode", "bypassPermissions"]
        + (["--output-format", "stream-json", "--verbose"] if r.phase == "broken" else ["--output-format", "json"]),
        "worktree": ["--worktree", WORKTREE],
        "plugin": lambda d: ["--plugin-dir", d],
    },
    "codex": {
        "env": lambda r, port: {"CODEX_HOME": r.codex_home, "FAKE_OPENAI_API_KEY": "fake-key"},
        "setup": codex_setup,
        "manual": codex_manual,
        # Codex runs only hooks the user reviewed in its TUI (/hooks); headless
        # tests bypass that review (set CODEX_HOOK_TRUST_BYPASS=0 to see it skip them).
        "argv": lambda r: ["codex", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"]
        + ([] if os.environ.get("CODEX_HOOK_TRUST_BYPASS") == "0" else ["--dangerously-bypass-hook-trust"])
        + [PROMPT],
        "apply_patch": True,
    },
    "gemini": {
        "env": lambda r, port: {
            "GEMINI_API_KEY": "fake-key",
            "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:%d" % port,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        },
        "setup": gemini_setup,
        "manual": gemini_manual,
        "argv": lambda r: ["gemini", "-p", PROMPT, "--yolo", "-o", "json"],
    },
    "copilot": {
        "env": lambda r, port: {
            "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:%d/v1" % port,
            "COPILOT_PROVIDER_TYPE": "openai",
            "COPILOT_PROVIDER_API_KEY": "fake-key",
            "COPILOT_MODEL": "gpt-5",
            "COPILOT_OFFLINE": "true",
            "COPILOT_AUTO_UPDATE": "false",
            "COPILOT_ALLOW_ALL": "true",
            # Copilot unpacks ~235 MB on first launch; keep that across runs.
            "XDG_CACHE_HOME": os.path.join(r.cache, "copilot-xdg-cache"),
        },
        # At its agentStop hooks, `copilot -p` has written no events.jsonl
        # yet, or only the session's first events (the view made then was
        # stamped with 1007 bytes); the turn reaches the file after them.
        "late_transcript": "copilot -p writes events.jsonl after agentStop, 1.0.102",
        "setup": nothing,
        "manual": copilot_manual,
        "argv": lambda r: ["copilot", "-p", PROMPT, "--allow-all-tools", "--allow-all-paths", "--no-auto-update",
                           "--disable-client-telemetry"],
    },
    "qwen": {
        "env": lambda r, port: {
            "OPENAI_API_KEY": "fake-key",
            "OPENAI_BASE_URL": "http://127.0.0.1:%d/v1" % port,
            "OPENAI_MODEL": "gpt-4o",
        },
        "setup": qwen_setup,
        "manual": qwen_manual,
        "argv": lambda r: ["qwen", "-p", PROMPT, "--yolo"],
    },
    "opencode": {
        "env": lambda r, port: opencode_env("OPENCODE"),
        "setup": opencode_setup,
        "manual": install_only,
        "argv": lambda r: ["opencode", "run", "--format", "json", PROMPT],
    },
    "kilo": {
        "env": lambda r, port: dict(opencode_env("KILO"), KILO_TELEMETRY_LEVEL="off"),
        "setup": kilo_setup,
        "manual": install_only,
        "argv": lambda r: ["kilo", "run", "--format", "json", PROMPT],
        # Kilo starts slowly (30-60 s on 2 busy cores: its model-list fetch
        # to the Kilo gateway fails first).
        "timeout": 180,
    },
    "pi": {
        "env": lambda r, port: {"PI_OFFLINE": "1", "PI_TELEMETRY": "0"},
        "setup": pi_setup,
        "manual": install_only,
        "argv": lambda r: ["pi", "-p", "--provider", "fake", "--model", "gpt-5", PROMPT],
    },
    "sema": {
        "env": sema_env,
        "setup": sema_setup,
        "manual": sema_manual,
        "argv": lambda r: [os.path.join(r.prefix(), "bin", "python"), os.path.join(HERE, "sema_driver.py"), PROMPT],
    },
    "factory": {
        "env": factory_env,
        "setup": factory_setup,
        "manual": factory_manual,
        # The platform package's native binary (it has no .bin link).
        "bin": os.path.join("node_modules", "@factory", "cli-linux-x64", "bin"),
        "argv": lambda r: ["droid", "exec", "--skip-permissions-unsafe", "-m", "custom:Fake-0", "-o", "json", PROMPT],
        "unfired": {"UserPromptSubmit": "`droid exec` fires none, 0.225.2"},
    },
    "auggie": {
        "env": auggie_env,
        "setup": nothing,
        "manual": auggie_manual,
        "server": "fake_augment.py",
        "server_args": lambda r: ["--cwd", r.work],
        "argv": lambda r: ["auggie", "-p", PROMPT, "--output-format", "json"],
    },
}


def answers_at(binary, agent, event):
    """What `agenthooks agents --json` says `agent` acts on at `event` (the
    table the encoder uses), or None when it cannot say."""
    try:
        res = subprocess.run([binary, "agents", "--json", agent], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30)
        rows = json.loads(res.stdout)[0]["events"]
    except (OSError, ValueError, LookupError, TypeError, subprocess.SubprocessError):
        return None
    return next((set(r.get("answers", [])) for r in rows if r.get("event") == event), None)


# Phases that need answers an agent may not act on: phase -> [(event, answer
# kinds as `agenthooks agents --json` spells them, any one of which will do)].
# A phase is skipped, with the reason, where the agent's row says it cannot.
NEEDS = {
    "rewrite": [("PreToolUse", ("updatedInput",))],
    "context": [("SessionStart", ("context",)), ("UserPromptSubmit", ("context",))],
    "stop": [("Stop", ("block",))],
    # After a tool, agenthooks gives a block's reason as context to an agent
    # that takes context but cannot block there.
    "post": [("PostToolUse", ("block", "context"))],
}


def install_available(binary):
    """Whether this build of agenthooks has the `install` subcommand."""
    try:
        res = subprocess.run([binary, "install", "--help"], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30)
    except OSError:
        return False
    return res.returncode == 0


def precompile(binary, wasm, out):
    """`agenthooks compile` of the wasm phase's component into a cache dir of
    its own; returns that `agenthooks` cache dir, or None when compiling failed
    (the wasm phases then compile on first use and say so in their timings)."""
    base = os.path.join(out, "wasm-cache")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    start = time.time()
    res = subprocess.run([binary, "compile", wasm], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": base, "XDG_CACHE_HOME": base},
                         timeout=600)
    print("real agents: agenthooks compile %s: exit %d, %.1fs: %s" % (
        os.path.basename(wasm), res.returncode, time.time() - start, (res.stdout + res.stderr).strip()), flush=True)
    cache = os.path.join(base, "agenthooks")
    return cache if res.returncode == 0 and os.path.isdir(cache) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="the agenthooks binary")
    ap.add_argument("--cache", required=True, help="where install.sh put the agents")
    ap.add_argument("--out", required=True, help="run dirs go here (wiped per run)")
    ap.add_argument("--agents", default=",".join(AGENTS))
    ap.add_argument("--phases", default=",".join(DEFAULT_PHASES), help="of: " + ",".join(PHASES))
    ap.add_argument("--wiring", choices=["auto", "install", "manual", "none"], default="auto",
                    help="auto: `agenthooks install` when the binary has it, else by hand; "
                         "none: no hooks at all (checks the fake model drives the agent)")
    ap.add_argument("--wasm", help="dangerous-command-guard.wasm, for the wasm phase")
    ap.add_argument("--user-scope", action="store_true",
                    help="`agenthooks install --user`: the agent's user-level config (in the isolated HOME)")
    ap.add_argument("--also-install", default="",
                    help="comma-separated agents whose configs `install` also writes into the project")
    ap.add_argument("--record", help="copy each run's native payloads here (tests/fixtures/agents)")
    ap.add_argument("--timeout", type=int, default=int(os.environ.get("RUN_TIMEOUT", "60")))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("AGENTS_JOBS", "2")),
                    help="runs at once (default AGENTS_JOBS or 2)")
    args = ap.parse_args()

    # A copy of the binary for the whole run: a cargo build elsewhere (a shared
    # target dir) must not swap it out between phases.
    snapshot = os.path.join(os.path.abspath(args.out), "agenthooks-bin")
    shutil.rmtree(snapshot, ignore_errors=True)
    os.makedirs(snapshot)
    binary = os.path.join(snapshot, "agenthooks")
    shutil.copy2(os.path.abspath(args.bin), binary)
    # The front hands wasm, prompt and agent hooks (and every other command)
    # to the engine it finds beside itself.
    engine = os.path.join(os.path.dirname(os.path.abspath(args.bin)), "agenthooks-engine")
    if os.path.exists(engine):
        shutil.copy2(engine, os.path.join(snapshot, "agenthooks-engine"))
    wiring = args.wiring
    if wiring == "auto":
        wiring = "install" if install_available(binary) else "manual"
    print("real agents: agenthooks %s, wiring: %s" % (binary, wiring), flush=True)

    wasm_cache = None
    if "wasm" in args.phases.split(",") and args.wasm:
        wasm_cache = precompile(binary, os.path.abspath(args.wasm), os.path.abspath(args.out))

    # Each run is isolated (its own dirs, HOME and fake model port), so runs
    # go `--jobs` at a time: most of a run is the agent's node start-up on
    # one core. Results are listed in the order asked for.
    plans = []
    for agent in args.agents.split(","):
        if agent not in AGENTS:
            print("unknown agent %r" % agent)
            return 2
        for phase in args.phases.split(","):
            if phase not in PHASES:
                print("unknown phase %r" % phase)
                return 2
            plans.append((agent, phase))

    printing = threading.Lock()

    def one(agent, phase):
        if phase == "plugin" and "plugin" not in AGENTS[agent]:
            with printing:
                print("SKIP %s %s plugin (no option to load a plugin directory)" % (agent, version_of(agent)),
                      flush=True)
            return (agent, phase, None, 0.0, (0, 0.0, 0.0))
        if phase == "patch" and not AGENTS[agent].get("apply_patch"):
            with printing:
                print("SKIP %s %s patch (no apply_patch tool)" % (agent, version_of(agent)), flush=True)
            return (agent, phase, None, 0.0, (0, 0.0, 0.0))
        if phase == "matchers" and agent not in MATCHERS_AGENTS:
            with printing:
                print("SKIP %s %s matchers (install writes no native matcher for it)" % (agent, version_of(agent)),
                      flush=True)
            return (agent, phase, None, 0.0, (0, 0.0, 0.0))
        if phase == "broken" and agent not in BROKEN_AGENTS:
            with printing:
                print("SKIP %s %s broken (its user-visible output is not read here)" % (agent, version_of(agent)),
                      flush=True)
            return (agent, phase, None, 0.0, (0, 0.0, 0.0))
        if phase in BIG_REASON and agent not in BIG_AGENTS:
            with printing:
                print("SKIP %s %s %s (agenthooks caps the reasons it gives this agent: see the unit tests)" % (
                    agent, version_of(agent), phase), flush=True)
            return (agent, phase, None, 0.0, (0, 0.0, 0.0))
        if phase == "worktree" and "worktree" not in AGENTS[agent]:
            with printing:
                print("SKIP %s %s worktree (no option to start in a new worktree)" % (agent, version_of(agent)),
                      flush=True)
            return (agent, phase, None, 0.0, (0, 0.0, 0.0))
        missing = None
        for event, kinds in NEEDS.get(phase, []):
            answers = answers_at(binary, agent, event)
            if answers is not None and not answers.intersection(kinds):
                missing = (event, " or ".join(kinds))
                break
        if missing:
            # Not a pass: the agent cannot do it, and agenthooks says so.
            with printing:
                print("SKIP %s %s %s (`agenthooks agents` says %s takes no %s at %s)" % (
                    agent, version_of(agent), phase, agent, missing[1], missing[0]), flush=True)
            return (agent, phase, None, 0.0, (0, 0.0, 0.0))
        run = Run(agent, phase, os.path.join(os.path.abspath(args.out), "%s-%s" % (agent, phase)),
                  os.path.abspath(args.cache), binary, wiring)
        run.seconds = 0.0
        run.wasm = os.path.abspath(args.wasm) if args.wasm else None
        run.wasm_cache = wasm_cache
        run.user_scope = args.user_scope
        also = list(AGENTS) if phase == "shared" else args.also_install.split(",")
        run.also_install = [a for a in also if a and a != agent]
        try:
            run.execute(max(args.timeout, AGENTS[agent].get("timeout", 0)))
            checks = run.verdict()
        except Exception as e:  # a harness error is a FAIL with its reason, not a crash
            checks = [("harness", False, "%s: %s" % (type(e).__name__, e))]
            run.agent_rc = getattr(run, "agent_rc", None)
            run.agent_out = getattr(run, "agent_out", "")
            run.agent_err = getattr(run, "agent_err", "")
        ok = all(c[1] for c in checks)
        if args.record and ok:
            run.record(os.path.abspath(args.record))
        calls = run.call_stats()
        with printing:
            print("%s %s %s %s (%.1fs; %d agenthooks run calls, mean %.0f ms, max %.0f ms)" % (
                ("PASS" if ok else "FAIL", agent, version_of(agent), phase, run.seconds) + calls), flush=True)
            for name, good, detail in checks:
                print("    [%s] %s: %s" % ("ok" if good else "FAILED", name, detail))
            if not ok:
                print(run.debug_dump(), flush=True)
        return (agent, phase, ok, run.seconds, calls)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda plan: one(*plan), plans))

    passed = sum(1 for r in results if r[2])
    skipped = sum(1 for r in results if r[2] is None)
    failed = len(results) - passed - skipped
    print("\nreal agents summary (wiring: %s):" % wiring)
    for agent, phase, ok, secs, calls in results:
        print("  %-8s %-8s %-7s %s  %5.1fs  %3d calls, mean %4.0f ms, max %4.0f ms" % (
            agent, version_of(agent), phase, {True: "PASS", False: "FAIL", None: "SKIP"}[ok], secs, *calls))
    start = os.environ.get("AGENTS_STEP_START")
    if start:
        print("real agents: npm install %ss, whole step (build, install, runs) %.1fs" % (
            os.environ.get("AGENTS_INSTALL_SECONDS", "?"), time.time() - float(start)))
    # The plain closing line CI reads.
    print("real-agents: %d passed, %d failed" % (passed, failed) + (", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
