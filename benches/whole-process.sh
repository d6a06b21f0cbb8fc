#!/bin/sh
# The benchmark suite: what an agent pays per event for `agenthooks run`, and
# the library's dispatch. One command:
#
#     benches/whole-process.sh [--runs N] [--warmup N] [--miss-runs N] [--no-dispatch] [--no-langs] [--no-peers] [--packaged]
#
# Builds (into this checkout's target/) the release binary, the example
# components (the Rust ones always; the Python and JavaScript ones when the
# toolchains `.ci/langs.sh` installs are in ~/.cache/agenthooks-langs, unless
# --no-langs: their cache misses take seconds each) and the
# guard as a native command hook; installs the peers at pinned versions into
# ~/.cache/agenthooks-bench (the closest competitor, agent-harness-adapter
# from crates.io, and the published guard cc-safety-net from npm; a line says
# so and their rows are left out when that fails, e.g. offline; --no-peers
# skips them); makes temporary projects, and prints a Markdown table: each
# command spawned directly with the event on stdin, and again through
# `sh -c` as agents start hooks; runs interleaved in rounds; median, ratio to
# /bin/true (to `sh -c /bin/true` through the shell), p10-p90, peak RSS; the
# load average before and after; the size of each `agenthooks*` binary built.
# The driver is runtime/benches/whole_process/. Then, unless --no-dispatch,
# criterion's `dispatch` bench (library mode), between two load-average lines.
# With --packaged, the release packages' build (`scripts/dist.sh --bin-dir`,
# the one build the packages, `.ci/langs.sh` and this share) is timed too,
# side by side with the cargo-built binaries: its front as
# `[agenthooks-packaged]`, its engine as `[agenthooks-engine-packaged]`.
# Run it when the machine is otherwise idle (`uptime`). What tracing adds
# (no OTLP endpoint vs a hung one vs one that answers) is its own paired
# bench: benches/telemetry.py.
set -eu
cd "$(dirname "$0")/.."
dispatch=yes
langs=yes
peers=yes
packaged=no
bench_args=""
for arg in "$@"; do
    case $arg in
    --no-dispatch) dispatch=no ;;
    --no-langs) langs=no ;;
    --no-peers) peers=no ;;
    --packaged) packaged=yes ;;
    *) bench_args="$bench_args $arg" ;;
    esac
done
cargo build --quiet --release --target wasm32-wasip2 -p dangerous-command-guard \
    -p protected-branch-push -p protected-paths -p session-branch-context
cargo build --quiet --release -p dangerous-command-guard
components=$PWD/target/wasm32-wasip2/release
tools=${AGENTHOOKS_LANGS_CACHE:-$HOME/.cache/agenthooks-langs}
rm -f "$components"/python-*.wasm "$components"/js-*.wasm
if [ "$langs" = yes ] && [ -x "$tools/venv/bin/componentize-py" ]; then
    for m in dangerous_command_guard protected_paths; do
        out=$components/python-$(echo "$m" | tr _ -).wasm
        (cd guest-examples/python && "$tools/venv/bin/componentize-py" -d ../../wit -w hook \
            componentize -p . "$m" -o "$out" > /dev/null)
    done
fi
if [ "$langs" = yes ] && [ -x "$tools/npm/node_modules/.bin/componentize-js" ]; then
    for m in dangerous-command-guard protected-paths; do
        (cd guest-examples/js && "$tools/npm/node_modules/.bin/componentize-js" "$m.js" \
            --wit ../../wit --world-name hook --disable http --disable fetch-event \
            -o "$components/js-$m.wasm" > /dev/null)
    done
fi
# The peers, at the versions the README's table names.
peer_dir=${AGENTHOOKS_BENCH_PEERS:-$HOME/.cache/agenthooks-bench}
adapter=$peer_dir/peers/bin/agent-harness-adapter
guard_js=$peer_dir/npm/node_modules/cc-safety-net/dist/bin/cc-safety-net.js
if [ "$peers" = yes ]; then
    if ! "$adapter" --version 2>/dev/null | grep -q ' 0\.2\.2$'; then
        cargo install --quiet --locked agent-harness-adapter --version 0.2.2 \
            --root "$peer_dir/peers" > /dev/null 2>&1 ||
            echo "agent-harness-adapter 0.2.2 could not be installed (offline?): its rows are left out"
    fi
    if ! grep -q '"version": "2.4.5"' "$peer_dir/npm/node_modules/cc-safety-net/package.json" 2>/dev/null; then
        mkdir -p "$peer_dir/npm"
        npm install --silent --no-audit --no-fund --prefix "$peer_dir/npm" cc-safety-net@2.4.5 \
            > /dev/null 2>&1 ||
            echo "cc-safety-net 2.4.5 could not be installed (offline, or no npm?): its rows are left out"
    fi
    if [ -x "$adapter" ]; then export AGENTHOOKS_BENCH_PEER_ADAPTER="$adapter"; fi
    if [ -f "$guard_js" ]; then export AGENTHOOKS_BENCH_PEER_GUARD="$guard_js"; fi
fi
if [ "$packaged" = yes ]; then
    # Named so the rows say which build they are; the front finds the
    # engine beside it by its own name.
    dist_bin=$(scripts/dist.sh --bin-dir)
    staged=$(mktemp -d)
    trap 'rm -rf "$staged"' EXIT
    mkdir -p "$staged/front" "$staged/engine"
    cp "$dist_bin/agenthooks" "$staged/front/agenthooks-packaged"
    cp "$dist_bin/agenthooks-engine" "$staged/front/agenthooks-engine"
    cp "$dist_bin/agenthooks-engine" "$staged/engine/agenthooks-engine-packaged"
    AGENTHOOKS_BENCH_BASELINE="${AGENTHOOKS_BENCH_BASELINE:+$AGENTHOOKS_BENCH_BASELINE:}$staged/front/agenthooks-packaged:$staged/engine/agenthooks-engine-packaged"
    export AGENTHOOKS_BENCH_BASELINE
fi
export AGENTHOOKS_BENCH_COMPONENTS="$components"
export AGENTHOOKS_BENCH_NATIVE_GUARD="$PWD/target/release/dangerous-command-guard"
# shellcheck disable=SC2086 # the bench's own arguments, split on purpose
cargo bench --quiet -p agenthooks --bench whole_process -- $bench_args
echo
echo "Binaries built (what \`cargo install\` installs):"
total=0
for bin in target/release/agenthooks target/release/agenthooks-*; do
    case $bin in *.d | *'*') continue ;; esac
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    size=$(wc -c < "$bin")
    total=$((total + size))
    echo "- \`$(basename "$bin")\`: $(echo "$size" | awk '{printf "%.1f", $1 / 1e6}') MB"
done
echo "- total: $(echo "$total" | awk '{printf "%.1f", $1 / 1e6}') MB"
if [ "$dispatch" = yes ]; then
    echo
    echo "Library dispatch (criterion), load average $(cut -d' ' -f1-3 /proc/loadavg) before:"
    cargo bench --quiet -p agenthooks --bench dispatch 2>&1 | grep -E '^[a-z_]+/|time:|thrpt:'
    echo "Load average $(cut -d' ' -f1-3 /proc/loadavg) after."
fi
if [ "$packaged" = yes ]; then
    echo
    echo "The packaged binaries (\`scripts/dist.sh\`, stripped):"
    for bin in "$dist_bin/agenthooks" "$dist_bin/agenthooks-engine"; do
        echo "- \`$(basename "$bin")\`: $(wc -c < "$bin" | awk '{printf "%.1f", $1 / 1e6}') MB"
    done
fi
