"""Columns named in seaborn's ``data=`` convention.

``compare_predictions("gold", ["a", "b"], data=frame)`` names columns of
`frame`: a pandas or Dask DataFrame, a Polars DataFrame, a pyarrow Table or
a mapping of names to arrays.  Columns of a Dask DataFrame are never loaded:
their distinct rows are counted in one pass (see `resolve_columns`); every
other column is read as a NumPy array.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._core import fail, to_host
from ._dask import dask_distinct, dask_distinct_arrays, is_dask

__all__ = ["as_pandas_frame", "column_names", "frame_column", "frame_matrix", "is_dask_frame",
           "resolve_columns"]


def is_dask_frame(data):
    """True for a Dask DataFrame (duck typing: a Dask collection with columns)."""
    return (callable(getattr(data, "__dask_graph__", None))
            and getattr(data, "columns", None) is not None)


def column_names(data):
    """The column names of `data`, as a list (for error messages and checks)."""
    if callable(getattr(data, "collect", None)) and not is_dask_frame(data):
        fail("data", "a DataFrame whose columns can be read (call .collect() on a lazy "
             "Polars frame; use a Dask DataFrame to stream)", data, error=TypeError,
             shown=f"a {type(data).__name__}")
    for attribute in ("column_names", "columns"):     # a pyarrow Table's columns are arrays
        names = getattr(data, attribute, None)
        if names is not None and not callable(names):
            return list(names)
    if isinstance(data, Mapping):
        return list(data)
    fail("data", "a DataFrame (pandas, Dask, Polars), a pyarrow Table or a dict of columns",
         data, error=TypeError, shown=f"an object of type {type(data).__name__}")


def as_pandas_frame(data, name, requirement="a DataFrame"):
    """`data` as a pandas DataFrame with its own column names, whatever the frame
    library: pandas as is; Polars and pyarrow through their ``to_pandas``;
    other libraries through the DataFrame interchange protocol; anything else
    (a dict of lists, an array) through the ``pandas.DataFrame`` constructor."""
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        return data
    if is_dask_frame(data):
        return data.compute()
    if callable(getattr(data, "collect", None)):
        fail(name, "a DataFrame whose columns can be read (call .collect() on a lazy "
             "Polars frame)", data, error=TypeError, shown=f"a {type(data).__name__}")
    if callable(getattr(data, "to_pandas", None)):
        return data.to_pandas()
    if callable(getattr(data, "__dataframe__", None)):
        return pd.api.interchange.from_dataframe(data)
    if isinstance(data, Mapping):
        data = {key: to_host(column, f"{name}[{key!r}]") for key, column in data.items()}
    else:
        data = to_host(data, name)
    try:
        return pd.DataFrame(data)
    except (TypeError, ValueError):
        fail(name, requirement, data, error=TypeError)


def _is_key(value):
    """A column name rather than an array (strings, numbers and other scalars)."""
    if isinstance(value, (str, bytes, int, np.integer)):
        return True
    try:
        return np.ndim(value) == 0
    except ValueError:      # ragged rows: an (invalid) array, not a name
        return False


def frame_column(data, key, name):
    """The column of `data` that `key` names, or `key` itself when it is an array.

    Without `data`, `key` is returned as it is (another library's array copied
    to the host, `to_host`).  With `data`, a scalar `key` must name a column;
    an array-like `key` is taken as the values (as in seaborn, vectors and
    column names may be mixed).
    """
    if data is None or not _is_key(key):
        return to_host(key, name)
    names = column_names(data)
    if key not in names:
        shown = ", ".join(repr(n) for n in names[:10]) + (" ..." if len(names) > 10 else "")
        fail(name, f"a column of `data` ({shown})", key)
    column = data[key]
    if is_dask_frame(data):
        return column
    if type(column).__module__.startswith("pyarrow"):
        # A pyarrow Array copies only when asked to (strings, nulls).
        copy = {} if hasattr(column, "chunks") else {"zero_copy_only": False}
        return np.asarray(column.to_numpy(**copy))
    to_numpy = getattr(column, "to_numpy", None)   # pandas and Polars Series
    return np.asarray(to_numpy() if callable(to_numpy) else to_host(column, name))


def frame_matrix(data, key, name):
    """Like `frame_column`; a list of column names gives their 2-d stack."""
    if (data is not None and isinstance(key, (list, tuple)) and key
            and all(_is_key(k) for k in key)):
        return np.column_stack([frame_column(data, k, name) for k in key])
    return frame_column(data, key, name)


def _dask_key(data, key, name):
    if not _is_key(key):
        fail(name, "a column name of the Dask DataFrame `data`", key, error=TypeError,
             shown=f"an object of type {type(key).__name__}")
    frame_column(data, key, name)    # checks that the column exists
    return key


def resolve_columns(data, values, names, sample_weight=None, *, distinct_arrays=False,
                    label_names=None):
    """The label arrays and weights that `values` and `sample_weight` stand for.

    Returns ``(arrays, sample_weight, distinct)``.  Without `data`, the values
    come back untouched, unless `distinct_arrays` is set and some are Dask
    collections: those are reduced to distinct rows as below.  With a pandas,
    Polars or Arrow `data`, column names become NumPy arrays.  With a Dask
    DataFrame, the named columns are reduced in one pass to their distinct
    rows, returned with their summed weights (item counts when
    `sample_weight` is None) and ``distinct=True``: counting those rows with
    those weights gives the counts of the data.  `label_names` (default
    `names`) name the label arrays in the errors of the label checks made
    before Dask arrays are reduced (the names the NumPy path's checks use).
    """
    if data is None:
        for value, name in zip([*values, sample_weight], [*names, "sample_weight"]):
            if isinstance(value, str):
                fail(name, "an array (a column name needs `data=`, the DataFrame it names)",
                     value, error=TypeError)
        values = [to_host(value, name) for value, name in zip(values, names)]
        sample_weight = to_host(sample_weight, "sample_weight")
        if distinct_arrays and is_dask(*values, sample_weight):
            arrays, weight = dask_distinct_arrays(values, names, sample_weight, label_names)
            return arrays, weight, True
        return values, sample_weight, False
    column_names(data)      # a clear error for what is not a frame
    if is_dask_frame(data):
        keys = [_dask_key(data, value, name) for value, name in zip(values, names)]
        weight_key = (None if sample_weight is None
                      else _dask_key(data, sample_weight, "sample_weight"))
        arrays, weight = dask_distinct(data, keys, weight_key)
        return arrays, weight, True
    arrays = [frame_column(data, value, name) for value, name in zip(values, names)]
    weight = None if sample_weight is None else frame_column(data, sample_weight,
                                                             "sample_weight")
    return arrays, weight, False
