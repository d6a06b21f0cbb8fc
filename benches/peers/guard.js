#!/usr/bin/env node
// The dangerous-command guard as a node command hook (a benchmark peer).
//
// Claude Code's protocol: the event JSON on stdin; a deny is a JSON answer on
// stdout. The same rules as guard.py and guest-examples/dangerous-command-guard,
// with a small shell tokenizer (quotes, separators, redirects).
"use strict";

const SYSTEM_DIRS = new Set(["/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt",
  "/proc", "/root", "/sbin", "/srv", "/sys", "/usr", "/var", "/Users", "/System", "/Applications"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "fish"]);
const DOWNLOADERS = new Set(["curl", "wget", "fetch"]);
const DISKS = ["sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk"];
const SEPARATORS = new Set([";", "&&", "||", "|", "&", "\n"]);

const isDisk = (p) => p.startsWith("/dev/") && DISKS.some((d) => p.slice(5).startsWith(d));

function precious(path) {
  let p = path;
  for (;;) {
    const s = ["/*", "/.", "/"].find((x) => p.endsWith(x));
    if (!s) break;
    p = p.slice(0, p.length - s.length);
  }
  if (path.startsWith("/") && (p === "" || p === "*")) return "`/` (the whole filesystem)";
  if (["~", "$HOME", "${HOME}"].includes(p) || (p.startsWith("~") && !p.includes("/")))
    return `\`${path}\` (a home directory)`;
  if (SYSTEM_DIRS.has(p)) return `\`${path}\` (a system directory)`;
  return null;
}

// Tokens: words (quotes removed) and operators.
function tokens(command) {
  const out = [];
  let word = null;
  let i = 0;
  const flush = () => { if (word !== null) { out.push({ word }); word = null; } };
  while (i < command.length) {
    const c = command[i];
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      if (end < 0) return null;
      word = (word || "") + command.slice(i + 1, end);
      i = end + 1;
    } else if (/\s/.test(c) && c !== "\n") {
      flush(); i++;
    } else {
      const op = [">>", ">|", "&&", "||", ";", "&", "|", ">", "<", "\n"].find((o) => command.startsWith(o, i));
      if (op) { flush(); out.push({ op }); i += op.length; } else { word = (word || "") + c; i++; }
    }
  }
  flush();
  return out;
}

function commands(command) {
  const toks = tokens(command);
  if (!toks) return [];
  const out = [];
  let cur = { words: [], redirects: [], piped: false };
  let redirect = false;
  for (const t of toks) {
    if (t.op && SEPARATORS.has(t.op)) {
      cur.piped = t.op === "|"; out.push(cur);
      cur = { words: [], redirects: [], piped: false };
    } else if (t.op === ">" || t.op === ">>" || t.op === ">|") {
      redirect = true;
    } else if (t.op) {
      // `<`: the next word is an input file, kept as a word like the shell's view of it.
    } else if (redirect) {
      cur.redirects.push(t.word); redirect = false;
    } else {
      cur.words.push(t.word);
    }
  }
  out.push(cur);
  return out.filter((c) => c.words.length || c.redirects.length);
}

function recursive(args, flag) {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "--recursive" || (a.startsWith("-") && !a.startsWith("--") && a.includes(flag))) return true;
  }
  return false;
}

function operands(args) {
  const out = [];
  let after = false;
  for (const a of args) {
    if (after) out.push(a);
    else if (a === "--") after = true;
    else if (!a.startsWith("-") || a === "-") out.push(a);
  }
  return out;
}

const base = (w) => (w || "").split("/").pop();

function checkOne({ words, redirects }) {
  const disk = redirects.find(isDisk);
  if (disk) return `writing onto the disk device \`${disk}\` destroys it`;
  while (words.length && (["sudo", "env", "nohup", "time"].includes(words[0]) || words[0].includes("="))) words = words.slice(1);
  if (!words.length) return null;
  const program = base(words[0]);
  const args = words.slice(1);
  if (program === "rm" && (recursive(args, "r") || recursive(args, "R"))) {
    for (const o of operands(args)) { const w = precious(o); if (w) return `refusing a recursive delete of ${w}`; }
  }
  if (["chmod", "chown", "chgrp"].includes(program) && recursive(args, "R")) {
    for (const o of operands(args)) { const w = precious(o); if (w) return `refusing a recursive \`${program}\` of ${w}`; }
  }
  if (program === "dd") {
    const a = args.find((x) => x.startsWith("of=") && isDisk(x.slice(3)));
    if (a) return `\`dd\` onto the disk device \`${a.slice(3)}\` destroys it`;
  }
  if (program.startsWith("mkfs") || program === "mke2fs") return `\`${program}\` formats a filesystem, erasing it`;
  return null;
}

function check(command) {
  const squeezed = command.replace(/\s+/g, "");
  for (const m of squeezed.matchAll(/([A-Za-z_:.][A-Za-z0-9_:.-]*)\(\)\{/g)) {
    const name = m[1];
    if (squeezed.slice(m.index + m[0].length).startsWith(`${name}|${name}&`))
      return `\`${name}(){ ${name}|${name}& }\` is a fork bomb`;
  }
  const cmds = commands(command);
  for (let i = 0; i < cmds.length; i++) {
    const why = checkOne(cmds[i]);
    if (why) return why;
    const program = base(cmds[i].words[0]);
    if (SHELLS.has(program)) {
      for (let j = i; j > 0 && cmds[j - 1].piped; j--) {
        const d = base(cmds[j - 1].words[0]);
        if (DOWNLOADERS.has(d)) return `piping a \`${d}\` download into \`${program}\` runs unreviewed code`;
      }
      for (const a of cmds[i].words.slice(1)) {
        const m = /(\$\(|`|<\()\s*(curl|wget|fetch)\b/.exec(a);
        if (m) return `running a \`${m[2]}\` download with \`${program}\` runs unreviewed code`;
      }
    }
  }
  return null;
}

const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const name = event.hook_event_name;
  if (name !== "PreToolUse" && name !== "PermissionRequest") return;
  const command = (event.tool_input || {}).command;
  if (typeof command !== "string") return;
  const why = check(command);
  if (why) {
    process.stdout.write(JSON.stringify({ hookSpecificOutput: {
      hookEventName: name, permissionDecision: "deny",
      permissionDecisionReason: `dangerous-command-guard: ${why}`,
    } }));
  }
});
