"""Comparisons of two systems (Goutte & Gaussier 2005, sections 2.2, 2.3, 3, 4).

Every exact probability is checked by an independent route: Goutte & Gaussier's printed
Monte Carlo values, fresh Monte Carlo with >= 10^6 draws (within 4 standard
errors), mpmath, the published baycomp package, or an exact identity.
"""

import itertools
import math

try:
    import mpmath
except ImportError:     # its reference tests skip (needs)
    mpmath = None
import numpy as np
import pytest
from optional import needs
from scipy import special, stats

from skprobeval import (
    ConfusionCounts,
    CorrelatedTTestResult,
    MetricComparison,
    PairedComparison,
    PairedCounts,
    compare_independent,
    compare_paired,
    compare_paired_metric,
    correlated_ttest,
    get_metric,
    pairwise_comparison,
)
from skprobeval._compare._paired import _difference_cdf, _difference_sf, _digamma_difference
from skprobeval._core._numerics import beta_greater

# Monte Carlo draws of the reference estimates.  Every tolerance below is four of their
# standard errors at this size (at most sqrt(0.25 / 250 000) = 0.001 for a probability),
# so a smaller N_MC widens the bounds with the noise; 250 000 keeps them within 0.004.
N_MC = 250_000

# ---------------------------------------------------------------------------
# Goutte & Gaussier (2005), Table 2
# ---------------------------------------------------------------------------

# Provenance: Goutte & Gaussier (2005), Table 2 "Paired comparison of
# 1/ 'ltc' and 'nnn' weighting schemes (left), 2/ linear ('lin') and quadratic
# ('p2') kernel on 'nnn' weighting, and 3/ linear and quadratic kernel on 'ltc'
# weighting"; columns (N1, N2, printed Monte Carlo P(pi1 > pi2) in percent),
# alpha1 = alpha2 = 1/2, 3299 test documents (section 4).
TABLE_2 = [
    # ltc > nnn (linear kernel)
    ("earn", "ltc/nnn", 17, 4, 99.77),
    ("acq", "ltc/nnn", 43, 28, 96.41),
    ("money-fx", "ltc/nnn", 39, 23, 97.90),
    ("crude", "ltc/nnn", 21, 15, 84.32),
    ("grain", "ltc/nnn", 17, 11, 87.32),
    ("trade", "ltc/nnn", 23, 22, 55.75),
    ("interest", "ltc/nnn", 24, 24, 49.73),
    ("wheat", "ltc/nnn", 10, 9, 59.56),
    ("ship", "ltc/nnn", 6, 11, 11.38),
    ("corn", "ltc/nnn", 6, 5, 61.45),
    ("dlr", "ltc/nnn", 13, 6, 94.62),
    ("oilseed", "ltc/nnn", 12, 9, 74.31),
    ("money-sup", "ltc/nnn", 8, 3, 93.43),
    # lin > p2 on 'nnn' weighting
    ("earn", "nnn lin/p2", 48, 12, 100.00),
    ("acq", "nnn lin/p2", 282, 14, 100.00),
    ("money-fx", "nnn lin/p2", 58, 43, 93.76),
    ("crude", "nnn lin/p2", 62, 21, 100.00),
    ("grain", "nnn lin/p2", 46, 10, 100.00),
    ("trade", "nnn lin/p2", 28, 28, 49.19),
    ("interest", "nnn lin/p2", 38, 21, 98.61),
    ("wheat", "nnn lin/p2", 14, 13, 57.87),
    ("ship", "nnn lin/p2", 22, 4, 99.97),
    ("corn", "nnn lin/p2", 19, 2, 99.99),
    ("dlr", "nnn lin/p2", 191, 2, 100.00),
    ("oilseed", "nnn lin/p2", 24, 10, 99.23),
    ("money-sup", "nnn lin/p2", 10, 11, 41.22),
    # lin > p2 on 'ltc' weighting
    ("earn", "ltc lin/p2", 1, 4, 9.76),
    ("acq", "ltc lin/p2", 6, 7, 39.68),
    ("money-fx", "ltc lin/p2", 11, 6, 88.70),
    ("crude", "ltc lin/p2", 4, 2, 78.66),
    ("grain", "ltc lin/p2", 9, 2, 98.48),
    ("trade", "ltc lin/p2", 2, 7, 4.36),
    ("interest", "ltc lin/p2", 5, 3, 76.29),
    ("wheat", "ltc lin/p2", 0, 3, 3.39),
    ("ship", "ltc lin/p2", 3, 1, 83.71),
    ("corn", "ltc lin/p2", 1, 0, 82.31),
    ("dlr", "ltc lin/p2", 5, 3, 75.81),
    ("oilseed", "ltc lin/p2", 3, 2, 66.66),
    ("money-sup", "ltc lin/p2", 0, 3, 3.49),
]
N_DOCUMENTS = 3299


def test_table_2_has_39_rows():
    assert len(TABLE_2) == 39


@pytest.mark.parametrize("category, comparison, n1, n2, printed", TABLE_2,
                         ids=[f"{row[1]}:{row[0]}" for row in TABLE_2])
def test_table_2_exact_probability_matches_printed_monte_carlo(category, comparison, n1, n2,
                                                               printed):
    result = PairedComparison.from_counts(PairedCounts(n1, n2, N_DOCUMENTS - n1 - n2))
    assert isinstance(result.prob_first_better, float)
    assert abs(100 * result.prob_first_better - printed) <= 1.5
    assert result.prob_equivalent == 0.0
    assert result.prob_first_better + result.prob_second_better == pytest.approx(1.0, abs=1e-15)


def test_table_2_vectorised_equals_row_by_row():
    n1 = np.array([row[2] for row in TABLE_2], dtype=float)
    n2 = np.array([row[3] for row in TABLE_2], dtype=float)
    result = PairedComparison.from_counts(PairedCounts(n1, n2, N_DOCUMENTS - n1 - n2))
    assert result.prob_first_better.shape == (39,)
    for i, (a, b) in enumerate(zip(n1, n2)):
        single = PairedComparison.from_counts(PairedCounts(a, b, N_DOCUMENTS - a - b))
        assert result.prob_first_better[i] == single.prob_first_better
    # Printed values, vectorised: the largest gap is under one point.
    printed = np.array([row[4] for row in TABLE_2]) / 100
    assert np.max(np.abs(result.prob_first_better - printed)) < 0.01


