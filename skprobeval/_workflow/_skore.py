"""skore's evaluation reports as evidence for the comparison reports.

skore (scikit-learn's maintainers' report library) keeps a model's
cross-validation in a ``CrossValidationReport`` (its out-of-fold predictions
by fold, ``split_indices``, ``y``), a model on one test set in an
``EstimatorReport`` (``y_test`` and its predictions), and several of either
in a ``ComparisonReport`` (``reports_``).  `compare_cv_results` and
`compare_predictions` take them as they take ``cross_validate`` results and
prediction arrays.  skore is never imported: the reports are read through
their public methods and attributes (duck typing), so a skore release that
keeps those keeps working, and this module costs nothing without skore.
"""

from __future__ import annotations

import numpy as np

from .._core import fail, to_host
from ._fold_predictions import score_columns, score_labels

__all__ = ["is_skore", "skore_cv_results", "skore_predictions"]

# The responses scoring the items, in the order the Displays and `compare_estimators`
# use them: probabilities first (a multinomial model's decision values are logits that
# do not rank the items one-vs-rest).
_RESPONSES = ("predict_proba", "decision_function")


def _kind(obj):
    """``"comparison"``, ``"cross_validation"``, ``"estimator"`` or None."""
    if not hasattr(obj, "get_predictions"):
        return None
    # A cross-validation report holds its folds' reports in ``reports_`` too.
    if hasattr(obj, "split_indices") and hasattr(obj, "y") and hasattr(obj, "ml_task"):
        return "cross_validation"
    if hasattr(obj, "y_test") and hasattr(obj, "ml_task"):
        return "estimator"
    if hasattr(obj, "reports_"):
        return "comparison"
    return None


def is_skore(obj):
    """Whether `obj` is a skore report, or a non-empty list or dict of them."""
    if _kind(obj) is not None:
        return True
    values = list(obj.values()) if isinstance(obj, dict) else (
        list(obj) if isinstance(obj, (list, tuple)) else [])
    return any(_kind(value) is not None for value in values)


def _named_reports(obj, argument, wanted):
    """{name: report} of the skore reports in `obj`, all of kind `wanted`."""
    if _kind(obj) == "comparison":
        inner = obj.reports_
        named = dict(inner) if isinstance(inner, dict) else {
            getattr(r, "estimator_name_", f"model_{k}"): r for k, r in enumerate(inner)}
    elif _kind(obj) is not None:
        named = {getattr(obj, "estimator_name_", "model"): obj}
    elif isinstance(obj, dict):
        named = dict(obj)
    else:
        named, seen = {}, {}
        for report in obj:
            name = getattr(report, "estimator_name_", "model")
            seen[name] = seen.get(name, 0) + 1
            named[name if seen[name] == 1 else f"{name}_{seen[name]}"] = report
    kinds = {name: _kind(report) for name, report in named.items()}
    if any(kind is None for kind in kinds.values()):
        fail(argument, "skore reports only, or no skore report (a list or dict may not mix "
             "skore reports with other results)",
             {name: type(report).__name__ for name, report in named.items()})
    if any(kind != wanted for kind in kinds.values()):
        other = ("compare_predictions (one test set)" if wanted == "cross_validation"
                 else "compare_cv_results (cross-validation)")
        fail(argument, f"skore {wanted.replace('_', '-')} reports (pass the others to "
             f"{other})", kinds)
    if len(named) < (1 if _kind(obj) is not None else 2):
        # One report alone is one system's posterior; a list or dict compares systems.
        fail(argument, "at least two skore reports in a list or dict (or one report, or a "
             "ComparisonReport)", list(named))
    for name, report in named.items():
        task = str(report.ml_task)
        if "classification" not in task:
            fail(argument, "reports of classifiers", {name: task})
    return named


