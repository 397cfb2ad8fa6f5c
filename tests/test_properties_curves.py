"""Properties under tiny weights and priors (weights from 1e-4, priors from
1e-3): every probability, band and interval of the ranking posteriors, the
curves and the comparisons is defined."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from strategies import scores_with_ties

from skprobeval import (
    ConfusionCounts,
    average_precision_posterior,
    compare_independent,
    compare_paired,
    compare_paired_metric,
    compare_scores,
    metric_posterior,
    posterior_precision_recall_curve,
    posterior_roc_curve,
    roc_auc_posterior,
)

# A weight scale from 1e-4 (far below the boundary mass) to 10, priors down to 1e-3.
tiny_weights = st.sampled_from([1e-4, 1e-3, 0.01, 1.0, 10.0])
tiny_priors = st.sampled_from([1e-3, 0.01, 0.1, 0.5])


@st.composite
def ranked_items(draw):
    n = draw(st.integers(2, 12))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[draw(st.integers(0, n - 1))] = 1 - y[0]         # both classes present
    y[0] = 1 - y[0] if np.all(y == y[0]) else y[0]
    score_a, score_b = draw(scores_with_ties(n)), draw(scores_with_ties(n))
    factor = draw(st.lists(st.sampled_from([1.0, 2.0, 5.0]), min_size=n, max_size=n))
    weight = draw(tiny_weights) * np.array(factor)
    return y, score_a, score_b, weight


def _finite_interval(interval, low=-np.inf, high=np.inf):
    return bool(np.isfinite(list(interval)).all() and low <= interval[0] <= interval[1] <= high)


@given(ranked_items(), tiny_priors, st.sampled_from(["average_precision", "roc_auc"]),
       st.sampled_from([0.0, 0.01]))
def test_comparisons_of_scores_stay_defined(items, prior, metric, rope):
    y, score_a, score_b, weight = items
    result = compare_scores(y, score_a, score_b, metric=metric, rope=rope, sample_weight=weight,
                            prior=prior, n_draws=200, random_state=0)
    probs = np.array([result.prob_first_better, result.prob_equivalent,
                      result.prob_second_better])
    assert np.isfinite(probs).all() and abs(probs.sum() - 1) < 1e-12
    assert result.difference.n_draws == 200
    assert _finite_interval(result.interval(), -1.0, 1.0)


@given(ranked_items(), tiny_priors)
def test_ranking_posteriors_and_bands_stay_defined(items, prior):
    y, score, _, weight = items
    for make in (average_precision_posterior, roc_auc_posterior):
        posterior = make(y, score, sample_weight=weight, prior=prior, n_draws=200,
                         random_state=0)
        assert _finite_interval(posterior.interval(), 0.0, 1.0)
        assert _finite_interval(posterior.hdi(), 0.0, 1.0)
    for make in (posterior_precision_recall_curve, posterior_roc_curve):
        curve = make(y, score, sample_weight=weight, prior=prior)
        for kind in ("pointwise", "simultaneous"):
            band = curve.band(0.9, kind=kind, n_draws=200, random_state=0)
            assert np.isfinite(band.low).all() and np.isfinite(band.high).all()
            assert np.all((0 <= band.low) & (band.low <= band.high) & (band.high <= 1))


@given(ranked_items(), tiny_priors, st.sampled_from(["f1", "precision", "informedness", "mcc"]))
def test_comparisons_of_labels_stay_defined(items, prior, metric):
    y, score_a, score_b, weight = items
    a, b = (score_a > 0.5).astype(int), (score_b > 0.5).astype(int)
    first = ConfusionCounts.from_predictions(y, a, sample_weight=weight)
    second = ConfusionCounts.from_predictions(y, b, sample_weight=weight)
    for result in (compare_paired_metric(y, a, b, metric=metric, sample_weight=weight,
                                         prior=prior, n_draws=200, random_state=0),
                   compare_independent(first, second, metric=metric, prior=prior, n_draws=200,
                                       random_state=0),
                   compare_paired(y, a, b, sample_weight=weight, prior=prior)):
        probs = np.array([result.prob_first_better, result.prob_equivalent,
                          result.prob_second_better])
        assert np.isfinite(probs).all() and abs(probs.sum() - 1) < 1e-9
        assert _finite_interval(result.interval(), -2.0, 2.0)
    posterior = metric_posterior(first, metric=metric, prior=prior, n_draws=200,
                                 random_state=0)
    assert _finite_interval(posterior.interval(), -1.0, 1.0)
