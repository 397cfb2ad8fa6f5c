"""From labels to counts; labels are handled here and nowhere above.

Label encoding and selection, pandas/Parquet columns, Dask inputs, and the
immutable confusion matrices, confusion counts, paired counts and joint counts
of several systems every metric, posterior and ranking reads.
"""

from ._clusters import ClusterCodes, cluster_codes
from ._counts import (
    ConfusionCounts,
    JointCodes,
    PairedCounts,
    joint_codes,
    label_masks,
    paired_items,
    positive_position,
    refuse_binary_multilabel,
)
from ._dask import is_dask
from ._data import as_pandas_frame, frame_column, frame_matrix, resolve_columns
from ._joint import JointCounts, prediction_systems
from ._labels import (
    check_labels_argument,
    check_missing,
    check_pair,
    plain_labels,
    square_table,
    tally_labels,
    unmasked,
)
from ._matrix import ConfusionMatrix, matrix_items

__all__ = [
    "ClusterCodes",
    "cluster_codes",
    "ConfusionCounts",
    "ConfusionMatrix",
    "JointCodes",
    "JointCounts",
    "PairedCounts",
    "as_pandas_frame",
    "check_labels_argument",
    "check_missing",
    "check_pair",
    "frame_column",
    "frame_matrix",
    "is_dask",
    "joint_codes",
    "label_masks",
    "matrix_items",
    "paired_items",
    "plain_labels",
    "positive_position",
    "prediction_systems",
    "refuse_binary_multilabel",
    "resolve_columns",
    "square_table",
    "tally_labels",
    "unmasked",
]
