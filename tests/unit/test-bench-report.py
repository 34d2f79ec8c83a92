#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of scripts/bench-report: the plan it prepares, the verdicts
# on the targets and the CPU ratio.  Prints one "PASS name" or
# "FAIL name" line per test (the shape tests/run counts); exits 1 on a
# failure.
"""Unit tests of scripts/bench-report."""

import json
import os
import re
import sys
import tempfile
import unittest

import scripts

br = scripts.load("bench-report")


def row(preset, job, sched, mibps, wa=1.0, p99=None, ok=True):
    """A run record with only the fields targets() reads; p99 is the
    application's read p99 on the model clock, the card's is a third."""
    return {"preset": preset, "job": job, "sched": sched, "ok": ok,
            "model": {"mibps": mibps, "write_amplification": wa,
                      "read_lat_p99_ms": p99 / 3 if p99 else None},
            "fio": {"read_bytes": 4096 if p99 is not None else 0,
                    "read_clat_p99_model_ms": p99}}


def verdicts(rows):
    return {t["target"].split(" (")[0].split(":")[0]: t["pass"]
            for t in br.targets(rows)}


STREAMS = ("sd-c10", "seq-write-4-streams-16k")


class Targets(unittest.TestCase):
    def test_streams_pass_needs_3x_and_wa(self):
        rows = [row(*STREAMS, "bfq", 0.2, 60), row(*STREAMS, "flash", 0.61, 1.2)]
        self.assertTrue(verdicts(rows)["4 sequential streams"])
        rows[1]["model"]["write_amplification"] = 1.31
        self.assertFalse(verdicts(rows)["4 sequential streams"])
        rows[1]["model"]["write_amplification"] = 1.0
        rows[1]["model"]["mibps"] = 0.59
        self.assertFalse(verdicts(rows)["4 sequential streams"])

    def test_failed_run_is_not_the_best_other(self):
        rows = [row(*STREAMS, "bfq", 9.0, 1, ok=False),
                row(*STREAMS, "none", 0.1, 90), row(*STREAMS, "flash", 0.5, 1)]
        self.assertTrue(verdicts(rows)["4 sequential streams"])

    def test_random_wa_half_of_best_other(self):
        job = ("sd-c10", "randwrite-4k-qd32-first-4eb-16m")
        rows = [row(*job, "mq-deadline", 0.1, 80), row(*job, "kyber", 0.1, 400),
                row(*job, "flash", 0.2, 40)]
        self.assertTrue(verdicts(rows)["random 4K QD32 in 4 erase blocks"])
        rows[2]["model"]["write_amplification"] = 40.1
        self.assertFalse(verdicts(rows)["random 4K QD32 in 4 erase blocks"])

    def test_any_job_below_095_misses(self):
        rows = [row("usb-8g", "a", "mq-deadline", 10), row("usb-8g", "a", "flash", 9.6),
                row("sd-c10", "b", "bfq", 1), row("sd-c10", "b", "flash", 2)]
        t = [t for t in br.targets(rows) if t["target"].startswith("no job")][0]
        self.assertTrue(t["pass"])
        rows[1]["model"]["mibps"] = 9.4
        t = [t for t in br.targets(rows) if t["target"].startswith("no job")][0]
        self.assertFalse(t["pass"])
        self.assertIn("usb-8g/a 0.94x of mq-deadline", t["numbers"])

    def test_read_p99_within_10_percent(self):
        rows = [row("sd-c10", "rw", "mq-deadline", 1, p99=10.0),
                row("sd-c10", "rw", "flash", 1, p99=11.0)]
        self.assertTrue(verdicts(rows)["read p99"])
        rows[1]["fio"]["read_clat_p99_model_ms"] = 11.1
        self.assertFalse(verdicts(rows)["read p99"])
        # the card's service time alone does not decide
        rows[1]["fio"]["read_clat_p99_model_ms"] = 10.0
        rows[1]["model"]["read_lat_p99_ms"] = 50.0
        self.assertTrue(verdicts(rows)["read p99"])


