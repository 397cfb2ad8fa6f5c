"""A metric of two systems on the same items, from a few gold labels and a proxy.

`compare_paired_metric(..., proxy=)`: the double-sampling posterior of the
(gold, prediction of A, prediction of B) table (`ProxyTable` of
``skprobeval._posteriors``: the (proxy, A, B) shares from every item, the
gold label's shares within each from the labelled items), and the metric's
difference read off each draw.  Sampled, with the paired comparison's prior
split over the proxy's values, so that with every item labelled it is the
paired comparison of the labelled items.
"""

from __future__ import annotations

from .._metrics import label_weights
from .._posteriors import check_target_metric, label_counts, read_proxy, table_metric

__all__ = ["proxy_differences"]


def proxy_differences(y_true, y_pred_a, y_pred_b, proxy, *, spec, average, labels, lam,
                      beta, pos_label, sample_weight, n_draws, rng):
    """Chunks of draws of the difference of `spec` (A minus B), gold labels on some items."""
    table, _, _ = read_proxy(y_true, [y_pred_a, y_pred_b], proxy, average=average,
                             labels=labels, pos_label=pos_label, sample_weight=sample_weight,
                             lam=lam, pred_names=["y_pred_a", "y_pred_b"])
    joint = table.joint
    check_target_metric(joint, spec.name, average)
    params = {"beta": beta} if "beta" in spec.params else {}
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    requested = joint.n_requested if joint.kind == "multiclass" else 1
    weights = [None, None]
    if average in ("weighted", "powers"):
        mean = table.mean_table() * table.n_items
        weights = [label_weights(label_counts(mean.sum(axis=axis), requested), average,
                                 spec.name) for axis in (2, 1)]

    def differences():
        for draws in table.draws(n_draws, rng):
            # (draws, gold, A, B): A's table sums B out, B's sums A out.
            first = table_metric(draws.sum(axis=3), joint.kind, spec.function, params,
                                 spec.name, average, weights[0], requested, every)
            second = table_metric(draws.sum(axis=2), joint.kind, spec.function, params,
                                  spec.name, average, weights[1], requested, every)
            yield first - second

    return differences()
