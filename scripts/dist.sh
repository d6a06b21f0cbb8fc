#!/usr/bin/env bash
# The release packages (issue 36), into dist/:
#
#   agenthooks-<version>-<target>.tar.gz (.zip for Windows)  both binaries, README, LICENSE
#   SHA256SUMS, install.sh, install.ps1
#   npm/       agenthooks-<version>.tgz and one package per platform with its binaries
#   python/    one wheel per platform (maturin's `bin` bindings: both binaries on PATH)
#
# Usage: scripts/dist.sh [--no-assemble | --assemble | --bin-dir] [TARGET...]
#   TARGET...      the targets to build (default: this machine's static Linux
#                  build, and x86_64-pc-windows-gnu where MinGW is installed)
#   --no-assemble  build and package the targets, without the files that
#                  cover every target (the release workflow's build jobs)
#   --assemble     only those: the npm main package, SHA256SUMS and the
#                  install scripts, for the packages already in dist/
#   --bin-dir      build the first target and print the directory of its
#                  binaries (what `.ci/langs.sh` and the benches run)
#
# One build per target, profile `dist` (Cargo.toml), shared by every package
# and by `.ci/langs.sh`: each package's copy differs only in the word that
# says how it was installed (`runtime/src/origin.rs`, `dist/pack.py mark`).
# Linux builds are static (musl: Debian's musl-tools), so they run on any
# distribution. Needs python3; the wheels need maturin (from PyPI: found on
# PATH or in $AGENTHOOKS_DIST_CACHE/venv), npm packs the npm packages.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
pack() { python3 "$repo/scripts/dist/pack.py" "$@"; }
say() { echo "dist: $*" >&2; }

REPOSITORY=https://github.com/agenthooks/agenthooks
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
[[ -n $version ]] || { say "no version in Cargo.toml's [workspace.package]"; exit 2; }
out=${AGENTHOOKS_DIST_DIR:-$repo/dist}
target_dir=${CARGO_TARGET_DIR:-$repo/target}
profile=dist

mode=all
targets=()
for arg in "$@"; do
    case $arg in
    --no-assemble) mode=packages ;;
    --assemble) mode=assemble ;;
    --bin-dir) mode=bin-dir ;;
    -h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) say "unknown option $arg"; exit 2 ;;
    *) targets+=("$arg") ;;
    esac
done
if [[ $mode != assemble && ${#targets[@]} -eq 0 ]]; then
    targets=("$(uname -m | sed 's/arm64/aarch64/')-unknown-linux-musl")
    if [[ $mode == all ]]; then
        if command -v x86_64-w64-mingw32-gcc > /dev/null; then
            targets+=(x86_64-pc-windows-gnu)
        else
            say "not building x86_64-pc-windows-gnu: no MinGW here (apt-get install gcc-mingw-w64-x86-64)"
        fi
    fi
fi

# The npm platform of a target: `<process.platform>-<process.arch>`.
npm_platform() {
    case $1 in
    x86_64-unknown-linux-*) echo linux-x64 ;;
    aarch64-unknown-linux-*) echo linux-arm64 ;;
    x86_64-apple-darwin) echo darwin-x64 ;;
    aarch64-apple-darwin) echo darwin-arm64 ;;
    x86_64-pc-windows-*) echo win32-x64 ;;
    aarch64-pc-windows-*) echo win32-arm64 ;;
    *) return 1 ;;
    esac
}

build() { # TARGET
    local target=$1
    rustup target add "$target" > /dev/null 2>&1 || true
    case $target in
    *-linux-musl)
        # C code (wasmtime's helpers, ring, mimalloc) compiled for musl.
        local cc_var="CC_${target//-/_}"
        if [[ -z ${!cc_var:-} ]]; then
            if command -v musl-gcc > /dev/null; then
                export "$cc_var=musl-gcc"
            elif ! command -v "${target%%-*}-linux-musl-gcc" > /dev/null; then
                say "no C compiler for $target: install Debian's musl-tools (apt-get install musl-tools)"
                exit 2
            fi
        fi
        ;;
    esac
    say "building $target (profile $profile)"
    cargo build --locked -q -p agenthooks --bins --profile "$profile" --target "$target"
}

bin_dir() { echo "$target_dir/$1/$profile"; }
exe() { case $1 in *-windows-*) echo .exe ;; esac; }

