"""Posterior objects (skprobeval._posteriors._posterior): every closed form by an independent route.

References: scipy.stats.beta (a separate implementation of the Beta functions),
statsmodels ``proportion_confint(method="jeffreys")``, integrals written out here
with ``scipy.integrate.quad``, brute-force searches, and 10^6-draw Monte Carlo
from Goutte & Gaussier's (2005) Gamma construction (X ~ Γ(TP + λ), Y ~ Γ(FP + λ), Z ~ Γ(FN + λ)).
"""

import math
import warnings

import numpy as np
import pytest
from optional import needs
from scipy import integrate, optimize, special, stats

from skprobeval import (
    BetaPosterior,
    CredibleInterval,
    DifferencePosterior,
    FBetaPosterior,
    PosteriorSummary,
    SampledPosterior,
)

N_DRAWS = 1_000_000
# The default run's Monte Carlo size.  Every tolerance is 4 standard errors of the sample
# itself, so the argument holds at either size: at 250 000 draws a cdf value's standard
# error is at most 0.5 / 500 = 1e-3 (5e-4 at 10^6) and a mean's is sd / 500.  The
# 10^6-draw runs are the slow tier's (0.25-0.5 s each).
FAST_DRAWS = 250_000


def _mc_params(cases, fast_cases):
    """Each case at 10^6 draws in the slow tier; `fast_cases` also at FAST_DRAWS."""
    params = []
    for case in cases:
        name = "-".join(f"{v:g}" for v in case)
        if case in fast_cases:
            params.append(pytest.param(*case, FAST_DRAWS, id=f"{name}-250k"))
        params.append(pytest.param(*case, N_DRAWS, id=f"{name}-1e6", marks=pytest.mark.slow))
    return params


# ---------------------------------------------------------------------------
# Independent references written out here
# ---------------------------------------------------------------------------


def fbeta_cdf_quad(a, b, c, beta, f):
    """P(F_beta <= f) = E_v[I_g(v)(a, b + c)], v ~ Beta(c, b), by scipy.integrate.quad.

    Written from the theory chapter ("F-scores: exact posteriors") without
    skprobeval: the v density is integrated on [0, 1] directly (``weight="alg"``
    carries the endpoint singularities of parameters < 1).
    """
    w = beta * beta

    def inner(v):
        k = 1 + (w - 1) * v
        g = f * k / (f * k + (1 + w) * (1 - f))
        return special.betainc(a, b + c, g)

    if min(b, c) < 1:
        value = integrate.quad(inner, 0, 1, weight="alg", wvar=(c - 1, b - 1),
                               epsabs=1e-15, epsrel=1e-13, limit=200)[0]
        return value / special.beta(c, b)

    def with_density(v):
        return inner(v) * stats.beta.pdf(v, c, b)

    middle = c / (b + c)
    return sum(integrate.quad(with_density, lo, hi, epsabs=1e-15, epsrel=1e-13, limit=200)[0]
               for lo, hi in ((0, middle), (middle, 1)))


def difference_cdf_quad(a1, b1, a2, b2, j):
    """P(X1 - X2 <= j) = E_X1[P(X2 >= X1 - j)] by scipy.integrate.quad (moderate parameters)."""
    def integrand(x):
        return stats.beta.pdf(x, a1, b1) * stats.beta.sf(x - j, a2, b2)

    points = [p for p in (j, 1 + j) if 0 < p < 1]
    return integrate.quad(integrand, 0, 1, points=points or None, epsabs=1e-14,
                          epsrel=1e-12, limit=200)[0]


def gamma_draws(rng, *shapes, n_draws=N_DRAWS):
    return [rng.standard_gamma(s, size=n_draws) for s in shapes]


def assert_within_4_se(exact, draws, points):
    """Mean and cdf at `points` of an exact posterior agree with Monte Carlo draws."""
    n = draws.shape[0]
    se_mean = draws.std() / math.sqrt(n)
    assert abs(exact.mean() - draws.mean()) <= 4 * se_mean
    var_draws = draws.var()
    se_var = math.sqrt(np.mean((draws - draws.mean()) ** 4) - var_draws ** 2) / math.sqrt(n)
    assert abs(exact.var() - var_draws) <= 4 * se_var
    for x in points:
        p = exact.cdf(x)
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(p - np.mean(draws <= x)) <= 4 * se + 1e-12


# ---------------------------------------------------------------------------
# Beta
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("count, nobs", [(0, 10), (3, 5), (10, 20), (7, 7), (1, 1000), (0, 1),
                                         (500, 1000)])
@needs("statsmodels")
def test_beta_interval_equals_statsmodels_jeffreys(count, nobs):
    from statsmodels.stats.proportion import proportion_confint

    # statsmodels 0.14+: proportion_confint(method="jeffreys") = Beta(x + 1/2, n - x + 1/2)
    # equal-tailed quantiles via scipy.stats.beta.ppf / isf.
    low, high = proportion_confint(count, nobs, alpha=0.05, method="jeffreys")
    ours = BetaPosterior(count + 0.5, nobs - count + 0.5).interval(0.95)
    assert ours.low == pytest.approx(low, abs=1e-9)
    assert ours.high == pytest.approx(high, abs=1e-9)


@needs("statsmodels")
def test_beta_interval_vectorised_equals_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    count = np.array([0, 3, 10, 7, 40])
    nobs = np.array([10, 5, 20, 7, 41])
    low, high = proportion_confint(count, nobs, alpha=0.1, method="jeffreys")
    ours = BetaPosterior(count + 0.5, nobs - count + 0.5).interval(confidence=0.9)
    np.testing.assert_allclose(ours.low, low, atol=1e-9)
    np.testing.assert_allclose(ours.high, high, atol=1e-9)


