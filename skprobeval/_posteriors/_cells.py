"""The cells of the curve model: the positives' and negatives' weight at each distinct score.

One sort of the items by decreasing score gives the cells, and for the curves
the weight at or above each level, summed as scikit-learn sums it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

__all__ = ["CurveCells"]


@dataclass(frozen=True, slots=True, eq=False)
class CurveCells:
    """Weights of the positives and negatives at each distinct score, highest first."""

    levels: np.ndarray       # distinct scores, decreasing
    positive: np.ndarray     # summed weight of the positives at each level
    negative: np.ndarray

    @classmethod
    def from_items(cls, relevant, score, weight, *, cumulative=False):
        """The cells of the items; with ``cumulative``, also the weight of the
        positives and of the negatives at or above each level as scikit-learn
        sums them (`_cumulative_as_scikit_learn`), from the same sort where
        scikit-learn's order is this one.

        Unit weights (no sample weights) are counted as integers: every sum is
        then exact, in any order, and the float sums give the same numbers.
        """
        unit = not np.any(weight != 1.0)
        if not unit:
            keep = weight > 0    # as scikit-learn: zero-weight items are not thresholds
            relevant, score, weight = relevant[keep], score[keep], weight[keep]
        order = np.argsort(-score, kind="stable")
        ranked = score[order]
        starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
        if unit:
            # Items and positives at or above each level: the cumulative counts.
            items = np.r_[starts[1:], ranked.shape[0]]
            positives = np.cumsum(relevant[order])[items - 1]
            above = positives.astype(np.float64), (items - positives).astype(np.float64)
            cells = cls(ranked[starts], _steps(above[0]), _steps(above[1]))
            return (cells, above) if cumulative else cells
        w, rel = weight[order], relevant[order]
        positive_w, negative_w = np.where(rel, w, 0.0), np.where(rel, 0.0, w)
        cells = cls(ranked[starts], np.add.reduceat(positive_w, starts),
                    np.add.reduceat(negative_w, starts))
        if not cumulative:
            return cells
        if not _scikit_learn_keeps_ties_in_input_order():
            return cells, _cumulative_as_scikit_learn(relevant, score, weight)
        ends = np.r_[starts[1:] - 1, ranked.shape[0] - 1]
        return cells, (np.cumsum(positive_w)[ends], np.cumsum(negative_w)[ends])

    def merged(self, max_cells):
        """At most ``max_cells`` levels: runs of consecutive levels of about equal
        weight, each summed into its last (lowest) level.

        Exact where it is used: a sum of independent Gamma variates is a Gamma
        variate of the summed shape, so the drawn shares at the kept levels have
        the same joint distribution; only the levels inside a run are not read.
        """
        if self.levels.shape[0] <= max_cells:
            return self
        cumulative = np.cumsum(self.positive + self.negative)
        targets = np.linspace(0.0, cumulative[-1], max_cells + 1)[1:]
        ends = np.unique(np.minimum(np.searchsorted(cumulative, targets, side="left"),
                                    cumulative.shape[0] - 1))
        starts = np.r_[0, ends[:-1] + 1]
        return CurveCells(self.levels[ends], np.add.reduceat(self.positive, starts),
                          np.add.reduceat(self.negative, starts))


def _steps(cumulative):
    """The terms of a cumulative sum: ``np.diff(cumulative, prepend=0.0)``, without its copy."""
    steps = np.empty_like(cumulative)
    steps[0] = cumulative[0]
    np.subtract(cumulative[1:], cumulative[:-1], out=steps[1:])
    return steps


@functools.cache
def _scikit_learn_keeps_ties_in_input_order():
    """True when scikit-learn sorts the items of a tie in input order (a stable
    descending sort, scikit-learn >= 1.9) rather than reversed
    (``argsort(score, kind="mergesort")[::-1]`` before): read off its own curve
    on five weighted items whose two orders round to different thresholds."""
    from sklearn.metrics import roc_curve

    y = np.array([1, 1, 0, 0, 0])
    score = np.array([0.25, 1.0, 0.75, 0.5, 0.5])
    weight = np.array([4, 2, 12, 1, 11]) / 12
    return roc_curve(y, score, sample_weight=weight)[2].shape[0] == 4


def _cumulative_as_scikit_learn(relevant, score, weight):
    """Weight of the positives and of the negatives at or above each distinct
    score, from the highest down, summed item by item in the order of
    scikit-learn before 1.9 (ties reversed: ``argsort(score,
    kind="mergesort")[::-1]``; from 1.9 ties keep input order, the order of
    `CurveCells.from_items`): with float weights the sums then round as
    scikit-learn's do, and its test for collinear points
    (``drop_intermediate``) keeps the same thresholds.  Items of positive
    weight only.
    """
    order = np.argsort(score, kind="mergesort")[::-1]
    ranked = score[order]
    ends = np.r_[np.flatnonzero(np.diff(ranked)), ranked.shape[0] - 1]
    w, rel = weight[order], relevant[order]
    return np.cumsum(np.where(rel, w, 0.0))[ends], np.cumsum(np.where(rel, 0.0, w))[ends]
