"""Many classes: time and peak memory of multiclass posteriors and comparisons.

Each case runs in a fresh process, which reports its wall time and its peak
resident memory (imports and data included).  Three systems of accuracy
0.8 / 0.78 / 0.6 (a wrong label drawn uniformly) on K classes:

(a) K = 10, 100, 1000 with n = max(5000, 50 K) items (quick: K = 10, n = 200):
    ``compare_predictions(y, {"a": a, "b": b, "c": c}, average="macro")``
    (posteriors, pairwise paired comparisons, per-label rows; 10 000 draws),
    and ``posterior_report(y, a)`` (one row per class).
(b) K = 10 000, n = 10^6 as Dask arrays (full mode only; 2000 draws): the
    macro F1 posterior of one system and ``compare_predictions`` of two.

The reference is scikit-learn's point value of the same question, in the same
process: ``f1_score(average="macro")`` of every system (``classification_report``
for the report).  Goal: K = 1000 (a) in at most 10 s and 1 GiB; K = 10 000
works in bounded memory.  Each comparison also has the sampling floor as a
second reference: NumPy drawing one Gamma(count) variate per observed cell of
the joint table of the truth and the three systems, per draw (goal at K = 1000:
at most 3 times that).

Run ``python -m benchmarks.bench_many_classes`` (or ``--quick``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

_CASE = textwrap.dedent("""
    import json, resource, time, warnings
    extra = {{}}
    import numpy as np
    from sklearn.metrics import classification_report, f1_score
    from skprobeval import compare_predictions, fbeta_posterior, posterior_report
    k, n, case, n_draws = {k}, {n}, {case!r}, {n_draws}
    rng = np.random.default_rng(0)
    y = rng.integers(0, k, n)
    systems = {{name: np.where(rng.random(n) < share, y, rng.integers(0, k, n))
               for name, share in (("a", 0.8), ("b", 0.78), ("c", 0.6))}}
    warnings.simplefilter("ignore")
    if case == "report":
        start = time.perf_counter()
        posterior_report(y, systems["a"], n_draws=n_draws, random_state=0)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        classification_report(y, systems["a"], zero_division=0)
        reference = time.perf_counter() - start
    elif case == "compare":
        start = time.perf_counter()
        compare_predictions(y, systems, average="macro", n_draws=n_draws, random_state=0)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        for pred in systems.values():
            f1_score(y, pred, average="macro", zero_division=0)
        reference = time.perf_counter() - start
        # The sampling floor: one Gamma(count) variate per observed cell of the joint
        # table (truth, a, b, c) per draw, in chunks of about 2^22 variates.
        code = y.astype(np.int64)
        for pred in systems.values():
            code = code * k + pred
        counts = np.unique(code, return_counts=True)[1].astype(float)
        chunk = max(1, (1 << 22) // counts.size)
        start = time.perf_counter()
        for first in range(0, n_draws, chunk):
            rng.standard_gamma(counts, size=(min(chunk, n_draws - first), counts.size))
        extra = {{"floor": time.perf_counter() - start, "cells": int(counts.size)}}
    else:
        import dask
        import dask.array as da
        chunk = n // 10
        lazy_y = da.from_array(y, chunks=chunk)
        lazy = {{name: da.from_array(systems[name], chunks=chunk) for name in ("a", "b")}}
        with dask.config.set(scheduler="threads", num_workers=2):
            start = time.perf_counter()
            if case == "dask posterior":
                fbeta_posterior(lazy_y, lazy["a"], average="macro", n_draws=n_draws,
                                random_state=0)
            else:
                compare_predictions(lazy_y, lazy, average="macro", n_draws=n_draws,
                                    random_state=0)
            seconds = time.perf_counter() - start
        start = time.perf_counter()
        for name in ("a",) if case == "dask posterior" else ("a", "b"):
            f1_score(y, systems[name], average="macro", zero_division=0)
        reference = time.perf_counter() - start
    # This process's own high-water mark (VmHWM, reset by exec; ru_maxrss would
    # carry over the peak of the process that started it), in MiB.
    try:
        with open("/proc/self/status") as status:
            peak = next(int(line.split()[1]) for line in status
                        if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({{"seconds": seconds, "reference": reference, "peak_mib": peak, **extra}}))
""")

_WHAT = {
    "compare": ("compare_predictions, 3 systems, macro F1", "sklearn f1_score macro x3"),
    "report": ("posterior_report, 1 system", "sklearn classification_report"),
    "dask posterior": ("Dask: macro F1 posterior, 1 system", "sklearn f1_score macro"),
    "dask compare": ("Dask: compare_predictions, 2 systems", "sklearn f1_score macro x2"),
}


def _run_case(k, n, case, n_draws):
    out = subprocess.run(
        [sys.executable, "-c", _CASE.format(k=k, n=n, case=case, n_draws=n_draws)],
        capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    what, reference = _WHAT[case]
    row = {"benchmark": "many classes",
           "case": f"K={k}, n={n:.0e}: {what}, peak RSS {result['peak_mib']:.0f} MiB",
           "ours_s": result["seconds"], "reference": reference,
           "reference_s": result["reference"], "ratio": result["reference"] / result["seconds"],
           "peak_mib": result["peak_mib"]}
    if "floor" not in result:
        return [row]
    floor = dict(row, reference=f"one Gamma per observed joint cell per draw "
                                f"({result['cells']} cells x {n_draws})",
                 reference_s=result["floor"], ratio=result["floor"] / result["seconds"],
                 goal=">= 0.33x (at most 3x the sampling floor)" if k >= 1000
                 else "none below K=1000")
    return [row, floor]


def cases(quick):
    """(K, n, case, n_draws) of every row."""
    sizes = (10,) if quick else (10, 100, 1000)
    n_draws = 500 if quick else 10_000
    rows = []
    for k in sizes:
        n = max(5000, 50 * k) if not quick else 20 * k
        rows += [(k, n, "compare", n_draws), (k, n, "report", n_draws)]
    if not quick:
        rows += [(10_000, 10 ** 6, "dask posterior", 2000), (10_000, 10 ** 6, "dask compare", 2000)]
    return rows


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    rows = [row for case in cases(quick) for row in _run_case(*case)]
    width = max(len(row["case"]) for row in rows)
    print(f"{'case':<{width}} {'ours [s]':>9} {'reference':<56} {'ref [s]':>9}")
    for row in rows:
        print(f"{row['case']:<{width}} {row['ours_s']:>9.3g} {row['reference']:<56} "
              f"{row['reference_s']:>9.3g}")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