def _same_target(named, read, argument, y, y_name):
    """The one target every report holds (and `y`, where given, must be it)."""
    targets = {name: np.asarray(to_host(read(report), f"{argument}[{name!r}]"))
               for name, report in named.items()}
    first_name, first = next(iter(targets.items()))
    for name, target in targets.items():
        if target.shape != first.shape or not np.array_equal(target, first):
            fail(argument, "reports on the same target (the same labels in the same order)",
                 name, shown=f"different targets in {first_name!r} ({first.shape[0]} items) "
                             f"and {name!r} ({target.shape[0]} items)")
    if y is not None:
        given = np.asarray(to_host(y, y_name))
        if given.shape != first.shape or not np.array_equal(given, first):
            fail(y_name, "None or the reports' own target", y,
                 shown=f"labels of shape {given.shape} that differ from the reports'")
    return first


def _pos_label(named, pos_label):
    """The reports' positive label where `pos_label` is left at its default 1."""
    theirs = {getattr(report, "pos_label", None) for report in named.values()} - {None}
    if pos_label == 1 and len(theirs) == 1:
        return theirs.pop()
    return pos_label


def _predictions(report, name, argument, **kwargs):
    try:
        return report.get_predictions(data_source="test", **kwargs)
    except (AttributeError, ValueError, KeyError, TypeError) as error:
        if kwargs:
            raise
        fail(argument, "reports holding test predictions", name,
             shown=f"{name!r}, whose get_predictions(data_source='test') failed: {error}")


def _scores(report, name, argument, classes_of, kind, wanted, *, folds=True):
    """Per fold (one "fold" for an estimator report), the scores ranking each wanted
    label first, or None (no scores)."""
    for method in _RESPONSES:
        try:
            responses = _predictions(report, name, argument, response_method=method)
        except (AttributeError, ValueError, KeyError, TypeError):
            continue
        responses = responses if folds else [responses]
        columns = [score_columns(to_host(values, f"{argument}[{name!r}]"), classes, kind,
                                 wanted)
                   for values, classes in zip(responses, classes_of)]
        if all(c is not None for c in columns):
            return columns
    return None


def skore_cv_results(results, *, y, average, labels, pos_label):
    """``({name: cross_validate-like result}, y, pos_label)`` of skore
    cross-validation reports (a ComparisonReport of them, a list or a dict)."""
    named = _named_reports(results, "results", "cross_validation")
    y_array = _same_target(named, lambda report: report.y, "results", y, "y")
    pos_label = _pos_label(named, pos_label)
    kind = "multilabel" if y_array.ndim == 2 else "single"
    wanted = score_labels(y_array, average, labels, pos_label)
    converted = {}
    for name, report in named.items():
        splits = [(np.asarray(train), np.asarray(test)) for train, test in report.split_indices]
        predictions = _predictions(report, name, "results")
        classes_of = [np.unique(y_array[train]) if kind == "single" else None
                      for train, _ in splits]
        scores = _scores(report, name, "results", classes_of, kind, wanted)
        result = {"predictions": [np.asarray(to_host(p, "predictions")) for p in predictions],
                  "indices": {"train": [train for train, _ in splits],
                              "test": [test for _, test in splits]}}
        if scores is not None:
            result["scores"] = scores
        converted[name] = result
    return converted, y_array, pos_label


def skore_predictions(reports, *, y_true, average, labels, pos_label):
    """``(y_true, {name: predictions}, {name: scores} or None, pos_label)`` of skore
    estimator reports on one test set (a ComparisonReport of them, a list or a dict)."""
    named = _named_reports(reports, "predictions", "estimator")
    y_array = _same_target(named, lambda report: report.y_test, "predictions", y_true,
                           "y_true")
    pos_label = _pos_label(named, pos_label)
    kind = "multilabel" if y_array.ndim == 2 else "single"
    wanted = score_labels(y_array, average, labels, pos_label)
    predictions, scores = {}, {}
    for name, report in named.items():
        predictions[name] = np.asarray(to_host(_predictions(report, name, "predictions"),
                                               "predictions"))
        # The fitted estimator's classes order its score columns.
        classes = getattr(getattr(report, "estimator_", None), "classes_", None)
        if classes is None and kind == "single":
            classes = np.unique(y_array)
        columns = _scores(report, name, "predictions", [classes], kind, wanted, folds=False)
        if columns is not None:
            scores[name] = columns[0]
    return y_array, predictions, scores if len(scores) == len(named) else None, pos_label
