#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/harness/jobs.py: the scheduler behind make check.

    tests/harness/jobs.py run TABLE BUILD    run the jobs TABLE lists, print the table
    tests/harness/jobs.py self-test          KTAP: the scheduler on made-up jobs

TABLE has one job a line, tab-separated: name, weight (cores it keeps busy),
memory (MiB), estimate (seconds, used until build/timings.json has a
measurement), the names of the jobs it needs (separated by "|", may be
empty), and a bash command. A job runs once everything it needs has
succeeded; a job whose need failed or did not run is reported as not run,
with the reason, and the jobs that need nothing of it go on. Jobs start
longest remaining chain first, as long as their weights fit in the cores
(IRQAIO_JOBS, default: all) with half a core to spare (OVERCOMMIT) and
their memory in what the machine has available, and never more than one
job beyond the cores; a job heavier than the machine runs alone. A job that succeeded
in the previous run (BUILD/timings.json, or in a new checkout the machine's
last run, $IRQAIO_CACHE/timings.json) weighs what it used then, CPU
seconds per second but at least half a core (a TCG guest waiting on a
device timer uses less than a core), and its chain is measured with its
seconds then. A run beside which other processes used more than a
quarter of a core on average gave its jobs less than they wanted: its CPU
weighs nothing next time (the table's weights stand), and the machine's
history keeps the last quiet run.

Each job gets its own log (BUILD/logs/NAME.log, stdout and stderr) and says
what it proved through three files named in its environment:
  JOB_ROWS   rows of the summary table, tab-separated: name, PASS or FAIL,
             passed, failed, skipped, detail, and optionally the logs (separated
             by "|") whose "not ok" lines and tails explain a failure
  JOB_SKIPS  skipped tests, one "what: why" a line
  JOB_META   "cache_hit=true|false" when the job could have been a cache hit
JOB_LOG names the job's own log. A job that exits nonzero without a FAIL row
gets one. At the end: the table
in TABLE's order, the skips, the ten longest jobs, what each failed row's
log says, "make check: N s" and "N passed, N failed, N skipped";
BUILD/timings.json holds every job's start, end, seconds, CPU seconds and
cache hit, and the CPU seconds other processes on the host used meanwhile.
The exit status is 0 only if no row failed and every job ran. SIGINT or
SIGTERM stops every job's whole process group (QEMU included).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "lib"))
from ktap import emit  # noqa: E402  (lib/ktap.py: the one KTAP emitter)

ROW_FORMAT = "%-24s %-6s %5s %5s %5s  %s"
# How far the weights of running jobs may exceed the cores. A weight is a
# job's average: a build that runs make -j weighs 1.2 and keeps one core
# busy most of its time. Without the slack, two such jobs never share two
# cores, and a job heavier than a core waits until everything but jobs
# of half a core has finished, leaving a core idle at the end of the run.
OVERCOMMIT = 0.5
TAIL_LINES = 25


class Job:
    def __init__(self, line, lineno):
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 6:
            raise ValueError(f"line {lineno}: 6 tab-separated fields expected, got {len(fields)}")
        self.name, weight, mem, estimate, needs, self.command = fields
        self.weight = float(weight)
        self.mem = int(mem)
        self.estimate = float(estimate)
        self.needs = [n for n in needs.split("|") if n]
        self.slug = re.sub(r"[^A-Za-z0-9_.-]", "_", self.name)
        self.state = "waiting"      # waiting, running, ok, failed, notrun
        self.reason = ""
        self.proc = None
        self.start = self.end = None
        self.rc = None
        self.cpu = None
        self.priority = 0.0


def read_table(path):
    jobs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip() and not line.startswith("#"):
                jobs.append(Job(line, n))
    names = {j.name for j in jobs}
    for j in jobs:
        for need in j.needs:
            if need not in names:
                raise ValueError(f"{path}: job {j.name} needs {need}, which is not in the table")
    return jobs


def mem_available_mib():
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 4096


def use_measurements(jobs, previous, cores):
    """A job measured before weighs what it used: CPU seconds per second of its run."""
    for j in jobs:
        seconds, cpu = previous.get(j.name, (None, None))
        if seconds and cpu is not None and seconds >= 5:
            # CPU per second is what the job got, not what it wanted: a
            # loaded host makes it look lighter than it is. Half a core is
            # the least a job that ran for a while is taken to need.
            j.weight = min(float(cores), max(0.5, round(cpu / seconds, 2)))
        elif seconds is not None and seconds < 5:
            # Done in moments last time (a cache hit): it will not hold
            # the cores it would need to fill the cache.
            j.weight = min(j.weight, 0.25)


def set_priorities(jobs, previous):
    """Longest remaining chain first: a job's own time plus its longest dependant."""
    by_name = {j.name: j for j in jobs}
    dependants = {j.name: [] for j in jobs}
    for j in jobs:
        for need in j.needs:
            dependants[need].append(j.name)
    memo = {}

    def chain(name):
        if name not in memo:
            own = (previous.get(name, (None,))[0]) or by_name[name].estimate
            memo[name] = own + max((chain(d) for d in dependants[name]), default=0.0)
        return memo[name]

    for j in jobs:
        j.priority = chain(j.name)


# A run beside which other processes used more than this many cores on
# average: its jobs got less CPU than they wanted, so their CPU per second
# understates their weight.
LOADED_CORES = 0.25


def was_loaded(data):
    """Whether other processes on the host took CPU from the run DATA (timings.json)."""
    other, wall = data.get("other_cpu_seconds"), data.get("seconds")
    return bool(other and wall and other > LOADED_CORES * wall)


def previous_seconds(path):
    """Each job of the run at PATH that passed: (seconds, CPU seconds); no CPU if it ran loaded."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        loaded = was_loaded(data)
        return {t["job"]: (t["seconds"], None if loaded else t.get("cpu_seconds"))
                for t in data["jobs"] if t.get("seconds") and t.get("state") == "ok"}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def host_cpu_seconds():
    """CPU seconds every process on this host has used since boot (/proc/stat), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            v = [int(x) for x in f.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal: all but idle and iowait
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


class Scheduler:
    def __init__(self, jobs, build, cores, mem_mib, out=sys.stdout):
        self.jobs = jobs
        self.build = build
        self.cores = cores
        self.mem = mem_mib
        self.out = out
        self.tty = out.isatty()
        self.t0 = time.time()
        self.host0 = host_cpu_seconds()
        self.own0 = cpu_seconds()
        for d in ("logs", "rows", "meta"):
            os.makedirs(os.path.join(build, d), exist_ok=True)

    def path(self, kind, job):
        ext = {"logs": ".log", "rows": ".tsv", "skips": ".skips", "meta": ".meta"}[kind]
        return os.path.join(self.build, "logs" if kind == "logs" else
                            "meta" if kind in ("meta", "skips") else "rows", job.slug + ext)

    def say(self, text):
        if self.tty:
            self.out.write("\r\033[K")
        self.out.write(f"[{time.strftime('%H:%M:%S')}] {text}\n")
        self.progress()

    def progress(self):
        if not self.tty:
            self.out.flush()
            return
        running = [j for j in self.jobs if j.state == "running"]
        done = sum(j.state in ("ok", "failed", "notrun") for j in self.jobs)
        now = time.time()
        what = ", ".join(f"{j.name} {int(now - j.start)}s" for j in running)
        line = f"{int(now - self.t0)}s {done}/{len(self.jobs)} done; running: {what}"
        self.out.write("\r\033[K" + line[:200])
        self.out.flush()

    def launch(self, job):
        for kind in ("rows", "skips", "meta"):
            with open(self.path(kind, job), "w", encoding="utf-8"):
                pass
        env = dict(os.environ, JOB_ROWS=self.path("rows", job), JOB_SKIPS=self.path("skips", job),
                   JOB_META=self.path("meta", job), JOB_LOG=self.path("logs", job),
                   JOB_NAME=job.name)
        log = open(self.path("logs", job), "w", encoding="utf-8")
        job.proc = subprocess.Popen(["bash", "-c", job.command], stdin=subprocess.DEVNULL,
                                    stdout=log, stderr=subprocess.STDOUT, env=env,
                                    start_new_session=True)
        log.close()
        job.start = time.time()
        job.state = "running"
        self.say(f"start {job.name}")

    def finish(self, job, rc):
        job.end = time.time()
        rows = self.rows(job)
        if rc != 0 and not any(r[1] == "FAIL" for r in rows):
            with open(self.path("rows", job), "a", encoding="utf-8") as f:
                f.write(f"{job.name}\tFAIL\t0\t1\t0\texited {rc} without a result\t"
                        f"{self.path('logs', job)}\n")
        failed = rc != 0 or any(r[1] == "FAIL" for r in rows)
        job.state = "failed" if failed else "ok"
        self.say(f"{'FAIL' if failed else 'done'} {job.name} ({int(job.end - job.start)} s)")

    def rows(self, job):
        try:
            with open(self.path("rows", job), encoding="utf-8") as f:
                return [line.rstrip("\n").split("\t") for line in f if line.strip()]
        except OSError:
            return []

    def mark_unrunnable(self):
        by_name = {j.name: j for j in self.jobs}
        changed = True
        while changed:
            changed = False
            for j in self.jobs:
                if j.state != "waiting":
                    continue
                bad = [n for n in j.needs if by_name[n].state in ("failed", "notrun")]
                if bad:
                    j.state = "notrun"
                    j.reason = f"not run: needs {bad[0]}, which " + \
                        ("failed" if by_name[bad[0]].state == "failed" else "did not run")
                    self.say(f"skip {j.name} ({j.reason})")
                    changed = True

    def ready(self):
        by_name = {j.name: j for j in self.jobs}
        return sorted((j for j in self.jobs if j.state == "waiting" and
                       all(by_name[n].state == "ok" for n in j.needs)),
                      key=lambda j: -j.priority)

    def run(self):
        while True:
            self.mark_unrunnable()
            running = [j for j in self.jobs if j.state == "running"]
            busy = sum(j.weight for j in running)
            mem = sum(j.mem for j in running)
            for j in self.ready():
                alone = not running
                # At most one job more than the cores, however light the
                # jobs look: weights are estimates.
                fits = (busy + j.weight <= self.cores + OVERCOMMIT and
                        mem + j.mem <= self.mem and len(running) <= self.cores)
                if alone or fits:
                    self.launch(j)
                    running.append(j)
                    busy += j.weight
                    mem += j.mem
            if not running:
                break
            time.sleep(0.5)
            for j in running:
                rc = reap(j, os.WNOHANG)
                if rc is not None:
                    self.finish(j, rc)
            self.progress()
        if self.tty:
            self.out.write("\r\033[K")

    def stop(self):
        for j in self.jobs:
            if j.state == "running":
                try:
                    os.killpg(j.proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.time() + 10
        for j in self.jobs:
            if j.state == "running":
                while reap(j, os.WNOHANG) is None and time.time() < deadline:
                    time.sleep(0.1)
                if j.rc is None:
                    try:
                        os.killpg(j.proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    reap(j, 0)
                j.end = time.time()
                j.state = "failed"
                j.reason = "stopped"

    def meta(self, job):
        try:
            with open(self.path("meta", job), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return None
        m = re.search(r"cache_hit=(true|false)", text)
        return None if not m else m.group(1) == "true"

    def write_timings(self):
        entries = []
        for j in self.jobs:
            entries.append({
                "job": j.name, "state": j.state,
                "start": round(j.start - self.t0, 1) if j.start else None,
                "end": round(j.end - self.t0, 1) if j.end else None,
                "seconds": round(j.end - j.start, 1) if j.start and j.end else None,
                "weight": j.weight, "cpu_seconds": j.cpu, "cache_hit": self.meta(j),
            })
        own = cpu_seconds() - self.own0
        host = host_cpu_seconds()
        other = None if host is None or self.host0 is None else max(0.0, host - self.host0 - own)
        data = {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.t0)),
                "seconds": round(time.time() - self.t0, 1), "cores": self.cores,
                "cpu_seconds": round(own, 1),
                "other_cpu_seconds": None if other is None else round(other, 1), "jobs": entries}
        tmp = os.path.join(self.build, "timings.json.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
        os.replace(tmp, os.path.join(self.build, "timings.json"))

    def report(self):
        """The summary table, skips, longest jobs, failure tails, totals;
        returns the exit status."""
        table, failures = [], []
        passed = failed = skipped = 0
        for j in self.jobs:
            rows = self.rows(j) if j.state in ("ok", "failed") else []
            if j.state == "notrun" or (j.state == "failed" and not rows):
                rows = [[j.name, "NOTRUN", "0", "0", "0", j.reason or "stopped"]]
            for r in rows:
                r += [""] * (7 - len(r))
                table.append(r)
                passed += int(r[2])
                failed += int(r[3])
                skipped += int(r[4])
                if r[1] != "PASS":
                    failures.append((r, j))
        w = self.out.write
        w("\n" + ROW_FORMAT % ("target", "result", "pass", "fail", "skip", "detail") + "\n")
        w(ROW_FORMAT % ("------", "------", "----", "----", "----", "------") + "\n")
        for r in table:
            w(ROW_FORMAT % tuple(r[:6]) + "\n")
        skips = []
        for j in self.jobs:
            try:
                with open(self.path("skips", j), encoding="utf-8") as f:
                    skips += [line.rstrip("\n") for line in f if line.strip()]
            except OSError:
                pass
        if skips:
            w("\nskipped (a skip is not a pass):\n")
            for s in skips:
                w(f"  {s}\n")
        timed = sorted((j for j in self.jobs if j.start and j.end), key=lambda j: j.start - j.end)
        w("\nlongest jobs (build/timings.json):\n")
        for j in timed[:10]:
            hit = self.meta(j)
            cache = "" if hit is None else " (cache hit)" if hit else " (cache miss)"
            w(f"  {j.end - j.start:7.0f} s  {j.name}{cache}\n")
        for r, j in failures:
            w(f"\n=== {r[0]}: {r[1]}: {r[5]}\n")
            for path in (r[6] or self.path("logs", j)).split("|"):
                for line in explain(path):
                    w(f"  {line}\n")
        total = int(time.time() - self.t0)
        w(f"make check: {total} s, {cpu_seconds():.0f} s of CPU on {self.cores} cores\n")
        w(f"{passed} passed, {failed} failed, {skipped} skipped\n")
        self.out.flush()
        return 0 if not failures and failed == 0 else 1


def live_in_group(pgid):
    """Processes of group PGID that are not zombies (a zombie waits for init)."""
    live = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            live.append(int(pid))
    return live


def reap(job, flags):
    """The job's exit status once it has ended (None before), and its CPU time."""
    if job.rc is not None:
        return job.rc
    pid, status, usage = os.wait4(job.proc.pid, flags)
    if pid == 0:
        return None
    job.rc = os.waitstatus_to_exitcode(status)
    job.proc.returncode = job.rc
    job.cpu = round(usage.ru_utime + usage.ru_stime, 1)
    return job.rc


def cpu_seconds():
    t = os.times()
    return t.children_user + t.children_system + t.user + t.system


def explain(path):
    """What a failed row's log says: its "not ok" lines with their diagnostics, then its tail."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [line.rstrip("\n") for line in f]
    except OSError as e:
        return [f"(no log: {e})"]
    # A test's diagnostics come before its result line (a KTAP test prints
    # them, then "not ok"), and sometimes after it: keep both.
    out, keep, before = [], 0, []
    for line in lines:
        body = re.sub(r"^\[[ 0-9.]+\] ", "", line).lstrip()
        if body.startswith("not ok"):
            out += before[-8:] + [line]
            before, keep = [], 8
        elif body.startswith("#"):
            if keep:
                out.append(line)
                keep -= 1
            else:
                before.append(line)
        else:
            before, keep = [], 0
    out = out[:40]
    out.append(f"--- last {TAIL_LINES} lines of {path}")
    out += lines[-TAIL_LINES:]
    return out


def run(table, build):
    jobs = read_table(table)
    cores = int(os.environ.get("IRQAIO_JOBS") or os.cpu_count() or 1)
    # A fresh checkout has no build/ yet: the machine's last run, kept in
    # the cache, says as much about this machine.
    history = os.path.join(os.environ.get("IRQAIO_CACHE", build), "timings.json")
    previous = previous_seconds(os.path.join(build, "timings.json")) or previous_seconds(history)
    use_measurements(jobs, previous, cores)
    set_priorities(jobs, previous)
    sched = Scheduler(jobs, build, cores, mem_available_mib() * 3 // 4)

    def on_signal(signum, _frame):
        sched.say(f"signal {signum}: stopping every job")
        sched.stop()
        sched.write_timings()
        sys.exit(128 + signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    sched.run()
    sched.write_timings()
    # The machine's history keeps the last run that had the host to itself.
    done = os.path.join(build, "timings.json")
    if os.path.isdir(os.path.dirname(history)) and history != done:
        with open(done, encoding="utf-8") as f:
            loaded = was_loaded(json.load(f))
        if loaded:
            sched.say(f"other processes took CPU from this run: {history} keeps the last quiet one")
        else:
            shutil.copyfile(done, history)
    return sched.report()


def self_test():
    """KTAP: the scheduler on jobs that sleep, fail and depend on each other."""
    import io
    import tempfile
    results = []

    def check(name, cond, why=""):
        results.append((bool(cond), name, why))

    with tempfile.TemporaryDirectory() as d:
        table = os.path.join(d, "table")
        row = 'printf "%s\\tPASS\\t1\\t0\\t0\\tok\\n" "$JOB_NAME" >>"$JOB_ROWS"'
        lines = [
            ("a", 1, 0, 1, "", f"sleep 1; {row}"),
            ("b", 1, 0, 1, "", f"sleep 1; {row}"),
            ("bad", 1, 0, 1, "", "echo 'not ok 1 - broken'; echo '# because'; exit 3"),
            ("after-bad", 1, 0, 1, "bad", row),
            ("after-after", 1, 0, 1, "after-bad", row),
            ("heavy", 9, 0, 1, "a|b", f"echo cache_hit=true >\"$JOB_META\"; {row}"),
            ("after-a", 1, 0, 50, "a", row),
        ]
        with open(table, "w", encoding="utf-8") as f:
            for fields in lines:
                f.write("\t".join(str(x) for x in fields) + "\n")
        jobs = read_table(table)
        set_priorities(jobs, {})
        out = io.StringIO()
        sched = Scheduler(jobs, d, 2, 1 << 20, out)
        t0 = time.time()
        sched.run()
        took = time.time() - t0
        sched.write_timings()
        rc = sched.report()
        text = out.getvalue()
        by = {j.name: j for j in jobs}
        check("parallel_when_cores_allow",
              by["a"].start < by["b"].end and by["b"].start < by["a"].end,
              "a and b (weight 1 each, 2 cores) did not overlap")
        check("heavy_job_runs_alone_after_its_needs",
              by["heavy"].state == "ok" and by["heavy"].start >= max(by["a"].end, by["b"].end),
              f"heavy: {by['heavy'].state}")
        check("failure_without_row_gets_one", "exited 3 without a result" in text)
        check("dependants_not_run_with_reason",
              by["after-bad"].state == "notrun" and "needs bad, which failed" in text and
              by["after-after"].state == "notrun" and "needs after-bad, which did not run" in text)
        check("needs_end_before_start", all(
            by[n].end <= j.start for j in jobs if j.start for n in j.needs))
        check("independent_jobs_go_on", by["a"].state == by["b"].state == "ok")
        check("failure_tail_names_the_test", "not ok 1 - broken" in text and "# because" in text)
        with open(os.path.join(d, "console"), "w", encoding="utf-8") as f:
            f.write("boot\n    # why 1\n    # why 2\n    not ok 3 t\n    # after\nok 4 u\n")
        got = explain(os.path.join(d, "console"))[:4]
        check("failure_diagnostics_before_and_after",
              [x.strip() for x in got] == ["# why 1", "# why 2", "not ok 3 t", "# after"], str(got))
        check("exit_status_nonzero", rc == 1)
        check("totals_line", text.rstrip().endswith("4 passed, 1 failed, 0 skipped"), text[-200:])
        with open(os.path.join(d, "timings.json"), encoding="utf-8") as f:
            t = {e["job"]: e for e in json.load(f)["jobs"]}
        check("timings_json", t["heavy"]["cache_hit"] is True and t["a"]["seconds"] >= 1 and
              t["a"]["cpu_seconds"] is not None and t["a"]["cpu_seconds"] < 1 and
              t["after-bad"]["state"] == "notrun")
        check("finishes", took < 30, f"{took:.0f} s")
        # Weights from a previous run: CPU per second, and a cache hit light.
        with open(table, "w", encoding="utf-8") as f:
            f.write("guest\t1\t0\t1\t\ttrue\nbuild\t2\t0\t1\t\ttrue\nnew\t1\t0\t1\t\ttrue\n")
        jobs = read_table(table)
        use_measurements(jobs, {"guest": (100.0, 55.0), "build": (0.5, 0.1),
                                "new": (100.0, 20.0)}, 2)
        check("weights_from_the_last_run", [j.weight for j in jobs] == [0.55, 0.25, 0.5],
              str([j.weight for j in jobs]))
        # A run that shared the host: its lengths still order the chains,
        # its CPU does not weigh the jobs (the table's weights stand).
        for other, want in ((10.0, 55.0), (60.0, None)):
            with open(os.path.join(d, "prev.json"), "w", encoding="utf-8") as f:
                json.dump({"seconds": 200.0, "other_cpu_seconds": other, "jobs": [
                    {"job": "guest", "state": "ok", "seconds": 100.0, "cpu_seconds": 55.0}]}, f)
            got = previous_seconds(os.path.join(d, "prev.json"))
            check(f"cpu_of_a_run_{'loaded' if want is None else 'quiet'}_"
                  f"{'ignored' if want is None else 'used'}",
                  got == {"guest": (100.0, want)}, str(got))
        with open(os.path.join(d, "timings.json"), encoding="utf-8") as f:
            other = json.load(f).get("other_cpu_seconds")
        check("timings_json_says_what_others_used", other is not None and other >= 0, str(other))
        # Weights above the cores by up to OVERCOMMIT run side by side;
        # more than that waits.
        with open(table, "w", encoding="utf-8") as f:
            f.write("x\t1.25\t0\t1\t\tsleep 1\ny\t1.25\t0\t1\t\tsleep 3\n"
                    "z\t1.3\t0\t1\tx\tsleep 1\n")
        jobs = read_table(table)
        set_priorities(jobs, {})
        Scheduler(jobs, d, 2, 1 << 20, io.StringIO()).run()
        by = {j.name: j for j in jobs}
        check("average_weights_share_the_cores",
              by["x"].start < by["y"].end and by["y"].start < by["x"].end,
              "x and y (1.25 each, 2 cores) did not overlap")
        check("beyond_the_slack_waits", by["z"].start >= max(by["x"].end, by["y"].end),
              "z (1.3) started beside y (1.25)")
        # However light, no more than one job beyond the cores at once.
        with open(table, "w", encoding="utf-8") as f:
            for n in range(5):
                f.write(f"light{n}\t0.25\t0\t1\t\tsleep 1\n")
        jobs = read_table(table)
        Scheduler(jobs, d, 2, 1 << 20, io.StringIO()).run()
        most = max(sum(1 for o in jobs if o.start <= j.start < o.end) for j in jobs)
        check("at_most_one_job_beyond_the_cores", most == 3, f"{most} at once")
        # Stopping: a job and its child are gone after stop().
        with open(table, "w", encoding="utf-8") as f:
            f.write("sleeper\t1\t0\t1\t\tsleep 300 & sleep 300; wait\n")
        jobs = read_table(table)
        sched = Scheduler(jobs, d, 2, 1 << 20, io.StringIO())
        sched.launch(jobs[0])
        time.sleep(0.5)
        pgid = jobs[0].proc.pid
        sched.stop()
        time.sleep(0.2)
        check("stop_kills_the_process_group", not live_in_group(pgid))
    return emit([(ok, name, [why] if why and not ok else []) for ok, name, why in results])


def main(argv):
    if argv[1:2] == ["self-test"]:
        return self_test()
    if len(argv) == 4 and argv[1] == "run":
        try:
            return run(argv[2], argv[3])
        except ValueError as e:
            print(f"{argv[2]}: {e}", file=sys.stderr)
            return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
