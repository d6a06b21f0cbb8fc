#!/usr/bin/env bash
# Fuzzing smoke run: builds the cargo-fuzz targets in fuzz/ and runs each for
# a bounded time on a corpus seeded from the repository (fuzz/seed.sh).
# Fails on a crash, a hang (10 s on one input) or a build error; a crashing
# input is kept under fuzz/artifacts/<target>/ and its path printed, for
# `cargo fuzz run <target> <file>` and a regression test beside the code.
#
#   FUZZ_SECONDS  seconds per target (default 30)
#   FUZZ_TARGETS  targets to run (default: all of `cargo fuzz list`)
#   FUZZ_SEED     libFuzzer's -seed (default 1; 0 for a new random one)
#   FUZZ_JOBS     targets run at once (default: the number of cores)
#
# A fixed seed makes a gate whose verdict a developer can reproduce: from the
# same corpus, a slower machine runs a prefix of the inputs a faster one ran
# for the same time (Rust's randomised hash maps aside). Exploring is for
# FUZZ_SEED=0 and longer runs; what they find becomes a seed in fuzz/seeds/.
# On a failure the panic message and the crashing input (base64) are printed,
# so a CI log alone is enough to write the regression test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${FUZZ_SECONDS:-30}
seed=${FUZZ_SEED:-1}
cargo_fuzz_version=0.13.2

# The toolchain: the workspace's stable one with RUSTC_BOOTSTRAP=1, which
# cargo-fuzz accepts for its `-Z` flags. No nightly download, and a compiler
# that does not move under CI (a nightly can break the build on any day).
export RUSTC_BOOTSTRAP=1
toolchain=+stable

# cargo-fuzz, pinned; cargo installs it into ~/.cargo/bin once.
if ! cargo fuzz --version 2>/dev/null | grep -qx "cargo-fuzz $cargo_fuzz_version"; then
    cargo install --locked cargo-fuzz --version "$cargo_fuzz_version"
fi

fuzz/seed.sh fuzz/corpus
# No sanitizer (safe Rust; the build is faster and runs faster); release with
# debug assertions and overflow checks (fuzz/Cargo.toml's release profile).
cargo $toolchain fuzz build -s none

read -r -a targets <<<"${FUZZ_TARGETS:-$(cargo $toolchain fuzz list | tr '\n' ' ')}"
# Targets run `FUZZ_JOBS` at a time (default: one per core; libFuzzer uses
# one), each with the whole `seconds`: the same inputs as one after another,
# in a fraction of the wall time.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p fuzz/target
fuzz_one() {
    local target=$1 status=0
    mkdir -p "fuzz/artifacts/$target"
    cargo $toolchain fuzz run -s none "$target" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -seed="$seed" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -dict=fuzz/corpus/agents.dict -print_final_stats=1 >"fuzz/target/$target.log" 2>&1 || status=$?
    echo "$status" >"fuzz/target/$target.status"
}
running=0
for target in "${targets[@]}"; do
    rm -f "fuzz/target/$target.status"
    fuzz_one "$target" &
    running=$((running + 1))
    if ((running >= jobs)); then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

passed=0
failed=0
summary=()
for target in "${targets[@]}"; do
    log="fuzz/target/$target.log"
    status=$(cat "fuzz/target/$target.status" 2>/dev/null || echo "?")
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo "?")
    if [[ $status == 0 ]]; then
        passed=$((passed + 1))
        summary+=("ok    $target: $runs runs, cov $cov")
    else
        failed=$((failed + 1))
        summary+=("FAIL  $target: exit $status after $runs runs; log $log")
        tail -n 40 "$log"
        # The panic (which assertion, on what) is far above the tail.
        grep -h -A3 'panicked at' "$log" | head -n 12 | sed 's/^/  panic: /' || true
        while read -r unit; do
            [[ -f $unit ]] || continue
            printf '  crashing input: %s (%s bytes), base64:\n' "$unit" "$(wc -c <"$unit")"
            head -c 4096 "$unit" | base64 -w 0 | sed 's/^/    /'
            echo
        done < <(grep -ho 'Test unit written to .*' "$log" | sed 's/^Test unit written to //')
    fi
done
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
((failed == 0))
