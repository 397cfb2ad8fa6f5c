"""How narrow can an interval of the mean over runs be where the runs agree?

The runs section of the coverage benchmark asks two things of the interval of a system's
mean over R runs of n items each: that it cover the truth in at least 92% of test sets
in every cell (runs that differ by a spread of 0, 0.01 or 0.03 around an accuracy of 0.8),
and that where the runs do not differ it be at most 1.2 times as wide as the pooled
counts' interval.  This script computes the smallest width that *any* interval can have
at spread 0 while it covers 0.92 at spread 0.01, so the two asks can be set against each
other.

The calculation, on the accuracy scale with the normal approximation: a run's observed
accuracy is normal around its own accuracy with the binomial variance ``v = 0.16 / n``,
and the runs' accuracies are normal around the mean with standard deviation ``s``.  The
runs' average ``m`` and their sample variance are then sufficient and independent;
by symmetry the interval is ``m ± h(x)`` with ``x`` the sample variance in units of
``v``.  At spread ``s`` the average has standard deviation ``sqrt((v + s²) / R)`` and
``x`` is ``(1 + s² / v) χ²(R - 1) / (R - 1)``.  Minimising the mean of ``h`` at spread 0
subject to a coverage of 0.92 at spread 0.01 is a linear programme in ``h(·)`` solved
pointwise by a Lagrange multiplier (as in the Neyman–Pearson lemma), found by bisection.
The coverage at spread 0 is left unconstrained, so the result is a lower bound on what an
interval meeting both coverage asks can achieve.  A Monte Carlo run of the optimal rule
checks the two figures by simulation (seeded, with its standard error).

Run ``python -m benchmarks.runs_width_bound`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import stats

__all__ = ["bound", "main"]

ACCURACY = 0.8
VARIANCE = ACCURACY * (1 - ACCURACY)
Z95 = stats.norm.ppf(0.975)


def _densities(runs, ratio, grid):
    """Densities of ``x`` (sample variance over ``v``) at spread 0 and at variance ratio."""
    df = runs - 1
    at_zero = stats.chi2.pdf(grid * df, df) * df
    at_spread = stats.chi2.pdf(grid * df / ratio, df) * df / ratio
    return at_zero, at_spread


def _rule(runs, ratio, multiplier, grid, half_widths):
    """The half-width (in units of the pooled standard error) minimising the Lagrangian."""
    at_zero, at_spread = _densities(runs, ratio, grid)
    cover = 2 * stats.norm.cdf(half_widths / np.sqrt(ratio)) - 1
    objective = at_zero[:, None] * half_widths[None] - multiplier * at_spread[:, None] * cover
    return half_widths[objective.argmin(axis=1)]


def bound(runs, n_items, *, spread=0.01, coverage=0.92, points=20_000):
    """Smallest mean width at spread 0, over the pooled counts' width, and the rule.

    Returns ``(width_ratio, coverage_at_zero, rule)`` where ``rule(x)`` gives the
    half-width in units of the pooled standard error ``sqrt(v / R)``.
    """
    ratio = 1 + spread**2 * n_items / VARIANCE
    grid = np.linspace(0, 60, points + 1)[1:]
    step = grid[1] - grid[0]
    half_widths = np.linspace(0.5, 12, 1151)
    at_zero, at_spread = _densities(runs, ratio, grid)

    def figures(multiplier):
        h = _rule(runs, ratio, multiplier, grid, half_widths)
        cover_spread = np.sum(at_spread * (2 * stats.norm.cdf(h / np.sqrt(ratio)) - 1)) * step
        cover_zero = np.sum(at_zero * (2 * stats.norm.cdf(h) - 1)) * step
        return cover_spread, np.sum(at_zero * h) * step / Z95, cover_zero, h

    low, high = 1e-3, 1e4
    for _ in range(60):
        middle = np.sqrt(low * high)
        if figures(middle)[0] < coverage:
            low = middle
        else:
            high = middle
    _, width, cover_zero, h = figures(high)
    return width, cover_zero, lambda x: np.interp(x, grid, h)


def _simulate(runs, n_items, spread, rule, reps, rng):
    """Coverage and mean width over the pooled width of the rule, with standard errors."""
    v = VARIANCE / n_items
    accuracy = ACCURACY + spread * rng.standard_normal((reps, runs))
    observed = accuracy + np.sqrt(v) * rng.standard_normal((reps, runs))
    mean = observed.mean(axis=1)
    x = observed.var(axis=1, ddof=1) / v
    half = rule(x) * np.sqrt(v / runs)
    covered = np.abs(mean - ACCURACY) <= half
    width = half / (Z95 * np.sqrt(v / runs))
    return (covered.mean(), covered.std() / np.sqrt(reps), width.mean(),
            width.std() / np.sqrt(reps))


def main(quick=False):
    """Print the bound of every cell and its Monte Carlo check; return the rows."""
    reps = 20_000 if quick else 400_000
    rng = np.random.default_rng(20261127)
    cells = [(3, 2000)] if quick else [(r, n) for n in (200, 2000) for r in (3, 5, 10)]
    rows = []
    print(f"{'runs':>4} {'items':>5}  {'width bound':>11}  {'cover at 0':>10}  "
          f"{'MC cover at 0.01':>18}  {'MC width at 0':>16}")
    for runs, n_items in cells:
        width, cover_zero, rule = bound(runs, n_items, points=4000 if quick else 20_000)
        cover, cover_se, _, _ = _simulate(runs, n_items, 0.01, rule, reps, rng)
        _, _, mc_width, width_se = _simulate(runs, n_items, 0.0, rule, reps, rng)
        rows.append({"runs": runs, "n": n_items, "width_bound": width,
                     "coverage_at_zero": cover_zero, "mc_coverage_at_spread": cover,
                     "mc_coverage_se": cover_se, "mc_width": mc_width, "mc_width_se": width_se})
        print(f"{runs:>4} {n_items:>5}  {width:>11.3f}  {cover_zero:>10.3f}  "
              f"{cover:>11.4f} ± {cover_se:.4f}  {mc_width:>9.4f} ± {width_se:.4f}")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
