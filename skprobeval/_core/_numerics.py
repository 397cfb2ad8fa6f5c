"""The numerics kernel: Beta functions, quadrature, one root finder, one
minimiser, one Dirichlet/Gamma sampler with its chunk policy, and the Beta moments
(Cornish-Fisher starting points are in ``_cornish_fisher.py``).

Pure numpy and scipy on flat float64 arrays, through which every posterior and
comparison of the package computes; a hand-written piece is kept only where
scipy measurably falls short (large-count Beta tails and quantiles, quadrature
over many tables at once, vectorised root finding, Gamma variates of shapes far
below 1), and the developer guide (``docs/developer.rst``, "The numerics
kernel") lists each with its figure.  Derivations: the theory page
``docs/theory/numerics.rst``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

__all__ = [
    "CHUNK_VARIATES",
    "EPS",
    "N_NODES",
    "TINY",
    "NS_NODES",
    "beta_cdf",
    "beta_greater",
    "beta_dlogpdf",
    "beta_logpdf",
    "beta_mode",
    "beta_pdf",
    "beta_quantile",
    "beta_rule",
    "beta_sd",
    "beta_sf",
    "beta_tail_nodes",
    "beta_var",
    "beta_variates",
    "dirichlet",
    "dirichlet_scaled",
    "draw_chunks",
    "frozen_result",
    "golden_max",
    "log_gamma",
    "log_gamma_variates",
    "normal_score_rule",
    "quantile_nodes",
    "result_entry",
    "row_reduce",
    "solve_increasing",
    "unit_rule",
]

EPS = np.finfo(np.float64).eps
_NEAR_ZERO = 1e-300
TINY = np.finfo(np.float64).tiny
_SMALLEST = np.finfo(np.float64).smallest_subnormal
_EPS, _TINY = EPS, TINY


# scipy's betainc(a, a, x) is off by up to 1e-4 for a > ~1e10 (betaincc is not).
_SYMMETRIC_BUG = 1e9
# Largest tail parameter for betainc on a rounded argument in quick tails.
_QUICK_TAIL = 1e4
# Above this a + b, scipy's betaincinv is polished with Newton steps.
_POLISH = 1e6
# A quantile within this of an end is recomputed from that end's side.
_FAR_END = 1e-6
# Up to this a + b the Beta log density is evaluated directly.
_DIRECT_LOGPDF = 1e4


def _tail(a, b, x, xc, upper, quick=False):
    """P(X <= x) (or P(X > x) with ``upper``) for X ~ Beta(a, b), ``xc = 1 - x``.

    ``betainc`` on the accurate argument: ``I_x(a, b)`` for x <= 1/2,
    ``I_{1-x}(b, a)`` (the other tail) for x > 1/2.  The tail asked for is
    then either that value or 1 minus it; the subtraction is used where the
    result is >= 1e-3 (at most 1e-13 relative error), scipy's complemented
    ``betaincc`` elsewhere: it is 5x slower than ``betainc`` (scipy 1.17).
    ``betainc(a, a, x)`` is off by up to 1e-4 for ``a > ~1e10`` (``betaincc``
    is not): the symmetric case always takes ``betaincc``.

    ``quick`` (for quadrature nodes, where 1e-12 relative is plenty): a tail
    below 1e-3 on the far side of 1/2 comes from ``betainc`` on the rounded
    argument instead where that costs below 1e-12 relative (the tail's
    parameter <= 1e4 and the other >= 1: the argument's rounding moves the
    tail by at most that parameter times 1.1e-16, relative; measured against
    mpmath below 7e-13), 6x faster.
    """
    a, b, x, xc = np.broadcast_arrays(a, b, x, xc)
    with np.errstate(invalid="ignore"):
        low = x <= 0.5
        # direct: the asked tail is the betainc value itself.
        direct = low != upper
        # Only the accurate betainc of each element (both would double the cost).
        value = np.empty(x.shape)
        value[low] = special.betainc(a[low], b[low], x[low])
        high = ~low
        value[high] = special.betainc(b[high], a[high], xc[high])
        out = np.where(direct, value, 1.0 - value)
        symmetric = (a == b) & (a > _SYMMETRIC_BUG)
        redo = (~direct & (out < 1e-3)) | symmetric
        if quick and np.any(redo):
            near, other = (b, a) if upper else (a, b)
            cheap = redo & ~symmetric & (near <= _QUICK_TAIL) & (other >= 1.0)
            if np.any(cheap):
                out[cheap] = (special.betainc(b[cheap], a[cheap], xc[cheap]) if upper
                              else special.betainc(a[cheap], b[cheap], x[cheap]))
                redo &= ~cheap
        if np.any(redo):
            ar, br, xr, xcr = a[redo], b[redo], x[redo], xc[redo]
            # Complemented forms only: I_x(a, b) = betaincc(b, a, 1 - x).
            out[redo] = (special.betaincc(ar, br, xr) if upper
                         else special.betaincc(br, ar, xcr))
    return out


def beta_cdf(a, b, x, xc, quick=False):
    """P(X <= x) for X ~ Beta(a, b); ``xc`` is ``1 - x`` computed accurately.

    ``quick``: 1e-12 relative in far tails is enough (see `_tail`)."""
    return _tail(a, b, x, xc, upper=False, quick=quick)


def beta_sf(a, b, x, xc, quick=False):
    """P(X > x) for X ~ Beta(a, b); ``quick`` as in `beta_cdf`."""
    return _tail(a, b, x, xc, upper=True, quick=quick)


_S0, _S1, _S2, _S3, _S4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _stirlerr(n):
    """log(n!) - log(sqrt(2 pi n) (n/e)^n) for real n > 0 (Loader 2000)."""
    n = np.asarray(n, dtype=np.float64)
    big = n > 15
    safe = np.where(big, n, 16.0)
    nn = safe * safe
    series = (_S0 - (_S1 - (_S2 - (_S3 - _S4 / nn) / nn) / nn) / nn) / safe
    small = np.where(big, 1.0, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = special.gammaln(small + 1) - (small + 0.5) * np.log(small) + small - _HALF_LOG_2PI
    return np.where(big, series, direct)


def _bd0(x, m):
    """Deviance term ``x log(x/m) + m - x`` without cancellation (Loader 2000)."""
    x = np.asarray(x, dtype=np.float64)
    m = np.asarray(m, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        near = np.abs(x - m) < 0.1 * (x + m)
        v = np.where(near, (x - m) / (x + m), 0.0)
        total = (x - m) * v
        term = 2 * x * v
        v2 = v * v
        for j in range(1, 40):
            term = term * v2
            total = total + term / (2 * j + 1)
            if not np.any(np.abs(term) > 1e-17 * np.abs(total)):
                break
        direct = x * np.log(x / m) + m - x
    return np.where(near, total, direct)


def beta_logpdf(a, b, x, xc):
    """log density of Beta(a, b) at x (``xc = 1 - x``); limits at 0 and 1."""
    a, b, x, xc = np.broadcast_arrays(a, b, x, xc)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # log(1 - x) from the smaller of x and 1 - x: with b = 1e12 an error of
        # 1e-16 in a complement near 1 would move the log density by 1e-4.
        log_x = np.where(x <= xc, np.log(x), np.log1p(-xc))
        log_xc = np.where(x <= xc, np.log1p(-x), np.log(xc))
        simple = (np.where(a == 1, 0.0, (a - 1) * log_x)
                  + np.where(b == 1, 0.0, (b - 1) * log_xc) - special.betaln(a, b))
        # Saddle-point form for a, b > 2 (R's dbeta via dbinom_raw) where the
        # direct form would cancel: for a + b <= 1e4 the direct form is within
        # 1e-12 (relative) of it and 25x cheaper.
        big = (a > 2) & (b > 2) & (a + b > _DIRECT_LOGPDF) & (x > 0) & (xc > 0)
        if np.any(big):
            aa, bb, xx, yy = a[big], b[big], x[big], xc[big]
            k, n = aa - 1, aa + bb - 2
            lc = (_stirlerr(n) - _stirlerr(k) - _stirlerr(n - k)
                  - _bd0(k, n * xx) - _bd0(n - k, n * yy))
            lf = 2 * _HALF_LOG_2PI + np.log(k) + np.log1p(-k / n)
            simple = simple.copy()
            simple[big] = np.log(aa + bb - 1) + lc - 0.5 * lf
    return simple


def beta_pdf(a, b, x, xc):
    with np.errstate(over="ignore"):
        return np.exp(beta_logpdf(a, b, x, xc))


def beta_dlogpdf(a, b, x, xc):
    """Derivative of the Beta log density in x."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (a - 1) / x - (b - 1) / xc


