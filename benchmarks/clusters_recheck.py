"""A second, larger look at chosen cells of the coverage grid's clustered section.

The clustered section runs 400 test sets a cell (a standard error of 0.011 at
0.95), so among its 300-odd library results some land below 0.92 by chance
alone.  This script draws fresh test sets (a seed of its own, independent of
the grid's) for the chosen (cell, quantity) pairs and computes only the
library's interval (``groups=``), so that many more test sets fit in the same
time: the pairs the grid found below 0.92 (``--low``), the ROC AUC rows
(``--auc``), or the width at cluster effect 0 (``--width``: the clustered
interval against the one without ``groups``, 10 clusters of 3 items).

Run ``python -m benchmarks.clusters_recheck --low --reps 1600`` (or ``--auc``,
``--width``; ``--quick``: two pairs, 40 test sets).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from benchmarks._coverage_clusters import _test_set, truths
from skprobeval import average_precision_posterior, metric_posterior, roc_auc_posterior

__all__ = ["main", "run_pair"]

# The library results of 20 clusters or more below 0.92 in the grid (400 test sets each),
# weights Gamma(C / (C + 3)), the prior scaled by it.  Those of one item a cluster are
# the posterior without groups, which neither changes.
LOW = [(100, 10, 1.0, "precision"), (100, 1, 1.0, "macro F1"), (30, 10, 1.0, "ROC AUC"),
       (30, 1, 0.0, "macro F1"), (20, 30, 1.0, "precision"), (20, 10, 1.0, "ROC AUC"),
       (20, 3, 0.5, "f1"), (20, 1, 0.0, "accuracy"), (20, 1, 0.5, "macro F1")]
AUC = [(c, m, sd, "ROC AUC") for c in (100, 30, 20, 10) for m in (30, 10, 3, 1)
       for sd in (0.0, 0.5, 1.0)]


def _interval(quantity, groups, y, pred, score, k, pred_k, n_draws, seed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if quantity == "macro F1":
            posterior = metric_posterior(k, pred_k, metric="f1", average="macro", groups=groups,
                                         n_draws=n_draws, random_state=seed)
        elif quantity == "ROC AUC":
            posterior = roc_auc_posterior(y, score, groups=groups, n_draws=n_draws,
                                          random_state=seed)
        elif quantity == "AP":
            posterior = average_precision_posterior(y, score, groups=groups, n_draws=n_draws,
                                                    random_state=seed)
        else:
            posterior = metric_posterior(y, pred, metric=quantity, groups=groups,
                                         n_draws=n_draws, random_state=seed)
    low, high = posterior.interval(0.95)
    return float(low), float(high)


def run_pair(c, m, sd, quantity, reps, n_draws=4_000, seed=20261206):
    """Coverage of the library's 95% interval (``groups=``) over `reps` fresh test sets."""
    rng = np.random.default_rng([seed, c, m, int(sd * 10), len(quantity)])
    truth = truths(sd)[quantity]
    hits, widths = 0, []
    for r in range(reps):
        groups, y, pred, score, k, pred_k, _ = _test_set(rng, c, m, sd)
        while y.min() == y.max():
            groups, y, pred, score, k, pred_k, _ = _test_set(rng, c, m, sd)
        low, high = _interval(quantity, groups, y, pred, score, k, pred_k, n_draws, r)
        hits += low <= truth <= high
        widths.append(high - low)
    coverage = hits / reps
    return {"clusters": c, "mean_size": m, "effect": sd, "quantity": quantity, "reps": reps,
            "coverage_95": coverage, "se_95": np.sqrt(coverage * (1 - coverage) / reps),
            "width_95": float(np.mean(widths))}


def width_ratio(reps, n_draws=4_000, seed=20261206, c=10, m=3):
    """Width of the clustered interval against the one without ``groups``, effect 0: the
    ratio of the mean widths (``width_ratio``, as the grid judges it; its standard error
    by the delta method) and the mean of the test sets' own ratios
    (``mean_of_ratios``, larger: a test set whose interval without groups is narrow
    weighs as much as any)."""
    rng = np.random.default_rng([seed, c, m])
    rows = []
    for quantity in ("recall", "precision", "f1", "accuracy", "macro F1", "ROC AUC", "AP"):
        ratios, widths = [], []
        for r in range(reps):
            groups, y, pred, score, k, pred_k, _ = _test_set(rng, c, m, 0.0)
            while y.min() == y.max():
                groups, y, pred, score, k, pred_k, _ = _test_set(rng, c, m, 0.0)
            low, high = _interval(quantity, groups, y, pred, score, k, pred_k, n_draws, r)
            base = _interval(quantity, np.arange(y.shape[0]), y, pred, score, k, pred_k,
                             n_draws, r)
            ratios.append((high - low) / (base[1] - base[0]))
            widths.append((high - low, base[1] - base[0]))
        ratios, (clustered, plain) = np.asarray(ratios), np.asarray(widths).T
        ratio = clustered.mean() / plain.mean()
        # Delta method: the ratio of two means of paired values.
        spread = (clustered - ratio * plain).std(ddof=1) / (plain.mean() * np.sqrt(reps))
        rows.append({"quantity": quantity, "reps": reps, "width_ratio": float(ratio),
                     "se": float(spread), "mean_of_ratios": float(ratios.mean()),
                     "mean_of_ratios_se": float(ratios.std(ddof=1) / np.sqrt(reps))})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.clusters_recheck")
    parser.add_argument("--low", action="store_true", help="the pairs below 0.92 in the grid")
    parser.add_argument("--auc", action="store_true", help="the ROC AUC rows, 10-100 clusters")
    parser.add_argument("--width", action="store_true", help="width at effect 0, C=10, m=3")
    parser.add_argument("--reps", type=int, default=1600)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    pairs = ([] if not args.low else LOW) + ([] if not args.auc else AUC)
    reps = args.reps
    if args.quick:
        pairs, reps = [(20, 3, 1.0, "ROC AUC"), (20, 1, 0.0, "accuracy")], 40
    rows = []
    for c, m, sd, quantity in pairs:
        start = time.perf_counter()
        row = run_pair(c, m, sd, quantity, reps)
        rows.append(row)
        print(f"C={c} m={m} sd={sd:g} {quantity}: coverage {row['coverage_95']:.4f} "
              f"(SE {row['se_95']:.4f}, {reps} test sets), width {row['width_95']:.4f} "
              f"[{time.perf_counter() - start:.0f} s]", flush=True)
    if args.width or args.quick:
        for row in width_ratio(40 if args.quick else reps):
            rows.append(row)
            print(f"width at effect 0, C=10, m=3, {row['quantity']}: "
                  f"{row['width_ratio']:.4f} (SE {row['se']:.4f}) times without groups "
                  f"(mean of the test sets' ratios {row['mean_of_ratios']:.4f})", flush=True)
    return rows


if __name__ == "__main__":
    main()
