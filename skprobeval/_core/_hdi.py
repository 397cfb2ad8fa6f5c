"""Highest-density intervals: one two-end Newton solver for every family.

`hdi_newton` solves both ends of highest-density intervals at once from a
family's evaluation (log-density gap, mass gap, slopes, densities);
`beta_hdi_newton` is the Beta family's evaluation.  The exact posteriors
(F-beta, differences) give theirs in ``_posterior_exact``; an element that
does not settle goes to the tail-mass solver of ``_posterior``.
`hdi_from_draws` is the shortest window of sorted draws.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ._numerics import EPS, beta_dlogpdf, beta_quantile

__all__ = ["HDI_NEWTON_MAX", "beta_hdi_newton", "hdi_from_draws", "hdi_newton"]


# Parameters (a + b) up to which the two-end Newton solve of a Beta HDI is used;
# beyond, the tail-mass solver, whose quantiles are polished for huge counts.
HDI_NEWTON_MAX = 1e6


def hdi_newton(evaluate, low, high, rest, *, support=(0.0, 1.0), low_c=None, high_c=None,
               rtol=1e-8, max_steps=40):
    """Highest-density intervals by Newton's method on both ends at once.

    The one solver of every family with a density and its slope: the ends
    ``l < u`` of each element solve ``log f(l) = log f(u)`` and ``F(l) +
    S(u) = rest`` (``S = 1 - F``), from a start (the equal-tailed interval).
    ``evaluate(index, l, lc, u, uc)`` gives, for the elements ``index`` at the
    ends ``l, u`` (``lc, uc``: their distances to the support's upper end,
    tracked so that ends near it keep their digits):

    ``(gap, mass, slope_l, slope_u, f_l, f_u)``: ``log f(l) - log f(u)``,
    ``rest - F(l) - S(u)``, the log density's slopes at both ends and the
    densities (these two only steer: they enter the Jacobian, not the answer).
    With the complements given (``low_c``, ``high_c``) each end is resolved in
    its distance to the nearer end of the support; without, to float64
    resolution of its value.

    Each step costs one evaluation and no inverse; from the equal-tailed
    interval it converges in a few.  A step longer than half the width is
    shortened, one past an end of the support goes halfway there.  An element
    has converged after a step below `rtol` of its scale at both ends (the
    smallest of the distance to the support's ends, the width and the
    distance over which the log density changes by one), with both equations
    nearly solved: quadratic convergence leaves an error near ``rtol ** 2``
    of that scale.  Returns ``(low, high, done)``; where ``done`` is False
    (a step leaving the support or crossing the ends, a density of 0, no
    convergence in `max_steps`) the caller solves otherwise.
    """
    lo_support, hi_support = support
    tracked = low_c is not None and high_c is not None
    low, high = np.array(low, dtype=float), np.array(high, dtype=float)
    low_c = hi_support - low if low_c is None else np.array(low_c, dtype=float)
    high_c = hi_support - high if high_c is None else np.array(high_c, dtype=float)
    done = np.zeros(low.shape, dtype=bool)
    active = np.flatnonzero((low > lo_support) & (high_c > 0) & (low < high))
    with np.errstate(all="ignore"):
        for _ in range(max_steps):
            if active.size == 0:
                break
            l, lc, u, uc = low[active], low_c[active], high[active], high_c[active]
            gap, mass, slope_l, slope_u, f_l, f_u = evaluate(active, l, lc, u, uc)
            det = slope_l * f_u - slope_u * f_l
            step_l = -(gap * f_u + mass * slope_u) / det
            step_u = -(gap * f_l + mass * slope_l) / det
            width = u - l
            longest = np.maximum(np.abs(step_l), np.abs(step_u))
            damp = np.where(longest > 0.5 * width, 0.5 * width / longest, 1.0)
            step_l, step_u = step_l * damp, step_u * damp
            step_l = np.where(l + step_l <= lo_support, -0.5 * (l - lo_support), step_l)
            step_u = np.where(uc - step_u <= 0, 0.5 * uc, step_u)
            new_l, new_lc = l + step_l, lc - step_l
            new_u, new_uc = u + step_u, uc - step_u
            bad = ~(np.isfinite(new_l) & np.isfinite(new_u) & (new_l > lo_support)
                    & (new_uc > 0) & (new_l < new_u) & (f_l > 0) & (f_u > 0))
            keep = ~bad
            low[active] = np.where(keep, new_l, l)
            low_c[active] = np.where(keep, new_lc, lc)
            high[active] = np.where(keep, new_u, u)
            high_c[active] = np.where(keep, new_uc, uc)
            scale_l = np.fmin(np.fmin(new_l - lo_support, new_lc),
                              np.fmin(width, 1 / np.abs(slope_l)))
            scale_u = np.fmin(np.fmin(new_u - lo_support, new_uc),
                              np.fmin(width, 1 / np.abs(slope_u)))
            if tracked:
                # Ends resolved to float64 in their distance to the nearer end.
                floor_l = 4 * EPS * np.fmin(new_l - lo_support, new_lc) + 1e-300
                floor_u = 4 * EPS * np.fmin(new_u - lo_support, new_uc) + 1e-300
            else:
                floor_l = floor_u = 4 * EPS * np.maximum(np.abs(new_l), np.abs(new_u)) + 1e-300
            converged = keep & (damp == 1.0) & (np.abs(step_l) <= rtol * scale_l + floor_l) \
                & (np.abs(step_u) <= rtol * scale_u + floor_u) \
                & (np.abs(mass) <= 1e-9) & (np.abs(gap) <= 1e-4)
            done[active[converged]] = True
            active = active[keep & ~converged]
    return low, high, done


def beta_hdi_newton(a, b, rest):
    """Highest-density intervals of Beta(a, b), a, b > 1, by `hdi_newton`.

    Each step costs two incomplete Beta functions: ``1 - I(u)`` as
    ``I_{1 - u}(b, a)``, exact (scipy's ``betaincc`` is ten to a hundred times
    slower near the median), and the log densities' difference without
    cancellation at large counts.  Returns ``(low, high, done)``: where
    ``done`` is False (a + b beyond `HDI_NEWTON_MAX`, an end within 1e-300 of
    0, or no convergence) the caller solves otherwise.
    """
    low, low_c = beta_quantile(a, b, rest / 2)
    high, high_c = beta_quantile(a, b, rest / 2, upper=True)
    done = np.zeros(a.shape, dtype=bool)
    index = np.flatnonzero((a + b <= HDI_NEWTON_MAX) & (low > 1e-300) & (high_c > 1e-300))
    if index.size == 0:
        return low, high, done
    a_s, b_s, rest_s = a[index], b[index], rest[index]
    log_norm = special.betaln(a_s, b_s)

    def evaluate(active, l, lc, u, uc):
        aa, bb = a_s[active], b_s[active]
        width = u - l
        # log f(l) - log f(u), without cancellation at large counts.
        gap = (aa - 1) * np.log1p(-width / u) + (bb - 1) * np.log1p(width / uc)
        mass = rest_s[active] - special.betainc(aa, bb, l) - special.betainc(bb, aa, uc)
        # The densities steer only: the direct form, without `beta_pdf`'s
        # saddle-point branch, and the normalising constant once per call.
        norm = log_norm[active]
        f_l = np.exp((aa - 1) * np.log(l) + (bb - 1) * np.log(lc) - norm)
        f_u = np.exp((aa - 1) * np.log(u) + (bb - 1) * np.log(uc) - norm)
        return (gap, mass, beta_dlogpdf(aa, bb, l, lc), beta_dlogpdf(aa, bb, u, uc), f_l,
                f_u)

    low[index], high[index], done[index] = hdi_newton(
        evaluate, low[index], high[index], rest_s, low_c=low_c[index], high_c=high_c[index])
    return low, high, done


def hdi_from_draws(sorted_draws, confidence):
    """The shortest interval holding ``ceil(confidence * n)`` of ``n`` sorted draws
    (per column), or the equal-tailed one where that is shorter: near
    confidence 1 the shortest window of whole draws is all of them, longer than
    the interpolated quantiles (``numpy.quantile``).  Returns ``(low, high)``."""
    n = sorted_draws.shape[0]
    count = min(n, max(2, math.ceil(confidence * n)))
    widths = sorted_draws[count - 1:] - sorted_draws[: n - count + 1]
    start = np.expand_dims(np.argmin(widths, axis=0), 0)
    low = np.take_along_axis(sorted_draws, start, axis=0)[0]
    high = np.take_along_axis(sorted_draws, start + count - 1, axis=0)[0]
    tail = (1 - confidence) / 2
    equal_low = np.quantile(sorted_draws, tail, axis=0)
    equal_high = np.quantile(sorted_draws, 1 - tail, axis=0)
    shorter = equal_high - equal_low < high - low
    return np.where(shorter, equal_low, low), np.where(shorter, equal_high, high)
