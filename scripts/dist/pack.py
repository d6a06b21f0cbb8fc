#!/usr/bin/env python3
"""The byte-level steps of `scripts/dist.sh`, portable across the Linux,
macOS and Windows runners of the release workflow (no GNU tar, sha256sum or
zip needed):

  pack.py mark BINARY WORD      write how a package's copy was installed into
                                the binary's marker (runtime/src/origin.rs)
  pack.py archive DIR OUT       DIR (one directory) as OUT: .tar.gz or .zip
  pack.py wheel WHEEL [--front BINARY]
                                a maturin wheel's binaries marked `pip`; with
                                --front, its `agenthooks` replaced by BINARY
                                (the gnu package's static front); a Linux
                                wheel whose binaries are all static tagged
                                for every Linux (manylinux and musllinux)
  pack.py sums DIR FILE...      DIR/SHA256SUMS for the FILEs (names in DIR)
  pack.py check-static BINARY   exit 1 unless an ELF binary has no
                                interpreter (no dynamic loader: runs on any
                                Linux of its architecture)
  pack.py check-glibc BINARY V  exit 1 unless every glibc symbol version an
                                ELF binary needs is V (e.g. 2.28) or older
  pack.py check-front BINARY    exit 1 unless the front (an ELF binary with
                                its symbol table: built with strip off)
                                links no symbol of the engine's crates and
                                keeps within FRONT_BUDGET (loaded bytes,
                                relocations); prints the figures

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


def wheel(path, front=None):
    """Marks the wheel's binaries `pip`; swaps in the static front; retags a
    Linux wheel of static binaries for every libc."""
    name = os.path.basename(path)
    parts = name[:-len(".whl")].split("-")
    if len(parts) != 5:
        fail(f"{name}: not a wheel name (name-version-py-abi-platform.whl)")
    platform = parts[4]
    front_data = None
    if front is not None:
        with open(front, "rb") as f:
            front_data = f.read()
    with zipfile.ZipFile(path) as z:
        files = [(i, z.read(i.filename)) for i in z.infolist()]
    scripts = [(i, d) for i, d in files if "/scripts/" in i.filename]
    if front_data is not None:
        files = [(i, front_data if i.filename.endswith("/scripts/agenthooks") else d) for i, d in files]
        scripts = [(i, d) for i, d in files if "/scripts/" in i.filename]
    arch = None
    for prefix in ("manylinux", "musllinux", "linux"):
        if platform.startswith(prefix):
            arch = platform.split(".")[0].split("_", 3 if prefix != "linux" else 1)[-1]
    if arch is not None and scripts and all(elf_static(d, i.filename) for i, d in scripts):
        platform = f"manylinux_2_17_{arch}.manylinux2014_{arch}.musllinux_1_1_{arch}"
    tags = [f"{parts[2]}-{parts[3]}-{p}" for p in platform.split(".")]
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


def elf_headers(data, name):
    """An ELF file's program and section headers: ([(type, offset, size)],
    [(type, offset, size, link)])."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        fail(f"{name}: not a 64-bit little-endian ELF file")
    u16 = lambda at: int.from_bytes(data[at:at + 2], "little")
    u32 = lambda at: int.from_bytes(data[at:at + 4], "little")
    u64 = lambda at: int.from_bytes(data[at:at + 8], "little")
    phoff, shoff = u64(32), u64(40)
    phentsize, phnum, shentsize, shnum = u16(54), u16(56), u16(58), u16(60)
    programs = [(u32(phoff + i * phentsize), u64(phoff + i * phentsize + 8),
                 u64(phoff + i * phentsize + 32)) for i in range(phnum)]
    sections = [(u32(shoff + i * shentsize + 4), u64(shoff + i * shentsize + 24),
                 u64(shoff + i * shentsize + 32), u32(shoff + i * shentsize + 40)) for i in range(shnum)]
    return programs, sections


def elf_static(data, name):
    """Whether an ELF binary runs with no dynamic loader (no PT_INTERP)."""
    programs, _ = elf_headers(data, name)
    return all(kind != 3 for kind, _, _ in programs)


def check_static(path):
    with open(path, "rb") as f:
        data = f.read()
    if not elf_static(data, path):
        fail(f"{path}: dynamically linked (it names an interpreter); build the musl target")
    print(f"{path}: static")


def glibc_versions(data, name):
    """The glibc symbol versions an ELF binary needs (SHT_GNU_verneed)."""
    _, sections = elf_headers(data, name)
    needed = set()
    for kind, offset, size, link in sections:
        if kind != 0x6ffffffe:  # SHT_GNU_verneed
            continue
        strtab = sections[link][1]
        text = lambda at: data[strtab + at:data.index(b"\0", strtab + at)].decode("ascii", "replace")
        at = offset
        while True:
            count, aux, nxt = (int.from_bytes(data[at + 2:at + 4], "little"),
                               int.from_bytes(data[at + 8:at + 12], "little"),
                               int.from_bytes(data[at + 12:at + 16], "little"))
            a = at + aux
            for _ in range(count):
                needed.add(text(int.from_bytes(data[a + 8:a + 12], "little")))
                step = int.from_bytes(data[a + 12:a + 16], "little")
                if step == 0:
                    break
                a += step
            if nxt == 0:
                break
            at += nxt
    return sorted(v for v in needed if v.startswith("GLIBC_"))


