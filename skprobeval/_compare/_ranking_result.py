"""What every ranking result shares: its figures as plain data, its notebook table,
and the tallies of ranks and pairs over posterior draws.

`rank_systems`, `rank_cv_results` and `rank_across_datasets` answer the same
question, "which is best, and how sure is that?", with the same figures
(``prob_best``, ``expected_rank``, ``rank_probabilities``, ``mc_error`` and a
pairwise table) from different models.  Their results take the presentation
from here: `RankingMixin` gives the shared result interface's notebook view (the
result's `summary` under a caption, and its `plot`), and the helpers turn Series
and DataFrames into plain dicts (NaN as None) and a short ``repr``; `tie_groups`,
`RankTally` and `count_above` turn draws of the systems' metrics into the figures.
"""

from __future__ import annotations

import numpy as np

from .._core import ResultMixin, jsonable, rounded

__all__ = ["RankTally", "RankingMixin", "count_above", "limited", "plain_frame",
           "plain_series", "tie_groups"]

# Bytes of a block of 255 words summed at once by `_count_true`.
_WORD_BLOCK = 8 * 255


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
    """Per draw (row): the systems best first, the first and past-the-last rank
    position (0-based) of each one's group of equal values, and the flat index of
    each of the ordered systems in `draws`.

    Without ties or NaN (the usual case: every group is one system) the positions
    are ``None, None``: the p-th system of a draw's order holds position p alone.
    """
    size, n = draws.shape
    # The order within a group of equal values does not matter: any sort will do.
    order = np.argsort(-draws, axis=1)
    # The draws in that order (a flat take: half the time of take_along_axis).
    flat = order + np.arange(0, size * n, n)[:, None]
    ordered = draws.reshape(-1).take(flat)
    positions = np.arange(n)
    new = np.ones((size, n), dtype=bool)
    np.not_equal(ordered[:, 1:], ordered[:, :-1], out=new[:, 1:])
    # NaN sorts last, and differs from everything.
    if new.all() and not np.isnan(ordered[:, -1]).any():
        return order, None, None, flat
    start = np.maximum.accumulate(np.where(new, positions, 0), axis=1)
    last = np.ones((size, n), dtype=bool)
    last[:, :-1] = new[:, 1:]
    stop = np.minimum.accumulate(np.where(last, positions + 1, n)[:, ::-1], axis=1)[:, ::-1]
    return order, start, stop, flat


def _count_true(rows):
    """The number of True entries of each row of a C-contiguous bool matrix whose rows
    are a whole number of `_WORD_BLOCK` bytes.

    Read as 64-bit words, each byte of a word is 0 or 1; sums of up to 255 words
    carry no byte into the next, so their bytes, added, are the counts.  (With
    10 000 draws of 100 systems the pairs cost 4 ms this way, 17 ms by
    ``count_nonzero`` pair by pair and 110 ms with a (draws, N, N) comparison.)
    """
    words = rows.view(np.uint64).reshape(rows.shape[0], -1, 255).sum(axis=2)
    return words.view(np.uint8).sum(axis=1)


