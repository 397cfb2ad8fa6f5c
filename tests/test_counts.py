"""ConfusionCounts and PairedCounts against scikit-learn and hand counts."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import confusion_matrix, multilabel_confusion_matrix

from skprobeval import ConfusionCounts, PairedCounts
from skprobeval._counting._counts import joint_codes
from skprobeval._counting._labels import multiclass_confusion_matrix


def _as_mcm(counts):
    """Our tables in scikit-learn's (K, 2, 2) [[tn, fp], [fn, tp]] layout."""
    return np.atleast_3d(counts.to_array()).reshape(-1, 2, 2)


def _random_case(rng, kind):
    n = int(rng.integers(1, 60))
    weight = rng.uniform(0, 3, size=n) if rng.random() < 0.5 else None
    if kind == "multilabel":
        n_labels = int(rng.integers(1, 6))
        y_true = (rng.random((n, n_labels)) < rng.random()).astype(int)
        y_pred = (rng.random((n, n_labels)) < rng.random()).astype(int)
        labels = None
        if rng.random() < 0.4:
            labels = rng.permutation(n_labels)[: int(rng.integers(1, n_labels + 1))]
        return y_true, y_pred, labels, weight
    n_classes = 2 if kind == "binary" else int(rng.integers(3, 8))
    pool = np.arange(n_classes)
    if kind == "strings":
        pool = np.array(["ant", "bee", "cat", "dog", "eel", "fox", "gnu"][:n_classes])
    if kind == "offset":
        pool = np.array([-7, 3, 11, 40, 1000, 2**40, 5])[:n_classes]
    y_true = rng.choice(pool, size=n)
    y_pred = rng.choice(pool, size=n)
    labels = None
    if rng.random() < 0.5:
        present = np.union1d(y_true, y_pred)
        extra = {"strings": np.array(["zebra"]), "offset": np.array([99])}.get(kind, np.array([50]))
        candidates = np.concatenate([present, extra])
        labels = rng.permutation(candidates)[: int(rng.integers(1, candidates.shape[0] + 1))]
    return y_true, y_pred, labels, weight


@pytest.mark.parametrize("kind", ["binary", "multiclass", "strings", "offset", "multilabel"])
def test_matches_multilabel_confusion_matrix(kind, seed):
    # Reference: sklearn.metrics.multilabel_confusion_matrix on the same inputs,
    # 60 random cases per kind (300 in all): absent labels, label subsets, weights.
    rng = np.random.default_rng(seed)
    for _ in range(60):
        y_true, y_pred, labels, weight = _random_case(rng, kind)
        ours = ConfusionCounts.from_predictions(y_true, y_pred, labels=labels, average=None,
                                                sample_weight=weight)
        theirs = multilabel_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weight)
        np.testing.assert_allclose(_as_mcm(ours), theirs, rtol=1e-12, atol=1e-9)
        if labels is not None and kind != "multilabel":
            np.testing.assert_array_equal(ours.labels, labels)
        micro = ConfusionCounts.from_predictions(y_true, y_pred, labels=labels, average="micro",
                                                 sample_weight=weight)
        np.testing.assert_allclose(_as_mcm(micro)[0], theirs.sum(axis=0), atol=1e-9)


def test_binary_pos_label(seed):
    # Reference: multilabel_confusion_matrix(labels=[pos_label]).
    rng = np.random.default_rng(seed)
    for _ in range(40):
        n = int(rng.integers(1, 50))
        y_true = rng.choice(["neg", "pos"], size=n)
        y_pred = rng.choice(["neg", "pos"], size=n)
        weight = rng.uniform(0, 2, size=n)
        ours = ConfusionCounts.from_predictions(y_true, y_pred, pos_label="pos",
                                                sample_weight=weight)
        theirs = multilabel_confusion_matrix(y_true, y_pred, labels=["pos"],
                                             sample_weight=weight)[0]
        np.testing.assert_allclose(ours.to_array(), theirs, atol=1e-12)
        assert ours.shape == ()
        assert ours.labels is None


