"""One meaning per metric name and average, in every route.

For every registered metric, every average and every kind of target,
`metric_score`, `metric_posterior`, the report of `compare_predictions` and
the scorers' `posterior_score` either agree on the quantity (the same point
value, a posterior about it) or refuse with the same exception and message.
"""

import warnings

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, hamming_loss

from skprobeval import (
    available_metrics,
    compare_predictions,
    metric_posterior,
    metric_score,
    posterior_score,
)

N_ITEMS = 240
AVERAGES = ["binary", "micro", "macro", "weighted", "powers", None]


def _targets():
    rng = np.random.default_rng(20260)
    binary = rng.integers(0, 2, N_ITEMS)
    flipped = np.where(rng.random(N_ITEMS) < 0.8, binary, 1 - binary)
    four = rng.integers(0, 4, N_ITEMS)
    guessed = np.where(rng.random(N_ITEMS) < 0.6, four, rng.integers(0, 4, N_ITEMS))
    columns = rng.integers(0, 2, (N_ITEMS, 3))
    noisy = np.where(rng.random((N_ITEMS, 3)) < 0.8, columns, 1 - columns)
    return {"binary": (binary, flipped), "multiclass": (four, guessed),
            "multilabel": (columns, noisy)}


TARGETS = _targets()


def _outcome(call):
    """(value, None) or (None, (exception type, message))."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return call(), None
        except (ValueError, TypeError) as error:
            return None, (type(error), str(error))


@pytest.mark.parametrize("kind", list(TARGETS))
@pytest.mark.parametrize("average", AVERAGES, ids=str)
@pytest.mark.parametrize("metric", available_metrics())
def test_every_route_agrees_or_refuses_alike(metric, average, kind):
    y_true, y_pred = TARGETS[kind]
    score, score_error = _outcome(lambda: metric_score(y_true, y_pred, metric=metric,
                                                       average=average, beta=2.0))
    posterior, posterior_error = _outcome(lambda: metric_posterior(
        y_true, y_pred, metric=metric, average=average, beta=2.0, n_draws=400,
        random_state=0))
    report, report_error = _outcome(lambda: compare_predictions(
        y_true, {"a": y_pred}, metric=metric, average=average, beta=2.0, n_draws=400))
    errors = [score_error, posterior_error, report_error]
    if average is not None:
        scored, scorer_error = _outcome(lambda: posterior_score(
            y_true, y_pred, metric=metric, average=average, beta=2.0, n_draws=400,
            random_state=0))
        errors.append(scorer_error)
    if any(error is not None for error in errors):
        assert all(error == errors[0] for error in errors), errors
        return
    point = np.asarray(report.summary["point"].to_numpy(), dtype=float)
    assert np.allclose(np.atleast_1d(score), point, rtol=1e-12, atol=0.0, equal_nan=True)
    # The posterior is about the same quantity: its mean lies within a few posterior
    # standard deviations (plus the prior's pull, under 0.02 at 240 items) of the point.
    mean = np.atleast_1d(np.asarray(posterior.mean(), dtype=float))
    spread = np.atleast_1d(np.asarray(posterior.std(), dtype=float))
    assert np.all(np.abs(mean - point) <= 4 * spread + 0.02), (mean, point)


def test_micro_accuracy_of_classes_is_scikit_learns_share_of_items_right():
    y_true, y_pred = TARGETS["multiclass"]
    # Reference: sklearn.metrics.accuracy_score.
    expected = accuracy_score(y_true, y_pred)
    with pytest.warns(FutureWarning, match="one_vs_rest_accuracy") as caught:
        value = metric_score(y_true, y_pred, metric="accuracy", average="micro")
    assert value == pytest.approx(expected, rel=1e-12)
    assert "share of items right" in str(caught[0].message)
    assert caught[0].filename == __file__
    with pytest.warns(FutureWarning, match="one_vs_rest_error"):
        error = metric_score(y_true, y_pred, metric="error", average="micro")
    assert error == pytest.approx(1.0 - expected, rel=1e-12)
    interval = metric_posterior(y_true, y_pred, metric="accuracy", average="micro").interval()
    assert interval.low < value < interval.high


def test_one_vs_rest_accuracy_keeps_the_pooled_value():
    y_true, y_pred = TARGETS["multiclass"]
    right = accuracy_score(y_true, y_pred)
    # Pooled over 4 one-vs-rest tables each wrong item is one FP and one FN among
    # 4 n cells: 1 - 2 (1 - right) / 4.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pooled = metric_score(y_true, y_pred, metric="one_vs_rest_accuracy", average="micro")
        error = metric_score(y_true, y_pred, metric="ovr_error", average="micro")
    assert pooled == pytest.approx(1 - 2 * (1 - right) / 4, rel=1e-12)
    assert error == pytest.approx(1 - pooled, rel=1e-12)
    # Multilabel: 1 - Hamming loss (sklearn.metrics.hamming_loss).
    y_true, y_pred = TARGETS["multilabel"]
    value = metric_score(y_true, y_pred, metric="one_vs_rest_accuracy", average="micro")
    assert value == pytest.approx(1 - hamming_loss(y_true, y_pred), rel=1e-12)
    report = compare_predictions(y_true, {"a": y_pred}, metric="one_vs_rest_accuracy",
                                 average="micro", n_draws=400)
    assert report.summary["point"].iloc[0] == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize(("metric", "average", "kind", "message"), [
    ("accuracy", "macro", "multiclass", "`average` must be 'micro' for metric 'accuracy'"),
    ("error", "weighted", "binary", "`average` must be 'micro' for metric 'error'"),
    ("accuracy", "micro", "multilabel", "metric='one_vs_rest_accuracy'"),
    ("balanced_accuracy", "macro", "multiclass", "`metric` must be 'recall' with"),
    ("precision", "powers", "binary", "`average` must be one of .* for metric 'precision'"),
])
def test_point_route_refuses_what_the_posterior_refuses(metric, average, kind, message):
    y_true, y_pred = TARGETS[kind]
    with pytest.raises(ValueError, match=message):
        metric_score(y_true, y_pred, metric=metric, average=average)
    with pytest.raises(ValueError, match=message):
        metric_posterior(y_true, y_pred, metric=metric, average=average)


def test_accuracy_of_a_subset_of_labels_is_refused_in_both_routes():
    y_true, y_pred = TARGETS["multiclass"]
    for route in (metric_score, metric_posterior):
        with pytest.raises(ValueError, match=r"`labels` must be None \(every label\)"):
            route(y_true, y_pred, metric="accuracy", average="micro", labels=[0, 1])
