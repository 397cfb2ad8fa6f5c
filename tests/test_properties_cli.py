"""The command line under generated malformed CSV and Parquet files: one line on
stderr, exit status 2, never a traceback."""

import contextlib
import io
import os
import tempfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skprobeval.cli import main

CELL = st.one_of(st.sampled_from(["cat", "dog", "", "nan", "NA", "1", "0", "1.5", "-3", "inf",
                                  "é", '"', "a,b", "True"]),
                 st.text(max_size=5), st.integers(-5, 5).map(str))


@st.composite
def malformed_csv(draw):
    """Bytes of a CSV file that is wrong in one or more ways."""
    kind = draw(st.sampled_from(["rows", "bytes", "empty", "header only", "ragged"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "empty":
        return b""
    columns = draw(st.lists(st.sampled_from(["gold", "A", "B", "w", "", "gold "]),
                            min_size=1, max_size=4))
    header = ",".join(columns)
    if kind == "header only":
        return (header + "\n").encode()
    n = draw(st.integers(1, 8))
    lines = []
    for _ in range(n):
        width = len(columns) + (draw(st.integers(-1, 1)) if kind == "ragged" else 0)
        lines.append(",".join(draw(st.lists(CELL, min_size=max(width, 0),
                                            max_size=max(width, 0)))))
    return (header + "\n" + "\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


OPTIONS = st.lists(st.sampled_from([
    ["--metric", "f1"], ["--metric", "mcc"], ["--average", "macro"], ["--average", "binary"],
    ["--labels", "cat,dog"], ["--pos-label", "cat"], ["--pos-label", "1"], ["--rope", "0.01"],
    ["--rope", "1.5"], ["--confidence", "0.9"], ["--systems", "A"], ["--prior", "0"],
    ["--format", "json"],
]), max_size=3)


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _check(code, err):
    if code == 0:
        return
    assert code == 2
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("skprobeval: error: "), err
    # Labels are shown as the user wrote them, not as NumPy reprs.
    assert "np.str_(" not in err and "np.int64(" not in err and "np.float64(" not in err


@given(malformed_csv(), OPTIONS)
def test_malformed_csv_gives_one_line_and_status_2(content, options):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "data.csv")
        with open(path, "wb") as handle:
            handle.write(content)
        argv = ["compare", path, "--truth", "gold", "--n-draws", "200"]
        code, _, err = _run(argv + [item for option in options for item in option])
    _check(code, err)


# Reads Parquet through Dask: on test_dask's worker (xdist_group), which has imported
# dask.dataframe and distributed already.
@pytest.mark.xdist_group("dask")
@given(st.sampled_from(["truncated", "bytes", "columns", "types", "nulls", "empty"]),
       st.binary(min_size=0, max_size=64), OPTIONS)
def test_malformed_parquet_gives_one_line_and_status_2(kind, noise, options):
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame({"gold": ["cat", "dog", "cat", "dog"], "A": ["cat", "cat", "dog", "dog"],
                          "B": ["dog", "dog", "cat", "cat"]})
    if kind == "columns":
        frame = frame.rename(columns={"gold": "truth"})
    elif kind == "types":
        frame["A"] = [1.5, 2.5, np.nan, 3.0]
    elif kind == "nulls":
        frame.loc[1, "gold"] = None
    elif kind == "empty":
        frame = frame.iloc[:0]
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "data.parquet")
        frame.to_parquet(path)
        if kind in ("truncated", "bytes"):
            with open(path, "rb") as handle:
                content = handle.read()
            content = content[: len(content) // 2] if kind == "truncated" else noise
            with open(path, "wb") as handle:
                handle.write(content)
        argv = ["compare", path, "--truth", "gold", "--n-draws", "200"]
        code, _, err = _run(argv + [item for option in options for item in option])
    _check(code, err)
