"""Calibration curves, calibration error, and mean losses by the Bayesian bootstrap.

Every figure is checked by a route that shares no code with the library: scikit-learn's
``calibration_curve``, ``brier_score_loss`` and ``log_loss`` for the points, statsmodels'
Jeffreys interval and scipy's Beta quantiles for the bands, brute-force binomial sums for the
expected error of a calibrated model, closed-form moments of the Bayesian bootstrap (Rubin
1981) for its draws, and seeded simulations for coverage.
"""

import math
import warnings

import numpy as np
import pytest
from optional import needs
from scipy import integrate, stats
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss, log_loss

from skprobeval import (
    CalibrationCurve,
    CurveBand,
    brier_score_posterior,
    calibration_error_posterior,
    compare_losses,
    log_loss_posterior,
    mean_loss_posterior,
    posterior_calibration_curve,
)
from skprobeval._posteriors._calibration import _binomial_mean_absolute_deviation


def _calibrated(rng, n, power=1.0):
    """Probabilities uniform on [0, 1]; labels drawn with probability ``p ** power``
    (calibrated at power 1)."""
    p = rng.random(n)
    return rng.random(n) < p ** power, p


# ---------------------------------------------------------------------------
# The curve against scikit-learn
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 3, 5, 10, 40])
@pytest.mark.parametrize("n", [9, 200, 3000])
def test_prob_true_and_prob_pred_are_scikit_learns(strategy, n_bins, n, seed):
    rng = np.random.default_rng(seed)
    y, p = _calibrated(rng, n, power=2.0)
    p = p ** 2
    # Values on bin edges (0, 0.5, 1) and ties: the bin each joins is scikit-learn's.
    p[:4] = [0.0, 0.5, 1.0, 0.5]
    y[:2] = [False, True]
    curve = posterior_calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    np.testing.assert_array_equal(curve.prob_true, prob_true)
    np.testing.assert_array_equal(curve.prob_pred, prob_pred)
    assert curve.counts.sum() == n
    np.testing.assert_array_equal(curve.positives + curve.negatives, curve.counts)
    assert curve.bin_edges.shape == (n_bins + 1,) and len(curve) == prob_true.shape[0]


def test_the_docstring_example_of_scikit_learn():
    # sklearn.calibration.calibration_curve's own example (n_bins=3).
    curve = posterior_calibration_curve([0, 0, 0, 0, 1, 1, 1, 1, 1],
                                        [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0], n_bins=3)
    np.testing.assert_allclose(curve.prob_true, [0.0, 0.5, 1.0])
    np.testing.assert_allclose(curve.prob_pred, [0.2, 0.525, 0.85])
    np.testing.assert_array_equal(curve.counts, [3, 2, 4])
    assert isinstance(curve, CalibrationCurve)


def test_empty_bins_are_dropped_and_named():
    curve = posterior_calibration_curve([0, 1, 0, 1], [0.05, 0.15, 0.92, 0.97], n_bins=10)
    np.testing.assert_array_equal(curve.bins, [0, 1, 9])
    np.testing.assert_array_equal(curve.counts, [1, 1, 2])


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_integer_weights_are_repeated_items(strategy, rng):
    y, p = _calibrated(rng, 60)
    weight = rng.integers(0, 4, 60)
    weighted = posterior_calibration_curve(y, p, n_bins=4, strategy=strategy,
                                           sample_weight=weight)
    repeated = posterior_calibration_curve(np.repeat(y, weight), np.repeat(p, weight), n_bins=4,
                                           strategy=strategy)
    np.testing.assert_allclose(weighted.bin_edges, repeated.bin_edges, rtol=1e-12)
    np.testing.assert_allclose(weighted.prob_pred, repeated.prob_pred, rtol=1e-12)
    np.testing.assert_allclose(weighted.prob_true, repeated.prob_true, rtol=1e-12)
    np.testing.assert_allclose(weighted.counts, repeated.counts)
    # Unit weights change nothing.
    plain = posterior_calibration_curve(y, p, n_bins=4, strategy=strategy)
    unit = posterior_calibration_curve(y, p, n_bins=4, strategy=strategy,
                                       sample_weight=np.ones(60))
    np.testing.assert_allclose(unit.prob_true, plain.prob_true, rtol=1e-15)
    np.testing.assert_allclose(unit.bin_edges, plain.bin_edges, rtol=1e-15)


