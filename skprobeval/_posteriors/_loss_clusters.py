"""The mean-loss posteriors' draws when the test items come in clusters (``groups=``).

Each cluster's summed loss and weight take one Gamma(C/(C + 3)) weight per
draw (the clusters' Bayesian bootstrap); `skprobeval._posteriors._losses` reads
them.  Derivations: the theory page ``docs/theory/clusters.rst``.
"""

from __future__ import annotations

import numpy as np

from .._core import cluster_concentration, cluster_weights, draw_chunks, fail
from .._counting import cluster_codes

__all__ = ["clustered_mean_draws", "groups_of"]


def clustered_mean_draws(values, weight, clusters, n_draws, rng):
    """Draws of the mean of `values` when the items come in clusters: each cluster's
    weighted sum and weight, ``sum_c g_c L_c / sum_c g_c M_c``, g_c ~ Gamma(a) (the
    clusters' Bayesian bootstrap, `skprobeval._core.ClusterTableDraws`).  Also returns
    the effective number of items: the items' total weight times the variance of the
    Dirichlet(weights)-weighted mean over the drawn variance."""
    weight = np.ones(values.shape[0]) if weight is None else weight
    sums = np.bincount(clusters.codes, weights=weight * values, minlength=clusters.n_clusters)
    sizes = np.bincount(clusters.codes, weights=weight, minlength=clusters.n_clusters)
    a = cluster_concentration(clusters.n_clusters)
    out = np.empty(n_draws)
    row = 0
    for size in draw_chunks(n_draws, clusters.n_clusters):
        g = cluster_weights(a, (size, clusters.n_clusters), rng)
        out[row:row + size] = (g @ sums) / (g @ sizes)
        row += size
    total = float(weight.sum())
    mean = float(weight @ values) / total
    # Var of the Dirichlet(w)-weighted mean: sum w (x - mean)^2 / (W (W + 1)).
    plain = float(weight @ (values - mean) ** 2) / (total * (total + 1.0))
    drawn = float(out.var(ddof=1))
    effective = total * plain / drawn if drawn > 0 else total
    return out, (clusters.n_clusters, total, effective)


def groups_of(groups, n, keep, shapes=None):
    """The clusters of the kept items, or None (no groups, or every cluster one item)."""
    if groups is None:
        return None
    clusters = cluster_codes(groups, n)
    if keep is not None or shapes is not None:
        clusters = clusters.subset(slice(None) if keep is None else keep, shapes)
        if clusters is None:
            fail("groups", "ids of at least two clusters among the items of positive weight",
                 groups, shown="one cluster")
    return None if clusters.singletons else clusters
