"""Labels: validation, encoding and tallies of label arrays.

With `_counts.py` (the value objects built from these tallies), the one
place where arrays of labels are handled: every metric, posterior and
comparison is computed from counts.  Integer labels in ``0..K-1`` are
counted with one ``np.bincount`` of the joint code; object arrays of
strings are encoded by hashing (``pandas.factorize``); other labels by binary
search against a sampled label set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
from pandas.api.types import infer_dtype

from .._core import as_array, check_sample_weight, fail, to_host

__all__ = ["MISSING_KINDS", "check_missing", "missing_and_infinite",
           "multiclass_confusion_matrix", "refuse_missing", "unmasked"]

_AVERAGES = ("binary", "micro", None)

# Integer labels in 0..K-1 are counted with one np.bincount of the joint code
# y_true * K + y_pred when the K x K table stays small next to the data.
_FAST_PATH_MAX_CLASSES = 4096


# ---------------------------------------------------------------------------
# Label validation and encoding
# ---------------------------------------------------------------------------


def _as_label_array(y, name):
    """Return ``y`` as a numpy array (or a sparse matrix) with basic checks."""
    if sp.issparse(y):
        return y.tocsr()
    if isinstance(y, (str, bytes)):
        fail(name, "an array-like of labels", y, error=TypeError)
    array = as_array(unmasked(y, name), name)
    if array.ndim == 0:
        fail(name, "an array-like of labels", y, error=TypeError)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array.ravel()
    if array.ndim not in (1, 2):
        fail(name, "a 1-d array of labels or a 2-d label indicator matrix", array,
             shown=f"an array of shape {array.shape}")
    if array.shape[0] == 0:
        fail(name, "non-empty", array, shown="an empty array")
    check_missing(array, name)
    if array.dtype.kind == "c":
        fail(name, "real or string labels", array, shown=f"dtype {array.dtype}")
    return array


# What counts as a missing label, in every message that refuses one.
MISSING_KINDS = "NaN, None, NA, masked"


def missing_and_infinite(array):
    """``(missing, infinite)``: how many of a float or object array's labels are
    missing (NaN, None, pandas' NA or NaT) and how many infinite."""
    if array.dtype.kind == "f":
        missing = int(np.count_nonzero(np.isnan(array)))
        return missing, int(np.count_nonzero(np.isinf(array)))
    flat = array.ravel()
    # Labels read from text are all strings, so none of them is missing or
    # infinite: one pass in C says so, where the checks below take about 50 ms
    # per million labels (20 for pd.isna, 30 for the comparisons).
    if infer_dtype(flat, skipna=False) == "string":
        return 0, 0
    missing = pd.isna(flat)
    kept = flat[~missing]
    try:
        infinite = int(np.count_nonzero((kept == np.inf) | (kept == -np.inf)))
    except TypeError:
        infinite = 0
    return int(np.count_nonzero(missing)), infinite


def unmasked(y, name):
    """`y`, a masked array's data where nothing is masked; a masked entry is refused
    as a missing label (``np.asarray`` would keep its value and drop the mask)."""
    if isinstance(y, np.ma.MaskedArray):
        masked = np.ma.getmaskarray(y)
        if masked.any():
            refuse_missing(name, int(masked.sum()), masked.size)
        return y.data
    return y


def check_missing(array, name):
    """Refuse missing and infinite labels of a NumPy array (`refuse_missing`)."""
    if array.dtype.kind in "fO":
        missing, infinite = missing_and_infinite(array)
        refuse_missing(name, missing, array.size, infinite)


def refuse_missing(name, n_missing, n, n_infinite=0):
    """Refuse `n_missing` missing labels among `n` (NaN, None, NA or masked entries: one
    message whatever the array's library), then `n_infinite` infinite ones."""
    if n_missing:
        hint = (" unless a second labeller's labels come as `proxy=`" if name == "y_true"
                else "")
        fail(name, f"free of missing labels ({MISSING_KINDS}){hint}", None,
             shown=f"{n_missing} missing value(s) of {n}")
    if n_infinite:
        fail(name, "free of infinite labels", None, shown=f"{n_infinite} infinite value(s)")


def _label_kind(values):
    """'string' or 'number' for an array of (unique) labels."""
    if values.dtype.kind in "USO":
        if values.dtype.kind == "O":
            kinds = {isinstance(v, (str, bytes)) for v in values.ravel()}
            if len(kinds) > 1:
                raise ValueError(
                    "Mix of label input types (string and number) within one array."
                )
            return "string" if kinds == {True} else "number"
        return "string"
    return "number"


def _array_kind(array):
    """'string' or 'number' for a label array, without sorting plain dtypes."""
    if array.dtype.kind in "US":
        return "string"
    if array.dtype.kind in "iufb":
        return "number"
    try:
        return _label_kind(np.unique(array))
    except TypeError:
        raise ValueError(
            "Mix of label input types (string and number) within one array."
        ) from None


def _kind_values(array):
    """A few of an array's labels, as written: ``'False', 'True', ...`` or ``0, 1``."""
    try:
        values = np.unique(array)
    except TypeError:       # strings and numbers in one object array
        values = np.array(sorted({repr(v) for v in array.ravel()[:1000]}), dtype=object)
        shown = values[:5].tolist()
        return ", ".join(shown) + (", ..." if values.shape[0] > 5 else "")
    shown = ", ".join(repr(v) for v in plain_labels(values[:5]))
    return shown + (", ..." if values.shape[0] > 5 else "")


def mixed_kinds_error(arrays, names):
    """ValueError for label arrays of strings and of numbers together, naming
    which array holds which and a few of its labels (a CSV column of
    ``True``, ``False``, ``1``, ``0`` is read as text: its labels say so)."""
    parts = []
    for array, name in zip(arrays, names):
        try:
            kind = _array_kind(array)
        except ValueError:
            kind = "strings and numbers"
        else:
            kind = "strings" if kind == "string" else "numbers"
        parts.append(f"{name} holds {kind} ({_kind_values(array)})")
    return ValueError("Mix of label input types (string and number): "
                      + "; ".join(parts) + ". All must hold labels of one kind.")


def _is_indicator(array):
    """True for a 2-d 0/1 (or bool) matrix, dense or sparse."""
    if sp.issparse(array):
        data = array.data
        return data.size == 0 or bool(np.all((data == 0) | (data == 1)))
    if array.ndim != 2:
        return False
    if array.dtype.kind == "b":
        return True
    if array.dtype.kind not in "iuf":
        return False
    return bool(np.all((array == 0) | (array == 1)))


def check_pair(y_true, y_pred, name_true="y_true", name_pred="y_pred"):
    """Validate a pair of label arrays; return (y_true, y_pred, is_multilabel)."""
    y_true = _as_label_array(y_true, name_true)
    y_pred = _as_label_array(y_pred, name_pred)
    if y_true.shape[0] != y_pred.shape[0]:
        raise ValueError(
            f"`{name_true}` and `{name_pred}` must have the same number of samples; "
            f"got {y_true.shape[0]} and {y_pred.shape[0]}."
        )
    two_d = [sp.issparse(y) or y.ndim == 2 for y in (y_true, y_pred)]
    if any(two_d):
        for y, name, is_2d in ((y_true, name_true, two_d[0]), (y_pred, name_pred, two_d[1])):
            if not is_2d:
                raise ValueError(
                    f"`{name_true}` and `{name_pred}` must both be multilabel indicator "
                    f"matrices or both 1-d label arrays; `{name}` is 1-d."
                )
            if not _is_indicator(y):
                fail(name, "a 0/1 label indicator matrix when 2-d", y,
                     shown="a 2-d array with values other than 0 and 1")
        if y_true.shape != y_pred.shape:
            raise ValueError(
                f"`{name_true}` and `{name_pred}` must have the same shape; "
                f"got {y_true.shape} and {y_pred.shape}."
            )
        return y_true, y_pred, True
    for y, name in ((y_true, name_true), (y_pred, name_pred)):
        if y.dtype.kind == "f" and np.any(y != np.round(y)):
            fail(name, "discrete class labels (continuous values found)", y,
                 shown="non-integer float values")
    return y_true, y_pred, False


def _fast_path_size(y_true, y_pred):
    """K when both arrays hold integer labels in 0..K-1 with a small K, else None.

    Four O(n) reductions (min and max of each array); no sort, no copy.
    """
    if y_true.dtype.kind not in "iub" or y_pred.dtype.kind not in "iub":
        return None
    if y_true.dtype.kind == "b" and y_pred.dtype.kind == "b":
        return 2
    low = min(int(y_true.min()), int(y_pred.min()))
    high = max(int(y_true.max()), int(y_pred.max()))
    if low < 0 or high >= _FAST_PATH_MAX_CLASSES:
        return None
    return high + 1


# A strided sample of this many labels tells few distinct labels from many.
_SAMPLE = 4096


def _factorize(y):
    """``pandas.factorize(y)``, its hash table sized from a sample of ``y``.

    pandas sizes the table for ``len(y)`` distinct labels.  For a few classes
    among 10^6 items that is megabytes of mostly empty table, and a table of
    1024 slots, grown as needed, factorizes about a third faster (growing
    rehashes the distinct labels only).  When most labels are distinct
    the growth costs more than the small table saves (2.5x slower at 10^6
    distinct strings), so the small table is used only when the sample holds
    few distinct labels, each repeated 16 times on average.
    """
    sample = y[:: max(1, y.shape[0] // _SAMPLE)]
    distinct = pd.unique(sample).shape[0]
    few = distinct <= 1024 and 16 * distinct <= sample.shape[0]
    return pd.factorize(y, size_hint=1024 if few else None)


def _encode_strings(y_true, y_pred):
    """Encode two object arrays of strings by hashing, or return None.

    Each array is factorized on its own (O(n) hashing, no copy of the two
    together); only the K distinct labels are then sorted, and the codes are
    mapped to that order through a K-sized table.  Binary search would
    instead compare Python strings O(n log K) times, about four times slower.
    Returns None, leaving the caller's general path (and its errors) to deal
    with them, unless every label of both arrays is a string.
    """
    if (y_true.dtype.kind != "O" or y_pred.dtype.kind != "O"
            or not isinstance(y_true[0], str) or not isinstance(y_pred[0], str)):
        return None
    codes_true, seen_true = _factorize(y_true)
    codes_pred, seen_pred = _factorize(y_pred)
    seen = np.concatenate([seen_true, seen_pred])
    # factorize codes None and NaN as -1 and leaves them out of `seen`; the
    # general path reports them (as a missing label is never silently dropped).
    if infer_dtype(seen, skipna=False) != "string" or min(
            codes_true.min(), codes_pred.min()) < 0:
        return None
    # np.unique sorts with Python's ordering of str, as the general path and
    # scikit-learn do.
    classes = np.unique(seen)
    to_true = np.searchsorted(classes, seen_true)
    to_pred = np.searchsorted(classes, seen_pred)
    return to_true[codes_true], to_pred[codes_pred], classes


def _encode(y_true, y_pred):
    """Encode two label arrays against their sorted union of labels.

    Object arrays of strings are hashed (`_encode_strings`).  Otherwise the
    candidate labels come from a strided sample of each array; every item
    is then located by binary search (O(n log K), no full sort).  Labels the
    sample missed are added and the search repeated once.
    """
    encoded = _encode_strings(y_true, y_pred)
    if encoded is not None:
        return encoded
    n = y_true.shape[0]
    step = max(1, n // 4096)
    try:
        classes = np.union1d(np.unique(y_true[::step]), np.unique(y_pred[::step]))
        for _ in range(2):
            codes = []
            missing = []
            for y in (y_true, y_pred):
                code = np.searchsorted(classes, y)
                np.minimum(code, classes.shape[0] - 1, out=code)
                miss = classes[code] != y
                if miss.any():
                    missing.append(np.unique(y[miss]))
                codes.append(code)
            if not missing:
                break
            classes = np.union1d(classes, np.concatenate(missing))
    except TypeError:
        raise ValueError(
            "Mix of label input types (string and number) within one array."
        ) from None
    kinds = {_array_kind(y_true[:1]), _array_kind(y_pred[:1])}
    if len(kinds) > 1:
        raise mixed_kinds_error([y_true, y_pred], ["`y_true`", "`y_pred`"])
    return codes[0], codes[1], classes


# Joint codes are counted in cache-sized chunks when the K x K table is small:
# no n-sized temporary is allocated, which beats even a bare one-shot bincount.
_CHUNK = 1 << 16
_CHUNKED_MAX_CELLS = 1 << 16
# Above this many cells a joint K x K table is not built; the per-label
# tables then come from three bincounts of size K.
_MAX_TABLE_CELLS = 1 << 24


def _joint_bincount(codes_true, codes_pred, size, weight):
    """Joint K x K counts of integer codes; returns (weighted table, seen mask)."""
    cells = size * size
    n = codes_true.shape[0]
    if cells <= _CHUNKED_MAX_CELLS:
        counts = np.zeros(cells, dtype=np.int64)
        weighted = None if weight is None else np.zeros(cells)
        buffer = np.empty(min(n, _CHUNK), dtype=np.intp)
        for start in range(0, n, _CHUNK):
            stop = min(start + _CHUNK, n)
            codes = buffer[: stop - start]
            # Widen to intp first: narrow label dtypes (uint8, int16) would overflow.
            codes[...] = codes_true[start:stop]
            codes *= size
            codes += codes_pred[start:stop]
            counts += np.bincount(codes, minlength=cells)
            if weight is not None:
                weighted += np.bincount(codes, weights=weight[start:stop], minlength=cells)
    else:
        codes = codes_true.astype(np.intp) * size + codes_pred
        counts = np.bincount(codes, minlength=cells)
        weighted = None if weight is None else np.bincount(codes, weights=weight,
                                                           minlength=cells)
    table = counts.astype(np.float64) if weighted is None else weighted
    return table.reshape(size, size), (counts > 0).reshape(size, size)


@dataclass(frozen=True, slots=True)
class _Tally:
    """Per-class margins of a prediction: enough for every one-vs-rest table."""

    diag: np.ndarray      # weight of items right, per class
    row: np.ndarray       # weight of items truly of each class
    col: np.ndarray       # weight of items predicted as each class
    total: float
    classes: np.ndarray   # sorted labels indexing the arrays
    present: np.ndarray   # labels occurring in the data (weights aside)
    table: np.ndarray | None  # K x K joint table (rows true), None when K is huge


def tally_labels(y_true, y_pred, sample_weight):
    """Count a 1-d prediction once: fast path for 0..K-1 integers, else encode."""
    size = _fast_path_size(y_true, y_pred)
    if size is not None:
        codes_true, codes_pred, classes = y_true, y_pred, np.arange(size)
    else:
        codes_true, codes_pred, classes = _encode(y_true, y_pred)
        size = classes.shape[0]
    if size * size <= _MAX_TABLE_CELLS:
        table, seen = _joint_bincount(codes_true, codes_pred, size, sample_weight)
        present = seen.any(axis=1) | seen.any(axis=0)
        return _Tally(np.diag(table).copy(), table.sum(axis=1), table.sum(axis=0),
                      float(table.sum()), classes, present, table)
    right = codes_true == codes_pred
    weight = sample_weight
    diag = np.bincount(codes_true[right], weights=None if weight is None else weight[right],
                       minlength=size).astype(np.float64)
    row = np.bincount(codes_true, weights=weight, minlength=size).astype(np.float64)
    col = np.bincount(codes_pred, weights=weight, minlength=size).astype(np.float64)
    # The total by the cells' own route (not ``weight.sum()``, which sums in another
    # order): a label that every item carries then has a true negative count of
    # exactly 0.
    total = float(row.sum())
    present = (np.bincount(codes_true, minlength=size) > 0) | (
        np.bincount(codes_pred, minlength=size) > 0)
    return _Tally(diag, row, col, total, classes, present, None)


def _positions(classes, labels):
    """Index of each of ``labels`` in the sorted ``classes`` and whether it is there."""
    if classes.shape[0] == 0:
        return np.zeros(labels.shape, dtype=np.intp), np.zeros(labels.shape, dtype=bool)
    positions = np.clip(np.searchsorted(classes, labels), 0, classes.shape[0] - 1)
    return positions, classes[positions] == labels


def _select_labels(tally, labels):
    """One-vs-rest tables of the requested labels (absent ones are all-negative).

    Returns the per-label ``tp, fp, fn, tn`` arrays and the label array.  As in
    scikit-learn, items whose true and predicted labels are both outside
    ``labels`` count as true negatives of every listed label.
    """
    if labels is None:
        keep = np.flatnonzero(tally.present)
        out_labels = tally.classes[keep]
        tp, pred, true = tally.diag[keep], tally.col[keep], tally.row[keep]
    else:
        out_labels = labels
        positions, found = _positions(tally.classes, labels)
        tp = np.where(found, tally.diag[positions], 0.0)
        pred = np.where(found, tally.col[positions], 0.0)
        true = np.where(found, tally.row[positions], 0.0)
    fp = pred - tp
    fn = true - tp
    # With fractional weights the subtraction can leave a -1e-16 residue.
    tn = np.maximum(tally.total - tp - fp - fn, 0.0)
    return tp, fp, fn, tn, out_labels


def square_table(tally, labels):
    """The K x K table (rows true, columns predicted) restricted to ``labels``."""
    if tally.table is None:
        raise ValueError(
            f"Too many distinct labels ({tally.classes.shape[0]}) for a K x K confusion matrix."
        )
    if labels is None:
        keep = np.flatnonzero(tally.present)
        return tally.table[np.ix_(keep, keep)], tally.classes[keep]
    positions, found = _positions(tally.classes, labels)
    matrix = np.zeros((labels.shape[0], labels.shape[0]))
    idx = np.flatnonzero(found)
    matrix[np.ix_(idx, idx)] = tally.table[np.ix_(positions[idx], positions[idx])]
    return matrix, labels


def check_labels_argument(labels, classes):
    if labels is None:
        return None
    array = np.asarray(to_host(labels, "labels"))
    if array.ndim != 1 or array.shape[0] == 0:
        fail("labels", "a non-empty 1-d array-like of labels", labels)
    try:
        unique = np.unique(array)
    except TypeError:
        fail("labels", "labels of one kind (no None, no mix of strings and numbers)", labels,
             error=TypeError)
    if unique.shape[0] != array.shape[0]:
        fail("labels", "free of duplicates", labels)
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        fail("labels", "free of NaN and infinite values", labels)
    if classes is not None and classes.shape[0] and _label_kind(array) != _label_kind(classes):
        fail("labels", f"labels of the same kind as the data ({_label_kind(classes)}s)", labels)
    return array


def _indicator_columns(labels, n_columns):
    """Column indices of a multilabel indicator matrix: ``labels`` checked, or all."""
    if labels is None:
        return np.arange(n_columns)
    columns = np.asarray(to_host(labels, "labels"))
    if (columns.ndim != 1 or columns.shape[0] == 0 or columns.dtype.kind not in "iu"
            or columns.min() < 0 or columns.max() >= n_columns):
        fail("labels", f"column indices in [0, {n_columns}) for multilabel targets", labels)
    if np.unique(columns).shape[0] != columns.shape[0]:
        fail("labels", "free of duplicates", labels)
    return columns


def _check_average(average):
    if average not in _AVERAGES:
        fail("average", "one of 'binary', 'micro' or None", average)
    return average


def multiclass_confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None,
                                every_label=False):
    """K x K confusion matrix (rows true, columns predicted) and its labels.

    The counting of `ConfusionMatrix.from_predictions`, with the validation
    and fast path of `ConfusionCounts`.  By default the labels are those
    occurring in either array, sorted (booleans stay booleans); `labels`
    selects and orders them, a label absent from the data giving an empty
    row and column.  With ``every_label=True``, `labels` must name every
    label of the data: a label left out would drop its items silently.

    Returns
    -------
    matrix : ndarray of shape (K, K)
        Weighted counts; rows are true labels, columns predicted labels.
    labels : ndarray of shape (K,)
        The labels indexing rows and columns.
    """
    y_true, y_pred, multilabel = check_pair(y_true, y_pred)
    if multilabel:
        fail("y_true", "1-d single-label targets (a multilabel indicator matrix has no K x K "
             "confusion matrix; count it with ConfusionCounts.from_predictions)", y_true,
             shown=f"an indicator matrix of shape {y_true.shape}")
    weight = check_sample_weight(sample_weight, y_true.shape[0])
    tally = tally_labels(y_true, y_pred, weight)
    present = tally.classes[tally.present]
    labels = check_labels_argument(labels, present)
    if labels is not None and every_label:
        _, found = _positions(np.sort(labels), present)
        if not np.all(found):
            missing = present[~found]
            fail("labels", "a list of every label of the data (a label left out would drop "
                 "its items)", labels,
                 shown=f"{plain_labels(labels[:10])}{' ...' if labels.shape[0] > 10 else ''}"
                       f", which leaves out {plain_labels(missing[:10])}"
                       f"{' ...' if missing.shape[0] > 10 else ''}")
    matrix, out_labels = square_table(tally, labels)
    if labels is None and y_true.dtype.kind == "b" and y_pred.dtype.kind == "b":
        out_labels = out_labels.astype(bool)
    return matrix, out_labels


def plain_labels(values):
    """Labels as plain Python values (no ``np.str_('cat')`` in messages)."""
    return [value.item() if isinstance(value, np.generic) else value for value in values]


def _label_in(value, labels):
    """Whether ``value`` is exactly one of ``labels`` (1.5 is not 1, 2 is not True)."""
    value = value.item() if isinstance(value, np.generic) else value
    plain = [label.item() if isinstance(label, np.generic) else label for label in labels]
    return any(label == value for label in plain)
