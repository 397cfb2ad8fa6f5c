"""A posterior from a few gold labels and a proxy on every item, beside what it replaces.

F1 of 10^6 binary items of which 10^3 carry a gold label (the others NaN),
with a second labeller's label on every item:
``metric_posterior(gold, y_pred, metric="f1", proxy=proxy)``.  The reference
is the least a user does without the proxy and still reads every item: the
labelled-only posterior (`fbeta_posterior` of the 10^3 labelled items) plus
counting the 10^6 items' (proxy, prediction) cells (``np.bincount``).  Goal:
at most three times the reference's time.

Run ``python -m benchmarks.bench_proxy`` (or ``--quick``: 10^5 items, 10^3
labelled).
"""

from __future__ import annotations

import sys

import numpy as np

from benchmarks._timing import best_time_and_value
from skprobeval import fbeta_posterior, metric_posterior

__all__ = ["main"]


def _data(n_items, n_labelled, seed=0):
    rng = np.random.default_rng(seed)
    y_true = (rng.random(n_items) < 0.3).astype(np.int64)
    y_pred = np.where(y_true == 1, rng.random(n_items) < 0.8,
                      rng.random(n_items) > 0.9).astype(np.int64)
    proxy = np.where(rng.random(n_items) < 0.95, y_true, 1 - y_true)
    gold = y_true.astype(float)
    gold[rng.permutation(n_items)[n_labelled:]] = np.nan
    return gold, y_pred, proxy


def labelled_only_and_counts(gold, y_pred, proxy):
    """The labelled items' F1 posterior, and the (proxy, prediction) counts of every item."""
    labelled = ~np.isnan(gold)
    posterior = fbeta_posterior(gold[labelled].astype(np.int64), y_pred[labelled])
    counts = np.bincount(2 * proxy + y_pred, minlength=4)
    return posterior, counts


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    n_items, n_labelled = (10**5 if quick else 10**6), 10**3
    gold, y_pred, proxy = _data(n_items, n_labelled)
    repeat = 2 if quick else 5
    ours_s, posterior = best_time_and_value(
        lambda: metric_posterior(gold, y_pred, metric="f1", proxy=proxy, random_state=0),
        repeat)
    theirs_s, (alone, _) = best_time_and_value(
        lambda: labelled_only_and_counts(gold, y_pred, proxy), repeat)
    width = float(np.subtract(*posterior.interval(0.95)[::-1]))
    alone_width = float(np.subtract(*alone.interval(0.95)[::-1]))
    rows = [{"benchmark": "proxy",
             "case": f"metric_posterior f1 proxy=, {n_items:.0e} items, {n_labelled:.0e} "
                     f"labelled, {posterior.n_draws} draws (95% width {width:.4f}; "
                     f"labelled only {alone_width:.4f})",
             "ours_s": ours_s,
             "reference": "fbeta_posterior of the labelled items + np.bincount of "
                          "(proxy, prediction) over every item",
             "reference_s": theirs_s, "ratio": theirs_s / ours_s,
             "goal": ">= 0.33x (at most 3x the labelled-only posterior and the counts)"}]
    for row in rows:
        print(f"{row['case']}: {row['ours_s']:.3g} s; {row['reference']}: "
              f"{row['reference_s']:.3g} s ({row['ratio']:.3g}x)")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
