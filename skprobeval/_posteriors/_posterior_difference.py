"""The exact posterior of a difference of two independent Beta variables.

`DifferencePosterior`: informedness ``tpr - fpr`` and markedness
``ppv - (1 - npv)``, with ``cdf(j) = E_X[P(Y >= X - j)]`` by one-dimensional
quadrature over the narrower variable.  Quantiles and highest-density
intervals come from the shared solvers of ``_posterior_exact.py`` and ``_hdi.py``.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .._core import (
    NS_NODES,
    beta_cdf,
    beta_cumulants,
    beta_dlogpdf,
    beta_greater,
    beta_pdf,
    beta_sf,
    beta_var,
    cornish_fisher,
    cornish_fisher_hdi,
    fail,
    golden_max,
    normal_score_rule,
    parts_hdi_newton,
    quantile_nodes,
    unit_rule,
)
from ._posterior import BetaPosterior, _Posterior, take_params
from ._posterior_exact import _NEAR_NORMAL, _solve_quantile

__all__ = ["DifferencePosterior"]

_NS_WEIGHTS = normal_score_rule(np.ones(1), np.ones(1))[2]
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
    Cornish-Fisher quantile (six cumulants) and take Halley steps, the
    highest-density interval at that approximation's.  Mean and variance are closed
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
                values = self._parts_split(take_params(p, index), x[index], which)
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
        part = take_params(p, index[rows])
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
            usable = (w > 0) & (arg > 0) & (arg_c > 0)
            self._density_sums(ai, bi, sign, arg, arg_c, w, usable, which, out)
            if 3 in which:
                self._slope_from_outer(ao, bo, ai, bi, sign, o, oc, arg, arg_c, w, usable,
                                       out[3])
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

    @staticmethod
    def _slope_from_outer(ao, bo, ai, bi, sign, o, oc, arg, arg_c, w, usable, out):
        """The density's slope, into ``out``, where an inner parameter is below 1.

        The inner density's own slope then falls like ``arg^(ai - 2)`` at the
        spike, not integrable: its sum on the nodes came out 1e6 to 1e7 times
        too large (Beta(796.5, 834.5) - Beta(0.5, 53.5)), which left the
        highest-density interval's Newton steps without a Jacobian and sent
        such tables to the nested tail-mass solve (1 s for one table, ten
        times the Newton solve's 0.1 s).
        Where both outer parameters exceed 1 the outer density is continuous
        on the real line, and with ``u = o + s x`` the derivative moves onto
        it: ``d/dx E_O[f_I(O + s x)] = -s E_O[(log f_O)'(O) f_I(O + s x)]``.
        """
        index = np.flatnonzero((np.minimum(ai, bi) < 1.0) & (np.minimum(ao, bo) > 1.0))
        if index.size == 0:
            return
        ao, bo, ai, bi, sign = (v[index] for v in (ao, bo, ai, bi, sign))
        o, oc, arg, arg_c, w, usable = (v[:, index] for v in (o, oc, arg, arg_c, w, usable))
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            terms = w * beta_dlogpdf(ao, bo, o, oc) * beta_pdf(ai, bi, arg, arg_c)
            out[index] = -sign * np.sum(np.where(usable & np.isfinite(terms), terms, 0.0),
                                        axis=0)

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
    def _cumulants(p):
        """Mean, standard deviation and standardised cumulants of orders 3 to 6
        (the first Beta's minus the second's at odd orders, plus at even ones)."""
        first = beta_cumulants(p["a1"], p["b1"])
        second = beta_cumulants(p["a2"], p["b2"])
        mean, var, *higher = (one - two if order % 2 else one + two
                              for order, (one, two) in enumerate(zip(first, second), 1))
        sd = np.sqrt(var)
        with np.errstate(all="ignore"):
            shape = tuple(value / sd ** order for order, value in enumerate(higher, 3))
        return mean, sd, shape

    def _cornish_fisher(self, p, q, upper):
        """Cornish-Fisher quantiles from six cumulants where every parameter is
        at least 10 (near-normal), from four elsewhere (the terms of order
        ``n^-3/2`` and ``n^-2`` help only where the expansion converges)."""
        mean, sd, shape = self._cumulants(p)
        near_normal = self._near_normal(p)
        shape = shape[:2] + tuple(np.where(near_normal, value, 0.0) for value in shape[2:])
        with np.errstate(all="ignore"):
            guess = cornish_fisher(mean, sd, shape, q, upper)
        # Far from normal (tiny parameters) the expansion can leave the support.
        return np.where(np.isfinite(guess) & (np.abs(guess) < 1), guess, mean)

    def _interval_start(self, p, tail):
        # The highest-density interval of the Cornish-Fisher approximation
        # (within 1e-6 standard deviations for parameters in the hundreds: one
        # Newton step settles it) where every parameter is at least 10; elsewhere,
        # or where that map is not monotone, the equal-tailed interval shifted
        # down by a third of the skewness (in standard deviations), where the
        # interval of an Edgeworth density sits.
        mean, sd, shape = self._cumulants(p)
        with np.errstate(all="ignore"):
            low, high = cornish_fisher_hdi(mean, sd, shape, 2 * tail)
        shift = shape[0] * sd / 3
        fallback = ~((np.abs(low) < 1) & (np.abs(high) < 1) & self._near_normal(p))
        low = np.where(fallback, self._cornish_fisher(p, tail, False) - shift, low)
        high = np.where(fallback, self._cornish_fisher(p, tail, True) - shift, high)
        low = np.where(np.abs(low) < 1, low, mean - 0.5 * (1 + mean))
        high = np.where(np.abs(high) < 1, high, mean + 0.5 * (1 - mean))
        # Far from normal (a parameter below 1 against hundreds: skewness near
        # 2) the expansion's quantiles can cross, and the Newton solve takes no
        # step from a crossed start: the exact equal-tailed interval there.
        crossed = np.flatnonzero(~(low < high))
        if crossed.size:
            part = take_params(p, crossed)
            low[crossed] = self._quantile_flat(part, tail[crossed], False)
            high[crossed] = self._quantile_flat(part, tail[crossed], True)
        return low, high

    @staticmethod
    def _near_normal(p):
        """Elements whose four parameters are all at least 10."""
        return np.minimum(np.minimum(p["a1"], p["b1"]), np.minimum(p["a2"], p["b2"])) \
            >= _NEAR_NORMAL

    def _quantile_flat(self, p, q, upper):
        # Halley steps from the Cornish-Fisher start: one for counts in the
        # hundreds, two or three in the tens.
        guess = self._cornish_fisher(p, q, upper)
        scale = np.sqrt(beta_var(p["a1"], p["b1"]) + beta_var(p["a2"], p["b2"]))
        smallest = np.minimum(np.minimum(p["a1"], p["b1"]), np.minimum(p["a2"], p["b2"]))
        lo, hi = self._cantelli_bracket(p, q, upper, scale)
        (ao, bo), (ai, bi), _ = self._split(p)
        # Halley steps wherever the density's slope is right (`_slope_from_outer`):
        # Newton steps alone took eight evaluations for Beta(0.5, 26.5) -
        # Beta(986.5, 85.5), a spike a few standard deviations wide.
        curved = (np.minimum(ai, bi) >= 1.0) | (np.minimum(ao, bo) > 1.0)
        return _solve_quantile(self, p, q, upper, guess, lo, hi, scale,
                               smallest >= _NEAR_NORMAL, curved)

    @staticmethod
    def _cantelli_bracket(p, q, upper, scale):
        """Bounds on the quantiles from the mean and standard deviation alone.

        Cantelli's inequality, ``P(X - E <= -k sd) <= 1 / (1 + k^2)``, puts the
        q-quantile in ``[E - sd sqrt((1 - q) / q), E + sd sqrt(q / (1 - q))]``
        (mirrored for an upper tail), here widened by 1% against rounding.  The
        support [-1, 1] as the bracket cost far from normal (an inner parameter
        below 1, where a Newton step can overshoot): a bisection from it took
        fifteen evaluations to come back within reach of the root, from these
        bounds three.
        """
        mean = p["a1"] / (p["a1"] + p["b1"]) - p["a2"] / (p["a2"] + p["b2"])
        with np.errstate(divide="ignore", invalid="ignore"):
            wide = 1.01 * scale * np.sqrt((1.0 - q) / q)
            narrow = 1.01 * scale * np.sqrt(q / (1.0 - q))
        below, above = (narrow, wide) if upper else (wide, narrow)
        lo = np.clip(np.nan_to_num(mean - below, nan=-1.0, neginf=-1.0), -1.0, 1.0)
        hi = np.clip(np.nan_to_num(mean + above, nan=1.0, posinf=1.0), -1.0, 1.0)
        return lo, hi

    _hdi_newton = parts_hdi_newton

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

    def _rvs_shaped(self, shape, rng):
        # The parameters at their own shape, broadcast by the generator: the draws
        # of `_rvs_flat`, without `_params` at the draws' shape (its quadrature
        # nodes, 29 numbers a draw: 1.4 GB for 10 000 draws of 300 tables).
        p = self._params(self.shape, with_rule=False)
        first = BetaPosterior(p["a1"].reshape(self.shape), p["b1"].reshape(self.shape))
        second = BetaPosterior(p["a2"].reshape(self.shape), p["b2"].reshape(self.shape))
        draws = first._rvs_shaped(shape, rng)
        return np.subtract(draws, second._rvs_shaped(shape, rng), out=draws)