def test_table_2_tie_is_exactly_one_half():
    # 'interest', ltc vs nnn: 24 vs 24, printed 49.73; exact by symmetry (equal Beta
    # posteriors are answered 1/2 by construction, not by the quadrature).
    result = PairedComparison.from_counts(PairedCounts(24, 24, N_DOCUMENTS - 48))
    assert result.prob_first_better == 0.5
    assert result.prob_second_better == 0.5
    assert result.expected_difference == 0.0
    assert result.expected_log_odds == 0.0


def test_earn_17_vs_4_exact_value():
    # Table 2, earn 17 vs 4: 99.83 exact (99.77 printed).
    result = PairedComparison.from_counts(PairedCounts(17, 4, N_DOCUMENTS - 21))
    assert round(100 * result.prob_first_better, 2) == 99.83


@needs("mpmath")
@pytest.mark.parametrize("n1, n2", [(17, 4), (0, 3), (191, 2), (10, 11)])
def test_closed_form_equals_mpmath(n1, n2):
    # Provenance: mpmath regularized incomplete beta, 30 digits:
    # P(pi1 > pi2) = P(W > 1/2) = I_{1/2}(N2 + 1/2, N1 + 1/2).
    mpmath.mp.dps = 30
    reference = mpmath.betainc(n2 + 0.5, n1 + 0.5, 0, 0.5, regularized=True)
    result = PairedComparison.from_counts(PairedCounts(n1, n2, 100))
    assert result.prob_first_better == pytest.approx(float(reference), rel=1e-13, abs=1e-300)


@pytest.mark.parametrize("n1, n2, n3, prior", [
    (17, 4, 3278, 0.5), (43, 28, 3228, (0.5, 0.5, 2.0)), (0, 3, 0, 1.0), (2.5, 0.25, 7.75, 0.01),
])
def test_expectations_equal_goutte_gaussier_equations_20_and_21(n1, n2, n3, prior):
    result = PairedComparison.from_counts(PairedCounts(n1, n2, n3), prior=prior)
    a1, a2, a3 = result.prior
    # Goutte & Gaussier (2005), eq. 20: E[delta] = (N1 + a1 - N2 - a2) / (N + a1 + a2 + a3).
    assert result.expected_difference == pytest.approx(
        (n1 + a1 - n2 - a2) / (n1 + n2 + n3 + a1 + a2 + a3), rel=1e-14, abs=1e-16)
    # Goutte & Gaussier (2005), eq. 21: E[log(pi1 / pi2)] = psi(N1 + a1) - psi(N2 + a2).
    assert result.expected_log_odds == pytest.approx(
        special.digamma(n1 + a1) - special.digamma(n2 + a2), rel=1e-12, abs=1e-14)


def test_expectations_match_monte_carlo(rng):
    a = np.array([17.5, 4.5, 3278.5])
    draws = rng.dirichlet(a, size=N_MC)
    result = PairedComparison.from_counts(PairedCounts(17, 4, 3278))
    delta = draws[:, 0] - draws[:, 1]
    log_odds = np.log(draws[:, 0] / draws[:, 1])
    assert abs(delta.mean() - result.expected_difference) <= 4 * delta.std() / math.sqrt(N_MC)
    assert abs(log_odds.mean() - result.expected_log_odds) <= 4 * log_odds.std() / math.sqrt(N_MC)


@pytest.mark.parametrize("a, b", [(1e12 + 0.5, 1e12 - 1e6 + 0.5), (1e12, 20.0), (25.0, 21.0),
                                  (1e9 + 0.25, 1e9 + 0.75)])
@needs("mpmath")
def test_digamma_difference_without_cancellation(a, b):
    # Provenance: mpmath digamma at 50 digits.
    mpmath.mp.dps = 50
    reference = mpmath.digamma(mpmath.mpf(a)) - mpmath.digamma(mpmath.mpf(b))
    assert float(_digamma_difference(a, b)) == pytest.approx(float(reference), rel=1e-12)


# ---------------------------------------------------------------------------
# Paired comparison with a region of practical equivalence: quadrature vs MC
# ---------------------------------------------------------------------------

# (N1, N2, N3, prior, rope): ordinary, close to the boundary, tiny prior with
# an empty tie cell (S nearly 1), small counts, and a wide rope.
ROPE_CASES = [
    (17, 4, 3278, 0.5, 0.002),
    (43, 28, 3228, 0.5, 0.004),
    (30, 5, 0, 0.001, 0.5),
    (3, 1, 10, 1.0, 0.1),
    (6, 11, 3282, (0.5, 0.5, 2.0), 0.001),
    (2.5, 0.5, 1.25, 0.3, 0.3),
]


def test_rope_probabilities_match_monte_carlo(rng):
    for n1, n2, n3, prior, rope in ROPE_CASES:
        result = PairedComparison.from_counts(PairedCounts(n1, n2, n3), prior=prior, rope=rope)
        draws = rng.dirichlet(np.array([n1, n2, n3], float) + np.array(result.prior), N_MC)
        delta = draws[:, 0] - draws[:, 1]
        estimates = [np.mean(delta > rope), np.mean(np.abs(delta) <= rope),
                     np.mean(delta < -rope)]
        exact = [result.prob_first_better, result.prob_equivalent, result.prob_second_better]
        assert sum(exact) == pytest.approx(1.0, abs=1e-12)
        for p, estimate in zip(exact, estimates):
            se = math.sqrt(max(p * (1 - p), 1e-12) / N_MC)
            assert abs(estimate - p) <= 4 * se, (n1, n2, n3, prior, rope, p, estimate)


def test_difference_interval_matches_monte_carlo(rng):
    for n1, n2, n3, prior in [(17, 4, 3278, 0.5), (3, 1, 10, 1.0), (30, 5, 0, 0.001)]:
        result = PairedComparison.from_counts(PairedCounts(n1, n2, n3), prior=prior)
        low, high = result.interval(0.9)
        draws = rng.dirichlet(np.array([n1, n2, n3], float) + np.array(result.prior), N_MC)
        delta = draws[:, 0] - draws[:, 1]
        se = math.sqrt(0.05 * 0.95 / N_MC)
        assert abs(np.mean(delta < low) - 0.05) <= 4 * se
        assert abs(np.mean(delta > high) - 0.05) <= 4 * se


def test_difference_cdf_is_consistent_with_closed_form():
    a1, a2, a3 = 17.5, 4.5, 3278.5
    # At 0 the cdf is the closed form; just above and below it is continuous.
    at_zero = 1 - PairedComparison.from_counts(PairedCounts(17, 4, 3278)).prob_first_better
    assert float(_difference_cdf(a1, a2, a3, 0.0)) == pytest.approx(at_zero, abs=1e-15)
    assert float(_difference_cdf(a1, a2, a3, 1e-13)) == pytest.approx(at_zero, abs=1e-9)
    assert float(_difference_cdf(a1, a2, a3, -1e-13)) == pytest.approx(at_zero, abs=1e-9)
    assert float(_difference_sf(a1, a2, a3, 1.0)) == 0.0