def beta_quantile(a, b, q, upper=False):
    """Quantile of Beta(a, b): P(X <= x) = q, or P(X > x) = q when ``upper``.

    Returns ``(x, 1 - x)``, both accurate (the complement is computed from
    the mirrored distribution when x > 1/2).  For ``a + b > 1e6`` scipy's
    inverse is slow and rough: a normal (Cornish-Fisher) or Gamma start is
    polished with Newton steps on the cdf instead.
    """
    a, b, q = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (a, b, q)))
    a, b, q = a.ravel(), b.ravel(), q.ravel()
    x = np.empty_like(q)
    xc = np.empty_like(q)
    large = (a + b > _POLISH) & (q > 0) & (q < 1)
    small = ~large
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if np.any(small):
            asm, bsm, qsm = a[small], b[small], q[small]
            # One inverse per element: of X where its mean is <= 1/2, of 1 - X
            # ~ Beta(b, a) elsewhere; the other side again only where the
            # first answer lands within 1e-6 of the far end (there 1 - answer
            # would lose relative digits).  Twice as fast as always computing
            # both sides.
            xs = np.empty(qsm.shape)
            xcs = np.empty(qsm.shape)

            def invert(mask, mirror):
                # X's quantile directly, or 1 - X's (Beta(b, a), other tail).
                am, bm, qm = asm[mask], bsm[mask], qsm[mask]
                if mirror:
                    xcs[mask] = (special.betaincinv(bm, am, qm) if upper
                                 else special.betainccinv(bm, am, qm))
                    xs[mask] = 1.0 - xcs[mask]
                else:
                    xs[mask] = (special.betainccinv(am, bm, qm) if upper
                                else special.betaincinv(am, bm, qm))
                    xcs[mask] = 1.0 - xs[mask]

            mirrored = asm > bsm
            direct = ~mirrored
            for mask, mirror in ((direct, False), (mirrored, True)):
                if np.any(mask):
                    invert(mask, mirror)
            for mask, mirror in ((direct & (xcs < _FAR_END), True),
                                 (mirrored & (xs < _FAR_END), False)):
                if np.any(mask):
                    invert(mask, mirror)
            xs = np.where(np.isnan(xcs), np.nan, xs)
            # scipy's inverse fails (NaN) far in a tail with a parameter far
            # below 1, e.g. betaincinv(1.001, 0.001, 1e-25): start from the
            # leading term I_x(a, b) ~ x^a / (a B(a, b)) of the tail that
            # holds q and polish.
            failed = np.isnan(xs)
            if np.any(failed):
                af, bf, qf = asm[failed], bsm[failed], qsm[failed]
                lower_tail = not upper
                side = af if lower_tail else bf
                with np.errstate(under="ignore"):
                    near = np.exp((np.log(qf) + np.log(side) + special.betaln(af, bf)) / side)
                near = np.clip(near, _TINY, 0.5)
                x0 = near if lower_tail else 1.0 - near
                xc0 = 1.0 - near if lower_tail else near
                xs[failed], xcs[failed] = _polish_quantile(af, bf, qf, x0, xc0, upper)
            x[small], xc[small] = xs, xcs
        if np.any(large):
            x[large], xc[large] = _large_quantile(a[large], b[large], q[large], upper)
        _subnormal_ends(a, b, q, upper, x, xc)
    return x, xc


