"""Several systems on the same items, from a few gold labels and a proxy on every item.

`compare_paired_metric(..., proxy=)` and `rank_systems(..., proxy=)`: the
double-sampling posterior of the (gold, prediction of each system) table
(`ProxyTable` of ``skprobeval._posteriors``: the (proxy, predictions) shares
from every item, the gold label's shares within each from the labelled
items), and every system's metric read off each draw.  Sampled; the gold
label's prior within a stratum is pooled over strata of the same pattern
(`PooledRates`), binary targets too.
"""

from __future__ import annotations

import numpy as np

from .._metrics import label_weights
from .._posteriors import check_target_metric, label_counts, read_proxy, table_metric

__all__ = ["proxy_differences", "proxy_metric_draws"]


def proxy_metric_draws(y_true, y_preds, proxy, *, spec, average, labels, lam, beta, pos_label,
                       sample_weight, n_draws, rng, pred_names):
    """``(table, chunks)``: the `ProxyTable` and chunks of draws of every system's
    metric, shape (draws, systems)."""
    table, _, _ = read_proxy(y_true, y_preds, proxy, average=average, labels=labels,
                             pos_label=pos_label, sample_weight=sample_weight, lam=lam,
                             pred_names=pred_names)
    joint = table.joint
    check_target_metric(joint, spec.name, average)
    params = {"beta": beta} if "beta" in spec.params else {}
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    requested = joint.n_requested if joint.kind == "multiclass" else 1
    m = len(y_preds)
    # Axis 1 is the gold label; axis 2 + i the prediction of system i.
    others = [tuple(2 + j for j in range(m) if j != i) for i in range(m)]
    weights = [None] * m
    if average in ("weighted", "powers"):
        mean = table.mean_table() * table.n_items
        weights = [label_weights(label_counts(mean.sum(axis=tuple(a - 1 for a in axes)),
                                              requested), average, spec.name)
                   for axes in others]

    def chunks():
        for draws in table.draws(n_draws, rng):
            yield np.column_stack([
                table_metric(draws.sum(axis=axes) if axes else draws, joint.kind,
                             spec.function, params, spec.name, average, weights[i],
                             requested, every)
                for i, axes in enumerate(others)])

    return table, chunks()


def proxy_differences(y_true, y_pred_a, y_pred_b, proxy, *, spec, average, labels, lam,
                      beta, pos_label, sample_weight, n_draws, rng):
    """Chunks of draws of the difference of `spec` (A minus B), gold labels on some items."""
    _, chunks = proxy_metric_draws(y_true, [y_pred_a, y_pred_b], proxy, spec=spec,
                                   average=average, labels=labels, lam=lam, beta=beta,
                                   pos_label=pos_label, sample_weight=sample_weight,
                                   n_draws=n_draws, rng=rng,
                                   pred_names=["y_pred_a", "y_pred_b"])
    return (draws[:, 0] - draws[:, 1] for draws in chunks)
