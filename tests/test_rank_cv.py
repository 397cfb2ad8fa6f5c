"""rank_cv_results and SimplestWithinRopeRefit: the correlated t-test for every candidate
of a search at once.

Independent routes: `correlated_ttest` (itself checked against baycomp's
``two_on_single``) for every pair, and a brute-force Monte Carlo of the posterior
built by hand as ``scipy.stats.multivariate_t``; exact symmetries for ties and
exchangeable candidates.
"""

import math
import pickle
import warnings

import numpy as np
import pytest
from optional import needs
from scipy import stats

from skprobeval import (
    CVResultsRanking,
    SimplestWithinRopeRefit,
    correlated_ttest,
    rank_cv_results,
)


def _cv_results(scores, params=None, name="score"):
    """A cv_results_ dict from scores of shape (n_splits, n_candidates)."""
    scores = np.asarray(scores, dtype=float)
    n_candidates = scores.shape[1]
    results = {"params": params or [{"c": i} for i in range(n_candidates)],
               f"mean_test_{name}": scores.mean(axis=0)}
    for k, row in enumerate(scores):
        results[f"split{k}_test_{name}"] = row
    return results


def _scores(rng, n_splits, means, noise=0.02, shared=0.02):
    """Fold scores with a fold effect shared by every candidate (correlated columns)."""
    fold = shared * rng.standard_normal((n_splits, 1))
    return np.asarray(means) + fold + noise * rng.standard_normal((n_splits, len(means)))


def _within(value, reference, error, k=4.0):
    assert abs(value - reference) <= k * error + 1e-12, (value, reference, error)


# ---------------------------------------------------------------------------
# Two candidates: the correlated t-test
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rope", [0.0, 0.01])
@pytest.mark.parametrize("n_splits, test_fraction", [(10, 0.1), (20, 0.1), (5, 0.2)])
def test_two_candidates_pairwise_is_the_correlated_ttest(rng, rope, n_splits, test_fraction):
    scores = _scores(rng, n_splits, [0.80, 0.79])
    ranking = rank_cv_results(_cv_results(scores), rope=rope, test_fraction=test_fraction,
                              n_draws=200, random_state=0)
    # Reference: correlated_ttest, which equals baycomp.two_on_single to 1e-9 (test_compare).
    test = correlated_ttest(scores[:, 0], scores[:, 1], test_fraction=test_fraction, rope=rope)
    back = correlated_ttest(scores[:, 1], scores[:, 0], test_fraction=test_fraction, rope=rope)
    assert ranking.pairwise.iloc[0, 1] == pytest.approx(test.prob_first_better, abs=1e-9)
    assert ranking.pairwise.iloc[1, 0] == pytest.approx(back.prob_first_better, abs=1e-9)
    assert np.isnan(np.diag(ranking.pairwise.to_numpy())).all()
    # The marginal scale of the difference is the t-test's scale.
    difference = ranking.scale_matrix[0, 0] + ranking.scale_matrix[1, 1] \
        - 2 * ranking.scale_matrix[0, 1]
    assert math.sqrt(difference) == pytest.approx(test.scale, rel=1e-9)
    assert ranking.df == test.df


def test_two_candidates_prob_best_is_the_ttest_within_mc_error(rng, seed):
    scores = _scores(rng, 10, [0.80, 0.795])
    ranking = rank_cv_results(_cv_results(scores), random_state=seed)
    test = correlated_ttest(scores[:, 0], scores[:, 1], test_fraction=0.1)
    _within(ranking.prob_best.iloc[0], test.prob_first_better, ranking.mc_error.iloc[0])
    # P(within rope of best) for two candidates: P(mu_0 - mu_1 >= -rope) = 1 - P(second
    # better by more than the rope), the t-test's prob_second_better.
    ranking = rank_cv_results(_cv_results(scores), rope=0.005, random_state=seed)
    test = correlated_ttest(scores[:, 0], scores[:, 1], test_fraction=0.1, rope=0.005)
    _within(ranking.prob_within_rope_of_best.iloc[0], 1 - test.prob_second_better,
            ranking.within_rope_mc_error.iloc[0])


