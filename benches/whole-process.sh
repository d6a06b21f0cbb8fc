#!/bin/sh
# The benchmark suite: what an agent pays per event for `agenthooks run`, and
# the library's dispatch. One command:
#
#     benches/whole-process.sh [--runs N] [--warmup N] [--miss-runs N] [--no-dispatch] [--no-langs]
#
# Builds (into this checkout's target/) the release binary, the example
# components (the Rust ones always; the Python and JavaScript ones when the
# toolchains `.ci/langs.sh` installs are in ~/.cache/agenthooks-langs, unless
# --no-langs: their cache misses take seconds each) and the
# guard as a native command hook, makes temporary projects, and prints a
# Markdown table: each command spawned directly (no shell) with the event on
# stdin, runs interleaved in rounds; median, ratio to /bin/true, p10-p90, peak
# RSS; the load average before and after. The driver is
# runtime/benches/whole_process.rs. Then, unless --no-dispatch, criterion's
# `dispatch` bench (library mode), between two load-average lines.
# Run it when the machine is otherwise idle (`uptime`).
set -eu
cd "$(dirname "$0")/.."
dispatch=yes
langs=yes
bench_args=""
for arg in "$@"; do
    case $arg in
    --no-dispatch) dispatch=no ;;
    --no-langs) langs=no ;;
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
export AGENTHOOKS_BENCH_COMPONENTS="$components"
export AGENTHOOKS_BENCH_NATIVE_GUARD="$PWD/target/release/dangerous-command-guard"
# shellcheck disable=SC2086 # the bench's own arguments, split on purpose
cargo bench --quiet -p agenthooks --bench whole_process -- $bench_args
if [ "$dispatch" = yes ]; then
    echo
    echo "Library dispatch (criterion), load average $(cut -d' ' -f1-3 /proc/loadavg) before:"
    cargo bench --quiet -p agenthooks --bench dispatch 2>&1 | grep -E '^[a-z_]+/|time:|thrpt:'
    echo "Load average $(cut -d' ' -f1-3 /proc/loadavg) after."
fi
