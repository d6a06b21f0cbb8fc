"""The shared case table (``guest-examples/cases.json``) against the Python
examples, natively: ``python3 -m pytest`` here (or ``python3 test_cases.py``
where pytest is not installed)."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from agenthooks import Event, Permission  # noqa: E402
import dangerous_command_guard  # noqa: E402
import protected_paths  # noqa: E402

HOOKS = {
    "dangerous-command-guard": dangerous_command_guard.guard,
    "protected-paths": protected_paths.protect,
}


def load_cases():
    with open(os.path.join(HERE, "..", "cases.json"), encoding="utf-8") as f:
        return json.load(f)["cases"]


def answer(case):
    event = Event.from_json(
        {"hook_event_name": case["event"], "tool_name": case["tool"], "tool_input": case["tool_input"]}
    )
    return HOOKS[case["hook"]](event)


def test_every_case_gets_the_tables_answer():
    wrong = []
    for case in load_cases():
        a = answer(case)
        got = a.reason if a.permission == Permission.DENY else (None if a.is_none() else repr(a))
        if got != case["deny"]:
            wrong.append(f"{case['hook']} {case['tool_input']}: expected {case['deny']!r}, got {got!r}")
    assert not wrong, "\n".join(wrong)


def test_the_table_has_both_answers_for_both_hooks():
    cases = load_cases()
    for hook in HOOKS:
        assert any(c["hook"] == hook and c["deny"] for c in cases)
        assert any(c["hook"] == hook and c["deny"] is None for c in cases)


if __name__ == "__main__":
    test_every_case_gets_the_tables_answer()
    test_the_table_has_both_answers_for_both_hooks()
    print("ok")
