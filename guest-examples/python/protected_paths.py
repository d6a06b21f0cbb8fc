"""protected-paths, in Python: the Rust example's rules and reasons
(``guest-examples/protected-paths``), checked against the same case table
(``guest-examples/cases.json``).

Denies writing tools (kind ``write``) on ``.env``/``.env.*``/``.envrc`` (not
``.env.example``/``.sample``/``.template``), private keys (``*.pem``, ``*.key``,
``id_rsa*``, ``id_dsa*``, ``id_ecdsa*``, ``id_ed25519*``) and anything under a
``.git`` directory. It needs no grants: it judges the path the agent names.

Build: ``componentize-py -d ../../wit -w hook componentize -p .
protected_paths -o protected-paths.wasm``.
"""

import re
import sys

import agenthooks
from agenthooks import Answer, Event, ToolKind

ENV_DOCS = (".env.example", ".env.sample", ".env.template")
KEY_PREFIXES = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519")


def protect(event: Event) -> Answer:
    if event.name not in ("PreToolUse", "PermissionRequest") or event.tool_kind != ToolKind.WRITE:
        return Answer.none()
    path = event.file_path()
    why = None if path is None else why_protected(path)
    if why is None:
        return Answer.none()
    return Answer.deny(f"protected-paths: `{path}` is {why}; edit it yourself if you must")


def why_protected(path):
    # Agents on Windows send backslashes.
    parts = [p for p in re.split(r"[/\\]", path) if p]
    if not parts:
        return None
    name, dirs = parts[-1], parts[:-1]
    if ".git" in dirs:
        return "inside `.git/`, git's own files"
    lower = "".join(c.lower() if c.isascii() else c for c in name)
    if (lower == ".env" or lower.startswith(".env.") or lower == ".envrc") and lower not in ENV_DOCS:
        return "an environment file, which holds secrets"
    if lower.endswith(".pem") or lower.endswith(".key") or lower.startswith(KEY_PREFIXES):
        return "a private key"
    return None


WitWorld = agenthooks.component(protect)

if __name__ == "__main__":
    sys.exit(agenthooks.run_native(protect))
