#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of scripts/bench-report: the plan it prepares, the makespan
# read from a trace, medians and ties, MISS rows, the scheduler read back,
# file system runs, wrong geometry, the wide-spread rule, replay
# agreement, the zoo list and the CPU ratio.  Prints one "PASS name" or
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


def summ(*vals):
    """A summary of repetitions with these primary values (None = a
    failed run)."""
    runs = [{"id": "r%d" % i, "rep": i, "ok": v is not None, "mbps": v,
             "fail_reason": "" if v is not None else "rc 1"}
            for i, v in enumerate(vals, 1)]
    return br.summarize(runs)


def trace_line(t, act, rwbs="WS", sector=0, n=8):
    return "259,0    0        1 %14.9f   265  %s  %s %d + %d [fio]\n" % (
        t, act, rwbs, sector, n)


# Q at 1.0; a request dispatched at 1.5 (held 0.5 s while the card idles),
# completes at 2.0; nothing queued until 2.5 (the host's gap); a second
# request 2.5-3.0.  On the wall clock: span 2.0, held idle 0.5, empty 0.5.
TRACE = "".join([
    trace_line(1.0, "Q"), trace_line(1.0, "G"), trace_line(1.5, "D"),
    trace_line(2.0, "C"), trace_line(2.5, "Q", sector=8),
    trace_line(2.5, "G", sector=8), trace_line(2.5, "D", sector=8),
    trace_line(3.0, "C", sector=8),
    "259,0    0        0     1.200000000     0  m   N flash switch 1\n"])


def write_run(top, rid, meta, trace=TRACE, busy_ns=10**9, fs=None,
              stats=True):
    d = os.path.join(top, "runs", rid)
    os.makedirs(d)
    with open(os.path.join(d, "meta.txt"), "w") as fh:
        fh.write("".join("%s=%s\n" % kv for kv in meta.items()))
    if trace is not None:
        with open(os.path.join(d, "trace.txt"), "w") as fh:
            fh.write(trace)
    if stats:
        with open(os.path.join(d, "stats.json"), "w") as fh:
            json.dump({"model": {"busy_ns": busy_ns, "read_bytes": 0,
                                 "host_write_bytes": 4 * 10**6,
                                 "write_amplification": 1.0,
                                 "erases": 3}}, fh)
    if fs is not None:
        with open(os.path.join(d, "fs.txt"), "w") as fh:
            fh.write("".join("%s=%s\n" % kv for kv in fs.items()))
    return d


def write_wide_spread(top, rid_of, meta_of, fs=None):
    """Three runs per scheduler, IDs rid_of(sched, rep), meta.txt
    meta_of(sched), fs.txt FS; bfq's second run takes twice as long: a
    wide spread."""
    for s in br.SCHEDS:
        for rep in (1, 2, 3):
            slow = (s, rep) == ("bfq", 2)
            trace = TRACE + trace_line(5.0, "C", sector=16) if slow else TRACE
            write_run(top, rid_of(s, rep), meta_of(s), trace=trace,
                      busy_ns=2 * 10**9 if slow else 10**9, fs=fs)


def good_meta(sched="flash", dil="0.5", **kw):
    m = {"id": "x", "preset": "sd-c10", "sched": sched,
         "job": "/out/jobs/seq.fio", "dilate": dil, "sched_readback": sched,
         "rc": "0"}
    m.update(kw)
    return m