def test_fast_path_equals_encoded_path(seed):
    # The bincount fast path (labels 0..K-1) and the np.unique path agree.
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 10, size=5000)
    y_pred = rng.integers(0, 10, size=5000)
    fast = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    slow = ConfusionCounts.from_predictions(y_true.astype(str), y_pred.astype(str), average=None)
    for name in ("tp", "fp", "fn", "tn"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name))


def test_bool_and_float_labels():
    y_true = np.array([True, False, True, True])
    y_pred = np.array([True, True, False, True])
    counts = ConfusionCounts.from_predictions(y_true, y_pred, pos_label=True)
    assert counts == ConfusionCounts(2, 1, 1, 0)
    as_float = ConfusionCounts.from_predictions(y_true.astype(float), y_pred.astype(float))
    assert as_float == counts


def test_single_class_present_binary():
    # All-negative data: the positive class is absent, every item a true negative.
    counts = ConfusionCounts.from_predictions([0, 0, 0], [0, 0, 0])
    assert counts == ConfusionCounts(0, 0, 0, 3)


def test_multiclass_confusion_matrix_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    y_true = rng.choice(["a", "b", "c", "d"], size=200)
    y_pred = rng.choice(["a", "b", "c"], size=200)
    weight = rng.uniform(size=200)
    matrix, labels = multiclass_confusion_matrix(y_true, y_pred, sample_weight=weight)
    np.testing.assert_allclose(matrix, confusion_matrix(y_true, y_pred, sample_weight=weight))
    assert labels.tolist() == ["a", "b", "c", "d"]
    sub, sub_labels = multiclass_confusion_matrix(y_true, y_pred, labels=["c", "a", "z"])
    np.testing.assert_allclose(sub, confusion_matrix(y_true, y_pred, labels=["c", "a", "z"]))
    assert sub_labels.tolist() == ["c", "a", "z"]


def test_from_confusion_matrix_round_trip(seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, size=300)
    y_pred = rng.integers(0, 4, size=300)
    direct = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    via_matrix = ConfusionCounts.from_confusion_matrix(confusion_matrix(y_true, y_pred))
    assert direct == via_matrix
    binary = ConfusionCounts.from_confusion_matrix([[5, 2], [1, 7]], average="binary")
    # sklearn's ravel order of a 2 x 2 matrix is tn, fp, fn, tp.
    assert binary == ConfusionCounts(tp=7, fp=2, fn=1, tn=5)


def test_sparse_multilabel_equals_dense(seed):
    rng = np.random.default_rng(seed)
    y_true = (rng.random((80, 5)) < 0.3).astype(int)
    y_pred = (rng.random((80, 5)) < 0.3).astype(int)
    weight = rng.uniform(size=80)
    dense = ConfusionCounts.from_predictions(y_true, y_pred, average=None, sample_weight=weight)
    sparse = ConfusionCounts.from_predictions(sp.csr_matrix(y_true), sp.csr_matrix(y_pred),
                                              average=None, sample_weight=weight)
    for name in ("tp", "fp", "fn", "tn"):
        np.testing.assert_allclose(getattr(dense, name), getattr(sparse, name))


def test_pooling_and_indexing():
    a = ConfusionCounts([1, 2], [3, 4], [5, 6], [7, 8], labels=["x", "y"])
    b = ConfusionCounts([1, 1], [1, 1], [1, 1], [1, 1], labels=["x", "y"])
    pooled = a + b
    np.testing.assert_array_equal(pooled.tp, [2, 3])
    assert sum([a, b]) == pooled
    assert a.sum() == ConfusionCounts(3, 7, 11, 15)
    assert a[1] == ConfusionCounts(2, 4, 6, 8)
    assert len(a) == 2
    np.testing.assert_allclose(a.n, [16, 20])
    np.testing.assert_allclose(a.prevalence, [6 / 16, 8 / 20])
    with pytest.raises(ValueError, match="different labels"):
        a + ConfusionCounts([1, 2], [3, 4], [5, 6], [7, 8], labels=["x", "z"])
    with pytest.raises(ValueError, match="shapes"):
        a + ConfusionCounts(1, 1, 1, 1)


