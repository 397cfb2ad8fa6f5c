"""`JointCounts`: the joint table of several systems, counted batch by batch and ranked."""

import dataclasses
import doctest
import pathlib
import pickle

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from optional import needs
from strategies import label_pairs

from skprobeval import ConfusionCounts, JointCounts, rank_systems

DRAWS = {"n_draws": 2000}


def _systems(rng, n_items, n_classes, accuracies=(0.8, 0.75, 0.7)):
    """Labels 0..K-1 and systems right with the given accuracies (else a random label)."""
    y_true = rng.integers(0, n_classes, n_items)
    predictions = {name: np.where(rng.random(n_items) < accuracy, y_true,
                                  rng.integers(0, n_classes, n_items))
                   for name, accuracy in zip("abcdef", accuracies)}
    return y_true, predictions


def _batches(y_true, predictions, size, sample_weight=None, **settings):
    for start in range(0, len(y_true), size):
        batch = slice(start, start + size)
        yield JointCounts.from_predictions(
            y_true[batch], {name: pred[batch] for name, pred in predictions.items()},
            sample_weight=None if sample_weight is None else sample_weight[batch], **settings)


# ---------------------------------------------------------------------------
# A loop over batches equals one call on all the items
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("n_classes", "metric", "average"), [
    (2, "accuracy", "binary"), (2, "f1", "binary"), (3, "f1", "macro"), (3, "f1", "micro"),
    (4, "precision", "weighted")])
def test_a_batch_loop_ranks_as_one_call(rng, seed, n_classes, metric, average):
    y_true, predictions = _systems(rng, 300, n_classes)
    total = 0
    for batch in _batches(y_true, predictions, 37, average=average):
        total += batch
    assert total == JointCounts.from_predictions(y_true, predictions, average=average)
    assert total.n == 300.0
    # The same items, hence the same joint table and the same draws under one seed.
    counted = rank_systems(total, metric=metric, random_state=seed, **DRAWS)
    direct = rank_systems(y_true, predictions, metric=metric, average=average,
                          random_state=seed, **DRAWS)
    np.testing.assert_array_equal(counted.values, direct.values)
    pd.testing.assert_frame_equal(counted.pairwise, direct.pairwise)


def test_batches_lacking_a_label_add_up_with_labels(rng, seed):
    # The first batches have no label 2, the last no label 0.
    y_true = np.concatenate([rng.integers(0, 2, 100), rng.integers(1, 3, 100)])
    mistake = np.concatenate([1 - y_true[:100], 3 - y_true[100:]])
    predictions = {name: np.where(rng.random(200) < 0.8, y_true, mistake)
                   for name in ("a", "b", "c")}
    settings = {"labels": [2, 0, 1], "average": "macro"}
    batches = list(_batches(y_true, predictions, 50, **settings))
    assert 2 not in batches[0].y_true and 2 not in batches[0].y_pred
    assert 0 not in batches[-1].y_true and 0 not in batches[-1].y_pred
    total = sum(batches)
    assert total == JointCounts.from_predictions(y_true, predictions, **settings)
    counted = rank_systems(total, metric="f1", random_state=seed, **DRAWS)
    direct = rank_systems(y_true, predictions, metric="f1", random_state=seed, **settings,
                          **DRAWS)
    np.testing.assert_array_equal(counted.values, direct.values)
    # rank_systems needs the labels in the total, as in the items.
    with pytest.raises(ValueError, match=r"`labels` must be labels that occur in the data"):
        rank_systems(batches[0], metric="f1", **DRAWS)


def test_string_labels_a_dataframe_and_integer_weights(rng, seed):
    names = np.array(["ham", "spam"])
    y_codes, codes = _systems(rng, 240, 2)
    y_true = names[y_codes]
    frame = pd.DataFrame({name: names[pred] for name, pred in codes.items()})
    weight = rng.integers(0, 4, 240).astype(float)
    settings = {"pos_label": "spam", "sample_weight": weight}
    total = sum(_batches(y_true, {c: frame[c].to_numpy() for c in frame}, 50, **settings))
    assert total == JointCounts.from_predictions(y_true, frame, **settings)
    assert total.n == weight.sum()
    counted = rank_systems(total, metric="f1", random_state=seed, **DRAWS)
    direct = rank_systems(y_true, frame, metric="f1", random_state=seed, **settings, **DRAWS)
    np.testing.assert_array_equal(counted.values, direct.values)


