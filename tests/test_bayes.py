"""Entry points of skprobeval._posteriors._bayes: labels/counts in, posterior objects out.

References: statsmodels ``proportion_confint(method="jeffreys")``, scikit-learn's
point metrics and ``posterior_report``, counting by hand, and Monte Carlo
written out here with ``numpy.random.Generator.dirichlet``.
"""

import math
import warnings

import numpy as np
import pytest
from optional import needs
from sklearn.metrics import classification_report as sklearn_report
from sklearn.metrics import precision_recall_fscore_support

from skprobeval import (
    BetaPosterior,
    ConfusionCounts,
    DifferencePosterior,
    FBetaPosterior,
    SampledPosterior,
    fbeta_posterior,
    get_metric,
    informedness_posterior,
    markedness_posterior,
    metric_posterior,
    posterior_report,
    precision_posterior,
    recall_posterior,
)

# A small multiclass problem (counted by hand below).
Y_TRUE = np.array(["cat", "cat", "dog", "dog", "dog", "bird", "bird", "cat", "dog", "bird"])
Y_PRED = np.array(["cat", "dog", "dog", "dog", "cat", "bird", "cat", "cat", "dog", "dog"])
# one-vs-rest tables (labels sorted: bird, cat, dog):
# bird: TP=1, FP=0, FN=2, TN=7;  cat: TP=2, FP=2, FN=1, TN=5;  dog: TP=3, FP=2, FN=1, TN=4
BY_HAND = {"bird": (1, 0, 2, 7), "cat": (2, 2, 1, 5), "dog": (3, 2, 1, 4)}


def binary_labels(tp, fp, fn, tn):
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


# ---------------------------------------------------------------------------
# Binary posteriors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("tp, fp, fn, tn", [(3, 2, 1, 4), (0, 5, 3, 10), (12, 0, 0, 3),
                                            (40, 9, 17, 100)])
@needs("statsmodels")
def test_precision_recall_equal_statsmodels_jeffreys(tp, fp, fn, tn):
    from statsmodels.stats.proportion import proportion_confint

    # Jeffreys interval for x successes in n trials = Beta(x + 1/2, n - x + 1/2) quantiles.
    y_true, y_pred = binary_labels(tp, fp, fn, tn)
    for posterior, count, nobs in ((precision_posterior(y_true, y_pred), tp, tp + fp),
                                   (recall_posterior(y_true, y_pred), tp, tp + fn)):
        if nobs == 0:
            continue
        low, high = proportion_confint(count, nobs, alpha=0.05, method="jeffreys")
        interval = posterior.interval(0.95)
        assert interval.low == pytest.approx(low, abs=1e-9)
        assert interval.high == pytest.approx(high, abs=1e-9)


def test_goutte_gaussier_section_2_2_from_labels():
    # Goutte & Gaussier (2005), section 2.2, system 2: TP = 3, FP = 2, Jeffreys prior ->
    # mean 0.583, mode 0.625.
    y_true, y_pred = binary_labels(3, 2, 4, 11)
    posterior = precision_posterior(y_true, y_pred, prior="jeffreys")
    assert isinstance(posterior, BetaPosterior)
    assert (posterior.a, posterior.b) == (3.5, 2.5)
    assert round(posterior.mean(), 3) == 0.583 and round(posterior.mode(), 3) == 0.625


def test_zero_division_returns_the_prior_without_warning():
    # Goutte & Gaussier (2005): with TP + FP = 0 the posterior is the prior, mean 1/2.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nothing_predicted = precision_posterior([1, 0, 1, 0], [0, 0, 0, 0])
        assert (nothing_predicted.a, nothing_predicted.b) == (0.5, 0.5)
        assert nothing_predicted.mean() == 0.5
        assert precision_posterior([1, 0], [0, 0], prior=3.0).mean() == 0.5
        nothing_relevant = recall_posterior([0, 0, 0], [1, 0, 0])
        assert nothing_relevant.mean() == 0.5
        f1 = fbeta_posterior([0, 0, 0], [0, 0, 0])         # TP = FP = FN = 0
        assert isinstance(f1, FBetaPosterior) and np.isfinite(f1.mean())
        no_negatives = informedness_posterior([1, 1], [1, 0])
        assert np.isfinite(no_negatives.interval(0.95)).all()