def test_immutable_and_picklable():
    counts = ConfusionCounts(1, 2, 3, 4)
    with pytest.raises(AttributeError):
        counts.tp = 5
    with pytest.raises(ValueError):
        counts.tp[...] = 5
    assert pickle.loads(pickle.dumps(counts)) == counts


def test_fractional_and_huge_counts():
    counts = ConfusionCounts(0.5, 1e12, 2.25, 3)
    assert float(counts.n) == pytest.approx(1e12 + 5.75)
    assert "2.25" in repr(counts)


def test_paired_counts_by_hand():
    y_true = np.array([1, 1, 0, 0, 1, 0, 2])
    first = np.array([1, 0, 0, 1, 1, 0, 1])
    second = np.array([0, 1, 0, 1, 0, 1, 0])
    counts = PairedCounts.from_predictions(y_true, first, second)
    # items 0, 4, 5 favour the first; item 1 the second; items 2, 3, 6 tie
    # (6: both wrong with different labels is a tie).
    assert counts == PairedCounts(3, 1, 3)
    weighted = PairedCounts.from_predictions(y_true, first, second,
                                             sample_weight=[1, 2, 1, 1, 1, 0.5, 1])
    assert weighted == PairedCounts(2.5, 2, 3)


def test_paired_counts_multilabel_per_column():
    y_true = np.array([[1, 0], [0, 1], [1, 1]])
    first = np.array([[1, 0], [1, 1], [1, 0]])
    second = np.array([[0, 0], [0, 1], [1, 1]])
    counts = PairedCounts.from_predictions(y_true, first, second)
    np.testing.assert_array_equal(counts.first_better, [1, 0])
    np.testing.assert_array_equal(counts.second_better, [1, 1])
    np.testing.assert_array_equal(counts.ties, [1, 2])


def test_paired_pooling_any_order():
    parts = [PairedCounts(3, 1, 10), PairedCounts(0, 2, 5), PairedCounts(4.5, 0, 1)]
    assert parts[0] + parts[1] + parts[2] == parts[2] + parts[0] + parts[1] == sum(parts)
    assert PairedCounts(5, 2, 1).swapped() == PairedCounts(2, 5, 1)


def test_rare_label_missed_by_the_encoding_sample(seed):
    # The encoder samples every n // 4096-th item; a label seen once elsewhere
    # must still be found (second search round).  Reference: sklearn.
    rng = np.random.default_rng(seed)
    n = 50_000
    y_true = rng.choice(["a", "b"], size=n).astype("<U8")
    y_pred = rng.choice(["a", "b"], size=n).astype("<U8")
    y_true[12_345] = "rare"
    y_pred[777] = "zzz"
    ours = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    np.testing.assert_array_equal(ours.labels, ["a", "b", "rare", "zzz"])
    np.testing.assert_allclose(_as_mcm(ours), multilabel_confusion_matrix(y_true, y_pred))


def _object_strings(rng, n, pool):
    """``n`` labels drawn from ``pool`` as an object array of Python str."""
    return np.array(rng.choice(pool, size=n).tolist(), dtype=object)


