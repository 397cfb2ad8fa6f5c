"""rank_across_datasets: the Bayesian Plackett-Luce model of ranks across data sets.

The sampler is checked against routes that share no code with it: the exact
posterior of a system that wins every data set (a Beta law), importance
sampling from the prior with the exact Plackett-Luce likelihood (ties summed
over their orders), and autorank's mean ranks.
"""

import functools
import itertools
import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from skprobeval import PlackettLuceRanking, rank_across_datasets
from skprobeval._compare._plackett_luce import _batch_means_error

SCORES = pd.DataFrame({"logreg": [0.95, 0.97, 0.88, 0.91, 0.83, 0.99, 0.90, 0.87],
                       "tree": [0.92, 0.93, 0.85, 0.92, 0.78, 0.97, 0.86, 0.88],
                       "nb": [0.93, 0.80, 0.86, 0.84, 0.80, 0.96, 0.85, 0.82]},
                      index=[f"data{i}" for i in range(8)])


def _autorank_table():
    """10 systems x 30 data sets: increasing skill plus uniform noise, columns shuffled."""
    rng = np.random.default_rng(20190)
    skill = np.linspace(0.60, 0.90, 10)
    table = pd.DataFrame(skill + 0.12 * rng.random((30, 10)),
                         columns=[f"alg{j}" for j in range(10)])
    return table[[f"alg{j}" for j in (3, 7, 0, 9, 5, 1, 8, 2, 6, 4)]]


# autorank 1.3.0: ``autorank.autorank(_autorank_table(), alpha=0.05, verbose=False)``, then
# ``result.rankdf["meanrank"].sort_values().index`` (mean ranks 1.63, 2.00, 2.70, 4.17, 5.23,
# 5.80, 6.90, 8.30, 8.73, 9.53; rank 1 = highest score, autorank's default order).
AUTORANK_ORDER = ["alg9", "alg8", "alg7", "alg6", "alg5", "alg4", "alg3", "alg2", "alg1", "alg0"]


@functools.cache
def _autorank_ranking(seed):
    """The ranking of `_autorank_table()`, shared by the stored and the live comparison."""
    return rank_across_datasets(_autorank_table(), random_state=seed)


def test_a_system_that_wins_every_data_set_is_the_best(seed):
    rng = np.random.default_rng(seed)
    values = rng.random((30, 5))
    values[:, 2] = 1.5
    # 3 000 draws: P(best) of "c" is 1.0 on 30 data sets and 0.79-0.87 on three (seeds 0, 7
    # and 11), whose Monte Carlo standard error at 3 000 chained draws is about 0.01, so
    # both bounds stay several of them away.
    ranking = rank_across_datasets(values, names=list("abcde"), n_draws=3000,
                                   random_state=seed)
    assert ranking.prob_best["c"] > 0.95
    assert ranking.prob_best.sum() == pytest.approx(1.0)
    # With three data sets the evidence is weaker: P(best) stays well below 1.
    few = rank_across_datasets(values[:3], names=list("abcde"), n_draws=3000,
                               random_state=seed)
    assert 0.3 < few.prob_best["c"] < 0.95


