"""scikit-learn integration: posterior scorers, CountsScorer, PosteriorRefit."""

import pickle

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate

from skprobeval import (
    ConfusionCounts,
    CountsScorer,
    PosteriorRefit,
    fbeta_posterior,
    make_posterior_scorer,
    metric_posterior,
    posterior_score,
)


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=240, n_features=8, random_state=0)


GRID = {"C": [0.001, 0.1, 10.0]}


def test_grid_search_with_posterior_scorer_n_jobs_and_pickle(data):
    X, y = data
    scorer = make_posterior_scorer("f1", statistic="lower", confidence=0.9)
    search = GridSearchCV(LogisticRegression(), GRID, scoring=scorer, cv=3, n_jobs=2).fit(X, y)
    restored = pickle.loads(pickle.dumps(search))
    assert restored.best_params_ == search.best_params_
    np.testing.assert_array_equal(restored.predict(X), search.predict(X))
    assert pickle.loads(pickle.dumps(scorer))._kwargs == scorer._kwargs


def test_scorer_value_is_the_posterior_statistic(data):
    # Reference: the posterior of the same counts, computed directly.
    X, y = data
    model = LogisticRegression().fit(X, y)
    y_pred = model.predict(X)
    counts = ConfusionCounts.from_predictions(y, y_pred)
    lower = metric_posterior(counts, "f1").interval(0.9).low
    assert make_posterior_scorer("f1", statistic="lower")(model, X, y) == pytest.approx(lower)
    mean = metric_posterior(counts, "precision").mean()
    assert make_posterior_scorer("precision")(model, X, y) == pytest.approx(mean)
    above = metric_posterior(counts, "f1").prob_greater(0.8)
    assert make_posterior_scorer("f1", statistic="prob_above", threshold=0.8)(
        model, X, y) == pytest.approx(above)


def test_loss_metrics_are_negated(data):
    X, y = data
    model = LogisticRegression().fit(X, y)
    counts = ConfusionCounts.from_predictions(y, model.predict(X))
    fallout = metric_posterior(counts, "fallout").mean()
    assert make_posterior_scorer("fallout")(model, X, y) == pytest.approx(-fallout)


def test_macro_average_scorer_uses_averaged_posterior(data):
    X, y3 = make_classification(n_samples=200, n_classes=3, n_informative=4, random_state=1)
    model = LogisticRegression(max_iter=1000).fit(X, y3)
    y_pred = model.predict(X)
    expected = fbeta_posterior(y3, y_pred, average="macro").mean()
    got = posterior_score(y3, y_pred, metric="f1", average="macro")
    assert got == pytest.approx(expected, abs=4 * fbeta_posterior(y3, y_pred,
                                                                 average="macro").mc_error + 1e-9)


def test_multi_metric_dict(data):
    X, y = data
    scoring = {"f1": "f1", "f1_lower": make_posterior_scorer("f1", statistic="lower"),
               "recall_mean": make_posterior_scorer("recall")}
    search = GridSearchCV(LogisticRegression(), GRID, scoring=scoring, refit="f1_lower",
                          cv=3).fit(X, y)
    assert {"mean_test_f1", "mean_test_f1_lower", "mean_test_recall_mean"} <= set(
        search.cv_results_)
    assert np.all(search.cv_results_["mean_test_f1_lower"] < search.cv_results_["mean_test_f1"])


def test_repr_names_metric_and_statistic():
    text = repr(make_posterior_scorer("informedness", statistic="median"))
    assert "metric=informedness" in text and "statistic=median" in text


def test_sample_weight_without_routing(data):
    X, y = data
    model = LogisticRegression().fit(X, y)
    weight = np.random.default_rng(0).uniform(0, 2, size=y.shape[0])
    scorer = make_posterior_scorer("f1")
    expected = posterior_score(y, model.predict(X), metric="f1", sample_weight=weight)
    assert scorer(model, X, y, sample_weight=weight) == pytest.approx(expected)
    assert scorer(model, X, y, sample_weight=weight) != pytest.approx(scorer(model, X, y))


def test_sample_weight_through_metadata_routing(data):
    X, y = data
    weight = np.random.default_rng(1).uniform(0, 2, size=y.shape[0])
    splits = list(StratifiedKFold(3).split(X, y))
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_posterior_scorer("f1").set_score_request(sample_weight=True)
        counts_scorer = CountsScorer().set_score_request(sample_weight=True)
        model = LogisticRegression().set_fit_request(sample_weight=False)
        result = cross_validate(model, X, y, cv=splits, params={"sample_weight": weight},
                                scoring=scorer, return_estimator=True)
        counted = cross_validate(model, X, y, cv=splits, params={"sample_weight": weight},
                                 scoring=counts_scorer)
    for k, (fitted, (_, test)) in enumerate(zip(result["estimator"], splits)):
        expected = posterior_score(y[test], fitted.predict(X[test]), metric="f1",
                                   sample_weight=weight[test])
        assert result["test_score"][k] == pytest.approx(expected)
        total = sum(counted[f"test_{cell}"][k] for cell in ("tp", "fp", "fn", "tn"))
        assert total == pytest.approx(weight[test].sum())


