"""The comparison report as one self-contained HTML page, its notebook view and the
command line's ``--format html --output``."""

import os
import re

import numpy as np
import pytest
from optional import missing, needs

from skprobeval import ConfusionCounts, compare_counts, compare_predictions

# The module's page is built once, on one worker.
pytestmark = pytest.mark.xdist_group("report_html")

# A resource a page would fetch: a script, a style sheet, an image or font by address.
_FETCHES = re.compile(r"https?://|<script|<link|<img|<iframe|@import|url\((?!#)", re.IGNORECASE)


def _predictions(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    flip = lambda rate: np.where(rng.random(n) < rate, 1 - y, y)  # noqa: E731
    return y, {"a": flip(0.1), "b": flip(0.2), "c": flip(0.25)}


@pytest.fixture(scope="module")
def report():
    y, predictions = _predictions()
    return compare_predictions(y, predictions, metric="f1", n_draws=1000, random_state=0)


@pytest.fixture(scope="module")
def page(report):
    return report.to_html()


def test_the_page_is_one_self_contained_document(page):
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not _FETCHES.search(page)
    for heading in ("Summary", "paired Dirichlet", "Ranking (best first)", "Method"):
        assert heading in page
    assert "1000 posterior draws" in page and "Dirichlet concentration 0.5" in page
    from skprobeval import __version__

    assert f"skprobeval {__version__}" in page
    if missing("matplotlib"):
        assert "<svg" not in page
    else:
        # The intervals, both heat maps and the ranking's figure.
        assert page.count("<svg") == 4


def test_the_title_counts_the_systems(page):
    assert "<title>Comparison of 3 systems: f1</title>" in page
    y, predictions = _predictions()
    one = compare_predictions(y, {"a": predictions["a"]}, n_draws=200, random_state=0)
    page_of_one = one.to_html()
    assert "<title>One system: f1</title>" in page_of_one
    # No pair: no word of paired comparisons, with a proxy or without.
    assert "comparisons are paired" not in page_of_one and "comparisons are paired" in page
    gold = np.where(np.arange(y.shape[0]) < 100, y, np.nan)
    proxied = compare_predictions(gold, {"a": predictions["a"]}, proxy=predictions["b"],
                                  n_draws=200, random_state=0)
    assert "the posterior is the double-sampling posterior" in proxied.to_html()


def test_to_html_writes_the_page_and_returns_none(report, page, tmp_path):
    path = tmp_path / "r.html"
    path.write_text("an earlier page")
    assert report.to_html(str(path)) is None       # replaced; a str path as a Path
    assert path.read_text(encoding="utf-8") == page
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_to_html_to_a_missing_directory_names_path_and_writes_nothing(report, tmp_path):
    with pytest.raises(FileNotFoundError, match="`path` must be a file in an existing "
                                                "directory.*no directory"):
        report.to_html(tmp_path / "absent" / "r.html")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(IsADirectoryError, match="`path` must be a file path, not a directory"):
        report.to_html(tmp_path)
    with pytest.raises(TypeError, match="`path` must be a file path"):
        report.to_html(3.5)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="needs POSIX permissions that apply to the user")
def test_to_html_to_a_read_only_directory_names_path(report, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(PermissionError, match="`path` must be a file in a writable"):
            report.to_html(locked / "r.html")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_a_failed_write_leaves_nothing_half_written(tmp_path, monkeypatch):
    from skprobeval._core import write_page

    path = tmp_path / "r.html"
    path.write_text("the earlier page")

    def refuse(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="`path` must be a file that can be written.*No space"):
        write_page("<!DOCTYPE html>a new page", path)
    assert path.read_text() == "the earlier page"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


def test_the_notebook_view_has_the_verdict_the_summary_and_its_intervals(report):
    view = report._repr_html_()
    assert "<table" in view and "<strong>Summary" in view and "to_html()" in view
    assert view.index("ComparisonReport") < view.index("class='verdict'") < view.index(
        "<table")
    assert ("<svg" in view) == (not missing("matplotlib"))
    assert "<!DOCTYPE" not in view


def test_reports_without_pairs_or_labels_render():
    y, predictions = _predictions()
    one = compare_predictions(y, {"a": predictions["a"]}, n_draws=500, random_state=0)
    page = one.to_html()
    assert "One system: no pair to compare." in page and "Ranking" not in page
    per_label = compare_predictions(y, predictions, metric="f1", average=None, n_draws=500,
                                    random_state=0)
    assert "Summary" in per_label.to_html()
    assert "<table" in one._repr_html_() and "<table" in per_label._repr_html_()


@pytest.mark.slow      # about 2 s: two reports' pages, nine figures
def test_counts_runs_and_groups_have_their_sections():
    runs = {"a": [ConfusionCounts(40, 10, 8, 42), ConfusionCounts(45, 6, 9, 40)],
            "b": [ConfusionCounts(38, 12, 10, 40), ConfusionCounts(36, 9, 12, 43)]}
    page = compare_counts(runs, n_draws=1000, random_state=0).to_html()
    assert "independent posteriors (unpaired)" in page and "Every run" in page
    assert "the comparisons are unpaired" in page
    y, predictions = _predictions()
    groups = np.where(np.arange(y.shape[0]) % 3 == 0, "x", "y")
    grouped = compare_predictions(y, predictions, sensitive_features=groups, n_draws=500,
                                  random_state=0).to_html()
    assert "By group" in grouped and "Gap between groups" in grouped
    if not missing("matplotlib"):
        assert grouped.count("<svg") == 5        # the groups' intervals too


@needs("matplotlib")
def test_without_matplotlib_the_page_holds_the_tables(report, monkeypatch):
    import sys

    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, name, None)
    page = report.to_html()
    assert "<svg" not in page and "<table" in page
    assert "The figures need matplotlib: pip install &#x27;skprobeval[plot]&#x27;." in page
    with pytest.raises(ImportError, match=r"skprobeval\[plot\]"):
        report.plot()


def test_the_command_line_writes_the_page(tmp_path):
    from test_cli import run

    y, predictions = _predictions()
    import pandas as pd

    pd.DataFrame({"gold": y, **predictions}).to_csv(tmp_path / "predictions.csv", index=False)
    target = tmp_path / "r.html"
    result = run("compare", tmp_path / "predictions.csv", "--truth", "gold", "--format",
                 "html", "--output", target, "--n-draws", 500)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"wrote {target}"
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>") and not _FETCHES.search(page)
    result = run("compare", tmp_path / "predictions.csv", "--truth", "gold", "--output",
                 tmp_path / "absent" / "r.txt")
    assert result.returncode == 2
    assert "--output must be a file in an existing directory" in result.stderr
    result = run("compare", tmp_path / "predictions.csv", "--truth", "gold", "--format",
                 "json", "--output", tmp_path / "r.json", "--n-draws", 500)
    assert result.returncode == 0 and (tmp_path / "r.json").read_text().startswith("{")
