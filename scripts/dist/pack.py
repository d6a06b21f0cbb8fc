#!/usr/bin/env python3
"""The byte-level steps of `scripts/dist.sh`, portable across the Linux,
macOS and Windows runners of the release workflow (no GNU tar, sha256sum or
zip needed):

  pack.py mark BINARY WORD      write how a package's copy was installed into
                                the binary's marker (runtime/src/origin.rs)
  pack.py archive DIR OUT       DIR (one directory) as OUT: .tar.gz or .zip
  pack.py wheel WHEEL           a maturin wheel's binaries marked `pip`, and
                                the wheel tagged for every Linux (static musl
                                binaries: manylinux and musllinux alike)
  pack.py sums DIR FILE...      DIR/SHA256SUMS for the FILEs (names in DIR)
  pack.py check-static BINARY   exit 1 unless an ELF binary has no
                                interpreter (no dynamic loader: runs on any
                                Linux of its architecture)

Each failure is one line naming the file and what is wrong.
"""

import base64
import csv
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import tarfile
import zipfile

PREFIX = b"AGENTHOOKS-INSTALLED-BY:"
WORD = 8
WORDS = ("cargo", "archive", "npm", "pip")


def fail(line):
    print(f"pack.py: {line}", file=sys.stderr)
    sys.exit(1)


def marked(data, word, name):
    """`data` with its one marker naming `word`."""
    if word not in WORDS:
        fail(f"{name}: unknown origin {word!r} (one of {', '.join(WORDS)})")
    # The prefix alone may be in the binary twice: the marker, and the
    # literal the binary reads it with (a PE linker does not merge the two,
    # as ELF's string merging does). The marker is the one a word follows.
    found = [at for at in occurrences(data, PREFIX)
             if data[at + len(PREFIX):at + len(PREFIX) + WORD].decode("ascii", "replace").strip() in WORDS]
    if len(found) != 1:
        fail(f"{name}: expected exactly one install marker, found {len(found)} "
             f"(the prefix {data.count(PREFIX)} times)")
    start = found[0] + len(PREFIX)
    return data[:start] + word.encode().ljust(WORD) + data[start + WORD:]


def occurrences(data, needle):
    """Where `needle` starts in `data`, each place."""
    at = data.find(needle)
    while at >= 0:
        yield at
        at = data.find(needle, at + 1)


MACH_O = (b"\xcf\xfa\xed\xfe", b"\xfe\xed\xfa\xcf")


def resign(path):
    """A Mach-O binary signed again (ad hoc) after its bytes changed: macOS
    kills an arm64 binary whose signature does not match its pages."""
    with open(path, "rb") as f:
        if f.read(4) not in MACH_O:
            return
    if shutil.which("codesign") is None:
        fail(f"{path}: a macOS binary changed, and no codesign here to sign it again")
    subprocess.run(["codesign", "--force", "--sign", "-", path], check=True)


def mark(path, word):
    with open(path, "rb") as f:
        data = f.read()
    tmp = path + ".marking"
    with open(tmp, "wb") as f:
        f.write(marked(data, word, path))
    os.chmod(tmp, os.stat(path).st_mode)
    resign(tmp)
    os.replace(tmp, path)


def marked_signed(data, word, name):
    """`marked`, then signed again if it is a macOS binary."""
    data = marked(data, word, name)
    if data[:4] not in MACH_O:
        return data
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "binary")
        with open(path, "wb") as f:
            f.write(data)
        resign(path)
        with open(path, "rb") as f:
            return f.read()


