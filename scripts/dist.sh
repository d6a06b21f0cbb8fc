#!/usr/bin/env bash
# The release packages (issue 36), into dist/:
#
#   agenthooks-<version>-<target>.tar.gz (.zip for Windows)  both binaries, README, LICENSE
#   SHA256SUMS, install.sh, install.ps1
#   npm/       agenthooks-<version>.tgz and one package per platform with its binaries
#   python/    one wheel per platform (maturin's `bin` bindings: both binaries on PATH)
#
# Usage: scripts/dist.sh [--no-assemble | --assemble | --bin-dir] [TARGET...]
#   TARGET...      the targets to build (default: this machine's Linux gnu
#                  package, and x86_64-pc-windows-gnu where MinGW is installed)
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
#
# Linux has two packages per architecture:
#   <arch>-unknown-linux-gnu   what install.sh, npm and pip give a glibc
#                              system (2.28 or later: every distribution of
#                              the last six years). Its front is the static
#                              musl build, which starts fastest; its engine
#                              links glibc 2.28 through zig (maturin --zig):
#                              static, ten wasm hooks in one event took 1.4x
#                              cargo's time (docs/performance.md).
#   <arch>-unknown-linux-musl  both binaries static: Alpine, older glibc.
# The default on Linux is the gnu package. Needs musl-gcc (Debian's
# musl-tools), python3; the gnu engine and the wheels need maturin and
# ziglang (from PyPI, installed on first use into the venv under
# $AGENTHOOKS_DIST_CACHE, default ~/.cache/agenthooks-dist); npm packs the
# npm packages.
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
wheels=$target_dir/dist-wheels

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
    targets=("$(uname -m | sed 's/arm64/aarch64/')-unknown-linux-gnu")
    if [[ $mode == all ]]; then
        if command -v x86_64-w64-mingw32-gcc > /dev/null; then
            targets+=(x86_64-pc-windows-gnu)
        else
            say "not building x86_64-pc-windows-gnu: no MinGW here (apt-get install gcc-mingw-w64-x86-64)"
        fi
    fi
fi

# The npm platform of a target: `<process.platform>-<process.arch>`, and
# `-musl` for the static Linux build (`scripts/dist/npm/lib/platform.js`).
npm_platform() {
    case $1 in
    x86_64-unknown-linux-gnu) echo linux-x64 ;;
    aarch64-unknown-linux-gnu) echo linux-arm64 ;;
    x86_64-unknown-linux-musl) echo linux-x64-musl ;;
    aarch64-unknown-linux-musl) echo linux-arm64-musl ;;
    x86_64-apple-darwin) echo darwin-x64 ;;
    aarch64-apple-darwin) echo darwin-arm64 ;;
    x86_64-pc-windows-*) echo win32-x64 ;;
    aarch64-pc-windows-*) echo win32-arm64 ;;
    *) return 1 ;;
    esac
}

musl_cc() { # TARGET: C code (wasmtime's helpers, ring) compiled for musl
    local cc_var="CC_${1//-/_}"
    if [[ -z ${!cc_var:-} ]]; then
        if command -v musl-gcc > /dev/null; then
            export "$cc_var=musl-gcc"
        elif ! command -v "${1%%-*}-linux-musl-gcc" > /dev/null; then
            say "no C compiler for $1: install Debian's musl-tools (apt-get install musl-tools)"
            exit 2
        fi
    fi
}

build() { # TARGET: its binaries in $(bin_dir TARGET); the gnu wheel too
    local target=$1 front=$1 stage
    # The gnu package's front is the static musl build: it starts fastest.
    case $target in *-linux-gnu) front=${target%-gnu}-musl ;; esac
    rustup target add "$target" > /dev/null 2>&1 || true
    rustup target add "$front" > /dev/null 2>&1 || true
    case $front in *-linux-musl) musl_cc "$front" ;; esac
    # `--version` names the package's target, which for the gnu package's
    # front is not the target it was built for (`runtime/build.rs`).
    export AGENTHOOKS_PACKAGE_TARGET=$target
    stage=$(bin_dir "$target")
    rm -rf "$stage"
    mkdir -p "$stage"
    # The front without the `engine` feature: it links none of wasmtime,
    # rmcp or the OCI client, and builds without compiling them. On Linux
    # its symbols are kept for `pack.py check-front`, then stripped.
    say "building $target: the front ($front, without the engine)"
    if [[ $front == *-linux-* ]]; then
        env "CARGO_PROFILE_${profile^^}_STRIP=none" cargo build --locked -q -p agenthooks --bin agenthooks \
            --no-default-features --profile "$profile" --target "$front"
        pack check-front "$target_dir/$front/$profile/agenthooks" >&2
        strip -o "$stage/agenthooks" "$target_dir/$front/$profile/agenthooks"
    else
        cargo build --locked -q -p agenthooks --bin agenthooks --no-default-features \
            --profile "$profile" --target "$front"
        cp "$target_dir/$front/$profile/agenthooks$(exe "$target")" "$stage/"
    fi
    case $target in
    *-linux-gnu)
        # The engine (and the wheel) for glibc 2.28 through zig.
        say "building $target: the engine and the wheel for glibc 2.28 (zig)"
        rm -rf "$wheels/$target"
        with_maturin build --quiet --locked --bindings bin --profile "$profile" --target "$target" \
            --zig --compatibility manylinux_2_28 -m runtime/Cargo.toml --out "$wheels/$target" > /dev/null
        pack check-glibc "$target_dir/$target/$profile/agenthooks-engine" 2.28 >&2
        ;;
    *)
        say "building $target: the engine (profile $profile)"
        cargo build --locked -q -p agenthooks --bin agenthooks-engine --profile "$profile" --target "$target"
        ;;
    esac
    cp "$target_dir/$target/$profile/agenthooks-engine$(exe "$target")" "$stage/"
    unset AGENTHOOKS_PACKAGE_TARGET
}

