#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/harness/mutants/line.py: where a mutant's line is, for run and lint.

A mutant replaces the one line of its file equal to its "from:" line; with
"after: LINE", the first line equal to "from:" after the one line equal to
LINE (for a line that a file holds more than once, as two functions ending
alike). A mutant that finds no such line, or more than one, is stale: its
code changed, and it must say so rather than test nothing.

  line.py apply PATH FROM TO [AFTER]   put the mutant into PATH
  line.py list SET.mutants             its mutants, one a line: name, file,
                                       from, to, why, where, after separated
                                       by US (\x1f: the lines hold tabs);
                                       only IRQAIO_MUTANT_NAMES's, if set
  line.py check [SET.mutants...]       every mutant of this tree's sets
                                       (default: all; a "kernel:" set's
                                       files are in a kernel tree, not
                                       here) finds its one line; prints
                                       "file:line: ..." per stale mutant,
                                       exit 1 if any
"""

import glob
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def locate(lines, old, after=""):
    """The index of the line to mutate, or an error string."""
    start = 0
    if after:
        anchors = [i for i, line in enumerate(lines) if line == after]
        if len(anchors) != 1:
            return f"{len(anchors)} lines match its after-line"
        start = anchors[0] + 1
        hits = [i for i in range(start, len(lines)) if lines[i] == old][:1]
        return hits[0] if hits else "no line after its after-line matches"
    hits = [i for i, line in enumerate(lines) if line == old]
    return hits[0] if len(hits) == 1 else f"{len(hits)} lines match"


def records(path):
    """(set-level keys, [(line number, {key: value})]) of a .mutants file."""
    head, recs, cur = {}, [], None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line or line.startswith("#"):
                cur = None
                continue
            key, _, val = line.partition(": ")
            if key == "name":
                cur = {}
                recs.append((n, cur))
            (cur if cur is not None else head)[key] = val
    return head, recs


def check(paths):
    stale = 0
    for path in paths:
        head, recs = records(path)
        if "kernel" in head:
            continue
        rel = os.path.relpath(path, TOP)
        for n, rec in recs:
            target = os.path.join(TOP, rec.get("file", ""))
            try:
                with open(target, encoding="utf-8") as f:
                    lines = f.read().split("\n")
            except OSError:
                print(f"{rel}:{n}: mutant {rec.get('name')}: no file {rec.get('file')}; "
                      "point it at the file its line moved to")
                stale += 1
                continue
            where = locate(lines, rec.get("from", ""), rec.get("after", ""))
            if isinstance(where, str):
                print(f"{rel}:{n}: mutant {rec.get('name')}: {where} in {rec.get('file')}; "
                      "make its from-line (and after-line) name the one line it mutates")
                stale += 1
    return 1 if stale else 0


def apply(path, old, new, after):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    where = locate(lines, old, after)
    if isinstance(where, str):
        sys.exit(where)
    lines[where] = new
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return 0


def list_mutants(path):
    only = os.environ.get("IRQAIO_MUTANT_NAMES", "").split()
    for _, rec in records(path)[1]:
        if not only or rec.get("name") in only:
            keys = ("name", "file", "from", "to", "why", "where", "after")
            print("\x1f".join(rec.get(k, "") for k in keys))
    return 0


def main(argv):
    if len(argv) >= 4 and argv[0] == "apply":
        return apply(argv[1], argv[2], argv[3], argv[4] if len(argv) > 4 else "")
    if len(argv) == 2 and argv[0] == "list":
        return list_mutants(argv[1])
    if argv and argv[0] == "check":
        paths = argv[1:] or sorted(glob.glob(os.path.join(TOP, "tests/harness/mutants/*.mutants")))
        return check(paths)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
