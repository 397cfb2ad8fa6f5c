"""Every benchmark runs in quick mode, so none can rot (STYLE rule 21)."""

import importlib
import pkgutil

import pytest

import benchmarks

NAMES = sorted(info.name for info in pkgutil.iter_modules(benchmarks.__path__)
               if info.name.startswith("bench_"))


def test_benchmarks_are_found():
    assert "bench_counts" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_benchmark_quick_mode(name, capsys):
    module = importlib.import_module(f"benchmarks.{name}")
    rows = module.main(quick=True)
    assert rows, f"{name}.main(quick=True) returned no rows"
    for row in rows:
        assert {"benchmark", "case", "ours_s", "reference", "reference_s", "ratio"} <= set(row)
        assert row["ours_s"] > 0 and row["reference_s"] > 0
    assert capsys.readouterr().out.strip()
