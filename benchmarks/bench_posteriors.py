"""Posterior summaries and exact intervals against the best few-line scipy/numpy recipes.

(a) Mean and 95% equal-tailed interval of the precision posteriors of 10^4
    per-label tables in one vectorised call of `BetaPosterior`, against the
    same in one vectorised call of ``scipy.stats.beta.interval`` (the headline
    reference) and against a Python loop over ``scipy.stats.beta`` objects.
    With the 95% highest-density interval as well, against vectorised scipy
    for mean and interval plus a loop for the HDI (``minimize_scalar`` of
    ``betaincinv(p + 0.95) - betaincinv(p)`` per table, the usual recipe: scipy
    has no vectorised HDI).  Loops are timed on a subset of the tables and
    scaled linearly to all of them.
(b) Exact F1 95% intervals of 10^4 random tables (`FBetaPosterior`) against
    the scipy one-liner ``b = scipy.stats.beta.ppf(q, tp, fp + fn); 2b / (1 + b)``
    vectorised over the tables: time and largest difference.  Then exact F1
    and F2 intervals of one table against 10^6-draw Monte Carlo from Goutte &
    Gaussier's (2005) Gamma construction: time, and absolute error of the
    interval ends against a high-accuracy reference computed independently
    (F1: ``scipy.stats.beta.ppf`` mapped through ``2b / (1 + b)``; F2:
    ``scipy.optimize.brentq`` on a ``scipy.integrate.quad`` cdf).
(c) Equal-tailed and highest-density 95% intervals of random tables (counts
    uniform in 0..1000, λ = 1/2) for precision (`BetaPosterior`), informedness
    and markedness (`DifferencePosterior`) and F2 (`FBetaPosterior`), all
    tables in one call: the time of each against the precision posterior's
    (goal: at most 30x), and against a vectorised numpy Monte Carlo of the same
    tables (10^4 draws per table, in chunks of tables; empirical 2.5% and
    97.5% quantiles, HDI as the shortest window of the sorted draws, both from
    a partition and a sort of the two tails), with the largest difference
    between the two answers (the Monte Carlo error).
    Goal: exact faster than the Monte Carlo.  ``EXACT_TABLES`` tables in the
    full run, ``EXACT_TABLES_QUICK`` in quick mode (``--tables N`` overrides).
(d) The same equal-tailed and highest-density intervals of ``PPF_TABLES``
    random tables (``PPF_TABLES_QUICK`` in quick mode) for informedness,
    markedness and F2, against ``scipy.stats.beta.ppf`` at four levels
    vectorised over the same tables (the cost of four Beta quantiles per
    table; goal: at most 60x).
(e) The 95% highest-density interval (then the equal-tailed interval) of
    markedness against informedness on the same ``PPF_TABLES`` random tables
    (counts uniform in 0..1000 from ``default_rng(11)``: 61 of the 2 000 tables
    have a cell below 10, a few a zero cell).  Both are a difference of two
    Betas, markedness over the predicted columns; goal: markedness at most 1.5x
    informedness.

Run ``python -m benchmarks.bench_posteriors`` (or ``--quick``, ``--tables N``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import integrate, optimize, special, stats

from benchmarks._timing import best_time, best_time_and_value
from skprobeval import BetaPosterior, DifferencePosterior, FBetaPosterior

LAM = 0.5
CONFIDENCE = 0.95
SUMMARY_TABLES = 10_000          # (a) and (b)
EXACT_TABLES = 10_000            # (c), full run: all tables in one call
EXACT_TABLES_QUICK = 100         # (c), quick mode
PPF_TABLES = 2_000               # (d), full run
PPF_TABLES_QUICK = 200           # (d), quick mode
PPF_LEVELS = np.array([[0.025], [0.975], [0.01], [0.96]])   # (d): the reference's levels
MC_DRAWS = 10_000                # (c): Monte Carlo draws per table
MC_CHUNK = 250                   # (c): tables per Monte Carlo chunk (bounds the memory)


# ---------------------------------------------------------------------------
# (a) Beta summaries
# ---------------------------------------------------------------------------


def _ours_summaries(a, b, with_hdi):
    """Ours: mean, interval (and HDI) of every table, one vectorised call each."""
    posterior = BetaPosterior(a, b)
    parts = [posterior.mean(), *posterior.interval(CONFIDENCE)]
    if with_hdi:
        parts += list(posterior.hdi(CONFIDENCE))
    return np.column_stack(parts)


def _scipy_vectorised(a, b):
    """Reference: closed-form mean and one vectorised ``scipy.stats.beta.interval`` call."""
    return np.column_stack([a / (a + b), *stats.beta.interval(CONFIDENCE, a, b)])


def _hdi_loop(a, b):
    """Reference HDI (scipy has no vectorised one): per table, minimise the width
    ``betaincinv(p + c) - betaincinv(p)`` over the lower tail mass ``p``."""
    out = []
    for ai, bi in zip(a.tolist(), b.tolist()):
        best = optimize.minimize_scalar(
            lambda p, ai=ai, bi=bi: (special.betaincinv(ai, bi, p + CONFIDENCE)
                                     - special.betaincinv(ai, bi, p)),
            bounds=(0.0, 1.0 - CONFIDENCE), method="bounded")
        out.append((special.betaincinv(ai, bi, best.x),
                    special.betaincinv(ai, bi, best.x + CONFIDENCE)))
    return np.asarray(out)


def _scipy_loop(a, b):
    """Reference: one ``scipy.stats.beta`` object per table (mean and interval)."""
    out = []
    for ai, bi in zip(a.tolist(), b.tolist()):
        dist = stats.beta(ai, bi)
        out.append([dist.mean(), *dist.interval(CONFIDENCE)])
    return np.asarray(out)


def _summaries_rows(quick, rng):
    n_tables = 1_000 if quick else SUMMARY_TABLES
    n_loop = 50 if quick else 500
    repeat = 1 if quick else 3
    a = rng.integers(0, 200, size=n_tables) + LAM
    b = rng.integers(0, 200, size=n_tables) + LAM
    rows = []

    def add(case, ours, reference, reference_s, gap):
        rows.append({"benchmark": "posteriors", "case": case, "ours_s": ours,
                     "reference": reference, "reference_s": reference_s,
                     "ratio": reference_s / ours, "max_abs_difference": gap})

    ours, mine = best_time_and_value(lambda: _ours_summaries(a, b, False), repeat)
    vectorised, theirs = best_time_and_value(lambda: _scipy_vectorised(a, b), repeat)
    add(f"mean+interval, {n_tables} tables", ours, "scipy.stats.beta.interval, vectorised",
        vectorised, float(np.max(np.abs(mine - theirs))))
    loop, looped = best_time_and_value(lambda: _scipy_loop(a[:n_loop], b[:n_loop]), 1)
    add(f"mean+interval, {n_tables} tables", ours,
        f"scipy.stats.beta loop ({n_loop} scaled)", loop * n_tables / n_loop,
        float(np.max(np.abs(mine[:n_loop] - looped))))

    # The highest-density interval alone against scipy's equal-tailed one (the
    # cheapest two-number summary of the same tables); the error column is how far
    # the interval's mass, by scipy's cdf, is from the confidence.
    ours, ends = best_time_and_value(
        lambda: np.column_stack(BetaPosterior(a, b).hdi(CONFIDENCE)), repeat)
    interval, equal = best_time_and_value(
        lambda: np.column_stack(stats.beta.interval(CONFIDENCE, a, b)), repeat)
    add(f"hdi(0.95), {n_tables} tables", ours, "scipy.stats.beta.interval, vectorised",
        interval, float(np.max(np.abs(stats.beta.cdf(ends[:, 1], a, b)
                                      - stats.beta.cdf(ends[:, 0], a, b) - CONFIDENCE))))
    del equal

    ours, mine = best_time_and_value(lambda: _ours_summaries(a, b, True), repeat)
    hdi, hdi_ends = best_time_and_value(lambda: _hdi_loop(a[:n_loop], b[:n_loop]), 1)
    add(f"mean+interval+HDI, {n_tables} (HDI: loop)", ours,
        f"scipy vectorised + HDI loop ({n_loop} scaled)",
        vectorised + hdi * n_tables / n_loop,
        float(np.max(np.abs(mine[:n_loop] - np.column_stack([theirs[:n_loop], hdi_ends])))))
    return rows


# ---------------------------------------------------------------------------
# (b) Exact F intervals
# ---------------------------------------------------------------------------


def _f1_scipy_one_liner(tp, fp, fn):
    """Reference: F1 = 2B / (1 + B), B ~ Beta(tp, fp + fn); one vectorised ppf call."""
    tail = (1 - CONFIDENCE) / 2
    b = stats.beta.ppf([[tail], [1 - tail]], tp, fp + fn)
    return 2 * b / (1 + b)


def _f1_batch_rows(quick, rng):
    n_tables = 1_000 if quick else SUMMARY_TABLES
    tp, fp, fn = (rng.integers(0, 1001, size=n_tables) + LAM for _ in range(3))
    repeat = 1 if quick else 3
    ours, mine = best_time_and_value(
        lambda: np.asarray(FBetaPosterior(tp, fp, fn).interval(CONFIDENCE)), repeat)
    theirs, scipy_ends = best_time_and_value(lambda: _f1_scipy_one_liner(tp, fp, fn), repeat)
    return [{
        "benchmark": "posteriors", "case": f"F1 95% interval, {n_tables} tables",
        "ours_s": ours, "reference": "scipy beta.ppf -> 2b/(1+b), vectorised",
        "reference_s": theirs, "ratio": theirs / ours,
        "max_abs_difference": float(np.max(np.abs(mine - scipy_ends))),
    }]


def _f_reference(tp, fp, fn, beta, confidence):
    """High-accuracy interval ends, computed without skprobeval."""
    tail = (1 - confidence) / 2
    if beta == 1.0:
        b_low, b_high = stats.beta.ppf(tail, tp, fp + fn), stats.beta.isf(tail, tp, fp + fn)
        return 2 * b_low / (1 + b_low), 2 * b_high / (1 + b_high)
    weight = beta * beta

    def cdf(f):
        def integrand(v):
            k = 1 + (weight - 1) * v
            g = f * k / (f * k + (1 + weight) * (1 - f))
            return special.betainc(tp, fp + fn, g) * stats.beta.pdf(v, fn, fp)
        return integrate.quad(integrand, 0, 1, epsabs=1e-14, epsrel=1e-13, limit=200)[0]

    low = optimize.brentq(lambda f: cdf(f) - tail, 1e-9, 1 - 1e-9, xtol=1e-15, rtol=1e-15)
    high = optimize.brentq(lambda f: cdf(f) - (1 - tail), 1e-9, 1 - 1e-9, xtol=1e-15,
                           rtol=1e-15)
    return low, high


def _monte_carlo_interval(tp, fp, fn, beta, confidence, n_draws, rng):
    """Reference: Goutte & Gaussier's (2005) method, Gamma variates and empirical quantiles."""
    x = rng.standard_gamma(tp, size=n_draws)
    y = rng.standard_gamma(fp, size=n_draws)
    z = rng.standard_gamma(fn, size=n_draws)
    weight = beta * beta
    f = (1 + weight) * x / ((1 + weight) * x + weight * z + y)
    tail = (1 - confidence) / 2
    return np.quantile(f, [tail, 1 - tail])