def check_glibc(path, most):
    with open(path, "rb") as f:
        data = f.read()
    limit = tuple(int(p) for p in most.split("."))
    newer = []
    for v in glibc_versions(data, path):
        nums = v[len("GLIBC_"):]
        if not nums[:1].isdigit():
            newer.append(v)  # GLIBC_ABI_DT_RELR and the like: glibc 2.36's
        elif tuple(int(p) for p in nums.split(".")) > limit:
            newer.append(v)
    if newer:
        fail(f"{path}: needs {', '.join(newer)}, newer than glibc {most}; build it with zig (maturin --zig)")
    print(f"{path}: glibc {most} or later")


# The crates only the engine may link: the front (`agenthooks`) answers
# `run` for command hooks and hands everything else to the engine, so any
# of these in it is dead weight every event pays to load and relocate.
ENGINE_CRATES = ("wasmtime", "cranelift", "wasmparser", "winch", "pulley", "regalloc2",
                 "rmcp", "oci_client", "opentelemetry_proto", "prost")

# What the front may cost, checked on each build: measured 2026-12-07 on
# the x86_64 static musl front (profile dist) without the engine, 3,944,633
# loaded bytes and 6,177 relocations (3,953,832 bytes stripped; built with
# the engine it was 4,064,424 and linked 572 symbols of the engine's
# crates). The budgets leave about 10% for growth.
FRONT_BUDGET = {"loaded bytes": 4_350_000, "relocations": 6_800}


def elf_symbols(data, name):
    """The names in an ELF file's symbol table (SHT_SYMTAB), or None when
    it has none (stripped)."""
    _, sections = elf_headers(data, name)
    names = None
    for kind, offset, size, link in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        names = names or []
        strtab = sections[link][1]
        for at in range(offset, offset + size, 24):
            start = strtab + int.from_bytes(data[at:at + 4], "little")
            names.append(data[start:data.index(b"\0", start)].decode("ascii", "replace"))
    return names


def elf_costs(data, name):
    """What loading an ELF binary costs: its loaded bytes (PT_LOAD file
    sizes) and its dynamic relocations (RELA entries, and the addresses a
    RELR table relocates)."""
    programs, sections = elf_headers(data, name)
    loaded = sum(size for kind, _, size in programs if kind == 1)
    relocs = 0
    for kind, offset, size, _ in sections:
        if kind == 4:  # SHT_RELA
            relocs += size // 24
        elif kind == 19:  # SHT_RELR: an address, or a bitmap of the next 63
            for at in range(offset, offset + size, 8):
                word = int.from_bytes(data[at:at + 8], "little")
                relocs += 1 if word & 1 == 0 else bin(word >> 1).count("1")
    return {"loaded bytes": loaded, "relocations": relocs}


def check_front(path):
    with open(path, "rb") as f:
        data = f.read()
    symbols = elf_symbols(data, path)
    if symbols is None:
        fail(f"{path}: no symbol table to check; build the front with strip off (CARGO_PROFILE_DIST_STRIP=none)")
    engine = sorted({c for s in symbols for c in ENGINE_CRATES if c in s})
    if engine:
        count = sum(1 for s in symbols if any(c in s for c in ENGINE_CRATES))
        fail(f"{path}: the front links {count} symbols of the engine's crates ({', '.join(engine)}); "
             "build it with --no-default-features, and keep what `run` reaches off them")
    costs = elf_costs(data, path)
    over = [f"{k} {v:,} > {FRONT_BUDGET[k]:,}" for k, v in costs.items() if v > FRONT_BUDGET[k]]
    if over:
        fail(f"{path}: the front is over its budget ({'; '.join(over)}): find what grew, or raise FRONT_BUDGET in pack.py with the figures")
    print(f"{path}: no engine symbols among {len(symbols):,}; "
          + ", ".join(f"{k} {v:,} (budget {FRONT_BUDGET[k]:,})" for k, v in costs.items()))


def main(argv):
    commands = {
        "mark": (2, lambda a: mark(a[0], a[1])),
        "archive": (2, lambda a: archive(a[0], a[1])),
        "check-static": (1, lambda a: check_static(a[0])),
        "check-glibc": (2, lambda a: check_glibc(a[0], a[1])),
        "check-front": (1, lambda a: check_front(a[0])),
    }
    if len(argv) == 2 and argv[0] == "wheel":
        return wheel(argv[1])
    if len(argv) == 4 and argv[0] == "wheel" and argv[2] == "--front":
        return wheel(argv[1], argv[3])
    if len(argv) >= 2 and argv[0] == "sums":
        return sums(argv[1], argv[2:])
    if not argv or argv[0] not in commands or len(argv) - 1 != commands[argv[0]][0]:
        fail("usage: pack.py mark BINARY WORD | archive DIR OUT | wheel WHEEL [--front BINARY] | sums DIR FILE... "
             "| check-static BINARY | check-glibc BINARY VERSION | check-front BINARY")
    commands[argv[0]][1](argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
