"""Counting from Dask arrays equals counting the same data in NumPy.

Reference: ``ConfusionCounts.from_predictions`` and ``PairedCounts.from_predictions`` on
the NumPy arrays themselves (checked against scikit-learn elsewhere), under a
``distributed.Client(processes=False)``.
"""

import sys

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

from skprobeval import ConfusionCounts, PairedCounts  # noqa: E402

# The module's tests share one worker (xdist_group), so that one test process imports
# distributed and starts the cluster of the module-scoped client.
pytestmark = pytest.mark.xdist_group("dask")


@pytest.fixture(scope="module")
def client():
    # distributed imported here, not at collection (0.3 s in every test process).
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        yield client


def _chunks(rng, n):
    """Uneven chunk sizes summing to n."""
    cuts = np.sort(rng.choice(np.arange(1, n), size=min(5, n - 1), replace=False))
    return tuple(np.diff(np.r_[0, cuts, n]).tolist())


def _case(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 400))
    kind = ["binary", "multiclass", "strings", "bool", "multilabel"][seed % 5]
    if kind == "binary":
        y_true, y_pred = rng.integers(0, 2, n), rng.integers(0, 2, n)
    elif kind == "multiclass":
        k = int(rng.integers(3, 12))
        y_true, y_pred = rng.integers(0, k, n), rng.integers(0, k, n)
        y_pred[rng.random(n) < 0.5] = y_true[rng.random(n) < 0.5][:1] if n else 0
    elif kind == "strings":
        names = np.array(["cat", "dog", "emu", "fox"])
        y_true, y_pred = names[rng.integers(0, 4, n)], names[rng.integers(0, 4, n)]
    elif kind == "bool":
        y_true, y_pred = rng.random(n) < 0.3, rng.random(n) < 0.4
    else:
        y_true = (rng.random((n, 4)) < 0.4).astype(int)
        y_pred = (rng.random((n, 4)) < 0.4).astype(int)
    weight = rng.uniform(0, 3, n) if seed % 3 == 0 else None
    return kind, y_true, y_pred, weight, _chunks(rng, n)


def _dask(array, chunks):
    return da.from_array(array, chunks=(chunks,) + tuple(-1 for _ in array.shape[1:]))


# 60 random cases (0.25-0.7 s each: every count is a computation on the cluster); two in
# the default run: seed 0 (binary, weighted, with the given-labels pass) and seed 4
# (multilabel, unweighted).  Every kind and weighting runs in the slow tier (the first 12
# cover them all); string labels are also counted from Dask in the default run by
# test_dask_dataframe_columns and the Parquet test.
FAST_COUNT_SEEDS = (0, 4)


@pytest.mark.parametrize("seed", [
    s if s in FAST_COUNT_SEEDS else pytest.param(s, marks=pytest.mark.slow) for s in range(60)])
def test_dask_counts_equal_numpy_counts(client, seed):
    kind, y_true, y_pred, weight, chunks = _case(seed)
    averages = [None, "micro"] + (["binary"] if kind in ("binary", "bool") else [])
    dask_weight = None if weight is None else _dask(weight, chunks)
    for average in averages:
        expected = ConfusionCounts.from_predictions(y_true, y_pred, average=average,
                                                    sample_weight=weight,
                                                    pos_label=True if kind == "bool" else 1)
        got = ConfusionCounts.from_predictions(_dask(y_true, chunks), _dask(y_pred, chunks),
                                               average=average, sample_weight=dask_weight,
                                               pos_label=True if kind == "bool" else 1)
        for cell in ("tp", "fp", "fn", "tn"):
            np.testing.assert_allclose(getattr(got, cell), getattr(expected, cell),
                                       rtol=1e-12, atol=1e-9)
        if expected.labels is not None:
            np.testing.assert_array_equal(got.labels, expected.labels)
    # Given labels (one pass), including one absent from the data.
    if kind in ("multiclass", "binary"):
        labels = [2, 0, 7]
        expected = ConfusionCounts.from_predictions(y_true, y_pred, average=None, labels=labels,
                                                    sample_weight=weight)
        got = ConfusionCounts.from_predictions(_dask(y_true, chunks), _dask(y_pred, chunks),
                                               average=None, labels=labels,
                                               sample_weight=dask_weight)
        np.testing.assert_array_equal(got.labels, expected.labels)
        np.testing.assert_allclose(got.to_array(), expected.to_array(), atol=1e-9)
    # Paired counts, predictions of a second system shuffled.
    second = np.random.default_rng(seed + 1000).permutation(y_pred)
    expected = PairedCounts.from_predictions(y_true, y_pred, second, sample_weight=weight)
    got = PairedCounts.from_predictions(_dask(y_true, chunks), _dask(y_pred, chunks),
                                        _dask(second, chunks[::-1]), sample_weight=dask_weight)
    for cell in ("first_better", "second_better", "ties"):
        np.testing.assert_allclose(getattr(got, cell), getattr(expected, cell), atol=1e-9)


