"""scikit-learn integration: posterior scorers, CountsScorer, PosteriorRefit."""

import pickle

import numpy as np
import pytest
import sklearn
from scipy import stats
from sklearn.datasets import load_digits, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer
from sklearn.model_selection import (
    GridSearchCV,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skprobeval import (
    BetaPosterior,
    ConfusionCounts,
    CountsScorer,
    DifferencePosterior,
    FBetaPosterior,
    PosteriorRefit,
    available_metrics,
    fallout_score,
    fbeta_posterior,
    make_posterior_scorer,
    metric_posterior,
    posterior_score,
)


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=240, n_features=8, random_state=0)


GRID = {"C": [0.001, 0.1, 10.0]}


@pytest.mark.xdist_group("processes")     # its pool of processes starts once
def test_grid_search_with_posterior_scorer_n_jobs_and_pickle(data):
    X, y = data
    scorer = make_posterior_scorer(metric="f1", statistic="lower", confidence=0.9)
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
    lower = metric_posterior(counts, metric="f1").interval(0.9).low
    scorer = make_posterior_scorer(metric="f1", statistic="lower", confidence=0.9)
    assert scorer(model, X, y) == pytest.approx(lower)
    mean = metric_posterior(counts, metric="precision").mean()
    assert make_posterior_scorer(metric="precision")(model, X, y) == pytest.approx(mean)
    above = metric_posterior(counts, metric="f1").prob_greater(0.8)
    assert make_posterior_scorer(metric="f1", statistic="prob_above", threshold=0.8)(
        model, X, y) == pytest.approx(above)


def test_loss_metrics_are_negated(data):
    X, y = data
    model = LogisticRegression().fit(X, y)
    counts = ConfusionCounts.from_predictions(y, model.predict(X))
    fallout = metric_posterior(counts, metric="fallout").mean()
    assert make_posterior_scorer(metric="fallout")(model, X, y) == pytest.approx(-fallout)


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
    scoring = {"f1": "f1", "f1_lower": make_posterior_scorer(metric="f1", statistic="lower"),
               "recall_mean": make_posterior_scorer(metric="recall")}
    search = GridSearchCV(LogisticRegression(), GRID, scoring=scoring, refit="f1_lower",
                          cv=3).fit(X, y)
    assert {"mean_test_f1", "mean_test_f1_lower", "mean_test_recall_mean"} <= set(
        search.cv_results_)
    assert np.all(search.cv_results_["mean_test_f1_lower"] < search.cv_results_["mean_test_f1"])


def test_repr_names_metric_and_statistic():
    text = repr(make_posterior_scorer(metric="informedness", statistic="median"))
    assert "metric=informedness" in text and "statistic=median" in text


def test_sample_weight_without_routing(data):
    X, y = data
    model = LogisticRegression().fit(X, y)
    weight = np.random.default_rng(0).uniform(0, 2, size=y.shape[0])
    scorer = make_posterior_scorer(metric="f1")
    expected = posterior_score(y, model.predict(X), metric="f1", sample_weight=weight)
    assert scorer(model, X, y, sample_weight=weight) == pytest.approx(expected)
    assert scorer(model, X, y, sample_weight=weight) != pytest.approx(scorer(model, X, y))


def test_sample_weight_through_metadata_routing(data):
    X, y = data
    weight = np.random.default_rng(1).uniform(0, 2, size=y.shape[0])
    splits = list(StratifiedKFold(3).split(X, y))
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_posterior_scorer(metric="f1").set_score_request(sample_weight=True)
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
    assert PosteriorRefit(metric="f1", statistic="lower")(cv_results) == 1
    assert PosteriorRefit(metric="f1", statistic="upper")(cv_results) == 0
    pooled = PosteriorRefit(metric="f1").scores(cv_results)
    direct = metric_posterior(ConfusionCounts([9, 900], [0, 60], [1, 60], [9, 900]),
                              metric="f1").interval(0.95).low
    np.testing.assert_allclose(pooled, direct)


