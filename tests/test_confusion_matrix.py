"""`ConfusionMatrix`: the K x K table, counted batch by batch, and its posteriors.

References: scikit-learn's ``confusion_matrix`` (the table), ``ConfusionCounts`` (the
one-vs-rest tables) and ``metric_posterior`` of the items the matrix counts (its
posteriors, which must be the same objects: exact posteriors equal, sampled ones the same
draws under one seed, since the items' joint table is the matrix itself).
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix
from strategies import as_kind, label_pairs

from skprobeval import (
    ConfusionCounts,
    ConfusionMatrix,
    PairedCounts,
    compare_counts,
    metric_posterior,
)

LABELS = np.array(["ant", "bee", "cat", "dog"])


def _data(rng, n=240):
    """Labels in which the first batches of 30 lack "dog" and the last lack "ant"."""
    y_true = rng.choice(LABELS, size=n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.choice(LABELS, size=n))
    for array in (y_true, y_pred):
        array[:60] = np.where(array[:60] == "dog", "cat", array[:60])
        array[-30:] = np.where(array[-30:] == "ant", "bee", array[-30:])
    return y_true, y_pred


def _batches(y_true, y_pred, size=30, sample_weight=None):
    for start in range(0, len(y_true), size):
        part = slice(start, start + size)
        yield ConfusionMatrix.from_predictions(
            y_true[part], y_pred[part],
            sample_weight=None if sample_weight is None else sample_weight[part])


def _aligned(matrix, labels):
    """The matrix's array with its rows and columns in the order of `labels`."""
    order = [list(matrix.labels).index(label) for label in labels]
    return matrix.to_array()[np.ix_(order, order)]


def _same_posterior(a, b):
    assert type(a) is type(b)
    samples = getattr(a, "samples", None)
    if samples is None:
        assert repr(a) == repr(b)
        np.testing.assert_array_equal(a.mean(), b.mean())
    else:
        np.testing.assert_array_equal(a.samples, b.samples)
        np.testing.assert_array_equal(a.mean(), b.mean())


# ---------------------------------------------------------------------------
# Counting, batch by batch
# ---------------------------------------------------------------------------


def test_batches_add_up_to_the_count_of_every_item(rng):
    y_true, y_pred = _data(rng)
    whole = ConfusionMatrix.from_predictions(y_true, y_pred)
    total = 0
    for batch in _batches(y_true, y_pred):
        total += batch
    assert set(next(_batches(y_true, y_pred)).labels) == {"ant", "bee", "cat"}
    assert total == whole and sum(_batches(y_true, y_pred)) == whole
    # The union of labels in the order met: the first batch's, then "dog".
    assert total.labels.tolist() == ["ant", "bee", "cat", "dog"]
    # Reference: scikit-learn on every item, in the matrix's order of labels.
    np.testing.assert_array_equal(
        total.to_array(), confusion_matrix(y_true, y_pred, labels=total.labels))
    assert total.n == len(y_true)


def test_weighted_batches_add_up(rng):
    y_true, y_pred = _data(rng)
    weight = rng.integers(0, 4, size=len(y_true)).astype(float)
    total = sum(_batches(y_true, y_pred, sample_weight=weight))
    assert total == ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=weight)
    # Fractional weights: the batch sums add in another order, equal to rounding.
    weight = rng.uniform(size=len(y_true))
    total = sum(_batches(y_true, y_pred, sample_weight=weight))
    np.testing.assert_allclose(
        _aligned(total, LABELS),
        confusion_matrix(y_true, y_pred, labels=LABELS, sample_weight=weight), rtol=1e-12)


def test_fixed_labels_give_every_batch_one_layout(rng):
    y_true, y_pred = _data(rng)
    batches = [ConfusionMatrix.from_predictions(y_true[k:k + 30], y_pred[k:k + 30],
                                                labels=LABELS[::-1])
               for k in range(0, len(y_true), 30)]
    assert all(b.labels.tolist() == LABELS[::-1].tolist() for b in batches)
    total = sum(batches)
    np.testing.assert_array_equal(
        total.to_array(), confusion_matrix(y_true, y_pred, labels=LABELS[::-1]))
    # A label of no item: an empty row and column, as scikit-learn's.
    padded = ConfusionMatrix.from_predictions(y_true, y_pred, labels=[*LABELS, "eel"])
    np.testing.assert_array_equal(
        padded.to_array(), confusion_matrix(y_true, y_pred, labels=[*LABELS, "eel"]))


