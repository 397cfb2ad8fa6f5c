"""Calibration curves and mean losses against scikit-learn and the ordinary bootstrap.

(a) Calibration curve (10 uniform bins) with its exact pointwise and simultaneous 95% bands
    at n = 10^5 and 10^6 probabilities, against ``sklearn.calibration.calibration_curve`` of
    the same probabilities.  Goal: at most 3x scikit-learn's time (the bands are 2 x 10 Beta
    quantiles; the binning is scikit-learn's).
(b) Posterior of the Brier score by the Bayesian bootstrap (``brier_score_posterior``) at
    n = 10^3, 10^4 and 10^5 items, with 1000 draws and with the default 10 000, against the
    1000-resample ordinary bootstrap of ``sklearn.metrics.brier_score_loss`` that peers use
    for the same interval (timed on 100 resamples and scaled).  Goal: faster than the
    bootstrap at the same number of draws.  Each draw costs one Gamma variate per item, so the
    default 10 000 draws cost ten times 1000.
(c) Coverage by simulation (printed, not timed): a calibrated model with probabilities
    uniform on [0, 1]; the share of bins whose pointwise 95% interval holds the bin's true
    rate (n = 200, 10 bins), the share of test sets whose simultaneous band holds the
    diagonal, and the share whose 95% Brier interval holds the true expected Brier score of
    the model ``q = p ** 0.7`` at n = 50, 500 and 5000.  Goal: at least 0.93.

Run ``python -m benchmarks.bench_calibration`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import integrate
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

from benchmarks._timing import best_time
from skprobeval import brier_score_posterior, posterior_calibration_curve


def _row(case, ours, reference, reference_s):
    return {"benchmark": "calibration", "case": case, "ours_s": ours, "reference": reference,
            "reference_s": reference_s, "ratio": reference_s / ours}


def _calibrated(rng, n):
    p = rng.random(n)
    return rng.random(n) < p, p


def _curve_rows(quick, rng):
    rows = []
    for n in (10 ** 4,) if quick else (10 ** 5, 10 ** 6):
        y, p = _calibrated(rng, n)
        repeat = 1 if quick else (15 if n == 10 ** 5 else 3)

        def ours(y=y, p=p):
            curve = posterior_calibration_curve(y, p, n_bins=10)
            return curve.band(0.95), curve.band(0.95, kind="simultaneous")

        mine = best_time(ours, repeat)
        reference = best_time(lambda y=y, p=p: calibration_curve(y, p, n_bins=10), repeat)
        rows.append(_row(f"calibration curve + both bands, n={n:.0e}", mine,
                         "sklearn calibration_curve", reference))
    return rows


def _bootstrap_time(y, p, n_resamples, rng):
    n = y.shape[0]

    def run():
        for _ in range(n_resamples):
            take = rng.integers(0, n, n)
            brier_score_loss(y[take], p[take])

    return best_time(run, 1)


def _brier_rows(quick, rng):
    rows = []
    sizes = (10 ** 3,) if quick else (10 ** 3, 10 ** 4, 10 ** 5)
    timed = 10 if quick else 100
    for n in sizes:
        y, p = _calibrated(rng, n)
        reference = _bootstrap_time(y, p, timed, rng) * 1000 / timed
        for draws in (1000,) if quick else (1000, 10_000):
            mine = best_time(lambda y=y, p=p, draws=draws: brier_score_posterior(
                y, p, n_draws=draws, random_state=0), 1)
            rows.append(_row(f"Brier posterior (Bayesian bootstrap), {draws} draws, n={n:.0e}",
                             mine, f"1000 bootstrap resamples of sklearn brier_score_loss "
                                   f"({timed} scaled)", reference))
    return rows


def coverage(n_curves, n_brier, seed=20260101):
    """Shares covered: (pointwise bins, simultaneous diagonal, Brier at n = 50, 500, 5000)."""
    rng = np.random.default_rng(seed)
    midpoints = np.linspace(0.05, 0.95, 10)
    covered = total = diagonal = 0
    for _ in range(n_curves):
        y, p = _calibrated(rng, 200)
        curve = posterior_calibration_curve(y, p)
        band = curve.band(0.95)
        truth = midpoints[curve.bins]
        covered += np.sum((band.low <= truth) & (truth <= band.high))
        total += len(curve)
        band = curve.band(0.95, kind="simultaneous")
        diagonal += np.all((band.low <= band.x) & (band.x <= band.high))
    # E[p (1 - q)^2 + (1 - p) q^2], p uniform, q = p ** 0.7 (scipy quadrature).
    truth = integrate.quad(lambda p: p * (1 - p ** 0.7) ** 2 + (1 - p) * p ** 1.4, 0, 1)[0]
    brier = []
    for n in (50, 500, 5000):
        hits = 0
        for rep in range(n_brier):
            y, p = _calibrated(rng, n)
            low, high = brier_score_posterior(y, p ** 0.7, n_draws=1000,
                                              random_state=rep).interval(0.95)
            hits += low <= truth <= high
        brier.append(hits / n_brier)
    return (covered / total, diagonal / n_curves, *brier)


def main(quick=False):
    """Run the benchmark; print a table and the coverage, return the timing rows."""
    rng = np.random.default_rng(0)
    rows = _curve_rows(quick, rng) + _brier_rows(quick, rng)
    width = max(len(row["case"]) for row in rows)
    ref_width = max(len(row["reference"]) for row in rows)
    print(f"{'case':<{width}} {'ours [s]':>9} {'reference':<{ref_width}} {'ref [s]':>9} "
          f"{'ratio':>8}")
    for row in rows:
        print(f"{row['case']:<{width}} {row['ours_s']:>9.3g} {row['reference']:<{ref_width}} "
              f"{row['reference_s']:>9.3g} {row['ratio']:>7.3g}x")
    n_curves, n_brier = (20, 5) if quick else (2000, 1000)
    shares = coverage(n_curves, n_brier)
    print(f"coverage: pointwise bins {shares[0]:.3f}, simultaneous diagonal {shares[1]:.3f} "
          f"({n_curves} test sets of 200); Brier 95% interval at n=50, 500, 5000: "
          f"{shares[2]:.3f}, {shares[3]:.3f}, {shares[4]:.3f} ({n_brier} test sets each; "
          "goal >= 0.93)")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
