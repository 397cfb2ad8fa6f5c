"""Highest-density intervals: one routine for the analytic posteriors, one for draws.

Every analytic posterior's ``hdi`` is `highest_density_interval(family, params,
confidence)`, the family (duck-typed: nothing here imports above the numerics)
supplying evaluations only: ``_support``, ``_quantile_flat``, ``_logpdf_flat``,
``_dlogpdf_flat``, the ``_shape_params`` below 1 of which may give several
modes, and the optional hooks ``_hdi_newton`` (`hdi_newton` from its evaluation:
`beta_hdi_newton`, `parts_hdi_newton`), ``_hdi_sides`` (one-sided intervals),
``_hdi_gap`` (its own log-density gap, such as `beta_scale_gap`, where it knows
the interval interior) and ``_hdi_affine`` (a map of another family's).  The
routine does the rest in one place: the shortest of several candidates where a
shape parameter is below 1, the two-end Newton solve, then for what it leaves
undone the one-sided detection and the solve for the lower tail mass giving both
ends equal densities (`tail_mass_hdi`), with a polish of ends that float64
cannot resolve in tail mass.  `hdi_from_draws` is the shortest window of sorted
draws.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ._numerics import EPS, beta_dlogpdf, beta_pdf, beta_quantile, solve_increasing

__all__ = ["HDI_NEWTON_MAX", "beta_hdi_newton", "beta_scale_gap", "hdi_from_draws", "hdi_newton",
           "highest_density_interval", "parts_hdi_newton", "tail_mass_hdi"]


# Parameters (a + b) up to which the two-end Newton solve of a Beta HDI is used;
# beyond, the tail-mass solver, whose quantiles are polished for huge counts.
HDI_NEWTON_MAX = 1e6


def take_params(params, index):
    """The elements ``index`` (last axis) of a dict of flat parameter arrays."""
    return {key: value[..., index] for key, value in params.items()}


def _size(params):
    return next(iter(params.values())).shape[-1]


def highest_density_interval(family, params, confidence):
    """Highest-density intervals ``(low, high)`` of the flat elements ``params``.

    Equal end densities for a unimodal density (`_equal_density`), one-sided
    for a monotone one.  Elements with a shape parameter below 1 (several modes
    or spikes) take the shortest of that, the two one-sided intervals and the
    equal-tailed one, which is the answer without a solve where it is already as
    short as float64 resolves (the mass of a spike at 0 within 1e-300 of it).
    """
    n = _size(params)
    names = family._shape_params
    spiky = np.flatnonzero(~(np.minimum.reduce([params[k] for k in names]) >= 1)) if names \
        else np.empty(0, dtype=np.intp)
    if spiky.size == 0:
        return _equal_density(family, params, confidence)
    sub = take_params(params, spiky)
    tail = np.full(spiky.size, (1 - confidence) / 2)
    equal = (family._quantile_flat(sub, tail, False), family._quantile_flat(sub, tail, True))
    width = equal[1] - equal[0]
    collapsed = width <= 2 * np.spacing(np.fmax(np.abs(equal[0]), np.abs(equal[1])))
    solve = np.setdiff1d(np.arange(n), spiky[collapsed], assume_unique=True)
    low, high = np.full(n, np.nan), np.full(n, np.nan)
    if solve.size == n:
        low, high = _equal_density(family, params, confidence)
    elif solve.size:
        low[solve], high[solve] = _equal_density(family, take_params(params, solve), confidence)
    # A U-shaped density's equal-density ends enclose its trough; a difference of
    # two U-shaped Betas has spikes at -1, 0 and 1.
    lo, hi = family._support
    mass = np.full(spiky.size, confidence)
    candidates = [
        (low[spiky], high[spiky]),
        (np.full(spiky.size, lo), family._quantile_flat(sub, mass, False)),
        (family._quantile_flat(sub, mass, True), np.full(spiky.size, hi)),
        equal,
    ]
    lengths = np.stack([end - start for start, end in candidates])
    # By a margin: where the solved interval is right the others differ from it
    # by rounding only.  Where the solve was skipped (its interval unset) the
    # equal-tailed one is as short as float64 resolves.
    lengths[1:] *= 1 + 1e-6
    lengths[0] = np.where(np.isnan(lengths[0]), np.inf, lengths[0])
    best = np.argmin(lengths, axis=0)
    low[spiky] = np.choose(best, [start for start, _ in candidates])
    high[spiky] = np.choose(best, [end for _, end in candidates])
    return low, high


def _equal_density(family, params, confidence):
    """Equal-density (or one-sided) intervals: the family's two-end Newton solve
    (``_hdi_newton``), then `tail_mass_hdi` for the elements it leaves undone;
    an affine family (``_hdi_affine``: base, scale, shift) maps its base's."""
    if family._hdi_affine is not None:
        base, scale, shift = family._hdi_affine
        low, high = _equal_density(base, params, confidence)
        ends = (shift + scale * low, shift + scale * high)
        return np.minimum(*ends), np.maximum(*ends)
    rest = np.full(_size(params), 1.0 - confidence)
    newton = None if family._hdi_newton is None else family._hdi_newton(params, rest)
    if newton is None:
        return tail_mass_hdi(family, params, confidence)
    low, high, done = newton
    undone = np.flatnonzero(~done)
    if undone.size:
        low[undone], high[undone] = tail_mass_hdi(family, take_params(params, undone), confidence)
    return low, high


