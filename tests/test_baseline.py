"""Chance baselines: random-ranking AP moments and table chance levels."""

import dataclasses
import math
from fractions import Fraction
from itertools import combinations, product

try:
    import mpmath
except ImportError:     # its reference tests skip (needs)
    mpmath = None
import numpy as np
import pytest
from optional import needs
from scipy.stats import hypergeom

from skprobeval import (
    ChanceBaseline,
    ConfusionCounts,
    RandomAveragePrecision,
    RandomRankingTest,
    average_precision,
    chance_baseline,
    random_average_precision,
    random_ranking_test,
)
from skprobeval._metrics._baseline import (
    _moments_exact,
    _reference_terms,
    random_average_precision_reference,
)


def _enumerate(n_items, n_relevant):
    """Mean and variance of AP over all C(N, R) placements, in exact rationals."""
    total = Fraction(0)
    total_sq = Fraction(0)
    count = 0
    for ranks in combinations(range(1, n_items + 1), n_relevant):
        ap = sum(Fraction(i, rank) for i, rank in enumerate(ranks, start=1)) / n_relevant
        total += ap
        total_sq += ap * ap
        count += 1
    mean = total / count
    return mean, total_sq / count - mean * mean


SMALL = [(n, r) for n in range(1, 11) for r in range(1, n + 1)] + [
    (11, 1), (11, 3), (11, 6), (11, 10), (12, 2), (12, 5), (12, 6), (12, 11), (12, 12)]


# ---------------------------------------------------------------------------
# Mean and variance: exact enumeration
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n_items, n_relevant", SMALL)
def test_moments_equal_exact_enumeration(n_items, n_relevant):
    # Reference: brute-force enumeration of all C(N, R) orderings in fractions.Fraction.
    mean, variance = _enumerate(n_items, n_relevant)
    result = random_average_precision(n_items, n_relevant)
    assert abs(result.mean - float(mean)) <= 1e-13 * float(mean)
    assert abs(result.variance - float(variance)) <= 1e-13 * max(float(variance), 1e-300)
    assert result.std == pytest.approx(math.sqrt(float(variance)), rel=1e-13, abs=1e-300)
    # The unsimplified indicator-sum formula is exact in rational arithmetic.
    assert _moments_exact(n_items, n_relevant) == (mean, variance)


def test_variance_of_five_items_two_relevant():
    # N = 5, R = 2 has variance 0.04428402777...; exact value 63769/1440000
    # (fractions enumeration of the 10 orderings of Bestgen's Table 1).
    assert _enumerate(5, 2)[1] == Fraction(63769, 1440000)
    assert random_average_precision(5, 2).variance == pytest.approx(63769 / 1440000, rel=1e-15)


def test_closed_form_matches_exact_rationals_on_a_dense_small_grid():
    # Reference: the unsimplified formula with exact harmonic numbers (Fraction) for every
    # 1 <= R <= N <= 40: guards the float evaluation where its terms cancel most (small N).
    for n_items in range(1, 41):
        for n_relevant in range(1, n_items + 1):
            mean, variance = _moments_exact(n_items, n_relevant)
            result = random_average_precision(n_items, n_relevant)
            assert result.mean == pytest.approx(float(mean), rel=1e-14)
            assert result.variance == pytest.approx(float(variance), rel=1e-13, abs=1e-300)


# ---------------------------------------------------------------------------
# Bestgen (2015)
# ---------------------------------------------------------------------------


def test_bestgen_table_1_enumeration():
    # Bestgen (2015), Table 1: the 10 orderings of N = 5, R = 2, their AP (printed to
    # 2 decimals), the sum 5.93 and the expected AP 0.593 (exactly 0.5925).
    printed = [1.00, 0.83, 0.75, 0.70, 0.58, 0.50, 0.45, 0.42, 0.37, 0.33]
    score = [5, 4, 3, 2, 1]
    aps = [average_precision([int(rank in ranks) for rank in range(5)], score)
           for ranks in combinations(range(5), 2)]            # the table's row order
    assert np.allclose(aps, printed, atol=0.005 + 1e-12)
    assert round(sum(printed), 2) == 5.93                     # the printed sum
    assert sum(aps) == pytest.approx(5.925, abs=1e-14)
    assert sum(aps) / 10 == pytest.approx(0.5925, abs=1e-15)
    assert random_average_precision(5, 2).mean == pytest.approx(0.5925, abs=1e-15)
    assert round(random_average_precision(5, 2).mean, 3) == 0.593    # as printed
    assert random_average_precision(5, 2).prevalence == 0.4          # the usual baseline


