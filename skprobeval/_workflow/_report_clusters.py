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

from typing import NamedTuple

import numpy as np

from .._compare import sampled_comparison
from .._core import ClusterTableDraws, cluster_concentration, clustered_cells
from .._counting import JointCodes
from .._posteriors import ClusteredPosterior, posterior_from_codes

__all__ = ["RightMoreOften", "cluster_note", "clustered_right_comparisons",
           "clustered_summary_posterior", "one_vs_rest_codes"]

# Up to this many systems the patterns of right and wrong are one table (2^N cells).
_PATTERN_SYSTEMS = 12


class RightMoreOften(NamedTuple):
    """One pair's P(first right more often by more than rope), P(equivalent), P(second)."""

    prob_first_better: float
    prob_equivalent: float
    prob_second_better: float


def clustered_right_comparisons(joint, lam, rope, n_draws, rng):
    """P(i right more often than j) for every pair ``i < j`` of systems, clustered.

    One table of the systems' patterns of right and wrong (2^N cells), its
    cells drawn by the clusters' Bayesian bootstrap, gives every pair's
    shares right; its prior, λ / 2^(N-2) per pattern, puts λ on each pair's
    "first right alone" and "second right alone", as `PairedComparison`'s
    paired Dirichlet (whose rest holds λ, here 2λ: it moves only the
    probabilities of ``rope > 0``).  Beyond `_PATTERN_SYSTEMS` systems each
    pair has its own three-cell table.  Returns ``{(i, j): RightMoreOften}``
    with the systems numbered from 1.
    """
    n_sys = len(joint.codes) - 1
    if n_sys < 2:
        return {}           # one system: no pair to compare
    if n_sys > _PATTERN_SYSTEMS:
        return {(i, j): _right_table(joint, [i, j], lam, rope, n_draws, rng)[(1, 2)]
                for i in range(1, n_sys + 1) for j in range(i + 1, n_sys + 1)}
    return _right_table(joint, list(range(1, n_sys + 1)), lam, rope, n_draws, rng)


def _right_table(joint, systems, lam, rope, n_draws, rng):
    n_sys = len(systems)
    right = np.column_stack([joint.right(s) for s in systems]).astype(np.int64)
    n_cells = 1 << n_sys
    counts = clustered_cells(right @ (1 << np.arange(n_sys)), joint.clusters, n_cells,
                             joint.weight)
    draws = ClusterTableDraws(counts, np.full(n_cells, lam / 2.0 ** (n_sys - 2)),
                              cluster_concentration(joint.clusters.n_clusters))
    bits = ((np.arange(n_cells)[:, None] >> np.arange(n_sys)) & 1).astype(float)
    pairs = [(i, j) for i in range(n_sys) for j in range(i + 1, n_sys)]
    first, second = (np.array(side, dtype=np.intp) for side in zip(*pairs))
    comparison = sampled_comparison(
        "accuracy", ((shares := p @ bits)[:, first] - shares[:, second]
                     for p in draws.chunks(n_draws, rng)), rope, n_draws)
    return {(systems[i], systems[j]): RightMoreOften(
        float(comparison.prob_first_better[k]), float(comparison.prob_equivalent[k]),
        float(comparison.prob_second_better[k])) for k, (i, j) in enumerate(pairs)}


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
