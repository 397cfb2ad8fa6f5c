"""Multiclass and multilabel comparisons: reports, paired models, averages."""

import math

import numpy as np
import pandas as pd
import pytest
from optional import needs
from sklearn.datasets import load_digits, make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    average_precision_score,
    confusion_matrix,
    f1_score,
    precision_score,
    recall_score,
)
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_val_predict,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skprobeval import (
    BetaPosterior,
    ConfusionCounts,
    DifferencePosterior,
    FBetaPosterior,
    PairedComparison,
    SampledPosterior,
    compare_cv_results,
    compare_estimators,
    compare_paired,
    compare_paired_metric,
    compare_predictions,
    fbeta_posterior,
    metric_posterior,
    posterior_report,
    posterior_score,
)

LAM = 0.5


def _systems(rng, n, k, accuracies):
    """A truth of k classes and systems right with the given probabilities (else uniform)."""
    truth = rng.integers(0, k, size=n)
    systems = [np.where(rng.random(n) < p, truth, rng.integers(0, k, size=n))
               for p in accuracies]
    return truth, systems


def _paired_prior(k, lam):
    """The (true, A, B) prior written out densely, as the user guide states it."""
    prior = np.zeros((k, k, k))
    off = lam / (2 * (k - 1))
    for t in range(k):
        for a in range(k):
            for b in range(k):
                if a == t and b == t:
                    prior[t, a, b] = lam / 2
                elif a == t or b == t or a == b:
                    prior[t, a, b] = off
    return prior


def _macro_f1_of_tables(tables, extra=None):
    """Macro F1 of K x K tables (draws, K, K), rows true; `extra` (draws, K) added to each
    label's TP, in the tables' units (an F-score's own prior mass on TP)."""
    tp = np.diagonal(tables, axis1=1, axis2=2)
    pred = tables.sum(axis=1)
    true = tables.sum(axis=2)
    if extra is not None:
        tp, pred, true = tp + extra, pred + extra, true + extra
    return (2 * tp / (pred + true)).mean(axis=1)


def _f_score_extra(k, rng, size):
    """Gamma variates of an F-score's own TP mass beyond the table's: lam - 2 lam / K."""
    return rng.standard_gamma(LAM - 2 * LAM / k, size=(size, k))


