// The shared case table (guest-examples/cases.json) against the JavaScript
// examples, natively: `node --test` here.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { Event } from "./agenthooks.js";
import { guard } from "./dangerous-command-guard.js";
import { protect } from "./protected-paths.js";

const HOOKS = { "dangerous-command-guard": guard, "protected-paths": protect };
const cases = JSON.parse(readFileSync(new URL("../cases.json", import.meta.url), "utf8")).cases;

test("every case gets the table's answer", () => {
  const wrong = [];
  for (const c of cases) {
    const event = Event.fromJson({ hook_event_name: c.event, tool_name: c.tool, tool_input: c.tool_input });
    const a = HOOKS[c.hook](event);
    const got = a.permission === "deny" ? a.reason : a.isNone() ? null : JSON.stringify(a);
    if (got !== c.deny) wrong.push(`${c.hook} ${JSON.stringify(c.tool_input)}: expected ${c.deny}, got ${got}`);
  }
  assert.deepEqual(wrong, []);
});

test("the table has both answers for both hooks", () => {
  for (const hook of Object.keys(HOOKS)) {
    assert.ok(cases.some((c) => c.hook === hook && c.deny));
    assert.ok(cases.some((c) => c.hook === hook && c.deny === null));
  }
});
