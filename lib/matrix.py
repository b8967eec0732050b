#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lib/matrix.py: the kernel matrix (qemu/matrix.toml), for scripts and tests.

  matrix.py names [--all]     kernels make check runs, in order (--all: every row)
  matrix.py default           the kernel a command means when none is named
  matrix.py coverage          the kernel whose boot measures coverage
  matrix.py role ROLE         the one kernel that plays ROLE (ROLES below)
  matrix.py get NAME KEY      one value (a list prints one item a line)
  matrix.py facts NAME        the guest's expectations, key=value lines
  matrix.py distinct NAME...  one kernel per distinct set of API facts (the
                              last given): the kernels that differ in the
                              API shapes the guest tests expect
  matrix.py builds NAME...    the rows among NAME that are their own kernel
                              (a boot variant's build is its base's)
  matrix.py skips-check NAME  the guest suite's skips ("test: reason" lines
                              on stdin, as lib/ktap.py skips prints them)
                              are those [NAME.skips] declares: one line per
                              difference, exit 1 if any
  matrix.py uname-m NAME       the row's architecture as uname -m names it
  matrix.py machines          the architectures make check proves, as
                              uname -m names them, in table order
  matrix.py elf-check ARCH PATH...
                              every ELF file under PATH is built for ARCH;
                              one line per other file, exit 1 if any
  matrix.py check             validate the table (make lint runs it)
  matrix.py table             the matrix as a Markdown table (README)