def test_prior_names_and_values():
    y_true, y_pred = binary_labels(3, 2, 1, 4)
    assert precision_posterior(y_true, y_pred, prior="uniform").a == 4.0
    assert precision_posterior(y_true, y_pred, prior="jeffreys").a == 3.5
    assert precision_posterior(y_true, y_pred, prior=1e-3).a == pytest.approx(3.001)
    for bad in (0, -1.0, float("nan"), "flat"):
        with pytest.raises(ValueError, match="`prior`"):
            precision_posterior(y_true, y_pred, prior=bad)
        with pytest.raises(ValueError, match="`prior`"):
            metric_posterior(ConfusionCounts(3, 2, 1, 4), metric="mcc", prior=bad)
        with pytest.raises(ValueError, match="`prior`"):
            posterior_report(y_true, y_pred, prior=bad)


def test_bad_arguments_name_the_argument():
    y_true, y_pred = binary_labels(3, 2, 1, 4)
    for bad in (0.0, -2.0):
        with pytest.raises(ValueError, match=r"`beta`.*" + str(bad)):
            fbeta_posterior(y_true, y_pred, beta=bad)
        with pytest.raises(ValueError, match="`beta`"):
            metric_posterior(ConfusionCounts(3, 2, 1, 4), metric="fbeta", beta=bad)
    for bad in (0.0, 1.0, 1.5, -0.1):
        with pytest.raises(ValueError, match="`confidence`"):
            posterior_report(y_true, y_pred, confidence=bad)
    with pytest.raises(ValueError, match="`average`"):
        precision_posterior(y_true, y_pred, average="samples")
    with pytest.raises(ValueError, match="`n_draws`"):
        metric_posterior(ConfusionCounts(3, 2, 1, 4), metric="mcc", n_draws=1)
    with pytest.raises(TypeError, match="`y_true`"):
        metric_posterior((3, 2, 1, 4), "precision")
    with pytest.raises(ValueError, match="`metric`"):
        metric_posterior(ConfusionCounts(3, 2, 1, 4), metric="no_such_metric")


def test_weighted_fractional_counts():
    y_true = np.array([1, 1, 0, 0, 1, 0])
    y_pred = np.array([1, 0, 1, 0, 1, 1])
    weight = np.array([0.5, 2.0, 1.25, 3.0, 0.75, 0.1])
    # by hand: TP = 0.5 + 0.75, FP = 1.25 + 0.1, FN = 2.0
    posterior = precision_posterior(y_true, y_pred, sample_weight=weight)
    assert posterior.a == pytest.approx(1.25 + 0.5) and posterior.b == pytest.approx(1.35 + 0.5)
    f2 = fbeta_posterior(y_true, y_pred, beta=2.0, sample_weight=weight)
    assert (f2.tp, f2.fp, f2.fn) == pytest.approx((1.75, 1.85, 2.5))
    # Integer weights are repeated rows.
    repeated = precision_posterior(np.repeat(y_true, [1, 2, 3, 1, 2, 1]),
                                   np.repeat(y_pred, [1, 2, 3, 1, 2, 1]))
    weighted = precision_posterior(y_true, y_pred, sample_weight=[1, 2, 3, 1, 2, 1])
    assert (weighted.a, weighted.b) == (repeated.a, repeated.b)


