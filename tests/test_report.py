"""compare_estimators, compare_cv_results and compare_predictions."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from skprobeval import (
    ComparisonReport,
    ConfusionCounts,
    PairedComparison,
    PairedCounts,
    compare_cv_results,
    compare_estimators,
    compare_predictions,
    correlated_ttest,
    metric_posterior,
)
from skprobeval._workflow._report import SUMMARY_COLUMNS


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=300, n_features=10, flip_y=0.1, random_state=0)


def _models():
    return {"logreg": LogisticRegression(), "nb": GaussianNB(),
            "tree": DecisionTreeClassifier(max_depth=3, random_state=0)}


@pytest.fixture(scope="module")
def report(data):
    X, y = data
    return compare_estimators(_models(), X, y, cv=4, n_draws=5000)


def test_tables_are_numeric_dataframes(report):
    assert isinstance(report, ComparisonReport)
    assert list(report.summary.columns) == list(SUMMARY_COLUMNS)
    assert all(pd.api.types.is_float_dtype(t) for t in report.summary.dtypes)
    for table in (report.pairwise, report.pairwise_metric):
        assert list(table.index) == list(table.columns) == ["logreg", "nb", "tree"]
        assert all(pd.api.types.is_float_dtype(t) for t in table.dtypes)
        assert np.isnan(np.diag(table.to_numpy())).all()
    assert list(report.ttest.columns) == ["first", "second", "prob_first_better",
                                          "prob_equivalent", "prob_second_better",
                                          "mean_difference"]
    assert len(report.per_fold) == 3 * 4


def test_pooled_counts_cover_every_item(report, data):
    _, y = data
    cells = report.summary[["tp", "fp", "fn", "tn"]].sum(axis=1)
    np.testing.assert_allclose(cells, y.shape[0])
    folds = report.per_fold.groupby("estimator")[["tp", "fp", "fn", "tn"]].sum()
    np.testing.assert_allclose(folds.loc[report.summary.index].to_numpy(),
                               report.summary[["tp", "fp", "fn", "tn"]].to_numpy())


def test_pairwise_probabilities_are_complementary(report):
    for table in (report.pairwise, report.pairwise_metric):
        values = table.to_numpy()
        off = ~np.eye(3, dtype=bool)
        np.testing.assert_allclose((values + values.T)[off], 1.0, atol=1e-12)


def test_summary_agrees_with_direct_posteriors(report):
    row = report.summary.loc["nb"]
    counts = ConfusionCounts(row["tp"], row["fp"], row["fn"], row["tn"])
    posterior = metric_posterior(counts, metric="f1")
    assert row["mean"] == pytest.approx(posterior.mean())
    assert row["low"] == pytest.approx(posterior.interval(0.95).low)
    assert row["prob_better_than_chance"] == pytest.approx(
        metric_posterior(counts, metric="informedness").prob_greater(0.0))
    assert 0 < row["random_average_precision"] < row["average_precision"] <= 1


def test_ttest_rows_use_fold_scores(report):
    folds = report.per_fold
    first = folds[folds.estimator == "logreg"]["score"].to_numpy()
    second = folds[folds.estimator == "tree"]["score"].to_numpy()
    row = report.ttest[(report.ttest["first"] == "logreg") & (report.ttest["second"] == "tree")]
    expected = correlated_ttest(first, second, test_fraction=0.25)
    assert float(row["prob_first_better"].iloc[0]) == pytest.approx(expected.prob_first_better)


def test_identical_random_state_identical_report(data):
    X, y = data
    first = compare_estimators(_models(), X, y, cv=3, random_state=7, n_draws=4000)
    second = compare_estimators(_models(), X, y, cv=3, random_state=7, n_draws=4000)
    pd.testing.assert_frame_equal(first.summary, second.summary)
    pd.testing.assert_frame_equal(first.pairwise_metric, second.pairwise_metric)
    pd.testing.assert_frame_equal(first.ttest, second.ttest)


def test_repeated_cv_divides_pooled_counts_by_repeats(data):
    X, y = data
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    report = compare_estimators({"logreg": LogisticRegression(), "nb": GaussianNB()}, X, y,
                                cv=cv, n_draws=4000)
    assert report.n_repeats == 2
    np.testing.assert_allclose(report.summary[["tp", "fp", "fn", "tn"]].sum(axis=1), y.shape[0])
    assert report.per_fold["repeat"].nunique() == 2


def test_pairwise_is_the_pooled_paired_comparison(report, data):
    # Out-of-fold predictions concatenated = paired counts pooled over folds.
    X, y = data
    splits = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    predictions = {}
    for name, model in (("logreg", LogisticRegression()), ("nb", GaussianNB())):
        result = cross_validate(model, X, y, cv=splits, return_estimator=True,
                                return_indices=True)
        predictions[name] = [est.predict(X[test]) for est, test in
                             zip(result["estimator"], result["indices"]["test"])]
    pooled = sum(PairedCounts.from_predictions(y[test], a, b) for (_, test), a, b in
                 zip(splits, predictions["logreg"], predictions["nb"]))
    expected = PairedComparison.from_counts(pooled).prob_first_better
    assert report.pairwise.loc["logreg", "nb"] == pytest.approx(expected)


def test_compare_cv_results_equals_compare_estimators(data, report):
    X, y = data
    splits = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    results = {}
    for name, model in _models().items():
        result = cross_validate(model, X, y, cv=splits, return_estimator=True,
                                return_indices=True)
        result["predictions"] = [est.predict(X[test]) for est, test in
                                 zip(result["estimator"], result["indices"]["test"])]
        results[name] = result
    from_results = compare_cv_results(results, y=y, n_draws=5000)
    pd.testing.assert_frame_equal(from_results.summary.iloc[:, :9], report.summary.iloc[:, :9])
    pd.testing.assert_frame_equal(from_results.pairwise, report.pairwise)


def test_presentations(report):
    text = str(report)
    assert "Summary" in text and "logreg" in text
    markdown = report.to_markdown()
    assert markdown.count("|---") >= 4 and "### Summary (f1)" in markdown
    assert "<table" in report.to_html()


def test_verbose_progress(data, capsys):
    X, y = data
    compare_estimators({"logreg": LogisticRegression(), "nb": GaussianNB()}, X, y, cv=2,
                       verbose=True, n_draws=2000)
    err = capsys.readouterr().err
    assert "[1/2] logreg" in err and "fold 2/2" in err


def test_compare_predictions_single_test_set():
    y_true = np.array([1, 1, 0, 0, 1, 0, 1, 1, 0, 1])
    report = compare_predictions(y_true, {"a": y_true.copy(), "b": 1 - y_true})
    assert isinstance(report, ComparisonReport)
    summary, pairwise, pairwise_metric = report.summary, report.pairwise, report.pairwise_metric
    assert summary.loc["a", "tp"] == 6 and summary.loc["b", "tp"] == 0
    assert report.ttest.empty and report.n_repeats == 1
    assert pairwise.loc["a", "b"] == pytest.approx(
        PairedComparison.from_counts(PairedCounts(10, 0, 0)).prob_first_better)
    assert pairwise_metric.loc["a", "b"] > 0.99


@pytest.mark.parametrize("estimators", [{}, {"only": GaussianNB()}, [GaussianNB(), GaussianNB()]])
def test_bad_estimators(estimators, data):
    X, y = data
    with pytest.raises(ValueError, match="`estimators` must be a dict of at least two"):
        compare_estimators(estimators, X, y)


def test_bad_cv(data):
    X, y = data
    with pytest.raises(ValueError, match="`cv` must be"):
        compare_estimators(_models(), X, y, cv=1)


def test_compare_cv_results_from_fitted_estimators_and_counts(data, report):
    # Fitted fold estimators + X give the same report; counts alone give the summary
    # and t-tests, with the paired tables NaN and a warning.
    from skprobeval import CountsScorer

    X, y = data
    splits = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    results = {name: cross_validate(model, X, y, cv=splits, scoring=CountsScorer(),
                                    return_estimator=True, return_indices=True)
               for name, model in _models().items()}
    fitted = compare_cv_results(results, y=y, X=X, n_draws=5000)
    pd.testing.assert_frame_equal(fitted.summary, report.summary)
    pd.testing.assert_frame_equal(fitted.pairwise, report.pairwise)
    with pytest.warns(UserWarning, match="counts only"):
        counted = compare_cv_results(results)
    pd.testing.assert_frame_equal(counted.summary.iloc[:, :9], report.summary.iloc[:, :9])
    assert counted.pairwise.isna().all().all()
    pd.testing.assert_frame_equal(counted.ttest, report.ttest)
    # No pair table, but three systems: the printed report does not say "one system".
    assert "One system" not in str(counted) and "pooled over folds" in str(counted)


def test_undefined_fold_metric_gives_nan_ttest_with_warning(data):
    from sklearn.dummy import DummyClassifier
    from sklearn.exceptions import UndefinedMetricWarning

    X, y = data
    with pytest.warns(UndefinedMetricWarning, match="undefined on some folds"):
        report = compare_estimators(
            {"never": DummyClassifier(strategy="constant", constant=0),
             "logreg": LogisticRegression()}, X, y, cv=3, metric="precision", n_draws=2000)
    assert report.ttest[["prob_first_better", "prob_second_better"]].isna().all().all()
    # The prior answers the 0/0 pooled precision: mean 1/2.
    assert report.summary.loc["never", "mean"] == pytest.approx(0.5)


def test_report_warnings_name_the_callers_line(data):
    # The entry points sit under a decorator that accepts renamed keywords and
    # build their tables several calls deep: every warning they raise for the
    # user (the pooled point, the fold t-tests, a counts-only input) names the
    # user's line, not a line of the package.
    from sklearn.dummy import DummyClassifier
    from sklearn.exceptions import UndefinedMetricWarning

    from skprobeval import CountsScorer

    X, y = data
    models = {"never": DummyClassifier(strategy="constant", constant=0),
              "logreg": LogisticRegression()}
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined") as record:
        compare_predictions([0, 1, 0, 1], {"a": [0, 0, 0, 0], "b": [0, 1, 1, 1]},
                            metric="precision", n_draws=200)
    assert [w.filename for w in record] == [__file__]
    # Only the package's warnings: older scikit-learn's LogisticRegression warns of
    # scipy's deprecated `disp` argument on its own.
    with pytest.warns(UndefinedMetricWarning) as record:
        compare_estimators(models, X, y, cv=3, metric="precision", n_draws=200)
    record = [w for w in record if issubclass(w.category, UserWarning)]
    assert [str(w.message).split()[1:3] for w in record] == [["is", "ill-defined"],
                                                            ["is", "undefined"]]
    assert [w.filename for w in record] == [__file__] * 2
    results = {name: cross_validate(model, X, y, cv=3, scoring=CountsScorer())
               for name, model in models.items()}
    # UndefinedMetricWarning is a UserWarning: the three warnings are recorded together.
    with pytest.warns(UserWarning) as record:
        compare_cv_results(results, metric="precision", n_draws=200)
    record = [w for w in record if issubclass(w.category, UserWarning)]
    assert [w.category for w in record] == [UndefinedMetricWarning, UserWarning,
                                            UndefinedMetricWarning]
    assert "counts only" in str(record[1].message)
    assert [w.filename for w in record] == [__file__] * 3


def test_average_precision_uses_the_positive_class_scores(data):
    X, y = data
    flipped = compare_estimators({"logreg": LogisticRegression(), "nb": GaussianNB()}, X, y,
                                 cv=3, pos_label=0, n_draws=2000)
    relabelled = compare_estimators({"logreg": LogisticRegression(), "nb": GaussianNB()}, X,
                                    1 - y, cv=3, n_draws=2000)
    np.testing.assert_allclose(flipped.summary["average_precision"],
                               relabelled.summary["average_precision"])
    assert (flipped.summary["average_precision"] > flipped.summary[
        "random_average_precision"]).all()


def test_multiclass_target_and_bad_pos_label_are_rejected(data):
    X, y = data
    with pytest.raises(ValueError, match="`average` must be .* got 'binary' with 3 labels"):
        compare_estimators(_models(), X, np.arange(y.shape[0]) % 3)
    with pytest.raises(ValueError, match="`pos_label` must be one of the labels"):
        compare_estimators(_models(), X, np.where(y == 1, "yes", "no"))


def test_fbeta_reports_use_beta(data):
    # F2 on the pooled counts by hand: (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp).
    X, y = data
    report = compare_estimators({"logreg": LogisticRegression(), "nb": GaussianNB()}, X, y,
                                cv=3, metric="fbeta", beta=2.0, n_draws=2000)
    row = report.summary.loc["nb"]
    expected = 5 * row["tp"] / (5 * row["tp"] + 4 * row["fn"] + row["fp"])
    assert row["point"] == pytest.approx(expected)
    assert row["mean"] == pytest.approx(metric_posterior(
        ConfusionCounts(row["tp"], row["fp"], row["fn"], row["tn"]), metric="fbeta",
        beta=2.0).mean())
    with pytest.raises(ValueError, match="`beta` must be a finite number > 0"):
        compare_estimators(_models(), X, y, metric="fbeta", beta=0.0)


def test_printed_report_leaves_out_what_holds_nothing():
    # A new user's command-line run printed empty pair matrices, 'Empty DataFrame',
    # blank score columns and, with average=None, the per-label table twice.
    from skprobeval import compare_predictions

    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 90)
    good = np.where(rng.random(90) < 0.8, y, rng.integers(0, 3, 90))
    poor = np.where(rng.random(90) < 0.5, y, rng.integers(0, 3, 90))
    one = compare_predictions(y, {"good": good}, average="macro", random_state=0)
    text, markdown, html = str(one), one.to_markdown(), one.to_html()
    for rendered in (text, markdown, html):
        assert "One system: no pair to compare." in rendered
        assert "paired Dirichlet" not in rendered and "Empty DataFrame" not in rendered
        assert "average_precision" not in rendered           # no scores: left out
    assert "average_precision" in one.summary.columns       # the data keep the column
    per_label = compare_predictions(y, {"good": good, "poor": poor}, average=None,
                                    random_state=0)
    assert "Per label (one-vs-rest)" not in str(per_label)  # the summary is per label
    assert "paired Dirichlet" in str(per_label)
    macro = compare_predictions(y, {"good": good, "poor": poor}, average="macro",
                                random_state=0)
    assert "Per label (one-vs-rest)" in str(macro) and "One system" not in str(macro)


def test_exported_counts_are_integers_unless_weighted():
    # CSV and JSON wrote 109.0 for a count of 109 items.
    from skprobeval import compare_predictions

    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 60)
    pred = np.where(rng.random(60) < 0.7, y, rng.integers(0, 3, 60))
    report = compare_predictions(y, {"a": pred, "b": y}, average="macro", random_state=0)
    assert report.to_csv().splitlines()[1].split(",")[1:5] == [
        str(int(v)) for v in report.summary.loc["a", ["tp", "fp", "fn", "tn"]]]
    assert all(isinstance(report.to_dict()["summary"]["a"][c], int)
               for c in ("tp", "fp", "fn", "tn"))
    weighted = compare_predictions(y, {"a": pred, "b": y}, average="macro",
                                   sample_weight=np.full(60, 0.3), random_state=0)
    assert isinstance(weighted.to_dict()["summary"]["a"]["tp"], float)
    assert report.summary["tp"].dtype == float              # the DataFrame is unchanged