Importable: rows(), row(name), facts(name). An unknown kernel or key exits 2
with one line saying what and what to do.
"""

import fnmatch
import os
import signal
import sys
import tomllib

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(TOP, "qemu", "matrix.toml")

# Keys each kind of row must have, and the facts every row must state.
REQUIRED = {
    "debian": ("arch", "suites", "security", "image", "headers"),
    "source": ("arch", "builder", "source", "config"),
    # The kernel of row OF, booted with this row's append on top of OF's:
    # nothing fetched or built of its own, its own facts over OF's.
    "variant": ("of",),
}
COMMON = ("check", "proves", "from")
OPTIONAL = ("target", "series", "make_args", "append", "expect", "kcfi_control", "default",
            "packages", "coverage", "roles", "skips")
BOOLS = ("check", "kcfi_control", "default", "packages", "coverage")
# A source row may name the suites its source package comes from (private
# apt state, like a Debian row); without them the machine's apt installs it.
SOURCE_OPTIONAL = ("suites", "security")
LISTS = ("make_args", "append", "roles") + SOURCE_OPTIONAL
# The architectures a row may be built for, by Debian's names (a variant
# row is its base's): each one's name as uname -m prints it (what
# compat/SUPPORTED and dkms's BUILD_EXCLUSIVE_ARCH use) and its ELF
# e_machine (EM_X86_64, EM_AARCH64), which a guest's programs and modules
# must carry.
ARCHES = {"amd64": ("x86_64", 62), "arm64": ("aarch64", 183)}
# What code asks the table for by role, not by name; one row plays each.
ROLES = {
    "sanitizer": "the row whose kernel reports what our code gets wrong (KASAN, lockdep...)",
    "patched": "the row built from Debian's kernel source with core-patch/ applied",
    "patched-base": "Debian's own build of the kernel source core-patch/ applies to "
                    "(what make bench compares the patched builds with)",
}
FACTS = {
    "nmi_handler": ("regs", "noregs", "absent"),
    "legacy_io_submit": ("einval", "served"),
    "ubuf": ("none", "rw", "single"),
    "pcim_iomap_region": ("exported", "absent"),
    "dma_complete": ("ki_complete3", "ki_complete2"),
    "dma_pin": ("pin_user", "extract"),
    "dma_cancel": ("yes", "no"),
    # Which handlers run in a kernel thread: "none"; "threadirqs" (booted
    # with it: forced threading on a stock kernel); "rt" (PREEMPT_RT, which
    # forces it and makes spinlock_t sleep). Forced threading moves every
    # handler not requested with IRQF_NO_THREAD into a thread.
    "irq_threads": ("none", "threadirqs", "rt"),
    # Module signatures: "none" (no CONFIG_MODULE_SIG); "optional" (checked,
    # an unsigned module loads and taints E: Debian's kernels without
    # Secure Boot); "forced" (CONFIG_MODULE_SIG_FORCE: an unsigned module,
    # or one signed by a key the kernel does not trust, is refused).
    "module_sig": ("none", "optional", "forced"),
}
# Facts about how a kernel runs code, not about the API shapes code is
# compiled against: distinct() ignores them.
RUNTIME_FACTS = ("irq_threads", "module_sig")


class MatrixError(Exception):
    pass


def _load():
    with open(TABLE, "rb") as f:
        return tomllib.load(f)


def validate(table):
    """Every problem in the table, as 'qemu/matrix.toml: NAME: what' lines."""
    problems = []
    for name, r in table.items():
        where = f"qemu/matrix.toml: [{name}]"
        for key in COMMON:
            if key not in r:
                problems.append(f"{where}: missing '{key}'")
        kind = r.get("from")
        if kind not in REQUIRED:
            problems.append(f"{where}: from = {kind!r}; use one of {sorted(REQUIRED)}")
            continue
        for key in REQUIRED[kind]:
            if key not in r:
                problems.append(f"{where}: missing '{key}' (a {kind} row needs it)")
        for key in r:
            if key not in COMMON + REQUIRED[kind] + OPTIONAL + \
                    (SOURCE_OPTIONAL if kind == "source" else ()):
                problems.append(f"{where}: unknown key '{key}'")
        if kind != "variant" and r.get("arch") not in ARCHES:
            problems.append(f"{where}: arch = {r.get('arch')!r}; use one of {list(ARCHES)}")
        for key in BOOLS:
            if key in r and not isinstance(r[key], bool):
                problems.append(f"{where}: {key} = {r[key]!r}; use true or false")
        expect = r.get("expect", {})
        if kind == "variant":
            base = table.get(r["of"]) if "of" in r else None
            if base is None or base.get("from") == "variant":
                problems.append(f"{where}: of = {r.get('of')!r}; name a row that is its own kernel")
                continue
            expect = {**base.get("expect", {}), **expect}
        for fact, values in FACTS.items():
            if expect.get(fact) not in values:
                problems.append(f"{where}.expect: {fact} = {expect.get(fact)!r}; "
                                f"state one of {list(values)}")
        for pattern, decl in r.get("skips", {}).items():
            if not (isinstance(decl, list) and len(decl) == 2 and isinstance(decl[0], int)
                    and decl[0] > 0 and isinstance(decl[1], str) and decl[1]):
                problems.append(f"{where}.skips: \"{pattern}\" = {decl!r}; write "
                                "[COUNT, \"the reason the tests give\"]")
        for fact in expect:
            if fact not in FACTS:
                problems.append(f"{where}.expect: unknown fact '{fact}' "
                                "(add it to FACTS in lib/matrix.py with its values)")
    defaults = [n for n, r in table.items() if r.get("default") is True]
    if len(defaults) != 1 or not table[defaults[0]].get("check"):
        problems.append("qemu/matrix.toml: exactly one row that make check runs must say "
                        f"default = true (found: {' '.join(defaults) or 'none'})")
    for role in ROLES:
        players = [n for n, r in table.items() if role in r.get("roles", [])]
        if len(players) != 1:
            problems.append(f"qemu/matrix.toml: exactly one row must say roles = [\"{role}\"] "
                            f"({ROLES[role]}; found: {' '.join(players) or 'none'})")
    for n, r in table.items():
        for role in r.get("roles", []):
            if role not in ROLES:
                problems.append(f"qemu/matrix.toml: [{n}]: unknown role '{role}' "
                                f"(ROLES in lib/matrix.py: {' '.join(ROLES)})")
    covered = [n for n, r in table.items() if r.get("coverage") is True]
    if len(covered) != 1 or table[covered[0]].get("from") != "source" \
            or not table[covered[0]].get("check"):
        problems.append("qemu/matrix.toml: exactly one source row that make check runs must "
                        f"say coverage = true (found: {' '.join(covered) or 'none'})")
    return problems


def rows():
    table = _load()
    problems = validate(table)
    if problems:
        raise MatrixError("\n".join(problems))
    for r in table.values():
        if r["from"] == "variant":
            base = table[r["of"]]
            r["expect"] = {**base["expect"], **r.get("expect", {})}
            r["arch"] = base["arch"]
            r["skips"] = {**base.get("skips", {}), **r.get("skips", {})}
            r["append"] = base.get("append", []) + r.get("append", [])
    return table


def row(name):
    table = rows()
    if name not in table:
        raise MatrixError(f"qemu/matrix.toml: no kernel '{name}'; "
                          f"known: {' '.join(table)} (add a row to add one)")
    return table[name]


def names(all_rows=False):
    return [n for n, r in rows().items() if all_rows or r["check"]]


def default():
    return next(n for n, r in rows().items() if r.get("default") is True)


def coverage():
    return next(n for n, r in rows().items() if r.get("coverage") is True)


def role(name):
    if name not in ROLES:
        raise MatrixError(f"lib/matrix.py: no role '{name}'; known: {' '.join(ROLES)}")
    return next(n for n, r in rows().items() if name in r.get("roles", []))


def facts(name):
    r = row(name)
    out = {"kernel": name}
    out.update(r["expect"])
    return out


def builds(kernels):
    """The kernels among KERNELS that are built (not a boot variant)."""
    return [k for k in kernels if row(k)["from"] != "variant"]


def machines():
    """The uname -m names of the architectures make check's rows build for."""
    seen = []
    for k in builds(names()):
        m = ARCHES[row(k)["arch"]][0]
        if m not in seen:
            seen.append(m)
    return seen