def test_posterior_refit_in_grid_search_pools_folds(data):
    X, y = data
    search = GridSearchCV(LogisticRegression(), GRID, cv=3, scoring=CountsScorer(),
                          refit=PosteriorRefit(metric="f1")).fit(X, y)
    results = search.cv_results_
    scores = []
    for i in range(len(GRID["C"])):
        cells = [sum(results[f"split{k}_test_{c}"][i] for k in range(3))
                 for c in ("tp", "fp", "fn", "tn")]
        scores.append(metric_posterior(ConfusionCounts(*cells), metric="f1").interval(0.95).low)
    assert search.best_index_ == int(np.argmax(scores))
    assert pickle.loads(pickle.dumps(search)).best_params_ == search.best_params_


def test_counts_in_a_multi_metric_dict(data):
    X, y = data
    scoring = {"f1": "f1", **CountsScorer().as_scoring()}
    search = GridSearchCV(LogisticRegression(), GRID, cv=3, scoring=scoring,
                          refit=PosteriorRefit(metric="f1")).fit(X, y)
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
        make_posterior_scorer(metric="f1", **kwargs)


def test_posterior_refit_with_per_label_counts():
    # Multiclass: CountsScorer(labels=...) keys are pooled over labels with average="micro".
    # Behaviour change (intended): the default average="binary" used to pool per-label keys
    # silently; it now raises, and "micro" on every label of single-label data is the share
    # of items right, Beta(right + K lam, wrong + K lam), instead of the F1 of the pooled
    # one-vs-rest table (which counts every wrong item twice).
    X, y = make_classification(n_samples=240, n_classes=3, n_informative=4, random_state=0)
    search = GridSearchCV(LogisticRegression(max_iter=1000), {"C": [0.001, 1.0]}, cv=3,
                          scoring=CountsScorer(labels=[0, 1, 2]),
                          refit=PosteriorRefit(metric="f1", average="micro")).fit(X, y)
    results = search.cv_results_
    right = sum(results[f"split{k}_test_tp_{label}"] for k in range(3) for label in range(3))
    lower = stats.beta(right + 3 * 0.5, y.shape[0] - right + 3 * 0.5).ppf(0.05)
    assert search.best_index_ == int(np.argmax(lower))
    with pytest.raises(ValueError, match="`average` must be 'micro', 'macro'"):
        PosteriorRefit(metric="f1")(results)


def test_posterior_refit_rejects_results_without_counts():
    with pytest.raises(ValueError, match="`cv_results` must be results recorded"):
        PosteriorRefit()({"split0_test_score": np.array([0.5])})


def test_unsupported_average_is_rejected_when_building_the_scorer():
    # Behaviour change (intended): every metric now takes "macro" and "weighted" (accuracy
    # among them); only "powers" is limited to informedness and markedness.
    with pytest.raises(ValueError, match="`average` must be one of .* for metric 'f1'"):
        make_posterior_scorer(metric="f1", average="powers")
    make_posterior_scorer(metric="accuracy", average="macro")


# ---------------------------------------------------------------------------
# Every metric and average, seeded sampling
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def three_classes():
    X, y = make_classification(n_samples=300, n_classes=3, n_informative=4, random_state=1)
    y_pred = LogisticRegression(max_iter=1000).fit(X, y).predict(X)
    return y, y_pred


