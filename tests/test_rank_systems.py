"""rank_systems: several systems ranked on the same items from one joint posterior.

Reference values are computed in the tests themselves by independent routes:
numpy's Dirichlet sampler over every cell of the joint table with the prior
enumerated cell by cell, the exact paired comparison (compare_paired), and
the pairwise comparisons of compare_predictions / compare_scores.
"""

import itertools

import numpy as np
import pytest
from optional import needs

from skprobeval import (
    SystemRanking,
    compare_paired,
    compare_predictions,
    compare_scores,
    rank_systems,
)


def _fixed_errors(rng, y, n_wrong, n_classes=2):
    """Predictions wrong on exactly `n_wrong` items, drawn at random."""
    pred = y.copy()
    wrong = rng.choice(y.shape[0], n_wrong, replace=False)
    pred[wrong] = (y[wrong] + rng.integers(1, n_classes, n_wrong)) % n_classes
    return pred


def _tolerance(p, n_draws, reference_draws):
    # Four standard errors of the difference of two Monte Carlo estimates.
    p = np.clip(np.asarray(p, dtype=float), 0.01, 0.99)
    return 4 * np.sqrt(p * (1 - p) * (1 / n_draws + 1 / reference_draws))


# ---------------------------------------------------------------------------
# What the ranking says
# ---------------------------------------------------------------------------


def test_equal_systems_are_equally_likely_best(rng):
    # Five systems each wrong on exactly 300 of 2 000 items (different items): the same
    # accuracy, so by symmetry P(best) = 1/5 each (Monte Carlo standard error of each
    # P(best) at 2 500 draws: sqrt(0.2 * 0.8 / 2500) = 0.008, so atol 0.05 is six of them;
    # of the expected rank, whose draws have sd sqrt(2): 0.028, and atol 0.25 is nine).
    y = rng.integers(0, 2, 2000)
    predictions = {f"s{i}": _fixed_errors(rng, y, 300) for i in range(5)}
    ranking = rank_systems(y, predictions, n_draws=2500, random_state=rng)
    np.testing.assert_allclose(ranking.prob_best, 0.2, atol=0.05)
    np.testing.assert_allclose(ranking.expected_rank, 3.0, atol=0.25)
    assert ranking.prob_best.sum() == pytest.approx(1.0)


def test_a_system_two_points_better_is_best(rng):
    # n = 10 000: 87% right against four systems at 85%.  P(best) is about 0.999, so 2 000
    # draws put it within a Monte Carlo standard error of 0.001 of that, far above 0.95.
    y = rng.integers(0, 2, 10_000)
    predictions = {f"s{i}": _fixed_errors(rng, y, 1500) for i in range(4)}
    predictions["better"] = _fixed_errors(rng, y, 1300)
    ranking = rank_systems(y, predictions, n_draws=2000, random_state=rng)
    assert ranking.prob_best["better"] > 0.95
    assert ranking.expected_rank.idxmin() == "better"
    assert (ranking.pairwise.loc["better"].drop("better") > 0.95).all()


def test_tables_are_consistent(rng):
    y = rng.integers(0, 3, 300)
    predictions = {name: np.where(rng.random(300) < accuracy, y, rng.integers(0, 3, 300))
                   for name, accuracy in (("a", 0.7), ("b", 0.68), ("c", 0.6), ("d", 0.69))}
    ranking = rank_systems(y, predictions, metric="f1", average="macro", n_draws=3000,
                           random_state=rng)
    ranks = ranking.rank_probabilities
    np.testing.assert_allclose(ranks.sum(axis=1), 1.0)
    np.testing.assert_allclose(ranks.sum(axis=0), 1.0)
    np.testing.assert_allclose(ranks[1], ranking.prob_best)
    np.testing.assert_allclose(ranking.expected_rank, ranks.to_numpy() @ np.arange(1, 5))
    pairwise = ranking.pairwise.to_numpy()
    off = ~np.eye(4, dtype=bool)
    np.testing.assert_allclose((pairwise + pairwise.T)[off], 1.0)
    # P(best) equals the share of draws where the system's value is the largest.
    values = ranking.values
    np.testing.assert_allclose(ranking.prob_best,
                               np.bincount(values.argmax(axis=1), minlength=4) / len(values))
    assert ranking.values.shape == (3000, 4) and not ranking.values.flags.writeable
    assert ranking.mc_error.max() < 0.01
    assert ranking.prob_within_rope_of_best.equals(ranking.prob_best.rename(
        "prob_within_rope_of_best"))