def _subnormal_ends(a, b, q, upper, x, xc):
    """Quantiles within 1e-300 of an end, where scipy's inverse stops at the
    smallest normal float and Newton steps crawl: the leading term
    I_x(a, b) = x^a / (a B(a, b)) (1 + O(x)) is exact there, down into the
    subnormal floats (0 when the quantile is below the smallest of them)."""
    inside = (q > 0) & (q < 1)
    for near, other, side in ((x, xc, a), (xc, x, b)):
        index = np.flatnonzero(inside & (near < _NEAR_ZERO))
        if index.size == 0:
            continue
        # Mass below x (near = x) or above it (near = 1 - x).
        from_below = (near is x) != upper
        mass = q[index] if from_below else 1.0 - q[index]
        s = side[index]
        with np.errstate(under="ignore", divide="ignore"):
            log_near = (np.log(mass) + np.log(s) + special.betaln(a[index], b[index])) / s
            near[index] = np.exp(np.minimum(log_near, np.log(_NEAR_ZERO)))
        other[index] = 1.0


def _large_quantile(a, b, q, upper):
    """Beta quantiles for a + b > 1e6: Gamma or Cornish-Fisher start, Newton polish."""
    x = np.empty_like(q)
    xc = np.empty_like(q)
    normal = np.minimum(a, b) > 1e4
    if np.any(normal):
        an, bn, qn = a[normal], b[normal], q[normal]
        total = an + bn
        z = -special.ndtri(qn) if upper else special.ndtri(qn)
        skew = 2 * (bn - an) * np.sqrt(total + 1) / ((total + 2) * np.sqrt(an * bn))
        w = z + skew * (z * z - 1) / 6
        sd = np.sqrt(an * bn / (total * total * (total + 1)))
        x[normal] = an / total + w * sd
        xc[normal] = bn / total - w * sd
    gamma = ~normal
    if np.any(gamma):
        ag, bg, qg = a[gamma], b[gamma], q[gamma]
        left = ag <= bg
        # X ~ G_a / (G_a + b) when a is the small parameter, mirrored otherwise.
        shape = np.where(left, ag, bg)
        other = np.where(left, bg, ag)
        lower_tail = left != upper    # quantile of the small-side Gamma from below
        g = np.where(lower_tail, special.gammaincinv(shape, qg), special.gammainccinv(shape, qg))
        near = g / (g + other)
        far = other / (g + other)
        x[gamma] = np.where(left, near, far)
        xc[gamma] = np.where(left, far, near)
    x = np.clip(x, _TINY, 1.0)
    xc = np.clip(xc, _TINY, 1.0)
    return _polish_quantile(a, b, q, x, xc, upper)


def _polish_quantile(a, b, q, x, xc, upper):
    """Newton steps on the Beta cdf (large parameters, where betaincinv is rough)."""
    x, xc = x.copy(), xc.copy()
    active = np.arange(x.shape[0])
    for _ in range(12):
        if active.size == 0:
            break
        aa, bb, qq, xa, xca = a[active], b[active], q[active], x[active], xc[active]
        with np.errstate(all="ignore"):
            if upper:
                step = (beta_sf(aa, bb, xa, xca) - qq) / beta_pdf(aa, bb, xa, xca)
            else:
                step = -(beta_cdf(aa, bb, xa, xca) - qq) / beta_pdf(aa, bb, xa, xca)
        step = np.where(np.isfinite(step), step, 0.0)
        # Keep inside (0, 1): at most halfway to either end.
        step = np.clip(step, -0.5 * xa, 0.5 * xca)
        x_new = xa + step
        xc_new = xca - step
        low = x_new <= 0.5
        x[active] = np.where(low, x_new, 1.0 - xc_new)
        xc[active] = np.where(low, 1.0 - x_new, xc_new)
        # Quadratic convergence: after a step of relative size 1e-8 the error is ~1e-16.
        done = np.abs(step) <= 1e-8 * np.minimum(xa, xca)
        active = active[~done]
    return x, xc


# ---------------------------------------------------------------------------
# Quadrature over a Beta variable: E[h(V)], V ~ Beta(a, b)
# ---------------------------------------------------------------------------

N_NODES = 103
_TS_HALF_WIDTH = 3.6
_TS_STEP = 2 * _TS_HALF_WIDTH / (N_NODES - 1)
_TS_X = np.linspace(-_TS_HALF_WIDTH, _TS_HALF_WIDTH, N_NODES)
_TS_T = special.expit(np.pi * np.sinh(_TS_X))
_TS_TC = special.expit(-np.pi * np.sinh(_TS_X))
_TS_W = _TS_STEP * np.pi * np.cosh(_TS_X) * _TS_T * _TS_TC
_LT_HALF_WIDTH = 38.0
_LT_Y = np.linspace(-_LT_HALF_WIDTH, _LT_HALF_WIDTH, N_NODES - 2)
_LT_STEP = _LT_Y[1] - _LT_Y[0]


