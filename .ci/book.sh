#!/usr/bin/env bash
# The book (docs/, README's continuation): mdBook builds it, and every
# relative link in it, README.md and CONTRIBUTING.md resolves (.ci/links.py).
# mdBook is built once into $AGENTHOOKS_TOOLS (default ~/.cache/agenthooks-tools),
# pinned, without its `serve`/`watch` features; later runs reuse it.
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.5.4
tools=${AGENTHOOKS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/agenthooks-tools}
mdbook=$tools/bin/mdbook
if ! "$mdbook" --version 2> /dev/null | grep -qx "mdbook v$MDBOOK_VERSION"; then
    echo "book: installing mdbook $MDBOOK_VERSION into $tools"
    cargo install --quiet --locked --no-default-features --version "$MDBOOK_VERSION" \
        --root "$tools" mdbook
fi
"$mdbook" build docs
python3 .ci/links.py
