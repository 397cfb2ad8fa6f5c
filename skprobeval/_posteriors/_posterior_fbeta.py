"""The exact posterior of F-beta, `FBetaPosterior`.

``F1 = 2B / (1 + B)`` with ``B ~ Beta(tp, fp + fn)`` exactly; for
``beta != 1``, ``P(F_beta <= f) = E_v[I_{g(v)}(a, b + c)]`` with
``v ~ Beta(c, b)`` independent, a one-dimensional integral on the numerics
kernel's nodes (the theory chapter derives both).  Quantiles come from the
shared solver of ``_posterior_exact.py``, highest-density intervals from
``_hdi.py``; F1's interval is solved on the Beta scale.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from .._core import (
    N_NODES,
    NS_NODES,
    beta_cdf,
    beta_pdf,
    beta_quantile,
    beta_rule,
    beta_scale_gap,
    beta_sf,
    beta_var,
    check_positive,
    cornish_fisher,
    cornish_fisher_hdi,
    golden_max,
    log_gamma_variates,
    normal_score_rule,
    parts_hdi_newton,
    rounded,
)
from ._posterior import _check_parameter, _frozen, _Posterior, take_params
from ._posterior_exact import _NEAR_NORMAL, _solve_quantile

__all__ = ["FBetaPosterior"]

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
      elsewhere).  Quantiles by bracketed Halley steps on the cdf, the
      highest-density interval by Newton steps on both ends at once; both
      start from the Cornish-Fisher approximation of the log-odds where
      ``tp, fp, fn >= 10``, on a seven-node sub-rule elsewhere.

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
        return (f"FBetaPosterior(beta={rounded(self._beta)}, tp={rounded(self._tp)}, "
                f"fp={rounded(self._fp)}, fn={rounded(self._fn)})")

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
        near_normal = self._near_normal(p)
        # F = wY / (wY + (1 - Y) k(v)) decreases in k, which lies between 1 and
        # beta**2: the same map of Y's quantile at either end of k brackets F's
        # quantile (a bracket of width 0 where Y's quantile underflows to 0).
        k_lo, k_hi = min(1.0, self._beta ** 2), max(1.0, self._beta ** 2)
        lo = weight * y / (weight * y + yc * k_hi)
        hi = weight * y / (weight * y + yc * k_lo)
        # Near-normal elements start at the Cornish-Fisher quantile of the
        # log-odds (one Halley step settles most); the others at the root on
        # seven nodes (a quarter of the cost), solved from the map.
        index = np.flatnonzero(near_normal)
        if index.size:
            log_mean, log_sd, shape = self._log_odds_cumulants(take_params(p, index))
            with np.errstate(all="ignore"):
                start = special.expit(cornish_fisher(log_mean, log_sd, shape, q[index], upper))
            guess[index] = np.where(np.isfinite(start), start, guess[index])
        index = np.flatnonzero(~near_normal)
        if index.size:
            part = take_params(p, index)
            guess[index] = _solve_quantile(self, self._coarse(part), q[index], upper,
                                           guess[index], lo[index], hi[index], scale[index],
                                           near_normal[index])
        return _solve_quantile(self, p, q, upper, guess, lo, hi, scale, near_normal)

    @staticmethod
    def _near_normal(p):
        """Elements on the normal-score rule (``fn, fp >= 10``) with ``tp >= 10``."""
        return p["short"] & (p["tp"] >= _NEAR_NORMAL)

    def _log_odds_cumulants(self, p):
        """Mean, standard deviation and standardised cumulants of orders 3 to 6 of
        ``log(F / (1 - F))``.

        The log-odds is ``log(1 + beta^2) + logit(u) - log k(v)``, a sum of
        independent terms: the cumulants of ``logit(u)``, ``u ~ Beta(tp, fp + fn)``,
        are ``psi^(n-1)(tp) + (-1)^n psi^(n-1)(fp + fn)`` (a difference of log-Gamma
        variables); those of ``log k(v)`` come from its central moments on the
        kernel's nodes over ``v``.
        """
        a, b2 = p["tp"], p["fp"] + p["fn"]
        rows = slice(0, NS_NODES) if np.all(p["short"]) else slice(None)
        log_k = np.log1p((self._beta ** 2 - 1.0) * p["v"][rows])
        w = p["w"][rows]
        log_k_mean = np.sum(w * log_k, axis=0)
        deviation = log_k - log_k_mean
        power = w * deviation
        central = []
        for _ in range(5):
            power = power * deviation
            central.append(np.sum(power, axis=0))
        m2, m3, m4, m5, m6 = central
        log_k_cumulants = (m2, m3, m4 - 3 * m2 * m2, m5 - 10 * m3 * m2,
                           m6 - 15 * m4 * m2 - 10 * m3 * m3 + 30 * m2 ** 3)
        mean = math.log(1.0 + self._beta ** 2) + special.digamma(a) - special.digamma(b2) \
            - log_k_mean
        cumulants = [special.polygamma(order - 1, a) + (-1) ** order
                     * (special.polygamma(order - 1, b2) + log_k_cumulants[order - 2])
                     for order in range(2, 7)]
        sd = np.sqrt(cumulants[0])
        shape = tuple(value / sd ** order for order, value in enumerate(cumulants[1:], 3))
        return mean, sd, shape

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

    def _hdi_newton(self, p, rest):
        if self._is_f1:
            return None
        # Near-normal elements start at the highest-density interval of the
        # log-odds' Cornish-Fisher approximation (one step settles most); the
        # others at the ends on the seven-node rule (a quarter of the cost).
        low, high = self._interval_start(p, rest / 2)
        index = np.flatnonzero(self._near_normal(p))
        if index.size:
            mean, sd, shape = self._log_odds_cumulants(take_params(p, index))
            with np.errstate(all="ignore"):
                start = cornish_fisher_hdi(mean, sd, shape, rest[index], logistic=True)
            usable = np.isfinite(start[0]) & np.isfinite(start[1])
            low[index] = np.where(usable, start[0], low[index])
            high[index] = np.where(usable, start[1], high[index])
        index = np.flatnonzero(~self._near_normal(p))
        if index.size:
            part = take_params(p, index)
            low[index], high[index] = parts_hdi_newton(
                self, self._coarse(part), rest[index], (low[index], high[index]))[:2]
        return parts_hdi_newton(self, p, rest, (low, high))

    def _hdi_gap(self, p, rest):
        """F1's gap on the probability scale of B ~ Beta(tp, fp + fn) where
        ``tp, fp + fn > 1``: F1's density is then zero at both ends and unimodal
        (log-concave in B).  Monotone or unbounded densities take the generic route."""
        if not self._is_f1:
            return None
        a, b2 = p["tp"], p["fp"] + p["fn"]
        index = np.flatnonzero((a > 1) & (b2 > 1))
        return index, beta_scale_gap(a[index], b2[index], rest[index], f1=True)

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
