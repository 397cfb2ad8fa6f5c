"""Confusion counting speed (one of the performance goals).

For n = 10^6 and 10^7 labels (binary integers, 10-class integers, and
10-class strings) times, in one process:

* ``ConfusionCounts.from_predictions(..., average=None)`` (ours),
* ``sklearn.metrics.multilabel_confusion_matrix`` (the reference),
* a bare ``np.bincount(K * y_true + y_pred)`` (the floor for integer labels).

Goals at n = 10^7 with integer labels: >= 20x faster than scikit-learn and
within 2x of the bare bincount; string labels not slower than scikit-learn.

Run ``python -m benchmarks.bench_counts`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from sklearn.metrics import multilabel_confusion_matrix

from benchmarks._timing import best_time
from skprobeval import ConfusionCounts


def _labels(kind, n, rng):
    n_classes = 2 if kind == "binary int" else 10
    y_true = rng.integers(0, n_classes, size=n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, n_classes, size=n))
    if kind == "10-class str":
        names = np.array([f"class_{i}" for i in range(n_classes)])
        return names[y_true], names[y_pred], n_classes
    return y_true, y_pred, n_classes


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    rng = np.random.default_rng(0)
    sizes = [10_000] if quick else [1_000_000, 10_000_000]
    rows = []
    for n in sizes:
        for kind in ("binary int", "10-class int", "10-class str"):
            y_true, y_pred, k = _labels(kind, n, rng)
            repeat = 1 if quick else (3 if n <= 1_000_000 else 2)
            repeat_sklearn = 1 if (quick or n > 1_000_000) else 2
            ours = best_time(
                lambda: ConfusionCounts.from_predictions(y_true, y_pred, average=None), repeat)
            theirs = best_time(lambda: multilabel_confusion_matrix(y_true, y_pred),
                               repeat_sklearn)
            check = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
            assert np.array_equal(check.to_array(), multilabel_confusion_matrix(y_true, y_pred))
            rows.append({
                "benchmark": "counts", "case": f"{kind}, n={n:.0e}", "ours_s": ours,
                "reference": "sklearn multilabel_confusion_matrix", "reference_s": theirs,
                "ratio": theirs / ours,
            })
            if kind != "10-class str":
                floor = best_time(
                    lambda: np.bincount(k * y_true + y_pred, minlength=k * k), repeat)
                rows.append({
                    "benchmark": "counts", "case": f"{kind}, n={n:.0e}", "ours_s": ours,
                    "reference": "bare np.bincount", "reference_s": floor,
                    "ratio": floor / ours,
                })
    _print(rows)
    return rows


def _print(rows):
    print(f"{'case':<26} {'ours [s]':>10} {'reference':<38} {'ref [s]':>10} {'speed-up':>9}")
    for row in rows:
        print(f"{row['case']:<26} {row['ours_s']:>10.4f} {row['reference']:<38} "
              f"{row['reference_s']:>10.4f} {row['ratio']:>8.2f}x")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