def _monte_carlo_paired_macro_f1(truth, a, b, k, n_draws, seed):
    """P(macro F1 of A > of B) by a dense K^3 Dirichlet, independent of the library's sampler."""
    cube = np.zeros((k, k, k))
    np.add.at(cube, (truth, a, b), 1.0)
    alpha = (cube + _paired_prior(k, LAM)).ravel()
    keep = alpha > 0
    rng = np.random.default_rng(seed)
    wins = 0
    for _ in range(n_draws // 10_000):
        # Unnormalised Gamma cells (a Dirichlet draw times its Gamma total), and the
        # F-score's own TP mass, the same for both systems (the cell both are right in).
        draws = np.zeros((10_000, k ** 3))
        draws[:, keep] = rng.standard_gamma(alpha[keep], size=(10_000, int(keep.sum())))
        cubes = draws.reshape(-1, k, k, k)
        extra = _f_score_extra(k, rng, 10_000)
        wins += np.sum(_macro_f1_of_tables(cubes.sum(axis=3), extra)
                       > _macro_f1_of_tables(cubes.sum(axis=2), extra))
    return wins / n_draws


# ---------------------------------------------------------------------------
# Acceptance on digits
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def digits():
    return load_digits(return_X_y=True)


def _digit_models():
    return {"logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=300)),
            "nb": GaussianNB(),
            "tree": DecisionTreeClassifier(max_depth=8, random_state=0)}


# The acceptance data: the first 500 digits (all ten classes, 46-53 items each) and
# 2 000 draws in the default run (1-1.5 s for the report and the references together;
# 3-4 s at 900 digits and 5 000 draws); all 1 797 digits and 20 000 draws in the slow
# tier (7-10 s).  No assertion depends on the size: the points and predictions are
# exact, macro F1's mean is exact, and every P(better than chance) checked against
# 0.999 is 1 at either size (the lowest model's 95% interval starts at macro F1 0.77,
# chance is near 0.1).  The tests that read the report share a worker (xdist_group), so
# that it is computed once.
@pytest.fixture(scope="module", params=[
    pytest.param((500, 2000), id="500-items"),
    pytest.param((None, 20_000), id="all-items", marks=pytest.mark.slow)])
def digits_data(request, digits):
    n, n_draws = request.param
    X, y = digits
    return X[:n], y[:n], n_draws


@pytest.fixture(scope="module")
def digits_report(digits_data):
    X, y, n_draws = digits_data
    return compare_estimators(_digit_models(), X, y, cv=5, metric="f1", average="macro",
                              n_draws=n_draws)


@pytest.fixture(scope="module")
def digits_out_of_fold(digits_data):
    """scikit-learn's pooled out-of-fold predictions of each model on the report's folds,
    and the logistic model's macro average precision per fold (from predict_proba).
    The logistic model is fitted once per fold for both (the loop cross_val_predict
    runs: fit on the training folds, predict the test fold); the others by
    cross_val_predict itself."""
    X, y, _ = digits_data
    splits = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    models = _digit_models()
    pooled = {name: cross_val_predict(models[name], X, y, cv=splits) for name in ("nb", "tree")}
    pooled["logreg"] = np.empty_like(y)
    average_precision = []
    for train, test in splits:
        model = _digit_models()["logreg"].fit(X[train], y[train])
        pooled["logreg"][test] = model.predict(X[test])
        average_precision.append(average_precision_score(
            np.eye(10)[y[test]], model.predict_proba(X[test]), average="macro"))
    return splits, pooled, average_precision


@pytest.mark.xdist_group("digits-report")
def test_digits_points_equal_scikit_learn_on_pooled_out_of_fold_predictions(digits_data,
                                                                             digits_report,
                                                                             digits_out_of_fold):
    _, y, _ = digits_data
    _, pooled_predictions, _ = digits_out_of_fold
    for name in _digit_models():
        pooled = pooled_predictions[name]
        expected = f1_score(y, pooled, average="macro")      # scikit-learn's macro F1
        assert digits_report.summary.loc[name, "point"] == pytest.approx(expected, abs=1e-12)
        assert digits_report.summary.loc[name, "low"] < digits_report.summary.loc[name, "high"]
        np.testing.assert_array_equal(digits_report.predictions[name][0], pooled)


@pytest.mark.xdist_group("digits-report")
def test_digits_pairwise_probabilities_sum_to_one(digits_report):
    for table in (digits_report.pairwise, digits_report.pairwise_metric):
        values = table.to_numpy()
        off = ~np.eye(3, dtype=bool)
        np.testing.assert_allclose((values + values.T)[off], 1.0, atol=1e-12)
    pairs = digits_report.pairs
    total = pairs[["prob_first_better", "prob_equivalent", "prob_second_better"]].sum(axis=1)
    np.testing.assert_allclose(total, 1.0, atol=1e-12)


@pytest.mark.xdist_group("digits-report")
def test_digits_report_tables(digits_report):
    assert digits_report.average == "macro" and digits_report.metric_label == "f1 (macro)"
    assert list(digits_report.per_label.index.get_level_values("label")[:10]) == list(range(10))
    # Macro F1's mean is exact (the average of the labels' exact means): no Monte Carlo error.
    assert (digits_report.summary["mc_error"] == 0).all()
    assert (digits_report.summary["prob_better_than_chance"] > 0.999).all()
    # Average precision of the scores against the exact random-ranking baseline.
    assert (digits_report.summary["average_precision"]
            > digits_report.summary["random_average_precision"]).all()
    assert len(digits_report.ttest) == 3 and digits_report.ttest.notna().all().all()
    text = str(digits_report)
    assert "P(row f1 (macro) > column)" in text and "Per label" in text


def test_paired_macro_f1_agrees_with_an_independent_monte_carlo(seed):
    # Moderately different systems, K = 4: P is neither 0 nor 1.
    rng = np.random.default_rng(2024)
    truth, (a, b) = _systems(rng, 150, 4, (0.72, 0.66))
    # 20 000 draws each (0.1 s; 40 000 took 0.25 s): the bound is four standard errors
    # of the difference of the two estimates, whatever the draw count.
    n_draws = 20_000
    result = compare_paired_metric(truth, a, b, average="macro", n_draws=n_draws,
                                   random_state=seed)
    reference = _monte_carlo_paired_macro_f1(truth, a, b, 4, n_draws, seed + 1)
    assert 0.05 < reference < 0.95
    se = math.sqrt(2 * reference * (1 - reference) / n_draws)
    assert abs(result.prob_first_better - reference) <= 4 * se
    assert result.prob_first_better + result.prob_second_better == pytest.approx(1.0)


def test_single_system_macro_posterior_agrees_with_an_independent_monte_carlo(seed):
    rng = np.random.default_rng(7)
    truth, (pred,) = _systems(rng, 120, 5, (0.7,))
    posterior = fbeta_posterior(truth, pred, average="macro", n_draws=40_000,
                                random_state=seed)
    matrix = np.zeros((5, 5))
    np.add.at(matrix, (truth, pred), 1.0)
    # The K x K prior: d = 2 lam / K on the diagonal, d / (K - 1) off it, drawn as
    # unnormalised Gamma cells; each label's F1 adds its own TP mass lam - d.
    prior = np.full((5, 5), 2 * LAM / 5 / 4)
    np.fill_diagonal(prior, 2 * LAM / 5)
    rng = np.random.default_rng(seed + 1)
    draws = rng.standard_gamma((matrix + prior).ravel(), size=(40_000, 25))
    values = _macro_f1_of_tables(draws.reshape(-1, 5, 5), _f_score_extra(5, rng, 40_000))
    error = math.hypot(posterior.mc_error, values.std() / math.sqrt(values.size))
    assert abs(posterior.mean() - values.mean()) <= 4 * error
    assert abs(posterior.ppf(0.05) - np.quantile(values, 0.05)) < 0.01


# ---------------------------------------------------------------------------
# Micro averages, right-more-often, per label
# ---------------------------------------------------------------------------


def test_micro_of_single_label_multiclass_is_the_exact_accuracy_posterior():
    rng = np.random.default_rng(1)
    truth, (a, b) = _systems(rng, 200, 4, (0.8, 0.7))
    for metric in ("f1", "precision", "recall", "accuracy"):
        report = compare_predictions(truth, {"a": a, "b": b}, metric=metric, average="micro")
        for name, pred in (("a", a), ("b", b)):
            right = float(np.sum(truth == pred))
            # Beta(right + lam, wrong + lam): the share of items right with lam a side
            # (Jeffreys' prior on the share at lam = 1/2), as the binary accuracy.
            exact = BetaPosterior(right + LAM, 200 - right + LAM)
            row = report.summary.loc[name]
            assert row["point"] == pytest.approx(right / 200, abs=1e-15)
            assert row["mean"] == pytest.approx(exact.mean(), rel=1e-12)
            assert (row["low"], row["high"]) == pytest.approx(tuple(exact.interval(0.95)),
                                                              rel=1e-10)
            assert row["mc_error"] == 0.0
    # Micro accuracy over a subset of labels has no meaning of its own: refused.
    with pytest.raises(ValueError, match="`labels` must be None"):
        compare_predictions(truth, {"a": a, "b": b}, metric="accuracy", average="micro",
                            labels=[0, 1])


@pytest.mark.xdist_group("digits-report")
def test_right_more_often_equals_compare_paired_on_pooled_predictions(digits_data, digits_report,
                                                                     digits_out_of_fold):
    _, y, _ = digits_data
    splits, pooled, _ = digits_out_of_fold
    order = np.concatenate([test for _, test in splits])
    expected = compare_paired(y[order], pooled["nb"][order], pooled["tree"][order])
    assert digits_report.pairwise.loc["nb", "tree"] == pytest.approx(
        expected.prob_first_better, rel=1e-12)


def test_per_label_report_has_one_row_per_label():
    rng = np.random.default_rng(3)
    labels = np.array(["bird", "cat", "dog"])
    truth, (a, b) = _systems(rng, 240, 3, (0.8, 0.65))
    truth, a, b = labels[truth], labels[a], labels[b]
    report = compare_predictions(truth, {"a": a, "b": b}, average=None, n_draws=5000)
    assert list(report.summary.index) == [(s, label) for s in "ab" for label in labels]
    expected = f1_score(truth, a, average=None, labels=labels)
    np.testing.assert_allclose(report.summary.loc["a", "point"], expected, rtol=1e-12)
    assert set(report.pairs["label"]) == set(labels)
    assert report.pairwise_metric.index.names == ["label", "first"]


def test_labels_subset_and_order():
    rng = np.random.default_rng(4)
    truth, (a, b) = _systems(rng, 300, 4, (0.8, 0.6))
    report = compare_predictions(truth, {"a": a, "b": b}, average="macro", labels=[3, 1],
                                 n_draws=5000)
    expected = f1_score(truth, a, average="macro", labels=[3, 1])
    assert report.summary.loc["a", "point"] == pytest.approx(expected, abs=1e-12)
    assert report.labels == [3, 1]
    assert list(report.per_label.loc["a"].index) == [3, 1]


def test_weighted_and_powers_points():
    from skprobeval import informedness_score

    rng = np.random.default_rng(5)
    truth, (a, b) = _systems(rng, 300, 3, (0.75, 0.6))
    weighted = compare_predictions(truth, {"a": a, "b": b}, metric="recall", average="weighted",
                                   n_draws=5000)
    assert weighted.summary.loc["a", "point"] == pytest.approx(
        recall_score(truth, a, average="weighted"), abs=1e-12)
    powers = compare_predictions(truth, {"a": a, "b": b}, metric="informedness",
                                 average="powers", n_draws=5000)
    assert powers.summary.loc["a", "point"] == pytest.approx(
        informedness_score(truth, a, average="powers"), abs=1e-12)
    assert abs(powers.summary.loc["a", "mean"] - powers.summary.loc["a", "point"]) < 0.05


# ---------------------------------------------------------------------------
# Multilabel
# ---------------------------------------------------------------------------


def test_multilabel_compare_predictions_points_equal_scikit_learn():
    X, Y = make_multilabel_classification(n_samples=300, n_classes=4, random_state=0)
    rng = np.random.default_rng(0)
    a = np.where(rng.random(Y.shape) < 0.85, Y, 1 - Y)
    b = np.where(rng.random(Y.shape) < 0.75, Y, 1 - Y)
    for average, function in (("micro", f1_score), ("macro", f1_score),
                              ("weighted", precision_score)):
        metric = "f1" if function is f1_score else "precision"
        report = compare_predictions(Y, {"a": a, "b": b}, metric=metric, average=average,
                                     n_draws=5000)
        for name, pred in (("a", a), ("b", b)):
            assert report.summary.loc[name, "point"] == pytest.approx(
                function(Y, pred, average=average), abs=1e-12)
        assert report.pairwise_metric.loc["a", "b"] > 0.99
    # Right more often: an item is right when every one of its labels is (exact match).
    exact_a, exact_b = np.all(a == Y, axis=1), np.all(b == Y, axis=1)
    expected = compare_paired(np.ones(300, bool), exact_a, exact_b)
    assert report.pairwise.loc["a", "b"] == pytest.approx(expected.prob_first_better)
    assert report.predictions["a"].shape == (1, 300, 4)


# random_state=1 takes about 4 s (3.5 s in make_multilabel_classification's rejection
# sampler): the slow tier; the same run on the data of random_state=5 (0.1 s) in the
# default run.  The logistic fits see standardized features: on the raw counts they ran
# to their iteration limit (0.1-2.7 s, by the machine's load).
@pytest.mark.parametrize("random_state", [5, pytest.param(1, marks=pytest.mark.slow)])
def test_multilabel_compare_estimators_runs_with_kfold(random_state):
    from sklearn.multiclass import OneVsRestClassifier

    X, Y = make_multilabel_classification(n_samples=200, n_classes=3,
                                          random_state=random_state)
    logreg = make_pipeline(StandardScaler(), LogisticRegression())
    report = compare_estimators({"logreg": OneVsRestClassifier(logreg),
                                 "nb": OneVsRestClassifier(GaussianNB())}, X, Y, cv=3,
                                average="macro", n_draws=500)
    # Points and average precision only: no assertion reads a draw.
    assert report.summary["point"].between(0, 1).all()
    assert report.summary["average_precision"].notna().all()


# ---------------------------------------------------------------------------
# Cross-validation results, repeats, determinism, scores
# ---------------------------------------------------------------------------


def test_compare_cv_results_equals_compare_estimators_on_multiclass(digits):
    X, y = digits
    X, y = X[:600], y[:600]
    models = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=6, random_state=0)}
    splits = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    results = {name: cross_validate(model, X, y, cv=splits, return_estimator=True,
                                    return_indices=True) for name, model in models.items()}
    # Exact equality of the two reports: 1 000 draws check it as well as more would.
    from_results = compare_cv_results(results, y=y, X=X, average="weighted", n_draws=1000)
    direct = compare_estimators(models, X, y, cv=3, average="weighted", n_draws=1000)
    pd.testing.assert_frame_equal(from_results.summary, direct.summary)
    pd.testing.assert_frame_equal(from_results.pairs, direct.pairs)
    pd.testing.assert_frame_equal(from_results.ttest, direct.ttest)


