#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of scripts/wa-floor (needs tools/flashmodel built): on the
# sd-c10 model, grouping random writes per erase block must beat arrival
# order by far, and flash's greedy policy must not be worse than an ideal
# elevator by more than 10%; greedy on segments of half the erase block
# (--segment-scale 0.5) writes erase blocks backwards and must show it;
# going on to the next segment up (the "next" policy) must win some of
# that back there and cost at the true erase size: the trade-off; going
# on to the next segment up only where that is cheap ("cheapnext", which
# knows the card) must cost nothing at the truth and still leave half the
# erase block 10 % or more above the truth's WA.
# Prints "PASS name" / "FAIL name" lines.
"""Unit test of scripts/wa-floor."""

import sys

import scripts

wf = scripts.load("wa-floor")


def wa(policy, segment=wf.ERASE):
    order = wf.dispatch_order(wf.POLICIES[policy], 4, 32, 2048, 1, segment)
    return wf.model_wa("sd-c10", order)


def main():
    fifo, cscan, greedy = wa("fifo"), wa("cscan"), wa("greedy")
    half = wa("greedy", wf.ERASE // 2)
    nxt, nxt_half = wa("next"), wa("next", wf.ERASE // 2)
    cheap, cheap_half = wa("cheapnext"), wa("cheapnext", wf.ERASE // 2)
    checks = [("wa-floor/grouping-beats-arrival-order", greedy * 5 < fifo),
              ("wa-floor/greedy-near-elevator", greedy <= 1.1 * cscan),
              ("wa-floor/half-segments-cost-greedy", half >= 1.2 * greedy),
              ("wa-floor/next-segment-trades-truth-for-half",
               nxt_half * 1.1 < half and nxt > 1.02 * greedy),
              ("wa-floor/cheap-next-short-of-truth-at-half",
               cheap == greedy and cheap_half < half and
               cheap_half >= 1.1 * greedy)]
    print("fifo %.1f cscan %.1f greedy %.1f greedy-half %.1f next %.1f "
          "next-half %.1f cheapnext %.1f cheapnext-half %.1f"
          % (fifo, cscan, greedy, half, nxt, nxt_half, cheap, cheap_half))
    for name, ok in checks:
        print(("PASS " if ok else "FAIL ") + name)
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
