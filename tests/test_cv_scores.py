"""compare_cv_results on fold scores alone: cross_validate without predictions, cross_val_score.

Independent routes: `correlated_ttest` for every t-test row and every pairwise
probability of the ranking, and `scipy.stats.t` built by hand for each system's
interval of its mean score.
"""

import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    RepeatedKFold,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from skprobeval import (
    ComparisonReport,
    CVResultsRanking,
    compare_cv_results,
    correlated_ttest,
    rank_cv_results,
)
from skprobeval._workflow._report import SUMMARY_COLUMNS


def _fold_scores(n_splits=10, means=(0.80, 0.79, 0.75), seed=0):
    """Fold scores with a fold effect shared by the systems (correlated columns)."""
    rng = np.random.default_rng(seed)
    shared = 0.02 * rng.standard_normal(n_splits)
    return {name: mean + shared + 0.01 * rng.standard_normal(n_splits)
            for name, mean in zip(("a", "b", "c"), means)}


def _as_cross_validate(scores, scorer="score"):
    return {name: {"fit_time": np.full(len(s), 0.01), "score_time": np.full(len(s), 0.001),
                   f"test_{scorer}": np.asarray(s)} for name, s in scores.items()}


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_ttest_rows_are_the_correlated_ttest(rope):
    scores = _fold_scores()
    report = compare_cv_results(_as_cross_validate(scores), rope=rope, n_draws=200)
    assert isinstance(report, ComparisonReport)
    assert [tuple(row) for row in report.ttest[["first", "second"]].to_numpy()] == [
        ("a", "b"), ("a", "c"), ("b", "c")]
    for _, row in report.ttest.iterrows():
        # One k-fold partition of 10 scores: test fraction 1/10.
        expected = correlated_ttest(scores[row["first"]], scores[row["second"]],
                                    test_fraction=0.1, rope=rope)
        assert row["prob_first_better"] == pytest.approx(expected.prob_first_better, abs=1e-12)
        assert row["prob_equivalent"] == pytest.approx(expected.prob_equivalent, abs=1e-12)
        assert row["prob_second_better"] == pytest.approx(expected.prob_second_better,
                                                          abs=1e-12)
        assert row["mean_difference"] == pytest.approx(expected.mean, abs=1e-12)


def test_ranking_pairwise_is_the_ttest():
    scores = _fold_scores()
    report = compare_cv_results(_as_cross_validate(scores), n_draws=2000)
    ranking = report.ranking
    assert isinstance(ranking, CVResultsRanking)
    assert ranking.names == ("a", "b", "c") and ranking.scoring == "score"
    assert ranking.test_fraction == 0.1 and ranking.n_splits == 10 and ranking.df == 9
    for _, row in report.ttest.iterrows():
        first, second = row["first"], row["second"]
        assert ranking.pairwise.loc[first, second] == pytest.approx(row["prob_first_better"],
                                                                    abs=1e-12)
        assert ranking.pairwise.loc[second, first] == pytest.approx(row["prob_second_better"],
                                                                    abs=1e-12)
    # The ranking is rank_cv_results' on the same scores, as a search's cv_results_.
    matrix = np.column_stack(list(scores.values()))
    cv_results = {"params": [{"system": name} for name in scores],
                  **{f"split{k}_test_score": row for k, row in enumerate(matrix)}}
    search = rank_cv_results(cv_results, n_draws=2000, random_state=0)
    np.testing.assert_allclose(search.scale_matrix, ranking.scale_matrix, rtol=1e-12)
    np.testing.assert_allclose(search.pairwise.to_numpy(), ranking.pairwise.to_numpy(),
                               rtol=1e-12)


@pytest.mark.parametrize("confidence", [0.95, 0.8])
def test_summary_interval_is_the_student_t_of_the_mean(confidence):
    scores = _fold_scores(n_splits=5)
    report = compare_cv_results(scores, test_fraction=0.25, confidence=confidence, n_draws=200)
    summary = report.summary
    assert list(summary.columns) == list(SUMMARY_COLUMNS)
    assert list(summary.index) == ["a", "b", "c"] and summary.index.name == "estimator"
    for name, values in scores.items():
        # Student t, n - 1 degrees of freedom, location the mean fold score, squared
        # scale (1/n + rho/(1 - rho)) s^2, built directly with scipy.
        n, rho = len(values), 0.25
        scale = math.sqrt((1 / n + rho / (1 - rho)) * np.var(values, ddof=1))
        low, high = stats.t(n - 1, loc=np.mean(values), scale=scale).interval(confidence)
        row = summary.loc[name]
        assert row["point"] == row["mean"] == pytest.approx(np.mean(values), abs=1e-12)
        assert row["low"] == pytest.approx(low, abs=1e-12)
        assert row["high"] == pytest.approx(high, abs=1e-12)
        assert row["mc_error"] == 0.0
    blank = ["tp", "fp", "fn", "tn", "prob_better_than_chance", "average_precision",
             "random_average_precision"]
    assert summary[blank].isna().all().all()
    pd.testing.assert_frame_equal(report.ranking.interval(confidence),
                                  summary[["low", "high"]].rename_axis(None))


