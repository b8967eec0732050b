#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/convert's planner and finisher (one module, four commands).

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
      tables below; DB names the driver's handlers and its own callback
      members, which are not the kernel's).

  convert_plan.py async-cocci --db DB
      Print the semantic patch that moves the asynchronous methods the plan
      accepted (Plan.async_shape() says which) to aio_compat_async.h; run
      after aio_methods.cocci. Empty of rules when there are none.

What the kernel changed (the APIs that lost regs, those that keep it) is
in LOST_REGS, GONE_REGS, LOST_REGS_FIELDS and KEEPS_REGS below, one place.
"""
import argparse
import collections
import json
import re
import sys

# Kernel APIs whose regs argument commit 7d12e780e003 (Linux 2.6.19) removed:
# name -> (index of the regs argument, arguments in the 2.6.18 call). Calls
# that hand a regs parameter on to them are converted (native: the argument
# goes; compat: both calls, under "#if IRQAIO_IRQ_HANDLER_ARGS == 3", the
# probe of the same commit) by the semantic patch "lost-cocci" writes from
# this table.
LOST_REGS = {
    "serio_interrupt": (3, 4),          # (serio, data, dfl, regs)
    "handle_sysrq": (1, 3),             # (key, regs, tty)
    "__handle_sysrq": (1, 4),           # (key, regs, tty, check_mask)
    "uart_handle_sysrq_char": (2, 3),   # (port, ch, regs)
    "profile_tick": (1, 2),             # (type, regs)
    "generic_handle_irq": (1, 2),       # (irq, regs)
    "__do_IRQ": (1, 2),                 # (irq, regs)
    "handle_IRQ_event": (1, 3),         # (irq, regs, action)
    "usb_hcd_giveback_urb": (2, 3),     # (hcd, urb, regs)
    "usb_hcd_irq": (2, 3),              # usbcore's 3-argument IRQ handler
    "snd_mpu401_uart_interrupt": (2, 3),  # ALSA's 3-argument IRQ handler
}
# Gone entirely in 2.6.19: the statement is kept for 2.6.18 only.
GONE_REGS = {"input_regs": (1, 2)}      # (dev, regs): dev->regs for sysrq
# Function-pointer members that lost regs: member -> (index, arguments).
LOST_REGS_FIELDS = {
    "irq": (1, 2),        # struct hc_driver: irqreturn_t (*irq)(hcd, regs)
    "complete": (1, 2),   # struct urb: usb_complete_t (*complete)(urb, regs)
}
# Kernel functions and macros that read regs and still take it after 2.6.19.
KEEPS_REGS = {
    "user_mode", "user_mode_vm", "instruction_pointer", "profile_pc",
    "show_regs", "die", "notify_die", "regs_return_value",
}
# 2.6.18 page-cache aio entry points whose prototype 027445c37282 vectored.
PAGECACHE_AIO = {
    "generic_file_aio_read", "generic_file_aio_write",
    "generic_file_aio_write_nolock", "__generic_file_aio_write_nolock",
}
ASYNC_WHAT = {"EIOCBQUEUED": "returns -EIOCBQUEUED", "aio_complete": "aio_complete()",
              "kick_iocb": "kick_iocb()", "ki_cancel": "sets ki_cancel",
              "ki_list": "keeps the kiocb on a list"}


class Plan:
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

    def async_shape(self, methods, defs, callees, async_in):
        """Is this an asynchronous shape the tool converts? The clear shape:

          - each method, or one helper it hands its kiocb to, keeps that
            kiocb in one slot, "X = iocb;" (X a static variable of the
            file) or "E->fld = iocb;" (fld a struct kiocb * member of the
            driver's request object), and that function alone returns
            -EIOCBQUEUED (after an is_sync_kiocb() check that answers a
            synchronous kiocb at once, or without one);
          - the driver has exactly one aio_complete(SLOT, res, 0), a
            statement of its own in another function (a work item, an
            interrupt handler), on that same slot, optionally followed by
            kfree() of the object holding it;
          - nothing else: no kick_iocb()/ki_retry (the retry model),
            ki_cancel, the kiocb's own ki_list.

        Returns (shape, None) or (None, why not), why in the report's words.
        """
        f = self.f
        reach = set()
        todo = list(methods)
        while todo:
            fn = todo.pop()
            if fn in reach:
                continue
            reach.add(fn)
            todo += [g for g, _, _ in callees.get(fn, ()) if g in defs]
        # The retry model, cancellation and ki_list anywhere in the driver.
        whats = {w for facts in async_in.values() for _, _, w in facts}
        for what, why in (("kick_iocb()", "the retry model, kick_iocb(): complete the request "
                           "where it is kicked"),
                          ("sets ki_retry", "the retry model, ki_retry: complete the request "
                           "where it is retried"),
                          ("sets ki_cancel", "a ki_cancel callback: give it to "
                           "aio_compat_set_cancel()"),
                          ("keeps the kiocb on a list", "the kiocb kept on its own ki_list: keep "
                           "it in a request object")):
            if what in whats:
                return None, why
        kparam = {fn: (kio, int(n)) for p, l, c, fn, kio, n in f["kparam"]}
        kpass = collections.defaultdict(set)
        for p, l, c, fn, g, k in f["kpass"]:
            kpass[fn].add((g, int(k)))
        queues = {fn for fn in reach for _, _, w in async_in.get(fn, ())
                  if w == "returns -EIOCBQUEUED"}
        stores, helpers, slot = {}, {}, None
        for m in methods:
            mine = {m} | {g for g, k in kpass.get(m, ())
                          if g in defs and kparam.get(g, (None, -1))[1] == k}
            q = {fn for fn in queues if fn in mine}
            if len(q) != 1:
                return None, ("-EIOCBQUEUED is returned from more than the method or one helper "
                              "it hands its kiocb to")
            s = q.pop()
            st = [(kind, name, e) for p, l, c, fn, kind, name, e in f["kstore"] if fn == s]
            if len(st) != 1:
                return None, "the kiocb is not kept in exactly one variable or request member " \
                    "the tool can follow"
            kind, name, e = st[0]
            if slot not in (None, (kind, name)):
                return None, "the methods keep the kiocb in different places"
            slot = (kind, name)
            stores[s] = {"expr": re.sub(r"\s+", "", e), "sync_check":
                         any(fn == s for p, l, c, fn in f["issync"])}
            if s != m:
                helpers[s] = {"kio": kparam[s][0], "index": kparam[s][1]}
        if not queues <= set(stores):
            return None, "-EIOCBQUEUED is returned from more than the method or one helper it " \
                "hands its kiocb to"
        texts = {p: open(p, encoding="utf-8", errors="replace").read() for p in self.map}
        kind, name = slot
        if kind == "var":
            decl = r"^static\s+struct\s+kiocb\s*\*\s*%s\s*;" % re.escape(name)
        else:
            decl = r"^\s+struct\s+kiocb\s*\*\s*%s\s*;" % re.escape(name)
        if not any(re.search(decl, t, re.M) for t in texts.values()):
            return None, "the kiocb is kept in %s, which is not a static struct kiocb * of the " \
                "driver or a struct kiocb * member of its request object" % name
        comps = f["acomp"]
        if len(comps) != 1:
            return None, ("%d aio_complete() calls (the tool converts one completion site)"
                          % len(comps))
        p, l, c, cfn, e, r2 = comps[0]
        e = re.sub(r"\s+", "", e)
        if r2.strip() != "0":
            return None, "aio_complete() with res2 %s, which the shim's completion does not carry" \
                % r2.strip()
        want = name if kind == "var" else None
        holder = None
        if kind == "member":
            m = re.fullmatch(r"(.+)->%s" % re.escape(name), e)
            holder = m and m.group(1)
        if (want and e != want) or (kind == "member" and not holder):
            return None, "aio_complete() completes %s, not the kiocb kept in %s" % (e, name)
        if (p, l, c) not in {tuple(x) for x in f["acomp_stmt"]}:
            return None, "aio_complete()'s value is used (it must be a statement of its own)"
        if cfn in stores or cfn in methods:
            return None, "%s() both queues and completes" % cfn
        # Without an is_sync_kiocb() check a synchronous caller reaches the
        # store too, with no kiocb (2.6.18's readv, the shim's buffer path):
        # the slot holds NULL, and a completer that tests it before
        # completing would never complete that request, which the shim
        # waits for inside the method.
        if not all(st["sync_check"] for st in stores.values()) and cfn in defs:
            dpath, dline = defs[cfn]
            body = texts.get(dpath, "").split("\n")[int(dline) - 1:]
            end = next((k for k, t in enumerate(body) if t.startswith("}")), len(body))
            test = r"\b(if|while)\s*\([^;{]*\b%s\b" % re.escape(name)
            if re.search(test, "\n".join(body[:end + 1])):
                return None, "%s() tests %s before completing, and a synchronous caller, which " \
                    "no is_sync_kiocb() check answers first, leaves it NULL: add that check, " \
                    "or complete without the test" % (cfn, name)
        freed = (p, l, c) in {tuple(x) for x in f["acomp_free"]}
        return {"kind": kind, "name": name, "stores": stores, "helpers": helpers,
                "completer": cfn, "freed": freed}, None

    def plan_aio(self, skip_files):
        f = self.f
        fops = collections.defaultdict(dict)    # fo -> fld -> (fn, path, line)
        for path, line, col, fo, fld, fn, foline in f["fops"]:
            fops[fo][fld] = (fn, path, line)
            fops[fo]["@"] = (fo, path, foline)
        defs = {fn: (path, line) for path, line, col, fn in f["def"]}
        meths = {fn: (path, line, kio) for path, line, col, fn, kio, buf in f["aiometh"]}
        callees = collections.defaultdict(set)
        for path, line, col, caller, g, n in f["call"]:
            callees[caller].add((g, path, line))
        async_in = collections.defaultdict(list)
        for path, line, col, fn, *rest in f["async"]:
            text = open(path, encoding="utf-8", errors="replace").read().split("\n")[int(line) - 1]
            what = "sets ki_retry" if "ki_retry" in text else \
                next((v for k, v in ASYNC_WHAT.items() if k in text), "completes later")
            async_in[fn].append((path, line, what))

        def why_async(fn, seen):
            if fn in async_in:
                return fn, async_in[fn][0]
            seen.add(fn)
            for g, _, _ in sorted(callees.get(fn, ())):
                if g in defs and g not in seen:
                    r = why_async(g, seen)
                    if r:
                        return r
            return None

        skip = set()
        for fo, flds in fops.items():
            _, fopath, foline = flds["@"]
            if fopath in skip_files:
                continue
            ar, aw = flds.get("aio_read"), flds.get("aio_write")
            if not ar and not aw:
                for fld in ("readv", "writev"):
                    if fld in flds:
                        fn, path, line = flds[fld]
                        self.report(path, line, ".%s = %s without .aio_read/.aio_write: 2.6.19 "
                                    "removed .readv/.writev (ee0b3e671baf) and the tool converts "
                                    "only single-buffer aio methods; write %s()'s data path as an "
                                    "aio_compat.h handler (docs/convert.md); not converted"
                                    % (fld, fn, fn))
                continue
            bad = False
            asy = []
            if not ar or not aw:
                have, miss = ("aio_read", "aio_write") if ar else ("aio_write", "aio_read")
                fn, path, line = flds[have]
                self.report(path, line, "%s has .%s but no .%s: the tool converts the pair; "
                            "add the missing method or convert by hand; not converted"
                            % (fo, have, miss))
                skip.add(fo)
                continue
            for fld, (fn, path, line) in (("aio_read", ar), ("aio_write", aw)):
                if fn in PAGECACHE_AIO or fn not in defs:
                    why = "a page-cache method whose prototype 2.6.19 vectored (027445c37282)" \
                        if fn in PAGECACHE_AIO else "not defined in the files converted"
                    self.report(path, line, ".%s = %s: %s; convert it by hand; %s not converted"
                                % (fld, fn, why, fo))
                    bad = True
                    continue
                if fn not in meths:
                    dpath, dline = defs[fn]
                    self.report(dpath, dline, "%s() is .%s of %s but not a 2.6.18 single-buffer "
                                "method (struct kiocb *, buffer, size_t, loff_t); convert it by "
                                "hand; not converted" % (fn, fld, fo))
                    bad = True
                    continue
                fwd = sorted((g, p, ln) for g, p, ln in callees.get(fn, ()) if g in PAGECACHE_AIO)
                if fwd:
                    g, p, ln = fwd[0]
                    self.report(p, ln, "%s() forwards to %s(), whose prototype 2.6.19 vectored "
                                "(027445c37282): a page-cache method, not a character-device data "
                                "path; convert it by hand; %s not converted" % (fn, g, fo))
                    bad = True
                    continue
                r = why_async(fn, set())
                if r:
                    asy.append((fn, r))
            if asy and not bad:
                shape, why = self.async_shape([fn for fn, _ in asy], defs, callees, async_in)
                if shape:
                    self.async_plans[fo] = shape
                    self.notes.append((self.user(fopath), foline,
                                       "%s's methods queue their completion once per call, and "
                                       "the segment walk calls them once per segment: the "
                                       "converted handler refuses an asynchronous request of "
                                       "more than one segment (io_submit's IOCB_CMD_PREADV/"
                                       "PWRITEV, io_uring's READV/WRITEV) with -EINVAL, which "
                                       "the 2.6.18 driver never met; to serve them, walk first "
                                       "and queue once (docs/convert.md)" % fo))
                else:
                    for fn, (helper, (p, l, what)) in asy:
                        where = "" if helper == fn else " through %s()" % helper
                        dpath, dline = defs[fn]
                        self.report(dpath, dline, "%s() completes asynchronously%s (%s, line %s) "
                                    "in a shape the tool does not convert (%s): move it to "
                                    "aio_compat_async.h by hand (a request struct "
                                    "with a struct aio_compat_async, aio_compat_queued() in the "
                                    "handler, aio_compat_complete() where it completes); %s not "
                                    "converted" % (fn, where, what, l, why, fo))
                    bad = True
            if bad:
                skip.add(fo)
                continue
            # Converted: what the maintainer must check.
            ok = {(p, l, c) for p, l, c, fn, kio in f["kiocb_ok"]}
            shape = self.async_plans.get(fo)
            if shape:
                # The kiocb handed to the converted helper becomes req, and
                # the stored one is the converted store's business.
                lines = {(p, l) for p, l, c, fn, g, k in f["kpass"] if g in shape["helpers"]}
                lines |= {(p, l) for p, l, c, fn, kind, name, e in f["kstore"]
                          if fn in shape["stores"]}
                ok |= {(p, l, c) for p, l, c, fn, kio in f["kiocb"] if (p, l) in lines}
            for fn in (ar[0], aw[0]):
                for p, l, c, cur, kio in f["kiocb"]:
                    if cur == fn and (p, l, c) not in ok:
                        self.report(p, l, "%s() uses the kiocb %s beyond ki_filp and ki_pos: "
                                    "converted to req->iocb, which is NULL for a 2.6.18 readv(2) "
                                    "and for aio_compat_rw_buf(); check it" % (fn, kio))
                        break
            for fld, what in (("readv", "read"), ("writev", "write")):
                if fld in flds:
                    fn, path, line = flds[fld]
                    self.report(path, line, ".%s = %s removed: a vectored %s now calls the "
                                "segment function once per segment; what %s did once per request "
                                "(a lock held across segments, accounting) is gone: check it"
                                % (fld, fn, what, fn))
        return skip


# ------------------------------------------------------------ finish
def fold_lost_regs(text):
    """lost_regs.cocci (compat) writes
         irqaio_convert_lost_regs(F, (NEW...), (OLD...))
         irqaio_convert_gone_regs(F, (OLD...))
    inside one statement; give that statement both shapes."""
    out, pos = [], 0
    marker = re.compile(r"irqaio_convert_(lost|gone)_regs\(")
    while True:
        m = marker.search(text, pos)
        if not m:
            out.append(text[pos:])
            return "".join(out)
        start = text.rfind("\n", 0, m.start()) + 1
        end_call = match_paren(text, m.end() - 1)
        semi = text.find(";", end_call)
        if end_call < 0 or semi < 0 or text[end_call:semi].strip() != "" and \
                not re.fullmatch(r"\s*\)*\s*", text[end_call:semi]):
            out.append(text[pos:m.end()])
            pos = m.end()
            continue
        stmt_end = semi + 1
        if stmt_end < len(text) and text[stmt_end] == "\n":
            stmt_end += 1
        args = split_args(text[m.end():end_call - 1])
        fn = args[0].strip()
        old = args[-1].strip()
        before, after = text[start:m.start()], text[end_call:stmt_end]
        pre = "#if IRQAIO_IRQ_HANDLER_ARGS == 3\t/* before 7d12e780e003 (2.6.19) */\n"
        if m.group(1) == "lost":
            new = args[1].strip()
            body = (pre + before + fn + old + after + "#else\n" + before + fn + new + after
                    + "#endif\n")
        else:
            body = pre + before + fn + old + after + "#endif\n"
        out.append(text[pos:start])
        out.append(body)
        pos = stmt_end


def match_paren(text, i):
    """Index just after the parenthesis matching text[i] == '('."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def split_args(s):
    args, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            args.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    args.append(cur)
    return args


def add_include(text, header, needed):
    if not needed or re.search(r'^\s*#\s*include\s*[<"]%s[>"]' % re.escape(header), text, re.M):
        return text, None
    incs = list(re.finditer(r"^#\s*include\b.*\n", text, re.M))
    anchor = None
    for m in incs:
        if re.search(r"<linux/(interrupt|fs)\.h>", m.group(0)) and \
                ((header == "aio_compat.h") == ("fs.h" in m.group(0))):
            anchor = m
    if anchor is None:
        # The last #include before any code (not one inside an #if below).
        code = re.search(r"^(?!#|\s*$|\s*/?\*|//).", text, re.M)
        top = [m for m in incs if code is None or m.start() < code.start()]
        anchor = top[-1] if top else None
    if anchor is None:
        return text, "no #include to add <%s> after: add it by hand" % header
    return text[:anchor.end()] + "#include <%s>\n" % header + text[anchor.end():], None


def place_methods(text):
    """aio_methods.cocci marks two places for AIO_COMPAT_DEFINE_METHODS():
    after the later method (with the handler) and before the
    file_operations. The first in the file is the one that works: after the
    methods when the file_operations follow them, else before the
    file_operations, with the handler's prototype."""
    for m in re.finditer(r"^static const int irqaio_convert_aio_compat_after__(\w+);\n", text,
                         re.M):
        prefix = m.group(1)
        after = re.search(r"^static const int irqaio_convert_aio_compat_after__%s;\n" % prefix,
                          text, re.M)
        before = re.search(r"^static const int irqaio_convert_aio_compat_before__%s;\n" % prefix,
                           text, re.M)
        if not after or not before:
            continue
        define = "AIO_COMPAT_DEFINE_METHODS(%s, %s_aio_compat_rw);\n" % (prefix, prefix)
        if after.start() < before.start():
            text = text[:before.start()] + text[before.end():]
            text = text[:after.start()] + "\n" + define + text[after.end():]
        else:
            proto = "static ssize_t %s_aio_compat_rw(struct aio_compat_req *req);\n" % prefix
            text = text[:before.start()] + proto + define + "\n" + text[before.end():]
            after = re.search(r"\n\n?static const int irqaio_convert_aio_compat_after__%s;\n"
                              % prefix,
                              text)
            text = text[:after.start()] + "\n" + text[after.end():]
    return text


def finish(mode, files, pathmap):
    problems = []
    for path in files:
        text = open(path, encoding="utf-8").read()
        new = place_methods(text)
        new = fold_lost_regs(new) if mode == "compat" else new
        if mode == "compat":
            need_irq = re.search(r"\b(IRQ_COMPAT_HANDLER|NMI_COMPAT_HANDLER|irq_compat_regs|"
                                 r"IRQAIO_IRQ_HANDLER_ARGS)\b", new)
            new, err = add_include(new, "irq_compat.h", need_irq)
        else:
            new, err = add_include(new, "asm/irq_regs.h", re.search(r"\bget_irq_regs\(\)", new))
        if err:
            problems.append("%s:1: %s" % (pathmap.get(path, path), err))
        need_aio = re.search(
            r"\b(AIO_COMPAT_FOPS|AIO_COMPAT_DEFINE_METHODS|aio_compat_seg_walk)\b", new)
        new, err = add_include(new, "aio_compat.h", need_aio)
        if err:
            problems.append("%s:1: %s" % (pathmap.get(path, path), err))
        if "irqaio_convert_" in new:
            line = new[:new.index("irqaio_convert_")].count("\n") + 1
            problems.append("%s:%d: a converted call has a shape the tool cannot fold (not a "
                            "statement of its own); finish it by hand"
                            % (pathmap.get(path, path), line))
        if new != text:
            open(path, "w", encoding="utf-8").write(new)
    return problems


def lost_cocci(db):
    """The semantic patch for calls of LOST_REGS/GONE_REGS/LOST_REGS_FIELDS
    with a function's own regs parameter (see lost_regs rules below)."""
    out = ["// SPDX-License-Identifier: GPL-2.0",
           "// Generated by scripts/cocci/convert_plan.py lost-cocci from its",
           "// LOST_REGS tables: calls that lost their regs argument in 2.6.19.",
           "virtual compat", "virtual native", "",
           "@initialize:python@", "@@", "import json, os",
           "DB = json.load(open(os.environ['IRQAIO_CONVERT_DB']))",
           "HANDLERS = set(DB['handlers'])", "",
           "@r@", "identifier fn, regs;", "type T;", "parameter list ps, ps2;", "@@",
           "  T fn(ps, struct pt_regs *regs, ps2) { ... }", "",
           # In a compat handler the 2.6.18 branch reads irq_compat_regs(), so
           # that a handler whose only use of regs was this call declares no
           # regs variable (unused in the 2.6.19 branch).
           "@script:python ex depends on r@", "fn << r.fn;", "regs << r.regs;", "e;", "@@",
           "coccinelle.e = cocci.make_expr('irq_compat_regs()' if fn in HANDLERS else regs)", ""]

    def args(n, idx, regs):
        return ", ".join(regs if i == idx else "E%d" % i for i in range(n))

    def newargs(n, idx):
        return ", ".join("E%d" % i for i in range(n) if i != idx)

    for mode in ("native", "compat"):
        alts = []
        for g, (idx, n) in sorted(LOST_REGS.items()):
            old = "%s(%s)" % (g, args(n, idx, "regs"))
            if mode == "native":
                alts.append(["- " + old, "+ %s(%s)" % (g, newargs(n, idx))])
            else:
                alts.append(["- " + old, "+ irqaio_convert_lost_regs(%s, (%s), (%s))"
                             % (g, newargs(n, idx), args(n, idx, "e"))])
        for fld, (idx, n) in sorted(LOST_REGS_FIELDS.items()):
            if fld not in db["lost_fields"]:
                continue
            for op in ("->", "."):
                old = "X%s%s(%s)" % (op, fld, args(n, idx, "regs"))
                if mode == "native":
                    alts.append(["- " + old, "+ X%s%s(%s)" % (op, fld, newargs(n, idx))])
                else:
                    alts.append(["- " + old, "+ irqaio_convert_lost_regs(X%s%s, (%s), (%s))"
                                 % (op, fld, newargs(n, idx), args(n, idx, "e"))])
        used = {i for idx, n in list(LOST_REGS.values()) + list(LOST_REGS_FIELDS.values())
                for i in range(n) if i != idx}
        out += ["@depends on %s && r@" % mode, "identifier r.fn, r.regs;",
                "expression X;", "expression %s;" % ", ".join("E%d" % i for i in sorted(used)),
                "type T;"]
        if mode == "compat":
            out.append("expression ex.e;")
        out += ["@@", "  T fn(...) {", "  <...", "("]
        out.append("\n|\n".join("\n".join(a) for a in alts))
        out += [")", "  ...>", "  }", ""]
        for g, (idx, n) in sorted(GONE_REGS.items()):
            out += ["@depends on %s && r@" % mode, "identifier r.fn, r.regs;",
                    "expression %s;" % ", ".join("E%d" % i for i in range(n) if i != idx),
                    "type T;"]
            if mode == "compat":
                out.append("expression ex.e;")
            out += ["@@", "  T fn(...) {", "  <...", "- %s(%s);" % (g, args(n, idx, "regs"))]
            if mode == "compat":
                out.append("+ irqaio_convert_gone_regs(%s, (%s));" % (g, args(n, idx, "e")))
            out += ["  ...>", "  }", ""]
    return "\n".join(out) + "\n"


def async_cocci(db):
    """The semantic patch that moves the asynchronous shapes the plan
    accepted (Plan.async_shape()) to aio_compat_async.h, run after
    aio_methods.cocci (the methods are segment functions by then, their
    kiocb req->iocb). The slot that kept the kiocb keeps it (the driver may
    test it), and gets a struct aio_compat_async beside it, NAME_async:

      X = req->iocb;             ->  X = req->iocb;
                                     aio_compat_async_init(req, &X_async);
      return -EIOCBQUEUED;       ->  return aio_compat_queued(req, &X_async);
      aio_complete(X, res, 0);   ->  aio_compat_complete(&X_async, res);
      is_sync_kiocb(req->iocb)   ->  !aio_compat_is_async(req)

    and a helper that took the kiocb takes the request. Where the
    completion freed the object holding the kiocb, it frees it only when
    aio_compat_complete() says so, and the method frees it after a
    synchronous wait (the completer no longer does)."""
    out = ["// SPDX-License-Identifier: GPL-2.0",
           "// Generated by scripts/cocci/convert_plan.py async-cocci: the",
           "// asynchronous methods the plan accepted, moved to aio_compat_async.h.",
           "virtual compat", "virtual native", ""]
    for fo, a in sorted(db.get("async", {}).items()):
        name, member = a["name"], a["kind"] == "member"
        # The methods queue once per call; the walk calls them once per
        # segment, so a vectored asynchronous request would complete after
        # its first one. Such a request is refused whole instead.
        prefix = fo[:-5] if fo.endswith("_fops") and len(fo) > 5 else fo
        out += ["@@", "symbol req;", "expression list es;", "@@",
                "  static ssize_t %s_aio_compat_rw(struct aio_compat_req *req)" % prefix, "  {",
                "+ if (aio_compat_is_async(req) && req->nr_segs > 1)", "+ return -EINVAL;",
                "  return aio_compat_seg_walk(es);", "  }", ""]
        slot = "E->%s" % name if member else name
        aslot = "&E->%s_async" % name if member else "&%s_async" % name
        stores = ", ".join(sorted(a["stores"]))
        for h, hp in sorted(a["helpers"].items()):
            kio = hp["kio"]
            out += ["@@", "identifier fn;", "type T;", "parameter list ps, ps2;", "symbol req;",
                    "@@",
                    "  T %s(ps," % h, "- struct kiocb *%s" % kio, "+ struct aio_compat_req *req",
                    "  , ps2) { ... }", "",
                    "@@", "type T;", "symbol req;", "@@", "  T %s(...) {" % h, "  <...",
                    "- %s->ki_filp" % kio, "+ req->file", "  ...>", "  }", "",
                    "@@", "type T;", "symbol req;", "@@", "  T %s(...) {" % h, "  <...",
                    "- %s" % kio, "+ req->iocb", "  ...>", "  }", "",
                    "@@", "type T;", "parameter list ps, ps2;", "identifier k;", "symbol req;",
                    "@@",
                    "  T %s(ps," % h, "- struct kiocb *k", "+ struct aio_compat_req *req",
                    "  , ps2);", "",
                    "@@", "expression list es, es2;", "symbol req;", "@@",
                    "  %s(es," % h, "- req->iocb", "+ req", "  , es2)", ""]
        out += ["@@", "identifier fn = {%s};" % stores, "symbol req;", "@@",
                "  fn(...) {", "  <...", "(", "- !is_sync_kiocb(req->iocb)",
                "+ aio_compat_is_async(req)",
                "|", "- is_sync_kiocb(req->iocb)", "+ !aio_compat_is_async(req)", ")",
                "  ...>", "  }", ""]
        out += ["@st@", "identifier fn = {%s};" % stores, "expression E;" if member else None,
                "symbol req;", "@@", "  fn(...) {", "  <...", "  %s = req->iocb;" % slot,
                "+ aio_compat_async_init(req, %s);" % aslot, "  ...>", "  }", ""]
        if member and a["freed"]:
            out += ["@depends on st@", "identifier st.fn;", "type T;", "@@",
                    "  T fn(...) {", "+ ssize_t queued;", "  ...", "  }", "",
                    "@@", "identifier st.fn;", "expression st.E;", "symbol req;", "@@",
                    "  fn(...) {", "  <...", "- return -EIOCBQUEUED;",
                    "+ queued = aio_compat_queued(req, %s);" % aslot,
                    "+ if (queued != -EIOCBQUEUED)", "+ kfree(E);", "+ return queued;",
                    "  ...>", "  }", ""]
        else:
            out += ["@@", "identifier st.fn;", "expression st.E;" if member else None,
                    "symbol req;", "@@", "  fn(...) {", "  <...",
                    "- return -EIOCBQUEUED;", "+ return aio_compat_queued(req, %s);" % aslot,
                    "  ...>", "  }", ""]
        comp = a["completer"]
        if member and a["freed"]:
            out += ["@@", "expression E, R;", "@@", "  %s(...) {" % comp, "  <...",
                    "- aio_complete(%s, R, 0);" % slot, "- kfree(E);",
                    "+ if (aio_compat_complete(%s, R))" % aslot, "+ kfree(E);", "  ...>", "  }", ""]
        else:
            out += ["@@", "expression %sR;" % ("E, " if member else ""), "@@",
                    "  %s(...) {" % comp, "  <...",
                    "- aio_complete(%s, R, 0);" % slot,
                    "+ aio_compat_complete(%s, R);" % aslot, "  ...>", "  }", ""]
        if member:
            out += ["@@", "identifier S;", "@@", "  struct S {", "  ...",
                    "  struct kiocb *%s;" % name, "+ struct aio_compat_async %s_async;" % name,
                    "  ...", "  };", ""]
        else:
            out += ["@@", "@@", "  static struct kiocb *%s;" % name,
                    "+ static struct aio_compat_async %s_async;" % name, ""]
    return "\n".join(x for x in out if x is not None) + "\n"


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