@needs("mpmath")
def test_rope_quadrature_equals_mpmath_integral():
    # Provenance: mpmath.quad of E_S[P(W > (1 + r/S)/2); S > r] at 25 digits,
    # S ~ Beta(a1 + a2, a3), W ~ Beta(a1, a2) (theory chapter, "Paired comparisons on the
    # same items").
    a1, a2, a3, r = 3.5, 1.5, 10.5, 0.1
    mpmath.mp.dps = 25
    p = a1 + a2

    def integrand(s):
        density = s ** (p - 1) * (1 - s) ** (a3 - 1) / mpmath.beta(p, a3)
        return density * mpmath.betainc(a2, a1, 0, (s - r) / (2 * s), regularized=True)

    reference = mpmath.quad(integrand, [r, 0.3, 0.5, 1])
    assert float(_difference_sf(a1, a2, a3, r)) == pytest.approx(float(reference), abs=1e-12)


def test_rope_zero_limit_and_wide_rope():
    counts = PairedCounts(17, 4, 3278)
    exact = PairedComparison.from_counts(counts)
    tiny = PairedComparison.from_counts(counts, rope=1e-12)
    assert tiny.prob_first_better == pytest.approx(exact.prob_first_better, abs=1e-8)
    wide = PairedComparison.from_counts(counts, rope=0.999)
    assert wide.prob_equivalent == pytest.approx(1, abs=1e-12)
    with pytest.raises(ValueError, match=r"`rope` must be a finite number in \[0, 1\)"):
        PairedComparison.from_counts(counts, rope=1.0)


def test_huge_counts_match_normal_limit():
    # Counts of 1e12: the Dirichlet is normal to O(1/sqrt(N)); the normal
    # approximation of delta = S(2W - 1) is the reference.
    n1, n2, n3, rope = 1e12, 1e12 - 1e6, 1e12, 1e-7
    result = PairedComparison.from_counts(PairedCounts(n1, n2, n3), rope=rope)
    a = np.array([n1, n2, n3]) + 0.5
    total = a.sum()
    mean = (a[0] - a[1]) / total
    sd = math.sqrt(((a[0] + a[1]) * total - (a[0] - a[1]) ** 2) / (total ** 2 * (total + 1)))
    assert result.prob_first_better == pytest.approx(stats.norm.sf(rope, mean, sd), abs=1e-4)
    assert result.prob_second_better == pytest.approx(stats.norm.cdf(-rope, mean, sd), abs=1e-4)
    low, high = result.interval(0.95)
    assert low == pytest.approx(stats.norm.ppf(0.025, mean, sd), rel=1e-3)
    assert high == pytest.approx(stats.norm.ppf(0.975, mean, sd), rel=1e-3)
    closed = PairedComparison.from_counts(PairedCounts(n1, n2, n3))
    assert closed.prob_first_better == pytest.approx(stats.norm.sf(0, mean, sd), abs=1e-4)


@pytest.mark.parametrize("prior", [1e-3, (1e-3, 1e-3, 1e-3), 1e3])
def test_tiny_and_large_priors_on_empty_counts(prior):
    result = PairedComparison.from_counts(PairedCounts(0, 0, 0), prior=prior, rope=0.1)
    probabilities = [result.prob_first_better, result.prob_equivalent, result.prob_second_better]
    assert all(np.isfinite(probabilities))
    assert sum(probabilities) == pytest.approx(1.0, abs=1e-12)
    # Symmetric prior, no data: both directions equally likely.
    assert result.prob_first_better == pytest.approx(result.prob_second_better, abs=1e-9)
    low, high = result.interval()
    assert low == pytest.approx(-high, abs=1e-9)


def test_fractional_counts_and_per_label_rope_vectorise():
    n1, n2, n3 = np.array([2.5, 17.0, 0.0]), np.array([0.25, 4.0, 3.0]), np.array([7.75, 3278, 0])
    result = PairedComparison.from_counts(PairedCounts(n1, n2, n3), rope=0.01)
    assert result.prob_first_better.shape == (3,)
    low, high = result.interval()
    for i in range(3):
        single = PairedComparison.from_counts(PairedCounts(n1[i], n2[i], n3[i]), rope=0.01)
        assert result.prob_first_better[i] == pytest.approx(single.prob_first_better, abs=1e-15)
        assert result.prob_equivalent[i] == pytest.approx(single.prob_equivalent, abs=1e-15)
        single_low, single_high = single.interval()
        assert low[i] == pytest.approx(single_low, rel=1e-9)
        assert high[i] == pytest.approx(single_high, rel=1e-9)
    with pytest.raises(ValueError):
        result.prob_first_better[0] = 0.0       # read-only


def test_result_repr_and_summary():
    result = PairedComparison.from_counts(PairedCounts(17, 4, 3278), rope=0.002)
    text = repr(result)
    assert text.startswith("PairedComparison(first_better=17, second_better=4, ties=3278")
    assert "np.float64" not in text
    summary = result.summary(confidence=0.9)
    assert summary["prob_first_better"] == result.prob_first_better
    assert summary["low"] == result.interval(0.9).low
    assert summary["confidence"] == 0.9 and summary["rope"] == 0.002
    with pytest.raises(AttributeError):
        result.rope = 0.1                       # frozen


def test_multilabel_predictions_compare_per_label():
    y_true = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0]])
    y_a = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [1, 0, 1], [1, 0, 0]])
    y_b = np.array([[1, 1, 1], [0, 0, 1], [0, 1, 0], [0, 0, 1], [1, 1, 0]])
    result = compare_paired(y_true, y_a, y_b, rope=0.05)
    assert result.prob_first_better.shape == (3,)
    for k in range(3):
        single = compare_paired(y_true[:, k], y_a[:, k], y_b[:, k], rope=0.05)
        assert result.prob_first_better[k] == pytest.approx(single.prob_first_better, abs=1e-15)
        assert result.prob_second_better[k] == pytest.approx(single.prob_second_better,
                                                             abs=1e-15)
    # pairwise_comparison pools the labels (each item-label decision once).
    table = pairwise_comparison(y_true, {"a": y_a, "b": y_b})
    pooled = PairedComparison.from_counts(result.counts.sum())
    assert table.loc["a", "b"] == pooled.prob_first_better


