"""skore's reports as evidence: `compare_cv_results` and `compare_predictions` read
skore's cross-validation, estimator and comparison reports through their public
methods, and give the reports the same arrays would give."""

import warnings

import numpy as np
import pandas as pd
import pytest
from optional import needs
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from skprobeval import compare_cv_results, compare_estimators, compare_predictions

pytestmark = needs("skore")

FAST = {"n_draws": 2_000}


def _skore():
    import skore

    return skore


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return X, y


def _models():
    return {"logreg": make_pipeline(StandardScaler(), LogisticRegression()),
            "nb": GaussianNB()}


def _cv_reports(models, X, y, cv):
    skore = _skore()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: skore.CrossValidationReport(model, X, y, splitter=cv)
                for name, model in models.items()}


def _assert_same_report(a, b):
    for table in ("summary", "pairwise", "pairwise_metric", "pairs", "ttest", "per_fold"):
        pd.testing.assert_frame_equal(getattr(a, table), getattr(b, table), obj=table)
    pd.testing.assert_series_equal(a.ranking.prob_best, b.ranking.prob_best)


def test_comparison_report_of_cross_validations_is_compare_estimators(cancer):
    # The same models on the same splits: the same counts and the same seeded figures.
    X, y = cancer
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    skore = _skore()
    comparison = skore.ComparisonReport(_cv_reports(_models(), X, y, cv))
    from_skore = compare_cv_results(comparison, **FAST)
    direct = compare_estimators(_models(), X, y, cv=cv, **FAST)
    _assert_same_report(from_skore, direct)
    assert from_skore.summary[["tp", "fp", "fn", "tn"]].to_numpy().sum() == y.shape[0] * 2
    # The scores came along: average precision is filled from predict_proba.
    assert np.isfinite(from_skore.summary["average_precision"]).all()


def test_list_and_dict_of_cross_validation_reports(cancer):
    X, y = cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    reports = _cv_reports(_models(), X, y, cv)
    by_dict = compare_cv_results(reports, **FAST)
    assert list(by_dict.summary.index) == ["logreg", "nb"]
    by_list = compare_cv_results(list(reports.values()), **FAST)
    # Named by skore's estimator names.
    assert list(by_list.summary.index) == ["LogisticRegression", "GaussianNB"]
    np.testing.assert_array_equal(by_list.summary.to_numpy(), by_dict.summary.to_numpy())
    twice = compare_cv_results([reports["nb"], reports["nb"]], **FAST)
    assert list(twice.summary.index) == ["GaussianNB", "GaussianNB_2"]


def test_multiclass_cross_validation_reports_match_compare_estimators():
    X, y = load_iris(return_X_y=True)
    models = {"logreg": LogisticRegression(max_iter=1000), "nb": GaussianNB()}
    cv = StratifiedKFold(5, shuffle=True, random_state=1)
    from_skore = compare_cv_results(_cv_reports(models, X, y, cv), average="macro", **FAST)
    direct = compare_estimators(models, X, y, cv=cv, average="macro", **FAST)
    _assert_same_report(from_skore, direct)


def test_decision_function_scores_are_read(cancer):
    # LinearSVC has no predict_proba: its decision values rank the items.
    X, y = cancer
    models = {"svc": make_pipeline(StandardScaler(), LinearSVC()), "nb": GaussianNB()}
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    from_skore = compare_cv_results(_cv_reports(models, X, y, cv), **FAST)
    direct = compare_estimators(models, X, y, cv=cv, **FAST)
    pd.testing.assert_frame_equal(from_skore.summary, direct.summary)


def test_estimator_reports_on_one_test_set(cancer):
    X, y = cancer
    skore = _skore()
    train, test = slice(0, 400), slice(400, None)
    reports = {name: skore.EstimatorReport(model, X_train=X[train], y_train=y[train],
                                           X_test=X[test], y_test=y[test])
               for name, model in _models().items()}
    fitted = {name: model.fit(X[train], y[train]) for name, model in _models().items()}
    direct = compare_predictions(
        y[test], {name: model.predict(X[test]) for name, model in fitted.items()},
        scores={name: model.predict_proba(X[test])[:, 1] for name, model in fitted.items()},
        **FAST)
    for given in (skore.ComparisonReport(reports), reports):
        from_skore = compare_predictions(given, **FAST)
        _assert_same_report(from_skore, direct)
    # y_true may be passed too, and must then be the reports' own.
    from_skore = compare_predictions(y[test], reports, **FAST)
    pd.testing.assert_frame_equal(from_skore.summary, direct.summary)
    with pytest.raises(ValueError, match="`y_true` must be None or the reports' own target"):
        compare_predictions(1 - y[test], reports, **FAST)