def test_fractional_weights_add_up_to_rounding(rng):
    y_true, predictions = _systems(rng, 200, 3)
    weight = rng.random(200)
    total = sum(_batches(y_true, predictions, 30, sample_weight=weight, average="micro"))
    whole = JointCounts.from_predictions(y_true, predictions, average="micro",
                                         sample_weight=weight)
    np.testing.assert_array_equal(total.y_pred, whole.y_pred)
    np.testing.assert_allclose(total.counts, whole.counts, rtol=1e-12)


@needs("dask")
def test_dask_arrays_give_the_counts_of_numpy_arrays(rng):
    import dask
    import dask.array as da

    y_true, predictions = _systems(rng, 300, 3)
    with dask.config.set(scheduler="synchronous"):
        lazy = JointCounts.from_predictions(
            da.from_array(y_true, chunks=70),
            {name: da.from_array(pred, chunks=70) for name, pred in predictions.items()},
            average="macro")
    assert lazy == JointCounts.from_predictions(y_true, predictions, average="macro")


def test_the_user_guide_batch_loop_runs():
    # The user guide's example of counting several systems batch by batch.
    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "user_guide" / "counts.rst"
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


# ---------------------------------------------------------------------------
# What the counts hold
# ---------------------------------------------------------------------------


def test_the_combinations_are_those_pandas_counts(rng):
    # An independent route: pandas' value counts of the rows of labels.
    y_true, predictions = _systems(rng, 500, 3)
    counts = JointCounts.from_predictions(y_true, predictions, average="macro")
    rows = pd.DataFrame({"y_true": y_true, **predictions})
    expected = rows.value_counts().astype(float)
    found = counts.to_frame().set_index(["y_true", *predictions])["count"]
    pd.testing.assert_series_equal(found.sort_index(), expected.sort_index(),
                                   check_names=False)
    assert counts.to_frame().columns.tolist() == ["y_true", "a", "b", "c", "count"]
    # Sorted by true label, then by each system's prediction.
    assert counts.to_frame().iloc[:, :4].equals(counts.to_frame().iloc[:, :4].sort_values(
        ["y_true", "a", "b", "c"], ignore_index=True))


@pytest.mark.parametrize(("average", "counted"), [("binary", "binary"), ("micro", "micro"),
                                                  ("macro", None), ("weighted", None)])
def test_for_system_is_the_systems_confusion_counts(rng, average, counted):
    n_classes = 2 if average == "binary" else 3
    y_true, predictions = _systems(rng, 200, n_classes)
    weight = rng.integers(0, 3, 200).astype(float)
    labels = None if average == "binary" else [2, 0]
    counts = JointCounts.from_predictions(y_true, predictions, labels=labels, average=average,
                                          sample_weight=weight)
    for name, pred in predictions.items():
        assert counts.for_system(name) == ConfusionCounts.from_predictions(
            y_true, pred, labels=labels, average=counted, sample_weight=weight)
    with pytest.raises(ValueError, match=r"`name` must be one of the systems \['a', 'b', 'c'\]; "
                                         r"got 'd'"):
        counts.for_system("d")


def test_the_constructor_merges_repeated_combinations_and_keeps_zero_counts():
    counts = JointCounts([0, 1, 0, 2], [[0, 1], [1, 1], [0, 1], [0, 0]], [1, 2, 3, 0],
                         names=["a", "b"], average="macro")
    assert counts.y_true.tolist() == [0, 1, 2]
    assert counts.y_pred.tolist() == [[0, 1], [1, 1], [0, 0]]
    assert counts.counts.tolist() == [4.0, 2.0, 0.0]
    assert counts.n == 6.0
    # Label 2 is present (with no weight), as an item of weight 0 makes it.
    assert counts.for_system("a").labels.tolist() == [0, 1, 2]