def test_repeated_cv_divides_multiclass_counts(digits):
    X, y = digits
    X, y = X[:400], y[:400]
    cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=2, random_state=0)
    report = compare_estimators({"nb": GaussianNB(),
                                 "tree": DecisionTreeClassifier(max_depth=5, random_state=0)},
                                X, y, cv=cv, average="macro", n_draws=500)
    assert report.n_repeats == 2     # counts and predictions: no assertion reads a draw
    per_label = report.per_label.loc["nb"]
    np.testing.assert_allclose((per_label["tp"] + per_label["fn"]).sum(), 400)
    assert report.predictions["nb"].shape == (2, 400)


def test_identical_input_identical_report():
    rng = np.random.default_rng(6)
    truth, (a, b, c) = _systems(rng, 200, 5, (0.8, 0.7, 0.75))
    # Exact equality: 1 000 draws check it as well as more would.
    first = compare_predictions(truth, {"a": a, "b": b, "c": c}, average="macro",
                                n_draws=1000, random_state=3)
    again = compare_predictions(truth, {"a": a, "b": b, "c": c}, average="macro",
                                n_draws=1000, random_state=3)
    pd.testing.assert_frame_equal(first.summary, again.summary)
    pd.testing.assert_frame_equal(first.pairs, again.pairs)