def test_matrix_equals_scikit_learn(rng):
    y_true = rng.integers(0, 5, size=300) * 3 + 1        # labels 1, 4, ..., 13
    y_pred = rng.integers(0, 5, size=300) * 3 + 1
    weight = rng.uniform(size=300)
    matrix = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=weight)
    assert matrix.labels.tolist() == [1, 4, 7, 10, 13]
    np.testing.assert_allclose(matrix.to_array(),
                               confusion_matrix(y_true, y_pred, sample_weight=weight))
    small = ConfusionMatrix.from_predictions([0, 1, 1, 2], [0, 1, 2, 2])
    np.testing.assert_array_equal(small.to_array(), confusion_matrix([0, 1, 1, 2], [0, 1, 2, 2]))
    booleans = ConfusionMatrix.from_predictions([True, False, True], [True, True, False])
    assert booleans.labels.tolist() == [False, True]
    np.testing.assert_array_equal(booleans.to_array(), [[0, 1], [1, 1]])


def test_one_vs_rest_counts_are_those_of_the_items(rng):
    y_true, y_pred = _data(rng)
    total = sum(_batches(y_true, y_pred))
    ordered = ConfusionMatrix.from_predictions(y_true, y_pred)
    assert ordered.counts() == ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    assert total.counts(average="micro") == ConfusionCounts.from_predictions(
        y_true, y_pred, average="micro")
    binary = ConfusionMatrix([[5, 1], [2, 4]], labels=["no", "yes"])
    assert binary.counts(average="binary", pos_label="yes") == ConfusionCounts(tp=4, fp=1,
                                                                               fn=2, tn=5)


def test_value_object(rng):
    matrix = ConfusionMatrix([[3, 1], [0, 2]])
    assert matrix.labels.tolist() == [0, 1]
    assert not matrix.matrix.flags.writeable and not matrix.labels.flags.writeable
    copy = matrix.to_array()
    copy[0, 0] = 99.0
    assert matrix.matrix[0, 0] == 3.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        matrix.labels = np.array([5, 6])
    assert repr(matrix) == "ConfusionMatrix(labels=[0, 1], matrix=[[3, 1], [0, 2]])"
    assert repr(ConfusionMatrix(np.eye(8))).endswith("[0, 0, 0, 0, 0, 1, ...], ...])")
    # Equal whatever the order of the labels; unequal counts or labels differ.
    swapped = ConfusionMatrix([[2, 0], [1, 3]], labels=[1, 0])
    assert swapped == matrix and swapped.to_array().tolist() != matrix.to_array().tolist()
    assert matrix != ConfusionMatrix([[3, 1], [0, 2]], labels=[0, 2])
    assert matrix != ConfusionMatrix([[3, 1], [1, 2]])
    assert matrix != ConfusionMatrix(np.eye(3))
    assert (matrix == ConfusionCounts(1, 2, 3, 4)) is False
    assert sum([matrix]) is matrix and matrix + ConfusionMatrix([[0]]) == ConfusionMatrix(
        [[3, 1], [0, 2]])
    with pytest.raises(TypeError):
        np.ones((2, 2)) + matrix


# ---------------------------------------------------------------------------
# Posteriors: those of the items the matrix counts
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("metric", "average"), [
    ("f1", None), ("precision", "micro"), ("accuracy", "micro"), ("recall", "micro"),
    ("f1", "macro"), ("f1", "weighted"), ("mcc", "macro"), ("informedness", "powers")])
def test_posterior_of_the_summed_matrix_is_that_of_the_items(rng, metric, average):
    # Exact posteriors (None, micro) are equal; sampled label averages are the same draws:
    # the items' joint K x K table is the matrix, so the Dirichlet and its variates agree.
    y_true, y_pred = _data(rng)
    total = sum(_batches(y_true, y_pred))
    options = {"metric": metric, "average": average, "n_draws": 2000, "random_state": 7}
    _same_posterior(metric_posterior(total, **options),
                    metric_posterior(y_true, y_pred, **options))
    chosen = dict(options, labels=["dog", "ant"])
    if metric != "accuracy":
        _same_posterior(metric_posterior(total, **chosen),
                        metric_posterior(y_true, y_pred, **chosen))


