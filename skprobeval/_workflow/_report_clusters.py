"""What a comparison report draws differently when its items come in clusters.

With ``groups=`` every figure of the report is the Bayesian bootstrap of the
clusters (each cluster's items share one Gamma weight; the theory page
``docs/theory/clusters.rst``): the systems' metrics and every pair's
difference from one clustered joint table of the truth and all systems
(`clustered_metric_draws`), the "right more often" comparison from the
clustered table of who is right alone, and the one-vs-rest rows from each
label's clustered binary table.  The exact routes of the report (Beta
posteriors, the exact paired Dirichlet of who is right) take no clusters, so
they are not used here.
"""

from __future__ import annotations

import numpy as np

from .._compare import sampled_comparison
from .._core import ClusterTableDraws, cluster_concentration, clustered_cells
from .._counting import JointCodes
from .._posteriors import ClusteredPosterior, posterior_from_codes

__all__ = ["cluster_note", "clustered_right_comparison", "clustered_summary_posterior",
           "one_vs_rest_codes"]


def clustered_right_comparison(joint, first, second, lam, rope, n_draws, rng):
    """P(first right more often than second), clustered: a `MetricComparison`.

    The paired Dirichlet of `PairedComparison` (first right alone, second
    right alone, the rest; λ on each) with its cells drawn by the clusters'
    Bayesian bootstrap; the probabilities are those of ``pi1 - pi2``.
    """
    right_first, right_second = joint.right(first), joint.right(second)
    cell = np.where(right_first & ~right_second, 0, np.where(right_second & ~right_first, 1, 2))
    counts = clustered_cells(cell, joint.clusters, 3, joint.weight)
    draws = ClusterTableDraws(counts, np.full(3, float(lam)),
                              cluster_concentration(joint.clusters.n_clusters))
    return sampled_comparison("accuracy", (p[:, 0] - p[:, 1] for p in draws.chunks(n_draws, rng)),
                              rope, n_draws)


def clustered_summary_posterior(samples, own, name, *, average, lam, beta, n_draws, rng,
                                n_clusters):
    """A system's `ClusteredPosterior` from its draws in the clustered joint table.

    Its effective number of items compares the variance of the draws with
    that of the same system's posterior without the clusters (`own`: the
    truth and the system).
    """
    samples = samples[np.isfinite(samples)]
    plain = posterior_from_codes(own.with_clusters(None), name, average=average, lam=lam,
                                 beta=beta, n_draws=n_draws, random_state=rng)
    n_items = (float(np.sum(own.weight)) if own.weight is not None
               else float(own.codes[0].shape[0]))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = float(np.asarray(plain.var(), dtype=float)) / float(np.var(samples, ddof=1))
    return ClusteredPosterior(samples, n_clusters=n_clusters, n_items=n_items,
                              effective_n=n_items * ratio if np.isfinite(ratio) else n_items)


def one_vs_rest_codes(joint):
    """The truth and one system as independent one-vs-rest tables of the requested
    labels (a multilabel `JointCodes`, its clusters kept), or `joint` itself for binary
    and multilabel data."""
    if joint.kind != "multiclass":
        return joint
    requested = np.arange(joint.n_requested)
    codes = [np.asarray(c)[:, None] == requested[None, :] for c in joint.codes]
    return JointCodes("multilabel", codes, joint.classes[:joint.n_requested], joint.n_requested,
                      joint.weight, joint.clusters)


def cluster_note(n_clusters, n_items):
    """The report's line on its clusters."""
    return (f"Items in {n_clusters} clusters ({n_items:g} items): every posterior, pair and "
            f"ranking is the Bayesian bootstrap of the {n_clusters} clusters (each cluster's "
            "items share one weight); effective_n in the summary is the number of "
            "independent items that would give each posterior's variance.")