def unit_rule(tlo, thi, tlo_c, thi_c):
    """Tanh-sinh nodes on [tlo, thi] of the unit interval, shape (N, n).

    Returns (t, 1 - t, weights); complements are passed so that intervals
    near 1 keep their precision.
    """
    width = np.where(tlo > 0.5, tlo_c - thi_c, thi - tlo)
    width = np.maximum(width, 0.0)
    t = tlo + width * _TS_T[:, None]
    tc = thi_c + width * _TS_TC[:, None]
    return t, tc, width * _TS_W[:, None]


def quantile_nodes(a, b, t, tc):
    """Beta(a, b) quantiles at probabilities t (complements tc), shapes (N, n)."""
    shape = t.shape
    aa = np.broadcast_to(a, shape).ravel()
    bb = np.broadcast_to(b, shape).ravel()
    tt, ttc = t.ravel(), tc.ravel()
    lower = tt < 0.5
    v = np.empty_like(tt)
    vc = np.empty_like(tt)
    if np.any(lower):
        v[lower], vc[lower] = beta_quantile(aa[lower], bb[lower], tt[lower])
    if np.any(~lower):
        v[~lower], vc[~lower] = beta_quantile(aa[~lower], bb[~lower], ttc[~lower], upper=True)
    return v.reshape(shape), vc.reshape(shape)


# Normal-score rule: the trapezoid on z in [-8.4, 8.4], step 0.6, of
# E[h(V)] = int h(Q(Phi(z))) phi(z) dz.  For h smooth on the mass of V the
# error is below 3e-12 with 29 nodes (measured against the tanh-sinh rule on
# informedness tables with counts up to 1000; step 0.7 gives 5e-10), where
# the tanh-sinh rule needs 103.
_NS_Z = np.linspace(-8.4, 8.4, 29)
_NS_W = 0.6 * np.exp(-0.5 * _NS_Z * _NS_Z) / math.sqrt(2 * math.pi)
NS_NODES = _NS_Z.shape[0]


def normal_score_rule(a, b):
    """Nodes ``v``, ``1 - v`` (shape (29, n)) and weights (29, 1) for E[h(V)], V ~ Beta(a, b).

    The nodes are the Beta quantiles at the normal probabilities
    ``Phi(z_k)`` of an equally spaced grid, upper quantiles from the upper
    tail (complements accurate).  The first and last nodes bound all but
    about 1e-17 of the mass on each side.
    """
    n = a.shape[0]
    shape = (NS_NODES, n)
    z = np.broadcast_to(_NS_Z[:, None], shape)
    aa = np.broadcast_to(a, shape)
    bb = np.broadcast_to(b, shape)
    lower = z < 0
    v = np.empty(shape)
    vc = np.empty(shape)
    v[lower], vc[lower] = beta_quantile(aa[lower], bb[lower], special.ndtr(z[lower]))
    upper = ~lower
    v[upper], vc[upper] = beta_quantile(aa[upper], bb[upper], special.ndtr(-z[upper]),
                                        upper=True)
    return v, vc, _NS_W[:, None]


def beta_rule(a, b):
    """Nodes ``v``, ``1 - v`` and weights for E[h(V)], V ~ Beta(a, b).

    ``a`` and ``b`` are flat arrays of n elements; results have shape (N, n).
    Both rules integrate h on the whole support, with h evaluated at nodes
    that may include the endpoints 0 and 1.
    """
    n = a.shape[0]
    v = np.empty((N_NODES, n))
    vc = np.empty((N_NODES, n))
    w = np.empty((N_NODES, n))
    logit = (np.minimum(a, b) < 0.2) & (a + b < 1.2)
    ts = ~logit
    if np.any(ts):
        ones = np.ones(int(ts.sum()))
        t, tc, weights = unit_rule(0 * ones, ones, ones, 0 * ones)
        v[:, ts], vc[:, ts] = quantile_nodes(a[ts], b[ts], t, tc)
        w[:, ts] = weights
    if np.any(logit):
        al, bl = a[logit], b[logit]
        y = _LT_Y[:, None]
        logp = al * y - (al + bl) * np.logaddexp(0.0, y) - special.betaln(al, bl)
        weights = _LT_STEP * np.exp(logp)
        inner_v = special.expit(y) * np.ones_like(al)
        inner_vc = special.expit(-y) * np.ones_like(al)
        mean = al / (al + bl)
        # Endpoint weights make the rule exact for h(v) = 1 and h(v) = v.
        w0 = (1 - mean) - np.sum(weights * inner_vc, axis=0)
        w1 = mean - np.sum(weights * inner_v, axis=0)
        v[:, logit] = np.vstack([np.zeros_like(al), np.ones_like(al), inner_v])
        vc[:, logit] = np.vstack([np.ones_like(al), np.zeros_like(al), inner_vc])
        w[:, logit] = np.vstack([w0, w1, weights])
    return v, vc, w


# ---------------------------------------------------------------------------
# Vectorised root finding
# ---------------------------------------------------------------------------