def test_string_labels_with_a_named_positive_class():
    y = np.array(["ham", "spam", "spam", "ham", "spam", "ham"])
    p = [0.1, 0.8, 0.6, 0.3, 0.9, 0.2]
    curve = posterior_calibration_curve(y, p, pos_label="spam", n_bins=2)
    reference = posterior_calibration_curve(y == "spam", p, n_bins=2)
    np.testing.assert_array_equal(curve.prob_true, reference.prob_true)


# ---------------------------------------------------------------------------
# Posterior and bands
# ---------------------------------------------------------------------------


def test_rate_is_the_beta_of_each_bin():
    curve = posterior_calibration_curve([0, 0, 1, 0, 1, 1, 1, 1], [0.1, 0.2, 0.3, 0.35, 0.6,
                                                                    0.7, 0.9, 0.95], n_bins=2,
                                        prior=1.0)
    # Bin [0, 0.5]: 1 positive, 3 negatives; bin (0.5, 1]: 4 positives, none negative.
    np.testing.assert_array_equal(curve.rate.a, [2.0, 5.0])
    np.testing.assert_array_equal(curve.rate.b, [4.0, 1.0])


@needs("statsmodels")
def test_pointwise_band_is_the_jeffreys_interval():
    from statsmodels.stats.proportion import proportion_confint

    rng = np.random.default_rng(0)
    y, p = _calibrated(rng, 300)
    curve = posterior_calibration_curve(y, p, n_bins=15)
    band = curve.band(0.9)
    assert isinstance(band, CurveBand) and band.kind == "pointwise" and band.n_draws == 0
    # statsmodels 0.15 proportion_confint(method="jeffreys"): the equal-tailed quantiles of
    # Beta(x + 1/2, n - x + 1/2).  (It keeps them where x is 0 or n too; the band then
    # reaches the end of [0, 1], as the bands of the threshold curves.)
    low, high = proportion_confint(curve.positives, curve.counts, alpha=0.1, method="jeffreys")
    inside = (curve.positives > 0) & (curve.negatives > 0)
    assert inside.sum() >= 10 and not inside.all()
    np.testing.assert_allclose(band.low[inside], low[inside], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(band.high[inside], high[inside], rtol=1e-9, atol=1e-12)
    assert np.all(band.high[curve.negatives == 0] == 1.0)
    assert np.all(band.low[curve.positives == 0] == 0.0)
    np.testing.assert_array_equal(band.x, curve.prob_pred)


def test_a_bin_of_one_class_reaches_the_end():
    curve = posterior_calibration_curve([0, 0, 0, 1, 1, 1], [0.1, 0.2, 0.3, 0.7, 0.8, 0.9],
                                        n_bins=2)
    band = curve.band(0.95)
    assert band.low[0] == 0.0 and band.high[1] == 1.0
    # The other ends: scipy's Beta quantiles of Beta(0.5, 3.5) and Beta(3.5, 0.5).
    assert band.high[0] == pytest.approx(stats.beta(0.5, 3.5).ppf(0.975), rel=1e-10)
    assert band.low[1] == pytest.approx(stats.beta(3.5, 0.5).ppf(0.025), rel=1e-10)


def test_simultaneous_band_holds_every_bin_with_the_stated_mass():
    # Šidák: the bins are independent a posteriori, so the product of each bin's
    # interval mass (scipy's Beta cdf) is the band's joint mass exactly.
    rng = np.random.default_rng(1)
    y, p = _calibrated(rng, 500)
    curve = posterior_calibration_curve(y, p, n_bins=8)
    for confidence in (0.5, 0.9, 0.95):
        band = curve.band(confidence, kind="simultaneous")
        beta = stats.beta(curve.positives + 0.5, curve.negatives + 0.5)
        assert np.prod(beta.cdf(band.high) - beta.cdf(band.low)) == pytest.approx(
            confidence, rel=1e-9)
        pointwise = curve.band(confidence)
        assert np.all(band.low < pointwise.low) and np.all(band.high > pointwise.high)
    # Joint mass by Monte Carlo too: 200 000 draws of the independent Betas (numpy).
    band = curve.band(0.9, kind="simultaneous")
    draws = rng.beta(curve.positives + 0.5, curve.negatives + 0.5, size=(200_000, len(curve)))
    inside = np.all((draws >= band.low) & (draws <= band.high), axis=1).mean()
    assert inside == pytest.approx(0.9, abs=4 * math.sqrt(0.09 / 200_000))


def test_pointwise_band_covers_each_bins_true_rate(seed):
    # A calibrated model with probabilities uniform on [0, 1]: the true positive rate
    # of the uniform bin (a, b] is its midpoint.  300 test sets of 200 items, 10 bins:
    # about 3000 intervals (measured over 1000 sets: 0.951).
    rng = np.random.default_rng(seed)
    midpoints = np.linspace(0.05, 0.95, 10)
    covered = total = 0
    for _ in range(300):
        y, p = _calibrated(rng, 200)
        curve = posterior_calibration_curve(y, p)
        band = curve.band(0.95)
        truth = midpoints[curve.bins]
        covered += np.sum((band.low <= truth) & (truth <= band.high))
        total += len(curve)
    assert covered / total >= 0.93


@pytest.mark.parametrize("n_sets, least", [
    (300, 0.90), pytest.param(1500, 0.93, marks=pytest.mark.slow)])   # 0.2 s, 1 s
def test_simultaneous_band_contains_the_diagonal_of_a_calibrated_model(seed, n_sets, least):
    # Test sets of 200 items, 10 bins (measured over 1000 sets: 0.948; the standard
    # error of the share is 0.013 at 300 sets, 0.006 at 1500: the bounds are 3.7 and
    # 3 standard errors below).
    rng = np.random.default_rng(seed)
    contains = pointwise = 0
    for _ in range(n_sets):
        y, p = _calibrated(rng, 200)
        curve = posterior_calibration_curve(y, p)
        band = curve.band(0.95, kind="simultaneous")
        contains += np.all((band.low <= band.x) & (band.x <= band.high))
        band = curve.band(0.95)
        pointwise += np.all((band.low <= band.x) & (band.x <= band.high))
    assert contains / n_sets >= least
    # The pointwise band misses the diagonal somewhere far more often (about 1 - 0.95^10).
    assert pointwise / n_sets < 0.75


def test_simultaneous_band_misses_the_diagonal_of_a_miscalibrated_model():
    rng = np.random.default_rng(0)
    y, p = _calibrated(rng, 3000, power=1.6)
    band = posterior_calibration_curve(y, p).band(0.95, kind="simultaneous")
    assert not np.all((band.low <= band.x) & (band.x <= band.high))


# ---------------------------------------------------------------------------
# Calibration error
# ---------------------------------------------------------------------------


def test_mean_absolute_deviation_of_a_binomial_by_brute_force():
    # de Moivre's closed form against sum_k pmf(k) |k/n - p| (scipy.stats.binom).
    for n in (1, 2, 7, 10, 100, 1000):
        for p in (0.0, 0.013, 0.3, 0.5, 0.77, 0.999, 1.0):
            k = np.arange(n + 1)
            brute = np.sum(stats.binom.pmf(k, n, p) * np.abs(k / n - p))
            assert _binomial_mean_absolute_deviation(n, p) == pytest.approx(brute, abs=1e-14,
                                                                             rel=1e-10)


def test_ece_point_and_expected_value_by_hand():
    rng = np.random.default_rng(2)
    y, p = _calibrated(rng, 400)
    ece = calibration_error_posterior(y, p, n_bins=5, n_draws=500, random_state=0)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=5)
    curve = posterior_calibration_curve(y, p, n_bins=5)
    shares = curve.counts / 400
    assert ece.point == pytest.approx(np.sum(shares * np.abs(prob_true - prob_pred)), rel=1e-12)
    expected = 0.0
    for count, mean in zip(curve.counts.astype(int), prob_pred):
        k = np.arange(count + 1)
        expected += count / 400 * np.sum(stats.binom.pmf(k, count, mean) * np.abs(k / count - mean))
    assert ece.expected_if_calibrated == pytest.approx(expected, rel=1e-10)
    mce = calibration_error_posterior(y, p, n_bins=5, norm="max", n_draws=500, random_state=0)
    assert mce.point == pytest.approx(np.max(np.abs(prob_true - prob_pred)), rel=1e-12)
    assert mce.norm == "max" and ece.norm == "l1"