def test_the_paired_tables_are_blank_and_the_per_fold_table_holds_the_scores():
    scores = _fold_scores(n_splits=4)
    report = compare_cv_results(scores, n_draws=200)
    assert report.metric == "score" and report.average == "binary" and report.n_repeats == 1
    assert list(report.pairwise.index) == list(report.pairwise.columns) == ["a", "b", "c"]
    assert report.pairwise.isna().all().all() and report.pairwise_metric.isna().all().all()
    assert report.pairs.empty and report.per_label.empty
    per_fold = report.per_fold
    assert list(per_fold.columns) == ["estimator", "repeat", "fold", "tp", "fp", "fn", "tn",
                                      "score"]
    assert per_fold[["tp", "fp", "fn", "tn"]].isna().all().all()
    np.testing.assert_array_equal(per_fold["score"], np.concatenate(list(scores.values())))
    assert per_fold["fold"].tolist() == [0, 1, 2, 3] * 3 and set(per_fold["repeat"]) == {0}


def test_cross_val_score_arrays_lists_and_cross_validate_dicts_give_one_report():
    scores = _fold_scores(n_splits=5)
    reports = [compare_cv_results(scores, n_draws=500),
               compare_cv_results({name: s.tolist() for name, s in scores.items()},
                                  n_draws=500),
               compare_cv_results(_as_cross_validate(scores), n_draws=500)]
    for other in reports[1:]:
        for table in ("summary", "ttest", "per_fold", "pairwise"):
            pd.testing.assert_frame_equal(getattr(other, table), getattr(reports[0], table))
        pd.testing.assert_series_equal(other.ranking.prob_best, reports[0].ranking.prob_best)
        assert other.note == reports[0].note


def test_real_cross_validate_and_cross_val_score_on_iris():
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    models = {"nb": GaussianNB(), "stump": DecisionTreeClassifier(max_depth=1, random_state=0)}
    results = {name: cross_validate(model, X, y, cv=cv, scoring=["accuracy", "f1_macro"],
                                    return_estimator=True, return_indices=True)
               for name, model in models.items()}
    arrays = {name: cross_val_score(model, X, y, cv=cv, scoring="f1_macro")
              for name, model in models.items()}
    from_dicts = compare_cv_results(results, scoring="f1_macro", cv=cv, n_draws=500)
    from_arrays = compare_cv_results(arrays, scoring="f1_macro", n_draws=500)
    assert from_dicts.metric == from_arrays.metric == "f1_macro"
    pd.testing.assert_frame_equal(from_dicts.summary, from_arrays.summary)
    pd.testing.assert_frame_equal(from_dicts.ttest, from_arrays.ttest)
    assert from_dicts.ttest["prob_first_better"].iloc[0] > 0.99     # nb well above a stump
    # Fitted estimators without X: the note says what would give the full report.
    assert "pass X and y to predict with the fitted estimators" in from_dicts.note
    assert "test fraction 0.2 (from cv=StratifiedKFold)" in from_dicts.note


@pytest.mark.parametrize("cv, n_splits, rho, repeats", [
    (KFold(10), 10, 0.1, 1),
    (10, 10, 0.1, 1),
    (RepeatedKFold(n_splits=5, n_repeats=2, random_state=0), 10, 0.2, 2),
    (list(KFold(4).split(np.zeros(20))), 4, 0.25, 1),
    (list(RepeatedKFold(n_splits=4, n_repeats=3, random_state=0).split(np.zeros(20))), 12,
     0.25, 3),
])
def test_test_fraction_and_repeats_from_the_splitter(cv, n_splits, rho, repeats):
    scores = _fold_scores(n_splits=n_splits)
    report = compare_cv_results(scores, cv=cv, n_draws=200)
    assert report.ranking.test_fraction == pytest.approx(rho)
    assert report.n_repeats == repeats
    assert report.per_fold["repeat"].nunique() == repeats
    assert f"test fraction {rho:g} (from " in report.note
    expected = correlated_ttest(scores["a"], scores["b"], test_fraction=rho, runs=repeats)
    assert report.ttest["prob_first_better"].iloc[0] == pytest.approx(
        expected.prob_first_better, abs=1e-12)
    # test_fraction= overrides the splitter.
    given = compare_cv_results(scores, cv=cv, test_fraction=0.3, n_draws=200)
    assert given.ranking.test_fraction == 0.3 and given.n_repeats == repeats
    assert "test fraction 0.3 (passed as test_fraction)" in given.note


