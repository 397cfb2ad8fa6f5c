"""Every bad input raises a clear error naming the argument."""

import numpy as np
import pytest

import skprobeval
from skprobeval import (
    ConfusionCounts,
    PairedCounts,
    distance_weighted_precision_recall,
    get_metric,
    informedness_score,
    k_measure_score,
    specificity_score,
)

Y = [0, 1, 1, 0]

CASES = [
    # (callable, args, kwargs, exception, message fragment)
    (specificity_score, ([0, 1, 1], [0, 1]), {}, ValueError, "`y_true` and `y_pred`"),
    (specificity_score, ([], []), {}, ValueError, "`y_true` must be non-empty"),
    (specificity_score, ([0.0, np.nan, 1.0], [0, 1, 1]), {}, ValueError,
     "`y_true` must be free of missing labels (NaN, None, NA, masked)"),
    (specificity_score, ([0, 1, 1], [0.0, np.inf, 1.0]), {}, ValueError,
     "`y_pred` must be free of infinite labels"),
    (specificity_score, (np.array(["a", None, "b"], dtype=object), ["a", "b", "b"]), {},
     ValueError, "`y_true` must be free of missing"),
    (specificity_score, ([[0, 2], [1, 3]], [[0, 1], [1, 0]]), {}, ValueError,
     "`y_true` must be a 0/1 label indicator matrix"),
    (specificity_score, ([[0, 1], [1, 0]], [0, 1]), {}, ValueError,
     "both be multilabel indicator"),
    (specificity_score, (np.zeros((2, 2, 2)), np.zeros((2, 2, 2))), {}, ValueError,
     "`y_true` must be a 1-d array"),
    (specificity_score, ([0.5, 1.0], [0, 1]), {}, ValueError, "`y_true` must be discrete"),
    (specificity_score, (["a", "b"], [0, 1]), {}, ValueError, "Mix of label input types"),
    (specificity_score, (Y, Y), {"pos_label": 2}, ValueError, "`pos_label` must be one of"),
    (specificity_score, ([0, 1, 2], [0, 1, 2]), {}, ValueError,
     "`average` must be 'micro', 'macro', 'weighted' or None for multiclass targets"),
    (specificity_score, (Y, Y), {"average": "samples"}, ValueError, "`average` must be"),
    (specificity_score, (Y, Y), {"zero_division": 2}, ValueError, "`zero_division` must be"),
    (specificity_score, (Y, Y), {"sample_weight": [1, -1, 1, 1]}, ValueError,
     "`sample_weight` must be non-negative"),
    (specificity_score, (Y, Y), {"sample_weight": [1, np.nan, 1, 1]}, ValueError,
     "`sample_weight` must be finite"),
    (specificity_score, (Y, Y), {"sample_weight": [1, 1]}, ValueError,
     "`sample_weight` must be of the same length"),
    (specificity_score, (Y, Y), {"labels": [0, 0], "average": None}, ValueError,
     "`labels` must be free of duplicates"),
    (specificity_score, (Y, Y), {"labels": ["a"], "average": None}, ValueError,
     "`labels` must be labels of the same kind"),
    (informedness_score, (Y, Y), {"average": "samples"}, ValueError, "`average` must be"),
    (k_measure_score, (Y, Y), {"alpha": 0.0}, ValueError, "`alpha` must be a finite number > 0"),
    (k_measure_score, (Y, Y), {"beta": -1.0}, ValueError, "`beta` must be a finite number > 0"),
    (k_measure_score, (Y, Y), {"alpha": np.inf}, ValueError, "`alpha` must be"),
    (ConfusionCounts, (1, -1, 0, 0), {}, ValueError, "`fp` must be non-negative"),
    (ConfusionCounts, (1, np.nan, 0, 0), {}, ValueError, "`fp` must be finite"),
    (ConfusionCounts, ([1, 2], [1, 2, 3], 0, 0), {}, ValueError, "one common shape"),
    (ConfusionCounts.from_predictions, (Y, Y), {"average": "macro"}, ValueError,
     "`average` must be one of 'binary', 'micro' or None"),
    (ConfusionCounts.from_predictions, ([[0, 1], [1, 1]], [[0, 1], [1, 0]]), {},
     ValueError, "`average` must be 'micro', 'macro', 'weighted' or None for multilabel"),
    (ConfusionCounts.from_predictions, ([[0, 1], [1, 1]], [[0, 1], [1, 0]]),
     {"average": None, "labels": [0, 5]}, ValueError, "`labels` must be column indices"),
    (ConfusionCounts.from_confusion_matrix, ([[1, 2, 3]],), {}, ValueError,
     "`matrix` must be a square"),
    (ConfusionCounts.from_confusion_matrix, ([[1, -2], [0, 1]],), {}, ValueError,
     "`matrix` must be non-negative"),
    (ConfusionCounts.from_confusion_matrix, (np.ones((3, 3)),), {"average": "binary"},
     ValueError, "`average` must be None or 'micro'"),
    (PairedCounts, (1, 2, -3), {}, ValueError, "`ties` must be non-negative"),
    (PairedCounts.from_predictions, (Y, Y, [0, 1]), {}, ValueError,
     "`y_true` and `y_pred_second`"),
    (PairedCounts.from_predictions, (Y, Y, Y), {"sample_weight": [-1, 1, 1, 1]}, ValueError,
     "`sample_weight` must be non-negative"),
    (distance_weighted_precision_recall, (Y, Y), {"distance": [[0, 2], [2, 0]]}, ValueError,
     "`distance` must be finite with entries in [0, 1]"),
    (distance_weighted_precision_recall, (Y, Y), {"distance": np.ones((3, 3))}, ValueError,
     "`distance` must be an array of shape (2, 2)"),
    (distance_weighted_precision_recall, (Y, Y), {"distance": np.ones((2, 2))}, ValueError,
     "`distance` must be zero on the diagonal"),
    (distance_weighted_precision_recall, ([0, 1, 2], [0, 1, 2]),
     {"distance": 1 - np.eye(2), "labels": [0, 1]}, ValueError,
     "`labels` must be a list of every class"),
    (get_metric, ("no-such-metric",), {}, ValueError, "`metric` must be one of"),
    (get_metric, (3,), {}, TypeError, "`metric` must be a metric name"),
]


