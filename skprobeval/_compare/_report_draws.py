"""A comparison report's metric draws of every system from one joint table.

A report of N systems on single-label data needs each system's averaged
metric and each pair's difference.  With many classes, where every system's
and every pair's table keeps only its observed cells, one draw of the joint
table of the truth and all N systems (`rank_systems`' table) gives all of
them at the cost of one table instead of N + N (N - 1) / 2.  Where the items
come in clusters the same table is drawn by the clusters' Bayesian bootstrap,
whatever the number of classes: every system and every pair then reads the
same clusters' weights.
"""

from __future__ import annotations

import numpy as np

from .._posteriors import sparse_prior
from ._rank_systems import _label_metric_draws

__all__ = ["clustered_metric_draws", "shared_metric_draws"]


def shared_metric_draws(joint, spec, average, masks, lam, beta, n_draws, rng):
    """A report's metric draws of every system from one joint table, or None.

    The joint table of the truth and all N systems under this module's prior
    (per truth, each system wrong by a fair coin, one common wrong label) has
    each system's K x K table and each pair's table as margins, each with the
    prior it takes alone (aggregation), so one draw of it is a draw of all of
    them, at the cost of one table.  Used where those tables keep only their
    observed cells (many classes), for label averages over every system's
    labels (`masks` all None), when each requested label holds items in the
    truth and in every system's predictions (where the sticks' coarse tail
    reaches no sum that holds nothing).  Returns ``(draws, above)`` as
    `_label_metric_draws` with ``chance=True``.
    """
    n_sys = len(joint.codes) - 1
    if (joint.kind != "multiclass" or n_sys < 2 or average in (None, "micro", "binary")
            or not sparse_prior(joint.n_classes, 2) or any(m is not None for m in masks)):
        return None
    for system in range(1, n_sys + 1):
        counts = joint.counts(system)
        if min(np.min(counts.tp + counts.fn), np.min(counts.tp + counts.fp)) < 1.0:
            return None
    draws, above = _label_metric_draws(joint, spec, average, None, lam, beta, n_draws, rng,
                                       chance=True)
    # A metric undefined on some draw: the tables one by one say which and where.
    return (draws, above) if np.all(np.isfinite(draws)) else None


def clustered_metric_draws(joint, spec, average, labels, lam, beta, n_draws, rng):
    """A report's metric draws of every system where the items come in clusters.

    One joint table of the truth and all N systems, drawn by the clusters'
    Bayesian bootstrap (`joint.clusters`: each cluster's items share one
    weight, for every system), for binary, multiclass and multilabel data
    and the labels each system is averaged over (`labels`, as
    `rank_systems` takes them).  Each system's margin is its own clustered
    table, each pair's the pair's.  Returns ``(draws, above)`` as
    `_label_metric_draws` with ``chance=True``; draws where a metric is
    undefined are NaN.
    """
    return _label_metric_draws(joint, spec, average, labels, lam, beta, n_draws, rng,
                               chance=True)