def test_average_precision_columns_from_scores():
    rng = np.random.default_rng(8)
    truth, (a,) = _systems(rng, 300, 3, (0.7,))
    scores = rng.random((300, 3)) + np.eye(3)[truth] * 0.5
    report = compare_predictions(truth, {"a": a, "b": a}, average="macro",
                                 scores={"a": scores}, n_draws=2000)
    onehot = np.eye(3)[truth]
    expected = np.mean([average_precision_score(onehot[:, k], scores[:, k]) for k in range(3)])
    assert report.summary.loc["a", "average_precision"] == pytest.approx(expected, rel=1e-12)
    assert np.isnan(report.summary.loc["b", "average_precision"])


# ---------------------------------------------------------------------------
# The prior does not swamp a small test set (K = 10, n = 200)
# ---------------------------------------------------------------------------


def test_prior_mass_is_small_next_to_two_hundred_items():
    rng = np.random.default_rng(10)
    truth, (a, b) = _systems(rng, 200, 10, (0.80, 0.72))
    # Macro F1's mean is exact (no Monte Carlo error): 2 000 draws serve as well as more.
    report = compare_predictions(truth, {"a": a, "b": b}, average="macro", n_draws=2000)
    for name, pred in (("a", a), ("b", b)):
        observed = f1_score(truth, pred, average="macro")
        assert abs(report.summary.loc[name, "mean"] - observed) < 0.03
    from skprobeval._counting._counts import joint_codes
    from skprobeval._posteriors._joint import JointTable

    table = JointTable(joint_codes(truth, [a, b], average="macro"), LAM)
    # Total prior mass 4 lam = 2 pseudo-items next to 200 real ones, whatever K.
    assert table.alpha.sum() == pytest.approx(200 + 4 * LAM)


@pytest.mark.parametrize("k, n", [(4, 5000), (60, 300)])
def test_joint_cells_counted_directly_equal_cells_counted_by_sorting(k, n, monkeypatch):
    # The (truth, A, B) cells are counted with one bincount when there are few
    # possible cells and by sorting the observed codes otherwise: same table.
    from skprobeval._counting._counts import joint_codes
    from skprobeval._posteriors import _joint

    rng = np.random.default_rng(12)
    truth, (a, b) = _systems(rng, n, k, (0.8, 0.7))
    weight = rng.integers(0, 3, n).astype(float)
    joint = joint_codes(truth, [a, b], average="macro", sample_weight=weight)
    tables = []
    for limit in (0, 10 ** 9):
        monkeypatch.setattr(_joint, "_DIRECT_CELLS", limit)
        monkeypatch.setattr(_joint, "_DIRECT_PER_ITEM", limit)
        tables.append(_joint.JointTable(joint, LAM))
    sorted_, direct = tables
    np.testing.assert_array_equal(direct.alpha, sorted_.alpha)
    np.testing.assert_array_equal(direct._observed_counts, sorted_._observed_counts)
    np.testing.assert_array_equal(np.asarray(direct._map.todense() if hasattr(
        direct._map, "todense") else direct._map), np.asarray(
        sorted_._map.todense() if hasattr(sorted_._map, "todense") else sorted_._map))
    assert direct._observed_counts.sum() == weight.sum()


def test_paired_prior_aggregates_to_the_paired_dirichlet(seed):
    # Accuracy difference of the (true, A, B) model = pi1 - pi2 of the paired Dirichlet
    # with (N1 + lam, N2 + lam, N3 + 2 lam): the K^3 prior spreads d = 2 lam / K per label.
    rng = np.random.default_rng(11)
    truth, (a, b) = _systems(rng, 150, 3, (0.7, 0.65))
    sampled = compare_paired_metric(truth, a, b, metric="accuracy", average="micro",
                                    rope=0.01, n_draws=60_000, random_state=seed)
    from skprobeval import PairedCounts

    exact = PairedComparison.from_counts(PairedCounts.from_predictions(truth, a, b),
                                         prior=(0.5, 0.5, 1.0), rope=0.01)
    for name in ("prob_first_better", "prob_equivalent", "prob_second_better"):
        p = getattr(exact, name)
        assert abs(getattr(sampled, name) - p) <= 4 * math.sqrt(p * (1 - p) / 60_000) + 1e-12


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, name, shown", [
    ({"average": "binary"}, "`average`", "'binary' with 3 labels"),
    ({"average": "powers"}, "`average`", "'powers'"),
    ({"average": "sideways"}, "`average`", "'sideways'"),
    ({"average": "macro", "labels": ["emu"]}, "`labels`", "['emu'] absent"),
])
def test_bad_averages_and_labels(kwargs, name, shown):
    truth = ["cat", "dog", "bird", "cat", "dog", "bird"]
    with pytest.raises(ValueError, match=name) as error:
        compare_predictions(truth, {"a": truth, "b": truth[::-1]}, **kwargs)
    assert shown in str(error.value) and "np.str_" not in str(error.value)