def test_every_pair_of_many_candidates_is_the_correlated_ttest(rng):
    scores = _scores(rng, 10, np.linspace(0.8, 0.82, 6))
    ranking = rank_cv_results(_cv_results(scores), rope=0.003, n_draws=100, random_state=0)
    for i in range(6):
        for j in range(6):
            if i != j:
                expected = correlated_ttest(scores[:, i], scores[:, j], test_fraction=0.1,
                                            rope=0.003).prob_first_better
                assert ranking.pairwise.iloc[i, j] == pytest.approx(expected, abs=1e-9)


# ---------------------------------------------------------------------------
# Independent route: the multivariate t built by hand
# ---------------------------------------------------------------------------


def _brute_force(scores, test_fraction, rope, size, seed):
    """P(best), rank probabilities and P(within rope of best) from scipy's multivariate_t."""
    n, n_candidates = scores.shape
    shape = (1 / n + test_fraction / (1 - test_fraction)) * np.cov(scores, rowvar=False)
    draws = stats.multivariate_t(scores.mean(axis=0), shape, df=n - 1,
                                 allow_singular=True).rvs(size=size, random_state=seed)
    ranks = np.argsort(np.argsort(-draws, axis=1), axis=1)
    probabilities = np.stack([(ranks == r).mean(axis=0) for r in range(n_candidates)], axis=1)
    within = (draws >= draws.max(axis=1, keepdims=True) - rope).mean(axis=0)
    return probabilities, within


@pytest.mark.parametrize("n_splits, n_candidates", [(10, 4), (5, 8)])
def test_agrees_with_a_hand_built_scipy_multivariate_t(rng, seed, n_splits, n_candidates):
    # (5, 8): more candidates than splits, a singular scale matrix.
    scores = _scores(rng, n_splits, np.linspace(0.80, 0.81, n_candidates), noise=0.01)
    size = 200_000
    ranking = rank_cv_results(_cv_results(scores), rope=0.004, test_fraction=1 / n_splits,
                              n_draws=40_000, random_state=seed)
    probabilities, within = _brute_force(scores, 1 / n_splits, 0.004, size, seed + 1)
    ours = ranking.rank_probabilities.to_numpy()
    # Binomial standard errors of both estimates.
    error = np.sqrt(ours * (1 - ours) / ranking.n_draws
                    + probabilities * (1 - probabilities) / size)
    assert np.all(np.abs(ours - probabilities) <= 4.5 * error + 1e-12)
    error = np.sqrt(ranking.within_rope_mc_error.to_numpy() ** 2 + within * (1 - within) / size)
    assert np.all(np.abs(ranking.prob_within_rope_of_best.to_numpy() - within)
                  <= 4.5 * error + 1e-12)
    # The posterior property is that same scipy object.
    np.testing.assert_allclose(ranking.posterior.shape,
                               (1 / n_splits + 1 / (n_splits - 1)) * np.cov(scores,
                                                                            rowvar=False),
                               rtol=1e-12)


def test_interval_is_the_exact_marginal(rng):
    scores = _scores(rng, 10, [0.8, 0.81, 0.79])
    ranking = rank_cv_results(_cv_results(scores), n_draws=100, random_state=0)
    bounds = ranking.interval(0.9)
    for i in range(3):
        scale = math.sqrt((1 / 10 + 0.1 / 0.9) * scores[:, i].var(ddof=1))
        reference = stats.t(9, loc=scores[:, i].mean(), scale=scale).interval(0.9)
        assert bounds.iloc[i].tolist() == pytest.approx(list(reference), rel=1e-10)


# ---------------------------------------------------------------------------
# Shape of the result
# ---------------------------------------------------------------------------