def _f_rows(quick, rng):
    n_draws = 100_000 if quick else 1_000_000
    tp, fp, fn = 40 + LAM, 10 + LAM, 20 + LAM
    rows = []
    for beta in (1.0, 2.0):
        reference = np.asarray(_f_reference(tp, fp, fn, beta, CONFIDENCE))
        ours = best_time(lambda: FBetaPosterior(tp, fp, fn, beta=beta).interval(CONFIDENCE),
                         3 if quick else 10)
        exact = np.asarray(FBetaPosterior(tp, fp, fn, beta=beta).interval(CONFIDENCE))
        mc_time = best_time(
            lambda: _monte_carlo_interval(tp, fp, fn, beta, CONFIDENCE, n_draws, rng),
            1 if quick else 3)
        sampled = _monte_carlo_interval(tp, fp, fn, beta, CONFIDENCE, n_draws, rng)
        rows.append({
            "benchmark": "posteriors",
            "case": f"F{beta:g} 95% interval, TP=40 FP=10 FN=20",
            "ours_s": ours, "reference": f"Monte Carlo, {n_draws:.0e} Gamma draws",
            "reference_s": mc_time, "ratio": mc_time / ours,
            "abs_error": float(np.max(np.abs(exact - reference))),
            "reference_abs_error": float(np.max(np.abs(sampled - reference))),
        })
    return rows


