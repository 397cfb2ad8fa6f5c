"""Counting from Dask arrays without loading them: per-block counts, summed in a tree.

Confusion counts are additive, so every block is counted with the NumPy
kernel and the small count arrays are added pairwise in a tree (labels, when
not given, found first from per-block uniques); comparisons of several
systems reduce the blocks instead to their distinct rows of labels with their
summed weights, merged in one pass (`distinct_rows` reduces arrays in memory
the same way, for `JointCounts`).  Dask is imported only when a Dask
collection is passed (the ``dask`` extra); the user guide's
``docs/user_guide/scale.rst`` describes the passes and their cost.
"""

from __future__ import annotations

import numpy as np

from .._core import fail
from ._labels import (
    _MAX_TABLE_CELLS,
    _indicator_columns,
    _joint_bincount,
    _label_kind,
    _Tally,
    check_labels_argument,
    missing_and_infinite,
    refuse_missing,
)

__all__ = ["dask_distinct", "dask_distinct_arrays", "dask_indicator_sums", "dask_paired",
           "dask_tally", "distinct_rows", "is_dask"]

# Largest (K + 1)^2 for a per-block joint table; beyond it, per-class margins.
_MAX_BLOCK_TABLE = 1_000_000


def is_dask(*values):
    """True when any of ``values`` is a Dask collection (duck typing, no import)."""
    return any(callable(getattr(value, "__dask_graph__", None)) for value in values
               if value is not None)


def _dask():
    try:
        import dask
        import dask.array as da
    except ImportError as error:
        raise ImportError(
            "Dask input needs the dask extra: `pip install 'skprobeval[dask]'`."
        ) from error
    return dask, da


def _as_dask(value, name, da):
    if is_dask(value) and callable(getattr(value, "to_dask_array", None)) and (
            getattr(value, "ndim", 1) == 1):
        value = value.to_dask_array()       # a Dask Series (its lengths are found below)
    array = value if is_dask(value) else da.asarray(np.asarray(value))
    if not hasattr(array, "chunks"):
        fail(name, "a Dask array or an array-like (a Dask DataFrame needs a column)", value,
             error=TypeError)
    if array.ndim not in (1, 2):
        fail(name, "1-d labels or a 2-d indicator matrix", value,
             shown=f"a Dask array of shape {array.shape}")
    return array


def _aligned(arrays, names, da):
    """Dask arrays of one length, chunked along the first axis like the first."""
    arrays = [_as_dask(value, name, da) for value, name in zip(arrays, names)]
    first = arrays[0]
    if any(np.isnan(c) for c in first.chunks[0]):
        first = first.compute_chunk_sizes()
        arrays[0] = first
    out = [first]
    for array, name in zip(arrays[1:], names[1:]):
        if any(np.isnan(c) for c in array.chunks[0]):
            array = array.compute_chunk_sizes()
        if array.shape[0] != first.shape[0]:
            raise ValueError(
                f"`{names[0]}` and `{name}` must have the same number of samples; "
                f"got {first.shape[0]} and {array.shape[0]}."
            )
        chunks = (first.chunks[0],) + tuple((s,) for s in array.shape[1:])
        out.append(array.rechunk(chunks))
    return out


