"""Bayesian signed-rank and sign tests across data sets, and the many-system report.

References: baycomp 1.0.3 (``SignedRankTest``, ``SignTest``: the same posteriors,
sampled by another implementation, compared within Monte Carlo error); a brute-force
O(n^2) evaluation of the Walsh-average masses on the same Dirichlet draws; pandas'
``DataFrame.rank`` for mean ranks.
"""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from skprobeval import (
    bayesian_sign_test,
    bayesian_signed_rank_test,
    compare_across_datasets,
    compare_estimators_across_datasets,
)
from skprobeval._core._numerics import dirichlet

baycomp = pytest.importorskip("baycomp")


def _scores(seed):
    """Two systems' scores on 5-40 data sets, on a 0.01 grid (ties and boundary sums)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 40))
    a = np.round(rng.uniform(0.6, 0.95, n), 2)
    b = np.round(a + rng.normal(0.006 * (seed % 5 - 2), 0.02, n), 2)
    return a, b


def _close(ours, theirs, n_ours, n_theirs, k=4.0):
    """|p - q| within k combined Monte Carlo standard errors (plus a floor for p ~ 0, 1)."""
    p = (ours + theirs) / 2
    error = math.sqrt(p * (1 - p) * (1 / n_ours + 1 / n_theirs))
    return abs(ours - theirs) <= k * error + 2e-4


def _baycomp_probs(test, a, b, rope, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return test.probs(a, b, rope=rope, nsamples=20_000, random_state=1, **options)


# Two seeds (a shift towards the first system and none) stay in the fast tier for each rope;
# the other ten, about 0.2 s each, are slow.
_BAYCOMP_SEEDS = [seed if seed in (0, 2) else pytest.param(seed, marks=pytest.mark.slow)
                  for seed in range(12)]


@pytest.mark.parametrize("seed", _BAYCOMP_SEEDS)
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_signed_rank_equals_baycomp(seed, rope):
    a, b = _scores(seed)
    ours = bayesian_signed_rank_test(a, b, rope=rope, n_draws=20_000, random_state=seed)
    theirs = _baycomp_probs(baycomp.SignedRankTest, a, b, rope)
    # baycomp's (p_left, p_rope, p_right) are (first better, equivalent, second better);
    # with rope = 0 it returns (p_left, p_right).
    if rope == 0:
        assert ours.prob_equivalent == 0.0
        expected = (theirs[0], theirs[1])
        got = (ours.prob_first_better, ours.prob_second_better)
    else:
        expected = theirs
        got = (ours.prob_first_better, ours.prob_equivalent, ours.prob_second_better)
    for p, q in zip(got, expected):
        assert _close(p, q, 20_000, 20_000), (got, expected)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_sign_test_equals_baycomp(seed, rope):
    a, b = _scores(seed)
    ours = bayesian_sign_test(a, b, rope=rope, n_draws=20_000, random_state=seed)
    theirs = _baycomp_probs(baycomp.SignTest, a, b, rope)
    if rope == 0:
        # baycomp drops the rope (ties and prior) and renormalises the other two.
        won = ours.prob_first_better + ours.prob_second_better
        got = (ours.prob_first_better / won, ours.prob_second_better / won)
        n_ours = max(int(20_000 * won), 1)
    else:
        got = (ours.prob_first_better, ours.prob_equivalent, ours.prob_second_better)
        n_ours = 20_000
    for p, q in zip(got, theirs):
        assert _close(p, q, n_ours, 20_000), (got, theirs)


def test_sign_test_masses_are_the_dirichlet_of_the_counts():
    # Posterior mean masses: (n_first, n_equal + prior, n_second) / (n + prior).
    a = np.array([0.9, 0.8, 0.7, 0.7, 0.6, 0.5])
    b = np.array([0.8, 0.8, 0.75, 0.65, 0.6, 0.4])      # first better 3, equal 2, second 1
    result = bayesian_sign_test(a, b, prior_strength=1.0, n_draws=200_000, random_state=0)
    expected = np.array([3, 3, 1]) / 7
    got = np.array([result.mean_first_better, result.mean_equivalent, result.mean_second_better])
    assert np.all(np.abs(got - expected) < 4 * np.sqrt(expected * (1 - expected) / 8 / 200_000))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rope", [0.0, 0.01, 0.025])
def test_linear_pair_sums_equal_the_brute_force_double_sum(seed, rope):
    # The O(n) cumulative sums against sum_ij w_i w_j H(z_i + z_j, 2 rope) on the same
    # draws (Heaviside 1/2 at the boundary, as baycomp).
    a, b = _scores(seed)
    result = bayesian_signed_rank_test(a, b, rope=rope, prior_strength=0.5, n_draws=300,
                                       random_state=seed)
    points = np.concatenate([[0.0], a - b])
    weights = np.ones(points.shape[0])
    weights[0] = 0.5
    order = np.argsort(points, kind="stable")
    points, weights = points[order], weights[order]
    draws = dirichlet(weights, 300, np.random.default_rng(seed))
    sums = points[:, None] + points[None, :]
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (sums < -2 * rope) + 0.5 * (sums == -2 * rope)
    first = np.einsum("si,ij,sj->s", draws, above, draws)
    second = np.einsum("si,ij,sj->s", draws, below, draws)
    np.testing.assert_allclose(result.samples[:, 0], first, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(result.samples[:, 2], second, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("test", [bayesian_signed_rank_test, bayesian_sign_test])
def test_probabilities_sum_to_one_mirror_on_swap_and_reproduce(test):
    a, b = _scores(3)
    first = test(a, b, rope=0.01, n_draws=40_000, random_state=7)
    assert first.prob_first_better + first.prob_equivalent + first.prob_second_better == (
        pytest.approx(1.0, abs=1e-12))
    np.testing.assert_allclose(first.samples.sum(axis=1), 1.0, atol=1e-12)
    again = test(a, b, rope=0.01, n_draws=40_000, random_state=7)
    np.testing.assert_array_equal(first.samples, again.samples)
    assert first.prob_first_better == again.prob_first_better
    swapped = test(b, a, rope=0.01, n_draws=40_000, random_state=8)
    for p, q in ((first.prob_first_better, swapped.prob_second_better),
                 (first.prob_equivalent, swapped.prob_equivalent),
                 (first.prob_second_better, swapped.prob_first_better)):
        assert _close(p, q, 40_000, 40_000)


@pytest.mark.parametrize("test", [bayesian_signed_rank_test, bayesian_sign_test])
def test_a_rope_wider_than_every_difference_makes_them_equivalent(test):
    a, b = _scores(4)
    rope = float(np.max(np.abs(a - b))) + 0.01
    result = test(a, b, rope=rope, n_draws=5000, random_state=0)
    assert result.prob_equivalent == 1.0
    assert result.mean_equivalent == pytest.approx(1.0)


@pytest.mark.parametrize("call, name, error", [
    (lambda: bayesian_signed_rank_test([0.1, 0.2], [0.1]), "scores_b", ValueError),
    (lambda: bayesian_signed_rank_test([0.1, np.nan], [0.1, 0.2]), "scores_a", ValueError),
    (lambda: bayesian_signed_rank_test(["a"], ["b"]), "scores_a", TypeError),
    (lambda: bayesian_signed_rank_test([[0.1]], [[0.2]]), "scores_a", ValueError),
    (lambda: bayesian_signed_rank_test([], []), "scores_a", ValueError),
    (lambda: bayesian_signed_rank_test([0.1], [0.2], rope=-0.1), "rope", ValueError),
    (lambda: bayesian_sign_test([0.1], [0.2], prior_strength=-1), "prior_strength", ValueError),
    (lambda: bayesian_sign_test([0.1], [0.2], n_draws=0), "n_draws", ValueError),
    (lambda: bayesian_sign_test([0.1], [0.2], n_draws="many"), "n_draws", TypeError),
    (lambda: compare_across_datasets(pd.DataFrame({"a": [0.1, 0.2]})), "scores", ValueError),
    (lambda: compare_across_datasets(pd.DataFrame({"a": [0.1, np.nan], "b": [0.2, 0.3]})),
     "scores", ValueError),
    (lambda: compare_across_datasets(pd.DataFrame({"a": ["x"], "b": ["y"]})), "scores",
     TypeError),
    (lambda: compare_across_datasets({"a": [0.1], "b": [0.2]}, test="t"), "test", ValueError),
    (lambda: compare_across_datasets({"a": [0.1], "b": [0.2]}, higher_is_better="no"),
     "higher_is_better", TypeError),
    (lambda: compare_estimators_across_datasets({}, {"d": (1, 2, 3)}), "datasets", ValueError),
])
def test_bad_input_names_the_argument(call, name, error):
    with pytest.raises(error, match=f"`{name}`"):
        call()


@pytest.fixture(scope="module")
def table():
    """Ten data sets by four systems, with tied scores in some rows."""
    rng = np.random.default_rng(20)
    base = rng.uniform(0.6, 0.9, 10)
    table = pd.DataFrame({name: np.round(base + shift + rng.normal(0, 0.02, 10), 2)
                          for name, shift in (("w", 0.03), ("x", 0.01), ("y", 0.0),
                                              ("z", -0.02))},
                         index=[f"d{i}" for i in range(10)])
    table.loc["d3", ["x", "y"]] = 0.75
    return table


def test_mean_ranks_equal_pandas_and_pairs_equal_the_pairwise_tests(table):
    report = compare_across_datasets(table, rope=0.01, n_draws=5000, random_state=3)
    expected = table.rank(axis=1, ascending=False).mean()
    pd.testing.assert_series_equal(report.mean_ranks.sort_index(),
                                   expected.rename("mean_rank").sort_index())
    assert list(report.mean_ranks) == sorted(report.mean_ranks)
    rng = np.random.default_rng(3)
    names = list(table.columns)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            pair = bayesian_signed_rank_test(table[first], table[second], rope=0.01, n_draws=5000,
                                    random_state=rng)
            assert report.prob_better.loc[first, second] == pair.prob_first_better
            assert report.prob_better.loc[second, first] == pair.prob_second_better
            assert report.prob_equivalent.loc[second, first] == pair.prob_equivalent
    assert report.pairs.shape == (6, 9)
    assert np.isnan(np.diag(report.prob_better)).all()
    assert "Mean ranks" in str(report) and "P(practically equivalent)" in str(report)


def test_lower_is_better_flips_ranks_and_probabilities(table):
    higher = compare_across_datasets(table, n_draws=5000, random_state=1)
    lower = compare_across_datasets(-table, higher_is_better=False, n_draws=5000,
                                    random_state=1)
    pd.testing.assert_series_equal(higher.mean_ranks, lower.mean_ranks)
    pd.testing.assert_frame_equal(higher.prob_better, lower.prob_better)
    sign = compare_across_datasets(table, test="sign", rope=0.01, n_draws=5000,
                                   random_state=1)
    assert sign.test == "sign" and sign.results["w", "x"].prior_strength == 1.0


def test_plots_of_the_report(table):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    report = compare_across_datasets(table, rope=0.01, n_draws=2000, random_state=0)
    ax = report.plot()
    assert [t.get_text() for t in ax.get_xticklabels()] == list(table.columns)
    ax = report.plot("ranks")
    assert [t.get_text() for t in ax.get_yticklabels()] == list(report.mean_ranks.index)
    ax = report.plot_pair("z", "w")
    texts = " ".join(t.get_text() for t in ax.texts)
    p = report.results["w", "z"].prob_first_better
    assert f"w better\np = {p:.3f}" in texts        # the pair drawn in the order asked
    with pytest.raises(ValueError, match="`first`"):
        report.plot_pair("nope", "w")
    with pytest.raises(ValueError, match="`kind`"):
        report.plot("violin")
    plt.close("all")


def test_estimators_across_bundled_datasets():
    from sklearn.datasets import load_iris, load_wine, make_classification
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    datasets = {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True),
                "synthetic": make_classification(200, random_state=0)}
    models = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}
    report = compare_estimators_across_datasets(models, datasets, cv=3, n_draws=2000)
    assert list(report.scores.index) == list(datasets)
    assert list(report.scores.columns) == list(models)
    for name in datasets:
        np.testing.assert_array_equal(report.scores.loc[name],
                                      report.reports[name].summary["point"])
    assert set(report.results) == {("nb", "tree")}
