"""Clustered test items (``groups=``) in the reports' cross-validation.

As scikit-learn's ``cross_validate(..., groups=)``, the groups go to the
splitter, and no cluster may be split between training and test rows (its
items would then be tested by a model fitted on its other items).
scikit-learn's `check_cv` turns an int into (stratified) ``KFold`` whatever
the groups; an int `cv` with groups here gives ``StratifiedGroupKFold``
(``GroupKFold`` for multilabel targets, which cannot be stratified), shuffled
by `random_state` as the reports' default splitters are.  The pooled
out-of-fold predictions are then drawn cluster by cluster
(``_report_clusters.py``).
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import GroupKFold, KFold, StratifiedGroupKFold, StratifiedKFold

from .._core import fail, to_host
from .._counting import cluster_codes, frame_column

__all__ = ["check_group_splits", "default_splitter", "item_clusters"]


def item_clusters(groups, n_items, data=None):
    """Each item's cluster index (`ClusterCodes.codes`) of `groups`, or None.

    `groups` is one id per item, or with `data` a column name.
    """
    if groups is None:
        return None
    if isinstance(groups, str):
        if data is None:
            fail("groups", "an array (a column name needs `data=`, the DataFrame it names)",
                 groups, error=TypeError)
        groups = frame_column(data, groups, "groups")
    return cluster_codes(to_host(groups, "groups"), n_items).codes


def default_splitter(n_splits, *, multilabel, grouped, random_state):
    """The splitter an int `cv` stands for: stratified unless multilabel, by groups
    where there are groups, shuffled by `random_state`."""
    if not grouped:
        splitter_class = KFold if multilabel else StratifiedKFold
        return splitter_class(n_splits=n_splits, shuffle=True, random_state=random_state)
    if not multilabel:
        return StratifiedGroupKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    try:
        return GroupKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    except TypeError:       # scikit-learn < 1.6: GroupKFold does not shuffle
        return GroupKFold(n_splits=n_splits)


def check_group_splits(splits, codes, cv):
    """Refuse splits that put items of one cluster on both sides of a split.

    `splits` are ``(train, test)`` index pairs (a None train: unknown, not
    checked), `codes` each item's cluster index, `cv` what the splits came from.
    """
    for k, (train, test) in enumerate(splits):
        if train is None:
            continue
        shared = np.intersect1d(codes[np.asarray(train, dtype=np.intp)],
                                codes[np.asarray(test, dtype=np.intp)])
        if shared.size:
            fail("cv", "splits that keep every cluster of `groups` on one side (a group "
                 "splitter such as GroupKFold or StratifiedGroupKFold)", cv,
                 shown=f"split {k} with {shared.size} cluster(s) in both its training "
                       "and its test rows")
