# SPDX-License-Identifier: GPL-2.0
"""lib/result.py: the format of qemu/run's --result file.

One JSON object: qemu/run writes it (and qemu/coverage.py its summary in the
same format); bin/irqaio-matrix reads it here, and the shell scripts through
"lib/ktap.py result FILE KEY...", which prints values() of it. Its scalars
are strings; a dict (qemu/run's per-test words and diagnostics) stays a dict
of strings. Nothing else reads or writes the file, so its format can change
in this one place.
"""

import json


def write_result(path, fields):
    def value(v):
        return {str(k): str(x) for k, x in v.items()} if isinstance(v, dict) else str(v)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({k: value(v) for k, v in fields.items()}, f, sort_keys=True)
        f.write("\n")


# A leaf's status as a test result word: an expected failure is what its
# suite wants (ok); a failure and a leaf that is not even KTAP are not ok.
RESULT_WORD = {"pass": "ok", "xfail": "ok", "skip": "skip"}


def test_words(report):
    """{path: "ok" | "not ok" | "skip"} and {path: why} for the others, of a
    lib/ktap.py Report: qemu/run's "tests" and "diagnostics"."""
    words, diags = {}, {}
    for leaf in report.leaves:
        words[leaf.path] = RESULT_WORD.get(leaf.status, "not ok")
        if words[leaf.path] != "ok":
            diags[leaf.path] = "\n".join(([leaf.reason] if leaf.reason else []) + leaf.diag[-15:])
    return words, diags


def read_result(path):
    with open(path, encoding="utf-8") as f:
        try:
            res = json.load(f)
        except ValueError:
            return {}
    return res if isinstance(res, dict) else {}


def values(path, keys):
    """KEYS' values in the file at PATH as one line of words for the shell's
    "read -r" ("lib/ktap.py result FILE KEY..."): a value's spaces become
    commas, a missing key (or file) is "-"."""
    try:
        res = read_result(path)
    except OSError:
        res = {}
    return " ".join(str(res.get(k, "-")).replace(" ", ",") for k in keys)