def test_ece_posterior_mean_by_quadrature():
    # The shares (Dirichlet) are independent of the rates (Betas): E[ECE] =
    # sum_b E[w_b] E|r_b - p_b|, each expectation by scipy quadrature of the Beta density.
    y = np.array([0, 1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 1])
    p = np.array([0.1, 0.2, 0.15, 0.4, 0.45, 0.55, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95])
    curve = posterior_calibration_curve(y, p, n_bins=3)
    mass = curve.counts + 1.0
    expected = 0.0
    for a, b, m, share in zip(curve.positives + 0.5, curve.negatives + 0.5, curve.prob_pred,
                              mass / mass.sum()):
        density = stats.beta(a, b).pdf
        deviation = (integrate.quad(lambda r: (m - r) * density(r), 0, m)[0]
                     + integrate.quad(lambda r: (r - m) * density(r), m, 1)[0])
        expected += share * deviation
    ece = calibration_error_posterior(y, p, n_bins=3, n_draws=200_000, random_state=0)
    assert ece.mean() == pytest.approx(expected, abs=4 * ece.mc_error)


def test_ece_sits_above_zero_for_a_calibrated_model_and_far_above_for_a_miscalibrated_one():
    # The documented bias: for a calibrated model the posterior lies entirely above 0,
    # near expected_if_calibrated; for a miscalibrated model far above it.
    rng = np.random.default_rng(3)
    y, p = _calibrated(rng, 2000)
    ece = calibration_error_posterior(y, p, n_draws=4000, random_state=0)
    low, high = ece.interval(0.95)
    assert low > 0
    assert low < ece.expected_if_calibrated * 1.5 and 1.0 < ece.mean() / \
        ece.expected_if_calibrated < 2.0
    y, p = _calibrated(rng, 2000, power=1.5)
    ece = calibration_error_posterior(y, p, n_draws=4000, random_state=0)
    assert ece.interval(0.95)[0] > 2.5 * ece.expected_if_calibrated


