"""The hook against events recorded from Claude Code (``events/``): ``python3 -m pytest``."""

import json
import os

from agenthooks import Event, Permission
from hook import hook

EVENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "events")


def recorded(name):
    with open(os.path.join(EVENTS, name), encoding="utf-8") as f:
        return Event.from_json(json.load(f))


def test_denies_a_force_push():
    answer = hook(recorded("force-push.json"))
    assert answer.permission == Permission.DENY
    assert "push without --force" in answer.reason


def test_says_nothing_about_a_plain_push():
    assert hook(recorded("plain-push.json")).is_none()
