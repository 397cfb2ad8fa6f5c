"""The K x K confusion matrix of single-label data: `ConfusionMatrix`.

One-vs-rest tables (`ConfusionCounts`) do not determine which label an item
of one class was mistaken for, so the joint Dirichlet of macro and weighted
averages needs the K x K table itself.  `ConfusionMatrix` holds it, adds
batch to batch over the union of the labels, and gives back the items it
counts (`matrix_items`) so that every posterior is computed by the one path
that counts labels.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._core import check_count_array, fail, format_array
from ._counts import ConfusionCounts
from ._labels import _label_kind, check_labels_argument, multiclass_confusion_matrix, plain_labels

__all__ = ["ConfusionMatrix", "matrix_items"]

_ONE_VS_REST = ("A ConfusionMatrix and a ConfusionCounts cannot be added: one-vs-rest tables "
                "do not determine the K x K table.  Accumulate ConfusionMatrix values, and "
                "take their one-vs-rest tables at the end with `.counts()`.")

# Rows and columns a repr shows.
_SHOWN = 6


def _positions(labels):
    """{label as a plain Python value: its position}."""
    return {label: k for k, label in enumerate(plain_labels(labels))}


@dataclass(frozen=True, slots=True, eq=False)
class ConfusionMatrix:
    """The K x K confusion matrix of single-label (binary or multiclass) data.

    ``matrix[i, j]`` counts the items of true label ``labels[i]`` predicted
    as ``labels[j]``: rows true, columns predicted, the layout of
    `sklearn.metrics.confusion_matrix`.  Counts may be fractional (weighted).
    Unlike the one-vs-rest tables of `ConfusionCounts`, the matrix says which
    label each mistake went to, which the joint Dirichlet of macro and
    weighted averages needs: `metric_posterior` of a ConfusionMatrix is the
    posterior of the items it counts.

    Matrices add (``+``, ``+=``, ``sum()``), so an evaluation loop can count
    batch by batch.  Matrices of different labels add over the union of
    their labels (the first's, then the other's new ones), each missing row
    and column counting nothing: a batch that lacks a class adds correctly.

    Parameters
    ----------
    matrix : array-like of shape (K, K)
        Finite, non-negative counts, K >= 1.
    labels : array-like of shape (K,), default=None
        The label of each row (and of the same column), distinct;
        defaults to ``0..K-1``.

    Attributes
    ----------
    n : float
        The total count.

    See Also
    --------
    ConfusionCounts : One-vs-rest tables (binary, per label, or multilabel).
    sklearn.metrics.confusion_matrix : The same table as a bare array.

    Notes
    -----
    The positive label of a 2 x 2 matrix (``average="binary"``) is
    `pos_label`, 1 by default as in scikit-learn, in every entry point:
    `metric_posterior`, `compare_counts`, `counts` and
    `ConfusionCounts.from_confusion_matrix`.  Labels that do not hold it
    (``["a", "b"]``) are refused with an error naming `pos_label` and the
    labels; the last label is never taken silently.

    Two matrices are equal when they count the same labels and hold the
    same count for every pair of true and predicted labels, whatever the
    order of their labels (as two dicts are equal whatever the order of
    their keys).  `to_array` follows the order of `labels`.

    Examples
    --------
    >>> from skprobeval import ConfusionMatrix
    >>> y_true = ["cat", "dog", "dog", "bird", "cat", "dog"]
    >>> y_pred = ["cat", "dog", "cat", "bird", "cat", "bird"]
    >>> ConfusionMatrix.from_predictions(y_true, y_pred)
    ConfusionMatrix(labels=['bird', 'cat', 'dog'], matrix=[[1, 0, 0], [0, 2, 0], [1, 1, 1]])

    Counted batch by batch, as an evaluation loop does; the first batch has
    no bird, which the second adds:

    >>> total = 0
    >>> for start in range(0, 6, 3):
    ...     batch = slice(start, start + 3)
    ...     total += ConfusionMatrix.from_predictions(y_true[batch], y_pred[batch])
    >>> total
    ConfusionMatrix(labels=['cat', 'dog', 'bird'], matrix=[[2, 0, 0], [1, 1, 1], [0, 0, 1]])
    >>> total == ConfusionMatrix.from_predictions(y_true, y_pred)
    True

    Its posteriors are those of the items it counts:

    >>> from skprobeval import metric_posterior
    >>> f1 = metric_posterior(total, metric="f1", average="macro", random_state=0)
    >>> round(f1.mean(), 3)
    0.608
    >>> same = metric_posterior(y_true, y_pred, metric="f1", average="macro", random_state=0)
    >>> bool((f1.samples == same.samples).all())
    True
    """

    matrix: np.ndarray
    labels: np.ndarray | None = None

    # NumPy arrays defer to `__radd__` rather than adding elementwise.
    __array_ufunc__ = None

    def __post_init__(self):
        table = check_count_array(self.matrix, "matrix")
        if table.ndim != 2 or table.shape[0] != table.shape[1] or table.shape[0] == 0:
            fail("matrix", "a square K x K array of counts (K >= 1; rows true labels, columns "
                 "predicted)", self.matrix, shown=f"shape {table.shape}")
        table = np.array(table, dtype=np.float64)
        table.setflags(write=False)
        size = table.shape[0]
        if self.labels is None:
            labels = np.arange(size)
        else:
            labels = check_labels_argument(self.labels, None)
            if labels.shape != (size,):
                fail("labels", f"of length {size} (one label per row of `matrix`)", labels,
                     shown=f"length {labels.shape[0]}")
            labels = labels.copy()
        labels.setflags(write=False)
        object.__setattr__(self, "matrix", table)
        object.__setattr__(self, "labels", labels)

    @classmethod
    def from_predictions(cls, y_true, y_pred, *, labels=None, sample_weight=None):
        """Count true and predicted labels into a K x K matrix.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels (any hashable labels of one kind), binary or
            multiclass.  Every array-like here may be a NumPy or pandas
            array, or any DLPack or array-API array (PyTorch, CuPy, JAX; CPU
            or GPU), copied to the host once.
        y_pred : array-like of shape (n_samples,)
            Predicted labels.
        labels : array-like of shape (K,), default=None
            The rows and columns, in order: a label absent from the data has
            an empty row and column (so that batches share one layout).
            Every label of the data must be among them (scikit-learn's
            `confusion_matrix` would drop the items of a label left out).
            By default, the sorted labels present in either array.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; the counts are then weighted sums.

        Returns
        -------
        ConfusionMatrix

        Notes
        -----
        The labels are counted as `ConfusionCounts.from_predictions` counts
        them (one ``np.bincount`` of the joint code for integers in
        ``0..K-1``, hashing for strings).  A multilabel indicator matrix has
        no K x K table and is refused.

        Examples
        --------
        >>> from skprobeval import ConfusionMatrix
        >>> ConfusionMatrix.from_predictions([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
        ConfusionMatrix(labels=[0, 1, 2], matrix=[[2, 0, 0], [0, 0, 1], [1, 0, 2]])
        >>> ConfusionMatrix.from_predictions([0, 0, 1], [0, 1, 1], labels=[0, 1, 2])
        ConfusionMatrix(labels=[0, 1, 2], matrix=[[1, 1, 0], [0, 1, 0], [0, 0, 0]])
        """
        matrix, labels = multiclass_confusion_matrix(y_true, y_pred, labels=labels,
                                                     sample_weight=sample_weight,
                                                     every_label=True)
        return cls(matrix, labels=labels)

    # -- pooling --------------------------------------------------------------

    def __add__(self, other):
        if isinstance(other, ConfusionCounts):
            raise TypeError(_ONE_VS_REST)
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        if np.array_equal(self.labels, other.labels):
            return ConfusionMatrix(self.matrix + other.matrix, labels=self.labels)
        kinds = _label_kind(self.labels), _label_kind(other.labels)
        if kinds[0] != kinds[1]:
            raise ValueError(
                f"Cannot add confusion matrices of {kinds[0]} and of {kinds[1]} labels: "
                f"{plain_labels(self.labels[:_SHOWN])} and "
                f"{plain_labels(other.labels[:_SHOWN])}.")
        known = _positions(self.labels)
        new = [k for k, label in enumerate(plain_labels(other.labels)) if label not in known]
        labels = np.concatenate([self.labels, other.labels[new]])
        known = _positions(labels)
        where = np.array([known[label] for label in plain_labels(other.labels)])
        size = labels.shape[0]
        matrix = np.zeros((size, size))
        matrix[:self.labels.shape[0], :self.labels.shape[0]] = self.matrix
        matrix[np.ix_(where, where)] += other.matrix
        return ConfusionMatrix(matrix, labels=labels)

    def __radd__(self, other):
        # Lets the built-in sum() and `total = 0; total += matrix` start from 0.
        if isinstance(other, ConfusionCounts):
            raise TypeError(_ONE_VS_REST)
        if isinstance(other, numbers.Number) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    def __eq__(self, other):
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        if self.labels.shape != other.labels.shape:
            return False
        theirs = _positions(other.labels)
        mine = plain_labels(self.labels)
        if len(theirs) != len(mine) or any(label not in theirs for label in mine):
            return False
        order = np.array([theirs[label] for label in mine])
        return bool(np.array_equal(self.matrix, other.matrix[np.ix_(order, order)]))

    __hash__ = None

    # -- derived quantities ---------------------------------------------------

    @property
    def n(self):
        """The total count, a float."""
        return float(self.matrix.sum())

    def to_array(self):
        """The counts as a new float64 array of shape (K, K), rows true labels.

        Returns
        -------
        ndarray of shape (K, K)
            In the order of `labels`, the layout of
            `sklearn.metrics.confusion_matrix`.

        Examples
        --------
        >>> from skprobeval import ConfusionMatrix
        >>> ConfusionMatrix([[5, 1], [2, 4]]).to_array().tolist()
        [[5.0, 1.0], [2.0, 4.0]]
        """
        return np.array(self.matrix)

    def counts(self, average=None, *, pos_label=1):
        """The one-vs-rest tables of the labels (`ConfusionCounts.from_confusion_matrix`).

        Parameters
        ----------
        average : {"binary", "micro"} or None, default=None
            ``None``: one table per label, in the order of `labels`.
            ``"micro"``: those tables pooled.  ``"binary"``: the table of
            `pos_label` (K = 2 only).
        pos_label : int, float, bool or str, default=1
            The positive label of ``average="binary"``; labels without it
            are refused (the 2 x 2 rule above).

        Returns
        -------
        ConfusionCounts

        Examples
        --------
        >>> from skprobeval import ConfusionMatrix
        >>> matrix = ConfusionMatrix([[5, 1], [2, 4]], labels=["no", "yes"])
        >>> matrix.counts()
        ConfusionCounts(labels=['no', 'yes'], tp=[5, 4], fp=[2, 1], fn=[1, 2], tn=[4, 5])
        >>> matrix.counts(average="binary", pos_label="yes")
        ConfusionCounts(tp=4, fp=1, fn=2, tn=5)
        """
        return ConfusionCounts.from_confusion_matrix(self.matrix, labels=self.labels,
                                                     average=average, pos_label=pos_label)

    def __repr__(self):
        rows = [format_array(row, limit=_SHOWN) for row in self.matrix[:_SHOWN]]
        if self.matrix.shape[0] > _SHOWN:
            rows.append("...")
        return (f"ConfusionMatrix(labels={format_array(self.labels, limit=_SHOWN)}, "
                f"matrix=[{', '.join(rows)}])")


def matrix_items(matrix):
    """The items a `ConfusionMatrix` counts, one weighted item per non-zero cell.

    Returns
    -------
    y_true, y_pred : ndarray of shape (m,)
        The true and predicted label of each non-zero cell, rows first.
    sample_weight : ndarray of shape (m,)
        Each cell's count.  Counted back with these weights, the cells give
        the matrix again, so every posterior of the items is the matrix's.
    """
    size = matrix.labels.shape[0]
    weight = matrix.matrix.ravel()
    keep = np.flatnonzero(weight)
    return matrix.labels[keep // size], matrix.labels[keep % size], weight[keep]
