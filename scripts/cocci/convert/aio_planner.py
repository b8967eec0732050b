# SPDX-License-Identifier: GPL-2.0
"""The aio methods' half of the plan: which file_operations the tool
converts, which it leaves (and why, for the report), and which requests
finished later it moves to aio_compat_async.h (Plan.async_shape()).
"""
import collections
import re

from .apis import ASYNC_WHAT, PAGECACHE_AIO


class AioPlanner:
    """Mixed into Plan (planner.py): the aio half reads the same facts
    (self.f) and files (self.map) and reports through the same report(),
    so that one sorted list holds every problem of the driver; it fills
    self.async_plans and self.notes, which Plan.run() puts in the DB."""

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