# ---------------------------------------------------------------------------
# Pooling evidence
# ---------------------------------------------------------------------------


def test_pooling_is_order_independent_and_equals_pooled_data(rng):
    y_true = rng.integers(0, 2, size=300)
    y_a = np.where(rng.random(300) < 0.8, y_true, 1 - y_true)
    y_b = np.where(rng.random(300) < 0.75, y_true, 1 - y_true)
    folds = np.array_split(np.arange(300), 4)
    fold_counts = [PairedCounts.from_predictions(y_true[f], y_a[f], y_b[f]) for f in folds]
    results = []
    for order in itertools.permutations(fold_counts):
        pooled = sum(order)
        results.append(PairedComparison.from_counts(pooled, rope=0.01))
    whole = compare_paired(y_true, y_a, y_b, rope=0.01)
    for result in results:
        assert result.counts == whole.counts
        assert result.prob_first_better == whole.prob_first_better
        assert result.prob_equivalent == whole.prob_equivalent
        assert result.prob_second_better == whole.prob_second_better


# ---------------------------------------------------------------------------
# Independent data (Goutte & Gaussier 2005, sections 2.2 and 2.3)
# ---------------------------------------------------------------------------


@needs("mpmath")
def test_goutte_gaussier_section_2_2_precision_example():
    # Goutte & Gaussier (2005), section 2.2: system 1 TP=10 FP=10, system 2 TP=3 FP=2,
    # Jeffreys prior: P(precision_2 > precision_1) "only around 65%"; exactly 0.652;
    # Fig. 1 caption: system 1 outperforms in "as much as 35% of cases".
    system_1 = ConfusionCounts(tp=10, fp=10, fn=0, tn=0)
    system_2 = ConfusionCounts(tp=3, fp=2, fn=0, tn=0)
    result = compare_independent(system_2, system_1, metric="precision")
    assert result.method == "exact" and result.mc_error == 0.0
    assert round(result.prob_first_better, 4) == 0.6522
    assert round(result.prob_second_better, 2) == 0.35
    # Independent route: mpmath quadrature of int pdf_2(x) cdf_1(x) dx.
    mpmath.mp.dps = 20
    reference = mpmath.quad(
        lambda x: x ** 2.5 * (1 - x) ** 1.5 / mpmath.beta(3.5, 2.5)
        * mpmath.betainc(10.5, 10.5, 0, x, regularized=True), [0, 0.5, 1])
    assert result.prob_first_better == pytest.approx(float(reference), abs=1e-12)


def test_independent_beta_and_f1_match_monte_carlo(rng):
    a = ConfusionCounts(tp=90, fp=10, fn=12, tn=888)
    b = ConfusionCounts(tp=80, fp=15, fn=20, tn=885)
    lam = 0.5
    for metric, (pa, pb) in {
        "precision": ((90.5, 10.5), (80.5, 15.5)),
        "accuracy": ((978.5, 22.5), (965.5, 35.5)),      # lam a side of the share
        "fallout": ((10.5, 888.5), (15.5, 885.5)),
    }.items():
        exact = compare_independent(a, b, metric=metric).prob_first_better
        estimate = np.mean(rng.beta(*pa, N_MC) > rng.beta(*pb, N_MC))
        assert abs(estimate - exact) <= 4 * math.sqrt(exact * (1 - exact) / N_MC), metric
    # F1 through Goutte & Gaussier (2005), eq. 11 (Gamma variates U ~ G(TP + lam, 2),
    # V ~ G(FP + FN + 2 lam)).
    def f1_draws(c):
        u = 2.0 * rng.standard_gamma(float(c.tp) + lam, N_MC)
        v = rng.standard_gamma(float(c.fp + c.fn) + 2 * lam, N_MC)
        return u / (u + v)
    exact = compare_independent(a, b, metric="f1").prob_first_better
    estimate = np.mean(f1_draws(a) > f1_draws(b))
    assert abs(estimate - exact) <= 4 * math.sqrt(exact * (1 - exact) / N_MC)


def _dirichlet_metric(counts, metric, lam, rng, n, **params):
    cells = np.array([counts.tp, counts.fp, counts.fn, counts.tn], dtype=float) + lam
    draws = rng.dirichlet(cells, size=n)
    return get_metric(metric)(*draws.T, **params)


@pytest.mark.parametrize("metric, params", [("fbeta", {"beta": 2.0}), ("informedness", {}),
                                            ("markedness", {})])
def test_independent_nested_quadrature_matches_monte_carlo(metric, params, rng):
    a = ConfusionCounts(tp=30, fp=6, fn=9, tn=120)
    b = ConfusionCounts(tp=25, fp=9, fn=12, tn=118)
    result = compare_independent(a, b, metric=metric, beta=params.get("beta", 1.0))
    assert result.method == "exact"
    estimate = np.mean(_dirichlet_metric(a, metric, 0.5, rng, N_MC, **params)
                       > _dirichlet_metric(b, metric, 0.5, rng, N_MC, **params))
    p = result.prob_first_better
    assert abs(estimate - p) <= 4 * math.sqrt(p * (1 - p) / N_MC)


def test_independent_monotone_identities():
    a = ConfusionCounts(tp=[30, 3], fp=[6, 1], fn=[9, 0], tn=[120, 5])
    b = ConfusionCounts(tp=[25, 2], fp=[9, 0], fn=[12, 2], tn=[118, 4])
    f1 = compare_independent(a, b, metric="f1").prob_first_better
    # F1 = 2B/(1+B) and Jaccard = B: the same ordering; F-beta at beta=1 is F1;
    # E = 1 - F1 reverses it; balanced accuracy = (1 + informedness)/2.
    assert np.array_equal(compare_independent(a, b, metric="overlap").prob_first_better, f1)
    assert np.array_equal(compare_independent(a, b, metric="fbeta").prob_first_better, f1)
    np.testing.assert_allclose(
        compare_independent(a, b, metric="e_measure").prob_second_better, f1, atol=1e-15)
    np.testing.assert_allclose(
        compare_independent(a, b, metric="balanced_accuracy").prob_first_better,
        compare_independent(a, b, metric="informedness").prob_first_better, atol=1e-15)
    # Per label equals one table at a time.
    single = compare_independent(a[1], b[1], metric="f1").prob_first_better
    assert f1[1] == pytest.approx(single, abs=1e-15)


