"""Comparing two systems: exact answers against Goutte & Gaussier's (2005) Monte Carlo.

Times, in one process:

* the exact paired ``P(pi1 > pi2)`` (closed form, `PairedComparison.from_counts`)
  against the paper's estimate from 10^6 Dirichlet draws (eq. 19), for one
  table ('earn', Table 2) and for all 39 rows of Table 2 in one vectorised
  call (against 39 Monte Carlo runs);
* the paired comparison with a region of practical equivalence (one-dimensional
  quadrature) against 10^6 Dirichlet draws;
* the exact independent F1 comparison (`compare_independent`) against the
  paper's 10^6-draw Gamma-variate Monte Carlo (eq. 11 and 13).

Each row reports the absolute difference between the two answers
(``abs_error``: the Monte Carlo error, since ours is exact) and the Monte
Carlo standard error.  Goal: the exact paired P >= 1000x faster than the
10^6-draw Monte Carlo.

Run ``python -m benchmarks.bench_compare`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np

from benchmarks._timing import best_time
from skprobeval import ConfusionCounts, PairedComparison, PairedCounts, compare_independent

# Goutte & Gaussier (2005), Table 2: (first better, second better) for the 13 categories of the
# three comparisons; 3299 test documents.
TABLE_2 = [
    (17, 4), (43, 28), (39, 23), (21, 15), (17, 11), (23, 22), (24, 24), (10, 9), (6, 11),
    (6, 5), (13, 6), (12, 9), (8, 3),
    (48, 12), (282, 14), (58, 43), (62, 21), (46, 10), (28, 28), (38, 21), (14, 13), (22, 4),
    (19, 2), (191, 2), (24, 10), (10, 11),
    (1, 4), (6, 7), (11, 6), (4, 2), (9, 2), (2, 7), (5, 3), (0, 3), (3, 1), (1, 0), (5, 3),
    (3, 2), (0, 3),
]
N_DOCUMENTS = 3299


def _paired_monte_carlo(n1, n2, n3, n_draws, rng, rope=0.0):
    """Goutte & Gaussier (2005), eq. 19: share of Dirichlet draws with pi1 - pi2 > rope."""
    draws = rng.dirichlet([n1 + 0.5, n2 + 0.5, n3 + 0.5], size=n_draws)
    return float(np.mean(draws[:, 0] - draws[:, 1] > rope))


def _f1_monte_carlo(counts_a, counts_b, n_draws, rng):
    """Goutte & Gaussier (2005), eq. 11 and 13: F1 = U / (U + V) from Gamma variates."""
    def f1_draws(c):
        u = 2.0 * rng.standard_gamma(float(c.tp) + 0.5, n_draws)
        v = rng.standard_gamma(float(c.fp + c.fn) + 1.0, n_draws)
        return u / (u + v)
    return float(np.mean(f1_draws(counts_a) > f1_draws(counts_b)))


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    rng = np.random.default_rng(0)
    n_draws = 10_000 if quick else 1_000_000
    repeat = 3 if quick else 20
    repeat_mc = 1 if quick else 3
    mc_name = f"Goutte-Gaussier Monte Carlo, {n_draws:.0e}"
    rows = []

    def add(case, ours, theirs, exact, estimate):
        se = np.sqrt(np.clip(exact * (1 - exact), 0, None) / n_draws)
        rows.append({
            "benchmark": "compare", "case": case, "ours_s": ours, "reference": mc_name,
            "reference_s": theirs, "ratio": theirs / ours,
            "abs_error": float(np.max(np.abs(np.asarray(estimate) - np.asarray(exact)))),
            "mc_standard_error": float(np.max(se)),
        })

    # 1. One table, closed form.
    earn = PairedCounts(17, 4, N_DOCUMENTS - 21)
    ours = best_time(lambda: PairedComparison.from_counts(earn), repeat * 50)
    exact = PairedComparison.from_counts(earn).prob_first_better
    estimate = []
    theirs = best_time(lambda: estimate.append(
        _paired_monte_carlo(17, 4, N_DOCUMENTS - 21, n_draws, rng)), repeat_mc)
    add("paired P(pi1>pi2), earn 17 vs 4", ours, theirs, exact, estimate[-1])

    # 2. All 39 rows of Table 2 in one call.
    n1, n2 = (np.array(column, dtype=float) for column in zip(*TABLE_2))
    table = PairedCounts(n1, n2, N_DOCUMENTS - n1 - n2)
    ours = best_time(lambda: PairedComparison.from_counts(table), repeat * 10)
    exact = PairedComparison.from_counts(table).prob_first_better
    rows_mc = TABLE_2[:5] if quick else TABLE_2
    estimate = []
    theirs = best_time(lambda: estimate.append(
        [_paired_monte_carlo(a, b, N_DOCUMENTS - a - b, n_draws, rng) for a, b in rows_mc]),
        1) * len(TABLE_2) / len(rows_mc)
    add("paired P, Table 2 (39 rows)", ours, theirs, exact[:len(rows_mc)], estimate[-1])

    # 3. With a region of practical equivalence: quadrature.
    ours = best_time(lambda: PairedComparison.from_counts(earn, rope=0.002), repeat)
    exact = PairedComparison.from_counts(earn, rope=0.002).prob_first_better
    estimate = []
    theirs = best_time(lambda: estimate.append(
        _paired_monte_carlo(17, 4, N_DOCUMENTS - 21, n_draws, rng, rope=0.002)), repeat_mc)
    add("paired P(delta>0.002), earn", ours, theirs, exact, estimate[-1])

    # 4. Independent F1 (Table 1 sized counts), exact through the Beta of F1.
    counts_a = ConfusionCounts(tp=1040, fp=14, fn=14, tn=2231)
    counts_b = ConfusionCounts(tp=1030, fp=20, fn=22, tn=2227)
    ours = best_time(lambda: compare_independent(counts_a, counts_b, metric="f1"), repeat)
    exact = compare_independent(counts_a, counts_b, metric="f1").prob_first_better
    estimate = []
    theirs = best_time(lambda: estimate.append(
        _f1_monte_carlo(counts_a, counts_b, n_draws, rng)), repeat_mc)
    add("independent P(F1_A>F1_B)", ours, theirs, exact, estimate[-1])

    _print(rows)
    return rows


def _print(rows):
    print(f"{'case':<34} {'ours [s]':>10} {'MC [s]':>9} {'speed-up':>10} "
          f"{'|MC - exact|':>13} {'MC s.e.':>9}")
    for row in rows:
        print(f"{row['case']:<34} {row['ours_s']:>10.2e} {row['reference_s']:>9.4f} "
              f"{row['ratio']:>9.0f}x {row['abs_error']:>13.2e} {row['mc_standard_error']:>9.1e}")
    print(f"reference: {rows[0]['reference']}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