def test_extreme_counts_and_tiny_prior_are_finite():
    y_true, y_pred = binary_labels(3, 2, 1, 4)
    weight = np.full(y_true.shape, 1e11)          # counts up to 4e11
    for make in (precision_posterior, recall_posterior, fbeta_posterior,
                 informedness_posterior, markedness_posterior):
        for prior in (0.5, 1e-3):
            posterior = make(y_true, y_pred, sample_weight=weight, prior=prior)
            summary = posterior.summary()
            assert np.all(np.isfinite([summary.mean, summary.low, summary.high,
                                       summary.hdi_low, summary.hdi_high, summary.mode]))
            assert summary.low <= summary.mean <= summary.high
    # Point estimates recovered: precision 3/5, F1 = 6/9, informedness 3/4 - 2/6.
    assert precision_posterior(y_true, y_pred, sample_weight=weight).mean() == \
        pytest.approx(0.6, abs=1e-11)
    assert fbeta_posterior(y_true, y_pred, sample_weight=weight).mean() == \
        pytest.approx(6 / 9, abs=1e-11)
    assert informedness_posterior(y_true, y_pred, sample_weight=weight).mean() == \
        pytest.approx(0.75 - 1 / 3, abs=1e-11)
    tiny = fbeta_posterior([1, 1, 0], [1, 1, 0], beta=2.0, prior=1e-3)   # FP = FN = 0
    assert np.all(np.isfinite(tiny.interval(0.95)))
    assert tiny.mean() == pytest.approx(1.0, abs=1e-3)


def test_informedness_and_markedness_kinds():
    y_true, y_pred = binary_labels(21, 14, 9, 56)
    informedness = informedness_posterior(y_true, y_pred)
    assert isinstance(informedness, DifferencePosterior)
    assert (informedness.first.a, informedness.first.b) == (21.5, 9.5)     # tpr
    assert (informedness.second.a, informedness.second.b) == (14.5, 56.5)  # fpr
    markedness = markedness_posterior(y_true, y_pred)
    assert (markedness.first.a, markedness.first.b) == (21.5, 14.5)        # ppv
    assert (markedness.second.a, markedness.second.b) == (9.5, 56.5)       # 1 - npv
    # Better than chance: the half-informed table yes, a guessing table about 1/2.
    assert informedness.prob_greater(0.0) > 0.999
    guess = informedness_posterior(*binary_labels(12, 28, 18, 42))
    assert 0.4 < guess.prob_greater(0.0) < 0.6


# ---------------------------------------------------------------------------
# Per-label, micro, macro, weighted
# ---------------------------------------------------------------------------


def test_average_none_equals_one_vs_rest_binary():
    per_label = precision_posterior(Y_TRUE, Y_PRED, average=None)
    f2 = fbeta_posterior(Y_TRUE, Y_PRED, beta=2.0, average=None)
    informedness = informedness_posterior(Y_TRUE, Y_PRED, average=None)
    assert per_label.shape == (3,)
    for i, label in enumerate(["bird", "cat", "dog"]):
        tp, fp, fn, tn = BY_HAND[label]
        assert (per_label.a[i], per_label.b[i]) == (tp + 0.5, fp + 0.5)
        single = fbeta_posterior(Y_TRUE == label, Y_PRED == label, beta=2.0, pos_label=True)
        assert f2.interval(0.9).low[i] == pytest.approx(single.interval(0.9).low, rel=1e-12)
        binary = informedness_posterior(Y_TRUE == label, Y_PRED == label, pos_label=True)
        assert informedness.mean()[i] == pytest.approx(binary.mean(), rel=1e-14)
    chosen = recall_posterior(Y_TRUE, Y_PRED, average=None, labels=["dog", "bird"])
    assert chosen.a.tolist() == [3.5, 1.5] and chosen.b.tolist() == [1.5, 2.5]