def test_posterior_of_many_labels_and_weights(rng):
    # 30 labels: the joint table keeps the observed cells only (its sparse prior).
    y_true = rng.integers(0, 30, size=300)
    y_pred = np.where(rng.random(300) < 0.5, y_true, rng.integers(0, 30, size=300))
    weight = rng.uniform(size=300)
    matrix = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=weight)
    options = {"metric": "f1", "average": "macro", "n_draws": 1000, "random_state": 3}
    _same_posterior(metric_posterior(matrix, **options),
                    metric_posterior(y_true, y_pred, sample_weight=weight, **options))


def test_binary_posterior_takes_pos_label(rng):
    y_true = rng.choice(["no", "yes"], size=80)
    y_pred = np.where(rng.random(80) < 0.7, y_true, rng.choice(["no", "yes"], size=80))
    total = sum(_batches(y_true, y_pred, size=16))
    for metric in ("f1", "precision", "mcc"):
        options = {"metric": metric, "pos_label": "yes", "n_draws": 2000, "random_state": 1}
        _same_posterior(metric_posterior(total, **options),
                        metric_posterior(y_true, y_pred, **options))
    assert repr(metric_posterior(total, metric="recall", pos_label="no")) == repr(
        metric_posterior(y_true, y_pred, metric="recall", pos_label="no"))
    # Integer labels: pos_label=1 by default, as for labels.
    numbers = ConfusionMatrix([[4, 1], [2, 3]])
    assert repr(metric_posterior(numbers, metric="precision")) == "BetaPosterior(a=3.5, b=1.5)"


def test_label_of_no_item_is_averaged_only_when_named(rng):
    # A fixed layout gives an unseen label an empty row and column.  As for labels, the
    # average runs over the labels that occur unless `labels` names the empty one.
    y_true, y_pred = _data(rng)
    padded = ConfusionMatrix.from_predictions(y_true, y_pred, labels=[*LABELS, "eel"])
    options = {"metric": "f1", "average": "macro", "n_draws": 2000, "random_state": 2}
    _same_posterior(metric_posterior(padded, **options),
                    metric_posterior(y_true, y_pred, **options))
    named = dict(options, labels=[*LABELS, "eel"])
    _same_posterior(metric_posterior(padded, **named),
                    metric_posterior(y_true, y_pred, **named))


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

