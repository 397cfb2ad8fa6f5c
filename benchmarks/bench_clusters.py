"""Posteriors of clustered test items (``groups=``) beside a NumPy Bayesian bootstrap.

The reference is what a user writes without the library: count each cluster's
cells (``np.bincount``), then draw Dirichlet(1, ..., 1) weights over the clusters
(``Generator.dirichlet``, in chunks of 500 draws) and multiply them by the
clusters' counts, the same number of draws as the posterior.  The library counts
with the same labels, draws the clusters' masses (one normal vector per draw
where every cell's sum is as symmetric as a Gamma(2000) variate, otherwise one
Gamma variate per cluster) and gives the effective number of items as well.
Goal: at most half the reference's time for 10^6 items in 10^4 clusters.

A report of three binary systems (`compare_predictions`, F1, its ranking read)
on 10^5 items in 10^3 clusters is timed against the same call without
``groups``.  Goal: at most three times its time.

Run ``python -m benchmarks.bench_clusters`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np

from benchmarks._timing import best_time_and_value
from skprobeval import compare_predictions, metric_posterior

__all__ = ["main"]


def _data(n_items, n_clusters, seed=0):
    rng = np.random.default_rng(seed)
    groups = np.sort(rng.integers(0, n_clusters, n_items))
    effect = rng.normal(0.0, 1.0, n_clusters)[groups]
    y_true = (rng.random(n_items) < 0.3).astype(np.int8)
    right = rng.random(n_items) < 1 / (1 + np.exp(-(1.5 + effect)))
    y_pred = np.where(right, y_true, 1 - y_true).astype(np.int8)
    return y_true, y_pred, groups


def numpy_bootstrap(y_true, y_pred, groups, n_draws, seed=0):
    """F1 draws of the Bayesian bootstrap of the clusters, in plain NumPy."""
    rng = np.random.default_rng(seed)
    n_clusters = int(groups.max()) + 1
    cell = 2 * (1 - y_true.astype(np.intp)) + (1 - y_pred.astype(np.intp))   # tp fp fn tn
    counts = np.bincount(groups * 4 + cell, minlength=4 * n_clusters).reshape(-1, 4)
    out = []
    for start in range(0, n_draws, 500):
        weights = rng.dirichlet(np.ones(n_clusters), size=min(500, n_draws - start))
        tp, fp, fn, _ = (weights @ counts).T
        out.append(2 * tp / (2 * tp + fp + fn))
    return np.concatenate(out)


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    n_items, n_clusters = (10**5, 10**3) if quick else (10**6, 10**4)
    n_draws = 2000 if quick else 10_000
    y_true, y_pred, groups = _data(n_items, n_clusters)
    repeat = 2 if quick else 3
    ours_s, posterior = best_time_and_value(
        lambda: metric_posterior(y_true, y_pred, metric="f1", groups=groups, n_draws=n_draws,
                                 random_state=0), repeat)
    theirs_s, draws = best_time_and_value(
        lambda: numpy_bootstrap(y_true, y_pred, groups, n_draws), 1 if quick else 2)
    rows = [{"benchmark": "clusters",
             "case": f"metric_posterior f1 groups=, {n_items:.0e} items in {n_clusters:.0e} "
                     f"clusters, {n_draws} draws (sd {float(posterior.std()):.4f}; the "
                     f"reference's {float(draws.std()):.4f})",
             "ours_s": ours_s,
             "reference": "NumPy Bayesian bootstrap of the clusters (bincount, Dirichlet "
                          "weights x cluster counts)",
             "reference_s": theirs_s, "ratio": theirs_s / ours_s}]
    rows.append(_report_row(quick))
    for row in rows:
        print(f"{row['case']}: {row['ours_s']:.3g} s; {row['reference']}: "
              f"{row['reference_s']:.3g} s ({row['ratio']:.3g}x)")
    return rows


def _report_row(quick):
    """compare_predictions of three systems with groups= beside the same call without."""
    n_items, n_clusters = (2 * 10**4, 200) if quick else (10**5, 10**3)
    y_true, _, groups = _data(n_items, n_clusters, seed=1)
    rng = np.random.default_rng(2)
    effect = rng.normal(0.0, 1.0, n_clusters)[groups]
    predictions = {}
    for name in ("a", "b", "c"):
        own = rng.normal(0.0, 0.3, n_clusters)[groups]
        right = rng.random(n_items) < 1 / (1 + np.exp(-(1.5 + effect + own)))
        predictions[name] = np.where(right, y_true, 1 - y_true)

    def report(clusters):
        result = compare_predictions(y_true, predictions, metric="f1", groups=clusters,
                                     random_state=0)
        return result.ranking.prob_best

    repeat = 2 if quick else 3
    ours_s, _ = best_time_and_value(lambda: report(groups), repeat)
    theirs_s, _ = best_time_and_value(lambda: report(None), repeat)
    return {"benchmark": "clusters",
            "case": f"compare_predictions groups=, 3 binary systems, f1 with its ranking, "
                    f"{n_items:.0e} items in {n_clusters:.0e} clusters",
            "ours_s": ours_s, "reference": "the same report without groups",
            "reference_s": theirs_s, "ratio": theirs_s / ours_s,
            "goal": ">= 0.33x (at most 3x the report without groups)"}


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