def test_independent_beta_extremes():
    # Accuracies within 1e-11 of 1 with counts of 1e12: needs 1 - x accurately.
    a = ConfusionCounts(tp=5e11, fp=2, fn=3, tn=5e11)
    b = ConfusionCounts(tp=5e11, fp=6, fn=6, tn=5e11)
    result = compare_independent(a, b, metric="accuracy")
    # Reference: error rates ~ Gamma(k)/n; P(err_A < err_B) = P(G(5 + 1/2) < G(12 + 1/2))
    # for independent Gammas (lam = 1/2 a side of the share), = I_{1/2}(5.5, 12.5)
    # (ratio of Gammas is a Beta).
    reference = special.betainc(5.5, 12.5, 0.5)
    assert result.prob_first_better == pytest.approx(reference, abs=1e-6)
    tiny = compare_independent(ConfusionCounts(0, 0, 0, 0), ConfusionCounts(0, 0, 0, 0),
                               metric="precision", prior=1e-3)
    assert tiny.prob_first_better == pytest.approx(0.5, abs=1e-9)


def test_independent_sampled_is_seeded_and_reports_error(seed):
    a = ConfusionCounts(tp=30, fp=6, fn=9, tn=120)
    b = ConfusionCounts(tp=25, fp=9, fn=12, tn=118)
    first = compare_independent(a, b, metric="mcc", n_draws=20_000, random_state=seed)
    again = compare_independent(a, b, metric="mcc", n_draws=20_000, random_state=seed)
    assert first.method == "sampled" and first.n_draws == 20_000
    assert first.prob_first_better == again.prob_first_better
    p = first.prob_first_better
    assert first.mc_error == pytest.approx(math.sqrt(p * (1 - p) / 20_000), rel=1e-12)


def _tables_with_zero_cells(rng, n_tables):
    """Per-label tables with counts in 0..30, a fifth of them with TP = FP = 0 (a
    near-atom of informedness at 0: both Betas' first parameter is 1/2)."""
    cells = rng.integers(0, 31, size=(4, n_tables))
    cells[:2, ::5] = 0
    return ConfusionCounts(*cells)


def test_independent_in_chunks_of_tables_gives_the_one_call_values(seed, monkeypatch):
    # The nested quadrature of many tables runs in chunks of tables: each table's
    # probability must be the one of a single chunk (the split at a near-atom is
    # decided over all the tables, as in one call), up to the rounding of the
    # weighted sum over the nodes (a BLAS product, whose rounding depends on where a
    # column falls in its blocks: 4e-16 here).  The difference's draws fit one
    # chunk here: they are one `rvs` call of each posterior (the draws of every
    # seeded comparison of up to 419 tables).
    from skprobeval import metric_posterior
    from skprobeval._compare import _metric_comparison as module

    rng = np.random.default_rng(seed)
    a, b = _tables_with_zero_cells(rng, 40), _tables_with_zero_cells(rng, 40)
    whole = compare_independent(a, b, metric="informedness", random_state=seed)
    monkeypatch.setattr(module, "_TABLES_PER_CHUNK", 7)
    chunked = compare_independent(a, b, metric="informedness", random_state=seed)
    np.testing.assert_allclose(chunked.prob_first_better, whole.prob_first_better, rtol=0,
                               atol=2e-15)
    generator = np.random.default_rng(seed)
    expected = (metric_posterior(a, metric="informedness").rvs((10_000, 40), generator)
                - metric_posterior(b, metric="informedness").rvs((10_000, 40), generator))
    np.testing.assert_array_equal(whole.difference.samples, expected)


@pytest.mark.parametrize("metric", ["informedness", "mcc"])
def test_independent_draws_in_chunks_of_draws(metric, seed, monkeypatch):
    # A budget of 6 000 values a chunk (the draws of 40 tables in 150 chunks for
    # informedness' difference, of the MCC sampler in 38 chunks of 267 draws):
    # another random stream, the same posterior within its Monte Carlo error.
    from skprobeval._compare import _metric_comparison as module

    rng = np.random.default_rng(seed)
    a, b = _tables_with_zero_cells(rng, 40), _tables_with_zero_cells(rng, 40)
    whole = compare_independent(a, b, metric=metric, random_state=seed)
    monkeypatch.setattr(module, "_VARIATES_PER_CHUNK", 6_000)
    chunked = compare_independent(a, b, metric=metric, random_state=seed)
    assert chunked.difference.samples.shape == whole.difference.samples.shape == (10_000, 40)
    assert not np.array_equal(chunked.difference.samples, whole.difference.samples)
    # Two independent samples of 10 000 draws: their means differ by at most 5
    # standard errors of the difference.
    gap = np.abs(chunked.difference.mean() - whole.difference.mean())
    assert np.all(gap <= 5 * np.sqrt(2) * whole.difference.mc_error + 1e-12)
    if metric == "mcc":
        error = np.sqrt(whole.mc_error ** 2 + chunked.mc_error ** 2)
        assert np.all(np.abs(chunked.prob_first_better - whole.prob_first_better)
                      <= 5 * error + 1e-12)
    else:
        np.testing.assert_array_equal(chunked.prob_first_better, whole.prob_first_better)


@needs("mpmath")
def test_probability_helper_agrees_with_mpmath_integral():
    # Provenance: mpmath.quad (tanh-sinh, 20 digits) of pdf_1(x) cdf_2(x).
    mpmath.mp.dps = 20
    cases = [(3.5, 2.5, 10.5, 10.5), (0.5, 0.5, 2.0, 7.0), (200.5, 50.5, 190.5, 60.5)]
    for a1, b1, a2, b2 in cases:
        reference = mpmath.quad(
            lambda x: x ** (a1 - 1) * (1 - x) ** (b1 - 1) / mpmath.beta(a1, b1)
            * mpmath.betainc(a2, b2, 0, x, regularized=True), [0, 0.5, 0.7, 0.8, 0.9, 1])
        assert float(beta_greater(a1, b1, a2, b2)) == pytest.approx(float(reference),
                                                                            abs=1e-10)


# ---------------------------------------------------------------------------
# Paired metric comparison (8-cell Dirichlet)
# ---------------------------------------------------------------------------


def _systems(rng, n=300):
    y_true = rng.integers(0, 2, size=n)
    y_a = np.where(rng.random(n) < 0.85, y_true, 1 - y_true)
    y_b = np.where(rng.random(n) < 0.80, y_true, 1 - y_true)
    return y_true, y_a, y_b