def test_ties_are_split_equally(rng):
    y = rng.integers(0, 2, 400)
    a = np.where(rng.random(400) < 0.8, y, 1 - y)
    b = np.where(rng.random(400) < 0.6, y, 1 - y)
    ranking = rank_systems(y, {"a": a, "a_again": a.copy(), "b": b}, n_draws=2000,
                           random_state=rng)
    assert ranking.prob_best["a"] == ranking.prob_best["a_again"] == pytest.approx(0.5, abs=0.01)
    np.testing.assert_array_equal(ranking.values[:, 0], ranking.values[:, 1])
    # Tied in every draw: neither is better, and they share ranks 1 and 2.
    assert ranking.pairwise.loc["a", "a_again"] == ranking.pairwise.loc["a_again", "a"] == 0
    assert ranking.rank_probabilities.loc["a", 1] == pytest.approx(
        ranking.rank_probabilities.loc["a", 2], abs=0.01)
    assert ranking.expected_rank["a"] == pytest.approx(1.5, abs=0.01)
    np.testing.assert_allclose(ranking.rank_probabilities.sum(axis=0), 1.0)
    assert ranking.prob_within_rope_of_best["a"] == pytest.approx(
        ranking.prob_within_rope_of_best["a_again"])


def test_lower_is_better_metrics_rank_the_other_way(rng):
    y = rng.integers(0, 2, 500)
    predictions = {name: np.where(rng.random(500) < accuracy, y, 1 - y)
                   for name, accuracy in (("a", 0.8), ("b", 0.75), ("c", 0.78))}
    accuracy = rank_systems(y, predictions, metric="accuracy", n_draws=2000, random_state=3)
    error = rank_systems(y, predictions, metric="error", n_draws=2000, random_state=3)
    assert not error.higher_is_better
    np.testing.assert_allclose(error.values, 1 - accuracy.values, atol=1e-12)
    np.testing.assert_allclose(error.prob_best, accuracy.prob_best)
    np.testing.assert_allclose(error.pairwise, accuracy.pairwise)


def test_rope_gives_practical_equivalence(rng):
    y = rng.integers(0, 2, 2000)
    predictions = {f"s{i}": _fixed_errors(rng, y, 300 + 2 * i) for i in range(3)}
    plain = rank_systems(y, predictions, n_draws=2000, random_state=0)
    wide = rank_systems(y, predictions, rope=0.05, n_draws=2000, random_state=0)
    # Within 5 points of the best in every draw; never better by more than 5 points.
    np.testing.assert_allclose(wide.prob_within_rope_of_best, 1.0)
    assert np.nanmax(wide.pairwise.to_numpy()) == 0.0
    np.testing.assert_allclose(wide.prob_best, plain.prob_best)
    assert wide.rope == 0.05


def test_seeded_results_repeat(rng):
    y = rng.integers(0, 2, 200)
    predictions = {name: np.where(rng.random(200) < 0.8, y, 1 - y) for name in "abc"}
    first = rank_systems(y, predictions, metric="mcc", n_draws=500, random_state=7)
    second = rank_systems(y, predictions, metric="mcc", n_draws=500, random_state=7)
    np.testing.assert_array_equal(first.values, second.values)


# ---------------------------------------------------------------------------
# Against independent routes
# ---------------------------------------------------------------------------


def _brute_force_ranks(values, rope):
    """Every figure of `ranking_from_draws` draw by draw, from its definition: a group
    of e tied systems holds each of its e positions (and shares "best") with 1/e."""
    n_draws, n = values.shape
    ranks, credit = np.zeros((n, n)), np.zeros((n_draws, n))
    for d, row in enumerate(values):
        for i in range(n):
            if np.isnan(row[i]):
                # NaN ranks after every number (where argsort puts it), alone.
                above, tied = np.sum(~np.isnan(row)) + np.sum(np.isnan(row[:i])), 1
            else:
                above, tied = np.sum(row > row[i]), np.sum(row == row[i])
            ranks[i, above:above + tied] += 1.0 / tied
            credit[d, i] = (above == 0) / tied
    with np.errstate(invalid="ignore"):
        pairwise = np.mean(values[:, :, None] - values[:, None, :] > rope, axis=0)
        within = np.mean(values >= np.max(values, axis=1, keepdims=True) - rope, axis=0)
    np.fill_diagonal(pairwise, np.nan)
    error = np.sqrt(np.mean(np.square(credit - credit.mean(axis=0)), axis=0) / n_draws)
    return ranks / n_draws, credit.mean(axis=0), error, pairwise, within


