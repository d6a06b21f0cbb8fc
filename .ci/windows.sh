#!/usr/bin/env bash
# Windows: agenthooks cross-built for x86_64-pc-windows-gnu with Debian's
# MinGW, and its test subset run under Wine: the library's Windows unit tests
# (`cmd /C`, the Job Object, PowerShell selection, the known folders, install
# writes) and tests/windows (the real agenthooks.exe, which hands most
# commands to agenthooks-engine.exe beside it: cargo builds both). No MSVC check: even
# `cargo check --target x86_64-pc-windows-msvc` runs wasmtime-internal-fiber's
# build script, which compiles a C file with MSVC's `cl.exe`.
#
# Installs what it needs (apt: MinGW, Wine; rustup: the targets). Prints
# `N passed, N failed` last; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
TARGET=x86_64-pc-windows-gnu

need=()
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64)
command -v wine >/dev/null || need+=(wine wine64)
if ((${#need[@]})); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
rustup target add "$TARGET" wasm32-wasip2

# The component the wasm test runs (wasm is the same on every platform).
cargo build --release --target wasm32-wasip2 --manifest-path tests/guests/Cargo.toml \
    --target-dir target/guests
export AGENTHOOKS_TEST_GUEST="$PWD/target/guests/wasm32-wasip2/release/deny.wasm"

# A private, cached Wine prefix (its first start takes a while): the one
# .ci/run names under the real cache, else under this home's.
export WINEPREFIX="${WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/agenthooks/wine-prefix}" WINEDEBUG=-all
mkdir -p "$(dirname "$WINEPREFIX")"
wine cmd /c exit 0 >/dev/null 2>&1 || true
# Rust's std (1.78+) imports ProcessPrng from bcryptprimitives.dll, which
# Wine 8 lacks: a stub forwarding to RtlGenRandom, in the prefix's system32.
stub="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
if [[ ! -f $stub ]]; then
    tmp=$(mktemp -d)
    cat >"$tmp/bcp.c" <<'EOF'
#include <windows.h>
#include <ntsecapi.h>
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) { return RtlGenRandom(data, (ULONG)len); }
EOF
    printf 'LIBRARY bcryptprimitives\nEXPORTS\nProcessPrng\n' >"$tmp/bcp.def"
    x86_64-w64-mingw32-gcc -shared -o "$stub" "$tmp/bcp.c" "$tmp/bcp.def" -ladvapi32
    rm -rf "$tmp"
fi

# Cargo runs the Windows test binaries through Wine.
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# Unit tests that mean something on Windows; the rest assume `sh`.
cargo test --target "$TARGET" -p agenthooks --lib -- \
    exec::command:: dirs:: atomic:: install::json:: install::targets:: \
    install::plan:: install::backups:: trust::tests::the_store 2>&1 | tee -a "$log" || status=1
cargo test --target "$TARGET" -p agenthooks --test windows 2>&1 | tee -a "$log" || status=1

passed=$(grep -o '[0-9]* passed' "$log" | awk '{s+=$1} END {print s+0}')
failed=$(grep -o '[0-9]* failed' "$log" | awk '{s+=$1} END {print s+0}')
if ((status != 0 && failed == 0)); then failed=1; fi
echo "$passed passed, $failed failed"
exit "$status"
