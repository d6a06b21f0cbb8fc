"use strict";
// npm's install script for `agenthooks` (the pattern esbuild uses): puts
// this platform's native binaries where package.json's `bin` points, in
// place of the node launchers, so `agenthooks` on PATH is the native binary
// and no hook event starts node. The front finds `agenthooks-engine` beside
// itself, so both are placed. Hard links when the package and the platform
// package share a file system (no second copy), else copies; each placed
// atomically (written beside, then renamed).
//
// Where it cannot (Windows, whose npm wraps `bin` in a `.cmd` calling node;
// a platform package missing), it leaves the launchers, which still work:
// `agenthooks status` then notes that every event starts node first.
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { nativeBinary } = require("./lib/platform.js");

function place(name) {
  const source = nativeBinary(name);
  if (source instanceof Error) throw source;
  const target = path.join(__dirname, "bin", name);
  const temp = `${target}.installing`;
  fs.rmSync(temp, { force: true });
  try {
    fs.linkSync(source, temp);
  } catch {
    fs.copyFileSync(source, temp);
  }
  fs.chmodSync(temp, 0o755);
  fs.renameSync(temp, target);
  return target;
}

function main() {
  if (process.platform === "win32") return;
  try {
    // It must run here before it replaces anything.
    const front = nativeBinary("agenthooks");
    if (front instanceof Error) throw front;
    execFileSync(front, ["--version"], { stdio: "ignore" });
    // The engine first: the front is never there without it.
    place("agenthooks-engine");
    place("agenthooks");
  } catch (err) {
    console.warn(`agenthooks: kept the node launchers (every event starts node first): ${err.message}`);
  }
}

main();
