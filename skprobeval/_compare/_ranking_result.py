"""What every ranking result shares: its figures as plain data, its notebook table,
and the tallies of ranks and pairs over posterior draws.

`rank_systems`, `rank_cv_results` and `rank_across_datasets` answer the same
question, "which is best, and how sure is that?", with the same figures
(``prob_best``, ``expected_rank``, ``rank_probabilities``, ``mc_error`` and a
pairwise table) from different models.  Their results take the presentation
from here: `RankingMixin` gives the shared result interface's notebook view (the
result's `summary` under a caption, and its `plot`), and the helpers turn Series
and DataFrames into plain dicts (NaN as None) and a short ``repr``; `rank_figures`
turns draws of the systems' metrics into the figures (`tie_groups`, `RankTally`,
`rank_positions`, `count_above`).
"""

from __future__ import annotations

import numpy as np

from .._core import ResultMixin, jsonable, rounded

__all__ = ["RankTally", "RankingMixin", "count_above", "limited", "plain_frame",
           "plain_series", "rank_figures", "rank_positions", "tie_groups"]

# Bytes of a block of 255 words summed at once by `_count_true`.
_WORD_BLOCK = 8 * 255
# Cells (draws x systems) per chunk of the ranks' tally, whose arrays then stay in
# the cache (the figures of 10 000 draws of 100 systems: 22 ms in chunks of 1 310
# draws, 30 ms at once, on two busy cores), and per chunk of the values compared
# pair by pair.
_RANK_CELLS = 1 << 17
_VALUE_CELLS = 1 << 22


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


def rank_positions(groups):
    """(N, draws) array of each system's 0-based position in each draw (systems tied
    sharing the first of theirs), from the draws' `tie_groups` (draws without NaN).
    """
    order, start, _, flat = groups
    size, n = order.shape
    # Scattered draw by draw, then turned: 2.5 times faster than scattered into the
    # turned array, or with an index of two dimensions.
    positions = np.empty(size * n, dtype=np.min_scalar_type(n - 1))
    positions[flat.reshape(-1)] = (np.tile(np.arange(n, dtype=positions.dtype), size)
                                   if start is None else start.reshape(-1))
    return positions.reshape(size, n).T


def count_above(keys, rope=None, *, tied=True):
    """(N, N) counts of the draws (columns of `keys`, one row per system) in which
    the row system is above the column one.

    With `rope` None, `keys` are `rank_positions` (above: a lower position), and
    without ties (`tied` False) one of two systems is above the other in every
    draw; otherwise they are the values, higher better (above: by more than
    `rope`).
    """
    n, size = keys.shape
    if rope is None:
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
        keys = np.ascontiguousarray(keys)
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
        if rope is None and not tied:
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


def rank_figures(values, higher_is_better, rope):
    """Rank probabilities, P(best) and its error, pairwise and within-rope figures of
    draws of N systems' metrics, ``(n_draws, N)``."""
    n_draws, n = values.shape
    oriented = values if higher_is_better else -values
    tally = RankTally(n, rope)
    # With rope 0 the pairs compare the draws' rank positions (unless a draw has NaN,
    # which has none), once for all the draws; otherwise the values.
    positions = np.empty((n, n_draws), dtype=np.min_scalar_type(n - 1)) if rope == 0 else None
    tied = False
    step = max(1, _RANK_CELLS // n)
    for begin in range(0, n_draws, step):
        chunk = oriented[begin:begin + step]
        groups = tie_groups(chunk)
        tally.add(chunk, groups)
        if positions is None:
            continue
        _, start, _, flat = groups
        # NaN sorts last: a draw with NaN has one in its last place.
        if start is not None and np.isnan(chunk.reshape(-1)[flat[:, -1]]).any():
            positions = None
            continue
        positions[:, begin:begin + step] = rank_positions(groups)
        tied = tied or start is not None
    if positions is not None:
        above = count_above(positions, tied=tied)
    else:
        above = np.zeros((n, n), dtype=np.int64)
        step = max(1, _VALUE_CELLS // n)
        for begin in range(0, n_draws, step):
            above += count_above(oriented[begin:begin + step].T, rope)
    ranks, prob_best, error, within, _ = tally.result()
    above = above / n_draws
    np.fill_diagonal(above, np.nan)
    return ranks, prob_best, error, above, within