def test_joint_table_margins_are_each_systems_posterior(rng):
    # Summing the (label, A, B) table's concentrations over B (over A) must give A's (B's)
    # confusion table plus the one-system prior: lam in each of the 4 cells.
    from skprobeval._counting._counts import joint_codes
    from skprobeval._posteriors._joint import JointTable

    y_true, y_a, y_b = _systems(rng)
    weight = rng.random(300)
    joint = joint_codes(y_true, [y_a, y_b], average="binary", sample_weight=weight)
    table = JointTable(joint, 0.5)
    alpha = np.zeros(8)
    alpha[:table.alpha.size] = table.alpha
    cube = alpha.reshape(2, 2, 2)    # label, a, b with 0 = positive
    for axis, y in ((2, y_a), (1, y_b)):
        margin = cube.sum(axis=axis)
        counts = ConfusionCounts.from_predictions(y_true, y, sample_weight=weight)
        np.testing.assert_allclose([margin[0, 0], margin[1, 0], margin[0, 1], margin[1, 1]],
                                   [counts.tp + 0.5, counts.fp + 0.5, counts.fn + 0.5,
                                    counts.tn + 0.5], rtol=1e-12)


def test_paired_accuracy_equals_paired_dirichlet_comparison(rng, seed):
    # accuracy_A - accuracy_B = pi1 - pi2, and the 8-cell Dirichlet with lam / 2 per cell
    # aggregates to Dirichlet(N1 + lam, N2 + lam, N3 + 2 lam) (two, two and four cells).
    y_true, y_a, y_b = _systems(rng)
    rope = 0.02
    sampled = compare_paired_metric(y_true, y_a, y_b, metric="accuracy", rope=rope,
                                    n_draws=N_MC, random_state=seed)
    exact = PairedComparison.from_counts(PairedCounts.from_predictions(y_true, y_a, y_b),
                                         prior=(0.5, 0.5, 1.0), rope=rope)
    for name in ("prob_first_better", "prob_equivalent", "prob_second_better"):
        p = getattr(exact, name)
        assert abs(getattr(sampled, name) - p) <= 4 * math.sqrt(p * (1 - p) / N_MC) + 1e-12


def test_paired_metric_respects_pairing(seed):
    # B equals A except on 12 items, where A is right 10 times: consistent.
    rng = np.random.default_rng(12345)
    y_true = rng.integers(0, 2, size=600)
    y_a = np.where(rng.random(600) < 0.8, y_true, 1 - y_true)
    y_b = y_a.copy()
    right = np.flatnonzero(y_a == y_true)[:10]
    wrong = np.flatnonzero(y_a != y_true)[:2]
    y_b[right] = 1 - y_b[right]
    y_b[wrong] = 1 - y_b[wrong]
    paired = compare_paired_metric(y_true, y_a, y_b, random_state=seed)
    independent = compare_independent(ConfusionCounts.from_predictions(y_true, y_a),
                                      ConfusionCounts.from_predictions(y_true, y_b))
    assert paired.prob_first_better > 0.97
    assert independent.prob_first_better < 0.8


@pytest.mark.parametrize("rope", [0.0, 0.05])
def test_identical_predictions_are_exactly_equivalent(rope, rng):
    y_true, y_a, _ = _systems(rng)
    result = compare_paired_metric(y_true, y_a, y_a.copy(), metric="f1", rope=rope)
    assert (result.prob_first_better, result.prob_equivalent, result.prob_second_better) == \
        (0.0, 1.0, 0.0)
    assert result.method == "exact" and result.mc_error == 0.0
    # Items that differ only with zero weight do not count.
    y_b = y_a.copy()
    y_b[0] = 1 - y_b[0]
    weight = np.ones(300)
    weight[0] = 0.0
    zero = compare_paired_metric(y_true, y_a, y_b, rope=rope, sample_weight=weight)
    assert zero.prob_equivalent == 1.0


def test_paired_metric_seeded_with_string_labels(seed):
    y_true = np.array(["spam", "ham"] * 50)
    y_a = y_true.copy()
    y_a[:7] = np.where(y_a[:7] == "spam", "ham", "spam")
    y_b = y_true.copy()
    y_b[10:25] = np.where(y_b[10:25] == "spam", "ham", "spam")
    first = compare_paired_metric(y_true, y_a, y_b, pos_label="spam", n_draws=20_000,
                                  random_state=seed)
    again = compare_paired_metric(y_true, y_a, y_b, pos_label="spam", n_draws=20_000,
                                  random_state=seed)
    assert first.prob_first_better == again.prob_first_better
    assert first.prob_first_better > 0.9
    assert first.mc_error > 0 and first.n_draws == 20_000


# ---------------------------------------------------------------------------
# Correlated t-test against baycomp
# ---------------------------------------------------------------------------

BAYCOMP_CASES = [
    # (n scores, runs, rope)
    (10, 1, 0.0),
    (10, 1, 0.01),
    (30, 3, 0.005),
    (50, 5, 0.0),
    (6, 2, 0.02),
]


@pytest.mark.parametrize("n, runs, rope", BAYCOMP_CASES)
def test_correlated_ttest_equals_baycomp(n, runs, rope):
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(n * 100 + runs)
    a = 0.8 + 0.03 * rng.standard_normal(n)
    b = a - 0.008 + 0.02 * rng.standard_normal(n)
    # baycomp's correction is 1/n + 1/(k - 1) with k = n / runs folds: rho = runs / n.
    ours = correlated_ttest(a, b, test_fraction=runs / n, rope=rope, runs=runs)
    # baycomp: diff = y - x; two_on_single(x=b, y=a) has diff = a - b, ours.
    theirs = baycomp.two_on_single(b, a, rope=rope, runs=runs)
    if rope == 0:
        p_left, p_right = theirs
        p_rope = 0.0
    else:
        p_left, p_rope, p_right = theirs
    assert abs(ours.prob_first_better - p_right) <= 1e-9
    assert abs(ours.prob_second_better - p_left) <= 1e-9
    assert abs(ours.prob_equivalent - p_rope) <= 1e-9
    # And the posterior itself.
    mean, var, df = baycomp.CorrelatedTTest.compute_statistics(b, a, runs)
    assert ours.mean == pytest.approx(mean, abs=1e-15)
    assert ours.scale == pytest.approx(math.sqrt(var), rel=1e-12)
    assert ours.df == df


def test_correlated_ttest_swapping_mirrors():
    rng = np.random.default_rng(3)
    a, b = rng.random(10), rng.random(10)
    forward = correlated_ttest(a, b, test_fraction=0.1, rope=0.05)
    backward = correlated_ttest(b, a, test_fraction=0.1, rope=0.05)
    assert backward.prob_first_better == pytest.approx(forward.prob_second_better, abs=1e-15)
    assert backward.prob_equivalent == pytest.approx(forward.prob_equivalent, abs=1e-15)
    assert backward.mean == -forward.mean
    low, high = forward.interval()
    assert backward.interval() == pytest.approx((-high, -low), abs=1e-15)