@pytest.mark.slow
def test_ece_posterior_of_calibrated_models_against_the_noise_floor(seed):
    # The figures of the Notes: over 300 calibrated models of 2000 items (10 bins) the
    # posterior mean is about 1.4 times expected_if_calibrated, the point about 1.0 times,
    # and the 95% interval holds expected_if_calibrated most of the time.
    rng = np.random.default_rng(seed)
    ratios, holds = [], 0
    for rep in range(300):
        y, p = _calibrated(rng, 2000)
        ece = calibration_error_posterior(y, p, n_draws=2000, random_state=rep)
        ratios.append((ece.mean(), ece.point) / np.float64(ece.expected_if_calibrated))
        low, high = ece.interval(0.95)
        holds += low <= ece.expected_if_calibrated <= high
    mean_ratio, point_ratio = np.mean(ratios, axis=0)
    assert 1.3 < mean_ratio < 1.55 and 0.93 < point_ratio < 1.07
    assert holds / 300 > 0.8


def test_mce_expected_value_by_enumeration():
    # E max_b |K_b/n_b - p_b| over independent binomials, enumerated exactly for
    # three small bins, against the Monte Carlo estimate (200 000 draws).
    y = np.array([0, 1, 0, 1, 1, 0, 1, 1, 0, 1])
    p = np.array([0.1, 0.2, 0.3, 0.5, 0.55, 0.6, 0.7, 0.8, 0.9, 0.95])
    curve = posterior_calibration_curve(y, p, n_bins=3)
    supports = []
    for count, mean in zip(curve.counts.astype(int), curve.prob_pred):
        k = np.arange(count + 1)
        supports.append((np.abs(k / count - mean), stats.binom.pmf(k, count, mean)))
    grids = np.meshgrid(*[s[0] for s in supports], indexing="ij")
    masses = np.meshgrid(*[s[1] for s in supports], indexing="ij")
    exact = np.sum(np.maximum.reduce(grids) * np.prod(masses, axis=0))
    mce = calibration_error_posterior(y, p, n_bins=3, norm="max", n_draws=200_000,
                                      random_state=0)
    assert mce.expected_if_calibrated == pytest.approx(exact, abs=2e-3)


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("function", [posterior_calibration_curve, calibration_error_posterior])
def test_bad_input_is_refused_with_a_clear_message(function):
    y, p = [0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6]
    with pytest.raises(ValueError, match=r"`y_prob` must be probabilities in \[0, 1\].*1\.3"):
        function(y, [0.1, 1.3, 0.3, 0.6])
    with pytest.raises(ValueError, match=r"`y_prob`.*-0\.2"):
        function(y, [0.1, -0.2, 0.3, 0.6])
    with pytest.raises(ValueError, match="`y_prob` must be finite"):
        function(y, [0.1, np.nan, 0.3, 0.6])
    with pytest.raises(ValueError, match="`y_true`.*both classes"):
        function([1, 1, 1, 1], p)
    with pytest.raises(ValueError, match="same number of samples"):
        function(y, p[:3])
    with pytest.raises(ValueError, match="`y_true`"):
        function([0, 1, np.nan, 1], p)
    with pytest.raises(ValueError, match="`n_bins` must be an integer >= 1"):
        function(y, p, n_bins=0)
    with pytest.raises(TypeError, match="`n_bins`"):
        function(y, p, n_bins="5")
    with pytest.raises(ValueError, match="`strategy`"):
        function(y, p, strategy="kmeans")
    with pytest.raises(ValueError, match="`sample_weight`"):
        function(y, p, sample_weight=[0, 0, 0, 0])
    with pytest.raises(ValueError, match="must be non-empty"):
        function([], [])


