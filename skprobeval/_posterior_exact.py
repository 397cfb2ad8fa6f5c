"""Exact posteriors defined through quadrature, or as maps of other posteriors.

`FBetaPosterior`
    F-beta.  ``F1 = 2B / (1 + B)`` with ``B ~ Beta(tp, fp + fn)`` exactly;
    for ``beta != 1``, ``P(F_beta <= f) = E_v[I_{g(v)}(a, b + c)]`` with
    ``v ~ Beta(c, b)`` independent, a one-dimensional integral on the
    numerics kernel's nodes (the theory chapter derives both).
`DifferencePosterior`
    Difference of two independent Beta variables (informedness
    ``tpr - fpr``, markedness ``ppv - (1 - npv)``):
    ``cdf(j) = E_X[P(Y >= X - j)]``, one-dimensional quadrature.
`AffinePosterior`
    ``shift + scale * M`` of one of these (E-measure ``1 - F_beta``,
    balanced accuracy ``(1 + J) / 2``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ._numerics import (
    EPS,
    N_NODES,
    NS_NODES,
    beta_cdf,
    beta_cumulants,
    beta_dlogpdf,
    beta_greater,
    beta_pdf,
    beta_quantile,
    beta_rule,
    beta_sf,
    beta_var,
    cornish_fisher,
    golden_max,
    log_gamma_variates,
    normal_score_rule,
    quantile_nodes,
    solve_increasing,
    unit_rule,
)
from ._posterior import (
    BetaPosterior,
    _check_parameter,
    _fmt,
    _frozen,
    _hdi_tail_mass,
    _Posterior,
    _take,
)
from ._validation import check_positive, fail

__all__ = ["AffinePosterior", "DifferencePosterior", "FBetaPosterior"]

_NS_WEIGHTS = normal_score_rule(np.ones(1), np.ones(1))[2]
# Smallest parameter for which quantile steps stop early (see _solve_quantile).
_NEAR_NORMAL = 10.0
# Smallest fn, fp for F-beta's normal-score rule (see FBetaPosterior._kernel_rule).
_SHORT_RULE_MIN = 10.0
# Seven of its rows (normal scores 0, +-1.2, +-2.4, +-3.6) and the weights that
# integrate 1, z^2, z^4 and z^6 against the normal density exactly there: the
# root of F-beta's cdf on them is within 4e-5 standard deviations of the full
# rule's (median 4e-8; five nodes give 3e-3), a start that one Halley step on
# all nodes finishes.
_COARSE_ROWS = [8, 10, 12, 14, 16, 18, 20]
_COARSE_HALF = np.linalg.solve(
    [[1.0, 2.0, 2.0, 2.0]] + [[0.0] + [2 * z ** k for z in (1.2, 2.4, 3.6)] for k in (2, 4, 6)],
    [1.0, 1.0, 3.0, 15.0])
_COARSE_WEIGHTS = _COARSE_HALF[[3, 2, 1, 0, 1, 2, 3]][:, None]


def _f1_of(b, bc):
    """F1 = 2B / (1 + B), through ``1 - F1 = (1 - B) / (1 + B)`` near 1."""
    return np.where(b > 0.5, 1.0 - bc / (1.0 + b), 2.0 * b / (1.0 + b))


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



# ---------------------------------------------------------------------------
# F-beta
# ---------------------------------------------------------------------------

_CHUNK_ELEMENTS = 96   # elements per block in the two-dimensional moment rule


class FBetaPosterior(_Posterior):
    """Exact posterior of F-beta.

    With Gamma variates X ~ Γ(tp), Y ~ Γ(fp), Z ~ Γ(fn) (the Dirichlet
    posterior's TP, FP, FN cells),
    ``F = (1 + β²) X / ((1 + β²) X + β² Z + Y)``.

    * ``beta == 1``: with ``B = X / (X + Y + Z) ~ Beta(tp, fp + fn)``,
      ``F1 = 2B / (1 + B)``, so ``cdf(f) = I_{f/(2-f)}(tp, fp + fn)`` and
      ``ppf(q) = 2 b_q / (1 + b_q)`` exactly; the mode is the root of
      ``2x² + (2 tp + fp + fn - 5) x - 2 (tp - 1) = 0``.
    * ``beta != 1``: with ``u ~ Beta(tp, fp + fn)`` and an independent
      ``v ~ Beta(fn, fp)``, ``P(F <= f) = E_v[I_{g(v)}(tp, fp + fn)]``,
      ``g = r / (1 + r)``, ``r = f (1 + (β² - 1) v) / ((1 + β²)(1 - f))``:
      a one-dimensional integral on fixed nodes (about 1e-12 accurate;
      29 normal-score nodes where ``fn, fp >= 10``, 103 tanh-sinh nodes
      elsewhere).  Quantiles by bracketed Halley steps on the cdf, started on
      a seven-node sub-rule; the highest-density interval by Newton steps on
      both ends at once.

    Moments use quadrature over the same nodes (one-dimensional for F1, a
    product rule for F-beta).

    Parameters
    ----------
    tp, fp, fn : array-like of float
        Dirichlet posterior concentrations of the true positive, false
        positive and false negative cells: the counts plus the prior λ.
        Finite and > 0, broadcast to one shape.
    beta : float, default=1.0
        Weight of recall (> 0).

    See Also
    --------
    fbeta_posterior : The posterior from labels.

    Examples
    --------
    >>> from skprobeval import FBetaPosterior
    >>> f1 = FBetaPosterior(8 + 0.5, 2 + 0.5, 4 + 0.5)   # TP=8, FP=2, FN=4, λ=1/2
    >>> f1
    FBetaPosterior(beta=1.0, tp=8.5, fp=2.5, fn=4.5)
    >>> round(f1.mean(), 4), round(f1.mode(), 4)
    (0.7, 0.7329)
    >>> f1.interval(0.95)
    CredibleInterval(low=0.4687, high=0.8757)
    >>> f2 = FBetaPosterior(8.5, 2.5, 4.5, beta=2.0)
    >>> round(f2.cdf(0.7), 4), round(f2.median(), 4)
    (0.5687, 0.6795)
    """

    __slots__ = ("_tp", "_fp", "_fn", "_beta", "_cache")
    _shape_params = ("tp", "fp", "fn")

    def __init__(self, tp, fp, fn, *, beta=1.0):
        beta = check_positive(beta, "beta")
        cells = [_check_parameter(v, name) for v, name in ((tp, "tp"), (fp, "fp"), (fn, "fn"))]
        try:
            cells = np.broadcast_arrays(*cells)
        except ValueError:
            shapes = ", ".join(str(c.shape) for c in cells)
            raise ValueError(f"`tp`, `fp` and `fn` must broadcast to one shape; got {shapes}.") \
                from None
        self._tp, self._fp, self._fn = (_frozen(c) for c in cells)
        self._beta = beta
        self._cache = {}

    @property
    def tp(self):
        """Concentration of the true positive cell (count + prior)."""
        return self._tp

    @property
    def fp(self):
        """Concentration of the false positive cell."""
        return self._fp

    @property
    def fn(self):
        """Concentration of the false negative cell."""
        return self._fn

    @property
    def beta(self):
        """Weight of recall."""
        return self._beta

    @property
    def shape(self):
        """Shape of the parameter arrays."""
        return self._tp.shape

    def __getitem__(self, index):
        return FBetaPosterior(self._tp[index], self._fp[index], self._fn[index], beta=self._beta)

    def __repr__(self):
        return (f"FBetaPosterior(beta={_fmt(self._beta)}, tp={_fmt(self._tp)}, "
                f"fp={_fmt(self._fp)}, fn={_fmt(self._fn)})")

    @property
    def _is_f1(self):
        return self._beta == 1.0

    def _rule(self):
        """Quadrature nodes over v ~ Beta(fn, fp) for every element (cached)."""
        if "rule" not in self._cache:
            v, vc, w = beta_rule(self._fn.ravel(), self._fp.ravel())
            shape = (N_NODES,) + self.shape
            self._cache["rule"] = (v.reshape(shape), vc.reshape(shape), w.reshape(shape))
        return self._cache["rule"]

    def _kernel_rule(self):
        """Nodes over v ~ Beta(fn, fp) for the distribution functions (cached).

        The 29-node normal-score rule where ``fn, fp >= 10`` (cdf within 1e-13
        of the 103-node rule; 5e-11 from 3 to 10, 6e-8 from 1 to 3, measured on
        random tables with beta 2 and 1/2), the 103-node tanh-sinh rule elsewhere;
        both stored in (103, n) arrays, the short rule in the first rows.
        """
        if "kernel_rule" not in self._cache:
            fn, fp = self._fn.ravel(), self._fp.ravel()
            short = np.minimum(fn, fp) >= _SHORT_RULE_MIN
            v = np.zeros((N_NODES, fn.shape[0]))
            vc = np.ones_like(v)
            w = np.zeros_like(v)
            if np.any(short):
                rows = slice(0, NS_NODES)
                v[rows, short], vc[rows, short], w[rows, short] = normal_score_rule(
                    fn[short], fp[short])
            if np.any(~short):
                v[:, ~short], vc[:, ~short], w[:, ~short] = beta_rule(fn[~short], fp[~short])
            shape = (N_NODES,) + self.shape
            self._cache["kernel_rule"] = (v.reshape(shape), vc.reshape(shape), w.reshape(shape),
                                          short.reshape(self.shape))
        return self._cache["kernel_rule"]

    def _params(self, shape):
        params = {name: np.broadcast_to(getattr(self, "_" + name), shape).ravel()
                  for name in ("tp", "fp", "fn")}
        if not self._is_f1:
            full = (N_NODES,) + tuple(shape)
            aligned = (N_NODES,) + (1,) * (len(shape) - len(self.shape)) + self.shape
            *rule, short = self._kernel_rule()
            for name, value in zip(("v", "vc", "w"), rule):
                params[name] = np.broadcast_to(value.reshape(aligned), full).reshape(N_NODES, -1)
            params["short"] = np.broadcast_to(short, shape).ravel()
        return params

    # -- kernels ------------------------------------------------------------

    def _parts(self, p, x, which=(0, 1, 2)):
        """(cdf, sf, pdf, d pdf / dx) at x in [0, 1] (flat arrays); None where not asked."""
        a, b2 = p["tp"], p["fp"] + p["fn"]
        xc = 1.0 - x
        out = [None] * 4
        if self._is_f1:
            y = x / (2.0 - x)
            yc = 2.0 * xc / (2.0 - x)
            with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
                if 0 in which:
                    out[0] = beta_cdf(a, b2, y, yc)
                if 1 in which:
                    out[1] = beta_sf(a, b2, y, yc)
                if 2 in which or 3 in which:
                    density = beta_pdf(a, b2, y, yc) * 2.0 / (2.0 - x) ** 2
                    out[2] = density
                    if 3 in which:
                        out[3] = density * ((a - 1) / x - (b2 - 1) / xc + (a + b2) / (2 - x))
            return tuple(out)
        for part in which:
            out[part] = np.empty(x.shape)
        short = p["short"]
        for columns, rows in ((short, slice(0, NS_NODES)), (~short, slice(None))):
            index = np.flatnonzero(columns)
            if index.size:
                values = self._parts_nodes(a[index], b2[index], p["v"][rows, index],
                                           p["w"][rows, index], x[index], xc[index], which)
                for part in which:
                    out[part][index] = values[part]
        return tuple(out)

    def _parts_nodes(self, a, b2, v, w, x, xc, which):
        """The parts of F-beta as sums over nodes ``v`` (weights ``w``) of Beta(fn, fp)."""
        weight = 1.0 + self._beta ** 2
        k = 1.0 + (self._beta ** 2 - 1.0) * v
        numerator = x * k
        rest = weight * xc
        total = numerator + rest
        out = [None] * 4
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            g, gc = numerator / total, rest / total
            if 0 in which:
                out[0] = np.sum(w * beta_cdf(a, b2, g, gc, quick=True), axis=0)
            if 1 in which:
                out[1] = np.sum(w * beta_sf(a, b2, g, gc, quick=True), axis=0)
            if 2 in which or 3 in which:
                # g'(x) = k W / total^2 and g''(x) = -2 k W (k - W) / total^3.
                slope = k * weight / total ** 2
                base = beta_pdf(a, b2, g, gc)
                density = base * slope
                usable = w > 0
                out[2] = np.sum(np.where(usable, w * density, 0.0), axis=0)
                if 3 in which:
                    curvature = -2.0 * slope * (k - weight) / total
                    dlog = np.where((g > 0) & (gc > 0), (a - 1) / g - (b2 - 1) / gc, 0.0)
                    change = base * (dlog * slope * slope + curvature)
                    out[3] = np.sum(np.where(usable, w * change, 0.0), axis=0)
        return out

    def _evaluate(self, p, x, which):
        inside = (x >= 0) & (x <= 1)
        xx = np.where(inside, x, 0.5)
        value = self._parts(p, xx, (which,))[which]
        if which == 0:
            outside = np.where(x < 0, 0.0, 1.0)
        elif which == 1:
            outside = np.where(x < 0, 1.0, 0.0)
        else:
            outside = np.zeros_like(x)
        return np.where(np.isnan(x), np.nan, np.where(inside, value, outside))

    def _cdf_flat(self, p, x):
        return np.clip(self._evaluate(p, x, 0), 0.0, 1.0)

    def _sf_flat(self, p, x):
        return np.clip(self._evaluate(p, x, 1), 0.0, 1.0)

    def _logpdf_flat(self, p, x):
        with np.errstate(divide="ignore"):
            return np.log(self._evaluate(p, x, 2))

    def _dlogpdf_flat(self, p, x, scale):
        if not self._is_f1:
            return super()._dlogpdf_flat(p, x, scale)
        a, b2 = p["tp"], p["fp"] + p["fn"]
        with np.errstate(divide="ignore", invalid="ignore"):
            return (a - 1) / x - (b2 - 1) / (1 - x) + (a + b2) / (2 - x)

    def _quantile_flat(self, p, q, upper):
        a, b2 = p["tp"], p["fp"] + p["fn"]
        y, yc = beta_quantile(a, b2, q, upper)
        if self._is_f1:
            return _f1_of(y, yc)
        # Start from the F1-like map with v at its mean, then solve on the cdf.
        weight = 1.0 + self._beta ** 2
        v_mean = p["fn"] / (p["fn"] + p["fp"])
        k = 1.0 + (self._beta ** 2 - 1.0) * v_mean
        guess = weight * y / (weight * y + yc * k)
        # Scale: the Beta's standard deviation through the map's slope at its mean.
        mean = a / (a + b2)
        slope = weight * k / (weight * mean + (1 - mean) * k) ** 2
        scale = np.sqrt(beta_var(a, b2)) * slope
        near_normal = p["short"] & (a >= _NEAR_NORMAL)
        # F = wY / (wY + (1 - Y) k(v)) decreases in k, which lies between 1 and
        # beta**2: the same map of Y's quantile at either end of k brackets F's
        # quantile (a bracket of width 0 where Y's quantile underflows to 0).
        k_lo, k_hi = min(1.0, self._beta ** 2), max(1.0, self._beta ** 2)
        lo = weight * y / (weight * y + yc * k_hi)
        hi = weight * y / (weight * y + yc * k_lo)
        # The root on seven nodes first (a quarter of the cost), then on all.
        guess = _solve_quantile(self, self._coarse(p), q, upper, guess, lo, hi, scale,
                                near_normal)
        return _solve_quantile(self, p, q, upper, guess, lo, hi, scale, near_normal)

    def _coarse(self, p):
        """The parameters with a seven-node rule over v, for starting points.

        Seven nodes of the normal-score rule with moment-matched weights; v at
        its mean for the elements on the 103-node rule.
        """
        short = p["short"]
        v = np.where(short, p["v"][_COARSE_ROWS], (p["fn"] / (p["fn"] + p["fp"])))
        w = np.broadcast_to(_COARSE_WEIGHTS, v.shape)
        coarse = dict(p)
        coarse.update(v=v, vc=1.0 - v, w=w, short=np.zeros_like(short))
        return coarse

    def _interval_start(self, p, tail):
        """The F1-like map of the Beta(tp, fp + fn) quantiles with v at its mean."""
        a, b2 = p["tp"], p["fp"] + p["fn"]
        weight = 1.0 + self._beta ** 2
        k = 1.0 + (self._beta ** 2 - 1.0) * p["fn"] / (p["fn"] + p["fp"])
        ends = []
        for upper in (False, True):
            y, yc = beta_quantile(a, b2, tail, upper)
            ends.append(weight * y / (weight * y + yc * k))
        return tuple(ends)

    def _hdi_flat(self, params, confidence):
        if self._is_f1:
            return self._f1_hdi(params, confidence)
        start = _hdi_newton(self, self._coarse(params), confidence, fallback=False)
        return _hdi_newton(self, params, confidence, start=start)

    def _f1_hdi(self, p, confidence):
        """F1's highest-density interval on the probability scale of B ~ Beta(tp, fp + fn).

        With ``tp, fp + fn > 1`` the density of F1 is zero at both ends and
        unimodal (log-concave in B), so the interval has equal density at
        both ends: solved for the lower tail mass p as the Beta's, with the
        Jacobian of ``F1 = 2B / (1 + B)`` (``log f_F = log f_B + 2 log(1 + B)
        + const``), every difference taken on the accurate side of 1/2 so
        that intervals within 1e-12 of 1 keep their digits.  Monotone or
        unbounded densities take the generic route.
        """
        a, b2 = p["tp"], p["fp"] + p["fn"]
        interior = (a > 1) & (b2 > 1)
        low = np.empty(a.shape)
        high = np.empty(a.shape)
        other = np.flatnonzero(~interior)
        if other.size:
            low[other], high[other] = _Posterior._hdi_flat(self, _take(p, other), confidence)
        index = np.flatnonzero(interior)
        if index.size == 0:
            return low, high
        ai, bi = a[index], b2[index]
        rest = np.full(index.size, 1.0 - confidence)

        def log_slope(x, xc):
            # d/dB log f_F(B): the Beta's log-density slope plus 2 / (1 + B).
            return (ai_ - 1) / x - (bi_ - 1) / xc + 2.0 / (1.0 + x)

        def gap(prob, active):
            nonlocal ai_, bi_
            ai_, bi_ = ai[active], bi[active]
            lower, lower_c = beta_quantile(ai_, bi_, prob)
            upper, upper_c = beta_quantile(ai_, bi_, rest[active] - prob, upper=True)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                diff = np.where(lower > 0.5, lower_c - upper_c, upper - lower)
                value = ((ai_ - 1) * np.log1p(-diff / upper) + (bi_ - 1) * np.log1p(diff / upper_c)
                         + 2.0 * np.log1p(-diff / (1.0 + upper)))
                slope = (log_slope(lower, lower_c) / beta_pdf(ai_, bi_, lower, lower_c)
                         - log_slope(upper, upper_c) / beta_pdf(ai_, bi_, upper, upper_c))
            return value, slope

        ai_, bi_ = ai, bi
        prob = _hdi_tail_mass(gap, rest)
        low[index] = _f1_of(*beta_quantile(ai, bi, prob))
        high[index] = _f1_of(*beta_quantile(ai, bi, rest - prob, upper=True))
        return low, high

    # -- moments --------------------------------------------------------------

    def _moments(self):
        if "moments" in self._cache:
            return self._cache["moments"]
        a = self._tp.ravel()
        b2 = (self._fp + self._fn).ravel()
        u, uc, wu = beta_rule(a, b2)
        n = a.shape[0]
        mean = np.empty(n)
        var = np.empty(n)
        if self._is_f1:
            values = 2.0 * u / (1.0 + u)
            mean[:] = np.sum(wu * values, axis=0)
            var[:] = np.sum(wu * (values - mean) ** 2, axis=0)
        else:
            v, _, wv = (r.reshape(N_NODES, -1) for r in self._rule())
            weight = 1.0 + self._beta ** 2
            for start in range(0, n, _CHUNK_ELEMENTS):
                block = slice(start, start + _CHUNK_ELEMENTS)
                k = 1.0 + (self._beta ** 2 - 1.0) * v[None, :, block]
                top = weight * u[:, None, block]
                with np.errstate(invalid="ignore"):
                    values = top / (top + uc[:, None, block] * k)
                w2 = wu[:, None, block] * wv[None, :, block]
                m = np.sum(w2 * values, axis=(0, 1))
                mean[block] = m
                var[block] = np.sum(w2 * (values - m) ** 2, axis=(0, 1))
        result = (np.clip(mean, 0.0, 1.0).reshape(self.shape),
                  np.maximum(var, 0.0).reshape(self.shape))
        self._cache["moments"] = result
        return result

    def _mean_array(self):
        return self._moments()[0]

    def _var_array(self):
        return self._moments()[1]

    def _mode_array(self):
        a = self._tp.ravel()
        b2 = (self._fp + self._fn).ravel()
        u_shaped_high = (a < 1) & (b2 < 1) & (a > b2)
        if self._is_f1:
            linear = 2 * a + b2 - 5
            constant = 2 * (a - 1)
            with np.errstate(divide="ignore", invalid="ignore"):
                root = np.sqrt(linear * linear + 8 * constant)
                interior = np.where(linear >= 0, 2 * constant / (linear + root),
                                    (root - linear) / 4)
            mode = np.clip(np.where(np.isfinite(interior), interior, 0.0), 0.0, 1.0)
        else:
            params = self._params(self.shape)
            n = a.shape[0]
            lo = self._quantile_flat(params, np.full(n, 1e-12), False)
            hi = self._quantile_flat(params, np.full(n, 1e-12), True)
            mode = golden_max(lambda x: self._logpdf_flat(params, x), lo, hi)
            # A finite density at an endpoint (tp == 1 or fp + fn == 1) may beat it.
            best = self._logpdf_flat(params, mode)
            for end in (0.0, 1.0):
                value = self._logpdf_flat(params, np.full(n, end))
                mode = np.where(value > best, end, mode)
                best = np.maximum(best, value)
        mode = np.where(a < 1, 0.0, mode)
        mode = np.where((b2 < 1) & (a >= 1), 1.0, mode)
        mode = np.where(u_shaped_high, 1.0, mode)
        return mode.reshape(self.shape)

    def _rvs_flat(self, p, rng):
        shape = p["tp"].shape
        log_x = log_gamma_variates(rng, p["tp"], shape)
        log_y = log_gamma_variates(rng, p["fp"], shape)
        log_z = log_gamma_variates(rng, p["fn"], shape)
        weight = 1.0 + self._beta ** 2
        log_top = math.log(weight) + log_x
        log_rest = np.logaddexp(2 * math.log(self._beta) + log_z, log_y)
        return special.expit(log_top - log_rest)


# ---------------------------------------------------------------------------
# Difference of two independent Beta variables
# ---------------------------------------------------------------------------


_NS_OUTER_MIN = 8.0   # smallest outer parameter on the normal-score nodes
_KINK_MASS = 1e-40    # largest outer mass beyond a kink on the full-range nodes


class DifferencePosterior(_Posterior):
    """Posterior of ``first - second`` for independent Beta posteriors.

    Informedness ``J = tpr - fpr`` with ``tpr ~ Beta(TP + λ, FN + λ)`` and
    ``fpr ~ Beta(FP + λ, TN + λ)``; markedness ``ppv + npv - 1 =
    ppv - (1 - npv)`` with ``ppv ~ Beta(TP + λ, FP + λ)`` and
    ``1 - npv ~ Beta(FN + λ, TN + λ)``.  The cdf is the
    one-dimensional integral ``E_O[F_I(O ± x)]`` over the narrower of the two
    variables (``O``): on 29 cached nodes at the Beta quantiles of equally
    spaced normal scores where the inner argument stays inside [0, 1] over
    the outer's mass (and every parameter is >= 1), otherwise on tanh-sinh
    nodes split where the inner argument leaves [0, 1], so that the
    integrand is smooth on each piece.  Quantiles start at the
    Cornish-Fisher quantile and take Halley steps.  Mean and variance are closed
    form: ``E = E[first] - E[second]``, ``Var = Var[first] + Var[second]``.
    ``prob_greater(0)`` is the probability of doing better than chance.

    Parameters
    ----------
    first, second : BetaPosterior
        Independent posteriors with parameters that broadcast together.

    References
    ----------
    .. [1] D. M. W. Powers, "Recall & Precision versus the Bookmaker", 2003.

    Examples
    --------
    Powers' half-informed table (TP=21, FP=14, FN=9, TN=56), λ = 1/2:

    >>> from skprobeval import BetaPosterior, DifferencePosterior
    >>> tpr = BetaPosterior(21.5, 9.5)
    >>> fpr = BetaPosterior(14.5, 56.5)
    >>> informedness = DifferencePosterior(tpr, fpr)
    >>> informedness
    DifferencePosterior(first=BetaPosterior(a=21.5, b=9.5), second=BetaPosterior(a=14.5, b=56.5))
    >>> round(informedness.mean(), 4)
    0.4893
    >>> informedness.interval(0.95)
    CredibleInterval(low=0.2948, high=0.6626)
    >>> round(informedness.prob_greater(0.0), 6)
    1.0
    """

    __slots__ = ("_first", "_second", "_cache")
    _shape_params = ("a1", "b1", "a2", "b2")
    _support = (-1.0, 1.0)

    def __init__(self, first, second):
        for value, name in ((first, "first"), (second, "second")):
            if not isinstance(value, BetaPosterior):
                fail(name, "a BetaPosterior", value, error=TypeError)
        try:
            shape = np.broadcast_shapes(first.shape, second.shape)
        except ValueError:
            raise ValueError(
                f"`first` and `second` must broadcast to one shape; got {first.shape} and "
                f"{second.shape}."
            ) from None
        self._first = BetaPosterior(np.broadcast_to(first.a, shape),
                                    np.broadcast_to(first.b, shape))
        self._second = BetaPosterior(np.broadcast_to(second.a, shape),
                                     np.broadcast_to(second.b, shape))
        self._cache = {}

    @property
    def first(self):
        """Posterior of the first term."""
        return self._first

    @property
    def second(self):
        """Posterior of the subtracted term."""
        return self._second

    @property
    def shape(self):
        """Shape of the parameter arrays."""
        return self._first.shape

    def __getitem__(self, index):
        return DifferencePosterior(self._first[index], self._second[index])

    def __repr__(self):
        return f"DifferencePosterior(first={self._first!r}, second={self._second!r})"

    def _params(self, shape, with_rule=True):
        a1, b1, a2, b2 = (np.broadcast_to(v, shape).ravel() for v in (
            self._first.a, self._first.b, self._second.a, self._second.b))
        # X1 - X2 = (1 - X2) - (1 - X1), with 1 - Xi ~ Beta(bi, ai): where the two
        # variables lean towards 1, work with the complements, whose values near
        # 0 keep their relative precision (float64 has 1e-16 steps next to 1).
        flip = a1 / (a1 + b1) + a2 / (a2 + b2) > 1.0
        params = {"a1": np.where(flip, b2, a1), "b1": np.where(flip, a2, b1),
                  "a2": np.where(flip, b1, a2), "b2": np.where(flip, a1, b2)}
        if with_rule:
            full = (NS_NODES,) + tuple(shape)
            aligned = (NS_NODES,) + (1,) * (len(shape) - len(self.shape)) + self.shape
            for name, value in zip(("o", "oc"), self._rule()):
                params[name] = np.broadcast_to(value.reshape(aligned), full).reshape(NS_NODES, -1)
            slot = self._full_rule()[0]
            params["slot"] = np.broadcast_to(
                slot.reshape(aligned[1:]), tuple(shape)).ravel()
        return params

    def _mean_array(self):
        return self._first._mean_array() - self._second._mean_array()

    def _var_array(self):
        return self._first._var_array() + self._second._var_array()

    @staticmethod
    def _split(p):
        """Outer (narrower) and inner variables, and the sign s in x_inner = o + s j."""
        a1, b1, a2, b2 = p["a1"], p["b1"], p["a2"], p["b2"]
        outer_second = beta_var(a2, b2) <= beta_var(a1, b1)
        sign = np.where(outer_second, 1.0, -1.0)
        outer = (np.where(outer_second, a2, a1), np.where(outer_second, b2, b1))
        inner = (np.where(outer_second, a1, a2), np.where(outer_second, b1, b2))
        return outer, inner, sign

    @staticmethod
    def _smooth(ao, bo, ai, bi):
        """Elements whose cdf integrand can be smooth enough for the normal-score nodes.

        Inner parameters >= 1: densities bounded.  Outer parameters >= 8: the
        normal-score map smooth enough for 29 nodes (measured on 1e4 random
        tables with counts up to 1000: an outer Beta(1.5, 112.5) against an
        inner of similar width left 5e-8 in the cdf; with both outer
        parameters >= 8 the largest error was below 1e-10).
        """
        return (np.minimum(ao, bo) >= _NS_OUTER_MIN) & (np.minimum(ai, bi) >= 1.0)

    def _full_rule(self):
        """Tanh-sinh nodes on the outer's whole quantile scale (cached), for the
        elements off the normal-score nodes with inner parameters >= 1.

        Returns ``(slot, o, oc, w)``: element ``i`` has the nodes in column
        ``slot[i]`` of ``o`` and ``oc`` (-1: none).  The split rule recomputes
        its nodes at every point (the split moves with it); where the inner
        argument leaves [0, 1] only on a negligible part of the outer's mass,
        these fixed nodes serve every point instead (the clipped argument makes
        the integrand exactly 0 or 1 there): the quantile nodes cost 3x the
        rest of an evaluation.
        """
        if "full_rule" not in self._cache:
            (ao, bo), (ai, bi), _ = self._split(self._params(self.shape, with_rule=False))
            index = np.flatnonzero(~self._smooth(ao, bo, ai, bi) & (np.minimum(ai, bi) >= 1.0))
            slot = np.full(ao.shape, -1)
            slot[index] = np.arange(index.size)
            ones = np.ones(index.size)
            t, tc, w = unit_rule(0.0 * ones, ones, ones, 0.0 * ones)
            o, oc = quantile_nodes(ao[index], bo[index], t, tc)
            self._cache["full_rule"] = (slot.reshape(self.shape), o, oc, w[:, :1])
        return self._cache["full_rule"]

    def _rule(self):
        """Normal-score nodes over the outer (narrower) variable of every element (cached)."""
        if "rule" not in self._cache:
            (ao, bo), _, _ = self._split(self._params(self.shape, with_rule=False))
            o, oc, _ = normal_score_rule(ao, bo)
            shape = (NS_NODES,) + self.shape
            self._cache["rule"] = (o.reshape(shape), oc.reshape(shape))
        return self._cache["rule"]

    @staticmethod
    def _inner_arguments(o, oc, sign, x, xc, xp):
        """Inner argument ``o + s x`` and its complement, each accurate where small.

        ``xc = 1 - x`` and ``xp = 1 + x`` are exact for the arguments near
        ``1`` and ``-1`` that they serve (Sterbenz).
        """
        positive = sign > 0
        with np.errstate(invalid="ignore"):
            arg = np.where(positive, np.where(x < -0.5, xp - oc, o + x),
                           np.where(x > 0.5, xc - oc, o - x))
            arg_c = np.where(positive, np.where(x > 0.5, xc - o, oc - x),
                             np.where(x < -0.5, xp - o, oc + x))
        return np.clip(arg, 0.0, 1.0), np.clip(arg_c, 0.0, 1.0)

    def _parts(self, p, x, which=(0, 1, 2)):
        """(cdf, sf, pdf, d pdf / dx) of first - second at x in (-1, 1); None where not asked.

        ``E_O[F_I(O + s x)]`` over the outer variable ``O``: on its cached
        normal-score nodes where the inner argument stays on one side of 0
        and of 1 over the outer's whole mass (the integrand is then smooth),
        on tanh-sinh nodes of the outer's quantile scale split at those
        points otherwise.
        """
        (ao, bo), (ai, bi), sign = self._split(p)
        o, oc = p["o"], p["oc"]
        kink_low = -sign * x          # outer value where the inner argument is 0
        kink_high = kink_low + 1.0    # ... and where it is 1
        first, last = o[0], o[-1]
        smooth = self._smooth(ao, bo, ai, bi)
        low_inside = (kink_low > first) & (kink_low < last)
        high_inside = (kink_high > first) & (kink_high < last)
        fast = smooth & ~(low_inside | high_inside)
        # A kink inside the node range is harmless where the inner variable
        # holds below 1e-15 of its mass within the widest node gap of the
        # kink: the integrand is then 0 (or 1) to float64 precision there.
        candidate = smooth & ~fast & ~(low_inside & high_inside)
        if np.any(candidate):
            index = np.flatnonzero(candidate)
            gap = np.max(np.diff(o[:, index], axis=0), axis=0)
            gap_c = 1.0 - gap
            near = np.where(low_inside[index], beta_cdf(ai[index], bi[index], gap, gap_c),
                            beta_sf(ai[index], bi[index], gap_c, gap))
            fast[index[near < 1e-15]] = True
        out = [None] * 4
        for part in which:
            out[part] = np.empty(x.shape)
        index = np.flatnonzero(fast)
        if index.size:
            values = self._parts_nodes(
                ai[index], bi[index], sign[index], o[:, index], oc[:, index],
                x[index], which, _NS_WEIGHTS)
            for part in which:
                out[part][index] = values[part]
        off = np.flatnonzero(~fast)
        if off.size:
            index = off[~self._parts_full(p, x, which, off, out)]
            if index.size:
                values = self._parts_split(_take(p, index), x[index], which)
                for part in which:
                    out[part][index] = values[part]
            # At 0 (better than chance or not) both tails directly, exact also
            # where the mass sits within 1e-100 of an end (priors far below 1).
            zero = off[x[off] == 0]
            if zero.size and (0 in which or 1 in which):
                a1, b1, a2, b2 = (p[key][zero] for key in ("a1", "b1", "a2", "b2"))
                if 0 in which:
                    out[0][zero] = beta_greater(a2, b2, a1, b1)
                if 1 in which:
                    out[1][zero] = beta_greater(a1, b1, a2, b2)
        return tuple(out)

    def _parts_full(self, p, x, which, index, out):
        """The parts of the elements ``index`` on their cached full-range nodes
        where these serve (see `_full_rule`), into ``out``; returns a mask of
        the elements done.

        They serve where the outer holds at most 1e-40 of its mass beyond the
        points where the inner argument leaves [0, 1] (the kinks of the
        integrand): the kinks then move the result by less than that.  A cdf
        or sf below 1e-20 is left to the split rule (relative precision).
        """
        slot = p["slot"][index]
        done = slot >= 0
        if not np.any(done):
            return done
        rows = np.flatnonzero(done)
        part = _take(p, index[rows])
        (ao, bo), (ai, bi), sign = self._split(part)
        xs = x[index[rows]]
        o_lo, o_lo_c, o_hi, o_hi_c = self._outer_range(sign, xs)
        negligible = ((beta_cdf(ao, bo, o_lo, o_lo_c) <= _KINK_MASS)
                      & (beta_sf(ao, bo, o_hi, o_hi_c) <= _KINK_MASS))
        done[rows[~negligible]] = False
        rows, slot, xs = rows[negligible], slot[rows[negligible]], xs[negligible]
        sign, ai, bi = sign[negligible], ai[negligible], bi[negligible]
        _, o, oc, w = self._full_rule()
        values = self._parts_nodes(ai, bi, sign, o[:, slot], oc[:, slot], xs, which, w)
        for tail in (0, 1):
            if tail in which:
                small = values[tail] < 1e-20
                done[rows[small]] = False
        for item in which:
            out[item][index[rows]] = values[item]
        return done

    @staticmethod
    def _outer_range(sign, x):
        """Outer range ``[o_lo, o_hi]`` where the inner argument ``o + s x`` is
        inside [0, 1], with complements: ``(o_lo, 1 - o_lo, o_hi, 1 - o_hi)``."""
        positive = sign > 0
        return (np.clip(np.where(positive, -x, x), 0.0, 1.0),
                np.clip(np.where(positive, 1.0 + x, 1.0 - x), 0.0, 1.0),
                np.clip(np.where(positive, 1.0 - x, 1.0 + x), 0.0, 1.0),
                np.clip(np.where(positive, x, -x), 0.0, 1.0))

    def _parts_nodes(self, ai, bi, sign, o, oc, x, which, w):
        """The parts on fixed nodes ``o`` with weights ``w`` (smooth integrand)."""
        xc = 1.0 - x
        xp = 1.0 + x
        arg, arg_c = self._inner_arguments(o, oc, sign, x, xc, xp)
        positive = sign > 0
        out = [None] * 4
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            for part in (0, 1):
                if part in which:
                    out[part] = np.sum(w * self._inner_tail(ai, bi, positive, arg, arg_c, part),
                                       axis=0)
            self._density_sums(ai, bi, sign, arg, arg_c, w, (arg > 0) & (arg_c > 0), which, out)
        return out

    @staticmethod
    def _inner_tail(ai, bi, positive, arg, arg_c, part):
        """The inner tail each node needs for the cdf (part 0) or sf (part 1) of
        the difference: the inner cdf where s = +1 (its sf for the sf), the
        other tail where s = -1; only that one is computed."""
        values = np.empty(arg.shape)
        lower = positive if part == 0 else ~positive
        for columns, kernel in ((lower, beta_cdf), (~lower, beta_sf)):
            if np.any(columns):
                values[:, columns] = kernel(ai[columns], bi[columns], arg[:, columns],
                                            arg_c[:, columns], quick=True)
        return values

    def _parts_split(self, p, x, which):
        """The parts on tanh-sinh nodes of the outer's quantile scale, split at the
        points where the inner argument leaves [0, 1]."""
        (ao, bo), (ai, bi), sign = self._split(p)
        xc = 1.0 - x
        xp = 1.0 + x
        positive = sign > 0
        o_lo, o_lo_c, o_hi, o_hi_c = self._outer_range(sign, x)
        t_lo = beta_cdf(ao, bo, o_lo, o_lo_c)
        t_lo_c = beta_sf(ao, bo, o_lo, o_lo_c)
        t_hi = beta_cdf(ao, bo, o_hi, o_hi_c)
        t_hi_c = beta_sf(ao, bo, o_hi, o_hi_c)
        t, tc, w = unit_rule(t_lo, t_hi, t_lo_c, t_hi_c)
        o, oc = quantile_nodes(ao, bo, t, tc)
        arg, arg_c = self._inner_arguments(o, oc, sign, x, xc, xp)
        out = [None] * 4
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            if 0 in which or 1 in which:
                # Outside the range the inner cdf is 0 or 1: P(O > o_hi) (sign +1)
                # or P(O < o_lo) (sign -1) of the mass is below x for sure.
                sure_below = np.where(positive, t_hi_c, t_lo)
                sure_above = np.where(positive, t_lo, t_hi_c)
                for part, sure in ((0, sure_below), (1, sure_above)):
                    if part in which:
                        values = self._inner_tail(ai, bi, positive, arg, arg_c, part)
                        out[part] = np.sum(w * values, axis=0) + sure
            self._density_sums(ai, bi, sign, arg, arg_c, w, (w > 0) & (arg > 0) & (arg_c > 0),
                               which, out)
            if 2 in which:
                # An inner parameter below 1 puts a density spike at the point
                # where the inner argument is 0 (or 1); where that point is an
                # end of the outer range inside (0, 1), the nodes cannot come
                # within float64 reach of it (most of the spike's mass lies
                # closer than 1e-16).  Integrated by parts, int f_O f_I do =
                # [f_O F_I] - int f_O' F_I do, the spike is gone (F_I is
                # continuous).  f_O' is smooth inside (0, 1); at an end of the
                # range that is an end of the support it is bounded only where
                # the outer's parameter there is >= 2.
                kink_low = -sign * x
                kink_high = kink_low + 1.0
                spike = (((ai < 1.0) & (kink_low > 0.0) & (kink_low < 1.0))
                         | ((bi < 1.0) & (kink_high > 0.0) & (kink_high < 1.0)))
                by_parts = spike & ((kink_low > 0.0) | (ao >= 2.0)) & ((kink_high < 1.0)
                                                                      | (bo >= 2.0))
                index = np.flatnonzero(by_parts)
                if index.size:
                    columns = (ao, bo, ai, bi, o, oc, arg, arg_c, w, o_lo, o_lo_c, o_hi,
                               o_hi_c, sign, x, xc, xp)
                    out[2][index] = self._density_by_parts(
                        *(v[..., index] for v in columns))
                # A spike just beyond an end of the range that is an end of the
                # support: the mirrored problem (1 - O, 1 - I, -x) turns the upper
                # end into the lower one.
                beyond_low = (ai < 1.0) & (kink_low < 0.0) & (t_hi > 0.0)
                beyond_high = (bi < 1.0) & (kink_high > 1.0) & (t_lo_c > 0.0)
                for mask, mirror in ((beyond_low & ~beyond_high, False),
                                     (beyond_high & ~beyond_low, True)):
                    index = np.flatnonzero(mask)
                    if index.size:
                        args = ((bo, ao, bi, ai, sign, -x, t_lo_c, t_lo) if mirror
                                else (ao, bo, ai, bi, sign, x, t_hi, t_hi_c))
                        value, near = self._density_near_spike(*(v[index] for v in args))
                        out[2][index[near]] = value[near]
        return out

    def _density_near_spike(self, ao, bo, ai, bi, sign, x, t_hi, t_hi_c):
        """Density where the inner spike (``ai < 1``) lies a distance ``d = s x > 0``
        below the range, whose lower end is 0; returns the densities and a mask
        of the elements where this route applies (``F_O(d) < 1e-3 t_hi``).

        Past ``o = d`` the integrand falls like ``o^(ai - 1)`` on the probability
        scale: its mass spreads evenly over the decades of ``t`` between ``F_O(d)``
        and ``t_hi``, where the tanh-sinh nodes of one piece are a factor 11
        apart (the density came out 1e-4 low for d = 1.8e-24).  Two pieces:
        tanh-sinh nodes on ``[0, F_O(d)]``, and on ``[F_O(d), t_hi]`` tanh-sinh
        nodes in ``log t`` (evenly spread decades).
        """
        d = sign * x
        d_c = 1.0 - d
        t_cut = beta_cdf(ao, bo, d, d_c)
        near = (d > 0.0) & (t_cut > 0.0) & (t_cut < 1e-3 * t_hi)
        value = np.zeros(x.shape)
        if not np.any(near):
            return value, near
        ao, bo, ai, bi, sign, x, t_hi, t_hi_c, t_cut = (
            v[near] for v in (ao, bo, ai, bi, sign, x, t_hi, t_hi_c, t_cut))
        xc, xp = 1.0 - x, 1.0 + x
        ones = np.ones(x.shape)
        # [0, F_O(d)]
        t, tc, w = unit_rule(0.0 * ones, t_cut, ones, 1.0 - t_cut)
        # [F_O(d), t_hi], t = t_hi exp(-u): u from log(t_hi / F_O(d)) down to 0.
        v, vc, wv = unit_rule(0.0 * ones, ones, ones, 0.0 * ones)
        span = np.log(t_hi) - np.log(t_cut)
        u = vc * span
        t_log = t_hi * np.exp(-u)
        tc_log = t_hi_c - t_hi * np.expm1(-u)
        w_log = wv * t_log * span
        total = np.zeros(x.shape)
        for tt, ttc, ww in ((t, tc, w), (t_log, tc_log, w_log)):
            o, oc = quantile_nodes(ao, bo, tt, ttc)
            arg, arg_c = self._inner_arguments(o, oc, sign, x, xc, xp)
            parts = [None] * 4
            self._density_sums(ai, bi, sign, arg, arg_c, ww, (ww > 0) & (arg > 0) & (arg_c > 0),
                               (2,), parts)
            total = total + parts[2]
        value[near] = total
        return value, near

    def _density_by_parts(self, ao, bo, ai, bi, o, oc, arg, arg_c, w, o_lo, o_lo_c, o_hi,
                          o_hi_c, sign, x, xc, xp):
        """Density ``[f_O F_I(o + s x)]_{o_lo}^{o_hi} - E_O[(log f_O)'(O) F_I(O + s x)]``
        for the elements (columns) it is given."""
        inner_cdf = beta_cdf(ai, bi, arg, arg_c, quick=True)
        slope = beta_dlogpdf(ao, bo, o, oc)
        usable = (w > 0) & np.isfinite(slope)
        interior = np.sum(np.where(usable, w * slope * inner_cdf, 0.0), axis=0)
        ends = 0.0
        for end, end_c, sign_end in ((o_hi, o_hi_c, 1.0), (o_lo, o_lo_c, -1.0)):
            a_end, a_end_c = self._inner_arguments(end[None], end_c[None], sign, x, xc, xp)
            density = beta_pdf(ao, bo, end, end_c)
            value = beta_cdf(ai, bi, a_end[0], a_end_c[0])
            ends = ends + sign_end * np.where(density > 0, density * value, 0.0)
        return np.maximum(ends - interior, 0.0)

    @staticmethod
    def _density_sums(ai, bi, sign, arg, arg_c, w, usable, which, out):
        """Density of the difference (part 2) and its slope (part 3) into ``out``."""
        if 2 not in which and 3 not in which:
            return
        density = np.where(usable, beta_pdf(ai, bi, arg, arg_c), 0.0)
        if 2 in which:
            out[2] = np.sum(w * density, axis=0)
        if 3 in which:
            slope = np.where(usable, (ai - 1) / arg - (bi - 1) / arg_c, 0.0)
            out[3] = sign * np.sum(w * density * slope, axis=0)

    def _boundary_logpdf(self, p, end):
        """Log density at -1 (end=-1) or +1: 0, finite or unbounded by the exponents."""
        a1, b1, a2, b2 = p["a1"], p["b1"], p["a2"], p["b2"]
        left, right = (a1, b2) if end < 0 else (b1, a2)
        exponent = left + right - 1
        finite = (special.betaln(left, right) - special.betaln(a1, b1) - special.betaln(a2, b2))
        return np.where(exponent > 0, -np.inf, np.where(exponent < 0, np.inf, finite))

    def _evaluate(self, p, x, which):
        inside = (x > -1) & (x < 1)
        xx = np.where(inside, x, 0.0)
        value = self._parts(p, xx, (which,))[which]
        if which == 0:
            outside = np.where(x <= -1, 0.0, 1.0)
        elif which == 1:
            outside = np.where(x <= -1, 1.0, 0.0)
        else:
            outside = np.zeros_like(x)
        return np.where(np.isnan(x), np.nan, np.where(inside, value, outside))

    def _cdf_flat(self, p, x):
        return np.clip(self._evaluate(p, x, 0), 0.0, 1.0)

    def _sf_flat(self, p, x):
        return np.clip(self._evaluate(p, x, 1), 0.0, 1.0)

    def _logpdf_flat(self, p, x):
        with np.errstate(divide="ignore"):
            value = np.log(self._evaluate(p, x, 2))
        value = np.where(x == -1, self._boundary_logpdf(p, -1), value)
        return np.where(x == 1, self._boundary_logpdf(p, 1), value)

    @staticmethod
    def _cornish_fisher(p, q, upper):
        """Cornish-Fisher quantiles from the four cumulants (the first Beta's
        minus the second's, odd orders; plus, even orders)."""
        m1, v1, k31, k41 = beta_cumulants(p["a1"], p["b1"])
        m2, v2, k32, k42 = beta_cumulants(p["a2"], p["b2"])
        var = v1 + v2
        sd = np.sqrt(var)
        with np.errstate(all="ignore"):
            guess = cornish_fisher(m1 - m2, sd, (k31 - k32) / (var * sd),
                                   (k41 + k42) / (var * var), q, upper)
        # Far from normal (tiny parameters) the expansion can leave the support.
        mean = m1 - m2
        return np.where(np.isfinite(guess) & (np.abs(guess) < 1), guess, mean)

    def _interval_start(self, p, tail):
        # The highest-density interval of an Edgeworth density sits a third of
        # the skewness (in standard deviations) below the equal-tailed one.
        m1, v1, k31, _ = beta_cumulants(p["a1"], p["b1"])
        m2, v2, k32, _ = beta_cumulants(p["a2"], p["b2"])
        shift = (k31 - k32) / (3 * (v1 + v2))
        low = self._cornish_fisher(p, tail, False) - shift
        high = self._cornish_fisher(p, tail, True) - shift
        mean = m1 - m2
        return (np.where(np.abs(low) < 1, low, mean - 0.5 * (1 + mean)),
                np.where(np.abs(high) < 1, high, mean + 0.5 * (1 - mean)))

    def _quantile_flat(self, p, q, upper):
        # Newton steps from the Cornish-Fisher start: two or three for counts
        # in the tens and more.
        guess = self._cornish_fisher(p, q, upper)
        scale = np.sqrt(beta_var(p["a1"], p["b1"]) + beta_var(p["a2"], p["b2"]))
        smallest = np.minimum(np.minimum(p["a1"], p["b1"]), np.minimum(p["a2"], p["b2"]))
        return _solve_quantile(self, p, q, upper, guess, np.full_like(q, -1.0), np.ones_like(q),
                               scale, smallest >= _NEAR_NORMAL)

    def _hdi_flat(self, params, confidence):
        return _hdi_newton(self, params, confidence)

    def _mode_array(self):
        params = self._params(self.shape)
        n = params["a1"].shape[0]
        lo = self._quantile_flat(params, np.full(n, 1e-12), False)
        hi = self._quantile_flat(params, np.full(n, 1e-12), True)
        mode = golden_max(lambda x: self._logpdf_flat(params, x), lo, hi)
        best = self._logpdf_flat(params, mode)
        for end in (-1.0, 1.0):
            value = self._boundary_logpdf(params, end)
            mode = np.where(value > best, end, mode)
            best = np.maximum(best, value)
        # Both variables piling up at the same end (a1 + a2 < 1 or b1 + b2 < 1):
        # the density of the difference is unbounded at 0.
        spike = (params["a1"] + params["a2"] < 1) | (params["b1"] + params["b2"] < 1)
        mode = np.where(spike & np.isfinite(best), 0.0, mode)
        return mode.reshape(self.shape)

    def _rvs_flat(self, p, rng):
        first = BetaPosterior._rvs_flat(None, {"a": p["a1"], "b": p["b1"]}, rng)
        second = BetaPosterior._rvs_flat(None, {"a": p["a2"], "b": p["b2"]}, rng)
        return first - second


class AffinePosterior(_Posterior):
    """Posterior of ``shift + scale * M`` for an exact posterior ``M``.

    Exact metrics that are affine maps of another: the E-measure
    ``1 - F_beta`` (``scale=-1, shift=1``) and balanced accuracy
    ``(1 + informedness) / 2`` (``scale=0.5, shift=0.5``).  Every summary
    maps the base posterior's exactly; a negative scale swaps the tails.

    Parameters
    ----------
    base : BetaPosterior, FBetaPosterior or DifferencePosterior
        The posterior of ``M``.
    scale : float
        Non-zero factor.
    shift : float
        Offset.

    Examples
    --------
    >>> from skprobeval import FBetaPosterior
    >>> from skprobeval import AffinePosterior
    >>> f1 = FBetaPosterior(8.5, 2.5, 3.5)
    >>> e = AffinePosterior(f1, scale=-1.0, shift=1.0)
    >>> round(e.mean() + f1.mean(), 12), round(e.cdf(0.3) - f1.sf(0.7), 12)
    (1.0, 0.0)
    """

    __slots__ = ("_base", "_scale", "_shift")
    _shape_params = property(lambda self: self._base._shape_params)

    def __init__(self, base, scale, shift):
        if not isinstance(base, (BetaPosterior, FBetaPosterior, DifferencePosterior)):
            fail("base", "an exact posterior (Beta, F-beta or difference)", base,
                 error=TypeError)
        scale = float(scale)
        if scale == 0 or not np.isfinite(scale):
            fail("scale", "a finite non-zero number", scale)
        self._base = base
        self._scale = scale
        self._shift = float(shift)

    @property
    def base(self):
        """The posterior of the untransformed metric."""
        return self._base

    @property
    def scale(self):
        """Factor of the map."""
        return self._scale

    @property
    def shift(self):
        """Offset of the map."""
        return self._shift

    @property
    def shape(self):
        """Shape of the parameter arrays."""
        return self._base.shape

    @property
    def _support(self):
        ends = [self._shift + self._scale * end for end in self._base._support]
        return min(ends), max(ends)

    def __getitem__(self, index):
        return AffinePosterior(self._base[index], self._scale, self._shift)

    def __repr__(self):
        return (f"AffinePosterior(scale={_fmt(self._scale)}, shift={_fmt(self._shift)}, "
                f"base={self._base!r})")

    def _inverse(self, x):
        return (x - self._shift) / self._scale

    def _params(self, shape):
        return self._base._params(shape)

    def _cdf_flat(self, params, x):
        kernel = self._base._cdf_flat if self._scale > 0 else self._base._sf_flat
        return kernel(params, self._inverse(x))

    def _sf_flat(self, params, x):
        kernel = self._base._sf_flat if self._scale > 0 else self._base._cdf_flat
        return kernel(params, self._inverse(x))

    def _logpdf_flat(self, params, x):
        return self._base._logpdf_flat(params, self._inverse(x)) - math.log(abs(self._scale))

    def _quantile_flat(self, params, q, upper):
        base = self._base._quantile_flat(params, q, upper if self._scale > 0 else not upper)
        return self._shift + self._scale * base

    def _hdi_flat(self, params, confidence):
        low, high = self._base._hdi_flat(params, confidence)
        ends = (self._shift + self._scale * low, self._shift + self._scale * high)
        return np.minimum(*ends), np.maximum(*ends)

    def _rvs_flat(self, params, rng):
        return self._shift + self._scale * self._base._rvs_flat(params, rng)

    def _mean_array(self):
        return self._shift + self._scale * self._base._mean_array()

    def _var_array(self):
        return self._scale * self._scale * self._base._var_array()

    def _mode_array(self):
        return self._shift + self._scale * self._base._mode_array()
