#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of scripts/wa-floor (needs tools/flashmodel built): on the
# sd-c10 model, grouping random writes per erase block must beat arrival
# order by far, and flash's greedy policy must not be worse than an ideal
# elevator by more than 10%.  Prints "PASS name" / "FAIL name" lines.
"""Unit test of scripts/wa-floor."""

import sys

import scripts

wf = scripts.load("wa-floor")


def wa(policy):
    order = wf.dispatch_order(wf.POLICIES[policy], 4, 32, 2048, 1)
    return wf.model_wa("sd-c10", order)


def main():
    fifo, cscan, greedy = wa("fifo"), wa("cscan"), wa("greedy")
    checks = [("wa-floor/grouping-beats-arrival-order", greedy * 5 < fifo),
              ("wa-floor/greedy-near-elevator", greedy <= 1.1 * cscan)]
    print("fifo %.1f cscan %.1f greedy %.1f" % (fifo, cscan, greedy))
    for name, ok in checks:
        print(("PASS " if ok else "FAIL ") + name)
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