def skips_check(name, lines):
    """What differs between the guest suite's skips (LINES: "test: reason")
    and those row NAME declares: [NAME.skips] maps a test pattern (fnmatch)
    to [count, reason]; every skip must match one pattern and carry its
    reason, and each pattern must match exactly its count. A skip the
    table does not expect is a failure, never a silent pass."""
    declared = row(name).get("skips", {})
    seen = {p: 0 for p in declared}
    problems = []
    for line in lines:
        test, _, reason = line.rstrip("\n").partition(": ")
        if not test:
            continue
        pattern = next((p for p in declared if fnmatch.fnmatchcase(test, p)), None)
        if pattern is None:
            problems.append(f"{test} skipped ({reason}), but qemu/matrix.toml's "
                            f"[{name}.skips] does not expect it: fix the test or declare it")
        elif declared[pattern][1] not in reason:
            problems.append(f"{test} skipped ({reason}), but [{name}.skips] \"{pattern}\" "
                            f"says why as \"{declared[pattern][1]}\"")
        else:
            seen[pattern] += 1
    for p, (count, _) in declared.items():
        if seen[p] != count:
            problems.append(f"[{name}.skips] \"{p}\": {count} declared, {seen[p]} skipped "
                            "for that reason")
    return problems


def elf_machine(path):
    """The e_machine of ELF file PATH, or None if it is not ELF."""
    with open(path, "rb") as f:
        head = f.read(20)
    if len(head) < 20 or head[:4] != b"\x7fELF":
        return None
    return int.from_bytes(head[18:20], "little" if head[5] == 1 else "big")