def _tree(dask, parts, combine):
    """Delayed per-block results combined pairwise by ``combine``, as a balanced tree."""
    combine = dask.delayed(combine, pure=True)
    while len(parts) > 1:
        parts = [combine(parts[i], parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0]


def _add_tuples(first, second):
    return tuple(x + y for x, y in zip(first, second))


def _tree_sum(dask, parts):
    """Pairwise sums of delayed tuples of arrays, as a balanced tree."""
    return _tree(dask, parts, _add_tuples)


def _blocks(arrays):
    """The first-axis blocks of aligned arrays (None stays None), as delayed objects."""
    columns = [a.to_delayed().ravel() if a is not None else None for a in arrays]
    n = len(columns[0])
    return [tuple(c[i] if c is not None else None for c in columns) for i in range(n)]


def _check_weight_block(weight):
    if weight is None:
        return 0
    return int(np.sum(~np.isfinite(weight) | (weight < 0)))


def _label_block(block):
    """What the NumPy path checks in a block of labels: the numbers of missing and of
    infinite values and of values, whether a finite float is not an integer, and the
    kinds of the object labels."""
    block = np.asarray(block)
    missing, infinite = missing_and_infinite(block)
    if block.dtype.kind == "f":
        values = block[np.isfinite(block)]
        return (missing, infinite, block.size,
                bool(block.ndim == 1 and np.any(values != np.round(values))), set())
    kinds = {"string" if isinstance(v, (str, bytes)) else "number" for v in block.ravel()}
    return missing, infinite, block.size, False, kinds


def _merge_label_blocks(first, second):
    """Two `_label_block` results: counts added, findings joined."""
    return (first[0] + second[0], first[1] + second[1], first[2] + second[2],
            first[3] or second[3], first[4] | second[4])


def check_labels(dask, blocks, dtypes, names):
    """Refuse, with the NumPy path's messages, the labels the NumPy path refuses.

    `blocks` holds each array's delayed blocks (in item order).  Float labels
    must be finite and, in 1-d arrays, integers (2.0 is a class, 2.5 is a
    score); object labels must not be missing and must be of one kind; a
    missing label is refused with the count of all blocks (`refuse_missing`).
    Other dtypes hold no such values, so only float and object arrays cost
    a pass (its results are a few numbers per block).
    """
    check = dask.delayed(_label_block, pure=True)
    chosen = [(parts, name) for parts, dtype, name in zip(blocks, dtypes, names)
              if dtype.kind in "fO"]
    if not chosen:
        return
    trees = [_tree(dask, [check(block) for block in parts], _merge_label_blocks)
             for parts, name in chosen]
    found = dask.compute(*trees)
    for (missing, infinite, size, _, _), (_, name) in zip(found, chosen):
        refuse_missing(name, missing, size, infinite)
    for (_, _, _, continuous, _), (_, name) in zip(found, chosen):
        if continuous:
            fail(name, "discrete class labels (continuous values found)", None,
                 shown="non-integer float values")
    for (_, _, _, _, kinds), _ in zip(found, chosen):
        if len(kinds) > 1:
            raise ValueError("Mix of label input types (string and number) within one array.")


def _check_arrays(dask, arrays, names):
    """`check_labels` of aligned Dask arrays (1-d labels or 2-d indicator matrices)."""
    check_labels(dask, [array.to_delayed().ravel() for array in arrays],
                 [array.dtype for array in arrays], names)


def _label_kinds(arrays, names):
    kinds = {"string" if a.dtype.kind in "USO" else "number" for a in arrays}
    if len(kinds) > 1:
        raise ValueError(
            f"Mix of label input types (string and number) among {', '.join(names)}: "
            "all must hold labels of one kind."
        )


def _union(first, second):
    return (np.union1d(first[0], second[0]),)


def _classes(dask, arrays, names):
    """Sorted union of the labels of each 1-d Dask array: per-block uniques, merged
    pairwise in a tree (one pass, only label sets reach the client)."""
    unique = dask.delayed(lambda block: (np.unique(block),), pure=True)
    trees = [_tree(dask, [unique(block) for block in array.to_delayed().ravel()], _union)
             for array in arrays]
    found = [values for (values,) in dask.compute(*trees)]
    return np.unique(np.concatenate(found))


def _identity_codes(classes, true, pred):
    """True when the classes are 0..K-1 (or False, True) and every value is one."""
    k = classes.shape[0]
    if true.dtype.kind not in "iub" or pred.dtype.kind not in "iub" or k == 0:
        return False
    if classes.dtype.kind == "b":
        return true.dtype.kind == "b" and pred.dtype.kind == "b"
    if classes.dtype.kind not in "iu" or classes[0] != 0 or classes[-1] != k - 1:
        return False
    if true.size == 0:
        return True
    return (min(int(true.min()), int(pred.min())) >= 0
            and max(int(true.max()), int(pred.max())) < k)


def _count_block(true, pred, weight, classes, table):
    """Joint (K + 1)^2 table (code K: a label outside `classes`) or per-class margins,
    plus unweighted presence counts and the number of bad weights."""
    k = classes.shape[0]
    true, pred = np.asarray(true), np.asarray(pred)
    bad = np.array([_check_weight_block(weight)])
    w = None if weight is None else np.asarray(weight, dtype=np.float64)
    if table and _identity_codes(classes, true, pred):
        # Integer labels 0..K-1 (or booleans) with every value a class: the values
        # are the codes, counted in cache-sized chunks (the NumPy path's kernel).
        square, seen = _joint_bincount(true, pred, k + 1, w)
        presence = seen.sum(axis=1) + seen.sum(axis=0)
        return square.ravel(), presence, bad

    def codes(values):
        position = np.clip(np.searchsorted(classes, values), 0, max(k - 1, 0))
        return np.where(classes[position] == values, position, k) if k else np.zeros(
            values.shape, dtype=np.intp)

    ct, cp = codes(true), codes(pred)
    presence = np.bincount(ct, minlength=k + 1) + np.bincount(cp, minlength=k + 1)
    if table:
        counts = np.bincount(ct * (k + 1) + cp, weights=w,
                             minlength=(k + 1) ** 2).astype(np.float64)
        return counts, presence, bad
    right = ct == cp
    diag = np.bincount(ct[right], weights=None if w is None else w[right], minlength=k + 1)
    row = np.bincount(ct, weights=w, minlength=k + 1)
    col = np.bincount(cp, weights=w, minlength=k + 1)
    return np.concatenate([diag, row, col]).astype(np.float64), presence, bad


# Integer labels below this are counted in one pass without finding them first.
_SMALL_LABELS = 1024


def _small_block(true, pred, weight):
    """Joint table over 0..max of a block of small non-negative integer labels (or
    booleans), its unweighted presence, and the number of bad weights; ``None``
    when the block holds other labels."""
    true, pred = np.asarray(true), np.asarray(pred)
    if true.dtype.kind not in "iub" or pred.dtype.kind not in "iub":
        return None
    if true.size:
        low = min(int(true.min()), int(pred.min()))
        high = max(int(true.max()), int(pred.max()))
        if low < 0 or high >= _SMALL_LABELS:
            return None
    else:
        high = 0
    w = None if weight is None else np.asarray(weight, dtype=np.float64)
    square, seen = _joint_bincount(true, pred, high + 1, w)
    return square, seen.sum(axis=1) + seen.sum(axis=0), np.array([_check_weight_block(weight)])


def _add_small(first, second):
    """Sum of two `_small_block` results (tables padded to the larger size)."""
    if first is None or second is None:
        return None
    size = max(first[0].shape[0], second[0].shape[0])

    def pad(part):
        square, presence, bad = part
        extra = size - square.shape[0]
        return (np.pad(square, ((0, extra), (0, extra))), np.pad(presence, (0, extra)), bad)

    a, b = pad(first), pad(second)
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _small_tally(dask, true, pred, weight):
    """One pass for small non-negative integer (or boolean) labels; None otherwise."""
    block = dask.delayed(_small_block, pure=True)
    parts = [block(t, p, w) for t, p, w in _blocks([true, pred, weight])]
    return dask.compute(_tree(dask, parts, _add_small))[0]


def dask_tally(y_true, y_pred, sample_weight, labels):
    """`_Tally` of 1-d Dask labels: one counting pass when ``labels`` is given, a
    pass of per-block uniques before it otherwise."""
    dask, da = _dask()
    names = ["y_true", "y_pred"] + (["sample_weight"] if sample_weight is not None else [])
    arrays = _aligned([y_true, y_pred] + ([sample_weight] if sample_weight is not None else []),
                      names, da)
    true, pred = arrays[0], arrays[1]
    weight = arrays[2] if sample_weight is not None else None
    if weight is not None and weight.ndim != 1:
        fail("sample_weight", "1-d", sample_weight, shown=f"shape {weight.shape}")
    _check_arrays(dask, [true, pred], names[:2])
    _label_kinds([true, pred], names[:2])
    if labels is None and true.dtype.kind in "iu" and pred.dtype.kind in "iu":
        # Class indices (the usual case): counted at once, labels read off the table.
        small = _small_tally(dask, true, pred, weight)
        if small is not None:
            square, presence, bad = small
            if bad[0]:
                fail("sample_weight", "finite and non-negative", sample_weight,
                     shown=f"{int(bad[0])} negative or non-finite weight(s)")
            size = square.shape[0]
            return _Tally(np.diag(square).copy(), square.sum(axis=1), square.sum(axis=0),
                          float(square.sum()), np.arange(size), presence > 0, square)
    if labels is None:
        classes = _classes(dask, [true, pred], names[:2])
    else:
        data_kind = np.array(["a"] if true.dtype.kind in "US" else [0])
        classes = np.unique(check_labels_argument(
            labels, None if true.dtype.kind == "O" else data_kind))
    if classes.shape[0] and _label_kind(classes) == "string":
        classes = classes.astype(object)
    k = classes.shape[0]
    table = (k + 1) ** 2 <= _MAX_BLOCK_TABLE
    count = dask.delayed(_count_block, pure=True)
    parts = [count(t, p, w, classes, table) for t, p, w in _blocks([true, pred, weight])]
    counts, presence, bad = dask.compute(_tree_sum(dask, parts))[0]
    if bad[0]:
        fail("sample_weight", "finite and non-negative", sample_weight,
             shown=f"{int(bad[0])} negative or non-finite weight(s)")
    if table:
        square = counts.reshape(k + 1, k + 1)
        diag, row, col = np.diag(square)[:k], square[:k].sum(axis=1), square[:, :k].sum(axis=0)
        inner = square[:k, :k] if k * k <= _MAX_TABLE_CELLS else None
        total = float(square.sum())
    else:
        diag, row, col = counts[:k], counts[k + 1:2 * k + 1], counts[2 * k + 2:3 * k + 2]
        inner = None
        total = float(counts[k + 1:2 * k + 2].sum())
    return _Tally(diag, row, col, total, classes, presence[:k] > 0, inner)


def _indicator_block(true, pred, weight, columns):
    t = np.asarray(true)[:, columns]
    p = np.asarray(pred)[:, columns]
    invalid = np.array([int(np.sum((t != 0) & (t != 1))), int(np.sum((p != 0) & (p != 1))),
                        _check_weight_block(weight)])
    t, p = t.astype(bool), p.astype(bool)
    if weight is None:
        sums = np.stack([(t & p).sum(axis=0), t.sum(axis=0), p.sum(axis=0),
                         (~t & ~p).sum(axis=0)]).astype(np.float64)
        total = np.array([float(t.shape[0])])
    else:
        # Every cell summed directly, the true negatives too: no cell is a
        # rounding residue of the total less the others.
        w = np.asarray(weight, dtype=np.float64)
        sums = np.stack([w @ (t & p), w @ t, w @ p, w @ (~t & ~p)])
        total = np.array([w.sum()])
    return sums, total, invalid


def dask_indicator_sums(y_true, y_pred, sample_weight, labels):
    """(tp, true, pred, total, columns, tn) of 2-d Dask indicator matrices, one pass."""
    dask, da = _dask()
    names = ["y_true", "y_pred"] + (["sample_weight"] if sample_weight is not None else [])
    arrays = _aligned([y_true, y_pred] + ([sample_weight] if sample_weight is not None else []),
                      names, da)
    true, pred = arrays[0], arrays[1]
    if true.ndim != 2 or pred.shape[1:] != true.shape[1:]:
        raise ValueError("`y_true` and `y_pred` must both be multilabel indicator matrices "
                         "of one shape.")
    columns = _indicator_columns(labels, true.shape[1])
    true = true.rechunk({1: -1})
    pred = pred.rechunk({1: -1})
    _check_arrays(dask, [true, pred], names[:2])
    weight = arrays[2] if sample_weight is not None else None
    block = dask.delayed(_indicator_block, pure=True)
    parts = [block(t, p, w, columns) for t, p, w in _blocks([true, pred, weight])]
    sums, total, invalid = dask.compute(_tree_sum(dask, parts))[0]
    for count, name in zip(invalid, names + ["sample_weight"] * (3 - len(names))):
        if count:
            what = ("finite and non-negative" if name == "sample_weight"
                    else "a 0/1 label indicator matrix")
            fail(name, what, None, shown=f"{int(count)} invalid value(s)")
    return sums[0], sums[1], sums[2], float(total[0]), columns, sums[3]


def _paired_block(true, first, second, weight):
    right_first = np.asarray(first) == np.asarray(true)
    right_second = np.asarray(second) == np.asarray(true)
    a, b = right_first & ~right_second, right_second & ~right_first
    ties = ~a & ~b
    if weight is None:
        return (np.asarray(a.sum(axis=0), dtype=np.float64),
                np.asarray(b.sum(axis=0), dtype=np.float64),
                np.asarray(ties.sum(axis=0), dtype=np.float64), np.array([0]))
    # Each cell summed directly: no cell is a rounding residue of the others.
    w = np.asarray(weight, dtype=np.float64)
    return (np.asarray(w @ a, dtype=np.float64), np.asarray(w @ b, dtype=np.float64),
            np.asarray(w @ ties, dtype=np.float64), np.array([_check_weight_block(weight)]))


def dask_paired(y_true, y_first, y_second, sample_weight):
    """(first better, second better, ties, multilabel) of Dask arrays, one pass."""
    dask, da = _dask()
    names = ["y_true", "y_pred_first", "y_pred_second"] + (
        ["sample_weight"] if sample_weight is not None else [])
    arrays = _aligned([y_true, y_first, y_second]
                      + ([sample_weight] if sample_weight is not None else []), names, da)
    true, first, second = arrays[:3]
    for array, name in zip((first, second), names[1:3]):
        if array.shape[1:] != true.shape[1:]:
            raise ValueError(f"`y_true` and `{name}` must have one shape per item; got "
                             f"{true.shape[1:]} and {array.shape[1:]}.")
    if true.ndim == 2:
        true, first, second = (a.rechunk({1: -1}) for a in (true, first, second))
    _check_arrays(dask, [true, first, second], names[:3])
    _label_kinds([true, first, second], names[:3])
    weight = arrays[3] if sample_weight is not None else None
    block = dask.delayed(_paired_block, pure=True)
    parts = [block(t, a, b, w) for t, a, b, w in _blocks([true, first, second, weight])]
    n_first, n_second, ties, bad = dask.compute(_tree_sum(dask, parts))[0]
    if bad[0]:
        fail("sample_weight", "finite and non-negative", sample_weight,
             shown=f"{int(bad[0])} negative or non-finite weight(s)")
    return n_first, n_second, ties, true.ndim == 2


def _distinct_rows(columns, weight):
    """Distinct rows of 1-d label columns with their summed weights, and the number
    of bad weights.  Missing labels stay (as NaN) for the checks after."""
    import pandas as pd

    n = columns[0].shape[0]
    if weight is None:
        weight, bad = np.ones(n), 0
    else:
        weight = np.asarray(weight, dtype=np.float64)
        bad = _check_weight_block(weight)
    keys = [pd.Series(np.asarray(column), name=i) for i, column in enumerate(columns)]
    grouped = pd.Series(weight).groupby(keys, dropna=False, sort=False).sum()
    return grouped, np.array([bad])


def _frame_part(part, keys, weight_key):
    return _distinct_rows([part[key].to_numpy() for key in keys],
                          None if weight_key is None else part[weight_key].to_numpy())


def _array_part(arrays, weight):
    columns = []
    for array in arrays:
        array = np.asarray(array)
        columns.extend(array.T if array.ndim == 2 else [array])
    return _distinct_rows(columns, weight)


def _merge_distinct(first, second):
    import pandas as pd

    rows = pd.concat([first[0], second[0]])
    levels = list(range(rows.index.nlevels))
    return (rows.groupby(level=levels, dropna=False, sort=False).sum(), first[1] + second[1])


def _levels(rows):
    """The distinct rows of a grouped Series, one NumPy array per key, and their weights."""
    levels = [np.asarray(rows.index.get_level_values(i).to_numpy())
              for i in range(rows.index.nlevels)]
    return levels, np.asarray(rows.to_numpy(), dtype=np.float64)


def _reduce_distinct(dask, parts, weight_shown):
    """Merge per-block distinct rows in a tree, in one computation: (levels, weights)."""
    rows, bad = dask.compute(_tree(dask, parts, _merge_distinct))[0]
    if bad[0]:
        fail("sample_weight", "finite and non-negative", None,
             shown=f"{int(bad[0])} negative or non-finite weight(s){weight_shown}")
    return _levels(rows)


def _restore(values, dtype):
    """A level's values in its column's NumPy integer or boolean dtype."""
    if (isinstance(dtype, np.dtype) and dtype.kind in "biu" and values.dtype.kind in "biu"
            and values.dtype != dtype):
        return values.astype(dtype)
    return values


def distinct_rows(columns, weight=None):
    """The distinct rows of 1-d NumPy label columns of one length, with their weights.

    The reduction each block of a Dask collection goes through (`dask_distinct`),
    for arrays in memory: returns one array per column (the distinct rows, in
    the order first met, integer and boolean columns in their dtype) and the
    summed weights of each row (item counts without `weight`).  The columns
    and the weights must have been checked.
    """
    rows, _ = _distinct_rows(columns, weight)
    levels, summed = _levels(rows)
    return [_restore(values, np.asarray(column).dtype)
            for values, column in zip(levels, columns)], summed


def dask_distinct(frame, keys, weight_key=None):
    """The distinct rows of columns `keys` of a Dask DataFrame, with their weights.

    One pass over the data: every partition is grouped by its label columns
    with pandas, and the groups are merged pairwise in a tree.  Returns one
    NumPy array per key (the distinct rows) and their summed weights (item
    counts without `weight_key`): counting these rows with those weights gives
    the counts of the data.  Their number is that of distinct combinations of
    labels, at most K^len(keys), not the number of items.
    """
    dask, _ = _dask()
    wanted = list(dict.fromkeys(list(keys) + ([weight_key] if weight_key is not None else [])))
    part = dask.delayed(_frame_part, pure=True)
    parts = [part(p, list(keys), weight_key) for p in frame[wanted].to_delayed()]
    levels, weight = _reduce_distinct(
        dask, parts, "" if weight_key is None else f" in column {weight_key!r}")
    dtypes = frame.dtypes
    return [_restore(values, dtypes[key]) for values, key in zip(levels, keys)], weight


def dask_distinct_arrays(arrays, names, sample_weight=None, label_names=None):
    """`dask_distinct` for Dask arrays (1-d labels or 2-d indicator matrices) of one
    length; NumPy arrays among them are wrapped.  Returns the distinct rows of
    each array (2-d ones restored) and their summed weights.  The labels are
    checked as the NumPy path checks them, under `label_names` (default
    `names`), before they are reduced."""
    dask, da = _dask()
    if sample_weight is not None:
        arrays, names = list(arrays) + [sample_weight], list(names) + ["sample_weight"]
    aligned = _aligned(arrays, names, da)
    weight = aligned.pop() if sample_weight is not None else None
    if weight is not None and weight.ndim != 1:
        fail("sample_weight", "1-d", sample_weight, shown=f"shape {weight.shape}")
    aligned = [a.rechunk({1: -1}) if a.ndim == 2 else a for a in aligned]
    _check_arrays(dask, aligned, list(label_names or names)[:len(aligned)])
    part = dask.delayed(_array_part, pure=True)
    parts = [part(list(block[:-1]), block[-1]) for block in _blocks(aligned + [weight])]
    levels, weight = _reduce_distinct(dask, parts, "")
    out, start = [], 0
    for array in aligned:
        width = array.shape[1] if array.ndim == 2 else 1
        columns = [_restore(v, array.dtype) for v in levels[start:start + width]]
        out.append(np.column_stack(columns) if array.ndim == 2 else columns[0])
        start += width
    return out, weight
