#!/usr/bin/env python3
"""Drives the sema-core 2 engine (PyPI `sema-core`) headless, for harness.py.

sema-core is a library, not a CLI: this is the smallest host that runs one
turn. It starts the engine in the current directory (where
`.sema/hooks/hooks.json` is), adds the fake model's OpenAI-compatible
endpoint (`FAKE_MODEL_BASE_URL`) as the model, sends the prompt (argv[1]),
waits until the session is idle again, gives the turn's Stop hook a moment
(the engine reports idle before it runs it), and closes (SessionEnd).

Exit 0 when the turn ran, 1 on an engine error (printed), 2 on a timeout.
Run it with the Python of the venv sema-core is installed in.
"""

import asyncio
import json
import os
import sys

from sema_core import SemaCore

TURN_TIMEOUT = float(os.environ.get("SEMA_TURN_TIMEOUT", "45"))


async def main(prompt):
    core = await SemaCore.start({
        "workingDir": os.getcwd(),
        "logLevel": "warn",
        "stream": True,
        # The engine's own permission prompts would wait for a user: only the
        # hooks decide here, as in the other agents' headless runs.
        "skipShellExecPermission": True,
        "skipFileEditPermission": True,
        "disableTopicDetection": True,
        "disableBackgroundTasks": True,
    })
    try:
        await core.add_model({
            "provider": "openai",
            "modelName": "gpt-5",
            "baseURL": os.environ["FAKE_MODEL_BASE_URL"],
            "apiKey": "fake-key",
            "maxTokens": 4096,
            "contextLength": 128000,
            "adapt": "openai",
        }, skip_validation=True)
        session = await core.create_session()
        errors = []
        session.on("session:error", lambda data: errors.append(data))
        idle = asyncio.get_running_loop().create_future()

        def on_state(data):
            state = (data or {}).get("state") if isinstance(data, dict) else data
            if state == "idle" and busy[0] and not idle.done():
                idle.set_result(True)
            elif state not in (None, "idle"):
                busy[0] = True

        busy = [False]
        session.on("state:update", on_state)
        await session.process_user_input(prompt)
        try:
            await asyncio.wait_for(idle, TURN_TIMEOUT)
        except asyncio.TimeoutError:
            print("sema driver: no idle after %.0fs" % TURN_TIMEOUT, file=sys.stderr)
            return 2
        # Stop hooks run after idle is reported.
        await asyncio.sleep(1.5)
        for e in errors:
            print("sema driver: session:error %s" % json.dumps(e), file=sys.stderr)
        print(json.dumps({"ok": True, "errors": len(errors)}))
        return 0
    finally:
        await core.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
