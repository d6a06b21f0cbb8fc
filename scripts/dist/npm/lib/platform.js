"use strict";
// Where this machine's native binaries are: in the optional dependency npm
// installed for this platform (`@agenthooks/<os>-<cpu>`, and on Linux
// `@agenthooks/<os>-<cpu>-musl` for the static build; see package.json).
const path = require("node:path");

// The platforms with a package, as `${process.platform}-${process.arch}`,
// with `-musl` for the static Linux build.
const PACKAGES = require("./packages.json");

// glibc's version as `[major, minor]`, or null (musl, or not Linux).
function glibc() {
  if (process.platform !== "linux") return null;
  try {
    const v = process.report.getReport().header.glibcVersionRuntime;
    const m = /^(\d+)\.(\d+)/.exec(v || "");
    return m ? [Number(m[1]), Number(m[2])] : null;
  } catch {
    return null;
  }
}

// The packages that run here, best first: on Linux the gnu package needs
// glibc 2.28 or later; the static (musl) one runs on any Linux.
function platformKeys() {
  const key = `${process.platform}-${process.arch}`;
  if (process.platform !== "linux") return [key];
  const g = glibc();
  const gnuRuns = g !== null && (g[0] > 2 || (g[0] === 2 && g[1] >= 28));
  return gnuRuns ? [key, `${key}-musl`] : [`${key}-musl`];
}

function platformKey() {
  return platformKeys()[0];
}

// The native binary `name` (`agenthooks` or `agenthooks-engine`), or an
// Error whose message is the one line that says what is wrong and the fix.
function nativeBinary(name) {
  const keys = platformKeys().filter((k) => PACKAGES[k]);
  if (keys.length === 0) {
    return new Error(
      `agenthooks: no prebuilt binary for ${platformKey()}; build it from source: cargo install --locked --git https://github.com/agenthooks/agenthooks agenthooks`
    );
  }
  for (const key of keys) {
    try {
      const dir = path.dirname(require.resolve(`${PACKAGES[key]}/package.json`));
      return path.join(dir, "bin", name + (process.platform === "win32" ? ".exe" : ""));
    } catch {
      // not installed (npm skips a package whose libc is not this one): the next
    }
  }
  return new Error(
    `agenthooks: the package ${PACKAGES[keys[0]]} (this platform's binaries) is not installed; reinstall without --omit=optional: npm install -g agenthooks`
  );
}

module.exports = { nativeBinary, platformKey, PACKAGES };