def test_micro_of_single_label_multiclass_is_the_share_of_items_right():
    # 6 of the 10 items are right (K = 3 labels).  Micro precision = recall = F1 = accuracy,
    # the share of items right, Beta(right + lam, wrong + lam) as the binary accuracy.
    for make in (precision_posterior, recall_posterior, fbeta_posterior):
        micro = make(Y_TRUE, Y_PRED, average="micro")
        assert isinstance(micro, BetaPosterior)
        assert (micro.a, micro.b) == pytest.approx((6 + 0.5, 4 + 0.5), rel=1e-15)
    # Independent route: Monte Carlo of a K x K Dirichlet with half the table's prior
    # (1/6 on each diagonal cell, 1/12 elsewhere: lam = 1/2 on each side of the share).
    matrix = np.zeros((3, 3))
    index = {"bird": 0, "cat": 1, "dog": 2}
    for t, p in zip(Y_TRUE, Y_PRED):
        matrix[index[t], index[p]] += 1
    prior = np.full((3, 3), 1 / 12)
    np.fill_diagonal(prior, 1 / 6)
    draws = np.random.default_rng(0).dirichlet((matrix + prior).ravel(), size=200_000)
    right = draws.reshape(-1, 3, 3).trace(axis1=1, axis2=2)
    micro = fbeta_posterior(Y_TRUE, Y_PRED, average="micro")
    assert abs(right.mean() - micro.mean()) <= 4 * right.std() / math.sqrt(right.size)
    # A subset of labels: pooled precision is still exact, Beta(sum TP + R d, sum FP + R d),
    # R = 2 labels of d = 1/3 each.
    subset = precision_posterior(Y_TRUE, Y_PRED, average="micro", labels=["cat", "dog"])
    counts = ConfusionCounts.from_predictions(Y_TRUE, Y_PRED, average=None,
                                              labels=["cat", "dog"])
    assert (subset.a, subset.b) == pytest.approx((counts.tp.sum() + 2 / 3,
                                                  counts.fp.sum() + 2 / 3), rel=1e-15)


def test_micro_of_multilabel_is_the_pooled_table():
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 2, size=(40, 3))
    y_pred = np.where(rng.random((40, 3)) < 0.8, y_true, 1 - y_true)
    micro = fbeta_posterior(y_true, y_pred, average="micro")
    pooled = ConfusionCounts.from_predictions(y_true, y_pred, average=None).sum()
    assert micro.interval() == metric_posterior(pooled, metric="f1").interval()


@pytest.mark.parametrize("make, metric", [(precision_posterior, "precision"),
                                          (recall_posterior, "recall"),
                                          (fbeta_posterior, "f1")])
def test_macro_and_weighted_are_sampled_and_consistent(make, metric):
    # Each label's marginal of the joint K x K table is its exact one-vs-rest posterior with
    # the table's per-label mass d = 2 lam / K = 1/3 on TP, FP and FN, so the macro mean is
    # the mean of those exact per-label means (linearity): computed so, exactly.  A label's
    # F-score takes lam = 1/2 on its TP instead (its own prior, added to the table's draws
    # as an independent Gamma mass): its exact per-label posterior is FBetaPosterior with
    # TP + 1/2, FP + 1/3, FN + 1/3, built here from the counts directly.
    per_label = make(Y_TRUE, Y_PRED, average=None, prior=1 / 3)
    if metric == "f1":
        counts = ConfusionCounts.from_predictions(Y_TRUE, Y_PRED, average=None)
        per_label = FBetaPosterior(counts.tp + 0.5, counts.fp + 1 / 3, counts.fn + 1 / 3)
    support = np.array([3.0, 3.0, 4.0])
    macro = make(Y_TRUE, Y_PRED, average="macro", n_draws=40_000, random_state=0)
    weighted = make(Y_TRUE, Y_PRED, average="weighted", n_draws=40_000, random_state=0)
    assert isinstance(macro, SampledPosterior) and macro.shape == ()
    assert macro.mc_error == 0.0 and weighted.mc_error == 0.0
    assert macro.mean() == pytest.approx(np.mean(per_label.mean()), rel=1e-12)
    expected = np.dot(per_label.mean(), support / support.sum())
    assert weighted.mean() == pytest.approx(expected, rel=1e-12)
    # The draws agree with the exact mean within their Monte Carlo error.
    for posterior in (macro, weighted):
        error = posterior.samples.std() / np.sqrt(posterior.n_draws)
        assert abs(posterior.samples.mean() - posterior.mean()) <= 4 * error
    again = make(Y_TRUE, Y_PRED, average="macro", n_draws=40_000, random_state=0)
    np.testing.assert_array_equal(again.samples, macro.samples)


def test_macro_multilabel_independent_columns():
    rng = np.random.default_rng(5)
    y_true = rng.integers(0, 2, size=(60, 3))
    y_pred = np.where(rng.random((60, 3)) < 0.8, y_true, 1 - y_true)
    per_label = recall_posterior(y_true, y_pred, average=None)
    assert per_label.shape == (3,)
    counts = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    np.testing.assert_array_equal(per_label.a, counts.tp + 0.5)
    macro = recall_posterior(y_true, y_pred, average="macro", random_state=1)
    assert macro.mean() == pytest.approx(np.mean(per_label.mean()), rel=1e-12)
    error = macro.samples.std() / np.sqrt(macro.n_draws)
    assert abs(macro.samples.mean() - macro.mean()) <= 4 * error


