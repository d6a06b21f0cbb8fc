"""dangerous-command-guard, in Python: the Rust example's rules and reasons
(``guest-examples/dangerous-command-guard``), checked against the same case
table (``guest-examples/cases.json``).

Denies a recursive ``rm``/``chmod``/``chown``/``chgrp`` of ``/``, ``~`` or a
system directory, ``dd``/redirection onto a disk device, ``mkfs*``, fork bombs,
and a download piped into a shell; says nothing about anything else. Each line
of ``AGENTHOOKS_GUARD_EXTRA`` (when granted: ``"allow": {"env": [...]}``) is an
extra regex tested against the whole command.

Build: ``componentize-py -d ../../wit -w hook componentize -p .
dangerous_command_guard -o dangerous-command-guard.wasm``.
"""

import os
import re
import sys

import agenthooks
from agenthooks import Answer, Event, HookError, commands

EXTRA_VAR = "AGENTHOOKS_GUARD_EXTRA"
SYSTEM_DIRS = {
    "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/proc", "/root",
    "/sbin", "/srv", "/sys", "/usr", "/var", "/Users", "/System", "/Applications",
}
SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "ash", "fish"}
DOWNLOADERS = {"curl", "wget", "fetch"}
DISKS = ("sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk")
DEFINITION = re.compile(r"([A-Za-z_:.][A-Za-z0-9_:.-]*)\(\)\{")
SUBSTITUTION = re.compile(r"(\$\(|`|<\()\s*(curl|wget|fetch)\b")


def guard(event: Event) -> Answer:
    if event.name not in ("PreToolUse", "PermissionRequest"):
        return Answer.none()
    command = event.shell_command()
    if command is None:
        return Answer.none()
    extra = parse_extra(os.environ.get(EXTRA_VAR, ""))
    why = check(command, extra)
    return Answer.none() if why is None else Answer.deny(f"dangerous-command-guard: {why}")


def parse_extra(text):
    patterns = []
    for line in (l.strip() for l in text.splitlines()):
        if not line:
            continue
        try:
            patterns.append(re.compile(line))
        except re.error as e:
            raise HookError(f"{EXTRA_VAR}: invalid pattern `{line}`: {e}")
    return patterns


def check(command, extra):
    for p in extra:
        if p.search(command):
            return f"the command matches the blocked pattern `{p.pattern}`"
    name = fork_bomb(command)
    if name is not None:
        return f"`{name}(){{ {name}|{name}& }}` is a fork bomb"
    cs = commands(command)
    for i, c in enumerate(cs):
        why = check_one(c) or download_into_shell(cs, i)
        if why:
            return why
    return None


def check_one(c):
    disk = next((r for r in c.redirects if is_disk(r)), None)
    if disk is not None:
        return f"writing onto the disk device `{disk}` destroys it"
    program = c.program()
    if program is None:
        return None
    args = c.args()
    if program == "rm" and (recursive(args, "r") or recursive(args, "R")):
        what = first(precious(o) for o in operands(args))
        return None if what is None else f"refusing a recursive delete of {what}"
    if program in ("chmod", "chown", "chgrp") and recursive(args, "R"):
        what = first(precious(o) for o in operands(args))
        return None if what is None else f"refusing a recursive `{program}` of {what}"
    if program == "dd":
        disk = next((a[3:] for a in args if a.startswith("of=") and is_disk(a[3:])), None)
        return None if disk is None else f"`dd` onto the disk device `{disk}` destroys it"
    if program.startswith("mkfs") or program == "mke2fs":
        return f"`{program}` formats a filesystem, erasing it"
    return None


def first(items):
    return next((x for x in items if x is not None), None)


def recursive(args, flag):
    for a in args:
        if a == "--":
            break
        if a == "--recursive" or (a.startswith("-") and not a.startswith("--") and flag in a):
            return True
    return False


def operands(args):
    after_dashes = False
    for a in args:
        if after_dashes:
            yield a
        elif a == "--":
            after_dashes = True
        elif not a.startswith("-") or a == "-":
            yield a


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
    return f"`{path}` (a system directory)" if p in SYSTEM_DIRS else None


def is_disk(path):
    return path.startswith("/dev/") and path[5:].startswith(DISKS)


def fork_bomb(command):
    squeezed = "".join(ch for ch in command if not ch.isspace())
    if "(){" not in squeezed:
        return None
    for m in DEFINITION.finditer(squeezed):
        name = m.group(1)
        if squeezed[m.end():].startswith(f"{name}|{name}&"):
            return name
    return None


def download_into_shell(cs, i):
    c = cs[i]
    shell = c.program()
    if shell not in SHELLS:
        return None
    j = i
    while cs[j].piped and j > 0:
        j -= 1
        d = cs[j].program()
        if d in DOWNLOADERS:
            return f"piping a `{d}` download into `{shell}` runs unreviewed code"
    for a in c.args():
        m = SUBSTITUTION.search(a)
        if m:
            return f"running a `{m.group(2)}` download with `{shell}` runs unreviewed code"
    return None


WitWorld = agenthooks.component(guard)

if __name__ == "__main__":
    sys.exit(agenthooks.run_native(guard))
