"""The normal hierarchical model's grid posterior of the spread (``_compare/_hierarchical.py``),
the one implementation behind the runs model and the systems' partial pooling."""

import numpy as np
import pytest
from scipy import integrate, stats

from skprobeval._compare._hierarchical import (
    level_draws,
    spread_draws,
    spread_log_posterior,
)


def _marginal_by_quadrature(tau, covariance, means):
    """∫ N(y | μ 1, Σ + τ² I) dμ by adaptive quadrature over the level (flat prior)."""
    n = means.size
    law = stats.multivariate_normal(np.zeros(n), covariance + tau ** 2 * np.eye(n))
    centre = means.mean()
    value, _ = integrate.quad(lambda mu: law.pdf(means - mu), centre - 20, centre + 20,
                              points=[centre], limit=200)
    return np.log(value)


@pytest.mark.parametrize("independent", [True, False])
def test_grid_posterior_is_the_marginal_likelihood_times_the_prior(independent):
    # Reference: scipy's multivariate normal density integrated over μ by quad, for a
    # diagonal Σ (groups on their own items) and a full one (rotated into its eigenbasis).
    rng = np.random.default_rng(0)
    n = 4
    means = 1.4 + 0.1 * rng.standard_normal(n)
    if independent:
        covariance = np.diag(0.01 + 0.01 * rng.random(n))
        eigen, basis = np.diag(covariance), np.eye(n)
    else:
        root = 0.1 * rng.standard_normal((n, n))
        covariance = root @ root.T + 0.005 * np.eye(n)
        eigen, basis = np.linalg.eigh(covariance)
    size, tau_max = 64, 2.0
    log_post = spread_log_posterior(eigen, basis.T @ means, basis.T @ np.ones(n),
                                    tau_max=tau_max, size=size)
    u = (np.arange(size) + 0.5) / size
    tau = tau_max * u ** 2
    # Uniform prior of τ: each cell's prior mass is proportional to its width, 2 u du.
    expected = np.array([_marginal_by_quadrature(t, covariance, means) for t in tau]) + \
        np.log(u)
    np.testing.assert_allclose(log_post - log_post.max(), expected - expected.max(),
                               atol=1e-7)


@pytest.mark.slow
def test_a_spike_at_zero_carries_its_prior_mass():
    # With equal means the data favour τ = 0; the spike's posterior share is the prior
    # odds times the Bayes factor, computed here from the marginal likelihoods directly
    # (nested quadrature: about 3 s).
    variances, means = np.full(3, 0.02), np.full(3, 1.0)
    half_cauchy = lambda tau: -np.log1p((tau / 0.3) ** 2)  # noqa: E731
    size, tau_max, spike = 2048, 10.0, 0.2
    log_post = spread_log_posterior(variances, means, tau_max=tau_max, size=size,
                                    log_prior=half_cauchy, spike=spike)
    weight = np.exp(log_post - log_post.max())
    share_zero = weight[-1] / weight.sum()
    # The slab's marginal: ∫ p(y | τ) p(τ) dτ by quadrature over the normalised half-Cauchy
    # (truncated at tau_max), against p(y | τ = 0).
    def log_marginal(tau):
        return _marginal_by_quadrature(tau, np.diag(variances), means)
    norm, _ = integrate.quad(lambda t: np.exp(half_cauchy(t)), 0, tau_max)
    slab, _ = integrate.quad(lambda t: np.exp(log_marginal(t) - log_marginal(0.0)
                                              + half_cauchy(t)) / norm, 0, tau_max,
                             points=[0.05, 0.3], limit=200)
    expected = spike / (spike + (1 - spike) * slab)
    assert share_zero == pytest.approx(expected, rel=2e-3)


def test_draws_of_the_spread_and_level_follow_the_grid():
    # τ draws land in the cells in proportion to the posterior weights (one and several
    # sets), and μ given τ has the precision-weighted mean of the groups.
    rng = np.random.default_rng(1)
    variances, means = np.array([0.01, 0.02, 0.04]), np.array([1.0, 1.2, 0.9])
    log_post = spread_log_posterior(variances, means, tau_max=1.0, size=16)
    tau = spread_draws(log_post, 200_000, rng, tau_max=1.0, size=16)
    cells = np.floor(np.sqrt(tau / 1.0) * 16).astype(int)
    share = np.bincount(cells, minlength=16) / tau.size
    weight = np.exp(log_post - log_post.max())
    np.testing.assert_allclose(share, weight / weight.sum(), atol=4e-3)
    stacked = np.stack([log_post, log_post])
    tau_sets = spread_draws(stacked, 50_000, rng, tau_max=1.0, size=16)
    assert tau_sets.shape == (2, 50_000)
    for row in tau_sets:
        cells = np.floor(np.sqrt(row) * 16).astype(int)
        np.testing.assert_allclose(np.bincount(cells, minlength=16) / row.size,
                                   weight / weight.sum(), atol=8e-3)
    tau2 = np.full(100_000, 0.0)
    mu, total = level_draws(tau2, variances, means, rng)
    precision = np.sum(1 / variances)
    assert total.shape == (100_000, 3)
    assert mu.mean() == pytest.approx(np.sum(means / variances) / precision, abs=1e-3)
    assert mu.std() == pytest.approx(1 / np.sqrt(precision), rel=1e-2)


def test_independent_systems_are_pooled_with_a_diagonal_covariance():
    # Systems on test sets of their own: independent draws, Σ = diag of their variances.
    # The pooled draws' moments against adaptive quadrature over the spread with that
    # diagonal Σ (test_rank_systems' reference), and equal in distribution to pooling
    # with the sample covariance (whose off-diagonal entries are only Monte Carlo noise).
    from test_rank_systems import _pooled_moments_by_quadrature

    from skprobeval._compare._pooling import partial_pooling

    rng = np.random.default_rng(5)
    mean = 0.8 + 0.002 * np.array([-1.0, 0.3, 0.6, 1.2])
    sd = np.array([0.008, 0.01, 0.012, 0.009])
    draws = mean + sd * rng.standard_normal((50_000, 4))
    pooled = partial_pooling(draws, 1.0, np.random.default_rng(3), independent=True)
    expected_mean, expected_cov = _pooled_moments_by_quadrature(
        draws.mean(axis=0), np.diag(draws.var(axis=0, ddof=1)), 1.0)
    scale = np.sqrt(np.diag(expected_cov))
    np.testing.assert_array_less(np.abs(pooled.mean(axis=0) - expected_mean),
                                 5 * scale / np.sqrt(draws.shape[0]))
    np.testing.assert_allclose(np.cov(pooled, rowvar=False), expected_cov,
                               atol=0.03 * scale.max() ** 2)
    full = partial_pooling(draws, 1.0, np.random.default_rng(3))
    np.testing.assert_allclose(full.mean(axis=0), pooled.mean(axis=0),
                               atol=5 * scale.max() / np.sqrt(draws.shape[0]))