def test_bad_average_is_rejected_before_fitting(digits):
    X, y = digits
    with pytest.raises(ValueError, match="`average` must be"):
        compare_estimators({"nb": GaussianNB(), "tree": DecisionTreeClassifier()}, X, y)


@pytest.mark.xdist_group("digits-report")
def test_multiclass_average_precision_ranks_by_probabilities(digits_report, digits_out_of_fold):
    # One-vs-rest rankings of a multinomial model come from predict_proba (its
    # decision_function columns are logits, not comparable across items).  Reference:
    # scikit-learn's average_precision_score(average="macro") per fold, averaged over folds
    # (the logistic model's fits in digits_out_of_fold).
    _, _, values = digits_out_of_fold
    assert digits_report.summary.loc["logreg", "average_precision"] == pytest.approx(
        np.mean(values), rel=1e-9)


def test_a_label_only_another_system_predicts_does_not_change_a_system():
    # scikit-learn averages each system over the labels of the truth and its own
    # predictions: one stray label predicted by "b" must not lower "a"'s macro F1.
    rng = np.random.default_rng(0)
    truth, (a, b) = _systems(rng, 300, 3, (0.85, 0.7))
    names = np.array(["a", "b", "c"])
    truth, a, b = names[truth], names[a], names[b]
    stray = b.astype("<U2")
    stray[0] = "dd"
    clean = compare_predictions(truth, {"a": a, "b": b}, average="macro", n_draws=4000)
    dirty = compare_predictions(truth, {"a": a, "b": stray}, average="macro", n_draws=4000)
    pd.testing.assert_series_equal(clean.summary.loc["a"], dirty.summary.loc["a"])
    assert dirty.summary.loc["b", "point"] == pytest.approx(
        f1_score(truth, stray, average="macro"), abs=1e-12)
    assert "dd" in list(dirty.per_label.loc["a"].index)


@pytest.mark.parametrize("metric, average, name", [
    ("accuracy", "macro", "`average`"),
    ("error", "weighted", "`average`"),
    ("balanced_accuracy", "macro", "`metric`"),
])
def test_metrics_scikit_learn_defines_otherwise_are_refused(metric, average, name):
    # accuracy_score of K classes is the share of items right (micro here);
    # balanced_accuracy_score of K classes is macro recall.
    rng = np.random.default_rng(9)
    truth, (a, b) = _systems(rng, 120, 3, (0.8, 0.7))
    with pytest.raises(ValueError, match=name):
        compare_predictions(truth, {"a": a, "b": b}, metric=metric, average=average)
    X, Y = make_multilabel_classification(n_samples=50, n_classes=3, random_state=0)
    with pytest.raises(ValueError, match="`metric`"):
        compare_predictions(Y, {"a": Y, "b": 1 - Y}, metric="accuracy", average="micro")


@needs("matplotlib")
def test_per_label_report_plots_and_posteriors():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from skprobeval.plotting import plot_posteriors

    rng = np.random.default_rng(12)
    truth, (a, b) = _systems(rng, 150, 3, (0.8, 0.6))
    report = compare_predictions(truth, {"a": a, "b": b}, average=None, n_draws=500)
    ax = report.plot()
    assert ax.get_title() == "P(row right more often than column)"
    plt.close(ax.figure)
    assert set(report.posteriors) == {(s, k) for s in "ab" for k in range(3)}
    ax = plot_posteriors({f"{s} {k}": p for (s, k), p in report.posteriors.items()})
    plt.close(ax.figure)


# ---------------------------------------------------------------------------
# Regressions found by a second read of the change
# ---------------------------------------------------------------------------


def test_micro_pairwise_does_not_depend_on_a_stray_label():
    # a and b are right on the same 9 of 12 items; b's one other error predicts an unseen
    # class.  The share of items right is the same: P(a better) is about 1/2 in the report
    # as in compare_paired_metric (it was 0.33 when the label sets were masked).
    y = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    a = [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0]
    b = [0, 0, 0, 3, 1, 1, 1, 2, 2, 2, 2, 0]
    report = compare_predictions(y, {"a": a, "b": b}, average="micro", n_draws=40_000)
    direct = compare_paired_metric(y, a, b, average="micro", n_draws=40_000, random_state=0)
    error = math.sqrt(2 * 0.25 / 40_000)
    assert abs(report.pairs["prob_first_better"].iloc[0] - direct.prob_first_better) <= 4 * error
    assert abs(direct.prob_first_better - 0.5) < 0.02


def test_per_fold_scores_use_the_sample_weights():
    # One test set: the per-fold table is the weighted summary (scikit-learn with weights).
    y = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2, 0])
    a = np.array([0, 1, 0, 1, 1, 2, 2, 2, 0, 0])
    w = np.array([5, 1, 1, 1, 1, 1, 1, 1, 1, 3], dtype=float)
    report = compare_predictions(y, {"a": a, "b": a[::-1]}, average="macro", sample_weight=w,
                                 n_draws=2000)
    expected = f1_score(y, a, average="macro", sample_weight=w)
    assert report.summary.loc["a", "point"] == pytest.approx(expected, abs=1e-12)
    row = report.per_fold[report.per_fold["estimator"] == "a"].iloc[0]
    assert row["score"] == pytest.approx(expected, abs=1e-12)
    assert row["tp"] == report.summary.loc["a", "tp"]


