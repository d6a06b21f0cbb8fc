// {{name}}: an agenthooks hook in JavaScript.
//
// The hook is the plain function below; `exportHook` makes it the
// component's `handle` export, and `node hook.js` runs it as a Claude Code
// command hook (stdin to stdout).
//
// - test:      `npm test` (the recorded events in `events/`)
// - component: `agenthooks build {{name}}` (from the project), or here:
//   `npm run build` (once: `npm install`); commit `../{{name}}.wasm`.
// - command:   `node hook.js` reads one hook input on stdin.

import { Answer, commands, exportHook, runNative } from "./agenthooks.js";

/** Deny `git push --force` (and `-f`); say nothing about anything else. */
export function hook(event) {
  if (event.name !== "PreToolUse") return Answer.none();
  const command = event.shellCommand();
  if (command === undefined) return Answer.none();
  for (const c of commands(command)) {
    const args = c.args();
    if (c.program() === "git" && args[0] === "push" && (args.includes("--force") || args.includes("-f"))) {
      return Answer.deny("{{name}}: force-pushing rewrites shared history; push without --force");
    }
  }
  return Answer.none();
}

export const handle = exportHook(hook);

// Natively (node), run as a command hook; inside the component there is no `process`.
if (globalThis.process?.argv?.[1]?.endsWith("hook.js")) runNative(hook);
