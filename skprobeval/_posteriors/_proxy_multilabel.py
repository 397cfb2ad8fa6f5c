"""Multilabel targets with a second labeller: one double-sampling table per label.

Each label of a multilabel target is a binary question about every item, and
the second labeller answers each (a proxy indicator matrix of the same
shape).  Label ``l``'s (gold, prediction) table has the double-sampling
posterior of `ProxyTable`: strata (proxy, prediction) of label ``l`` from
every item, the gold answer within each from the labelled items.  As without
a proxy (the library's multilabel posteriors treat the labels' tables as
independent columns), the labels' tables are drawn independently and the
metric is averaged over them per draw: ``"micro"`` pools the cells,
``"macro"`` and ``"weighted"`` average the labels' values.

An item is labelled or not as a whole: its row of gold answers is complete
or entirely missing (NaN, None, ``pd.NA`` or masked).
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np

from .._core import check_random_state, check_sample_weight, fail, warn_user
from .._counting import ConfusionCounts, refuse_binary_multilabel
from .._metrics import label_weights
from ._joint import average_values
from ._proxy import BARE_WARNING, ProxyPosterior, ProxyTable

__all__ = ["multilabel_proxy_posterior"]

# Draws per label and pass (labels x draws x 8 values at once).
_CHUNK_VALUES = 2_000_000


def _entries_missing(values):
    """``(values, missing)`` of a 2-D array: its entries as floats where they can be, and
    the mask of missing ones."""
    if isinstance(values, np.ma.MaskedArray):
        return np.asarray(values.data), np.ma.getmaskarray(values)
    values = np.asarray(values)
    if values.dtype.kind == "O":
        flat = values.ravel()
        missing = np.fromiter((v is None or (isinstance(v, float) and np.isnan(v))
                               or type(v).__name__ in ("NAType", "NaTType") for v in flat),
                              dtype=bool, count=flat.size).reshape(values.shape)
        return values, missing
    if values.dtype.kind == "f":
        return values, np.isnan(values)
    return values, np.zeros(values.shape, dtype=bool)


def _indicator(values, mask, name, original):
    """0/1 integers of the unmasked entries of an indicator matrix, or an error."""
    kept = values[~mask] if mask is not None else values.ravel()
    try:
        numbers = np.asarray(kept.tolist() if kept.dtype.kind == "O" else kept, dtype=float)
    except (TypeError, ValueError):
        numbers = None
    if numbers is None or not np.isin(numbers, (0.0, 1.0)).all():
        shown = kept[:5].tolist() if numbers is None else \
            numbers[~np.isin(numbers, (0.0, 1.0))][:5].tolist()
        fail(name, "a multilabel indicator matrix of 0 and 1", original,
             shown=f"values {shown}")
    out = np.zeros(values.shape, dtype=np.intp)
    if mask is None:
        out[...] = numbers.reshape(values.shape)
    else:
        out[~mask] = numbers
    return out


def multilabel_proxy_posterior(y_true, y_pred, proxy, *, function, params, name, average,
                               labels, sample_weight, lam, n_draws, random_state,
                               labelled_only):
    """The `ProxyPosterior` of a metric of a multilabel target (see the module).

    `labelled_only(gold, y_pred, sample_weight)` is the posterior of the labelled
    items alone.
    """
    values, missing = _entries_missing(y_true)
    pred = np.asarray(y_pred)
    proxy_values, proxy_missing = _entries_missing(proxy)
    if values.ndim != 2 or pred.shape != values.shape:
        fail("y_true", f"a multilabel indicator matrix of the predictions' shape {pred.shape}, "
             "with missing rows for the unlabelled items", y_true,
             shown=f"shape {np.shape(values)}")
    n, n_labels = values.shape
    if n_labels == 0:
        fail("y_true", "a multilabel indicator matrix of at least one label column", y_true,
             shown="shape (n, 0)")
    if proxy_values.shape != values.shape:
        fail("proxy", "the second labeller's indicator matrix of every item, shape "
             f"{(n, n_labels)}", proxy, shown=f"shape {proxy_values.shape}")
    if proxy_missing.any():
        fail("proxy", "a label on every item (the second labeller covers them all)", proxy,
             shown=f"{int(proxy_missing.sum())} missing value(s)")
    unlabelled = missing.all(axis=1)
    partial = missing.any(axis=1) & ~unlabelled
    if partial.any():
        fail("y_true", "rows that are complete or entirely missing (an item is labelled or "
             "not as a whole)", y_true, shown=f"{int(partial.sum())} partly missing row(s)")
    labelled = ~unlabelled
    if not labelled.any():
        fail("y_true", "at least one gold label (the proxy is calibrated on the labelled "
             "items)", y_true, shown=f"{n} missing rows and no label")
    refuse_binary_multilabel(average)
    if average == "samples":
        fail("average", "'micro', 'macro', 'weighted' or None with `proxy` (the per-item "
             "average needs every item's gold labels)", average)
    gold = _indicator(values, missing, "y_true", y_true)
    pred = _indicator(pred, None, "y_pred", y_pred)
    proxy_codes = _indicator(proxy_values, None, "proxy", proxy)
    columns = np.arange(n_labels)
    if labels is not None:
        chosen = np.asarray(labels).ravel()
        if chosen.dtype.kind not in "iu" or chosen.size == 0 or not np.all(
                (chosen >= 0) & (chosen < n_labels)) or np.unique(chosen).size != chosen.size:
            fail("labels", f"distinct column indices of the multilabel target, in "
                 f"[0, {n_labels})", labels)
        columns = chosen
    weight = check_sample_weight(sample_weight, n)
    weight = np.ones(n) if weight is None else weight
    if not (weight[labelled] > 0).any():
        fail("sample_weight", "positive on some labelled item", sample_weight,
             shown="a weight of 0 on every labelled item")
    # Code 0 is the positive answer, as in the binary tables.
    classes = np.array([1, 0])
    tables, bare = [], 0
    for column in columns:
        codes = np.vstack([1 - gold[:, column], 1 - pred[:, column],
                           1 - proxy_codes[:, column]])
        table = ProxyTable(SimpleNamespace(codes=codes, classes=classes), labelled, weight,
                           1, lam)
        if table.single_stratum:
            fail("y_true", "gold labels in at least two strata of (proxy, prediction) of "
                 "every label (the gold answers are read within each stratum)", y_true,
                 shown=f"every labelled item in one stratum of label {int(column)}")
        bare += table.bare
        tables.append(table)
    if bare:
        warn_user(f"{bare} {BARE_WARNING}")
    rng = check_random_state(random_state)
    n_items = float(weight.sum())
    weights = None
    if average in ("weighted", "powers"):
        means = np.stack([t.mean_table() for t in tables]) * n_items
        counts = ConfusionCounts(means[:, 0, 0], means[:, 1, 0], means[:, 0, 1],
                                 means[:, 1, 1])
        weights = label_weights(counts, average, name)
    chunk = max(1, _CHUNK_VALUES // (8 * len(tables)))
    parts = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for start in range(0, n_draws, chunk):
            count = min(chunk, n_draws - start)
            draws = np.stack([next(iter(t.draws(count, rng))) for t in tables], axis=1)
            cells = (draws[:, :, 0, 0], draws[:, :, 1, 0], draws[:, :, 0, 1], draws[:, :, 1, 1])
            parts.append(average_values(function, params, cells, average, weights))
    samples = np.concatenate(parts)
    if not np.isfinite(samples).all():
        fail("metric", "a function of the four cells that is finite on every posterior draw",
             name, shown=f"{int((~np.isfinite(samples)).sum())} non-finite value(s)")
    kept_weight = None if sample_weight is None else weight[labelled]
    alone = labelled_only(gold[labelled], pred[labelled], kept_weight)
    return ProxyPosterior(samples, n_items=n_items, n_labelled=float(weight[labelled].sum()),
                          labelled_only=alone)