def count_above(values, groups, rope):
    """(N, N) counts of the draws (rows of `values`, higher better) in which the row
    system is above the column one by more than `rope`; `groups` their `tie_groups`."""
    size, n = values.shape
    order, start, _, flat = groups
    # A NaN draw is above nothing and nothing is above it: it has no position (NaN
    # sorts last).
    by_position = rope == 0 and (start is None or not np.isnan(
        values[np.arange(size), order[:, -1]]).any())
    if by_position:
        # Each system's position in each draw (systems tied sharing the first of
        # theirs): the row is above the column exactly when its position is lower.
        # (Scattered draw by draw, then turned: 2.5 times faster than scattered into
        # the turned array, or with an index of two dimensions.)
        keys = np.empty(size * n, dtype=np.min_scalar_type(n - 1))
        keys[flat.reshape(-1)] = (np.tile(np.arange(n, dtype=keys.dtype), size)
                                  if start is None else start.reshape(-1))
        keys = np.ascontiguousarray(keys.reshape(size, n).T)
        # Systems in order of their best position: those after system i whose best
        # position is below i's worst are below i in every draw, and they are the
        # last of those after i (half the pairs of a leaderboard of 100 need no look).
        low = keys.min(axis=1)
        turn = np.argsort(low, kind="stable")
        keys = keys[turn]
        meet = np.searchsorted(low[turn], keys.max(axis=1), side="right")

        def beyond(first, rest, out):
            return np.less(first, rest, out=out)
    else:
        keys = np.ascontiguousarray(values.T)
        turn, meet = np.arange(n), np.full(n, n)

        def beyond(first, rest, out):
            return np.greater(first - rest, rope, out=out)
    # Rows padded with False to whole blocks of words for `_count_true`.
    hits = np.zeros((n, -(-size // _WORD_BLOCK) * _WORD_BLOCK), dtype=bool)
    above = np.zeros((n, n), dtype=np.int64)
    for i in range(n - 1):
        stop = max(meet[i], i + 1)
        above[i, stop:] = size
        if stop == i + 1:
            continue
        rest = keys[i + 1:stop]
        out = hits[:stop - i - 1, :size]
        beyond(keys[i], rest, out)
        above[i, i + 1:stop] = _count_true(hits[:stop - i - 1])
        if by_position and start is None:
            # Without ties one of two systems is above the other in every draw.
            above[i + 1:stop, i] = size - above[i, i + 1:stop]
        else:
            beyond(rest, keys[i], out)
            above[i + 1:stop, i] = _count_true(hits[:stop - i - 1])
    counts = np.empty_like(above)
    counts[np.ix_(turn, turn)] = above
    return counts


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

    def add(self, draws, groups=None):
        """Tally a chunk of draws; `groups` is its `tie_groups`, where already known."""
        size, n = draws.shape
        order, start, stop, _ = tie_groups(draws) if groups is None else groups
        width = n + 1
        if start is None:
            # No ties: the p-th system of each draw's order holds position p; the
            # difference array is +1 there and -1 at p + 1.
            cells = order * width
            cells += np.arange(n)
            held = np.bincount(cells.reshape(-1), minlength=n * width)
            self.rank_steps += held
            self.rank_steps[1:] -= held[:-1]
            # "Best" is an indicator: its squared deviations from the chunk's mean m
            # are c (1 - m)^2 + (size - c) m^2 for a system best in c draws.
            best = np.bincount(order[:, 0], minlength=n)
            chunk_mean = best / size
            squares = best * np.square(1.0 - chunk_mean) + (size - best) * np.square(
                chunk_mean)
            # Within rope 0 of the best is being the best.
            within = best if self.rope == 0 else None
        else:
            share = 1.0 / (stop - start)
            # Each group's rank positions start..stop-1 as a difference array, summed
            # in `result`.
            self.rank_steps += np.bincount((order * width + start).reshape(-1),
                                           share.reshape(-1), minlength=n * width)
            self.rank_steps -= np.bincount((order * width + stop).reshape(-1),
                                           share.reshape(-1), minlength=n * width)
            credit = np.zeros((size, n))
            np.put_along_axis(credit, order, np.where(start == 0, share, 0.0), axis=1)
            chunk_mean = credit.mean(axis=0)
            squares = np.square(credit - chunk_mean).sum(axis=0)
            within = None
        done = self.count
        delta = chunk_mean - self.best
        self.best_m2 += squares + np.square(delta) * (done * size / (done + size))
        self.best += delta * (size / (done + size))
        if within is None:
            within = (draws >= draws.max(axis=1, keepdims=True) - self.rope).sum(axis=0)
        self.within += within
        self.count += size

    def result(self):
        """``(rank_probabilities, prob_best, best_error, within, within_error)``."""
        n, total = self.n, self.count
        ranks = np.cumsum(self.rank_steps.reshape(n, n + 1), axis=1)[:, :n] / total
        within = self.within / total
        best_error = np.sqrt(self.best_m2 / total / total)
        within_error = np.sqrt(np.maximum(within * (1.0 - within), 0.0) / total)
        return np.clip(ranks, 0.0, 1.0), self.best.copy(), best_error, within, within_error