# ---------------------------------------------------------------------------
# (c) Exact summaries of the other metrics, against precision and Monte Carlo
# ---------------------------------------------------------------------------

# name -> (exact posterior from the Dirichlet cells, Monte Carlo draws from the same cells)
METRICS = {
    "precision": (
        lambda c: BetaPosterior(c["tp"], c["fp"]),
        lambda c, rng, size: rng.beta(c["tp"], c["fp"], size)),
    "informedness": (
        lambda c: DifferencePosterior(BetaPosterior(c["tp"], c["fn"]),
                                      BetaPosterior(c["fp"], c["tn"])),
        lambda c, rng, size: (rng.beta(c["tp"], c["fn"], size)
                              - rng.beta(c["fp"], c["tn"], size))),
    "markedness": (
        lambda c: DifferencePosterior(BetaPosterior(c["tp"], c["fp"]),
                                      BetaPosterior(c["fn"], c["tn"])),
        lambda c, rng, size: (rng.beta(c["tp"], c["fp"], size)
                              - rng.beta(c["fn"], c["tn"], size))),
    "F2": (
        lambda c: FBetaPosterior(c["tp"], c["fp"], c["fn"], beta=2.0),
        lambda c, rng, size: _f2_draws(c, rng, size)),
}


def _f2_draws(cells, rng, size):
    """F2 = 5X / (5X + 4Z + Y) with Gamma variates X, Y, Z of the TP, FP, FN cells."""
    x = rng.standard_gamma(cells["tp"], size)
    y = rng.standard_gamma(cells["fp"], size)
    z = rng.standard_gamma(cells["fn"], size)
    return 5 * x / (5 * x + 4 * z + y)