def test_macro_large_counts_tend_to_point_values():
    weight = np.full(Y_TRUE.shape, 1e7)
    macro = informedness_posterior(Y_TRUE, Y_PRED, average="macro", sample_weight=weight,
                                   n_draws=2_000, random_state=0)
    point = np.mean([tp / (tp + fn) - fp / (fp + tn) for tp, fp, fn, tn in BY_HAND.values()])
    assert macro.mean() == pytest.approx(point, abs=1e-3)


# ---------------------------------------------------------------------------
# metric_posterior
# ---------------------------------------------------------------------------

COUNTS = ConfusionCounts(tp=8, fp=3, fn=5, tn=20)
EXACT_BETA = {  # metric: (cells of a, cells of b), each cell + λ (aggregation property)
    "precision": (("tp",), ("fp",)), "recall": (("tp",), ("fn",)),
    "specificity": (("tn",), ("fp",)), "fallout": (("fp",), ("tn",)),
    "npv": (("tn",), ("fn",)), "accuracy": (("tp", "tn"), ("fp", "fn")),
    "error": (("fp", "fn"), ("tp", "tn")), "overlap": (("tp",), ("fp", "fn")),
}


def dirichlet_cells(counts, lam, n, rng):
    alpha = [float(counts.tp) + lam, float(counts.fp) + lam, float(counts.fn) + lam,
             float(counts.tn) + lam]
    return rng.dirichlet(alpha, size=n).T


@pytest.mark.parametrize("metric", sorted(EXACT_BETA))
def test_exact_beta_metrics_agree_with_dirichlet_sampling(metric, rng):
    first, second = EXACT_BETA[metric]
    posterior = metric_posterior(COUNTS, metric=metric)
    assert isinstance(posterior, BetaPosterior)
    # The share of all items right or wrong takes λ = 1/2 a side (Jeffreys' prior on the
    # share), the marginal of a table with λ/2 per cell; the others λ per cell.
    lam = 0.25 if metric in ("accuracy", "error") else 0.5
    assert posterior.a == sum(getattr(COUNTS, c) for c in first) + lam * len(first)
    assert posterior.b == sum(getattr(COUNTS, c) for c in second) + lam * len(second)
    # Independent route: the registered point function on numpy Dirichlet draws.
    draws = get_metric(metric)(*dirichlet_cells(COUNTS, lam, 200_000, rng))
    se = draws.std() / math.sqrt(draws.size)
    assert abs(posterior.mean() - draws.mean()) <= 4 * se
    median = posterior.median()
    assert abs(np.mean(draws <= median) - 0.5) <= 4 * math.sqrt(0.25 / draws.size)


def test_exact_kinds_for_f_and_differences():
    f1 = metric_posterior(COUNTS, metric="f1", beta=3.0)             # beta ignored by f1
    assert isinstance(f1, FBetaPosterior) and f1.beta == 1.0
    f3 = metric_posterior(COUNTS, metric="fbeta", beta=3.0)
    assert (f3.tp, f3.fp, f3.fn, f3.beta) == (8.5, 3.5, 5.5, 3.0)
    assert isinstance(metric_posterior(COUNTS, metric="informedness"), DifferencePosterior)
    assert isinstance(metric_posterior(COUNTS, metric="youden"), DifferencePosterior)
    assert isinstance(metric_posterior(COUNTS, metric="markedness"), DifferencePosterior)


