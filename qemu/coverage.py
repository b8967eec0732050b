#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qemu/coverage.py: the host side of qemu/coverage.

  coverage.py extract CONSOLE ROOT
      decode the .gcda files the guest's /init printed between
      "IRQAIO-GCOV-BEGIN PATH" and "IRQAIO-GCOV-END" (base64) to PATH, which
      must lie under ROOT (the module build, beside the .gcno files); prints
      how many were written
  coverage.py report INFO --strip PREFIX --floor PCT --floor-branches PCT --summary FILE
                     --uncovered FILE
      per-file line and branch figures of an lcov tracefile as KTAP
      diagnostics; the totals go to FILE in qemu/run's result format (lib/result.py),
      every uncovered line (and every line with a branch never taken) to
      the uncovered list; exits 1 if the lines covered are below PCT

A problem is one "file:line: what" line on stderr, and exit status 1.
"""

import argparse
import base64
import binascii
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'lib'))
import ktap  # noqa: E402  (lib/ktap.py: kernel lines)
from result import write_result  # noqa: E402  (lib/result.py: qemu/run's result format)

BEGIN, END = "IRQAIO-GCOV-BEGIN ", "IRQAIO-GCOV-END"


def extract(console, root):
    root = os.path.realpath(root)
    written = 0
    path, chunks, start = None, [], 0
    with open(console, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        if path is None:
            if line.startswith(BEGIN):
                path, chunks, start = line[len(BEGIN):].strip(), [], n
            continue
        if ktap.KMSG.match(line):
            continue        # a kernel message printed in the middle
        if line != END:
            chunks.append(line.strip())
            continue
        real = os.path.realpath(path)
        if not real.endswith(".gcda") or os.path.commonpath([real, root]) != root:
            raise ValueError(f"{console}:{start}: {path} is not a .gcda file under {root}")
        try:
            data = base64.b64decode("".join(chunks), validate=True)
        except binascii.Error as e:
            raise ValueError(f"{console}:{start}: {path}: bad base64 ({e})") from e
        os.makedirs(os.path.dirname(real), exist_ok=True)
        with open(real, "wb") as out:
            out.write(data)
        written += 1
        path = None
    if path is not None:
        raise ValueError(f"{console}:{start}: {path}: no {END} line (the guest stopped mid-dump?)")
    return written


def read_info(path):
    """{source: (lines {n: count}, branches {n: [taken, ...]})} of a tracefile."""
    files = {}
    cur = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            tag, _, val = raw.rstrip("\n").partition(":")
            if tag == "SF":
                cur = files.setdefault(val, ({}, {}))
            elif tag == "DA" and cur is not None:
                n, count = val.split(",")[:2]
                cur[0][int(n)] = cur[0].get(int(n), 0) + int(count)
            elif tag == "BRDA" and cur is not None:
                n, _block, _branch, taken = val.split(",")
                cur[1].setdefault(int(n), []).append(0 if taken == "-" else int(taken))
            elif tag == "end_of_record":
                cur = None
    return files


def pct(hit, found):
    return f"{100.0 * hit / found:.1f}" if found else "100.0"


def source_line(path, n):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()[n - 1].strip()
    except (OSError, IndexError):
        return "?"


def report(args):
    files = read_info(args.info)
    if not files:
        print(f"{args.info}:0: no source file of ours in the tracefile", file=sys.stderr)
        return 1
    tot = [0, 0, 0, 0]
    uncovered = []
    print(f"# {'file':44} {'lines':>15} {'branches':>15}")
    for src in sorted(files):
        lines, branches = files[src]
        name = src[len(args.strip):] if src.startswith(args.strip) else src
        lh = sum(1 for c in lines.values() if c)
        bf = sum(len(b) for b in branches.values())
        bh = sum(1 for b in branches.values() for t in b if t)
        tot = [tot[0] + lh, tot[1] + len(lines), tot[2] + bh, tot[3] + bf]
        print(f"# {name:44} {lh:4}/{len(lines):4} {pct(lh, len(lines)):>5}% "
              f"{bh:4}/{bf:4} {pct(bh, bf):>5}%")
        for n in sorted(set(lines) | set(branches)):
            missed = sum(1 for t in branches.get(n, []) if not t)
            if n in lines and not lines[n]:
                what = "not run"
            elif missed:
                what = f"{missed} of {len(branches[n])} branches not taken"
            else:
                continue
            uncovered.append(f"{name}:{n}: {what}: {source_line(src, n)}")
    lines_pct, branches_pct = pct(tot[0], tot[1]), pct(tot[2], tot[3])
    print(f"# {'total (drivers/ + compat/)':44} {tot[0]:4}/{tot[1]:4} {lines_pct:>5}% "
          f"{tot[2]:4}/{tot[3]:4} {branches_pct:>5}%")
    with open(args.uncovered, "w", encoding="utf-8") as f:
        f.write("".join(u + "\n" for u in uncovered))
    write_result(args.summary, {
        "lines_pct": lines_pct, "lines_hit": tot[0], "lines_found": tot[1],
        "branches_pct": branches_pct, "branches_hit": tot[2], "branches_found": tot[3],
        "floor": args.floor, "floor_branches": args.floor_branches})
    rc = 0
    for what, got, floor, var in (("lines", lines_pct, args.floor, "FLOOR_LINES"),
                                  ("branches", branches_pct, args.floor_branches,
                                   "FLOOR_BRANCHES")):
        if float(got) < floor:
            print(f"{args.uncovered}:1: {got}% of {what} is below the floor of {floor}% "
                  f"({var} in qemu/coverage): a test stopped reaching the {what} listed "
                  "there, or new code has none", file=sys.stderr)
            rc = 1
    return rc


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract")
    e.add_argument("console")
    e.add_argument("root")
    r = sub.add_parser("report")
    r.add_argument("info")
    r.add_argument("--strip", default="")
    r.add_argument("--floor", type=float, required=True)
    r.add_argument("--floor-branches", type=float, required=True)
    r.add_argument("--summary", required=True)
    r.add_argument("--uncovered", required=True)
    args = ap.parse_args()
    try:
        if args.cmd == "extract":
            print(extract(args.console, args.root))
            return 0
        return report(args)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{e.filename}:0: {e.strerror}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