def test_the_value_is_frozen_and_its_arrays_read_only():
    counts = JointCounts.from_predictions([0, 1, 1], {"a": [0, 1, 0], "b": [1, 1, 1]})
    with pytest.raises(dataclasses.FrozenInstanceError):
        counts.counts = np.zeros(3)
    for array in (counts.y_true, counts.y_pred, counts.counts):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0
    assert counts.names == ("a", "b")
    assert pickle.loads(pickle.dumps(counts)) == counts


def test_repr():
    counts = JointCounts.from_predictions(["x", "y", "z"], {"a": ["x", "y", "y"],
                                                          "b": ["x", "z", "z"]},
                                          labels=["z", "y"], average="macro")
    assert repr(counts) == ("JointCounts(names=['a', 'b'], n=3, combinations=3, "
                            "average='macro', labels=['z', 'y'])")
    binary = JointCounts.from_predictions([0, 1], {"a": [0, 1], "b": [1, 1]}, pos_label=0)
    assert repr(binary) == ("JointCounts(names=['a', 'b'], n=2, combinations=2, "
                            "average='binary', pos_label=0)")


# ---------------------------------------------------------------------------
# Adding
# ---------------------------------------------------------------------------


def test_addition_is_commutative_and_associative(rng):
    y_true, predictions = _systems(rng, 150, 3)
    a, b, c = _batches(y_true, predictions, 50, average="macro")
    assert a + b == b + a
    assert (a + b) + c == a + (b + c) == sum([c, b, a])
    assert 0 + a is a and sum([a]) is a
    assert np.float64(0) + a is a
    assert a + b != a
    with pytest.raises(TypeError):
        a + 1
    with pytest.raises(TypeError):
        a + ConfusionCounts(1, 2, 3, 4)


def test_additions_that_mix_settings_are_refused():
    y_true = [0, 1, 1, 0]
    predictions = {"a": [0, 1, 0, 1], "b": [1, 1, 0, 0]}
    first = JointCounts.from_predictions(y_true, predictions, labels=[0, 1], average="macro")
    refused = [
        (JointCounts.from_predictions(y_true, {"b": [1, 1, 0, 0], "a": [0, 1, 0, 1]},
                                      labels=[0, 1], average="macro"),
         r"different systems: \['a', 'b'\] and \['b', 'a'\] \(the same systems, in the "
         r"same order\)"),
        (JointCounts.from_predictions(y_true, {"a": [0, 1, 0, 1], "c": [1, 1, 0, 0]},
                                      labels=[0, 1], average="macro"),
         r"different systems: \['a', 'b'\] and \['a', 'c'\]"),
        (JointCounts.from_predictions(y_true, predictions, labels=[0, 1], average="micro"),
         r"different `average`: 'macro' and 'micro'"),
        (JointCounts.from_predictions(y_true, predictions, labels=[1, 0], average="macro"),
         r"different `labels`: \[0, 1\] and \[1, 0\]"),
        (JointCounts.from_predictions(y_true, predictions, average="macro"),
         r"different `labels`: \[0, 1\] and None"),
        (JointCounts.from_predictions(["x", "y", "y", "x"], {"a": ["x"] * 4, "b": ["y"] * 4},
                                      labels=["x", "y"], average="macro"),
         r"different `labels`: \[0, 1\] and \['x', 'y'\]"),
    ]
    for second, message in refused:
        with pytest.raises(ValueError, match=message):
            first + second
        with pytest.raises(ValueError, match="Cannot add joint counts of different"):
            second + first
        assert first != second
    strings = JointCounts.from_predictions(["x", "y", "y", "x"], {"a": ["x"] * 4,
                                                                  "b": ["y"] * 4}, pos_label="y")
    with pytest.raises(ValueError, match=r"Cannot add joint counts of number and of string "
                                         r"labels: \[0, 1\] and \['x', 'y'\]"):
        JointCounts.from_predictions(y_true, predictions) + strings


