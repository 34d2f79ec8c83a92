#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of scripts/icount-report: from made-up runs with known
# answers, instructions per I/O = (busy_long - busy_short) / 2^shift /
# (ios_long - ios_short), median and spread over repetitions, the ratio
# to mq-deadline at the same point and the cost above none.  Prints
# "PASS name" / "FAIL name" lines.
"""Unit test of scripts/icount-report."""

import json
import os
import sys
import tempfile

import scripts

rep = scripts.load("icount-report")

# (kind sched cap nr rep ios_short busy_short ios_long busy_long elapsed segs)
RUNS = """\
run main none 1 64 1 1000 300000000 9000 380000000 400000000 -
run main mq-deadline 1 128 1 1000 300000000 9000 400000000 420000000 -
run main mq-deadline 1 128 2 1000 300000000 9000 402000000 420000000 -
run main mq-deadline 1 128 3 1000 300000000 9000 398000000 420000000 -
run main flash 1 128 1 1000 300000000 9000 410000000 430000000 -
run sweep mq-deadline 16 64 1 1000 300000000 9000 540000000 2700000000 -
run sweep flash 16 64 1 1000 300000000 9000 560000000 2800000000 46
noise line that is not a run
"""


def main():
    checks = []
    with tempfile.TemporaryDirectory() as out:
        with open(os.path.join(out, "meta.txt"), "w") as f:
            f.write("shift=1\ndate=test\n")
        with open(os.path.join(out, "runs.txt"), "w") as f:
            f.write(RUNS)
        sys.argv = ["icount-report", out]
        rep.main()
        with open(os.path.join(out, "results.json")) as f:
            res = json.load(f)
        pts = {(p["kind"], p["sched"], p["cap_gib"]): p for p in res["points"]}
        dl = pts[("main", "mq-deadline", 1)]
        # shift 1: 8000 I/Os, 100 ms busy -> 10^8 / 2 / 8000 = 6250
        checks.append(("icount-report/formula", dl["median"] == 6250))
        checks.append(("icount-report/spread",
                       abs(dl["spread"] - (6375 - 6125) / 6250) < 1e-9))
        fl = pts[("main", "flash", 1)]
        checks.append(("icount-report/ratio-main",
                       abs(fl["vs_mq_deadline"] - 6875 / 6250) < 1e-9))
        checks.append(("icount-report/above-none", fl["above_none"] == 6875 - 5000))
        sw = pts[("sweep", "flash", 16)]
        checks.append(("icount-report/ratio-sweep",
                       abs(sw["vs_mq_deadline"] - 16250 / 15000) < 1e-9))
        checks.append(("icount-report/idle-share",
                       abs(sw["runs"][0]["idle_share"] - 0.8) < 1e-9))
        checks.append(("icount-report/table",
                       os.path.getsize(os.path.join(out, "table.txt")) > 0))
    for name, ok in checks:
        print(("PASS " if ok else "FAIL ") + name)
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