def test_the_note_is_in_every_rendering():
    report = compare_cv_results(_fold_scores(n_splits=5), n_draws=200)
    note = ("Fold scores only: no counts, so no per-item posterior; test fraction 0.2 (1/5: "
            "one 5-fold partition; pass test_fraction= for repeated cross-validation).")
    assert report.note == note
    for rendered in (str(report), report.to_markdown(), report.to_html()):
        assert note in rendered
        assert "One system" not in rendered and "paired Dirichlet" not in rendered
        # No count column (the page's figures hold words such as "matplotlib").
        assert not re.search(r"\btp\b", re.sub(r"<svg.*?</svg>", "", rendered, flags=re.S))
        assert "prob_better_than_chance" not in rendered
    assert "Summary (mean over folds)" in str(report)
    assert "### Summary (score)" in report.to_markdown()
    assert report.to_dict()["summary"]["a"]["tp"] is None     # the data keep the columns


def test_scoring_picks_the_scorer_and_metric_is_not_required():
    scores = _fold_scores(n_splits=5)
    both = {name: {"test_accuracy": s, "test_f1": s[::-1]} for name, s in scores.items()}
    with pytest.raises(ValueError, match=r"`scoring` must be one of the recorded scorers "
                       r"\['accuracy', 'f1'\] \(every result has several\); got None"):
        compare_cv_results(both)
    with pytest.raises(ValueError, match=r"`scoring` must be one of the recorded scorers "
                       r"\['accuracy', 'f1'\]; got 'roc_auc'"):
        compare_cv_results(both, scoring="roc_auc")
    report = compare_cv_results(both, scoring="f1", n_draws=200)
    assert report.metric == "f1" and report.ranking.scoring == "f1"
    np.testing.assert_array_equal(report.per_fold["score"].to_numpy()[:5], scores["a"][::-1])
    # The only scorer, and "score" first among several; metric and average not checked.
    only = compare_cv_results(_as_cross_validate(scores, "balanced_accuracy"),
                              metric="not a metric", average="macro", n_draws=200)
    assert only.metric == "balanced_accuracy"
    with_score = {name: {"test_score": s, "test_f1": s} for name, s in scores.items()}
    assert compare_cv_results(with_score, n_draws=200).metric == "score"


def test_nan_fold_scores_warn_and_leave_nan_rows():
    scores = _fold_scores(n_splits=5)
    scores["b"] = scores["b"].copy()
    scores["b"][2] = np.nan
    with pytest.warns(UndefinedMetricWarning, match=r"score is NaN on some folds of \['b'\]") \
            as record:
        report = compare_cv_results(scores, n_draws=200)
    assert [w.filename for w in record] == [__file__]
    ttest = report.ttest.set_index(["first", "second"])
    assert ttest.loc[("a", "b")].isna().all() and ttest.loc[("b", "c")].isna().all()
    expected = correlated_ttest(scores["a"], scores["c"], test_fraction=0.2)
    assert ttest.loc[("a", "c"), "prob_first_better"] == pytest.approx(
        expected.prob_first_better, abs=1e-12)
    assert report.ranking is None
    assert report.summary.loc["b", ["point", "low", "high"]].isna().all()
    assert np.isfinite(report.summary.loc[["a", "c"], ["point", "low", "high"]]).all().all()
    # One finite system left: its row is still the Student t of its mean.
    with pytest.warns(UndefinedMetricWarning):
        single = compare_cv_results({"a": scores["a"], "b": scores["b"]}, n_draws=200)
    pd.testing.assert_series_equal(single.summary.loc["a"], report.summary.loc["a"])


def _search_results():
    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(DummyClassifier(), {"strategy": ["prior", "uniform"]}, cv=2)
    return search.fit(X, y)


SCORES = {"a": [0.80, 0.82, 0.79, 0.81, 0.83], "b": [0.78, 0.80, 0.80, 0.79, 0.80]}