def test_items_a_scheme_never_tests_hold_none():
    from sklearn.model_selection import PredefinedSplit

    X, y = load_digits(return_X_y=True)
    X, y = X[:150], y[:150]
    fold = np.tile([0, 1, -1], 50)
    report = compare_estimators({"nb": GaussianNB(), "tree": DecisionTreeClassifier(
        max_depth=4, random_state=0)}, X, y, cv=PredefinedSplit(fold), average="macro",
        n_draws=2000)
    stored = report.predictions["nb"][0]
    assert all(value is None for value in stored[fold == -1])
    assert not any(value is None for value in stored[fold != -1])


@pytest.mark.parametrize("call, error, name", [
    (lambda y, a: compare_predictions(y, {"a": a}, average="macro",
                                      sample_weight=np.ones(2 * len(y))),
     ValueError, "`sample_weight`"),
    (lambda y, a: compare_predictions(y, {"a": a}, average="macro",
                                      sample_weight=np.ones(len(y) - 1)),
     ValueError, "`sample_weight`"),
    (lambda y, a: compare_predictions(y, {"a": a[:-1]}, average="macro"), ValueError,
     "`y_true`"),
    (lambda y, a: compare_predictions(y, {"a": a}, average="macro",
                                      scores={"a": np.ones((len(y), 2))}),
     ValueError, "`scores`"),
    (lambda y, a: compare_predictions(y, {"a": a}, average="macro", labels=[0, None]),
     TypeError, "`labels`"),
    (lambda y, a: compare_paired_metric(y, a, a[::-1], average="macro", labels=[0, 7]),
     ValueError, "`labels`"),
])
def test_bad_input_found_on_review(call, error, name):
    rng = np.random.default_rng(13)
    y, (a,) = _systems(rng, 30, 3, (0.7,))
    with pytest.raises(error, match=name):
        call(y, a)


def test_a_positive_label_that_is_not_a_label_is_refused():
    from skprobeval import posterior_score

    y = np.array([0, 1, 1, 0, 1, 0, 1, 1])
    with pytest.raises(ValueError, match="`pos_label`"):
        posterior_score(y, y, metric="precision", pos_label=1.5)
    with pytest.raises(ValueError, match="`pos_label`"):
        posterior_score(y.astype(bool), y.astype(bool), metric="precision", pos_label=2)
    assert posterior_score(y.astype(bool), y.astype(bool), metric="precision", pos_label=1) > 0.5


def test_sparse_predictions_are_accepted():
    import scipy.sparse as sp

    X, Y = make_multilabel_classification(n_samples=60, n_classes=3, random_state=2)
    dense = compare_predictions(Y, {"a": Y, "b": 1 - Y}, average="macro", n_draws=2000)
    sparse = compare_predictions(Y, {"a": sp.csr_matrix(Y), "b": sp.csr_matrix(1 - Y)},
                                 average="macro", n_draws=2000)
    pd.testing.assert_frame_equal(dense.summary, sparse.summary)


def test_counts_only_reports_refuse_what_counts_cannot_answer():
    from skprobeval import CountsScorer, PosteriorRefit

    X, y = load_digits(return_X_y=True)
    X, y = X[:300], y[:300]
    splits = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    results = {name: cross_validate(model, X, y, cv=splits,
                                    scoring=CountsScorer(labels=list(range(10))),
                                    return_indices=True)
               for name, model in (("nb", GaussianNB()),
                                   ("tree", DecisionTreeClassifier(max_depth=4,
                                                                   random_state=0)))}
    with pytest.raises(ValueError, match="`average`"):
        compare_cv_results(results, average=None)
    with pytest.raises(ValueError, match="`metric`"):
        compare_cv_results(results, metric="accuracy", average="micro")
    with pytest.raises(ValueError, match="`average`"):
        compare_cv_results(results, metric="accuracy", average="macro")
    cv_results = {f"split{k}_test_{cell}_{label}": np.array([
        results["nb"][f"test_{cell}_{label}"][k]])
        for k in range(3) for cell in ("tp", "fp", "fn", "tn") for label in range(10)}
    with pytest.raises(ValueError, match="`average`"):
        PosteriorRefit(metric="accuracy", average="macro", statistic="mean").scores(cv_results)


def _renamed(values, mapping):
    return np.array([mapping[v] for v in np.asarray(values).tolist()])


@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
@pytest.mark.parametrize("metric", ["f1", "precision", "mcc", "informedness"])
def test_renaming_the_classes_keeps_the_posterior_at_a_fixed_random_state(metric, average):
    # Four classes, a quarter of the predictions drawn at random, uneven weights; the
    # same data with the classes renamed (0->2, 1->0, 2->3, 3->1, and to strings) must
    # give the same posterior: the joint table's cells were drawn in label-code order,
    # so renaming moved the variates between cells (macro F1 0.7556984 against 0.7556798
    # at 10 000 draws before).
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 4, 300)
    y_pred = np.where(rng.random(300) < 0.25, rng.integers(0, 4, 300), y_true)
    weight = rng.uniform(0.5, 2.0, 300)
    results = []
    for mapping in ({0: 0, 1: 1, 2: 2, 3: 3}, {0: 2, 1: 0, 2: 3, 3: 1},
                    {0: "fox", 1: "cat", 2: "emu", 3: "dog"}):
        posterior = metric_posterior(_renamed(y_true, mapping), _renamed(y_pred, mapping),
                                     metric=metric, average=average, sample_weight=weight,
                                     n_draws=2000, random_state=0)
        results.append((posterior.mean(), *posterior.interval(0.9)))
    assert results[1] == results[0]
    assert results[2] == results[0]


