"""Confusion counts: the value objects every number is computed from.

Arrays of labels enter only through the ``from_predictions`` constructors of
`ConfusionCounts` and `PairedCounts` and through `joint_codes` (the joint
encoding of a truth and several predictions), which validate and tally them
with `_labels.py`.  Every metric, posterior and comparison in skprobeval is
computed from the counts built here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._core import check_count_array, check_sample_weight, fail, format_array, to_host
from ._clusters import ClusterCodes, cluster_codes
from ._dask import dask_indicator_sums, dask_paired, dask_tally, is_dask
from ._data import resolve_columns
from ._labels import (
    _array_kind,
    _check_average,
    _encode,
    _fast_path_size,
    _indicator_columns,
    _label_in,
    _label_kind,
    _positions,
    _select_labels,
    check_labels_argument,
    check_pair,
    mixed_kinds_error,
    plain_labels,
    tally_labels,
)

__all__ = ["ConfusionCounts", "JointCodes", "PairedCounts", "joint_codes", "paired_items"]

def _check_same_labels(first, second):
    """Per-label counts pool only label by label: the same labels in the same order."""
    if first is not None and second is not None and not np.array_equal(first, second):
        raise ValueError("Cannot pool per-label counts with different labels: "
                         f"{first.tolist()!r} and {second.tolist()!r}.")


@dataclass(frozen=True, slots=True)
class JointCodes:
    """Labels of a truth and several predictions, encoded for joint tables.

    Private: the comparison layer builds its K x K (one system) and K x K x K
    (two systems) Dirichlet tables from these codes.

    Attributes
    ----------
    kind : {"binary", "multiclass", "multilabel"}
    codes : list of ndarray
        ``"binary"`` / ``"multiclass"``: one int array of shape (n,) per input
        (truth first), each item's label as an index into `classes`.
        ``"multilabel"``: one bool array of shape (n, L) per input.
    classes : ndarray
        The labels indexing the codes, requested labels first (binary: the
        positive label, then the rest; multilabel: the column indices).
    n_requested : int
        How many leading `classes` the averages run over.
    weight : ndarray of shape (n,) or None
        Validated sample weights.
    clusters : ClusterCodes or None
        Each item's cluster (`groups=`), or None: every item its own.
    """

    kind: str
    codes: list
    classes: np.ndarray
    n_requested: int
    weight: np.ndarray | None
    clusters: ClusterCodes | None = None

    def with_codes(self, codes, *, classes=None, kind=None):
        """The same items (weights, clusters) with other codes."""
        return JointCodes(self.kind if kind is None else kind, codes,
                          self.classes if classes is None else classes, self.n_requested,
                          self.weight, self.clusters)

    def with_clusters(self, clusters):
        """The same codes with other clusters (None: every item its own)."""
        return JointCodes(self.kind, self.codes, self.classes, self.n_requested, self.weight,
                          clusters)

    def subset(self, mask):
        """The items where `mask` holds (their weights and clusters with them)."""
        weight = None if self.weight is None else self.weight[mask]
        clusters = None if self.clusters is None else self.clusters.subset(mask, weight)
        return JointCodes(self.kind, [c[mask] for c in self.codes], self.classes,
                          self.n_requested, weight, clusters)

    @property
    def n_classes(self):
        """Labels in the joint table (2 for binary data)."""
        return 2 if self.kind == "binary" else int(self.classes.shape[0])

    def counts(self, system=1):
        """One-vs-rest counts of the requested labels for one prediction (1 = the first).

        Returns
        -------
        ConfusionCounts
            0-d cells for binary data, ``(n_requested,)`` cells otherwise.
        """
        truth, pred = self.codes[0], self.codes[system]
        weight = self.weight
        n_req = self.n_requested
        if self.kind == "multilabel":
            truth, pred = truth[:, :n_req], pred[:, :n_req]
            w = np.ones(truth.shape[0]) if weight is None else weight
            tp = w @ (truth & pred)
            fp = w @ (~truth & pred)
            fn = w @ (truth & ~pred)
            tn = w @ (~truth & ~pred)
            return ConfusionCounts(tp, fp, fn, tn, labels=self.classes[:n_req])
        size = self.n_classes
        right = truth == pred
        diag = np.bincount(truth[right], weights=None if weight is None else weight[right],
                           minlength=size)[:n_req].astype(np.float64)
        row = np.bincount(truth, weights=weight, minlength=size).astype(np.float64)
        # The total by the cells' own route: an all-positive label has tn exactly 0.
        total = float(row.sum())
        row = row[:n_req]
        col = np.bincount(pred, weights=weight, minlength=size)[:n_req].astype(np.float64)
        fp, fn = col - diag, row - diag
        tn = np.maximum(total - diag - fp - fn, 0.0)
        if self.kind == "binary":
            return ConfusionCounts(diag[0], fp[0], fn[0], tn[0])
        return ConfusionCounts(diag, fp, fn, tn, labels=self.classes[:n_req])

    def right(self, system=1):
        """Whether each item is right (multilabel: every label right), as bools."""
        truth, pred = self.codes[0], self.codes[system]
        if self.kind == "multilabel":
            n_req = self.n_requested
            return np.all(truth[:, :n_req] == pred[:, :n_req], axis=1)
        return truth == pred


def paired_items(y_true, y_pred_first, y_pred_second, sample_weight=None):
    """Item by item, whether the first system alone is right and the second alone.

    Returns ``(first, second, weight, labels)``: bool arrays of shape (n,) for
    1-d labels and (n, L) for indicator matrices (one comparison per column,
    `labels` their indices; None for 1-d labels), and the checked weights.
    """
    y_true_, y_first, first_ml = check_pair(y_true, y_pred_first, "y_true", "y_pred_first")
    _, y_second, _ = check_pair(y_true, y_pred_second, "y_true", "y_pred_second")
    weight = check_sample_weight(sample_weight, y_true_.shape[0])
    if first_ml:
        truth = _dense_indicator(y_true_)
        right_first = _dense_indicator(y_first) == truth
        right_second = _dense_indicator(y_second) == truth
        labels = np.arange(truth.shape[1])
    else:
        kinds = {_array_kind(y) for y in (y_true_, y_first, y_second)}
        if len(kinds) > 1:
            raise mixed_kinds_error([y_true_, y_first, y_second],
                                    ["`y_true`", "`y_pred_first`", "`y_pred_second`"])
        right_first = y_first == y_true_
        right_second = y_second == y_true_
        labels = None
    return right_first & ~right_second, right_second & ~right_first, weight, labels


def _dense_indicator(y):
    return np.asarray(y.toarray() if sp.issparse(y) else y, dtype=bool)


def joint_codes(y_true, y_preds, *, average, labels=None, pos_label=1, sample_weight=None,
                names=None, labels_present=False, groups=None):
    """Validate a truth and predictions together and encode their labels.

    ``average="binary"`` needs at most two labels with `pos_label` among
    them (or one label, as scikit-learn); any other average takes
    multiclass or multilabel data, and `labels` selects and orders the
    labels averaged over.  With ``labels_present=True`` they must occur in
    the data; otherwise an absent label is a class with no items.
    `groups` holds each item's cluster id (`cluster_codes`), or None.
    """
    codes = _joint_codes(y_true, y_preds, average=average, labels=labels, pos_label=pos_label,
                         sample_weight=sample_weight, names=names,
                         labels_present=labels_present)
    if groups is None:
        return codes
    clusters = cluster_codes(groups, codes.codes[0].shape[0], weight=codes.weight)
    return JointCodes(codes.kind, codes.codes, codes.classes, codes.n_requested, codes.weight,
                      clusters)


def _joint_codes(y_true, y_preds, *, average, labels, pos_label, sample_weight, names,
                 labels_present):
    names = names or ["y_true"] + [f"y_pred_{i}" for i in range(len(y_preds))]
    y_true = to_host(y_true, names[0])      # read once, checked with each prediction
    checked = [check_pair(y_true, y_pred, names[0], name)
               for y_pred, name in zip(y_preds, names[1:])]
    truth = checked[0][0]
    preds = [pred for _, pred, _ in checked]
    multilabel = checked[0][2]
    weight = check_sample_weight(sample_weight, truth.shape[0])
    if multilabel:
        refuse_binary_multilabel(average)
        dense = [_dense_indicator(y) for y in [truth, *preds]]
        n_labels = dense[0].shape[1]
        columns = np.arange(n_labels)
        if labels is None:
            requested = columns
        else:
            requested = check_labels_argument(labels, columns)
            if requested.dtype.kind not in "iu" or np.any(
                    (requested < 0) | (requested >= n_labels)):
                fail("labels", f"column indices of the indicator matrix (0 to {n_labels - 1})",
                     labels)
        order = np.concatenate([requested, np.setdiff1d(columns, requested)])
        return JointCodes("multilabel", [d[:, order] for d in dense], order,
                          int(requested.shape[0]), weight)
    arrays = [truth, *preds]
    kinds = {_array_kind(y) for y in arrays}
    if len(kinds) > 1:
        raise mixed_kinds_error(arrays, names)
    everything = np.concatenate(arrays)
    size = _fast_path_size(everything, everything)
    if size is not None:
        codes_all, classes = everything.astype(np.intp), np.arange(size)
        if everything.dtype.kind == "b":
            classes = np.array([False, True])
        seen = np.bincount(codes_all, minlength=size) > 0
        keep = np.flatnonzero(seen)
        remap = np.full(size, -1, dtype=np.intp)
        remap[keep] = np.arange(keep.shape[0])
        codes_all, classes = remap[codes_all], classes[keep]
    else:
        codes_all, _, classes = _encode(everything, everything[:1])
    n = truth.shape[0]
    codes = [codes_all[i * n:(i + 1) * n] for i in range(len(arrays))]
    if average == "binary":
        if classes.shape[0] > 2:
            _refuse_binary_multiclass(classes)
        found = _label_in(pos_label, classes)
        if not found and classes.shape[0] == 2:
            fail("pos_label", f"one of the labels {plain_labels(classes)}", pos_label)
        if _label_kind(np.asarray([pos_label])) != _label_kind(classes):
            fail("pos_label", f"a label of the data's kind ({_label_kind(classes)})",
                 pos_label)
        # As in scikit-learn, a positive label absent from one-class data makes
        # every item a negative.
        positive = int(np.searchsorted(classes, pos_label)) if found else -1
        binary = [np.where(code == positive, 0, 1).astype(np.intp) for code in codes]
        out = np.asarray([pos_label, classes[0] if not found or classes.shape[0] == 1
                          else classes[1 - positive]], dtype=object)
        return JointCodes("binary", binary, out, 1, weight)
    if labels is None:
        return JointCodes("multiclass", codes, classes, int(classes.shape[0]), weight)
    requested = check_labels_argument(labels, classes)
    positions, found = _positions(classes, requested)
    if not np.all(found):
        if labels_present:
            missing = plain_labels(requested[~found])
            fail("labels", f"labels that occur in the data {plain_labels(classes[:10])}"
                 f"{' ...' if classes.shape[0] > 10 else ''}", labels,
                 shown=f"{missing} absent")
        # An absent label is a class with no items (an all-negative table).
        positions = positions.copy()
        positions[~found] = classes.shape[0] + np.arange(int(np.sum(~found)))
        classes = np.concatenate([classes, requested[~found]])
    rest = np.setdiff1d(np.arange(classes.shape[0]), positions)
    order = np.concatenate([positions, rest])
    inverse = np.empty_like(order)
    inverse[order] = np.arange(order.shape[0])
    return JointCodes("multiclass", [inverse[code] for code in codes], classes[order],
                      int(requested.shape[0]), weight)


# ---------------------------------------------------------------------------
# Value objects
# ---------------------------------------------------------------------------


def refuse_binary_multilabel(average):
    """The one refusal of ``average="binary"`` for multilabel targets, in every route."""
    if average == "binary":
        fail("average", "'micro', 'macro', 'weighted' or None for multilabel targets "
             "('binary' compares one positive class)", average)


def _refuse_binary_multiclass(classes):
    """The one refusal of ``average="binary"`` for more than two labels, in every route."""
    fail("average", "'micro', 'macro', 'weighted' or None for multiclass targets "
         "('binary' compares one positive class)", "binary",
         shown=f"'binary' with {classes.shape[0]} labels "
               f"{plain_labels(classes[:6])}{' ...' if classes.shape[0] > 6 else ''}")


def positive_position(labels, pos_label):
    """Where `pos_label` is among the two labels of a 2 x 2 table: the one rule of every
    entry point that takes a 2 x 2 matrix with labels (scikit-learn's ``pos_label=1``).

    Never the last label by default: labels without `pos_label` (``['a', 'b']``) are
    refused, naming both."""
    plain = plain_labels(np.asarray(labels))
    for position, label in enumerate(plain):
        if _label_in(pos_label, [label]):
            return position
    fail("pos_label", f"one of the labels {plain}", pos_label)


def _frozen(array):
    array = np.array(array, dtype=np.float64)
    array.setflags(write=False)
    return array


@dataclass(frozen=True, slots=True, eq=False)
class ConfusionCounts:
    """Confusion counts of one or more binary tables.

    The four cells are float64 arrays of one common shape: 0-d for a single
    table, ``(K,)`` for one one-vs-rest table per label.  Counts may be
    fractional (weighted).  Every metric, posterior and comparison of
    skprobeval is computed from these counts.

    Parameters
    ----------
    tp, fp, fn, tn : array-like of float
        True positives, false positives, false negatives and true negatives,
        **in this order** (the order of the names).  Finite and non-negative;
        broadcast to one common shape.  Weighted counts are fractional: a
        sample weight acts as a count, so an item of weight 10 is evidence
        of ten items.
    labels : array-like of shape (K,), default=None
        The label of each table, for per-label counts.

    Warnings
    --------
    scikit-learn's ``confusion_matrix(y_true, y_pred).ravel()`` reads
    ``tn, fp, fn, tp``: passing it positionally, ``ConfusionCounts(*cm.ravel())``,
    swaps TP and TN.  Use ``ConfusionCounts.from_confusion_matrix(cm,
    average="binary")``, or name the cells: ``ConfusionCounts(tp=..., fp=...,
    fn=..., tn=...)``.

    Attributes
    ----------
    n : ndarray
        Total count ``tp + fp + fn + tn`` of each table.
    prevalence : ndarray
        Share of positives ``(tp + fn) / n`` of each table.

    See Also
    --------
    PairedCounts : Counts for comparing two systems on the same items.
    sklearn.metrics.multilabel_confusion_matrix : The same tables as a
        ``(K, 2, 2)`` array ``[[tn, fp], [fn, tp]]``.

    Examples
    --------
    >>> from skprobeval import ConfusionCounts
    >>> counts = ConfusionCounts.from_predictions([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    >>> counts
    ConfusionCounts(tp=2, fp=0, fn=1, tn=2)
    >>> float(counts.n), float(counts.prevalence)
    (5.0, 0.6)
    >>> per_label = ConfusionCounts.from_predictions(
    ...     ["cat", "dog", "dog", "bird"], ["cat", "dog", "cat", "bird"], average=None)
    >>> per_label
    ConfusionCounts(labels=['bird', 'cat', 'dog'], tp=[1, 1, 1], fp=[0, 1, 0], fn=[0, 0, 1], tn=[3,
    2, 2])
    >>> per_label.sum()
    ConfusionCounts(tp=3, fp=1, fn=1, tn=7)

    From scikit-learn's confusion matrix (rows true, columns predicted):

    >>> from sklearn.metrics import confusion_matrix
    >>> cm = confusion_matrix([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    >>> ConfusionCounts.from_confusion_matrix(cm, average="binary")
    ConfusionCounts(tp=2, fp=0, fn=1, tn=2)
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    labels: np.ndarray | None = None

    def __post_init__(self):
        cells = [check_count_array(getattr(self, name), name) for name in ("tp", "fp", "fn", "tn")]
        try:
            cells = np.broadcast_arrays(*cells)
        except ValueError:
            shapes = ", ".join(str(np.shape(c)) for c in cells)
            raise ValueError(
                f"`tp`, `fp`, `fn` and `tn` must have one common shape; got {shapes}."
            ) from None
        if cells[0].ndim > 1:
            fail("tp", "0-d (one table) or 1-d (one table per label)", cells[0],
                 shown=f"shape {cells[0].shape}")
        for name, cell in zip(("tp", "fp", "fn", "tn"), cells):
            object.__setattr__(self, name, _frozen(cell))
        if self.labels is not None:
            labels = np.asarray(to_host(self.labels, "labels"))
            if labels.shape != self.tp.shape or labels.ndim != 1:
                fail("labels", f"an array of shape {self.tp.shape} (one label per table)",
                     self.labels)
            labels = labels.copy()
            labels.setflags(write=False)
            object.__setattr__(self, "labels", labels)

    # -- constructors -----------------------------------------------------

    @classmethod
    def from_predictions(cls, y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                         sample_weight=None, data=None):
        """Count a binary, multiclass or multilabel prediction.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
            True labels, or a label indicator matrix (multilabel).  Every
            array-like here may be a NumPy, pandas or Dask array, or any DLPack
            or array-API array (PyTorch, CuPy, JAX; CPU or GPU), copied to the
            host once.
        y_pred : array-like of the same shape as `y_true`
            Predicted labels or indicator matrix.
        labels : array-like of shape (K,), default=None
            Labels to report, in this order, when ``average`` is not
            ``"binary"``.  Labels absent from the data give all-negative
            tables.  By default, the sorted labels present in either array;
            for multilabel input, the column indices.
        pos_label : int, float, bool or str, default=1
            The positive class when ``average="binary"``; ignored otherwise.
        average : {"binary", "micro"} or None, default="binary"
            ``"binary"``: the table of `pos_label` (binary data only).
            ``None``: one one-vs-rest table per label (one per column for
            multilabel input).  ``"micro"``: those tables pooled into one.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; the counts are then weighted sums.
        data : DataFrame, default=None
            A pandas, Dask or Polars DataFrame, a pyarrow Table or a dict of
            columns, in which `y_true`, `y_pred` and `sample_weight` may be
            column names (seaborn's ``data=`` convention).  A Dask DataFrame
            is read once, partition by partition, and never loaded.

        Returns
        -------
        ConfusionCounts
            0-d cells for ``"binary"`` and ``"micro"``, ``(K,)`` cells for
            ``None``.

        Notes
        -----
        Integer labels already in ``0..K-1`` (and booleans) are counted with a
        single ``np.bincount`` of the joint code, in O(n) time with no sort.
        Object arrays of strings (as read from text, or from a pandas Series)
        are encoded by hashing (``pandas.factorize``), sorting only their
        distinct labels; other labels by binary search against their sorted
        set.  The tables equal ``sklearn.metrics.multilabel_confusion_matrix``,
        labels in the same (sorted) order.

        Examples
        --------
        >>> from skprobeval import ConfusionCounts
        >>> y_true = [2, 0, 2, 2, 0, 1]
        >>> y_pred = [0, 0, 2, 2, 0, 2]
        >>> ConfusionCounts.from_predictions(y_true, y_pred, average=None)
        ConfusionCounts(labels=[0, 1, 2], tp=[2, 0, 2], fp=[1, 0, 1], fn=[0, 1, 1], tn=[3, 5, 2])
        >>> ConfusionCounts.from_predictions(y_true, y_pred, average="micro")
        ConfusionCounts(tp=4, fp=2, fn=2, tn=10)
        >>> ConfusionCounts.from_predictions(["spam", "ham", "spam"], ["spam", "spam", "spam"],
        ...                                  pos_label="spam")
        ConfusionCounts(tp=2, fp=1, fn=0, tn=0)

        Columns of a DataFrame, by name:

        >>> import pandas as pd
        >>> frame = pd.DataFrame({"gold": ["spam", "ham", "spam"], "A": ["spam", "spam", "spam"]})
        >>> ConfusionCounts.from_predictions("gold", "A", data=frame, pos_label="spam")
        ConfusionCounts(tp=2, fp=1, fn=0, tn=0)
        """
        average = _check_average(average)
        (y_true, y_pred), sample_weight, _ = resolve_columns(
            data, [y_true, y_pred], ["y_true", "y_pred"], sample_weight)
        if is_dask(y_true, y_pred, sample_weight):
            return cls._from_dask(y_true, y_pred, labels, pos_label, average, sample_weight)
        y_true, y_pred, multilabel = check_pair(y_true, y_pred)
        weight = check_sample_weight(sample_weight, y_true.shape[0])
        if multilabel:
            refuse_binary_multilabel(average)
            counts = cls._from_indicator(y_true, y_pred, weight, labels)
        else:
            tally = tally_labels(y_true, y_pred, weight)
            counts = cls._from_tally(tally, labels, pos_label, average)
        if average == "micro":
            return counts.sum()
        return counts

    @classmethod
    def _from_tally(cls, tally, labels, pos_label, average):
        """The table of `pos_label` ("binary") or one table per label, from a tally."""
        if average == "binary":
            return cls._binary(tally, pos_label)
        chosen = check_labels_argument(labels, tally.classes[tally.present])
        tp, fp, fn, tn, out_labels = _select_labels(tally, chosen)
        return cls(tp, fp, fn, tn, labels=out_labels)

    @classmethod
    def _from_margins(cls, tp, true, pred, total, columns, tn=None):
        """Per-column tables from true positives and the true and predicted margins.

        Weighted counts pass ``tn`` summed directly (like the other cells), so
        that a cell without items is exactly 0 rather than a rounding residue
        of ``total`` minus the rest.
        """
        fp = pred - tp
        fn = true - tp
        if tn is None:
            tn = np.maximum(total - tp - fp - fn, 0.0)
        return cls(tp, fp, fn, tn, labels=columns)

    @classmethod
    def _from_dask(cls, y_true, y_pred, labels, pos_label, average, sample_weight):
        """Dask arrays: per-block counts summed in a tree (nothing n-sized is gathered)."""
        if np.ndim(y_true) == 2:
            refuse_binary_multilabel(average)
            counts = cls._from_margins(*dask_indicator_sums(y_true, y_pred, sample_weight,
                                                            labels))
        else:
            tally = dask_tally(y_true, y_pred, sample_weight,
                               None if average == "binary" else labels)
            counts = cls._from_tally(tally, labels, pos_label, average)
        return counts.sum() if average == "micro" else counts

    @classmethod
    def _binary(cls, tally, pos_label):
        present_labels = tally.classes[tally.present]
        if present_labels.shape[0] > 2:
            _refuse_binary_multiclass(present_labels)
        is_member = _label_in(pos_label, present_labels)
        if not is_member and present_labels.shape[0] == 2:
            # The message of every route (joint_codes), whatever the label's kind.
            fail("pos_label", f"one of the labels {plain_labels(present_labels)}", pos_label)
        if present_labels.shape[0] and _label_kind(np.asarray([pos_label])) != _label_kind(
                present_labels):
            fail("pos_label", f"a label of the data's kind ({_label_kind(present_labels)})",
                 pos_label)
        if is_member:
            chosen = np.asarray([pos_label], dtype=present_labels.dtype)
        elif present_labels.shape[0] and _label_kind(np.asarray([pos_label])) != _label_kind(
            present_labels
        ):
            fail("pos_label", f"a label of the data's kind ({_label_kind(present_labels)})",
                 pos_label)
        else:
            chosen = np.asarray([pos_label])
        tp, fp, fn, tn, _ = _select_labels(tally, chosen)
        return cls(tp[0], fp[0], fn[0], tn[0])

    @classmethod
    def _from_indicator(cls, y_true, y_pred, weight, labels):
        columns = _indicator_columns(labels, y_true.shape[1])
        if sp.issparse(y_true):
            yt = y_true[:, columns].astype(np.float64)
            yp = y_pred[:, columns].astype(np.float64)
            w = np.ones(y_true.shape[0]) if weight is None else weight
            true = np.asarray(yt.T @ w).ravel()
            pred = np.asarray(yp.T @ w).ravel()
            tp = np.asarray(yt.multiply(yp).T @ w).ravel()
            total = float(w.sum())
        else:
            yt = np.asarray(y_true[:, columns], dtype=bool)
            yp = np.asarray(y_pred[:, columns], dtype=bool)
            both = yt & yp
            if weight is None:
                tp = both.sum(axis=0, dtype=np.float64)
                true = yt.sum(axis=0, dtype=np.float64)
                pred = yp.sum(axis=0, dtype=np.float64)
                total = float(yt.shape[0])
            else:
                tp, true, pred = weight @ both, weight @ yt, weight @ yp
                return cls._from_margins(tp, true, pred, None, columns,
                                         tn=weight @ (~yt & ~yp))
        return cls._from_margins(tp, true, pred, total, columns)

    @classmethod
    def from_confusion_matrix(cls, matrix, *, labels=None, average=None, pos_label=1):
        """Counts from a K x K confusion matrix (rows true, columns predicted).

        Parameters
        ----------
        matrix : array-like of shape (K, K)
            Counts in scikit-learn's layout (`sklearn.metrics.confusion_matrix`):
            ``matrix[i, j]`` items of true label ``i`` predicted as ``j``.
        labels : array-like of shape (K,), default=None
            Names of the rows and columns; defaults to ``0..K-1``.
        average : {"binary", "micro"} or None, default=None
            ``None``: one one-vs-rest table per label.  ``"binary"``: the
            table of `pos_label` (K = 2 only).  ``"micro"``: the per-label
            tables pooled.
        pos_label : int, float, bool or str, default=1
            The positive label of ``average="binary"``, as in scikit-learn:
            with the default labels ``0, 1`` the second row, as
            ``matrix.ravel()`` reads ``tn, fp, fn, tp``.  Labels without it
            (``["no", "yes"]``) are refused, never read as the last label.

        Returns
        -------
        ConfusionCounts

        Examples
        --------
        >>> from skprobeval import ConfusionCounts
        >>> ConfusionCounts.from_confusion_matrix([[42, 28], [18, 12]], average="binary")
        ConfusionCounts(tp=12, fp=28, fn=18, tn=42)
        >>> ConfusionCounts.from_confusion_matrix([[5, 1], [2, 4]], labels=["no", "yes"])
        ConfusionCounts(labels=['no', 'yes'], tp=[5, 4], fp=[2, 1], fn=[1, 2], tn=[4, 5])
        >>> ConfusionCounts.from_confusion_matrix([[5, 1], [2, 4]], labels=["no", "yes"],
        ...                                       average="binary", pos_label="yes")
        ConfusionCounts(tp=4, fp=1, fn=2, tn=5)
        """
        average = _check_average(average)
        table = check_count_array(matrix, "matrix")
        if table.ndim != 2 or table.shape[0] != table.shape[1] or table.shape[0] == 0:
            fail("matrix", "a square K x K array", matrix, shown=f"shape {table.shape}")
        size = table.shape[0]
        if labels is None:
            labels = np.arange(size)
        else:
            labels = np.asarray(to_host(labels, "labels"))
            if labels.shape != (size,):
                fail("labels", f"of length {size} (one per row of `matrix`)", labels)
        diag = np.diag(table)
        tp = diag
        fp = table.sum(axis=0) - diag
        fn = table.sum(axis=1) - diag
        tn = np.maximum(table.sum() - tp - fp - fn, 0.0)
        counts = cls(tp, fp, fn, tn, labels=labels)
        if average == "binary":
            if size != 2:
                fail("average", "None or 'micro' for a matrix larger than 2 x 2", average)
            return counts[positive_position(labels, pos_label)]
        if average == "micro":
            return counts.sum()
        return counts

    # -- pooling and indexing --------------------------------------------

    def __add__(self, other):
        if not isinstance(other, ConfusionCounts):
            return NotImplemented
        if self.tp.shape != other.tp.shape:
            raise ValueError(
                f"Cannot pool counts of shapes {self.tp.shape} and {other.tp.shape}."
            )
        _check_same_labels(self.labels, other.labels)
        labels = self.labels if self.labels is not None else other.labels
        return ConfusionCounts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn,
                               self.tn + other.tn, labels=labels)

    def __radd__(self, other):
        # Lets the built-in sum() start from 0.
        if isinstance(other, (int, float)) and other == 0:
            return self
        return NotImplemented

    def sum(self):
        """Pool the per-label tables into one table (micro-averaging).

        Returns
        -------
        ConfusionCounts
            One table (0-d cells) holding the sums.

        Examples
        --------
        >>> from skprobeval import ConfusionCounts
        >>> ConfusionCounts([1, 2], [0, 1], [1, 0], [5, 4]).sum()
        ConfusionCounts(tp=3, fp=1, fn=1, tn=9)
        """
        return ConfusionCounts(self.tp.sum(), self.fp.sum(), self.fn.sum(), self.tn.sum())

    def __getitem__(self, index):
        if self.tp.ndim == 0:
            raise TypeError("A single table (0-d counts) cannot be indexed.")
        labels = None if self.labels is None else self.labels[index]
        if labels is not None and np.ndim(labels) == 0:
            labels = None
        return ConfusionCounts(self.tp[index], self.fp[index], self.fn[index], self.tn[index],
                               labels=labels)

    def __len__(self):
        if self.tp.ndim == 0:
            raise TypeError("len() of a single table (0-d counts) is undefined.")
        return self.tp.shape[0]

    def __eq__(self, other):
        if not isinstance(other, ConfusionCounts):
            return NotImplemented
        same_labels = (self.labels is None and other.labels is None) or (
            self.labels is not None and other.labels is not None
            and np.array_equal(self.labels, other.labels))
        return same_labels and all(
            np.array_equal(getattr(self, name), getattr(other, name))
            for name in ("tp", "fp", "fn", "tn"))

    __hash__ = None

    # -- derived quantities ------------------------------------------------

    @property
    def shape(self):
        """Shape of the cell arrays: ``()`` or ``(K,)``."""
        return self.tp.shape

    @property
    def n(self):
        """Total count of each table, ``tp + fp + fn + tn``."""
        return self.tp + self.fp + self.fn + self.tn

    @property
    def prevalence(self):
        """Share of positives ``(tp + fn) / n`` of each table (NaN when n = 0)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return (self.tp + self.fn) / self.n

    def to_array(self):
        """The tables as an array of shape ``shape + (2, 2)``, ``[[tn, fp], [fn, tp]]``.

        This is the layout of `sklearn.metrics.multilabel_confusion_matrix`.

        Examples
        --------
        >>> from skprobeval import ConfusionCounts
        >>> ConfusionCounts(3, 1, 2, 4).to_array().tolist()
        [[4.0, 1.0], [2.0, 3.0]]
        """
        return np.stack([np.stack([self.tn, self.fp], -1), np.stack([self.fn, self.tp], -1)], -2)

    def __repr__(self):
        parts = []
        if self.labels is not None:
            parts.append(f"labels={format_array(self.labels)}")
        parts += [f"{name}={format_array(getattr(self, name))}"
                  for name in ("tp", "fp", "fn", "tn")]
        return f"ConfusionCounts({', '.join(parts)})"


@dataclass(frozen=True, slots=True, eq=False)
class PairedCounts:
    """Counts for comparing two systems on the same items (Goutte & Gaussier 2005, section 3).

    For each item: ``first_better`` counts items the first system assigns
    correctly and the second does not, ``second_better`` the reverse, and
    ``ties`` the rest (both right or both wrong).  Cells are float64 arrays of
    one common shape: 0-d, or ``(K,)`` for multilabel data (one per column).

    Parameters
    ----------
    first_better, second_better, ties : array-like of float
        Finite, non-negative (possibly weighted) counts.
    labels : array-like of shape (K,), default=None
        Column of each count for multilabel data.

    Attributes
    ----------
    n : ndarray
        ``first_better + second_better + ties``.

    References
    ----------
    .. [1] C. Goutte and E. Gaussier, "A probabilistic interpretation of
       precision, recall and F-score, with implication for evaluation",
       ECIR 2005, section 3.

    Examples
    --------
    >>> from skprobeval import PairedCounts
    >>> y_true = [1, 0, 1, 1, 0, 1]
    >>> PairedCounts.from_predictions(y_true, [1, 0, 1, 0, 0, 1], [1, 1, 0, 0, 0, 1])
    PairedCounts(first_better=2, second_better=0, ties=4)
    >>> PairedCounts(17, 4, 279) + PairedCounts(3, 1, 96)
    PairedCounts(first_better=20, second_better=5, ties=375)
    """

    first_better: np.ndarray
    second_better: np.ndarray
    ties: np.ndarray
    labels: np.ndarray | None = None

    def __post_init__(self):
        names = ("first_better", "second_better", "ties")
        cells = [check_count_array(getattr(self, name), name) for name in names]
        try:
            cells = np.broadcast_arrays(*cells)
        except ValueError:
            shapes = ", ".join(str(np.shape(c)) for c in cells)
            raise ValueError(
                "`first_better`, `second_better` and `ties` must have one common shape; "
                f"got {shapes}."
            ) from None
        if cells[0].ndim > 1:
            fail("first_better", "0-d or 1-d", cells[0], shown=f"shape {cells[0].shape}")
        for name, cell in zip(names, cells):
            object.__setattr__(self, name, _frozen(cell))
        if self.labels is not None:
            labels = np.asarray(to_host(self.labels, "labels"))
            if labels.shape != self.first_better.shape or labels.ndim != 1:
                fail("labels", f"an array of shape {self.first_better.shape}", self.labels)
            labels = labels.copy()
            labels.setflags(write=False)
            object.__setattr__(self, "labels", labels)

    @classmethod
    def from_predictions(cls, y_true, y_pred_first, y_pred_second, *, sample_weight=None,
                         data=None):
        """Count, item by item, which of two systems is right.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
            True labels (any hashable labels), or a multilabel indicator matrix.
            Every array-like here may be a NumPy, pandas or Dask array, or any
            DLPack or array-API array (PyTorch, CuPy, JAX; CPU or GPU), copied
            to the host once.
        y_pred_first, y_pred_second : array-like of the same shape as `y_true`
            The two systems' predictions on the same items.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights.
        data : DataFrame, default=None
            A pandas, Dask or Polars DataFrame, a pyarrow Table or a dict of
            columns, in which the other arguments may be column names.

        Returns
        -------
        PairedCounts
            0-d cells for 1-d labels; ``(n_labels,)`` cells for indicator
            matrices (one comparison per column, as Table 2 of Goutte & Gaussier
            (2005) compares per category).

        Examples
        --------
        >>> from skprobeval import PairedCounts
        >>> PairedCounts.from_predictions(["a", "b", "c"], ["a", "b", "b"], ["a", "c", "c"])
        PairedCounts(first_better=1, second_better=1, ties=1)
        """
        (y_true, y_pred_first, y_pred_second), sample_weight, _ = resolve_columns(
            data, [y_true, y_pred_first, y_pred_second],
            ["y_true", "y_pred_first", "y_pred_second"], sample_weight)
        if is_dask(y_true, y_pred_first, y_pred_second, sample_weight):
            n_first, n_second, ties, multilabel = dask_paired(
                y_true, y_pred_first, y_pred_second, sample_weight)
            return cls(n_first, n_second, ties,
                       labels=np.arange(np.shape(n_first)[0]) if multilabel else None)
        first, second, weight, labels = paired_items(y_true, y_pred_first, y_pred_second,
                                                     sample_weight)
        if weight is None:
            n_first = first.sum(axis=0, dtype=np.float64)
            n_second = second.sum(axis=0, dtype=np.float64)
            total = float(first.shape[0])
        else:
            # Each cell summed directly: no cell is a rounding residue of the others.
            n_first, n_second = weight @ first, weight @ second
            return cls(n_first, n_second, weight @ (~first & ~second), labels=labels)
        ties = np.maximum(total - n_first - n_second, 0.0)
        return cls(n_first, n_second, ties, labels=labels)

    @property
    def n(self):
        """Total count ``first_better + second_better + ties``."""
        return self.first_better + self.second_better + self.ties

    @property
    def shape(self):
        """Shape of the cell arrays: ``()`` or ``(K,)``."""
        return self.first_better.shape

    def swapped(self):
        """The same counts with the two systems exchanged.

        Examples
        --------
        >>> from skprobeval import PairedCounts
        >>> PairedCounts(5, 2, 10).swapped()
        PairedCounts(first_better=2, second_better=5, ties=10)
        """
        return PairedCounts(self.second_better, self.first_better, self.ties, labels=self.labels)

    def __add__(self, other):
        if not isinstance(other, PairedCounts):
            return NotImplemented
        if self.shape != other.shape:
            raise ValueError(f"Cannot pool counts of shapes {self.shape} and {other.shape}.")
        _check_same_labels(self.labels, other.labels)
        labels = self.labels if self.labels is not None else other.labels
        return PairedCounts(self.first_better + other.first_better,
                            self.second_better + other.second_better,
                            self.ties + other.ties, labels=labels)

    def __radd__(self, other):
        if isinstance(other, (int, float)) and other == 0:
            return self
        return NotImplemented

    def sum(self):
        """Pool per-label counts into one 0-d set of counts.

        Examples
        --------
        >>> from skprobeval import PairedCounts
        >>> PairedCounts([3, 1], [0, 2], [10, 10]).sum()
        PairedCounts(first_better=4, second_better=2, ties=20)
        """
        return PairedCounts(self.first_better.sum(), self.second_better.sum(), self.ties.sum())

    def __getitem__(self, index):
        if self.first_better.ndim == 0:
            raise TypeError("Single (0-d) paired counts cannot be indexed.")
        labels = None if self.labels is None else self.labels[index]
        if labels is not None and np.ndim(labels) == 0:
            labels = None
        return PairedCounts(self.first_better[index], self.second_better[index],
                            self.ties[index], labels=labels)

    def __eq__(self, other):
        if not isinstance(other, PairedCounts):
            return NotImplemented
        return all(np.array_equal(getattr(self, name), getattr(other, name))
                   for name in ("first_better", "second_better", "ties"))

    __hash__ = None

    def __repr__(self):
        parts = []
        if self.labels is not None:
            parts.append(f"labels={format_array(self.labels)}")
        parts += [f"{name}={format_array(getattr(self, name))}"
                  for name in ("first_better", "second_better", "ties")]
        return f"PairedCounts({', '.join(parts)})"


def label_masks(joint, labels, average):
    """Per system, the labels its average runs over, or None for all requested labels.

    With ``labels=None`` scikit-learn averages a system over the labels of
    the truth and of that system's own predictions: a label that only
    another system predicts must not lower this one's macro average.
    """
    if labels is not None or joint.kind != "multiclass" or average is None:
        return [None] * (len(joint.codes) - 1)
    size = joint.n_classes
    in_truth = np.bincount(joint.codes[0], minlength=size) > 0
    masks = []
    for codes in joint.codes[1:]:
        mask = in_truth | (np.bincount(codes, minlength=size) > 0)
        masks.append(None if mask.all() else mask[:joint.n_requested])
    return masks