@pytest.mark.parametrize("case", ["distinct", "apart", "ties", "nan", "many"])
@pytest.mark.parametrize("rope", [0.0, 0.3])
@pytest.mark.parametrize("chunks", [False, True], ids=["one-chunk", "chunks"])
def test_ranking_from_draws_agrees_with_the_definitions(rng, case, rope, chunks, monkeypatch):
    # The tallies of ranks and pairs (one sort per draw, pairs compared by rank position
    # or by value) against every draw ranked by its definition.  "apart": systems 3
    # standard deviations apart, so that some pairs never meet (their positions are
    # not compared); ties: coarse values tie in some draws, and the two first systems
    # in all; "many": 300 systems, more rank positions than a byte holds.
    from skprobeval._compare import _ranking_result, ranking_from_draws

    n_draws, n = (20, 300) if case == "many" else (300, 6)
    spread = {"apart": 15.0, "ties": 6.0}.get(case, 1.0)
    values = rng.normal(size=(n_draws, n)) + np.linspace(0.0, spread, n)[rng.permutation(n)]
    if case == "ties":
        values = np.round(values)
        values[:, 1] = values[:, 0]
    if case == "nan":
        # In the later draws only: the first chunks have none.
        values[100:][rng.random((n_draws - 100, n)) < 0.02] = np.nan
    if chunks:
        # Chunks of 16 draws (and of 48 for the values): with ties, some chunks have
        # none; with NaN, the first chunks' positions are recorded before one has NaN.
        monkeypatch.setattr(_ranking_result, "_RANK_CELLS", 16 * n)
        monkeypatch.setattr(_ranking_result, "_VALUE_CELLS", 48 * n)
    ranking = ranking_from_draws(values, list(range(n)), metric="accuracy", average="binary",
                                 prior=0.5, rope=rope, higher_is_better=True, pooling="none")
    ranks, best, error, pairwise, within = _brute_force_ranks(values, rope)
    np.testing.assert_allclose(ranking.rank_probabilities.to_numpy(), ranks, atol=1e-12)
    np.testing.assert_allclose(ranking.prob_best.to_numpy(), best, atol=1e-12)
    np.testing.assert_allclose(ranking.mc_error.to_numpy(), error, atol=1e-12)
    np.testing.assert_array_equal(ranking.pairwise.to_numpy(), pairwise)
    np.testing.assert_allclose(ranking.prob_within_rope_of_best.to_numpy(), within,
                               atol=1e-12)
    lower = ranking_from_draws(-values, list(range(n)), metric="error", average="binary",
                               prior=0.5, rope=rope, higher_is_better=False, pooling="none")
    np.testing.assert_array_equal(lower.pairwise.to_numpy(), pairwise)


def _prior_of_cell(cell, n_classes, lam):
    """The N-system prior of one cell (truth, predictions), enumerated directly:
    2d per truth, split by a fair coin per system (right or wrong), the wrong
    systems sharing one wrong label uniform among the K - 1 others."""
    d = lam if n_classes == 2 else 2 * lam / n_classes
    truth, predictions = cell[0], cell[1:]
    wrong = {p for p in predictions if p != truth}
    if len(wrong) > 1:
        return 0.0
    n_systems = len(predictions)
    return 2 * d / 2 ** n_systems / (n_classes - 1 if wrong else 1)


def _brute_force_values(y, systems, n_classes, lam, n_draws, rng, average):
    """F1 (binary, class 1 positive) or macro F1 of every system, from numpy Gamma
    draws over every cell of the (truth, system 1, ..., system N) table (a Dirichlet
    draw times its total); macro F1 adds to each label's TP a Gamma(lam - d) mass, the
    same for every system (the F-score's own lam on TP)."""
    cells = np.array(list(itertools.product(range(n_classes), repeat=len(systems) + 1)))
    prior = np.array([_prior_of_cell(tuple(c), n_classes, lam) for c in cells])
    code = np.zeros(y.shape[0], dtype=int)
    for labels in [y, *systems]:
        code = code * n_classes + labels
    alpha = np.bincount(code, minlength=cells.shape[0]) + prior
    keep = alpha > 0
    draws = rng.standard_gamma(alpha[keep], size=(n_draws, int(keep.sum())))
    cells = cells[keep]
    labels_averaged = [1] if average == "binary" else range(n_classes)
    extra = 0.0 if average == "binary" else lam - 2 * lam / n_classes
    own = rng.standard_gamma(extra, size=(n_draws, n_classes)) if extra else \
        np.zeros((n_draws, n_classes))
    values = []
    for j in range(len(systems)):
        per_label = []
        for label in labels_averaged:
            true, pred = cells[:, 0] == label, cells[:, 1 + j] == label
            tp = draws[:, true & pred].sum(1) + own[:, label]
            fp = draws[:, ~true & pred].sum(1)
            fn = draws[:, true & ~pred].sum(1)
            per_label.append(2 * tp / (2 * tp + fp + fn))
        values.append(np.mean(per_label, axis=0))
    return np.stack(values, axis=1)


@pytest.mark.parametrize("n_classes, average", [
    (2, "binary"), pytest.param(3, "macro", marks=pytest.mark.slow)])
def test_agrees_with_a_brute_force_dirichlet(rng, n_classes, average):
    # Three systems, 40 items: every cell of the K^(N+1) table drawn by numpy with
    # the prior enumerated cell by cell (16 cells for K = 2, 45 with prior mass of
    # 81 for K = 3), against the table's own draw of its prior cells.
    y = rng.integers(0, n_classes, 40)
    systems = [np.where(rng.random(40) < accuracy, y, rng.integers(0, n_classes, 40))
               for accuracy in (0.8, 0.75, 0.7)]
    # The tolerances are four standard errors of the difference of the two Monte Carlo
    # estimates at these sizes (_tolerance), so they follow the draws.
    n_draws, reference_draws = 8000, 30_000
    # The joint table's own posterior: pooling="none" (pooling is tested below).
    ranking = rank_systems(y, dict(zip("abc", systems)), metric="f1", average=average,
                           pooling="none", n_draws=n_draws, random_state=rng)
    reference = _brute_force_values(y, systems, n_classes, 0.5, reference_draws, rng, average)
    best = np.bincount(reference.argmax(axis=1), minlength=3) / reference_draws
    np.testing.assert_array_less(np.abs(ranking.prob_best - best),
                                 _tolerance(best, n_draws, reference_draws))
    above = (reference[:, :, None] > reference[:, None, :]).mean(axis=0)
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_array_less(np.abs(ranking.pairwise.to_numpy() - above)[off],
                                 _tolerance(above, n_draws, reference_draws)[off])
    np.testing.assert_array_less(np.abs(ranking.values.mean(axis=0) - reference.mean(axis=0)),
                                 4 * reference.std(axis=0) / np.sqrt(n_draws))