@pytest.mark.parametrize("shift, rope, expected", [
    # Dyadic scores and shifts: the differences are exactly constant.
    (0.25, 0.125, (1.0, 0.0, 0.0)),
    (-0.25, 0.125, (0.0, 0.0, 1.0)),
    (0.0625, 0.125, (0.0, 1.0, 0.0)),
    (0.125, 0.125, (0.0, 1.0, 0.0)),     # on the boundary: inside [-rope, rope]
    (0.0, 0.0, (0.0, 1.0, 0.0)),         # equal scores are equivalent even without a rope
    (0.125, 0.0, (1.0, 0.0, 0.0)),
])
def test_correlated_ttest_zero_variance(shift, rope, expected):
    a = np.array([0.5, 0.75, 0.625, 0.875])
    b = a - shift
    assert np.var(a - b) == 0
    result = correlated_ttest(a, b, test_fraction=0.25, rope=rope)
    assert result.scale == 0.0 and result.mean == shift
    assert (result.prob_first_better, result.prob_equivalent, result.prob_second_better) == \
        expected
    assert result.posterior is None
    assert result.interval() == (shift, shift)


def test_correlated_ttest_zero_variance_matches_baycomp_with_rope():
    baycomp = pytest.importorskip("baycomp")
    a = np.array([0.5, 0.75, 0.625, 0.875])
    for shift in (0.25, -0.25, 0.0625):
        b = a - shift
        ours = correlated_ttest(a, b, test_fraction=0.25, rope=0.125)
        p_left, p_rope, p_right = baycomp.two_on_single(b, a, rope=0.125)
        assert (ours.prob_second_better, ours.prob_equivalent, ours.prob_first_better) == \
            (p_left, p_rope, p_right)


def test_correlated_ttest_posterior_object():
    result = correlated_ttest([0.81, 0.84, 0.79, 0.85, 0.83], [0.80, 0.82, 0.80, 0.82, 0.81],
                              test_fraction=0.2, rope=0.005)
    posterior = result.posterior
    assert posterior.sf(0.005) == pytest.approx(result.prob_first_better, abs=1e-15)
    assert result.interval(0.9) == pytest.approx(posterior.interval(0.9), abs=1e-15)
    assert isinstance(result, CorrelatedTTestResult)
    assert "np.float64" not in repr(result)


# ---------------------------------------------------------------------------
# Many systems
# ---------------------------------------------------------------------------


def test_pairwise_comparison_table(rng):
    import pandas as pd

    y_true = rng.integers(0, 2, size=200)
    predictions = {name: np.where(rng.random(200) < accuracy, y_true, 1 - y_true)
                   for name, accuracy in (("a", 0.9), ("b", 0.8), ("c", 0.85))}
    table = pairwise_comparison(y_true, predictions)
    assert isinstance(table, pd.DataFrame)
    assert list(table.index) == list(table.columns) == ["a", "b", "c"]
    assert np.all(np.isnan(np.diag(table.to_numpy())))
    values = table.to_numpy()
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose((values + values.T)[off], 1.0, atol=1e-15)
    direct = compare_paired(y_true, predictions["a"], predictions["c"])
    assert table.loc["a", "c"] == direct.prob_first_better
    with_rope = pairwise_comparison(y_true, predictions, rope=0.02)
    assert with_rope.loc["a", "b"] == compare_paired(y_true, predictions["a"], predictions["b"],
                                                     rope=0.02).prob_first_better


# ---------------------------------------------------------------------------
# Swapping first and second mirrors every comparison
# ---------------------------------------------------------------------------


def test_swapping_mirrors_paired_comparison():
    for prior, rope in [(0.5, 0.0), ((0.5, 0.5, 2.0), 0.004), (1e-3, 0.3)]:
        counts = PairedCounts([17, 43, 2.5], [4, 28, 0.25], [3278, 3228, 7.75])
        forward = PairedComparison.from_counts(counts, prior=prior, rope=rope)
        backward = PairedComparison.from_counts(counts.swapped(), prior=prior, rope=rope)
        np.testing.assert_allclose(backward.prob_first_better, forward.prob_second_better,
                                   atol=1e-15)
        np.testing.assert_allclose(backward.prob_equivalent, forward.prob_equivalent,
                                   atol=1e-14)
        np.testing.assert_array_equal(backward.expected_difference, -forward.expected_difference)
        np.testing.assert_array_equal(backward.expected_log_odds, -forward.expected_log_odds)
        low, high = forward.interval(0.9)
        back_low, back_high = backward.interval(0.9)
        np.testing.assert_allclose(back_low, -high, rtol=1e-9, atol=1e-14)
        np.testing.assert_allclose(back_high, -low, rtol=1e-9, atol=1e-14)


def test_swapping_mirrors_label_level_comparisons(rng, seed):
    y_true, y_a, y_b = _systems(rng)
    forward = compare_paired(y_true, y_a, y_b, rope=0.01)
    backward = compare_paired(y_true, y_b, y_a, rope=0.01)
    assert backward.prob_first_better == pytest.approx(forward.prob_second_better, abs=1e-15)
    a = ConfusionCounts.from_predictions(y_true, y_a)
    b = ConfusionCounts.from_predictions(y_true, y_b)
    for metric in ("precision", "f1", "fbeta"):
        one = compare_independent(a, b, metric=metric, beta=0.5)
        two = compare_independent(b, a, metric=metric, beta=0.5)
        assert two.prob_first_better == pytest.approx(one.prob_second_better, abs=1e-12)
    one = compare_paired_metric(y_true, y_a, y_b, rope=0.01, n_draws=N_MC, random_state=seed)
    two = compare_paired_metric(y_true, y_b, y_a, rope=0.01, n_draws=N_MC,
                                random_state=seed + 1)
    for name, mirrored in (("prob_first_better", "prob_second_better"),
                           ("prob_equivalent", "prob_equivalent")):
        assert abs(getattr(two, name) - getattr(one, mirrored)) <= \
            4 * math.sqrt(2) * max(one.mc_error, two.mc_error)


# ---------------------------------------------------------------------------
# Bad input: ValueError (or TypeError) naming the argument
# ---------------------------------------------------------------------------

COUNTS = PairedCounts(17, 4, 3278)
TABLE_A = ConfusionCounts(10, 2, 3, 20)
TABLE_B = ConfusionCounts(8, 4, 5, 18)
Y = [1, 0, 1, 1, 0, 1]
YA = [1, 0, 0, 1, 0, 1]
YB = [1, 1, 1, 1, 0, 0]

