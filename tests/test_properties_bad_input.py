"""The bad-input contract over generated input: a ValueError or TypeError naming
the argument, never another exception, never a silent NaN.

One test per row of the contract (README "Bad input" and the user guide).
"""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from strategies import label_pairs, tables

import skprobeval as sp

Y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
P = np.array([0, 1, 0, 0, 1, 1, 0, 1])
P2 = np.array([1, 1, 0, 0, 1, 0, 0, 1])
S = np.array([0.1, 0.9, 0.4, 0.2, 0.8, 0.7, 0.3, 0.6])
COUNTS = sp.ConfusionCounts(8, 2, 4, 86)
FAST = {"n_draws": 200, "random_state": 0}

# (function, valid keyword arguments): every public function reading labels,
# scores, counts or parameters.
CALLS = {
    "specificity_score": (sp.specificity_score, {"y_true": Y, "y_pred": P}),
    "informedness_score": (sp.informedness_score, {"y_true": Y, "y_pred": P}),
    "k_measure_score": (sp.k_measure_score, {"y_true": Y, "y_pred": P, "alpha": 1.0}),
    "e_measure_score": (sp.e_measure_score, {"y_true": Y, "y_pred": P, "beta": 1.0}),
    "confusion_count": (sp.confusion_count, {"y_true": Y, "y_pred": P}),
    "precision_posterior": (sp.precision_posterior, {"y_true": Y, "y_pred": P, "prior": 0.5}),
    "fbeta_posterior": (sp.fbeta_posterior, {"y_true": Y, "y_pred": P, "beta": 2.0}),
    "metric_posterior": (sp.metric_posterior, {"counts": COUNTS, "metric": "mcc", **FAST}),
    "posterior_score": (sp.posterior_score, {"y_true": Y, "y_pred": P, "confidence": 0.9,
                                             **FAST}),
    "compare_paired": (sp.compare_paired, {"y_true": Y, "y_pred_a": P, "y_pred_b": P2,
                                           "rope": 0.01}),
    "compare_paired_metric": (sp.compare_paired_metric,
                              {"y_true": Y, "y_pred_a": P, "y_pred_b": P2, **FAST}),
    "compare_independent": (sp.compare_independent,
                            {"counts_a": COUNTS, "counts_b": COUNTS, **FAST}),
    "compare_predictions": (sp.compare_predictions,
                            {"y_true": Y, "predictions": {"A": P, "B": P2}, **FAST}),
    "compare_scores": (sp.compare_scores, {"y_true": Y, "y_score_a": S, "y_score_b": S[::-1],
                                           **FAST}),
    "correlated_ttest": (sp.correlated_ttest, {"scores_a": S, "scores_b": S[::-1],
                                               "test_fraction": 0.2}),
    "bayesian_signed_rank_test": (sp.bayesian_signed_rank_test,
                                  {"scores_a": S, "scores_b": S[::-1], **FAST}),
    "random_average_precision": (sp.random_average_precision,
                                 {"n_items": 10, "n_relevant": 3}),
    "random_precision_baseline": (sp.random_precision_baseline,
                                  {"n_items": 10, "n_relevant": 3, "confidence": 0.9}),
    "average_precision_posterior": (sp.average_precision_posterior,
                                    {"y_true": Y, "y_score": S, **FAST}),
    "precision_at_k_score": (sp.precision_at_k_score, {"y_true": Y, "y_score": S, "k": 3}),
    "posterior_report": (sp.posterior_report, {"y_true": Y, "y_pred": P, **FAST}),
    "ConfusionCounts": (sp.ConfusionCounts, {"tp": 1, "fp": 2, "fn": 3, "tn": 4}),
    "PairedCounts": (sp.PairedCounts, {"first_better": 1, "second_better": 2, "ties": 3}),
    "BetaPosterior": (sp.BetaPosterior, {"a": 1.5, "b": 2.5}),
    "FBetaPosterior": (sp.FBetaPosterior, {"tp": 1.5, "fp": 2.5, "fn": 0.5, "beta": 1.0}),
    "interval": (sp.BetaPosterior(2, 3).interval, {"confidence": 0.9}),
    "hdi": (sp.BetaPosterior(2, 3).hdi, {"confidence": 0.9}),
    "make_posterior_scorer": (sp.make_posterior_scorer, {"metric": "f1", "confidence": 0.9}),
}