@pytest.mark.parametrize("n_datasets, n_systems, prior", [(30, 5, 1.0), (6, 3, 0.5)])
def test_the_winner_weight_is_the_exact_beta_posterior(seed, n_datasets, n_systems, prior):
    # A system first on every data set enters the likelihood only through its own
    # first-stage factors pi^m: the other stages depend on the others' relative weights,
    # which a Dirichlet(a) prior makes independent of pi (neutrality).  So pi's posterior
    # is exactly Beta(m + a, (n - 1) a), whatever the other systems do.
    rng = np.random.default_rng(seed)
    values = rng.random((n_datasets, n_systems))
    values[:, 0] = 2.0
    ranking = rank_across_datasets(values, prior=prior, random_state=seed)
    alpha, beta = n_datasets + prior, (n_systems - 1) * prior
    mean = alpha / (alpha + beta)
    sd = math.sqrt(alpha * beta / ((alpha + beta) ** 2 * (alpha + beta + 1)))
    per_chain = -(-ranking.n_draws // ranking.n_chains)
    error = _batch_means_error(ranking.weights, per_chain, ranking.n_chains)[0]
    assert abs(ranking.weights[:, 0].mean() - mean) < 4 * error
    assert ranking.weights[:, 0].std() == pytest.approx(sd, rel=0.1)
    # Column 1 of the rank probabilities estimates the same mean (one ranking per draw).
    assert ranking.rank_probabilities.iloc[0, 0] == pytest.approx(mean, abs=0.02)


def _brute_force(values, prior, n_prior, rng):
    """Posterior means by importance sampling from the Dirichlet(a) prior, weighting each
    draw by the exact Plackett-Luce likelihood (a data set with ties: the sum over every
    order of its tied systems), with their standard errors."""
    m, n = values.shape
    pi = rng.dirichlet(np.full(n, prior), n_prior)
    log_likelihood = np.zeros(n_prior)
    for row in values:
        total = np.zeros(n_prior)
        for perm in itertools.permutations(range(n)):
            perm = list(perm)
            if np.all(row[perm][:-1] >= row[perm][1:]):
                ordered = pi[:, perm]
                remaining = np.cumsum(ordered[:, ::-1], axis=1)[:, ::-1]
                total += np.prod(ordered[:, :-1] / remaining[:, :-1], axis=1)
        log_likelihood += np.log(total)
    w = np.exp(log_likelihood - log_likelihood.max())
    w /= w.sum()
    best = (pi == pi.max(axis=1, keepdims=True)).astype(float)
    above = (pi[:, :, None] / (pi[:, :, None] + pi[:, None, :])).reshape(n_prior, -1)
    out = {}
    for key, draws in (("best", best), ("above", above)):
        mean = w @ draws
        out[key] = mean, np.sqrt((w[:, None] ** 2 * (draws - mean) ** 2).sum(axis=0))
    return out


@pytest.mark.parametrize("values, prior", [
    # Strict rankings of 3 systems on 5 data sets.
    ([[3, 2, 1], [3, 1, 2], [2, 3, 1], [1, 3, 2], [3, 2, 1]], 1.0),
    # Ties: pairs tied, one data set where all tie (no information), another prior.
    ([[3, 3, 1], [2, 1, 2], [1, 1, 1], [1, 3, 3], [3, 2, 1], [2, 2, 3]], 0.5),
])
def test_sampler_against_importance_sampling_from_the_prior(seed, values, prior):
    values = np.asarray(values, dtype=float)
    n = values.shape[1]
    # The tolerances are 4 combined standard errors, each side's own (batch means for the
    # sampler, the importance weights' for the reference), so they follow the sizes.
    reference = _brute_force(values, prior, 25_000, np.random.default_rng(seed + 1))
    ranking = rank_across_datasets(values, prior=prior, n_draws=5000, random_state=seed)
    best, best_error = reference["best"]
    tolerance = 4 * np.hypot(ranking.mc_error.to_numpy(), best_error)
    assert np.all(np.abs(ranking.prob_best.to_numpy() - best) < tolerance)
    above, above_error = reference["above"]
    pairs = ranking.weights[:, :, None] / (ranking.weights[:, :, None]
                                           + ranking.weights[:, None, :])
    per_chain = -(-ranking.n_draws // ranking.n_chains)
    error = _batch_means_error(pairs.reshape(ranking.n_draws, -1), per_chain, ranking.n_chains)
    upper = np.triu_indices(n, 1)
    ours = ranking.prob_above.to_numpy()[upper]
    flat = np.ravel_multi_index(upper, (n, n))
    assert np.all(np.abs(ours - above[flat]) < 4 * np.hypot(error[flat], above_error[flat]))


# The stored and the live comparison share one worker (xdist_group), so that the ranking
# they share (_autorank_ranking, 0.3-0.6 s) is drawn once.
@pytest.mark.xdist_group("autorank")
def test_the_order_of_expected_ranks_is_autoranks_mean_rank_order(seed):
    """10 systems (columns) x 30 data sets (rows), as autorank takes its table."""
    ranking = _autorank_ranking(seed)
    assert list(ranking.expected_rank.sort_values().index) == AUTORANK_ORDER


@pytest.mark.xdist_group("autorank")
def test_the_order_agrees_with_autorank_live(seed):
    autorank = pytest.importorskip("autorank")
    table = _autorank_table()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = autorank.autorank(table, alpha=0.05, verbose=False)
    theirs = list(result.rankdf["meanrank"].sort_values().index)
    ranking = _autorank_ranking(seed)
    assert list(ranking.expected_rank.sort_values().index) == theirs == AUTORANK_ORDER


def test_seeded_results_are_reproducible():
    first = rank_across_datasets(SCORES, n_draws=2000, random_state=7)
    second = rank_across_datasets(SCORES, n_draws=2000, random_state=np.random.default_rng(7))
    np.testing.assert_array_equal(first.weights, second.weights)
    pd.testing.assert_frame_equal(first.rank_probabilities, second.rank_probabilities)
    pd.testing.assert_series_equal(first.prob_best, second.prob_best)
    other = rank_across_datasets(SCORES, n_draws=2000, random_state=8)
    assert not np.array_equal(first.weights, other.weights)


def test_tables_are_consistent():
    ranking = rank_across_datasets(SCORES, n_draws=4000, random_state=0)
    n = len(ranking.names)
    assert ranking.weights.shape == (4000, n)
    np.testing.assert_allclose(ranking.weights.sum(axis=1), 1.0)
    assert not ranking.weights.flags.writeable
    probabilities = ranking.rank_probabilities.to_numpy()
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    np.testing.assert_allclose(probabilities.sum(axis=0), 1.0)
    above = ranking.prob_above.to_numpy()
    off = ~np.eye(n, dtype=bool)
    np.testing.assert_allclose((above + above.T)[off], 1.0)
    assert np.isnan(np.diag(above)).all()
    # Expected ranks: exact given the draws; their sum is 1 + 2 + ... + n.
    assert ranking.expected_rank.sum() == pytest.approx(n * (n + 1) / 2)
    from_probabilities = probabilities @ np.arange(1, n + 1)
    np.testing.assert_allclose(ranking.expected_rank, from_probabilities, atol=0.05)
    np.testing.assert_allclose(probabilities[:, 0], ranking.weights.mean(axis=0), atol=0.03)
    assert list(ranking.summary().index) == ["logreg", "tree", "nb"]


def test_a_table_where_everything_ties_gives_the_prior(seed):
    # Every data set ties all systems: no information, the posterior is the Dirichlet(a)
    # prior (mean 1/n, variance (n - 1) / (n^2 (n a + 1))).
    ranking = rank_across_datasets(np.ones((5, 4)), prior=2.0, random_state=seed)
    assert ranking.n_tied == 5
    np.testing.assert_allclose(ranking.weights.mean(axis=0), 0.25, atol=0.01)
    np.testing.assert_allclose(ranking.weights.var(axis=0), 3 / (16 * 9), rtol=0.1)
    np.testing.assert_allclose(ranking.prob_best, 0.25, atol=0.03)


def test_lower_is_better_is_the_negated_table():
    losses = 1 - SCORES
    lower = rank_across_datasets(losses, higher_is_better=False, n_draws=2000, random_state=3)
    higher = rank_across_datasets(-losses, n_draws=2000, random_state=3)
    np.testing.assert_array_equal(lower.weights, higher.weights)
    assert lower.higher_is_better is False


def test_arrays_take_names():
    ranking = rank_across_datasets(SCORES.to_numpy(), names=["x", "y", "z"], n_draws=500,
                                   random_state=0)
    assert ranking.names == ("x", "y", "z")
    assert list(ranking.prob_above.columns) == ["x", "y", "z"]
    unnamed = rank_across_datasets(SCORES.to_numpy(), n_draws=500, random_state=0)
    assert unnamed.names == (0, 1, 2)
    np.testing.assert_array_equal(unnamed.weights, ranking.weights)


def test_repr_dict_and_html_are_plain():
    ranking = rank_across_datasets(SCORES, n_draws=1000, random_state=0)
    text = repr(ranking)
    assert text.startswith("PlackettLuceRanking(prob_best={'logreg': ")
    assert "np.float64" not in text and "n_draws=1000" in text
    data = ranking.to_dict()
    json.dumps(data)
    assert data["prob_best"] == pytest.approx(ranking.prob_best.to_dict())
    assert data["rank_probabilities"]["tree"][2] == ranking.rank_probabilities.loc["tree", 2]
    assert "<table" in ranking._repr_html_()
    assert isinstance(ranking, PlackettLuceRanking)


def test_plots():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ranking = rank_across_datasets(SCORES, n_draws=1000, random_state=0)
    ax = ranking.plot(confidence=0.9)
    assert ax.get_xlabel() == "expected rank (1 = best), 90% interval"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["logreg", "tree", "nb"]
    ax = ranking.plot("probabilities")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["logreg", "tree", "nb"]
    with pytest.raises(ValueError, match="`kind`"):
        ranking.plot("critical-difference")
    plt.close("all")


@pytest.mark.parametrize("scores, kwargs, error, message", [
    ({"a": [0.8, 0.7]}, {}, ValueError, "`scores` must be a table of at least one data set "
                                        "(row) and two systems (columns); got shape (2, 1)"),
    (pd.DataFrame({"a": [], "b": []}, dtype=float), {}, ValueError, "got shape (0, 2)"),
    (np.zeros((2, 3, 2)), {}, ValueError, "`scores` must be a 2-d table"),
    (pd.DataFrame({"a": [0.8, np.nan], "b": [0.7, 0.6]}, index=["iris", "wine"]), {},
     ValueError, "`scores` must be finite (no NaN or inf); got NaN or inf in rows ['wine']"),
    ([[0.8, np.inf], [0.7, 0.6]], {}, ValueError, "NaN or inf in rows [0]"),
    ({"a": ["x", "y"], "b": [0.7, 0.6]}, {}, TypeError,
     "`scores` must be a table of real scores; got non-numeric columns ['a']"),
    ([[1, 2], [2, 1]], {"names": ["a"]}, ValueError, "`names` must be one name per system (2)"),
    ([[1, 2], [2, 1]], {"names": ["a", "a"]}, ValueError, "`names` must be distinct"),
    ([[1, 2], [2, 1]], {"prior": 0.0}, ValueError, "`prior` must be a finite number > 0"),
    ([[1, 2], [2, 1]], {"prior": "uniform"}, TypeError, "`prior` must be a real number"),
    ([[1, 2], [2, 1]], {"n_draws": 1}, ValueError, "`n_draws` must be an integer from 2"),
    ([[1, 2], [2, 1]], {"n_chains": 0}, ValueError, "`n_chains` must be an integer >= 1; got 0"),
    ([[1, 2], [2, 1]], {"burn_in": -1}, ValueError, "`burn_in` must be an integer >= 0"),
    ([[1, 2], [2, 1]], {"burn_in": 1.5}, TypeError, "`burn_in` must be an integer >= 0"),
    ([[1, 2], [2, 1]], {"thin": 0}, ValueError, "`thin` must be an integer >= 1; got 0"),
    ([[1, 2], [2, 1]], {"higher_is_better": "yes"}, TypeError, "`higher_is_better` must be"),
    ([[1, 2], [2, 1]], {"random_state": -1}, ValueError, "`random_state` must be"),
])
def test_bad_input_names_the_argument(scores, kwargs, error, message):
    with pytest.raises(error) as info:
        rank_across_datasets(scores, **kwargs)
    assert message in str(info.value)


def test_result_methods_refuse_a_bad_confidence():
    ranking = rank_across_datasets(SCORES, n_draws=200, random_state=0)
    for method in (ranking.interval, ranking.expected_rank_interval, ranking.summary):
        with pytest.raises(ValueError, match="`confidence`"):
            method(1.5)


@pytest.mark.slow
def test_mc_error_matches_the_spread_across_seeds():
    # Batch means must account for the autocorrelation: on a table whose data sets mostly
    # agree the chains mix more slowly (here the binomial error sqrt(p (1 - p) / n) is about
    # 0.8 times the spread), and the reported error must match the standard deviation of
    # prob_best across independent runs.
    rng = np.random.default_rng(0)
    values = np.linspace(0, 1, 4) + 0.3 * rng.random((12, 4))
    values[:, 3] = values[:, 2] + 0.01 * rng.random(12) - 0.003    # the top two close
    runs = [rank_across_datasets(values, n_draws=2000, thin=1, random_state=s)
            for s in range(40)]
    spread = np.std([run.prob_best.to_numpy() for run in runs], axis=0, ddof=1)
    reported = np.mean([run.mc_error.to_numpy() for run in runs], axis=0)
    busy = spread > 0.005
    assert busy.sum() == 2
    np.testing.assert_allclose(reported[busy], spread[busy], rtol=0.35)