def test_the_prior_of_two_systems_is_the_paired_prior():
    # The enumerated N-system prior summed over a third system's prediction is the
    # two-system prior of compare_paired_metric: d/2 both right, d/(2(K-1)) on
    # one-right and same-mistake cells, 0 where both are wrong differently.
    n_classes, lam = 4, 0.5
    d = 2 * lam / n_classes
    for t, a, b in itertools.product(range(n_classes), repeat=3):
        summed = sum(_prior_of_cell((t, a, b, c), n_classes, lam) for c in range(n_classes))
        if a == t and b == t:
            expected = d / 2
        elif a == t or b == t or a == b:
            expected = d / (2 * (n_classes - 1))
        else:
            expected = 0.0
        assert summed == pytest.approx(expected)


@pytest.mark.parametrize("metric, average, n_classes", [
    ("f1", "binary", 2), pytest.param("mcc", "binary", 2, marks=pytest.mark.slow),
    ("f1", "macro", 3),
    pytest.param("precision", "weighted", 3, marks=pytest.mark.slow)])
def test_two_systems_agree_with_compare_predictions(rng, metric, average, n_classes):
    y = rng.integers(0, n_classes, 300)
    predictions = {name: np.where(rng.random(300) < accuracy, y,
                                  rng.integers(0, n_classes, 300))
                   for name, accuracy in (("a", 0.8), ("b", 0.76))}
    n_draws = 4000     # the tolerance is four standard errors at this size (_tolerance)
    ranking = rank_systems(y, predictions, metric=metric, average=average, n_draws=n_draws,
                           random_state=rng)
    report = compare_predictions(y, predictions, metric=metric, average=average,
                                 n_draws=n_draws, random_state=rng)
    expected = report.pairwise_metric.loc["a", "b"]
    assert abs(ranking.pairwise.loc["a", "b"] - expected) < _tolerance(expected, n_draws,
                                                                       n_draws)
    assert ranking.prob_best["a"] == pytest.approx(ranking.pairwise.loc["a", "b"])


@pytest.mark.parametrize("n_classes", [2, pytest.param(3, marks=pytest.mark.slow)])  # 0.3 s
def test_two_systems_accuracy_agrees_with_the_exact_paired_comparison(rng, n_classes):
    # P(first better) depends only on the masses of 'first right alone' and 'second
    # right alone': lambda each in both models (compare_paired's closed form).
    y = rng.integers(0, n_classes, 200)
    a = np.where(rng.random(200) < 0.8, y, (y + 1) % n_classes)
    b = np.where(rng.random(200) < 0.76, y, (y + n_classes - 1) % n_classes)
    n_draws = 4000     # the tolerance is four standard errors at this size (_tolerance)
    ranking = rank_systems(y, {"a": a, "b": b}, average="binary" if n_classes == 2 else "micro",
                           n_draws=n_draws, random_state=rng)
    exact = compare_paired(y, a, b).prob_first_better
    assert abs(ranking.pairwise.loc["a", "b"] - exact) < _tolerance(exact, n_draws, np.inf)


@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
def test_scores_of_two_systems_are_compare_scores(rng, metric):
    # The same per-item Gamma weights in the same order: the same draws, the same
    # probability to the last digit.
    y = rng.integers(0, 2, 300)
    a, b = y + rng.normal(0, 1.0, 300), y + rng.normal(0, 1.2, 300)
    ranking = rank_systems(y, {"a": a, "b": b}, metric=metric, n_draws=1000, random_state=5)
    pair = compare_scores(y, a, b, metric=metric, n_draws=1000, random_state=5)
    assert ranking.pairwise.loc["a", "b"] == pytest.approx(pair.prob_first_better, abs=1e-12)
    # The default boundary mass: 0.1 for AUC; for AP 0.1 up to 30 positives, 3 / P above.
    assert ranking.prior == pytest.approx(3 / y.sum() if metric == "average_precision" else 0.1,
                                          rel=1e-12)


def test_scores_of_several_systems(rng):
    y = rng.integers(0, 2, 500)
    scores = {f"s{i}": y + rng.normal(0, 0.6 + 0.4 * i, 500) for i in range(4)}
    ranking = rank_systems(y, scores, metric="roc_auc", n_draws=2000, random_state=rng)
    assert ranking.expected_rank.idxmin() == "s0" and ranking.prob_best["s0"] > 0.9