BAD = [
    (lambda: ConfusionMatrix([[1, -1], [0, 2]]), ValueError, "`matrix` must be non-negative"),
    (lambda: ConfusionMatrix([[1, np.nan], [0, 2]]), ValueError, "`matrix` must be finite"),
    (lambda: ConfusionMatrix([[1, 2, 3], [4, 5, 6]]), ValueError,
     r"`matrix` must be a square K x K array .*; got shape \(2, 3\)"),
    (lambda: ConfusionMatrix(np.zeros((0, 0))), ValueError, "`matrix` must be a square"),
    (lambda: ConfusionMatrix([1, 2]), ValueError, "`matrix` must be a square"),
    (lambda: ConfusionMatrix([[1, 2], [3, 4]], labels=["a", "a"]), ValueError,
     "`labels` must be free of duplicates"),
    (lambda: ConfusionMatrix([[1, 2], [3, 4]], labels=["a", "b", "c"]), ValueError,
     r"`labels` must be of length 2 \(one label per row of `matrix`\); got length 3"),
    (lambda: ConfusionMatrix([[1, 2], [3, 4]], labels=np.array([1, "b"], dtype=object)), TypeError,
     "`labels` must be labels of one kind"),
    (lambda: ConfusionMatrix.from_predictions([[0, 1], [1, 1]], [[0, 1], [1, 0]]), ValueError,
     "`y_true` must be 1-d single-label targets .*multilabel indicator matrix"),
    (lambda: ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 1], labels=[0, 1]), ValueError,
     r"`labels` must be a list of every label of the data .*leaves out \[2\]"),
    (lambda: ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 1], labels=[0, 1, 1, 2]),
     ValueError, "`labels` must be free of duplicates"),
    (lambda: ConfusionMatrix.from_predictions(["a", "b"], [0, 1]), ValueError,
     "Mix of label input types"),
    (lambda: ConfusionMatrix([[1, 0], [0, 1]]) + ConfusionCounts(1, 0, 0, 1), TypeError,
     "one-vs-rest tables do not determine the K x K table"),
    (lambda: ConfusionCounts(1, 0, 0, 1) + ConfusionMatrix([[1, 0], [0, 1]]), TypeError,
     "one-vs-rest tables do not determine the K x K table"),
    (lambda: ConfusionMatrix([[1]]) + PairedCounts(1, 0, 0), TypeError,
     "unsupported operand"),
    (lambda: ConfusionMatrix([[1]]) + 1, TypeError, "unsupported operand"),
    (lambda: ConfusionMatrix([[1]], labels=["a"]) + ConfusionMatrix([[1]]), ValueError,
     r"Cannot add confusion matrices of string and of number labels: \['a'\] and \[0\]"),
    (lambda: metric_posterior(ConfusionMatrix([[1, 0], [0, 1]]), [0, 1], metric="f1"),
     TypeError, "`y_pred` must be None when `y_true` is a ConfusionMatrix"),
    (lambda: metric_posterior(ConfusionMatrix([[1, 0], [0, 1]]), metric="f1",
                              sample_weight=[1, 1]),
     ValueError, "`sample_weight` must be None when `y_true` is a ConfusionMatrix"),
    (lambda: metric_posterior(ConfusionMatrix(np.zeros((2, 2))), metric="f1"), ValueError,
     "`y_true` must be a ConfusionMatrix that counts some items; got a matrix of zeros"),
    (lambda: metric_posterior(ConfusionMatrix([[1, 0], [0, 1]], labels=[0, 2]), metric="f1"),
     ValueError, r"`pos_label` must be one of the labels \[0, 2\]; got 1"),
    (lambda: metric_posterior(ConfusionMatrix(np.eye(3)), metric="f1"), ValueError,
     r"`average` must be 'micro', 'macro', 'weighted' or None for multiclass targets"),
    (lambda: compare_counts({"a": ConfusionMatrix([[1]]), "b": ConfusionMatrix([[2]])}),
     ValueError, r"`counts\['a'\]` must be a K x K confusion matrix with K >= 2"),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD)