BAD_INPUTS = [
    (lambda: PairedComparison.from_counts(COUNTS, prior=-1.0), ValueError, "`prior`"),
    (lambda: PairedComparison.from_counts(COUNTS, prior=0.0), ValueError, "`prior`"),
    (lambda: PairedComparison.from_counts(COUNTS, prior=(0.5, 0.5)), ValueError, "`prior`"),
    (lambda: PairedComparison.from_counts(COUNTS, prior=(0.5, -1, 0.5)), ValueError, "`prior`"),
    (lambda: PairedComparison.from_counts(COUNTS, prior=(0.5, np.nan, 0.5)), ValueError,
     "`prior`"),
    (lambda: PairedComparison.from_counts(COUNTS, prior="flat"), ValueError, "`prior`"),
    (lambda: PairedComparison.from_counts(COUNTS, rope=-0.1), ValueError, "`rope`"),
    (lambda: PairedComparison.from_counts(COUNTS, rope=np.inf), ValueError, "`rope`"),
    (lambda: PairedComparison.from_counts((17, 4, 3278)), TypeError, "`paired_counts`"),
    (lambda: PairedComparison.from_counts(COUNTS).interval(1.5), ValueError,
     "`confidence`"),
    (lambda: compare_paired(Y, YA, YB[:5]), ValueError, "`y_pred_b`"),
    (lambda: compare_paired(Y, YA[:4], YB), ValueError, "`y_pred_a`"),
    (lambda: compare_paired(Y, YA, YB, sample_weight=[1, 1, 1, 1, 1, -1]), ValueError,
     "`sample_weight`"),
    (lambda: compare_paired(Y, YA, YB, rope=-1), ValueError, "`rope`"),
    (lambda: compare_independent(TABLE_A, TABLE_B, metric="nope"), ValueError, "`metric`"),
    (lambda: compare_independent(TABLE_A, TABLE_B, beta=0.0), ValueError, "`beta`"),
    (lambda: compare_independent(TABLE_A, TABLE_B, prior=0.0), ValueError, "`prior`"),
    (lambda: compare_independent(TABLE_A, TABLE_B, metric="mcc", n_draws=0), ValueError,
     "`n_draws`"),
    (lambda: compare_independent(TABLE_A, ConfusionCounts([1, 2], [1, 2], [1, 2], [1, 2])),
     ValueError, "`counts_b`"),
    (lambda: compare_independent((10, 2, 3, 20), TABLE_B), TypeError, "`counts_a`"),
    (lambda: compare_paired_metric(Y, YA, YB, rope=-0.5), ValueError, "`rope`"),
    (lambda: compare_paired_metric(Y, YA, YB, pos_label=2), ValueError, "pos_label"),
    (lambda: compare_paired_metric([0, 1, 2, 1], [0, 1, 2, 2], [0, 1, 1, 1]), ValueError,
     "multiclass"),
    (lambda: compare_paired_metric(Y, YA[:5], YB), ValueError, "`y_pred_a`"),
    (lambda: compare_paired_metric(Y, YA, YB, n_draws=-3), ValueError, "`n_draws`"),
    (lambda: compare_paired_metric(np.eye(3), np.eye(3), np.eye(3)), ValueError, "`average`"),
    (lambda: compare_paired_metric(Y, YA, YB, metric="nope"), ValueError, "`metric`"),
    (lambda: correlated_ttest([0.1, 0.2], [0.1, 0.3], test_fraction=0.0), ValueError,
     "`test_fraction`"),
    (lambda: correlated_ttest([0.1, 0.2], [0.1, 0.3], test_fraction=1.0), ValueError,
     "`test_fraction`"),
    (lambda: correlated_ttest([0.1, 0.2, 0.3], [0.1, 0.3, 0.2], test_fraction=0.3, runs=2),
     ValueError, "`runs`"),
    (lambda: correlated_ttest([0.1, 0.2, 0.3], [0.1, 0.3], test_fraction=0.3), ValueError,
     "`scores_b`"),
    (lambda: correlated_ttest([0.1, np.nan], [0.1, 0.3], test_fraction=0.5), ValueError,
     "`scores_a`"),
    (lambda: correlated_ttest([0.1], [0.2], test_fraction=0.5), ValueError, "`scores_a`"),
    (lambda: correlated_ttest([0.1, 0.2], [0.1, 0.3], test_fraction=0.5, rope=-1), ValueError,
     "`rope`"),
    (lambda: correlated_ttest([0.1, 0.2], [0.1, 0.3], test_fraction=None), TypeError,
     "`test_fraction`"),
    (lambda: pairwise_comparison(Y, {}), ValueError, "`predictions`"),
    (lambda: pairwise_comparison(Y, [YA, YB]), TypeError, "`predictions`"),
    (lambda: pairwise_comparison(Y, {"a": YA, "b": YB}, rope=-1), ValueError, "`rope`"),
]


@pytest.mark.parametrize("call, error, name", BAD_INPUTS,
                         ids=[f"{i}:{row[2]}" for i, row in enumerate(BAD_INPUTS)])
def test_bad_input_raises_naming_the_argument(call, error, name):
    with pytest.raises(error, match=name.replace("`", "`?")):
        call()


def test_results_are_frozen_and_typed():
    result = compare_independent(TABLE_A, TABLE_B)
    assert isinstance(result, MetricComparison)
    assert isinstance(result.prob_first_better, float)
    with pytest.raises(AttributeError):
        result.metric = "recall"
    per_label = compare_independent(ConfusionCounts([1, 2], [1, 2], [1, 2], [1, 2]),
                                    ConfusionCounts([2, 2], [1, 3], [0, 2], [1, 2]))
    assert per_label.prob_first_better.shape == (2,)


def test_paired_interval_of_a_spike_keeps_its_ends_in_order():
    # Found by the property tests: a prior of 0.001 and five items of weight 0.01 (one
    # of 0.05, the only disagreement) put nearly all the mass of pi1 - pi2 on a spike at
    # 0; the two ends, each solved to 1e-13, came out as 2.6e-14 and 0.0.
    y = np.array([1, 0, 0, 0, 0, 0])
    a = np.zeros(6, dtype=int)
    b = np.array([0, 0, 0, 0, 1, 0])
    weight = np.array([0.01, 0.01, 0.01, 0.01, 0.05, 0.01])
    low, high = compare_paired(y, a, b, sample_weight=weight, prior=0.001).interval()
    assert -2.0 <= low <= high <= 2.0