@pytest.mark.parametrize("metric", available_metrics())
@pytest.mark.parametrize("average", ["micro", "macro", "weighted"])
def test_every_metric_takes_every_average(three_classes, metric, average):
    # Reference: metric_posterior of each label's one-vs-rest counts, averaged.  A macro
    # (weighted) average of sampled per-label values has the mean of the per-label means
    # (linearity of expectation).  The joint K x K prior gives each label's TP, FP and FN
    # cells λ, as the one-vs-rest posterior does, but its TN cell (2K - 3)λ instead of λ:
    # metrics involving TN may shift by up to (2K - 3)λ / n on top of Monte Carlo error.
    y, y_pred = three_classes
    if metric == "balanced_accuracy" or (metric in ("accuracy", "error") and average != "micro"):
        # scikit-learn defines these for K classes otherwise (balanced_accuracy_score is macro
        # recall; accuracy_score the share of items right): refused, never silently different.
        with pytest.raises(ValueError, match="`metric`|`average`"):
            posterior_score(y, y_pred, metric=metric, average=average, n_draws=4000)
        return
    score = posterior_score(y, y_pred, metric=metric, average=average, n_draws=4000)
    assert np.isfinite(score)
    assert score == posterior_score(y, y_pred, metric=metric, average=average, n_draws=4000)
    if average == "micro":
        return
    counts = ConfusionCounts.from_predictions(y, y_pred, average=None)
    per_label = metric_posterior(counts, metric=metric, n_draws=4000, random_state=0)
    weights = np.ones(3) if average == "macro" else counts.tp + counts.fn
    weights = weights / weights.sum()
    expected = float(np.asarray(per_label.mean()) @ weights)
    # The labels of one K x K draw are dependent: the weighted sum of the per-label
    # standard deviations bounds the spread of their average.
    bound = float(np.sqrt(np.asarray(per_label.var())) @ weights) / np.sqrt(4000)
    mc_error = float(np.max(getattr(per_label, "mc_error", 0.0)))   # sampled references
    prior_shift = (2 * 3 - 3) * 0.5 / y.shape[0]
    assert score == pytest.approx(expected, abs=4 * bound + 4 * mc_error + prior_shift)


def test_macro_score_is_deterministic_and_seeded(three_classes):
    # Three identical calls gave three different numbers when no seed was passed.
    y, y_pred = three_classes
    scores = [posterior_score(y, y_pred, metric="f1", average="macro") for _ in range(3)]
    assert scores[0] == scores[1] == scores[2]
    # Reference: the library's macro F1 posterior with the same seed (the same draws).
    posterior = fbeta_posterior(y, y_pred, average="macro", random_state=0)
    assert scores[0] == posterior.mean()
    # The mean is exact (the average of the labels' exact means): no seed moves it.
    assert posterior_score(y, y_pred, metric="f1", average="macro", random_state=1) == scores[0]
    # A bound of the sampled interval still depends on the seed, within its Monte Carlo error.
    lower = [posterior_score(y, y_pred, metric="f1", average="macro", statistic="lower",
                             random_state=seed) for seed in (0, 1)]
    assert lower[0] != lower[1]
    assert lower[1] == pytest.approx(lower[0], abs=0.01)
    scorer = make_posterior_scorer(metric="f1", average="macro", statistic="lower")
    restored = pickle.loads(pickle.dumps(scorer))
    assert restored._kwargs["random_state"] == 0 and restored._kwargs["n_draws"] == 10_000


def test_scorer_validates_sampling_arguments():
    with pytest.raises(ValueError, match="`n_draws` must be an integer from 2 to"):
        make_posterior_scorer(metric="f1", average="macro", n_draws=1)
    with pytest.raises(ValueError, match="`random_state` must be"):
        make_posterior_scorer(metric="f1", random_state=-1)
    with pytest.raises(TypeError, match="`random_state` must be"):
        make_posterior_scorer(metric="f1", random_state="zero")
    with pytest.raises(ValueError, match="`average` must be one of .*None would give one"):
        make_posterior_scorer(metric="f1", average=None)
    with pytest.raises(ValueError, match="`average` must be"):
        posterior_score([0, 1, 2], [0, 1, 1], average=None)


# ---------------------------------------------------------------------------
# CountsScorer and PosteriorRefit on multiclass targets
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def digits():
    X, y = load_digits(return_X_y=True)
    return X[:300], y[:300]


def _digits_search(X, y):
    # 2 000 draws a split: the checks below are exact (counts, the refit rule's own choice,
    # seeded repeats) and do not depend on the number of draws (10 000 took 0.05 s a split).
    scoring = {"f1_macro_lower": make_posterior_scorer(metric="f1", average="macro",
                                                       statistic="lower", n_draws=2000),
               **CountsScorer(labels=list(range(10))).as_scoring()}
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    return GridSearchCV(model, {"logisticregression__C": [0.001, 0.01, 1.0]}, cv=3,
                        scoring=scoring, refit=PosteriorRefit(average="macro"),
                        n_jobs=2).fit(X, y)


