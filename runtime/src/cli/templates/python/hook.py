"""{{name}}: an agenthooks hook in Python.

The hook is the plain function below; ``agenthooks.component`` makes it the
component's export, and run as a script it is a Claude Code command hook
(stdin to stdout).

- test:      ``python3 -m pytest`` (the recorded events in ``events/``)
- component: ``agenthooks build {{name}}`` (from the project), or here:
  ``componentize-py -d wit -w hook componentize -p . hook -o ../{{name}}.wasm``
  (once: ``pip install -r requirements.txt``); commit the ``.wasm``.
- command:   ``python3 hook.py`` reads one hook input on stdin.
"""

import sys

import agenthooks
from agenthooks import Answer, Event, commands


def hook(event: Event) -> Answer:
    """Deny ``git push --force`` (and ``-f``); say nothing about anything else."""
    if event.name != "PreToolUse":
        return Answer.none()
    command = event.shell_command()
    if command is None:
        return Answer.none()
    for c in commands(command):
        args = c.args()
        if c.program() == "git" and args[:1] == ["push"] and ("--force" in args or "-f" in args):
            return Answer.deny("{{name}}: force-pushing rewrites shared history; push without --force")
    return Answer.none()


WitWorld = agenthooks.component(hook)

if __name__ == "__main__":
    sys.exit(agenthooks.run_native(hook))
