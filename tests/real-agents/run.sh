#!/usr/bin/env bash
# Real agents, end to end: builds agenthooks, installs the pinned agent CLIs
# from npm (cached), and runs each one against the fake model server on
# 127.0.0.1 with hooks in .agents/hooks.json that deny (JSON, exit 2, wasm, fail
# closed), allow, add context, keep the agent going, answer after a tool, rewrite.
#
#   tests/real-agents/run.sh [harness options]   e.g. --agents claude,codex --phases deny
#
# Env: AGENTS_CACHE (default ~/.cache/agenthooks/real-agents), RUN_TIMEOUT (s per
# agent run, default 60), AGENTS_JOBS (runs at once, default 2), AGENTS_RUN_DIR (run dirs,
# default /tmp/agenthooks-real-agents),
# CARGO_PROFILE (debug|release, default debug), AGENTHOOKS_BIN_DIR (the
# directory of a built agenthooks and agenthooks-engine: run those, build none),
# <AGENT>_VERSION to try another version. Needs node/npm, python3, git, cargo and
# the wasm32-wasip2 target.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export AGENTS_CACHE="${AGENTS_CACHE:-$HOME/.cache/agenthooks/real-agents}"
profile="${CARGO_PROFILE:-debug}"

for tool in node npm python3 git cargo; do
  command -v "$tool" >/dev/null || { echo "real agents: FAIL: $tool is not installed" >&2; exit 1; }
done

t0=$EPOCHREALTIME
target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
if [ -n "${AGENTHOOKS_BIN_DIR:-}" ]; then
  # The binaries users get (CI passes the release packages' build,
  # `scripts/dist.sh --bin-dir`): nothing to build here.
  echo "== real agents: agenthooks from $AGENTHOOKS_BIN_DIR"
  bin="$AGENTHOOKS_BIN_DIR/agenthooks"
else
  echo "== real agents: building agenthooks ($profile)"
  if [ "$profile" = release ]; then
    cargo build --release -p agenthooks --bin agenthooks --bin agenthooks-engine
  else
    cargo build -p agenthooks --bin agenthooks --bin agenthooks-engine
  fi
  bin="$target_dir/$profile/agenthooks"
fi

# The wasm phase's hook: a real component from guest-examples (needs the
# wasm32-wasip2 target, which .ci/run adds).
echo "== real agents: building the dangerous-command-guard component"
cargo build --release --target wasm32-wasip2 -p dangerous-command-guard
wasm="$target_dir/wasm32-wasip2/release/dangerous-command-guard.wasm"

echo "== real agents: installing pinned agent CLIs into $AGENTS_CACHE"
t1=$EPOCHREALTIME
# Only the agents asked for (from --agents a,b), else all.
agents=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --agents) IFS=, read -r -a agents <<<"${args[$((i + 1))]}" ;;
    --agents=*) IFS=, read -r -a agents <<<"${args[$i]#--agents=}" ;;
  esac
done
"$here/install.sh" "${agents[@]}"
t2=$EPOCHREALTIME
awk -v a="$t1" -v b="$t2" 'BEGIN{printf "== real agents: install took %.1fs\n", b-a}'

export AGENTS_STEP_START="$t0" AGENTS_INSTALL_SECONDS
AGENTS_INSTALL_SECONDS="$(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.1f", b-a}')"
rc=0
# Run dirs live outside any git checkout, so no agent mistakes the repo for the project.
out="${AGENTS_RUN_DIR:-${TMPDIR:-/tmp}/agenthooks-real-agents}"
python3 "$here/harness.py" --bin "$bin" --wasm "$wasm" --cache "$AGENTS_CACHE" --out "$out" "$@" || rc=$?
exit $rc
