"""Confusion counting speed (one of the performance goals).

For n = 10^6 and 10^7 labels (binary integers, binary booleans, 10-class
integers, 10-class strings in a numpy string array and in an object array)
times, in one process, ``ConfusionCounts.from_predictions(..., average=None)``
(ours) against:

* ``sklearn.metrics.multilabel_confusion_matrix`` (not for object arrays,
  where it takes about a minute at n = 10^7);
* a bare ``np.bincount(K * y_true + y_pred)`` (the floor for integer labels);
* for binary labels, ``np.count_nonzero`` of boolean masks (``y == 1``, or the
  boolean arrays themselves): TP, predicted and actual positives, the rest by
  subtraction;
* for numpy string arrays, ``np.unique`` + ``np.searchsorted`` codes and one
  ``np.bincount``;
* for string labels (numpy string arrays and object arrays),
  ``pandas.factorize`` of the two arrays concatenated and one ``np.bincount``
  of the joint code ``K * codes_true + codes_pred`` (the labels, K of them,
  are sorted outside the timing to check the counts).

Every reference's counts are checked equal to ours.  Goals at n = 10^7 with
integer labels: >= 20x faster than scikit-learn and within 2x of the bare
bincount; string labels not slower than scikit-learn nor than
``pandas.factorize`` + ``np.bincount``.

Run ``python -m benchmarks.bench_counts`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from sklearn.metrics import multilabel_confusion_matrix

from benchmarks._timing import best_time_and_value
from skprobeval import ConfusionCounts

KINDS = ("binary int", "binary bool", "10-class int", "10-class str", "10-class object str")


def _labels(kind, n, rng):
    n_classes = 2 if kind.startswith("binary") else 10
    y_true = rng.integers(0, n_classes, size=n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, n_classes, size=n))
    if kind == "binary bool":
        return y_true.astype(bool), y_pred.astype(bool), n_classes
    if kind.endswith("str"):
        names = np.array([f"class_{i}" for i in range(n_classes)])
        y_true, y_pred = names[y_true], names[y_pred]
        if "object" in kind:
            y_true, y_pred = y_true.astype(object), y_pred.astype(object)
    return y_true, y_pred, n_classes


def _per_class(joint):
    """sklearn's (K, 2, 2) one-vs-rest layout from a K x K (true, predicted) table."""
    tp = np.diagonal(joint)
    fp = joint.sum(axis=0) - tp
    fn = joint.sum(axis=1) - tp
    tn = joint.sum() - tp - fp - fn
    return np.stack([tn, fp, fn, tp], axis=1).reshape(-1, 2, 2)


def _bincount(y_true, y_pred, k):
    """Reference: bare joint-code bincount (integer labels 0..K-1)."""
    return np.bincount(k * y_true.astype(np.intp) + y_pred, minlength=k * k)


def _count_nonzero(y_true, y_pred):
    """Reference: binary counts from boolean masks (the arrays themselves if boolean)."""
    t = y_true if y_true.dtype == bool else y_true == 1
    p = y_pred if y_pred.dtype == bool else y_pred == 1
    tp = np.count_nonzero(t & p)
    predicted, actual = np.count_nonzero(p), np.count_nonzero(t)
    return tp, predicted - tp, actual - tp, t.size - predicted - actual + tp


def _unique_searchsorted(y_true, y_pred):
    """Reference: sorted classes by np.unique, codes by np.searchsorted, one bincount."""
    classes = np.union1d(np.unique(y_true), np.unique(y_pred))
    k = classes.size
    codes = k * np.searchsorted(classes, y_true) + np.searchsorted(classes, y_pred)
    return np.bincount(codes, minlength=k * k).reshape(k, k)


def _factorize(y_true, y_pred):
    """Reference: pandas.factorize of the concatenated labels, one bincount of the joint code.

    Returns the K x K table in first-seen label order and the labels; sorting
    them (K items, not n) is left to `_sorted_per_class`, outside the timing.
    """
    codes, classes = pd.factorize(np.concatenate([y_true, y_pred]))
    k = classes.size
    joint = np.bincount(k * codes[:y_true.size] + codes[y_true.size:], minlength=k * k)
    return joint.reshape(k, k), classes


def _sorted_per_class(value):
    """`_per_class` of a (table, labels) pair, with the labels in sorted order."""
    joint, classes = value
    order = np.argsort(classes)
    return _per_class(joint[np.ix_(order, order)])


def _references(kind, y_true, y_pred, k):
    """(name, function, function's counts -> sklearn layout) of the references for a kind."""
    references = []
    if "object" not in kind:
        references.append(("sklearn multilabel_confusion_matrix",
                           lambda: multilabel_confusion_matrix(y_true, y_pred), np.asarray))
    if kind.endswith("int") or kind.endswith("bool"):
        references.append(("bare np.bincount", lambda: _bincount(y_true, y_pred, k),
                           lambda c: _per_class(c.reshape(k, k))))
    if kind.startswith("binary"):
        references.append(("np.count_nonzero of boolean masks",
                           lambda: _count_nonzero(y_true, y_pred),
                           lambda c: _per_class(np.array([[c[3], c[1]], [c[2], c[0]]]))))
    if kind == "10-class str":
        references.append(("np.unique + searchsorted + bincount",
                           lambda: _unique_searchsorted(y_true, y_pred), _per_class))
    if kind.endswith("str"):
        references.append(("pandas.factorize + bincount", lambda: _factorize(y_true, y_pred),
                           _sorted_per_class))
    return references


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    rng = np.random.default_rng(0)
    sizes = [10_000] if quick else [1_000_000, 10_000_000]
    rows = []
    for n in sizes:
        for kind in KINDS:
            y_true, y_pred, k = _labels(kind, n, rng)
            repeat = 1 if quick else (3 if n <= 1_000_000 else 2)
            ours, counts = best_time_and_value(
                lambda: ConfusionCounts.from_predictions(y_true, y_pred, average=None), repeat)
            for name, reference, layout in _references(kind, y_true, y_pred, k):
                slow = name.startswith("sklearn") and n > 1_000_000
                theirs, value = best_time_and_value(reference, 1 if (quick or slow) else repeat)
                assert np.array_equal(counts.to_array(), layout(value)), (kind, name)
                rows.append({
                    "benchmark": "counts", "case": f"{kind}, n={n:.0e}", "ours_s": ours,
                    "reference": name, "reference_s": theirs, "ratio": theirs / ours,
                })
    _print(rows)
    return rows


def _print(rows):
    print(f"{'case':<28} {'ours [s]':>10} {'reference':<38} {'ref [s]':>10} {'speed-up':>9}")
    for row in rows:
        print(f"{row['case']:<28} {row['ours_s']:>10.3g} {row['reference']:<38} "
              f"{row['reference_s']:>10.3g} {row['ratio']:>8.3g}x")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
