"""`compare_counts`: systems compared and ranked from their confusion counts alone.

References: the systems' own posteriors (`metric_posterior`), `compare_independent`'s exact
probabilities, independent NumPy Beta draws for the ranks (within four Monte Carlo standard
errors), prob_conf_mat 0.4's rank probabilities of the same leaderboard (stored from its
call, and live when it is installed), and the pooled counts for runs that do not differ.
These references are of each system's own posterior: they are checked with
``pooling="none"``; the partially pooled ranking (the default) is checked against the
hierarchical model's own properties and against the figures stored before pooling existed.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from optional import needs

from skprobeval import (
    ConfusionCounts,
    compare_counts,
    compare_independent,
    compare_predictions,
    metric_posterior,
    rank_systems,
)

# Tötsch & Hoffmann (2020), Table 3: the Kaggle "Recursion Cellular Image Classification"
# top ten, counts reconstructed from the leaderboard's accuracy and size (a balanced
# binary table per team: TP = TN, FN = FP), as prob_conf_mat's replication reads them.
TABLE_3 = pd.DataFrame(
    [[7544, 18, 18, 7544], [7537, 25, 25, 7537], [7531, 31, 31, 7531],
     [7525, 37, 37, 7525], [7524, 38, 38, 7524], [7515, 47, 47, 7515],
     [7509, 53, 53, 7509], [7509, 53, 53, 7509], [7507, 55, 55, 7507],
     [7504, 58, 58, 7504]],
    columns=["tp", "fn", "fp", "tn"],
    index=["3467175", "3394520", "3338942", "3339018", "3338836", "3429037", "3346448",
           "3338664", "3338358", "3339624"])

# prob_conf_mat 0.4.0, Study(seed=0, num_samples=100_000), add_metric("acc"), each team an
# experiment with confusion_matrix [[TP, FN], [FP, TN]] and the default priors;
# get_listwise_comparsion_result(metric="acc").p_rank_given_experiment, rows in the order
# above, ranks 1-5 (the later ranks are the complement of these and of each other).
PROB_CONF_MAT_RANKS = np.array([
    [0.934, 0.063, 0.002, 0.000, 0.000],
    [0.063, 0.802, 0.121, 0.013, 0.001],
    [0.002, 0.121, 0.664, 0.163, 0.047],
    [0.000, 0.009, 0.124, 0.446, 0.363],
    [0.000, 0.005, 0.088, 0.358, 0.462],
    [0.000, 0.000, 0.001, 0.018, 0.097],
    [0.000, 0.000, 0.000, 0.001, 0.012],
    [0.000, 0.000, 0.000, 0.001, 0.012],
    [0.000, 0.000, 0.000, 0.000, 0.005],
    [0.000, 0.000, 0.000, 0.000, 0.001],
])


def _tables():
    return {"a": ConfusionCounts(90, 10, 12, 88), "b": ConfusionCounts(80, 15, 20, 85),
            "c": ConfusionCounts(85, 12, 15, 88)}


# ---------------------------------------------------------------------------
# One run per system
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["accuracy", "f1", "precision", "informedness"])
def test_summary_is_each_systems_own_posterior(metric):
    report = compare_counts(_tables(), metric=metric, random_state=0)
    for name, counts in _tables().items():
        posterior = metric_posterior(counts, metric=metric)
        row = report.summary.loc[name]
        assert row["mean"] == pytest.approx(posterior.mean(), rel=1e-12)
        assert row["low"] == pytest.approx(posterior.interval(0.95).low, rel=1e-12)
        assert row["high"] == pytest.approx(posterior.interval(0.95).high, rel=1e-12)
        assert row["tp"] == float(counts.tp)


@pytest.mark.parametrize("metric", ["accuracy", "f1", "informedness", "error"])
def test_pairs_are_compare_independents_exact_probabilities(metric):
    report = compare_counts(_tables(), metric=metric, pooling="none", random_state=0)
    tables = _tables()
    for _, pair in report.pairs.iterrows():
        exact = compare_independent(tables[pair["first"]], tables[pair["second"]],
                                    metric=metric)
        assert exact.method == "exact"
        assert pair["prob_first_better"] == pytest.approx(exact.prob_first_better, abs=1e-12)
        assert pair["mc_error"] == 0.0
        assert report.pairwise_metric.loc[pair["first"], pair["second"]] == pytest.approx(
            exact.prob_first_better, abs=1e-12)
    assert report.independent
    assert "unpaired" in str(report)


def test_dataframe_of_counts_equals_the_dict_of_counts():
    frame = pd.DataFrame({name: {"tp": float(c.tp), "fp": float(c.fp), "fn": float(c.fn),
                                 "tn": float(c.tn)} for name, c in _tables().items()}).T
    from_frame = compare_counts(frame, metric="f1", random_state=3)
    from_dict = compare_counts(_tables(), metric="f1", random_state=3)
    pd.testing.assert_frame_equal(from_frame.summary, from_dict.summary)
    pd.testing.assert_frame_equal(from_frame.pairs, from_dict.pairs)


def test_rank_probabilities_match_independent_beta_draws(seed):
    """The share of items right takes λ a side: Beta(tp + tn + λ, fp + fn + λ)."""
    n = 40_000
    ranking = compare_counts(TABLE_3, pooling="none", n_draws=n, random_state=seed).ranking
    rng = np.random.default_rng(seed + 1)
    right = (TABLE_3["tp"] + TABLE_3["tn"]).to_numpy()
    wrong = (TABLE_3["fp"] + TABLE_3["fn"]).to_numpy()
    draws = rng.beta(right + 0.5, wrong + 0.5, size=(n, right.size))
    ranks = (-draws).argsort(axis=1).argsort(axis=1)
    reference = np.stack([(ranks == r).mean(axis=0) for r in range(right.size)], axis=1)
    mine = ranking.rank_probabilities.to_numpy()
    # Two independent estimates: the difference's sd is sqrt(2 p (1 - p) / n); four of it.
    tolerance = 4 * np.sqrt(2 * np.maximum(reference * (1 - reference), 1e-4) / n)
    np.testing.assert_array_less(np.abs(mine - reference), tolerance)


def test_rank_probabilities_within_001_of_prob_conf_mat():
    # prob_conf_mat ranks each team's own posterior: pooling="none".
    ranking = compare_counts(TABLE_3, pooling="none", n_draws=100_000, random_state=0).ranking
    mine = ranking.rank_probabilities.to_numpy()[:, :5]
    np.testing.assert_allclose(mine, PROB_CONF_MAT_RANKS, atol=0.01)
    assert ranking.prob_best.iloc[0] == pytest.approx(0.93, abs=0.01)


@pytest.mark.slow      # about 3 s: prob_conf_mat's own sampler
@needs("prob_conf_mat")
def test_rank_probabilities_within_001_of_prob_conf_mat_live():
    from prob_conf_mat import Study

    study = Study(seed=0, num_samples=100_000, ci_probability=0.95)
    study.add_metric(metric="acc")
    for name, row in TABLE_3.iterrows():
        study.add_experiment(experiment_name=f"{name}/{name}",
                             confusion_matrix=[[row.tp, row.fn], [row.fp, row.tn]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = study.get_listwise_comparsion_result(metric="acc")
    order = [name.split("/")[0] for name in result.experiment_names]
    theirs = pd.DataFrame(result.p_rank_given_experiment, index=order).loc[TABLE_3.index]
    mine = compare_counts(TABLE_3, pooling="none", n_draws=100_000, random_state=0).ranking
    np.testing.assert_allclose(mine.rank_probabilities.to_numpy(), theirs.to_numpy(),
                               atol=0.01)


def test_confusion_matrices_give_the_posterior_of_the_predictions(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 600)
    predictions = {name: np.where(rng.random(600) < p, y, rng.integers(0, 3, 600))
                   for name, p in (("a", 0.8), ("b", 0.7))}
    from sklearn.metrics import confusion_matrix

    matrices = {name: confusion_matrix(y, p) for name, p in predictions.items()}
    # Micro accuracy is exact: identical to the posterior from the predictions.
    report = compare_counts(matrices, metric="accuracy", average="micro", random_state=0)
    for name, p in predictions.items():
        posterior = metric_posterior(y, p, metric="accuracy", average="micro")
        assert report.summary.loc[name, "mean"] == pytest.approx(posterior.mean(), rel=1e-12)
    # Macro F1 is sampled from the same joint Dirichlet: equal within Monte Carlo error.
    n = 20_000
    report = compare_counts(matrices, metric="f1", average="macro", n_draws=n, random_state=0)
    for name, p in predictions.items():
        posterior = metric_posterior(y, p, metric="f1", average="macro", n_draws=n,
                                     random_state=1)
        row = report.summary.loc[name]
        assert row["point"] == pytest.approx(
            compare_predictions(y, predictions, metric="f1", average="macro",
                                n_draws=200).summary.loc[name, "point"], rel=1e-12)
        assert row["mean"] == pytest.approx(posterior.mean(), abs=4 * np.sqrt(2) *
                                            posterior.std() / np.sqrt(n))


def test_a_matrix_as_a_dataframe_names_its_labels():
    cm = pd.DataFrame([[40, 5, 5], [3, 30, 7], [2, 8, 50]], index=["x", "y", "z"],
                      columns=["x", "y", "z"])
    reordered = cm.loc[["z", "y", "x"], ["z", "y", "x"]]
    report = compare_counts({"one": cm, "two": reordered}, metric="f1", average="macro",
                            random_state=0, n_draws=500)
    # The same table in another order of its labels: the same point and exact mean.
    assert report.summary.loc["one", "point"] == report.summary.loc["two", "point"]
    assert report.summary.loc["one", "mean"] == pytest.approx(
        report.summary.loc["two", "mean"], abs=1e-12)
    chosen = compare_counts({"one": cm, "two": reordered}, metric="f1", average="macro",
                            labels=["x", "y"], random_state=0, n_draws=500)
    assert list(chosen.labels) == ["x", "y"]
    assert chosen.summary.loc["one", "point"] != report.summary.loc["one", "point"]
    with pytest.raises(ValueError, match=r"'two' \(run 0\) has no \['x', 'y'\]"):
        compare_counts({"one": cm, "two": cm.to_numpy()}, metric="f1", average="macro",
                       labels=["x", "y"])


def test_to_dict_csv_html_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    runs = {"a": [ConfusionCounts(80, 20, 15, 85), ConfusionCounts(84, 14, 11, 91)],
            "b": [ConfusionCounts(70, 25, 25, 80), ConfusionCounts(75, 20, 20, 85)]}
    report = compare_counts(runs, random_state=0, n_draws=2000)
    data = report.to_dict()
    assert set(data["summary"]) == {"a", "b"} and len(data["runs"]) == 4
    assert report.to_csv("runs").splitlines()[0].startswith("estimator,run,tp")
    assert "Every run" in report.to_html()
    ax = report.plot(table="runs")
    assert len(ax.get_yticklabels()) == 6
    assert report.plot(table="ranking").get_xlabel() == "rank"
    with pytest.raises(ValueError, match="nothing is paired"):
        report.plot(table="pairwise")


# ---------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------


def test_runs_that_do_not_differ_agree_with_pooled_counts(seed):
    run = ConfusionCounts(400, 100, 90, 410)
    report = compare_counts({"a": [run] * 5, "b": [ConfusionCounts(380, 110, 120, 390)] * 5},
                            n_draws=20_000, random_state=seed)
    pooled = metric_posterior(run + run + run + run + run, metric="accuracy")
    row = report.summary.loc["a"]
    # The mean over runs is the pooled mean (within the logit-normal approximation of each
    # run's Beta posterior, far below the interval's width).
    assert row["mean"] == pytest.approx(pooled.mean(), abs=0.002)
    width, pooled_width = row["high"] - row["low"], np.subtract(*pooled.interval()[::-1])
    assert pooled_width <= width <= 1.5 * pooled_width
    assert row["n_runs"] == 5 and row["spread"] < 0.02


def test_one_run_per_system_is_the_single_table_model():
    single = compare_counts(_tables(), random_state=0)
    listed = compare_counts({name: [c] for name, c in _tables().items()}, random_state=0)
    pd.testing.assert_frame_equal(single.summary, listed.summary)
    assert "n_runs" not in single.summary


def test_runs_from_a_long_dataframe_and_a_mix_of_runs_and_single_counts():
    frame = pd.DataFrame({"system": ["a", "a", "a", "b"], "tp": [80, 82, 85, 70],
                          "fp": [20, 18, 15, 30], "fn": [15, 14, 12, 25],
                          "tn": [85, 86, 88, 75]})
    report = compare_counts(frame, random_state=0, n_draws=2000)
    assert list(report.summary["n_runs"]) == [3.0, 1.0]
    assert np.isnan(report.summary.loc["b", "spread"])
    assert np.isnan(report.pairs["prob_new_run_first_better"].iloc[0])
    assert len(report.runs) == 4


def test_runs_that_differ_widen_the_interval_and_show_the_spread():
    same = [ConfusionCounts(800, 200, 200, 800)] * 4
    differ = [ConfusionCounts(760, 240, 240, 760), ConfusionCounts(840, 160, 160, 840),
              ConfusionCounts(780, 220, 220, 780), ConfusionCounts(820, 180, 180, 820)]
    report = compare_counts({"same": same, "differ": differ}, random_state=0, n_draws=5000)
    s, d = report.summary.loc["same"], report.summary.loc["differ"]
    assert d["high"] - d["low"] > 2 * (s["high"] - s["low"])
    assert d["spread_low"] > 0.01 and d["spread"] == pytest.approx(0.035, abs=0.02)
    assert d["new_run_high"] - d["new_run_low"] > d["high"] - d["low"]


# ---------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------

# Seeded figures of compare_counts before it had `pooling` (its ranking unpooled), computed
# at commit f850b53 with compare_counts(board, random_state=0) for the board below and
# compare_counts(runs, random_state=0) for _three_with_runs(); rounded to 6 decimals.
# pooling="none" must reproduce them.
BEFORE_POOLING = {
    "prob_best": [0.1078, 0.1435, 0.1864, 0.2517, 0.3106],
    "prob_first_better": [0.447402, 0.395119, 0.344067, 0.295127, 0.446789, 0.393895,
                          0.342266, 0.446144, 0.392607, 0.445464],
    "runs_prob_best": [0.8386, 0.0422, 0.1192],
    "runs_mean": [0.839167, 0.766642, 0.795042],
}


def _near_equal_board():
    return {f"s{i}": ConfusionCounts(80 + i, 20 - i, 15, 85) for i in range(5)}


def _three_with_runs():
    return {"a": [ConfusionCounts(80, 20, 15, 85), ConfusionCounts(84, 14, 11, 91)],
            "b": [ConfusionCounts(70, 25, 25, 80), ConfusionCounts(75, 20, 20, 85)],
            "c": [ConfusionCounts(78, 22, 18, 82), ConfusionCounts(79, 20, 20, 81)]}


def test_pooling_none_is_the_report_from_before_pooling():
    report = compare_counts(_near_equal_board(), pooling="none", random_state=0)
    assert report.ranking.pooling == "none"
    np.testing.assert_allclose(report.ranking.prob_best, BEFORE_POOLING["prob_best"],
                               atol=5e-7)
    np.testing.assert_allclose(report.pairs["prob_first_better"],
                               BEFORE_POOLING["prob_first_better"], atol=5e-7)
    assert (report.pairs["mc_error"] == 0.0).all()         # exact, as before
    runs = compare_counts(_three_with_runs(), pooling="none", random_state=0)
    np.testing.assert_allclose(runs.ranking.prob_best, BEFORE_POOLING["runs_prob_best"],
                               atol=5e-7)
    np.testing.assert_allclose(runs.summary["mean"], BEFORE_POOLING["runs_mean"], atol=5e-7)


def test_the_default_pools_near_equal_systems_toward_one_in_n(seed):
    # Ten systems of 0.80-0.81 on 2 000 items each: the pooled P(best) of the leader is
    # nearer 1/10 than the unpooled one, and the pairs come from the same pooled draws.
    rng = np.random.default_rng(seed)
    accuracy = 0.80 + 0.01 * rng.random(10)
    right = rng.binomial(2000, accuracy)
    board = {f"s{i}": ConfusionCounts(r // 2, (2000 - r) // 2, 2000 - r - (2000 - r) // 2,
                                      r - r // 2) for i, r in enumerate(right)}
    pooled = compare_counts(board, n_draws=4000, random_state=0)
    free = compare_counts(board, pooling="none", n_draws=4000, random_state=0)
    assert pooled.ranking.pooling == "partial"
    leader = free.ranking.prob_best.idxmax()
    assert pooled.ranking.prob_best[leader] < free.ranking.prob_best[leader]
    assert np.abs(pooled.ranking.prob_best - 0.1).max() < \
        np.abs(free.ranking.prob_best - 0.1).max()
    # The summary is each system's own posterior either way.
    pd.testing.assert_frame_equal(pooled.summary, free.summary)
    # One posterior for the ranking and the pairs: the pairwise table is the ranking's.
    np.testing.assert_allclose(pooled.pairwise_metric.to_numpy(),
                               pooled.ranking.pairwise.to_numpy(), equal_nan=True)
    assert (pooled.pairs["mc_error"] > 0).all()


def test_the_default_leaves_systems_far_apart_as_they_are():
    board = {f"s{i}": ConfusionCounts(500 * a, 500 * (1 - a), 500 * (1 - a), 500 * a)
             for i, a in enumerate((0.6, 0.7, 0.8, 0.9))}
    pooled = compare_counts(board, n_draws=4000, random_state=0)
    free = compare_counts(board, pooling="none", n_draws=4000, random_state=0)
    assert pooled.ranking.prob_best["s3"] == free.ranking.prob_best["s3"] == 1.0
    # The pooled draws' means move by a small share of their sd (measured: at most 0.12,
    # the outer systems drawn in by about 0.001), and the order is kept.
    shift = np.abs(pooled.ranking.values.mean(axis=0) - free.ranking.values.mean(axis=0))
    assert (shift < 0.25 * free.ranking.values.std(axis=0)).all()
    np.testing.assert_allclose(pooled.ranking.expected_rank, free.ranking.expected_rank)


def test_runs_are_pooled_by_their_means():
    # Systems with runs: their means over runs are pooled; the summary (each system's own
    # runs model) is the same whatever the pooling, the ranking is drawn together.
    pooled = compare_counts(_three_with_runs(), random_state=0)
    free = compare_counts(_three_with_runs(), pooling="none", random_state=0)
    pd.testing.assert_frame_equal(pooled.summary, free.summary)
    assert pooled.ranking.pooling == "partial"
    assert pooled.ranking.prob_best["a"] < free.ranking.prob_best["a"]
    assert np.ptp(pooled.ranking.values.mean(axis=0)) < np.ptp(free.ranking.values.mean(axis=0))
    assert "their means over runs" in pooled.note


def test_two_systems_are_not_pooled():
    # The spread needs three systems: with two, the pairs stay compare_independent's.
    tables = dict(list(_tables().items())[:2])
    report = compare_counts(tables, random_state=0)
    exact = compare_independent(tables["a"], tables["b"], metric="accuracy")
    assert report.pairs["prob_first_better"].iloc[0] == pytest.approx(
        exact.prob_first_better, abs=1e-12)
    free = compare_counts(tables, pooling="none", random_state=0)
    np.testing.assert_array_equal(report.ranking.values, free.ranking.values)
    assert "leaves two systems as they are" in report.note


def test_the_notes_say_which_pooling():
    pooled = compare_counts(_tables(), n_draws=500, random_state=0)
    free = compare_counts(_tables(), pooling="none", n_draws=500, random_state=0)
    assert "Pooling: partial." in str(pooled) and "Pooling: none." in str(free)
    assert "Pooling: partial." in pooled.to_markdown()
    assert "Pooling: none." in free.to_markdown()
    # The HTML page's method notes (what to_html writes after the tables).
    from skprobeval._workflow._report_html import report_notes

    assert any(n.startswith("Pooling: partial.") for n in report_notes(pooled))
    assert any(n.startswith("Pooling: none.") for n in report_notes(free))
    assert pooled.to_dict()["note"] == pooled.note


def test_an_unknown_pooling_is_refused():
    with pytest.raises(ValueError, match="`pooling` must be 'partial' or 'none'; got 'full'"):
        compare_counts(_tables(), pooling="full")


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("counts, match", [
    ({"a": ConfusionCounts(1, 2, 3, 4)}, "at least two systems"),
    ({"a": [], "b": ConfusionCounts(1, 2, 3, 4)}, r"counts\['a'\].*at least one run"),
    ({"a": np.ones((2, 3)), "b": np.ones((2, 2))}, r"counts\['a'\].*square K x K"),
    ({"a": [[1, -2], [3, 4]], "b": np.ones((2, 2))}, r"counts\['a'\]"),
    ({"a": [[1, np.nan], [3, 4]], "b": np.ones((2, 2))}, r"counts\['a'\]"),
    (pd.DataFrame({"tp": [1, 2], "fp": [1, 2]}, index=["a", "b"]), "missing.*'fn'"),
    ([ConfusionCounts(1, 2, 3, 4)] * 2, "dict of system name"),
])
def test_bad_counts_are_refused_naming_the_argument(counts, match):
    with pytest.raises((ValueError, TypeError), match=match):
        compare_counts(counts)


def test_negative_counts_are_refused():
    with pytest.raises(ValueError, match="tp"):
        compare_counts({"a": ConfusionCounts(-1, 2, 3, 4), "b": ConfusionCounts(1, 2, 3, 4)})


def test_systems_counting_different_labels_need_labels():
    a = pd.DataFrame([[5, 1], [2, 6]], index=["cat", "dog"], columns=["cat", "dog"])
    b = pd.DataFrame([[5, 1, 0], [2, 6, 1], [0, 1, 4]], index=["cat", "dog", "eel"],
                     columns=["cat", "dog", "eel"])
    with pytest.raises(ValueError, match="same labels.*labels="):
        compare_counts({"a": a, "b": b}, metric="f1", average="macro")
    report = compare_counts({"a": a, "b": b}, metric="f1", average="macro",
                            labels=["cat", "dog"], n_draws=500, random_state=0)
    assert list(report.summary.index) == ["a", "b"]
    with pytest.raises(ValueError, match="'a'.*no \\['eel'\\]"):
        compare_counts({"a": a, "b": b}, metric="f1", average="macro", labels=["eel"])


def test_an_empty_run_warns_and_adds_nothing():
    runs = {"a": [ConfusionCounts(80, 20, 15, 85), ConfusionCounts(0, 0, 0, 0)],
            "b": ConfusionCounts(70, 25, 25, 80)}
    with pytest.warns(UserWarning, match=r"counts\['a'\] run 1 has no items"):
        report = compare_counts(runs, random_state=0, n_draws=500)
    assert report.summary.loc["a", "tp"] == 80 and "n_runs" not in report.summary


def test_average_none_and_binary_per_label_counts_are_refused():
    per_label = ConfusionCounts([5, 6], [1, 2], [2, 1], [6, 5], labels=["x", "y"])
    with pytest.raises(ValueError, match="average.*one number per system"):
        compare_counts(_tables(), average=None)
    with pytest.raises(ValueError, match="average.*per-label counts"):
        compare_counts({"a": per_label, "b": per_label}, metric="f1")


@pytest.mark.slow      # about 4 s: prob_conf_mat samples both tables
@needs("prob_conf_mat")
def test_the_side_by_side_script_runs_and_agrees(capsys):
    from benchmarks import totsch_hoffmann

    result = totsch_hoffmann.main(quick=True)
    # 20 000 draws each: the rank probabilities and the interval ends within 0.015.
    assert result["rank_gap"] < 0.015 and result["interval_gap"] < 0.015
    assert "Table S1" in capsys.readouterr().out


def test_accuracy_of_per_label_counts_is_refused():
    per_label = ConfusionCounts([5, 6], [1, 2], [2, 1], [6, 5], labels=["x", "y"])
    with pytest.raises(ValueError, match="metric.*K x K matrix"):
        compare_counts({"a": per_label, "b": per_label}, average="micro")
    report = compare_counts({"a": per_label, "b": per_label}, metric="f1", average="micro",
                            n_draws=500, random_state=0)
    assert report.summary.loc["a", "tp"] == 11


def test_reports_from_predictions_carry_rank_systems_ranking():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    predictions = {name: np.where(rng.random(300) < p, y, rng.integers(0, 3, 300))
                   for name, p in (("a", 0.8), ("b", 0.75), ("c", 0.7))}
    groups = rng.integers(0, 2, 300)
    report = compare_predictions(y, predictions, metric="f1", average="macro", n_draws=2000,
                                 random_state=0)
    ranking = report.ranking
    assert ranking is report.ranking            # drawn once, on first access
    assert list(ranking.names) == ["a", "b", "c"] and ranking.metric == "f1"
    assert ranking.pooling == "partial"         # rank_systems' default
    # The joint paired posterior of rank_systems: its two-system pairwise table is
    # compare_paired_metric's, so the report's pairs and the unpooled ranking agree within
    # their Monte Carlo errors.  (The report's own ranking is pooled, which draws the
    # systems together: a over b 0.82-0.86 over seeds 0-3 against the pair's 0.92; this
    # compared it before and passed for seed 0 only, by 0.002.)
    unpooled = rank_systems(y, predictions, metric="f1", average="macro", pooling="none",
                            n_draws=2000, random_state=0)
    for _, pair in report.pairs.iterrows():
        assert unpooled.pairwise.loc[pair["first"], pair["second"]] == pytest.approx(
            pair["prob_first_better"], abs=4 * np.sqrt(2 * 0.25 / 2000))
    # Identical input, identical ranking; one system or average=None, none.
    again = compare_predictions(y, predictions, metric="f1", average="macro", n_draws=2000,
                                random_state=0)
    np.testing.assert_array_equal(again.ranking.values, ranking.values)
    assert compare_predictions(y, predictions, metric="f1", average=None,
                               n_draws=200).ranking is None
    binary = compare_predictions(y == 0, {k: v == 0 for k, v in predictions.items()},
                                 sensitive_features=groups, n_draws=500, random_state=0)
    assert binary.by_group is not None and binary.ranking is not None


def test_repeated_cross_validation_as_runs():
    from sklearn.datasets import load_iris
    from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from skprobeval import ConfusionMatrix, compare_cv_results

    X, y = load_iris(return_X_y=True)
    splits = list(RepeatedStratifiedKFold(n_splits=3, n_repeats=3, random_state=0).split(X, y))
    results = {name: cross_validate(model, X, y, cv=splits, return_estimator=True,
                                    return_indices=True)
               for name, model in (("nb", GaussianNB()),
                                   ("tree", DecisionTreeClassifier(random_state=0)))}
    report = compare_cv_results(results, y=y, X=X, metric="f1", average="macro",
                                repeats="runs", n_draws=2000)
    assert report.independent and list(report.summary["n_runs"]) == [3.0, 3.0]
    # Each run is one repeat's out-of-fold counts.
    nb = results["nb"]["estimator"]
    first = np.concatenate([splits[k][1] for k in range(3)])
    predicted = np.concatenate([nb[k].predict(X[splits[k][1]]) for k in range(3)])
    expected = ConfusionMatrix.from_predictions(y[first], predicted)
    # Each repeat tests the same items: its counts weigh 1/3, so that the three carry the
    # items' evidence once (the pooled report's counts, divided by the repeats).
    assert report.runs.iloc[0]["tp"] == pytest.approx(np.trace(expected.to_array()) / 3)
    pooled = compare_cv_results(results, y=y, X=X, metric="f1", average="macro", n_draws=500)
    assert report.summary.loc["nb", "tp"] == pytest.approx(pooled.summary.loc["nb", "tp"])
    with pytest.raises(ValueError, match="repeats.*'pooled' or 'runs'"):
        compare_cv_results(results, y=y, X=X, repeats="each")
    one = {name: {**r, "indices": {"test": r["indices"]["test"][:3]},
                  "estimator": r["estimator"][:3]} for name, r in results.items()}
    with pytest.raises(ValueError, match="repeats.*without repeats"):
        compare_cv_results(one, y=y, X=X, average="macro", repeats="runs")
    with pytest.raises(ValueError, match="repeats.*fold scores alone"):
        compare_cv_results({"a": [0.8, 0.9, 0.85], "b": [0.7, 0.8, 0.75]}, repeats="runs")


def test_two_by_two_matrices_share_one_positive_label():
    cm = pd.DataFrame([[40, 10], [2, 48]], index=["cat", "dog"], columns=["cat", "dog"])
    reordered = cm.loc[["dog", "cat"], ["dog", "cat"]]
    # Labels without pos_label (1 by default) name no positive class: refused, never the
    # first matrix's last label.
    with pytest.raises(ValueError, match=r"`pos_label` must be one of the labels "
                                         r"\['cat', 'dog'\]; got 1"):
        compare_counts({"one": cm, "two": reordered}, metric="precision")
    report = compare_counts({"one": cm, "two": reordered}, metric="precision", n_draws=500,
                            random_state=0, pos_label="dog")
    # The same table in another order: the same positive label, the same figures.
    assert report.summary.loc["one", "point"] == report.summary.loc["two", "point"]
    assert report.pairs["prob_first_better"].iloc[0] == pytest.approx(0.5, abs=1e-12)
    cat = compare_counts({"one": cm, "two": reordered}, metric="precision", labels=["cat"],
                         n_draws=500, random_state=0)
    assert cat.summary.loc["one", "tp"] == 40 and cat.summary.loc["one", "fp"] == 2
    with pytest.raises(ValueError, match="labels.*one label of the 2 x 2 matrices"):
        compare_counts({"one": cm, "two": reordered}, labels=["cat", "dog"])
    with pytest.raises(ValueError, match="labels.*None for binary tables"):
        compare_counts(_tables(), labels=[1])


def test_binary_tables_with_a_label_average_are_refused():
    with pytest.raises(ValueError, match="average.*'binary' for binary tables"):
        compare_counts(_tables(), metric="f1", average="macro")


def test_a_label_without_items_stays_in_every_systems_average():
    a = np.array([[40, 5, 0], [3, 30, 0], [0, 0, 0]])
    b = np.array([[40, 5, 1], [3, 30, 1], [1, 1, 10]])
    report = compare_counts({"a": a, "b": b}, metric="recall", average="macro",
                            n_draws=500, random_state=0)
    # scikit-learn's macro recall over the three labels, the empty one undefined (skipped
    # as zero_division=nan does): a averages two labels' recalls, as b averages three.
    assert report.summary.loc["a", "point"] == pytest.approx((40 / 45 + 30 / 33) / 2)
    assert report.summary.loc["b", "point"] == pytest.approx((40 / 46 + 30 / 34 + 10 / 12) / 3)
    # The posterior averages all three labels (the empty one at its prior mean, 1/3 under
    # a symmetric prior): below the two labels' recalls.
    assert report.summary.loc["a", "mean"] < report.summary.loc["a", "point"] - 0.1


def test_single_tables_beside_runs_take_the_per_table_route():
    runs = {"a": [ConfusionCounts(80, 20, 15, 85), ConfusionCounts(84, 14, 11, 91)],
            "b": ConfusionCounts(70, 25, 25, 80)}
    report = compare_counts(runs, metric="f1", random_state=0, n_draws=2000)
    single = metric_posterior(ConfusionCounts(70, 25, 25, 80), metric="f1")
    assert report.summary.loc["b", "mean"] == pytest.approx(single.mean(), rel=1e-12)
    assert report.summary.loc["b", "low"] == pytest.approx(single.interval().low, rel=1e-12)
    assert np.isnan(report.summary.loc["a", "prob_better_than_chance"])


@pytest.mark.slow      # about 2 s: a Lagrangian solve and 40 000 simulated test sets
def test_the_width_bound_of_three_runs_is_above_the_pooled_ratio_asked():
    from benchmarks import runs_width_bound

    (row,) = runs_width_bound.main(quick=True)
    # Three runs of 2 000 items: no interval covering 0.92 at spread 0.01 is within 1.2
    # times the pooled counts' width at spread 0 (normal approximation).
    assert row["width_bound"] > 1.2
    # The optimal rule, simulated: its coverage and width are the integral's.
    assert abs(row["mc_coverage_at_spread"] - 0.92) < 4 * row["mc_coverage_se"] + 0.003
    assert abs(row["mc_width"] - row["width_bound"]) < 4 * row["mc_width_se"] + 0.005
