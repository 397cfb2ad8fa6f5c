"""The paired Dirichlet model: two systems on the same items (Goutte & Gaussier 2005).

`compare_paired` and `pairwise_comparison` put a Dirichlet posterior on the
shares of items that only the first system, only the second, or both alike
get right, and return a `PairedComparison`: ``P(first better)`` in closed
form, and the rope split and credible interval of the difference (**first
minus second**) as one-dimensional integrals on the numerics kernel's
quadrature.  Derivations and accuracy: the theory page
``docs/theory/paired.rst``.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy import special

from .._core import (
    N_DRAWS,
    ComparisonResult,
    beta_cdf,
    beta_pdf,
    beta_sd,
    beta_sf,
    beta_tail_nodes,
    check_confidence,
    check_draws,
    check_prior,
    check_random_state,
    check_rope,
    cluster_concentration,
    cluster_table_draws,
    fail,
    format_array,
    frozen_result,
    renamed_keyword,
    rounded,
    solve_increasing,
    to_host,
    warn_future,
)
from .._counting import PairedCounts, check_pair, cluster_codes, paired_items
from .._posteriors import CredibleInterval
from ._proxy_systems import proxy_paired_shares

__all__ = ["PairedComparison", "compare_paired", "paired_probabilities", "pairwise_comparison"]


def _flat(*values):
    """Broadcast to one shape; return the shape and flat float64 copies."""
    arrays = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in values))
    shape = arrays[0].shape
    return shape, [np.array(a, dtype=np.float64).reshape(-1) for a in arrays]


# ---------------------------------------------------------------------------
# The paired model: delta = pi1 - pi2 under Dirichlet(a1, a2, a3)
# ---------------------------------------------------------------------------


def _difference_sf_quadrature(a1, a2, a3, r):
    """P(delta > r) for flat arrays with 0 < r < 1 (one-dimensional quadrature).

    ``delta > r`` iff ``S > r`` and ``W > (1 + r/S) / 2``.  Outer S:
    ``E_S[P(W > (1 + r/S)/2); S > r]``; outer W:
    ``E_W[P(S > r/(2W - 1)); W > (1 + r)/2]``.  The outer variable is the one
    whose spread moves the boundary ``2 s^2 / r`` less (see module notes).
    """
    p = a1 + a2
    s_star = np.maximum(p / (p + a3), r)
    outer_s = r * beta_sd(p, a3) <= 2.0 * s_star * s_star * beta_sd(a1, a2)
    out = np.empty(a1.shape)
    if np.any(outer_s):
        i = outer_s
        s, _, weights = beta_tail_nodes(p[i], a3[i], r[i], 1.0 - r[i])
        rr = r[i][:, None]
        s = np.maximum(s, rr)
        # P(W > t) = P(1 - W <= 1 - t), 1 - W ~ Beta(a2, a1), with
        # 1 - t = (s - r) / (2 s) <= 1/2 computed without cancellation.
        with np.errstate(invalid="ignore", divide="ignore"):
            t_c = np.where(s > 0, (s - rr) / (2.0 * s), 0.0)
            t = np.where(s > 0, (s + rr) / (2.0 * s), 1.0)
        inner = beta_cdf(a2[i][:, None], a1[i][:, None], t_c, t)
        out[i] = np.sum(np.nan_to_num(inner) * weights, axis=1)
    if np.any(~outer_s):
        i = ~outer_s
        ri = r[i]
        x, xc, weights = beta_tail_nodes(a1[i], a2[i], 0.5 * (1.0 + ri), 0.5 * (1.0 - ri))
        rr = ri[:, None]
        d = np.maximum(x - xc, rr)                 # 2W - 1, accurate near 0 and 1
        with np.errstate(invalid="ignore", divide="ignore"):
            v = np.where(d > 0, rr / d, 1.0)
            vc = np.where(d > 0, (d - rr) / d, 0.0)
        shape = v.shape
        inner = beta_sf(np.broadcast_to(p[i][:, None], shape).reshape(-1),
                        np.broadcast_to(a3[i][:, None], shape).reshape(-1),
                        v.reshape(-1), vc.reshape(-1)).reshape(shape)
        out[i] = np.sum(np.nan_to_num(inner) * weights, axis=1)
    return np.clip(out, 0.0, 1.0)


def _difference_sf(a1, a2, a3, r):
    """P(pi1 - pi2 > r) for r >= 0 under Dirichlet(a1, a2, a3), elementwise.

    r = 0 is the closed form ``P(W > 1/2) = 1 - I_{1/2}(a1, a2)``; r >= 1 is 0.
    """
    shape, (a1, a2, a3, r) = _flat(a1, a2, a3, r)
    out = np.zeros(a1.shape)
    zero = r == 0
    if np.any(zero):
        out[zero] = beta_sf(a1[zero], a2[zero], 0.5, 0.5)
    inside = (r > 0) & (r < 1)
    if np.any(inside):
        out[inside] = _difference_sf_quadrature(a1[inside], a2[inside], a3[inside], r[inside])
    return out.reshape(shape)


def _difference_cdf(a1, a2, a3, x):
    """P(pi1 - pi2 <= x), elementwise."""
    shape, (a1, a2, a3, x) = _flat(a1, a2, a3, x)
    out = np.empty(x.shape)
    positive = x >= 0
    if np.any(positive):
        i = positive
        out[i] = 1.0 - _difference_sf(a1[i], a2[i], a3[i], x[i])
    if np.any(~positive):
        i = ~positive
        # P(delta <= x) = P(-delta >= -x): the mirrored model, continuous.
        out[i] = _difference_sf(a2[i], a1[i], a3[i], -x[i])
    return out.reshape(shape)


def _difference_moments(a1, a2, a3):
    """Mean and standard deviation of pi1 - pi2 under Dirichlet(a1, a2, a3)."""
    total = a1 + a2 + a3
    mean = (a1 - a2) / total
    var = ((a1 + a2) * total - (a1 - a2) ** 2) / (total * total * (total + 1))
    return mean, np.sqrt(np.maximum(var, 0.0))


def _difference_pdf(a1, a2, a3, x):
    """Density of pi1 - pi2 at x, elementwise: ``E_S[f_W((1 + x/S)/2) / (2S); S > |x|]``."""
    shape, (a1, a2, a3, x) = _flat(a1, a2, a3, x)
    p = a1 + a2
    r = np.abs(x)
    s, _, weights = beta_tail_nodes(p, a3, r, 1.0 - r)
    xx = x[:, None]
    s = np.maximum(s, r[:, None])
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        w = np.where(s > 0, (s + xx) / (2.0 * s), 0.5)
        wc = np.where(s > 0, (s - xx) / (2.0 * s), 0.5)
        density = beta_pdf(a1[:, None], a2[:, None], w, wc) / (2.0 * s)
    return np.sum(np.nan_to_num(density, posinf=0.0) * weights, axis=1).reshape(shape)


def _difference_quantile(a1, a2, a3, q):
    """x with P(pi1 - pi2 <= x) = q, elementwise (the kernel's safeguarded Newton)."""
    shape, (a1, a2, a3, q) = _flat(a1, a2, a3, q)
    mean, sd = _difference_moments(a1, a2, a3)
    lo = np.maximum(mean - 8.0 * sd, -1.0)
    hi = np.minimum(mean + 8.0 * sd, 1.0)
    # Widen to the support where the moment bracket misses (skewed posteriors).
    lo = np.where(_difference_cdf(a1, a2, a3, lo) > q, -1.0, lo)
    hi = np.where(_difference_cdf(a1, a2, a3, hi) < q, 1.0, hi)

    def gap(x, index):
        return (_difference_cdf(a1[index], a2[index], a3[index], x) - q[index],
                _difference_pdf(a1[index], a2[index], a3[index], x))

    guess = np.clip(mean + sd * special.ndtri(q), lo, hi)
    return solve_increasing(gap, lo, hi, guess, xtol=1e-13).reshape(shape)


_ASYMPTOTIC_DIGAMMA = 20.0


def _digamma_tail(x):
    """psi(x) - log(x) for large x (asymptotic series, error < 1e-17 at x >= 20)."""
    x2 = 1.0 / (x * x)
    return -0.5 / x - x2 * (1 / 12 - x2 * (1 / 120 - x2 * (1 / 252 - x2 * (1 / 240 - x2 / 132))))


def _digamma_difference(a, b):
    """psi(a) - psi(b) without cancellation when a and b are large and close."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    # Computed as psi(high) - psi(low), then signed: exactly antisymmetric.
    high, low = np.maximum(a, b), np.minimum(a, b)
    big = low >= _ASYMPTOTIC_DIGAMMA
    safe_high = np.where(big, high, _ASYMPTOTIC_DIGAMMA)
    safe_low = np.where(big, low, _ASYMPTOTIC_DIGAMMA)
    asymptotic = (np.log1p((safe_high - safe_low) / safe_low) + _digamma_tail(safe_high)
                  - _digamma_tail(safe_low))
    value = np.where(big, asymptotic, special.digamma(high) - special.digamma(low))
    return np.where(a < b, -value, value)


def paired_probabilities(a1, a2, a3, rope):
    """``(P(delta > rope), P(|delta| <= rope), P(delta < -rope))`` under
    Dirichlet(a1, a2, a3), elementwise over arrays of any one shape.

    With ``rope = 0`` the closed form (Goutte & Gaussier 2005, eq. 17):
    ``P(pi1 > pi2) = 1 - I_{1/2}(a1, a2)``; otherwise the one-dimensional
    integrals of `_difference_sf`.
    """
    if rope == 0:
        first = special.betaincc(a1, a2, 0.5)
        second = special.betaincc(a2, a1, 0.5)
        return first, np.zeros_like(first), second
    first = _difference_sf(a1, a2, a3, rope)
    second = _difference_sf(a2, a1, a3, rope)
    return first, np.clip(1.0 - first - second, 0.0, 1.0), second


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


def _check_paired_prior(prior):
    """A float (or name) for alpha1 = alpha2 = alpha3, or a 3-tuple."""
    requirement = ("a float > 0, 'jeffreys', 'uniform' or a 3-tuple (alpha1, alpha2, alpha3) "
                   "of floats > 0")
    if isinstance(prior, (str, numbers.Real)) and not isinstance(prior, bool):
        value = check_prior(prior)
        return (value, value, value)
    if isinstance(prior, (tuple, list, np.ndarray)):
        values = list(np.asarray(prior, dtype=object).ravel()) if isinstance(prior, np.ndarray) \
            else list(prior)
        if len(values) != 3 or (isinstance(prior, np.ndarray) and prior.ndim != 1):
            fail("prior", requirement, prior)
        checked = []
        for value in values:
            if isinstance(value, bool) or not isinstance(value, (str, numbers.Real)):
                fail("prior", requirement, prior, error=TypeError)
            if isinstance(value, numbers.Real) and not (np.isfinite(value) and value > 0):
                fail("prior", requirement, prior)
            checked.append(check_prior(value))
        return tuple(checked)
    fail("prior", requirement, prior, error=TypeError)


# ---------------------------------------------------------------------------
# Paired comparison on the same items
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False, init=False)
class PairedComparison(ComparisonResult):
    """Paired Bayesian comparison of two systems on the same items.

    Each item is one of: the first system right and the second wrong
    (``N1``), the reverse (``N2``), or both alike (``N3``).  With a
    Dirichlet(alpha1, alpha2, alpha3) prior the posterior of the three
    probabilities is Dirichlet(N1 + alpha1, N2 + alpha2, N3 + alpha3)
    (Goutte & Gaussier 2005, eq. 16).  The compared quantity is the difference
    ``delta = pi1 - pi2`` (**first minus second**):

    - ``P(delta > 0) = P(pi1 > pi2) = 1 - I_{1/2}(N1 + alpha1, N2 + alpha2)``
      in closed form;
    - with a region of practical equivalence ``rope = r > 0``,
      ``prob_first_better = P(delta > r)``,
      ``prob_second_better = P(delta < -r)`` and
      ``prob_equivalent = P(|delta| <= r)``, each a one-dimensional integral
      through ``delta = S (2W - 1)``, ``S ~ Beta(a1 + a2, a3)`` independent
      of ``W ~ Beta(a1, a2)`` (``a = N + alpha``).

    The three probabilities always sum to 1; with ``rope=0`` the middle one
    is 0.  Counts pool by addition (`PairedCounts` ``+``), in any order
    (Goutte & Gaussier 2005, the note on sequential updating).

    Parameters
    ----------
    paired_counts : PairedCounts
        Paired counts, 0-d or per label (shape ``(K,)``).
    prior : float, {"jeffreys", "uniform"} or tuple of 3 floats, default=0.5
        Dirichlet prior: one concentration for the three cells, or
        ``(alpha1, alpha2, alpha3)``.  All > 0.
    rope : float, default=0.0
        Half-width of the region of practical equivalence of ``delta``; in [0, 1).

    Attributes
    ----------
    counts : PairedCounts
        The counts compared.
    prior : tuple of 3 floats
        ``(alpha1, alpha2, alpha3)``.
    rope : float
        Half-width of the region of practical equivalence.
    prob_first_better, prob_equivalent, prob_second_better : float or ndarray of shape (K,)
        ``P(delta > rope)``, ``P(|delta| <= rope)``, ``P(delta < -rope)``.
    n_clusters : int or None
        Clusters the sampled comparison rests on (`compare_paired` with
        ``groups=``), else None.
    n_items, n_labelled : float or None
        Items and items with a gold label (their weights) of `compare_paired`
        with ``proxy=``, else None; `counts` are then the labelled items'.
    effective_n : float, ndarray or None
        Sampled comparisons: the number of items of the counts' own
        Dirichlet that would give the difference the spread of the draws
        (fewer than the items with clusters; with a proxy, more than the
        gold labels when the proxy helps), else None.

    See Also
    --------
    compare_paired : The same from label arrays.
    compare_paired_metric : Paired comparison of a metric such as F1.

    Notes
    -----
    With ``r`` repeats of a cross-validation scheme every item is counted
    ``r`` times; divide pooled counts by ``r`` before comparing.

    References
    ----------
    .. [1] C. Goutte and E. Gaussier, "A probabilistic interpretation of
       precision, recall and F-score, with implication for evaluation",
       ECIR 2005, section 3.

    Examples
    --------
    Goutte & Gaussier (2005), Table 2, category 'earn' ('ltc' versus 'nnn'):
    17 items where the first is right alone, 4 where the second is.

    >>> from skprobeval import PairedComparison, PairedCounts
    >>> result = PairedComparison.from_counts(PairedCounts(17, 4, 3278))
    >>> round(result.prob_first_better, 4)
    0.9983
    >>> round(result.expected_log_odds, 4)
    1.4445
    >>> result.interval(0.95)
    CredibleInterval(low=0.0013, high=0.0069)
    >>> with_rope = PairedComparison.from_counts(PairedCounts(17, 4, 3278), rope=0.002)
    >>> round(with_rope.prob_first_better, 3), round(with_rope.prob_equivalent, 3)
    (0.923, 0.077)
    """

    counts: PairedCounts
    prior: tuple
    rope: float
    prob_first_better: float | np.ndarray
    prob_equivalent: float | np.ndarray
    prob_second_better: float | np.ndarray
    n_clusters: int | None
    effective_n: float | np.ndarray | None
    n_items: float | None
    n_labelled: float | None
    _draws: object

    def __init__(self, paired_counts, *, prior=0.5, rope=0.0):
        counts = paired_counts
        if not isinstance(counts, PairedCounts):
            fail("paired_counts", "a PairedCounts", counts, error=TypeError)
        alphas = _check_paired_prior(prior)
        rope = check_rope(rope)
        first, equivalent, second = paired_probabilities(
            counts.first_better + alphas[0], counts.second_better + alphas[1],
            counts.ties + alphas[2], rope)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "prior", alphas)
        object.__setattr__(self, "rope", rope)
        object.__setattr__(self, "prob_first_better", frozen_result(first))
        object.__setattr__(self, "prob_equivalent", frozen_result(equivalent))
        object.__setattr__(self, "prob_second_better", frozen_result(second))
        for name in ("n_clusters", "effective_n", "n_items", "n_labelled", "_draws"):
            object.__setattr__(self, name, None)

    @classmethod
    def _from_draws(cls, counts, alphas, rope, shares, *, n_clusters=None, n_items=None):
        """The comparison from draws of the three shares: items in clusters
        (`n_clusters`), or gold labels on some items and a proxy on all (`n_items`;
        `counts` are then the labelled items').

        `shares` has shape (n_draws, 3) or (n_draws, K, 3): the shares of items
        the first alone, the second alone and both alike get right.
        """
        self = object.__new__(cls)
        delta = shares[..., 0] - shares[..., 1]
        n_draws = delta.shape[0]
        first = (delta > rope).mean(axis=0)
        second = (delta < -rope).mean(axis=0)
        equivalent = (np.abs(delta) <= rope).mean(axis=0)
        with np.errstate(divide="ignore"):
            log_odds = np.log(shares[..., 0]) - np.log(shares[..., 1])
        error = np.sqrt(np.stack([first, equivalent, second]) * (1.0 - np.stack(
            [first, equivalent, second])) / n_draws).max(axis=0)
        # The variance of the difference of the counts' own Dirichlet (without the
        # clusters; of the labelled items alone), against that of the draws: the
        # effective number of items (of gold labels, with a proxy).
        a1, a2, a3 = (np.asarray(c, dtype=float) + a for c, a in zip(
            (counts.first_better, counts.second_better, counts.ties), alphas))
        total = a1 + a2 + a3
        plain = (a1 * (total - a1) + a2 * (total - a2) + 2 * a1 * a2) / (total ** 2 * (total + 1))
        n = np.asarray(counts.n, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            effective = n * plain / delta.var(axis=0, ddof=1)
        effective = np.where(np.isfinite(effective), effective, n)
        for name, value in (("counts", counts), ("prior", alphas), ("rope", rope),
                            ("prob_first_better", frozen_result(first)),
                            ("prob_equivalent", frozen_result(equivalent)),
                            ("prob_second_better", frozen_result(second)),
                            ("n_clusters", None if n_clusters is None else int(n_clusters)),
                            ("effective_n", frozen_result(effective)),
                            ("n_items", None if n_items is None else float(n_items)),
                            ("n_labelled", None if n_items is None else float(n)),
                            ("_draws", (np.sort(delta, axis=0), log_odds.mean(axis=0),
                                        frozen_result(error)))):
            object.__setattr__(self, name, value)
        return self

    @classmethod
    def from_counts(cls, paired_counts, *, prior=0.5, rope=0.0):
        """Compare two systems from their paired counts.

        Parameters
        ----------
        paired_counts : PairedCounts
            Counts of items where the first system alone is right, the second
            alone is right, and the rest; 0-d or per label.
        prior : float, {"jeffreys", "uniform"} or tuple of 3 floats, default=0.5
            Dirichlet prior ``(alpha1, alpha2, alpha3)`` (one float for all).
        rope : float, default=0.0
            Region of practical equivalence for ``delta = pi1 - pi2``
            (first minus second).

        Returns
        -------
        PairedComparison
            Probabilities are floats for 0-d counts, arrays of shape ``(K,)``
            for per-label counts.

        Examples
        --------
        >>> from skprobeval import PairedComparison, PairedCounts
        >>> counts = PairedCounts([17, 43, 24], [4, 28, 24], [3278, 3228, 3251])
        >>> PairedComparison.from_counts(counts).prob_first_better.round(4)
        array([0.9983, 0.9627, 0.5   ])
        """
        return cls(paired_counts, prior=prior, rope=rope)

    # -- derived quantities ---------------------------------------------

    @property
    def posterior_parameters(self):
        """Dirichlet posterior ``(N1 + alpha1, N2 + alpha2, N3 + alpha3)``."""
        c = self.counts
        return (frozen_result(c.first_better + self.prior[0]),
                frozen_result(c.second_better + self.prior[1]),
                frozen_result(c.ties + self.prior[2]))

    def _parameters(self):
        c = self.counts
        return (c.first_better + self.prior[0], c.second_better + self.prior[1],
                c.ties + self.prior[2])

    @property
    def expected_difference(self):
        """Posterior mean of ``pi1 - pi2`` (first minus second).

        Goutte & Gaussier (2005), eq. 20.
        """
        if self._draws is not None:
            return frozen_result(self._draws[0].mean(axis=0))
        a1, a2, a3 = self._parameters()
        return frozen_result((a1 - a2) / (a1 + a2 + a3))

    @property
    def expected_log_odds(self):
        """Posterior mean of ``log(pi1 / pi2)``: ``psi(a1) - psi(a2)``.

        Goutte & Gaussier (2005), eq. 21.
        """
        if self._draws is not None:
            return frozen_result(self._draws[1])
        a1, a2, _ = self._parameters()
        return frozen_result(_digamma_difference(a1, a2))

    @property
    def mc_error(self):
        """Monte Carlo error of the probabilities: 0.0 (exact) without clusters."""
        if self._draws is not None:
            return self._draws[2]
        return frozen_result(np.zeros(np.shape(self.prob_first_better)))

    def difference_interval(self, confidence=0.95):
        """Deprecated alias of `interval` (renamed in 0.2, removed in 0.3)."""
        warn_future("`difference_interval` was renamed `interval` in 0.2 and will be "
                    "removed in 0.3.")
        return self.interval(confidence)

    def interval(self, confidence=0.95):
        """Equal-tailed credible interval of ``delta = pi1 - pi2`` (first minus second).

        Parameters
        ----------
        confidence : float, default=0.95
            Posterior probability inside the interval.

        Returns
        -------
        CredibleInterval
            ``(low, high)``; floats, or arrays of shape ``(K,)``.

        Examples
        --------
        >>> from skprobeval import PairedComparison, PairedCounts
        >>> PairedComparison.from_counts(PairedCounts(8, 3, 711)).interval(0.9)
        CredibleInterval(low=-0.0006, high=0.0151)
        """
        confidence = check_confidence(confidence)
        tail = 0.5 * (1.0 - confidence)
        if self._draws is not None:
            low, high = np.quantile(self._draws[0], [tail, 1.0 - tail], axis=0)
            return CredibleInterval(frozen_result(low), frozen_result(high))
        a1, a2, a3 = self._parameters()
        low = _difference_quantile(a1, a2, a3, tail)
        high = _difference_quantile(a1, a2, a3, 1.0 - tail)
        # Each end is solved to 1e-13: where nearly all the mass is one spike (tiny
        # priors, a few light items) the two can cross by that much.
        low = np.minimum(low, high)
        return CredibleInterval(frozen_result(low), frozen_result(high))

    def _extra_dict(self):
        c = self.counts
        out = {"first_better": frozen_result(c.first_better),
               "second_better": frozen_result(c.second_better),
               "ties": frozen_result(c.ties), "expected_difference": self.expected_difference,
               "expected_log_odds": self.expected_log_odds}
        if self.n_clusters is not None:
            out.update(n_clusters=self.n_clusters, effective_n=self.effective_n)
        if self.n_items is not None:
            out.update(n_labelled=self.n_labelled, n_items=self.n_items,
                       effective_n=self.effective_n)
        return out

    def summary(self, confidence=0.95):
        """Counts, probabilities, expectations and the interval as a dict.

        Differences are first minus second.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the credible interval of the difference.

        Returns
        -------
        dict
            Keys ``prob_first_better``, ``prob_equivalent``,
            ``prob_second_better``, ``rope``, ``mc_error`` (0.0: exact),
            ``first_better``, ``second_better``, ``ties``,
            ``expected_difference``, ``expected_log_odds``, ``low``, ``high``,
            ``confidence``; values are floats, or arrays of shape ``(K,)``
            for per-label counts (``pandas.DataFrame(summary)`` then gives
            one row per label).

        Examples
        --------
        >>> from skprobeval import PairedComparison, PairedCounts
        >>> summary = PairedComparison.from_counts(PairedCounts(17, 4, 3278)).summary()
        >>> round(summary["prob_first_better"], 4), round(summary["expected_difference"], 5)
        (0.9983, 0.00394)
        """
        return ComparisonResult.summary(self, confidence)

    def __repr__(self):
        c = self.counts
        parts = []
        if c.labels is not None:
            parts.append(f"labels={format_array(c.labels)}")
        parts += [f"first_better={format_array(c.first_better)}",
                  f"second_better={format_array(c.second_better)}",
                  f"ties={format_array(c.ties)}",
                  f"prior=({', '.join(rounded(a) for a in self.prior)})",
                  f"rope={rounded(self.rope)}",
                  f"prob_first_better={rounded(self.prob_first_better)}",
                  f"prob_equivalent={rounded(self.prob_equivalent)}",
                  f"prob_second_better={rounded(self.prob_second_better)}"]
        if self.n_clusters is not None:
            parts += [f"mc_error={rounded(self.mc_error)}", f"n_clusters={self.n_clusters}",
                      f"effective_n={rounded(self.effective_n)}"]
        if self.n_items is not None:
            parts += [f"mc_error={rounded(self.mc_error)}",
                      f"n_labelled={_count(self.n_labelled)}", f"n_items={_count(self.n_items)}",
                      f"effective_n={rounded(self.effective_n)}"]
        return f"PairedComparison({', '.join(parts)})"


def _paired_counts(y_true, y_pred_a, y_pred_b, sample_weight):
    """PairedCounts with errors naming this module's arguments."""
    # Read once here, for the checks below and the counts.
    y_true, y_pred_a = to_host(y_true, "y_true"), to_host(y_pred_a, "y_pred_a")
    y_pred_b, sample_weight = to_host(y_pred_b, "y_pred_b"), to_host(sample_weight, "sample_weight")
    check_pair(y_true, y_pred_a, "y_true", "y_pred_a")
    check_pair(y_true, y_pred_b, "y_true", "y_pred_b")
    return PairedCounts.from_predictions(y_true, y_pred_a, y_pred_b, sample_weight=sample_weight)


def _proxy_comparison(y_true, y_pred_a, y_pred_b, proxy, *, prior, rope, sample_weight,
                      groups, n_draws, random_state):
    """`compare_paired` with gold labels on some items and a second labeller on all."""
    if groups is not None:
        fail("proxy", "None with `groups` (items in clusters with a second labeller are not "
             "modelled yet)", "an array", error=TypeError)
    alphas = _check_paired_prior(prior)
    rope = check_rope(rope)
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    y_pred_a, y_pred_b = to_host(y_pred_a, "y_pred_a"), to_host(y_pred_b, "y_pred_b")
    sample_weight = to_host(sample_weight, "sample_weight")
    table, gold, labelled, shares = proxy_paired_shares(
        to_host(y_true, "y_true"), y_pred_a, y_pred_b, to_host(proxy, "proxy"), alphas=alphas,
        sample_weight=sample_weight, n_draws=n_draws, rng=rng)
    counts = PairedCounts.from_predictions(
        gold, np.asarray(y_pred_a)[labelled], np.asarray(y_pred_b)[labelled],
        sample_weight=None if sample_weight is None else np.asarray(sample_weight)[labelled])
    return PairedComparison._from_draws(counts, alphas, rope, shares, n_items=table.n_items)


def _clustered_comparison(y_true, y_pred_a, y_pred_b, *, prior, rope, sample_weight, groups,
                          n_draws, random_state):
    """`compare_paired` with items in clusters: the clusters' Bayesian bootstrap of the
    three shares (the same cluster weights for both systems), or the exact
    comparison where every cluster holds one item."""
    y_true, y_pred_a = to_host(y_true, "y_true"), to_host(y_pred_a, "y_pred_a")
    y_pred_b, sample_weight = to_host(y_pred_b, "y_pred_b"), to_host(sample_weight, "sample_weight")
    check_pair(y_true, y_pred_a, "y_true", "y_pred_a")
    check_pair(y_true, y_pred_b, "y_true", "y_pred_b")
    first, second, weight, labels = paired_items(y_true, y_pred_a, y_pred_b, sample_weight)
    counts = PairedCounts.from_predictions(y_true, y_pred_a, y_pred_b,
                                           sample_weight=sample_weight)
    clusters = cluster_codes(groups, first.shape[0], weight=weight)
    alphas = _check_paired_prior(prior)
    rope = check_rope(rope)
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    if clusters.singletons:
        return PairedComparison(counts, prior=alphas, rope=rope)
    # Each item's cell of each comparison (label): 0 the first alone right, 1 the
    # second alone, 2 both alike; cells of label k at 3k, 3k + 1, 3k + 2.
    cell = np.where(first, 0, np.where(second, 1, 2))
    n_labels = 1 if cell.ndim == 1 else cell.shape[1]
    code = (cell.reshape(cell.shape[0], n_labels) + 3 * np.arange(n_labels)).ravel()
    data = np.ones(code.shape[0]) if weight is None else np.repeat(weight, n_labels)
    table = sp.csr_matrix((data, (np.repeat(clusters.codes, n_labels), code)),
                          shape=(clusters.n_clusters, 3 * n_labels))
    table.sum_duplicates()
    draws = cluster_table_draws(table, np.tile(alphas, n_labels),
                                cluster_concentration(clusters.n_clusters))
    parts = []
    size = draws.chunk_size()
    for start in range(0, n_draws, size):
        masses = draws.masses(min(size, n_draws - start), rng).reshape(-1, n_labels, 3)
        masses /= masses.sum(axis=-1, keepdims=True)
        parts.append(masses)
    shares = np.concatenate(parts)
    if labels is None:
        shares = shares[:, 0]
    return PairedComparison._from_draws(counts, alphas, rope, shares,
                                        n_clusters=clusters.n_clusters)


@renamed_keyword("n_samples", "n_draws")
def compare_paired(y_true, y_pred_a, y_pred_b, *, prior=0.5, rope=0.0, sample_weight=None,
                   groups=None, n_draws=N_DRAWS, random_state=None, proxy=None):
    """Paired Bayesian comparison of two systems' predictions on the same items.

    Counts the items the first system alone gets right (``N1``), the second
    alone (``N2``) and the rest (``N3``), then compares with
    `PairedComparison`.  The difference is ``delta = pi1 - pi2``, **first
    (``y_pred_a``) minus second (``y_pred_b``)**.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix (one comparison per
        column).
    y_pred_a, y_pred_b : array-like of the same shape as `y_true`
        Predictions of the first and second system.
    prior : float, {"jeffreys", "uniform"} or tuple of 3 floats, default=0.5
        Dirichlet prior ``(alpha1, alpha2, alpha3)`` (one float for all).
    rope : float, default=0.0
        Region of practical equivalence for ``delta``; in [0, 1).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights (fractional counts).
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        clusters, not the items, are then the draws from the population: the
        shares are drawn by the Bayesian bootstrap of the clusters, the same
        cluster weights for both systems, and the result is sampled (its
        `mc_error`, `n_clusters` and `effective_n` set).  Where every cluster
        holds one item, the exact comparison without `groups`.
        `sample_weight` weighs items within their clusters.
    n_draws : int, default=10_000
        Posterior draws with `groups` or `proxy` (the comparison is exact
        without).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of those draws.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label: the (gold, A, B) table is then drawn from the items'
        (proxy, A, B) shares and the gold label's shares within each from
        the labelled items (see `metric_posterior`), with the prior
        ``(alpha1, alpha2, alpha3)`` spread evenly over the cells where the
        first alone, the second alone or both alike are right, and the three
        shares are read off each draw.  Sampled; `counts` are the labelled
        items', `n_items` and `n_labelled` say how many, and `effective_n` is
        the number of gold labels alone that would give the difference the
        same spread.  With every item labelled, the exact comparison within
        Monte Carlo error (exactly its posterior for two labels).
        Single-label targets of at most 16 labels; not with `groups`.

    Returns
    -------
    PairedComparison
        Floats for 1-d labels; arrays of shape ``(n_labels,)`` for indicator
        matrices.

    See Also
    --------
    PairedComparison.from_counts : The same from counts.
    compare_paired_metric : Compare a metric (F1, ...) on the same items.

    Examples
    --------
    >>> from skprobeval import compare_paired
    >>> y_true = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1]
    >>> a = [1, 0, 1, 1, 0, 1, 0, 1, 1, 1]
    >>> b = [1, 1, 0, 1, 0, 0, 0, 1, 1, 0]
    >>> result = compare_paired(y_true, a, b)
    >>> result.counts
    PairedCounts(first_better=4, second_better=0, ties=6)
    >>> round(result.prob_first_better, 4)
    0.985

    Gold labels on 300 of 3 000 items, a second labeller on all:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 3_000)
    >>> a = np.where(rng.random(3_000) < 0.85, y, 1 - y)
    >>> b = np.where(rng.random(3_000) < 0.80, y, 1 - y)
    >>> judge = np.where(rng.random(3_000) < 0.95, y, 1 - y)
    >>> gold = np.where(np.arange(3_000) < 300, y, np.nan)
    >>> result = compare_paired(gold, a, b, proxy=judge, random_state=0)
    >>> result.n_labelled, result.n_items
    (300.0, 3000.0)
    >>> alone = compare_paired(y[:300], a[:300], b[:300])
    >>> width = np.subtract(*result.interval(0.95)[::-1])
    >>> bool(width < 0.8 * np.subtract(*alone.interval(0.95)[::-1]))
    True
    """
    if proxy is not None:
        return _proxy_comparison(y_true, y_pred_a, y_pred_b, proxy, prior=prior, rope=rope,
                                 sample_weight=sample_weight, groups=groups, n_draws=n_draws,
                                 random_state=random_state)
    if groups is not None:
        return _clustered_comparison(y_true, y_pred_a, y_pred_b, prior=prior, rope=rope,
                                     sample_weight=sample_weight, groups=groups,
                                     n_draws=n_draws, random_state=random_state)
    counts = _paired_counts(y_true, y_pred_a, y_pred_b, sample_weight)
    return PairedComparison(counts, prior=prior, rope=rope)


# ---------------------------------------------------------------------------
# Many systems
# ---------------------------------------------------------------------------


def pairwise_comparison(y_true, predictions, *, prior=0.5, rope=0.0, sample_weight=None):
    """Paired comparison of every pair of systems: P(row better than column).

    For each pair, the items where the row system alone is right and those
    where the column system alone is right give a `PairedComparison`; the
    entry is ``P(pi_row - pi_column > rope)``.  With ``rope=0`` the table is
    complementary: ``P[i, j] + P[j, i] = 1``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels.  For multilabel indicator matrices, the per-label counts
        are pooled (each item-label decision counts once).
    predictions : dict of str to array-like
        Predictions of each system on the same items, by name.
    prior : float, {"jeffreys", "uniform"} or tuple of 3 floats, default=0.5
        Dirichlet prior of the paired model.
    rope : float, default=0.0
        Region of practical equivalence; in [0, 1).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    pandas.DataFrame
        Square, indexed and labelled by the system names; the diagonal is NaN.

    Examples
    --------
    >>> from skprobeval import pairwise_comparison
    >>> y_true = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1]
    >>> table = pairwise_comparison(y_true, {
    ...     "a": [1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1],
    ...     "b": [1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1],
    ...     "c": [0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0]})
    >>> table.round(3)
    second      a      b      c
    first
    a         NaN  0.985  0.840
    b       0.015    NaN  0.241
    c       0.160  0.759    NaN
    """
    import pandas as pd

    if not isinstance(predictions, Mapping):
        fail("predictions", "a dict of system name to predictions", predictions, error=TypeError)
    if len(predictions) == 0:
        fail("predictions", "a non-empty dict of system name to predictions", predictions)
    alphas = _check_paired_prior(prior)
    rope = check_rope(rope)
    names = list(predictions)
    table = pd.DataFrame(np.nan, index=pd.Index(names, name="first"),
                         columns=pd.Index(names, name="second"))
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            counts = PairedCounts.from_predictions(y_true, predictions[first],
                                                   predictions[second],
                                                   sample_weight=sample_weight)
            if counts.shape != ():
                counts = counts.sum()
            result = PairedComparison(counts, prior=alphas, rope=rope)
            table.loc[first, second] = result.prob_first_better
            table.loc[second, first] = result.prob_second_better
    return table


def _count(value):
    """A count as an integer where it is one (weighted counts keep their decimals)."""
    return int(value) if float(value).is_integer() else rounded(value)
