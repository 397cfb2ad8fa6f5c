"""Properties every public label-based metric must have (STYLE rule 19).

One registry of metrics, each run through the same checks: sample order,
string versus integer labels, unit weights versus none, empty input and NaN
raise.  Later modules add their functions to ``METRICS``.
"""

import numpy as np
import pytest

from skprobeval import (
    distance_weighted_precision_recall,
    e_measure_score,
    fallout_score,
    generality_score,
    informedness_score,
    k_measure_score,
    markedness_score,
    noise_score,
    overlap_score,
    silence_score,
    specificity_score,
)


def _dwpr(y_true, y_pred, **kwargs):
    return distance_weighted_precision_recall(
        y_true, y_pred, distance=[[0, 0.3, 1], [0.3, 0, 1], [1, 1, 0]], **kwargs)


# name -> (function, keyword arguments, binary?)
METRICS = {
    "specificity_score": (specificity_score, {}),
    "fallout_score": (fallout_score, {}),
    "silence_score": (silence_score, {}),
    "noise_score": (noise_score, {}),
    "overlap_score": (overlap_score, {}),
    "generality_score": (generality_score, {}),
    "e_measure_score": (e_measure_score, {"beta": 2.0}),
    "k_measure_score": (k_measure_score, {"alpha": 1.6, "beta": 0.5}),
    "informedness_score": (informedness_score, {}),
    "informedness_score_powers": (informedness_score, {"average": "powers"}),
    "markedness_score": (markedness_score, {}),
    "markedness_score_powers": (markedness_score, {"average": "powers"}),
    "specificity_score_macro": (specificity_score, {"average": "macro"}),
    "informedness_score_weighted": (informedness_score, {"average": "weighted"}),
    "distance_weighted_precision_recall": (_dwpr, {}),
}
MULTICLASS = {name for name in METRICS if name.endswith(("_powers", "_macro", "_weighted"))} | {
    "distance_weighted_precision_recall"}


def _data(name, rng):
    n = 120
    k = 3 if name in MULTICLASS else 2
    y_true = rng.integers(0, k, size=n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, size=n))
    return y_true, y_pred


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                               rtol=1e-12, atol=1e-12)


@pytest.fixture(params=sorted(METRICS))
def metric(request):
    return request.param


def test_sample_order_does_not_matter(metric, rng):
    function, kwargs = METRICS[metric]
    y_true, y_pred = _data(metric, rng)
    order = rng.permutation(y_true.shape[0])
    _close(function(y_true, y_pred, **kwargs), function(y_true[order], y_pred[order], **kwargs))


def test_string_labels_equal_integer_labels(metric, rng):
    function, kwargs = METRICS[metric]
    y_true, y_pred = _data(metric, rng)
    names = np.array(["a", "b", "c"])
    extra = {} if metric in MULTICLASS else {"pos_label": "b"}
    _close(function(y_true, y_pred, **kwargs),
           function(names[y_true], names[y_pred], **kwargs, **extra))


def test_unit_weights_equal_no_weights(metric, rng):
    function, kwargs = METRICS[metric]
    y_true, y_pred = _data(metric, rng)
    _close(function(y_true, y_pred, **kwargs),
           function(y_true, y_pred, sample_weight=np.ones(y_true.shape[0]), **kwargs))


def test_integer_weights_equal_repetition(metric, rng):
    function, kwargs = METRICS[metric]
    y_true, y_pred = _data(metric, rng)
    weight = rng.integers(0, 4, size=y_true.shape[0])
    _close(function(y_true, y_pred, sample_weight=weight, **kwargs),
           function(np.repeat(y_true, weight), np.repeat(y_pred, weight), **kwargs))


def test_empty_input_raises(metric):
    function, kwargs = METRICS[metric]
    with pytest.raises(ValueError, match="non-empty"):
        function([], [], **kwargs)


def test_nan_raises(metric):
    function, kwargs = METRICS[metric]
    with pytest.raises(ValueError, match="NaN"):
        function([0.0, 1.0, np.nan], [0, 1, 1], **kwargs)
    with pytest.raises(ValueError, match="NaN"):
        function([0, 1, 1], [0.0, np.nan, 1.0], **kwargs)


# Ranking metrics take scores instead of predicted labels.
from skprobeval import average_precision, precision_at_k_score  # noqa: E402

RANKING = {
    "average_precision": (average_precision, {}, True),
    "precision_at_k_score": (precision_at_k_score, {"k": 10}, False),
}


@pytest.fixture(params=sorted(RANKING))
def ranking(request):
    return request.param


def _ranking_data(rng):
    y_true = rng.integers(0, 2, size=80)
    y_true[:2] = [0, 1]
    y_score = np.round(y_true + rng.normal(size=80), 1)  # rounded: ties occur
    return y_true, y_score


def test_ranking_sample_order(ranking, rng):
    function, kwargs, _ = RANKING[ranking]
    y_true, y_score = _ranking_data(rng)
    order = rng.permutation(y_true.shape[0])
    _close(function(y_true, y_score, **kwargs),
           function(y_true[order], y_score[order], **kwargs))


def test_ranking_string_labels(ranking, rng):
    function, kwargs, _ = RANKING[ranking]
    y_true, y_score = _ranking_data(rng)
    names = np.array(["neg", "pos"])
    _close(function(y_true, y_score, **kwargs),
           function(names[y_true], y_score, pos_label="pos", **kwargs))


def test_ranking_unit_weights(ranking, rng):
    function, kwargs, weighted = RANKING[ranking]
    if not weighted:
        pytest.skip(f"{ranking} takes no sample_weight")
    y_true, y_score = _ranking_data(rng)
    _close(function(y_true, y_score, **kwargs),
           function(y_true, y_score, sample_weight=np.ones(y_true.shape[0]), **kwargs))


def test_ranking_empty_and_nan_raise(ranking):
    function, kwargs, _ = RANKING[ranking]
    with pytest.raises(ValueError, match="non-empty"):
        function([], [], **kwargs)
    with pytest.raises(ValueError, match="NaN"):
        function([0, 1, 1], [0.1, np.nan, 0.3], **kwargs)
    with pytest.raises(ValueError, match="NaN"):
        function([0.0, np.nan, 1.0], [0.1, 0.2, 0.3], **kwargs)