def test_binary_counts_of_another_positive_label_are_refused():
    y_true, predictions = [0, 1, 1], {"a": [0, 1, 0], "b": [1, 1, 1]}
    one = JointCounts.from_predictions(y_true, predictions)
    with pytest.raises(ValueError, match=r"different `pos_label`: 1 and 0"):
        one + JointCounts.from_predictions(y_true, predictions, pos_label=0)
    # Averages over labels have no positive label to differ in.
    macro = [JointCounts.from_predictions(y_true, predictions, average="macro", pos_label=p)
             for p in (0, 1)]
    assert macro[0] + macro[1] == sum([macro[1], macro[0]])


@given(data=label_pairs(min_size=2, max_size=30, max_classes=4),
       other=st.lists(st.integers(0, 3), min_size=30, max_size=30),
       cuts=st.lists(st.integers(1, 29), max_size=4, unique=True),
       average=st.sampled_from(["macro", "micro"]), with_labels=st.booleans())
def test_any_split_into_batches_gives_the_same_counts(data, other, cuts, average,
                                                      with_labels):
    n = len(data["y_true"])
    classes = data["classes"]
    y_true, first = np.asarray(data["y_true"]), np.asarray(data["y_pred"])
    second = np.asarray([classes[c % len(classes)] for c in other[:n]], dtype=first.dtype)
    predictions = {"first": first, "second": second}
    weight = data["sample_weight"]
    settings = {"average": average, "labels": classes if with_labels else None}
    whole = JointCounts.from_predictions(y_true, predictions, sample_weight=weight, **settings)
    bounds = [0, *sorted(c for c in cuts if c < n), n]
    total = sum(JointCounts.from_predictions(
        y_true[a:b], {name: pred[a:b] for name, pred in predictions.items()},
        sample_weight=None if weight is None else weight[a:b], **settings)
        for a, b in zip(bounds[:-1], bounds[1:]))
    np.testing.assert_array_equal(total.y_true, whole.y_true)
    np.testing.assert_array_equal(total.y_pred, whole.y_pred)
    # Weighted sums of the batches add in another order: equal up to rounding.
    np.testing.assert_allclose(total.counts, whole.counts, rtol=1e-12, atol=0)
    assert total.n == pytest.approx(n if weight is None else float(np.sum(weight)))


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

