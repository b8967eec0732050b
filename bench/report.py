#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/report.py: qemu/bench's one module for its structured data.

  report.py join --kernel K --console LOG --windows FILE
      the insn_window plugin's windows (FILE) joined with insn_bench's ICASE
      lines (LOG): one INSN row per case, on stdout
  report.py report --csv FILE --machine TEXT --date TEXT
      the markdown report of one qemu/bench run (BENCHMARKS.md); its prose,
      which the figures do not make, is in bench/prose/
  report.py prose-check DOC
      whether DOC (BENCHMARKS.md) carries bench/prose/ as it is (make lint)

Raw CSV rows:
  INSN,kernel,suite,impl,op,shape,segments,segment_bytes,reps,median,min,max
                                   guest instructions per request (windows)
  CONFIG,kernel,text               how that kernel was configured
  LOAD,kernel,load1_before,load1_after   host load around its boot
  BENCH,kernel,case,segments,bytes,requests,ns_per_request,MiB_per_s
  BOOT,kernel,boot_s,total_s       a bare boot (busybox + init)
  CHECK,kernel,boot_s,total_s      the last make check's guest run
  NOTE,kernel,text                 something went wrong in that boot
Ratios are taken within one kernel's boot only, except where a table says
it compares two kernels (instruction counts do not depend on the boot)."""

import argparse
import collections
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "lib"))
import matrix  # noqa: E402  (lib/matrix.py: the one kernel table)

HARNESS_TIMINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "harness-timings.md")
GOAL_TMPFS = 0.90
GOAL_LEGACY = 0.85


GOAL_SHIM_ONE_SEG = 1.02      # shim / native instructions at one segment
GOAL_SHIM_EQUAL = 1.005       # "equal" from 16 segments up: within 0.5 %
GOAL_REPEAT = 0.01            # two runs differ by less than 1 %
# The seed: "removing the regs parameter from all the genirq function
# results in a 20% speed up of the IRQ exit path" (FRV, commit 7d12e780e003).
SEED_FRV_SPEEDUP = 0.20


def join(args):
    """INSN rows from the ICASE lines and the plugin's windows."""
    cases = []
    with open(args.console, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("ICASE,"):
                cases.append(line.split(",")[1:])
            elif line.startswith("ICASE-SKIP,"):
                suite, why = (line.split(",", 2) + [""])[1:3]
                print(f"NOTE,{args.kernel},insn_bench {suite} skipped: {why}")
    windows = collections.defaultdict(list)
    case_vcpu = {}
    try:
        with open(args.windows, encoding="utf-8") as f:
            for line in f:
                p = line.split()
                if p[0] == "case":
                    case_vcpu[int(p[2])] = p[1]
                elif p[0] == "window" and int(p[2]) >= 0:
                    windows[(p[1], int(p[2]))].append(int(p[3]))
    except FileNotFoundError:
        print(f"NOTE,{args.kernel},no plugin output ({args.windows})")
        return 0
    if len(case_vcpu) != len(cases):
        print(f"NOTE,{args.kernel},{len(cases)} cases announced but the plugin saw "
              f"{len(case_vcpu)} case markers")
    for n, c in enumerate(cases):
        suite, impl, op, shape, segs, seglen, reps = c
        w = windows.get((case_vcpu.get(n), n), [])
        if len(w) != int(reps):
            print(f"NOTE,{args.kernel},case {n} ({'/'.join(c[:4])} {segs}x{seglen}): "
                  f"{len(w)} windows instead of {reps}")
            if not w:
                continue
        print(f"INSN,{args.kernel},{suite},{impl},{op},{shape},{segs},{seglen},{len(w)},"
              f"{statistics.median(w):.0f},{min(w)},{max(w)}")
    return 0


def load(path):
    bench = collections.OrderedDict()
    boots, checks, notes = [], [], []
    insn = collections.OrderedDict()
    configs, loads = {}, {}
    sizes = collections.OrderedDict()   # kernel -> module -> (text, data, bss)
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.strip().split(",")
            if p[0] == "INSN" and len(p) == 12:
                key = tuple(p[2:6]) + (int(p[6]), int(p[7]))
                insn.setdefault(p[1], {})[key] = (float(p[9]), int(p[10]), int(p[11]))
            elif p[0] == "CONFIG":
                configs[p[1]] = ",".join(p[2:])
            elif p[0] == "LOAD":
                loads[p[1]] = (p[2], p[3])
            elif p[0] == "BENCH" and len(p) == 8:
                k, case, n = p[1], p[2], int(p[3])
                try:
                    ns, mib = float(p[6]), float(p[7])
                except ValueError:
                    ns = mib = None
                bench.setdefault(k, {})[(case, n)] = (ns, mib)
            elif p[0] == "BOOT":
                boots.append(p[1:])
            elif p[0] == "CHECK":
                checks.append(p[1:])
            elif p[0] == "NOTE":
                notes.append((p[1], ",".join(p[2:])))
            elif p[0] == "SIZE" and len(p) == 6:
                sizes.setdefault(p[1], {})[p[2]] = tuple(int(x) for x in p[3:6])
    return bench, boots, checks, notes, insn, configs, loads, sizes


# Each shim driver against the native one it is measured with.
SIZE_PAIRS = (("bench_shimcopy_chardev", "bench_native_chardev",
               "shim, copy API: one handler, both methods generated"),
              ("bench_segwalk_chardev", "bench_native_chardev",
               "shim, segment walk: one handler, both methods generated"),
              ("bench_shimasync_chardev", "bench_async_chardev",
               "shim, asynchronous API (pin, queue, complete)"))


def size_section(sizes, out):
    """Code size: what generating both methods from one flattened handler
    costs in text, against the native pair written twice by hand."""
    if not sizes:
        return
    out += ["## Code size\n",
            "Text of each bench module as `size(1)` gives it (the whole module: the "
            "misc device, its ioctls and the data path), built with the kernel's own "
            "compiler. The shim's generated read and write methods are each flattened "
            "(`AIO_COMPAT__FLATTEN`), so the handler and what it calls are copied into "
            "both; a driver that cares keeps rare paths in `noinline` functions "
            "(docs/using-the-shim.md, \"Porting a real DMA driver\").\n",
            "| kernel | module | text (bytes) | native module | text (bytes) | ratio |",
            "|---|---|---|---|---|---|"]
    for k, mods in sizes.items():
        for shim, native, what in SIZE_PAIRS:
            if shim in mods and native in mods:
                out.append(f"| {k} | {shim} ({what}) | {mods[shim][0]} | {native} | "
                           f"{mods[native][0]} | {fmt(ratio(mods[shim][0], mods[native][0]))} |")
    out.append("")


def fmt(x, nd=2):
    return "-" if x is None else f"{x:.{nd}f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def verdict(ok):
    return "**met**" if ok else "**not met**"


def kernel_section(k, r, out):
    def mib(case, n):
        v = r.get((case, n))
        return v[1] if v else None

    def ns(case, n):
        v = r.get((case, n))
        return v[0] if v else None

    ns_list = sorted({n for (_, n) in r if n})
    out.append(f"### {k}\n")
    for direction, vec, sep, sysc, tmpfs, mem in (
            ("read", "chardev_preadv", "chardev_pread_sep", "chardev_readv",
             "tmpfs_preadv", "memcpy_read"),
            ("write", "chardev_pwritev", "chardev_pwrite_sep", "chardev_writev",
             "tmpfs_pwritev", "memcpy_write")):
        out.append(f"{direction.capitalize()}s, MiB/s (best of 9 interleaved runs), and ratios:\n")
        out.append("| request | demo_chardev io_submit vectored | N separate iocbs | "
                   "readv/writev(2) | tmpfs io_submit vectored | memcpy | "
                   "chardev / tmpfs | vectored speed-up over N iocbs | chardev / memcpy |")
        out.append("|---|---|---|---|---|---|---|---|---|")
        for n in ns_list:
            if (vec, n) not in r:
                continue
            out.append(
                f"| {n} x 4 KiB | {fmt(mib(vec, n), 0)} | {fmt(mib(sep, n), 0)} | "
                f"{fmt(mib(sysc, n), 0)} | {fmt(mib(tmpfs, n), 0)} | {fmt(mib(mem, n), 0)} | "
                f"{fmt(ratio(mib(vec, n), mib(tmpfs, n)))} | "
                f"{fmt(ratio(ns(sep, n), ns(vec, n)))} | "
                f"{fmt(ratio(mib(vec, n), mib(mem, n)), 3)} |")
        out.append("")
    if any(c.startswith("legacy_") for (c, _) in r):
        out.append("Legacy ->read/->write variant through the core patch's synchronous "
                   "fallback vs the read_iter/write_iter variant (MiB/s, ratio legacy / iter):\n")
        out.append("| request | legacy PREADV | iter PREADV | ratio | legacy PWRITEV | "
                   "iter PWRITEV | ratio | legacy N x PREAD | iter N x PREAD | ratio |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for n in ns_list:
            out.append(
                f"| {n} x 4 KiB | {fmt(mib('legacy_preadv', n), 0)} | "
                f"{fmt(mib('chardev_preadv', n), 0)} | "
                f"{fmt(ratio(mib('legacy_preadv', n), mib('chardev_preadv', n)))} | "
                f"{fmt(mib('legacy_pwritev', n), 0)} | {fmt(mib('chardev_pwritev', n), 0)} | "
                f"{fmt(ratio(mib('legacy_pwritev', n), mib('chardev_pwritev', n)))} | "
                f"{fmt(mib('legacy_pread_sep', n), 0)} | {fmt(mib('chardev_pread_sep', n), 0)} | "
                f"{fmt(ratio(mib('legacy_pread_sep', n), mib('chardev_pread_sep', n)))} |")
        out.append("")
    irq = r.get(("irq_fire", 1))
    if irq and irq[1]:
        out.append(f"Interrupts through demo_irqdev (DEMO_IRQDEV_IOC_FIRE, one raised, "
                   f"handled and waited for at a time): **{irq[1]:.0f} per second** "
                   f"({irq[0] / 1000:.1f} us each).\n")


def pct(a, b):
    return None if a is None or b is None or b == 0 else 100.0 * (a - b) / b


def fmt_pct(x, nd=2):
    return "-" if x is None else f"{x:+.{nd}f} %"


def med(r, key):
    """A case's figure: the fewest instructions any of its requests took."""
    v = r.get(key)
    return v[1] if v else None


def kernel_line(k, configs):
    return f"Kernel **{k}**, config: {configs.get(k, 'unknown')}."


def insn_intro(out):
    out.append("## Instruction counts\n")
    out.append("Guest instructions executed on the benchmark's vCPU between two markers, "
               "counted by our QEMU TCG plugin (`bench/plugin/insn_window.c`, built against "
               "the installed QEMU's `qemu-plugin.h`); `bench/insn_bench.c` puts the markers "
               "(magic no-ops) around each request in user space, so a count covers the "
               "whole request: system call entry, VFS, driver, copies, exit. Each figure is "
               "the smallest count of 15 requests, after 3 unmarked ones: whatever else runs "
               "on that vCPU inside a window (a timer interrupt, a slab refill that the "
               "allocator's timing-dependent state calls for) can only add to it, so the "
               "minimum is the request's own path. It does not depend on the host's speed "
               "or load, and compares across boots and kernels. The raw CSV also keeps each "
               "case's median and maximum.\n")
    out.append("Why a plugin and not QEMU's `-icount shift=0,sleep=off`: with 2 vCPUs that "
               "boot stops at \"x86: Booting SMP configuration\" (deb12-6.1, no output "
               "after it in 170 s: icount runs the vCPUs round-robin in one thread, and the "
               "second vCPU's bring-up never completes), and with 1 vCPU it boots (103 s "
               "wall-clock at host load 15) but still gives one clock for the whole "
               "machine, not a count per request.\n")


def insn_repeat(insn, loads, out):
    base = matrix.role("patched-base")
    a, b = insn.get(base), insn.get(f"{base}-loaded")
    if not a or not b:
        return None
    rows = []
    for key in a:
        if key in b:
            rows.append((key, a[key][1], b[key][1], pct(b[key][1], a[key][1]),
                         pct(b[key][0], a[key][0])))
    worst = max(abs(r[3]) for r in rows if r[3] is not None)
    worst_median = max(abs(r[4]) for r in rows if r[4] is not None)
    la, lb = loads.get(base, ("?", "?")), loads.get(f"{base}-loaded", ("?", "?"))
    out.append("### Repeatability\n")
    out.append(f"Kernel **{base}** (Debian's config), booted twice: host load average "
               f"{la[0]}-{la[1]} during the first run; the second ran with two busy loops "
               f"on the host's two CPUs (load {lb[0]}-{lb[1]}). Every case of both suites, "
               f"instructions per request (the figure the tables use), and how far the two "
               f"runs' medians differ:\n")
    out.append(f"**{len(rows)} cases, largest difference {worst:.3f} %** "
               f"(goal: under {GOAL_REPEAT * 100:.0f} %; medians: up to {worst_median:.3f} %, "
               f"the long requests catching interrupts and allocator work more often when the "
               f"host is slower).\n")
    out.append("| suite | impl | op | shape | segments x bytes | run 1 | run 2 (loaded) | "
               "difference | medians' difference |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for (suite, impl, op, shape, segs, seglen), x, y, d, dm in rows:
        what = f"{segs} x {seglen}" if suite != "irq" else f"{seglen} interrupts"
        out.append(f"| {suite} | {impl} | {op} | {shape} | {what} | {x} | {y} | "
                   f"{fmt_pct(d, 3)} | {fmt_pct(dm, 3)} |")
    out.append("")
    return worst


IMPL_TEXT = {
    "native": "`bench/native_chardev/bench_native_chardev.c`: read_iter/write_iter written "
              "by hand, one copy_to_iter()/copy_from_iter() per request, no shim",
    "copy": "`bench/native_chardev/bench_shimcopy_chardev.c`: the same driver through the "
            "shim (one handler, AIO_COMPAT_DEFINE_METHODS()) moving the data with the copy "
            "API, aio_compat_copy_to_req()/_from_req(), once per request: **what the shim "
            "costs**",
    "segwalk": "`bench/native_chardev/bench_segwalk_chardev.c`: the same driver through the "
               "shim's segment walk, aio_compat_seg_walk(), one copy_to_user()/"
               "__copy_from_user() per user segment (it refuses ITER_BVEC, so it is not in "
               "the io_uring table)",
    "demo": "`drivers/demo_chardev`, the demo driver: the copy API plus its own features "
            "(per-open throttle, a statistics counter per request shape and per copy call, "
            "copies in chunks of up to 1 MiB with a signal check between two)",
}
SUITE_TEXT = {
    "chardev": ("What the shim costs", "UBUF is pread(2)/pwrite(2) of one buffer, IOVEC "
                "preadv(2)/pwritev(2) of N segments."),
    "uring": ("io_uring fixed buffers (ITER_BVEC)", "One IORING_OP_READ_FIXED/WRITE_FIXED "
              "from a 4 MiB registered buffer (io_uring_submit_and_wait(), then the CQE), "
              "at buffer offset 0, so a request of N pages reaches ->read_iter as an "
              "ITER_BVEC of N page segments; 1 x 64 is 64 bytes of one page."),
}


PROSE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prose")


def prose(name):
    """bench/prose/NAME as BENCHMARKS.md carries it: without its leading
    comments, each paragraph and list item on one line."""
    with open(os.path.join(PROSE, name), encoding="utf-8") as f:
        text = re.sub(r"\A(<!--.*?-->\s*)+", "", f.read(), flags=re.S)
    out = []
    for line in text.rstrip("\n").split("\n"):
        starts = not line or line.startswith(("- ", "#")) or not out or not out[-1]
        if starts or out[-1].startswith("#"):
            out.append(line)
        else:
            out[-1] += " " + line.strip()
    return "\n".join(out) + "\n"


def prose_check(doc):
    """Each prose file that doc (BENCHMARKS.md) does not carry as it is,
    a line "FILE:1: what to do" each; 1 if any."""
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    stale = [n for n in sorted(os.listdir(PROSE)) if n.endswith(".md") and prose(n) not in text]
    for n in stale:
        print(f"bench/prose/{n}:1: not in {os.path.basename(doc)} as it is: "
              "run make bench DOC=1 (or take the edit back)")
    return 1 if stale else 0


def shim_impls(r, suite):
    return sorted({key[1] for key in r if key[0] == suite and key[1] != "native"})


def shim_vs_native(k, r, configs, out, suite="chardev"):
    impls = shim_impls(r, suite)
    if not impls or not any(key[0] == suite and key[1] == "native" for key in r):
        return []
    title, shapes = SUITE_TEXT[suite]
    out.append(f"### {title}: {k}\n")
    out.append(kernel_line(k, configs) + " Implementations, each loaded in the same boot "
               "and given the same requests, all over a 4 MiB vmalloc store with the same "
               "lock and semantics:\n")
    for i in ["native"] + impls:
        out.append(f"- `{i}`: {IMPL_TEXT.get(i, i)}")
    out.append("")
    out.append(f"{shapes} Counted: guest instructions per request on the benchmark's "
               "vCPU, user space's system call to its return (fewest of 15), and the "
               "ratio to native:\n")
    head = "| op | shape | segments x bytes | native |" + "".join(
        f" {i} | {i} / native |" for i in impls)
    out.append(head)
    out.append("|---|---|---|---|" + "---|---|" * len(impls))
    keys = sorted({key[2:] for key in r if key[0] == suite},
                  key=lambda t: (t[0], t[1] != "ubuf", t[3], t[2]))
    checks = []
    for op, shape, segs, seglen in keys:
        nat = med(r, (suite, "native", op, shape, segs, seglen))
        line = f"| {op} | {shape.upper()} | {segs} x {seglen} | {fmt(nat, 0)} |"
        for i in impls:
            v = med(r, (suite, i, op, shape, segs, seglen))
            q = ratio(v, nat)
            line += f" {fmt(v, 0)} | {fmt(q, 3)} |"
            if q is not None:
                checks.append((i, op, shape, segs, seglen, q, v - nat))
        out.append(line)
    out.append("")
    if suite != "chardev":
        return checks
    # Per request and per byte, from the 64-byte and 4096-byte segments.
    out.append("Split into a per-request part (the 64-byte-segment count) and a per-byte "
               "part ((count at 4096 B - count at 64 B) / (segments x 4032 B)):\n")
    out.append("| op | shape | segments | impl | instructions per request (64 B segments) | "
               "instructions per byte |")
    out.append("|---|---|---|---|---|---|")
    for op, shape, segs, seglen in keys:
        if seglen != 64:
            continue
        for i in ["native"] + impls:
            small = med(r, (suite, i, op, shape, segs, 64))
            big = med(r, (suite, i, op, shape, segs, 4096))
            per_byte = None if small is None or big is None else (big - small) / (segs * 4032)
            out.append(f"| {op} | {shape.upper()} | {segs} | {i} | {fmt(small, 0)} | "
                       f"{fmt(per_byte, 3)} |")
    out.append("")
    return checks


IMPL_GOAL = {"copy": "shim (copy API)", "segwalk": "shim (segment walk)",
             "demo": "demo_chardev (copy API + its features)",
             "shim submit": "shim (asynchronous API), submission (io_submit)",
             "shim complete": "shim (asynchronous API), completion (COMPLETE ioctl)"}
SUITE_GOAL = {"chardev": "", "uring": ", io_uring fixed buffers", "async": ""}


def shim_goal_rows(k, checks, out, suite="chardev"):
    by_impl = collections.defaultdict(list)
    for c in checks:
        by_impl[c[0]].append(c)
    where = SUITE_GOAL[suite]
    for i, cs in by_impl.items():
        name = IMPL_GOAL.get(i, i) + where
        # Each goal: the segment counts it judges, its bound, its wording.
        targets = [([c for c in cs if c[3] == 1], GOAL_SHIM_ONE_SEG,
                    f"within {(GOAL_SHIM_ONE_SEG - 1) * 100:.0f} % of native at one segment"),
                   ([c for c in cs if c[3] >= 16], GOAL_SHIM_EQUAL,
                    f"equal to native (within {(GOAL_SHIM_EQUAL - 1) * 100:.1f} %) "
                    "from 16 segments")]
        for cases, goal, what in targets:
            if not cases:
                continue
            worst = max(cases, key=lambda c: c[5])
            out.append(f"| {name} {what} (instructions) | {k} | worst {worst[5]:.3f} "
                       f"({worst[1]} {worst[2].upper()} {worst[3]} x {worst[4]}: "
                       f"{worst[6]:+.0f} instructions) | {verdict(worst[5] <= goal)} |")


def async_table(k, r, configs, out):
    """The shim's asynchronous path against the native driver."""
    if not any(key[0] == "async" and key[1] == "native" for key in r):
        return []
    out.append(f"### Asynchronous submission and completion: shim vs native: {k}\n")
    out.append(kernel_line(k, configs) + " " + prose("async.md"))
    out.append("| op | step | segments x bytes | native | shim | shim / native | "
               "shim - native |")
    out.append("|---|---|---|---|---|---|---|")
    keys = sorted({key[2:] for key in r if key[0] == "async"},
                  key=lambda t: (t[0], t[1] != "submit", t[2], t[3]))
    checks = []
    for op, step, segs, seglen in keys:
        nat = med(r, ("async", "native", op, step, segs, seglen))
        shim = med(r, ("async", "shim", op, step, segs, seglen))
        q = ratio(shim, nat)
        d = None if q is None else shim - nat
        out.append(f"| {op} | {step} | {segs} x {seglen} | {fmt(nat, 0)} | {fmt(shim, 0)} | "
                   f"{fmt(q, 3)} | {'-' if d is None else f'{d:+.0f}'} |")
        if q is not None:
            # The goal holds for each step: one row each.
            checks.append(("shim " + step, op, step, segs, seglen, q, d))
    out.append("")
    return checks


def per_event(r, shape):
    """Instructions per interrupt: (16 fired - 0 fired) / 16, and 1 - 0."""
    op = "write" if shape == "fire_nmi" else "read"
    w0 = med(r, ("irq", "demo_irqdev", op, shape, 1, 0))
    w1 = med(r, ("irq", "demo_irqdev", op, shape, 1, 1))
    w16 = med(r, ("irq", "demo_irqdev", op, shape, 1, 16))
    if w0 is None or w16 is None:
        return None, None
    return (w16 - w0) / 16, (None if w1 is None else w1 - w0)


def nmi_irq(insn, configs, out):
    st, pa = insn.get("stock-nodebug-6.1"), insn.get("patched-nodebug-6.1")
    if not st or not pa:
        return []
    out.append("### The NMI and IRQ paths, stock vs patched, no debug\n")
    out.append(f"{kernel_line('stock-nodebug-6.1', configs)} "
               f"{kernel_line('patched-nodebug-6.1', configs)} Same source, same config, "
               "same compiler; the only difference is core-patch/series. Counted: one "
               "DEMO_IRQDEV_IOC_FIRE_NMI ioctl raising 16 self-NMIs one after another minus "
               "the same ioctl raising none, divided by 16, so a figure is one loop turn of "
               "demo_irqdev_fire_nmi(): preempt_disable, the self-IPI (APIC write), NMI "
               "entry, default_do_nmi, nmi_handle, our handler, NMI exit, the wait for our "
               "handler's mark, preempt_enable, cond_resched. The IRQ row is the same for "
               "DEMO_IRQDEV_IOC_FIRE (edu raise, IRQ entry, genirq, our handler, complete(), "
               "IRQ exit, the waiter): x86 IRQ handlers lost regs in 2.6.19 already, so "
               "the patch should leave it alone.\n")
    out.append("| path | stock (per event) | patched (per event) | patched - stock | change | "
               "single event, stock / patched |")
    out.append("|---|---|---|---|---|---|")
    rows = []
    for shape, what in (("fire_nmi", "self-NMI"), ("fire", "IRQ (edu, MSI)")):
        s16, s1 = per_event(st, shape)
        p16, p1 = per_event(pa, shape)
        if s16 is None or p16 is None:
            continue
        d = pct(p16, s16)
        rows.append((what, s16, p16, d))
        out.append(f"| {what} | {s16:.1f} | {p16:.1f} | {p16 - s16:+.1f} | {fmt_pct(d)} | "
                   f"{fmt(s1, 0)} / {fmt(p1, 0)} |")
    out.append("")
    out.append(f"The seed's figure: removing regs from the genirq functions made FRV's IRQ "
               f"exit path (leaving timer_interrupt() to leaving do_IRQ()) "
               f"{SEED_FRV_SPEEDUP * 100:.0f} % faster. Our figures cover a whole NMI round "
               f"trip on x86-64, where regs is passed in a register, not a slice of the "
               f"exit path. Counts are exact within a boot; between two boots of one kernel "
               f"a path can still differ by a few instructions per event where the kernel's "
               f"state differs (whether a waiter sleeps, which slab serves an allocation), "
               f"so a delta of a few instructions per event is only the patch's when a "
               f"profile (the plugin's profile=on) places it in the patched functions.\n")
    return rows


def legacy_table(insn, configs, out):
    k = "patched-nodebug-6.1"
    r = insn.get(k)
    if not r or not any(key[0] == "aio" and key[1] == "legacy" for key in r):
        return None
    out.append("### Legacy ->read/->write fallback (core-patch 0002) against read_iter\n")
    out.append(kernel_line(k, configs) + " One io_submit() PREADV/PWRITEV iocb of N "
               "segments of 4 KiB, then io_getevents(), on demo_chardev (read_iter/"
               "write_iter through the shim) and on demo_chardev_legacy (only ->read/->write, "
               "served by the core patch's synchronous fallback). Relative speed = iter "
               "instructions / legacy instructions. The fallback calls ->read/->write once "
               "per segment, so every segment pays the driver's per-call work (taking its "
               "lock, setting up a request) on top of the fallback's loop, where read_iter "
               "pays it once per request: the ratio falls towards (iter cost per segment) / "
               "(iter cost per segment + per-call cost) as N grows.\n")
    out.append(prose("legacy-path.md"))
    out.append("| op | request | iter | legacy | relative speed of legacy |")
    out.append("|---|---|---|---|---|")
    ratios = []
    for op in ("read", "write"):
        for segs in sorted({key[4] for key in r if key[0] == "aio"}):
            it = med(r, ("aio", "iter", op, "iovec", segs, 4096))
            lg = med(r, ("aio", "legacy", op, "iovec", segs, 4096))
            q = ratio(it, lg)
            if q is not None:
                ratios.append((op, segs, q))
            out.append(f"| {op} | {segs} x 4 KiB | {fmt(it, 0)} | {fmt(lg, 0)} | {fmt(q, 3)} |")
    out.append("")
    return ratios


def goals(bench, out, insn_rows):
    out.append("## Against the goals\n")
    out.append("Instruction counts first, then wall-clock. The wall-clock rows are only as "
               "good as the host was quiet (see the load averages above and per boot in the "
               "raw CSV); the instruction rows do not depend on it.\n")
    out.append("| goal | kernel | figures | verdict |")
    out.append("|---|---|---|---|")
    out.extend(insn_rows)
    for k, r in bench.items():
        def get(case, n, i):
            v = r.get((case, n))
            return v[i] if v else None
        for d, vec, tmpfs, sep in (("read", "chardev_preadv", "tmpfs_preadv",
                                    "chardev_pread_sep"),
                                   ("write", "chardev_pwritev", "tmpfs_pwritev",
                                    "chardev_pwrite_sep")):
            rs = [(n, ratio(get(vec, n, 1), get(tmpfs, n, 1))) for n in (4, 16, 64)]
            rs = [(n, x) for n, x in rs if x is not None]
            if rs:
                ok = all(x >= GOAL_TMPFS for _, x in rs)
                figs = ", ".join(f"{n * 4} KiB {x:.2f}" for n, x in rs)
                out.append(f"| demo_chardev >= {GOAL_TMPFS} of tmpfs at >= 16 KiB "
                           f"({d}s, wall-clock) | {k} | {figs} | {verdict(ok)} |")
            sp = [(n, ratio(get(sep, n, 0), get(vec, n, 0))) for n in (4, 16, 64)]
            sp = [(n, x) for n, x in sp if x is not None]
            if sp:
                ok = all(x > 1.0 for _, x in sp)
                figs = ", ".join(f"N={n} x{x:.2f}" for n, x in sp)
                out.append(f"| vectored N-segment iocb faster than N iocbs "
                           f"({d}s, wall-clock) | {k} | {figs} | {verdict(ok)} |")
        lg = [(n, ratio(get("legacy_" + c, n, 1), get("chardev_" + c, n, 1)))
              for c in ("preadv", "pwritev") for n in (1, 4, 16, 64)]
        lg = [(n, x) for n, x in lg if x is not None]
        if lg:
            worst = min(x for _, x in lg)
            out.append(f"| legacy ->read/->write >= {GOAL_LEGACY} of read_iter (wall-clock) "
                       f"| {k} | worst {worst:.2f}, best {max(x for _, x in lg):.2f} | "
                       f"{verdict(worst >= GOAL_LEGACY)} |")
    out.append("| shim-built vs native interrupt handler rate equal | all | not measured "
               "as two modules: `qemu/zero-overhead` (in make check) shows the shim-built "
               "handlers compile to the same instructions as native ones, so there is no "
               "second code path to time | met by construction |")
    out.append("")


def insn_sections(insn, configs, loads):
    """The instruction-count sections and their rows of the goals table."""
    out, rows = [], []
    insn_intro(out)
    worst = insn_repeat(insn, loads, out)
    if worst is not None:
        rows.append(f"| same count twice, the second run with the host loaded, difference < "
                    f"{GOAL_REPEAT * 100:.0f} % | {matrix.role('patched-base')} | "
                    f"largest {worst:.3f} % | {verdict(worst < GOAL_REPEAT * 100)} |")
    if any(key[0] == "chardev" for r in insn.values() for key in r):
        out.append(prose("shim-cost.md"))
    for k in insn:
        if k.endswith("-loaded"):
            continue
        for suite in ("chardev", "uring"):
            shim_goal_rows(k, shim_vs_native(k, insn[k], configs, out, suite), rows, suite)
        shim_goal_rows(k, async_table(k, insn[k], configs, out), rows, "async")
    for what, s16, p16, d in nmi_irq(insn, configs, out):
        rows.append(f"| {what} path, patched vs stock (no debug; measured, no target) | "
                    f"stock/patched-nodebug-6.1 | {s16:.1f} -> {p16:.1f} instructions, "
                    f"{fmt_pct(d)} (FRV IRQ exit: -{SEED_FRV_SPEEDUP * 100:.0f} %) | "
                    f"{'faster' if d < 0 else 'not faster'} |")
    lg = legacy_table(insn, configs, out)
    if lg:
        worst = min(lg, key=lambda t: t[2])
        rows.append(f"| legacy ->read/->write >= {GOAL_LEGACY} of read_iter (instructions) | "
                    f"patched-nodebug-6.1 | worst {worst[2]:.3f} ({worst[0]} {worst[1]} x 4 KiB), "
                    f"best {max(t[2] for t in lg):.3f} | {verdict(worst[2] >= GOAL_LEGACY)} |")
    return out, rows


def report(a):
    bench, boots, checks, notes, insn, configs, loads, sizes = load(a.csv)
    out = ["# Benchmarks", "",
           "Generated by `make bench` (`qemu/bench --doc`) from one run; raw rows and "
           "per-run reports are written to `results/` (not committed).", "",
           f"- **Date:** {a.date}",
           f"- **Machine:** {a.machine}",
           f"- **Kernels:** {', '.join(dict.fromkeys(list(insn) + list(bench)))} "
           "(one boot each)", ""]
    for k, text in notes:
        out.append(f"**Note ({k}):** {text}. Its figures were kept, but treat them "
                   "with suspicion.\n")
    insn_out, insn_rows = insn_sections(insn, configs, loads)
    goals(bench, out, insn_rows)
    out.extend(insn_out)
    size_section(sizes, out)
    out += ["## Wall-clock\n",
            "Everything runs under QEMU TCG (binary translation, no KVM), where a system call "
            "and a memcpy are both emulated: the absolute figures say little about real "
            "hardware. Quote the ratios, and only between figures from the same boot. The "
            "boots carry the counting plugin, which slows every translated block alike.\n",
            "Each request moves N segments of 4 KiB (N = 1, 4, 16, 64, i.e. 4-256 KiB) at "
            "offset 0 of the store (or of a 256 KiB tmpfs file). \"N separate "
            "iocbs\" submits the same bytes as N one-segment PREAD/PWRITE iocbs in one "
            "io_submit call; the speed-up column is the time of those divided by the time "
            "of one N-segment iocb.\n",
            "The memcpy column is glibc's memcpy in the guest; under TCG the \"ceiling\" "
            "can sit below the device, which would not happen on hardware.\n"]
    for k, r in bench.items():
        out.append(kernel_line(k, configs) + "\n")
        kernel_section(k, r, out)
    out.append("## Harness timings\n")
    out.append("### Bare boots and the last make check, from this run\n")
    timings = [(boots, "Bare boots (busybox + init only, `qemu/run --exec true`): seconds "
                "from QEMU start to the guest's first line, and the whole run.\n",
                "whole run (s)"),
               (checks, "The last `make check` found in `build/` (its test initramfs "
                "carries fio and its libraries, about 40 MB):\n",
                "guest suite, whole run (s)")]
    for rows, intro, whole in timings:
        if not rows:
            continue
        out.append(intro)
        out.append(f"| kernel | to first guest line (s) | {whole} |")
        out.append("|---|---|---|")
        for k, b, t in rows:
            out.append(f"| {k} | {b} | {t} |")
        out.append("")
    if not boots and not checks:
        out.append("None in this run (no bare boots timed, no `make check` results in "
                   "`build/`).\n")
    # Timed by hand, dated: make bench does not run make check.
    with open(HARNESS_TIMINGS, encoding="utf-8") as f:
        text = f.read()
    out.append(re.sub(r"\A(<!--.*?-->\s*)+", "", text, flags=re.S).rstrip() + "\n")
    print("\n".join(out))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("join", help="INSN rows from a boot's console and plugin output")
    j.add_argument("--kernel", required=True)
    j.add_argument("--console", required=True)
    j.add_argument("--windows", required=True)
    r = sub.add_parser("report", help="the markdown report from a run's CSV")
    r.add_argument("--csv", required=True)
    r.add_argument("--machine", required=True)
    r.add_argument("--date", required=True)
    c = sub.add_parser("prose-check", help="BENCHMARKS.md carries bench/prose/ as it is")
    c.add_argument("doc")
    a = ap.parse_args()
    if a.cmd == "prose-check":
        return prose_check(a.doc)
    return join(a) if a.cmd == "join" else report(a)


if __name__ == "__main__":
    sys.exit(main())
