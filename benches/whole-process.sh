#!/bin/sh
# Whole-process benchmark of `agenthooks run` against /bin/true and the same
# guard as python3, bash+jq and node command hooks. One command:
#
#     benches/whole-process.sh [--runs N] [--warmup N] [--miss-runs N]
#
# Builds the release binary and the dangerous-command-guard component, makes
# temporary projects, and prints a Markdown table (median, ratio to /bin/true,
# p10-p90, peak RSS). The driver is runtime/benches/whole_process.rs.
# Run it when the machine is otherwise idle (`uptime`): the table says the load.
set -eu
cd "$(dirname "$0")/.."
cargo build --quiet --release --target wasm32-wasip2 -p dangerous-command-guard
exec cargo bench --quiet -p agenthooks --bench whole_process -- "$@"