def _bisection_point(lo, hi, relative):
    """Where a bisection step evaluates next: the middle of the bracket ``[lo, hi]``.

    Where the tolerance is relative only (``relative``), a root much nearer to
    0 than the bracket's far end (the quantile of a density spike at 0 can be
    1e-300, or below the smallest float) would take a thousand halvings to
    reach with its digits.  There the exponent is bisected instead: 0 where
    the bracket straddles it, the geometric mean (down to the smallest
    subnormal) where one end is more than 1e3 times nearer to 0 than the other.
    """
    mid = lo + 0.5 * (hi - lo)
    if not np.any(relative):
        return mid
    near = np.fmin(np.abs(lo), np.abs(hi))
    far = np.fmax(np.abs(lo), np.abs(hi))
    straddle = (lo < 0) & (hi > 0)
    spread = relative & ~straddle & (far > 1e3 * near)
    with np.errstate(divide="ignore", invalid="ignore"):
        geometric = np.exp(0.5 * (np.log(far) + np.log(np.maximum(near, _SMALLEST))))
    side = np.where(hi > 0, 1.0, -1.0)
    mid = np.where(spread, side * geometric, mid)
    return np.where(relative & straddle, 0.0, mid)


def solve_increasing(func, lo, hi, x0, *, xtol=0.0, rtol=1e-14, newton_rtol=1e-8,
                      accept=None, accept_rel=None, residual=1e-8, max_iter=200,
                      near_zero=False):
    """Roots of increasing functions, elementwise, by safeguarded Newton.

    ``func(x, index)`` returns ``(value, slope)`` for the flat elements
    ``index``, or ``(value, slope, curvature)`` for Halley steps (cubic
    convergence).  ``lo``/``hi`` bracket the roots.  A Newton (Halley) step
    is taken when it stays inside the bracket and shrinks fast enough
    (rtsafe rule), a bisection otherwise.  An element is done after a step
    of relative size ``newton_rtol``, or of absolute size ``accept``
    (an array over the elements) when given, capped at ``accept_rel`` times
    the distance from the nearer end of the first bracket: the error left is
    about the square (the cube for Halley) of that step on the function's
    scale.  A step is trusted only where ``|func|`` is at most ``residual``
    (a float or an array over the elements) or within four steps' worth of
    the tolerance: a density spike makes steps tiny far from the root.
    With ``near_zero``, bisection steps of the elements without an
    absolute tolerance (``xtol`` 0) bisect the exponent where the root may lie
    orders of magnitude nearer to 0 than the bracket's far end (see
    `_bisection_point`); their function must be finite all the way down.
    """
    x = np.array(x0, dtype=np.float64)
    lo = np.array(lo, dtype=np.float64)
    hi = np.array(hi, dtype=np.float64)
    x = np.clip(x, lo, hi)
    # Tolerances are relative to the distance from the nearer end of the first
    # bracket (usually the support) as well as to |x|: a root within 1e-12 of 1
    # then keeps its digits, down to one float64 step.
    lo_0, hi_0 = lo.copy(), hi.copy()
    xtol_all = np.broadcast_to(np.asarray(xtol, dtype=np.float64), x.shape)
    residual_all = np.broadcast_to(np.asarray(residual, dtype=np.float64), x.shape)
    previous = hi - lo
    active = np.arange(x.shape[0])
    for _ in range(max_iter):
        if active.size == 0:
            break
        xa = x[active]
        xtol = xtol_all[active]
        with np.errstate(invalid="ignore"):
            dist = np.fmin(np.abs(xa), np.fmin(xa - lo_0[active], hi_0[active] - xa))
        with np.errstate(all="ignore"):
            value, slope, *curvature = func(xa, active)
            lo_a = np.where(value < 0, xa, lo[active])
            hi_a = np.where(value > 0, xa, hi[active])
            step = value / slope
            newton_size = np.abs(step)    # about the distance to the root
            if curvature:
                # Halley: the Newton step divided by 1 - value f'' / (2 f'^2),
                # where that factor is sane (between 1/2 and 2).
                factor = 1.0 - 0.5 * step * curvature[0] / slope
                step = np.where((factor > 0.5) & (factor < 2.0), step / factor, step)
            newton = xa - step
            tol = np.maximum(xtol + rtol * dist, np.spacing(np.abs(xa)))
            # A Newton step below the tolerance: converged where we stand, unless the
            # residual is still large (a density spike makes the step tiny far from the
            # root); then keep bisecting.
            scale = np.where(np.isfinite(slope), 4.0 * np.abs(slope) * tol, 0.0)
            small_residual = np.abs(value) <= np.maximum(residual_all[active], scale)
            tiny_step = np.isfinite(step) & (np.abs(step) <= tol) & small_residual
            ok = (np.isfinite(newton) & (newton > lo_a) & (newton < hi_a)
                  & (np.abs(step) <= 0.5 * previous[active]))
            mid = _bisection_point(lo_a, hi_a, near_zero & (xtol == 0))
            x_new = np.where(ok, newton, mid)
            x_new = np.where(tiny_step | (value == 0), xa, x_new)
        taken = np.abs(x_new - xa)
        # A Newton step of relative size 1e-8 leaves an error near 1e-16.
        limit = xtol + newton_rtol * np.abs(x_new)
        if accept is not None:
            accepted = accept[active]
            if accept_rel is not None:
                accepted = np.fmin(accepted, accept_rel[active] * dist)
            limit = np.maximum(limit, accepted)
        quadratic = ok & small_residual & (newton_size <= limit)
        done = ((value == 0) | ~np.isfinite(value) | tiny_step | (hi_a - lo_a <= tol)
                | quadratic)
        x[active] = x_new
        lo[active] = lo_a
        hi[active] = hi_a
        previous[active] = np.where(ok, taken, hi_a - lo_a)
        active = active[~done]
    return x


