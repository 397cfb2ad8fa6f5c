"""The coverage benchmark's frequentist references, each checked by an independent route.

Every reference value below says where it comes from: statsmodels, scipy (its bootstrap,
binomial, t and signed-rank tests), scikit-learn, a formula written out plainly here, or a
Monte Carlo simulation.
"""

import itertools
import math
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from benchmarks import _references as ref

# ---------------------------------------------------------------------------
# Proportions


def test_wilson_matches_statsmodels():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    k = np.array([0, 1, 3, 17, 29, 30, 0, 5, 7])
    n = np.array([30, 30, 30, 30, 30, 30, 1, 5, 400])
    for confidence in (0.95, 0.9, 0.5):
        # Reference: statsmodels.stats.proportion.proportion_confint(method="wilson").
        low, high = proportion.proportion_confint(k, n, alpha=1 - confidence,
                                                  method="wilson")
        ours = ref.wilson_interval(k, n, confidence)
        np.testing.assert_allclose(ours[0], low, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(ours[1], high, rtol=1e-12, atol=1e-15)
    # Broadcasting, and an empty denominator giving all of [0, 1].
    low, high = ref.wilson_interval(np.array([[0], [2]]), np.array([4, 0]))
    assert low.shape == (2, 2) and (low[:, 1] == 0).all() and (high[:, 1] == 1).all()


def test_jeffreys_matches_statsmodels_inside_and_the_boundary_convention_at_the_ends():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    k = np.array([0, 1, 3, 17, 29, 30, 0, 1])
    n = np.array([30, 30, 30, 30, 30, 30, 1, 1])
    for confidence in (0.95, 0.9):
        # Reference: statsmodels.stats.proportion.proportion_confint(method="jeffreys"),
        # the plain equal-tailed Beta(k + 1/2, n - k + 1/2) quantiles everywhere.
        low, high = proportion.proportion_confint(k, n, alpha=1 - confidence,
                                                  method="jeffreys")
        ours_low, ours_high = ref.jeffreys_interval(k, n, confidence)
        # Boundary convention (Brown, Cai & DasGupta 2001): low = 0 at k = 0 and high = 1
        # at k = n, where statsmodels keeps the Beta quantile; everywhere else (including
        # the other end at k = 0 or k = n) they agree.
        np.testing.assert_allclose(ours_low[k > 0], low[k > 0], rtol=1e-12)
        np.testing.assert_allclose(ours_high[k < n], high[k < n], rtol=1e-12)
        assert (ours_low[k == 0] == 0).all() and (low[k == 0] > 0).all()
        assert (ours_high[k == n] == 1).all() and (high[k == n] < 1).all()


# ---------------------------------------------------------------------------
# Bootstrap pieces


def _f1(table):
    table = np.asarray(table, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return 2 * table[..., 0] / (2 * table[..., 0] + table[..., 1] + table[..., 2])


def _macro_recall(table):
    # A K * K table (rows the true class), flattened to K * K cells.
    k = int(round(math.sqrt(table.shape[-1])))
    square = np.asarray(table, dtype=float).reshape(*table.shape[:-1], k, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.mean(np.diagonal(square, axis1=-2, axis2=-1) / square.sum(axis=-1), axis=-1)


def _item_jackknife_acceleration(items, statistic_of_items):
    # Reference: the textbook jackknife, one item at a time (Efron 1987),
    # a = sum d^3 / (6 (sum d^2)^(3/2)), d = mean - theta_(i).
    theta = np.array([statistic_of_items(np.delete(items, i)) for i in range(items.size)])
    d = theta.mean() - theta
    return np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)


def test_column_quantiles_match_numpy_nanquantile():
    rng = np.random.default_rng(7)
    values = rng.normal(size=(101, 5))
    values[rng.random(values.shape) < 0.2] = np.nan
    values[:, 3] = np.nan                                    # no value at all
    values[:, 4] = np.round(values[:, 4], 0)                 # ties
    q = rng.random((3, 5))
    q[0] = [0.0, 1.0, 0.5, 0.3, 1.0]
    got = ref._column_quantiles(values, q)
    for r in range(5):
        column = values[:, r]
        if np.isnan(column).all():
            assert np.isnan(got[:, r]).all()
            continue
        # Reference: numpy's default ("linear") quantile of the column, NaN dropped.
        np.testing.assert_allclose(got[:, r], np.nanquantile(column, q[:, r]), rtol=1e-14,
                                   atol=1e-15)


@pytest.mark.parametrize("counts", [[12, 3, 4, 31], [1, 0, 2, 9], [40, 2, 0, 5]])
def test_grouped_jackknife_acceleration_equals_the_item_jackknife_binary(counts):
    counts = np.array(counts)
    items = np.repeat(np.arange(4), counts)
    expected = _item_jackknife_acceleration(
        items, lambda kept: _f1(np.bincount(kept, minlength=4)))
    got = ref._count_acceleration(counts[None], _f1)[0]
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_grouped_jackknife_acceleration_equals_the_item_jackknife_multiclass():
    counts = np.array([[20, 3, 1], [4, 15, 2], [0, 5, 11]]).ravel()
    items = np.repeat(np.arange(9), counts)
    expected = _item_jackknife_acceleration(
        items, lambda kept: _macro_recall(np.bincount(kept, minlength=9)))
    got = ref._count_acceleration(counts[None], _macro_recall)[0]
    assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_count_bootstrap_equals_scipy_on_the_same_resamples(method):
    # A table of n cells with one item each is the ordinary bootstrap of n distinct values;
    # with a continuous statistic (their mean) no resample ties the observed value, where
    # scipy's z0 convention (ties count one half) and ours (strictly below) would differ.
    # Reference: scipy.stats.bootstrap on the values, handed our bootstrap distribution
    # (bootstrap_result, n_resamples=0): its percentile / BCa levels, jackknife and
    # quantiles, exactly.
    values = np.random.default_rng(11).gamma(2.0, size=40)
    counts = np.ones((1, values.size), dtype=np.int64)

    def mean(tables):
        return tables @ values / tables.sum(axis=-1)

    distribution = ref._count_statistics(counts, mean, 3000, np.random.default_rng(5))[:, 0]
    assert not np.any(np.abs(distribution - values.mean()) < 1e-12)
    ours = ref.count_bootstrap(counts, mean, confidence=0.9, n_resamples=3000,
                               rng=np.random.default_rng(5), method=method)
    theirs = stats.bootstrap(
        (values,), np.mean, confidence_level=0.9, n_resamples=0,
        method="BCa" if method == "bca" else "percentile",
        bootstrap_result=SimpleNamespace(bootstrap_distribution=distribution),
    ).confidence_interval
    assert ours[0][0] == pytest.approx(theirs.low, rel=1e-12)
    assert ours[1][0] == pytest.approx(theirs.high, rel=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_count_bootstrap_matches_scipy_on_the_expanded_items(method, seed):
    # Reference: scipy.stats.bootstrap on the 50 items themselves (F1 of their table),
    # independent resamples; 20 000 on each side put each end's Monte Carlo error near
    # 0.002, but F1 takes values on a lattice about 0.005 apart here, so an end can move
    # by a step.  For BCa, scipy counts resamples tying the observed F1 (2.2% of them here)
    # as one half in z0, ours (Efron's "< observed") as not below: z0 -0.049 against
    # -0.021, lower level 0.036 against 0.041 at 90%, lower end 0.593 against 0.600 with
    # 200 000 resamples; hence 0.025 for BCa (the largest gap over 40 seeds was 0.016).
    counts = np.array([[12, 3, 4, 31]])
    items = np.repeat(np.arange(4), counts[0])

    def f1_of_items(x, axis=-1):
        return _f1(np.stack([(x == c).sum(axis=axis) for c in range(4)], axis=-1))

    ours = ref.count_bootstrap(counts, _f1, confidence=0.9, n_resamples=20_000,
                               rng=np.random.default_rng(seed), method=method)
    theirs = stats.bootstrap((items,), f1_of_items, confidence_level=0.9,
                             n_resamples=20_000,
                             method="BCa" if method == "bca" else "percentile",
                             rng=np.random.default_rng(seed + 1)).confidence_interval
    tolerance = 0.025 if method == "bca" else 0.01
    assert ours[0][0] == pytest.approx(theirs.low, abs=tolerance)
    assert ours[1][0] == pytest.approx(theirs.high, abs=tolerance)


def test_count_bootstrap_rows_drop_nan_resamples_and_fall_back_where_degenerate():
    counts = np.array([[12, 3, 4, 31],     # ordinary
                       [1, 0, 1, 20],      # some resamples have tp = fp = 0: NaN precision
                       [5, 0, 0, 3],       # precision is 1 in every resample: degenerate
                       [0, 0, 0, 0]])      # no items: NaN

    def precision(table):
        return table[..., 0] / (table[..., 0] + table[..., 1])

    distribution = ref._count_statistics(counts, precision, 4000, np.random.default_rng(2))
    assert np.isnan(distribution[:, 1]).any() and not np.isnan(distribution[:, 1]).all()
    with np.errstate(all="raise"):
        low, high = ref.count_bootstrap(counts, precision, n_resamples=4000,
                                        rng=np.random.default_rng(2))
    # Reference: numpy's nanquantile of each row's resamples (NaN dropped).
    for r in range(3):
        expected = np.nanquantile(distribution[:, r], [0.025, 0.975])
        assert (low[r], high[r]) == pytest.approx(tuple(expected), rel=1e-14)
    assert np.isnan(low[3]) and np.isnan(high[3])
    low, high = ref.count_bootstrap(counts, precision, n_resamples=4000,
                                    rng=np.random.default_rng(2), method="bca")
    assert (low[2], high[2]) == (1.0, 1.0)           # z0 infinite: the percentile interval
    assert np.isfinite(low[:2]).all() and np.isnan(low[3])
    with pytest.raises(ValueError, match="method"):
        ref.count_bootstrap(counts, precision, rng=np.random.default_rng(0), method="basic")


# ---------------------------------------------------------------------------
# Ranking metrics under item weights


def _labelled_scores(rng, n, prevalence=0.4, decimals=1):
    y = rng.random(n) < prevalence
    y[:2] = [True, False]
    score = np.round(rng.normal(size=n) + y, decimals)              # ties on purpose
    return y, score


def test_weighted_auc_and_average_precision_equal_sklearn_with_sample_weight():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    y, score = _labelled_scores(rng, 60)
    assert np.unique(score).size < score.size
    weights = np.bincount((rng.integers(0, 60, size=(25, 60))
                           + 60 * np.arange(25)[:, None]).ravel(),
                          minlength=25 * 60).reshape(25, 60).astype(float)
    weights[0] = rng.random(60) * (rng.random(60) < 0.7)    # real weights, some zero
    assert (weights == 0).any()
    auc = ref.weighted_auc(y, score, weights)
    ap = ref.weighted_average_precision(y, score, weights)
    assert auc.shape == ap.shape == (25,)
    for r in range(25):
        # Reference: scikit-learn with sample_weight set to the row.
        assert auc[r] == pytest.approx(metrics.roc_auc_score(y, score, sample_weight=weights[r]),
                                       rel=1e-12, abs=1e-12)
        assert ap[r] == pytest.approx(
            metrics.average_precision_score(y, score, sample_weight=weights[r]),
            rel=1e-12, abs=1e-12)
    # One weight vector gives a scalar; a class with no weight gives NaN.
    assert np.ndim(ref.weighted_auc(y, score, np.ones(60))) == 0
    assert ref.weighted_auc(y, score, np.ones(60)) == pytest.approx(
        metrics.roc_auc_score(y, score), rel=1e-12)
    assert np.isnan(ref.weighted_auc(y, score, np.where(y, 0.0, 1.0)))
    assert np.isnan(ref.weighted_average_precision(y, score, np.where(y, 0.0, 1.0)))


def _rank_auc(y, s, axis=-1):
    # Reference AUC for scipy's resamples: the midrank (Mann-Whitney) formula.
    y, s = np.moveaxis(y, axis, -1), np.moveaxis(s, axis, -1)
    ranks = stats.rankdata(s, axis=-1)
    m = y.sum(axis=-1)
    n = y.shape[-1] - m
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.sum(ranks * y, axis=-1) - m * (m + 1) / 2) / (m * n)


def test_ranking_bootstrap_bca_equals_scipy_on_the_same_resamples():
    # Reference: scipy.stats.bootstrap on the (label, score) pairs, paired=True, with the
    # midrank AUC, handed our bootstrap distribution (n_resamples=0): its item jackknife
    # (pairs removed one at a time), BCa levels and quantiles.  No resample of this data
    # set ties the observed AUC (checked; about 1 in 1000 does for other seeds), so the two
    # z0 conventions agree.
    y, score = _labelled_scores(np.random.default_rng(11), 50)

    def auc(w):
        return ref.weighted_auc(y, score, w)

    distribution = ref._ranking_statistics(50, auc, 3000, np.random.default_rng(9))
    observed = _rank_auc(y.astype(float), score)
    assert auc(np.ones((1, 50)))[0] == pytest.approx(observed, rel=1e-13)
    assert not np.any(np.abs(distribution - observed) < 1e-12)
    for method, scipy_method in (("bca", "BCa"), ("percentile", "percentile")):
        ours = ref.ranking_bootstrap(y, score, auc, confidence=0.9, n_resamples=3000,
                                     rng=np.random.default_rng(9), method=method)
        theirs = stats.bootstrap(
            (y.astype(float), score), _rank_auc, paired=True, confidence_level=0.9,
            n_resamples=0, method=scipy_method,
            bootstrap_result=SimpleNamespace(bootstrap_distribution=distribution),
        ).confidence_interval
        assert ours == pytest.approx((theirs.low, theirs.high), rel=1e-12)


def test_ranking_bootstrap_matches_scipy_paired_resampling(seed):
    # Reference: scipy.stats.bootstrap on the (label, score) pairs, paired=True, midrank AUC,
    # independent resamples; 20 000 on each side, each end's Monte Carlo error near 0.002.
    y, score = _labelled_scores(np.random.default_rng(12), 80)
    ours = ref.ranking_bootstrap(y, score, lambda w: ref.weighted_auc(y, score, w),
                                 confidence=0.95, n_resamples=20_000,
                                 rng=np.random.default_rng(seed))
    theirs = stats.bootstrap((y.astype(float), score), _rank_auc, paired=True,
                             confidence_level=0.95, n_resamples=20_000, method="percentile",
                             rng=np.random.default_rng(seed + 1)).confidence_interval
    assert ours == pytest.approx((theirs.low, theirs.high), abs=0.01)


def test_ranking_bootstrap_refuses_bca_beyond_the_jackknife_limit():
    y = np.arange(2001) % 2 == 0
    score = np.arange(2001.0)
    with pytest.raises(ValueError, match="method"):
        ref.ranking_bootstrap(y, score, lambda w: ref.weighted_auc(y, score, w),
                              rng=np.random.default_rng(0), method="bca")
    # The percentile interval is available at any size.
    low, high = ref.ranking_bootstrap(y, score, lambda w: ref.weighted_auc(y, score, w),
                                      n_resamples=50, rng=np.random.default_rng(0))
    assert 0.0 <= low <= high <= 1.0


# ---------------------------------------------------------------------------
# DeLong


def _direct_components(y, score):
    # Reference: DeLong, DeLong & Clarke-Pearson (1988)'s structural components written
    # plainly, O(m n): psi(x, y) = 1 if x > y, 1/2 if x = y, 0 otherwise.
    x, z = score[y], score[~y]
    psi = (x[:, None] > z[None]) + 0.5 * (x[:, None] == z[None])
    return psi.mean(), psi.mean(axis=1), psi.mean(axis=0)


def test_delong_fast_algorithm_equals_the_direct_structural_components():
    rng = np.random.default_rng(4)
    y = np.r_[np.ones(30, dtype=bool), np.zeros(45, dtype=bool)]
    rng.shuffle(y)
    scores = np.round(rng.normal(size=(3, 75)) + y, 1)           # ties on purpose
    for confidence in (0.95, 0.8):
        rows = ref.delong_interval(y, scores, confidence)
        for r, score in enumerate(scores):
            auc, v10, v01 = _direct_components(y, score)
            variance = v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size
            half = stats.norm.ppf(0.5 + confidence / 2) * math.sqrt(variance)
            expected = (auc, max(0.0, auc - half), min(1.0, auc + half), variance)
            assert ref.delong_interval(y, score, confidence) == pytest.approx(expected,
                                                                              rel=1e-12)
            assert tuple(x[r] for x in rows) == pytest.approx(expected, rel=1e-12)
    # Clipping: a near-perfect ranking's interval stops at 1.
    score = y + 0.01 * rng.normal(size=75)
    assert ref.delong_interval(y, score)[2] == 1.0


def test_delong_paired_test_equals_the_direct_covariance():
    rng = np.random.default_rng(6)
    y = rng.random(90) < 0.4
    a = np.round(rng.normal(size=90) + 1.2 * y, 1)
    b = np.round(rng.normal(size=90) + 0.8 * y, 1)
    auc_a, v10_a, v01_a = _direct_components(y, a)
    auc_b, v10_b, v01_b = _direct_components(y, b)
    s10, s01 = np.cov([v10_a, v10_b]), np.cov([v01_a, v01_b])
    variance = (s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / y.sum() + \
        (s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]) / (~y).sum()
    # Reference: the normal tail of the difference over its DeLong standard error.
    expected = stats.norm.sf((auc_a - auc_b) / math.sqrt(variance))
    assert ref.delong_paired_test(y, a, b) == pytest.approx(expected, rel=1e-10)
    assert ref.delong_paired_test(y, b, a) == pytest.approx(1 - expected, rel=1e-10)
    # Zero variance of the difference: identical scores (no difference) give 1; a perfect
    # ranking against a constant score (every component differs by 1/2) gives 0.
    assert ref.delong_paired_test(y, a, a) == 1.0
    assert ref.delong_paired_test(y, y + 0.0, np.zeros(90)) == 0.0
    assert ref.delong_paired_test(y, np.zeros(90), y + 0.0) == 1.0


def test_delong_variance_matches_the_monte_carlo_variance_of_the_auc(seed):
    # Reference: the variance of the AUC over 4000 simulated binormal data sets
    # (m = n = 100, separation 1), its standard error from the AUCs' fourth central moment
    # (about 2% of it).  DeLong's estimate runs about 1.5% high here (half a standard
    # error); across 60 seeds the discrepancy stayed within 3.3 standard errors.
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(100, dtype=bool), np.zeros(100, dtype=bool)]
    scores = rng.normal(size=(4000, 200)) + 1.0 * y
    auc, _, _, variance = ref.delong_interval(y, scores)
    simulated = auc.var(ddof=1)
    fourth = np.mean((auc - auc.mean()) ** 4)
    error = math.sqrt((fourth - simulated**2) / auc.size + variance.var() / variance.size)
    assert abs(variance.mean() - simulated) < 5 * error
    # The AUC itself: Phi(1 / sqrt 2) for unit-variance normals one apart.
    assert abs(auc.mean() - stats.norm.cdf(1 / math.sqrt(2))) < 5 * math.sqrt(simulated / 4000)


# ---------------------------------------------------------------------------
# One-sided tests


def test_mcnemar_one_sided_matches_scipy_and_statsmodels():
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    b = np.array([7, 0, 5, 30, 1, 12, 0])
    c = np.array([2, 4, 5, 12, 0, 3, 0])
    got = ref.mcnemar_one_sided(b, c)
    assert got.shape == (7,)
    for i in range(7):
        if b[i] + c[i] == 0:
            assert got[i] == 1.0
            continue
        # Reference: scipy.stats.binomtest(b, b + c, 1/2, alternative="greater").
        expected = stats.binomtest(int(b[i]), int(b[i] + c[i]), 0.5,
                                   alternative="greater").pvalue
        assert got[i] == pytest.approx(expected, rel=1e-12)
        if b[i] > c[i]:
            # Reference: statsmodels' exact two-sided McNemar p-value is twice the smaller
            # tail, which for b > c is ours.
            table = [[0, b[i]], [c[i], 0]]
            two_sided = contingency.mcnemar(table, exact=True).pvalue
            assert got[i] == pytest.approx(two_sided / 2, rel=1e-12)
    assert ref.mcnemar_one_sided(0, 0) == 1.0 and np.ndim(ref.mcnemar_one_sided(3, 1)) == 0


def test_corrected_ttest_matches_a_direct_t_computation():
    rng = np.random.default_rng(10)
    differences = 0.01 + 0.02 * rng.normal(size=(6, 10))
    differences[4] = 0.03                                      # s = 0, mean > 0
    differences[5] = -0.01                                     # s = 0, mean <= 0
    got = ref.corrected_ttest_one_sided(differences, 0.25)
    assert got.shape == (6,)
    for r in range(4):
        d = differences[r]
        # Reference: t written out, Nadeau & Bengio (2003), with scipy.stats.t (k - 1 df).
        t = d.mean() / math.sqrt((1 / 10 + 0.25) * d.var(ddof=1))
        assert got[r] == pytest.approx(stats.t.sf(t, 9), rel=1e-12)
        assert got[r] == pytest.approx(1 - stats.t.cdf(t, 9), abs=1e-14)
    assert got[4] == 0.0 and got[5] == 1.0
    assert np.ndim(ref.corrected_ttest_one_sided(differences[0], 0.25)) == 0


def _exact_signed_rank_p(d):
    # Reference: the signed-rank null distribution enumerated over all 2^k sign patterns
    # (no zeros, no ties in |d|): P(W+ >= observed W+).
    ranks = stats.rankdata(np.abs(d))
    observed = ranks[d > 0].sum()
    signs = np.array(list(itertools.product([0, 1], repeat=d.size)))
    return np.mean(signs @ ranks >= observed - 1e-9)


def test_wilcoxon_one_sided_matches_the_enumerated_null_distribution():
    rng = np.random.default_rng(13)
    rows = 0.3 + rng.normal(size=(4, 10))
    rows[1] -= 0.6
    with_zeros = np.r_[0.0, rows[2, :7], 0.0, 0.0]             # zeros are dropped
    got = ref.wilcoxon_one_sided(np.vstack([rows, with_zeros, np.zeros(10)]))
    for r in range(4):
        assert got[r] == pytest.approx(_exact_signed_rank_p(rows[r]), rel=1e-12)
    assert got[4] == pytest.approx(_exact_signed_rank_p(rows[2, :7]), rel=1e-12)
    assert got[5] == 1.0
    # Reference: scipy.stats.wilcoxon itself, on a row long enough for its normal
    # approximation.
    long = 0.1 + rng.normal(size=80)
    expected = stats.wilcoxon(long, alternative="greater", zero_method="wilcox").pvalue
    assert ref.wilcoxon_one_sided(long)[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.slow   # 1-2 s of sampling
def test_baycomp_signed_rank_reference_is_the_librarys_posterior():
    # The benchmark's baycomp row against the library's own signed-rank test on the same
    # rows (the same posterior, sampled twice): within a few Monte Carlo errors.
    pytest.importorskip("baycomp")
    from skprobeval import bayesian_signed_rank_test

    rng = np.random.default_rng(4)
    differences = 0.01 + 0.02 * rng.standard_t(5, size=(6, 10))
    theirs = ref.baycomp_signed_rank(differences, 20_000)
    ours = np.array([bayesian_signed_rank_test(d, np.zeros(10), n_draws=20_000,
                                               random_state=0).prob_first_better
                     for d in differences])
    assert theirs.shape == (6,) and np.all((theirs >= 0) & (theirs <= 1))
    np.testing.assert_allclose(theirs, ours, atol=4 * 0.5 / math.sqrt(20_000))
