"""The command line, end to end through a subprocess."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from optional import missing


def run_process(*args):
    """The real entry point, ``python -m skprobeval``, in a subprocess."""
    return subprocess.run([sys.executable, "-m", "skprobeval", *args], capture_output=True,
                          text=True, timeout=600)


def run(*args):
    """`skprobeval.cli.main` in this process (as fast as a function call), captured like
    a subprocess: an exception escaping `main` fails the test, as a traceback would."""
    import contextlib
    import io

    from skprobeval.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


DEMO_PARTS = ("Summary", "logistic_regression", "random_forest", "gaussian_nb",
              "paired Dirichlet", "t-test", "Calibration of the out-of-fold probabilities",
              "ece_if_calibrated", "A threshold for", "P(precision >= 0.98)")


@pytest.fixture
def small_forest(monkeypatch):
    """The demo's random forest at 10 trees instead of 100 (about half of the in-process
    demo's time): which parts the report prints does not depend on the number of trees,
    and the slow tier runs the demo as a user does."""
    from skprobeval import cli

    estimators = cli._estimators

    def with_small_forest(random_state):
        models = estimators(random_state)
        models["random_forest"].set_params(n_estimators=10)
        return models

    monkeypatch.setattr(cli, "_estimators", with_small_forest)


def test_demo_prints_the_report(small_forest):
    # In this process, on two folds: every part of the report (the full demo, through
    # the real entry point and with its plots, is in the slow tier below).
    result = run("demo", "--cv", "2")
    assert result.returncode == 0, result.stderr
    assert "2-fold stratified cross-validation" in result.stdout
    for part in DEMO_PARTS:
        assert part in result.stdout


@pytest.mark.slow
def test_demo_prints_the_report_and_writes_plots(tmp_path):
    # About 6 s: the README's demo as a user runs it.
    result = run_process("demo", "--output-dir", str(tmp_path / "plots"))
    assert result.returncode == 0, result.stderr
    for part in DEMO_PARTS:
        assert part in result.stdout
    if missing("matplotlib"):
        assert "matplotlib is not installed: no plots written" in result.stdout
        return
    for name in ("posteriors.png", "pairwise.png", "random_ap_baseline.png"):
        assert (tmp_path / "plots" / name).stat().st_size > 1000
    page = (tmp_path / "plots" / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 4


def test_demo_multiclass_dataset_compares_every_class(small_forest):
    result = run("demo", "--dataset", "iris", "--cv", "3")
    assert result.returncode == 0, result.stderr
    assert "3 classes" in result.stdout and "metric: f1 (macro)" in result.stdout
    assert "Per label (one-vs-rest)" in result.stdout


@pytest.fixture
def predictions_csv(tmp_path):
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, size=200)
    frame = pd.DataFrame({
        "label": truth,
        "good": np.where(rng.random(200) < 0.9, truth, 1 - truth),
        "poor": np.where(rng.random(200) < 0.6, truth, 1 - truth),
    })
    path = tmp_path / "predictions.csv"
    frame.to_csv(path, index=False)
    return path


def test_compare_text(predictions_csv):
    result = run("compare", str(predictions_csv), "--truth", "label")
    assert result.returncode == 0, result.stderr
    assert "Summary" in result.stdout and "good" in result.stdout
    assert "metric: f1;" in result.stdout


def test_compare_json_probabilities(predictions_csv):
    result = run("compare", str(predictions_csv), "--truth", "label", "--format", "json",
                 "--metric", "precision", "--prior", "uniform")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["metric"] == "precision"
    assert set(payload["summary"]) == {"good", "poor"}
    forward = payload["pairwise"]["good"]["poor"]
    backward = payload["pairwise"]["poor"]["good"]
    assert forward + backward == pytest.approx(1.0)
    assert forward > 0.99


def test_compare_boolean_truth(tmp_path):
    path = tmp_path / "boolean.csv"
    path.write_text("truth,a,b\nTrue,True,False\nFalse,False,False\nTrue,True,True\n")
    positive = run("compare", str(path), "--truth", "truth", "--pos-label", "true",
                   "--format", "json")
    negative = run("compare", str(path), "--truth", "truth", "--pos-label", "false",
                   "--format", "json")
    assert positive.returncode == negative.returncode == 0
    assert json.loads(positive.stdout)["summary"]["a"]["tp"] == 2
    assert json.loads(negative.stdout)["summary"]["a"]["tp"] == 1


@pytest.mark.parametrize("fmt, marker", [("markdown", "|---"), ("csv", "estimator,tp,fp"),
                                         ("html", "<table")])
def test_compare_other_formats(predictions_csv, fmt, marker):
    result = run("compare", str(predictions_csv), "--truth", "label", "--systems", "good",
                 "poor", "--format", fmt)
    assert result.returncode == 0, result.stderr
    assert marker in result.stdout


@pytest.mark.parametrize("name, marker", [("report.csv", "estimator,tp,fp"),
                                          ("report.json", '"pairwise"'),
                                          ("report.html", "<table"), ("report.md", "|---"),
                                          ("report.txt", "Summary"), ("report", "Summary")])
def test_compare_output_suffix_names_the_format(predictions_csv, tmp_path, name, marker):
    # Without --format, the --output file's suffix chooses it; an unknown suffix is text.
    path = tmp_path / name
    result = run("compare", str(predictions_csv), "--truth", "label", "--output", str(path))
    assert result.returncode == 0, result.stderr
    assert marker in path.read_text()


def test_format_given_wins_over_the_output_suffix(predictions_csv, tmp_path):
    path = tmp_path / "report.csv"
    result = run("compare", str(predictions_csv), "--truth", "label", "--format", "json",
                 "--output", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(path.read_text())["metric"] == "f1"


def test_a_suffix_the_command_does_not_offer_is_text(tmp_path):
    # `plan` writes text, JSON or HTML: a .csv file gets the text.
    path = tmp_path / "plan.csv"
    result = run("plan", "--metric", "accuracy", "--width", "0.2", "--pilot", "40,10,10,40",
                 "--n-sims", "20", "--output", str(path))
    assert result.returncode == 0, result.stderr
    assert not path.read_text().lstrip().startswith(("{", "<"))


@pytest.mark.parametrize("runner", [run, pytest.param(run_process, marks=pytest.mark.slow)],
                         ids=["in-process", "subprocess"])   # the subprocess: 1.6 s
def test_random_ap(runner):
    result = runner("random-ap", "10", "4")
    assert result.returncode == 0, result.stderr
    # Bestgen (2015): RandomAPExact(10, 4) = 0.5285979.
    assert "0.5285979" in result.stdout


@pytest.mark.parametrize("args", [
    ("demo", "--dataset", "nope"),
    ("no-such-command",),
    ("demo", "--cv", "1"),
    ("compare", "missing.csv", "--truth", "label"),
    ("compare", "PREDICTIONS", "--truth", "nope"),
    ("compare", "PREDICTIONS", "--truth", "label", "--systems", "ghost"),
    ("compare", "PREDICTIONS", "--truth", "label", "--metric", "f7"),
    ("compare", "PREDICTIONS", "--truth", "label", "--prior", "-1"),
    ("compare", "PREDICTIONS", "--truth", "label", "--prior", "lots"),
    ("compare", "PREDICTIONS", "--truth", "label", "--pos-label", "yes"),
    ("compare", "PREDICTIONS", "--truth", "label", "--format", "xml"),
    ("compare", "BINARY", "--truth", "label"),
    ("compare", "PREDICTIONS", "--truth", "label", "--systems", "good", "good"),
    ("compare", "PREDICTIONS", "--truth", "label", "--systems", "label", "good"),
    ("compare", "BOOLEAN", "--truth", "truth", "--pos-label", "yes"),
    ("random-ap", "10", "11"),
    ("random-ap", "10", "x"),
    ("random-ap", "0", "0"),
])
def test_bad_input_exits_2_with_one_line(args, predictions_csv, tmp_path):
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\x00\x01\x02\xff\xfe")
    boolean = tmp_path / "boolean.csv"
    boolean.write_text("truth,a,b\nTrue,True,False\nFalse,False,False\nTrue,True,True\n")
    files = {"PREDICTIONS": str(predictions_csv), "BINARY": str(binary),
             "BOOLEAN": str(boolean)}
    args = [files.get(a, a) for a in args]
    result = run(*args)
    assert result.returncode == 2, result.stdout
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("skprobeval: error:")


@pytest.fixture
def three_class_csv(tmp_path):
    rng = np.random.default_rng(1)
    names = np.array(["bird", "cat", "dog"])
    truth = names[rng.integers(0, 3, size=240)]
    other = names[rng.integers(0, 3, size=240)]
    frame = pd.DataFrame({
        "gold": truth,
        "sharp": np.where(rng.random(240) < 0.85, truth, other),
        "blunt": np.where(rng.random(240) < 0.6, truth, other),
    })
    path = tmp_path / "animals.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "csv", "json"])
def test_compare_three_string_classes_macro_in_every_format(three_class_csv, fmt):
    result = run("compare", str(three_class_csv), "--truth", "gold", "--average", "macro",
                 "--format", fmt, "--n-draws", "4000")
    assert result.returncode == 0, result.stderr
    assert "sharp" in result.stdout and "np.str_" not in result.stdout
    if fmt == "json":
        payload = json.loads(result.stdout)
        assert payload["average"] == "macro"
        forward = payload["pairwise_metric"]["sharp"]["blunt"]
        assert forward + payload["pairwise_metric"]["blunt"]["sharp"] == pytest.approx(1.0)
        assert forward > 0.99
    if fmt == "markdown":
        assert "| estimator | tp |" in result.stdout
        first_row = result.stdout.split("\n")[4].split("|")
        assert not any("." in cell for cell in first_row[2:6]), first_row   # whole counts


def test_compare_labels_and_per_label_csv(three_class_csv):
    result = run("compare", str(three_class_csv), "--truth", "gold", "--average", "none",
                 "--labels", "dog,cat", "--format", "csv", "--table", "pairs",
                 "--n-draws", "2000")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("label,first,second,prob_first_right_more_often")
    assert [line.split(",")[0] for line in lines[1:]] == ["dog", "cat"]


@pytest.mark.parametrize("metric, average", [("accuracy", "micro"), ("error", "micro"),
                                             ("f1", "macro"), ("precision", "macro")])
def test_compare_multiclass_default_average_follows_the_metric(three_class_csv, metric, average):
    # Accuracy of multiclass data is the share of items right (scikit-learn's
    # accuracy_score): the default average is micro for it, macro for the rest.
    result = run("compare", str(three_class_csv), "--truth", "gold", "--metric", metric,
                 "--format", "json", "--n-draws", "1000")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["average"] == average


@pytest.mark.parametrize("args, words", [
    (("--average", "binary"), "--average must be 'micro', 'macro', 'weighted' or 'none'"),
    (("--average", "powers"), "--average must be"),
    (("--labels", "cat,emu"), "--labels 'emu'"),
    (("--average", "micro", "--metric", "accuracy", "--labels", "cat"), "--labels must"),
])
def test_compare_multiclass_bad_input_one_line(three_class_csv, args, words):
    result = run("compare", str(three_class_csv), "--truth", "gold", *args)
    assert result.returncode == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr and "np.str_" not in result.stderr


# The tests below that read Parquet through Dask carry test_dask's xdist_group: they run
# in the process that has imported dask.dataframe and distributed for that module already
# (about 1 s in a process that has not).
DASK_WORKER = pytest.mark.xdist_group("dask")


@pytest.fixture
def parquet_logs(tmp_path):
    """The same predictions as one CSV, one Parquet file and three Parquet files."""
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(2)
    names = np.array(["bird", "cat", "dog", "emu"])
    truth = names[rng.integers(0, 4, size=900)]
    frame = pd.DataFrame({"gold": truth})
    for system, accuracy in (("sharp", 0.85), ("fair", 0.7), ("blunt", 0.5)):
        frame[system] = np.where(rng.random(900) < accuracy, truth,
                                 names[rng.integers(0, 4, size=900)])
    frame.to_csv(tmp_path / "all.csv", index=False)
    frame.to_parquet(tmp_path / "all.parquet", index=False)
    (tmp_path / "logs").mkdir()
    for i in range(3):
        frame.iloc[i * 300:(i + 1) * 300].to_parquet(tmp_path / "logs" / f"day-{i}.parquet",
                                                     index=False)
    return tmp_path


# The JSON output of the same reports (each about 0.7 s) in the slow tier.
@DASK_WORKER
@pytest.mark.parametrize("fmt", ["text", pytest.param("json", marks=pytest.mark.slow)])
def test_compare_parquet_file_glob_and_directory_equal_csv(parquet_logs, fmt):
    common = ("--truth", "gold", "--n-draws", "2000", "--format", fmt)
    expected = run("compare", parquet_logs / "all.csv", *common)
    assert expected.returncode == 0, expected.stderr
    sources = [(parquet_logs / "all.parquet",), (str(parquet_logs / "logs" / "*.parquet"),),
               (parquet_logs / "logs",),
               tuple(sorted((parquet_logs / "logs").glob("*.parquet")))]
    for source in sources:
        result = run("compare", *source, *common)
        assert result.returncode == 0, result.stderr
        assert result.stdout == expected.stdout, source


def test_compare_parquet_without_dask_reads_with_pandas(parquet_logs, monkeypatch):
    common = ("--truth", "gold", "--n-draws", "2000", "--average", "micro")
    expected = run("compare", parquet_logs / "all.csv", *common).stdout
    monkeypatch.setitem(sys.modules, "dask.dataframe", None)
    result = run("compare", str(parquet_logs / "logs" / "*.parquet"), *common)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


@DASK_WORKER
@pytest.mark.parametrize("source, words", [
    (("logs/*.csv",), "no file matches"),
    (("all.csv", "all.parquet"), "all CSV or all Parquet"),
    (("all.csv", "nope.csv"), "no such file"),
    (("broken.parquet",), "as Parquet"),
])
def test_compare_bad_files_one_line(parquet_logs, source, words):
    (parquet_logs / "broken.parquet").write_text("not parquet")
    result = run("compare", *[str(parquet_logs / s) for s in source], "--truth", "gold")
    assert result.returncode == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr


def test_compare_checks_options_before_reading(parquet_logs):
    # A bad option is reported even when the data could not be read at all.
    (parquet_logs / "broken.parquet").write_text("not parquet")
    for option, words in ((("--metric", "nope"), "nope"), (("--confidence", "2"), "confidence"),
                          (("--rope", "-1"), "rope"), (("--n-draws", "0"), "--n-draws")):
        result = run("compare", parquet_logs / "broken.parquet", "--truth", "gold", *option)
        assert result.returncode == 2 and words in result.stderr, result.stderr
        assert "Parquet" not in result.stderr


@DASK_WORKER
@pytest.mark.parametrize("dask", ["installed", "absent"])
def test_compare_parquet_files_that_disagree(parquet_logs, dask, monkeypatch):
    # The same one-line messages whichever extras are installed: without Dask the
    # files are read by pandas, which would fill a missing column with NaN.
    if dask == "absent":
        monkeypatch.setitem(sys.modules, "dask", None)
        monkeypatch.setitem(sys.modules, "dask.dataframe", None)
    else:
        pytest.importorskip("dask.dataframe")
    frame = pd.read_parquet(parquet_logs / "all.parquet")
    odd = parquet_logs / "odd"
    odd.mkdir()
    frame.iloc[:450].to_parquet(odd / "a.parquet", index=False)
    frame.iloc[450:].drop(columns="blunt").to_parquet(odd / "b.parquet", index=False)
    mixed = parquet_logs / "mixed"
    mixed.mkdir()
    codes = {"bird": 0, "cat": 1, "dog": 2, "emu": 3}
    frame.iloc[:450].replace(codes).astype(int).to_parquet(mixed / "a.parquet", index=False)
    frame.iloc[450:].replace({k: str(v) for k, v in codes.items()}).to_parquet(
        mixed / "b.parquet", index=False)
    (parquet_logs / "empty").mkdir()
    expected = ("the files do not all have the same columns: ['blunt'] not in every file "
                f"({str(odd / 'b.parquet')!r} has ['gold', 'sharp', 'fair'])")
    mix = ("Mix of label input types (string and number) across the files: column 'gold' "
           f"is int64 in {str(mixed / 'a.parquet')!r} and ")
    for directory, words in ((odd, expected), (mixed, mix),
                             (parquet_logs / "empty", "without Parquet files")):
        result = run("compare", directory, "--truth", "gold")
        assert result.returncode == 2, (directory, result.stdout)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert words in result.stderr, result.stderr


@pytest.mark.parametrize("header", ["truth,truth,a", "truth,a,a", "truth,a,b,a"])
def test_a_header_that_repeats_a_name_is_refused(tmp_path, header):
    # pandas renames a repeated column ('a.1') and the renamed copy was compared.
    path = tmp_path / "repeated.csv"
    path.write_text(header + "\n" + "\n".join([",".join(["1"] * len(header.split(",")))] * 3))
    result = run("compare", str(path), "--truth", "truth")
    assert result.returncode == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "repeats the column name" in result.stderr
    assert ".1" not in result.stderr


@pytest.mark.parametrize("content, words", [
    (b"PK\x03\x04" + b"\x00" * 300, "a zip archive"),
    (b"PAR1" + b"\x00" * 300 + b"PAR1", "a Parquet file"),
    (b"truth,a\n1,\x00\x00\x001\n", "binary data"),
])
def test_a_binary_file_named_csv_is_named_so(tmp_path, content, words):
    path = tmp_path / "renamed.csv"
    path.write_bytes(content)
    result = run("compare", str(path), "--truth", "truth")
    assert result.returncode == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert f"is not a text CSV file (it holds {words})" in result.stderr
    assert "\\x00" not in result.stderr and "PK" not in result.stderr


def test_a_true_false_and_number_truth_names_its_values(tmp_path):
    # pandas reads a column of True/False/1/0 as text; the message shows that.
    path = tmp_path / "truth.csv"
    path.write_text("truth,a\nTrue,1\nFalse,0\n1,1\n0,0\n")
    result = run("compare", str(path), "--truth", "truth")
    assert result.returncode == 2, result.stdout
    assert "strings ('0', '1', 'False', 'True')" in result.stderr
    assert "numbers (0, 1)" in result.stderr


@pytest.mark.parametrize("option, value", [("--n-draws", "1000000000"), ("--n-draws", "1"),
                                           ("--prior", "-1"), ("--rope", "1.5"),
                                           ("--confidence", "2"), ("--beta", "-2")])
def test_a_bad_option_is_named_as_typed(predictions_csv, option, value):
    # The library says "`n_draws` must ..."; on the command line that is --n-draws.
    result = run("compare", str(predictions_csv), "--truth", "label", option, value)
    assert result.returncode == 2, result.stdout
    assert result.stderr.startswith(f"skprobeval: error: {option} must be"), result.stderr


def test_blank_header_cells_are_not_a_repeated_name(tmp_path):
    # Two blank names are pandas' "Unnamed: 0" and "Unnamed: 1", not a repetition.
    path = tmp_path / "blank.csv"
    path.write_text(",,a\n1,1,0\n0,0,0\n1,0,1\n")
    result = run("compare", str(path), "--truth", "a")
    assert result.returncode == 0, result.stderr


def test_a_bad_pos_label_is_named_as_typed(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("y,a\n0,1\n1,1\n0,0\n")
    result = run("compare", str(path), "--truth", "y", "--pos-label", "7")
    assert result.returncode == 2
    assert result.stderr.startswith("skprobeval: error: --pos-label must be"), result.stderr


@pytest.fixture
def grouped_csv(tmp_path):
    rng = np.random.default_rng(3)
    n = 400
    region = rng.choice(["north", "south"], n)
    truth = rng.integers(0, 2, n)
    frame = pd.DataFrame({
        "label": truth,
        # "uneven" misses more positives in the south.
        "uneven": np.where(rng.random(n) < np.where(region == "south", 0.7, 0.95), truth,
                           1 - truth),
        "even": np.where(rng.random(n) < 0.85, truth, 1 - truth),
        "region": region,
    })
    path = tmp_path / "grouped.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_compare_group_column_reports_each_group_and_the_gap(grouped_csv):
    # The group column is not a system; each system's recall per region equals the
    # report built in Python, and the gap's probability is the signed difference's.
    path, frame = grouped_csv
    result = run("compare", str(path), "--truth", "label", "--group", "region",
                 "--metric", "recall", "--format", "json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert set(payload["summary"]) == {"uneven", "even"}
    from skprobeval import compare_predictions

    report = compare_predictions("label", ["uneven", "even"], data=frame, metric="recall",
                                 sensitive_features="region")
    rows = {(r["estimator"], r["region"]): r for r in payload["by_group"]}
    for (name, region), row in report.by_group.iterrows():
        # (JSON keeps ten significant digits.)
        assert rows[name, region]["mean"] == pytest.approx(row["mean"], rel=1e-9)
    gaps = report.group_gaps
    assert gaps.loc["uneven", ["higher", "lower"]].tolist() == ["north", "south"]
    assert gaps.loc["uneven", "prob_gap_above_rope"] > 0.99
    assert payload["group_gaps"]["even"]["prob_gap_above_rope"] == pytest.approx(
        gaps.loc["even", "prob_gap_above_rope"], rel=1e-9)
    text = run("compare", str(path), "--truth", "label", "--group", "region")
    assert "By group: f1 of each group" in text.stdout and "Gap between groups" in text.stdout
    csv = run("compare", str(path), "--truth", "label", "--group", "region", "--format", "csv",
              "--table", "group_gaps")
    assert csv.stdout.splitlines()[0].startswith("estimator,n_groups,point,mean,low,high")


@pytest.mark.parametrize("args, words", [
    (("--group", "area"), "group column(s) ['area'] not in"),
    (("--group", "region", "--average", "micro"), "--group needs binary targets"),
    (("--table", "by_group", "--format", "csv"), "--table by_group goes with --group"),
])
def test_compare_group_bad_input_one_line(grouped_csv, args, words):
    result = run("compare", str(grouped_csv[0]), "--truth", "label", *args)
    assert result.returncode == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr


def test_csv_files_that_disagree_name_the_columns(tmp_path):
    # The CSV reader's message is the Parquet one: the columns not in every file.
    (tmp_path / "a.csv").write_text("gold,x,y\n1,1,0\n0,0,0\n")
    (tmp_path / "b.csv").write_text("gold,y\n1,1\n0,0\n")
    result = run("compare", tmp_path / "a.csv", tmp_path / "b.csv", "--truth", "gold")
    assert result.returncode == 2, result.stdout
    assert result.stderr.strip().endswith(
        f"the files do not all have the same columns: ['x'] not in every file "
        f"({str(tmp_path / 'b.csv')!r} has ['gold', 'y'])"), result.stderr


# ---------------------------------------------------------------------------
# counts: a leaderboard's file
# ---------------------------------------------------------------------------


@pytest.fixture
def board_csv(tmp_path):
    path = tmp_path / "board.csv"
    pd.DataFrame({"team": ["a", "b", "c", "c"], "tp": [90, 80, 85, 83],
                  "fp": [10, 15, 12, 13], "fn": [12, 20, 15, 16],
                  "tn": [88, 85, 88, 88]}).to_csv(path, index=False)
    return path


def test_counts_ranks_a_leaderboard_file_like_compare_counts(board_csv):
    from skprobeval import compare_counts

    result = run("counts", board_csv, "--metric", "f1", "--format", "json", "--n-draws", "2000")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    frame = pd.read_csv(board_csv).rename(columns={"team": "system"})
    expected = compare_counts(frame, metric="f1", n_draws=2000, random_state=0)
    assert payload["independent"] is True
    assert payload["summary"]["a"]["mean"] == pytest.approx(expected.summary.loc["a", "mean"])
    assert payload["summary"]["c"]["n_runs"] == 2     # two rows of c: two runs
    text = run("counts", board_csv, "--n-draws", "500").stdout
    assert "independent systems (unpaired comparisons" in text and "Ranking" in text
    runs = run("counts", board_csv, "--format", "csv", "--table", "runs", "--n-draws", "500")
    assert runs.stdout.splitlines()[0].startswith("estimator,run,tp")


def test_counts_pooling_option_is_compare_counts_pooling(board_csv):
    from skprobeval import compare_counts

    frame = pd.read_csv(board_csv).rename(columns={"team": "system"})
    frame["system"] = frame["system"].astype(str)
    for pooling in ("partial", "none"):
        args = [] if pooling == "partial" else ["--pooling", pooling]
        result = run("counts", board_csv, "--format", "json", "--n-draws", "500", *args)
        assert result.returncode == 0, result.stderr
        payload = json.loads(result.stdout)
        expected = compare_counts(frame, pooling=pooling, n_draws=500, random_state=0)
        assert payload["note"] == expected.note
        assert payload["note"].startswith(f"Pooling: {pooling}")
        # The pairs: from the pooled draws by default, exact with --pooling none.
        assert payload["pairwise_metric"]["a"]["b"] == pytest.approx(
            expected.pairwise_metric.loc["a", "b"])


@pytest.mark.parametrize("args, message", [
    (["--system", "nope"], "--system 'nope' is not a column"),
    (["--metric", "nope"], "--metric must be one of"),
    (["--table", "runs"], "--table goes with --format csv"),
    (["--pooling", "full"], "--pooling: invalid choice: 'full'"),
])
def test_counts_bad_options_are_one_line(board_csv, args, message):
    result = run("counts", board_csv, *args)
    assert result.returncode == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_counts_file_without_the_count_columns(tmp_path):
    path = tmp_path / "bad.csv"
    pd.DataFrame({"team": ["a"], "tp": [1]}).to_csv(path, index=False)
    result = run("counts", path)
    assert result.returncode == 2
    assert "needs the count columns tp, fp, fn and tn; missing ['fp', 'fn', 'tn']" in \
        result.stderr
    assert "no such file" in run("counts", tmp_path / "absent.csv").stderr


def test_counts_system_option_beside_a_system_column(tmp_path):
    path = tmp_path / "both.csv"
    pd.DataFrame({"system": ["x", "y"], "team": ["a", "b"], "tp": [90, 80], "fp": [10, 15],
                  "fn": [12, 20], "tn": [88, 85]}).to_csv(path, index=False)
    result = run("counts", path, "--system", "team", "--format", "json", "--n-draws", "500")
    assert result.returncode == 0, result.stderr
    assert set(json.loads(result.stdout)["summary"]) == {"a", "b"}


@pytest.fixture
def close_systems_csv(tmp_path):
    """Two systems too close for 300 items to decide."""
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 2, size=300)
    frame = pd.DataFrame({"label": truth,
                          "a": np.where(rng.random(300) < 0.85, truth, 1 - truth),
                          "b": np.where(rng.random(300) < 0.83, truth, 1 - truth)})
    path = tmp_path / "close.csv"
    frame.to_csv(path, index=False)
    return path


def test_compare_opens_with_the_verdict_and_plans_on_request(close_systems_csv):
    quiet = run("compare", close_systems_csv, "--truth", "label", "--n-draws", "2000")
    assert quiet.returncode == 0, quiet.stderr
    body = quiet.stdout.split("\n\n")
    assert body[1].startswith("Verdict: ") and body[2].startswith("Summary")
    assert "--plan on the command line" in body[1].replace("\n", " ")
    planned = run("compare", close_systems_csv, "--truth", "label", "--n-draws", "2000",
                  "--plan", "--format", "json")
    assert planned.returncode == 0, planned.stderr
    verdict = json.loads(planned.stdout)["verdict"]
    assert verdict["leader_decided"] is False and verdict["assurance"] == 0.8
    assert verdict["more_items"] is None or verdict["more_items"] > 0
    assert "more test items would" in verdict["text"]


def test_counts_opens_with_the_verdict(tmp_path):
    path = tmp_path / "board.csv"
    pd.DataFrame({"system": ["a", "b"], "tp": [80, 50], "fp": [5, 30], "fn": [5, 30],
                  "tn": [110, 90]}).to_csv(path, index=False)
    result = run("counts", path, "--n-draws", "2000")
    assert result.returncode == 0, result.stderr
    verdict = result.stdout.split("\n\n")[1].replace("\n", " ")
    assert verdict.startswith("Verdict: a leads on accuracy") and "a > b" in verdict
    markdown = run("counts", path, "--n-draws", "2000", "--format", "markdown")
    assert markdown.stdout.startswith("### Verdict")