def elf_foreign(arch, paths):
    """(path, e_machine) of each ELF file under PATHS not built for ARCH."""
    want = ARCHES[arch][1]
    names = {m: a for a, (_, m) in ARCHES.items()}
    found = []
    for top in paths:
        files = [top]
        if os.path.isdir(top):
            files = sorted(os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs)
        for f in files:
            if os.path.isfile(f) and not os.path.islink(f):
                m = elf_machine(f)
                if m is not None and m != want:
                    found.append((f, names.get(m, f"e_machine {m}")))
    return found


def distinct(kernels):
    """One kernel for each distinct set of API facts, the last given."""
    chosen = {}
    for k in kernels:
        key = tuple(sorted((f, v) for f, v in row(k)["expect"].items()
                           if f not in RUNTIME_FACTS))
        chosen.pop(key, None)
        chosen[key] = k
    return [k for k in kernels if k in chosen.values()]


def _value(name, key):
    r = row(name)
    if key in r:
        return r[key]
    if key in OPTIONAL or key in SOURCE_OPTIONAL:
        return [] if key in LISTS else ""
    raise MatrixError(f"qemu/matrix.toml: [{name}] has no '{key}'")


def _table_md():
    lines = ["| name | arch | source | what it proves | skipped in its guest suite |",
             "|---|---|---|---|---|"]
    for n, r in rows().items():
        if r["from"] == "debian":
            src = f"{'/'.join(r['suites'] + r['security'])} `{r['image']}` + headers"
        elif r["from"] == "variant":
            src = f"`{r['of']}` booted with `{' '.join(r['append'])}`"
        else:
            src = f"`{r['source']}`" + (f" + `{r['series']}`" if r.get("series") else "") + \
                f" + `{r['config']}`" + \
                (f" ({' '.join(r['make_args'])})" if r.get("make_args") else "")
        skips = "; ".join(f"{c} `{p}`: {why}" for p, (c, why) in r.get("skips", {}).items())
        lines.append(f"| `{n}`{'' if r['check'] else ' (on request)'} | {r['arch']} | {src} | "
                     f"{r['proves']} | {skips or 'none'} |")
    return "\n".join(lines)


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    try:
        if cmd == "names":
            print(" ".join(names(all_rows="--all" in args)))
        elif cmd == "default":
            print(default())
        elif cmd == "role" and len(args) == 1:
            print(role(args[0]))
        elif cmd == "coverage":
            print(coverage())
        elif cmd == "get" and len(args) == 2:
            v = _value(*args)
            if isinstance(v, list):
                for item in v:
                    print(item)
            elif isinstance(v, bool):
                print("true" if v else "false")
            else:
                print(v)
        elif cmd == "facts" and len(args) == 1:
            for k, v in facts(args[0]).items():
                print(f"{k}={v}")
        elif cmd == "distinct" and args:
            print(" ".join(distinct(args)))
        elif cmd == "builds" and args:
            print(" ".join(builds(args)))
        elif cmd == "skips-check" and len(args) == 1:
            problems = skips_check(args[0], sys.stdin)
            for p in problems:
                print(p)
            return 1 if problems else 0
        elif cmd == "uname-m" and len(args) == 1:
            print(ARCHES[_value(args[0], "arch")][0])
        elif cmd == "machines":
            print(" ".join(machines()))
        elif cmd == "elf-check" and len(args) >= 2:
            if args[0] not in ARCHES:
                raise MatrixError(f"elf-check: no architecture '{args[0]}'; "
                                  f"use one of {list(ARCHES)}")
            bad = elf_foreign(args[0], args[1:])
            for f, what in bad:
                print(f"{f}: built for {what}, not {args[0]}: "
                      "build it for the guest's architecture")
            return 1 if bad else 0
        elif cmd == "check":
            problems = validate(_load())
            for p in problems:
                print(p, file=sys.stderr)
            return 1 if problems else 0
        elif cmd == "table":
            print(_table_md())
        else:
            print(__doc__.strip(), file=sys.stderr)
            return 2
    except MatrixError as e:
        print(e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    # A reader that stops early ("| head") ends it, as it ends cat.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