def test_bestgen_table_2_intermediate_columns():
    # Bestgen (2015), Table 2 (N = 5, R = 2): columns i, n, dhyper(i, R, N-R, n), i/n,
    # final probability, contribution to AP; printed sum 1.186 (exact 1.185) / 2 = 0.593.
    i = [1, 1, 1, 1, 2, 2, 2, 2]
    n = [1, 2, 3, 4, 2, 3, 4, 5]
    dhyper = [0.4, 0.6, 0.6, 0.4, 0.1, 0.3, 0.6, 1.0]
    precision = [1.00, 0.50, 0.33, 0.25, 1.00, 0.67, 0.50, 0.40]
    final = [0.4, 0.3, 0.2, 0.1, 0.1, 0.2, 0.3, 0.4]
    contribution = [0.400, 0.150, 0.067, 0.025, 0.100, 0.134, 0.150, 0.160]
    table = _reference_terms(5, 2)
    assert table[:, 0].tolist() == i and table[:, 1].tolist() == n
    assert np.allclose(table[:, 2], dhyper, rtol=1e-13)
    assert np.allclose(table[:, 4], precision, atol=0.005)
    assert np.allclose(table[:, 3], final, rtol=1e-13)
    # Printed contributions use the rounded P@n (0.2 * 0.67 = 0.134): within 0.001.
    assert np.allclose(table[:, 5], contribution, atol=0.001)
    # The final probabilities of each i sum to 1 (Bestgen's footnote 1).
    assert np.allclose([table[table[:, 0] == k, 3].sum() for k in (1, 2)], 1.0, rtol=1e-14)
    assert table[:, 5].sum() == pytest.approx(1.185, abs=1e-14)
    assert round(table[:, 5].sum() / 2, 3) == 0.593


def test_dhyper_matches_scipy_hypergeom():
    # Reference: scipy.stats.hypergeom.pmf (boost, exact to a few ulp).
    for n_items, n_relevant in [(5, 2), (40, 13), (300, 150), (1000, 37)]:
        table = _reference_terms(n_items, n_relevant)
        expected = hypergeom.pmf(table[:, 0], n_items, n_relevant, table[:, 1])
        keep = expected > 1e-250
        assert np.allclose(table[keep, 2], expected[keep], rtol=1e-12, atol=0)


def test_bestgen_random_ap_exact_10_4():
    # Bestgen (2015), section 3: RandomAPExact(10, 4) prints 0.5285979.
    assert random_average_precision(10, 4).mean == pytest.approx(0.5285979, abs=5e-8)
    assert random_average_precision_reference(10, 4) == pytest.approx(0.5285979, abs=5e-8)


@pytest.mark.parametrize("n_items, n_relevant", [
    (1, 1), (2, 1), (3, 2), (7, 3), (50, 1), (50, 49), (137, 50), (1000, 37), (2000, 1),
    (2000, 20), (1500, 1490)])
def test_reference_algorithm_agrees_with_closed_form(n_items, n_relevant):
    # Reference: Bestgen's (2015) O(R·N) double sum vs the closed form.
    assert random_average_precision_reference(n_items, n_relevant) == pytest.approx(
        random_average_precision(n_items, n_relevant).mean, abs=1e-12, rel=1e-12)


# ---------------------------------------------------------------------------
# Large N
# ---------------------------------------------------------------------------


def _moments_mpmath(n_items, n_relevant, dps=60):
    """Unsimplified formula (indicator sums) in high-precision mpmath, digamma form of H_N."""
    with mpmath.workdps(dps):
        big_n, r = mpmath.mpf(n_items), mpmath.mpf(n_relevant)
        p = [mpmath.mpf(1)]
        for k in range(1, 5):
            p.append(p[-1] * max(r - k + 1, 0) / (big_n - k + 1))
        h = mpmath.digamma(big_n + 1) + mpmath.euler
        h2 = mpmath.zeta(2) - mpmath.zeta(2, big_n + 1)
        second = (5 * big_n * p[3] + big_n * (big_n - 5) * p[4]
                  + (3 * p[2] - 9 * p[3] + 6 * p[4] + 2 * big_n * (p[3] - p[4])) * h
                  + (2 * p[2] - 5 * p[3] + 3 * p[4]) * h * h
                  + (p[1] - 5 * p[2] + 7 * p[3] - 3 * p[4]) * h2) / (r * r)
        mean = (r - 1) / (big_n - 1) + (big_n - r) * h / (big_n * (big_n - 1))
        return mean, second - mean * mean


