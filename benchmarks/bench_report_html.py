"""What the demo's HTML report adds to ``skprobeval demo``.

``skprobeval demo --output-dir DIR`` writes its plots and ``report.html``, the
comparison report as one self-contained page (every table, the figures as inline SVG,
the ranking drawn for it).  This benchmark runs the demo in this process, times the
writing of the page inside it (``ours_s``: the report's ranking is drawn and every
figure rendered then, matplotlib already imported by the plots), and sets it against
the rest of the demo (``reference_s``: the demo's whole time less the page).  Goal: the
page adds at most one second.

Run ``python -m benchmarks.bench_report_html`` (or ``--quick``: two folds).
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import time

__all__ = ["main"]

REQUIRES = ("matplotlib",)


def _demo_with_page_timed(arguments):
    """(whole demo seconds, page seconds) of one in-process demo run."""
    from skprobeval import cli

    write = cli._write_report_page
    seconds = []

    def timed(*args, **kwargs):
        start = time.perf_counter()
        write(*args, **kwargs)
        seconds.append(time.perf_counter() - start)

    cli._write_report_page = timed
    try:
        with tempfile.TemporaryDirectory() as directory, \
                contextlib.redirect_stdout(io.StringIO()):
            start = time.perf_counter()
            status = cli.main(["demo", "--output-dir", directory, *arguments])
            whole = time.perf_counter() - start
    finally:
        cli._write_report_page = write
    assert status == 0 and len(seconds) == 1
    return whole, seconds[0]


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    arguments, repeat = (["--cv", "2"], 1) if quick else ([], 3)
    runs = [_demo_with_page_timed(arguments) for _ in range(repeat)]
    whole, page = min(runs, key=lambda run: run[1])
    rest = min(w - p for w, p in runs)
    rows = [{"benchmark": "report",
             "case": f"HTML page of the demo's report ({'2 folds' if quick else '5 folds'}, "
                     "ranking and figures)",
             "ours_s": page, "reference": "the rest of skprobeval demo --output-dir",
             "reference_s": rest, "ratio": rest / page}]
    for row in rows:
        print(f"{row['case']}: {row['ours_s']:.3g} s; {row['reference']}: "
              f"{row['reference_s']:.3g} s ({row['ratio']:.3g}x)")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