def test_multilabel_two_systems_agree_with_compare_predictions(rng):
    y = (rng.random((300, 3)) < 0.4).astype(int)
    predictions = {name: np.where(rng.random((300, 3)) < accuracy, y, 1 - y)
                   for name, accuracy in (("a", 0.85), ("b", 0.8))}
    n_draws = 3000
    ranking = rank_systems(y, predictions, metric="f1", average="macro", n_draws=n_draws,
                           random_state=rng)
    expected = compare_predictions(y, predictions, metric="f1", average="macro",
                                   n_draws=n_draws, random_state=rng).pairwise_metric.loc["a", "b"]
    assert abs(ranking.pairwise.loc["a", "b"] - expected) < _tolerance(expected, n_draws,
                                                                       n_draws)


def test_dataframe_input(rng):
    import pandas as pd

    y = rng.integers(0, 2, 400)
    frame = pd.DataFrame({name: np.where(rng.random(400) < accuracy, y, 1 - y)
                          for name, accuracy in (("a", 0.8), ("b", 0.7), ("c", 0.75))})
    from_frame = rank_systems(y, frame, n_draws=2000, random_state=1)
    from_dict = rank_systems(y, {c: frame[c].to_numpy() for c in frame}, n_draws=2000,
                             random_state=1)
    np.testing.assert_array_equal(from_frame.values, from_dict.values)


@pytest.mark.slow
def test_dask_arrays_are_counted_as_distinct_rows(rng):
    # Dask input reaches the table as distinct label combinations with their item
    # counts as weights: the same posterior, drawn in another order.
    import pandas as pd

    da = pytest.importorskip("dask.array")
    y = rng.integers(0, 2, 400)
    frame = pd.DataFrame({name: np.where(rng.random(400) < accuracy, y, 1 - y)
                          for name, accuracy in (("a", 0.8), ("b", 0.7), ("c", 0.75))})
    lazy = {c: da.from_array(frame[c].to_numpy(), chunks=100) for c in frame}
    from_dask = rank_systems(da.from_array(y, chunks=100), lazy, n_draws=20_000,
                             random_state=1)
    eager = rank_systems(y, {c: frame[c].to_numpy() for c in frame}, n_draws=20_000,
                         random_state=2)
    np.testing.assert_array_less(np.abs(from_dask.prob_best - eager.prob_best),
                                 _tolerance(eager.prob_best, 20_000, 20_000))


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


def test_a_system_of_another_length_is_named():
    y = [0, 1, 1, 0, 1]
    with pytest.raises(ValueError, match=r"predictions\['b'\].*same number of samples.*5 and 4"):
        rank_systems(y, {"a": [0, 1, 1, 0, 1], "b": [0, 1, 1, 0]})
    with pytest.raises(ValueError, match=r"predictions\['b'\].*5 and 4"):
        rank_systems(y, {"a": [0.1, 0.9, 0.8, 0.3, 0.7], "b": [0.1, 0.9, 0.8, 0.3]},
                     metric="roc_auc")


def test_one_system_is_refused():
    with pytest.raises(ValueError, match="`predictions` must be at least two systems"):
        rank_systems([0, 1, 1], {"a": [0, 1, 0]})
    with pytest.raises(ValueError, match="at least two systems"):
        rank_systems([0, 1, 1], {})


def test_nan_labels_unknown_metrics_and_bad_options_are_refused():
    y = [0, 1, 1, 0, 1, 0]
    a, b = [0, 1, 0, 0, 1, 1], [1, 1, 1, 0, 0, 0]
    with pytest.raises(ValueError, match="NaN"):
        rank_systems(y, {"a": [0, 1, np.nan, 0, 1, 1], "b": b})
    with pytest.raises(ValueError, match="NaN"):
        rank_systems([0, 1, np.nan, 0, 1, 0], {"a": a, "b": b})
    with pytest.raises(ValueError, match="`metric`"):
        rank_systems(y, {"a": a, "b": b}, metric="accuracy_of_sorts")
    with pytest.raises(ValueError, match="`average`.*one number per system"):
        rank_systems(y, {"a": a, "b": b}, average=None)
    with pytest.raises(ValueError, match="`average`"):
        rank_systems(y, {"a": a, "b": b}, metric="roc_auc", average="macro")
    with pytest.raises(ValueError, match="`rope`"):
        rank_systems(y, {"a": a, "b": b}, rope=1.0)
    with pytest.raises(TypeError, match="`predictions`"):
        rank_systems(y, [a, b])
    with pytest.raises(ValueError, match="`n_draws`"):
        rank_systems(y, {"a": a, "b": b}, n_draws=1)


def test_repeated_column_names_are_refused():
    import pandas as pd

    frame = pd.DataFrame([[0, 1], [1, 1], [1, 0]], columns=["a", "a"])
    with pytest.raises(ValueError, match="repeated names"):
        rank_systems([0, 1, 1], frame)