@pytest.mark.parametrize(
    "function, args, kwargs, error, message", CASES,
    ids=[f"{case[0].__qualname__}-{i}" for i, case in enumerate(CASES)],
)
def test_bad_input_raises_naming_the_argument(function, args, kwargs, error, message):
    with pytest.raises(error) as info:
        function(*args, **kwargs)
    assert message in str(info.value)


@pytest.mark.parametrize("prior", [0.0, -0.5, float("nan"), float("inf"), "flat"])
@pytest.mark.parametrize("call", [
    lambda prior: __import__("skprobeval").metric_posterior(
        ConfusionCounts(tp=3, fp=1, fn=2, tn=4), metric="f1", prior=prior),
    lambda prior: __import__("skprobeval").fbeta_posterior(
        [0, 1, 2, 2], [0, 2, 2, 1], average="macro", prior=prior),
    lambda prior: __import__("skprobeval").fbeta_posterior(
        [0, 1, 2, 2], [0, 2, 2, 1], average="micro", prior=prior),
    lambda prior: __import__("skprobeval").roc_auc_posterior(
        [0, 1, 1, 0], [0.1, 0.8, 0.3, 0.4], prior=prior),
    lambda prior: __import__("skprobeval").posterior_precision_recall_curve(
        [0, 1, 1, 0], [0.1, 0.8, 0.3, 0.4], prior=prior),
])
def test_a_bad_prior_is_refused_by_name(call, prior):
    # Every model's prior, the K x K table's included: a concentration must be a finite
    # number > 0 or one of the named priors.
    with pytest.raises(ValueError, match="`prior`"):
        call(prior)


@pytest.mark.parametrize("call", [
    lambda n: skprobeval.bayesian_sign_test([0.8, 0.7, 0.9], [0.75, 0.72, 0.85], n_draws=n),
    lambda n: skprobeval.bayesian_signed_rank_test([0.8, 0.7, 0.9], [0.75, 0.72, 0.85],
                                                   n_draws=n),
    lambda n: skprobeval.compare_across_datasets({"a": [0.8, 0.7, 0.9],
                                                  "b": [0.75, 0.72, 0.85]}, n_draws=n),
    lambda n: skprobeval.fbeta_posterior([0, 1, 1, 0], [0, 1, 0, 0], n_draws=n),
])
def test_draws_beyond_the_bound_name_n_draws_not_memory(call):
    # 10**12 draws asked for a 21.8 TiB array (MemoryError); the bound is stated.
    for n in (10**12, 10**8 + 1):
        with pytest.raises(ValueError, match=r"`n_draws` must be an integer from 2 to "
                                             r"100_000_000"):
            call(n)


def test_draws_times_values_beyond_8_gib_name_n_draws():
    curve = skprobeval.posterior_roc_curve([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match=r"`n_draws` must be at most 10_631_107 here: each "
                                         r"draw holds 101 values"):
        curve.band(kind="simultaneous", n_draws=10**8)
    many = skprobeval.ConfusionCounts(*(np.arange(1, 1001),) * 4)
    with pytest.raises(ValueError, match=r"`n_draws` must be at most 268_435 here"):
        skprobeval.metric_posterior(many, metric="mcc", n_draws=10**6)