class Makespan(unittest.TestCase):
    def test_first_q_to_last_c_and_idle(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.txt")
            with open(p, "w") as fh:
                fh.write(TRACE)
            t = br.trace_times(p)
        self.assertEqual((t["first_q"], t["first_d"], t["last_c"]),
                         (1.0, 1.5, 3.0))
        self.assertAlmostEqual(t["idle_held_s"], 0.5)
        self.assertAlmostEqual(t["idle_empty_s"], 0.5)

    def test_idle_per_request(self):
        # a flush's extra C (no D) while a write is on the card, and a
        # request merged into another (G, no D of its own): neither makes
        # the card look idle or the scheduler look holding afterwards
        trace = "".join([
            trace_line(1.0, "Q"), trace_line(1.0, "G"),
            trace_line(1.0, "Q", sector=8), trace_line(1.0, "G", sector=8),
            trace_line(1.0, "Q", sector=64), trace_line(1.0, "G", sector=64),
            trace_line(1.5, "D", n=16),
            "259,0    1        9     1.600000000  8485  C  WS 0 [0]\n",
            trace_line(2.0, "C", n=16),
            trace_line(2.0, "D", sector=64), trace_line(2.5, "C", sector=64),
            trace_line(3.0, "Q", sector=72), trace_line(3.0, "G", sector=72),
            trace_line(3.0, "D", sector=72), trace_line(3.5, "C", sector=72)])
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.txt")
            with open(p, "w") as fh:
                fh.write(trace)
            t = br.trace_times(p)
        # held idle: 1.0-1.5 only; empty: 2.5-3.0 only
        self.assertAlmostEqual(t["idle_held_s"], 0.5)
        self.assertAlmostEqual(t["idle_empty_s"], 0.5)
        # a choice at the first D only (sector 64 waited; 8 rode along)
        self.assertEqual(t["choice_d"], 1)

    def test_run_on_the_model_clock(self):
        with tempfile.TemporaryDirectory() as d:
            r = br.run_record(write_run(d, "sd-c10__seq__flash",
                                        good_meta(dil="0.5")))
        self.assertTrue(r["ok"], r["fail_reason"])
        # wall span 2 s at dilation 0.5: 4 s of model time
        self.assertAlmostEqual(r["makespan"]["model_s"], 4.0)
        self.assertAlmostEqual(r["raw_mbps"], 1.0)
        # busy 1 s + held idle 0.5 / 0.5 = 2 s
        self.assertAlmostEqual(r["nohost_mbps"], 2.0)
        # the primary: the user's time, first Q to last C
        self.assertAlmostEqual(r["mbps"], r["raw_mbps"])
        self.assertAlmostEqual(r["busy_mbps"], 4.0)

    def test_held_mean_is_time_weighted(self):
        # bench-guest's sampler waits longer as a run goes on: 2 held for
        # 100 ms, then 0 for 300 ms is a mean of 0.5, not 1.0
        with tempfile.TemporaryDirectory() as d:
            rdir = write_run(d, "sd-c10__seq__flash", good_meta())
            with open(os.path.join(rdir, "held.txt"), "w") as fh:
                fh.write("samples=2 weight_ms=400 held_sum=200 held_max=2 "
                         "driver_sum=0 driver_max=0\n")
            r = br.run_record(rdir)
        self.assertEqual(r["held"]["samples"], 2)
        self.assertAlmostEqual(r["held"]["mean"], 0.5)
        self.assertEqual(r["held"]["max"], 2)

    def test_no_completion_events_is_a_failed_run(self):
        with tempfile.TemporaryDirectory() as d:
            r = br.run_record(write_run(d, "sd-c10__seq__flash", good_meta(),
                                        trace=trace_line(1.0, "D")))
        self.assertFalse(r["ok"])
        self.assertIn("no makespan", r["fail_reason"])

    def test_scaled_trace_for_the_replay(self):
        with tempfile.TemporaryDirectory() as d:
            rd = write_run(d, "sd-c10__seq__flash", good_meta(dil="0.5"))
            self.assertEqual(br.scale_trace(rd), 2)
            with open(os.path.join(rd, "trace-model.txt")) as fh:
                times = [float(ln.split()[3]) for ln in fh]
        # D at 1.5 and 2.5, first Q at 1.0, dilation 0.5
        self.assertEqual(times, [1.0, 3.0])


class EraseBlockOpens(unittest.TestCase):
    def opens(self, events, rwbs="WS"):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.txt")
            with open(p, "w") as fh:
                fh.write("".join(trace_line(1.0, a, rwbs, s, n)
                                 for a, s, n in events))
            # erase blocks of 8 sectors, two open
            return br.erase_block_opens(p, 8, 2)

    def test_avoidable_only_while_an_open_block_had_a_write(self):
        self.assertEqual(self.opens([
            ("I", 0, 8), ("D", 0, 8),      # opens block 0
            ("I", 8, 8), ("D", 8, 8),      # opens block 1
            ("I", 16, 8), ("I", 2, 1),
            ("D", 16, 8),                  # opens 2 while block 0 waits
            ("D", 2, 1),                   # reopens 0: nothing else queued
            ("I", 24, 1), ("I", 25, 1),
            ("D", 24, 2),                  # opens 3; both merged ones go
            ("I", 26, 1), ("D", 26, 1)]),  # block 3 is still open
            (5, 1))

    def test_reads_do_not_count(self):
        events = [("I", 0, 8), ("D", 0, 8)]
        self.assertEqual(self.opens(events), (1, 0))
        self.assertEqual(self.opens(events, rwbs="R"), (0, 0))


class Readback(unittest.TestCase):
    def test_mismatch_fails_the_run(self):
        with tempfile.TemporaryDirectory() as d:
            r = br.run_record(write_run(
                d, "sd-c10__seq__flash",
                good_meta(sched_readback="mq-deadline")))
        self.assertFalse(r["ok"])
        self.assertIn("read back as 'mq-deadline'", r["fail_reason"])

    def test_missing_readback_fails_the_run(self):
        m = good_meta()
        del m["sched_readback"]
        with tempfile.TemporaryDirectory() as d:
            r = br.run_record(write_run(d, "sd-c10__seq__flash", m))
        self.assertFalse(r["ok"])

    def test_failed_run_without_results_is_kept(self):
        # what bench-guest's fail_meta writes when flashemu did not start
        m = {"id": "sd-c10__seq__flash", "preset": "sd-c10", "sched": "flash",
             "job": "/out/jobs/seq.fio", "dilate": "1", "rc": "2",
             "fail_reason": "flashemu did not start"}
        with tempfile.TemporaryDirectory() as d:
            write_run(d, "sd-c10__seq__flash", m, trace=None, stats=False)
            write_run(d, "sd-c10__seq__bfq", good_meta("bfq"))
            res = br.analyse(d)
        self.assertEqual([f["id"] for f in res["failed"]],
                         ["sd-c10__seq__flash"])
        row = [t for t in res["table"] if t["job"] == "seq"][0]
        self.assertEqual(row["verdict"]["verdict"], "MISS")
        self.assertIn("MISS", br.render(res, False))

    def test_summary_dates_from_the_hosts_clock(self):
        # scripts/bench's started= and finished= (seconds, host clock) date
        # the bench; the timing line keeps only durations
        with tempfile.TemporaryDirectory() as d:
            write_run(d, "sd-c10__seq__bfq", good_meta("bfq"))
            with open(os.path.join(d, "timing.txt"), "w") as fh:
                fh.write("vm_s=60\nstarted=0\ntotal_s=120\nfinished=120\n")
            text = br.render(br.analyse(d), False)
        self.assertIn("; the bench ran from 1970-01-01 00:00 UTC to "
                      "1970-01-01 00:02 UTC)", text)
        self.assertIn("Timing (s): total_s 120, vm_s 60\n", text)

    def test_planned_run_without_a_folder_failed(self):
        # a VM run that ended early: its plan's later runs have no folder
        with tempfile.TemporaryDirectory() as d:
            write_run(d, "sd-c10__seq__bfq", good_meta("bfq"))
            with open(os.path.join(d, "plan-1.txt"), "w") as fh:
                fh.write("set NR 128\n"
                         "run sd-c10__seq__bfq sd-c10 bfq /out/jobs/seq.fio 1\n"
                         "run sd-c10__seq__flash sd-c10 flash "
                         "/out/jobs/seq.fio 1\n")
            res = br.analyse(d)
        self.assertEqual([(f["id"], f["reason"]) for f in res["failed"]],
                         [("sd-c10__seq__flash", "planned, not run "
                           "(its VM run ended before it)")])
        row = [t for t in res["table"] if t["job"] == "seq"][0]
        self.assertEqual(row["verdict"]["verdict"], "MISS")


class FileSystems(unittest.TestCase):
    def fs_run(self, d, fs, meta=None, trace=TRACE):
        m = meta or good_meta(job="fs-ext4-unpack", fs_seed=br.fs_seed(1))
        return br.run_record(write_run(d, "fs__sd-c10__ext4-unpack__flash",
                                       m, fs=fs, trace=trace))

    def test_runs_that_began_from_other_card_states_are_named(self):
        def run(sched, rep, copy, job="fs-ext4-unpack", kind="fs"):
            return {"kind": kind, "preset": "sd-c10", "job": job,
                    "rep": rep, "sched": sched, "start_copy_bytes": copy}
        runs = [run("none", 1, 0), run("flash", 1, 0),
                run("none", 2, 0), run("flash", 2, 3 << 20),
                run("none", 1, 5, kind="main"), run("bfq", 1, None)]
        self.assertEqual(br.fs_start_differs(runs),
                         [{"preset": "sd-c10", "job": "fs-ext4-unpack",
                           "rep": 2, "bytes": {"none": 0,
                                               "flash": 3 << 20}}])
        self.assertIn("ext4-unpack r2: flash 3.0, none 0.0",
                      br.fs_start_text(br.fs_start_differs(runs)))
        self.assertEqual(br.fs_start_differs(runs[:2]), [])
        self.assertIn("Every repetition", br.fs_start_text([]))
        with tempfile.TemporaryDirectory() as d:
            rdir = write_run(d, "fs__sd-c10__ext4-unpack__flash",
                             good_meta(job="fs-ext4-unpack",
                                       fs_seed=br.fs_seed(1)),
                             fs={"checksum_errors": "0", "seconds": "3"})
            with open(os.path.join(rdir, "stats-before.json"), "w") as fh:
                json.dump({"model": {"pending_copy_bytes": 4096}}, fh)
            self.assertEqual(br.run_record(rdir)["start_copy_bytes"], 4096)

    def test_ext4_of_another_repetition_fails(self):
        # every scheduler of a repetition must get the same layout
        fs = {"checksum_errors": "0", "seconds": "3"}
        with tempfile.TemporaryDirectory() as d:
            r = self.fs_run(d, fs, good_meta(job="fs-ext4-unpack",
                                             fs_seed=br.fs_seed(2)))
        self.assertFalse(r["ok"])
        self.assertIn("not repetition 1's", r["fail_reason"])
        with tempfile.TemporaryDirectory() as d:
            r = self.fs_run(d, fs, good_meta(job="fs-ext4-unpack"))
        self.assertFalse(r["ok"])

    def test_a_guest_with_other_cpus_fails(self):
        fs = {"checksum_errors": "0", "seconds": "3"}
        seed = br.fs_seed(1)
        for rid, cpus, ok in (("ext4-unpack", "2", True),
                              ("ext4-unpack", "4", False),
                              ("ext4-unpack-4cpu", "4", True),
                              ("ext4-unpack-4cpu", "2", False)):
            with tempfile.TemporaryDirectory() as d:
                r = br.run_record(write_run(
                    d, "fs__sd-c10__%s__flash" % rid,
                    good_meta(job="fs-ext4-unpack", fs_seed=seed, cpus=cpus),
                    fs=fs))
            self.assertEqual(r["ok"], ok, (rid, cpus, r["fail_reason"]))
            self.assertEqual(r["job"], "fs-" + rid)
        self.assertEqual(br.fs_job_parts("fs-ext4-unpack-4cpu"),
                         ("ext4", "unpack", 4))
        self.assertEqual(br.fs_job_parts("fs-f2fs-logappend"),
                         ("f2fs", "logappend", br.VM_CPUS))

    def test_workload_counters_and_time_from_fs_txt(self):
        fs = {"checksum_errors": "0", "workload_model_ms": "8000",
              "busy_ms": "2000", "host_write_bytes": "8000000",
              "erases": "7", "write_amplification": "1.5"}
        with tempfile.TemporaryDirectory() as d:
            # bench-fs-guest traces D events only: no makespan in trace
            r = self.fs_run(d, fs, trace=trace_line(1.0, "D"))
        self.assertTrue(r["ok"], r["fail_reason"])
        self.assertEqual(r["makespan"]["model_s"], 8.0)
        self.assertAlmostEqual(r["mbps"], 1.0)
        self.assertAlmostEqual(r["busy_mbps"], 4.0)
        self.assertEqual(r["model"]["erases"], 7)

    def test_throughput_counts_the_files_not_the_devices_bytes(self):
        # a scheduler whose timing makes ext4 write more journal must
        # not look faster: the files' bytes over the user's time
        fs = {"checksum_errors": "0", "workload_model_ms": "8000",
              "busy_ms": "2000", "host_write_bytes": "8000000",
              "bytes": "2000000"}
        with tempfile.TemporaryDirectory() as d:
            r = self.fs_run(d, fs, trace=trace_line(1.0, "D"))
        self.assertAlmostEqual(r["mbps"], 0.25)
        row = br.main_table([r])[("sd-c10", "fs-ext4-unpack")]
        self.assertEqual(row["scheds"]["flash"]["seconds"]["median"], 8.0)

    def test_checksum_errors_fail(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.fs_run(d, {"checksum_errors": "2", "seconds": "3"})
        self.assertFalse(r["ok"])
        self.assertIn("checksum_errors 2", r["fail_reason"])
        self.assertEqual(r["job"], "fs-ext4-unpack")

    def test_clean_run_and_missing_script(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.fs_run(d, {"checksum_errors": "0", "seconds": "3"})
        self.assertTrue(r["ok"], r["fail_reason"])
        m = good_meta(rc="127", fail_reason="bench-fs-guest missing")
        with tempfile.TemporaryDirectory() as d:
            r = self.fs_run(d, None, m)
        self.assertFalse(r["ok"])
        self.assertIn("bench-fs-guest missing", r["fail_reason"])


class Medians(unittest.TestCase):
    def test_median_min_max_and_failed_reps(self):
        s = summ(3.0, None, 1.0, 2.0)
        self.assertEqual((s["median"], s["min"], s["max"]), (2.0, 1.0, 3.0))
        self.assertEqual((s["n"], s["n_ok"]), (4, 3))
        self.assertEqual(s["vals"], [3.0, None, 1.0, 2.0])
        self.assertEqual(s["run"]["mbps"], 2.0)
        self.assertEqual(len(s["failed"]), 1)
        self.assertEqual(br.cell(s), "2.000 [1.000-3.000] (3 of 4 ok)")

    def test_all_failed(self):
        s = summ(None, None)
        self.assertIsNone(s["median"])
        self.assertEqual(br.cell(s), "FAILED")


class Ties(unittest.TestCase):
    def test_overlap_is_a_tie(self):
        self.assertEqual(br.compare(summ(1.0, 1.2, 1.1), summ(1.15, 1.3)),
                         "tie")
        self.assertEqual(br.compare(summ(1.0, 1.1), summ(1.15, 1.3)),
                         "worse")
        self.assertEqual(br.compare(summ(1.4, 1.5), summ(1.15, 1.3)),
                         "better")
        self.assertEqual(br.compare(summ(2.0), summ(1.0),
                                    higher_better=False), "worse")
        self.assertIsNone(br.compare(summ(None), summ(1.0)))

    def test_verdict_shows_tie_and_failed_peers(self):
        v = br.job_verdict({"flash": summ(0.9, 1.0, 0.95),
                            "bfq": summ(1.0, 0.98, 1.1),
                            "kyber": summ(None, None),
                            "none": summ(0.5)})
        self.assertEqual((v["best_other"], v["verdict"]), ("bfq", "tie"))
        self.assertAlmostEqual(v["ratio"], 0.95 / 1.0)
        self.assertEqual(v["failed_peers"], ["kyber"])
        self.assertIn("tie", br.verdict_text(v))
        self.assertIn("failed: kyber", br.verdict_text(v))

    def test_target_095_tie_miss_pass(self):
        def tab(flash, other):
            return {("sd-c10", "j"): {
                "scheds": {"flash": flash, "bfq": other},
                "verdict": br.job_verdict({"flash": flash, "bfq": other})}}

        def result(t):
            return br.targets(t, [], [], [], None, {})[0]["result"]
        self.assertEqual(result(tab(summ(0.9, 0.92, 1.0), summ(0.99, 1.0))),
                         "TIE")
        self.assertEqual(result(tab(summ(0.9, 0.92), summ(0.99, 1.0))),
                         "MISS")
        self.assertEqual(result(tab(summ(0.96), summ(1.0))), "PASS")
        self.assertEqual(result(tab(summ(None), summ(1.0))), "MISS")
        # one failed repetition of flash is a miss, whatever the others did
        self.assertEqual(result(tab(summ(1.2, None, 1.2), summ(1.0))),
                         "MISS")
        self.assertIn("MISS: 1 of 3 flash runs failed", br.verdict_text(
            br.job_verdict({"flash": summ(1.2, None, 1.2),
                            "bfq": summ(1.0)})))


    def test_streams_target_on_cards_with_fewer_open_aus(self):
        def tab(preset, flash, wa):
            fl = summ(flash)
            fl["run"]["model"] = {"write_amplification": wa}
            sc = {"flash": fl, "bfq": summ(1.0)}
            return {(preset, "seq-write-4-streams-16k"): {
                "scheds": sc, "verdict": br.job_verdict(sc)}}

        def streams(t, pp):
            return [x["result"] for x in br.targets(t, [], [], [], None, pp)
                    if x["target"].startswith("four streams")]
        pp = {"sd-c10": 2, "usb-8g": 4, "sd-c10:random_ok": 0}
        self.assertEqual(streams(tab("sd-c10", 2.1, 1.05), pp), ["PASS"])
        self.assertEqual(streams(tab("sd-c10", 2.1, 1.2), pp), ["MISS"])
        self.assertEqual(streams(tab("sd-c10", 1.9, 1.0), pp), ["MISS"])
        # four open AUs: not fewer than the streams, no such target
        self.assertEqual(streams(tab("usb-8g", 1.0, 1.0), pp), [])


class WrongGeometry(unittest.TestCase):
    def geo(self, wrong, truth=(1.0, 1.0, 1.0), dl=(0.5, 0.5, 0.5)):
        runs = [{"id": "g%d" % i, "rep": i, "ok": True, "mbps": v,
                 "fail_reason": "", "preset": "sd-c10", "job": "j",
                 "variant": "erase-x2"} for i, v in enumerate(wrong, 1)]
        main = {("sd-c10", "j"): {"scheds": {"flash": summ(*truth),
                                             "mq-deadline": summ(*dl)}}}
        return br.geometry_table(runs, main)[0]

    def test_cost_and_mq_deadline(self):
        g = self.geo((0.91, 0.92, 0.93))
        self.assertAlmostEqual(g["cost"], 0.08)
        self.assertTrue(g["pass"])
        self.assertFalse(self.geo((0.85, 0.86, 0.87))["pass"])
        # inside 10 % of the truth but below mq-deadline
        self.assertFalse(self.geo((0.95, 0.95, 0.95),
                                  dl=(0.97, 0.98, 0.99))["pass"])

    def test_misses_below_mq_deadline_at_the_truth_are_named_apart(self):
        at_truth = self.geo((0.99, 0.99, 0.99), dl=(1.01, 1.02, 1.03))
        self.assertEqual(at_truth["truth_vs_mq_deadline"], "worse")
        costly = self.geo((0.8, 0.8, 0.8), dl=(1.01, 1.02, 1.03))
        fine = self.geo((0.99, 0.99, 0.99))
        text = br.geometry_misses([at_truth, costly, fine])
        self.assertIn("2 of 3 settings miss: sd-c10/j erase-x2;", text)
        self.assertIn("1 within the cost but below mq-deadline, as flash "
                      "is at the truth", text)
        # the wrong setting put flash below mq-deadline: not set apart
        put_below = self.geo((0.95, 0.95, 0.95), dl=(0.97, 0.98, 0.99))
        self.assertEqual(put_below["truth_vs_mq_deadline"], "better")
        self.assertNotIn("as flash is at the truth",
                         br.geometry_misses([put_below]))


class Topup(unittest.TestCase):
    def test_wide_spread_adds_reps_for_every_scheduler(self):
        groups = {("sd-c10", "j", s): [1.0, 1.05, 1.02] for s in br.SCHEDS}
        self.assertEqual(br.topup_plan(groups), [])
        groups[("sd-c10", "j", "bfq")] = [1.0, 1.3, 1.1]
        lines = br.topup_plan(groups)
        self.assertEqual(len(lines), 2 * len(br.SCHEDS))
        self.assertTrue(lines[0].startswith("run sd-c10__j__none__r4 "))
        self.assertTrue(lines[-1].startswith("run sd-c10__j__flash__r5 "))
        groups[("sd-c10", "j", "bfq")] = [1.0, 1.3, 1.1, 1.2, 1.0]
        self.assertEqual(br.topup_plan(groups), [])


    def test_topup_writes_the_plan_from_the_runs(self):
        with tempfile.TemporaryDirectory() as d:
            write_wide_spread(d, lambda s, rep: "sd-c10__j__%s%s" % (
                s, br.rep_suffix(rep)), good_meta)
            self.assertEqual(br.topup(d, 7), 2 * len(br.SCHEDS))
            with open(os.path.join(d, "plan-7.txt")) as fh:
                runs = [ln.split()[1] for ln in fh if ln.startswith("run ")]
            self.assertFalse(os.path.exists(os.path.join(d, "plan-8.txt")))
        self.assertEqual(runs[0], "sd-c10__seq__none__r4")


    def test_file_systems_get_their_repetitions_too(self):
        with tempfile.TemporaryDirectory() as d:
            write_wide_spread(
                d, lambda s, rep: "fs__sd-c10__f2fs-unpack__%s%s" % (
                    s, br.rep_suffix(rep)),
                lambda s: good_meta(s, job="fs-f2fs-unpack"),
                fs={"checksum_errors": "0", "busy_ms": "1000",
                    "host_write_bytes": "4000000"})
            self.assertEqual(br.topup(d, 2), 2 * len(br.SCHEDS))
            with open(os.path.join(d, "plan-2.txt")) as fh:
                runs = [ln for ln in fh if ln.startswith("fs ")]
        self.assertEqual(len(runs), 2 * len(br.SCHEDS))
        # the line prepare writes for the run, at the next repetition
        self.assertEqual(runs[0].split(), br.fs_lines(
            [("sd-c10", "f2fs", "unpack")], 4, 4)[0].split())
        self.assertEqual(runs[0].split()[:2],
                         ["fs", "fs__sd-c10__f2fs-unpack__none__r4"])

    def test_more_cpus_get_their_own_vm_run(self):
        # a wide spread at four CPUs: its repetitions go in a VM run with
        # four CPUs, as the same workload (the name says the CPUs)
        with tempfile.TemporaryDirectory() as d:
            write_wide_spread(
                d, lambda s, rep: "fs__sd-c10__f2fs-unpack-4cpu__%s%s" % (
                    s, br.rep_suffix(rep)),
                lambda s: good_meta(s, job="fs-f2fs-unpack", cpus="4"),
                fs={"checksum_errors": "0", "busy_ms": "1000",
                    "host_write_bytes": "4000000"})
            self.assertEqual(br.topup(d, 2), 2 * len(br.SCHEDS))
            with open(os.path.join(d, "plan-2.txt")) as fh:
                plan = fh.read().splitlines()
        self.assertIn("vm cpus 4", plan)
        runs = [ln.split() for ln in plan if ln.startswith("fs ")]
        self.assertEqual(runs[0], br.fs_lines(
            [("sd-c10", "f2fs", "unpack")], 4, 4, cpus=4)[0].split())
        self.assertEqual(runs[0][1], "fs__sd-c10__f2fs-unpack-4cpu__none__r4")
        self.assertEqual(runs[0][4:6], ["f2fs", "unpack"])


class Resume(unittest.TestCase):
    def test_left_counts_what_resume_runs_in_every_part(self):
        with tempfile.TemporaryDirectory() as d:
            write_run(d, "sd-c10__seq__bfq", good_meta("bfq"))
            for n, body in ((1, "set NR 128\n"
                                "run sd-c10__seq__bfq sd-c10 bfq j 1\n"
                                "run sd-c10__seq__flash sd-c10 flash j 1\n"),
                            (2, "fs fs__sd-c10__ext4-unpack__none sd-c10 "
                                "none ext4 unpack 1\ncpu 10 10 flash\n")):
                with open(os.path.join(d, "plan-%d.txt" % n), "w") as fh:
                    fh.write(body)
            self.assertEqual(len(br.plan_runs(d, True)), 3)
            self.assertEqual(br.planned_ids(d), [
                "sd-c10__seq__bfq", "sd-c10__seq__flash",
                "fs__sd-c10__ext4-unpack__none"])

    def test_todo_skips_only_good_results(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "plan-1.txt"), "w") as fh:
                fh.write("set NR 128\nrun good sd-c10 flash j 1\n"
                         "run bad sd-c10 flash j 1\nfs fsx sd-c10 flash "
                         "ext4 unpack 1\nrun none sd-c10 flash j 1\n"
                         "cpu 6 5 mq-deadline flash\n")
            for rid, rc in (("good", "0"), ("bad", "1"), ("fsx", "0")):
                os.makedirs(os.path.join(d, "runs", rid))
                with open(os.path.join(d, "runs", rid, "meta.txt"), "w") as fh:
                    fh.write("id=%s\nrc=%s\n" % (rid, rc))
            self.assertEqual(len(br.todo(d, 1, False)), 6)
            self.assertEqual([ln.split()[0] + " " + ln.split()[1]
                              for ln in br.todo(d, 1, True)],
                             ["set NR", "run bad", "run none", "cpu 6"])
            os.makedirs(os.path.join(d, "cpu"))
            open(os.path.join(d, "cpu", "flash-1.json"), "w").close()
            self.assertNotIn("cpu 6 5 mq-deadline flash", br.todo(d, 1, True))


class Agreement(unittest.TestCase):
    def rec(self, replay_busy, replay_last):
        return {"id": "a", "ok": True, "preset": "sd-c10", "job": "j",
                "sched": "flash", "kind": "main", "tunables": "",
                "model": {"busy_s": 10.0,
                                            "write_amplification": 1.0},
                "makespan": {"model_s": 20.0},
                "replay": {"own": {"busy_s": replay_busy,
                                   "last_completion_s": replay_last,
                                   "write_amplification": 1.0}}}

    def test_within_10_percent(self):
        self.assertTrue(br.agreement_table([self.rec(10.5, 19.0)])[0]["pass"])
        self.assertFalse(br.agreement_table([self.rec(11.1, 20)])[0]["pass"])
        self.assertFalse(br.agreement_table([self.rec(10, 22.1)])[0]["pass"])

    def test_zoo_keeps_the_recorded_idle(self):
        r = self.rec(10.0, 20.0)
        r.update({"rep": 1, "bytes": 4e6, "mbps": 4e6 / 1e6 / 16.0})
        r["replay"]["zoo"] = {"fast": {"busy_s": 2.0, "bytes": 4e6,
                                       "write_amplification": 1.0}}
        z = br.zoo_runs([r])[0]
        # idle = 16 - 10 = 6 s, kept: 2 + 6 = 8 s on the fast card
        self.assertAlmostEqual(z["mbps"], 0.5)
        # scaled with the busy time: 2 + 6 x 2 / 10 = 3.2 s
        self.assertAlmostEqual(z["mbps_scaled"], 4 / 3.2)


class ZooGeometry(unittest.TestCase):
    K, M = 1 << 10, 1 << 20

    def test_zgeo_runs_for_the_geometries_no_run_has(self):
        K, M = self.K, self.M
        geos = {(16 * K, 4 * M, True), (16 * K, 8 * M, True),
                (16 * K, 3 * M, True), (4 * K, 4 * M, True),
                (16 * K, 4 * M, False), (32 * K, 4 * M, False),
                (16 * K, 2 * M, False)}
        lines = br.zgeo_lines(geos, [("sd-c10", "seq-write-4-streams-16k")],
                              2)
        told = {}
        for ln in lines:
            f = ln.split()
            self.assertEqual(f[3], "flash")
            i = br.parse_id(f[1])
            self.assertEqual(i["preset"], f[2])
            told.setdefault((f[2], i["job"]), set()).add(
                (i["rep"], br.told_geometry(f[2], " ".join(f[6:]))))
        # every card's geometry on sd-c10; the four streams have erase x2
        # and x0.5, page x2 from the geometry check
        self.assertEqual(told["sd-c10", "seq-write-4-streams-16k"], {
            (r, g) for r in (1, 2) for g in ((16 * K, 3 * M), (4 * K, 4 * M))})
        self.assertEqual(told["sd-c10", "randrw-70-30-4k-qd16"], {
            (r, g) for r in (1, 2) for g in ((16 * K, 3 * M), (4 * K, 4 * M),
                                             (16 * K, 8 * M), (32 * K, 4 * M),
                                             (16 * K, 2 * M))})
        # a card unlike sd-c10 also on emmc-sandisk (16 KiB pages: its
        # own), with the jobs where flash held on sd-c10
        self.assertEqual(told["emmc-sandisk", "sqlite-4k-fdatasync"], {
            (r, g) for r in (1, 2) for g in ((32 * K, 4 * M), (16 * K, 2 * M))})
        self.assertNotIn(("sd-c10", "sqlite-4k-fdatasync"), told)
        self.assertEqual(set(p for (p, j) in told),
                         {"sd-c10", "emmc-sandisk"})

    def test_two_open(self):
        self.assertTrue(br.two_open({"open_aus": 2, "merge_us": 58300}))
        self.assertFalse(br.two_open({"open_aus": 3, "merge_us": 58300}))
        self.assertFalse(br.two_open({"open_aus": 1, "merge_us": 30000}))
        self.assertEqual(br.preset_params("sd-c10").get("merge_us"), 58300)
        self.assertTrue(br.two_open(br.preset_params("sd-c10")))
        self.assertFalse(br.two_open(br.preset_params("emmc-sandisk")))

    def zrun(self, sched, kind, tunables, mbps, zoo="big"):
        return {"id": sched + kind, "ok": True, "rep": 1, "zoo": zoo,
                "source": "sd-c10", "job": "j", "sched": sched,
                "kind": kind, "mbps": mbps, "mbps_scaled": mbps,
                "told": br.told_geometry("sd-c10", tunables)
                if sched == "flash" else None}

    def test_a_card_in_the_vm_is_judged_there(self):
        geo = {z: (16 * self.K, 4 * self.M) for z in ("sd-c10", "usb-8g")}
        runs = [self.zrun(s, "main", "", x, zoo=z)
                for z in ("sd-c10", "usb-8g")
                for (s, x) in (("bfq", 2.0), ("flash", 1.0))]
        cells, dist = br.zoo_table(runs, set(), geo, ["sd-c10", "usb-8g"])
        by = {c["zoo"]: c for c in cells}
        # its own recording counts; another card's does not
        self.assertTrue(by["sd-c10"]["matched"])
        self.assertFalse(by["usb-8g"]["matched"])
        self.assertEqual(by["usb-8g"]["unmatched"], "vm")
        self.assertEqual([(d["matched"], d["apart_vm"]) for d in dist],
                         [(True, 0), (False, 1)])
        cells, _ = br.zoo_table(runs, set(), geo)
        self.assertTrue(all(c["matched"] for c in cells))

    def test_flash_told_the_cards_geometry(self):
        runs = [self.zrun("bfq", "main", "", 2.0),
                self.zrun("flash", "main", "", 0.5),
                self.zrun("flash", "geo", "erase_size=%d" % (8 * self.M),
                          3.0)]
        cells, dist = br.zoo_table(runs, set(),
                                   {"big": (16 * self.K, 8 * self.M)})
        self.assertEqual(len(cells), 1)
        self.assertTrue(cells[0]["matched"])
        self.assertAlmostEqual(cells[0]["ratio"], 1.5)
        # no run told the card's geometry: the main run, apart
        cells, dist = br.zoo_table(runs, set(),
                                   {"big": (16 * self.K, 6 * self.M)})
        self.assertFalse(cells[0]["matched"])
        self.assertAlmostEqual(cells[0]["ratio"], 0.25)
        self.assertEqual([d["matched"] for d in dist], [False])

    def test_pair_below_095_inside_the_spread_is_a_tie(self):
        def target(flash, bfq):
            runs = [self.zrun("bfq", "main", "", x) for x in bfq] + \
                   [self.zrun("flash", "main", "", x) for x in flash]
            cells, dist = br.zoo_table(runs, set(),
                                       {"big": (16 * self.K, 4 * self.M)})
            return br.targets({}, [], dist, [], None, {})[0]
        t = target((0.90, 0.93, 1.01), (0.99, 1.0, 1.02))
        self.assertEqual(t["result"], "TIE")
        self.assertIn("1 of 1 (card, recording) pairs below, 1 of them "
                      "inside the spread", t["numbers"])
        self.assertEqual(target((0.90, 0.93, 0.94), (0.99, 1.0, 1.02))[
            "result"], "MISS")
        self.assertEqual(target((0.96, 0.97, 0.98), (0.99, 1.0, 1.02))[
            "result"], "PASS")


class ZooList(unittest.TestCase):
    def test_files_and_held_out(self):
        with tempfile.TemporaryDirectory() as d:
            for n in ("a", "b"):
                with open(os.path.join(d, n + ".preset"), "w") as fh:
                    fh.write("base = sd-c10\n")
            with open(os.path.join(d, "HELD-OUT"), "w") as fh:
                fh.write("# chosen first\nb.preset\n")
            rows = [ln.split() for ln in br.zoo_list(d)]
        self.assertEqual([(r[0], r[2]) for r in rows], [("a", "0"), ("b", "1")])
        self.assertTrue(rows[0][1].endswith("/a.preset"))


class ZooVm(unittest.TestCase):
    @staticmethod
    def vmrun(card, job, sched, mbps):
        return {"id": "%s__%s__%s" % (card, job, sched), "sched": sched,
                "ok": mbps is not None, "mbps": mbps}

    CELLS = [{"zoo": z, "job": "j", "source": src, "ratio": x}
             for z in ("one", "fit")
             for src, x in (("sd-c10", 0.6), ("usb-8g", 2.0))]

    def test_best_other_and_the_base_cards_replay(self):
        runs = [self.vmrun("one", "j", s, v) for s, v in
                (("none", 0.5), ("bfq", 1.0), ("kyber", None),
                 ("flash", 2.0))] + \
               [self.vmrun("fit", "j", s, v) for s, v in
                (("mq-deadline", 1.0), ("flash", None))]
        rows = br.zoo_vm_rows(runs, self.CELLS, {"one": "sd-c10"})
        self.assertEqual([(r["card"], r["best_other"], r["ratio"],
                           r["replay"]) for r in rows],
                         [("fit", "mq-deadline", None, [0.6, 2.0]),
                          ("one", "bfq", 2.0, [0.6])])
        table = br.zoo_vm_table(rows)
        self.assertIn("| fit | j | failed | mq-deadline 1.000 | - | "
                      "0.60-2.00 |", table)
        self.assertIn("| one | j | 2.000 | bfq 1.000 | 2.00 | 0.60 |", table)
        self.assertIn("1 flash run(s) failed; the VM and the replay's "
                      "median on different sides of 0.95: one j", table[-1])

    def test_repetitions_give_medians_and_count_failed_flash_runs(self):
        def rep(card, sched, mbps, n):
            r = self.vmrun(card, "j", sched, mbps)
            r["id"] += "__r%d" % n if n > 1 else ""
            return r
        runs = [rep("one", "bfq", v, n) for n, v in ((1, 1.0), (2, 3.0),
                                                     (3, 2.0))] + \
               [rep("one", "flash", v, n) for n, v in ((1, 1.0), (2, None),
                                                       (3, 3.0))]
        rows = br.zoo_vm_rows(runs, self.CELLS, {"one": "sd-c10"})
        self.assertEqual([(r["flash"], r["other"], r["ratio"],
                           r["flash_failed"]) for r in rows],
                         [(2.0, 2.0, 1.0, 1)])
        self.assertIn("min 1.00, median 1.00, max 1.00; 1 flash run(s) "
                      "failed", br.zoo_vm_table(rows)[-1])

    def test_base_of_a_preset_file(self):
        with tempfile.TemporaryDirectory() as d:
            grid, fit = os.path.join(d, "grid"), os.path.join(d, "fit")
            with open(grid, "w") as fh:
                fh.write("# base = usb-8g in a comment\n"
                         "base = sd-c10\t# the builtin\nopen_aus = 1\n")
            with open(fit, "w") as fh:
                fh.write("au_size = 2M\t# fitted\n")
            self.assertEqual(br.preset_base(grid), "sd-c10")
            self.assertIsNone(br.preset_base(fit))


class Latency(unittest.TestCase):
    def test_bins_merged_and_dilated(self):
        def job(bins):
            return {"read": {"io_bytes": 0}, "write": {
                "io_bytes": 4096, "total_ios": sum(bins.values()),
                "clat_ns": {"bins": {str(k): v for k, v in bins.items()},
                            "percentile": {"99.000000": 1}}}}
        fio = {"jobs": [job({10**6: 98}), job({5 * 10**6: 1, 9 * 10**6: 1})]}
        f = br.fio_summary(fio, 0.5)
        self.assertAlmostEqual(f["write_lat_p50_ms"], 1.0)
        self.assertAlmostEqual(f["write_lat_p99_ms"], 5.0)
        self.assertAlmostEqual(f["write_lat_p99_model_ms"], 10.0)
        self.assertIsNone(f["read_lat_p99_ms"])
        self.assertEqual(f["latency"], "completion")

    def test_phase_files_merged_in_order_groups_kept_apart(self):
        def job(group, rd, wr):
            return {"groupid": group, "read": {"io_bytes": rd},
                    "write": {"io_bytes": wr}}
        with tempfile.TemporaryDirectory() as d:
            # fio-10 after fio-2: numeric order; each file's group 0 is
            # its own group, so the write and the read phase are not mixed
            for n, part in ((1, [job(0, 0, 1)]), (2, [job(0, 0, 2)]),
                            (10, [job(0, 3, 0)])):
                with open(os.path.join(d, "fio-%d.json" % n), "w") as fh:
                    json.dump({"jobs": part}, fh)
            with open(os.path.join(d, "fio.json"), "w") as fh:
                json.dump({"jobs": [job(0, 9, 9)]}, fh)
            # fio writes some warnings into its output, above the JSON
            with open(os.path.join(d, "fio-10.json"), "r+") as fh:
                doc = fh.read()
                fh.seek(0)
                fh.write("fio: norandommap given, verify limited\n" + doc)
            fio = br.load_fio(d)
            self.assertEqual([(j["groupid"], j["write"]["io_bytes"])
                              for j in fio["jobs"]], [(0, 1), (1, 2), (2, 0)])
            f = br.fio_summary(fio)
            self.assertEqual((f["read_bytes"], f["write_bytes"]), (3, 3))
            self.assertFalse(f["mixed"])
            # a phase whose output does not parse spoils the run's fio data
            with open(os.path.join(d, "fio-2.json"), "w") as fh:
                fh.write("{")
            self.assertIsNone(br.load_fio(d))
            # runs from before the split: fio.json
            for n in (1, 2, 10):
                os.remove(os.path.join(d, "fio-%d.json" % n))
            self.assertEqual(br.load_fio(d)["jobs"][0]["write"]["io_bytes"], 9)

    def test_mixed_only_where_one_group_reads_and_writes(self):
        def job(group, rd, wr):
            return {"groupid": group, "read": {"io_bytes": rd},
                    "write": {"io_bytes": wr}}
        # stonewalled phases: a write phase, then a read phase
        phases = {"jobs": [job(0, 0, 4096), job(1, 4096, 0)]}
        self.assertFalse(br.fio_summary(phases)["mixed"])
        # a reader and a writer in one group, or one job doing both
        for jobs in ([job(0, 0, 4096), job(0, 4096, 0)], [job(2, 1, 1)]):
            self.assertTrue(br.fio_summary({"jobs": jobs})["mixed"])

    def test_total_latency_where_the_job_has_it(self):
        # a request that waited 2 ms for a tag in io_submit: clat 1 ms,
        # total 3 ms
        def hist(ns):
            return {"bins": {str(ns): 100}, "percentile": {"50.000000": ns}}
        w = {"io_bytes": 4096, "total_ios": 100, "clat_ns": hist(10**6),
             "lat_ns": hist(3 * 10**6)}
        f = br.fio_summary({"jobs": [{"read": {}, "write": w}]})
        self.assertAlmostEqual(f["write_lat_p50_ms"], 3.0)
        self.assertEqual(f["latency"], "total")
        with tempfile.TemporaryDirectory() as d:
            br.prepare(True, d)
            for name in os.listdir(os.path.join(d, "jobs")):
                with open(os.path.join(d, "jobs", name)) as fh:
                    self.assertIn("lat_percentiles=1", fh.read().split(), name)


    def test_reads_q_to_c_at_the_block_layer(self):
        # reads of 10, 20, ..., 1000 ms (Q at t, C at t + x), a write and
        # a read whose Q was not traced in between
        lines = [trace_line(9.0, "Q", "WS", 0), trace_line(9.5, "C", "WS", 0),
                 trace_line(9.6, "C", "R", 999)]
        for i in range(1, 101):
            lines += [trace_line(10.0 * i, "Q", "R", 8 * i),
                      trace_line(10.0 * i + i / 100, "C", "R", 8 * i)]
        with tempfile.TemporaryDirectory() as d:
            r = br.run_record(write_run(d, "sd-c10__seq__flash",
                                        good_meta(dil="0.5"),
                                        trace="".join(lines)))
        # model clock: the wall times / 0.5
        self.assertAlmostEqual(r["blk"]["read_p50_ms"], 1000.0)
        self.assertAlmostEqual(r["blk"]["read_p99_ms"], 1980.0)
        self.assertEqual(br.quantile([], 0.99), None)


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


class Prepare(unittest.TestCase):
    def plans(self, quick):
        with tempfile.TemporaryDirectory() as d:
            br.prepare(quick, d)
            out = []
            i = 1
            while os.path.exists(os.path.join(d, "plan-%d.txt" % i)):
                with open(os.path.join(d, "plan-%d.txt" % i)) as fh:
                    out.append(fh.read().splitlines())
                i += 1
            return out

    def test_full_three_interleaved_reps_in_parts(self):
        parts = self.plans(False)
        # VM runs of at most the budget, unless one job's runs pass it
        # alone
        for p in parts:
            cmds = [ln for ln in p if ln.split()[0] in ("run", "fs", "cpu")]
            jobs = set((br.parse_id(ln.split()[1])["kind"],
                        br.parse_id(ln.split()[1])["job"]) for ln in cmds
                       if ln.split()[0] != "cpu")
            if len(jobs) > 1:
                self.assertLessEqual(sum(br.est_s(ln) for ln in cmds),
                                     br.PART_BUDGET_S)
            self.assertIn("set NR %d" % br.NR_REQUESTS, p)
        lines = sum(parts, [])
        jobs = [f[:-4] for f in os.listdir(os.path.join(scripts.TOP,
                                                         "fio-jobs"))
                if f.endswith(".fio")]
        runs = [ln.split()[1] for ln in lines if ln.startswith("run ") and
                br.parse_id(ln.split()[1])["kind"] == "main"]
        want = ["%s__%s__%s%s" % (p, j, s, br.rep_suffix(r))
                for p in br.PRESETS for j in jobs for s in br.SCHEDS
                for r in range(1, br.REPS_FULL + 1)]
        self.assertEqual(sorted(runs), sorted(want))
        # interleaved: every scheduler's first run before any second one
        j = [r for r in runs if r.startswith("sd-c10__seq-write-128k-qd4__")]
        self.assertEqual(j[:len(br.SCHEDS)],
                         ["sd-c10__seq-write-128k-qd4__" + s
                          for s in br.SCHEDS])
        self.assertTrue(j[len(br.SCHEDS)].endswith("__r2"))
        # a job's repetitions stay in one VM run
        where = {}
        for i, p in enumerate(parts):
            for ln in p:
                if ln.startswith("run "):
                    k = br.parse_id(ln.split()[1])
                    where.setdefault((k["kind"], k["preset"], k["job"]),
                                     set()).add(i)
        self.assertEqual([k for k, v in where.items() if len(v) > 1], [])

    def test_geometry_and_fs_lines(self):
        lines = sum(self.plans(False), [])
        geo = [ln for ln in lines if ln.startswith("run geo__")]
        self.assertIn("run geo__sd-c10__seq-write-4-streams-16k__erase-x1.5 "
                      "sd-c10 flash /out/jobs/seq-write-4-streams-16k.fio "
                      "%g erase_size=6291456" % br.DILATE, geo)
        self.assertTrue([ln for ln in geo if ln.endswith(" page_size=8192")])
        fs = [ln.split() for ln in lines if ln.startswith("fs ")]
        self.assertTrue(fs)
        self.assertTrue(all(len(f) == 7 for f in fs))
        self.assertEqual(set(f[4] for f in fs), set(br.FS_TYPES))
        self.assertEqual(set(f[5] for f in fs), set(br.FS_WORKLOADS))

    def test_ext4_again_with_more_cpus(self):
        parts = self.plans(False)
        more = [p for p in parts if "vm cpus %d" % br.FS_MORE_CPUS in p]
        self.assertTrue(more)
        self.assertTrue(all("vm cpus %d" % br.VM_CPUS in p
                            for p in parts if p not in more))
        fs = [ln.split() for ln in sum(more, []) if ln.split()[0] in
              ("run", "fs", "cpu")]
        self.assertEqual(len(fs), len(br.FS_FULL_MORE_CPUS) *
                         len(br.SCHEDS) * br.REPS_FULL)
        self.assertTrue(all(f[0] == "fs" and f[4] == "ext4" and
                            br.parse_id(f[1])["job"] == "%s-%s-%dcpu" % (
                                f[4], f[5], br.FS_MORE_CPUS) for f in fs))

    def test_quick_is_one_part(self):
        parts = self.plans(True)
        self.assertEqual(len(parts), 1)
        runs = [ln for ln in parts[0] if ln.startswith("run ") and
                br.parse_id(ln.split()[1])["kind"] == "main"]
        self.assertEqual(len(runs), len(br.QUICK_JOBS) * len(br.PRESETS) *
                         len(br.SCHEDS))
        self.assertFalse([ln for ln in runs
                          if re.search(r"__r\d+$", ln.split()[1])])
        self.assertIn("cpu 6 5 mq-deadline flash", parts[0])
        self.assertIn("set NR %d" % br.NR_REQUESTS, parts[0])

    def test_parse_id(self):
        self.assertEqual(br.parse_id("geo__usb-8g__j__page-x2__r3"),
                         {"kind": "geo", "preset": "usb-8g", "job": "j",
                          "variant": "page-x2", "rep": 3})
        self.assertEqual(br.parse_id("sd-c10__j__mq-deadline")["rep"], 1)


class ParallelCard(unittest.TestCase):
    """The card with internal parallelism: its runs, their settings and
    their place in the report."""

    def par_id(self, sched, rep=1):
        return "par__%s__j__%s%s" % (br.PAR_CARD, sched, br.rep_suffix(rep))

    def par_meta(self, sched, channels):
        return good_meta(sched, preset=br.PAR_PRESET, channels=channels,
                         queue_depth=br.PAR_QD, job="/out/jobs/j.fio")

    def test_plan_turns_channels_on_before_and_off_after(self):
        for quick in (False, True):
            parts = br.plan_parts(quick, br.QUICK_JOBS)
            par = [p for p in parts if any(" par__" in ln for ln in p)]
            self.assertTrue(par)
            for p in par:
                on = p.index(br.PAR_ON[0])
                self.assertEqual(p[on:on + len(br.PAR_ON)], br.PAR_ON)
                for i, ln in enumerate(p):
                    if not ln.startswith("run "):
                        continue
                    f = ln.split()
                    is_par = br.parse_id(f[1])["kind"] == "par"
                    # par runs after PAR_ON on the model PAR_PRESET, the
                    # serial ones before it
                    self.assertEqual(is_par, i > on, ln)
                    if is_par:
                        self.assertEqual(f[2], br.PAR_PRESET)
                        self.assertEqual(br.parse_id(f[1])["preset"],
                                         br.PAR_CARD)
            jobs = br.PAR_QUICK if quick else br.PAR_FULL
            n = sum(ln.startswith("run par__") for p in par for ln in p)
            self.assertEqual(n, len(jobs) * len(br.SCHEDS) *
                             (1 if quick else br.REPS_FULL))
        quick = br.plan_parts(True, br.QUICK_JOBS)[0]
        self.assertEqual(quick[-len(br.PAR_OFF):], br.PAR_OFF)

    def test_run_on_a_serial_card_fails(self):
        with tempfile.TemporaryDirectory() as d:
            bad = br.run_record(write_run(d, self.par_id("flash"),
                                          self.par_meta("flash", "1")))
            good = br.run_record(write_run(
                d, self.par_id("bfq"), self.par_meta("bfq", br.PAR_CHANNELS)))
        self.assertFalse(bad["ok"])
        self.assertIn("1 channel", bad["fail_reason"])
        self.assertTrue(good["ok"])
        self.assertEqual(good["preset"], br.PAR_CARD)

    def test_reported_as_a_card_of_its_own(self):
        with tempfile.TemporaryDirectory() as d:
            for s in ("bfq", "flash"):
                write_run(d, self.par_id(s),
                          self.par_meta(s, br.PAR_CHANNELS))
                write_run(d, "%s__j__%s" % (br.PAR_PRESET, s), good_meta(
                    s, preset=br.PAR_PRESET), busy_ns=2 * 10**9)
            res = br.analyse(d)
        cards = sorted(t["preset"] for t in res["table"])
        self.assertEqual(cards, sorted([br.PAR_CARD, br.PAR_PRESET]))
        self.assertIn("## %s\n" % br.PAR_CARD, br.render(res, False))

    def test_topup_keeps_the_channels(self):
        with tempfile.TemporaryDirectory() as d:
            write_wide_spread(d, self.par_id, lambda s: self.par_meta(
                s, br.PAR_CHANNELS))
            self.assertEqual(br.topup(d, 3), 2 * len(br.SCHEDS))
            with open(os.path.join(d, "plan-3.txt")) as fh:
                plan = fh.read().splitlines()
        on = plan.index(br.PAR_ON[0])
        runs = [i for i, ln in enumerate(plan) if ln.startswith("run ")]
        self.assertTrue(runs and min(runs) > on)
        self.assertTrue(plan[runs[0]].startswith(
            "run %s " % self.par_id("none", 4)))


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