WEIRD = st.one_of(
    st.sampled_from([None, True, -1, 0, 2, -0.5, 1.5, np.nan, np.inf, -np.inf, 1e300, "abc",
                     "", [], [[1, 2], [3]], (1, 2), {"a": 1}, 1j, np.array([]),
                     np.zeros((2, 2, 2)), np.array([np.nan] * 8), np.array(["a"] * 8),
                     -np.ones(8), np.ones(3), object()]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-10**4, 10**4),  # (larger n_items: a band of 10**6 cut-offs takes seconds)
)


def _numbers(value):
    """Every float held by a result (dataclasses, tuples, arrays, frames)."""
    if isinstance(value, (bool, str)) or value is None:
        return []
    if isinstance(value, (int, float, np.number)):
        return [float(value)]
    if isinstance(value, np.ndarray):
        return value.ravel().tolist() if value.dtype.kind in "fiu" else []
    if isinstance(value, (tuple, list)):
        return [x for item in value for x in _numbers(item)]
    fields = getattr(value, "__dataclass_fields__", None)
    if fields:
        return [x for name in fields if name not in ("samples", "predictions", "labels")
                for x in _numbers(getattr(value, name))]
    return []


@pytest.mark.parametrize("key", sorted(CALLS))
@given(data=st.data())
def test_any_value_gives_a_result_or_a_clear_error(key, data):
    function, kwargs = CALLS[key]
    name = data.draw(st.sampled_from(sorted(kwargs)), label="argument")
    value = data.draw(WEIRD, label="value")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = function(**{**kwargs, name: value})
    except (ValueError, TypeError) as error:
        # The argument is named (in backticks, or the message is about its value).
        message = str(error)
        assert name in message or "`" in message, (name, value, message)
        return
    # Accepted: then the answer is a number wherever the valid call's is.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        baseline = function(**kwargs)
    got, want = _numbers(result), _numbers(baseline)
    if len(got) == len(want):
        bad = [g for g, w in zip(got, want) if np.isnan(g) and not np.isnan(w)]
        assert not bad, (name, value, result)


# Row: lengths differ, empty input, NaN/inf labels, 2-D non-indicator labels.
@given(label_pairs(min_size=2, with_weights=False), st.integers(1, 5),
       st.sampled_from([sp.specificity_score, sp.precision_posterior, sp.confusion_count]))
def test_labels_of_different_lengths_are_refused(case, cut, function):
    y_pred = np.asarray(case["y_pred"])[: max(len(case["y_pred"]) - cut, 0)]
    with pytest.raises(ValueError, match="`y_true`|`y_pred`"):
        function(np.asarray(case["y_true"]), y_pred)


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=10)
       .filter(lambda v: not np.all(np.isfinite(v))),
       st.sampled_from(["y_true", "y_pred"]))
def test_non_finite_labels_are_refused(values, name):
    values = np.array(values)
    other = np.zeros(len(values))
    args = {"y_true": other, "y_pred": other, name: values}
    with pytest.raises(ValueError, match=f"`{name}`"):
        sp.specificity_score(**args)


# Row: sample_weight negative, NaN or of the wrong length.
@given(label_pairs(with_weights=False), st.data())
def test_bad_sample_weights_are_refused(case, data):
    n = len(case["y_true"])
    kind = data.draw(st.sampled_from(["negative", "nan", "length"]))
    if kind == "length":
        weight = np.ones(n + data.draw(st.integers(1, 3)))
    else:
        weight = np.ones(n)
        weight[data.draw(st.integers(0, n - 1))] = -1.0 if kind == "negative" else np.nan
    for function in (sp.ConfusionCounts.from_predictions, sp.precision_posterior):
        with pytest.raises(ValueError, match="`sample_weight`"):
            function(case["y_true"], case["y_pred"], labels=case["classes"], average=None,
                     sample_weight=weight)


# Row: counts negative or non-finite; prior <= 0; confidence outside (0, 1); beta <= 0;
# K-measure alpha <= 0; n_relevant outside 1..n_items; rope outside [0, 1).
NOT_POSITIVE = st.one_of(st.floats(max_value=0), st.just(np.nan), st.just(-np.inf),
                         st.just(np.inf))


@given(tables(), st.sampled_from(["tp", "fp", "fn", "tn"]),
       st.one_of(st.floats(max_value=-1e-300), st.just(np.nan), st.just(np.inf)))
def test_bad_counts_are_refused_echoing_the_value(table, cell, value):
    with pytest.raises(ValueError, match=f"`{cell}`"):
        sp.ConfusionCounts(**{**table, cell: value})


@given(NOT_POSITIVE, st.sampled_from(["precision_posterior", "posterior_score",
                                      "compare_paired", "compare_predictions"]))