@pytest.mark.xdist_group("processes")     # its pool of processes starts once
def test_digits_grid_search_with_macro_scorer_and_refit(digits):
    X, y = digits
    first = _digits_search(X, y)
    second = _digits_search(X, y)
    results = first.cv_results_
    # Counts of every digit add up to the items of each fold.
    for k in range(3):
        for label in range(10):
            total = sum(results[f"split{k}_test_{cell}_{label}"] for cell in
                        ("tp", "fp", "fn", "tn"))
            np.testing.assert_array_equal(total, total[0])
    assert np.sum([results[f"split{k}_test_tp_{label}"][first.best_index_]
                   for k in range(3) for label in range(10)]) <= y.shape[0]
    # The refit rule ranks by its own pooled posterior; identical searches agree exactly.
    scores = PosteriorRefit(average="macro").scores(results)
    assert first.best_index_ == int(np.argmax(scores))
    for key in ("mean_test_f1_macro_lower", *(f"split{k}_test_f1_macro_lower" for k in range(3))):
        np.testing.assert_array_equal(results[key], second.cv_results_[key])
    assert first.best_index_ == second.best_index_
    assert np.all(np.isfinite(results["mean_test_f1_macro_lower"]))
    assert first.predict(X[:5]).shape == (5,)


def _per_label_results(tables, extra=None):
    """cv_results_ of per-label counts from K x K confusion matrices [split][candidate]."""
    results = {}
    n_candidates = len(tables[0])
    for k, split in enumerate(tables):
        matrices = [np.asarray(m, dtype=float) for m in split]
        for label in range(matrices[0].shape[0]):
            tp = np.array([m[label, label] for m in matrices])
            fp = np.array([m[:, label].sum() for m in matrices]) - tp
            fn = np.array([m[label].sum() for m in matrices]) - tp
            tn = np.array([m.sum() for m in matrices]) - tp - fp - fn
            for cell, values in zip(("tp", "fp", "fn", "tn"), (tp, fp, fn, tn)):
                results[f"split{k}_test_{cell}_{label}"] = values
    results.update(extra or {})
    results["params"] = [{"candidate": i} for i in range(n_candidates)]
    return results


# Two candidates, two splits, three labels (rows true, columns predicted).
TABLES = [
    [[[20, 3, 1], [2, 15, 4], [0, 5, 10]], [[22, 1, 1], [6, 12, 3], [2, 2, 11]]],
    [[[18, 2, 2], [1, 19, 2], [3, 1, 12]], [[19, 2, 1], [4, 16, 2], [1, 4, 11]]],
]


def test_micro_refit_is_the_share_of_right_beta():
    # Reference: single-label data, every label: micro precision = recall = F1 = accuracy
    # = share of items right ~ Beta(right + lam, wrong + lam) (scipy.stats.beta), lam = 1/2
    # a side of the share whatever K.
    results = _per_label_results(TABLES, extra={"split0_test_fp_rate": np.array([0.1, 0.2]),
                                                "split1_test_fp_rate": np.array([0.1, 0.2])})
    matrices = np.asarray(TABLES, dtype=float)            # (split, candidate, K, K)
    right = np.trace(matrices, axis1=2, axis2=3).sum(axis=0)
    wrong = matrices.sum(axis=(0, 2, 3)) - right
    for metric in ("f1", "precision", "recall", "accuracy"):
        got = PosteriorRefit(metric=metric, average="micro").scores(results)
        np.testing.assert_allclose(got, stats.beta(right + 0.5, wrong + 0.5).ppf(0.025),
                                   rtol=1e-10)
    mean = PosteriorRefit(metric="f1", average="micro", statistic="mean").scores(results)
    np.testing.assert_allclose(mean, (right + 0.5) / (right + wrong + 1.0), rtol=1e-12)


