"""The inputs of the per-group posteriors: metrics, sensitive features, groups.

`PosteriorMetricFrame` (in ``_groups.py``) reads its metrics and sensitive
features through these checks, with fairlearn's naming and order of the
groups.
"""

from __future__ import annotations

import numpy as np

from .._core import fail, to_host
from .._metrics import get_metric

__all__ = ["check_metrics", "features_on_host", "group_codes", "kept_clusters",
           "sensitive_columns"]


def check_metrics(metrics):
    """``(single, {column: MetricSpec})`` from a name, a list of names or a dict."""
    if isinstance(metrics, str) or hasattr(metrics, "function"):
        spec = get_metric(metrics)
        return True, {spec.name: spec}
    if isinstance(metrics, dict):
        items = list(metrics.items())
    elif isinstance(metrics, (list, tuple)):
        items = [(name if isinstance(name, str) else getattr(name, "name", name), name)
                 for name in metrics]
    else:
        fail("metrics", "a registered metric name, a list of names or a dict of column "
             "name to metric name (see available_metrics())", metrics, error=TypeError)
    if not items:
        fail("metrics", "at least one metric name", metrics)
    out = {}
    for column, name in items:
        if callable(name) and not hasattr(name, "function"):
            fail("metrics", "metric names (see available_metrics()): a posterior needs the "
                 "metric's formula on the four cells, not a function of labels", name,
                 error=TypeError)
        spec = get_metric(name)
        out[column] = spec
    if len(out) != len(items):
        fail("metrics", "distinct column names", metrics)
    return False, out


def features_on_host(value):
    """Sensitive features as given, their arrays on the host (read once)."""
    if isinstance(value, dict):
        return {k: to_host(v, f"sensitive_features[{k!r}]") for k, v in value.items()}
    return to_host(value, "sensitive_features")


def sensitive_columns(sensitive_features, n):
    """``[(name, values)]`` of the sensitive features, fairlearn's naming."""
    import pandas as pd

    value = features_on_host(sensitive_features)
    if isinstance(value, pd.DataFrame):
        columns = [(str(name) if not isinstance(name, str) else name, value[name].to_numpy())
                   for name in value.columns]
    elif isinstance(value, dict):
        columns = [(name, np.asarray(values)) for name, values in value.items()]
    elif isinstance(value, pd.Series):
        columns = [(value.name if value.name is not None else "sensitive_feature_0",
                    value.to_numpy())]
    else:
        try:
            array = np.asarray(value)
        except ValueError:
            fail("sensitive_features", "an array-like, a DataFrame or a dict of arrays of one "
                 "length", value, shown="a ragged sequence")
        if array.ndim == 2:
            columns = [(f"sensitive_feature_{i}", array[:, i]) for i in range(array.shape[1])]
        elif array.ndim == 1:
            columns = [("sensitive_feature_0", array)]
        else:
            fail("sensitive_features", "1-d (one feature) or 2-d (one column per feature)",
                 value, shown=f"shape {array.shape}")
    if not columns:
        fail("sensitive_features", "at least one feature", value)
    out = []
    for name, values in columns:
        values = np.asarray(values)
        if values.ndim != 1:
            fail("sensitive_features", "1-d columns", value,
                 shown=f"column {name!r} of shape {values.shape}")
        if values.shape[0] != n:
            raise ValueError(f"`sensitive_features` and `y_true` must have one length; got "
                             f"{values.shape[0]} (column {name!r}) and {n}.")
        if np.any(pd.isna(values)):
            fail("sensitive_features", "free of missing values (NaN, None)", value,
                 shown=f"{int(np.sum(pd.isna(values)))} in column {name!r}")
        out.append((name, values))
    return out


def group_codes(columns):
    """Each item's group, the groups' keys and the pandas index of the groups.

    The groups are the combinations of the features' sorted values that
    occur, in lexicographic order (fairlearn's order; fairlearn also lists
    the combinations with no item, as NaN rows, which here are left out).
    """
    import pandas as pd

    codes, levels = [], []
    for name, values in columns:
        try:
            unique, inverse = np.unique(values, return_inverse=True)
        except TypeError:
            fail("sensitive_features", "columns of one sortable kind of value", values,
                 shown=f"mixed kinds in column {name!r}")
        codes.append(inverse.ravel())
        levels.append(unique.tolist())
    sizes = tuple(len(level) for level in levels)
    combined = np.ravel_multi_index(codes, sizes)
    present, group = np.unique(combined, return_inverse=True)
    names = [name for name, _ in columns]
    if len(columns) == 1:
        keys = [levels[0][i] for i in present.tolist()]
        index = pd.Index(keys, name=names[0])
    else:
        positions = np.unravel_index(present, sizes)
        keys = [tuple(level[p] for level, p in zip(levels, row))
                for row in zip(*(pos.tolist() for pos in positions))]
        index = pd.MultiIndex.from_tuples(keys, names=names)
    return group.ravel(), keys, index


def kept_clusters(joint, groups):
    """The clusters of the items of positive weight, or None (no `groups`, or every
    cluster one item: the frame without clusters)."""
    clusters = joint.clusters
    if clusters is None:
        return None
    if joint.weight is not None and not np.all(joint.weight > 0):
        clusters = clusters.subset(joint.weight > 0)
        if clusters is None:
            fail("groups", "ids of at least two clusters among the items of positive weight",
                 groups, shown="one cluster")
    return None if clusters.singletons else clusters