def test_bad_band_and_norm():
    curve = posterior_calibration_curve([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6])
    with pytest.raises(ValueError, match="`kind`"):
        curve.band(kind="joint")
    with pytest.raises(ValueError, match="`confidence`"):
        curve.band(1.0)
    with pytest.raises(ValueError, match="`norm`"):
        calibration_error_posterior([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6], norm="l2")


# ---------------------------------------------------------------------------
# Mean losses: the Bayesian bootstrap
# ---------------------------------------------------------------------------


def test_bayesian_bootstrap_moments_against_the_closed_form(seed):
    # Rubin (1981): with Dirichlet(1, ..., 1) weights the weighted mean has mean x̄ and
    # variance sum (x_i - x̄)^2 / (n (n + 1)).
    rng = np.random.default_rng(seed)
    x = rng.gamma(0.7, 1.0, size=40)
    posterior = mean_loss_posterior(x, n_draws=200_000, random_state=seed)
    assert posterior.mean() == x.mean() and posterior.mc_error == 0.0
    assert posterior.samples.mean() == pytest.approx(x.mean(), abs=4 * posterior.std() / math.sqrt(
        200_000))
    variance = np.sum((x - x.mean()) ** 2) / (40 * 41)
    # Relative standard error of a sample variance from 200 000 draws: about 0.4%.
    assert posterior.var() == pytest.approx(variance, rel=0.02)


@pytest.mark.parametrize("scale", [1.0, 0.01])
def test_weights_are_dirichlet_shapes(scale, seed):
    # Weights c_i: Dirichlet(c) over the items, variance sum c_i (x_i - x̄_c)^2 / (C (C + 1));
    # weights of 0.01 take the log-space route (a Gamma(0.01) variate underflows).
    rng = np.random.default_rng(seed)
    x = rng.normal(size=12)
    weight = rng.integers(1, 5, 12) * scale
    posterior = mean_loss_posterior(x, sample_weight=weight, n_draws=200_000,
                                    random_state=seed)
    total = weight.sum()
    centre = np.average(x, weights=weight)
    assert posterior.mean() == pytest.approx(centre, rel=1e-12)
    assert np.all(np.isfinite(posterior.samples))
    assert posterior.samples.mean() == pytest.approx(centre, abs=5 * posterior.std() / math.sqrt(
        200_000))
    variance = np.sum(weight * (x - centre) ** 2) / (total * (total + 1))
    assert posterior.var() == pytest.approx(variance, rel=0.03)


def test_zero_weight_items_are_left_out():
    x = np.array([0.1, 0.5, 9.0, 0.3])
    kept = mean_loss_posterior(x[[0, 1, 3]], n_draws=300, random_state=0)
    weighted = mean_loss_posterior(x, sample_weight=[1, 1, 0, 1], n_draws=300, random_state=0)
    np.testing.assert_array_equal(kept.samples, weighted.samples)


def test_many_items_are_drawn_in_bounded_chunks():
    # 5 million items: one draw per chunk (at most 2**22 variates each), exact mean.
    x = np.linspace(0.0, 1.0, 5_000_000)
    posterior = mean_loss_posterior(x, n_draws=3, random_state=0)
    assert posterior.mean() == pytest.approx(0.5, rel=1e-12)
    assert np.all(np.abs(posterior.samples - 0.5) < 1e-3)