@pytest.mark.parametrize("a, b", [(3.5, 2.5), (0.5, 10.5), (40.5, 1.5), (0.3, 0.4), (200.5, 100.5)])
def test_beta_functions_match_scipy(a, b):
    # Reference: scipy.stats.beta (boost implementation).
    posterior = BetaPosterior(a, b)
    reference = stats.beta(a, b)
    x = np.array([0.01, 0.2, 0.5, 0.7, 0.99])
    q = np.array([1e-6, 0.025, 0.5, 0.975, 1 - 1e-6])
    np.testing.assert_allclose(posterior.cdf(x), reference.cdf(x), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(posterior.sf(x), reference.sf(x), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(posterior.pdf(x), reference.pdf(x), rtol=1e-10)
    np.testing.assert_allclose(posterior.ppf(q), reference.ppf(q), rtol=1e-10, atol=1e-15)
    np.testing.assert_allclose(posterior.isf(q), reference.isf(q), rtol=1e-10, atol=1e-15)
    assert posterior.mean() == pytest.approx(reference.mean(), rel=1e-14)
    assert posterior.var() == pytest.approx(reference.var(), rel=1e-12)
    assert posterior.median() == pytest.approx(reference.median(), rel=1e-12)
    assert posterior.prob_greater(0.5) == pytest.approx(reference.sf(0.5), rel=1e-12)
    assert isinstance(posterior.dist, type(reference))
    assert posterior.dist.mean() == pytest.approx(reference.mean())


def test_beta_pdf_large_parameters_match_log_space_formula():
    # Saddle-point density for counts 1e6..1e12 against mpmath-free log-space
    # evaluation at moderate 1e6 (where the direct formula is still accurate to ~1e-9).
    a, b = 1e6 + 0.5, 2e6 + 0.5
    x = a / (a + b) + np.array([-3, 0, 2]) * math.sqrt(a * b / (a + b) ** 3)
    direct = np.exp((a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - special.betaln(a, b))
    np.testing.assert_allclose(BetaPosterior(a, b).pdf(x), direct, rtol=1e-8)


def test_goutte_gaussier_section_2_2():
    # Goutte & Gaussier (2005), section 2.2: system 2 (TP=3, FP=2), Jeffreys prior: mean 58%,
    # mode 63%; system 1 (TP=10, FP=10): mode = mean = 50%; P(p2 > p1) "around 65%" (Fig. 1 caption:
    # system 1 outperforms system 2 in as much as 35% of cases).
    system2 = BetaPosterior(3 + 0.5, 2 + 0.5)
    system1 = BetaPosterior(10 + 0.5, 10 + 0.5)
    assert round(system2.mean(), 3) == 0.583
    assert round(system2.mode(), 3) == 0.625
    assert system1.mean() == pytest.approx(0.5) and system1.mode() == pytest.approx(0.5)
    better = DifferencePosterior(system2, system1).prob_greater(0.0)
    assert better == pytest.approx(0.65, abs=0.01)


def test_beta_mode_cases():
    # (a - 1) / (a + b - 2) inside; endpoints where the density is monotone
    # (Goutte & Gaussier 2005, eq. 9).
    a = np.array([3.5, 0.5, 1.0, 10.5, 1.0, 0.3, 0.6, 1.0])
    b = np.array([2.5, 10.5, 3.0, 0.5, 0.5, 0.4, 0.2, 1.0])
    expected = np.array([2.5 / 4, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.5])
    np.testing.assert_allclose(BetaPosterior(a, b).mode(), expected)


def brute_force_hdi(dist, confidence):
    """Shortest interval of mass `confidence` by bounded minimisation (scipy only)."""
    width = optimize.minimize_scalar(lambda p: dist.ppf(p + confidence) - dist.ppf(p),
                                     bounds=(0, 1 - confidence), method="bounded",
                                     options={"xatol": 1e-12})
    return dist.ppf(width.x), dist.ppf(width.x + confidence)


@pytest.mark.parametrize("a, b", [(3.5, 2.5), (1.5, 50.5), (30.5, 2.5), (200.5, 10.5)])
def test_beta_hdi_interior(a, b):
    low, high = BetaPosterior(a, b).hdi(0.9)
    dist = stats.beta(a, b)
    assert dist.cdf(high) - dist.cdf(low) == pytest.approx(0.9, abs=1e-12)
    assert dist.logpdf(low) == pytest.approx(dist.logpdf(high), abs=1e-9)
    ref_low, ref_high = brute_force_hdi(dist, 0.9)
    assert low == pytest.approx(ref_low, abs=1e-5)
    assert high == pytest.approx(ref_high, abs=1e-5)
    assert high - low <= ref_high - ref_low + 1e-12


def test_beta_hdi_two_end_newton_agrees_with_the_tail_mass_solver():
    # The fast route (Newton's method on both ends) against the generic solver of the
    # base class (tail mass p solved in probability space), over counts up to 1e6 and
    # confidence from 0.5 to 1 - 1e-6; both checked against scipy's incomplete Beta.
    from skprobeval._core._hdi import HDI_NEWTON_MAX, beta_hdi_newton
    from skprobeval._posteriors._posterior import _Posterior

    rng = np.random.default_rng(11)
    # Counts of one or more with the default prior: shapes from 1.5; and shapes just
    # above 1 (a density nearly monotone), where the fast route may hand over.
    a = np.r_[1.5 + 10 ** rng.uniform(-3, 5.5, 300), 1 + 10 ** rng.uniform(-3, 0, 100)]
    b = np.r_[1.5 + 10 ** rng.uniform(-3, 5.5, 300), 1 + 10 ** rng.uniform(-3, 5.5, 100)]
    assert np.all(a + b <= HDI_NEWTON_MAX)
    for confidence in (0.5, 0.95, 0.999999):
        rest = np.full(a.size, 1 - confidence)
        low, high, done = beta_hdi_newton(a, b, rest)
        if confidence < 0.99:
            # (At 1 - 1e-6 a skewed density's lower end is near 1e-12, far from the
            # equal-tailed start: there the fast route may hand over too.)
            assert done[:300].all()
        posterior = BetaPosterior(a, b)
        ref_low, ref_high = _Posterior._hdi_flat(posterior, {"a": a, "b": b}, confidence)
        # Within 1e-6 of the width: at 1 - 1e-6 with an end 1e-11 from 1, each route
        # meets one of its two conditions to 1e-6 only (mpmath: the fast route's mass
        # is right to 1e-11, the generic route's end densities to 1e-11).
        # An end within 1e-12 of 1 is held to 1e-4 of its distance from 1 by float64
        # (the fast route tracks that distance; its mass is exact, measured with mpmath
        # at the two such elements here: 7e-12 relative against the generic route's
        # 8e-5): there the other end may differ by 1e-5 of the width.
        width = ref_high - ref_low
        tolerance = np.where(1 - ref_high < 1e-12, 1e-5, 1e-6) * width + 1e-15
        np.testing.assert_array_less(np.abs(low - ref_low)[done], tolerance[done])
        np.testing.assert_array_less(np.abs(high - ref_high)[done], tolerance[done])
        outside = special.betainc(a, b, low) + special.betainc(b, a, 1 - high)
        np.testing.assert_allclose(outside[done], rest[done], rtol=1e-9)
        # Whichever route each element takes, hdi() is the generic solver's interval
        # (an end within 1e-9 of the tail mass from 0 is put at 0: up to 4e-11 here,
        # depending on the scipy build).
        got = posterior.hdi(confidence)
        np.testing.assert_allclose(got.low, ref_low, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(got.high, ref_high, rtol=1e-6, atol=1e-9)


def test_beta_hdi_parameters_below_one():
    # Mode at 0 or 1: the HDI is one-sided; U-shaped: the shorter one-sided interval.
    dist = stats.beta
    low, high = BetaPosterior(0.5, 10.5).hdi(0.95)
    assert low == 0.0 and high == pytest.approx(dist.ppf(0.95, 0.5, 10.5), rel=1e-12)
    low, high = BetaPosterior(10.5, 0.5).hdi(0.95)
    assert high == 1.0 and low == pytest.approx(dist.isf(0.95, 10.5, 0.5), rel=1e-12)
    low, high = BetaPosterior(0.001, 3.001).hdi(0.95)     # prior 1e-3, TP = 0
    assert low == 0.0 and high == pytest.approx(dist.ppf(0.95, 0.001, 3.001), rel=1e-10)
    low, high = BetaPosterior(0.3, 0.4).hdi(0.8)
    options = [(0.0, dist.ppf(0.8, 0.3, 0.4)), (dist.isf(0.8, 0.3, 0.4), 1.0)]
    shortest = min(options, key=lambda pair: pair[1] - pair[0])
    assert (low, high) == pytest.approx(shortest, rel=1e-12)
    # Uniform: any interval of length 0.8; the central one is returned.
    assert BetaPosterior(1.0, 1.0).hdi(0.8) == pytest.approx((0.1, 0.9))
    # Vectorised: the same answers element by element.
    a, b = np.array([0.5, 10.5, 3.5, 1.0]), np.array([10.5, 0.5, 2.5, 4.0])
    joint = BetaPosterior(a, b).hdi(0.9)
    for i in range(4):
        single = BetaPosterior(a[i], b[i]).hdi(0.9)
        assert joint.low[i] == pytest.approx(single.low, abs=1e-15)
        assert joint.high[i] == pytest.approx(single.high, abs=1e-15)


def test_beta_extreme_counts_and_tiny_prior():
    # Counts 1e12 with a == b: symmetric, so the HDI is the equal-tailed interval and both
    # are mean +- z sd up to O(1/n) (normal limit; kurtosis correction ~1e-12).
    n = 1e12
    posterior = BetaPosterior(n + 0.5, n + 0.5)
    sd = math.sqrt(posterior.var())
    z = stats.norm.isf(0.025)
    low, high = posterior.interval(0.95)
    assert low == pytest.approx(0.5 - z * sd, abs=1e-6 * sd)
    assert high == pytest.approx(0.5 + z * sd, abs=1e-6 * sd)
    assert posterior.hdi(0.95) == pytest.approx((low, high), abs=1e-6 * sd)
    assert posterior.cdf(0.5 - sd) == pytest.approx(stats.norm.cdf(-1), abs=1e-8)
    # Skewed: TP = 1e12, FP = 3 -> 1 - precision ~ Gamma(3.5) / 1e12 (relative error ~1e-12).
    skewed = BetaPosterior(1e12 + 0.5, 3.5)
    q = np.array([0.05, 0.5, 0.95])
    gamma_quantiles = stats.gamma.isf(q, 3.5) / (1e12 + 4)
    np.testing.assert_allclose(1 - np.asarray(skewed.ppf(q)), gamma_quantiles, rtol=1e-4)
    # Tiny prior on empty cells: finite and exactly the prior.
    tiny = BetaPosterior(1e-3, 1e-3)
    assert tiny.mean() == 0.5
    assert np.all(np.isfinite(tiny.interval(0.95))) and np.all(np.isfinite(tiny.hdi(0.95)))
    assert tiny.cdf(0.5) == pytest.approx(0.5, abs=1e-14)


@pytest.mark.parametrize("n_draws", [
    pytest.param(FAST_DRAWS, id="250k"),
    pytest.param(N_DRAWS, id="1e6", marks=pytest.mark.slow)])
def test_beta_monte_carlo(rng, n_draws):
    x, y = gamma_draws(rng, 3.5, 2.5, n_draws=n_draws)
    assert_within_4_se(BetaPosterior(3.5, 2.5), x / (x + y), [0.3, 0.6, 0.9])


# ---------------------------------------------------------------------------
# F1 and F-beta
# ---------------------------------------------------------------------------

F_CASES = [(8.5, 2.5, 4.5), (3.5, 2.5, 1.5), (0.5, 0.5, 0.5), (50.5, 10.5, 30.5),
           (1.5, 20.5, 0.5), (200.5, 3.5, 7.5)]


@pytest.mark.parametrize("tp, fp, fn", F_CASES)
def test_f1_equals_beta_transform(tp, fp, fn):
    # F1 = 2B/(1+B), B ~ Beta(TP+λ, FP+FN+2λ): cdf(f) = I_{f/(2-f)}, ppf(q) = 2 b_q / (1 + b_q).
    posterior = FBetaPosterior(tp, fp, fn)
    b = stats.beta(tp, fp + fn)
    f = np.linspace(0.01, 0.99, 9)
    np.testing.assert_allclose(posterior.cdf(f), b.cdf(f / (2 - f)), atol=1e-9)
    q = np.array([0.001, 0.025, 0.5, 0.975, 0.999])
    bq = b.ppf(q)
    np.testing.assert_allclose(posterior.ppf(q), 2 * bq / (1 + bq), atol=1e-9)
    # pdf by the change of variable y = f / (2 - f), dy/df = 2 / (2 - f)^2.
    x = np.array([0.05, 0.3, 0.6, 0.8])
    np.testing.assert_allclose(posterior.pdf(x), b.pdf(x / (2 - x)) * 2 / (2 - x) ** 2,
                               rtol=1e-9)


# The two cases whose references take 0.1-0.2 s each (bulk away from both ends, one
# quad per quantile) run in the slow tier; the small, empty and large cases, each at
# beta < 1 and beta > 1, keep the check in the default run.
@pytest.mark.parametrize("beta", [0.5, 2.0])
@pytest.mark.parametrize("tp, fp, fn", [
    case if case not in ((8.5, 2.5, 4.5), (3.5, 2.5, 1.5))
    else pytest.param(*case, marks=pytest.mark.slow) for case in F_CASES])
def test_fbeta_cdf_equals_quadrature(tp, fp, fn, beta):
    posterior = FBetaPosterior(tp, fp, fn, beta=beta)
    for q in (0.01, 0.3, 0.7, 0.99):
        f = posterior.ppf(q)
        assert posterior.cdf(f) == pytest.approx(q, abs=1e-12)
        assert posterior.cdf(f) == pytest.approx(fbeta_cdf_quad(tp, fp, fn, beta, f), abs=1e-8)
    assert posterior.sf(0.4) == pytest.approx(1 - fbeta_cdf_quad(tp, fp, fn, beta, 0.4), abs=1e-8)


@pytest.mark.parametrize("tp, fp, fn", [(3.001, 0.001, 2.001), (10.001, 3.001, 0.001),
                                        (5.001, 0.101, 0.001)])
def test_fbeta_tiny_prior_equals_quadrature(tp, fp, fn):
    # λ = 1e-3 on empty cells: the v density is singular at an endpoint (quad weight="alg").
    posterior = FBetaPosterior(tp, fp, fn, beta=2.0)
    for q in (0.1, 0.5):
        f = posterior.ppf(q)
        assert posterior.cdf(f) == pytest.approx(fbeta_cdf_quad(tp, fp, fn, 2.0, f), abs=1e-8)


def test_fbeta_quadrature_path_continuous_at_beta_one():
    # beta = next float after 1 takes the quadrature path; it must agree with the
    # closed-form F1, also for counts of 1e12 and a prior of 1e-3.
    just_above_one = float(np.nextafter(1.0, 2.0))
    for tp, fp, fn in [(8.5, 2.5, 4.5), (1e12 + 0.5, 3e11 + 0.5, 2e11 + 0.5),
                       (3.001, 0.001, 5.001)]:
        exact = FBetaPosterior(tp, fp, fn)
        quadrature = FBetaPosterior(tp, fp, fn, beta=just_above_one)
        x = np.asarray(exact.ppf([0.05, 0.5, 0.95]))
        np.testing.assert_allclose(quadrature.cdf(x), [0.05, 0.5, 0.95], atol=1e-8)
        assert quadrature.mean() == pytest.approx(exact.mean(), rel=1e-10)
        assert quadrature.std() == pytest.approx(exact.std(), rel=1e-6)


def density_maximum(posterior):
    """Grid search, then a bounded scalar minimisation of -pdf around the best point."""
    grid = np.linspace(0, 1, 1001)
    best = grid[np.nanargmax(np.asarray(posterior.pdf(grid)))]
    lo, hi = max(best - 0.002, 0.0), min(best + 0.002, 1.0)
    result = optimize.minimize_scalar(lambda x: -posterior.pdf(x), bounds=(lo, hi),
                                      method="bounded", options={"xatol": 1e-10})
    return result.x if -result.fun >= posterior.pdf(best) else best


def test_f_mode_is_density_maximum():
    # F1: closed-form mode (root of 2x^2 + (2a + b - 5) x - 2(a - 1)); F2: golden section.
    for tp, fp, fn in [(8.5, 2.5, 4.5), (200.5, 100.5, 50.5), (1.0, 0.6, 0.6)]:
        for beta in (1.0, 2.0):
            posterior = FBetaPosterior(tp, fp, fn, beta=beta)
            assert posterior.mode() == pytest.approx(density_maximum(posterior), abs=1e-6)
    assert FBetaPosterior(0.5, 3.5, 2.5).mode() == 0.0       # TP = 0, λ = 1/2: density at 0
    assert FBetaPosterior(3.5, 0.2, 0.3).mode() == 1.0       # FP + FN + 2λ < 1


# 0.2-0.4 s each at 10^6 draws, all nine in the slow tier; in the default run one case
# per beta (each case once) at FAST_DRAWS.
@pytest.mark.parametrize("tp, fp, fn, beta, n_draws", _mc_params(
    [(*case, beta) for case in [(8.5, 2.5, 4.5), (0.5, 3.5, 1.5), (40.5, 10.5, 20.5)]
     for beta in (1.0, 2.0, 0.5)],
    {(8.5, 2.5, 4.5, 2.0), (0.5, 3.5, 1.5, 1.0), (40.5, 10.5, 20.5, 0.5)}))
def test_fbeta_monte_carlo(rng, tp, fp, fn, beta, n_draws):
    # Goutte & Gaussier's (2005) Gamma construction, 10^6 draws (FAST_DRAWS in the
    # default run).
    x, y, z = gamma_draws(rng, tp, fp, fn, n_draws=n_draws)
    w = beta * beta
    draws = (1 + w) * x / ((1 + w) * x + w * z + y)
    posterior = FBetaPosterior(tp, fp, fn, beta=beta)
    assert_within_4_se(posterior, draws, np.quantile(draws, [0.05, 0.5, 0.9]))


def test_fbeta_hdi_equal_density_and_mass():
    for beta in (1.0, 2.0):
        posterior = FBetaPosterior(8.5, 2.5, 4.5, beta=beta)
        low, high = posterior.hdi(0.9)
        assert posterior.cdf(high) - posterior.cdf(low) == pytest.approx(0.9, abs=1e-10)
        assert posterior.logpdf(low) == pytest.approx(posterior.logpdf(high), abs=1e-6)
        equal_tailed = posterior.interval(0.9)
        assert high - low < equal_tailed.high - equal_tailed.low
    # TP = 0 with λ = 1/2: density unbounded at 0, one-sided HDI.
    low, high = FBetaPosterior(0.5, 3.5, 2.5, beta=2.0).hdi(0.9)
    assert low == 0.0 and high == pytest.approx(FBetaPosterior(0.5, 3.5, 2.5, beta=2.0).ppf(0.9))


def test_fbeta_extreme_counts():
    # 1e12 counts: finite, centred on the point estimate, sd from the normal limit.
    posterior = FBetaPosterior(5e11 + 0.5, 2e11 + 0.5, 3e11 + 0.5, beta=2.0)
    point = 5 * 5e11 / (5 * 5e11 + 4 * 3e11 + 2e11)
    summary = posterior.summary()
    assert summary.mean == pytest.approx(point, abs=1e-12)
    assert summary.mode == pytest.approx(point, abs=1e-10)
    z = stats.norm.isf(0.025)
    assert summary.low == pytest.approx(summary.mean - z * summary.std, abs=1e-3 * summary.std)
    assert summary.high == pytest.approx(summary.mean + z * summary.std, abs=1e-3 * summary.std)
    assert np.all(np.isfinite([summary.hdi_low, summary.hdi_high]))


def test_fbeta_vectorised_equals_elementwise():
    tp = np.array([8.5, 0.5, 40.5])
    fp = np.array([2.5, 3.5, 10.5])
    fn = np.array([4.5, 1.5, 20.5])
    for beta in (1.0, 2.0):
        joint = FBetaPosterior(tp, fp, fn, beta=beta)
        assert joint.shape == (3,)
        interval = joint.interval(0.9)
        means = joint.mean()
        assert isinstance(means, np.ndarray) and means.shape == (3,)
        for i in range(3):
            single = FBetaPosterior(tp[i], fp[i], fn[i], beta=beta)
            assert isinstance(single.mean(), float)
            assert means[i] == pytest.approx(single.mean(), rel=1e-13)
            assert interval.low[i] == pytest.approx(single.interval(0.9).low, rel=1e-12)
            assert joint[i].cdf(0.5) == pytest.approx(single.cdf(0.5), rel=1e-13)
        # Broadcasting x against the parameters, as scipy does.
        grid = np.linspace(0.1, 0.9, 5)[:, None]
        assert np.shape(joint.cdf(grid)) == (5, 3)
        np.testing.assert_allclose(np.asarray(joint.cdf(grid))[:, 1],
                                   FBetaPosterior(0.5, 3.5, 1.5, beta=beta).cdf(grid[:, 0]),
                                   rtol=1e-13)


# ---------------------------------------------------------------------------
# Difference of two Betas (informedness, markedness)
# ---------------------------------------------------------------------------

DIFFERENCE_CASES = [(21.5, 9.5, 14.5, 56.5), (3.5, 0.5, 1.5, 40.5), (0.5, 0.5, 0.5, 0.5),
                    (0.5, 3.5, 3.5, 0.5), (5.5, 5.5, 100.5, 1e4)]


# The two cases with every parameter at 1/2 or a U-shaped term take 0.3-0.4 s each (the
# scipy reference next to the power-law ends): slow tier.  (3.5, 0.5, 1.5, 40.5) keeps a
# power-law end in the default run.
@pytest.mark.parametrize("a1, b1, a2, b2", [
    case if case[:2] != (0.5, 0.5) and case[:2] != (0.5, 3.5)
    else pytest.param(*case, marks=pytest.mark.slow) for case in DIFFERENCE_CASES])
def test_difference_cdf_equals_quadrature(a1, b1, a2, b2):
    posterior = DifferencePosterior(BetaPosterior(a1, b1), BetaPosterior(a2, b2))
    for j in (-0.5, -0.05, 0.2, 0.6):
        reference = difference_cdf_quad(a1, b1, a2, b2, j)
        assert posterior.cdf(j) == pytest.approx(reference, abs=1e-9)
        assert posterior.sf(j) == pytest.approx(1 - reference, abs=1e-9)
    # Closed-form moments: E = E1 - E2, Var = Var1 + Var2.
    assert posterior.mean() == pytest.approx(a1 / (a1 + b1) - a2 / (a2 + b2), rel=1e-14)
    assert posterior.var() == pytest.approx(stats.beta.var(a1, b1) + stats.beta.var(a2, b2))
    for q in (0.025, 0.5, 0.975):
        assert posterior.cdf(posterior.ppf(q)) == pytest.approx(q, abs=1e-11)


# 0.4-0.5 s each at 10^6 draws, all three in the slow tier; the everyday table also in
# the default run at FAST_DRAWS.
@pytest.mark.parametrize("tp, fp, fn, tn, n_draws", _mc_params(
    [(21, 14, 9, 56), (0, 0, 0, 0), (3, 1, 0, 40)], {(21, 14, 9, 56)}))
def test_informedness_and_markedness_monte_carlo(rng, tp, fp, fn, tn, n_draws):
    lam = 0.5
    x_tp, x_fp, x_fn, x_tn = gamma_draws(rng, tp + lam, fp + lam, fn + lam, tn + lam,
                                         n_draws=n_draws)
    tpr, fpr = x_tp / (x_tp + x_fn), x_fp / (x_fp + x_tn)
    ppv, npv = x_tp / (x_tp + x_fp), x_tn / (x_tn + x_fn)
    informedness = DifferencePosterior(BetaPosterior(tp + lam, fn + lam),
                                       BetaPosterior(fp + lam, tn + lam))
    markedness = DifferencePosterior(BetaPosterior(tp + lam, fp + lam),
                                     BetaPosterior(fn + lam, tn + lam))
    assert_within_4_se(informedness, tpr - fpr, [-0.2, 0.0, 0.4])
    assert_within_4_se(markedness, ppv + npv - 1, [-0.2, 0.0, 0.4])


def test_difference_chance_probability_and_hdi():
    # Powers' guessing table (TP=12, FP=28, FN=18, TN=42): informedness 0, so
    # P(J > 0) is near 1/2; the half-informed table is far above chance.
    guess = DifferencePosterior(BetaPosterior(12.5, 18.5), BetaPosterior(28.5, 42.5))
    assert guess.prob_greater(0.0) == pytest.approx(0.5, abs=0.05)
    informed = DifferencePosterior(BetaPosterior(21.5, 9.5), BetaPosterior(14.5, 56.5))
    assert informed.prob_greater(0.0) > 0.9999
    low, high = informed.hdi(0.95)
    assert informed.cdf(high) - informed.cdf(low) == pytest.approx(0.95, abs=1e-9)
    assert informed.logpdf(low) == pytest.approx(informed.logpdf(high), abs=1e-6)
    assert low < informed.mode() < high


# Tables with a zero cell, from a draw of 2 000 tables with counts uniform in 0..1000
# (seeds 10 and 11 of numpy's default_rng): an inner Beta with a parameter 1/2 against
# hundreds.  Each one took the highest-density interval about a second, a hundred
# times what the other tables cost together.
ZERO_CELL_TABLES = [(443, 1, 0, 915), (85, 986, 26, 0), (1, 658, 85, 0), (796, 834, 53, 0)]


@pytest.mark.parametrize("table", ZERO_CELL_TABLES, ids=str)
def test_difference_density_slope_with_a_zero_cell(table):
    # The density's slope (the Jacobian of the highest-density solver) against a
    # central difference of the density itself (which `quad` checks elsewhere).  The
    # inner density's own slope is not integrable at its spike: its sum on the nodes
    # came out 1e6 to 1e8 times too large.
    from skprobeval import ConfusionCounts, metric_posterior

    for metric in ("informedness", "markedness"):
        posterior = metric_posterior(ConfusionCounts(*table), metric=metric)
        sd = float(posterior.std())
        x = float(posterior.mean()) + sd * np.array([-1.0, -0.3, 0.4, 1.2])
        params = posterior._params((4,))
        slope = posterior._parts(params, x, (3,))[3]
        step = 1e-5 * sd
        central = (posterior.pdf(x + step) - posterior.pdf(x - step)) / (2 * step)
        np.testing.assert_allclose(slope, central, rtol=1e-3, atol=1e-3 * np.max(np.abs(
            central)), err_msg=f"{metric} {table}")


def test_markedness_hdi_with_zero_cells_is_informedness_of_the_transpose():
    # Markedness is informedness of the transposed table (FP and FN swapped): both
    # routes must give one interval.  And the two-end Newton solve, which these
    # tables reach since the density's slope is right, against the generic
    # tail-mass solver (nested quantile solves) to 1e-9 of the standard deviation.
    from skprobeval import ConfusionCounts, metric_posterior
    from skprobeval._posteriors._posterior import _Posterior

    tp, fp, fn, tn = (np.array(cells) for cells in zip(*ZERO_CELL_TABLES))
    markedness = metric_posterior(ConfusionCounts(tp, fp, fn, tn), metric="markedness")
    informedness = metric_posterior(ConfusionCounts(tp, fn, fp, tn), metric="informedness")
    for kind in ("hdi", "interval"):
        np.testing.assert_allclose(np.asarray(getattr(markedness, kind)(0.95)),
                                   np.asarray(getattr(informedness, kind)(0.95)),
                                   rtol=0, atol=1e-10)
    low, high = markedness.hdi(0.95)
    params = markedness._params(markedness.shape)
    generic_low, generic_high = _Posterior._hdi_flat(markedness, params, 0.95)
    sd = markedness.std()
    np.testing.assert_allclose(low, generic_low, rtol=0, atol=1e-9 * np.min(sd))
    np.testing.assert_allclose(high, generic_high, rtol=0, atol=1e-9 * np.min(sd))
    np.testing.assert_allclose(markedness.cdf(high) - markedness.cdf(low), 0.95, atol=1e-9)


def test_sampled_posterior_error_of_wide_draws_in_blocks():
    # The Monte Carlo error's standard deviations are taken a block of columns at
    # a time (2**22 values: here two blocks of 41 943 and 8 057 columns); they must
    # be numpy's of all the columns at once, to the last bit.
    draws = np.random.default_rng(0).beta(2.5, 7.5, size=(100, 50_000))
    expected = draws.std(axis=0, ddof=1) / math.sqrt(100)
    np.testing.assert_array_equal(SampledPosterior(draws).mc_error, expected)


def test_difference_extreme_counts():
    # Both terms symmetric (a == b): the difference is symmetric and, at 1e12, normal up
    # to O(1/n).
    n = 1e12
    posterior = DifferencePosterior(BetaPosterior(n, n), BetaPosterior(n, n))
    sd = posterior.std()
    z = stats.norm.isf(0.025)
    assert posterior.interval(0.95) == pytest.approx((-z * sd, z * sd), abs=1e-4 * sd)
    assert posterior.cdf(0.0) == pytest.approx(0.5, abs=1e-8)
    tiny = DifferencePosterior(BetaPosterior(2.001, 0.001), BetaPosterior(3.001, 2.001))
    # tpr is ~1 almost surely: J ~ 1 - fpr, so P(J <= 0.2) ~ P(fpr >= 0.8).
    assert tiny.cdf(0.2) == pytest.approx(stats.beta.sf(0.8, 3.001, 2.001), abs=2e-3)
    assert np.all(np.isfinite(tiny.interval(0.95)))


# 0.3-0.5 s each: two of the six (both priors, two metrics) in the default run.
SPIKE_CASES = [("markedness", (10**6, 0, 10**6, 0)), ("informedness", (0, 0, 10**6, 10**6)),
               ("balanced_accuracy", (0, 0, 10**6, 10**6))]
SPIKE_FAST = {("markedness", 1e-6), ("balanced_accuracy", 1e-3)}


@pytest.mark.parametrize(("metric", "counts", "prior"), [
    pytest.param(metric, counts, prior, id=f"{prior:g}-{metric}",
                 marks=[] if (metric, prior) in SPIKE_FAST else [pytest.mark.slow])
    for prior in (1e-3, 1e-6) for metric, counts in SPIKE_CASES])
def test_difference_intervals_of_a_spike_at_zero(metric, counts, prior):
    # Both Betas of the difference are Beta(1e6, prior) (or Beta(prior, 1e6)): each
    # holds ~half its mass within 1e-300 of its end, so the difference holds more
    # than 1% of its mass within 1e-300 of 0 (its centre).  The central quantiles
    # are then not representable: both ends are 0 (one float step at most), in
    # order, printed without a sign.  The quantile solver used to bisect towards
    # them linearly (200 halvings, ~30 s for an hdi; ends 1e-63 and inverted).
    import time

    from skprobeval import ConfusionCounts, metric_posterior

    posterior = metric_posterior(ConfusionCounts(*counts), metric=metric, prior=prior)
    centre = 0.5 if metric == "balanced_accuracy" else 0.0
    start = time.perf_counter()
    hdi = posterior.hdi(0.01)
    interval = posterior.interval(0.01)
    assert time.perf_counter() - start < 5.0
    for low, high in (hdi, interval):
        assert low <= high
        assert low == pytest.approx(centre, abs=1e-300) and high == pytest.approx(centre,
                                                                                  abs=1e-300)
        assert not (np.signbit(low) and low == 0) and not (np.signbit(high) and high == 0)
    assert "-0.0" not in repr(hdi) and "-0.0" not in repr(interval)


# ---------------------------------------------------------------------------
# Sampled
# ---------------------------------------------------------------------------


def test_sampled_posterior_summaries(rng):
    draws = rng.beta(3.5, 2.5, size=200_000)
    posterior = SampledPosterior(draws)
    assert posterior.n_draws == 200_000 and posterior.shape == ()
    assert posterior.mean() == pytest.approx(draws.mean())
    assert posterior.mc_error == pytest.approx(draws.std(ddof=1) / math.sqrt(draws.size))
    assert posterior.interval(0.9) == pytest.approx(tuple(np.quantile(draws, [0.05, 0.95])))
    assert posterior.cdf(0.5) == pytest.approx(np.mean(draws <= 0.5))
    # The sample HDI is the shortest interval holding 90% of the draws ...
    low, high = posterior.hdi(0.9)
    ordered = np.sort(draws)
    count = math.ceil(0.9 * draws.size)
    shortest = np.min(ordered[count - 1:] - ordered[:draws.size - count + 1])
    assert high - low == pytest.approx(shortest)
    # ... and estimates the exact one.
    exact_low, exact_high = BetaPosterior(3.5, 2.5).hdi(0.9)
    assert (low, high) == pytest.approx((exact_low, exact_high), abs=0.01)
    assert posterior.mode() == pytest.approx(0.625, abs=0.05)
    assert posterior.pdf(0.6) == pytest.approx(stats.beta.pdf(0.6, 3.5, 2.5), rel=0.05)
    summary = posterior.summary(0.9)
    assert summary.mc_error == posterior.mc_error


def test_sampled_hdi_near_confidence_one_is_no_longer_than_the_interval():
    # 2000 draws at confidence 0.999999: the shortest window of whole draws is all
    # of them (0.06354342 wide, the previous implementation's hdi), longer than
    # the interpolated equal-tailed interval (0.06354139), which is the hdi.
    from skprobeval import ConfusionCounts, metric_posterior

    posterior = metric_posterior(ConfusionCounts(1000, 1000, 26, 23), metric="k_measure",
                                 prior="jeffreys", n_draws=2000, random_state=0)
    assert isinstance(posterior, SampledPosterior)
    low, high = posterior.hdi(0.999999)
    equal_low, equal_high = posterior.interval(0.999999)
    assert high - low <= equal_high - equal_low
    assert high - low == pytest.approx(0.06354139, abs=1e-8)


def test_sampled_posterior_per_label_and_rvs(rng):
    draws = np.column_stack([rng.beta(3.5, 2.5, size=5000), rng.beta(30, 10, size=5000)])
    posterior = SampledPosterior(draws)
    assert posterior.shape == (2,)
    np.testing.assert_allclose(posterior.mean(), draws.mean(axis=0))
    np.testing.assert_allclose(posterior.ppf(0.5), np.median(draws, axis=0))
    assert posterior[1].mean() == pytest.approx(draws[:, 1].mean())
    first = posterior.rvs(size=(4, 2), random_state=3)
    assert first.shape == (4, 2)
    np.testing.assert_array_equal(first, posterior.rvs(size=(4, 2), random_state=3))
    with pytest.raises(ValueError, match="`samples`"):
        SampledPosterior([0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="`samples`"):
        SampledPosterior([0.1])


# ---------------------------------------------------------------------------
# Common API, types and bad input
# ---------------------------------------------------------------------------


def test_interval_pair_and_reprs():
    interval = BetaPosterior(3.5, 2.5).interval()
    assert isinstance(interval, CredibleInterval) and isinstance(interval, tuple)
    low, high = interval
    assert (low, high) == (interval.low, interval.high)
    assert isinstance(low, float)
    assert repr(BetaPosterior(3.5, 2.5)) == "BetaPosterior(a=3.5, b=2.5)"
    assert "np.float64" not in repr(interval)
    assert repr(FBetaPosterior([1.5, 2.5], 0.5, 0.5, beta=2)) == \
        "FBetaPosterior(beta=2.0, tp=[1.5, 2.5], fp=[0.5, 0.5], fn=[0.5, 0.5])"
    summary = BetaPosterior(3.5, 2.5).summary()
    assert isinstance(summary, PosteriorSummary)
    assert set(summary.to_dict()) == {"mean", "median", "mode", "std", "low", "high",
                                      "hdi_low", "hdi_high", "confidence", "mc_error"}
    assert summary.mc_error is None


@pytest.mark.parametrize("posterior", [
    BetaPosterior(3.5, 2.5), FBetaPosterior(3.5, 2.5, 1.5), FBetaPosterior(3.5, 2.5, 1.5, beta=2),
    DifferencePosterior(BetaPosterior(3.5, 1.5), BetaPosterior(2.5, 4.5)),
], ids=["beta", "f1", "f2", "difference"])
def test_common_api(posterior):
    for name in ("mean", "median", "mode", "var", "std"):
        assert isinstance(getattr(posterior, name)(), float)
    draw = posterior.rvs(random_state=0)
    assert isinstance(draw, float)
    assert posterior.rvs(random_state=0) == draw
    draws = posterior.rvs(size=(2000,), random_state=1)
    assert draws.shape == (2000,)
    low, high = posterior.interval(0.99)
    # The draws come from the posterior: about 99% of them fall in its 99% interval.
    inside = np.mean((draws >= low) & (draws <= high))
    assert abs(inside - 0.99) <= 4 * math.sqrt(0.99 * 0.01 / draws.size)
    assert np.all((draws >= posterior._support[0]) & (draws <= posterior._support[1]))
    assert posterior.prob_greater(0.3) == posterior.sf(0.3)
    assert posterior.cdf(0.3) + posterior.sf(0.3) == pytest.approx(1.0, abs=1e-12)
    low_end, high_end = posterior._support
    assert posterior.ppf(0.0) == low_end and posterior.ppf(1.0) == high_end
    assert math.isnan(posterior.ppf(1.5))
    for confidence in (0.0, 1.0, 1.5, -0.1):
        with pytest.raises(ValueError, match="`confidence`"):
            posterior.interval(confidence)
        with pytest.raises(ValueError, match="`confidence`"):
            posterior.hdi(confidence)
    with pytest.raises(ValueError, match="`size`"):
        BetaPosterior([1.0, 2.0], 1.0).rvs(size=3)


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937,
                                  np.random.Philox])
@pytest.mark.parametrize("pending", [False, True], ids=["whole", "half-word-pending"])
def test_beta_draws_of_large_shapes_follow_the_log_space_route(bits, pending):
    # Shapes of 1 and more take X / (X + Y) of the Gamma variates and skip the uniforms
    # that shapes below 1 need (a jump of PCG64, or uniforms drawn and dropped).  Against
    # the log-space route replayed by hand: the same draws within a few units of the last
    # place, and the generator left where that route leaves it, a 32-bit half-word
    # pending from an int32 draw included.
    from scipy import special

    a, b, size = np.array([1.0, 3.5, 8000.5]), np.array([1.0, 2.5, 1500.5]), (1000, 3)

    def generator():
        rng = np.random.Generator(bits(7))
        if pending:
            rng.integers(0, 10, size=3, dtype=np.int32)
        return rng

    rng = generator()
    draws = BetaPosterior(a, b).rvs(size=size, random_state=rng)
    replay = generator()
    log_x = np.log(replay.standard_gamma(a, size=size))
    replay.random(size)
    log_y = np.log(replay.standard_gamma(b, size=size))
    replay.random(size)
    np.testing.assert_allclose(draws, special.expit(log_x - log_y), rtol=1e-14, atol=0)
    np.testing.assert_array_equal(rng.random(3), replay.random(3))
    np.testing.assert_array_equal(rng.integers(0, 1 << 30, size=5, dtype=np.int32),
                                  replay.integers(0, 1 << 30, size=5, dtype=np.int32))


def test_bad_parameters():
    with pytest.raises(ValueError, match="`a`"):
        BetaPosterior(0.0, 1.0)
    with pytest.raises(ValueError, match="`b`"):
        BetaPosterior(1.0, np.inf)
    with pytest.raises(ValueError, match="`beta`.*-1"):
        FBetaPosterior(1.0, 1.0, 1.0, beta=-1.0)
    with pytest.raises(ValueError, match="`beta`"):
        FBetaPosterior(1.0, 1.0, 1.0, beta=0.0)
    with pytest.raises(ValueError, match="`fn`"):
        FBetaPosterior(1.0, 1.0, -2.0)
    with pytest.raises(TypeError, match="`second`"):
        DifferencePosterior(BetaPosterior(1, 1), 0.5)


def test_no_warnings_on_edge_values():
    posteriors = [BetaPosterior(0.5, 0.5), FBetaPosterior(0.5, 0.5, 0.5, beta=2.0),
                  DifferencePosterior(BetaPosterior(0.5, 0.5), BetaPosterior(0.5, 0.5))]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for posterior in posteriors:
            posterior.cdf([-2.0, -1.0, 0.0, 1.0, 2.0])
            posterior.pdf([-2.0, 0.0, 1.0, 2.0])
            posterior.summary()


# 0.4 s each.  On the empty table both metrics are the same difference, Beta(λ, λ) -
# Beta(λ, λ): informedness in the default run, markedness in the slow tier.
@pytest.mark.parametrize("metric", [
    "informedness", pytest.param("markedness", marks=pytest.mark.slow)])
def test_difference_quantiles_with_tiny_prior_match_sampling(metric, seed):
    # Empty table, prior 1e-3: each rate is nearly a coin on {0, 1}, so the difference
    # has near-atoms at -1, 0 and 1 and a density spike at 0.  The quantile solver must
    # not stop at the spike (a regression: it returned ppf(0.025) = -8e-305).
    # Reference: sample quantiles of 400 000 draws.
    from skprobeval import ConfusionCounts, metric_posterior

    posterior = metric_posterior(ConfusionCounts(0, 0, 0, 0), metric=metric, prior=1e-3)
    draws = posterior.rvs(size=400_000, random_state=seed)
    levels = np.array([0.025, 0.1, 0.5, 0.9, 0.975])
    np.testing.assert_allclose(posterior.ppf(levels), np.quantile(draws, levels), atol=1e-6)
    low, high = posterior.interval(0.95)
    assert low == pytest.approx(-1.0, abs=1e-9) and high == pytest.approx(1.0, abs=1e-9)


# 0.5-1.4 s each: the regression's own table in the default run, the other two (a label
# predicted never with one positive, and once) in the slow tier.
@pytest.mark.parametrize("counts", [
    (0, 0, 2, 1000), pytest.param((0, 0, 1, 1000), marks=pytest.mark.slow),
    pytest.param((1, 1, 0, 1000), marks=pytest.mark.slow)])
def test_informedness_hdi_of_rare_class_tables(counts):
    # A label never predicted (TP = 0) or predicted once: tpr's density is unbounded at 0,
    # fpr is a spike near 0, so the difference has a sharp peak just below 0.  The HDI must
    # have equal densities at both ends, hold 95% and be no wider than the equal-tailed
    # interval (a regression: Newton on both ends stalled at (-0.126, 0.569), width 0.69,
    # for (0, 0, 2, 1000), where the shortest interval is (-0.0037, 0.5697), found on a grid
    # of the cdf and confirmed by 2e6 posterior draws).
    from skprobeval import ConfusionCounts, metric_posterior

    posterior = metric_posterior(ConfusionCounts(*counts), metric="informedness", prior=0.5)
    low, high = posterior.hdi(0.95)
    assert posterior.cdf(high) - posterior.cdf(low) == pytest.approx(0.95, abs=1e-8)
    assert posterior.pdf(low) == pytest.approx(posterior.pdf(high), rel=1e-6)
    equal_low, equal_high = posterior.interval(0.95)
    assert high - low <= equal_high - equal_low
    if counts == (0, 0, 2, 1000):
        assert (low, high) == pytest.approx((-0.0037, 0.5697), abs=2e-4)


@pytest.mark.parametrize("alpha", [
    np.linspace(0.05, 40.0, 50),                 # a few cells below 1
    np.full(4, 0.03125),                          # every cell below 1 (an empty table)
    np.r_[np.full(30, 1e-3), 2.0],               # tiny cells that underflow, one above 1
    np.full(10, 1e-3),                            # every draw's cells but one underflow
])
def test_dirichlet_is_the_normalised_log_gamma_stream(alpha):
    # The one-table route (numpy's Generator.dirichlet over the boosted shapes) draws
    # the variates of log_gamma, same seed, same order: normalised in log space they
    # are the same draws, to rounding, also where the cells below 1 hold a draw's mass.
    from skprobeval._core._numerics import _TINY, dirichlet, log_gamma

    log_g = log_gamma(alpha, 2000, np.random.default_rng(5))
    log_g -= log_g.max(axis=1, keepdims=True)
    expected = np.exp(log_g)
    expected = np.maximum(expected / expected.sum(axis=1, keepdims=True), _TINY)
    drawn = dirichlet(alpha, 2000, np.random.default_rng(5))
    assert np.all(np.isfinite(drawn))
    np.testing.assert_allclose(drawn.sum(axis=1), 1.0, rtol=1e-13)
    held = expected > 1e-250
    np.testing.assert_allclose(drawn[held], expected[held], rtol=1e-12)
    np.testing.assert_allclose(np.log(drawn[~held]), np.log(expected[~held]), rtol=1e-12)
