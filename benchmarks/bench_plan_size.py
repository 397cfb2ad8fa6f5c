"""plan_test_size on a Beta-route metric, beside a naive simulation loop.

The naive loop is what a user writes without the library: bisect on n, and at each n
draw 2 000 test sets from the pilot's shares and compute each one's exact interval with
SciPy's Beta quantiles (vectorised), until the share of test sets within the width
crosses the assurance.  ``plan_test_size`` sums over the test set's counts instead.
Goal: under 50 ms.

Run ``python -m benchmarks.bench_plan_size`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import stats

from benchmarks._timing import best_time_and_value
from skprobeval import ConfusionCounts, plan_test_size

__all__ = ["main"]

PILOT = ConfusionCounts(tp=80, fp=12, fn=20, tn=88)


def naive_plan(width, assurance=0.8, n_sims=2000, seed=0):
    """Bisection on n with simulated test sets and SciPy's exact F1 interval."""
    shares = (np.array([80, 12, 20, 88]) + 0.5) / 202

    def within(n):
        cells = np.random.default_rng(seed).multinomial(n, shares, size=n_sims)
        tp, wrong = cells[:, 0] + 0.5, cells[:, 1] + cells[:, 2] + 1.0
        low, high = stats.beta.ppf([[0.025], [0.975]], tp, wrong)
        return np.mean(2 * high / (1 + high) - 2 * low / (1 + low) <= width) >= assurance

    low, high = 1, 2
    while not within(high):
        low, high = high, 2 * high
    while high - low > max(1, 0.02 * high):
        middle = (low + high) // 2
        low, high = (low, middle) if within(middle) else (middle, high)
    return high


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    repeat = 3 if quick else 7
    width = 0.05
    ours_s, plan = best_time_and_value(
        lambda: plan_test_size(metric="f1", width=width, pilot=PILOT, random_state=0), repeat)
    theirs_s, naive_n = best_time_and_value(lambda: naive_plan(width), 1 if quick else 3)
    rows = [{"benchmark": "plan",
             "case": f"plan_test_size f1 width {width}, Beta route (n = {plan.n_items}; the "
                     f"naive loop's n = {naive_n})",
             "ours_s": ours_s, "reference": "naive simulation loop, 2000 test sets an n",
             "reference_s": theirs_s, "ratio": theirs_s / ours_s}]
    for row in rows:
        print(f"{row['case']}: {row['ours_s'] * 1000:.3g} ms; {row['reference']}: "
              f"{row['reference_s']:.3g} s ({row['ratio']:.3g}x)")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