def test_dask_and_numpy_inputs_mix(client):
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(0, 3, 100), rng.integers(0, 3, 100)
    expected = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    got = ConfusionCounts.from_predictions(da.from_array(y_true, chunks=17), y_pred, average=None)
    np.testing.assert_array_equal(got.to_array(), expected.to_array())


def test_lazily_generated_labels_are_counted_blockwise(client):
    # Labels that never exist as one NumPy array: dask random integers.
    state = da.random.RandomState(3)
    y_true = state.randint(0, 10, size=200_000, chunks=20_000).astype("int8")
    y_pred = state.randint(0, 10, size=200_000, chunks=25_000).astype("int8")
    counts = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
    expected = ConfusionCounts.from_predictions(y_true.compute(), y_pred.compute(),
                                                average=None)
    np.testing.assert_array_equal(counts.to_array(), expected.to_array())


@pytest.mark.parametrize("call, name", [
    (lambda: ConfusionCounts.from_predictions(da.from_array(np.array([0, 1, 1]), chunks=2),
                                              da.from_array(np.array([0, 1]), chunks=2)),
     "y_pred"),
    (lambda: ConfusionCounts.from_predictions(da.from_array(np.array([0.0, np.nan, 1.0]), 2),
                                              da.from_array(np.array([0.0, 1.0, 1.0]), 2),
                                              average=None), "y_true"),
    (lambda: ConfusionCounts.from_predictions(da.from_array(np.array([0, 1, 1]), chunks=2),
                                              da.from_array(np.array([0, 1, 1]), chunks=2),
                                              sample_weight=da.from_array(
                                                  np.array([1.0, -1.0, 1.0]), chunks=2)),
     "sample_weight"),
    (lambda: ConfusionCounts.from_predictions(da.from_array(np.array([[0, 2], [1, 0]]), 1),
                                              da.from_array(np.array([[0, 1], [1, 0]]), 1),
                                              average=None), "y_true"),
])
def test_bad_dask_input_names_the_argument(client, call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()


def test_missing_dask_names_the_extra(monkeypatch):
    class FakeCollection:
        def __dask_graph__(self):
            return {}

    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.array", None)
    with pytest.raises(ImportError, match=r"skprobeval\[dask\]"):
        ConfusionCounts.from_predictions(FakeCollection(), [0, 1])


@pytest.mark.filterwarnings("ignore:Dask currently has limited support:UserWarning")
def test_dask_dataframe_columns(client):
    # Columns of a Dask DataFrame as arrays, with and without known chunk lengths.
    import pandas as pd

    dd = pytest.importorskip("dask.dataframe")
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"gold": rng.choice(["a", "b", "c"], 500),
                          "A": rng.choice(["a", "b", "c"], 500),
                          "w": rng.uniform(0, 2, 500)})
    lazy = dd.from_pandas(frame, npartitions=4)
    expected = ConfusionCounts.from_predictions(frame["gold"], frame["A"], average=None,
                                                sample_weight=frame["w"])
    for lengths in (True, None):
        got = ConfusionCounts.from_predictions(
            lazy["gold"].to_dask_array(lengths=lengths), lazy["A"].to_dask_array(lengths=lengths),
            average=None, sample_weight=lazy["w"].to_dask_array(lengths=lengths))
        np.testing.assert_array_equal(got.labels, expected.labels)
        np.testing.assert_allclose(got.to_array(), expected.to_array(), rtol=1e-12)
    # Dask Series themselves (their partition lengths found first).
    got = ConfusionCounts.from_predictions(lazy["gold"], lazy["A"], average=None,
                                           sample_weight=lazy["w"])
    np.testing.assert_allclose(got.to_array(), expected.to_array(), rtol=1e-12)


# -- DataFrames: compare_predictions("gold", [...], data=frame) ---------------------

_TABLES = ("summary", "pairwise", "pairwise_metric", "pairs", "per_label", "ttest")


