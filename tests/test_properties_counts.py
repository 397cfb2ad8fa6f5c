"""Properties of counting: equal to scikit-learn, free of order and naming, additive."""

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import multilabel_confusion_matrix
from strategies import as_kind, indicator_pairs, label_pairs

from skprobeval import ConfusionCounts, PairedCounts, confusion_count


def label_cells(counts):
    return np.stack([counts.tp, counts.fp, counts.fn, counts.tn])


def _tolerance(sample_weight):
    # Unit weights count exactly.  With fractional weights a count is a float sum, and
    # tn (the total less the other three cells) is exact to the rounding of the total
    # weight, as in scikit-learn.
    return 0.0 if sample_weight is None else 1e-12 * max(1.0, float(np.sum(sample_weight)))


def _assert_same(a, b, sample_weight):
    np.testing.assert_allclose(label_cells(a), label_cells(b), rtol=1e-12,
                               atol=_tolerance(sample_weight))


def _sklearn_cells(y_true, y_pred, labels, sample_weight):
    # scikit-learn's [[tn, fp], [fn, tp]] per label, in our (tp, fp, fn, tn) order.
    if sample_weight is not None and not np.any(sample_weight):
        # scikit-learn refuses all-zero weights; they count nothing (an empty table).
        return np.zeros((4, len(labels)))
    mcm = multilabel_confusion_matrix(np.asarray(y_true), np.asarray(y_pred), labels=labels,
                                      sample_weight=sample_weight)
    return np.stack([mcm[:, 1, 1], mcm[:, 0, 1], mcm[:, 1, 0], mcm[:, 0, 0]])


@given(label_pairs())
def test_per_label_counts_equal_sklearn(case):
    counts = ConfusionCounts.from_predictions(
        case["y_true"], case["y_pred"], labels=case["classes"], average=None,
        sample_weight=case["sample_weight"])
    expected = _sklearn_cells(case["y_true"], case["y_pred"], case["classes"],
                              case["sample_weight"])
    np.testing.assert_allclose(label_cells(counts), expected, rtol=1e-12,
                               atol=_tolerance(case["sample_weight"]))
    assert list(counts.labels) == list(case["classes"])
    # Without labels=: the labels that occur, sorted, and nothing else.
    present = ConfusionCounts.from_predictions(case["y_true"], case["y_pred"], average=None,
                                               sample_weight=case["sample_weight"])
    occurring = sorted(set(np.asarray(case["y_true"]).tolist())
                       | set(np.asarray(case["y_pred"]).tolist()))
    assert [np.asarray(label).item() for label in present.labels] == occurring


@given(indicator_pairs())
def test_indicator_counts_equal_sklearn(case):
    y_true, y_pred, weight = case
    counts = ConfusionCounts.from_predictions(y_true, y_pred, average=None,
                                              sample_weight=weight)
    labels = list(range(y_true.shape[1]))
    expected = _sklearn_cells(y_true, y_pred, labels, weight)
    np.testing.assert_allclose(label_cells(counts), expected, rtol=1e-12, atol=_tolerance(weight))
    micro = ConfusionCounts.from_predictions(y_true, y_pred, average="micro",
                                             sample_weight=weight)
    np.testing.assert_allclose(label_cells(micro), expected.sum(axis=1), rtol=1e-12,
                               atol=_tolerance(weight))


@given(label_pairs(min_size=2), st.randoms(use_true_random=False))
def test_counts_do_not_depend_on_sample_order(case, random):
    order = np.arange(len(case["y_true"]))
    random.shuffle(order)
    weight = case["sample_weight"]
    args = {"labels": case["classes"], "average": None}
    counts = ConfusionCounts.from_predictions(case["y_true"], case["y_pred"],
                                              sample_weight=weight, **args)
    shuffled = ConfusionCounts.from_predictions(
        _take(case["y_true"], order), _take(case["y_pred"], order),
        sample_weight=None if weight is None else weight[order], **args)
    _assert_same(counts, shuffled, weight)