def test_string_labels_take_the_reports_positive_label(cancer):
    X, y = cancer
    labels = np.where(y == 1, "benign", "malignant")
    skore = _skore()
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reports = {name: skore.CrossValidationReport(model, X, labels, splitter=cv,
                                                     pos_label="malignant")
                   for name, model in _models().items()}
    from_skore = compare_cv_results(reports, **FAST)
    direct = compare_estimators(_models(), X, labels, cv=cv, pos_label="malignant", **FAST)
    pd.testing.assert_frame_equal(from_skore.summary, direct.summary)


# -- bad input ----------------------------------------------------------------------


def test_regression_reports_are_refused(cancer):
    X, y = cancer
    skore = _skore()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reports = [skore.CrossValidationReport(Ridge(), X, y + 0.5, splitter=3)
                   for _ in range(2)]
    with pytest.raises(ValueError, match="`results` must be reports of classifiers; got "
                                         ".*regression"):
        compare_cv_results(reports)


class _WithoutTestData:
    """A report as skore's public methods show one that holds no test data (skore 0.28
    refuses to build such an EstimatorReport; a later release, or a report loaded from
    a project, may hold one)."""

    def __init__(self, report):
        self.ml_task, self.y_test = report.ml_task, report.y_test

    def get_predictions(self, *, data_source, response_method="predict"):
        raise ValueError(f"No {data_source} data were provided")


def test_reports_without_test_predictions_are_refused(cancer):
    X, y = cancer
    skore = _skore()
    report = skore.EstimatorReport(GaussianNB(), X_train=X[:300], y_train=y[:300],
                                   X_test=X[300:], y_test=y[300:])
    with pytest.raises(ValueError, match="`predictions` must be reports holding test "
                                         "predictions; got 'b', whose get_predictions"):
        compare_predictions({"a": report, "b": _WithoutTestData(report)})


def test_reports_on_different_targets_are_refused(cancer):
    X, y = cancer
    skore = _skore()
    first = skore.EstimatorReport(GaussianNB(), X_train=X[:300], y_train=y[:300],
                                  X_test=X[300:], y_test=y[300:])
    second = skore.EstimatorReport(GaussianNB(), X_train=X[:200], y_train=y[:200],
                                   X_test=X[200:], y_test=y[200:])
    with pytest.raises(ValueError, match="`predictions` must be reports on the same target"):
        compare_predictions({"a": first, "b": second})


def test_mixed_and_misplaced_reports_are_refused(cancer):
    X, y = cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    reports = _cv_reports(_models(), X, y, cv)
    with pytest.raises(ValueError, match="may not mix skore reports with other results"):
        compare_cv_results({"skore": reports["nb"], "plain": np.zeros(3)})
    with pytest.raises(ValueError, match="estimator reports .*compare_cv_results"):
        compare_predictions(reports)
    with pytest.raises(ValueError, match="at least two skore reports in a list or dict"):
        compare_cv_results([reports["nb"]])
    # One report alone: that model's own posterior.
    alone = compare_cv_results(reports["nb"], **FAST)
    assert list(alone.summary.index) == ["GaussianNB"]
    assert alone.verdict().text.startswith("One system (GaussianNB): f1 ")
    with pytest.raises(TypeError, match="`scores` must be None with skore reports"):
        skore = _skore()
        estimator = skore.EstimatorReport(GaussianNB(), X_train=X[:300], y_train=y[:300],
                                          X_test=X[300:], y_test=y[300:])
        compare_predictions({"a": estimator, "b": estimator}, scores={"a": y[300:]})


def test_the_user_guide_page_runs():
    # The worked example of the user guide's page on skore reports.
    import doctest
    import pathlib

    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "user_guide" / "skore.rst"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = doctest.testfile(str(page), module_relative=False,
                                  optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 15 and result.failed == 0