def tail_mass_hdi(family, params, confidence, generic=False):
    """Highest-density intervals of unimodal densities by the lower tail mass p.

    The family's own gap (``_hdi_gap``) solves the elements it knows to be
    interior; the others are first checked for one-sided intervals ``[lo,
    Q(c)]`` and ``[Q(1 - c), hi]`` (``_hdi_sides``, by default `_one_sided`),
    the rest solved with the generic gap (`_density_gap`) and polished.  With
    `generic` the family's hooks are left aside: the route of any density, a
    reference for the faster ones.
    """
    n = _size(params)
    rest = 1 - np.full(n, confidence)
    low, high = np.empty(n), np.empty(n)
    own = None if generic or family._hdi_gap is None else family._hdi_gap(params, rest)
    index, gap = own or (np.empty(0, dtype=np.intp), None)
    if index.size:
        low[index], high[index] = _tail_mass(family, take_params(params, index), rest[index], gap)
    others = np.setdiff1d(np.arange(n), index, assume_unique=True)
    if others.size:
        sub = params if others.size == n else take_params(params, others)
        sides = None if generic else family._hdi_sides
        low[others], high[others], interior = (_one_sided(family, sub, confidence)
                                               if sides is None else sides(sub, confidence))
        index = others[interior]
        if index.size:
            part = take_params(params, index)
            low[index], high[index] = _tail_mass(
                family, part, rest[index], _density_gap(family, part, rest[index]), polish=True)
    return low, high


def _one_sided(family, params, confidence):
    """``(low, high, interior)``: the one-sided interval where the log density at an
    end of the support is at least that at the interval's other end (the shorter
    where both are); ``interior`` where neither is."""
    lo_support, hi_support = family._support
    n = _size(params)
    c = np.full(n, confidence)
    left_end = family._quantile_flat(params, c, False)       # [lo, Q(c)]
    right_start = family._quantile_flat(params, c, True)     # [Q(1 - c), hi]
    log_lo = family._logpdf_flat(params, np.full(n, lo_support))
    log_hi = family._logpdf_flat(params, np.full(n, hi_support))
    lower_sided = log_lo >= family._logpdf_flat(params, left_end)
    upper_sided = log_hi >= family._logpdf_flat(params, right_start)
    right = ~lower_sided | (upper_sided & ((hi_support - right_start) < (left_end - lo_support)))
    low = np.where(right, right_start, lo_support)
    high = np.where(right, hi_support, left_end)
    return low, high, ~(lower_sided | upper_sided)


