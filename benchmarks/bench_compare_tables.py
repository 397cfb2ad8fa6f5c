"""compare_independent on thousands of per-label tables: time and peak memory.

Two systems' per-label tables (counts uniform in 0..1000, ``default_rng(0)``), compared
label by label with ``compare_independent(..., random_state=0)``: each call runs in a
fresh process, whose peak resident memory (VmHWM) is reported in the case.

(a) Informedness (exact probabilities by nested quadrature, and the difference's
    10 000 draws of both exact posteriors for its interval) on 4 950 tables (100 in
    quick mode).  Goal: peak RSS under 1 GiB.  The reference is the NumPy sampling
    of the same draws: ``rng.beta`` of the eight Betas (TPR and FPR of both systems),
    10 000 draws each, in chunks of 500 tables.
(b) The same on 300 tables (10 in quick mode), against the same reference on them:
    the call that took 1.8 GiB before the draws were chunked.
(c) MCC (sampled from both Dirichlet posteriors) on 4 950 tables (100), against the
    same NumPy reference (the eight Betas take 16 Gamma variates a table and draw,
    MCC's two Dirichlet draws 8).  Goal: peak RSS under 1 GiB.

Run ``python -m benchmarks.bench_compare_tables`` (or ``--quick``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np

from benchmarks._timing import best_time

N_DRAWS = 10_000
TABLES = 4_950
TABLES_QUICK = 100
SMALL = 300
SMALL_QUICK = 10
REFERENCE_CHUNK = 500

_CALL = textwrap.dedent("""
    import json, resource, time
    import numpy as np
    from skprobeval import ConfusionCounts, compare_independent
    rng = np.random.default_rng(0)
    a = ConfusionCounts(*(rng.integers(0, 1001, size={n}) for _ in range(4)))
    b = ConfusionCounts(*(rng.integers(0, 1001, size={n}) for _ in range(4)))
    start = time.perf_counter()
    result = compare_independent(a, b, metric={metric!r}, random_state=0)
    seconds = time.perf_counter() - start
    # This process's own high-water mark (VmHWM, reset by exec), in MiB.
    try:
        with open("/proc/self/status") as status:
            peak = next(int(line.split()[1]) for line in status
                        if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({{"seconds": seconds, "peak_mib": peak,
                      "n_draws": int(result.difference.samples.shape[0])}}))
""")


def _call(n_tables, metric):
    out = subprocess.run([sys.executable, "-c", _CALL.format(n=n_tables, metric=metric)],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["n_draws"] == N_DRAWS
    return result


def _numpy_draws(n_tables):
    """Reference: the informedness difference's draws with NumPy alone, in chunks of tables."""
    rng = np.random.default_rng(0)
    cells = [rng.integers(0, 1001, size=n_tables) + 0.5 for _ in range(8)]
    tp_a, fp_a, fn_a, tn_a, tp_b, fp_b, fn_b, tn_b = cells
    draws = np.empty((N_DRAWS, n_tables))
    for start in range(0, n_tables, REFERENCE_CHUNK):
        part = slice(start, start + REFERENCE_CHUNK)
        size = (N_DRAWS, len(tp_a[part]))
        draws[:, part] = (rng.beta(tp_a[part], fn_a[part], size)
                          - rng.beta(fp_a[part], tn_a[part], size)
                          - rng.beta(tp_b[part], fn_b[part], size)
                          + rng.beta(fp_b[part], tn_b[part], size))
    return draws


def _row(n_tables, metric, reference_s):
    result = _call(n_tables, metric)
    return {"benchmark": "compare",
            "case": f"compare_independent {metric}, {n_tables} tables, "
                    f"peak RSS {result['peak_mib']:.0f} MiB",
            "ours_s": result["seconds"],
            "reference": f"NumPy beta draws of the 8 Betas, 1e4 each, {n_tables} tables",
            "reference_s": reference_s, "ratio": reference_s / result["seconds"],
            "peak_mib": result["peak_mib"]}


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    large = TABLES_QUICK if quick else TABLES
    small = SMALL_QUICK if quick else SMALL
    reference_large = best_time(lambda: _numpy_draws(large), 1)
    reference_small = best_time(lambda: _numpy_draws(small), 1 if quick else 3)
    rows = [_row(large, "informedness", reference_large),
            _row(small, "informedness", reference_small),
            _row(large, "mcc", reference_large)]
    for row in rows:
        print(f"{row['case']:<62} {row['ours_s']:>8.3g} s  {row['reference']:<52} "
              f"{row['reference_s']:>8.3g} s  {row['ratio']:>6.3g}x")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
