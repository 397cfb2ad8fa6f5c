"""Every benchmark runs in quick mode through the runner, so that a benchmark broken by a
change to the library fails the tests instead of going unnoticed.

The quick run of all the timing benchmarks takes about 13 s: it is in the heavy tier (``-m
slow``), which CI runs as its own step, so the default run stays under 90 s."""

import pytest

from benchmarks import run

# One worker runs the quick benchmarks once for both tests (--dist loadgroup).
pytestmark = [pytest.mark.xdist_group("benchmarks"), pytest.mark.slow]


@pytest.fixture(scope="module")
def quick_rows():
    import io

    out = io.StringIO()
    rows = run.run(quick=True, out=out)
    return rows, out.getvalue()


def test_every_benchmark_reports_rows(quick_rows):
    # Every benchmark whose reference is installed; the others are named as skipped
    # (baycomp, mpmath and the dask extra are in the test extra, not the minimal install).
    import importlib

    rows, text = quick_rows
    names = run.benchmark_names()
    assert "bench_counts" in names
    skipped = {name for name in names
               if run.missing_requirements(importlib.import_module(f"benchmarks.{name}"))}
    assert {row["module"] for row in rows} == set(names) - skipped
    for name in skipped:
        assert f"{name}: skipped, needs " in text
    for row in rows:
        assert {"benchmark", "case", "ours_s", "reference", "reference_s", "ratio"} <= set(row)
        assert row["ours_s"] > 0 and row["reference_s"] > 0
        assert row["ratio"] == pytest.approx(row["reference_s"] / row["ours_s"], rel=1e-9) or \
            row["benchmark"] == "sklearn"


def test_runner_prints_one_table(quick_rows):
    rows, text = quick_rows
    assert text.count("\n") >= len(rows) + 2
    assert "goal" in text.splitlines()[1]
