"""Each fitted fold estimator's predictions and scores on its test rows.

`compare_estimators` and `compare_cv_results` (results with fitted
estimators) predict every test fold once, after `cross_validate`: the labels
for the report's tables and, for average precision, the scores ranking each
label of the report first.
"""

from __future__ import annotations

import sys

import numpy as np

from .._core import to_host
from ._sklearn import estimator_responses

__all__ = ["predict_folds", "score_columns", "score_labels"]


def _index(X, rows):
    if hasattr(X, "iloc"):
        return X.iloc[rows]
    return X[rows]


def _scores_of(estimator, X, kind, labels):
    """Scores ranking each of `labels` first (columns), or None.

    The scores of `estimator_responses`, in its one order (``predict_proba``,
    then ``decision_function``, as scikit-learn's displays and the Displays
    here): the columns of a multinomial model's ``decision_function`` are
    logits that do not rank items one-vs-rest (on digits, logistic
    regression's macro average precision is 0.956 from them and 0.994 from
    its probabilities).  A binary ``decision_function`` scores
    ``classes_[1]`` (negated for ``classes_[0]``).  ``predict_proba`` gives
    one column per class (one ``(n, 2)`` array per label for some multilabel
    estimators).  A label the fold's estimator never saw gets a NaN column.
    """
    for _method, values in estimator_responses(estimator, X):
        columns = score_columns(values, getattr(estimator, "classes_", []), kind, labels)
        if columns is not None:
            return columns
    return None


def score_columns(values, classes, kind, labels):
    """One response of a classifier as the columns ranking each of `labels` first, or
    None where its shape does not fit (see `_scores_of`); `classes` are the columns'."""
    if isinstance(values, list):      # multilabel predict_proba: one (n, 2) per label
        try:
            values = np.column_stack([np.asarray(v, dtype=float)[:, -1] for v in values])
        except (IndexError, ValueError):
            return None
    values = np.asarray(values, dtype=float)
    if kind == "multilabel":
        return values[:, np.asarray(labels, dtype=np.intp)] if values.ndim == 2 else None
    classes = list(classes)
    if values.ndim == 1:
        if len(classes) != 2:
            return None
        values = np.column_stack([-values, values])
    if values.ndim != 2 or values.shape[1] != len(classes):
        return None
    columns = []
    for label in labels:
        matches = [i for i, c in enumerate(classes) if c == label]
        columns.append(values[:, matches[0]] if matches else np.full(values.shape[0], np.nan))
    return np.column_stack(columns)


def score_labels(y, average, labels, pos_label):
    """The labels the AP columns rank, in the report's order."""
    if y.ndim == 2:
        return np.arange(y.shape[1]) if labels is None else np.asarray(labels)
    if average == "binary":
        return np.asarray([pos_label], dtype=object)
    return np.unique(y) if labels is None else np.asarray(labels)


def predict_folds(fitted_estimators, folds, X, y, average, labels, pos_label, verbose):
    """Each fold's predictions and scores (None where the estimator gives none)."""
    kind = "multilabel" if y.ndim == 2 else "single"
    wanted = score_labels(y, average, labels, pos_label)
    fold_predictions, fold_scores = [], []
    for k, (fitted, fold) in enumerate(zip(fitted_estimators, folds)):
        X_test = _index(X, fold.test)
        fold_predictions.append(np.asarray(to_host(fitted.predict(X_test), "predict(X)")))
        fold_scores.append(_scores_of(fitted, X_test, kind, wanted))
        if verbose:
            print(f"    fold {k + 1}/{len(folds)} done", file=sys.stderr)
    return fold_predictions, fold_scores