# ---------------------------------------------------------------------------
# The result object
# ---------------------------------------------------------------------------


@needs("matplotlib")
def test_result_presentation(rng):
    import matplotlib

    matplotlib.use("Agg")
    y = rng.integers(0, 2, 200)
    predictions = {name: np.where(rng.random(200) < accuracy, y, 1 - y)
                   for name, accuracy in (("a", 0.8), ("b", 0.7), ("c", 0.75))}
    ranking = rank_systems(y, predictions, n_draws=1000, random_state=0)
    assert isinstance(ranking, SystemRanking)
    text = repr(ranking)
    assert text.startswith("SystemRanking(metric='accuracy'") and "np.float64" not in text
    assert "<table" in ranking._repr_html_()
    as_dict = ranking.to_dict()
    assert set(as_dict["prob_best"]) == {"a", "b", "c"}
    assert as_dict["rank_probabilities"]["a"][1] == ranking.rank_probabilities.loc["a", 1]
    summary = ranking.summary(0.9)
    assert list(summary.index) == list(ranking.expected_rank.sort_values().index)
    assert (summary["low"] < summary["mean"]).all() and (summary["mean"] < summary["high"]).all()
    ax = ranking.plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == list(summary.index)
    with pytest.raises(ValueError, match="`confidence`"):
        ranking.interval(1.5)
    with pytest.raises(AttributeError):
        ranking.rope = 0.1


def test_the_sparse_map_gives_the_dense_map_draws(rng, monkeypatch):
    # Large tables map cells to per-label sums with a sparse matrix: the same
    # variates, the same sums up to rounding.  (Six classes: a prior of 216 cells,
    # drawn by sticks.)
    import skprobeval._compare._joint_systems as module

    y = rng.integers(0, 6, 300)
    predictions = {name: np.where(rng.random(300) < 0.7, y, rng.integers(0, 6, 300))
                   for name in "abc"}
    dense = rank_systems(y, predictions, metric="f1", average="macro", n_draws=500,
                         random_state=4)
    monkeypatch.setattr(module, "_DENSE_MAP", 0)
    sparse = rank_systems(y, predictions, metric="f1", average="macro", n_draws=500,
                          random_state=4)
    np.testing.assert_allclose(sparse.values, dense.values, rtol=1e-12)


@pytest.mark.parametrize("kind", ["binary", "multiclass", "multilabel"])
def test_small_tables_drawn_whole_agree_with_the_stick_broken_prior(rng, kind, monkeypatch):
    # Tables with few prior cells draw every cell (16 for a binary truth and three
    # systems, 45 for three classes); the sticks draw the same posterior.  Compared
    # with the sticks forced: P(best), pairwise and the metric's mean and spread
    # within four standard errors of the difference of two Monte Carlo estimates.
    import skprobeval._compare._joint_systems as module

    n_items = 60
    if kind == "multilabel":
        y = rng.integers(0, 2, (n_items, 2))
        predictions = {name: np.where(rng.random((n_items, 2)) < accuracy, y, 1 - y)
                       for name, accuracy in zip("abc", (0.85, 0.8, 0.75))}
        options = {"metric": "f1", "average": "macro"}
    else:
        k = 2 if kind == "binary" else 3
        y = rng.integers(0, k, n_items)
        predictions = {name: np.where(rng.random(n_items) < accuracy, y,
                                      rng.integers(0, k, n_items))
                       for name, accuracy in zip("abc", (0.85, 0.8, 0.75))}
        options = {"metric": "f1", "average": "binary" if k == 2 else "macro"}
    n_draws = 20_000
    whole = rank_systems(y, predictions, pooling="none", n_draws=n_draws, random_state=rng,
                         **options)
    monkeypatch.setattr(module, "DENSE_PRIOR_CELLS", 0)
    sticks = rank_systems(y, predictions, pooling="none", n_draws=n_draws, random_state=rng,
                          **options)
    np.testing.assert_array_less(np.abs(whole.prob_best - sticks.prob_best),
                                 _tolerance(sticks.prob_best, n_draws, n_draws))
    off = ~np.eye(3, dtype=bool)
    above = sticks.pairwise.to_numpy()
    np.testing.assert_array_less(np.abs(whole.pairwise.to_numpy() - above)[off],
                                 _tolerance(above, n_draws, n_draws)[off])
    spread = sticks.values.std(axis=0)
    np.testing.assert_array_less(np.abs(whole.values.mean(axis=0) - sticks.values.mean(axis=0)),
                                 4 * spread * np.sqrt(2 / n_draws))
    # The spread's standard error, about sd / sqrt(2 n) for near-normal draws.
    np.testing.assert_array_less(np.abs(whole.values.std(axis=0) - spread),
                                 4 * spread * np.sqrt(1 / n_draws))