def golden_max(func, lo, hi, *, iterations=80):
    """Maximiser of unimodal functions on [lo, hi], elementwise (golden section)."""
    ratio = (math.sqrt(5) - 1) / 2
    lo = np.array(lo, dtype=np.float64)
    hi = np.array(hi, dtype=np.float64)
    x1 = hi - ratio * (hi - lo)
    x2 = lo + ratio * (hi - lo)
    f1, f2 = func(x1), func(x2)
    for _ in range(iterations):
        left = f1 >= f2
        hi = np.where(left, x2, hi)
        lo = np.where(left, lo, x1)
        new_x1 = np.where(left, hi - ratio * (hi - lo), x2)
        new_x2 = np.where(left, x1, lo + ratio * (hi - lo))
        f_new = func(np.where(left, new_x1, new_x2))
        f1, f2 = np.where(left, f_new, f2), np.where(left, f1, f_new)
        x1, x2 = new_x1, new_x2
        if np.all(hi - lo <= 1e-12 * np.maximum(np.abs(hi), 1e-300)):
            break
    return np.where(f1 >= f2, x1, x2)



def log_gamma_variates(rng, shape_parameter, size):
    """log of Gamma(shape) variates, accurate for shapes far below 1.

    `shape_parameter` broadcasts to `size` (NumPy draws a broadcast parameter
    in the order of its flattened copy: the draws are the same).
    """
    shape_parameter = np.asarray(shape_parameter, dtype=np.float64)
    small = shape_parameter < 1
    with np.errstate(divide="ignore"):
        if not small.any():
            log_g = np.log(rng.standard_gamma(shape_parameter, size=size))
            _skip_uniforms(rng, size)
            return log_g
        boosted = np.where(small, shape_parameter + 1, shape_parameter)
        log_g = np.log(rng.standard_gamma(boosted, size=size))
        uniform = rng.random(size=size)
        log_g = log_g + np.where(small, np.log(uniform) / shape_parameter, 0.0)
    return log_g



def _skip_uniforms(rng, size):
    """Move `rng` past `size` uniform variates without drawing them.

    The uniforms that shapes below 1 need are skipped where no shape is below 1,
    so that every later variate is the one it would be with such shapes.  NumPy's
    default bit generator (PCG64) draws a uniform from one 64-bit step and jumps
    any number of steps at once; with a 32-bit half-word pending (which a jump
    would discard) or another bit generator, the uniforms are drawn.
    """
    bits = rng.bit_generator
    if isinstance(bits, (np.random.PCG64, np.random.PCG64DXSM)) and not bits.state[
            "has_uint32"]:
        bits.advance(math.prod(size) if isinstance(size, tuple) else int(size))
    else:
        rng.random(size=size)


def beta_variates(rng, a, b, size):
    """Beta(a, b) variates, ``X / (X + Y)`` of Gamma(a) and Gamma(b) variates.

    `a` and `b` broadcast to `size`.  With a shape below 1 the Gamma variates are
    drawn in log space (`log_gamma_variates`), where they do not underflow; the
    generator moves on by the same number of steps either way.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if (a >= 1).all() and (b >= 1).all():
        first = rng.standard_gamma(a, size=size)
        _skip_uniforms(rng, size)
        second = rng.standard_gamma(b, size=size)
        _skip_uniforms(rng, size)
        # In place: a fresh array of a million draws costs more than the division.
        np.add(first, second, out=second)
        return np.divide(first, second, out=first)
    return special.expit(log_gamma_variates(rng, a, size) - log_gamma_variates(rng, b, size))


def beta_mode(a, b):
    """Mode of Beta(a, b), an endpoint where the density is monotone or unbounded."""
    with np.errstate(divide="ignore", invalid="ignore"):
        interior = (a - 1) / (a + b - 2)
    mode = np.where((a > 1) & (b > 1), interior, np.nan)
    mode = np.where((a <= 1) & (b >= 1), 0.0, mode)
    mode = np.where((a >= 1) & (b <= 1), 1.0, mode)
    mode = np.where((a < 1) & (b < 1), np.where(a <= b, 0.0, 1.0), mode)
    return np.where((a == 1) & (b == 1), 0.5, mode)


def frozen_result(values):
    """Python float for 0-d values, a read-only float64 array otherwise (result fields)."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 0:
        return float(values)
    values = values.copy()
    values.setflags(write=False)
    return values


def result_entry(values, index):
    """Entry ``index`` of a `frozen_result` field as a float; a float field is every entry."""
    return float(np.atleast_1d(values)[index]) if np.ndim(values) else float(values)


