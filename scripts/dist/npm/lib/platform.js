"use strict";
// Where this machine's native binaries are: in the optional dependency npm
// installed for this platform (`@agenthooks/<os>-<cpu>`, see package.json).
const path = require("node:path");

// The platforms with a package, as `${process.platform}-${process.arch}`.
const PACKAGES = require("./packages.json");

function platformKey() {
  return `${process.platform}-${process.arch}`;
}

// The native binary `name` (`agenthooks` or `agenthooks-engine`), or an
// Error whose message is the one line that says what is wrong and the fix.
function nativeBinary(name) {
  const key = platformKey();
  const pkg = PACKAGES[key];
  if (!pkg) {
    return new Error(
      `agenthooks: no prebuilt binary for ${key}; build it from source: cargo install --locked --git https://github.com/agenthooks/agenthooks agenthooks`
    );
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    return new Error(
      `agenthooks: the package ${pkg} (this platform's binaries) is not installed; reinstall without --omit=optional: npm install -g agenthooks`
    );
  }
  return path.join(dir, "bin", name + (process.platform === "win32" ? ".exe" : ""));
}

module.exports = { nativeBinary, platformKey, PACKAGES };