def _exact_summaries(metric, cells):
    """Ours: equal-tailed interval and HDI of every table, one call each."""
    posterior = METRICS[metric][0](cells)
    return np.stack([*posterior.interval(CONFIDENCE), *posterior.hdi(CONFIDENCE)])


def _monte_carlo_summaries(metric, cells, n_draws, rng):
    """Reference: vectorised numpy Monte Carlo, ``n_draws`` per table, in chunks of tables.

    Per chunk one (tables, draws) array of posterior draws.  Every HDI candidate
    (shortest window spanning ``floor(0.95 n_draws)`` draw gaps) starts among the
    lowest ``n_draws - floor(0.95 n_draws)`` draws and ends among as many highest,
    where the 2.5% and 97.5% quantiles (numpy's default linear interpolation)
    also lie: one ``np.partition`` and a sort of those two tails, not of all draws.
    """
    draw = METRICS[metric][1]
    n_tables = cells["tp"].shape[0]
    window = int(np.floor(CONFIDENCE * n_draws))
    tail = n_draws - window
    low_at = (1 - CONFIDENCE) / 2 * (n_draws - 1)               # position among sorted draws
    high_at = (1 + CONFIDENCE) / 2 * (n_draws - 1) - window     # position in the upper tail
    assert low_at + 1 < tail and high_at >= 0

    def quantile(sorted_tail, at):
        j = int(np.floor(at))
        return sorted_tail[:, j] + (at - j) * (sorted_tail[:, j + 1] - sorted_tail[:, j])

    out = np.empty((4, n_tables))
    for start in range(0, n_tables, MC_CHUNK):
        stop = min(start + MC_CHUNK, n_tables)
        chunk = {name: value[start:stop, None] for name, value in cells.items()}
        draws = np.partition(draw(chunk, rng, (stop - start, n_draws)), [tail - 1, window],
                             axis=1)
        low, high = np.sort(draws[:, :tail], axis=1), np.sort(draws[:, window:], axis=1)
        shortest = np.argmin(high - low, axis=1)[:, None]
        out[:, start:stop] = (quantile(low, low_at), quantile(high, high_at),
                              np.take_along_axis(low, shortest, axis=1)[:, 0],
                              np.take_along_axis(high, shortest, axis=1)[:, 0])
    return out


