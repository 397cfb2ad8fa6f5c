"""Posteriors from a few gold labels and a second labeller on every item.

Gold labels are the expensive part of an evaluation.  Where every test item
also carries a cheaper second opinion -- a stronger or older model, an LLM
judge, a crowd label, a rule: the *proxy* -- the items without a gold label
still say how often each (proxy, prediction) combination occurs, and the
labelled items say how the gold label is spread within each combination.

The model (double sampling; Tenenbein 1970, in Bayesian form): the items'
strata ``s = (proxy, prediction)`` have shares ``pi ~ Dirichlet(M_s + a_s)``
from *all* items, and within a stratum the gold label has shares
``theta_s ~ Dirichlet(n_gs + b_gs)`` from the *labelled* items, which are a
random sample of their stratum (missing at random given the proxy and the
prediction).  The likelihood factorises into those two parts, so the two
Dirichlets are the exact posterior.  The (gold, prediction) table of the
population is ``p(g, y) = sum over proxies of pi_(proxy, y) theta_(proxy, y)(g)``
and every metric is read off its draws.

The prior splits the library's (gold, prediction) cell prior evenly over the
proxy's values (``b_gs = lambda_gy / K``, ``a_s = sum_g b_gs``), so that by the
Dirichlet's aggregation and neutrality, with every item labelled the
posterior is exactly the labelled-only one: the proxy adds nothing then, and
adds the more, the more items it alone covers and the better it predicts the
gold label.
"""

from __future__ import annotations

import numpy as np

from .._core import check_random_state, fail, warn_user
from .._counting import ConfusionCounts, joint_codes
from .._metrics import SHARE_OF_RIGHT, label_weights
from ._joint import average_values, label_concentration
from ._posterior import SampledPosterior, _out, rounded

__all__ = ["ProxyPosterior", "missing_labels", "proxy_posterior", "refuse_missing"]

# Values drawn at once: draws x strata x labels.
_CHUNK_VALUES = 2_000_000


class ProxyPosterior(SampledPosterior):
    """The posterior of a metric from gold labels on some items and a proxy on all.

    Built by `metric_posterior` (and the named posteriors) with ``proxy=``:
    draws of the (gold, prediction) table from the items' (proxy,
    prediction) shares and the gold labels' shares within them (see the
    theory page "Fewer gold labels").  Every summary is a
    `SampledPosterior`'s.

    Parameters
    ----------
    samples : array-like of shape (n_draws,) or (n_draws, K)
        The posterior draws.
    n_items : float
        Items (their weights), labelled or not.
    n_labelled : float
        Items with a gold label (their weights).
    labelled_only : posterior
        The posterior of the labelled items alone (what it would be without
        the proxy).

    Attributes
    ----------
    n_items, n_labelled, labelled_only
        As given.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import metric_posterior
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, 2_000)
    >>> y_pred = np.where(rng.random(2_000) < 0.85, y_true, 1 - y_true)
    >>> proxy = np.where(rng.random(2_000) < 0.95, y_true, 1 - y_true)
    >>> gold = np.where(np.arange(2_000) < 200, y_true, np.nan)   # 200 labelled
    >>> posterior = metric_posterior(gold, y_pred, metric="accuracy", proxy=proxy,
    ...                              random_state=0)
    >>> posterior.n_labelled, posterior.n_items
    (200.0, 2000.0)
    >>> width = np.subtract(*posterior.interval(0.95)[::-1])
    >>> alone = np.subtract(*posterior.labelled_only.interval(0.95)[::-1])
    >>> bool(width < 0.7 * alone)
    True
    """

    __slots__ = ("n_items", "n_labelled", "labelled_only")

    def __init__(self, samples, *, n_items, n_labelled, labelled_only):
        super().__init__(samples)
        self.n_items, self.n_labelled = float(n_items), float(n_labelled)
        self.labelled_only = labelled_only

    def __getitem__(self, index):
        if not self.shape:
            raise TypeError("A posterior of one table (0-d) cannot be indexed.")
        return ProxyPosterior(self._samples[:, index], n_items=self.n_items,
                              n_labelled=self.n_labelled,
                              labelled_only=self.labelled_only[index])

    def __repr__(self):
        return (f"ProxyPosterior(n_draws={self.n_draws}, mean={rounded(self._mean_array())}, "
                f"mc_error={rounded(self._mc_error)}, n_labelled={rounded(self.n_labelled)}, "
                f"n_items={rounded(self.n_items)})")

    def _dict_content(self):
        content = super()._dict_content()
        low, high = self.labelled_only.interval(0.95)
        content.update(n_items=self.n_items, n_labelled=self.n_labelled,
                       labelled_only_width_95=_out(np.asarray(high) - np.asarray(low)))
        return content