def _systems_frame(seed, n=3000):
    """A truth column and three systems of one of several label kinds, and weights."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    kind = ["strings", "ints", "binary", "bool"][seed % 4]
    values = {"strings": np.array(["cat", "dog", "emu", "fox"]), "ints": np.arange(6),
              "binary": np.array([0, 1]), "bool": np.array([False, True])}[kind]
    gold = values[rng.integers(0, values.shape[0], n)]
    frame = {"gold": gold}
    for name, accuracy in zip("ABC", (0.9, 0.75, 0.6)):
        frame[name] = np.where(rng.random(n) < accuracy, gold,
                               values[rng.integers(0, values.shape[0], n)])
    frame["w"] = rng.uniform(0, 2, n)
    return kind, pd.DataFrame(frame)


def _assert_same_report(got, expected, exact=True):
    import pandas as pd

    for table in _TABLES:
        pd.testing.assert_frame_equal(getattr(got, table), getattr(expected, table),
                                      check_exact=exact, rtol=1e-9)


@pytest.fixture(scope="module")
def parquet_directory(tmp_path_factory):
    """Three systems' predictions in a directory of four Parquet files."""
    pytest.importorskip("pyarrow")
    _, frame = _systems_frame(0, n=8000)
    directory = tmp_path_factory.mktemp("logs")
    for i in range(4):
        frame.iloc[i * 2000:(i + 1) * 2000].to_parquet(directory / f"part-{i}.parquet")
    return directory, frame


def test_parquet_directory_equals_pandas_in_one_computation(client, parquet_directory):
    dd = pytest.importorskip("dask.dataframe")
    from skprobeval import compare_predictions

    directory, frame = parquet_directory
    lazy = dd.read_parquet(directory)
    computations = []
    original = client.get

    def counting_get(*args, **kwargs):
        computations.append(1)
        return original(*args, **kwargs)

    client.get = counting_get
    try:
        got = compare_predictions("gold", ["A", "B", "C"], data=lazy, average="macro")
    finally:
        del client.get
    assert len(computations) == 1
    expected = compare_predictions("gold", ["A", "B", "C"], data=frame, average="macro")
    _assert_same_report(got, expected)
    assert got.predictions == {}


# 0.3-0.7 s each (four reports).  One in the default run: seed 1 (integer labels, a subset
# of them, weighted average); a Dask DataFrame's macro report equals pandas' there too in
# test_parquet_directory_equals_pandas_in_one_computation.  The rest in the slow tier.
@pytest.mark.parametrize("seed, average", [
    pytest.param(seed, average, id=f"{average}-{seed}",
                 marks=[] if (seed, average) == (1, "weighted") else [pytest.mark.slow])
    for seed in range(8) for average in ("macro", None, "weighted")])
def test_dask_dataframe_reports_equal_pandas(client, seed, average):
    dd = pytest.importorskip("dask.dataframe")
    from skprobeval import compare_predictions

    kind, frame = _systems_frame(seed)
    if kind in ("binary", "bool"):
        average = "binary"
    options = {"average": average, "n_draws": 2000, "pos_label": True if kind == "bool" else 1}
    if seed % 3 == 1 and kind in ("strings", "ints"):
        options["labels"] = list(np.unique(frame["gold"])[:2])
    lazy = dd.from_pandas(frame, npartitions=1 + seed % 5)
    expected = compare_predictions("gold", ["A", "B", "C"], data=frame, **options)
    _assert_same_report(compare_predictions("gold", ["A", "B", "C"], data=lazy, **options),
                        expected)
    # Weights: sums of the same weights in another order agree to rounding.
    weighted = compare_predictions("gold", ["A", "B"], data=lazy, sample_weight="w", **options)
    reference = compare_predictions("gold", ["A", "B"], data=frame, sample_weight="w", **options)
    np.testing.assert_allclose(weighted.summary[["tp", "fp", "fn", "tn"]],
                               reference.summary[["tp", "fp", "fn", "tn"]], rtol=1e-12)