@pytest.mark.parametrize("weighted", [False, True])
def test_brier_and_log_loss_points_are_scikit_learns(weighted, rng):
    y, p = _calibrated(rng, 300)
    p[:4] = [0.0, 1.0, 1.0, 0.0]          # log loss clips these as scikit-learn does
    y[:4] = [True, False, True, False]
    weight = rng.integers(0, 4, 300).astype(float) if weighted else None
    brier = brier_score_posterior(y, p, sample_weight=weight, n_draws=200, random_state=0)
    assert brier.point == pytest.approx(brier_score_loss(y, p, sample_weight=weight),
                                        rel=1e-12)
    loss = log_loss_posterior(y, p, sample_weight=weight, n_draws=200, random_state=0)
    assert loss.point == pytest.approx(log_loss(y, p, sample_weight=weight), rel=1e-12)
    assert brier.loss == "brier_score" and loss.loss == "log_loss"
    assert brier.mean() == brier.point


def test_log_loss_has_a_pseudo_item_at_the_clipped_loss(rng, seed):
    # Reference: the Dirichlet(1, ..., 1, λ) weights drawn directly (numpy's dirichlet)
    # over the items' losses and the pseudo-item at -log eps; the library draws the
    # plain Bayesian bootstrap and the total apart (independent of the shares).
    from skprobeval._posteriors._losses import CLIPPED_LOG_LOSS, LOG_LOSS_PRIOR

    y, p = _calibrated(rng, 40)
    p[0], y[0] = 0.99, False                      # one confident mistake
    loss = log_loss_posterior(y, p, n_draws=100_000, random_state=seed)
    x = -np.log(np.where(y, p, 1 - p))
    assert CLIPPED_LOG_LOSS == pytest.approx(36.04365, abs=1e-5)
    assert loss.point == pytest.approx(log_loss(y, p), rel=1e-12)
    # The exact posterior mean, (n x̄ + λ L) / (n + λ), and the draws' mean within 5
    # standard errors of it.
    exact = (40 * x.mean() + LOG_LOSS_PRIOR * CLIPPED_LOG_LOSS) / (40 + LOG_LOSS_PRIOR)
    assert loss.mean() == pytest.approx(exact, rel=1e-12)
    draws = loss.samples
    assert abs(draws.mean() - exact) < 5 * draws.std() / np.sqrt(draws.size)
    weights = rng.dirichlet(np.r_[np.ones(40), LOG_LOSS_PRIOR], size=100_000)
    direct = weights @ np.r_[x, CLIPPED_LOG_LOSS]
    # Two samples of 100 000 from one law: Kolmogorov-Smirnov distance below 0.012
    # (its 1e-6 critical value is 0.012).
    assert stats.ks_2samp(draws, direct).statistic < 0.012
    for q in (0.025, 0.5, 0.975):
        assert np.quantile(draws, q) == pytest.approx(np.quantile(direct, q), abs=0.01)


def test_brier_with_string_labels_and_a_positive_class():
    y = np.array(["ham", "spam", "spam", "ham"])
    p = np.array([0.2, 0.7, 0.4, 0.1])
    brier = brier_score_posterior(y, p, pos_label="spam", n_draws=100, random_state=0)
    assert brier.point == pytest.approx(brier_score_loss(y, p, pos_label="spam"), rel=1e-12)
    with pytest.raises(ValueError, match="`pos_label`"):
        brier_score_posterior(y, p)


def _true_brier(power):
    # E[p (1 - q)^2 + (1 - p) q^2] with p uniform on [0, 1] and q = p ** power
    # (scipy quadrature).
    return integrate.quad(lambda p: p * (1 - p ** power) ** 2 + (1 - p) * p ** (2 * power),
                          0, 1, epsabs=1e-13)[0]


def _brier_coverage(n, repeats, n_draws, seed):
    rng = np.random.default_rng(seed)
    truth = _true_brier(0.7)
    covered = 0
    for rep in range(repeats):
        p = rng.random(n)
        y = rng.random(n) < p
        low, high = brier_score_posterior(y, p ** 0.7, n_draws=n_draws,
                                          random_state=rep).interval(0.95)
        covered += low <= truth <= high
    return covered / repeats