def test_probabilities_sum_to_one_and_agree(rng, seed):
    scores = _scores(rng, 10, np.linspace(0.8, 0.83, 7))
    ranking = rank_cv_results(_cv_results(scores), rope=0.01, n_draws=5000, random_state=seed)
    table = ranking.rank_probabilities
    assert table.shape == (7, 7) and list(table.columns) == list(range(1, 8))
    np.testing.assert_allclose(table.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(table.sum(axis=0), 1.0, atol=1e-12)
    assert ranking.prob_best.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(ranking.prob_best, table[1], atol=1e-12)
    np.testing.assert_allclose(ranking.expected_rank, table.to_numpy() @ np.arange(1, 8))
    assert ranking.expected_rank.sum() == pytest.approx(28.0)
    assert (ranking.prob_within_rope_of_best >= ranking.prob_best - 1e-12).all()
    # Mirror: P(i above j by more than 0) + P(j above i by more than 0) = 1 (continuous).
    rope0 = rank_cv_results(_cv_results(scores), n_draws=10, random_state=0).pairwise
    mirrored = rope0.to_numpy() + rope0.to_numpy().T
    np.testing.assert_allclose(mirrored[~np.eye(7, dtype=bool)], 1.0, atol=1e-12)


def test_mc_error_is_the_binomial_error_without_ties(rng):
    scores = _scores(rng, 10, [0.80, 0.805, 0.81])
    ranking = rank_cv_results(_cv_results(scores), n_draws=4000, random_state=0)
    p = ranking.prob_best.to_numpy()
    np.testing.assert_allclose(ranking.mc_error, np.sqrt(p * (1 - p) / 4000), rtol=1e-9)


def test_same_seed_same_result_and_the_former_keyword(rng):
    results = _cv_results(_scores(rng, 10, [0.8, 0.81, 0.805]))
    first = rank_cv_results(results, n_draws=500, random_state=3)
    second = rank_cv_results(results, n_draws=500, random_state=3)
    assert repr(first.to_dict()) == repr(second.to_dict())     # NaN diagonals
    with pytest.warns(FutureWarning, match="`n_samples` was renamed `n_draws`"):
        old = rank_cv_results(results, n_samples=500, random_state=3)
    assert repr(old.to_dict()) == repr(first.to_dict())


@needs("matplotlib")
def test_repr_html_dict_and_plot(rng):
    import matplotlib

    matplotlib.use("Agg")
    scores = _scores(rng, 5, [0.8, 0.81])
    ranking = rank_cv_results(_cv_results(scores, [{"C": 0.1, "penalty": "l2"},
                                                   {"C": 1.0, "penalty": "l2"}]),
                              n_draws=200, random_state=0)
    assert isinstance(ranking, CVResultsRanking)
    assert list(ranking.prob_best.index) == ["C=0.1, penalty=l2", "C=1.0, penalty=l2"]
    # numpy scalars (np.logspace grids) are named as Python numbers; repeated names numbered.
    named = rank_cv_results(_cv_results(scores, [{"C": np.float64(0.1)}, {"C": 0.1}]),
                            n_draws=10).names
    assert named == ("C=0.1 [0]", "C=0.1 [1]")
    text = repr(ranking)
    assert text.startswith("CVResultsRanking(prob_best={'C=0.1, penalty=l2': ")
    assert "np.float64" not in text and "n_splits=5" in text
    assert "<table" in ranking._repr_html_()
    as_dict = ranking.to_dict()
    assert as_dict["n_splits"] == 5 and as_dict["test_fraction"] == 0.2
    assert set(as_dict["pairwise"]) == set(ranking.names)
    ax = ranking.plot()
    shown = [t.get_text() for t in ax.get_yticklabels()]
    assert shown == list(ranking.expected_rank.sort_values(kind="stable").index)
    assert shown == list(ranking.summary().index)


# ---------------------------------------------------------------------------
# Exchangeable, identical, constant and clearly better candidates
# ---------------------------------------------------------------------------


def test_exchangeable_candidates_are_equally_likely_best(rng, seed):
    # Candidate j's fold scores are the same noise shifted cyclically by j folds: equal
    # means and a circulant covariance, so the posterior is invariant under the cyclic
    # relabelling of the candidates and P(best) is exactly 1/n each.
    n = 8
    noise = 0.85 + 0.02 * rng.standard_normal(n)
    scores = np.stack([np.roll(noise, j) for j in range(n)], axis=1)
    ranking = rank_cv_results(_cv_results(scores), n_draws=20_000, random_state=seed)
    for i in range(n):
        _within(ranking.prob_best.iloc[i], 1 / n, ranking.mc_error.iloc[i], k=4.5)
    assert ranking.expected_rank.to_numpy() == pytest.approx(np.full(n, (n + 1) / 2), abs=0.1)
    assert not ranking.pairwise.isna().to_numpy()[~np.eye(n, dtype=bool)].any()


@pytest.mark.slow
def test_candidates_of_one_distribution_are_best_equally_often_on_average(seed):
    # Five candidates with the same score distribution and independent noise: over many
    # searches the mean P(best) of each is 1/5.
    rng = np.random.default_rng(seed)
    totals = np.zeros(5)
    for _ in range(200):
        scores = _scores(rng, 10, np.full(5, 0.8))
        totals += rank_cv_results(_cv_results(scores), n_draws=2000,
                                  random_state=rng).prob_best.to_numpy()
    np.testing.assert_allclose(totals / 200, 0.2, atol=0.04)


def test_one_clearly_better_candidate(rng, seed):
    scores = _scores(rng, 10, [0.80, 0.81, 0.80, 0.86, 0.79], noise=0.01)
    ranking = rank_cv_results(_cv_results(scores), random_state=seed)
    assert ranking.prob_best.iloc[3] > 0.95
    assert ranking.expected_rank.iloc[3] < 1.1
    assert ranking.rank_probabilities.iloc[3, 0] == ranking.prob_best.iloc[3]


def test_identical_candidates_share_exactly(rng, seed):
    base = _scores(rng, 10, [0.80, 0.79])
    scores = np.column_stack([base[:, 0], base[:, 1], base[:, 0]])   # 0 and 2 identical
    ranking = rank_cv_results(_cv_results(scores), rope=0.0, random_state=seed)
    assert ranking.prob_best.iloc[0] == ranking.prob_best.iloc[2]
    assert ranking.prob_best.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(ranking.rank_probabilities.iloc[0],
                               ranking.rank_probabilities.iloc[2], atol=1e-12)
    # Equal means are not "better" (the t-test's point mass at 0 is equivalent).
    assert ranking.pairwise.iloc[0, 2] == ranking.pairwise.iloc[2, 0] == 0.0
    # Tied for best: both are within any rope of the best.
    assert ranking.prob_within_rope_of_best.iloc[0] == ranking.prob_within_rope_of_best.iloc[2]


def test_all_identical_candidates_are_uniform_and_never_nan():
    scores = np.tile([[0.8], [0.82], [0.79], [0.81]], (1, 3))
    ranking = rank_cv_results(_cv_results(scores), n_draws=100, random_state=0)
    np.testing.assert_allclose(ranking.prob_best, 1 / 3, atol=1e-12)
    np.testing.assert_allclose(ranking.rank_probabilities, 1 / 3, atol=1e-12)
    np.testing.assert_allclose(ranking.expected_rank, 2.0, atol=1e-12)
    np.testing.assert_allclose(ranking.prob_within_rope_of_best, 1.0)
    np.testing.assert_allclose(ranking.mc_error, 0.0, atol=1e-12)


def test_zero_variance_folds_are_point_masses():
    # Every candidate scores the same on every fold: the posterior is a point mass.
    scores = np.tile([0.9, 0.8, 0.9, 0.7], (5, 1))
    ranking = rank_cv_results(_cv_results(scores), rope=0.05, n_draws=100, random_state=0)
    assert ranking.prob_best.tolist() == [0.5, 0.0, 0.5, 0.0]
    assert ranking.mc_error.tolist() == [0.0] * 4
    assert ranking.prob_within_rope_of_best.tolist() == [1.0, 0.0, 1.0, 0.0]
    assert ranking.rank_probabilities.to_numpy().tolist() == [
        [0.5, 0.5, 0, 0], [0, 0, 1, 0], [0.5, 0.5, 0, 0], [0, 0, 0, 1]]
    assert ranking.pairwise.iloc[0, 1] == 1.0 and ranking.pairwise.iloc[1, 0] == 0.0
    assert ranking.interval().iloc[0].tolist() == [0.9, 0.9]


def test_a_constant_difference_is_a_point_mass(rng):
    # Candidate 1 is candidate 0 plus 0.01 on every fold: it is surely better.
    first = 0.8 + 0.03 * rng.standard_normal(10)
    scores = np.column_stack([first, first + 0.01, first - 0.02 + 0.01 * rng.standard_normal(10)])
    ranking = rank_cv_results(_cv_results(scores), n_draws=2000, random_state=0)
    assert ranking.prob_best.iloc[0] == 0.0
    assert ranking.pairwise.iloc[1, 0] == 1.0
    assert ranking.rank_probabilities.iloc[1, 1:].tolist()[-1] == 0.0   # never last


# ---------------------------------------------------------------------------
# Searches: repeated cross-validation, the splitter's test fraction, multi-metric
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cancer():
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import scale

    X, y = load_breast_cancer(return_X_y=True)
    return scale(X), y


def _search(cancer, cv, grid=(0.01, 0.1, 1.0), scoring="accuracy", refit=False):
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV

    X, y = cancer
    return GridSearchCV(LogisticRegression(solver="liblinear"), {"C": list(grid)}, cv=cv,
                        scoring=scoring, refit=refit).fit(X, y)


def test_repeated_cross_validation_uses_every_split_and_one_over_k(cancer):
    from sklearn.model_selection import RepeatedStratifiedKFold

    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    search = _search(cancer, cv)
    ranking = rank_cv_results(search, n_draws=200, random_state=0)
    assert ranking.n_splits == 10 and ranking.df == 9
    assert ranking.test_fraction == pytest.approx(0.2)
    first = [search.cv_results_[f"split{k}_test_score"][1] for k in range(10)]
    second = [search.cv_results_[f"split{k}_test_score"][2] for k in range(10)]
    # correlated_ttest reads repeated k-fold with test_fraction = 1/k and runs = repeats.
    expected = correlated_ttest(first, second, test_fraction=0.2, runs=2)
    assert ranking.pairwise.iloc[1, 2] == pytest.approx(expected.prob_first_better, abs=1e-9)
    # The dict alone cannot tell repeats from folds: 1/n_splits unless told.
    assert rank_cv_results(search.cv_results_, n_draws=10).test_fraction == 0.1
    assert rank_cv_results(search.cv_results_, test_fraction=0.2,
                           n_draws=10).pairwise.iloc[1, 2] == ranking.pairwise.iloc[1, 2]


def test_test_fraction_from_the_splitter(cancer):
    from sklearn.model_selection import KFold, ShuffleSplit, TimeSeriesSplit

    X, y = cancer
    assert rank_cv_results(_search(cancer, 4), n_draws=10).test_fraction == 0.25
    assert rank_cv_results(_search(cancer, KFold(3)), n_draws=10).test_fraction == \
        pytest.approx(1 / 3)
    search = _search(cancer, ShuffleSplit(4, test_size=0.3, random_state=0))
    assert rank_cv_results(search, n_draws=10).test_fraction == pytest.approx(0.3)
    splits = list(KFold(4).split(X))
    assert rank_cv_results(_search(cancer, splits), n_draws=10).test_fraction == \
        pytest.approx(np.mean([len(t) / len(X) for _, t in splits]))
    with pytest.raises(ValueError, match="`test_fraction` must be given"):
        rank_cv_results(_search(cancer, TimeSeriesSplit(3)), n_draws=10)
    assert rank_cv_results(_search(cancer, TimeSeriesSplit(3)), test_fraction=0.25,
                           n_draws=10).test_fraction == 0.25


def test_multimetric_search_reads_the_named_scorer(cancer):
    search = _search(cancer, 3, scoring={"acc": "accuracy", "f1": "f1"}, refit="f1")
    assert rank_cv_results(search, n_draws=10).scoring == "f1"     # the refit scorer
    assert rank_cv_results(search, scoring="acc", n_draws=10).scoring == "acc"
    with pytest.raises(ValueError, match=r"`scoring` must be one of the recorded scorers "
                                         r"\['acc', 'f1'\]"):
        rank_cv_results(search.cv_results_, n_draws=10)


# ---------------------------------------------------------------------------
# The refit rule
# ---------------------------------------------------------------------------


def _constructed(rng):
    """C=0.01 clearly worse; C=0.1, 1, 10 within a point of each other, surely."""
    fold = 0.01 * rng.standard_normal((10, 1))
    means = np.array([0.85, 0.948, 0.950, 0.951])
    scores = means + fold + 0.0005 * rng.standard_normal((10, 4))
    return _cv_results(scores, [{"C": c} for c in (0.01, 0.1, 1.0, 10.0)])


def test_refit_picks_the_simplest_within_the_rope(rng):
    results = _constructed(rng)
    within = SimplestWithinRopeRefit(rope=0.01).ranking(results).prob_within_rope_of_best
    assert within.iloc[0] < 0.01 and (within.iloc[1:] > 0.99).all()
    assert SimplestWithinRopeRefit(rope=0.01)(results) == 1                     # grid order
    assert SimplestWithinRopeRefit(rope=0.01, complexity="C")(results) == 1
    assert SimplestWithinRopeRefit(rope=0.01, complexity=("C", "ascending"))(results) == 1
    assert SimplestWithinRopeRefit(rope=0.01, complexity=("C", "descending"))(results) == 3
    assert SimplestWithinRopeRefit(rope=0.01, complexity=lambda p: -p["C"])(results) == 3
    # Without a rope only the best counts: the largest mean here.
    assert SimplestWithinRopeRefit(rope=0.0, threshold=0.5)(results) == int(
        np.argmax(results["mean_test_score"]))


def test_refit_falls_back_to_the_most_likely_near_best(rng):
    scores = _scores(rng, 5, [0.80, 0.80, 0.80, 0.80], noise=0.02)
    results = _cv_results(scores)
    refit = SimplestWithinRopeRefit(rope=0.0, threshold=0.99)
    within = refit.ranking(results).prob_within_rope_of_best.to_numpy()
    assert within.max() < 0.99
    assert refit(results) == int(np.argmax(within))


def test_refit_inside_grid_search(cancer):
    from sklearn.base import clone

    refit = SimplestWithinRopeRefit(rope=0.02, complexity=("C", "ascending"))
    search = _search(cancer, 5, grid=(0.001, 0.01, 0.1, 1.0, 10.0), refit=refit)
    within = refit.ranking(search.cv_results_).prob_within_rope_of_best.to_numpy()
    eligible = np.flatnonzero(within >= 0.9)
    assert search.best_index_ == eligible.min()        # grid in ascending C
    # Reference: this search's figures (liblinear, 5 stratified folds, 0.02 rope):
    # P(within rope) = [0.05, 0.53, 0.94, 0.91, 0.69], so C=0.1, the best mean too.
    assert search.best_params_ == {"C": 0.1}
    assert hasattr(search, "best_estimator_")
    # The rule clones, pickles and shows its settings.
    assert repr(clone(search).refit).startswith("SimplestWithinRopeRefit(rope=0.02")
    assert pickle.loads(pickle.dumps(refit))(search.cv_results_) == search.best_index_


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


def test_bad_cv_results():
    with pytest.raises(ValueError, match=r"`cv_results` must be the cv_results_ of a search, "
                                         r"with per-split test scores"):
        rank_cv_results({"params": [{}, {}], "mean_test_score": [0.8, 0.9]})
    with pytest.raises(ValueError, match=r"`cv_results` must be the results of at least two "
                                         r"candidates; got 1 candidate"):
        rank_cv_results(_cv_results([[0.8], [0.9], [0.7]]))
    with pytest.raises(ValueError, match=r"`cv_results` must be scores of at least two splits"):
        rank_cv_results(_cv_results([[0.8, 0.9]]))
    scores = np.full((5, 3), 0.8)
    scores[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"`cv_results` must be finite split scores .*"
                                         r"got NaN or inf in \['split2_test_score'\] for "
                                         r"candidates \[1\]"):
        rank_cv_results(_cv_results(scores))
    with pytest.raises(TypeError, match="`cv_results` must be a cv_results_ dict"):
        rank_cv_results([[0.8, 0.9], [0.7, 0.8]])
    results = _cv_results(np.full((3, 2), 0.8))
    results["params"] = [{}]
    with pytest.raises(ValueError, match="`cv_results` must be 'params' with one dict per "
                                         "candidate"):
        rank_cv_results(results)


def test_unfitted_search():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV

    with pytest.raises(ValueError, match="call fit first"):
        rank_cv_results(GridSearchCV(LogisticRegression(), {"C": [1, 2]}))


@pytest.mark.parametrize("kwargs, error, match", [
    ({"scoring": "f1"}, ValueError, r"`scoring` must be one of the recorded scorers "
                                    r"\['score'\]; got 'f1'"),
    ({"scoring": 3}, TypeError, "`scoring` must be a scorer name"),
    ({"rope": -0.1}, ValueError, "`rope` must be a finite number >= 0; got -0.1"),
    ({"rope": math.nan}, ValueError, "`rope` must be"),
    ({"test_fraction": 1.5}, ValueError, r"`test_fraction` must be None or a float in the "
                                         r"open interval \(0, 1\); got 1.5"),
    ({"test_fraction": "0.2"}, TypeError, "`test_fraction` must be"),
    ({"n_draws": 1}, ValueError, "`n_draws` must be an integer from 2"),
    ({"random_state": "x"}, TypeError, "`random_state` must be"),
])
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        rank_cv_results(_cv_results(np.full((3, 2), 0.8)), **kwargs)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"rope": 0.01, "threshold": 0.0}, ValueError, r"`threshold` must be a float in \(0, 1\]"),
    ({"rope": 0.01, "threshold": "high"}, TypeError, "`threshold` must be"),
    ({"rope": -1}, ValueError, "`rope` must be"),
    ({"rope": 0.01, "complexity": ("C", "up")}, ValueError, "`complexity` must be None, a "
                                                          "parameter name"),
    ({"rope": 0.01, "complexity": 3}, TypeError, "`complexity` must be"),
    ({"rope": 0.01, "test_fraction": 0}, ValueError, "`test_fraction` must be"),
])
def test_bad_refit_settings_fail_before_the_search(kwargs, error, match):
    with pytest.raises(error, match=match):
        SimplestWithinRopeRefit(**kwargs)


