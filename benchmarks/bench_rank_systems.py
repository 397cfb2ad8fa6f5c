"""rank_systems on 20 systems x 100 000 items against the pairwise comparisons it replaces.

Times one call of ``rank_systems(y, predictions, metric=..., random_state=0)`` with its
defaults (10 000 draws of the joint table of the truth and all 20 systems' predictions,
the prior by stick-breaking) on binary labels, the systems' accuracies spread from 0.85 to
0.92 and their errors correlated through a per-item difficulty (about 23 000 distinct
cells), for the share of items right and for F1.  The reference is what a user would
otherwise run on the same data: ``compare_predictions`` with the same metric and draws,
whose ``pairwise_metric`` table holds the 190 paired comparisons (exact for accuracy,
sampled from each pair's 8-cell table for F1), plus its per-system posteriors.
Goal: under 5 s on a 2-core machine.  A second reference is the cost of the naive
route: drawing the item-level Bayesian bootstrap's variates (an Exp(1) weight per
item per draw, nothing computed from them); goal: at most half that time.

Run ``python -m benchmarks.bench_rank_systems`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy.special import expit, logit

from benchmarks._timing import best_time_and_value
from skprobeval import compare_predictions, rank_systems


def _data(n_systems, n_items, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n_items)
    skill = logit(np.linspace(0.80, 0.90, n_systems)) + 1.0
    difficulty = rng.normal(0, 1.5, n_items)
    right = rng.random((n_systems, n_items)) < expit(skill[:, None] - difficulty[None, :])
    return y, {f"system {i:02d}": np.where(right[i], y, 1 - y) for i in range(n_systems)}


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    n_systems, n_items, n_draws = (5, 10_000, 2000) if quick else (20, 100_000, 10_000)
    repeat = 1 if quick else 3
    y, predictions = _data(n_systems, n_items)
    pairs = n_systems * (n_systems - 1) // 2
    rng = np.random.default_rng(0)
    chunk = max(1, (1 << 22) // n_items)

    def bootstrap_variates():
        # The naive item-level Bayesian bootstrap: an Exp(1) weight per item per draw.
        for first in range(0, n_draws, chunk):
            rng.standard_exponential((min(chunk, n_draws - first), n_items))

    bootstrap_s, _ = best_time_and_value(bootstrap_variates, repeat)
    rows = []
    for metric in ("accuracy", "f1"):
        ours_s, ours = best_time_and_value(lambda: rank_systems(
            y, predictions, metric=metric, n_draws=n_draws, random_state=0), repeat)
        theirs_s, _ = best_time_and_value(lambda: compare_predictions(
            y, predictions, metric=metric, n_draws=n_draws, random_state=0), 1)
        case = (f"rank_systems {metric}, {n_systems} systems x {n_items} items, "
                f"{n_draws} draws (max mc_error {ours.mc_error.max():.4f})")
        rows.append({"benchmark": "rank systems", "case": case, "ours_s": ours_s,
                     "reference": f"compare_predictions ({pairs} paired comparisons)",
                     "reference_s": theirs_s, "ratio": theirs_s / ours_s})
        rows.append({"benchmark": "rank systems", "case": case, "ours_s": ours_s,
                     "reference": f"item-level Bayesian bootstrap variates ({n_items} x "
                                  f"{n_draws} Exp(1))",
                     "reference_s": bootstrap_s, "ratio": bootstrap_s / ours_s})
    width = max(len(row["case"]) for row in rows)
    for row in rows:
        print(f"{row['case']:<{width}} {row['ours_s']:>9.3g} s  {row['reference']:<40} "
              f"{row['reference_s']:>9.3g} s  {row['ratio']:>7.3g}x")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
