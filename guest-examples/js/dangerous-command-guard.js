// dangerous-command-guard, in JavaScript: the Rust example's rules and reasons
// (guest-examples/dangerous-command-guard), checked against the same case
// table (guest-examples/cases.json).
//
// Denies a recursive rm/chmod/chown/chgrp of `/`, `~` or a system directory,
// dd/redirection onto a disk device, mkfs*, fork bombs, and a download piped
// into a shell; says nothing about anything else.
//
// Build: npx componentize-js dangerous-command-guard.js --wit ../../wit
//   --world-name hook --disable http --disable fetch-event -o dangerous-command-guard.wasm

import { Answer, commands, exportHook } from "./agenthooks.js";

const SYSTEM_DIRS = new Set([
  "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/proc", "/root",
  "/sbin", "/srv", "/sys", "/usr", "/var", "/Users", "/System", "/Applications",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "fish"]);
const DOWNLOADERS = new Set(["curl", "wget", "fetch"]);
const DISKS = ["sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk"];

export function guard(event) {
  if (event.name !== "PreToolUse" && event.name !== "PermissionRequest") return Answer.none();
  const command = event.shellCommand();
  if (command === undefined) return Answer.none();
  const why = check(command);
  return why === undefined ? Answer.none() : Answer.deny(`dangerous-command-guard: ${why}`);
}

export function check(command) {
  const name = forkBomb(command);
  if (name !== undefined) return `\`${name}(){ ${name}|${name}& }\` is a fork bomb`;
  const cs = commands(command);
  for (let i = 0; i < cs.length; i++) {
    const why = checkOne(cs[i]) ?? downloadIntoShell(cs, i);
    if (why !== undefined) return why;
  }
  return undefined;
}

function checkOne(c) {
  const disk = c.redirects.find(isDisk);
  if (disk !== undefined) return `writing onto the disk device \`${disk}\` destroys it`;
  const program = c.program();
  if (program === undefined) return undefined;
  const args = c.args();
  if (program === "rm" && (recursive(args, "r") || recursive(args, "R"))) {
    const what = firstPrecious(args);
    return what === undefined ? undefined : `refusing a recursive delete of ${what}`;
  }
  if (["chmod", "chown", "chgrp"].includes(program) && recursive(args, "R")) {
    const what = firstPrecious(args);
    return what === undefined ? undefined : `refusing a recursive \`${program}\` of ${what}`;
  }
  if (program === "dd") {
    const disk = args.filter((a) => a.startsWith("of=")).map((a) => a.slice(3)).find(isDisk);
    return disk === undefined ? undefined : `\`dd\` onto the disk device \`${disk}\` destroys it`;
  }
  if (program.startsWith("mkfs") || program === "mke2fs") return `\`${program}\` formats a filesystem, erasing it`;
  return undefined;
}

function recursive(args, flag) {
  for (const a of args) {
    if (a === "--") break;
    if (a === "--recursive" || (a.startsWith("-") && !a.startsWith("--") && a.includes(flag))) return true;
  }
  return false;
}

function firstPrecious(args) {
  let afterDashes = false;
  for (const a of args) {
    let operand;
    if (afterDashes) operand = a;
    else if (a === "--") afterDashes = true;
    else if (!a.startsWith("-") || a === "-") operand = a;
    const what = operand === undefined ? undefined : precious(operand);
    if (what !== undefined) return what;
  }
  return undefined;
}

function precious(path) {
  let p = path;
  for (;;) {
    const suffix = ["/*", "/.", "/"].find((s) => p.endsWith(s));
    if (suffix === undefined) break;
    p = p.slice(0, p.length - suffix.length);
  }
  if (path.startsWith("/") && (p === "" || p === "*")) return "`/` (the whole filesystem)";
  if (["~", "$HOME", "${HOME}"].includes(p) || (p.startsWith("~") && !p.includes("/"))) {
    return `\`${path}\` (a home directory)`;
  }
  return SYSTEM_DIRS.has(p) ? `\`${path}\` (a system directory)` : undefined;
}

function isDisk(path) {
  return path.startsWith("/dev/") && DISKS.some((d) => path.slice(5).startsWith(d));
}

function forkBomb(command) {
  const squeezed = command.replace(/\s/gu, "");
  if (!squeezed.includes("(){")) return undefined;
  for (const m of squeezed.matchAll(/([A-Za-z_:.][A-Za-z0-9_:.-]*)\(\)\{/g)) {
    const name = m[1];
    if (squeezed.slice(m.index + m[0].length).startsWith(`${name}|${name}&`)) return name;
  }
  return undefined;
}

function downloadIntoShell(cs, i) {
  const c = cs[i];
  const shell = c.program();
  if (!SHELLS.has(shell)) return undefined;
  let j = i;
  while (cs[j].piped && j > 0) {
    j -= 1;
    const d = cs[j].program();
    if (DOWNLOADERS.has(d)) return `piping a \`${d}\` download into \`${shell}\` runs unreviewed code`;
  }
  for (const a of c.args()) {
    const m = /(\$\(|`|<\()\s*(curl|wget|fetch)\b/.exec(a);
    if (m) return `running a \`${m[2]}\` download with \`${shell}\` runs unreviewed code`;
  }
  return undefined;
}

export const handle = exportHook(guard);