Y = [0, 1, 1, 0]
PREDICTIONS = {"a": [0, 1, 0, 0], "b": [1, 1, 1, 0]}


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: JointCounts([0, 1], [[0, 1], [1, 1]], [1, -2], names=["a", "b"]),
     ValueError, r"`counts` must be non-negative; got \[1, -2\]"),
    (lambda: JointCounts([0, 1], [[0, 1], [1, 1]], [1, np.nan], names=["a", "b"]),
     ValueError, r"`counts` must be finite \(no NaN or inf\); got \[1, nan\]"),
    (lambda: JointCounts([0, 1], [[0, 1], [1, 1]], [1, 2, 3], names=["a", "b"]),
     ValueError, r"`counts` must be one row per combination of `y_true` \(2\); got 3 rows"),
    (lambda: JointCounts([0, 1], [[0, 1, 1], [1, 1, 0]], [1, 2], names=["a", "b"]),
     ValueError, r"`y_pred` must be an array of shape \(n_combinations, 2\).*shape \(2, 3\)"),
    (lambda: JointCounts([0, 1], [[0], [1]], [1, 2], names=["a"]),
     ValueError, r"`names` must be at least two systems.*got 1 system"),
    (lambda: JointCounts([0, 1], [[0, 1], [1, 1]], [1, 2], names=["a", "a"]),
     ValueError, r"`names` must be systems with distinct names; got repeated names \['a'\]"),
    (lambda: JointCounts([0, 1], [[0, 1], [1, 1]], [1, 2], names="ab"),
     TypeError, r"`names` must be a sequence of system names; got 'ab'"),
    (lambda: JointCounts.from_predictions(Y, {"a": [0, 1, 0], "b": [1, 1, 1, 0]}),
     ValueError, r"`y_true` and `predictions\['a'\]` must have the same number of samples; "
                 r"got 4 and 3"),
    (lambda: JointCounts.from_predictions(Y, {"a": [0, 1, 0, 0]}),
     ValueError, r"`predictions` must be at least two systems.*got 1 system"),
    (lambda: JointCounts.from_predictions(Y, [[0, 1, 0, 0], [1, 1, 1, 0]]),
     TypeError, r"`predictions` must be a dict of system name to predictions"),
    (lambda: JointCounts.from_predictions(Y, PREDICTIONS, sample_weight=[1, -1, 1, 1]),
     ValueError, r"`sample_weight` must be non-negative"),
    (lambda: JointCounts.from_predictions(Y, PREDICTIONS, sample_weight=[1, 1, 1]),
     ValueError, r"`sample_weight` must be of the same length as the labels \(4\); got length 3"),
    (lambda: JointCounts.from_predictions([0.0, np.nan, 1.0, 0.0], PREDICTIONS),
     ValueError, r"`y_true` must be free of missing labels .*; got 1 missing value"),
    (lambda: JointCounts.from_predictions([0, 1, 2, 0], PREDICTIONS),
     ValueError, r"`average` must be .* for multiclass targets.*'binary' with 3 labels"),
    (lambda: JointCounts.from_predictions(Y, PREDICTIONS, average=None),
     ValueError, r"`average` must be 'binary', 'micro', 'macro', 'weighted' or 'powers'.*None"),
    (lambda: JointCounts.from_predictions(Y, PREDICTIONS, pos_label=2),
     ValueError, r"`pos_label` must be one of the labels \[0, 1\]; got 2"),
    (lambda: JointCounts.from_predictions(["x", "y", "y", "x"], PREDICTIONS),
     ValueError, r"Mix of label input types"),
    (lambda: JointCounts.from_predictions([[0, 1], [1, 0]], {"a": [[0, 1], [1, 1]],
                                                             "b": [[0, 0], [1, 0]]},
                                          average="micro"),
     ValueError, r"`y_true` must be 1-d labels \(binary or multiclass\).*shape \(2, 2\)"),
])
def test_bad_input_names_the_argument_and_the_value(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_rank_systems_takes_the_counts_settings_and_refuses_others(seed):
    counts = JointCounts.from_predictions([0, 1, 2, 0, 1, 2], {"a": [0, 1, 1, 0, 1, 2],
                                                               "b": [1, 1, 2, 0, 0, 2]},
                                          labels=[0, 2], average="macro")
    same = rank_systems(counts, metric="f1", average="macro", labels=np.array([0, 2]),
                        random_state=seed, **DRAWS)
    np.testing.assert_array_equal(
        same.values, rank_systems(counts, metric="f1", random_state=seed, **DRAWS).values)
    assert same.average == "macro"
    with pytest.raises(TypeError, match=r"`predictions` must be None when `y_true` is a "
                                        r"JointCounts"):
        rank_systems(counts, {"a": [0], "b": [1]})
    with pytest.raises(ValueError, match=r"`sample_weight` must be None"):
        rank_systems(counts, sample_weight=np.ones(6))
    with pytest.raises(ValueError, match=r"`metric` must be a metric of labels.*'roc_auc'"):
        rank_systems(counts, metric="roc_auc")
    with pytest.raises(ValueError, match=r"`average` must be left at its default \('binary'\) "
                                         r"or the JointCounts' own \('macro'\).*got 'micro'"):
        rank_systems(counts, average="micro")
    with pytest.raises(ValueError, match=r"`labels` must be .* own \(\[0, 2\]\).*\[0, 1\]"):
        rank_systems(counts, labels=[0, 1])
    with pytest.raises(ValueError, match=r"`pos_label` must be left at its default \(1\) "
                                         r"or the JointCounts' own \(1\).*got 2"):
        rank_systems(counts, pos_label=2)
    with pytest.raises(TypeError, match=r"`predictions` must be a dict"):
        rank_systems([0, 1, 1])


def test_the_callers_labels_stay_writeable():
    # The counts freeze their own copy: a caller's array keeps its flags (NumPy releases
    # before 2.1 cannot hand a read-only array through DLPack).
    labels = np.array([0, 1, 2])
    counts = JointCounts.from_predictions([0, 1, 2, 1], {"a": [0, 1, 1, 1], "b": [0, 2, 2, 1]},
                                          labels=labels, average="macro")
    assert labels.flags.writeable and not counts.labels.flags.writeable