def test_micro_refit_on_a_subset_of_labels_pools_the_tables():
    # Labels 0 and 1 of three: not every item is covered, so the posterior is that of the
    # pooled one-vs-rest table (the posterior of the summed counts, metric_posterior).
    results = _per_label_results(TABLES)
    subset = {key: value for key, value in results.items() if not key.endswith("_2")}
    got = PosteriorRefit(metric="f1", average="micro").scores(subset)
    cells = [sum(subset[f"split{k}_test_{cell}_{label}"] for k in range(2) for label in range(2))
             for cell in ("tp", "fp", "fn", "tn")]
    np.testing.assert_allclose(got, metric_posterior(ConfusionCounts(*cells),
                                                     metric="f1").interval(0.95).low)


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_macro_refit_from_per_label_counts(average, seed):
    # Reference: each label's exact one-vs-rest posterior (FBetaPosterior) with the masses
    # the K x K prior gives its cells (d = 2 lam / K = 1/3 on FP and FN: the tables are
    # single-label data) and an F-score's lam = 1/2 on TP.  The average's mean is the
    # (weighted) mean of the label means, exactly; the draws agree with it within their
    # Monte Carlo error.
    results = _per_label_results(TABLES)
    refit = PosteriorRefit(metric="f1", average=average, statistic="mean", n_draws=20_000,
                           random_state=seed)
    got = refit.scores(results)
    for i in range(2):
        cells = [sum(results[f"split{k}_test_{cell}_{label}"][i] for k in range(2))
                 for label in range(3) for cell in ("tp", "fp", "fn", "tn")]
        counts = ConfusionCounts(*np.asarray(cells).reshape(3, 4).T)
        per_label = FBetaPosterior(counts.tp + 1 / 2, counts.fp + 1 / 3, counts.fn + 1 / 3)
        weights = np.ones(3) if average == "macro" else counts.tp + counts.fn
        weights = weights / weights.sum()
        expected = float(np.asarray(per_label.mean()) @ weights)
        assert got[i] == pytest.approx(expected, rel=1e-12)
    np.testing.assert_array_equal(got, refit.scores(results))
    median = PosteriorRefit(metric="f1", average=average, statistic="median", n_draws=20_000,
                            random_state=seed).scores(results)
    assert np.all(np.abs(median - got) < 0.02)     # a sampled statistic, near the mean


def test_powers_refit_for_informedness():
    # Reference: Powers' weighting of informedness by predicted share (tp + fp), as
    # label_weights does, of the labels' exact posterior means; each label's cells carry
    # the K x K prior's masses (single-label data): d = 2 lam / K = 1/3 on TP, FP and FN,
    # 4 lam - 3d = 1 on TN.
    results = _per_label_results(TABLES)
    got = PosteriorRefit(metric="informedness", average="powers", statistic="mean").scores(results)
    cells = np.asarray([[sum(results[f"split{k}_test_{cell}_{label}"][0] for k in range(2))
                         for cell in ("tp", "fp", "fn", "tn")] for label in range(3)])
    tp, fp, fn, tn = cells.T
    d = 1 / 3
    per_label = DifferencePosterior(BetaPosterior(tp + d, fn + d), BetaPosterior(fp + d, tn + 1))
    weights = (tp + fp) / (tp + fp).sum()
    expected = float(np.asarray(per_label.mean()) @ weights)
    assert got[0] == pytest.approx(expected, rel=1e-12)


def test_repeated_cv_counts_are_divided_by_n_repeats(data):
    # Reference: the pooled counts computed here from cv_results_, divided by the 5 repeats
    # (each item is tested once per repeat), through metric_posterior.
    X, y = data
    cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=0)
    search = GridSearchCV(LogisticRegression(), GRID, cv=cv, scoring=CountsScorer(),
                          refit=PosteriorRefit(n_repeats=5)).fit(X, y)
    results = search.cv_results_
    cells = [sum(results[f"split{k}_test_{cell}"] for k in range(10))
             for cell in ("tp", "fp", "fn", "tn")]
    np.testing.assert_allclose(sum(cells), 5 * y.shape[0])
    expected = metric_posterior(ConfusionCounts(*(c / 5 for c in cells)),
                                metric="f1").interval(0.95).low
    got = PosteriorRefit(n_repeats=5).scores(results)
    np.testing.assert_allclose(got, expected, rtol=1e-10)
    assert search.best_index_ == int(np.argmax(expected))
    assert np.all(got < PosteriorRefit(n_repeats=1).scores(results))
    with pytest.raises(ValueError, match=r"`n_repeats` must be a divisor of the number of "
                                         r"splits \(10\); got 4"):
        PosteriorRefit(n_repeats=4).scores(results)