def exact_rows(n_tables, n_draws=MC_DRAWS, rng=None, repeat=1, metrics=tuple(METRICS),
               exact_subset=None):
    """Rows of (c) for ``n_tables`` random tables, every exact summary timed in one call.

    ``metrics`` picks the metrics (the precision posterior is always timed: it
    is the yardstick).  ``exact_subset`` (for quick looks while the exact
    summaries are slow) times the exact summaries on that many tables and
    scales the time linearly; the full benchmark leaves it None.
    """
    rng = np.random.default_rng(1) if rng is None else rng
    cells = {name: rng.integers(0, 1001, size=n_tables) + LAM
             for name in ("tp", "fp", "fn", "tn")}
    n_exact = n_tables if exact_subset is None else min(exact_subset, n_tables)
    subset = {name: value[:n_exact] for name, value in cells.items()}
    label = f"interval+HDI, {n_tables} tables"
    if n_exact < n_tables:
        label += f" ({n_exact} scaled)"
    times, rows = {}, []
    for metric in dict.fromkeys(("precision", *metrics)):
        seconds, exact = best_time_and_value(lambda: _exact_summaries(metric, subset), repeat)
        times[metric] = seconds * n_tables / n_exact
        mc_time, sampled = best_time_and_value(
            lambda: _monte_carlo_summaries(metric, cells, n_draws, rng), 1)
        gap = float(np.max(np.abs(exact - sampled[:, :n_exact])))
        if metric != "precision":
            rows.append({
                "benchmark": "posteriors", "case": f"{metric} {label}",
                "ours_s": times[metric], "reference": "precision Beta, same tables+summaries",
                "reference_s": times["precision"],
                "ratio": times["precision"] / times[metric],
                "time_per_table_s": times[metric] / n_tables,
            })
        rows.append({
            "benchmark": "posteriors", "case": f"{metric} {label}",
            "ours_s": times[metric], "reference": f"numpy Monte Carlo, {n_draws:.0e}/table",
            "reference_s": mc_time, "ratio": mc_time / times[metric],
            "max_abs_difference": gap,
        })
    return rows