def test_object_string_labels_match_sklearn(seed):
    # Object arrays of str are encoded by hashing (pandas.factorize) and a sort
    # of the distinct labels only.  Reference: scikit-learn's
    # multilabel_confusion_matrix and unique_labels on the same inputs, 40
    # random cases: labels whose sorted order is not their first-seen order
    # (empty, case, prefixes, non-ASCII), labels= subsets with absent labels,
    # weights.
    from sklearn.utils.multiclass import unique_labels

    from skprobeval._counting._labels import _encode_strings

    pool = np.array(["", "B", "a", "ab", "abc", "b", "é", "z", "Z1", "10", "9"], dtype=object)
    rng = np.random.default_rng(seed)
    for _ in range(40):
        n = int(rng.integers(1, 3000))
        k = int(rng.integers(1, pool.shape[0] + 1))
        subset = rng.permutation(pool)[:k]
        y_true, y_pred = _object_strings(rng, n, subset), _object_strings(rng, n, subset)
        assert _encode_strings(y_true, y_pred) is not None     # the hashed path is taken
        weight = rng.uniform(0, 3, size=n) if rng.random() < 0.5 else None
        labels = None
        if rng.random() < 0.5:
            candidates = np.concatenate([unique_labels(y_true, y_pred), ["zebra"]])
            labels = rng.permutation(candidates)[: int(rng.integers(1, candidates.shape[0] + 1))]
        ours = ConfusionCounts.from_predictions(y_true, y_pred, labels=labels, average=None,
                                                sample_weight=weight)
        theirs = multilabel_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weight)
        if weight is None:
            np.testing.assert_array_equal(_as_mcm(ours), theirs)
        else:
            np.testing.assert_allclose(_as_mcm(ours), theirs, rtol=1e-12, atol=1e-9)
        expected = unique_labels(y_true, y_pred) if labels is None else labels
        assert ours.labels.tolist() == list(expected)
        # The joint encoding behind the posteriors and comparisons: same tables.
        joint = joint_codes(y_true, [y_pred], average=None, labels=labels,
                            sample_weight=weight).counts()
        np.testing.assert_allclose(_as_mcm(joint), theirs, rtol=1e-12, atol=1e-9)
        assert joint.labels.tolist() == list(expected)


def test_object_string_labels_mostly_distinct(seed):
    # 1500 distinct labels among 6000 items: the hash table is sized by pandas
    # (not the small grown one used for few classes).  Reference: scikit-learn.
    rng = np.random.default_rng(seed)
    pool = np.array([f"id{i}" for i in range(1500)], dtype=object)
    y_true, y_pred = _object_strings(rng, 6000, pool), _object_strings(rng, 6000, pool)
    weight = rng.uniform(size=6000)
    ours = ConfusionCounts.from_predictions(y_true, y_pred, average=None, sample_weight=weight)
    theirs = multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight)
    np.testing.assert_allclose(_as_mcm(ours), theirs, rtol=1e-12, atol=1e-9)
    assert ours.labels.tolist() == sorted(set(y_true) | set(y_pred))


@pytest.mark.parametrize("bad, message", [
    (None, r"`y_pred` must be free of missing labels .*; got 1 missing value\(s\) of 10000"),
    (float("nan"), r"`y_pred` must be free of missing labels .*; got 1 missing value\(s\)"),
    (3, "Mix of label input types"),
    (b"a", "Mix of label input types"),
])
def test_object_string_labels_with_one_bad_item(bad, message):
    # One non-string item deep in an otherwise all-string object array: the
    # same error as before the hashed path (which hands such arrays back to
    # the general one).
    y_true = np.array(["a", "b"] * 5000, dtype=object)
    y_pred = y_true.copy()
    y_pred[7777] = bad
    with pytest.raises(ValueError, match=message):
        ConfusionCounts.from_predictions(y_true, y_pred, average=None)


def test_many_distinct_labels_use_margins(seed):
    # 5000 distinct labels: the K x K table (25e6 cells) is not built; the
    # per-label tables come from bincount margins.  Reference: sklearn.
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 5000, size=20_000) * 7 + 3
    y_pred = np.where(rng.random(20_000) < 0.5, y_true, rng.integers(0, 5000, size=20_000) * 7)
    weight = rng.uniform(size=20_000)
    ours = ConfusionCounts.from_predictions(y_true, y_pred, average=None, sample_weight=weight)
    theirs = multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight)
    np.testing.assert_allclose(_as_mcm(ours), theirs, atol=1e-9)
    with pytest.raises(ValueError, match="Too many distinct labels"):
        multiclass_confusion_matrix(y_true, y_pred)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32])
def test_narrow_integer_dtypes(dtype, seed):
    # K * y_true + y_pred must be formed in a wide type: uint8 labels with 30
    # classes overflow otherwise.  Reference: sklearn on the same labels.
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 30, size=2000).astype(dtype)
    y_pred = rng.integers(0, 30, size=2000).astype(dtype)
    y_true[:2] = [0, 29]
    ours = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    np.testing.assert_allclose(_as_mcm(ours), multilabel_confusion_matrix(y_true, y_pred))
    sparse_labels = np.array([0, 1, 120, 3], dtype=dtype)
    counts = ConfusionCounts.from_predictions(sparse_labels, sparse_labels, average=None)
    assert counts.labels.tolist() == [0, 1, 3, 120]