def test_dask_arrays_and_dataframe_counts_compare_like_numpy(client):
    dd = pytest.importorskip("dask.dataframe")
    from skprobeval import compare_predictions

    _, frame = _systems_frame(5)
    lazy = dd.from_pandas(frame, npartitions=3)
    for average in (None, "micro"):
        expected = ConfusionCounts.from_predictions("gold", "A", data=frame, average=average)
        got = ConfusionCounts.from_predictions("gold", "A", data=lazy, average=average)
        np.testing.assert_array_equal(got.to_array(), expected.to_array())
    paired = PairedCounts.from_predictions("gold", "A", "B", data=lazy, sample_weight="w")
    reference = PairedCounts.from_predictions("gold", "A", "B", data=frame, sample_weight="w")
    np.testing.assert_allclose([paired.first_better, paired.second_better, paired.ties],
                               [reference.first_better, reference.second_better, reference.ties],
                               rtol=1e-12)
    # Dask arrays (labels and multilabel indicators) without a frame.
    rng = np.random.default_rng(3)
    y = (rng.random((900, 3)) < 0.4).astype(int)
    systems = {name: np.where(rng.random((900, 3)) < p, y, 1 - y)
               for name, p in (("a", 0.9), ("b", 0.8))}
    for truth, predictions in ((frame["gold"].to_numpy(), {s: frame[s].to_numpy() for s in "AB"}),
                               (y, systems)):
        expected = compare_predictions(truth, predictions, average="macro", n_draws=2000)
        got = compare_predictions(
            da.from_array(truth, chunks=(250,) + truth.shape[1:]),
            {name: da.from_array(values, chunks=(400,) + values.shape[1:])
             for name, values in predictions.items()}, average="macro", n_draws=2000)
        _assert_same_report(got, expected)


def test_bad_dask_dataframe_input_names_the_argument(client):
    dd = pytest.importorskip("dask.dataframe")
    from skprobeval import compare_predictions

    _, frame = _systems_frame(0, n=200)
    broken = frame.astype({"B": object})
    broken.loc[7, "B"] = None
    lazy = dd.from_pandas(broken, npartitions=2)
    with pytest.raises(ValueError, match="predictions of 'B'"):
        compare_predictions("gold", ["A", "B"], data=lazy)
    with pytest.raises(ValueError, match=r"`predictions\['Z'\]` must be a column"):
        compare_predictions("gold", ["A", "Z"], data=lazy)
    with pytest.raises(TypeError, match="`y_true` must be a column name"):
        compare_predictions(frame["gold"].to_numpy(), ["A"], data=lazy)
    with pytest.raises(ValueError, match="`scores` must be None with Dask input"):
        compare_predictions("gold", ["A"], data=lazy, scores={"A": "w"})
    negative = dd.from_pandas(frame.assign(w=-frame["w"]), npartitions=2)
    with pytest.raises(ValueError, match="`sample_weight` must be finite and non-negative"):
        compare_predictions("gold", ["A"], data=negative, sample_weight="w")


def test_compare_estimators_on_a_dask_cluster_equals_local(client):
    # scikit-learn's scale-out: joblib's Dask backend sends the fits to the cluster.
    import joblib
    from distributed import get_task_stream
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from skprobeval import compare_estimators

    X, y = load_iris(return_X_y=True)
    models = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}
    options = {"cv": 4, "average": "macro", "n_draws": 2000}
    local = compare_estimators(models, X, y, **options)
    with get_task_stream(client) as stream, joblib.parallel_backend("dask"):
        remote = compare_estimators(models, X, y, n_jobs=-1, **options)
    assert len(stream.data) >= 2       # the folds of both models ran on the cluster (batched)
    _assert_same_report(remote, local)
    pd = pytest.importorskip("pandas")
    pd.testing.assert_frame_equal(remote.per_fold, local.per_fold)


# One rule for NumPy and Dask labels: each array below is counted by both or refused
# by both with one message (the NumPy path's, on the same values).
_LABEL_CASES = {
    "integer floats": ([0.0, 1.0, 2.0, 1.0, 0.0, 2.0], [0.0, 2.0, 2.0, 1.0, 1.0, 2.0]),
    "non-integer floats": ([-3.5, 2.25, 2.25, -3.5, 1.0, 1.0],
                           [-3.5, 2.25, 1.0, -3.5, 1.0, 2.25]),
    "non-integer prediction": ([0.0, 1.0, 2.0, 1.0, 0.0, 2.0],
                               [0.0, 1.5, 2.0, 1.0, 0.0, 2.0]),
    "strings": (list("abcabc"), list("abbacc")),
    "bools": ([True, False, True, True, False, False], [True, True, False, True, False, False]),
    "mixed": (np.array(["a", 1, "b", 1, "a", 2], dtype=object),
              np.array(["a", 1, "a", 2, "a", 2], dtype=object)),
    "NaN": ([0.0, np.nan, 1.0, 1.0, np.nan, 0.0], [0.0, 1.0, 1.0, 0.0, 1.0, 0.0]),
    "inf prediction": ([0.0, 1.0, 1.0, 1.0, 0.0, 0.0], [0.0, 1.0, np.inf, 0.0, 1.0, 0.0]),
    "None": (np.array(["a", None, "b", "a", "b", "a"], dtype=object),
             np.array(list("ababab"), dtype=object)),
}