def test_a_scorer_named_like_a_cell_is_not_pooled(data):
    # A user's "fp_rate" scorer leaves split<k>_test_fp_rate keys; they used to be added to
    # the false positives.  Reference: the same results without those keys, and the binary
    # counts pooled here.
    X, y = data
    scoring = {"fp_rate": make_scorer(fallout_score), **CountsScorer().as_scoring()}
    search = GridSearchCV(LogisticRegression(), GRID, cv=3, scoring=scoring,
                          refit=PosteriorRefit(metric="precision")).fit(X, y)
    results = search.cv_results_
    assert np.all(results["split0_test_fp_rate"] > 0)     # would change the pooled FP
    without = {key: value for key, value in results.items() if "fp_rate" not in key}
    got = PosteriorRefit(metric="precision").scores(results)
    np.testing.assert_array_equal(got, PosteriorRefit(metric="precision").scores(without))
    tp, fp = (sum(results[f"split{k}_test_{cell}"] for k in range(3)) for cell in ("tp", "fp"))
    np.testing.assert_allclose(got, stats.beta(tp + 0.5, fp + 0.5).ppf(0.025), rtol=1e-10)


def test_refit_without_counts_says_how_to_record_them(data):
    X, y = data
    search = GridSearchCV(LogisticRegression(), GRID, cv=3,
                          scoring=make_posterior_scorer(metric="f1", statistic="lower"),
                          refit=PosteriorRefit())
    with pytest.raises(ValueError, match=r"PosteriorRefit pools .*"
                                         r"\*\*CountsScorer\(labels=\.\.\.\)\.as_scoring\(\)"):
        search.fit(X, y)


def test_refit_average_must_match_the_recorded_counts():
    binary = {"split0_test_tp": np.array([5.0]), "split0_test_fp": np.array([1.0]),
              "split0_test_fn": np.array([2.0]), "split0_test_tn": np.array([7.0])}
    with pytest.raises(ValueError, match="`average` must be 'binary' for binary counts"):
        PosteriorRefit(average="macro").scores(binary)
    with pytest.raises(ValueError, match="`average` must be 'micro', 'macro', 'weighted' or "
                                         "'powers' for per-label counts"):
        PosteriorRefit().scores(_per_label_results(TABLES))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"average": "powers"}, ValueError, "`average` must be one of .* for metric 'f1'"),
    ({"average": None}, ValueError, "`average` must be one of"),
    ({"n_repeats": 0}, ValueError, "`n_repeats` must be an integer >= 1; got 0"),
    ({"n_repeats": 2.5}, ValueError, "`n_repeats` must be an integer >= 1; got 2.5"),
    ({"n_repeats": "5"}, TypeError, "`n_repeats` must be an integer >= 1"),
    ({"n_draws": 1}, ValueError, "`n_draws` must be an integer from 2 to"),
    ({"random_state": -3}, ValueError, "`random_state` must be"),
    ({"statistic": "best"}, ValueError, "`statistic` must be one of"),
])
def test_bad_refit_arguments_fail_when_built(kwargs, error, message):
    with pytest.raises(error, match=message):
        PosteriorRefit(metric="f1", **kwargs)


def test_refit_repr_shows_every_parameter():
    text = repr(PosteriorRefit(metric="recall", average="macro", n_repeats=5, random_state=3))
    assert text == ("PosteriorRefit(metric='recall', statistic='lower', confidence=0.95, "
                    "threshold=None, prior=0.5, beta=1.0, average='macro', n_repeats=5, "
                    "n_draws=10000, random_state=3)")


