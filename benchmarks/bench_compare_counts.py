"""compare_counts on 100 binary systems, and the runs model on 10 systems x 10 runs.

Two rows.  The first times ``compare_counts`` of 100 binary tables (accuracy, the
default 10 000 draws): each system's exact posterior summary, the ranking, and the
4 950 pairwise probabilities, which beyond ten systems (45 pairs) are read from the
ranking's draws, as they are for every sampled metric (the exact probability of
`compare_independent` costs a quadrature per pair).  The reference is what a user
would otherwise run for the ranking alone: drawing the systems' independent Beta
posteriors with NumPy (``rng.beta`` of every table, 10 000 draws each).  Goal: at most
2 times that.

The second times ``compare_counts`` of 10 systems with 10 runs each (the runs model:
each run's posterior, the spread's grid posterior, 10 000 draws of the mean and of a new
run per system, the ranking of the means).  Goal: under a second on two cores; the
reference column is the same draws of the runs' Beta posteriors with NumPy alone.

Both timed calls read the report's summary and ranking, so that whatever the report
might compute on first access is timed too.

Run ``python -m benchmarks.bench_compare_counts`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np

from benchmarks._timing import best_time_and_value
from skprobeval import ConfusionCounts, compare_counts


def _tables(n_systems, n_items, rng):
    accuracy = rng.uniform(0.80, 0.90, n_systems)
    right = rng.binomial(n_items, accuracy)
    return [ConfusionCounts(r // 2, (n_items - r) // 2, n_items - r - (n_items - r) // 2,
                            r - r // 2) for r in right]


def _report(counts, n_draws):
    """The report as a user reads it: its summary and ranking included."""
    report = compare_counts(counts, n_draws=n_draws, random_state=0)
    _ = report.summary, report.ranking
    return report


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    n_systems, n_draws, repeat = (20, 2000, 1) if quick else (100, 10_000, 3)
    rng = np.random.default_rng(0)
    tables = {f"system {i:03d}": t for i, t in enumerate(_tables(n_systems, 10_000, rng))}
    a = np.array([float(t.tp + t.tn) + 1.0 for t in tables.values()])
    b = np.array([float(t.fp + t.fn) + 1.0 for t in tables.values()])
    rows = []
    ours_s, report = best_time_and_value(lambda: _report(tables, n_draws), repeat)
    theirs_s, _ = best_time_and_value(
        lambda: np.random.default_rng(0).beta(a, b, size=(n_draws, a.size)), repeat)
    rows.append({"benchmark": "compare counts",
                 "case": f"compare_counts accuracy, {n_systems} binary systems, {n_draws} "
                         f"draws (max mc_error {report.ranking.mc_error.max():.4f})",
                 "ours_s": ours_s, "reference": "NumPy Beta draws of every system",
                 "reference_s": theirs_s, "ratio": theirs_s / ours_s})

    n_systems, n_runs = (3, 5) if quick else (10, 10)
    runs = {f"system {i}": _tables(n_runs, 500, rng) for i in range(n_systems)}
    a = np.array([[float(t.tp + t.tn) + 1.0 for t in system] for system in runs.values()])
    b = np.array([[float(t.fp + t.fn) + 1.0 for t in system] for system in runs.values()])
    ours_s, report = best_time_and_value(lambda: _report(runs, n_draws), repeat)
    theirs_s, _ = best_time_and_value(
        lambda: np.random.default_rng(0).beta(a.ravel(), b.ravel(),
                                              size=(n_draws, a.size)), repeat)
    rows.append({"benchmark": "compare counts",
                 "case": f"compare_counts runs model, {n_systems} systems x {n_runs} runs, "
                         f"{n_draws} draws",
                 "ours_s": ours_s, "reference": "NumPy Beta draws of every run",
                 "reference_s": theirs_s, "ratio": theirs_s / ours_s})
    width = max(len(row["case"]) for row in rows)
    for row in rows:
        print(f"{row['case']:<{width}} {row['ours_s']:>9.3g} s  {row['reference']:<34} "
              f"{row['reference_s']:>9.3g} s  {row['ratio']:>7.3g}x")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