def test_bad_input_is_refused_by_name(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ---------------------------------------------------------------------------
# compare_counts
# ---------------------------------------------------------------------------


def test_compare_counts_reads_confusion_matrices(rng):
    y_true, y_pred = _data(rng)
    other = np.where(rng.random(len(y_true)) < 0.8, y_true, "ant")
    first = sum(_batches(y_true, y_pred))
    second = ConfusionMatrix.from_predictions(y_true, other)
    options = {"metric": "f1", "average": "macro", "n_draws": 2000}
    report = compare_counts({"first": first, "second": [second, second]}, random_state=4,
                            **options)
    # Reference: the same tables as arrays in one order of labels.
    arrays = compare_counts({"first": _aligned(first, LABELS),
                             "second": [second.to_array(), second.to_array()]},
                            random_state=4, **options)
    np.testing.assert_array_equal(report.summary.to_numpy(), arrays.summary.to_numpy())
    assert report.summary.loc["first", "mean"] == pytest.approx(
        metric_posterior(y_true, y_pred, **options, random_state=0).mean(), abs=0.02)
    binary = compare_counts({"a": ConfusionMatrix([[40, 10], [5, 45]]),
                             "b": ConfusionMatrix([[35, 15], [10, 40]])}, metric="f1")
    assert binary.summary["tp"].tolist() == [45.0, 40.0]


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@given(label_pairs(min_size=2), st.data())
def test_parts_add_up_to_the_whole(case, data):
    # Any cut: the two parts, each with only its own labels, add to the count of every item
    # (exactly with unit weights; to rounding with fractional ones).  Reference: scikit-learn.
    n = len(case["y_true"])
    cut = data.draw(st.integers(1, n - 1), label="cut")
    weight = case["sample_weight"]
    true, pred = np.asarray(case["y_true"]), np.asarray(case["y_pred"])
    parts = [ConfusionMatrix.from_predictions(
        as_kind(true[part].tolist(), case["kind"], case["classes"]),
        as_kind(pred[part].tolist(), case["kind"], case["classes"]),
        sample_weight=None if weight is None else weight[part])
        for part in (slice(0, cut), slice(cut, n))]
    whole = ConfusionMatrix.from_predictions(case["y_true"], case["y_pred"],
                                             sample_weight=weight)
    total = parts[0] + parts[1]
    assert sorted(total.labels.tolist()) == sorted(whole.labels.tolist())
    if weight is None:
        assert total == whole and sum(parts) == whole
    tolerance = 0.0 if weight is None else 1e-12 * max(1.0, float(np.sum(weight)))
    np.testing.assert_allclose(_aligned(total, whole.labels), whole.to_array(), rtol=1e-12,
                               atol=tolerance)
    if weight is None or np.any(weight):   # scikit-learn refuses all-zero weights
        np.testing.assert_allclose(
            whole.to_array(), confusion_matrix(true, pred, labels=whole.labels,
                                               sample_weight=weight), rtol=1e-12)


# One positive-label rule for 2 x 2 matrices: pos_label (1 by default, as scikit-learn),
# refused with the labels named when they do not hold it, in every entry point.
LETTERS = ConfusionMatrix([[50, 10], [5, 35]], labels=["a", "b"])
LETTERS_B = ConfusionMatrix([[45, 15], [8, 32]], labels=["a", "b"])
NO_POSITIVE = r"`pos_label` must be one of the labels \['a', 'b'\]; got 1\."


@pytest.mark.parametrize("call", [
    lambda: metric_posterior(LETTERS, metric="precision"),
    lambda: compare_counts({"x": LETTERS, "y": LETTERS_B}, metric="precision"),
    lambda: LETTERS.counts(average="binary"),
    lambda: ConfusionCounts.from_confusion_matrix(LETTERS.matrix, labels=LETTERS.labels,
                                                  average="binary"),
], ids=["metric_posterior", "compare_counts", "counts", "from_confusion_matrix"])
def test_two_by_two_without_pos_label_is_refused_everywhere(call):
    with pytest.raises(ValueError, match=NO_POSITIVE):
        call()


@pytest.mark.parametrize("positive", ["a", "b"])
def test_two_by_two_pos_label_picks_the_same_table_everywhere(positive):
    # Reference: the matrix read by hand; row `positive` true, column `positive` predicted.
    i = ["a", "b"].index(positive)
    tp, fn = LETTERS.matrix[i, i], LETTERS.matrix[i, 1 - i]
    fp, tn = LETTERS.matrix[1 - i, i], LETTERS.matrix[1 - i, 1 - i]
    expected = ConfusionCounts(tp=tp, fp=fp, fn=fn, tn=tn)
    assert LETTERS.counts(average="binary", pos_label=positive) == expected
    assert ConfusionCounts.from_confusion_matrix(
        LETTERS.matrix, labels=LETTERS.labels, average="binary", pos_label=positive) == expected
    posterior = metric_posterior(LETTERS, metric="precision", pos_label=positive)
    assert (posterior.a, posterior.b) == (tp + 0.5, fp + 0.5)
    report = compare_counts({"x": LETTERS, "y": LETTERS_B}, metric="precision",
                            pos_label=positive, random_state=0)
    row = report.summary.loc["x"]
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (tp, fp, fn, tn)
    assert row["point"] == pytest.approx(tp / (tp + fp), rel=1e-12)
    named = compare_counts({"x": LETTERS, "y": LETTERS_B}, metric="precision",
                           labels=[positive], random_state=0)
    assert named.summary.loc["x", "point"] == row["point"]


def test_two_by_two_of_zero_and_one_takes_one_as_before():
    # Unlabelled matrices are labelled 0, 1: pos_label=1 is the second row, as
    # confusion_matrix(...).ravel() reads tn, fp, fn, tp.
    matrix = ConfusionMatrix([[50, 10], [5, 35]])
    expected = ConfusionCounts(tp=35, fp=10, fn=5, tn=50)
    assert matrix.counts(average="binary") == expected
    report = compare_counts({"x": matrix, "y": [[45, 15], [8, 32]]}, metric="precision",
                            random_state=0)
    assert report.summary.loc["x", "tp"] == 35.0
    assert metric_posterior(matrix, metric="precision").a == 35.5