def test_labels_by_name_and_in_another_order(rng):
    # String labels and a shuffled item order: the same table, the same posterior
    # (drawn in another order: within Monte Carlo error).
    y = rng.integers(0, 2, 500)
    predictions = {name: np.where(rng.random(500) < accuracy, y, 1 - y)
                   for name, accuracy in (("a", 0.8), ("b", 0.78), ("c", 0.7))}
    names = np.array(["ham", "spam"])
    as_text = rank_systems(names[y], {k: names[v] for k, v in predictions.items()},
                           metric="f1", pos_label="spam", n_draws=2000, random_state=0)
    as_int = rank_systems(y, predictions, metric="f1", n_draws=2000, random_state=0)
    np.testing.assert_array_equal(as_text.values, as_int.values)
    order = rng.permutation(500)
    shuffled = rank_systems(y[order], {k: v[order] for k, v in predictions.items()},
                            metric="f1", n_draws=2000, random_state=1)
    np.testing.assert_array_less(np.abs(shuffled.prob_best - as_int.prob_best),
                                 _tolerance(as_int.prob_best, 2000, 2000))


# ---------------------------------------------------------------------------
# Partial pooling
# ---------------------------------------------------------------------------


def _pooled_moments_by_quadrature(mean, cov, width, log_prior=None):
    """Posterior mean and covariance of the hierarchical normal model, by
    integrating over the spread with scipy's adaptive quadrature (an independent
    route: no grid, no draws); `log_prior` of the spread, uniform by default."""
    from scipy import integrate

    n = mean.size
    ones = np.ones(n)

    def parts(tau):
        total = cov + tau ** 2 * np.eye(n)
        inverse = np.linalg.inv(total)
        a = ones @ inverse @ ones
        mu = ones @ inverse @ mean / a
        log_like = (-0.5 * np.linalg.slogdet(total)[1] - 0.5 * np.log(a)
                    - 0.5 * (mean - mu) @ inverse @ (mean - mu))
        # theta | tau, y: mu integrated out (Gaussian in mu, linear in theta).
        shrink = tau ** 2 * inverse
        centre = mu + shrink @ (mean - mu * ones)
        lift = (np.eye(n) - shrink) @ ones
        covariance = tau ** 2 * cov @ inverse + np.outer(lift, lift) / a
        return log_like, centre, covariance

    def log_weight(tau):
        return parts(tau)[0] + (0.0 if log_prior is None else float(log_prior(tau)))

    peak = max(log_weight(t) for t in np.linspace(1e-4, width, 200))

    def weight(tau):
        return np.exp(log_weight(tau) - peak)

    def moments(tau):      # the weight, and the weight times theta's first two moments
        _, centre, covariance = parts(tau)
        return weight(tau) * np.concatenate(
            [[1.0], centre, (covariance + np.outer(centre, centre)).ravel()])

    # One adaptive quadrature of the whole vector (the weight's normaliser, the n means
    # and the n^2 second moments share their evaluations of the integrand).
    points = np.geomspace(1e-5, width, 40)
    total = integrate.quad_vec(moments, 0, width, points=points, limit=400, epsrel=1e-10)[0]
    first = total[1:n + 1] / total[0]
    second = total[n + 1:].reshape(n, n) / total[0]
    return first, second - np.outer(first, first)


# 50 000 draws in the fast tier (0.4 s); 200 000 draws (1.5-3 s a spread) and the clear
# difference in the slow tier.
@pytest.mark.parametrize("spread, n_draws", [
    (0.002, 50_000), pytest.param(0.002, 200_000, marks=pytest.mark.slow),
    pytest.param(0.03, 200_000, marks=pytest.mark.slow)])
def test_partial_pooling_has_the_hierarchical_posteriors_moments(spread, n_draws):
    # Gaussian draws stand for the data; the pooled draws' mean and covariance
    # against adaptive quadrature over the spread tau (uniform prior on [0, 1]).
    from skprobeval._compare._pooling import partial_pooling

    rng = np.random.default_rng(11)
    mean = 0.8 + spread * np.array([-1.0, 0.3, 0.6, 1.2])
    root = rng.normal(size=(4, 4)) * 0.004 + np.eye(4) * 0.01
    cov = root @ root.T
    draws = rng.multivariate_normal(mean, cov, size=n_draws)
    pooled = partial_pooling(draws, 1.0, np.random.default_rng(3))
    # The means' tolerance is 5 standard errors; a covariance's standard error is about
    # sqrt(2 / n) sd^2 (0.0063 sd^2 at 50 000 draws, 0.0032 sd^2 at 200 000), below its
    # tolerance 0.03 sd^2 nearly 5 and 9.5 times.
    expected_mean, expected_cov = _pooled_moments_by_quadrature(draws.mean(axis=0),
                                                                np.cov(draws, rowvar=False), 1.0)
    sd = np.sqrt(np.diag(expected_cov))
    np.testing.assert_array_less(np.abs(pooled.mean(axis=0) - expected_mean),
                                 5 * sd / np.sqrt(draws.shape[0]))
    np.testing.assert_allclose(np.cov(pooled, rowvar=False), expected_cov,
                               atol=0.03 * sd.max() ** 2)
    # Small differences are pulled together; clear ones are kept.
    gap = np.ptp(pooled.mean(axis=0)) / np.ptp(mean)
    assert gap < 0.5 if spread == 0.002 else gap > 0.8      # measured: 0.33 and 0.87


