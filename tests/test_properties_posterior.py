"""Properties of the exact posteriors over generated tables, priors and levels.

Counts range from 0 through fractions to 1e12 and priors from 1e-3 to 10, where
the mass can sit within one float64 step of an end of the support: the checks
are stated so that they hold in floating point (a quantile is the float at which
the cdf crosses q; an interval holds its mass once widened by one float step).
"""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import confidences, priors, tables

from skprobeval import (
    BetaPosterior,
    ConfusionCounts,
    DifferencePosterior,
    SampledPosterior,
    metric_posterior,
)

EXACT = ("precision", "recall", "accuracy", "specificity", "overlap", "f1", "fbeta",
         "informedness", "markedness", "balanced_accuracy", "e_measure")
# Differences of Betas (and their affine maps): highest-density intervals are
# checked above but not batch against single here (seconds each for spikes at
# both ends of the support, which this generator favours).
DIFFERENCES = ("informedness", "markedness", "balanced_accuracy")
BETAS = st.one_of(st.just(1.0), st.floats(1e-2, 10), st.sampled_from([1e-3, 0.5, 2.0, 1e3]))


@st.composite
def posteriors(draw):
    """(posterior, description) of one exact metric of one generated table."""
    table = draw(tables())
    metric = draw(st.sampled_from(EXACT))
    prior = draw(priors())
    beta = draw(BETAS) if metric in ("fbeta", "e_measure") else 1.0
    posterior = metric_posterior(ConfusionCounts(**table), metric=metric, prior=prior, beta=beta)
    return posterior, (metric, table, prior, beta)


def _support(posterior):
    return posterior._support


def _step(posterior, x):
    """One float step at x for a Beta posterior (its kernels resolve every float,
    subnormals included); for the composite kinds (F-beta, differences and their
    affine maps) four float steps of the support's width, which is what their
    maps between variables resolve."""
    ulp = np.spacing(np.abs(x))
    if isinstance(posterior, BetaPosterior):
        return ulp
    lo, hi = _support(posterior)
    return max(ulp, 4 * np.finfo(float).eps * (hi - lo))


def _down(posterior, x):
    return x - _step(posterior, x)


def _up(posterior, x):
    return x + _step(posterior, x)


def _mass(posterior, low, high):
    """Mass of [low, high] widened by one float step at each end, and narrowed
    by one: within float resolution the interval holds the stated mass when
    the first is at least the mass and the second at most."""
    outer = posterior.cdf(_up(posterior, high)) - posterior.cdf(_down(posterior, low))
    inner = (posterior.cdf(_down(posterior, high)) - posterior.cdf(_up(posterior, low))
             if _up(posterior, low) < _down(posterior, high) else 0.0)
    return outer, inner


@given(posteriors(), st.lists(st.floats(-1.5, 1.5), min_size=1, max_size=20))
def test_cdf_is_monotone_within_0_1_and_sf_is_its_complement(case, points):
    posterior, _ = case
    lo, hi = _support(posterior)
    x = np.sort(np.concatenate([points, [lo, hi, np.nextafter(lo, hi), np.nextafter(hi, lo)]]))
    cdf = np.asarray(posterior.cdf(x))
    sf = np.asarray(posterior.sf(x))
    assert np.all(np.isfinite(cdf)) and np.all((cdf >= 0) & (cdf <= 1))
    assert np.all(np.diff(cdf) >= -1e-12), cdf
    np.testing.assert_allclose(cdf + sf, 1.0, rtol=0, atol=1e-12)
    assert posterior.cdf(hi) == 1.0 and posterior.sf(hi) == 0.0
    assert posterior.cdf(lo - 0.5) == 0.0 and posterior.cdf(hi + 0.5) == 1.0


@given(posteriors(), st.floats(1e-6, 1 - 1e-6))
def test_cdf_of_ppf_is_q(case, q):
    # The quantile is within one float step of where the cdf crosses q (to 1e-9:
    # the cdf's own accuracy).
    posterior, _ = case
    x = posterior.ppf(q)
    lo, hi = _support(posterior)
    assert lo <= x <= hi
    assert posterior.cdf(_up(posterior, x)) >= q - 1e-9, (x, posterior.cdf(_up(posterior, x)))
    assert posterior.cdf(_down(posterior, x)) <= q + 1e-9, (x, posterior.cdf(_down(posterior, x)))
    # isf is ppf seen from the top.
    y = posterior.isf(q)
    assert posterior.sf(_down(posterior, y)) >= q - 1e-9, (y, posterior.sf(_down(posterior, y)))
    assert posterior.sf(_up(posterior, y)) <= q + 1e-9, (y, posterior.sf(_up(posterior, y)))


