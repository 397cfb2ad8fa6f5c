"""The joint counts of a truth and several systems' predictions: `JointCounts`.

`rank_systems` draws every system's metric from one joint table (true label,
prediction of each system).  `JointCounts` holds that table as the distinct
combinations of labels and the (weighted) number of items of each, the form
to which `rank_systems` already reduces Dask input, so that an evaluation
loop can count batch by batch and rank once at the end.  The combinations
are found by the reduction every Dask block goes through (`distinct_rows`),
and the labels are checked and encoded by `joint_codes`, as those of the
items would be.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass

import numpy as np
import scipy.sparse as sp

from .._core import check_count_array, fail, format_array
from ._counts import ConfusionCounts, joint_codes
from ._dask import distinct_rows, is_dask
from ._data import as_pandas_frame, resolve_columns
from ._labels import _array_kind, _as_label_array, check_labels_argument, plain_labels

__all__ = ["JointCounts", "prediction_systems"]

# One number per system: `rank_systems` refuses average=None.
_AVERAGES = ("binary", "micro", "macro", "weighted", "powers")
# Labels a message shows.
_SHOWN = 6


def prediction_systems(predictions):
    """Names and prediction arrays of a mapping or a DataFrame of systems."""
    if isinstance(predictions, Mapping):
        names = list(predictions)
        values = [predictions[name] for name in names]
    elif is_dask(predictions) and hasattr(predictions, "columns"):
        names = list(predictions.columns)
        values = [predictions[name] for name in names]
    elif hasattr(predictions, "columns") or callable(getattr(predictions, "to_pandas", None)):
        frame = as_pandas_frame(predictions, "predictions")
        names = list(frame.columns)
        values = [frame[name].to_numpy() for name in names]
    else:
        fail("predictions", "a dict of system name to predictions, or a DataFrame with one "
             "column per system", predictions, error=TypeError,
             shown=f"a {type(predictions).__name__}" + (
                 f" of {len(predictions)}" if isinstance(predictions, (list, tuple)) else ""))
    _check_names(names, "predictions", predictions)
    return names, values


def _check_names(names, name, value):
    repeated = sorted({str(system) for system in names if names.count(system) > 1})
    if repeated:
        fail(name, "systems with distinct names", names, shown=f"repeated names {repeated}")
    if len(names) < 2:
        fail(name, "at least two systems to rank (for one system, metric_posterior gives "
             "its posterior)", value,
             shown=f"{len(names)} system{'' if len(names) == 1 else 's'}")


def _check_average(average):
    if not (isinstance(average, str) and average in _AVERAGES):
        fail("average", "'binary', 'micro', 'macro', 'weighted' or 'powers' (one number per "
             "system)", average)
    return average


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def _refuse_multilabel(array, name):
    if sp.issparse(array) or array.ndim == 2:
        fail(name, "1-d labels (binary or multiclass): JointCounts does not count multilabel "
             "indicator matrices, which rank_systems takes as they are", array,
             shown=f"an array of shape {array.shape}")


def _shown_labels(values):
    distinct = np.unique(values)
    more = " ..." if distinct.shape[0] > _SHOWN else ""
    return f"{plain_labels(distinct[:_SHOWN])}{more}"


@dataclass(frozen=True, slots=True, eq=False)
class JointCounts:
    """The joint counts of a truth and several systems' predicted labels.

    Each item falls into one combination (true label, prediction of system
    1, ..., prediction of system N); `JointCounts` holds the distinct
    combinations and the (weighted) number of items of each, which is all
    `rank_systems` reads of the items.  Counts add (``+``, ``sum()``), so an
    evaluation loop can count batch by batch and rank at the end:
    ``rank_systems(total)`` equals ``rank_systems(y_true, predictions)`` on
    all the items, with the same settings, draw for draw under the same
    `random_state`.

    Build it with `from_predictions`; the constructor takes combinations
    already counted (and merges repeated ones).

    Parameters
    ----------
    y_true : array-like of shape (n_combinations,)
        True label of each combination (binary or multiclass labels of one
        kind; multilabel indicator matrices are not counted here).
    y_pred : array-like of shape (n_combinations, n_systems)
        Each system's predicted label in each combination, one column per
        system of `names`.
    counts : array-like of shape (n_combinations,)
        Finite, non-negative (possibly weighted, so fractional) number of
        items of each combination.  A combination of count 0 is kept: its
        labels count as present, as those of items of weight 0 do.
    names : sequence of str
        The systems, at least two, distinct, in the order of the columns of
        `y_pred`.
    labels : array-like, default=None
        Labels the averages run over, in order, as in `rank_systems`.
    pos_label : int, float, bool or str, default=1
        The positive class of ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "powers"}, default="binary"
        How `rank_systems` combines labels.  ``"binary"`` takes at most two
        labels, `pos_label` among them when there are two.

    Attributes
    ----------
    n : float
        The total count (the number of items, or their total weight).

    See Also
    --------
    rank_systems : Ranks the systems from these counts.
    ConfusionMatrix : The K x K table of one system, added batch by batch.
    PairedCounts : The counts of two systems' paired comparison.

    Notes
    -----
    The combinations are kept sorted by true label, then by each system's
    prediction (labels in the order of `labels`, then the others sorted; for
    ``average="binary"`` `pos_label` first), so that equal counts compare
    equal whatever the order of the batches.  Two JointCounts add when they
    have the same systems in the same order, the same `labels` and the same
    `average` (and `pos_label`, for ``"binary"``); a batch that lacks a label
    adds correctly.  With fractional weights the sums of the batches equal
    those of all the items up to rounding.

    Examples
    --------
    >>> from skprobeval import JointCounts, rank_systems
    >>> y_true = [0, 1, 1, 0, 1, 1, 0, 1]
    >>> predictions = {"a": [0, 1, 1, 0, 1, 0, 0, 1], "b": [1, 1, 0, 0, 1, 0, 0, 1]}
    >>> counts = JointCounts.from_predictions(y_true, predictions)
    >>> counts
    JointCounts(names=['a', 'b'], n=8, combinations=5, average='binary', pos_label=1)
    >>> counts.to_frame()
       y_true  a  b  count
    0       1  1  1    3.0
    1       1  1  0    1.0
    2       1  0  0    1.0
    3       0  0  1    1.0
    4       0  0  0    2.0

    Counted batch by batch, as an evaluation loop does:

    >>> total = 0
    >>> for start in range(0, 8, 4):
    ...     batch = slice(start, start + 4)
    ...     total += JointCounts.from_predictions(
    ...         y_true[batch], {name: pred[batch] for name, pred in predictions.items()})
    >>> total == counts
    True
    >>> ranking = rank_systems(total, n_draws=2000, random_state=0)
    >>> same = rank_systems(y_true, predictions, n_draws=2000, random_state=0)
    >>> bool((ranking.values == same.values).all())
    True
    """

    y_true: np.ndarray
    y_pred: np.ndarray
    counts: np.ndarray
    _: KW_ONLY
    names: tuple
    labels: np.ndarray | None = None
    pos_label: object = 1
    average: str = "binary"

    # NumPy arrays defer to `__radd__` rather than adding elementwise.
    __array_ufunc__ = None

    def __post_init__(self):
        if isinstance(self.names, (str, bytes)) or not hasattr(self.names, "__iter__"):
            fail("names", "a sequence of system names", self.names, error=TypeError)
        names = tuple(_plain(name) for name in self.names)
        _check_names(list(names), "names", self.names)
        average = _check_average(self.average)
        labels = check_labels_argument(self.labels, None)
        pos_label = _plain(self.pos_label)
        truth = _as_label_array(self.y_true, "y_true")
        _refuse_multilabel(truth, "y_true")
        table = _as_label_array(self.y_pred, "y_pred")
        if sp.issparse(table) or table.ndim != 2 or table.shape[1] != len(names):
            fail("y_pred", f"an array of shape (n_combinations, {len(names)}): one column "
                 "per system of `names`", self.y_pred, shown=f"shape {table.shape}")
        counts = check_count_array(self.counts, "counts")
        if counts.ndim != 1:
            fail("counts", "1-d, one count per combination", self.counts,
                 shown=f"shape {counts.shape}")
        for array, name in ((table, "y_pred"), (counts, "counts")):
            if array.shape[0] != truth.shape[0]:
                fail(name, f"one row per combination of `y_true` ({truth.shape[0]})",
                     array, shown=f"{array.shape[0]} rows")
        columns = [table[:, j] for j in range(len(names))]
        joint = joint_codes(truth, columns, average=average, labels=labels,
                            pos_label=pos_label, sample_weight=counts,
                            names=["y_true", *[f"y_pred[:, {j}]" for j in range(len(names))]])
        # Sorted by the codes, truth first: the distinct rows come out in that order.
        order = np.lexsort(joint.codes[::-1])
        rows, summed = distinct_rows([truth[order], *(c[order] for c in columns)],
                                     counts[order])
        truth, table = rows[0], np.column_stack(rows[1:])
        if labels is not None:
            # Our own copy: freezing the caller's array would change their data's flags.
            labels = np.array(labels)
        for array in (truth, table, summed) + ((labels,) if labels is not None else ()):
            array.setflags(write=False)
        for name, value in (("y_true", truth), ("y_pred", table), ("counts", summed),
                            ("names", names), ("labels", labels), ("pos_label", pos_label),
                            ("average", average)):
            object.__setattr__(self, name, value)

    @classmethod
    def from_predictions(cls, y_true, predictions, *, labels=None, pos_label=1,
                         average="binary", sample_weight=None):
        """Count the combinations of a truth and several systems' predicted labels.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels (binary or multiclass, any hashable labels of one
            kind).  Every array-like here may be a NumPy, pandas or Dask
            array, or any DLPack or array-API array (PyTorch, CuPy, JAX; CPU
            or GPU), copied to the host once.  Dask arrays are reduced to
            their distinct combinations in one pass, never loaded whole.
        predictions : dict of str to array-like, or DataFrame
            Each system's predicted labels on the same items, by name, or a
            DataFrame with one column per system; at least two systems.
        labels : array-like, default=None
            Labels the averages run over, in order, as in `rank_systems`.
            A label absent from this batch is allowed (another batch may
            hold it); `rank_systems` requires it in the total.
        pos_label : int, float, bool or str, default=1
            The positive class of ``average="binary"``.
        average : {"binary", "micro", "macro", "weighted", "powers"}, default="binary"
            How `rank_systems` will combine labels; ``"binary"`` checks that
            the data have at most two labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights; the counts are then weighted sums.

        Returns
        -------
        JointCounts

        Examples
        --------
        >>> from skprobeval import JointCounts
        >>> counts = JointCounts.from_predictions(
        ...     ["cat", "dog", "dog", "bird"],
        ...     {"a": ["cat", "dog", "cat", "bird"], "b": ["cat", "dog", "dog", "cat"]},
        ...     average="macro")
        >>> counts.to_frame()
          y_true     a     b  count
        0   bird  bird   cat    1.0
        1    cat   cat   cat    1.0
        2    dog   cat   dog    1.0
        3    dog   dog   dog    1.0
        """
        names, values = prediction_systems(predictions)
        average = _check_average(average)
        label_names = ["y_true", *[f"predictions[{name!r}]" for name in names]]
        arrays, weight, _ = resolve_columns(None, [y_true, *values], label_names, sample_weight,
                                            distinct_arrays=True, label_names=label_names)
        labels = check_labels_argument(labels, None)
        arrays = [_as_label_array(array, name) for array, name in zip(arrays, label_names)]
        for array, name in zip(arrays, label_names):
            _refuse_multilabel(array, name)
        joint = joint_codes(arrays[0], arrays[1:], average=average, labels=labels,
                            pos_label=pos_label, sample_weight=weight, names=label_names)
        rows, counts = distinct_rows(arrays, joint.weight)
        return cls(rows[0], np.column_stack(rows[1:]), counts, names=tuple(names),
                   labels=labels, pos_label=pos_label, average=average)

    # -- pooling --------------------------------------------------------------

    def _check_addable(self, other):
        if self.names != other.names:
            raise ValueError(
                f"Cannot add joint counts of different systems: {list(self.names)!r} and "
                f"{list(other.names)!r} (the same systems, in the same order).")
        if self.average != other.average:
            raise ValueError(f"Cannot add joint counts of different `average`: "
                             f"{self.average!r} and {other.average!r}.")
        same_labels = (self.labels is None and other.labels is None) or (
            self.labels is not None and other.labels is not None
            and np.array_equal(self.labels, other.labels))
        if not same_labels:
            mine, theirs = (None if x is None else plain_labels(x)
                            for x in (self.labels, other.labels))
            raise ValueError(f"Cannot add joint counts of different `labels`: {mine!r} and "
                             f"{theirs!r}.")
        kinds = _array_kind(self.y_true), _array_kind(other.y_true)
        if kinds[0] != kinds[1]:
            raise ValueError(
                f"Cannot add joint counts of {kinds[0]} and of {kinds[1]} labels: "
                f"{_shown_labels(self.y_true)} and {_shown_labels(other.y_true)}.")
        if self.average == "binary" and not (
                self.pos_label == other.pos_label
                and type(self.pos_label) is type(other.pos_label)):
            raise ValueError(f"Cannot add joint counts of different `pos_label`: "
                             f"{self.pos_label!r} and {other.pos_label!r}.")

    def __add__(self, other):
        if not isinstance(other, JointCounts):
            return NotImplemented
        self._check_addable(other)
        return JointCounts(np.concatenate([self.y_true, other.y_true]),
                           np.concatenate([self.y_pred, other.y_pred]),
                           np.concatenate([self.counts, other.counts]), names=self.names,
                           labels=self.labels, pos_label=self.pos_label, average=self.average)

    def __radd__(self, other):
        # Lets the built-in sum() and `total = 0; total += counts` start from 0.
        if isinstance(other, numbers.Number) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    def __eq__(self, other):
        if not isinstance(other, JointCounts):
            return NotImplemented
        try:
            self._check_addable(other)
        except ValueError:
            return False
        return (self.y_true.shape == other.y_true.shape
                and bool(np.array_equal(self.y_true, other.y_true))
                and bool(np.array_equal(self.y_pred, other.y_pred))
                and bool(np.array_equal(self.counts, other.counts)))

    __hash__ = None

    # -- derived quantities ---------------------------------------------------

    @property
    def n(self):
        """The total count (the number of items, or their total weight), a float."""
        return float(self.counts.sum())

    def for_system(self, name):
        """The confusion counts of one system, with the settings of these counts.

        Parameters
        ----------
        name : str
            One of `names`.

        Returns
        -------
        ConfusionCounts
            The table of `pos_label` (0-d cells) for ``average="binary"``,
            the per-label tables pooled for ``"micro"``, and one table per
            label ((K,) cells) for the label averages, as
            `ConfusionCounts.from_predictions` counts that system's
            predictions of the items.

        Examples
        --------
        >>> from skprobeval import JointCounts
        >>> counts = JointCounts.from_predictions(
        ...     [0, 1, 1, 0, 1], {"a": [0, 1, 0, 0, 1], "b": [1, 1, 1, 0, 0]})
        >>> counts.for_system("a")
        ConfusionCounts(tp=2, fp=0, fn=1, tn=2)
        """
        if name not in self.names:
            fail("name", f"one of the systems {list(self.names)!r}", name)
        column = self.names.index(name)
        average = self.average if self.average in ("binary", "micro") else None
        return ConfusionCounts.from_predictions(
            self.y_true, self.y_pred[:, column], labels=self.labels, pos_label=self.pos_label,
            average=average, sample_weight=self.counts)

    def to_frame(self):
        """The combinations and their counts as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            One row per combination: column ``y_true``, one column per
            system (its name), and ``count``.

        Examples
        --------
        >>> from skprobeval import JointCounts
        >>> counts = JointCounts.from_predictions(
        ...     [0, 1, 1, 0], {"a": [0, 1, 1, 0], "b": [0, 1, 0, 0]})
        >>> counts.to_frame()
           y_true  a  b  count
        0       1  1  1    1.0
        1       1  1  0    1.0
        2       0  0  0    2.0
        """
        import pandas as pd

        columns = [pd.Series(self.y_true, name="y_true")]
        columns += [pd.Series(self.y_pred[:, j], name=name) for j, name in enumerate(self.names)]
        columns.append(pd.Series(self.counts, name="count"))
        return pd.concat(columns, axis=1)

    def __repr__(self):
        parts = [f"names={list(self.names)!r}", f"n={format_array(self.n)}",
                 f"combinations={self.counts.shape[0]}", f"average={self.average!r}"]
        if self.labels is not None:
            parts.append(f"labels={format_array(self.labels, limit=_SHOWN)}")
        if self.average == "binary":
            parts.append(f"pos_label={self.pos_label!r}")
        return f"JointCounts({', '.join(parts)})"