@pytest.mark.parametrize("metric", ["mcc", "k_measure", "e_measure", "balanced_accuracy"])
def test_sampled_metrics_agree_with_independent_monte_carlo(metric, rng, seed):
    posterior = metric_posterior(COUNTS, metric=metric, beta=2.0, n_draws=100_000,
                                 random_state=seed)
    if metric in ("e_measure", "balanced_accuracy"):
        # Exact since the registry records them as affine maps of exact posteriors:
        # E = 1 - F_beta, balanced accuracy = (1 + informedness) / 2.
        from skprobeval import AffinePosterior

        assert isinstance(posterior, AffinePosterior)
        tp, fp, fn, tn = dirichlet_cells(COUNTS, 0.5, 100_000, rng)
        f2 = 5 * tp / (5 * tp + 4 * fn + fp)
        draws = 1 - f2 if metric == "e_measure" else 0.5 * (tp / (tp + fn) + tn / (tn + fp))
        assert abs(posterior.mean() - draws.mean()) <= 4 * draws.std() / math.sqrt(draws.size)
        for q in (0.05, 0.5, 0.95):
            assert abs(posterior.cdf(np.quantile(draws, q)) - q) < 0.005
        return
    assert isinstance(posterior, SampledPosterior) and posterior.n_draws == 100_000
    tp, fp, fn, tn = dirichlet_cells(COUNTS, 0.5, 100_000, rng)
    if metric == "mcc":      # written out: (tp tn - fp fn) / sqrt of the four margins
        draws = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    elif metric == "balanced_accuracy":
        draws = 0.5 * (tp / (tp + fn) + tn / (tn + fp))
    else:                    # K-measure (alpha = 1) is F-beta; E-measure is 1 - F-beta
        f2 = 5 * tp / (5 * tp + 4 * fn + fp)
        draws = f2 if metric == "k_measure" else 1 - f2
    se = math.hypot(posterior.mc_error, draws.std() / math.sqrt(draws.size))
    assert abs(posterior.mean() - draws.mean()) <= 4 * se
    same = metric_posterior(COUNTS, metric=metric, beta=2.0, n_draws=100_000, random_state=seed)
    np.testing.assert_array_equal(same.samples, posterior.samples)


def test_callable_metric_and_per_label_counts():
    def precision_of_cells(tp, fp, fn, tn):
        return tp / (tp + fp)

    sampled = metric_posterior(COUNTS, metric=precision_of_cells, n_draws=50_000, random_state=0)
    exact = metric_posterior(COUNTS, metric="precision")
    assert abs(sampled.mean() - exact.mean()) <= 4 * sampled.mc_error
    per_label = ConfusionCounts.from_predictions(Y_TRUE, Y_PRED, average=None)
    mcc = metric_posterior(per_label, metric="mcc", n_draws=5_000, random_state=0)
    assert mcc.shape == (3,) and np.shape(mcc.mc_error) == (3,)
    precision = metric_posterior(per_label, metric="precision")
    assert precision.shape == (3,)

    def broken(tp, fp, fn, tn):
        return np.log(tp - tp)

    with pytest.raises(ValueError, match="`metric`"):
        metric_posterior(COUNTS, metric=broken, n_draws=100, random_state=0)


def test_tiny_prior_sampling_stays_finite():
    # λ = 1e-3 on empty cells: cell probabilities underflow, yet every draw is finite.
    counts = ConfusionCounts(tp=0, fp=0, fn=5, tn=100)
    posterior = metric_posterior(counts, metric="mcc", prior=1e-3, n_draws=20_000, random_state=0)
    assert np.all(np.isfinite(posterior.samples))
    assert abs(posterior.mean()) < 0.05


# ---------------------------------------------------------------------------
# posterior_report
# ---------------------------------------------------------------------------

COLUMNS = ["precision_mean", "precision_low", "precision_high", "recall_mean", "recall_low",
           "recall_high", "f1_mean", "f1_low", "f1_high", "support"]