def _is_missing(value):
    if value is None:
        return True
    if isinstance(value, float) and value != value:
        return True
    # pandas' NA and NaT, without importing pandas.
    return type(value).__name__ in ("NAType", "NaTType")


def missing_labels(y_true):
    """``(values, missing)``: the labels as an array and a boolean mask of the missing
    ones (NaN, None, pandas' NA, or masked), or ``(values, None)`` where none is."""
    if isinstance(y_true, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(y_true)
        values = np.asarray(y_true.data)
        if values.ndim != 1:
            return y_true, None
        return values, (mask if mask.any() else None)
    values = np.asarray(y_true)
    if values.ndim != 1:
        return values, None
    if values.dtype.kind == "f":
        mask = np.isnan(values)
    elif values.dtype.kind == "O":
        mask = np.fromiter((_is_missing(v) for v in values), dtype=bool, count=values.size)
    else:
        return values, None
    return values, (mask if mask.any() else None)


def refuse_missing(y_true):
    """Refuse gold labels with missing values when no proxy covers them, naming the count
    (arrays the library reads as NumPy arrays; others are checked when counted)."""
    if not (isinstance(y_true, (np.ndarray, list, tuple)) or hasattr(y_true, "iloc")):
        return
    try:
        _, missing = missing_labels(y_true)
    except (TypeError, ValueError):
        return
    if missing is not None:
        fail("y_true", "a gold label on every item, or proxy= (a second labeller's labels on "
             "every item) for items without one", y_true,
             shown=f"{int(missing.sum())} missing value(s) of {missing.shape[0]}")


def _labelled(values, mask):
    """The labelled values as an array of their own type (ints stay ints)."""
    kept = values[~mask]
    if kept.dtype.kind == "O":
        kept = np.asarray(kept.tolist())
    elif kept.dtype.kind == "f" and np.all(kept == np.round(kept)):
        kept = kept.astype(np.int64)
    return kept


def proxy_posterior(y_true, y_pred, proxy, *, metric, function, params, name, average,
                    labels, pos_label, sample_weight, lam, n_draws, random_state, missing,
                    labelled_only):
    """The `ProxyPosterior` of `metric` (see the module's docstring).

    `y_true` holds the gold labels with `missing` marking the unlabelled
    items; `labelled_only(y_true, y_pred, sample_weight)` is the posterior of
    the labelled items alone.
    """
    n = y_true.shape[0]
    proxy = np.asarray(proxy)
    if proxy.ndim != 1 or proxy.shape[0] != n:
        fail("proxy", f"the second labeller's label of every item, shape ({n},)", proxy,
             shown=f"shape {proxy.shape}")
    pred = np.asarray(y_pred)
    if pred.ndim != 1:
        fail("proxy", "None for multilabel targets (a second labeller of one label per item "
             "is supported)", proxy, error=TypeError, shown="a proxy")
    _, proxy_missing = missing_labels(proxy)
    if proxy_missing is not None:
        fail("proxy", "a label on every item (the second labeller covers them all)", proxy,
             shown=f"{int(proxy_missing.sum())} missing value(s)")
    labelled = ~missing
    if not labelled.any():
        fail("y_true", "at least one gold label (the proxy is calibrated on the labelled "
             "items)", y_true, shown=f"{n} missing values and no label")
    gold = _labelled(y_true, missing)
    weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    # The label set: the labelled gold labels and the predictions; the proxy's labels
    # must be among them (it guesses the gold label).
    # The labelled items' own checks (a binary average of two labels, pos_label among them).
    joint_codes(gold, [pred[labelled]], average=average, labels=labels, pos_label=pos_label,
                names=["y_true", "y_pred"])
    everything = joint_codes(np.concatenate([gold, pred]), [np.concatenate([gold, pred])],
                             average="macro" if average == "binary" else average,
                             labels=labels, names=["y_true", "y_pred"])
    try:
        inside = np.isin(proxy, everything.classes)
    except TypeError:
        inside = np.zeros(n, dtype=bool)
    if not inside.all():
        outside = proxy[~inside][:5].tolist()
        fail("proxy", f"labels among those of y_true and y_pred "
             f"{everything.classes[:10].tolist()}", proxy, shown=f"labels {outside}")
    filled = np.asarray(y_true, dtype=object).copy()
    filled[missing] = proxy[missing]
    filled[labelled] = gold.astype(object)
    filled = np.asarray(filled.tolist())
    joint = joint_codes(filled, [pred, proxy], average=average, labels=labels,
                        pos_label=pos_label, sample_weight=weight,
                        names=["y_true", "y_pred", "proxy"])
    if joint.kind == "multilabel":
        fail("proxy", "None for multilabel targets", proxy, error=TypeError, shown="a proxy")
    size = joint.classes.shape[0]
    g, y, q = joint.codes
    w = np.ones(n) if joint.weight is None else joint.weight
    strata = q * size + y
    n_strata = size * size
    all_items = np.bincount(strata, weights=w, minlength=n_strata)
    in_strata = np.bincount(g[labelled] * n_strata + strata[labelled], weights=w[labelled],
                            minlength=size * n_strata).reshape(size, n_strata)
    occupied = all_items > 0
    sampled = in_strata.sum(axis=0) > 0
    if np.count_nonzero(sampled) < 2 and np.count_nonzero(occupied) > 1:
        fail("y_true", "gold labels in at least two strata of (proxy, prediction) where the "
             "items fall in several (the gold labels are read within each stratum)", y_true,
             shown="every labelled item in one stratum")
    bare = occupied & ~sampled
    if bare.any():
        warn_user(f"{int(bare.sum())} (proxy, prediction) combination(s) hold items but no "
                  "gold label: the gold label there is the prior's guess (wide).  Label a "
                  "few items of each combination.")
    # The (gold, prediction) cell prior, split evenly over the proxy's values.
    d = label_concentration(size, lam)
    cell_prior = np.full((size, size), d / (size - 1) if size > 1 else 0.0)
    np.fill_diagonal(cell_prior, d)
    within = np.tile(cell_prior / size, (1, size))         # (gold, stratum): b_gs
    theta_alpha = in_strata + within
    pi_alpha = all_items + within.sum(axis=0)
    rng = check_random_state(random_state)
    chunk = max(1, _CHUNK_VALUES // (n_strata * size))
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    requested = joint.n_requested if joint.kind == "multiclass" else 1
    weights = None
    if average in ("weighted", "powers"):
        mean_table = _mean_table(pi_alpha, theta_alpha, size)
        weights = label_weights(_label_counts(mean_table * w.sum(), requested), average, name)
    parts = []
    for start in range(0, n_draws, chunk):
        draws = min(chunk, n_draws - start)
        share = rng.standard_gamma(pi_alpha, size=(draws, n_strata))
        share /= share.sum(axis=1, keepdims=True)
        theta = rng.standard_gamma(theta_alpha, size=(draws, size, n_strata))
        theta /= theta.sum(axis=1, keepdims=True)
        # p(gold, pred) = sum over proxies of pi_(proxy, pred) theta_(proxy, pred)(gold).
        table = (theta * share[:, None, :]).reshape(draws, size, size, size).sum(axis=2)
        parts.append(_table_metric(table, joint.kind, function, params, name, average,
                                   weights, requested, every))
    samples = np.concatenate(parts)
    bad = ~np.isfinite(samples)
    if bad.any():
        fail("metric", "a function of the four cells that is finite on every posterior draw",
             name or metric, shown=f"{int(bad.sum())} non-finite value(s)")
    sample_weight_labelled = None if sample_weight is None else weight[labelled]
    alone = labelled_only(gold, pred[labelled], sample_weight_labelled)
    return ProxyPosterior(samples, n_items=float(w.sum()), n_labelled=float(w[labelled].sum()),
                          labelled_only=alone)


def _mean_table(pi_alpha, theta_alpha, size):
    share = pi_alpha / pi_alpha.sum()
    theta = theta_alpha / theta_alpha.sum(axis=0, keepdims=True)
    return (theta * share).reshape(size, size, size).sum(axis=1)


def _label_counts(table, requested):
    """One-vs-rest cells of the first `requested` labels of a (gold, prediction) table."""
    tp = np.diagonal(table)
    fp = table.sum(axis=0) - tp
    fn = table.sum(axis=1) - tp
    tn = table.sum() - tp - fp - fn
    cut = slice(0, requested)
    return ConfusionCounts(tp[cut], fp[cut], fn[cut], tn[cut])


def _table_metric(table, kind, function, params, name, average, weights, requested, every):
    """The metric of draws of (gold, prediction) tables, shape (draws, K, K)."""
    with np.errstate(all="ignore"):
        if kind == "binary":
            # Code 0 is the positive label.
            return np.asarray(function(table[:, 0, 0], table[:, 1, 0], table[:, 0, 1],
                                       table[:, 1, 1], **params), dtype=float)
        tp = np.diagonal(table, axis1=1, axis2=2)
        fp = table.sum(axis=1) - tp
        fn = table.sum(axis=2) - tp
        tn = 1.0 - tp - fp - fn
        cells = tuple(np.maximum(c[:, :requested], 0.0) for c in (tp, fp, fn, tn))
        if average == "micro" and every and name == "error":
            return 1.0 - tp.sum(axis=1)
        return average_values(function, params, cells, average, weights,
                              share_of_right=every and average == "micro"
                              and name in SHARE_OF_RIGHT)
