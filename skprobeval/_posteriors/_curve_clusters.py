"""Curves of items in clusters: the curve model's cells drawn from the clusters' bootstrap.

With ``groups=`` the cells of class x score level of `skprobeval._posteriors._curves`
(and the four boundary pseudo-cells) are drawn from the Bayesian bootstrap of the
clusters (`ClusterTableDraws`): each cluster's items share one Gamma(a) weight, the
pseudo-cells take ``a`` Gamma(λ) (λ items' worth).  `ClusteredItems` holds the items and builds
the cluster x cell counts, `clustered_cumulative` yields the cumulative masses as
`draw_cumulative` does, and `clustered_points` reads a pointwise band.
Derivations: the theory page ``docs/theory/clusters.rst``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core import ClusterTableDraws, cluster_concentration, clustered_cells, fail
from .._counting import cluster_codes

__all__ = ["ClusteredItems", "clustered_cumulative", "clustered_points", "curve_clusters"]

# Most values a clustered pointwise band holds at once (32 MiB).
_POINT_VALUES = 1 << 22


def curve_clusters(groups, relevant, weight):
    """The clusters of the items of positive weight (`cluster_codes` of `groups`),
    or None: no `groups`, or every cluster one item (then the clusters change
    nothing and the exact routes are taken)."""
    if groups is None:
        return None
    clusters = cluster_codes(groups, relevant.shape[0])
    keep = weight > 0
    if not keep.all():
        clusters = clusters.subset(keep)
        if clusters is None:
            fail("groups", "ids of at least two clusters among the items of positive weight",
                 groups, shown="one cluster")
    return None if clusters.singletons else clusters


@dataclass(frozen=True, slots=True, eq=False)
class ClusteredItems:
    """The items of positive weight of a curve whose items come in clusters (private).

    ``relevant``, ``score`` and ``weight`` of the kept items, and their
    `ClusterCodes`.
    """

    relevant: np.ndarray
    score: np.ndarray
    weight: np.ndarray
    clusters: object

    @classmethod
    def from_items(cls, relevant, score, weight, clusters):
        keep = weight > 0
        return cls(relevant[keep], score[keep], weight[keep], clusters)

    def levels_of(self, levels):
        """Each item's index among decreasing `levels`: the first level at or below
        its score (its own level, or the lowest level of its merged run)."""
        return np.searchsorted(-levels, -self.score, side="left")

    def counts(self, level, k):
        """Cluster x cell counts in the columns of `draw_cumulative` (above every
        score, each of `k` levels, below every score; positives then negatives),
        `level` each item's level index (``k``: below every level)."""
        column = np.where(self.relevant, 1 + level, k + 3 + level)
        return clustered_cells(column, self.clusters, 2 * k + 4, self.weight)

    def draws(self, counts, lam):
        """`ClusterTableDraws` of `counts` with the four boundary pseudo-cells' λ.

        The pseudo-cells are λ items' worth: `ClusterTableDraws` scales their
        Gamma(λ) variates by the weights' concentration ``a``, the mean mass of
        an item here, so that they weigh against the data as they do without
        clusters (unscaled, they widened ROC AUC's interval at 10 clusters of 3
        items and no cluster effect 1.18 times where ``a = 1`` gives 1.00).
        """
        n_columns = counts.shape[1]
        k = (n_columns - 4) // 2
        prior = np.zeros(n_columns)
        prior[[0, k + 1, k + 2, 2 * k + 3]] = lam
        return ClusterTableDraws(counts, prior, cluster_concentration(self.clusters.n_clusters))


def clustered_cumulative(draws, n_draws, rng):
    """`draw_cumulative` of a `ClusterTableDraws` of the curve's columns: chunks
    ``(tp, fp, pos, neg, fp)`` of cumulative masses, both classes in one scale."""
    k = (draws.n_cells - 4) // 2
    size = draws.chunk_size()
    for start in range(0, n_draws, size):
        masses = draws.masses(min(size, n_draws - start), rng)
        tp = np.cumsum(masses[:, :k + 2], axis=1)
        fp = np.cumsum(masses[:, k + 2:], axis=1)
        yield tp, fp, tp[:, -1:], fp[:, -1:], fp


def clustered_points(items, levels, thresholds, kind, lam, confidence, n_draws, rng):
    """Equal-tailed interval and mean of the precision (``kind="precision_recall"``)
    or true positive rate (``"roc"``) at `thresholds` from draws of the clusters'
    Bayesian bootstrap of `items` (`ClusteredItems`), `levels` the curve's
    decreasing score levels.

    Each block of thresholds draws a table whose cells are the items between
    consecutive thresholds (summing cells is exact: a cell's mass is linear in
    its clusters' counts), so memory stays at `_POINT_VALUES` values whatever
    the number of thresholds; blocks draw independently, which leaves every
    point's marginal posterior, all a pointwise band reads, as it is.
    """
    thresholds = np.asarray(thresholds, dtype=float)
    # Each row's level; -1 for the ROC curve's threshold above every score.
    at = np.where(np.isposinf(thresholds), -1,
                  np.searchsorted(-levels, -thresholds, side="left"))
    level = items.levels_of(levels)
    order = np.argsort(at, kind="stable")
    n = thresholds.shape[0]
    low, high, mean = np.empty(n), np.empty(n), np.empty(n)
    tails = [(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0]
    block = max(1, _POINT_VALUES // n_draws)
    for start in range(0, n, block):
        chosen = order[start:start + block]
        ends = at[chosen]
        b = ends.shape[0]
        # Cells between consecutive rows: cell j holds the levels up to ends[j].
        draws = items.draws(items.counts(np.searchsorted(ends, level, side="left"), b + 1),
                            lam)
        values = np.empty((n_draws, b))
        row = 0
        for tp, fp, pos, _, _ in clustered_cumulative(draws, n_draws, rng):
            hit = tp[:, 1:b + 1]
            other = fp[:, 1:b + 1] if kind == "precision_recall" else pos - hit
            values[row:row + hit.shape[0]] = hit / (hit + other)
            row += hit.shape[0]
        low[chosen], high[chosen] = np.quantile(values, tails, axis=0)
        mean[chosen] = values.mean(axis=0)
    return low, high, mean