@pytest.mark.parametrize("results, options, error, match", [
    ({"params": [{"C": 1}, {"C": 2}], "split0_test_score": [0.8, 0.7],
      "split1_test_score": [0.9, 0.8]}, {}, ValueError,
     r"`results` must be \{name: cross_validate\(...\)\} or \{name: cross_val_score\(...\)\} "
     r"results of several systems \(for the candidates of a search, use rank_cv_results\); "
     r"got the cv_results_ of a search \(keys 'params', 'split0_test_score', ...\)"),
    ({"a": SCORES["a"]}, {}, ValueError,
     r"`results` must be a dict of at least two named cross-validation results .*; "
     r"got 1 result\(s\) for \['a'\]"),
    ({"a": SCORES["a"], "b": SCORES["b"][:4]}, {}, ValueError,
     r"`results` must be fold scores of one length for every system .*; "
     r"got lengths \{'a': 5, 'b': 4\}"),
    ({"a": [0.8], "b": [0.7]}, {}, ValueError,
     r"`results` must be at least two fold scores per system .*; got lengths \{'a': 1, 'b': 1\}"),
    ({"a": {"test_score": SCORES["a"], "predictions": [[1, 0]]},
      "b": {"test_score": SCORES["b"]}}, {}, ValueError,
     r"`results` must be results of one kind for every system: .*; got \{'a': 'out-of-fold "
     r"predictions', 'b': 'fold scores only'\}"),
    ({"a": {f"test_{c}": SCORES["a"] for c in ("tp", "fp", "fn", "tn")},
      "b": {"test_score": SCORES["b"]}}, {}, ValueError,
     r"`results` must be results of one kind .*; got \{'a': 'CountsScorer counts', "
     r"'b': 'fold scores only'\}"),
    ({"a": SCORES["a"], "b": {"test_score": SCORES["b"]}}, {}, ValueError,
     r"`results` must be fold scores of one form for every system .*; "
     r"got \{'a': 'array', 'b': 'cross_validate dict'\}"),
    ({"a": {"test_f1": SCORES["a"]}, "b": {"test_accuracy": SCORES["b"]}}, {}, ValueError,
     r"`results` must be fold scores of one scorer for every system .*; "
     r"got \{'a': \['test_f1'\], 'b': \['test_accuracy'\]\}"),
    ({"a": [SCORES["a"]] * 2, "b": [SCORES["b"]] * 2}, {}, ValueError,
     r"`results` must be one 1-d array of fold scores per system; "
     r"got results\['a'\] of shape \(2, 5\)"),
    ({"a": ["high"] * 5, "b": SCORES["b"]}, {}, TypeError,
     r"`results` must be real fold scores; got results\['a'\] = \['high', "),
    (SCORES, {"cv": KFold(10)}, ValueError,
     r"`cv` must be the splitter that gave the fold scores \(5 per system\); "
     r"got KFold\(.*\), which makes 10 splits"),
    (SCORES, {"cv": 3}, ValueError, r"`cv` must be the splitter .*; got 3, which makes 3"),
    (SCORES, {"cv": "5"}, TypeError, r"`cv` must be None, an int, a cross-validation "
     r"splitter or a list of \(train, test\) splits; got '5'"),
    (SCORES, {"test_fraction": 1.0}, ValueError,
     r"`test_fraction` must be None or a float in the open interval \(0, 1\); got 1.0"),
    (SCORES, {"rope": -0.1}, ValueError, r"`rope` must be a finite number >= 0; got -0.1"),
])
def test_fold_score_errors_name_the_argument_and_the_value(results, options, error, match):
    with pytest.raises(error, match=match):
        compare_cv_results(results, **options)


def test_a_fitted_search_is_pointed_to_rank_cv_results():
    with pytest.raises(ValueError, match=r"use rank_cv_results\); got a fitted GridSearchCV"):
        compare_cv_results(_search_results())


@pytest.mark.parametrize("results, match", [
    ({name: {"fit_time": [0.1] * 5, "test_score": s} for name, s in SCORES.items()},
     r"`cv_results` must be the cv_results_ of a search \(for \{name: cross_validate\(...\)\} "
     r"results of several systems, use compare_cv_results\); got a dict of cross_validate "
     r"results for \['a', 'b'\]"),
    (SCORES, r"\(for \{name: cross_val_score\(...\)\} fold scores of several systems, use "
     r"compare_cv_results\); got a dict of fold-score arrays for \['a', 'b'\]"),
    ({"fit_time": [0.1] * 5, "score_time": [0.1] * 5, "test_score": SCORES["a"]},
     r"\(for cross_validate results, use compare_cv_results\(\{name: cross_validate\(...\), "
     r"...\}\) with one entry per system\); got one cross_validate result"),
])
def test_rank_cv_results_points_to_compare_cv_results(results, match):
    with pytest.raises(ValueError, match=match):
        rank_cv_results(results)


def test_the_default_plot_of_fold_scores_is_the_ranking():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from skprobeval import compare_cv_results

    scores = {"a": [0.81, 0.84, 0.80, 0.83, 0.82], "b": [0.78, 0.80, 0.79, 0.81, 0.77]}
    ax = compare_cv_results(scores).plot()
    assert ax.get_xlabel() == "rank"