def ppf_rows(n_tables, rng=None, repeat=3, metrics=("informedness", "markedness", "F2")):
    """Rows of (d): interval and HDI of ``n_tables`` random tables, one call each,
    against ``scipy.stats.beta.ppf`` at four levels over the same tables."""
    rng = np.random.default_rng(1) if rng is None else rng
    cells = {name: rng.integers(0, 1001, size=n_tables) + LAM
             for name in ("tp", "fp", "fn", "tn")}
    reference = best_time(lambda: stats.beta.ppf(PPF_LEVELS, cells["tp"], cells["fp"]),
                          5 * repeat)
    rows = []
    for metric in metrics:
        seconds = best_time(lambda: _exact_summaries(metric, cells), repeat)
        rows.append({
            "benchmark": "posteriors", "case": f"{metric} interval+HDI, {n_tables} tables",
            "ours_s": seconds, "reference": "scipy.stats.beta.ppf, 4 levels, vectorised",
            "reference_s": reference, "ratio": reference / seconds,
            "time_per_table_s": seconds / n_tables,
        })
    return rows


def markedness_rows(n_tables, repeat=3):
    """Rows of (e): markedness against informedness, HDI and interval, same tables."""
    rng = np.random.default_rng(11)
    tp, fp, fn, tn = (rng.integers(0, 1001, size=n_tables) + LAM for _ in range(4))
    metrics = {"informedness": DifferencePosterior(BetaPosterior(tp, fn), BetaPosterior(fp, tn)),
               "markedness": DifferencePosterior(BetaPosterior(tp, fp), BetaPosterior(fn, tn))}
    rows = []
    for kind in ("hdi", "interval"):
        seconds = {name: best_time(lambda p=posterior: getattr(p, kind)(CONFIDENCE), repeat)
                   for name, posterior in metrics.items()}
        rows.append({
            "benchmark": "posteriors", "case": f"markedness {kind}(0.95), {n_tables} tables",
            "ours_s": seconds["markedness"],
            "reference": f"informedness {kind}(0.95), same tables",
            "reference_s": seconds["informedness"],
            "ratio": seconds["informedness"] / seconds["markedness"],
        })
    return rows


def main(quick=False, exact_tables=None):
    """Run the benchmark; print a table and return its rows as dicts."""
    rng = np.random.default_rng(0)
    if exact_tables is None:
        exact_tables = EXACT_TABLES_QUICK if quick else EXACT_TABLES
    rows = (_summaries_rows(quick, rng) + _f1_batch_rows(quick, rng) + _f_rows(quick, rng)
            + exact_rows(exact_tables, rng=rng)
            + ppf_rows(PPF_TABLES_QUICK if quick else PPF_TABLES, rng=rng,
                       repeat=1 if quick else 3)
            + markedness_rows(PPF_TABLES_QUICK if quick else PPF_TABLES,
                              repeat=1 if quick else 3))
    _print(rows)
    return rows


def _print(rows):
    case_width = max(len(row["case"]) for row in rows)
    reference_width = max(len(row["reference"]) for row in rows)
    print(f"{'case':<{case_width}} {'ours [s]':>10} {'reference':<{reference_width}} "
          f"{'ref [s]':>10} {'ratio':>9}  {'|err| ours':>10} {'|err| ref':>10}")
    for row in rows:
        ours_error = row.get("abs_error", row.get("max_abs_difference"))
        reference_error = row.get("reference_abs_error")
        print(f"{row['case']:<{case_width}} {row['ours_s']:>10.4g} "
              f"{row['reference']:<{reference_width}} {row['reference_s']:>10.4g} "
              f"{row['ratio']:>8.3g}x  "
              f"{'' if ours_error is None else format(ours_error, '.1e'):>10} "
              f"{'' if reference_error is None else format(reference_error, '.1e'):>10}")
    print("ratio: reference time / our time.  |err| ours: absolute error against an independent "
          "high-accuracy reference, or the largest difference from the reference's answer.")


def _tables_argument(argv):
    for i, arg in enumerate(argv):
        if arg == "--tables":
            return int(argv[i + 1])
    return None


if __name__ == "__main__":
    main(quick="--quick" in sys.argv, exact_tables=_tables_argument(sys.argv))
