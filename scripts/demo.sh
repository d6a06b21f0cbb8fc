#!/usr/bin/env bash
# The agenthooks demo, from a fresh clone, in one command:
#
#   scripts/demo.sh
#
# 1. adds the wasm32-wasip2 target if it is missing;
# 2. builds the example hooks in guest-examples/ as WebAssembly components and
#    copies them to .agents/hooks/<name>.wasm, where this repository's own
#    .agents/hooks.json expects them (they are committed, so a fresh clone's
#    hooks run before this script ever did; rebuilding keeps them in step with
#    their source, and `git status` shows when they were not);
# 3. builds the agenthooks binary;
# 4. fires made-up events through the real pipeline with `agenthooks fire` and
#    checks each answer: a dangerous command and a harmless one, a write to
#    .env, a push to main, and a session start that learns the git branch;
#    then shows the same deny in Gemini CLI's, Codex's, Copilot's, Cursor's
#    and Windsurf's own dialects.
#
# Exits 1 when an answer is not the expected one.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

examples=(dangerous-command-guard protected-paths protected-branch-push session-branch-context
    package-manager-policy network-exfiltration-guard)

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# show ARGS...: print `$ agenthooks ARGS` as one would type it.
show() {
    local line='$ agenthooks' word
    for word in "$@"; do
        if [[ $word =~ ^[A-Za-z0-9_./:=-]+$ ]]; then line+=" $word"; else line+=" '$word'"; fi
    done
    printf '%s\n' "$line"
}

if ! rustup target list --installed | grep -qx wasm32-wasip2; then
    step "adding the wasm32-wasip2 target"
    rustup target add wasm32-wasip2
fi

step "building the example hooks as components (wasm32-wasip2, release)"
packages=()
for name in "${examples[@]}"; do packages+=(-p "$name"); done
# Source paths without this machine's directories in them (panic messages
# embed them), so that a rebuild from the same source and Cargo.lock gives the
# committed components byte for byte, whoever runs it.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$root=/agenthooks" \
    cargo build --release --target wasm32-wasip2 "${packages[@]}"

# Honour CARGO_TARGET_DIR and build.target-dir: ask cargo where it builds.
target_dir=$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
mkdir -p .agents/hooks
for name in "${examples[@]}"; do
    # Copy, then rename: a hook firing meanwhile never reads half a component.
    cp "$target_dir/wasm32-wasip2/release/$name.wasm" ".agents/hooks/.$name.wasm.tmp"
    mv -f ".agents/hooks/.$name.wasm.tmp" ".agents/hooks/$name.wasm"
    printf '  .agents/hooks/%s.wasm\n' "$name"
done

step "building agenthooks (release)"
cargo build --release -p agenthooks
agenthooks="$target_dir/release/agenthooks"

failures=0
# fire TITLE EXPECTED-TEXT ARGS...: run `agenthooks fire ARGS`, show its report,
# and check that no hook failed and that the answer Claude Code gets on stdout
# contains EXPECTED-TEXT (or, when EXPECTED-TEXT is empty, that it is empty: no
# hook had an opinion).
fire() {
    local title=$1 expect=$2
    shift 2
    step "$title"
    show fire "$@"
    local out stdout
    out=$("$agenthooks" fire "$@" 2>&1) || true
    printf '%s\n' "$out"
    stdout=$(printf '%s\n' "$out" | sed -n '/^native answer/,$s/^  stdout: //p' | head -n 1)
    if printf '%s\n' "$out" | grep -qE '^  \[[0-9]+\] .*  failed '; then
        printf '\033[31mUNEXPECTED\033[0m: a hook failed\n'
        failures=$((failures + 1))
    elif [[ -z $expect && $stdout == '(empty)' ]] || [[ -n $expect && $stdout == *"$expect"* ]]; then
        printf '\033[32mok\033[0m: %s\n' "${expect:-no opinion}"
    else
        printf '\033[31mUNEXPECTED\033[0m: wanted %s; Claude Code would read: %s\n' \
            "${expect:-no opinion}" "$stdout"
        failures=$((failures + 1))
    fi
}

fire "a dangerous command is denied" '"permissionDecision":"deny"' \
    PreToolUse --tool Bash --input '{"command":"rm -rf /"}'
fire "a harmless command is allowed, with no opinion" '' \
    PreToolUse --tool Bash --input '{"command":"rm -rf ./build && ls"}'
fire "writing .env is denied" '"permissionDecision":"deny"' \
    PreToolUse --tool Write --input "{\"file_path\":\"$root/.env\",\"content\":\"TOKEN=x\"}"
fire "pushing to main is denied" '"permissionDecision":"deny"' \
    PreToolUse --tool Bash --input '{"command":"git push origin main"}'
branch=$(git symbolic-ref --short -q HEAD 2>/dev/null || true)
fire "a new session learns the git branch" "current git branch: ${branch:-none}" \
    SessionStart

step "the same component's deny, in other agents' own dialects"
for agent in gemini codex copilot cursor windsurf; do
    show fire PreToolUse --tool Bash --input '{"command":"rm -rf /"}' --agent "$agent"
    native=$("$agenthooks" fire PreToolUse --tool Bash --input '{"command":"rm -rf /"}' \
        --agent "$agent" 2>&1 | sed -n '/^native answer/,$p' | grep -v 'compile cache') || true
    printf '%s\n' "$native"
    if [[ $native != *"refusing a recursive delete"* ]]; then
        printf '\033[31mUNEXPECTED\033[0m: %s was not told the reason\n' "$agent"
        failures=$((failures + 1))
    fi
done

echo
if ((failures > 0)); then
    printf '\033[31m%d answer(s) were not as expected\033[0m\n' "$failures"
    exit 1
fi
printf '\033[32mall answers as expected\033[0m\n'