def test_non_positive_priors_are_refused(prior, key):
    function, kwargs = CALLS[key]
    with pytest.raises(ValueError, match="`prior`"):
        function(**{**kwargs, "prior": prior})


@given(st.one_of(st.floats(max_value=0), st.floats(min_value=1), st.just(np.nan)),
       st.sampled_from(["interval", "hdi", "posterior_score", "random_precision_baseline",
                        "make_posterior_scorer"]))
def test_confidence_outside_0_1_is_refused(confidence, key):
    function, kwargs = CALLS[key]
    with pytest.raises(ValueError, match="`confidence`"):
        function(**{**kwargs, "confidence": confidence})


@given(NOT_POSITIVE, st.sampled_from([("fbeta_posterior", "beta"), ("FBetaPosterior", "beta"),
                                      ("e_measure_score", "beta"),
                                      ("k_measure_score", "alpha")]))
def test_non_positive_beta_and_alpha_are_refused(value, case):
    key, name = case
    function, kwargs = CALLS[key]
    with pytest.raises(ValueError, match=f"`{name}`"):
        function(**{**kwargs, name: value})


@given(st.integers(1, 10**6), st.integers(-10, 10**6 + 10))
def test_n_relevant_outside_1_to_n_items_is_refused(n_items, n_relevant):
    if 1 <= n_relevant <= n_items:
        assert sp.random_average_precision(n_items, n_relevant).mean > 0
        return
    for function in (sp.random_average_precision, sp.random_precision_baseline):
        with pytest.raises(ValueError, match="`n_relevant`"):
            function(n_items, n_relevant)


@given(st.one_of(st.floats(min_value=1), st.floats(max_value=-1e-300), st.just(np.nan)),
       st.sampled_from(["compare_paired", "compare_paired_metric", "compare_predictions",
                        "compare_scores"]))
def test_ropes_outside_0_1_are_refused_for_scores_in_0_1(rope, key):
    # The rope's range follows the compared scores' range: [0, 1) for metrics
    # in [0, 1] (the calls here compare accuracy, F1, AP); any finite value >= 0
    # for per-fold and per-data-set scores of any kind (below).
    function, kwargs = CALLS[key]
    with pytest.raises(ValueError, match="`rope`"):
        function(**{**kwargs, "rope": rope})


@given(st.one_of(st.floats(max_value=-1e-300), st.just(np.nan), st.just(np.inf)),
       st.sampled_from(["correlated_ttest", "bayesian_signed_rank_test"]))
def test_ropes_of_unbounded_scores_are_refused_only_when_negative_or_not_finite(rope, key):
    function, kwargs = CALLS[key]
    with pytest.raises(ValueError, match="`rope`"):
        function(**{**kwargs, "rope": rope})


# Row: an undefined point metric follows scikit-learn's zero_division.
@given(st.integers(1, 20), st.sampled_from(["warn", 0.0, 1.0, np.nan]))
def test_undefined_point_metrics_follow_zero_division(n, zero_division):
    # No negatives: specificity tn / (tn + fp) is 0/0.
    y = np.ones(n, dtype=int)
    if zero_division == "warn":
        with pytest.warns(UndefinedMetricWarning):
            assert sp.specificity_score(y, y, zero_division="warn") == 0.0
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = sp.specificity_score(y, y, zero_division=zero_division)
    assert value == zero_division or (np.isnan(value) and np.isnan(zero_division))


# Row: an undefined posterior input is the prior, without a warning.
@given(label_pairs(min_classes=2, with_weights=False), st.floats(1e-3, 10))
def test_no_predicted_positives_give_the_prior(case, prior):
    y_true = np.asarray(case["true_codes"]) % 2
    y_pred = np.zeros_like(y_true)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        posterior = sp.precision_posterior(y_true, y_pred, prior=prior)
    assert (posterior.a, posterior.b) == (prior, prior)


# Row: any sampled result is identical for an identical random_state.
@given(tables(max_value=1e6), st.integers(0, 2**32 - 1))
def test_sampled_results_repeat_for_a_repeated_seed(table, seed):
    counts = sp.ConfusionCounts(**table)
    for draw in (
        lambda: sp.metric_posterior(counts, metric="mcc", n_draws=300, random_state=seed).samples,
        lambda: sp.compare_independent(counts, counts, metric="mcc", n_draws=300,
                                       random_state=seed).prob_first_better,
        lambda: sp.BetaPosterior(counts.tp + 0.5, counts.fp + 0.5).rvs(5, random_state=seed),
    ):
        np.testing.assert_array_equal(draw(), draw())
