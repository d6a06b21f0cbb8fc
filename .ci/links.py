#!/usr/bin/env python3
"""Every relative link in README.md, CONTRIBUTING.md and the book (docs/)
resolves: the file exists, and a `#fragment` names a heading of that file
(GitHub's and mdBook's ids agree for the headings used: lower case, spaces
to hyphens, other punctuation dropped, a repeated heading numbered `-1`,
`-2`, ...). Links inside code (fenced blocks, inline `code`) are not links.

    .ci/links.py [FILE...]     (default: README.md CONTRIBUTING.md docs/**/*.md)

Prints one line per broken link (`file:line: link: why`) and exits 1 when
there is one; 0 otherwise, with the count checked.
"""

import glob
import os
import re
import sys

LINK = re.compile(r"(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(path):
    """The file's text with fenced code and inline code spans blanked (their
    length and line breaks kept, so offsets still give line numbers)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fenced = False
    out = []
    for line in lines:
        if FENCE.match(line):
            fenced = not fenced
            out.append(" " * len(line))
        elif fenced:
            out.append(" " * len(line))
        else:
            out.append(line)
    text = "\n".join(out)
    return re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), text)


def slug(text):
    """A heading's id, as GitHub and mdBook make it."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text
    text = text.replace("`", "").strip().lower()
    return "".join(c for c in text if c.isalnum() or c in "-_ ").replace(" ", "-")


def anchors(path, cache={}):
    """The ids of every heading in `path`."""
    if path not in cache:
        seen, ids = {}, set()
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        fenced = False
        for line in lines:
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                ids.add(base if n == 0 else f"{base}-{n}")
        cache[path] = ids
    return cache[path]


def check(path):
    """The broken links of one file, as lines; and how many were checked."""
    broken, checked = [], 0
    here = os.path.dirname(path)
    text = prose(path)
    for m in list(LINK.finditer(text)) + list(IMAGE.finditer(text)):
        number = text.count("\n", 0, m.start()) + 1
        target = m.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, mailto:, ...
            continue
        checked += 1
        file, _, fragment = target.partition("#")
        dest = os.path.normpath(os.path.join(here, file)) if file else path
        if not os.path.exists(dest):
            broken.append(f"{path}:{number}: {target}: no file `{os.path.relpath(dest)}`")
        elif fragment and dest.endswith(".md") and fragment not in anchors(dest):
            broken.append(f"{path}:{number}: {target}: no heading `#{fragment}` in `{os.path.relpath(dest)}`")
    return broken, checked


def main(argv):
    files = argv or (["README.md", "CONTRIBUTING.md"]
                     + sorted(glob.glob("docs/**/*.md", recursive=True)))
    broken, checked = [], 0
    for path in files:
        b, c = check(path)
        broken += b
        checked += c
    for line in broken:
        print(line[:300])
    if broken:
        print(f"links: {len(broken)} of {checked} relative links in {len(files)} files are broken")
        return 1
    print(f"links: all {checked} relative links in {len(files)} files resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