def weighted_mean(values, weights):
    """Weighted mean along the last axis, inside the range of the values averaged.

    Numerator and denominator are summed by one route (``np.sum`` of the
    products and of the weights), never a BLAS dot product against a pairwise
    sum, whose kernels round differently from CPU to CPU.  The result is then
    clipped to the smallest and largest value of positive weight, so a mean of
    equal values is that value exactly on every machine (of ones exactly 1, of
    zeros exactly 0).

    Parameters
    ----------
    values : ndarray of shape (..., n)
    weights : ndarray of shape (n,)
        Non-negative, with a positive sum.

    Returns
    -------
    ndarray of shape (...), or a float for 1-D values
    """
    values = np.asarray(values, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    # Unit weights (a macro average): the products are the values themselves.
    products = values if np.all(weights == 1.0) else values * weights
    mean = np.sum(products, axis=-1) / np.sum(weights)
    counted = weights > 0
    if np.all(counted):
        low, high = _extremes(values, values)
    else:
        low, high = _extremes(np.where(counted, values, np.inf),
                              np.where(counted, values, -np.inf))
    return np.minimum(np.maximum(mean, low), high)


def _extremes(for_low, for_high):
    """The minimum of `for_low` and the maximum of `for_high` along the last axis."""
    return row_reduce(np.minimum, for_low), row_reduce(np.maximum, for_high)


def row_reduce(ufunc, values):
    """``ufunc.reduce(values, axis=-1)`` for a minimum or maximum (order-free).

    Many rows of a few columns (draws of labels, of regions): column by column,
    a pass over all the rows each, about four times faster than numpy's
    reductions over short rows; the same values.
    """
    values = np.asarray(values)
    if values.ndim < 2 or values.shape[-1] > 32 or values.shape[-1] < 2:
        return ufunc.reduce(values, axis=-1)
    out = values[..., 0].copy()
    for column in range(1, values.shape[-1]):
        ufunc(out, values[..., column], out=out)
    return out


# ---------------------------------------------------------------------------
# Beta moments
# ---------------------------------------------------------------------------


def beta_var(a, b):
    """Variance ``ab / ((a + b)^2 (a + b + 1))`` of Beta(a, b), without overflow."""
    total = a + b
    return (a / total) * (b / total) / (total + 1)


def beta_sd(a, b):
    """Standard deviation of Beta(a, b)."""
    return np.sqrt(beta_var(a, b))


# ---------------------------------------------------------------------------
# Conditional expectations over a Beta tail, with the one quadrature rule
# ---------------------------------------------------------------------------


def beta_tail_nodes(p, q, c, cc):
    """Nodes and weights for ``E[g(X); X > c]`` with ``X ~ Beta(p, q)``.

    ``p, q, c, cc`` are flat arrays of n elements (``cc = 1 - c``, passed so
    that thresholds near 1 keep their precision).  Returns ``x`` and
    ``xc = 1 - x`` of shape (n, N), each accurate where it is small, and the
    weights (n, N): ``E[g(X); X > c] ~= sum(g(x) * weights, axis=1)``.  The
    tanh-sinh rule of `unit_rule` runs on the probability scale from
    ``P(X <= c)`` to 1, so the weights add up to ``P(X > c)``.
    """
    below = beta_cdf(p, q, c, cc)
    mass = beta_sf(p, q, c, cc)
    t, tc, weights = unit_rule(below, np.ones_like(below), mass, np.zeros_like(below))
    x, xc = quantile_nodes(p, q, t, tc)
    # Far-tail nodes (probabilities ~1e-20 or a negligible mass) can fail to
    # invert; their weight is below the rule's accuracy.
    x = np.clip(np.nan_to_num(x, nan=0.0), 0.0, 1.0)
    xc = np.clip(np.nan_to_num(xc, nan=1.0), 0.0, 1.0)
    return x.T, xc.T, weights.T


# Below this distance from an end a Beta cdf is its leading power term to
# relative 1e-100 (times the other parameter): the integral there is closed form.
_SPIKE = 1e-100
_LOG_SPIKE = math.log(_SPIKE)


def beta_greater(a1, b1, a2, b2):
    """P(X1 > X2) for independent X1 ~ Beta(a1, b1), X2 ~ Beta(a2, b2) (flat arrays).

    ``E[F_2(X1)]`` over the narrower of the two on tanh-sinh nodes of its
    probability scale between ``1e-100`` and ``1 - 1e-100``; within 1e-100 of
    an end both cdfs are their leading power terms
    ``F(x) = x^a / (a B(a, b))`` (mirrored at 1), so those two pieces are
    closed form.  Parameters far below 1 put nearly all the mass there (a
    prior of 1e-3 on an empty cell), where nodes would underflow.
    """
    a1, b1, a2, b2 = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64)
                                           for v in (a1, b1, a2, b2)))
    shape = a1.shape
    a1, b1, a2, b2 = (v.ravel() for v in (a1, b1, a2, b2))
    outer_first = beta_var(a1, b1) <= beta_var(a2, b2)
    # P(X1 > X2) = E_1[F_2(X1)] = E_2[S_1(X2)].
    ao = np.where(outer_first, a1, a2)
    bo = np.where(outer_first, b1, b2)
    ai = np.where(outer_first, a2, a1)
    bi = np.where(outer_first, b2, b1)
    n = ao.shape[0]
    lo = np.full(n, _SPIKE)
    lo_c = 1.0 - lo
    t_lo, t_lo_c = beta_cdf(ao, bo, lo, lo_c), beta_sf(ao, bo, lo, lo_c)
    t_hi, t_hi_c = beta_cdf(ao, bo, lo_c, lo), beta_sf(ao, bo, lo_c, lo)
    t, tc, w = unit_rule(t_lo, t_hi, t_lo_c, t_hi_c)
    x, xc = quantile_nodes(ao, bo, t, tc)
    x = np.clip(np.nan_to_num(x, nan=0.5), _SPIKE, 1.0)
    xc = np.clip(np.nan_to_num(xc, nan=0.5), _SPIKE, 1.0)
    inner = np.where(outer_first, beta_cdf(ai, bi, x, xc), beta_sf(ai, bi, x, xc))
    middle = np.sum(w * inner, axis=0)
    # Near 0: E[F_i(X_o); X_o < s] = s^(a_o + a_i) / (B_o a_i B_i (a_o + a_i)).
    log_b_o, log_b_i = special.betaln(ao, bo), special.betaln(ai, bi)
    with np.errstate(under="ignore"):
        near_zero = np.exp((ao + ai) * _LOG_SPIKE - log_b_o - np.log(ai) - log_b_i
                           - np.log(ao + ai))
        near_one = np.exp((bo + bi) * _LOG_SPIKE - log_b_o - np.log(bi) - log_b_i
                          - np.log(bo + bi))
    # outer first: E_o[F_i] picks up the piece near 0 with F_i, near 1 the
    # outer's mass minus E[S_i]; outer second: E_o[S_i], the other way round.
    low_piece = np.where(outer_first, near_zero, t_lo - near_zero)
    high_piece = np.where(outer_first, t_hi_c - near_one, near_one)
    result = np.clip(middle + low_piece + high_piece, 0.0, 1.0)
    # Equal distributions: exactly 1/2 by symmetry, not the quadrature's 1/2 +- 1e-16.
    result = np.where((a1 == a2) & (b1 == b2), 0.5, result)
    return result.reshape(shape)


