"""One table says which metrics are exact: metric_posterior and compare_independent agree."""

import math

import numpy as np
import pytest
from scipy import integrate

from skprobeval import (
    ConfusionCounts,
    available_metrics,
    compare_independent,
    get_metric,
    metric_posterior,
)
from skprobeval._posteriors._posterior import SampledPosterior

A = ConfusionCounts(tp=40, fp=9, fn=12, tn=139)
B = ConfusionCounts(tp=33, fp=11, fn=15, tn=141)


@pytest.mark.parametrize("metric", available_metrics())
def test_exact_in_one_place_is_exact_in_the_other(metric, seed):
    posterior_a = metric_posterior(A, metric=metric, beta=2.0, n_draws=40_000, random_state=seed)
    posterior_b = metric_posterior(B, metric=metric, beta=2.0, n_draws=40_000,
                                   random_state=seed + 1)
    comparison = compare_independent(A, B, metric=metric, beta=2.0, n_draws=40_000,
                                     random_state=seed)
    sampled = isinstance(posterior_a, SampledPosterior)
    assert sampled == (get_metric(metric).exact is None)
    assert comparison.method == ("sampled" if sampled else "exact")
    if sampled:
        # Independent route: the two posteriors' own draws.
        p = float(np.mean(posterior_a.samples > posterior_b.samples))
        error = math.hypot(comparison.mc_error, math.sqrt(p * (1 - p) / 40_000))
        assert abs(comparison.prob_first_better - p) <= 4 * error
    else:
        # Independent route: P(M_A > M_B) = int pdf_A(x) cdf_B(x) dx by adaptive quadrature
        # on the two posterior objects.
        low = min(posterior_a.ppf(1e-12), posterior_b.ppf(1e-12))
        high = max(posterior_a.isf(1e-12), posterior_b.isf(1e-12))
        value, _ = integrate.quad(lambda x: posterior_a.pdf(x) * posterior_b.cdf(x), low, high,
                                  epsabs=1e-11, epsrel=1e-9, limit=200)
        assert comparison.prob_first_better == pytest.approx(value, abs=2e-6)


def test_direction_is_recorded_once():
    losses = {name for name in available_metrics() if not get_metric(name).higher_is_better}
    assert losses == {"fallout", "error", "one_vs_rest_error", "silence", "noise",
                      "e_measure"}