def _density_gap(family, params, rest):
    """The generic gap for `_tail_mass`: the log densities at ``Q(p)`` and
    ``Q_upper(rest - p)`` and the slope in p of their difference."""
    lo_support, hi_support = family._support
    tail = rest / 2
    scale = family._quantile_flat(params, tail, True) - family._quantile_flat(params, tail, False)
    scale = np.where(scale > 0, scale, EPS * (hi_support - lo_support))

    def gap(p, active):
        part = take_params(params, active)
        lower = family._quantile_flat(part, p, False)
        upper = family._quantile_flat(part, rest[active] - p, True)
        log_low = family._logpdf_flat(part, lower)
        log_high = family._logpdf_flat(part, upper)
        # d/dp log pdf(Q(p)) = (log pdf)'(Q(p)) / pdf(Q(p)), likewise at the top end.
        slope_low = family._dlogpdf_flat(part, lower, scale[active])
        slope_high = family._dlogpdf_flat(part, upper, scale[active])
        with np.errstate(all="ignore"):
            slope = slope_low * np.exp(-log_low) - slope_high * np.exp(-log_high)
        return log_low - log_high, slope

    return gap


def _tail_mass(family, params, rest, gap, polish=False):
    """The ends ``Q(p)``, ``Q_upper(rest - p)`` at the lower tail mass ``p`` in
    [0, rest] of a highest-density interval, polished (`_polish`) if asked.

    ``gap(p, index)`` returns ``(log f(Q(p)) - log f(Q_upper(rest - p)), slope)``,
    increasing in p.  Where the gap keeps its sign down to the smallest
    representable tail (a density such as ``x ** 0.001`` near 0 falls to the
    other end's level only below 1e-300), the interval starts at the end of the
    support: p is 0 (or rest), not wherever bisection stopped.
    """
    n = rest.shape[0]
    # Relative tolerances only: a tail mass of 1e-10 needs its own digits.
    prob = solve_increasing(gap, np.zeros(n), rest, 0.5 * rest)
    with np.errstate(invalid="ignore"):
        edge = np.flatnonzero((prob < 1e-9 * rest) | (rest - prob < 1e-9 * rest))
    if edge.size:
        value = np.asarray(gap(prob[edge], edge)[0], dtype=float)
        near_low = prob[edge] < 1e-9 * rest[edge]
        prob[edge[near_low & (value > 1e-8)]] = 0.0
        prob[edge[~near_low & (value < -1e-8)]] = rest[edge[~near_low & (value < -1e-8)]]
    low = family._quantile_flat(params, prob, False)
    high = family._quantile_flat(params, rest - prob, True)
    return _polish(family, params, low, high) if polish else (low, high)


