"""Columns named in a DataFrame (``data=``) give what the arrays themselves give.

Reference: the same functions called on the NumPy arrays of the columns.
"""

import numpy as np
import pandas as pd
import pytest

from skprobeval import ConfusionCounts, PairedCounts, compare_predictions


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(7)
    n = 400
    gold = rng.choice(["cat", "dog", "emu"], n)
    columns = {"gold": gold}
    for name, accuracy in zip("ABC", (0.8, 0.7, 0.5)):
        columns[name] = np.where(rng.random(n) < accuracy, gold,
                                 rng.choice(["cat", "dog", "emu"], n))
    columns["w"] = rng.uniform(0, 2, n)
    for label in ("cat", "dog", "emu"):
        columns[f"score_{label}"] = rng.random(n)
    return pd.DataFrame(columns)


def _polars(frame):
    polars = pytest.importorskip("polars")
    return polars.from_pandas(frame)


def _arrow(frame):
    pyarrow = pytest.importorskip("pyarrow")
    return pyarrow.Table.from_pandas(frame)


def _dict(frame):
    return {name: frame[name].to_numpy() for name in frame.columns}


KINDS = {"pandas": lambda frame: frame, "polars": _polars, "arrow": _arrow, "dict": _dict}


@pytest.mark.parametrize("kind", KINDS)
def test_counts_from_columns_equal_counts_from_arrays(frame, kind):
    data = KINDS[kind](frame)
    expected = ConfusionCounts.from_predictions(frame["gold"].to_numpy(), frame["A"].to_numpy(),
                                                average=None, sample_weight=frame["w"].to_numpy())
    got = ConfusionCounts.from_predictions("gold", "A", average=None, sample_weight="w",
                                           data=data)
    np.testing.assert_array_equal(got.labels, expected.labels)
    np.testing.assert_array_equal(got.to_array(), expected.to_array())
    paired = PairedCounts.from_predictions("gold", "A", "B", data=data)
    reference = PairedCounts.from_predictions(frame["gold"], frame["A"], frame["B"])
    assert (paired.first_better, paired.second_better, paired.ties) == (
        reference.first_better, reference.second_better, reference.ties)


@pytest.mark.parametrize("kind", KINDS)
def test_compare_predictions_on_columns_equals_arrays(frame, kind):
    data = KINDS[kind](frame)
    scores = ["score_cat", "score_dog", "score_emu"]
    got = compare_predictions("gold", ["A", "B", "C"], data=data, average="macro",
                              sample_weight="w", scores={"A": scores}, n_draws=2000)
    expected = compare_predictions(
        frame["gold"].to_numpy(), {name: frame[name].to_numpy() for name in "ABC"},
        average="macro", sample_weight=frame["w"].to_numpy(),
        scores={"A": frame[scores].to_numpy()}, n_draws=2000)
    for table in ("summary", "pairwise", "pairwise_metric", "pairs", "per_label"):
        pd.testing.assert_frame_equal(getattr(got, table), getattr(expected, table),
                                      check_exact=True)
    assert np.isfinite(got.summary.loc["A", "average_precision"])
    np.testing.assert_array_equal(got.predictions["B"][0], frame["B"].to_numpy())


def test_system_names_from_a_dict_and_vectors_mixed_with_names(frame):
    got = compare_predictions("gold", {"first": "A", "second": frame["B"].to_numpy()},
                              data=frame, n_draws=2000, average="micro")
    expected = compare_predictions(frame["gold"], {"first": frame["A"], "second": frame["B"]},
                                   n_draws=2000, average="micro")
    assert list(got.summary.index) == ["first", "second"]
    pd.testing.assert_frame_equal(got.summary, expected.summary, check_exact=True)


@pytest.mark.parametrize("call, name, error", [
    (lambda f: compare_predictions("gold", ["A", "nope"], data=f), r"predictions\['nope'\]",
     ValueError),
    (lambda f: compare_predictions("truth", ["A"], data=f), "y_true", ValueError),
    (lambda f: compare_predictions("gold", ["A"], data=f, sample_weight="weights"),
     "sample_weight", ValueError),
    (lambda f: compare_predictions("gold", ["A"], data=f, scores={"A": "nope"}),
     r"scores\['A'\]", ValueError),
    (lambda f: compare_predictions("gold", ["A", "B"]), "predictions", ValueError),
    (lambda f: compare_predictions("gold", ["A"], data=[[1, 2]]), "data", TypeError),
    (lambda f: ConfusionCounts.from_predictions("gold", "Z", data=f), "y_pred", ValueError),
])
def test_bad_columns_name_the_argument(frame, call, name, error):
    with pytest.raises(error, match=f"`{name}`"):
        call(frame)


def test_missing_labels_in_a_column_are_refused(frame):
    broken = frame.assign(B=frame["B"].astype("string"))
    broken.loc[5, "B"] = pd.NA
    with pytest.raises(ValueError, match="predictions of 'B'"):
        compare_predictions("gold", ["A", "B"], data=broken)
    nullable = pd.DataFrame({"gold": pd.array([1, 0, None], dtype="Int64"),
                             "A": pd.array([1, 0, 1], dtype="Int64")})
    with pytest.raises(ValueError, match="`y_true`"):
        ConfusionCounts.from_predictions("gold", "A", data=nullable)


def test_names_need_data_and_duplicate_columns_are_refused(frame):
    with pytest.raises(TypeError, match="`y_true` must be an array .*needs `data=`"):
        compare_predictions("gold", {"a": frame["A"].to_numpy()})
    with pytest.raises(TypeError, match="`y_pred` must be an array"):
        ConfusionCounts.from_predictions(frame["gold"], "A")
    with pytest.raises(ValueError, match="`predictions` must be distinct column names"):
        compare_predictions("gold", ["A", "A"], data=frame)


def test_a_lazy_polars_frame_asks_to_be_collected(frame):
    polars = pytest.importorskip("polars")
    lazy = polars.from_pandas(frame).lazy()
    with pytest.raises(TypeError, match=r"`data` must be .*\.collect\(\)"):
        compare_predictions("gold", ["A"], data=lazy)


# The Dask frame on test_dask's worker (xdist_group), which has imported dask.dataframe.
@pytest.mark.parametrize("kind", [
    *KINDS, pytest.param("dask", marks=pytest.mark.xdist_group("dask"))])
def test_across_datasets_keeps_the_system_names_of_any_frame(kind):
    # A Polars frame went through pandas.DataFrame(...) and came back with the
    # systems named 0, 1, ...
    from skprobeval import compare_across_datasets

    table = pd.DataFrame({"logreg": [0.8, 0.7, 0.9], "tree": [0.75, 0.72, 0.85]})
    if kind == "dask":
        data = pytest.importorskip("dask.dataframe").from_pandas(table, npartitions=1)
    else:
        data = KINDS[kind](table)
    expected = compare_across_datasets(table, random_state=0)
    got = compare_across_datasets(data, random_state=0)
    assert list(got.prob_better.columns) == ["logreg", "tree"]
    pd.testing.assert_frame_equal(got.prob_better, expected.prob_better)


def test_across_datasets_asks_a_lazy_frame_to_be_collected():
    polars = pytest.importorskip("polars")
    from skprobeval import compare_across_datasets

    lazy = polars.DataFrame({"a": [0.8, 0.7], "b": [0.7, 0.6]}).lazy()
    with pytest.raises(TypeError, match=r"`scores` must be .*\.collect\(\)"):
        compare_across_datasets(lazy)
