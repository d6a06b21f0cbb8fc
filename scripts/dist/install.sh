#!/bin/sh
# Installs agenthooks (both binaries, `agenthooks` and `agenthooks-engine`)
# from its release archive, for Linux and macOS:
#
#   curl -LsSf @REPOSITORY@/releases/latest/download/install.sh | sh
#
# It downloads the archive for this machine and SHA256SUMS, refuses an
# archive whose checksum does not match (installing nothing), and puts the
# binaries in AGENTHOOKS_INSTALL_DIR (default ~/.local/bin). Running it
# again replaces them; `sh install.sh --uninstall` removes them.
#
#   AGENTHOOKS_DOWNLOAD_URL  where the archive and SHA256SUMS are
#                            (default: the release page of @VERSION@)
#   AGENTHOOKS_INSTALL_DIR   where the binaries go (default ~/.local/bin)
#
# POSIX sh; needs curl or wget, tar, and sha256sum, shasum or openssl.
set -eu

VERSION='@VERSION@'
REPOSITORY='@REPOSITORY@'
BINARIES='agenthooks-engine agenthooks'

say() { printf 'agenthooks installer: %s\n' "$*" >&2; }
fail() {
    say "$*"
    exit 1
}

uninstall=
for arg in "$@"; do
    case $arg in
    --uninstall) uninstall=1 ;;
    -h | --help)
        sed -n '2,17p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//' >&2
        exit 0
        ;;
    *) fail "unknown argument '$arg' (--uninstall, --help)" ;;
    esac
done

if [ -n "${AGENTHOOKS_INSTALL_DIR:-}" ]; then
    dir=$AGENTHOOKS_INSTALL_DIR
elif [ -n "${HOME:-}" ]; then
    dir=$HOME/.local/bin
else
    fail "HOME is not set: set AGENTHOOKS_INSTALL_DIR to the directory to install into"
fi

if [ -n "$uninstall" ]; then
    removed=
    for b in $BINARIES; do
        if [ -e "$dir/$b" ]; then
            rm -f "$dir/$b"
            removed="$removed $b"
        fi
    done
    if [ -n "$removed" ]; then say "removed$removed from $dir"; else say "nothing to remove in $dir"; fi
    exit 0
fi

# Whether this Linux has glibc 2.28 or later, which the gnu package's
# engine needs; the static (musl) package runs on any Linux.
glibc_2_28() {
    v=$(getconf GNU_LIBC_VERSION 2>/dev/null) || return 1
    v=${v#glibc }
    major=${v%%.*}
    minor=${v#*.}
    minor=${minor%%.*}
    case $major$minor in '' | *[!0-9]*) return 1 ;; esac
    [ "$major" -gt 2 ] || { [ "$major" -eq 2 ] && [ "$minor" -ge 28 ]; }
}

# The target.
os=$(uname -s)
arch=$(uname -m)
case $os in
Linux)
    if glibc_2_28; then libc=gnu; else libc=musl; fi
    case $arch in
    x86_64 | amd64) target=x86_64-unknown-linux-$libc ;;
    aarch64 | arm64) target=aarch64-unknown-linux-$libc ;;
    *) target= ;;
    esac
    ;;
Darwin)
    # An x86_64 shell on Apple silicon (Rosetta) still gets the native build.
    if [ "$arch" = x86_64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
        arch=arm64
    fi
    case $arch in
    x86_64) target=x86_64-apple-darwin ;;
    arm64 | aarch64) target=aarch64-apple-darwin ;;
    *) target= ;;
    esac
    ;;
MINGW* | MSYS* | CYGWIN* | Windows_NT)
    fail "on Windows, install from PowerShell: irm $REPOSITORY/releases/latest/download/install.ps1 | iex"
    ;;
*) target= ;;
esac
[ -n "$target" ] || fail "no prebuilt agenthooks for $os $arch; build it from source: cargo install --locked --git https://github.com/agenthooks/agenthooks agenthooks"

url=${AGENTHOOKS_DOWNLOAD_URL:-$REPOSITORY/releases/download/v$VERSION}
url=${url%/}
name=agenthooks-$VERSION-$target
archive=$name.tar.gz

download() { # URL FILE
    if command -v curl >/dev/null 2>&1; then
        curl -fsSL --retry 3 -o "$2" "$1"
    elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$1"
    else
        fail "neither curl nor wget is installed: install one and run this again"
    fi
}

sha256() { # FILE: its digest on stdout
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d ' ' -f 1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d ' ' -f 1
    elif command -v openssl >/dev/null 2>&1; then
        openssl dgst -sha256 "$1" | sed 's/^.*= *//'
    else
        fail "no sha256sum, shasum or openssl to verify the download with; nothing installed"
    fi
}

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t agenthooks)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

say "downloading $archive from $url"
download "$url/SHA256SUMS" "$tmp/SHA256SUMS" || fail "cannot download $url/SHA256SUMS; nothing installed"
download "$url/$archive" "$tmp/$archive" || fail "cannot download $url/$archive; nothing installed"

expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")
[ -n "$expected" ] || fail "SHA256SUMS from $url has no entry for $archive; nothing installed"
actual=$(sha256 "$tmp/$archive")
if [ "$actual" != "$expected" ]; then
    fail "checksum mismatch for $archive: SHA256SUMS says $expected, the download is $actual (corrupt or tampered with); nothing installed"
fi

mkdir -p "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x" || fail "cannot unpack $archive; nothing installed"
for b in $BINARIES; do
    [ -f "$tmp/x/$name/$b" ] || fail "$archive has no $name/$b; nothing installed"
done

mkdir -p "$dir" || fail "cannot create $dir: set AGENTHOOKS_INSTALL_DIR to a directory you can write"
# Each binary is written beside its place and renamed over it, so a running
# agenthooks is never a half-written file; the engine first, so the front
# is never there without it.
for b in $BINARIES; do
    cp "$tmp/x/$name/$b" "$dir/.$b.installing"
    chmod 755 "$dir/.$b.installing"
    mv -f "$dir/.$b.installing" "$dir/$b"
done
say "installed $("$dir/agenthooks" --version 2>/dev/null || echo "agenthooks $VERSION") into $dir"

case ":${PATH:-}:" in
*":$dir:"*)
    found=$(command -v agenthooks 2>/dev/null || true)
    if [ -n "$found" ] && [ "$found" != "$dir/agenthooks" ]; then
        say "note: $found comes first on your PATH; remove it, or put $dir before it"
    fi
    ;;
*)
    say "$dir is not on your PATH; add it (then open a new shell):"
    say "  echo 'export PATH=\"$dir:\$PATH\"' >> ~/.profile"
    ;;
esac