def test_renaming_labels_keeps_macro_scores_of_multilabel_and_report_posteriors():
    rng = np.random.default_rng(2)
    truth = (rng.random((200, 4)) < 0.4).astype(int)
    pred = np.where(rng.random((200, 4)) < 0.2, 1 - truth, truth)
    columns = [2, 0, 3, 1]
    for average in ("macro", "weighted"):
        first = posterior_score(truth, pred, average=average, statistic="lower")
        assert posterior_score(truth[:, columns], pred[:, columns], average=average,
                               statistic="lower") == first
    y_true = rng.integers(0, 3, 150)
    y_pred = np.where(rng.random(150) < 0.3, rng.integers(0, 3, 150), y_true)
    mapping = {0: 2, 1: 0, 2: 1}
    report = posterior_report(y_true, y_pred, n_draws=2000, random_state=0)
    renamed = posterior_report(_renamed(y_true, mapping), _renamed(y_pred, mapping),
                               n_draws=2000, random_state=0)
    averages = [row for row in report.index if str(row).endswith("avg")]
    assert averages
    pd.testing.assert_frame_equal(renamed.loc[averages], report.loc[averages], rtol=0, atol=0)


# ---------------------------------------------------------------------------
# Exact means of label averages
# ---------------------------------------------------------------------------


def _weighted_four_classes():
    """Four classes, a quarter of the predictions at random, uneven weights."""
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 4, 300)
    y_pred = np.where(rng.random(300) < 0.25, rng.integers(0, 4, 300), y_true)
    return y_true, y_pred, rng.uniform(0.5, 2.0, 300)


def _label_tables(matrix):
    """Each label's one-vs-rest (tp, fp, fn, tn) of K x K tables (..., K, K)."""
    tp = np.diagonal(matrix, axis1=-2, axis2=-1)
    fp = matrix.sum(axis=-2) - tp
    fn = matrix.sum(axis=-1) - tp
    tn = matrix.sum(axis=(-2, -1))[..., None] - tp - fp - fn
    return tp, fp, fn, tn


def _per_label_exact(metric, tp, fp, fn, tn, beta=2.0):
    """The public exact posterior of one-vs-rest tables of concentrations tp, fp, fn, tn."""
    if metric == "f1":
        return FBetaPosterior(tp, fp, fn)
    if metric == "fbeta":
        return FBetaPosterior(tp, fp, fn, beta=beta)
    if metric == "precision":
        return BetaPosterior(tp, fp)
    if metric == "specificity":
        return BetaPosterior(tn, fp)
    if metric == "informedness":      # recall - fallout
        return DifferencePosterior(BetaPosterior(tp, fn), BetaPosterior(fp, tn))
    assert metric == "markedness"      # precision - false omission rate
    return DifferencePosterior(BetaPosterior(tp, fp), BetaPosterior(fn, tn))


@pytest.mark.parametrize("metric", ["f1", "fbeta", "precision", "specificity", "informedness",
                                    "markedness"])
def test_exact_macro_mean_is_the_average_of_the_labels_exact_posteriors(metric):
    # Brute force by another route: scikit-learn's weighted confusion matrix, each label's
    # one-vs-rest cells read off it, the K x K prior's mass summed over the cells each one
    # gathers (d = 2 lam / K on the diagonal cell, d / (K - 1) on each of the K - 1 other
    # cells of its column and of its row, the rest of the total 4 lam on TN), and the
    # public exact posteriors of those tables averaged.  A label's F-score takes lam on
    # its TP (its own prior), the other metrics the table's d.
    y_true, y_pred, weight = _weighted_four_classes()
    matrix = confusion_matrix(y_true, y_pred, sample_weight=weight)
    tp, fp, fn, tn = _label_tables(matrix)
    k = 4
    d = 2 * LAM / k
    off = d / (k - 1)
    on_tp = LAM if metric in ("f1", "fbeta") else d
    means = _per_label_exact(metric, tp + on_tp, fp + (k - 1) * off, fn + (k - 1) * off,
                             tn + (4 * LAM - d - 2 * (k - 1) * off)).mean()
    support = tp + fn
    averages = {"macro": np.mean(means), "weighted": np.sum(means * support) / support.sum()}
    if metric in ("informedness", "markedness"):
        # Powers: informedness by predicted share, markedness by true share.
        share = tp + fp if metric == "informedness" else support
        averages["powers"] = np.sum(means * share) / share.sum()
    for average, expected in averages.items():
        posterior = metric_posterior(y_true, y_pred, metric=metric, average=average, beta=2.0,
                                     sample_weight=weight, n_draws=200, random_state=0)
        assert isinstance(posterior, SampledPosterior) and posterior.mc_error == 0.0
        assert posterior.mean() == pytest.approx(expected, rel=1e-12, abs=1e-15)
        assert posterior.summary().mc_error == 0.0


def test_exact_macro_mean_of_multilabel_columns_and_a_label_subset():
    # Multilabel: independent columns, lam on each cell: the public per-label posterior.
    rng = np.random.default_rng(2)
    truth = (rng.random((200, 4)) < 0.4).astype(int)
    pred = np.where(rng.random((200, 4)) < 0.2, 1 - truth, truth)
    counts = ConfusionCounts.from_predictions(truth, pred, average=None)
    for metric in ("f1", "recall", "informedness"):
        means = metric_posterior(counts, metric=metric, prior=LAM).mean()
        for average, weights in (("macro", np.ones(4)), ("weighted", counts.tp + counts.fn)):
            posterior = metric_posterior(truth, pred, metric=metric, average=average,
                                         n_draws=200, random_state=0)
            assert posterior.mean() == pytest.approx(np.sum(means * weights) / weights.sum(),
                                                     rel=1e-12)
    # A subset of the labels: K stays the number of classes in the table (here 4).
    y_true, y_pred, weight = _weighted_four_classes()
    tp, fp, fn, tn = (cell[[3, 0]] for cell in _label_tables(
        confusion_matrix(y_true, y_pred, sample_weight=weight)))
    d = 2 * LAM / 4
    expected = np.mean(FBetaPosterior(tp + LAM, fp + d, fn + d).mean())
    subset = fbeta_posterior(y_true, y_pred, average="macro", labels=[3, 0],
                             sample_weight=weight, n_draws=200, random_state=0)
    assert subset.mean() == pytest.approx(expected, rel=1e-12)


