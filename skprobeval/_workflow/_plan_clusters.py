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

A pilot's design effect is an estimate from its C clusters: taken as known,
the plans of small pilots fall short of their assurance (their design
effects are too low as often as too high, and a plan too small loses more
than one too large gains).  The plan from a pilot therefore averages the
assurance over the design effect's posterior, a scaled inverse chi-square
around the pilot's (the sampling distribution of a variance estimated from
C clusters, with the scale-invariant prior 1 / deff), and takes the smallest
number of clusters whose average reaches it.

Its degrees of freedom are (C - 1) / 2, not the C - 1 of clusters whose
totals are normal: the variance of a variance estimate is (kurtosis - 1) / C
times its square, and the clusters of a metric of counts are heavy-tailed (a
patient whose positives are mostly missed).  Measured on recall 0.9 (20%
positives, clusters of 10, icc 0.2): 200 pilots' design effects spread as on
about two thirds of C - 1 degrees of freedom at C = 100, with a median 5%
under the population's; over 150 pilots of 40 clusters (the assurance of
each plan read off a curve of 400 test sets at each of ten sizes) the plans
met the width in 0.76 of test sets on C - 1 degrees of freedom, 0.78 on
3 (C - 1) / 4 and 0.82 on (C - 1) / 2, where 0.8 was asked (0.80 from pilots
of 100 clusters on (C - 1) / 2; 0.66 and 0.72 with the design effect taken
as known).  ``benchmarks/plan_pilot_clusters.py`` checks the plans on test
sets drawn at each one, also on less skewed clusters (accuracy, logit-normal
cluster effects), where (C - 1) / 2 is more than enough: 0.92 and 0.87 from
pilots of 40 and 100 clusters where the population's design effect gave 0.87.
(The figures of the 150 pilots were measured with the weights' earlier
concentration (C - 1) / (C + 2); the benchmark's with C / (C + 3).)
"""

from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np
from scipy import stats

from .._core import cluster_concentration, fail

__all__ = ["check_clusters", "equivalent_items", "in_clusters", "real"]

# Design effects the plan from a pilot averages its assurance over (equal posterior
# mass each); grid ratio of the test-set sizes where that assurance is evaluated
# (interpolated between on the log scale).
_NODES = 64
_GRID = 1.03
_LARGEST = 10**12


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
    pilot's design effect), the pilot's design effect (None: from `icc`) and the
    pilot's number of clusters (None: the design effect taken as known)."""

    size: float
    icc: float | None
    effect: float | None = None
    pilot_n_clusters: int | None = None

    def effects(self, nodes=_NODES):
        """`nodes` design effects of equal posterior mass (the midpoints of as many
        quantile bins) given the pilot's: ``deff f / chi2`` with chi2 on ``f = (C - 1)
        / 2`` degrees of freedom, at least 1."""
        levels = (np.arange(nodes) + 0.5) / nodes
        freedom = (self.pilot_n_clusters - 1) / 2.0
        return np.maximum(self.effect * freedom / stats.chi2.isf(levels, freedom), 1.0)

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


def check_clusters(cluster_size, icc, pilot_clusters=None, metric=None):
    """The `Clusters` of a clustered plan, or None: `cluster_size` with `icc`, or else a
    clustered pilot posterior."""
    if pilot_clusters is not None:
        for name, value in (("cluster_size", cluster_size), ("icc", icc)):
            if value is not None:
                fail(name, "None with `pilot_clusters` (the clustered pilot gives the clusters' "
                     "size and design effect)", value)
        clusters = _pilot_clusters(pilot_clusters)
        drawn = getattr(pilot_clusters, "metric", None)
        if metric is not None and drawn is not None and drawn != metric:
            fail("pilot_clusters", f"a clustered posterior of the planned metric {metric!r} "
                 "(each metric has its own design effect)", pilot_clusters,
                 shown=f"a posterior of {drawn!r}")
        return clusters
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
    return Clusters(size, None, max(1.0, effect), n_clusters)


def equivalent_items(n_clusters, size, effect):
    """Independent items worth `n_clusters` clusters of `size` items at design effect
    `effect`: the clusters' Bayesian bootstrap with Gamma(a) weights (``a`` from
    `cluster_concentration`) has the variance of ``m (a C + 1) / deff - 1``
    independent items."""
    a = cluster_concentration(n_clusters)
    return size * (a * n_clusters + 1.0) / effect - 1.0


def in_clusters(plan, clusters, share, prob=None):
    """`plan` (for independent items) in clusters: the smallest number of clusters worth
    its items, with the widths of that many equivalent items.  From a pilot, the
    smallest number whose assurance, averaged over the design effect's posterior,
    reaches the plan's; `prob(n)` is P(width <= `width`) for n independent items
    (None: read from the plan's widths, scaled as n^(-1/2))."""
    if clusters is None:
        return plan
    size = clusters.size
    effect = clusters.design_effect(share)
    sampler = plan._sampler
    if size > 1.0 and clusters.pilot_n_clusters is not None:
        return _averaged(plan, clusters, share, prob)
    if size == 1.0:
        # One item a cluster: the posterior without clusters, exactly.
        n_clusters = plan.n_items
    else:
        n_clusters = _smallest(lambda count: equivalent_items(count, size, effect)
                               >= plan.n_items)

    def clustered_sampler(n_items):
        count = max(2.0, n_items / size)
        return sampler(max(2, int(round(equivalent_items(count, size, effect)))))

    return dataclasses.replace(plan, n_items=int(math.ceil(n_clusters * size)),
                               n_clusters=int(n_clusters), cluster_size=float(size),
                               icc=float(clusters.correlation(share)),
                               design_effect=float(effect),
                               _sampler=clustered_sampler if size > 1.0 else sampler)


def _smallest(meets, start=2):
    """The smallest number of clusters (at least 2) where `meets(count)` (monotone),
    bracketed from `start` by steps of a quarter, then bisected."""
    low, high = 1, max(2, int(start))
    if meets(high):
        while high > 2:
            count = max(2, int(high / 1.25))
            if not meets(count):
                low = count
                break
            high = count
    else:
        low = high
        while True:
            if low >= _LARGEST:
                fail("width", f"a width reachable with at most {_LARGEST:.0e} clusters",
                     None, shown="a narrower one")
            high = int(low * 1.25) + 1
            if meets(high):
                break
            low = high
    if high == 2:
        return 2
    while high - low > 1:
        middle = (low + high) // 2
        if meets(middle):
            high = middle
        else:
            low = middle
    return high


def _averaged(plan, clusters, share, prob):
    """The plan from a pilot: the smallest number of clusters whose P(width <= `width`),
    averaged over the design effects of `Clusters.effects`, is the plan's assurance."""
    size, effects = clusters.size, clusters.effects()
    if prob is None:
        # The simulated route: the plan's widths at other sizes, as n^(-1/2).
        reference = np.asarray(plan.widths, dtype=float) * math.sqrt(plan.n_items)

        def prob(n):
            return float(np.mean(reference / math.sqrt(n) <= plan.width))

    at_grid = {}

    def within(n):
        # prob on a geometric grid of n, interpolated on the log scale (the averaged
        # assurance needs it at every design effect of every number of clusters tried).
        n = np.clip(n, 1.0, _LARGEST)
        where = np.log(n) / math.log(_GRID)
        low = np.floor(where).astype(np.int64)
        for index in np.unique(np.concatenate([low, low + 1])):
            if index not in at_grid:
                at_grid[index] = prob(int(round(_GRID ** index)))
        ends = np.array([[at_grid[i], at_grid[i + 1]] for i in low])
        return ends[:, 0] + (where - low) * (ends[:, 1] - ends[:, 0])

    def averaged(count):
        return float(np.mean(within(equivalent_items(count, size, effects))))

    known = _smallest(lambda count: equivalent_items(count, size, clusters.effect)
                      >= plan.n_items)
    n_clusters = _smallest(lambda count: averaged(count) >= plan.assurance, known)
    sampler = plan._sampler

    def clustered_sampler(n_items):
        # The widths at the pilot's design effect, each drawn test set at one of the
        # design effects in turn (its width scaled as n^(-1/2)): the mixture over them.
        count = max(2.0, n_items / size)
        reference = max(2.0, equivalent_items(count, size, clusters.effect))
        widths = np.asarray(sampler(max(2, int(round(reference)))), dtype=float)
        items = np.maximum(equivalent_items(count, size, effects), 1.0)
        return widths * np.sqrt(reference / items[np.arange(widths.shape[0]) % effects.size])

    n_items = int(math.ceil(n_clusters * size))
    return dataclasses.replace(plan, n_items=n_items, n_clusters=int(n_clusters),
                               prob_within=averaged(n_clusters), cluster_size=float(size),
                               icc=float(clusters.correlation(share)),
                               design_effect=float(clusters.effect),
                               widths=clustered_sampler(n_items),
                               _sampler=clustered_sampler)
