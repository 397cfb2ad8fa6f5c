"""What every ranking result shares: its figures as plain data and its notebook table.

`rank_systems`, `rank_cv_results` and `rank_across_datasets` answer the same
question, "which is best, and how sure is that?", with the same figures
(``prob_best``, ``expected_rank``, ``rank_probabilities``, ``mc_error`` and a
pairwise table) from different models.  Their results take the presentation
from here: `RankingMixin` gives the shared result interface's notebook view (the
result's `summary` under a caption, and its `plot`), and the helpers turn Series
and DataFrames into plain dicts (NaN as None) and a short ``repr``.
"""

from __future__ import annotations

import numpy as np

from .._core import ResultMixin, jsonable, rounded

__all__ = ["RankingMixin", "limited", "plain_frame", "plain_series"]


def limited(mapping, digits=4, most=6):
    """``{name: value, ...}`` of the first `most` entries, for a ``repr``."""
    items = [f"{name!r}: {rounded(value, digits)}" for name, value in list(mapping.items())[:most]]
    if len(mapping) > most:
        items.append("...")
    return "{" + ", ".join(items) + "}"


def _key(name):
    """A label as a plain key: Python ints and strings as they are, numpy scalars as
    Python ones, anything else as its text."""
    if isinstance(name, np.generic):
        name = name.item()
    return name if isinstance(name, (int, str)) and not isinstance(name, bool) else str(name)


def plain_series(values):
    """A Series as ``{name: float}`` (see `_key`; NaN as None, as JSON has no NaN)."""
    return {_key(name): jsonable(float(value)) for name, value in values.items()}


def plain_frame(values):
    """A DataFrame as ``{row: {column: float}}`` (see `_key`)."""
    return {_key(row): plain_series(values.loc[row]) for row in values.index}


class RankingMixin(ResultMixin):
    """The notebook view of a ranking result: `summary` under `_caption`, and `plot`."""

    __slots__ = ()

    def _caption(self):          # pragma: no cover - every result defines it
        raise NotImplementedError

    def _html_caption(self):
        return self._caption()


def tie_groups(draws):
    """Per draw (row): the systems best first, and the first and past-the-last rank
    position (0-based) of each one's group of equal values."""
    size, n = draws.shape
    # The order within a group of equal values does not matter: any sort will do.
    order = np.argsort(-draws, axis=1)
    ordered = np.take_along_axis(draws, order, axis=1)
    positions = np.arange(n)
    new = np.ones((size, n), dtype=bool)
    new[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    if new.all():       # no ties (the usual case): every group is one system
        start = np.broadcast_to(positions, (size, n))
        return order, start, start + 1
    start = np.maximum.accumulate(np.where(new, positions, 0), axis=1)
    last = np.ones((size, n), dtype=bool)
    last[:, :-1] = new[:, 1:]
    stop = np.minimum.accumulate(np.where(last, positions + 1, n)[:, ::-1], axis=1)[:, ::-1]
    return order, start, stop


class RankTally:
    """Rank figures of N systems, tallied over chunks of posterior draws.

    Each chunk is an array (draws, systems), higher better.  A group of e
    systems tied in a draw holds each of its e rank positions with
    probability 1/e, and shares "best" equally.  `result` gives the rank
    probabilities (systems x ranks, rows summing to 1), P(best) with its Monte
    Carlo standard error (of a mean of independent draws; 0 for systems that
    tie exactly in every draw), and P(within `rope` of the draw's best) with
    its binomial error.
    """

    def __init__(self, n, rope=0.0):
        self.n, self.rope, self.count = n, rope, 0
        self.rank_steps = np.zeros(n * (n + 1))
        self.best = np.zeros(n)            # running mean of each system's share of "best"
        self.best_m2 = np.zeros(n)         # and its sum of squared deviations (Chan et al.)
        self.within = np.zeros(n)

    def add(self, draws):
        size, n = draws.shape
        order, start, stop = tie_groups(draws)
        share = 1.0 / (stop - start)
        # Each group's rank positions start..stop-1 as a difference array, summed in `result`.
        width = n + 1
        self.rank_steps += np.bincount((order * width + start).reshape(-1), share.reshape(-1),
                                       minlength=n * width)
        self.rank_steps -= np.bincount((order * width + stop).reshape(-1), share.reshape(-1),
                                       minlength=n * width)
        credit = np.zeros((size, n))
        np.put_along_axis(credit, order, np.where(start == 0, share, 0.0), axis=1)
        done = self.count
        chunk_mean = credit.mean(axis=0)
        delta = chunk_mean - self.best
        self.best_m2 += np.square(credit - chunk_mean).sum(axis=0) + np.square(delta) * (
            done * size / (done + size))
        self.best += delta * (size / (done + size))
        self.within += (draws >= draws.max(axis=1, keepdims=True) - self.rope).sum(axis=0)
        self.count += size

    def result(self):
        """``(rank_probabilities, prob_best, best_error, within, within_error)``."""
        n, total = self.n, self.count
        ranks = np.cumsum(self.rank_steps.reshape(n, n + 1), axis=1)[:, :n] / total
        within = self.within / total
        best_error = np.sqrt(self.best_m2 / total / total)
        within_error = np.sqrt(np.maximum(within * (1.0 - within), 0.0) / total)
        return np.clip(ranks, 0.0, 1.0), self.best.copy(), best_error, within, within_error