# 0.1-0.2 s each (the 100 000 reference draws): F1 (macro) and informedness (weighted) in
# the default run, F-beta (macro) and specificity (weighted) in the slow tier.
@pytest.mark.parametrize("metric, average", [
    ("f1", "macro"), ("informedness", "weighted"),
    pytest.param("fbeta", "macro", marks=pytest.mark.slow),
    pytest.param("specificity", "weighted", marks=pytest.mark.slow)])
def test_exact_macro_mean_agrees_with_many_independent_draws(metric, average):
    # Reference: 100 000 draws of the K x K Dirichlet posterior with NumPy's own sampler
    # (the documented prior: d = 2 lam / K on the diagonal, d / (K - 1) off it), each
    # label's metric computed from the drawn cells and averaged per draw.
    y_true, y_pred, weight = _weighted_four_classes()
    matrix = confusion_matrix(y_true, y_pred, sample_weight=weight)
    # F-scores add their own TP mass lam - d to each label (unnormalised Gamma cells).
    prior = np.full((4, 4), 2 * LAM / 4 / 3)
    np.fill_diagonal(prior, 2 * LAM / 4)
    rng = np.random.default_rng(11)
    # (The posterior's mean is exact: the bound is four standard errors of the
    # reference's mean, whatever its draw count; 200 000 draws took 0.3-0.4 s a case.)
    draws = rng.standard_gamma((matrix + prior).ravel(), size=(100_000, 16))
    tp, fp, fn, tn = _label_tables(draws.reshape(-1, 4, 4))
    if metric in ("f1", "fbeta"):
        tp = tp + _f_score_extra(4, rng, 100_000)
    values = {"f1": 2 * tp / (2 * tp + fp + fn),
              "fbeta": 5 * tp / (5 * tp + 4 * fn + fp),
              "specificity": tn / (tn + fp),
              "informedness": tp / (tp + fn) - fp / (fp + tn)}[metric]
    support = np.diag(matrix) + (matrix.sum(axis=1) - np.diag(matrix))
    weights = np.ones(4) if average == "macro" else support
    averaged = values @ weights / weights.sum()
    posterior = metric_posterior(y_true, y_pred, metric=metric, average=average, beta=2.0,
                                 sample_weight=weight, n_draws=200, random_state=0)
    error = averaged.std() / math.sqrt(averaged.size)
    assert abs(posterior.mean() - averaged.mean()) <= 4 * error


def test_renaming_the_classes_gives_the_identical_exact_macro_mean():
    # Exact: neither the names of the classes nor the seed move the mean.
    y_true, y_pred, weight = _weighted_four_classes()
    for metric in ("f1", "precision", "informedness"):
        for average in ("macro", "weighted"):
            means = set()
            for seed, mapping in enumerate(({0: 0, 1: 1, 2: 2, 3: 3}, {0: 2, 1: 0, 2: 3, 3: 1},
                                            {0: "fox", 1: "cat", 2: "emu", 3: "dog"})):
                means.add(metric_posterior(_renamed(y_true, mapping), _renamed(y_pred, mapping),
                                           metric=metric, average=average,
                                           sample_weight=weight, n_draws=500,
                                           random_state=seed).mean())
            assert len(means) == 1


def test_metrics_sampled_per_label_keep_a_sampled_macro_mean():
    y_true, y_pred, weight = _weighted_four_classes()
    for metric in ("mcc", "k_measure"):
        posterior = metric_posterior(y_true, y_pred, metric=metric, average="macro",
                                     sample_weight=weight, n_draws=2000, random_state=0)
        assert posterior.mean() == posterior.samples.mean()
        assert posterior.mc_error > 0


@pytest.mark.parametrize(("k", "n", "share"), [(4, 60, 0.12), (30, 300, 0.0)])
def test_report_chance_comes_from_the_metric_draws(k, n, share):
    # With chance=True the metric's draws are the same as without it (the same
    # table pass), and P(bookmaker informedness > 0) is read off those draws: a
    # separate pass over the same posterior agrees within Monte Carlo error.
    # k = 30 takes the sparse table (more than 512 prior cells).
    from skprobeval._counting._counts import joint_codes
    from skprobeval._posteriors._bayes import posterior_from_codes

    rng = np.random.default_rng(7)
    y = rng.integers(0, k, n)
    # A weak system: the bookmaker's posterior straddles 0.
    pred = np.where(rng.random(n) < share, y, rng.integers(0, k, n))
    joint = joint_codes(y, [pred], average="macro")
    # 2 000 and 10 000 draws (half of the 4 000 and 20 000 before, 0.3 s at k = 30): the
    # bound is four standard errors of the two estimates' difference at these counts.
    options = dict(average="macro", lam=0.5, beta=1.0, n_draws=2000)
    alone = posterior_from_codes(joint, "f1", random_state=3, **options)
    posterior, chance = posterior_from_codes(joint, "f1", random_state=3, chance=True,
                                             **options)
    np.testing.assert_array_equal(np.sort(alone.samples), np.sort(posterior.samples))
    separate = posterior_from_codes(joint, "informedness", average="powers", lam=0.5, beta=1.0,
                                    n_draws=10_000, random_state=4).prob_greater(0.0)
    assert 0.02 < separate < 0.98
    error = np.sqrt(separate * (1 - separate) * (1 / 2000 + 1 / 10_000))
    assert abs(chance - separate) < 4 * error