@needs("mpmath")
@pytest.mark.parametrize("n_relevant", [1, 2, 10**3, 10**9, 4 * 10**11, 10**12 - 1, 10**12])
def test_mean_at_one_trillion_items_matches_digamma_form(n_relevant):
    # Reference: the digamma form, H_N = psi(N + 1) + gamma, in 60-digit mpmath.
    n_items = 10**12
    mean, _ = _moments_mpmath(n_items, n_relevant)
    result = random_average_precision(n_items, n_relevant)
    assert result.mean == pytest.approx(float(mean), rel=1e-14)
    assert math.isfinite(result.variance) and result.variance >= 0


@pytest.mark.parametrize("n_items, n_relevant", [
    (100, 3), (12345, 6789), (10**6, 3), (10**6, 999_999), (10**9, 2), (10**12, 1),
    (10**12, 4 * 10**11), (10**12, 10**12 - 1), (10**15, 10**7)])
@needs("mpmath")
def test_variance_at_large_n_matches_high_precision(n_items, n_relevant):
    # Reference: the unsimplified formula evaluated in 60-digit mpmath, where the
    # cancellation of E[AP^2] - E[AP]^2 costs nothing.
    _, variance = _moments_mpmath(n_items, n_relevant)
    result = random_average_precision(n_items, n_relevant)
    assert result.variance == pytest.approx(float(variance), rel=1e-13)


def _random_aps(n_items, n_relevant, size, rng):
    """AP of ``size`` uniformly random rankings (independent plain implementation)."""
    base = np.zeros(n_items, dtype=np.int8)
    base[:n_relevant] = 1
    x = rng.permuted(np.tile(base, (size, 1)), axis=1)
    hits = np.cumsum(x, axis=1)
    return np.sum(x * hits / np.arange(1, n_items + 1), axis=1) / n_relevant