def test_report_shape_and_rows_agree_with_single_posteriors():
    report = posterior_report(Y_TRUE, Y_PRED, confidence=0.9, random_state=0)
    assert list(report.columns) == COLUMNS
    assert list(report.index) == ["bird", "cat", "dog", "micro avg", "macro avg",
                                  "weighted avg"]
    assert all(report[c].dtype == np.float64 for c in COLUMNS)
    for name, make in (("precision", precision_posterior), ("recall", recall_posterior),
                       ("f1", fbeta_posterior)):
        per_label = make(Y_TRUE, Y_PRED, average=None)
        low, high = per_label.interval(0.9)
        np.testing.assert_allclose(report[f"{name}_mean"].iloc[:3], per_label.mean(), rtol=1e-14)
        np.testing.assert_allclose(report[f"{name}_low"].iloc[:3], low, rtol=1e-14)
        np.testing.assert_allclose(report[f"{name}_high"].iloc[:3], high, rtol=1e-14)
        micro = make(Y_TRUE, Y_PRED, average="micro")
        assert report.loc["micro avg", f"{name}_mean"] == pytest.approx(micro.mean(), rel=1e-14)
        assert report.loc["micro avg", f"{name}_low"] == pytest.approx(micro.interval(0.9).low)
        # The joint table's label marginals carry d = 2 lam / K = 1/3 (the per-label rows
        # are the one-vs-rest posteriors with lam itself); an F-score lam on TP.
        # Their macro mean is exact, the same as the macro posterior's.
        macro = make(Y_TRUE, Y_PRED, average="macro", random_state=0)
        assert report.loc["macro avg", f"{name}_mean"] == macro.mean()
        labels = make(Y_TRUE, Y_PRED, average=None, prior=1 / 3)
        if name == "f1":
            counts = ConfusionCounts.from_predictions(Y_TRUE, Y_PRED, average=None)
            labels = FBetaPosterior(counts.tp + 0.5, counts.fp + 1 / 3, counts.fn + 1 / 3)
        assert report.loc["macro avg", f"{name}_mean"] == pytest.approx(
            np.mean(labels.mean()), rel=1e-12)
    np.testing.assert_array_equal(report["support"], [3, 3, 4, 10, 10, 10])


def test_report_reproducible_and_labels_subset():
    first = posterior_report(Y_TRUE, Y_PRED, random_state=3, n_draws=2_000)
    second = posterior_report(Y_TRUE, Y_PRED, random_state=3, n_draws=2_000)
    assert first.equals(second)
    subset = posterior_report(Y_TRUE, Y_PRED, labels=["dog", "cat"], random_state=0)
    assert list(subset.index[:2]) == ["dog", "cat"]
    assert subset.loc["micro avg", "support"] == 7.0


def test_report_tends_to_scikit_learn_as_counts_grow():
    # Posterior means converge to the point estimates: weights of 1e8 per item make the
    # prior and the posterior spread negligible (differences ~1e-8).
    rng = np.random.default_rng(2)
    y_true = rng.integers(0, 4, size=300)
    y_pred = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 4, size=300))
    weight = np.full(300, 1e8)
    ours = posterior_report(y_true, y_pred, sample_weight=weight, n_draws=2_000,
                                  random_state=0)
    theirs = sklearn_report(y_true, y_pred, output_dict=True, sample_weight=weight)
    for label in ("0", "1", "2", "3", "macro avg", "weighted avg"):
        for name, key in (("precision", "precision"), ("recall", "recall"), ("f1", "f1-score")):
            assert ours.loc[label, f"{name}_mean"] == pytest.approx(theirs[label][key], abs=1e-4)
        assert ours.loc[label, "support"] == pytest.approx(theirs[label]["support"])
    micro = precision_recall_fscore_support(y_true, y_pred, average="micro")
    for name, value in zip(("precision", "recall", "f1"), micro[:3]):
        assert ours.loc["micro avg", f"{name}_mean"] == pytest.approx(value, abs=1e-6)
    # ... while the plain (unweighted) report keeps wide intervals around them.
    small = posterior_report(y_true, y_pred, random_state=0)
    assert (small["precision_high"] - small["precision_low"]).iloc[:4].min() > 0.1


def test_report_multilabel():
    rng = np.random.default_rng(7)
    y_true = rng.integers(0, 2, size=(50, 3))
    y_pred = np.where(rng.random((50, 3)) < 0.75, y_true, 1 - y_true)
    report = posterior_report(y_true, y_pred, random_state=0)
    assert list(report.index) == ["0", "1", "2", "micro avg", "macro avg", "weighted avg"]
    np.testing.assert_array_equal(report["support"].iloc[:3], y_true.sum(axis=0))