def test_string_pos_label_on_integer_labels_is_rejected():
    # Two labels: the message names them, as joint_codes' does.
    with pytest.raises(ValueError, match=r"`pos_label` must be one of the labels \[0, 1\]; "
                                         "got '1'"):
        ConfusionCounts.from_predictions([0, 1, 1], [0, 1, 0], pos_label="1")
    with pytest.raises(ValueError, match="`pos_label` must be a label of the data's kind"):
        ConfusionCounts.from_predictions([1, 1, 1], [1, 1, 1], pos_label="1")


def test_cell_order_is_tp_fp_fn_tn_and_not_scikit_learns_ravel():
    # scikit-learn's confusion_matrix(...).ravel() reads tn, fp, fn, tp: passing it
    # positionally would swap TP and TN.  The documented route and keywords agree.
    from sklearn.metrics import confusion_matrix

    y_true, y_pred = [0, 1, 1, 0, 1, 1, 0], [0, 1, 0, 0, 1, 1, 1]
    cm = confusion_matrix(y_true, y_pred)
    tn, fp, fn, tp = cm.ravel()
    expected = ConfusionCounts.from_predictions(y_true, y_pred)
    assert ConfusionCounts.from_confusion_matrix(cm, average="binary") == expected
    assert ConfusionCounts(tp=tp, fp=fp, fn=fn, tn=tn) == expected
    assert ConfusionCounts(tp, fp, fn, tn) == expected
    assert ConfusionCounts(*cm.ravel()) != expected
    assert "tn, fp, fn, tp" in ConfusionCounts.__doc__


def test_sample_weight_acts_as_counts():
    # Weights of 10 are ten times the evidence: the Beta interval narrows about sqrt(10)-fold.
    from skprobeval import precision_posterior

    y_true, y_pred = [1, 1, 0, 1, 0, 1, 1, 0], [1, 1, 1, 1, 0, 0, 1, 0]
    plain = precision_posterior(y_true, y_pred).interval(0.95)
    heavy = precision_posterior(y_true, y_pred, sample_weight=[10] * 8).interval(0.95)
    ratio = (plain.high - plain.low) / (heavy.high - heavy.low)
    assert 2.5 < ratio < 3.5


def test_an_empty_cell_is_exactly_zero_with_fractional_weights(seed):
    # Every cell is summed by one route (never a total summed in another order
    # less the other cells), so a cell without items is exactly 0 on any CPU.
    rng = np.random.default_rng(seed)
    n = 10_007
    weight = rng.uniform(0.01, 0.3, size=n)
    ones = np.ones(n, dtype=int)
    # Binary: every item a true positive.
    binary = ConfusionCounts.from_predictions(ones, ones, sample_weight=weight)
    assert (binary.fp, binary.fn, binary.tn) == (0.0, 0.0, 0.0)
    # More labels than the K x K table allows: label 0 is every item's truth.
    spread = rng.integers(0, 6000, size=n)
    many = ConfusionCounts.from_predictions(np.zeros(n, dtype=int), spread, labels=[0],
                                            average=None, sample_weight=weight)
    assert many.tn[0] == 0.0
    # Multilabel indicators: column 0 never set, column 1 always set.
    indicator = np.zeros((n, 2), dtype=int)
    indicator[:, 1] = 1
    multi = ConfusionCounts.from_predictions(indicator, indicator, average=None,
                                             sample_weight=weight)
    assert multi.tp[0] == 0.0 and multi.tn[1] == 0.0 and multi.fp[1] == 0.0
    # Paired: the first system right on every item, the second on none.
    paired = PairedCounts.from_predictions(ones, ones, 1 - ones, sample_weight=weight)
    assert paired.ties == 0.0 and paired.second_better == 0.0
    paired_ml = PairedCounts.from_predictions(indicator, indicator, 1 - indicator,
                                              sample_weight=weight)
    assert np.all(paired_ml.ties == 0.0)
