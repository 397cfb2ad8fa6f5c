"""Ranking metrics: average precision, precision at k, the D-measure."""

import math
import warnings
from itertools import permutations

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import average_precision_score

from skprobeval import average_precision, d_measure_score, d_measure_weights, precision_at_k_score

# ---------------------------------------------------------------------------
# average_precision
# ---------------------------------------------------------------------------


def _random_case(rng, ties):
    n = int(rng.integers(2, 300))
    y_true = (rng.random(n) < rng.uniform(0.02, 0.9)).astype(int)
    y_true[rng.integers(n)] = 1
    if ties:
        y_score = rng.integers(0, max(2, n // 5), size=n).astype(float)
    else:
        y_score = y_true * rng.uniform(0, 2) + rng.normal(size=n)
    return y_true, y_score


@pytest.mark.parametrize("weighted", [False, True])
def test_average_precision_equals_sklearn_without_ties(weighted, seed):
    # Reference: sklearn.metrics.average_precision_score on 150 random untied cases.
    rng = np.random.default_rng(seed)
    for _ in range(150):
        y_true, y_score = _random_case(rng, ties=False)
        assert np.unique(y_score).size == y_score.size
        weight = rng.uniform(0.1, 3, size=y_true.size) if weighted else None
        assert average_precision(y_true, y_score, sample_weight=weight) == pytest.approx(
            average_precision_score(y_true, y_score, sample_weight=weight), rel=1e-12)


def test_average_precision_equals_sklearn_with_ties(seed):
    # Reference: sklearn.metrics.average_precision_score; ties form one threshold step in both.
    rng = np.random.default_rng(seed)
    for _ in range(100):
        y_true, y_score = _random_case(rng, ties=True)
        weight = rng.integers(0, 4, size=y_true.size).astype(float)
        weight[y_true == 1] += 1
        assert average_precision(y_true, y_score) == pytest.approx(
            average_precision_score(y_true, y_score), rel=1e-12)
        assert average_precision(y_true, y_score, sample_weight=weight) == pytest.approx(
            average_precision_score(y_true, y_score, sample_weight=weight), rel=1e-12)


def test_average_precision_definition_by_ranks():
    # Reference: the definition (1/R) sum over relevant ranks n of (hits up to n) / n.
    rng = np.random.default_rng(3)
    for _ in range(50):
        n = int(rng.integers(1, 40))
        y_true = rng.integers(0, 2, size=n)
        y_true[0] = 1
        y_score = rng.permutation(n).astype(float)
        ranked = y_true[np.argsort(-y_score)]
        hits = np.cumsum(ranked)
        expected = np.sum(ranked * hits / np.arange(1, n + 1)) / ranked.sum()
        assert average_precision(y_true, y_score) == pytest.approx(expected, rel=1e-14)


def test_average_precision_bestgen_table_1_rows():
    # Bestgen (2015), Table 1 rows, e.g. ranking 1 0 1 0 0 -> (1/1 + 2/3) / 2.
    score = [5, 4, 3, 2, 1]
    assert average_precision([1, 1, 0, 0, 0], score) == 1.0
    assert average_precision([1, 0, 1, 0, 0], score) == pytest.approx((1 + 2 / 3) / 2)
    assert average_precision([0, 1, 0, 0, 1], score) == pytest.approx((1 / 2 + 2 / 5) / 2)
    assert average_precision([0, 0, 0, 1, 1], score) == pytest.approx((1 / 4 + 2 / 5) / 2)


def test_average_precision_tie_convention():
    # One tie group of 3 holding 2 relevant items after a relevant first item:
    # recall steps 1/3 at precision 1, then 2/3 at precision 3/4.
    y_true = [1, 1, 0, 1, 0]
    y_score = [0.9, 0.5, 0.5, 0.5, 0.1]
    assert average_precision(y_true, y_score) == pytest.approx((1 + 2 * 3 / 4) / 3)
    # Every item tied: AP is the prevalence.
    assert average_precision([1, 0, 0, 1, 0], [0.3] * 5) == pytest.approx(0.4)


def test_average_precision_invariances(seed):
    rng = np.random.default_rng(seed)
    y_true, y_score = _random_case(rng, ties=True)
    value = average_precision(y_true, y_score)
    order = rng.permutation(y_true.size)
    assert average_precision(y_true[order], y_score[order]) == pytest.approx(value, rel=1e-14)
    assert average_precision(y_true, y_score, sample_weight=np.ones(y_true.size)) == value
    # Integer weights equal repeated rows.
    weight = rng.integers(1, 4, size=y_true.size)
    assert average_precision(y_true, y_score, sample_weight=weight) == pytest.approx(
        average_precision(np.repeat(y_true, weight), np.repeat(y_score, weight)), rel=1e-13)
    # Label encodings of the same relevance.
    labels = np.array(["neg", "pos"])[y_true]
    assert average_precision(labels, y_score, pos_label="pos") == value
    assert average_precision(y_true.astype(bool), y_score) == value
    assert average_precision(2 * y_true - 1, y_score) == value
    assert average_precision(y_true.reshape(-1, 1), list(y_score)) == value
    # Any increasing transformation of the scores.
    assert average_precision(y_true, np.exp(y_score / 10)) == value


def test_average_precision_without_relevant_items():
    # scikit-learn returns 0.0 (with a warning) when y_true has no positive.
    with pytest.warns(UndefinedMetricWarning, match="zero_division"):
        assert average_precision([0, 0, 0], [0.1, 0.2, 0.3]) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert average_precision([0, 0], [1, 2], zero_division=1.0) == 1.0
        assert math.isnan(average_precision([0, 0], [1, 2], zero_division=np.nan))
        # Relevant items with zero weight only: also undefined.
        assert average_precision([0, 1], [1, 2], sample_weight=[1, 0], zero_division=0.0) == 0.0


# ---------------------------------------------------------------------------
# precision_at_k_score
# ---------------------------------------------------------------------------


def test_precision_at_k_without_ties(seed):
    # Reference: the definition (share of relevant items among the top k by sorting).
    rng = np.random.default_rng(seed)
    for _ in range(50):
        n = int(rng.integers(1, 60))
        y_true = rng.integers(0, 2, size=n)
        y_score = rng.permutation(n) + rng.random()
        ranked = y_true[np.argsort(-y_score)]
        for k in {1, n, int(rng.integers(1, n + 1))}:
            assert precision_at_k_score(y_true, y_score, k=k) == pytest.approx(ranked[:k].mean())


def test_precision_at_k_with_ties_is_the_expectation_over_tie_breaking():
    # Reference: mean over every ordering of the items (so every tie-breaking), by enumeration.
    y_true = np.array([1, 0, 1, 0, 1, 0])
    y_score = np.array([3.0, 2.0, 2.0, 2.0, 1.0, 1.0])
    for k in range(1, 7):
        values = []
        for order in permutations(range(6)):
            order = np.array(order)
            ranked = order[np.argsort(-y_score[order], kind="stable")]
            values.append(y_true[ranked][:k].mean())
        assert precision_at_k_score(y_true, y_score, k=k) == pytest.approx(np.mean(values),
                                                                          rel=1e-14)


def test_precision_at_k_values():
    assert precision_at_k_score([1, 0, 1, 1, 0], [5, 4, 3, 2, 1], k=5) == 0.6   # prevalence
    assert precision_at_k_score([0, 0, 1], [3, 2, 1], k=2) == 0.0
    assert precision_at_k_score(["a", "b"], [2, 1], k=1, pos_label="a") == 1.0
    assert precision_at_k_score([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], k=2) == 0.75
    assert precision_at_k_score([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], k=np.int64(3)) == pytest.approx(
        2 / 3)
    assert precision_at_k_score([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], k=2.0) == 0.75


@pytest.mark.parametrize("k", [0, 5, -1, 2.5, True, "2", None, np.nan])
def test_precision_at_k_bad_k(k):
    with pytest.raises(ValueError, match="`k` must be an integer in 1..4"):
        precision_at_k_score([1, 0, 1, 0], [4, 3, 2, 1], k=k)


# ---------------------------------------------------------------------------
# D-measure
# ---------------------------------------------------------------------------


def test_d_measure_weights_match_the_paper_description():
    # Nakache et al. (2005), figure for N = 273, k = 15, l = 0.7: weights are about 1 at the
    # top, fall sharply after rank ~50, and are "quite null" past rank 150; the library's
    # reading w_i = 1 / (1 + exp(-k (x_i - l))), x_i = (N - i + 1) / N: w = 1/2 where
    # x_i = l, i.e. rank 274 - 0.7 * 273 = 82.9.
    w = d_measure_weights(273)
    assert w.shape == (273,)
    assert w[0] == pytest.approx(1 / (1 + math.exp(-15 * 0.3)), rel=1e-15)   # 0.989
    assert w[0] > 0.98 and np.all(w[:40] > 0.9)
    assert w[81] > 0.5 > w[82]                   # ranks 82 and 83 straddle one half
    assert w[82] == pytest.approx(0.5, abs=0.01)
    assert np.all(w[150:] < 0.03)                # past rank 150
    assert np.all(np.diff(w) < 0)
    ranks = np.arange(1, 274)
    expected = 1 / (1 + np.exp(-15 * ((273 - ranks + 1) / 273 - 0.7)))
    assert np.allclose(w, expected, rtol=1e-14)


def test_literal_printed_weights_contradict_the_paper():
    # The printed formula (1 + e^-k) / (1 + e^(-k x - l)) keeps every weight above 0.68 for
    # N = 273: nowhere "quite null past 150", which is why the library reads it as a sigmoid
    # (theory chapter, "Readings and choices").
    x = np.arange(273, 0, -1) / 273
    literal = (1 + math.exp(-15)) / (1 + np.exp(-15 * x - 0.7))
    assert literal.min() > 0.6
    assert d_measure_weights(273)[150:].max() < 0.03


def test_d_measure_is_the_weighted_mean():
    rng = np.random.default_rng(5)
    for n in (1, 2, 17, 273):
        pertinence = rng.random(n)
        for k, l in [(15.0, 0.7), (3.0, 0.2), (40.0, 0.95)]:
            w = d_measure_weights(n, k=k, l=l)
            assert d_measure_score(pertinence, k=k, l=l) == pytest.approx(
                np.sum(pertinence * w) / np.sum(w), rel=1e-13)
            # A constant numerator (the paper's 1 + e^(l-k)) cancels.
            assert d_measure_score(pertinence, k=k, l=l) == pytest.approx(
                np.sum(pertinence * 3.7 * w) / np.sum(3.7 * w), rel=1e-13)


def test_d_measure_of_a_constant_list_is_that_constant_exactly():
    # Exact by construction (one summation route, clipped to the values' range),
    # whatever summation order the machine's BLAS or SIMD kernels use.
    for n in range(1, 501):
        assert d_measure_score(np.ones(n)) == 1.0
        assert d_measure_score(np.zeros(n)) == 0.0
        assert d_measure_score(np.full(n, 0.1)) == 0.1
    for k, l in [(3.0, 0.2), (40.0, 0.95), (500.0, 5.0)]:
        assert d_measure_score(np.ones(273), k=k, l=l) == 1.0


def test_d_measure_values_and_extremes():
    assert d_measure_score([0.25]) == 0.25
    good_first = np.r_[np.ones(10), np.zeros(90)]
    assert d_measure_score(good_first) > d_measure_score(good_first[::-1])
    # A very steep sigmoid is a hard cut at x = l: the mean pertinence of the top 30%.
    pertinence = np.r_[np.full(30, 0.8), np.full(70, 0.1)]
    assert d_measure_score(pertinence, k=1e5, l=0.705) == pytest.approx(0.8, rel=1e-12)
    # The inflection point far outside the list: weights underflow, the result does not.
    assert d_measure_score(pertinence, k=500.0, l=5.0) == pytest.approx(
        np.average(pertinence, weights=np.exp(500 * (np.arange(100, 0, -1) / 100 - 1))),
        rel=1e-10)
    assert 0.0 <= d_measure_score(pertinence, k=500.0, l=-5.0) <= 1.0


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

AP_CASES = [
    (([0, 1, 1], [0.1, 0.2]), {}, "same number of samples"),
    (([], []), {}, "`y_true` must be non-empty"),
    (([0, 1], []), {}, "`y_score` must be non-empty"),
    (([0, 1, 1], [0.1, np.nan, 0.3]), {}, "`y_score` must be finite"),
    (([0, 1, 1], [0.1, np.inf, 0.3]), {}, "`y_score` must be finite"),
    (([0.0, np.nan, 1.0], [0.1, 0.2, 0.3]), {}, "`y_true` must be free of missing labels"),
    (([0, 1, 2], [0.1, 0.2, 0.3]), {}, "`y_true` must be binary"),
    (([0.5, 1.0, 0.5], [0.1, 0.2, 0.3]), {}, "`y_true` must be binary"),
    (([[0, 1], [1, 0]], [0.1, 0.2]), {}, "`y_true` must be 1-dimensional"),
    ((["a", "b", "a"], [0.1, 0.2, 0.3]), {}, "`pos_label` must be one of"),
    (([0, 1, 1], ["x", "y", "z"]), {}, "`y_score` must be an array of real numbers"),
    (([0, 1, 1], 0.5), {}, "`y_score` must be a 1-d array-like"),
]


@pytest.mark.parametrize("function, extra", [
    (average_precision, {}), (precision_at_k_score, {"k": 1})])
@pytest.mark.parametrize("args, kwargs, message", AP_CASES)
def test_ranking_bad_input(function, extra, args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        function(*args, **extra, **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    ({"sample_weight": [1, -1, 1]}, "`sample_weight` must be non-negative"),
    ({"sample_weight": [1, 1]}, "`sample_weight` must be of the same length"),
    ({"sample_weight": [1, np.nan, 1]}, "`sample_weight` must be finite"),
    ({"zero_division": 2}, "`zero_division` must be"),
])
def test_average_precision_bad_keywords(kwargs, message):
    with pytest.raises(ValueError, match=message):
        average_precision([0, 1, 1], [0.1, 0.2, 0.3], **kwargs)


@pytest.mark.parametrize("pertinence, kwargs, message", [
    ([0.5, 1.2], {}, r"`pertinence` must be in \[0, 1\]"),
    ([0.5, -0.1], {}, r"`pertinence` must be in \[0, 1\]"),
    ([0.5, np.nan], {}, "`pertinence` must be finite"),
    ([], {}, "`pertinence` must be non-empty"),
    ([[0.5, 0.2]], {}, "`pertinence` must be 1-dimensional"),
    ([0.5], {"k": 0.0}, "`k` must be a finite number > 0"),
    ([0.5], {"k": -2.0}, "`k` must be a finite number > 0"),
    ([0.5], {"k": np.inf}, "`k` must be a finite number > 0"),
    ([0.5], {"k": True}, "`k` must be a finite number > 0"),
    ([0.5], {"l": np.nan}, "`l` must be a finite number"),
    ([0.5], {"l": "0.7"}, "`l` must be a finite number"),
])
def test_d_measure_bad_input(pertinence, kwargs, message):
    with pytest.raises(ValueError, match=message):
        d_measure_score(pertinence, **kwargs)


@pytest.mark.parametrize("n_items", [0, -1, 2.5, True, "3"])
def test_d_measure_weights_bad_n_items(n_items):
    with pytest.raises(ValueError, match="`n_items` must be an integer >= 1"):
        d_measure_weights(n_items)
