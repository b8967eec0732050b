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
  matrix.py check             validate the table (make lint runs it)
  matrix.py table             the matrix as a Markdown table (README)

Importable: rows(), row(name), facts(name). An unknown kernel or key exits 2
with one line saying what and what to do.
"""

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
            "packages", "coverage", "roles")
BOOLS = ("check", "kcfi_control", "default", "packages", "coverage")
# A source row may name the suites its source package comes from (private
# apt state, like a Debian row); without them the machine's apt installs it.
SOURCE_OPTIONAL = ("suites", "security")
LISTS = ("make_args", "append", "roles") + SOURCE_OPTIONAL
# The architectures a row may be built for, by Debian's names; a variant
# row is its base's.
ARCHES = ("amd64", "arm64")
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
    lines = ["| name | arch | source | what it proves |", "|---|---|---|---|"]
    for n, r in rows().items():
        if r["from"] == "debian":
            src = f"{'/'.join(r['suites'] + r['security'])} `{r['image']}` + headers"
        elif r["from"] == "variant":
            src = f"`{r['of']}` booted with `{' '.join(r['append'])}`"
        else:
            src = f"`{r['source']}`" + (f" + `{r['series']}`" if r.get("series") else "") + \
                f" + `{r['config']}`" + \
                (f" ({' '.join(r['make_args'])})" if r.get("make_args") else "")
        lines.append(f"| `{n}`{'' if r['check'] else ' (on request)'} | {r['arch']} | {src} | "
                     f"{r['proves']} |")
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
