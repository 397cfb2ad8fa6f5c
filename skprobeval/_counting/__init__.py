"""From labels to counts; labels are handled here and nowhere above.

Label encoding and selection, pandas/Parquet columns, Dask inputs, and the
immutable confusion and paired counts every metric and posterior reads.
"""

from ._counts import ConfusionCounts, JointCodes, PairedCounts, _label_masks, joint_codes
from ._dask import is_dask
from ._data import as_pandas_frame, frame_column, frame_matrix, resolve_columns
from ._labels import _check_labels_argument, _check_pair, _plain, _square_table, _tally

__all__ = [
    "ConfusionCounts",
    "JointCodes",
    "PairedCounts",
    "_check_labels_argument",
    "_check_pair",
    "_label_masks",
    "_plain",
    "_square_table",
    "_tally",
    "as_pandas_frame",
    "frame_column",
    "frame_matrix",
    "is_dask",
    "joint_codes",
    "resolve_columns",
]