# 13 s at the fast profile's 25 examples (exact difference posteriors' hdi at concentrated
# counts): in the heavy tier, which runs every property test at 200 examples.
@pytest.mark.slow
@given(posteriors(), confidences())
def test_intervals_hold_their_mass_and_hdi_is_no_longer(case, confidence):
    posterior, _ = case
    low, high = posterior.interval(confidence)
    median = posterior.median()
    assert _down(posterior, low) <= median <= _up(posterior, high), (low, median, high)
    outer, inner = _mass(posterior, low, high)
    assert outer >= confidence - 1e-9 and inner <= confidence + 1e-9, (low, high, outer, inner)
    hdi_low, hdi_high = posterior.hdi(confidence)
    lo, hi = _support(posterior)
    assert lo <= hdi_low <= hdi_high <= hi
    outer, inner = _mass(posterior, hdi_low, hdi_high)
    assert outer >= confidence - 1e-7, (hdi_low, hdi_high, outer)
    assert inner <= confidence + 1e-7, (hdi_low, hdi_high, inner)
    # No longer than the equal-tailed interval (to the solver's accuracy).
    assert hdi_high - hdi_low <= (high - low) * (1 + 1e-6) + 1e-12


@given(posteriors())
def test_moments_are_finite_and_inside_the_support(case):
    posterior, _ = case
    lo, hi = _support(posterior)
    for value in (posterior.mean(), posterior.median(), posterior.mode()):
        assert np.isfinite(value) and lo <= value <= hi
    assert np.isfinite(posterior.var()) and 0 <= posterior.var() <= (hi - lo) ** 2 / 4


@given(st.lists(tables(), min_size=1, max_size=4), st.sampled_from(EXACT), priors(),
       confidences())
def test_vectorised_posterior_equals_the_per_table_ones(rows, metric, prior, confidence):
    cells = {cell: np.array([row[cell] for row in rows]) for cell in ("tp", "fp", "fn", "tn")}
    together = metric_posterior(ConfusionCounts(**cells), metric=metric, prior=prior)
    x = np.linspace(*_support(together), 7)[1:-1]
    for index, row in enumerate(rows):
        alone = metric_posterior(ConfusionCounts(**row), metric=metric, prior=prior)
        for name, got, want in [
            ("mean", together.mean()[index], alone.mean()),
            ("var", together.var()[index], alone.var()),
            ("cdf", together.cdf(x[:, None])[:, index], alone.cdf(x)),
            ("ppf", together.ppf(0.3)[index], alone.ppf(0.3)),
            ("interval", np.array(together.interval(confidence))[:, index],
             alone.interval(confidence)),
        ] + ([("hdi", np.array(together.hdi(confidence))[:, index], alone.hdi(confidence))]
             if metric not in DIFFERENCES else []):
            # The iterative solves stop at their tolerance, which a batch can
            # reach in another step than a single table.
            atol = 1e-8 if name == "hdi" else 1e-12
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=atol, err_msg=name)


@given(tables(), priors(), st.sampled_from(["mcc", "k_measure"]))
def test_sampled_posteriors_are_seeded_and_inside_the_support(table, prior, metric):
    counts = ConfusionCounts(**table)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = metric_posterior(counts, metric=metric, prior=prior, n_draws=500, random_state=3)
    second = metric_posterior(counts, metric=metric, prior=prior, n_draws=500, random_state=3)
    np.testing.assert_array_equal(first.samples, second.samples)
    assert np.all(np.isfinite(first.samples))
    lo, hi = first.interval(0.9)
    assert lo <= first.median() <= hi
    assert first.mc_error >= 0


def test_hdi_of_a_difference_of_u_shaped_betas_is_no_longer_than_the_interval():
    # Found by the interval property: informedness of an empty table, prior 0.25.  The
    # density has spikes at -1, 0 and 1; the interval [-1, 0] was returned as the hdi.
    posterior = DifferencePosterior(BetaPosterior(0.25, 0.25), BetaPosterior(0.25, 0.25))
    low, high = posterior.hdi(0.5)
    equal_low, equal_high = posterior.interval(0.5)
    assert high - low <= equal_high - equal_low + 1e-12


@given(draws=st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=60),
       columns=st.integers(1, 3),
       confidence=st.one_of(confidences(), st.sampled_from([0.999999, 1 - 1e-12])))
def test_sampled_hdi_is_no_longer_than_the_interval(draws, columns, confidence):
    # Both from the same draws: the shortest window of whole draws may be longer than
    # the interpolated equal-tailed quantiles (near confidence 1 it is all the draws);
    # the hdi is then the equal-tailed interval.
    samples = np.array(draws)[:, None] * np.arange(1, columns + 1)
    posterior = SampledPosterior(samples)
    low, high = posterior.hdi(confidence)
    equal_low, equal_high = posterior.interval(confidence)
    assert np.all(np.asarray(high) - low <= np.asarray(equal_high) - equal_low)
    assert np.all(low <= high)
