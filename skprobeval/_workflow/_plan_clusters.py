"""A planned test set of clusters: the clusters worth the items of a plan without them.

`plan_test_size` plans for independent items; where the items will come in
clusters (several images per patient), each cluster is worth fewer
independent items than it holds.  The clusters' size and design effect come
from the planner's guess (``cluster_size`` and ``icc``: Kish's design effect
``1 + s (m - 1) icc`` of a ratio that counts a share ``s`` of the items) or
from a clustered pilot (``pilot_clusters``: a posterior computed with
``groups=``, whose `effective_n` is what its clusters were worth).  Either
way the plan is the smallest number of clusters whose clustered posterior
is as narrow as that of the items planned without clusters.
"""

from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np

from .._core import cluster_concentration, fail

__all__ = ["check_clusters", "equivalent_items", "in_clusters", "real"]


def real(value):
    """`value` as a float when it is a real number (a NumPy scalar or 0-d array too)."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    return float(value) if isinstance(value, numbers.Real) else None


@dataclasses.dataclass(frozen=True)
class Clusters:
    """The planned clusters: mean size, intra-cluster correlation (None: read from the
    pilot's design effect) and the pilot's design effect (None: from `icc`)."""

    size: float
    icc: float | None
    effect: float | None = None

    def design_effect(self, share):
        """The design effect of a metric counting a share `share` of the items."""
        if self.effect is not None:
            return self.effect
        return max(1.0, 1.0 + share * (self.size - 1.0) * self.icc)

    def correlation(self, share):
        """The intra-cluster correlation: given, or the one of the pilot's design effect
        at `share` (in [0, 1])."""
        if self.icc is not None:
            return self.icc
        if self.size <= 1.0 or share <= 0.0:
            return 0.0
        return float(min(max((self.effect - 1.0) / (share * (self.size - 1.0)), 0.0), 1.0))


def check_clusters(cluster_size, icc, pilot_clusters=None):
    """The `Clusters` of a clustered plan, or None: `cluster_size` with `icc`, or else a
    clustered pilot posterior."""
    if pilot_clusters is not None:
        for name, value in (("cluster_size", cluster_size), ("icc", icc)):
            if value is not None:
                fail(name, "None with `pilot_clusters` (the clustered pilot gives the clusters' "
                     "size and design effect)", value)
        return _pilot_clusters(pilot_clusters)
    if cluster_size is None and icc is None:
        return None
    if cluster_size is None or icc is None:
        fail("cluster_size" if cluster_size is None else "icc",
             "given with `icc`" if cluster_size is None else "given with `cluster_size`",
             None)
    size, correlation = real(cluster_size), real(icc)
    if size is None or not (math.isfinite(size) and size >= 1.0):
        fail("cluster_size", "a mean number of items per cluster, at least 1", cluster_size)
    if correlation is None or not 0.0 <= correlation <= 1.0:
        fail("icc", "an intra-cluster correlation in [0, 1]", icc)
    return Clusters(size, correlation)


def _pilot_clusters(posterior):
    """`Clusters` of a posterior computed with ``groups=``: mean cluster size
    ``n_items / n_clusters`` and the design effect its `effective_n` implies."""
    names = ("n_clusters", "n_items", "effective_n")
    if not all(hasattr(posterior, name) for name in names):
        fail("pilot_clusters", "a posterior computed with `groups=` on a pilot (a "
             "ClusteredPosterior, with n_clusters, n_items and effective_n)", posterior,
             error=TypeError)
    fields = [getattr(posterior, name) for name in names]
    if any(value is None for value in fields):
        fail("pilot_clusters", "a posterior computed with `groups=` whose clusters hold "
             "several items (its n_clusters is None)", posterior)
    n_clusters, n_items = int(fields[0]), float(fields[1])
    effective = np.asarray(fields[2], dtype=float)
    if effective.ndim != 0:
        fail("pilot_clusters", "the posterior of one number (a per-label posterior's item, "
             "``posterior[k]``, or an average)", posterior,
             shown=f"effective_n of shape {effective.shape}")
    effective = float(effective)
    if not (n_clusters >= 2 and n_items > 0 and math.isfinite(effective) and effective > 0):
        fail("pilot_clusters", "a clustered posterior of at least two clusters with a "
             "positive effective_n", posterior)
    size = max(n_items / n_clusters, 1.0)
    # `equivalent_items` inverted: the pilot's C clusters of m items at design effect deff
    # are worth m (a C + 1) / deff - 1 independent items, its effective_n.
    effect = size * (cluster_concentration(n_clusters) * n_clusters + 1.0) / (effective + 1.0)
    return Clusters(size, None, max(1.0, effect))


def equivalent_items(n_clusters, size, effect):
    """Independent items worth `n_clusters` clusters of `size` items at design effect
    `effect`: the clusters' Bayesian bootstrap with Gamma((C - 1)/(C + 2)) weights has
    the variance of ``m (a C + 1) / deff - 1`` independent items."""
    a = (n_clusters - 1.0) / (n_clusters + 2.0)
    return size * (a * n_clusters + 1.0) / effect - 1.0


def in_clusters(plan, clusters, share):
    """`plan` (for independent items) in clusters: the smallest number of clusters worth
    its items, with the widths of that many equivalent items."""
    if clusters is None:
        return plan
    size = clusters.size
    effect = clusters.design_effect(share)
    if size == 1.0:
        # One item a cluster: the posterior without clusters, exactly.
        n_clusters = plan.n_items
    else:
        n_clusters = 2
        while equivalent_items(n_clusters, size, effect) < plan.n_items:
            n_clusters *= 2
        low = n_clusters // 2
        while n_clusters - low > 1:
            middle = (low + n_clusters) // 2
            if equivalent_items(middle, size, effect) >= plan.n_items:
                n_clusters = middle
            else:
                low = middle
    sampler = plan._sampler

    def clustered_sampler(n_items):
        count = max(2.0, n_items / size)
        return sampler(max(2, int(round(equivalent_items(count, size, effect)))))

    return dataclasses.replace(plan, n_items=int(math.ceil(n_clusters * size)),
                               n_clusters=int(n_clusters), cluster_size=float(size),
                               icc=float(clusters.correlation(share)),
                               design_effect=float(effect),
                               _sampler=clustered_sampler if size > 1.0 else sampler)
