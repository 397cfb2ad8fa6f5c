"""Point metrics: scikit-learn cross-checks and the source papers' reference values."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import (
    balanced_accuracy_score,
    f1_score,
    fbeta_score,
    jaccard_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
)

from skprobeval import (
    ConfusionCounts,
    available_metrics,
    distance_weighted_precision_recall,
    e_measure_score,
    fallout_score,
    generality_score,
    get_metric,
    informedness_score,
    k_measure_score,
    markedness_score,
    noise_score,
    overlap_score,
    silence_score,
    specificity_score,
)


def _random_binary(rng, n=None):
    n = n or int(rng.integers(5, 200))
    y_true = rng.integers(0, 2, size=n)
    flip = rng.random(n) < rng.uniform(0.05, 0.6)
    y_pred = np.where(flip, 1 - y_true, y_true)
    if y_true.min() == y_true.max():
        y_true[0] = 1 - y_true[0]
    if y_pred.min() == y_pred.max():
        y_pred[0] = 1 - y_pred[0]
    return y_true, y_pred


def _table(tp, fp, fn, tn):
    """Labels reproducing a 2 x 2 table (positive class 1)."""
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


def test_binary_informedness_is_adjusted_balanced_accuracy(seed):
    # Reference: sklearn balanced_accuracy_score(adjusted=True) (binary case).
    rng = np.random.default_rng(seed)
    for _ in range(50):
        y_true, y_pred = _random_binary(rng)
        weight = rng.uniform(0.1, 2, size=y_true.shape[0])
        assert informedness_score(y_true, y_pred) == pytest.approx(
            balanced_accuracy_score(y_true, y_pred, adjusted=True), abs=1e-12)
        assert informedness_score(y_true, y_pred, sample_weight=weight) == pytest.approx(
            balanced_accuracy_score(y_true, y_pred, adjusted=True, sample_weight=weight),
            abs=1e-12)


def test_mcc_is_signed_geometric_mean_of_informedness_and_markedness(seed):
    # Reference: sklearn matthews_corrcoef; MCC = sign(J) sqrt(J M).
    rng = np.random.default_rng(seed)
    for _ in range(50):
        y_true, y_pred = _random_binary(rng)
        j = informedness_score(y_true, y_pred)
        m = markedness_score(y_true, y_pred)
        assert np.sign(j) * np.sqrt(j * m) == pytest.approx(
            matthews_corrcoef(y_true, y_pred), abs=1e-12)
        counts = ConfusionCounts.from_predictions(y_true, y_pred)
        assert float(get_metric("mcc")(counts.tp, counts.fp, counts.fn, counts.tn)) == \
            pytest.approx(matthews_corrcoef(y_true, y_pred), abs=1e-12)


@pytest.mark.parametrize("average", ["binary", "micro", "macro", "weighted", None])
def test_overlap_equals_jaccard(average, seed):
    # Reference: sklearn jaccard_score with the same average.
    rng = np.random.default_rng(seed)
    for _ in range(20):
        if average == "binary":
            y_true, y_pred = _random_binary(rng)
        else:
            y_true = rng.integers(0, 4, size=80)
            y_pred = rng.integers(0, 4, size=80)
        weight = rng.uniform(0.1, 2, size=y_true.shape[0])
        np.testing.assert_allclose(
            overlap_score(y_true, y_pred, average=average, sample_weight=weight),
            jaccard_score(y_true, y_pred, average=average, sample_weight=weight), atol=1e-12)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("average", ["binary", "micro", "macro", "weighted", None])
def test_k_measure_alpha_one_is_fbeta_and_e_measure_its_complement(beta, average, seed):
    # Reference: sklearn fbeta_score; E_alpha = 1 - F_beta.
    rng = np.random.default_rng(seed)
    for _ in range(10):
        if average == "binary":
            y_true, y_pred = _random_binary(rng)
        else:
            y_true = rng.integers(0, 5, size=60)
            y_pred = rng.integers(0, 5, size=60)
        reference = fbeta_score(y_true, y_pred, beta=beta, average=average, zero_division=0)
        np.testing.assert_allclose(
            k_measure_score(y_true, y_pred, beta=beta, average=average, zero_division=0),
            reference, atol=1e-12)
        np.testing.assert_allclose(
            e_measure_score(y_true, y_pred, beta=beta, average=average, zero_division=0),
            1 - np.asarray(reference), atol=1e-12)


def test_registry_agrees_with_sklearn_precision_recall_f(seed):
    # Reference: sklearn precision_score / recall_score / f1_score / fbeta_score.
    rng = np.random.default_rng(seed)
    for _ in range(30):
        y_true, y_pred = _random_binary(rng)
        c = ConfusionCounts.from_predictions(y_true, y_pred)
        cells = (c.tp, c.fp, c.fn, c.tn)
        assert float(get_metric("precision")(*cells)) == pytest.approx(
            precision_score(y_true, y_pred))
        assert float(get_metric("recall")(*cells)) == pytest.approx(recall_score(y_true, y_pred))
        assert float(get_metric("f1")(*cells)) == pytest.approx(f1_score(y_true, y_pred))
        assert float(get_metric("fbeta")(*cells, beta=3.0)) == pytest.approx(
            fbeta_score(y_true, y_pred, beta=3.0))
        assert specificity_score(y_true, y_pred) == pytest.approx(
            recall_score(y_true, y_pred, pos_label=0))
        assert fallout_score(y_true, y_pred) == pytest.approx(
            1 - recall_score(y_true, y_pred, pos_label=0))
        assert silence_score(y_true, y_pred) == pytest.approx(1 - recall_score(y_true, y_pred))
        assert noise_score(y_true, y_pred) == pytest.approx(1 - precision_score(y_true, y_pred))
        assert generality_score(y_true, y_pred) == pytest.approx(np.mean(y_true))


def test_bookmaker_matrices_of_powers_2003():
    # Powers (2003), rows predicted (+, -), columns real (+, -):
    # guessing [[12, 28], [18, 42]] -> 0; perfect [[30, 0], [0, 70]] -> 1;
    # half-informed [[21, 14], [9, 56]] -> 0.5.  tp, fp, fn, tn read row-wise.
    for cells, expected in [((12, 28, 18, 42), 0.0), ((30, 0, 0, 70), 1.0),
                            ((21, 14, 9, 56), 0.5)]:
        y_true, y_pred = _table(*cells)
        for average in ("binary", "powers"):
            assert informedness_score(y_true, y_pred, average=average) == pytest.approx(
                expected, abs=1e-12)


def test_powers_average_is_the_bookmaker_formula(seed):
    # Direct transcription of Powers' (2003) B = sum_l p_P(l) sum_c p_PR(l, c) w(c/l),
    # w = +1/p_R(l) for c = l and -1/(1 - p_R(l)) otherwise, on a K x K table.
    rng = np.random.default_rng(seed)
    for _ in range(20):
        y_true = rng.integers(0, 4, size=300)
        y_pred = np.where(rng.random(300) < 0.5, y_true, rng.integers(0, 4, size=300))
        bookmaker = 0.0
        for label in range(4):
            p_pred = np.mean(y_pred == label)
            p_true = np.mean(y_true == label)
            joint_right = np.mean((y_pred == label) & (y_true == label))
            joint_wrong = np.mean((y_pred == label) & (y_true != label))
            bookmaker += p_pred * (joint_right / p_true - joint_wrong / (1 - p_true))
        assert informedness_score(y_true, y_pred, average="powers") == pytest.approx(
            bookmaker, abs=1e-12)


def test_markedness_powers_is_informedness_of_the_transpose(seed):
    # Duality: markedness is informedness with truth and prediction swapped.
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 3, size=200)
    y_pred = np.where(rng.random(200) < 0.6, y_true, rng.integers(0, 3, size=200))
    assert markedness_score(y_true, y_pred, average="powers") == pytest.approx(
        informedness_score(y_pred, y_true, average="powers"), abs=1e-12)
    np.testing.assert_allclose(markedness_score(y_true, y_pred, average=None),
                               informedness_score(y_pred, y_true, average=None), atol=1e-12)


def test_k_measure_nakache_2005_value():
    # Nakache et al. (2005), section 5: P = R = 0.4, beta = 1, alpha = 1.6 -> "0.13, three
    # times less"; exact: 2 * 0.16**1.6 / 0.8 = 0.1332085...
    y_true, y_pred = _table(2, 3, 3, 2)  # P = R = 2/5
    assert k_measure_score(y_true, y_pred, alpha=1.6) == pytest.approx(2 * 0.16**1.6 / 0.8,
                                                                       rel=1e-12)
    assert k_measure_score(y_true, y_pred, alpha=1.6) == pytest.approx(0.1332085, abs=1e-7)


def test_e_measure_identity_with_alpha_form():
    # E_alpha = 1 - 1/(alpha/P + (1 - alpha)/R) with alpha = 1/(1 + beta^2) (van Rijsbergen 1979).
    y_true, y_pred = _table(7, 3, 5, 10)
    p, r = 7 / 10, 7 / 12
    for beta in (0.5, 1.0, 3.0):
        alpha = 1 / (1 + beta**2)
        assert e_measure_score(y_true, y_pred, beta=beta) == pytest.approx(
            1 - 1 / (alpha / p + (1 - alpha) / r), rel=1e-12)


def test_distance_weighted_reduces_to_precision_recall(seed):
    # With D = 1 - I every mistake earns nothing: sklearn precision/recall.
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, size=150)
    y_pred = rng.integers(0, 4, size=150)
    weight = rng.uniform(size=150)
    for average in ("macro", "weighted", "micro", None):
        p, r = distance_weighted_precision_recall(y_true, y_pred, distance=1 - np.eye(4),
                                                  average=average, sample_weight=weight)
        np.testing.assert_allclose(p, precision_score(y_true, y_pred, average=average,
                                                      sample_weight=weight), atol=1e-12)
        np.testing.assert_allclose(r, recall_score(y_true, y_pred, average=average,
                                                   sample_weight=weight), atol=1e-12)


def test_distance_weighted_partial_credit_by_hand():
    # Items: cat->cat (1), cat->dog (credit 1 - 0.2), dog->dog (1), fish->fish (1).
    distance = [[0, 0.2, 1], [0.2, 0, 1], [1, 1, 0]]
    p, r = distance_weighted_precision_recall(["cat", "cat", "dog", "fish"],
                                              ["cat", "dog", "dog", "fish"],
                                              distance=distance, average=None)
    np.testing.assert_allclose(p, [1.0, 0.9, 1.0])
    np.testing.assert_allclose(r, [0.9, 1.0, 1.0])


def test_zero_division_semantics():
    # No predicted positives: noise (fp / (tp + fp)) is 0/0, as sklearn's precision.
    y_true, y_pred = [1, 0, 1], [0, 0, 0]
    with pytest.warns(UndefinedMetricWarning, match="zero_division"):
        assert noise_score(y_true, y_pred) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert noise_score(y_true, y_pred, zero_division=1.0) == 1.0
        assert np.isnan(noise_score(y_true, y_pred, zero_division=np.nan))
    # np.nan labels are left out of a macro average, as in scikit-learn.
    y_true, y_pred = [0, 1, 2, 2], [0, 1, 1, 2]
    values = specificity_score(y_true, y_pred, average=None, zero_division=np.nan)
    assert specificity_score(y_true, y_pred, average="macro", zero_division=np.nan) == \
        pytest.approx(np.nanmean(values))


def test_registry_lookup():
    assert get_metric("jaccard") is get_metric("overlap")
    assert get_metric("F1").name == "f1"
    for name in ("precision", "recall", "f1", "fbeta", "accuracy", "specificity",
                 "informedness", "markedness", "mcc", "k_measure", "e_measure"):
        assert name in available_metrics()
    with pytest.raises(ValueError, match="`metric` must be one of"):
        get_metric("f2score")
    with pytest.raises(TypeError, match="takes no parameter 'beta'"):
        get_metric("precision")(1, 1, 1, 1, beta=2.0)


def test_metrics_on_huge_and_fractional_counts():
    # Counts near 1e12 must not overflow (MCC's margin product is ~1e48).
    big = get_metric("mcc")(1e12, 1e11, 2e11, 3e12)
    tp, fp, fn, tn = 1e12, 1e11, 2e11, 3e12
    expected = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert float(big) == pytest.approx(expected, rel=1e-12)
    assert float(get_metric("k_measure")(0.5, 0.25, 0.25, 3, alpha=1.6)) == pytest.approx(
        2 * (0.5 / 0.75) ** 3.2 / (2 * 0.5 / 0.75), rel=1e-12)