@pytest.mark.slow   # 2-3 s of quadrature
def test_partial_pooling_takes_another_prior_of_the_spread():
    # A half-Cauchy prior of scale 0.005 on the spread (a candidate the coverage
    # benchmark measures): the pooled draws' moments against the same quadrature with
    # that prior, and pulled together more than under the uniform prior.
    from skprobeval._compare._pooling import partial_pooling

    def half_cauchy(tau):
        return -np.log1p((np.asarray(tau) / 0.005) ** 2)

    rng = np.random.default_rng(12)
    mean = 0.8 + 0.01 * np.array([-1.0, 0.3, 0.6, 1.2])
    root = rng.normal(size=(4, 4)) * 0.004 + np.eye(4) * 0.01
    cov = root @ root.T
    draws = rng.multivariate_normal(mean, cov, size=200_000)
    pooled = partial_pooling(draws, 1.0, np.random.default_rng(3), half_cauchy)
    expected_mean, expected_cov = _pooled_moments_by_quadrature(
        draws.mean(axis=0), np.cov(draws, rowvar=False), 1.0, half_cauchy)
    sd = np.sqrt(np.diag(expected_cov))
    np.testing.assert_array_less(np.abs(pooled.mean(axis=0) - expected_mean),
                                 5 * sd / np.sqrt(draws.shape[0]))
    np.testing.assert_allclose(np.cov(pooled, rowvar=False), expected_cov,
                               atol=0.03 * sd.max() ** 2)
    uniform = partial_pooling(draws, 1.0, np.random.default_rng(3))
    assert np.ptp(pooled.mean(axis=0)) < np.ptp(uniform.mean(axis=0))


def test_partial_pooling_keeps_identical_systems_equal_and_two_systems_as_they_are(rng):
    from skprobeval._compare._pooling import partial_pooling

    draws = rng.normal(0.8, 0.01, size=(5000, 3))
    with_copy = np.column_stack([draws[:, 0], draws, draws[:, 2]])
    pooled = partial_pooling(with_copy, 1.0, np.random.default_rng(0))
    np.testing.assert_array_equal(pooled[:, 0], pooled[:, 1])
    np.testing.assert_array_equal(pooled[:, 3], pooled[:, 4])
    assert not np.array_equal(pooled[:, 1], draws[:, 0])
    two = np.column_stack([draws[:, 0], draws[:, 0], draws[:, 1]])
    np.testing.assert_array_equal(partial_pooling(two, 1.0, np.random.default_rng(0)), two)


def test_pooled_draws_stay_in_the_metrics_range():
    # Near-perfect rankings (AP about 0.999) and a signed metric: the pooled draws,
    # and so the intervals, stay inside [0, 1] and [-1, 1]; on the metric's own scale
    # the normal model put them beyond (an interval's end at 1.007).
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(150, int), np.zeros(150, int)]
    scores = {f"s{i}": y * (3.5 + 0.3 * i) + rng.normal(size=300) for i in range(4)}
    ranking = rank_systems(y, scores, metric="average_precision", n_draws=1000, random_state=0)
    assert ranking.values.max() < 1.0 and ranking.values.min() > 0.0
    assert float(ranking.interval()["high"].max()) <= 1.0
    labels = {name: (score > 1.5).astype(int) for name, score in scores.items()}
    signed = rank_systems(y, labels, metric="informedness", n_draws=1000, random_state=0)
    assert -1.0 < signed.values.min() and signed.values.max() < 1.0
    # A metric and its complement still give mirrored draws.
    error = rank_systems(y, labels, metric="error", n_draws=1000, random_state=0)
    accuracy = rank_systems(y, labels, metric="accuracy", n_draws=1000, random_state=0)
    np.testing.assert_allclose(error.values, 1.0 - accuracy.values, atol=1e-12)


def test_pooling_tempers_near_equal_systems_only(rng):
    # Five systems a test set cannot tell apart: pooled P(best) closer to 1/5 than
    # the joint table's; a clear leader keeps P(best) near 1 either way.
    y = rng.integers(0, 2, 300)
    near = {f"s{i}": np.where(rng.random(300) < 0.8, y, 1 - y) for i in range(5)}
    pooled = rank_systems(y, near, n_draws=4000, random_state=0)
    free = rank_systems(y, near, pooling="none", n_draws=4000, random_state=0)
    assert pooled.pooling == "partial" and free.pooling == "none"
    assert np.abs(pooled.prob_best - 0.2).max() < np.abs(free.prob_best - 0.2).max()
    clear = {**near, "lead": np.where(rng.random(300) < 0.97, y, 1 - y)}
    assert rank_systems(y, clear, n_draws=4000, random_state=0).prob_best["lead"] > 0.99
    with pytest.raises(ValueError, match="`pooling` must be 'partial' or 'none'; got 'full'"):
        rank_systems(y, near, pooling="full")