def test_brier_interval_coverage_small_sample(seed):
    # A quick check at n = 50 (measured over 2000 test sets: 0.939): 800 sets give a
    # standard error of 0.0084, so the bound is three of them below.
    assert _brier_coverage(50, 800, 500, seed) >= 0.915


@pytest.mark.slow
@pytest.mark.parametrize("n, repeats, n_draws", [(50, 10_000, 1000), (500, 2000, 1000),
                                                 (5000, 1200, 600)])
def test_brier_interval_coverage(n, repeats, n_draws, seed):
    assert _brier_coverage(n, repeats, n_draws, seed) >= 0.93


# ---------------------------------------------------------------------------
# Paired comparison of losses
# ---------------------------------------------------------------------------


def test_equal_models_are_a_coin_toss(seed):
    # Each model's loss on item 2k is the other's on item 2k + 1: the observed
    # differences are symmetric about 0, and so is the posterior of the mean difference.
    rng = np.random.default_rng(seed)
    first = rng.random(200)
    losses_a = first
    losses_b = first.reshape(-1, 2)[:, ::-1].ravel()
    result = compare_losses(losses_a, losses_b, n_draws=20_000, random_state=seed)
    assert result.prob_first_better == pytest.approx(0.5, abs=4 * result.mc_error)
    assert result.point_difference == pytest.approx(0.0, abs=1e-12)
    # Identical losses: every draw of the difference is 0, equivalent.
    same = compare_losses(first, first, n_draws=500, random_state=0)
    assert same.prob_equivalent == 1.0 and same.interval() == (0.0, 0.0)


def test_equal_models_give_uniform_probabilities_on_average(seed):
    # Under the null (two models of the same quality), prob_first_better is spread over
    # (0, 1) with mean 1/2 (standard error 0.29 / sqrt(300) = 0.017): 300 pairs of models,
    # 300 items each.
    rng = np.random.default_rng(seed)
    probs = []
    for rep in range(300):
        y, p = _calibrated(rng, 300)
        a = np.clip(p + rng.normal(0, 0.1, 300), 0, 1)
        b = np.clip(p + rng.normal(0, 0.1, 300), 0, 1)
        probs.append(compare_losses((y - a) ** 2, (y - b) ** 2, n_draws=500,
                                    random_state=rep).prob_first_better)
    assert np.mean(probs) == pytest.approx(0.5, abs=0.06)
    assert np.mean(np.array(probs) > 0.95) < 0.1


def test_a_clearly_better_model_wins(seed):
    rng = np.random.default_rng(seed)
    y, p = _calibrated(rng, 1000)
    sharp = np.clip(p + rng.normal(0, 0.05, 1000), 0, 1)
    vague = 0.5 + 0.3 * (p - 0.5)
    result = compare_losses((y - sharp) ** 2, (y - vague) ** 2, random_state=seed)
    assert result.prob_first_better > 0.95
    low, high = result.interval()
    assert high < 0 and result.point_difference < 0
    swapped = compare_losses((y - vague) ** 2, (y - sharp) ** 2, random_state=seed)
    assert swapped.prob_second_better > 0.95


def test_swapping_the_models_mirrors_the_result_exactly(rng):
    a, b = rng.random(80), rng.random(80)
    first = compare_losses(a, b, rope=0.01, n_draws=3000, random_state=7)
    second = compare_losses(b, a, rope=0.01, n_draws=3000, random_state=7)
    assert first.prob_first_better == second.prob_second_better
    assert first.prob_equivalent == second.prob_equivalent
    low, high = first.interval(0.9)
    assert second.interval(0.9) == pytest.approx((-high, -low), abs=1e-15)


def test_the_comparison_is_the_difference_of_the_two_posteriors_draw_by_draw():
    # One Dirichlet draw weighs both models: the difference's draws are the two
    # mean-loss posteriors' draws, subtracted (same seed, same stream).
    rng = np.random.default_rng(4)
    a, b = rng.random(30), rng.random(30)
    result = compare_losses(a, b, n_draws=1000, random_state=3)
    post_a = mean_loss_posterior(a, n_draws=1000, random_state=3)
    post_b = mean_loss_posterior(b, n_draws=1000, random_state=3)
    np.testing.assert_allclose(result.difference.samples, post_a.samples - post_b.samples,
                               atol=1e-12)
    assert result.prob_first_better == np.mean(post_a.samples - post_b.samples < 0)