def _polish(family, params, low, high, mass=1e-10):
    """Equal end densities where the tail-mass solve cannot resolve an end.

    An end where the density is huge but the end sits within 1e-20 of a
    support end (a spike there) moves by 4% for a change of one float64
    step in its tail mass: the two densities can then differ by 1e-2.  Where
    they differ by more than 1e-7 (relative), one end alone moves (by
    bisection on the logarithm of its offset) to the other's density, within a
    distance that moves the mass by at most ``mass``: first the end with
    the higher density outwards, else the other inwards.
    """
    with np.errstate(all="ignore"):
        log_low = family._logpdf_flat(params, low)
        log_high = family._logpdf_flat(params, high)
        todo = np.flatnonzero(np.isfinite(log_low) & np.isfinite(log_high)
                              & (np.abs(log_low - log_high) > 1e-7))
    if todo.size == 0:
        return low, high
    low, high = low.copy(), high.copy()
    lo_support, hi_support = family._support
    higher_is_low = log_low[todo] > log_high[todo]
    for outwards in (True, False):
        if todo.size == 0:
            break
        sub = take_params(params, todo)
        lows, highs = low[todo], high[todo]
        # The end that moves, its direction (+1: right), the density aimed at.
        move_low = higher_is_low if outwards else ~higher_is_low
        end = np.where(move_low, lows, highs)
        direction = np.where(move_low == outwards, -1.0, 1.0)
        target = np.where(move_low, log_high[todo], log_low[todo])
        with np.errstate(all="ignore"):
            here = np.where(move_low, log_low[todo], log_high[todo])
            budget = mass / np.exp(np.maximum(here, target))
            room = np.where(direction > 0, hi_support - end, end - lo_support)
            if not outwards:
                room = 0.5 * (highs - lows)
            reach = np.fmin(budget, room)
        # log f(end + direction * e^s) - target changes sign between s_lo and s_hi.
        with np.errstate(all="ignore"):
            s_hi = np.log(reach)     # NaN or -inf (no room): not moved
        s_lo = s_hi - 80.0

        def miss(s, rows, sub=sub, end=end, direction=direction, target=target):
            x = end[rows] + direction[rows] * np.exp(s)
            return family._logpdf_flat(take_params(sub, rows), x) - target[rows]

        sign = np.sign(here - target)          # > 0: the density must fall
        rows = np.arange(todo.size)
        with np.errstate(all="ignore"):
            at_hi = miss(s_hi, rows)
        found = np.isfinite(s_hi) & (np.sign(at_hi) != sign)
        for _ in range(60):
            mid = 0.5 * (s_lo + s_hi)
            with np.errstate(all="ignore"):
                value = miss(mid, rows)
            keep_low = np.sign(value) == sign
            s_lo = np.where(keep_low, mid, s_lo)
            s_hi = np.where(keep_low, s_hi, mid)
            if np.all(s_hi - s_lo < 1e-6):
                break
        s_root = 0.5 * (s_lo + s_hi)
        moved = end + direction * np.exp(s_root)
        with np.errstate(all="ignore"):
            better = np.abs(miss(s_root, rows)) < np.abs(here - target)
        done = found & better & np.isfinite(moved)
        low[todo] = np.where(done & move_low, moved, lows)
        high[todo] = np.where(done & ~move_low, moved, highs)
        todo, higher_is_low = todo[~done], higher_is_low[~done]
    return low, high


