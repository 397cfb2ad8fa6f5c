"""Properties of the comparisons: probabilities sum to 1, swapping mirrors them,
ties do not move P(first better) at rope 0, pooling is order-free."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import counts, label_pairs, priors, ropes, tables

from skprobeval import (
    ConfusionCounts,
    PairedComparison,
    PairedCounts,
    bayesian_sign_test,
    bayesian_signed_rank_test,
    compare_independent,
    correlated_ttest,
    pairwise_comparison,
)

paired_counts = st.builds(PairedCounts, counts(), counts(), counts())


def _probs(result):
    return np.array([result.prob_first_better, result.prob_equivalent,
                     result.prob_second_better], dtype=float)


@given(paired_counts, priors(), ropes())
def test_paired_probabilities_sum_to_one_and_mirror(paired, prior, rope):
    result = PairedComparison(paired, prior=prior, rope=rope)
    probs = _probs(result)
    assert np.all(np.isfinite(probs)) and np.all((probs >= 0) & (probs <= 1))
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    swapped = _probs(PairedComparison(paired.swapped(), prior=prior, rope=rope))
    np.testing.assert_allclose(swapped, probs[::-1], rtol=0, atol=1e-12)


@given(paired_counts, counts(), priors())
def test_ties_do_not_move_the_probability_of_being_better_at_rope_0(paired, extra, prior):
    # With rope = 0, P(pi1 > pi2) depends on the first two Dirichlet cells only.
    before = PairedComparison(paired, prior=prior).prob_first_better
    more = PairedCounts(paired.first_better, paired.second_better, paired.ties + extra)
    after = PairedComparison(more, prior=prior).prob_first_better
    assert after == pytest.approx(before, rel=1e-9, abs=1e-12)


@given(st.lists(paired_counts, min_size=2, max_size=4), st.randoms(use_true_random=False),
       ropes())
def test_pooling_paired_counts_is_order_free(parts, random, rope):
    shuffled = list(parts)
    random.shuffle(shuffled)
    first, second = sum(parts), sum(shuffled)
    a = _probs(PairedComparison(first, rope=rope))
    b = _probs(PairedComparison(second, rope=rope))
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


@given(label_pairs(min_size=2, min_classes=2), st.randoms(use_true_random=False), ropes())
def test_pairwise_comparison_does_not_depend_on_item_order(case, random, rope):
    y_true = np.asarray(case["y_true"])
    second = np.asarray(case["y_pred"])[::-1]
    predictions = {"A": np.asarray(case["y_pred"]), "B": second}
    order = np.arange(len(y_true))
    random.shuffle(order)
    weight = case["sample_weight"]
    one = pairwise_comparison(y_true, predictions, rope=rope, sample_weight=weight)
    other = pairwise_comparison(y_true[order], {k: v[order] for k, v in predictions.items()},
                                rope=rope, sample_weight=None if weight is None else weight[order])
    np.testing.assert_allclose(one.to_numpy(dtype=float), other.to_numpy(dtype=float),
                               rtol=1e-9, atol=1e-12)


@given(tables(max_value=1e6), tables(max_value=1e6),
       st.sampled_from(["precision", "recall", "f1", "accuracy", "informedness", "mcc"]))
def test_independent_comparison_sums_to_one_and_mirrors(table_a, table_b, metric):
    a, b = ConfusionCounts(**table_a), ConfusionCounts(**table_b)
    result = compare_independent(a, b, metric=metric, n_draws=2000, random_state=0)
    probs = _probs(result)
    assert probs.sum() == pytest.approx(1.0, abs=1e-9)
    swapped = _probs(compare_independent(b, a, metric=metric, n_draws=2000, random_state=0))
    # Exact metrics mirror to quadrature accuracy; sampled ones within Monte Carlo error.
    tolerance = 1e-7 if result.n_draws == 0 else 5 * max(result.mc_error, 1e-3)
    np.testing.assert_allclose(swapped, probs[::-1], rtol=0, atol=tolerance)


score_lists = st.lists(st.floats(0, 1), min_size=2, max_size=30)


@given(score_lists, st.data(), ropes())
def test_correlated_ttest_sums_to_one_and_mirrors(scores_a, data, rope):
    n = len(scores_a)
    scores_b = data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n), label="scores_b")
    result = correlated_ttest(scores_a, scores_b, test_fraction=0.2, rope=rope)
    probs = _probs(result)
    assert np.all(np.isfinite(probs)) and probs.sum() == pytest.approx(1.0, abs=1e-12)
    swapped = _probs(correlated_ttest(scores_b, scores_a, test_fraction=0.2, rope=rope))
    np.testing.assert_allclose(swapped, probs[::-1], rtol=0, atol=1e-12)


@given(score_lists, st.data(), ropes(),
       st.sampled_from([bayesian_signed_rank_test, bayesian_sign_test]))
def test_across_data_set_tests_sum_to_one_and_mirror(scores_a, data, rope, test):
    n = len(scores_a)
    scores_b = data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n), label="scores_b")
    result = test(scores_a, scores_b, rope=rope, n_draws=2000, random_state=0)
    probs = _probs(result)
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    swapped = _probs(test(scores_b, scores_a, rope=rope, n_draws=2000, random_state=1))
    # Independent streams: within 6 combined Monte Carlo standard errors.
    se = np.sqrt(probs * (1 - probs) / 2000 + swapped[::-1] * (1 - swapped[::-1]) / 2000)
    assert np.all(np.abs(swapped[::-1] - probs) <= 6 * se + 1e-12), (probs, swapped)
    again = test(scores_a, scores_b, rope=rope, n_draws=2000, random_state=0)
    np.testing.assert_array_equal(_probs(again), probs)
