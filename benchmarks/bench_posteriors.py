"""Posterior summaries and exact F intervals (two of the performance goals).

(a) Mean, 95% equal-tailed interval and 95% highest-density interval of the
    precision posteriors of 10^4 per-label tables, in one vectorised call of
    `BetaPosterior`, against a Python loop over ``scipy.stats.beta`` (the HDI
    by ``scipy.optimize.minimize_scalar`` on ``ppf(p + 0.95) - ppf(p)``, the
    usual recipe).  The loop is timed on a subset of the tables and scaled
    linearly to all of them (it is a loop).  Goal: >= 50x.
(b) Exact F1 and F2 95% intervals (`FBetaPosterior`) against 10^6-draw Monte
    Carlo from Goutte & Gaussier's (2005) Gamma construction: time, and absolute error of the
    interval ends against a high-accuracy reference computed independently
    (F1: ``scipy.stats.beta.ppf`` mapped through ``2b / (1 + b)``; F2:
    ``scipy.optimize.brentq`` on a ``scipy.integrate.quad`` cdf).  Goal:
    faster and >= 100x more accurate.

Run ``python -m benchmarks.bench_posteriors`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import integrate, optimize, special, stats

from benchmarks._timing import best_time
from skprobeval import BetaPosterior, FBetaPosterior


def _loop_summaries(a, b, confidence, with_hdi):
    """The reference: one scipy.stats.beta object per table."""
    out = []
    for ai, bi in zip(a.tolist(), b.tolist()):
        dist = stats.beta(ai, bi)
        row = [dist.mean(), *dist.interval(confidence)]
        if with_hdi:
            width = optimize.minimize_scalar(
                lambda p, d=dist: d.ppf(p + confidence) - d.ppf(p),
                bounds=(0.0, 1.0 - confidence), method="bounded")
            row += [dist.ppf(width.x), dist.ppf(width.x + confidence)]
        out.append(row)
    return np.asarray(out)


def _vectorised(a, b, confidence, with_hdi):
    posterior = BetaPosterior(a, b)
    parts = [posterior.mean(), *posterior.interval(confidence)]
    if with_hdi:
        parts += list(posterior.hdi(confidence))
    return np.column_stack(parts)


def _summaries_rows(quick, rng):
    n_tables = 1_000 if quick else 10_000
    n_loop = 50 if quick else 500
    lam = 0.5
    tp = rng.integers(0, 200, size=n_tables)
    fp = rng.integers(0, 200, size=n_tables)
    a, b = tp + lam, fp + lam
    rows = []
    for with_hdi, label in ((False, "mean+interval"), (True, "mean+interval+hdi")):
        ours = best_time(lambda: _vectorised(a, b, 0.95, with_hdi), 1 if quick else 3)
        loop = best_time(lambda: _loop_summaries(a[:n_loop], b[:n_loop], 0.95, with_hdi), 1)
        reference = loop * n_tables / n_loop
        check = _vectorised(a[:n_loop], b[:n_loop], 0.95, with_hdi)
        gap = float(np.max(np.abs(check - _loop_summaries(a[:n_loop], b[:n_loop], 0.95,
                                                              with_hdi))))
        rows.append({
            "benchmark": "posteriors", "case": f"{label}, {n_tables} tables",
            "ours_s": ours, "reference": f"scipy.stats.beta loop ({n_loop} scaled)",
            "reference_s": reference, "ratio": reference / ours, "max_abs_difference": gap,
        })
    return rows


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
    """Goutte & Gaussier's (2005) method: Gamma variates, empirical quantiles."""
    x = rng.standard_gamma(tp, size=n_draws)
    y = rng.standard_gamma(fp, size=n_draws)
    z = rng.standard_gamma(fn, size=n_draws)
    weight = beta * beta
    f = (1 + weight) * x / ((1 + weight) * x + weight * z + y)
    tail = (1 - confidence) / 2
    return np.quantile(f, [tail, 1 - tail])


def _f_rows(quick, rng):
    n_draws = 100_000 if quick else 1_000_000
    lam = 0.5
    tp, fp, fn = 40 + lam, 10 + lam, 20 + lam
    rows = []
    for beta in (1.0, 2.0):
        reference = np.asarray(_f_reference(tp, fp, fn, beta, 0.95))
        ours = best_time(lambda: FBetaPosterior(tp, fp, fn, beta=beta).interval(0.95),
                         3 if quick else 10)
        exact = np.asarray(FBetaPosterior(tp, fp, fn, beta=beta).interval(0.95))
        mc_time = best_time(lambda: _monte_carlo_interval(tp, fp, fn, beta, 0.95, n_draws, rng),
                            1 if quick else 3)
        sampled = _monte_carlo_interval(tp, fp, fn, beta, 0.95, n_draws, rng)
        rows.append({
            "benchmark": "posteriors",
            "case": f"F{beta:g} 95% interval, TP=40 FP=10 FN=20",
            "ours_s": ours, "reference": f"Monte Carlo, {n_draws:.0e} Gamma draws",
            "reference_s": mc_time, "ratio": mc_time / ours,
            "abs_error": float(np.max(np.abs(exact - reference))),
            "reference_abs_error": float(np.max(np.abs(sampled - reference))),
        })
    return rows


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    rng = np.random.default_rng(0)
    rows = _summaries_rows(quick, rng) + _f_rows(quick, rng)
    _print(rows)
    return rows


def _print(rows):
    print(f"{'case':<40} {'ours [s]':>10} {'reference':<36} {'ref [s]':>10} {'speed-up':>9}"
          f"  {'|err| ours':>10} {'|err| ref':>10}")
    for row in rows:
        ours_error = row.get("abs_error", row.get("max_abs_difference"))
        reference_error = row.get("reference_abs_error")
        print(f"{row['case']:<40} {row['ours_s']:>10.4f} {row['reference']:<36} "
              f"{row['reference_s']:>10.4f} {row['ratio']:>8.1f}x  "
              f"{ours_error:>10.1e} "
              f"{'' if reference_error is None else format(reference_error, '.1e'):>10}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
