"""Root finders shared by the exact posteriors defined through quadrature.

`FBetaPosterior` (``_posterior_fbeta.py``) and `DifferencePosterior`
(``_posterior_difference.py``) evaluate cdf, survival function, density and
the density's derivative from one set of cached nodes (``_parts``); the
solvers here work on any posterior that provides them: quantiles by
safeguarded Halley steps (`_solve_quantile`) and highest-density intervals by
Newton steps on both ends at once (`_hdi_newton`).  `AffinePosterior`, the
affine maps of exact posteriors, is in ``_posterior_affine.py``.
"""

from __future__ import annotations

import numpy as np

from ._numerics import EPS, solve_increasing
from ._posterior import _Posterior, _take

# Smallest parameter for which quantile steps stop early (see _solve_quantile).
_NEAR_NORMAL = 10.0


def _solve_quantile(post, p, q, upper, guess, lo, hi, scale, near_normal):
    """Quantiles by safeguarded Halley steps on ``post._parts`` (cdf or sf, pdf, pdf').

    ``scale`` is about the posterior's standard deviation: every tolerance is
    relative to it, so that quantiles of posteriors concentrated within
    1e-12 of an end keep their digits (a tolerance relative to the value
    would stop 100 units in the last place away).  Halley steps cube the
    error (in units of the scale, with a constant of order one for
    near-normal densities, ``near_normal``: every parameter at least 10): an
    element stops after a step below 1e-4 of the scale, which leaves an
    error near 1e-12 of it.  Elsewhere Newton steps go on down to 1e-8 of
    the scale.  Bisections there split the exponent near 0: a quantile of a
    density spike at 0 can lie below 1e-300, or below the smallest float.
    """
    scale = np.maximum(scale, 1e-300)

    def func(x, active):
        part = _take(p, active)
        cdf, sf, density, slope = post._parts(part, x, (1, 2, 3) if upper else (0, 2, 3))
        value = (q[active] - sf) if upper else (cdf - q[active])
        # Newton steps where parameters below 1 make the density's slope unreliable.
        return value, density, np.where(near_normal[active], slope, 0.0)

    accept_rel = np.where(near_normal, 1e-4, 1e-8)
    accept = accept_rel * scale
    # Away from near-normal shapes no absolute floor: a density spike (priors
    # far below 1) makes steps tiny far from the root.
    xtol = np.where(near_normal, 1e-14 * scale, 0.0)
    return solve_increasing(func, lo, hi, np.clip(guess, lo, hi), xtol=xtol,
                            rtol=4 * EPS, newton_rtol=0.0, accept=accept,
                            accept_rel=accept_rel, near_zero=True)


def _hdi_newton(post, params, confidence, start=None, fallback=True):
    """Highest-density intervals by Newton steps on both ends at once.

    Solves ``F(low) + S(high) = 1 - confidence`` and
    ``log f(low) = log f(high)`` from the equal-tailed interval, with the
    density's derivative in the Jacobian: three to five steps for a smooth
    unimodal density.  Elements that do not settle inside the support (a
    monotone density: the interval starts at an end) go to the generic
    solver.
    """
    lo_support, hi_support = post._support
    n = next(iter(params.values())).shape[-1]
    rest = np.full(n, 1.0 - confidence)
    low, high = post._interval_start(params, rest / 2) if start is None else start
    low, high = low.copy(), high.copy()
    active = np.arange(n)
    settled = np.zeros(n, dtype=bool)
    for _ in range(40):
        if active.size == 0:
            break
        part = _take(params, active)
        lo_a, hi_a = low[active], high[active]
        cdf, _, f_lo, df_lo = post._parts(part, lo_a, (0, 2, 3))
        _, sf, f_hi, df_hi = post._parts(part, hi_a, (1, 2, 3))
        with np.errstate(all="ignore"):
            mass_gap = cdf + sf - rest[active]
            density_gap = np.log(f_lo) - np.log(f_hi)
            # Jacobian of (mass_gap, density_gap) in (low, high).
            j11, j12 = f_lo, -f_hi
            j21, j22 = df_lo / f_lo, -df_hi / f_hi
            det = j11 * j22 - j12 * j21
            step_lo = -(mass_gap * j22 - j12 * density_gap) / det
            step_hi = -(j11 * density_gap - j21 * mass_gap) / det
            width = hi_a - lo_a
            # Damp steps that would cross or leave the support.
            limit = 0.5 * width
            scale = np.maximum(np.abs(step_lo), np.abs(step_hi))
            damp = np.where(scale > limit, limit / scale, 1.0)
            new_lo = lo_a + damp * step_lo
            new_hi = hi_a + damp * step_hi
        finite = np.isfinite(new_lo) & np.isfinite(new_hi) & (f_lo > 0) & (f_hi > 0)
        inside = finite & (new_lo > lo_support) & (new_hi < hi_support) & (new_lo < new_hi)
        low[active] = np.where(inside, new_lo, lo_a)
        high[active] = np.where(inside, new_hi, hi_a)
        tol = 4 * EPS * np.maximum(np.abs(lo_a), np.abs(hi_a)) + 1e-300
        # Settled: small steps where both conditions already nearly hold (a
        # density with an unreliable slope can stall Newton far from the answer).
        # Steps are measured against the width and against the scale on which
        # the log density changes at that end (1 / |(log f)'|): an end on a
        # density cliff 1e-12 wide needs its own digits.
        with np.errstate(divide="ignore"):
            scale_lo = np.fmin(width, 1.0 / np.abs(j21))
            scale_hi = np.fmin(width, 1.0 / np.abs(j22))
        converged = inside & (damp == 1.0) & (np.abs(step_lo) <= 1e-5 * scale_lo + tol) \
            & (np.abs(step_hi) <= 1e-5 * scale_hi + tol) \
            & (np.abs(mass_gap) <= 1e-9) & (np.abs(density_gap) <= 1e-4)
        settled[active] = converged
        active = active[inside & ~converged]
    # After a Newton step of 1e-5 of the width the error is near 1e-10 of it: one more
    # step is not needed.  Unsettled elements take the generic route.
    unsettled = np.flatnonzero(~settled)
    if fallback and unsettled.size:
        lo_f, hi_f = _Posterior._hdi_flat(post, _take(params, unsettled), confidence)
        low[unsettled], high[unsettled] = lo_f, hi_f
    return low, high
