"use strict";
// Runs this platform's native binary with this process's arguments and
// stdio, and ends as it ended (its exit code, or the same signal).
const { spawnSync } = require("node:child_process");
const { nativeBinary } = require("./platform.js");

module.exports = function launch(name) {
  const binary = nativeBinary(name);
  if (binary instanceof Error) {
    console.error(binary.message);
    process.exit(2);
  }
  const ran = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
  if (ran.error) {
    console.error(`agenthooks: cannot start ${binary}: ${ran.error.message}; reinstall: npm install -g agenthooks`);
    process.exit(2);
  }
  if (ran.signal) {
    process.kill(process.pid, ran.signal);
  }
  process.exit(ran.status ?? 1);
};
