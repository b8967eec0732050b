# SPDX-License-Identifier: GPL-2.0
"""The plan of one conversion (convert_plan.py plan): analyze.cocci's facts
for the whole driver at once, checked against the tables in apis.py, give
the problems to report and the DB the transforming semantic patches read.
The aio methods' half of it is aio_planner.py.
"""
import collections
import re

from .aio_planner import AioPlanner
from .apis import GONE_REGS, KEEPS_REGS, LOST_REGS, LOST_REGS_FIELDS


class Plan(AioPlanner):
    def __init__(self, mode, facts, pathmap, keep, ctxmap=None):
        self.mode = mode
        self.map = pathmap
        self.ctx = ctxmap or {}
        self.keep = set(keep)
        self.problems = []
        self.async_plans = {}
        self.notes = []
        self.f = collections.defaultdict(list)
        for line in facts:
            parts = line.rstrip("\n").split("\t")
            if parts[0] == "IRQAIO":
                self.f[parts[1]].append(parts[2:])

    def user(self, path):
        return self.map.get(path, path)

    def report(self, path, line, text):
        self.problems.append((self.user(path), int(line), text))

    def texts(self):
        seen, out = set(), []
        for p in sorted(self.problems):
            if p not in seen:
                seen.add(p)
                out.append("%s:%d: %s" % p)
        return out

    # ------------------------------------------------------------ text facts
    def user_regs_members(self):
        """Function-pointer members/variables/typedefs the driver itself
        declares with a struct pt_regs * parameter: its own callback types,
        which 2.6.19 did not change."""
        names, types = set(), set()
        decl = re.compile(r"(\w+)?\s*\(\s*\*\s*(\w+)\s*\)\s*\(([^;{}]*)\)\s*;")
        for path in self.map:
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            for m in decl.finditer(text):
                if re.search(r"struct\s+pt_regs\s*\*", m.group(3)):
                    names.add(m.group(2))
            for m in re.finditer(r"typedef[^;]*\(\s*\*\s*(\w+)\s*\)\s*\(([^;]*)\)\s*;", text):
                if re.search(r"struct\s+pt_regs\s*\*", m.group(2)):
                    types.add(m.group(1))
        for path in self.map:
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            for t in types:
                for m in re.finditer(r"\b%s\s+\**\s*(\w+)\s*[;\[,=]" % re.escape(t), text):
                    names.add(m.group(1))
        return names

    def version_branches(self):
        """Files that already carry both sides of 2.6.19 under #if: an #if on
        LINUX_VERSION_CODE at 2.6.18-2.6.20 whose branches hold an IRQ
        handler or aio methods (what the rules would rewrite)."""
        bad = {}
        cond = re.compile(r"^\s*#\s*(?:el)?if\b.*LINUX_VERSION_CODE.*KERNEL_VERSION\s*\("
                          r"\s*2\s*,\s*6\s*,\s*(1[89]|20)\s*\)")
        touched = re.compile(r"\birqreturn_t\b|\baio_(read|write)\b|\.(readv|writev)\b")
        for path in self.map:
            lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
            for i, l in enumerate(lines):
                if not cond.search(l):
                    continue
                depth, j = 1, i + 1
                while j < len(lines) and depth:
                    if re.match(r"\s*#\s*if", lines[j]):
                        depth += 1
                    elif re.match(r"\s*#\s*endif", lines[j]):
                        depth -= 1
                    j += 1
                if any(touched.search(x) for x in lines[i + 1:j]):
                    bad[path] = i + 1
                    break
        return bad

    # ------------------------------------------------------------ planning
    def run(self):
        f = self.f
        skip_files = self.version_branches()
        for path, line in skip_files.items():
            if self.mode == "native":
                todo = "keep only the 2.6.19 side"
            else:
                todo = "replace both sides by IRQ_COMPAT_HANDLER()/aio_compat.h"
            self.report(path, line, "#if on LINUX_VERSION_CODE at 2.6.19: the file already "
                        "has both sides of the change and Coccinelle would rewrite one of them; "
                        "%s by hand; file not converted" % todo)

        handlers = {}
        for path, line, col, fn, regs in f["handler"]:
            handlers.setdefault(fn, (path, line))
        for path, line, col, fn in f["hproto"]:
            if fn not in handlers:
                self.report(path, line, "prototype of IRQ handler %s() with a regs parameter, "
                            "but %s() is not defined in the files converted: convert the whole "
                            "driver (make convert SRC=dir/) or change this prototype by hand"
                            % (fn, fn))

        # A single file converted: its directory's headers are read, not
        # changed; a handler prototype there no longer matches.
        for path, user in self.ctx.items():
            lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
            for i, l in enumerate(lines, 1):
                for fn in handlers:
                    if re.search(r"\birqreturn_t\s+%s\s*\(" % re.escape(fn), l):
                        self.problems.append((user, i, "prototype of IRQ handler %s(), which "
                                              "this run converts, in a header it does not: "
                                              "convert the driver's directory (make convert "
                                              "SRC=dir/) or change it by hand" % fn))

        regsfn = {}
        for path, line, col, fn, r, n in f["regsfn"]:
            regsfn.setdefault(fn, (path, line, r, int(n)))
        locals_ = {(path, fn, x) for path, line, col, fn, x in f["regslocal"]}

        # Direct calls of the driver's handlers.
        for path, line, col, caller, g, n in f["call"]:
            if g in handlers and n == "3" and self.mode == "compat":
                self.report(path, line, "direct call of IRQ handler %s() with a regs argument: "
                            "its argument count now depends on the kernel; move the shared code "
                            "into a function that takes struct pt_regs * and call that with "
                            "irq_compat_regs()" % g)

        # Where regs flows into a call.
        for path, line, col, caller, g, k, r in f["regscall"]:
            k = int(k)
            own = regsfn.get(caller)
            is_param = own is not None and own[2] == r
            if g in LOST_REGS or g in GONE_REGS:
                idx = LOST_REGS.get(g, GONE_REGS.get(g))[0]
                if k == idx and is_param:
                    continue    # lost_regs.cocci converts it
                via = "through the local %s" % r if (path, caller, r) in locals_ else \
                    "as argument %d" % (k + 1)
                self.report(path, line, "regs reaches %s() %s: %s() lost its regs argument "
                            "in 2.6.19 (7d12e780e003) and the tool converts only the handler's "
                            "or helper's own regs parameter in its place; drop the argument by "
                            "hand" % (g, via, g))
            elif g in KEEPS_REGS or g in self.keep:
                continue
            elif g in handlers:
                if k == 2 and self.mode == "native":
                    continue
                if k != 2:
                    self.report(path, line, "regs passed to IRQ handler %s() as argument %d: "
                                "not a handler call the tool can convert; fix it by hand"
                                % (g, k + 1))
            elif g in regsfn and regsfn[g][3] == k:
                continue        # the driver's own helper: keeps its parameter
            else:
                self.report(path, line, "regs passed to %s(), which is not known to keep "
                            "its regs argument: 7d12e780e003 removed it from many kernel APIs; "
                            "if %s() lost it, drop the argument by hand; if %s() keeps it, "
                            "rerun with --keep-regs %s" % (g, g, g, g))

        own_members = self.user_regs_members()
        for path, line, col, caller, fld, k, r in f["regsfield"]:
            k = int(k)
            if fld in own_members:
                continue
            own = regsfn.get(caller)
            if fld in LOST_REGS_FIELDS and k == LOST_REGS_FIELDS[fld][0] and own and own[2] == r:
                continue        # lost_regs.cocci converts it
            self.report(path, line, "regs passed to ->%s(), a function pointer the driver "
                        "does not declare: if its type lost regs in 2.6.19 (7d12e780e003), "
                        "drop the argument by hand; if it is the driver's own callback type, "
                        "convert the file that declares it too" % fld)

        # Functions with regs that are not IRQ handlers and are stored as callbacks.
        calls = {(p, l, c) for p, l, c, caller, g, n in f["call"]}
        nmi = {fn for fn, in f["nmi"]}
        lines_cache = {}
        for path, line, col, caller, fn in f["ref"]:
            if fn in handlers or fn in nmi or (path, line, col) in calls:
                continue
            if path not in lines_cache:
                with open(path, encoding="utf-8", errors="replace") as src:
                    lines_cache[path] = src.read().split("\n")
            text = lines_cache[path][int(line) - 1]
            m = re.search(r"(?:\.|->)\s*(\w+)\s*=\s*&?\s*%s\b" % re.escape(fn), text)
            if m and m.group(1) in own_members:
                continue
            if fn in LOST_REGS or fn in GONE_REGS:
                continue
            dpath, dline = regsfn[fn][0], regsfn[fn][1]
            self.report(dpath, dline, "%s() takes struct pt_regs * and is used as a callback "
                        "(line %s): if its type lost regs in 2.6.19 (usb_complete_t, "
                        "hc_driver.irq, serio_driver.interrupt, sysrq handlers; 7d12e780e003), "
                        "change its prototype by hand; not converted" % (fn, line))

        skip_fops = self.plan_aio(skip_files)
        return {
            "handlers": sorted(handlers),
            "lost_fields": sorted(set(LOST_REGS_FIELDS) - own_members),
            "skip_fops": sorted(skip_fops),
            "skip_files": sorted(skip_files),
            "async": self.async_plans,
            "notes": ["%s:%s: %s" % n for n in self.notes],
        }