def test_renaming_the_classes_keeps_grid_search_scores_and_the_refit_choice():
    # GridSearchCV ties were decided by the names of the classes: the macro scorer and
    # PosteriorRefit drew the per-label tables in label order.  Renamed classes
    # (0->2, 1->0, 2->1) must give every candidate the same scores.
    from skprobeval import CountsScorer, PosteriorRefit

    X, y = make_classification(n_samples=240, n_classes=3, n_informative=4, random_state=0)
    results = []
    for labels in (y, np.array([2, 0, 1])[y]):
        scoring = {"lower": make_posterior_scorer(metric="f1", average="macro",
                                                  statistic="lower", n_draws=500),
                   "weighted": make_posterior_scorer(metric="mcc", average="weighted",
                                                     n_draws=500),
                   **CountsScorer(labels=range(3)).as_scoring()}
        search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring=scoring,
                              refit=False, cv=2).fit(X, labels)
        results.append([search.cv_results_["mean_test_lower"],
                        search.cv_results_["mean_test_weighted"],
                        PosteriorRefit(average="macro", statistic="lower",
                                       n_draws=500).scores(search.cv_results_)])
    for first, renamed in zip(*results):
        np.testing.assert_array_equal(renamed, first)


def test_macro_mean_scores_and_refit_are_exact():
    # The scorers' and PosteriorRefit's "mean" of a label average is the average of the
    # labels' exact posterior means.  Reference: the public exact posteriors of each label's
    # one-vs-rest counts, with the prior mass each aggregated cell gets from the K x K prior
    # (d = 2 lam / K on FP and FN, 4 lam - 3d on TN; F1 does not involve TN) and an F-score's
    # own lam on TP.
    X, y = make_classification(n_samples=240, n_classes=3, n_informative=4, random_state=0)
    d = 2 * 0.5 / 3
    grid = {"C": [0.01, 1.0]}
    search = GridSearchCV(LogisticRegression(), grid, cv=3, refit=False, scoring={
        "seed0": make_posterior_scorer(metric="f1", average="macro", n_draws=500),
        "seed1": make_posterior_scorer(metric="f1", average="macro", n_draws=500,
                                       random_state=1),
        **CountsScorer(labels=range(3)).as_scoring()}).fit(X, y)
    np.testing.assert_array_equal(search.cv_results_["split0_test_seed0"],
                                  search.cv_results_["split0_test_seed1"])
    model = LogisticRegression(C=1.0).fit(X, y)
    counts = ConfusionCounts.from_predictions(y, model.predict(X), average=None)
    expected = np.mean(FBetaPosterior(counts.tp + 0.5, counts.fp + d, counts.fn + d).mean())
    scorer = make_posterior_scorer(metric="f1", average="macro", n_draws=500)
    assert scorer(model, X, y) == pytest.approx(expected, rel=1e-12)
    # PosteriorRefit pools the folds' per-label counts (independent tables, the same priors).
    refit = PosteriorRefit(metric="f1", average="macro", statistic="mean", n_draws=500)
    scores = refit.scores(search.cv_results_)
    again = PosteriorRefit(metric="f1", average="macro", statistic="mean", n_draws=500,
                           random_state=1).scores(search.cv_results_)
    np.testing.assert_array_equal(scores, again)
    # The labels cover single-label data, so each label's table gets the K x K prior's
    # aggregated masses (d on FP and FN, the F-score's lam on TP), not lam on every cell.
    results = search.cv_results_
    for i in range(2):
        pooled = {cell: np.array([sum(results[f"split{k}_test_{cell}_{label}"][i]
                                      for k in range(3)) for label in range(3)], dtype=float)
                  for cell in ("tp", "fp", "fn")}
        expected = np.mean(FBetaPosterior(pooled["tp"] + 0.5, pooled["fp"] + d,
                                          pooled["fn"] + d).mean())
        assert scores[i] == pytest.approx(expected, rel=1e-12)
