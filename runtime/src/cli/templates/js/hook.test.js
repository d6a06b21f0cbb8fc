// The hook against events recorded from Claude Code (events/): `npm test`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { Event } from "./agenthooks.js";
import { hook } from "./hook.js";

const recorded = (name) => Event.fromJson(readFileSync(new URL(`events/${name}`, import.meta.url), "utf8"));

test("denies a force push", () => {
  const answer = hook(recorded("force-push.json"));
  assert.equal(answer.permission, "deny");
  assert.match(answer.reason, /push without --force/);
});

test("says nothing about a plain push", () => {
  assert.ok(hook(recorded("plain-push.json")).isNone());
});
