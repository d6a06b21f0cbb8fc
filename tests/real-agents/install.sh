#!/usr/bin/env bash
# Installs the pinned agent CLIs from the npm registry (sema-core from PyPI, into
# a virtualenv), each into its own prefix under $AGENTS_CACHE (default
# ~/.cache/agenthooks/real-agents), all in parallel.
# A prefix that already holds the pinned version is reused at no cost.
# Usage: install.sh [agent...]   (default: all); prints one timing line per agent.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=versions.sh
. "$here/versions.sh"
cache="${AGENTS_CACHE:-$HOME/.cache/agenthooks/real-agents}"
mkdir -p "$cache"
agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=("${ALL_AGENTS[@]}")

install_one() {
  local agent="$1" pkg ver prefix start rc
  pkg="$(pkg_of "$agent")"; ver="$(ver_of "$agent")"
  prefix="$cache/$agent-$ver"
  start=$EPOCHREALTIME
  if [ -f "$prefix/.installed" ]; then
    echo "install $agent $pkg@$ver: cached ($prefix)"
    return 0
  fi
  rm -rf "$prefix"; mkdir -p "$prefix"
  # One retry: a registry hiccup should not fail the step.
  for try in 1 2; do
    rc=0
    # Bounded: a registry that stalls must fail the step, not hang CI.
    if [ "$agent" = sema ]; then
      # A Python library with a bundled Node sidecar (Node 18+ on PATH at run time).
      { python3 -m venv "$prefix" &&
        timeout -k 10 "${NPM_INSTALL_TIMEOUT:-300}" \
          "$prefix/bin/pip" install --quiet --disable-pip-version-check --timeout 60 --retries 2 \
          "$pkg==$ver"; } >"$prefix.log" 2>&1 || rc=$?
    else
      timeout -k 10 "${NPM_INSTALL_TIMEOUT:-300}" \
        npm install --prefix "$prefix" --no-audit --no-fund --no-update-notifier --loglevel=error \
        --prefer-offline --fetch-timeout=60000 --fetch-retries=2 \
        "$pkg@$ver" >"$prefix.log" 2>&1 || rc=$?
    fi
    [ $rc -ne 0 ] || break
    [ "$try" = 2 ] || sleep 3
  done
  if [ $rc -ne 0 ]; then
    echo "install $agent $pkg@$ver: FAILED (exit $rc)"; tail -20 "$prefix.log"; return 1
  fi
  touch "$prefix/.installed"
  printf 'install %s %s@%s: %.1fs (%s)\n' "$agent" "$pkg" "$ver" \
    "$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{print b-a}')" "$(du -sh "$prefix" | cut -f1)"
}

pids=()
for a in "${agents[@]}"; do install_one "$a" & pids+=($!); done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
exit $fail