# Largest number of variates (draws x cells) a sampler holds at once: 32 MiB of float64.
CHUNK_VARIATES = 1 << 22


def draw_chunks(n_draws, cells, *, variates=CHUNK_VARIATES):
    """Sizes of consecutive chunks of ``n_draws`` draws of ``cells`` variates each,
    every chunk holding at most `variates` variates (at least one draw).

    The chunk sizes order the random stream (each chunk's Gamma variates, then
    its uniforms), so a sampler's seeded draws depend on its budget: the
    samplers written before this policy pass the budget they always had.
    """
    size = max(1, variates // max(1, int(cells)))
    for start in range(0, n_draws, size):
        yield min(size, n_draws - start)


def log_gamma(shapes, n_draws, rng):
    """log of Gamma(shapes) variates, shape ``(n_draws,) + shapes.shape``.

    A shape below 1 is drawn as Gamma(shape + 1) U^(1/shape) in log space,
    exact where the variate itself would underflow to 0 (a shape of 1e-3
    gives variates below 1e-300 one time in about 1.5); only the cells with
    shape below 1 pay for the uniform draws.
    """
    shapes = np.asarray(shapes, dtype=np.float64)
    flat = shapes.reshape(-1)
    small = np.flatnonzero(flat < 1)
    boosted = flat.copy()
    boosted[small] += 1.0
    log_g = np.log(rng.standard_gamma(np.broadcast_to(boosted, (n_draws, flat.size))))
    if small.size:
        with np.errstate(divide="ignore"):
            log_g[:, small] += np.log(rng.random((n_draws, small.size))) / flat[small]
    return log_g.reshape((n_draws,) + shapes.shape)


def dirichlet(alpha, n_draws, rng):
    """Draws of Dirichlet(alpha) over the last axis: shape (n_draws,) + alpha.shape.

    The variates of `log_gamma`, same stream, normalised: each draw's Gamma
    variates relative to its largest, exact for concentrations far below 1;
    cell probabilities are floored at the smallest normal float so that
    ratios of two underflowed cells stay defined.  Only the cells with
    concentration below 1 pay for the uniform draws.

    One table (``alpha`` 1-d), the usual case, goes through numpy's
    ``Generator.dirichlet`` over the boosted shapes: it draws the same Gamma
    variates in the same order as ``standard_gamma`` (its inner loop, without
    the broadcasting of an array of shapes: 20-30% faster) and divides each
    draw by its sum; a cell with concentration below 1 then takes its factor
    ``U^(1/alpha)`` and the draw is normalised again from the changed cells.
    Draws whose mass was mostly in those cells (the subtraction would cancel,
    and their new values may all underflow) are normalised in log space as
    above.  The values agree with the log-space route to about 1e-13.
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    if alpha.ndim != 1:
        log_g = log_gamma(alpha, n_draws, rng)
        log_g -= log_g.max(axis=-1, keepdims=True)
        cells = np.exp(log_g, out=log_g)
        cells /= cells.sum(axis=-1, keepdims=True)
        return np.maximum(cells, _TINY, out=cells)
    cells, scale = dirichlet_scaled(alpha, n_draws, rng)
    if scale is not None:
        cells *= scale[:, None]
    return np.maximum(cells, _TINY, out=cells)


def dirichlet_scaled(alpha, n_draws, rng, floor=False):
    """One table's draws of `dirichlet` (``alpha`` 1-d) as ``(cells, scale)``.

    The draws are ``cells * scale[:, None]``, or `cells` themselves where
    `scale` is None (no concentration below 1), before `dirichlet`'s floor:
    the same variates, without the two passes over every cell, for callers
    that only need sums of cells (they scale the sums, fewer numbers, and
    agree with sums of `dirichlet`'s draws to a few ulps).  With `floor`,
    the cells with concentration below 1, the only ones that can underflow,
    are floored so that scaled they stay at least the smallest normal float
    (as `dirichlet` floors every cell).
    """
    small = np.flatnonzero(alpha < 1)
    boosted = alpha.copy()
    boosted[small] += 1.0
    cells = rng.dirichlet(boosted, size=n_draws)
    if not small.size:
        return cells, None
    before = cells[:, small]
    with np.errstate(divide="ignore", under="ignore"):
        log_after = np.log(before)
        log_after += np.log(rng.random((n_draws, small.size))) / alpha[small]
        after = np.exp(log_after)
    # Each draw's new sum from the changed cells only.
    total = 1.0 - (before - after).sum(axis=1)
    redo = np.flatnonzero(~(total >= 1e-2))
    if floor:
        # (Rows to redo get their floor below.)
        np.maximum(after, _TINY * total[:, None], out=after)
    cells[:, small] = after
    if redo.size:
        with np.errstate(divide="ignore"):
            log_rows = np.log(cells[redo])
        log_rows[:, small] = log_after[redo]
        log_rows -= log_rows.max(axis=1, keepdims=True)
        rows = np.exp(log_rows, out=log_rows)
        rows /= rows.sum(axis=1, keepdims=True)
        if floor:
            np.maximum(rows, _TINY, out=rows)
        cells[redo] = rows
        total[redo] = 1.0
    return cells, 1.0 / total