def _label_entry_points():
    from skprobeval import compare_paired, compare_predictions, fbeta_posterior

    def first_labels(y):
        return ["a", "b"] if y.dtype.kind == "O" else np.unique(y)[:2]

    return {
        "counts": lambda y, p: ConfusionCounts.from_predictions(y, p, average=None).to_array(),
        "micro": lambda y, p: ConfusionCounts.from_predictions(y, p, average="micro").to_array(),
        "labels": lambda y, p: ConfusionCounts.from_predictions(
            y, p, average=None, labels=first_labels(np.asarray(y))).to_array(),
        "binary": lambda y, p: ConfusionCounts.from_predictions(
            y, p, pos_label=np.asarray(y)[0]).to_array(),
        "paired": lambda y, p: PairedCounts.from_predictions(y, p, y),
        "paired second": lambda y, p: PairedCounts.from_predictions(y, y, p),
        "compare_paired": lambda y, p: compare_paired(y, p, y).prob_second_better,
        "posterior": lambda y, p: fbeta_posterior(y, p, average=None).mean(),
        "macro posterior": lambda y, p: fbeta_posterior(y, p, average="macro", n_draws=50,
                                                        random_state=0).mean(),
        "compare_predictions": lambda y, p: compare_predictions(
            y, {"a": p, "b": y}, n_draws=50, random_state=0).pairwise.to_numpy(),
    }


def _outcome(call, y_true, y_pred):
    try:
        return "counted", repr(call(y_true, y_pred))
    except (TypeError, ValueError) as error:
        return type(error).__name__, str(error)


# The reproduction (non-integer floats) stays in the default run; every other kind runs
# with the slow tier (0.4-0.9 s each through ten entry points).
@pytest.mark.parametrize("case", [
    case if case == "non-integer floats"
    else pytest.param(case, marks=pytest.mark.slow) for case in _LABEL_CASES])
def test_dask_labels_follow_the_numpy_rule(client, case):
    # Non-integer float labels were counted from Dask arrays and refused from NumPy ones
    # (and NaN, None and mixed labels got other messages, or none).
    y_true, y_pred = (np.asarray(y) for y in _LABEL_CASES[case])
    for name, call in _label_entry_points().items():
        expected = _outcome(call, y_true, y_pred)
        got = _outcome(call, da.from_array(y_true, chunks=4), da.from_array(y_pred, chunks=4))
        assert got == expected, name
    if case.startswith("non-integer"):
        with pytest.raises(ValueError, match="discrete class labels"):
            ConfusionCounts.from_predictions(da.from_array(y_true, chunks=4),
                                             da.from_array(y_pred, chunks=4), average=None)


@pytest.mark.parametrize("kind", ["NaN", "None", "NA"])
def test_missing_labels_in_several_blocks_name_the_count_as_numpy(client, kind):
    # A missing label is refused with the count over all blocks, in the NumPy path's
    # words, whichever way it is spelled (one block's first refusal read otherwise).
    from skprobeval import compare_paired, fbeta_posterior

    missing = {"NaN": np.nan, "None": None, "NA": pytest.importorskip("pandas").NA}[kind]
    y_true = np.array([0, 1, missing, 1, 0, missing, 1, 0, missing],
                      dtype=float if kind == "NaN" else object)
    y_pred = np.array([0, 1, 1, 1, 0, 0, 1, 0, 1])
    for call in (lambda y, p: ConfusionCounts.from_predictions(y, p, average=None),
                 lambda y, p: compare_paired(y, p, p[::-1]),
                 lambda y, p: fbeta_posterior(y, p)):
        with pytest.raises(ValueError) as numpy_error:
            call(y_true, y_pred)
        with pytest.raises(ValueError) as dask_error:
            call(da.from_array(y_true, chunks=2), da.from_array(y_pred, chunks=2))
        assert str(dask_error.value) == str(numpy_error.value)
        assert "got 3 missing value(s) of 9" in str(dask_error.value)
