"""The anchored interval's end toward parity of a disparity between groups.

Every pair of groups bounds the spread ``max - min`` from below (and the ratio
``min / max`` from above); `parity_end` takes the pairs that may be the
extreme pair and their posterior quantiles at one common level, at which
all of them hold together.  Derivation: the theory page
``docs/theory/groups.rst``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["EXTREME_PAIR_MASS", "parity_end"]

# The pairs of groups whose pairwise bounds make the anchored end: the fewest
# unordered pairs that are the (largest, smallest) pair in this share of the draws.
EXTREME_PAIR_MASS = 0.99
_CHUNK = 256


def _extreme_pairs(draws):
    """Ordered pairs ``(first, second)`` that may be the extreme pair of `draws`."""
    n_draws, g = draws.shape
    high, low = draws.argmax(axis=1), draws.argmin(axis=1)
    distinct = high != low
    code = np.minimum(high, low)[distinct] * g + np.maximum(high, low)[distinct]
    if code.size == 0:                      # every draw ties every group
        first, second = np.triu_indices(g, 1)
    else:
        counts = np.bincount(code, minlength=g * g)
        order = np.argsort(-counts, kind="stable")
        kept = np.cumsum(counts[order])
        order = order[:int(np.searchsorted(kept, EXTREME_PAIR_MASS * kept[-1])) + 1]
        first, second = order // g, order % g
    return np.r_[first, second], np.r_[second, first]


def _pair_values(draws, first, second, ratio):
    """Draws of ``first - second`` (or ``first / second``) for the pairs, as columns."""
    if not ratio:
        return draws[:, first] - draws[:, second]
    top, bottom = draws[:, first], draws[:, second]
    with np.errstate(divide="ignore", invalid="ignore"):
        # The parity end is an upper bound of min / max: a pair with bottom 0 bounds nothing.
        values = np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), np.inf)
    return -values


def parity_end(draws, tail, *, ratio):
    """The anchored interval's end toward parity, from pairwise bounds.

    Every pair bounds the disparity, ``max - min >= m_a - m_b`` (``min / max
    <= m_a / m_b``), so the largest of the pairs' lower bounds (the smallest
    upper bound of a ratio) bounds it too when the pairs' bounds hold at
    once.  Each ordered pair of `_extreme_pairs` takes its posterior
    quantile at one common level, the level at which every pair's bound
    holds together with posterior probability ``1 - tail``: a draw holds
    them all when its smallest rank across the pairs reaches that quantile.
    Memory stays at (n_draws, 256) whatever the number of groups.
    """
    columns = []
    for metric_draws in draws:
        first, second = _extreme_pairs(metric_draws)
        columns.extend((metric_draws, first[i:i + _CHUNK], second[i:i + _CHUNK])
                       for i in range(0, first.size, _CHUNK))
    n_draws = draws[0].shape[0]

    def largest_order_statistic(k):
        return max(float(np.partition(_pair_values(d, f, s, ratio), k, axis=0)[k].max())
                   for d, f, s in columns)

    def clip(bound):
        return float(min(1.0, -bound)) if ratio else float(max(0.0, bound))

    # The common level is at or below each pair's own quantile at `tail`: where
    # those reach parity already, so does the end (no ranks needed).
    k = int(np.floor(tail * n_draws))
    if clip(largest_order_statistic(k)) == clip(0.0):
        return clip(0.0)
    least = np.full(n_draws, n_draws, dtype=np.int64)
    rows = np.arange(n_draws)[:, None]
    for metric_draws, first, second in columns:
        order = np.argsort(_pair_values(metric_draws, first, second, ratio), axis=0,
                           kind="stable")
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, rows, axis=0)
        np.minimum(least, ranks.min(axis=1), out=least)
    # The k-th order statistic of every pair holds together in the draws whose
    # smallest rank is >= k: at most tail x n_draws of them fall short.
    return clip(largest_order_statistic(int(np.sort(least)[k])))
