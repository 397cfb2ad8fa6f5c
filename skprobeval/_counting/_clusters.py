"""Clusters of test items: the ids of `groups=` checked and encoded.

Items that come in clusters (several images of one patient, sentences of one
document) are drawn from the population cluster by cluster.  `cluster_codes`
turns one cluster id per item into each item's cluster index; the posteriors
above then weigh whole clusters (the theory page ``docs/theory/clusters.rst``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core import fail, to_host

__all__ = ["ClusterCodes", "cluster_codes"]


@dataclass(frozen=True, slots=True)
class ClusterCodes:
    """Each item's cluster as an index, with the clusters' sizes (private).

    Attributes
    ----------
    codes : ndarray of shape (n_items,)
        Cluster index of each item, 0 to ``n_clusters - 1`` in the sorted
        order of the ids.
    n_clusters : int
        Number of clusters (at least 2).
    sizes : ndarray of shape (n_clusters,)
        Items in each cluster.
    """

    codes: np.ndarray
    n_clusters: int
    sizes: np.ndarray
    #: Whether every cluster holds at most one item of positive weight, every weight 1:
    #: then the clusters change nothing.  (An item of weight 3 alone in its cluster is
    #: three items of one cluster, one draw: not as three independent items.)
    singletons: bool = False

    def subset(self, mask, weight=None):
        """The clusters of the items where `mask` holds, re-indexed (None if fewer than 2);
        `weight` the kept items' weights."""
        codes = self.codes[mask]
        used, codes = np.unique(codes, return_inverse=True)
        if used.shape[0] < 2:
            return None
        codes = codes.reshape(-1).astype(np.intp)
        return _encoded(codes, int(used.shape[0]), weight)


def _encoded(codes, n_clusters, weight):
    """`ClusterCodes` of cluster indices, with `singletons` judged on the weights."""
    sizes = np.bincount(codes, minlength=n_clusters)
    if weight is None:
        singletons = bool(sizes.max() == 1)
    else:
        weight = np.asarray(weight, dtype=float)
        held = weight > 0
        singletons = bool(np.all(weight[held] == 1.0) and np.bincount(
            codes[held], minlength=n_clusters).max(initial=0) <= 1)
    return ClusterCodes(codes, n_clusters, sizes, singletons)


def _missing(array):
    """Boolean mask of missing ids: None, NaN, NaT or pandas' NA."""
    if array.dtype.kind in "fc":
        return np.isnan(array)
    if array.dtype.kind == "M" or array.dtype.kind == "m":
        return np.isnat(array)
    if array.dtype.kind != "O":
        return np.zeros(array.shape[0], dtype=bool)
    out = np.zeros(array.shape[0], dtype=bool)
    for i, value in enumerate(array):
        if value is None or (isinstance(value, float) and value != value):
            out[i] = True
        else:
            try:
                out[i] = bool(value != value)
            except (TypeError, ValueError):       # pandas.NA: its truth value is ambiguous
                out[i] = True
    return out


def cluster_codes(groups, n_items, *, name="groups", weight=None):
    """Check one cluster id per item and encode the ids.

    Parameters
    ----------
    groups : array-like of shape (n_items,)
        Cluster ids: any sortable labels (numbers, strings), as
        scikit-learn's ``groups`` of its group splitters.
    n_items : int
        Number of items the ids must match.
    name : str, default="groups"
        Argument named in errors.
    weight : array-like of shape (n_items,), default=None
        The items' checked weights: clusters of one item are the items
        without clusters only where every weight is 1 (or 0: no item).

    Returns
    -------
    ClusterCodes
    """
    groups = to_host(groups, name)
    if hasattr(groups, "to_numpy"):           # pandas Series / Index, Polars Series
        groups = groups.to_numpy()
    array = np.asarray(groups)
    if array.dtype.kind == "O" and array.ndim == 2 and array.shape[1:] == (1,):
        array = array[:, 0]
    if array.ndim != 1:
        fail(name, "a 1-d array of cluster ids, one per item", groups,
             shown=f"shape {array.shape}")
    if array.shape[0] != n_items:
        fail(name, f"one cluster id per item ({n_items} items)", groups,
             shown=f"length {array.shape[0]}")
    missing = _missing(array)
    if missing.any():
        fail(name, "a cluster id for every item (no missing values)", groups,
             shown=f"{int(missing.sum())} missing value(s)")
    try:
        ids, codes = np.unique(array, return_inverse=True)
    except TypeError:
        fail(name, "sortable cluster ids of one kind (all numbers or all strings)", groups,
             error=TypeError)
    if ids.shape[0] < 2:
        fail(name, "ids of at least two clusters (one cluster is one draw from the "
             "population: its uncertainty cannot be estimated)", groups,
             shown=f"{ids.shape[0]} cluster(s)")
    codes = codes.reshape(-1).astype(np.intp)
    return _encoded(codes, int(ids.shape[0]), weight)
