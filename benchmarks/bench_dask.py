"""Counting from Dask arrays against counting in NumPy, and counting without loading.

(a) 10^8 in-memory int8 labels (10 classes) wrapped in a Dask array (chunks of
    10^7, threaded scheduler): ``ConfusionCounts.from_predictions(...,
    average=None)`` with the labels found and with them given, against the
    NumPy path on the same arrays.  Goal: at most 3x the NumPy time.
(b) 5 x 10^8 int8 labels per array generated lazily by Dask (never one NumPy
    array; materialising the two would take 1 GB, and the NumPy path's int64
    temporaries 8 GB): counted in a fresh process, whose peak resident memory
    is reported.  Goal: under 1 GiB.  The reference time is the NumPy path on
    (a)'s arrays, scaled to the size (it could not run at this size in 1 GiB).
(c) ``compare_predictions("gold", ["A", "B", "C"], data=...)`` on a directory
    of ten Parquet files (10^7 rows, 10 classes, three systems of accuracy
    0.9 / 0.8 / 0.7): a lazy Dask DataFrame (one pass, distinct label rows)
    against reading the files with pandas and comparing in memory.

Run ``python -m benchmarks.bench_dask`` (or ``--quick``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np

from benchmarks._timing import best_time
from skprobeval import ConfusionCounts

_STREAM = textwrap.dedent("""
    import json, resource, time
    import numpy as np
    import dask, dask.array as da
    from skprobeval import ConfusionCounts
    n, chunk = {n}, {chunk}
    rng = da.random.default_rng(0)
    y_true = rng.integers(0, 10, size=n, chunks=chunk, dtype=np.int8)
    y_pred = rng.integers(0, 10, size=n, chunks=chunk, dtype=np.int8)
    with dask.config.set(scheduler="threads", num_workers=2):
        start = time.perf_counter()
        counts = ConfusionCounts.from_predictions(y_true, y_pred, average=None)
        seconds = time.perf_counter() - start
    # This process's own high-water mark (VmHWM, reset by exec; ru_maxrss would
    # carry over the peak of the process that started it), in MiB.
    try:
        with open("/proc/self/status") as status:
            peak = next(int(line.split()[1]) for line in status
                        if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({{"seconds": seconds, "peak_mib": peak,
                      "total": float(counts.n.sum() / 10)}}))
""")

# The dask extra; the runner skips this benchmark without it.
REQUIRES = ("dask", "distributed", "pyarrow")


def _in_memory_rows(quick):
    import dask
    import dask.array as da

    n = 10 ** 6 if quick else 10 ** 8
    chunk = max(n // 10, 1)
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 10, n, dtype=np.int8)
    y_pred = rng.integers(0, 10, n, dtype=np.int8)
    lazy_true, lazy_pred = da.from_array(y_true, chunks=chunk), da.from_array(y_pred, chunks=chunk)
    repeat = 1 if quick else 3
    numpy_s = best_time(lambda: ConfusionCounts.from_predictions(y_true, y_pred, average=None),
                        repeat)
    rows = []
    with dask.config.set(scheduler="threads"):
        ConfusionCounts.from_predictions(lazy_true[:10], lazy_pred[:10], average=None)  # warm
        for case, options in (("labels found", {}), ("labels given", {"labels": range(10)})):
            seconds = best_time(lambda options=options: ConfusionCounts.from_predictions(
                lazy_true, lazy_pred, average=None, **options), repeat)
            rows.append({"benchmark": "dask", "case": f"Dask array n={n:.0e}, {case}",
                         "ours_s": seconds, "reference": "NumPy path, same labels in memory",
                         "reference_s": numpy_s, "ratio": numpy_s / seconds})
    return rows, numpy_s / n


def _stream_row(quick, numpy_per_item):
    n = 5 * 10 ** 6 if quick else 5 * 10 ** 8
    chunk = 10 ** 6 if quick else 10 ** 7
    out = subprocess.run([sys.executable, "-c", _STREAM.format(n=n, chunk=chunk)],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["total"] == n
    reference = numpy_per_item * n
    return {"benchmark": "dask",
            "case": f"lazy int8 labels n={n:.0e}, peak RSS {result['peak_mib']:.0f} MiB",
            "ours_s": result["seconds"], "reference": "NumPy path per item, scaled",
            "reference_s": reference, "ratio": reference / result["seconds"],
            "peak_mib": result["peak_mib"]}


def _parquet_row(quick):
    import tempfile

    import dask
    import dask.dataframe as dd
    import pandas as pd

    from skprobeval import compare_predictions

    n = 10 ** 5 if quick else 10 ** 7
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 10, n, dtype=np.int64)
    frame = {"gold": gold}
    for name, accuracy in zip("ABC", (0.9, 0.8, 0.7)):
        frame[name] = np.where(rng.random(n) < accuracy, gold, rng.integers(0, 10, n))
    frame = pd.DataFrame(frame)
    options = {"average": "macro", "n_draws": 2000}
    with tempfile.TemporaryDirectory() as directory:
        for i in range(10):
            frame.iloc[i * n // 10:(i + 1) * n // 10].to_parquet(f"{directory}/part-{i}.parquet")
        del frame

        def in_pandas():
            return compare_predictions("gold", ["A", "B", "C"],
                                       data=pd.read_parquet(directory), **options)

        def in_dask():
            return compare_predictions("gold", ["A", "B", "C"],
                                       data=dd.read_parquet(directory), **options)

        repeat = 1 if quick else 3
        with dask.config.set(scheduler="threads"):
            pd.testing.assert_frame_equal(in_dask().summary, in_pandas().summary)
            ours = best_time(in_dask, repeat)
        reference = best_time(in_pandas, repeat)
    return {"benchmark": "dask", "case": f"compare 3 systems, Parquet dir n={n:.0e}",
            "ours_s": ours, "reference": "pandas.read_parquet + in-memory",
            "reference_s": reference, "ratio": reference / ours}


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    rows, per_item = _in_memory_rows(quick)
    rows.append(_stream_row(quick, per_item))
    rows.append(_parquet_row(quick))
    width = max(len(row["case"]) for row in rows)
    for row in rows:
        print(f"{row['case']:<{width}} {row['ours_s']:>9.3g} s  {row['reference']:<34} "
              f"{row['reference_s']:>9.3g} s  {row['ratio']:>6.3g}x")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
