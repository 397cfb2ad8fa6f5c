"""How far the normal route of rank_systems is from the exact one, at its bound.

Where every cell a metric reads holds at least ``MIN_COUNT`` items (each
system's TP, FP, FN and TN of each label, and the items on which each pair of
systems differs), `rank_systems` draws the data part of the joint table's
per-label sums as one multivariate normal with their exact mean and
covariance instead of one Gamma variate per observed cell.  This script
builds binary data sets whose smallest such count sits just above the bound,
ranks their systems by both routes (the exact one by setting the bound out of
reach) with many draws, and reports the largest difference in P(best), in
the rank probabilities and in the pairwise probabilities, with the standard
error of that difference (two independent Monte Carlo estimates).

The systems' accuracies are close, so that the probabilities are far from 0
and 1 where an approximation shows most, and their mistakes are correlated
through a per-item difficulty, as real systems' are.

Run ``python -m benchmarks.rank_normal_accuracy`` (about 20 minutes on two
cores; ``--quick`` for a smoke run with few draws).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from scipy.special import expit, logit

import skprobeval._compare._joint_normal as normal_route
from skprobeval import rank_systems

# (systems, items, accuracy of the weakest and of the strongest, difficulty sd)
CASES = [(8, 44_000, 0.8965, 0.9035, 1.0), (12, 48_000, 0.902, 0.9105, 1.5)]
METRICS = ("accuracy", "f1", "informedness")


def case_data(n_systems, n_items, low, high, spread, seed=0):
    """Binary labels and the systems' predictions (balanced classes)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n_items)
    difficulty = rng.normal(0, spread, n_items)
    skill = logit(np.linspace(low, high, n_systems)) + spread ** 2 / 2.8
    right = rng.random((n_systems, n_items)) < expit(skill[:, None] - difficulty[None, :])
    return y, {f"s{i:02d}": np.where(right[i], y, 1 - y) for i in range(n_systems)}


def smallest_count(y, predictions):
    """The smallest of every system's four cells and every pair's disagreements."""
    arrays = list(predictions.values())
    cells = [int(np.sum((p == a) & (y == b))) for p in arrays for a in (0, 1) for b in (0, 1)]
    pairs = [int(np.sum(a != b)) for i, a in enumerate(arrays) for b in arrays[i + 1:]]
    return min(cells + pairs)


def _ranking(y, predictions, metric, n_draws, exact):
    bound = normal_route.MIN_COUNT
    if exact:
        normal_route.MIN_COUNT = float("inf")
    try:
        start = time.perf_counter()
        ranking = rank_systems(y, predictions, metric=metric, n_draws=n_draws, random_state=1)
        return ranking, time.perf_counter() - start
    finally:
        normal_route.MIN_COUNT = bound


def _largest(first, second, n_draws):
    """Largest |difference| of two probability arrays and its standard error."""
    first, second = np.asarray(first, float).ravel(), np.asarray(second, float).ravel()
    keep = ~(np.isnan(first) | np.isnan(second))
    first, second = first[keep], second[keep]
    gap = np.abs(first - second)
    k = int(np.argmax(gap))
    se = np.sqrt((first[k] * (1 - first[k]) + second[k] * (1 - second[k])) / n_draws)
    return float(gap[k]), float(se)


def main(quick=False):
    """Run every case; print a table and return its rows."""
    n_draws = 20_000 if quick else 2_000_000
    cases = CASES[:1] if quick else CASES
    rows = []
    for n_systems, n_items, low, high, spread in cases:
        y, predictions = case_data(n_systems, n_items, low, high, spread)
        smallest = smallest_count(y, predictions)
        assert smallest >= normal_route.MIN_COUNT, smallest
        for metric in METRICS:
            normal, normal_s = _ranking(y, predictions, metric, n_draws, exact=False)
            exact, exact_s = _ranking(y, predictions, metric, n_draws, exact=True)
            row = {"systems": n_systems, "items": n_items, "smallest": smallest,
                   "metric": metric, "n_draws": n_draws,
                   "normal_s": normal_s, "exact_s": exact_s}
            for what, first, second in (
                    ("prob_best", normal.prob_best, exact.prob_best),
                    ("rank", normal.rank_probabilities, exact.rank_probabilities),
                    ("pairwise", normal.pairwise, exact.pairwise)):
                row[what], row[what + "_se"] = _largest(first, second, n_draws)
            rows.append(row)
    print(f"{'case':<28} {'metric':<13} {'P(best)':>16} {'rank probs':>16} "
          f"{'pairwise':>16} {'normal [s]':>10} {'exact [s]':>10}")
    for row in rows:
        case = f"{row['systems']} x {row['items']} (min {row['smallest']})"
        print(f"{case:<28} {row['metric']:<13} "
              + " ".join(f"{row[w]:>8.4f} ±{row[w + '_se']:.4f}"
                         for w in ("prob_best", "rank", "pairwise"))
              + f" {row['normal_s']:>10.2f} {row['exact_s']:>10.2f}")
    print(f"(largest |normal - exact| over every entry ± the standard error of that "
          f"difference; {n_draws} draws a route)")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