# 5 000 permutations in the default run (0.04 s), 20 000 in the slow tier (0.2-0.45 s):
# the tolerances are four standard errors of each sample, whatever its size.
@pytest.mark.parametrize("size", [5_000, pytest.param(20_000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("n_relevant", [40, 200])
def test_moments_at_400_items_match_random_permutations(n_relevant, size, seed):
    # Reference: uniformly random permutations; within 4 standard errors.
    rng = np.random.default_rng(seed)
    aps = _random_aps(400, n_relevant, size, rng)
    result = random_average_precision(400, n_relevant)
    assert abs(aps.mean() - result.mean) < 4 * aps.std() / math.sqrt(size)
    centred = aps - aps.mean()
    sample_variance = np.mean(centred ** 2) * size / (size - 1)
    variance_se = math.sqrt(max(np.mean(centred ** 4) - sample_variance ** 2, 0) / size)
    assert abs(sample_variance - result.variance) < 4 * variance_se


# ---------------------------------------------------------------------------
# Result object
# ---------------------------------------------------------------------------


def test_result_fields_repr_and_frozen():
    result = random_average_precision(5, 2)
    assert isinstance(result, RandomAveragePrecision)
    assert (result.n_items, result.n_relevant) == (5, 2)
    assert all(type(getattr(result, name)) is float
               for name in ("mean", "variance", "std", "prevalence"))
    assert repr(result) == ("RandomAveragePrecision(n_items=5, n_relevant=2, mean=0.5925, "
                            "variance=0.044284, std=0.210438, prevalence=0.4)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.mean = 0.0
    assert not hasattr(result, "__dict__")


def test_degenerate_sizes():
    # One item, or every item relevant: AP is always 1.
    for n_items in (1, 2, 3, 4, 10, 10**12):
        result = random_average_precision(n_items, n_items)
        assert (result.mean, result.variance, result.std) == (1.0, 0.0, 0.0)
        assert math.isnan(result.z_score(1.0))
    # One relevant item: AP = 1/rank with the rank uniform on 1..N.
    result = random_average_precision(4, 1)
    assert result.mean == pytest.approx((1 + 1 / 2 + 1 / 3 + 1 / 4) / 4, rel=1e-15)


def test_z_score():
    result = random_average_precision(100, 10)
    assert result.z_score(0.5) == pytest.approx((0.5 - result.mean) / result.std, rel=1e-15)
    assert type(result.z_score(0.5)) is float
    values = result.z_score([[0.1, 0.2], [0.3, 1.0]])
    assert values.shape == (2, 2)
    assert values[1, 1] == pytest.approx((1 - result.mean) / result.std)
    for bad in (1.5, -0.1, np.nan, "0.3", []):
        with pytest.raises(ValueError, match="`average_precision`"):
            result.z_score(bad)


def test_integral_floats_and_numpy_integers_accepted():
    expected = random_average_precision(10, 4)
    assert random_average_precision(10.0, np.int64(4)) == expected
    assert random_average_precision(np.array(10), 4.0) == expected
    assert random_average_precision(1e12, 4e11).n_items == 10**12


@pytest.mark.parametrize("function", [random_average_precision,
                                      random_average_precision_reference])
@pytest.mark.parametrize("n_items, n_relevant, name", [
    (5, 0, "n_relevant"), (5, 6, "n_relevant"), (5, -1, "n_relevant"), (5, 2.5, "n_relevant"),
    (5, True, "n_relevant"), (5, "2", "n_relevant"), (5, None, "n_relevant"),
    (5, float("nan"), "n_relevant"), (0, 1, "n_items"), (-3, 1, "n_items"),
    (2.5, 1, "n_items"), (True, 1, "n_items"), (float("inf"), 1, "n_items"),
    ("10", 1, "n_items")])
def test_bad_sizes_raise(function, n_items, n_relevant, name):
    with pytest.raises(ValueError, match=f"`{name}` must be"):
        function(n_items, n_relevant)


# ---------------------------------------------------------------------------
# random_ranking_test
# ---------------------------------------------------------------------------


def test_ranking_test_values(seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, size=60)
    y_true[0] = 1
    y_score = y_true + rng.normal(0, 1.2, size=60)
    result = random_ranking_test(y_true, y_score)
    baseline = random_average_precision(60, int(y_true.sum()))
    assert isinstance(result, RandomRankingTest)
    assert result.average_precision == pytest.approx(average_precision(y_true, y_score),
                                                     rel=1e-14)
    assert (result.expected, result.std) == (baseline.mean, baseline.std)
    assert result.z_score == pytest.approx(baseline.z_score(result.average_precision),
                                           rel=1e-14)
    assert math.isnan(result.p_value) and type(result.p_value) is float
    assert (result.n_items, result.n_relevant, result.n_permutations) == (
        60, int(y_true.sum()), 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.p_value = 0.0


def test_ranking_test_seeded_and_bounded(seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, size=80)
    y_true[:2] = 1
    y_score = y_true + rng.normal(0, 2, size=80)
    first = random_ranking_test(y_true, y_score, n_permutations=300, random_state=seed)
    again = random_ranking_test(y_true, y_score, n_permutations=300,
                                random_state=np.random.default_rng(seed))
    assert first == again
    assert 1 / 301 <= first.p_value <= 1
    assert (first.p_value * 301) == pytest.approx(round(first.p_value * 301))


def _exact_tail(y_true, y_score):
    """P(AP >= observed) over all placements of the relevant labels (enumeration)."""
    y_true = np.asarray(y_true)
    n_items, n_relevant = y_true.size, int(y_true.sum())
    observed = average_precision(y_true, y_score)
    hits = 0
    total = 0
    for ranks in combinations(range(n_items), n_relevant):
        labels = np.zeros(n_items, dtype=int)
        labels[list(ranks)] = 1
        hits += average_precision(labels, y_score) >= observed - 1e-12
        total += 1
    return hits / total


@pytest.mark.parametrize("y_score", [
    [10, 9, 8, 7, 6, 5, 4, 3, 2, 1],       # strict ranking
    [5, 5, 4, 4, 4, 3, 2, 2, 1, 1],        # ties: labels permuted over fixed tie groups
])
def test_permutation_p_value_matches_exact_tail(y_score, seed):
    # Reference: enumeration of the C(10, 3) = 120 label placements with average_precision.
    y_true = [1, 0, 1, 0, 0, 1, 0, 0, 0, 0]
    exact = _exact_tail(y_true, y_score)
    n_permutations = 20_000
    result = random_ranking_test(y_true, y_score, n_permutations=n_permutations,
                                 random_state=seed)
    se = math.sqrt(exact * (1 - exact) / n_permutations)
    assert abs(result.p_value - exact) < 4 * se + 1 / n_permutations


def test_ranking_test_ties_use_average_precision_convention():
    y_true = [1, 0, 1, 1, 0, 0]
    y_score = [0.9, 0.9, 0.5, 0.5, 0.5, 0.1]
    result = random_ranking_test(y_true, y_score)
    assert result.average_precision == average_precision(y_true, y_score)


def test_ranking_test_all_relevant():
    result = random_ranking_test([1, 1, 1], [3, 2, 1], n_permutations=10, random_state=0)
    assert (result.average_precision, result.expected, result.std) == (1.0, 1.0, 0.0)
    assert math.isnan(result.z_score) and result.p_value == 1.0


@pytest.mark.parametrize("kwargs, name", [
    ({"n_permutations": -1}, "n_permutations"), ({"n_permutations": 2.5}, "n_permutations"),
    ({"n_permutations": True}, "n_permutations"), ({"pos_label": 7}, "pos_label")])
def test_ranking_test_bad_arguments(kwargs, name):
    with pytest.raises(ValueError, match=f"`{name}` must be"):
        random_ranking_test([0, 2, 2], [0.1, 0.5, 0.2], **{"pos_label": 2, **kwargs})


def test_ranking_test_needs_a_relevant_item():
    with pytest.raises(ValueError, match="`y_true` must .*relevant item"):
        random_ranking_test([0, 0, 0], [0.1, 0.5, 0.2])
    with pytest.raises(ValueError, match="`y_score` must be finite"):
        random_ranking_test([0, 1, 0], [0.1, np.nan, 0.2])
    with pytest.raises(ValueError, match="same number of samples"):
        random_ranking_test([0, 1, 0], [0.1, 0.2])


# ---------------------------------------------------------------------------
# chance_baseline
# ---------------------------------------------------------------------------


def _enumerated_chance(tp, fp, fn, tn):
    """Expected metrics and P(TP >= tp) over the hypergeometric support, in fractions."""
    n, relevant, predicted = tp + fp + fn + tn, tp + fn, tp + fp
    support = range(max(0, predicted + relevant - n), min(predicted, relevant) + 1)
    prob = {t: Fraction(math.comb(relevant, t) * math.comb(n - relevant, predicted - t),
                        math.comb(n, predicted)) for t in support}
    assert sum(prob.values()) == 1

    def expect(metric):
        values = [metric(t) for t in support]
        if any(v is None for v in values):
            return math.nan
        return float(sum(prob[t] * v for t, v in zip(support, values, strict=True)))

    return {
        "precision": expect(lambda t: Fraction(t, predicted) if predicted else None),
        "recall": expect(lambda t: Fraction(t, relevant) if relevant else None),
        "f1": expect(lambda t: Fraction(2 * t, predicted + relevant)
                     if predicted + relevant else None),
        "accuracy": expect(lambda t: Fraction(2 * t + n - predicted - relevant, n)),
        "informedness": expect(lambda t: Fraction(t, relevant) - Fraction(predicted - t,
                                                                           n - relevant)
                               if 0 < relevant < n else None),
        "expected_tp": expect(lambda t: t),
        "p_value": float(sum(p for t, p in prob.items() if t >= tp)),
    }


def test_chance_expectations_equal_hypergeometric_enumeration():
    # Reference: exact expectation over the hypergeometric support (fractions) for every
    # table with 1 <= N <= 7, and scipy.stats.hypergeom.sf for the p-value.
    checked = 0
    for cells in product(range(8), repeat=4):
        if not 1 <= sum(cells) <= 7:
            continue
        expected = _enumerated_chance(*cells)
        result = chance_baseline(ConfusionCounts(*cells))
        for name, value in expected.items():
            got = getattr(result, name)
            assert type(got) is float
            if math.isnan(value):
                assert math.isnan(got), (cells, name)
            else:
                assert got == pytest.approx(value, rel=1e-13, abs=1e-15), (cells, name)
        tp, fp, fn, tn = cells
        assert result.p_value == hypergeom.sf(tp - 1, sum(cells), tp + fn, tp + fp)
        checked += 1
    assert checked == 329


def test_chance_closed_forms():
    # E[precision] = R/N, E[recall] = M/N, E[F1] = 2MR/(N(M+R)),
    # E[accuracy] = (MR + (N-M)(N-R))/N^2, E[informedness] = 0.
    tp, fp, fn, tn = 30.0, 10.0, 20.0, 40.0
    n, r, m = 100.0, 50.0, 40.0
    result = chance_baseline(ConfusionCounts(tp, fp, fn, tn))
    assert result.precision == r / n and result.recall == m / n
    assert result.f1 == pytest.approx(2 * m * r / (n * (m + r)), rel=1e-15)
    assert result.accuracy == pytest.approx((m * r + (n - m) * (n - r)) / n ** 2, rel=1e-15)
    assert result.informedness == 0.0
    assert result.expected_tp == 20.0
    assert result.p_value == hypergeom.sf(29, 100, 50, 40)


def test_chance_per_label_is_vectorised():
    y_true = [0, 0, 1, 1, 2, 2, 2, 1, 0, 2, 1, 1]
    y_pred = [0, 1, 1, 1, 2, 2, 0, 2, 0, 2, 0, 1]
    counts = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    result = chance_baseline(counts)
    assert isinstance(result, ChanceBaseline)
    assert result.labels.tolist() == [0, 1, 2]
    for name in ("precision", "recall", "f1", "accuracy", "informedness", "expected_tp",
                 "p_value"):
        values = getattr(result, name)
        assert values.shape == (3,) and not values.flags.writeable
        for k in range(3):
            assert values[k] == pytest.approx(getattr(chance_baseline(counts[k]), name),
                                              rel=1e-15)
    assert np.array_equal(
        result.p_value, hypergeom.sf(counts.tp - 1, counts.n, counts.tp + counts.fn,
                                     counts.tp + counts.fp))
    assert "labels=[0, 1, 2]" in repr(result) and "np.float64" not in repr(result)


def test_chance_large_counts():
    # N = 1e12, R = 5e11, M = 8e11; observed TP one million above its mean 4e11.
    counts = ConfusionCounts(tp=4e11 + 1e6, fp=4e11 - 1e6, fn=1e11 - 1e6, tn=1e11 + 1e6)
    result = chance_baseline(counts)
    assert (result.precision, result.recall, result.expected_tp) == (0.5, 0.8, 4e11)
    # Normal approximation of the hypergeometric tail: sd^2 = M R (N-M)(N-R) / (N^2 (N-1)).
    sd = math.sqrt(8e11 * 5e11 * 2e11 * 5e11 / (1e24 * (1e12 - 1)))
    assert result.p_value == pytest.approx(0.5 * math.erfc(1e6 / sd / math.sqrt(2)), abs=1e-3)
    assert result.p_value == hypergeom.sf(counts.tp - 1, 1e12, 5e11, 8e11)


def test_chance_empty_and_one_sided_tables():
    empty = chance_baseline(ConfusionCounts(0, 0, 0, 0))
    assert all(math.isnan(getattr(empty, name))
               for name in ("precision", "recall", "f1", "accuracy", "informedness"))
    assert empty.p_value == 1.0
    none_predicted = chance_baseline(ConfusionCounts(0, 0, 5, 5))
    assert math.isnan(none_predicted.precision) and none_predicted.recall == 0.0
    assert none_predicted.f1 == 0.0 and none_predicted.p_value == 1.0


def test_chance_rejects_weighted_counts_and_other_types():
    with pytest.raises(ValueError, match="`counts` must be whole-number counts"):
        chance_baseline(ConfusionCounts(2.5, 1, 1, 3))
    with pytest.raises(TypeError, match="`counts` must be a ConfusionCounts"):
        chance_baseline((2, 1, 1, 3))