class Repeats(unittest.TestCase):
    def test_median_run_is_chosen(self):
        job = "buffered-write-end-fsync"
        reps = [row("sd-c10", job, "flash", x) for x in (1.0, 0.5, 2.0)]
        reps.append(row("sd-c10", job, "flash", 9.0, ok=False))
        other = row("sd-c10", job, "bfq", 1.5)
        chosen, rest = br.median_runs(reps + [other])
        self.assertEqual(len(chosen), 2)
        self.assertIs(chosen[0], reps[0])
        self.assertEqual(reps[0]["repeats"], [1.0, 0.5, 2.0, None])
        self.assertNotIn("repeats", other)
        self.assertEqual(len(rest), 3)

    def test_all_failed_keeps_one_failed_run(self):
        reps = [row("usb-8g", "j", "none", 1.0, ok=False) for _ in range(3)]
        chosen, rest = br.median_runs(reps)
        self.assertEqual(chosen, [reps[0]])
        self.assertEqual(reps[0]["repeats"], [None, None, None])


class Cpu(unittest.TestCase):
    def write(self, d, name, iops):
        job = {"read": {"iops": iops / 2}, "write": {"iops": iops / 2}}
        with open(os.path.join(d, "cpu", name), "w") as fh:
            json.dump({"jobs": [job]}, fh)

    def test_median_of_round_ratios(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "cpu"))
            # round 3 is a hiccup: the mean ratio would be 1.2, the median 0.9
            for r, (f, m) in enumerate([(90, 100), (80, 100), (200, 100)], 1):
                self.write(d, "flash-%d.json" % r, f)
                self.write(d, "mq-deadline-%d.json" % r, m)
            c = br.cpu_results(d)
        self.assertAlmostEqual(c["ratio"], 0.9)
        self.assertEqual(c["ratio_per_round"], [0.9, 0.8, 2.0])

    def test_no_cpu_dir(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertIsNone(br.cpu_results(d))


class Prepare(unittest.TestCase):
    def plan(self, quick):
        with tempfile.TemporaryDirectory() as d:
            br.prepare(quick, d)
            with open(os.path.join(d, "plan.txt")) as fh:
                return fh.read().splitlines()

    def test_every_scheduler_preset_and_job(self):
        jobs = [f[:-4] for f in os.listdir(os.path.join(scripts.TOP, "fio-jobs"))
                if f.endswith(".fio")]
        runs = [ln.split()[1] for ln in self.plan(False) if ln.startswith("run ")
                and not ln.startswith("run tune__")]
        want = ["%s__%s__%s%s" % (p, j, s, "__r%d" % r if r > 1 else "")
                for p in br.PRESETS for j in jobs for s in br.SCHEDS
                for r in range(1, br.REPEAT.get(j, 1) + 1)]
        self.assertEqual(sorted(runs), sorted(want))
        self.assertIn("sd-c10__buffered-write-end-fsync__bfq__r5", runs)

    def test_quick_is_a_subset_with_the_cpu_test(self):
        plan = self.plan(True)
        runs = [ln for ln in plan if ln.startswith("run ") and "tune__" not in ln]
        self.assertEqual(len(runs), len(br.QUICK_JOBS) * 15)
        self.assertFalse([ln for ln in runs
                          if re.search(r"__r\d+$", ln.split()[1])])
        self.assertIn("cpu 6 5 mq-deadline flash", plan)
        self.assertIn("set NR %d" % br.NR_REQUESTS, plan)


class Result(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        print("PASS bench-report/" + test.id().split(".", 1)[1])

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print("FAIL bench-report/" + test.id().split(".", 1)[1])

    def addError(self, test, err):
        super().addError(test, err)
        print("FAIL bench-report/" + test.id().split(".", 1)[1])


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    res = unittest.TextTestRunner(resultclass=Result, verbosity=0).run(suite)
    sys.exit(0 if res.wasSuccessful() else 1)