# Each package's binaries come from two builds (the front without the
# engine, the engine), so they are put together in a directory of their own.
bin_dir() { echo "$target_dir/$1/$profile-package"; }
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
    if [[ $target == *-linux-musl ]]; then pack check-static "$stage/$name/agenthooks-engine"; fi
    cp README.md LICENSE "$stage/$name/"
    case $target in
    *-windows-*) pack archive "$stage/$name" "$out/$name.zip" ;;
    *) pack archive "$stage/$name" "$out/$name.tar.gz" ;;
    esac

    platform=$(npm_platform "$target") || { say "no npm platform for $target"; exit 2; }
    local npm=$stage/npm-$platform os cpu libc=
    os=$(echo "$platform" | cut -d- -f1)
    cpu=$(echo "$platform" | cut -d- -f2)
    case $target in
    *-linux-gnu) libc='"libc": ["glibc"],' ;;
    *-linux-musl) libc='"libc": ["musl"],' ;;
    esac
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
  "description": "The agenthooks binaries for $target (installed by the agenthooks package)",
  "license": "Apache-2.0",
  "repository": { "type": "git", "url": "git+$REPOSITORY.git" },
  "os": ["$os"],
  "cpu": ["$cpu"],$libc
  "files": ["bin/"],
  "preferUnplugged": true
}
EOF
    (cd "$npm" && npm pack --silent --pack-destination "$out/npm" > /dev/null)

    wheel "$target"
    rm -rf "$stage"
}

# maturin and zig, pinned, in a venv of their own under the dist cache
# (made on first use; the release workflow pip-installs the same pins).
MATURIN_VERSION=1.16.0
ZIGLANG_VERSION=0.17.1
dist_cache=${AGENTHOOKS_DIST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agenthooks-dist}
maturin_bin() {
    local venv=$dist_cache/venv
    if command -v maturin > /dev/null && [[ -z ${AGENTHOOKS_DIST_CACHE:-} ]]; then
        command -v maturin
        return
    fi
    if ! "$venv/bin/maturin" --version 2> /dev/null | grep -qx "maturin $MATURIN_VERSION" ||
        ! "$venv/bin/python" -m ziglang version 2> /dev/null | grep -qx "$ZIGLANG_VERSION"; then
        say "installing maturin $MATURIN_VERSION and ziglang $ZIGLANG_VERSION into $venv"
        { [[ -x $venv/bin/pip ]] || python3 -m venv "$venv"; } &&
            "$venv/bin/pip" install -q "maturin==$MATURIN_VERSION" "ziglang==$ZIGLANG_VERSION" ||
            { say "cannot install maturin and ziglang from PyPI into $venv"; exit 2; }
    fi
    echo "$venv/bin/maturin"
}

# maturin, with its own directory first on PATH: `--zig` runs the `python3
# -m ziglang` installed beside it.
with_maturin() {
    local bin
    bin=$(maturin_bin)
    PATH="$(dirname "$bin"):$PATH" "$bin" "$@"
}

wheel() { # TARGET: maturin's wheel of the binaries built (cargo finds them fresh)
    local target=$1 built args=()
    built=$(mktemp -d)
    case $target in
    *-linux-gnu)
        # Built with the engine; its front becomes the static one.
        cp "$wheels/$target"/*.whl "$built/"
        args=(--front "$(bin_dir "$target")/agenthooks")
        ;;
    *)
        AGENTHOOKS_PACKAGE_TARGET=$target with_maturin build --quiet --locked --bindings bin \
            --profile "$profile" --target "$target" -m runtime/Cargo.toml --out "$built" \
            --compatibility linux > /dev/null
        ;;
    esac
    for w in "$built"/*.whl; do
        pack wheel "$w" ${args[@]+"${args[@]}"} > /dev/null
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
