"""Run every timing benchmark ``benchmarks/bench_*.py`` and print one table of the figures.

The coverage benchmark (``python -m benchmarks.bench_coverage``) measures accuracy, not
speed, and prints its own grid.

Usage: ``python -m benchmarks [--quick]`` (or ``python benchmarks/run.py``).  Each ratio is
printed next to its named reference and the performance goal set for it.  Speed-ups are
``reference time / our time``, measured in this one process.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import platform
import sys

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import benchmarks  # noqa: E402

# (benchmark, words in the case or the reference) -> the performance goal; first match wins.
# The best few-line recipes come first: the goal of their case is set against another reference.
FEW_LINES = "none (best few-line recipe)"
GOALS = {
    ("counts", "count_nonzero"): FEW_LINES,
    ("counts", "searchsorted"): FEW_LINES,
    ("counts", "factorize"): ">= 1x (not slower than factorize + bincount)",
    ("counts", "str"): ">= 1x vs sklearn",
    ("counts", "sklearn"): ">= 20x at n=1e7",
    ("counts", "bincount"): ">= 0.5x (within 2x of bincount)",
    ("posteriors", "informedness hdi"): ">= 0.67x (markedness at most 1.5x informedness)",
    ("posteriors", "informedness interval"): ">= 0.67x (markedness at most 1.5x informedness)",
    ("posteriors", "hdi(0.95)"): ">= 0.25x (at most 4x scipy's equal-tailed interval)",
    ("posteriors", "HDI loop"): "faster than an HDI loop",
    ("posteriors", "beta.interval, vectorised"): FEW_LINES,
    ("posteriors", "2b/(1+b)"): FEW_LINES,
    ("posteriors", "beta.ppf, 4 levels"): ">= 0.0167x (at most 60x four Beta quantiles)",
    ("posteriors", "precision Beta, same"): ">= 0.033x (at most 30x the Beta's time)",
    ("posteriors", "numpy Monte Carlo"): "> 1x (exact faster than Monte Carlo)",
    ("posteriors", "loop"): ">= 50x",
    ("posteriors", "Monte Carlo"): "faster, >= 100x more accurate",
    ("compare", "4950 tables"): "peak RSS < 1 GiB at 4 950 tables",
    ("compare", "compare_independent"): "time and peak RSS (no goal below 4 950 tables)",
    ("compare", "scipy.special"): FEW_LINES,
    ("compare", "paired P(pi1"): ">= 1000x, exact",
    ("compare", "paired P, Table"): ">= 1000x, exact",
    ("compare", "Monte Carlo"): "exact (quadrature) vs sampled",
    ("baseline", "precision band"): "< 1 s at every N <= 1e7",
    ("baseline", "N=1e12"): "N = 1e12 works",
    ("baseline", "Bestgen"): ">= 1e4x at N=2000",
    ("baseline", "variance"): "variance: O(1), exact",
    ("sklearn", "scoring"): "time ratio <= 1.2x",
    ("curves", "simultaneous band"): "band < 10 s at n=1e5",
    ("curves", "bootstrap"): "faster than the bootstrap",
    ("curves", "sklearn precision_recall_curve"): ">= 0.33x (at most 3x sklearn)",
    ("curves", "sklearn roc_curve"): ">= 0.33x (at most 3x sklearn)",
    ("calibration", "sklearn calibration_curve"): ">= 0.33x (at most 3x sklearn)",
    ("calibration", "10000 draws"): "none (10x the draws of the reference)",
    ("calibration", "1000 draws"): "faster than the bootstrap at equal draws",
    ("dask", "peak RSS"): "peak RSS < 1 GiB at n=5e8",
    ("dask", "NumPy path"): ">= 0.33x (at most 3x NumPy)",
    ("dask", "Parquet dir"): "one pass, report equal to pandas",
    ("ttest", "baycomp"): ">= 1x (not slower than baycomp)",
    ("across", "baycomp"): ">= 1x (not slower than baycomp)",
    ("across", "Plackett-Luce"): "< 5 s at 10 systems x 50 data sets",
    ("rank systems", "Bayesian bootstrap variates"): ">= 2x (at most half the variates' time)",
    ("rank systems", "rank_systems"): "< 5 s at 20 systems x 100 000 items",
    ("ttest", "stdtr"): FEW_LINES,
    ("multiclass", "macro F1 posterior"): ">= 1x (not slower than the dense Dirichlet)",
    ("multiclass", "paired macro F1"): ">= 1x (not slower than the dense Dirichlet)",
    ("ttest", "rank 50 candidates"): "< 0.1 s at 50 candidates x 10 folds (all figures)",
    ("many classes", "K=1000,"): "<= 10 s and <= 1 GiB at K=1000",
    ("many classes", "K=10000,"): "works in bounded memory (peak RSS shown)",
    ("many classes", "K="): "time and peak RSS (no goal below K=1000)",
    ("report", "HTML page"): "adds <= 1 s to the demo",
    ("plan", "Beta route"): "< 50 ms",
    ("clusters", "NumPy Bayesian bootstrap"): ">= 2x (at most half the NumPy bootstrap's time)",
    ("plan", "plan_more_items PairedComparison"): "< 2 s on two cores (2 000 futures)",
    ("plan", "plan_more_items SystemRanking"): "< 15 s (200 futures x 2 000 draws)",
}


def _goal(row):
    text = f"{row['case']} {row['reference']}".lower()
    for (benchmark, words), goal in GOALS.items():
        if row["benchmark"] == benchmark and words.lower() in text:
            return goal
    return ""


# Benchmarks of accuracy rather than speed, with a report of their own (not timed rows).
NOT_TIMED = {"bench_coverage"}


def benchmark_names():
    """Names of the timing benchmark modules, sorted."""
    return sorted(info.name for info in pkgutil.iter_modules(benchmarks.__path__)
                  if info.name.startswith("bench_") and info.name not in NOT_TIMED)


def missing_requirements(module):
    """The packages a benchmark module needs (its ``REQUIRES``) that are not installed."""
    return [package for package in getattr(module, "REQUIRES", ())
            if importlib.util.find_spec(package) is None]


def run(quick=False, out=sys.stdout):
    """Run every benchmark (quietly) and return all rows; print the combined table.

    A benchmark whose reference package (its ``REQUIRES``) is missing is skipped, with
    a line saying so after the table.
    """
    import contextlib
    import io

    rows, skipped = [], []
    for name in benchmark_names():
        module = importlib.import_module(f"benchmarks.{name}")
        absent = missing_requirements(module)
        if absent:
            skipped.append(f"{name}: skipped, needs {', '.join(absent)}")
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            module_rows = module.main(quick=quick)
        for row in module_rows:
            rows.append(dict(row, module=name, goal=row.get("goal") or _goal(row)))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; quick={quick}", file=out)
    case_width = max([len("case")] + [len(row["case"]) for row in rows])
    reference_width = max([len("reference")] + [len(row["reference"]) for row in rows])
    header = (f"{'benchmark':<11} {'case':<{case_width}} {'ours [s]':>10} "
              f"{'reference':<{reference_width}} {'ref [s]':>10} {'ratio':>10}  goal")
    print(header, file=out)
    print("-" * len(header), file=out)
    for row in rows:
        extra = ""
        if "abs_error" in row and row.get("reference_abs_error") is not None:
            extra = f"  |err| {row['abs_error']:.1e} vs {row['reference_abs_error']:.1e}"
        print(f"{row['benchmark']:<11} {row['case']:<{case_width}} {row['ours_s']:>10.3g} "
              f"{row['reference']:<{reference_width}} {row['reference_s']:>10.3g} "
              f"{row['ratio']:>9.3g}x  {row['goal']}{extra}", file=out)
    for line in skipped:
        print(line, file=out)
    return rows


def main(argv=None):
    """Command-line entry point."""
    argv = sys.argv[1:] if argv is None else argv
    run(quick="--quick" in argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
