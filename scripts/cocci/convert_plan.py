#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/convert's planner and finisher: four commands.

  convert_plan.py plan --mode M --facts F --map MAP --db DB [--keep-regs N]...
      Read analyze.cocci's facts for the whole driver (every file at once),
      print one line per problem, "file:line: what, why, what to do", in the
      user's paths (MAP: "copy<TAB>user" lines), and write DB (JSON), which
      the transforming semantic patches read: the handlers of the driver,
      the file_operations not to convert, the files not to touch.

  convert_plan.py finish --mode M FILE...
      After spatch: fold the compat-mode markers of lost_regs.cocci into
      "#if IRQAIO_IRQ_HANDLER_ARGS == 3" branches, and add the include a
      converted file needs after its last #include (not through Coccinelle,
      which moves a neighbouring comment); place AIO_COMPAT_DEFINE_METHODS().
      Prints problems as plan does.

  convert_plan.py lost-cocci --db DB
      Print the semantic patch for the calls that lost regs (from the
      tables in convert/apis.py; DB names the driver's handlers and its own
      callback members, which are not the kernel's).

  convert_plan.py async-cocci --db DB
      Print the semantic patch that moves the asynchronous methods the plan
      accepted (Plan.async_shape() says which) to aio_compat_async.h; run
      after aio_methods.cocci. Empty of rules when there are none.

The work is the package convert/ beside this file (its __init__.py names
a module per job); what the kernel changed (the APIs that lost regs, those
that keep it) is in convert/apis.py, one place.
"""
import argparse
import json
import sys

# The package beside this file, found through sys.path[0], the directory
# of the script python3 runs: callers keep running this one file.
from convert.generators import async_cocci, lost_cocci
from convert.planner import Plan
from convert.rewriter import finish


def read_map(path):
    m = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            copy, user = line.rstrip("\n").split("\t")
            m[copy] = user
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["plan", "finish", "lost-cocci", "async-cocci"])
    ap.add_argument("--mode", choices=["compat", "native"])
    ap.add_argument("--facts")
    ap.add_argument("--map")
    ap.add_argument("--db")
    ap.add_argument("--ctx-map")
    ap.add_argument("--keep-regs", action="append", default=[])
    ap.add_argument("files", nargs="*")
    a = ap.parse_intermixed_args()
    if a.cmd in ("lost-cocci", "async-cocci"):
        with open(a.db, encoding="utf-8") as fh:
            db = json.load(fh)
        sys.stdout.write(lost_cocci(db) if a.cmd == "lost-cocci" else async_cocci(db))
        return 0
    pathmap = read_map(a.map)
    if a.cmd == "plan":
        with open(a.facts, encoding="utf-8") as fh:
            plan = Plan(a.mode, fh, pathmap, a.keep_regs,
                        read_map(a.ctx_map) if a.ctx_map else None)
        db = plan.run()
        with open(a.db, "w", encoding="utf-8") as fh:
            json.dump(db, fh)
        lines = plan.texts()
    else:
        lines = finish(a.mode, a.files, pathmap)
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
