#!/usr/bin/env python3
"""The dangerous-command guard as a python3 command hook (a benchmark peer).

Claude Code's protocol: the event JSON on stdin; a deny is a JSON answer on
stdout. Same rules as guest-examples/dangerous-command-guard, on the same
input: recursive rm/chmod/chown/chgrp of /, ~ or a system directory, dd or a
redirect onto a disk device, mkfs, fork bombs, a download piped into a shell.
Words are split the way a shell would (shlex); `sh -c` / eval bodies are not
parsed again (the wasm guard does that too; the benchmark input does not need it).
"""
import json
import re
import shlex
import sys

SYSTEM_DIRS = {"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/proc",
               "/root", "/sbin", "/srv", "/sys", "/usr", "/var", "/Users", "/System",
               "/Applications"}
SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "ash", "fish"}
DOWNLOADERS = {"curl", "wget", "fetch"}
DISKS = ("sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk")
SEPARATORS = {";", "&&", "||", "|", "&", "\n"}


def is_disk(path):
    return path.startswith("/dev/") and path[5:].startswith(DISKS)


def precious(path):
    p = path
    while True:
        for suffix in ("/*", "/.", "/"):
            if p.endswith(suffix):
                p = p[: -len(suffix)]
                break
        else:
            break
    if path.startswith("/") and p in ("", "*"):
        return "`/` (the whole filesystem)"
    if p in ("~", "$HOME", "${HOME}") or (p.startswith("~") and "/" not in p):
        return f"`{path}` (a home directory)"
    if p in SYSTEM_DIRS:
        return f"`{path}` (a system directory)"
    return None


def commands(command):
    """Simple commands: (words, redirect targets, piped into the next)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    out, words, redirects, redirect = [], [], [], False
    for token in lexer:
        if token in SEPARATORS:
            out.append((words, redirects, token == "|"))
            words, redirects = [], []
        elif token in (">", ">>", ">|"):
            redirect = True
        elif redirect:
            redirects.append(token)
            redirect = False
        else:
            words.append(token)
    out.append((words, redirects, False))
    return [c for c in out if c[0] or c[1]]


def recursive(args, flag):
    for a in args:
        if a == "--":
            return False
        if a == "--recursive" or (a.startswith("-") and not a.startswith("--") and flag in a):
            return True
    return False


def operands(args):
    after = False
    for a in args:
        if after:
            yield a
        elif a == "--":
            after = True
        elif not a.startswith("-") or a == "-":
            yield a


def check_one(words, redirects):
    for r in redirects:
        if is_disk(r):
            return f"writing onto the disk device `{r}` destroys it"
    while words and (words[0] in ("sudo", "env", "nohup", "time") or "=" in words[0]):
        words = words[1:]
    if not words:
        return None
    program, args = words[0].rsplit("/", 1)[-1], words[1:]
    if program == "rm" and (recursive(args, "r") or recursive(args, "R")):
        for o in operands(args):
            what = precious(o)
            if what:
                return f"refusing a recursive delete of {what}"
    if program in ("chmod", "chown", "chgrp") and recursive(args, "R"):
        for o in operands(args):
            what = precious(o)
            if what:
                return f"refusing a recursive `{program}` of {what}"
    if program == "dd":
        for a in args:
            if a.startswith("of=") and is_disk(a[3:]):
                return f"`dd` onto the disk device `{a[3:]}` destroys it"
    if program.startswith("mkfs") or program == "mke2fs":
        return f"`{program}` formats a filesystem, erasing it"
    return None


def check(command):
    squeezed = "".join(command.split())
    for m in re.finditer(r"([A-Za-z_:.][A-Za-z0-9_:.-]*)\(\)\{", squeezed):
        name = m.group(1)
        if squeezed[m.end():].startswith(f"{name}|{name}&"):
            return f"`{name}(){{ {name}|{name}& }}` is a fork bomb"
    try:
        cmds = commands(command)
    except ValueError:
        return None
    for i, (words, redirects, _) in enumerate(cmds):
        why = check_one(words, redirects)
        if why:
            return why
        program = words[0].rsplit("/", 1)[-1] if words else ""
        if program in SHELLS:
            j = i
            while j > 0 and cmds[j - 1][2]:
                j -= 1
                d = cmds[j][0][0].rsplit("/", 1)[-1] if cmds[j][0] else ""
                if d in DOWNLOADERS:
                    return f"piping a `{d}` download into `{program}` runs unreviewed code"
            for a in words[1:]:
                m = re.search(r"(\$\(|`|<\()\s*(curl|wget|fetch)\b", a)
                if m:
                    return f"running a `{m.group(2)}` download with `{program}` runs unreviewed code"
    return None


def main():
    event = json.load(sys.stdin)
    if event.get("hook_event_name") not in ("PreToolUse", "PermissionRequest"):
        return
    command = (event.get("tool_input") or {}).get("command")
    if not isinstance(command, str):
        return
    why = check(command)
    if why:
        json.dump({"hookSpecificOutput": {
            "hookEventName": event["hook_event_name"],
            "permissionDecision": "deny",
            "permissionDecisionReason": f"dangerous-command-guard: {why}",
        }}, sys.stdout, separators=(",", ":"))


main()