package() { # TARGET: the archive, the npm platform package, the wheel
    local target=$1 dir ext name stage platform
    dir=$(bin_dir "$target")
    ext=$(exe "$target")
    name=agenthooks-$version-$target
    stage=$(mktemp -d)
    mkdir -p "$stage/$name" "$out/npm" "$out/python"
    for b in agenthooks agenthooks-engine; do
        cp "$dir/$b$ext" "$stage/$name/"
        pack mark "$stage/$name/$b$ext" archive
    done
    if [[ $target == *-linux-* ]]; then pack check-static "$stage/$name/agenthooks"; fi
    cp README.md LICENSE "$stage/$name/"
    case $target in
    *-windows-*) pack archive "$stage/$name" "$out/$name.zip" ;;
    *) pack archive "$stage/$name" "$out/$name.tar.gz" ;;
    esac

    platform=$(npm_platform "$target") || { say "no npm platform for $target"; exit 2; }
    local npm=$stage/npm-$platform os=${platform%-*} cpu=${platform#*-}
    mkdir -p "$npm/bin"
    for b in agenthooks agenthooks-engine; do
        cp "$dir/$b$ext" "$npm/bin/"
        pack mark "$npm/bin/$b$ext" npm
    done
    cp LICENSE "$npm/"
    cat > "$npm/package.json" << EOF
{
  "name": "@agenthooks/$platform",
  "version": "$version",
  "description": "The agenthooks binaries for $os $cpu (installed by the agenthooks package)",
  "license": "Apache-2.0",
  "repository": { "type": "git", "url": "git+$REPOSITORY.git" },
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/"],
  "preferUnplugged": true
}
EOF
    (cd "$npm" && npm pack --silent --pack-destination "$out/npm" > /dev/null)

    wheel "$target"
    rm -rf "$stage"
}

maturin_bin() {
    if command -v maturin > /dev/null; then
        command -v maturin
    elif [[ -x ${AGENTHOOKS_DIST_CACHE:-}/venv/bin/maturin ]]; then
        echo "$AGENTHOOKS_DIST_CACHE/venv/bin/maturin"
    else
        say "no maturin: pip install maturin (or set AGENTHOOKS_DIST_CACHE to a cache with venv/bin/maturin)"
        exit 2
    fi
}

wheel() { # TARGET: maturin's wheel of the binaries just built (cargo finds them fresh)
    local target=$1 built
    built=$(mktemp -d)
    "$(maturin_bin)" build --quiet --locked --bindings bin --profile "$profile" --target "$target" \
        -m runtime/Cargo.toml --out "$built" --compatibility linux > /dev/null
    for w in "$built"/*.whl; do
        pack wheel "$w" > /dev/null
    done
    mv "$built"/*.whl "$out/python/"
    rm -rf "$built"
}

assemble() { # the files that cover every target packaged in dist/
    local main platforms deps=() stage
    stage=$(mktemp -d)
    main=$stage/agenthooks
    mkdir -p "$main"
    cp -R scripts/dist/npm/. "$main/"
    cp README.md LICENSE "$main/"
    platforms=$(cd "$out/npm" && ls agenthooks-*-*.tgz 2>/dev/null | sed -n "s/^agenthooks-\(.*\)-$version\.tgz$/\1/p")
    [[ -n $platforms ]] || { say "no platform packages in $out/npm to assemble"; exit 2; }
    local json="{"
    for p in $platforms; do
        deps+=("\"@agenthooks/$p\": \"$version\"")
        json+="\"$p\": \"@agenthooks/$p\","
    done
    echo "${json%,}}" > "$main/lib/packages.json"
    cat > "$main/package.json" << EOF
{
  "name": "agenthooks",
  "version": "$version",
  "description": "Write a coding-agent hook once, in Claude Code's protocol, and run it in every agent",
  "license": "Apache-2.0",
  "repository": { "type": "git", "url": "git+$REPOSITORY.git" },
  "homepage": "$REPOSITORY",
  "keywords": ["hooks", "claude-code", "codex", "gemini-cli", "coding-agent", "wasm"],
  "bin": { "agenthooks": "bin/agenthooks", "agenthooks-engine": "bin/agenthooks-engine" },
  "scripts": { "postinstall": "node install.js" },
  "files": ["bin/", "lib/", "install.js"],
  "engines": { "node": ">=16" },
  "optionalDependencies": { $(IFS=,; echo "${deps[*]}" | sed 's/,/, /g') }
}
EOF
    (cd "$main" && npm pack --silent --pack-destination "$out/npm" > /dev/null)
    rm -rf "$stage"

    for script in install.sh install.ps1; do
        sed -e "s|@VERSION@|$version|g" -e "s|@REPOSITORY@|$REPOSITORY|g" "scripts/dist/$script" > "$out/$script"
    done
    chmod 755 "$out/install.sh"
    local files=()
    while IFS= read -r f; do files+=("$f"); done < <(cd "$out" && ls agenthooks-"$version"-*.tar.gz agenthooks-"$version"-*.zip install.sh install.ps1 2>/dev/null)
    pack sums "$out" "${files[@]}"
    say "SHA256SUMS: ${#files[@]} files"
}

case $mode in
bin-dir)
    build "${targets[0]}"
    bin_dir "${targets[0]}"
    ;;
assemble) assemble ;;
packages | all)
    mkdir -p "$out"
    for t in "${targets[@]}"; do
        build "$t"
        package "$t"
    done
    if [[ $mode == all ]]; then assemble; fi
    (cd "$out" && find . -type f ! -name '*.installing' | sort | while read -r f; do
        printf '%10s  %s\n' "$(wc -c < "$f" | tr -d ' ')" "${f#./}"
    done) >&2
    ;;
esac
