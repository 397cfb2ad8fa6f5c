"""Which metric name and average mean what: one rule for every route.

`metric_score`, `metric_posterior`, the reports and the scorers read a
metric name and an average through `check_metric_target`, so a pair either
has one meaning everywhere (scikit-learn's, where scikit-learn has the
metric) or is refused everywhere with the same message.  The share of items
right of single-label data is ``accuracy`` with ``average="micro"``
(`sklearn.metrics.accuracy_score`); the pooled one-vs-rest accuracy, which
counts every item's true negatives once per label, is the metric
``one_vs_rest_accuracy`` (on multilabel data, 1 - Hamming loss).
"""

from __future__ import annotations

from .._core import fail
from .._counting import plain_labels

__all__ = ["check_metric_target"]

# The metrics whose pooled one-vs-rest value has a name of its own.
ONE_VS_REST = {"accuracy": "one_vs_rest_accuracy", "error": "one_vs_rest_error"}


def check_metric_target(metric, average, *, kind, every_label=True, requested=None):
    """Refuse metric and average pairs that scikit-learn defines otherwise.

    scikit-learn's ``accuracy_score`` of single-label data is the share of
    items right, which is micro accuracy over every label; averages of
    one-vs-rest accuracies count true negatives and are refused (they are
    ``one_vs_rest_accuracy``).  Its ``balanced_accuracy_score`` of K classes
    is macro recall.  For multilabel targets ``accuracy_score`` is subset
    accuracy (the pairwise exact-match comparison), not a pooled one-vs-rest
    accuracy.

    Parameters
    ----------
    metric : str or None
        A registered metric name (None, for a callable: nothing to check).
    average : str or None
        The average asked for.
    kind : {"binary", "multiclass", "multilabel"}
        The target's kind as counted (binary data averaged over its two
        labels is "multiclass").
    every_label : bool, default=True
        Whether the labels averaged over are every label of the data.
    requested : array-like, default=None
        The labels averaged over, shown when not every label is.
    """
    if kind == "binary" or average is None:
        return
    if metric in ONE_VS_REST:
        renamed = ONE_VS_REST[metric]
        if kind == "multilabel":
            fail("metric", "a per-label metric for multilabel targets: scikit-learn's "
                 "accuracy_score of multilabel data is subset accuracy (the report's "
                 "'right more often' table); pooled one-vs-rest accuracy, 1 - Hamming loss, "
                 f"is metric={renamed!r}", metric)
        if average != "micro":
            fail("average", f"'micro' for metric {metric!r} of multiclass data (the share of "
                 "items right, scikit-learn's accuracy_score); averages of one-vs-rest "
                 f"accuracies count true negatives (metric={renamed!r})", average)
        if not every_label:
            fail("labels", f"None (every label) for metric {metric!r} with average='micro': it "
                 "is the share of items right", plain_labels(requested))
    if metric == "balanced_accuracy" and kind == "multiclass":
        fail("metric", "'recall' with average='macro' for the balanced accuracy of more than "
             "two classes (scikit-learn's balanced_accuracy_score is macro recall)", metric)