def test_counts_scorer_sums_to_number_of_samples(data):
    X, y = data
    result = cross_validate(LogisticRegression(), X, y, cv=4, scoring=CountsScorer())
    total = sum(result[f"test_{cell}"].sum() for cell in ("tp", "fp", "fn", "tn"))
    assert total == y.shape[0]


def test_counts_scorer_per_label_keys():
    X, y = make_classification(n_samples=150, n_classes=3, n_informative=4, random_state=0)
    scorer = CountsScorer(labels=[0, 1, 2])
    result = cross_validate(LogisticRegression(max_iter=1000), X, y, cv=3, scoring=scorer)
    assert {f"test_{key}" for key in scorer.keys} <= set(result)
    for label in (0, 1, 2):
        assert sum(result[f"test_{cell}_{label}"].sum() for cell in ("tp", "fp", "fn", "tn")) \
            == y.shape[0]


def test_posterior_refit_prefers_the_surely_good_candidate():
    # Candidate 0: F1 0.947 on 19 items; candidate 1: F1 0.9375 on 1920 items.  The
    # lower credible bound prefers 1, the upper bound prefers 0.
    cv_results = {
        "split0_test_tp": np.array([9.0, 900.0]), "split0_test_fp": np.array([0.0, 60.0]),
        "split0_test_fn": np.array([1.0, 60.0]), "split0_test_tn": np.array([9.0, 900.0]),
        "params": [{"c": 0}, {"c": 1}],
    }
    assert PosteriorRefit("f1", statistic="lower")(cv_results) == 1
    assert PosteriorRefit("f1", statistic="upper")(cv_results) == 0
    pooled = PosteriorRefit("f1").scores(cv_results)
    direct = metric_posterior(ConfusionCounts([9, 900], [0, 60], [1, 60], [9, 900]),
                              "f1").interval(0.9).low
    np.testing.assert_allclose(pooled, direct)


def test_posterior_refit_in_grid_search_pools_folds(data):
    X, y = data
    search = GridSearchCV(LogisticRegression(), GRID, cv=3, scoring=CountsScorer(),
                          refit=PosteriorRefit("f1")).fit(X, y)
    results = search.cv_results_
    scores = []
    for i in range(len(GRID["C"])):
        cells = [sum(results[f"split{k}_test_{c}"][i] for k in range(3))
                 for c in ("tp", "fp", "fn", "tn")]
        scores.append(metric_posterior(ConfusionCounts(*cells), "f1").interval(0.9).low)
    assert search.best_index_ == int(np.argmax(scores))
    assert pickle.loads(pickle.dumps(search)).best_params_ == search.best_params_


def test_counts_in_a_multi_metric_dict(data):
    X, y = data
    scoring = {"f1": "f1", **CountsScorer().as_scoring()}
    search = GridSearchCV(LogisticRegression(), GRID, cv=3, scoring=scoring,
                          refit=PosteriorRefit("f1")).fit(X, y)
    assert {"split0_test_tp", "mean_test_f1"} <= set(search.cv_results_)


@pytest.mark.parametrize("kwargs, message", [
    ({"statistic": "best"}, "`statistic` must be one of"),
    ({"statistic": "prob_above"}, "`threshold` must be a number"),
    ({"confidence": 1.5}, "`confidence` must be a float in the open interval"),
    ({"prior": -1.0}, "`prior` must be a finite number > 0"),
    ({"beta": 0.0}, "`beta` must be a finite number > 0"),
    ({"average": "samples"}, "`average` must be one of"),
])
def test_bad_scorer_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_posterior_scorer("f1", **kwargs)


def test_posterior_refit_with_per_label_counts():
    # Multiclass: CountsScorer(labels=...) keys are pooled over labels (micro).
    X, y = make_classification(n_samples=240, n_classes=3, n_informative=4, random_state=0)
    search = GridSearchCV(LogisticRegression(max_iter=1000), {"C": [0.001, 1.0]}, cv=3,
                          scoring=CountsScorer(labels=[0, 1, 2]),
                          refit=PosteriorRefit("f1")).fit(X, y)
    results = search.cv_results_
    cells = [sum(results[f"split{k}_test_{c}_{label}"] for k in range(3) for label in range(3))
             for c in ("tp", "fp", "fn", "tn")]
    lower = metric_posterior(ConfusionCounts(*cells), "f1").interval(0.9).low
    assert search.best_index_ == int(np.argmax(lower))


def test_posterior_refit_rejects_results_without_counts():
    with pytest.raises(ValueError, match="`cv_results` must be results recorded"):
        PosteriorRefit()({"split0_test_score": np.array([0.5])})


def test_unsupported_average_is_rejected_when_building_the_scorer():
    with pytest.raises(ValueError, match="`average` must be 'binary' or 'micro' for metric"):
        make_posterior_scorer("accuracy", average="macro")