def archive(directory, out):
    base = os.path.basename(os.path.normpath(directory))
    parent = os.path.dirname(os.path.normpath(directory))
    entries = []
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(root, name)
            entries.append((full, os.path.relpath(full, parent).replace(os.sep, "/")))
    if out.endswith(".zip"):
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for full, arc in entries:
                info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (os.stat(full).st_mode & 0o777 | 0o100000) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(full, "rb") as f:
                    z.writestr(info, f.read())
    elif out.endswith(".tar.gz"):
        with tarfile.open(out, "w:gz", format=tarfile.PAX_FORMAT) as t:
            for full, arc in entries:
                info = t.gettarinfo(full, arc)
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                info.mtime = 0
                with open(full, "rb") as f:
                    t.addfile(info, f)
    else:
        fail(f"{out}: name it .tar.gz or .zip")
    if not entries:
        fail(f"{directory}: nothing to archive")
    print(f"{out}: {base}/ ({len(entries)} files)")


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def wheel(path):
    """Marks the wheel's binaries `pip`; retags a Linux wheel for every libc."""
    name = os.path.basename(path)
    parts = name[:-len(".whl")].split("-")
    if len(parts) != 5:
        fail(f"{name}: not a wheel name (name-version-py-abi-platform.whl)")
    platform = parts[4]
    arch = None
    for prefix in ("manylinux", "musllinux", "linux"):
        if platform.startswith(prefix):
            arch = platform.split(".")[0].split("_", 3 if prefix != "linux" else 1)[-1]
    if arch is not None:
        platform = f"manylinux_2_17_{arch}.manylinux2014_{arch}.musllinux_1_1_{arch}"
    tags = [f"{parts[2]}-{parts[3]}-{p}" for p in platform.split(".")]
    with zipfile.ZipFile(path) as z:
        files = [(i, z.read(i.filename)) for i in z.infolist()]
    marked_count = 0
    out_files = []
    record_name = None
    for info, data in files:
        if info.filename.endswith(".dist-info/RECORD"):
            record_name = info.filename
            continue
        if "/scripts/" in info.filename and PREFIX in data:
            data = marked_signed(data, "pip", f"{name}:{info.filename}")
            marked_count += 1
        if info.filename.endswith(".dist-info/WHEEL"):
            lines = [l for l in data.decode().splitlines() if not l.startswith("Tag:")]
            data = ("\n".join(lines + [f"Tag: {t}" for t in tags]) + "\n").encode()
        out_files.append((info, data))
    if marked_count != 2:
        fail(f"{name}: expected the two binaries under .data/scripts/, marked {marked_count}")
    if record_name is None:
        fail(f"{name}: no .dist-info/RECORD")
    rows = io.StringIO()
    writer = csv.writer(rows, lineterminator="\n")
    for info, data in out_files:
        writer.writerow([info.filename, record_hash(data), len(data)])
    writer.writerow([record_name, "", ""])
    out_name = "-".join(parts[:4] + [platform]) + ".whl"
    out = os.path.join(os.path.dirname(path), out_name)
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in out_files:
            z.writestr(info, data)
        z.writestr(zipfile.ZipInfo(record_name, date_time=(2020, 1, 1, 0, 0, 0)), rows.getvalue())
    os.replace(tmp, out)
    if out != path:
        os.remove(path)
    print(out)


def sums(directory, names):
    lines = []
    for name in sorted(set(names)):
        with open(os.path.join(directory, name), "rb") as f:
            lines.append(f"{hashlib.sha256(f.read()).hexdigest()}  {name}\n")
    with open(os.path.join(directory, "SHA256SUMS"), "w") as f:
        f.writelines(lines)


def check_static(path):
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
            fail(f"{path}: not a 64-bit little-endian ELF file")
        phoff = int.from_bytes(head[32:40], "little")
        phentsize = int.from_bytes(head[54:56], "little")
        phnum = int.from_bytes(head[56:58], "little")
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    for i in range(phnum):
        kind = int.from_bytes(table[i * phentsize:i * phentsize + 4], "little")
        if kind == 3:  # PT_INTERP: it needs a dynamic loader
            fail(f"{path}: dynamically linked (it names an interpreter); build the musl target")
    print(f"{path}: static")


def main(argv):
    commands = {
        "mark": (2, lambda a: mark(a[0], a[1])),
        "archive": (2, lambda a: archive(a[0], a[1])),
        "wheel": (1, lambda a: wheel(a[0])),
        "check-static": (1, lambda a: check_static(a[0])),
    }
    if len(argv) >= 2 and argv[0] == "sums":
        return sums(argv[1], argv[2:])
    if not argv or argv[0] not in commands or len(argv) - 1 != commands[argv[0]][0]:
        fail("usage: pack.py mark BINARY WORD | archive DIR OUT | wheel WHEEL | sums DIR FILE... | check-static BINARY")
    commands[argv[0]][1](argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