def hdi_newton(evaluate, low, high, rest, *, support=(0.0, 1.0), low_c=None, high_c=None,
               rtol=1e-8, max_steps=40, step_mass=False):
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
    of that scale.  The mass equation must hold to 1e-9 as well, or, where
    `step_mass` (a bool, or a mask over the elements: smooth near-normal
    densities only) is set, to what steps of that size change it (``4 rtol
    (f(l) scale_l + f(u) scale_u)``): then a start within `rtol` of its scale
    settles in one evaluation.  Returns ``(low, high, done)``; where ``done`` is False
    (a step leaving the support or crossing the ends, a density of 0, no
    convergence in `max_steps`) the caller solves otherwise.
    """
    lo_support, hi_support = support
    tracked = low_c is not None and high_c is not None
    low, high = np.array(low, dtype=float), np.array(high, dtype=float)
    low_c = hi_support - low if low_c is None else np.array(low_c, dtype=float)
    high_c = hi_support - high if high_c is None else np.array(high_c, dtype=float)
    done = np.zeros(low.shape, dtype=bool)
    step_mass = np.broadcast_to(step_mass, low.shape)
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
            mass_tol = np.where(step_mass[active],
                                np.fmax(1e-9, 4 * rtol * (f_l * scale_l + f_u * scale_u)), 1e-9)
            converged = keep & (damp == 1.0) & (np.abs(step_l) <= rtol * scale_l + floor_l) \
                & (np.abs(step_u) <= rtol * scale_u + floor_u) \
                & (np.abs(mass) <= mass_tol) & (np.abs(gap) <= 1e-4)
            done[active[converged]] = True
            active = active[keep & ~converged]
    return low, high, done


def beta_hdi_newton(a, b, rest):
    """Highest-density intervals of Beta(a, b) by `hdi_newton`.

    Each step costs two incomplete Beta functions: ``1 - I(u)`` as
    ``I_{1 - u}(b, a)``, exact (scipy's ``betaincc`` is ten to a hundred times
    slower near the median), and the log densities' difference without
    cancellation at large counts.  Returns ``(low, high, done)``: where
    ``done`` is False (a parameter up to 1, a + b beyond `HDI_NEWTON_MAX`, an
    end within 1e-300 of 0, or no convergence) the caller solves otherwise.
    """
    low, low_c = beta_quantile(a, b, rest / 2)
    high, high_c = beta_quantile(a, b, rest / 2, upper=True)
    done = np.zeros(a.shape, dtype=bool)
    index = np.flatnonzero((a > 1) & (b > 1) & (a + b <= HDI_NEWTON_MAX) & (low > 1e-300)
                           & (high_c > 1e-300))
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


def beta_scale_gap(a, b, rest, f1=False):
    """The log-density gap of `tail_mass_hdi` for Beta(a, b), a, b > 1, or with `f1`
    for ``F1 = 2B / (1 + B)``, B ~ Beta(a, b), on the Beta's probability scale.

    From the quantiles with their complements, without the normalising
    constant: no cancellation for counts up to 1e12.  F1 adds the Jacobian's
    ``2 log(1 + B)`` and takes every difference on the accurate side of 1/2, so
    that intervals within 1e-12 of 1 keep their digits.
    """

    def gap(prob, active):
        aa, bb = a[active], b[active]
        lower, lower_c = beta_quantile(aa, bb, prob)
        upper, upper_c = beta_quantile(aa, bb, rest[active] - prob, upper=True)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            diff = np.where(lower > 0.5, lower_c - upper_c, upper - lower) if f1 else upper - lower
            value = (aa - 1) * np.log1p(-diff / upper) + (bb - 1) * np.log1p(diff / upper_c)
            slope_low = beta_dlogpdf(aa, bb, lower, lower_c)
            slope_high = beta_dlogpdf(aa, bb, upper, upper_c)
            if f1:
                value = value + 2.0 * np.log1p(-diff / (1.0 + upper))
                slope_low = slope_low + 2.0 / (1.0 + lower)
                slope_high = slope_high + 2.0 / (1.0 + upper)
            slope = (slope_low / beta_pdf(aa, bb, lower, lower_c)
                     - slope_high / beta_pdf(aa, bb, upper, upper_c))
        return value, slope

    return gap


def parts_hdi_newton(family, params, rest, start=None):
    """Highest-density intervals by `hdi_newton` from ``family._parts`` (cdf, sf,
    density and its slope at both ends, the exact posteriors' evaluation).

    From ``family._interval_start`` (or `start`) one or two steps settle a
    smooth unimodal density from a close start (a difference's Cornish-Fisher
    interval), three to five from a rough one; an element settles after a step
    below 1e-5 of its scale (the error is then near 1e-10 of it).  Returns ``(low, high, done)``:
    a monotone density (the interval starts at an end) is left undone.
    """
    low, high = family._interval_start(params, rest / 2) if start is None else start

    def evaluate(active, lo_a, _lc, hi_a, _uc):
        part = take_params(params, active)
        cdf, _, f_lo, df_lo = family._parts(part, lo_a, (0, 2, 3))
        _, sf, f_hi, df_hi = family._parts(part, hi_a, (1, 2, 3))
        return (np.log(f_lo) - np.log(f_hi), rest[active] - cdf - sf, df_lo / f_lo,
                df_hi / f_hi, f_lo, f_hi)

    # Every shape parameter at least 10: near-normal, the mass trusted to the step.
    near_normal = np.minimum.reduce([params[name] for name in family._shape_params]) >= 10
    return hdi_newton(evaluate, low, high, rest, support=family._support, rtol=1e-5,
                      step_mass=near_normal)


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
