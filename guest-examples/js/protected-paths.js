// protected-paths, in JavaScript: the Rust example's rules and reasons
// (guest-examples/protected-paths), checked against the same case table
// (guest-examples/cases.json).
//
// Denies writing tools (kind `write`) on .env/.env.*/.envrc (not
// .env.example/.sample/.template), private keys (*.pem, *.key, id_rsa*,
// id_dsa*, id_ecdsa*, id_ed25519*) and anything under a .git directory.
//
// Build: npx componentize-js protected-paths.js --wit ../../wit
//   --world-name hook --disable http --disable fetch-event -o protected-paths.wasm

import { Answer, exportHook } from "./agenthooks.js";

const ENV_DOCS = [".env.example", ".env.sample", ".env.template"];
const KEY_PREFIXES = ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];

export function protect(event) {
  if ((event.name !== "PreToolUse" && event.name !== "PermissionRequest") || event.toolKind !== "write") {
    return Answer.none();
  }
  const path = event.filePath();
  const why = path === undefined ? undefined : whyProtected(path);
  if (why === undefined) return Answer.none();
  return Answer.deny(`protected-paths: \`${path}\` is ${why}; edit it yourself if you must`);
}

function whyProtected(path) {
  // Agents on Windows send backslashes.
  const parts = path.split(/[/\\]/).filter((p) => p !== "");
  if (parts.length === 0) return undefined;
  const name = parts[parts.length - 1];
  if (parts.slice(0, -1).includes(".git")) return "inside `.git/`, git's own files";
  const lower = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if ((lower === ".env" || lower.startsWith(".env.") || lower === ".envrc") && !ENV_DOCS.includes(lower)) {
    return "an environment file, which holds secrets";
  }
  if (lower.endsWith(".pem") || lower.endsWith(".key") || KEY_PREFIXES.some((p) => lower.startsWith(p))) {
    return "a private key";
  }
  return undefined;
}

export const handle = exportHook(protect);