def test_refit_complexity_errors(rng):
    results = _constructed(rng)
    with pytest.raises(ValueError, match=r"`complexity` must be a parameter every candidate "
                                         r"sets; got \('gamma', 'ascending'\), missing from "
                                         r"candidates \[0, 1, 2, 3\]"):
        SimplestWithinRopeRefit(rope=0.01, complexity="gamma")(results)
    results["params"][2] = {"C": None}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match="`complexity` must be values that can be ordered"):
            SimplestWithinRopeRefit(rope=0.01, complexity="C")(results)


def test_draws_in_chunks_keep_every_figure_consistent(rng, monkeypatch):
    import skprobeval._compare._rank_cv as module

    monkeypatch.setattr(module, "_CELLS_PER_CHUNK", 700)     # chunks of 100 draws
    scores = _scores(rng, 10, [0.80, 0.805, 0.81, 0.80, 0.79, 0.812, 0.808])
    ranking = rank_cv_results(_cv_results(scores), rope=0.005, n_draws=2050, random_state=0)
    p = ranking.prob_best.to_numpy()
    np.testing.assert_allclose(ranking.mc_error, np.sqrt(p * (1 - p) / 2050), rtol=1e-9)
    np.testing.assert_allclose(ranking.rank_probabilities.sum(axis=0), 1.0, atol=1e-12)
    np.testing.assert_allclose(ranking.rank_probabilities.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(ranking.pairwise, rank_cv_results(
        _cv_results(scores), rope=0.005, n_draws=10).pairwise, atol=1e-15)


def test_refit_rule_reads_a_fitted_search_with_its_splitter(cancer):
    from sklearn.model_selection import RepeatedStratifiedKFold

    search = _search(cancer, RepeatedStratifiedKFold(n_splits=4, n_repeats=2, random_state=0))
    refit = SimplestWithinRopeRefit(rope=0.01, n_draws=500)
    assert refit.ranking(search).test_fraction == 0.25          # from the splitter
    assert refit.ranking(search.cv_results_).test_fraction == 0.125   # the dict: 1/n_splits
    assert refit(search) == SimplestWithinRopeRefit(rope=0.01, n_draws=500,
                                                    test_fraction=0.25)(search.cv_results_)