def _take(values, order):
    if isinstance(values, pd.Series):
        return values.iloc[order].reset_index(drop=True)
    return values[order]


@given(label_pairs(), st.randoms(use_true_random=False))
def test_counts_follow_a_relabelling(case, random):
    # Any one-to-one renaming of the classes (into strings) renames the counts.
    names = [f"class {i}" for i in range(len(case["classes"]))]
    random.shuffle(names)
    renamed = dict(zip(case["classes"], names))
    counts = ConfusionCounts.from_predictions(
        case["y_true"], case["y_pred"], labels=case["classes"], average=None,
        sample_weight=case["sample_weight"])
    other = ConfusionCounts.from_predictions(
        np.array([renamed[v] for v in np.asarray(case["y_true"]).tolist()]),
        np.array([renamed[v] for v in np.asarray(case["y_pred"]).tolist()]),
        labels=names, average=None, sample_weight=case["sample_weight"])
    _assert_same(counts, other, case["sample_weight"])


@given(label_pairs(min_size=2), st.data())
def test_pooling_with_plus_equals_counting_the_concatenation(case, data):
    n = len(case["y_true"])
    cut = data.draw(st.integers(1, n - 1), label="cut")
    weight = case["sample_weight"]
    true, pred = np.asarray(case["y_true"]), np.asarray(case["y_pred"])
    parts = []
    for part in (slice(0, cut), slice(cut, n)):
        parts.append(ConfusionCounts.from_predictions(
            as_kind(true[part].tolist(), case["kind"], case["classes"]),
            as_kind(pred[part].tolist(), case["kind"], case["classes"]),
            labels=case["classes"], average=None,
            sample_weight=None if weight is None else weight[part]))
    whole = ConfusionCounts.from_predictions(case["y_true"], case["y_pred"],
                                             labels=case["classes"], average=None,
                                             sample_weight=weight)
    _assert_same(parts[0] + parts[1], whole, weight)
    _assert_same(parts[1] + parts[0], whole, weight)
    _assert_same(sum(parts), whole, weight)
    _assert_same((parts[0] + parts[1]).sum(), whole.sum(), weight)


@given(label_pairs())
def test_single_cells_equal_the_per_label_table(case):
    counts = ConfusionCounts.from_predictions(
        case["y_true"], case["y_pred"], labels=case["classes"], average=None,
        sample_weight=case["sample_weight"])
    for index, label in enumerate(case["classes"]):
        for cell in ("tp", "fp", "fn", "tn"):
            value = confusion_count(case["y_true"], case["y_pred"], cell=cell, label=label,
                                    sample_weight=case["sample_weight"])
            assert np.isclose(value, getattr(counts, cell)[index], rtol=1e-12,
                              atol=_tolerance(case["sample_weight"]))


@given(label_pairs(), st.lists(st.integers(0, 4), min_size=40, max_size=40))
def test_paired_counts_equal_brute_force_and_pool(case, other_codes):
    classes = case["classes"]
    n = len(case["y_true"])
    second_codes = np.array(other_codes[:n]) % len(classes)
    y_second = as_kind([classes[c] for c in second_codes], case["kind"], classes)
    weight = case["sample_weight"]
    w = np.ones(n) if weight is None else weight
    first_right = case["true_codes"] == case["pred_codes"]
    second_right = case["true_codes"] == second_codes
    paired = PairedCounts.from_predictions(case["y_true"], case["y_pred"], y_second,
                                           sample_weight=weight)
    expected = [w[first_right & ~second_right].sum(), w[~first_right & second_right].sum(),
                w[first_right == second_right].sum()]
    np.testing.assert_allclose([paired.first_better, paired.second_better, paired.ties],
                               expected, rtol=1e-12, atol=_tolerance(weight))
    swapped = PairedCounts.from_predictions(case["y_true"], y_second, case["y_pred"],
                                            sample_weight=weight)
    assert swapped.first_better == paired.second_better
    assert swapped.second_better == paired.first_better
    assert paired.swapped().first_better == paired.second_better
    pooled = paired + swapped
    assert pooled.first_better == pooled.second_better