def test_rope_and_bad_losses():
    a, b = [0.1, 0.2, 0.3], [0.15, 0.25, 0.35]
    result = compare_losses(a, b, rope=0.1, n_draws=500, random_state=0)
    assert result.prob_equivalent == 1.0
    with pytest.raises(ValueError, match="same number of samples"):
        compare_losses(a, b[:2])
    with pytest.raises(ValueError, match="`losses_a` must be finite"):
        compare_losses([0.1, np.nan, 0.3], b)
    with pytest.raises(ValueError, match="`rope`"):
        compare_losses(a, b, rope=-0.1)
    with pytest.raises(ValueError, match="`losses` must be finite"):
        mean_loss_posterior([0.1, np.inf])
    with pytest.raises(ValueError, match="`n_draws`"):
        mean_loss_posterior([0.1, 0.2], n_draws=1)
    with pytest.raises(ValueError, match=r"`y_prob` must be probabilities.*1\.5"):
        brier_score_posterior([0, 1], [0.2, 1.5])


def test_results_show_plain_figures():
    result = compare_losses([0.1, 0.3, 0.2, 0.0], [0.3, 0.5, 0.2, 0.1], n_draws=200,
                            random_state=0)
    assert result.to_dict()["n_draws"] == 200
    assert "first better" in result._repr_html_()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "np.float64" not in repr(result)
        assert "np.float64" not in repr(mean_loss_posterior([0.1, 0.3], n_draws=10,
                                                            random_state=0))


# ---------------------------------------------------------------------------
# The display
# ---------------------------------------------------------------------------


@needs("matplotlib")
def test_display_has_scikit_learns_attributes_and_draws_the_band_and_diagonal():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.calibration import CalibrationDisplay

    from skprobeval import PosteriorCalibrationDisplay

    rng = np.random.default_rng(0)
    y, p = _calibrated(rng, 400)
    ours = PosteriorCalibrationDisplay.from_predictions(y, p, n_bins=8, name="model")
    theirs = CalibrationDisplay.from_predictions(y, p, n_bins=8, name="model")
    for attribute in ("prob_true", "prob_pred", "y_prob"):
        np.testing.assert_array_equal(getattr(ours, attribute), getattr(theirs, attribute))
    assert ours.estimator_name == theirs.estimator_name == "model"
    assert ours.ax_.get_xlabel() == "Mean predicted probability (Positive class: 1)"
    np.testing.assert_array_equal(ours.line_.get_xdata(), theirs.line_.get_xdata())
    assert len(ours.band_.get_segments()) == 8
    np.testing.assert_array_equal(ours.ref_line_.get_xydata(), [[0, 0], [1, 1]])
    # A second model on the same axes: one diagonal, one band legend entry.
    second = PosteriorCalibrationDisplay.from_predictions(y, p ** 1.3, n_bins=8, ax=ours.ax_,
                                                          kind="simultaneous", name="other")
    labels = ours.ax_.get_legend_handles_labels()[1]
    assert second.ref_line_ is None and labels.count("Perfectly calibrated") == 1
    assert "95% simultaneous intervals" in labels and "other" in labels
    plt.close("all")


@needs("matplotlib")
def test_display_from_estimator_reads_predict_proba():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    from skprobeval import PosteriorCalibrationDisplay

    X, y = load_breast_cancer(return_X_y=True)
    X = X[:, :5]
    model = LogisticRegression(max_iter=5000).fit(X[::2], y[::2])
    display = PosteriorCalibrationDisplay.from_estimator(model, X[1::2], y[1::2], n_bins=5,
                                                         pos_label=0)
    np.testing.assert_array_equal(display.y_prob, model.predict_proba(X[1::2])[:, 0])
    assert display.estimator_name == "LogisticRegression" and display.pos_label == 0
    with pytest.raises(ValueError, match="predict_proba"):
        PosteriorCalibrationDisplay.from_estimator(LinearSVC().fit(X[::2], y[::2]), X[1::2],
                                                   y[1::2])
    with pytest.raises(TypeError, match="`band`"):
        curve = posterior_calibration_curve(y[:50], model.predict_proba(X[:50])[:, 1])
        PosteriorCalibrationDisplay(curve, None)
    plt.close("all")
