#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lib/ktap.py: the one host-side KTAP reader (Documentation/dev-tools/ktap.rst).

Everything on the host that judges KTAP goes through this module: qemu/run
(the guest suite), tests/harness/check (the kernel rows and every tool row),
scripts/cocci/suite-vs-expected (expected failures), tests/harness/selftest. Like the
kernel's kunit_parser.py it reads nested documents by indentation and checks,
at every level, the version line (top level), the plan against the results,
the numbering and duplicates. It counts results in one unit, the leaf: a
result line with no results nested under it (a subtest, or a guest program
that printed none, such as load_demo_irqdev or a skipped "1..0" program).

A run passes only when the document is well formed and no leaf failed. A
"not ok" at any depth fails it, whatever any exit status said, unless the
caller lists it as an expected failure; a parent that says "not ok" with no
failing leaf under it failed by itself (it counts as one failure of its own).
"# SKIP reason" makes a result a skip; the reason is kept and shown.

Here too: emit(), the Python tools' KTAP emitter. Not here: the format of
qemu/run's --result file (lib/result.py; "ktap.py result" below reads it
through that module) and the documents "ktap.py selftest" runs the parser on
(tests/harness/ktap-selftests.json).

Command line (for the bash scripts):
  ktap.py count [--status N] [--console|--stream] LOG
      print "PASS|FAIL PASS FAIL SKIP" for LOG (the row of a KTAP-printing
      tool whose exit status was N); problems go to stderr as
      LOG:LINE: what; exits 1 unless PASS.
  ktap.py skips [--console|--stream] LOG   every skipped leaf with its reason
  ktap.py leaves [--console|--stream] LOG  every leaf, "pass|fail|xfail|skip PATH"
                                     (two runs' lists compare with diff)
  ktap.py kunit-compare CONSOLE JSON KUNIT-LOG STATUS
                                     kunit.py parse's verdict against ours
  ktap.py result FILE KEY...         values of qemu/run's --result file (lib/result.py)
  ktap.py selftest                   the parser on purpose-made bad output
                                     (tests/harness/ktap-selftests.json)
"""

import argparse
import json
import os
import re
import sys

import result  # lib/result.py: qemu/run's --result file, behind "ktap.py result"

# "ktap.py selftest"'s made-up documents and the verdicts wanted of them:
# data, so they live with the harness's other self-tests, not in the reader.
SELFTESTS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                              "tests", "harness", "ktap-selftests.json")

# A kernel log line on the console: printk.time=1 gives every one a
# timestamp, so test output that happens to say "BUG" is never taken for one.
KMSG = re.compile(r"^(?:<\d+>)?\[\s*\d+\.\d+\]\s?(?:\[\s*[TC]\d+\]\s?)?(.*)$")

# A kernel log line that began while the guest was halfway through a line
# of its own: the serial console carries both, and printk does not wait
# for the guest's newline. What the guest had written comes first, the
# rest of its line is the next console line (empty if the kernel came just
# before the guest's newline).
KMSG_CUT = re.compile(r"^(.+?)((?:<\d+>)?\[\s*\d+\.\d+\]\s.*)$")

VERSION = re.compile(r"^K?TAP version (\d+)\s*$")
PLAN = re.compile(r"^1\.\.(\d+)\s*(?:#\s*(.*))?$")
RESULT = re.compile(r"^(not ok|ok)\s+(\d+)(?:\s+-)?(?:\s+([^#]*?))?\s*(?:#\s*(.*))?$")
SKIP = re.compile(r"^SKIP\b\s*(.*)$", re.IGNORECASE)

# The guest's /init marks where the suite's KTAP ends on the console.
CONSOLE_END = "IRQAIO-"


class Result:
    """One result line, with the document nested above it if any."""

    def __init__(self, lineno, ok, number, name, directive):
        self.lineno, self.ok, self.number, self.name = lineno, ok, number, name
        self.directive = directive or ""
        m = SKIP.match(self.directive)
        self.skip = m is not None
        self.reason = m.group(1).strip() if m else None
        self.children = None        # Document
        self.diag = []              # diagnostic lines just before this result

    def is_leaf(self):
        return self.children is None or not self.children.results


class Document:
    """A KTAP document: version line, plan, results, at one indentation."""

    def __init__(self, indent, lineno):
        self.indent, self.lineno = indent, lineno
        self.version = None
        self.plan = None
        self.plan_reason = None
        self.plan_lineno = None
        self.results = []
        self.comments = []      # "#" lines not followed by a result here
        self.other = 0          # lines that are neither KTAP nor "#"

    def only_comments(self):
        """Whether this is no document at all, only "#" lines: what a
        program that prints no KTAP shows once its output is commented
        (a leaf judged by its exit status), which KTAP allows anywhere."""
        return (self.version is None and self.plan is None and not self.results
                and not self.other)


class Leaf:
    def __init__(self, path, status, reason, lineno, diag):
        self.path, self.status, self.reason = path, status, reason
        self.lineno, self.diag = lineno, diag


class Report:
    """What a KTAP log says: leaves, structural errors, the verdict."""

    def __init__(self, source, docs):
        self.source = source
        self.docs = docs
        self.errors = []        # (lineno, message)
        self.leaves = []        # Leaf, in output order
        self.own_failures = []  # (path, lineno): not ok with no failing leaf

    def error(self, lineno, msg):
        self.errors.append((lineno, msg))

    def count(self, status):
        return sum(1 for leaf in self.leaves if leaf.status == status)

    @property
    def passed(self):
        return self.count("pass")

    @property
    def skipped(self):
        return self.count("skip")

    @property
    def failed(self):
        """Failures in leaf units, plus one per parent that failed by
        itself and one per structural error: a broken document never
        reads as 0 failures."""
        return self.count("fail") + len(self.own_failures) + len(self.errors)

    @property
    def xfailed(self):
        return self.count("xfail")

    def ok(self):
        return self.failed == 0

    def problems(self):
        """One "source:line: what" per reason this report fails."""
        out = [(ln, msg) for ln, msg in self.errors]
        for leaf in self.leaves:
            if leaf.status == "fail":
                why = f" # {leaf.reason}" if leaf.reason else ""
                out.append((leaf.lineno, f"not ok: {leaf.path}{why}"))
        for path, ln in self.own_failures:
            out.append((ln, f"not ok: {path} failed with no failing subtest"))
        out.sort(key=lambda p: p[0] or 0)
        return [f"{self.source}:{ln or 0}: {msg}" for ln, msg in out]

    def skips(self):
        return [(leaf.path, leaf.reason) for leaf in self.leaves if leaf.status == "skip"]


def _split(lines, first_lineno=1):
    """(lineno, indent, text) for each non-blank line."""
    out = []
    for n, raw in enumerate(lines, first_lineno):
        line = raw.rstrip("\r\n").expandtabs(8)
        text = line.lstrip(" ")
        if text.strip():
            out.append((n, len(line) - len(text), text.rstrip()))
    return out


def _parse_doc(items, i, indent, report, split=False):
    """One document at INDENT from items[i]; with SPLIT, a version line at
    this indentation after the document began ends it (a stream of
    documents, one per program: --stream)."""
    doc = Document(indent, items[i][0] if i < len(items) else 0)
    nested = None           # a document waiting for its parent's result line
    diag = []
    while i < len(items):
        lineno, ind, text = items[i]
        if ind < indent:
            break
        if ind > indent:
            if nested is not None:
                report.error(items[i][0], "nested output after nested results "
                             "with no result line between them (indentation)")
            nested, i = _parse_doc(items, i, ind, report)
            continue
        m = VERSION.match(text)
        if m and split and (doc.version is not None or doc.plan is not None or doc.results):
            break
        i += 1
        if m:
            if doc.version is not None or doc.plan is not None or doc.results:
                # Another program's document at the same level: its
                # results cannot be told from ours.
                report.error(lineno, "version line inside a document "
                             "(a second document at the same indentation)")
            doc.version = int(m.group(1))
            continue
        m = PLAN.match(text)
        if m:
            if doc.plan is not None:
                report.error(lineno, f"second plan (first at line {doc.plan_lineno})")
            doc.plan, doc.plan_lineno = int(m.group(1)), lineno
            sm = SKIP.match(m.group(2) or "")
            doc.plan_reason = sm.group(1).strip() if sm else None
            continue
        m = RESULT.match(text)
        if m:
            res = Result(lineno, m.group(1) == "ok", int(m.group(2)),
                         (m.group(3) or "").strip(), m.group(4))
            if nested is not None and nested.only_comments():
                diag, nested = nested.comments + diag, None
            res.children, nested = nested, None
            res.diag, diag = diag, []
            doc.results.append(res)
            continue
        # Diagnostics ("# ...") and anything else a program printed.
        diag.append(text)
        if not text.startswith("#"):
            doc.other += 1
    doc.comments = diag
    if nested is not None:
        report.error(nested.lineno, "nested results with no result line for their parent")
    return doc, i


def _check(doc, path, report, top):
    where = "/".join(path) or "top level"
    if top and doc.version is None:
        report.error(doc.lineno, "no 'KTAP version 1' line")
    if doc.plan is None:
        report.error(doc.lineno, f"{where}: no plan (1..N)")
    elif doc.plan != len(doc.results):
        report.error(doc.plan_lineno, f"{where}: plan says 1..{doc.plan}, "
                     f"{len(doc.results)} results follow")
    seen_num, seen_name = {}, {}
    for k, res in enumerate(doc.results, 1):
        if res.number in seen_num:
            report.error(res.lineno, f"{where}: duplicate test number {res.number} "
                         f"(also line {seen_num[res.number]})")
        elif res.number != k:
            report.error(res.lineno, f"{where}: test number {res.number} "
                         f"where {k} was expected")
        seen_num.setdefault(res.number, res.lineno)
        if not res.name:
            report.error(res.lineno, f"{where}: result {res.number} has no name")
        elif res.name in seen_name:
            report.error(res.lineno, f"{where}: duplicate test name {res.name} "
                         f"(also line {seen_name[res.name]})")
        seen_name.setdefault(res.name, res.lineno)


def _walk(doc, path, report, xfail, top=False):
    _check(doc, path, report, top)
    for res in doc.results:
        sub = path + [res.name or f"#{res.number}"]
        name = "/".join(sub)
        if res.is_leaf():
            kids = res.children
            if kids is not None:
                _check(kids, sub, report, False)
            # "1..0 # SKIP reason" under a result: the program skipped.
            skipped = res.skip or (kids is not None and kids.plan_reason is not None)
            if not res.ok and not res.skip:
                status = "xfail" if name in xfail else "fail"
            elif skipped:
                status = "skip"
            else:
                status = "pass"
                if kids is not None and kids.plan == 0:
                    report.error(res.lineno, f"{name}: ran no test (1..0 without SKIP)")
            reason = res.reason
            if status == "skip" and not reason and kids is not None:
                reason = kids.plan_reason
            if status != "skip":
                reason = res.directive or None
            report.leaves.append(Leaf(name, status, reason, res.lineno, res.diag))
            continue
        before = len([x for x in report.leaves if x.status in ("fail", "xfail")])
        _walk(res.children, sub, report, xfail)
        after = len([x for x in report.leaves if x.status in ("fail", "xfail")])
        if not res.ok and not res.skip and after == before:
            report.own_failures.append((name, res.lineno))


def parse(lines, source="<ktap>", xfail=(), first_lineno=1, stream=False):
    """Parse KTAP lines (a whole document, nothing else) into a Report.
    With STREAM, the lines are several whole top-level documents one after
    the other (a make target running one program after another); each is
    checked as a document, and leaf paths start with docN/."""
    items = _split(lines, first_lineno)
    report = Report(source, [])
    if not items:
        report.error(first_lineno, "no KTAP output")
        return report
    # The top-level document starts at the indentation of its first line.
    i = 0
    while i < len(items):
        doc, i = _parse_doc(items, i, items[0][1], report, split=stream)
        report.docs.append(doc)
        if not stream:
            break
    if i < len(items):
        report.error(items[i][0], "output after the end of the top-level document")
    for k, doc in enumerate(report.docs, 1):
        _walk(doc, [f"doc{k}"] if stream else [], report, set(xfail), top=True)
    if not report.leaves and not report.errors and \
            not any(d.plan_reason is not None for d in report.docs):
        report.error(report.docs[0].lineno, "no test ran")
    return report


def _rest_of_cut(start, line):
    """Whether console LINE is the rest of a guest line whose START a kernel
    line cut off: after indentation alone, a line at column 0; after text,
    anything but a line of its own (KTAP, a comment), as when a guest quotes
    a kernel line in a diagnostic and goes on."""
    if line.startswith(CONSOLE_END):
        return False
    if not start.strip():
        return bool(line) and not line[0].isspace()
    text = line.lstrip()
    return not (VERSION.match(text) or PLAN.match(text) or RESULT.match(text)
                or text.startswith("#"))


def console_ktap(lines):
    """(first line number, KTAP lines) of the guest suite in a console log:
    from the first top-level version line to the guest's end marker, with
    the kernel's own log lines (printk timestamps) taken out."""
    start = None
    out = []
    cut = None      # out's index of a guest line a kernel line may have cut
    whole = ""      # that console line as it was
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if start is None:
            if VERSION.match(line):
                start = n
                out.append(line)
            continue
        # A kernel line is blanked, not dropped: line numbers stay the
        # console's. The rest of a cut guest line joins its start.
        if cut is not None:
            if KMSG.match(line):
                out.append("")
                continue        # another kernel line before the rest
            if _rest_of_cut(out[cut], line):
                out.append("")
                m = KMSG_CUT.match(line)
                out[cut] += m.group(1) if m else line
                if m:
                    whole = line
                else:
                    cut = None
                continue
            # Not the rest of it: a guest line that quotes a kernel line,
            # or, after indentation alone, a kernel line of its own.
            if out[cut].strip():
                out[cut] = out[cut][:len(out[cut]) - len(KMSG_CUT.match(whole).group(1))] + whole
            else:
                out[cut] = ""
            cut = None
        if line.startswith(CONSOLE_END):
            break
        if KMSG.match(line):
            out.append("")
            continue
        m = KMSG_CUT.match(line)
        out.append(m.group(1) if m else line)
        cut, whole = (len(out) - 1, line) if m else (None, "")
    return (start or 1), out


def read_log(path, console=False, xfail=(), stream=False):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    if console:
        first, lines = console_ktap(lines)
    else:
        first = 1
    return parse(lines, path, xfail, first, stream)


def read_xfail(paths, kernel):
    """Expected failures: "[~]PROGRAM/SUBTEST[@KERNEL,...]<TAB>reason"
    lines; {path: may_pass} for KERNEL (a line without @ is for every
    kernel; '~' marks a race that is expected to fail but may pass)."""
    out = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                key = line.partition("\t")[0].strip()
                may_pass = key.startswith("~")
                test, _, kernels = key.lstrip("~").partition("@")
                if kernels and kernel not in kernels.split(","):
                    continue
                out[test] = may_pass
    return out


def judge_status(report, status):
    """A KTAP-printing program's exit status next to its KTAP: a failure
    exit with no failed test means the program broke; an exit 0 does not
    excuse a failed test (nothing to do: the report already fails)."""
    if status != 0 and report.failed == 0:
        report.error(None, f"exit status {status} with no failed test: the program broke")
    return report


def kunit_compare(report, kunit_json, kunit_log, kunit_status):
    """Problems (list of str) between our report and kunit.py parse's
    verdict on the same output: its exit status, its [ERROR] lines, and
    its leaf counts (kunit_json's test_cases) against ours."""
    import json
    problems = []
    if kunit_status != 0:
        problems.append(f"kunit.py parse exited {kunit_status}")
    with open(kunit_log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if "[ERROR]" in line:
                problems.append("kunit.py: " + line.strip().split("[ERROR]", 1)[1].strip())
    counts = {"PASS": 0, "SKIP": 0, "FAIL": 0, "ERROR": 0}

    def walk(group):
        for case in group.get("test_cases", []):
            counts[case["status"]] = counts.get(case["status"], 0) + 1
        for sub in group.get("sub_groups", []):
            walk(sub)
    try:
        with open(kunit_json, encoding="utf-8") as f:
            walk(json.load(f))
    except (OSError, ValueError) as e:
        problems.append(f"{kunit_json}: no JSON from kunit.py ({e})")
    ours = (report.passed, report.skipped, report.count("fail") + report.count("xfail"))
    theirs = (counts["PASS"], counts["SKIP"], counts["FAIL"] + counts["ERROR"])
    if ours != theirs:
        problems.append("leaf counts differ: lib/ktap.py %d passed, %d skipped, %d failed; "
                        "kunit.py %d passed, %d skipped, %d failed" % (ours + theirs))
    return problems, theirs


def emit(results, comment=None):
    """The Python tools' KTAP emitter: (ok, name, diagnostics) results as one
    document, the plan counted; each diagnostic a "#" line under its result.
    Returns the exit status: 1 if any failed."""
    print("KTAP version 1")
    print(f"1..{len(results)}")
    if comment:
        print(f"# {comment}")
    for n, (ok, name, diags) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {n} {name}")
        for d in diags:
            print(f"# {d}")
    failed = sum(not ok for ok, _, _ in results)
    print(f"# {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


def selftest():
    """The parser on the made-up documents of SELFTESTS_FILE ("about" there
    says what each key of a test asks)."""
    with open(SELFTESTS_FILE, encoding="utf-8") as f:
        tests = json.load(f)["tests"]
    results = []
    for t in tests:
        name, lines = t["name"], t["ktap"]
        first = 1
        if t.get("console"):
            first, lines = console_ktap(lines)
        rep = parse(lines, name, xfail=set(t.get("xfail", ())), first_lineno=first,
                    stream=t.get("stream", False))
        if "status" in t:
            judge_status(rep, t["status"])
        # What the test asks beyond the verdict: counts, skips, the lines
        # taken out of a console; a key it does not give asks nothing.
        seen = {"xfailed": rep.xfailed, "passed": rep.passed,
                "skips": [list(skip) for skip in rep.skips()]}
        got = (rep.ok() and all(t.get(k, v) == v for k, v in seen.items()) and
               all(line in lines for line in t.get("extracted", ())))
        results.append((got == t["ok"], name, rep.problems()))
    return emit(results, "lib/ktap.py on purpose-made output")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("count")
    c.add_argument("--status", type=int, default=0)
    c.add_argument("--console", action="store_true")
    c.add_argument("--stream", action="store_true")
    c.add_argument("log")
    s = sub.add_parser("skips")
    s.add_argument("--console", action="store_true")
    s.add_argument("--stream", action="store_true")
    s.add_argument("log")
    lv = sub.add_parser("leaves")
    lv.add_argument("--console", action="store_true")
    lv.add_argument("--stream", action="store_true")
    lv.add_argument("log")
    k = sub.add_parser("kunit-compare")
    k.add_argument("console")
    k.add_argument("json")
    k.add_argument("kunit_log")
    k.add_argument("kunit_status", type=int)
    r = sub.add_parser("result")
    r.add_argument("file")
    r.add_argument("keys", nargs="+")
    sub.add_parser("selftest")
    args = ap.parse_args()

    if args.cmd == "selftest":
        return selftest()
    try:
        return run_command(args)
    except OSError as e:
        print(f"{e.filename}:0: cannot read: {e.strerror}", file=sys.stderr)
        if args.cmd in ("count", "kunit-compare"):
            print("FAIL 0 1 0")
        return 1


def run_command(args):
    if args.cmd == "result":
        print(result.values(args.file, args.keys))
        return 0
    if args.cmd == "kunit-compare":
        rep = read_log(args.console, console=True)
        problems, (p, s, f) = kunit_compare(rep, args.json, args.kunit_log,
                                            args.kunit_status)
        for msg in problems:
            print(f"{args.kunit_log}:0: {msg}", file=sys.stderr)
        print(f"{'FAIL' if problems else 'PASS'} {p} {f} {s}")
        return 1 if problems else 0
    if args.cmd == "leaves":
        for leaf in read_log(args.log, args.console, stream=args.stream).leaves:
            print(f"{leaf.status} {leaf.path}")
        return 0
    if args.cmd == "skips":
        for path, reason in read_log(args.log, args.console, stream=args.stream).skips():
            print(f"{path}: {reason or 'no reason given'}")
        return 0
    rep = judge_status(read_log(args.log, args.console, stream=args.stream), args.status)
    for p in rep.problems():
        print(p, file=sys.stderr)
    print(f"{'PASS' if rep.ok() else 'FAIL'} {rep.passed} {rep.failed} {rep.skipped}")
    return 0 if rep.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
