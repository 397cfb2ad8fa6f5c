"""Several systems on the same items, from a few gold labels and a proxy on every item.

`compare_paired(..., proxy=)`, `compare_paired_metric(..., proxy=)`,
`rank_systems(..., proxy=)` and `PosteriorMetricFrame(..., proxy=)` (each
group's own table): the
double-sampling posterior of the (gold, prediction of each system) table
(`ProxyTable` of ``skprobeval._posteriors``: the (proxy, predictions) shares
from every item, the gold label's shares within each from the labelled
items), and every system's metric read off each draw.  Sampled; the gold
label's prior within a stratum is pooled over strata of the same pattern
(`PooledRates`), binary targets too.
"""

from __future__ import annotations

import numpy as np

from .._core import fail, warn_user
from .._counting import ConfusionCounts
from .._metrics import label_weights
from .._posteriors import (
    BARE_WARNING,
    ProxyTable,
    check_target_metric,
    label_counts,
    read_proxy,
    table_metric,
)

__all__ = ["proxy_differences", "proxy_group_draws", "proxy_metric_draws",
           "proxy_paired_shares"]


def proxy_metric_draws(y_true, y_preds, proxy, *, spec, average, labels, lam, beta, pos_label,
                       sample_weight, n_draws, rng, pred_names):
    """``(table, labelled, chunks)``: the `ProxyTable`, the mask of the items with a gold
    label and chunks of draws of every system's metric, shape (draws, systems)."""
    table, _, labelled = read_proxy(y_true, y_preds, proxy, average=average, labels=labels,
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

    return table, labelled, chunks()


def proxy_differences(y_true, y_pred_a, y_pred_b, proxy, *, spec, average, labels, lam,
                      beta, pos_label, sample_weight, n_draws, rng):
    """``(table, labelled, chunks)``: the `ProxyTable`, the mask of the items with a gold
    label and chunks of draws of the difference of `spec` (A minus B)."""
    table, labelled, chunks = proxy_metric_draws(y_true, [y_pred_a, y_pred_b], proxy, spec=spec,
                                   average=average, labels=labels, lam=lam, beta=beta,
                                   pos_label=pos_label, sample_weight=sample_weight,
                                   n_draws=n_draws, rng=rng,
                                   pred_names=["y_pred_a", "y_pred_b"])
    return table, labelled, (draws[:, 0] - draws[:, 1] for draws in chunks)


def _paired_cell_prior(size, alphas):
    """The (gold, A, B) cell prior whose sums over the cells where A alone is right, B
    alone, and both alike are `alphas` (`compare_paired`'s Dirichlet), spread evenly
    over each kind's cells."""
    gold, a, b = np.meshgrid(np.arange(size), np.arange(size), np.arange(size),
                             indexing="ij")
    kinds = np.where((a == gold) & (b != gold), 0, np.where((b == gold) & (a != gold), 1, 2))
    cells = np.bincount(kinds.ravel(), minlength=3)
    mass = np.divide(np.asarray(alphas, dtype=float), cells, out=np.zeros(3),
                     where=cells > 0)
    return mass[kinds]


def proxy_paired_shares(y_true, y_pred_a, y_pred_b, proxy, *, alphas, sample_weight,
                        n_draws, rng):
    """``(table, gold, labelled, shares)`` of `compare_paired` with gold labels on some
    items: the `ProxyTable` of (gold, A, B) with the paired prior `alphas` (with every
    item labelled, its shares are Dirichlet(N1 + alpha1, N2 + alpha2, N3 + alpha3)
    exactly for two labels), the labelled gold values, the mask of labelled items
    and draws of the shares of items A alone, B alone and both alike get right,
    shape (n_draws, 3)."""
    table, gold_values, labelled = read_proxy(y_true, [y_pred_a, y_pred_b], proxy, average="micro",
                                    labels=None, pos_label=1, sample_weight=sample_weight,
                                    lam=float(np.mean(alphas)),
                                    pred_names=["y_pred_a", "y_pred_b"],
                                    cell_prior=lambda size: _paired_cell_prior(size, alphas))
    size = table.size
    if size == 1:
        # One label among gold, predictions and proxy: every item is a tie, and the
        # exact posterior Dir(alpha1, alpha2, N + alpha3) holds (no cell has the
        # first or the second alone right to carry their prior).
        shares = rng.standard_gamma(np.array([alphas[0], alphas[1],
                                              table.n_items + alphas[2]]), size=(n_draws, 3))
        return table, gold_values, labelled, shares / shares.sum(axis=1, keepdims=True)
    gold, a, b = np.meshgrid(np.arange(size), np.arange(size), np.arange(size),
                             indexing="ij")
    first = ((a == gold) & (b != gold)).ravel()
    second = ((b == gold) & (a != gold)).ravel()
    parts = []
    for draws in table.draws(n_draws, rng):
        flat = draws.reshape(draws.shape[0], -1)
        parts.append(np.column_stack([flat[:, first].sum(axis=1), flat[:, second].sum(axis=1),
                                      flat[:, ~(first | second)].sum(axis=1)]))
    return table, gold_values, labelled, np.concatenate(parts)


class _Items:
    """The codes of some of a `ProxyTable`'s items, with its classes (what a table of
    those items reads)."""

    __slots__ = ("codes", "classes")

    def __init__(self, codes, classes):
        self.codes, self.classes = codes, classes


def _named(keys, where):
    shown = [keys[g] for g in np.flatnonzero(where)[:5]]
    return f"{shown!r}{' ...' if np.count_nonzero(where) > 5 else ''}"


def proxy_group_draws(y_true, y_pred, proxy, group, keys, *, specs, params, pos_label,
                      sample_weight, lam, n_draws, rng):
    """Draws of every metric of every group of items, each group's from the
    double-sampling posterior of its own items (`PosteriorMetricFrame(proxy=)`).

    `group` holds each item's group code (0 to ``len(keys) - 1``), `specs` the
    metrics by column and `params(spec)` their parameters.  Returns ``(draws,
    overall, counts, n_items, n_labelled)``: by column, draws of shape (n_draws,
    groups) and of all items together (n_draws,); the labelled items' counts of each
    group (a `ConfusionCounts` of shape (groups,)) and each group's items and
    labelled items (their weights).
    """
    table, _, labelled = read_proxy(y_true, [y_pred], proxy, average="binary", labels=None,
                                    pos_label=pos_label, sample_weight=sample_weight,
                                    lam=lam, pred_names=["y_pred"], by_item=True,
                                    warn_bare=False)
    codes, weight = table.joint.codes, table.weight
    n_groups = len(keys)
    labelled_weight = np.bincount(group[labelled], weights=weight[labelled],
                                  minlength=n_groups)
    if np.any(labelled_weight <= 0):
        fail("y_true", "a gold label in every sensitive group (each group's proxy is read "
             "on its own labelled items)", None,
             shown=f"no gold label in group(s) {_named(keys, labelled_weight <= 0)}")
    tables = []
    for g in range(n_groups):
        mask = group == g
        tables.append(ProxyTable(_Items([c[mask] for c in codes], table.joint.classes),
                                 labelled[mask], weight[mask], 1, lam))
    single = np.array([t.single_stratum for t in tables])
    if single.any():
        fail("y_true", "gold labels in at least two (proxy, prediction) strata of every "
             "group whose items fall in several (the gold labels are read within each "
             "stratum)", None,
             shown=f"every labelled item of group(s) {_named(keys, single)} in one stratum")
    bare = np.array([t.bare for t in tables])
    if bare.any():
        warn_user(f"{int(bare.sum())} {BARE_WARNING} (sensitive group(s) "
                  f"{_named(keys, bare > 0)})")

    def metric_draws(proxy_table):
        parts = {column: [] for column in specs}
        for draws in proxy_table.draws(n_draws, rng):
            for column, spec in specs.items():
                parts[column].append(table_metric(draws, "binary", spec.function,
                                                  params(spec), spec.name, "binary", None,
                                                  1, False))
        return {column: np.concatenate(values) for column, values in parts.items()}

    overall = metric_draws(table)
    each = [metric_draws(t) for t in tables]
    draws = {column: np.column_stack([d[column] for d in each]) for column in specs}
    # The labelled items' cells; code 0 is the positive label.
    truth, pred = codes[0][labelled] == 0, codes[1][labelled] == 0
    cell = np.where(pred, np.where(truth, 0, 1), np.where(truth, 2, 3)) + 4 * group[labelled]
    cells = np.bincount(cell, weights=weight[labelled], minlength=4 * n_groups)
    counts = ConfusionCounts(*cells.reshape(n_groups, 4).T)
    n_items = np.bincount(group, weights=weight, minlength=n_groups)
    return draws, overall, counts, n_items, labelled_weight
