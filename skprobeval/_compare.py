"""Comparing two systems (DESIGN §4; seed 000, sections 2.3 and 3).

Sign convention everywhere in this module: a difference is **first minus
second** (``a - b``), and ``prob_first_better`` is the posterior probability
that this difference exceeds the region of practical equivalence ``rope``.

* `PairedComparison` / `compare_paired`: the paired Dirichlet model of seed 000
  section 3 on the same items.  ``P(pi1 > pi2)`` in closed form; ``P(delta > r)``
  and the credible interval of ``delta = pi1 - pi2`` by one-dimensional
  quadrature through ``delta = S (2W - 1)`` with ``S ~ Beta(a1 + a2, a3)``
  independent of ``W ~ Beta(a1, a2)``.
* `compare_independent`: ``P(M_A > M_B)`` for systems tested on different
  data, exact by quadrature where the metric has an exact posterior.
* `compare_paired_metric`: the joint Dirichlet of (true label, prediction A,
  prediction B) -- 8 cells for a binary table, K x K x K for K classes -- so
  that ``P(F_A > F_B)`` (also of macro and micro averages) respects the
  pairing (sampled).
* `correlated_ttest`: the Bayesian correlated t-test over cross-validation
  folds (Benavoli et al. 2017; the Nadeau-Bengio variance correction).
* `pairwise_comparison`: the paired model for every pair of many systems.

Numerical notes
---------------
Expectations over a Beta variable (optionally conditioned on exceeding a
threshold) use a trapezoidal rule in the normal score ``z`` of its quantile
scale, ``E[g(X); X > c] = P(X > c) * int g(Q(Phi(z))) phi(z) dz``, with
quantiles taken on the side (``x`` or ``1 - x``) where they are small, so
that probabilities near 0 or 1 and parameters up to 1e12 stay accurate.  The
variable integrated numerically ("outer") is the one contributing less
spread to the compared quantity; the other enters through its exact cdf, so
the integrand is smooth on the outer variable's scale.  The rule is accurate
to about 1e-11 for counts with Jeffreys priors, and to about 1e-7 in the most
extreme cases tried (priors of 1e-3 next to counts of 1e11).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from ._counts import ConfusionCounts, PairedCounts, _check_pair, _format_array, joint_codes
from ._bayes import check_target_metric, exact_posterior
from ._joint import JointTable, average_values, dirichlet
from ._metrics import SHARE_OF_RIGHT, check_average, get_metric, label_weights
from ._numerics import EPS as _EPS
from ._numerics import beta_cdf, beta_pdf, beta_sd, beta_sf, beta_tail_nodes, solve_increasing
from ._posterior import (
    AffinePosterior,
    BetaPosterior,
    CredibleInterval,
    DifferencePosterior,
    FBetaPosterior,
    _fmt,
)
from ._validation import (
    check_confidence,
    check_positive,
    check_prior,
    check_random_state,
    check_sample_weight,
    fail,
)

__all__ = [
    "CorrelatedTTestResult",
    "MetricComparison",
    "PairedComparison",
    "compare_independent",
    "compare_paired",
    "compare_paired_metric",
    "correlated_ttest",
    "pairwise_comparison",
]

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


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


def _out(values):
    """Python float for 0-d values, a read-only float64 array otherwise."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 0:
        return float(values)
    values = values.copy()
    values.setflags(write=False)
    return values


def _check_rope(rope):
    return check_positive(rope, "rope", allow_zero=True)


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


def _check_n_samples(n_samples):
    if isinstance(n_samples, bool) or not isinstance(n_samples, (numbers.Integral, np.integer)):
        fail("n_samples", "a positive int", n_samples, error=TypeError)
    if n_samples < 1:
        fail("n_samples", "a positive int", n_samples)
    return int(n_samples)


# ---------------------------------------------------------------------------
# Paired comparison on the same items
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False, init=False)
class PairedComparison:
    """Paired Bayesian comparison of two systems on the same items.

    Each item is one of: the first system right and the second wrong
    (``N1``), the reverse (``N2``), or both alike (``N3``).  With a
    Dirichlet(alpha1, alpha2, alpha3) prior the posterior of the three
    probabilities is Dirichlet(N1 + alpha1, N2 + alpha2, N3 + alpha3)
    (seed 000, eq. 16).  The compared quantity is the difference
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
    (seed 000, the note on sequential updating).

    Parameters
    ----------
    paired_counts : PairedCounts
        Paired counts, 0-d or per label (shape ``(K,)``).
    prior : float, {"jeffreys", "uniform"} or tuple of 3 floats, default=0.5
        Dirichlet prior: one concentration for the three cells, or
        ``(alpha1, alpha2, alpha3)``.  All > 0.
    rope : float, default=0.0
        Half-width of the region of practical equivalence of ``delta``.

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
    C. Goutte and E. Gaussier, "A Probabilistic Interpretation of Precision,
    Recall and F-Score, with Implication for Evaluation", ECIR 2005, section 3.

    Examples
    --------
    Seed 000, Table 2, category 'earn' ('ltc' versus 'nnn'): 17 items where
    the first is right alone, 4 where the second is.

    >>> from skprobeval import PairedComparison, PairedCounts
    >>> result = PairedComparison.from_counts(PairedCounts(17, 4, 3278))
    >>> round(result.prob_first_better, 4)
    0.9983
    >>> round(result.expected_log_odds, 4)
    1.4445
    >>> result.difference_interval(0.95)
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

    def __init__(self, paired_counts, *, prior=0.5, rope=0.0):
        counts = paired_counts
        if not isinstance(counts, PairedCounts):
            fail("paired_counts", "a PairedCounts", counts, error=TypeError)
        alphas = _check_paired_prior(prior)
        rope = _check_rope(rope)
        a1 = counts.first_better + alphas[0]
        a2 = counts.second_better + alphas[1]
        a3 = counts.ties + alphas[2]
        if rope == 0:
            # Closed form (seed 000 eq. 17): P(pi1 > pi2) = 1 - I_{1/2}(a1, a2).
            first = special.betaincc(a1, a2, 0.5)
            second = special.betaincc(a2, a1, 0.5)
            equivalent = np.zeros_like(first)
        else:
            first = _difference_sf(a1, a2, a3, rope)
            second = _difference_sf(a2, a1, a3, rope)
            equivalent = np.clip(1.0 - first - second, 0.0, 1.0)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "prior", alphas)
        object.__setattr__(self, "rope", rope)
        object.__setattr__(self, "prob_first_better", _out(first))
        object.__setattr__(self, "prob_equivalent", _out(equivalent))
        object.__setattr__(self, "prob_second_better", _out(second))

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
        return (_out(c.first_better + self.prior[0]), _out(c.second_better + self.prior[1]),
                _out(c.ties + self.prior[2]))

    def _parameters(self):
        c = self.counts
        return (c.first_better + self.prior[0], c.second_better + self.prior[1],
                c.ties + self.prior[2])

    @property
    def expected_difference(self):
        """Posterior mean of ``pi1 - pi2`` (first minus second), seed 000 eq. 20."""
        a1, a2, a3 = self._parameters()
        return _out((a1 - a2) / (a1 + a2 + a3))

    @property
    def expected_log_odds(self):
        """Posterior mean of ``log(pi1 / pi2)``: ``psi(a1) - psi(a2)`` (seed 000 eq. 21)."""
        a1, a2, _ = self._parameters()
        return _out(_digamma_difference(a1, a2))

    def difference_interval(self, confidence=0.95):
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
        >>> PairedComparison.from_counts(PairedCounts(8, 3, 711)).difference_interval(0.9)
        CredibleInterval(low=-0.0006, high=0.0151)
        """
        confidence = check_confidence(confidence)
        a1, a2, a3 = self._parameters()
        tail = 0.5 * (1.0 - confidence)
        low = _difference_quantile(a1, a2, a3, tail)
        high = _difference_quantile(a1, a2, a3, 1.0 - tail)
        return CredibleInterval(_out(low), _out(high))

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
            Keys ``first_better``, ``second_better``, ``ties``,
            ``prob_first_better``, ``prob_equivalent``, ``prob_second_better``,
            ``expected_difference``, ``expected_log_odds``, ``low``, ``high``,
            ``confidence``, ``rope``; values are floats, or arrays of shape
            ``(K,)`` for per-label counts (``pandas.DataFrame(summary)``
            then gives one row per label).

        Examples
        --------
        >>> from skprobeval import PairedComparison, PairedCounts
        >>> summary = PairedComparison.from_counts(PairedCounts(17, 4, 3278)).summary()
        >>> round(summary["prob_first_better"], 4), round(summary["expected_difference"], 5)
        (0.9983, 0.00394)
        """
        interval = self.difference_interval(confidence)
        c = self.counts
        return {
            "first_better": _out(c.first_better),
            "second_better": _out(c.second_better),
            "ties": _out(c.ties),
            "prob_first_better": self.prob_first_better,
            "prob_equivalent": self.prob_equivalent,
            "prob_second_better": self.prob_second_better,
            "expected_difference": self.expected_difference,
            "expected_log_odds": self.expected_log_odds,
            "low": interval.low,
            "high": interval.high,
            "confidence": confidence,
            "rope": self.rope,
        }

    def __repr__(self):
        c = self.counts
        parts = []
        if c.labels is not None:
            parts.append(f"labels={_format_array(c.labels)}")
        parts += [f"first_better={_format_array(c.first_better)}",
                  f"second_better={_format_array(c.second_better)}",
                  f"ties={_format_array(c.ties)}",
                  f"prior=({', '.join(_fmt(a) for a in self.prior)})",
                  f"rope={_fmt(self.rope)}",
                  f"prob_first_better={_fmt(self.prob_first_better)}",
                  f"prob_equivalent={_fmt(self.prob_equivalent)}",
                  f"prob_second_better={_fmt(self.prob_second_better)}"]
        return f"PairedComparison({', '.join(parts)})"


def _paired_counts(y_true, y_pred_a, y_pred_b, sample_weight):
    """PairedCounts with errors naming this module's arguments."""
    _check_pair(y_true, y_pred_a, "y_true", "y_pred_a")
    _check_pair(y_true, y_pred_b, "y_true", "y_pred_b")
    return PairedCounts.from_predictions(y_true, y_pred_a, y_pred_b, sample_weight=sample_weight)


def compare_paired(y_true, y_pred_a, y_pred_b, *, prior=0.5, rope=0.0, sample_weight=None):
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
        Region of practical equivalence for ``delta``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights (fractional counts).

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
    """
    counts = _paired_counts(y_true, y_pred_a, y_pred_b, sample_weight)
    return PairedComparison(counts, prior=prior, rope=rope)


# ---------------------------------------------------------------------------
# Comparing a metric: result type shared by the independent and paired cases
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class MetricComparison:
    """Posterior probabilities that one system's metric beats another's.

    Returned by `compare_independent` and `compare_paired_metric`.  The
    compared quantity is the metric difference ``M_first - M_second`` (**first
    minus second**).

    Attributes
    ----------
    metric : str
        Registry name of the compared metric.
    paired : bool
        True for the paired (same items) model, False for independent data.
    method : {"exact", "sampled"}
        "exact": quadrature (accurate to about 1e-10 for Beta metrics and
        F1, 1e-7 or better for nested quadrature), or an exact identity;
        "sampled": Monte Carlo with `mc_error`.
    prob_first_better : float or ndarray of shape (K,)
        ``P(M_first - M_second > rope)``.
    prob_equivalent : float or ndarray of shape (K,)
        ``P(|M_first - M_second| <= rope)`` (0 for independent continuous
        posteriors with ``rope = 0``).
    prob_second_better : float or ndarray of shape (K,)
        ``P(M_first - M_second < -rope)``.
    mc_error : float or ndarray of shape (K,)
        Monte Carlo standard error of the probabilities (the largest of the
        three); 0.0 when exact.
    rope : float
        Region of practical equivalence.
    n_samples : int
        Posterior draws used (0 when exact).

    Examples
    --------
    >>> from skprobeval import ConfusionCounts, compare_independent
    >>> result = compare_independent(ConfusionCounts(3, 2, 0, 0), ConfusionCounts(10, 10, 0, 0),
    ...                              metric="precision")
    >>> result
    MetricComparison(metric='precision', paired=False, method='exact', prob_first_better=0.6522, prob_equivalent=0.0, prob_second_better=0.3478, mc_error=0.0, rope=0.0, n_samples=0)
    """

    metric: str
    paired: bool
    method: str
    prob_first_better: float | np.ndarray
    prob_equivalent: float | np.ndarray
    prob_second_better: float | np.ndarray
    mc_error: float | np.ndarray
    rope: float
    n_samples: int

    def __repr__(self):
        parts = [f"metric={self.metric!r}", f"paired={self.paired}", f"method={self.method!r}"]
        for name in ("prob_first_better", "prob_equivalent", "prob_second_better", "mc_error",
                     "rope"):
            parts.append(f"{name}={_fmt(getattr(self, name))}")
        parts.append(f"n_samples={self.n_samples}")
        return f"MetricComparison({', '.join(parts)})"


# ---------------------------------------------------------------------------
# Independent data (seed 000, section 2.3)
# ---------------------------------------------------------------------------

def _prob_beta_greater(a1, b1, a2, b2):
    """P(X1 > X2) for independent X1 ~ Beta(a1, b1), X2 ~ Beta(a2, b2), elementwise.

    ``int pdf_1(x) cdf_2(x) dx``, integrating over the narrower of the two
    (the wider enters through its exact cdf).
    """
    shape, (a1, b1, a2, b2) = _flat(a1, b1, a2, b2)
    out = np.empty(a1.shape)
    zeros, ones = np.zeros(a1.shape), np.ones(a1.shape)
    outer_first = beta_sd(a1, b1) <= beta_sd(a2, b2)
    for mask, (ao, bo, ai, bi), inner in (
            (outer_first, (a1, b1, a2, b2), beta_cdf),      # E_1[P(X2 < X1)]
            (~outer_first, (a2, b2, a1, b1), beta_sf)):     # E_2[P(X1 > X2)]
        if not np.any(mask):
            continue
        x, xc, weights = beta_tail_nodes(ao[mask], bo[mask], zeros[mask], ones[mask])
        n_nodes = x.shape[1]
        values = inner(np.repeat(ai[mask], n_nodes), np.repeat(bi[mask], n_nodes),
                       x.reshape(-1), xc.reshape(-1)).reshape(x.shape)
        out[mask] = np.sum(np.nan_to_num(values) * weights, axis=1)
    return np.clip(out, 0.0, 1.0).reshape(shape)


# Metrics with an exact (quadrature) posterior object: P(M_A > M_B) by nested
# quadrature, E_O[F_I(M_O)] over the narrower posterior O on a coarser grid
# (each node costs a quantile of a quadrature-defined cdf).
_NESTED_STEP = 0.25
_NESTED_Z = np.arange(-7.5, 7.5 + _NESTED_STEP / 2, _NESTED_STEP)
_NESTED_WEIGHTS = np.exp(-0.5 * _NESTED_Z * _NESTED_Z)
_NESTED_WEIGHTS /= _NESTED_WEIGHTS.sum()
_NESTED_LOWER = _NESTED_Z <= 0


def _prob_greater(first, second):
    """P(M_1 > M_2) for independent exact posteriors of one metric.

    Beta against Beta, and F1 against F1 (``F1 = 2B/(1+B)`` is a monotone
    map of ``B ~ Beta(tp, fp + fn)``, shared by both), integrate one Beta
    against the other's cdf; affine maps unwrap (a negative scale swaps the
    two); any other pair goes through nested quadrature.
    """
    if isinstance(first, AffinePosterior):
        if first.scale > 0:
            return _prob_greater(first.base, second.base)
        return _prob_greater(second.base, first.base)
    if isinstance(first, FBetaPosterior) and first.beta == 1.0:
        first = BetaPosterior(first.tp, first.fp + first.fn)
        second = BetaPosterior(second.tp, second.fp + second.fn)
    if isinstance(first, BetaPosterior):
        forward = _prob_beta_greater(first.a, first.b, second.a, second.b)
        backward = _prob_beta_greater(second.a, second.b, first.a, first.b)
        return forward / (forward + backward)    # 1 up to the quadrature error
    return np.clip(_prob_posterior_greater(first, second), 0.0, 1.0)


def _nested(outer, inner, kind):
    """E_O[inner.cdf(M_O)] (kind "cdf") or E_O[inner.sf(M_O)], O ~ outer."""
    shape = (_NESTED_Z.shape[0],) + outer.shape
    z = _NESTED_Z.reshape((-1,) + (1,) * len(outer.shape))
    x = np.empty(shape)
    lower = _NESTED_LOWER
    x[lower] = outer.ppf(np.broadcast_to(special.ndtr(z[lower]), (int(lower.sum()),)
                                         + outer.shape))
    x[~lower] = outer.isf(np.broadcast_to(special.ndtr(-z[~lower]), (int((~lower).sum()),)
                                          + outer.shape))
    values = np.asarray(getattr(inner, kind)(x))
    return np.tensordot(_NESTED_WEIGHTS, np.nan_to_num(values), axes=(0, 0))


def _prob_posterior_greater(first, second):
    """P(M_1 > M_2) for independent posterior objects of one shape (nested quadrature)."""
    outer_first = np.asarray(first.std()) <= np.asarray(second.std())
    if first.shape == ():
        if outer_first:
            return np.asarray(_nested(first, second, "cdf"))      # E_1[P(M_2 < M_1)]
        return np.asarray(_nested(second, first, "sf"))           # E_2[P(M_1 > M_2)]
    out = np.empty(first.shape)
    for index, flip in ((np.flatnonzero(outer_first), False),
                        (np.flatnonzero(~outer_first), True)):
        if index.size:
            if flip:
                out[index] = _nested(second[index], first[index], "sf")
            else:
                out[index] = _nested(first[index], second[index], "cdf")
    return out


_CHUNK = 1 << 16


def _sampled_independent(spec, params, counts_a, counts_b, lam, rope, n_samples, rng):
    """Monte Carlo P(M_A - M_B > rope) etc. from two independent Dirichlet posteriors."""
    cells_a = np.stack([counts_a.tp, counts_a.fp, counts_a.fn, counts_a.tn], axis=-1) + lam
    cells_b = np.stack([counts_b.tp, counts_b.fp, counts_b.fn, counts_b.tn], axis=-1) + lam
    above = np.zeros(counts_a.shape)
    below = np.zeros(counts_a.shape)
    defined = np.zeros(counts_a.shape)
    for start in range(0, n_samples, _CHUNK):
        size = min(_CHUNK, n_samples - start)
        da = dirichlet(cells_a, size, rng)
        db = dirichlet(cells_b, size, rng)
        with np.errstate(all="ignore"):
            diff = (spec.function(*np.moveaxis(da, -1, 0), **params)
                    - spec.function(*np.moveaxis(db, -1, 0), **params))
        above += (diff > rope).sum(axis=0)
        below += (diff < -rope).sum(axis=0)
        defined += (~np.isnan(diff)).sum(axis=0)
    with np.errstate(invalid="ignore"):
        first, second = above / defined, below / defined
    equivalent = np.clip(1.0 - first - second, 0.0, 1.0)
    probs = np.stack([first, equivalent, second])
    error = np.sqrt(probs * (1.0 - probs) / np.maximum(defined, 1)).max(axis=0)
    return first, equivalent, second, error


def compare_independent(counts_a, counts_b, *, metric="f1", prior=0.5, beta=1.0,
                        n_samples=100_000, random_state=None):
    """Posterior probability that system A's metric beats system B's on independent data.

    Each system's four confusion cells get their own Dirichlet posterior
    (DESIGN §3), and ``P(M_A > M_B) = int pdf_A(x) cdf_B(x) dx`` (seed 000,
    eq. 12).  The difference is **first (A) minus second (B)**.

    Which metrics are exact is the registry's one table (`MetricSpec.exact`,
    shared with `metric_posterior`):

    - Exact (one-dimensional quadrature, accurate to about 1e-10) for the
      metrics whose posterior is a Beta distribution -- precision, recall,
      specificity, fallout, npv, silence, noise, accuracy, error,
      generality, overlap -- and for F1 (and the E-measure at
      ``beta=1``): ``F1 = 2B/(1+B)`` with ``B ~ Beta(tp + lam, fp + fn + 2 lam)``
      is a monotone map shared by both systems, so
      ``P(F1_A > F1_B) = P(B_A > B_B)``.
    - Exact by nested quadrature (about 1e-7 or better; a few tenths of a
      second per table) for F-beta with ``beta != 1`` (and the E-measure),
      informedness, balanced accuracy and markedness:
      ``E_O[F_I(M_O)]`` over quantile nodes of the narrower posterior ``O``,
      with the exact cdf ``F_I`` of the other.
    - Sampled from the two Dirichlet posteriors, with the Monte Carlo
      standard error in ``mc_error``, for the others (MCC, K-measure).
      Draws where a metric is undefined because sampled cells underflowed
      to 0 (possible only with priors far below 1) are left out.

    Two identical tables give exactly 1/2 each way (exchangeable posteriors).

    Parameters
    ----------
    counts_a, counts_b : ConfusionCounts
        Confusion counts of the two systems, of one common shape (0-d, or
        ``(K,)`` for one comparison per label).
    metric : str, default="f1"
        A name from `available_metrics`.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration ``lam`` of each cell.
    beta : float, default=1.0
        F-beta / E-measure weight (for ``metric="fbeta"`` or
        ``"e_measure"``).
    n_samples : int, default=100_000
        Posterior draws per system when sampling.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the sampled route (identical seeds give identical results).

    Returns
    -------
    MetricComparison
        ``prob_first_better = P(M_A > M_B)``; floats for 0-d counts, arrays
        of shape ``(K,)`` for per-label counts.  ``method`` says whether it
        is exact.

    See Also
    --------
    compare_paired_metric : The comparison when both systems ran on the same items.

    References
    ----------
    C. Goutte and E. Gaussier, ECIR 2005, sections 2.2 and 2.3.

    Examples
    --------
    Seed 000, section 2.2: system 2 (TP=3, FP=2) against system 1 (TP=10,
    FP=10) on precision, Jeffreys prior.

    >>> from skprobeval import ConfusionCounts, compare_independent
    >>> system_1 = ConfusionCounts(tp=10, fp=10, fn=0, tn=0)
    >>> system_2 = ConfusionCounts(tp=3, fp=2, fn=0, tn=0)
    >>> round(compare_independent(system_2, system_1, metric="precision").prob_first_better, 4)
    0.6522
    >>> a, b = ConfusionCounts(90, 10, 12, 888), ConfusionCounts(80, 15, 20, 885)
    >>> f1 = compare_independent(a, b)
    >>> f1.method, round(f1.prob_first_better, 4)
    ('exact', 0.969)
    >>> mcc = compare_independent(a, b, metric="mcc", random_state=0)
    >>> mcc.method, round(mcc.prob_first_better, 2), mcc.mc_error < 0.002
    ('sampled', 0.97, True)
    """
    for value, name in ((counts_a, "counts_a"), (counts_b, "counts_b")):
        if not isinstance(value, ConfusionCounts):
            fail(name, "a ConfusionCounts", value, error=TypeError)
    if counts_a.shape != counts_b.shape:
        fail("counts_b", f"of the same shape as `counts_a` {counts_a.shape}", counts_b,
             shown=f"shape {counts_b.shape}")
    spec = get_metric(metric)
    lam = check_prior(prior)
    beta = check_positive(beta, "beta")
    n_samples = _check_n_samples(n_samples)
    rng = check_random_state(random_state)
    params = {"beta": beta} if "beta" in spec.params else {}
    # Identical tables give exchangeable posteriors of a continuous metric:
    # exactly 1/2 each way, whatever the quadrature or sampling would say.
    same = ((counts_a.tp == counts_b.tp) & (counts_a.fp == counts_b.fp)
            & (counts_a.fn == counts_b.fn) & (counts_a.tn == counts_b.tn))
    zero = np.zeros(counts_a.shape)

    def result(method, first, equivalent, second, error, n):
        first, second = np.where(same, 0.5, first), np.where(same, 0.5, second)
        equivalent, error = np.where(same, 0.0, equivalent), np.where(same, 0.0, error)
        return MetricComparison(spec.name, False, method, _out(first), _out(equivalent),
                                _out(second), _out(error), 0.0, n)

    if np.all(same):
        return result("exact", zero, zero, zero, zero, 0)
    posterior_a = exact_posterior(counts_a, spec.name, lam, beta)
    if posterior_a is not None:
        # Continuous posteriors: P(M_A = M_B) = 0, so one integral gives both.
        first = _prob_greater(posterior_a, exact_posterior(counts_b, spec.name, lam, beta))
        return result("exact", first, zero, 1.0 - first, zero, 0)
    first, equivalent, second, error = _sampled_independent(
        spec, params, counts_a, counts_b, lam, 0.0, n_samples, rng)
    return result("sampled", first, equivalent, second, error, n_samples)


# ---------------------------------------------------------------------------
# Paired metric comparison: the joint Dirichlet of (true label, A, B)
# ---------------------------------------------------------------------------


def compare_paired_metric(y_true, y_pred_a, y_pred_b, *, metric="f1", average="binary",
                          labels=None, prior=0.5, rope=0.0, beta=1.0, pos_label=1,
                          n_samples=100_000, random_state=None, sample_weight=None):
    """Paired comparison of a metric (F1, macro F1, ...) of two systems on the same items.

    Every item falls into one cell of the table (true label, prediction of
    A, prediction of B): 8 cells for a binary table, K x K x K for K
    classes.  A Dirichlet posterior over these cells gives both systems'
    confusion tables jointly, so ``P(M_A - M_B > rope)`` respects the
    pairing: a small but consistent advantage counts for more than the same
    difference between independent samples.  The difference is **first (A)
    minus second (B)**.  Sampled (seeded), with the Monte Carlo standard
    error in ``mc_error``.

    The prior (λ = `prior`) is spread so that each system's own table gets
    exactly its one-system prior, and every "who is right" outcome has mass:
    λ/2 on each cell where both are right; λ / (2(K - 1)) on each cell where
    only A is right, only B is right, or both give the same wrong label;
    none where both are wrong with different labels (the user guide's page
    on comparisons derives it).  For a binary table all 8
    cells get λ/2.  Multilabel indicator targets: one 8-cell table per
    column, independent of the others.

    Two systems that agree on every item are the same classifier on these
    data: their metric difference is identically 0, and the result is
    exactly ``prob_equivalent = 1`` for any ``rope >= 0`` (``method="exact"``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix.
    y_pred_a, y_pred_b : array-like of the same shape as `y_true`
        Predictions of the first and second system.
    metric : str, default="f1"
        A name from `available_metrics`.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        As in `sklearn.metrics.f1_score`: ``"binary"`` compares the table of
        `pos_label`; ``"micro"`` the pooled tables (for single-label
        multiclass data and every label: the share of items right);
        ``"macro"`` the mean over labels; ``"weighted"`` the mean weighted by
        the observed support; ``"powers"`` (informedness and markedness
        only) Powers' weighting by predicted (true) share; ``None`` one
        comparison per label.
    labels : array-like, default=None
        Labels to average over, in order (they must occur in the data); by
        default every label (the column indices for multilabel data).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        λ of each system's table (see above).
    rope : float, default=0.0
        Region of practical equivalence for the metric difference.
    beta : float, default=1.0
        F-beta / E-measure weight (for ``metric="fbeta"`` or ``"e_measure"``).
    pos_label : int, float, bool or str, default=1
        The positive class of ``average="binary"``.
    n_samples : int, default=100_000
        Posterior draws.
    random_state : None, int or numpy.random.Generator, default=None
        Seed (identical seeds give identical results).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; they act as counts.

    Returns
    -------
    MetricComparison
        With ``paired=True``; probabilities are floats, or arrays of shape
        ``(n_labels,)`` for ``average=None``.

    See Also
    --------
    compare_paired : Which system is right more often (exact).
    compare_independent : The comparison for systems tested on different data.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import compare_paired_metric
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, size=400)
    >>> y_a = np.where(rng.random(400) < 0.85, y_true, 1 - y_true)
    >>> y_b = np.where(rng.random(400) < 0.82, y_true, 1 - y_true)
    >>> result = compare_paired_metric(y_true, y_a, y_b, metric="f1", random_state=0)
    >>> result.method, round(result.prob_first_better, 2)
    ('sampled', 0.9)
    >>> compare_paired_metric(y_true, y_a, y_a, rope=0.01).prob_equivalent
    1.0

    Three classes, macro F1:

    >>> y_true = rng.integers(0, 3, size=300)
    >>> y_a = np.where(rng.random(300) < 0.8, y_true, rng.integers(0, 3, size=300))
    >>> y_b = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 3, size=300))
    >>> result = compare_paired_metric(y_true, y_a, y_b, average="macro", n_samples=20_000,
    ...                                random_state=0)
    >>> round(result.prob_first_better, 2), result.mc_error < 0.005
    (0.85, True)
    """
    spec = get_metric(metric)
    average = check_average(average, spec.name)
    lam = check_prior(prior)
    rope = _check_rope(rope)
    beta = check_positive(beta, "beta")
    n_samples = _check_n_samples(n_samples)
    rng = check_random_state(random_state)
    joint = joint_codes(y_true, [y_pred_a, y_pred_b], average=average, labels=labels,
                        pos_label=pos_label, sample_weight=sample_weight,
                        names=["y_true", "y_pred_a", "y_pred_b"])
    return paired_metric_from_codes(joint, spec, average=average, lam=lam, rope=rope, beta=beta,
                                    n_samples=n_samples, rng=rng)


def paired_metric_from_codes(joint, spec, *, average, lam, rope, beta, n_samples, rng,
                             masks=None):
    """`compare_paired_metric` on validated, encoded labels (truth and two systems).

    ``masks``: for each system, the requested labels its average runs over
    (scikit-learn's default label set of that system: the labels of the
    truth and of its own predictions); None for all of them.
    """
    check_target_metric(joint, spec.name, average)
    table = JointTable(joint, lam)
    shape = (joint.n_requested,) if average is None and joint.kind != "binary" else ()
    if not table.any_difference:
        # No item where the predictions differ: delta is identically 0.
        return MetricComparison(spec.name, True, "exact", _out(np.zeros(shape)),
                                _out(np.ones(shape)), _out(np.zeros(shape)),
                                _out(np.zeros(shape)), rope, 0)
    params = {"beta": beta} if "beta" in spec.params else {}
    combine = "binary" if joint.kind == "binary" else average
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    share = every and spec.name in SHARE_OF_RIGHT | {"error"}
    if masks is None or combine in ("binary", None):
        masks = (slice(None), slice(None))
    weights = [label_weights(joint.counts(system)[mask], combine, spec.name)
               if combine not in ("binary", None) else None
               for system, mask in zip((1, 2), masks)]
    above = below = defined = 0
    for cells_a, cells_b in table.sample(n_samples, rng):
        if combine == "binary":
            values = [np.asarray(spec.function(*(c[:, 0] for c in cells), **params))
                      for cells in (cells_a, cells_b)]
        else:
            values = [average_values(spec.function, params, tuple(c[:, mask] for c in cells),
                                     combine, w, share_of_right=share)
                      for cells, w, mask in zip((cells_a, cells_b), weights, masks)]
        if spec.name == "error" and share and combine == "micro":
            values = [1.0 - v for v in values]
        with np.errstate(invalid="ignore"):
            diff = values[0] - values[1]
        above = above + (diff > rope).sum(axis=0)
        below = below + (diff < -rope).sum(axis=0)
        defined = defined + (~np.isnan(diff)).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        first = np.asarray(above / defined, dtype=float)
        second = np.asarray(below / defined, dtype=float)
        equivalent = np.asarray((defined - above - below) / defined, dtype=float)
    error = np.sqrt(np.stack([first, equivalent, second]) * (1.0 - np.stack(
        [first, equivalent, second])) / np.maximum(defined, 1)).max(axis=0)
    return MetricComparison(spec.name, True, "sampled", _out(first), _out(equivalent),
                            _out(second), _out(error), rope, n_samples)


# ---------------------------------------------------------------------------
# Per-fold scores: the Bayesian correlated t-test
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class CorrelatedTTestResult:
    """Posterior of the mean score difference over cross-validation folds.

    The mean difference (**first minus second**) has a Student-t posterior
    with ``df`` degrees of freedom, location `mean` and scale `scale`
    (Benavoli et al. 2017).

    Attributes
    ----------
    mean : float
        Mean of the per-fold differences ``scores_a - scores_b``.
    scale : float
        ``sqrt((1/n + rho/(1 - rho)) s^2)``, ``rho = test_fraction``; 0 when
        all differences are equal.
    df : int
        ``n - 1``.
    n : int
        Number of scores (folds x runs).
    test_fraction : float
        Share of the data in each test fold (``1/k`` for k-fold).
    runs : int
        Repetitions of the cross-validation.
    rope : float
        Region of practical equivalence.
    prob_first_better, prob_equivalent, prob_second_better : float
        ``P(mu > rope)``, ``P(|mu| <= rope)``, ``P(mu < -rope)`` for the
        mean difference ``mu``.

    Examples
    --------
    >>> from skprobeval import correlated_ttest
    >>> result = correlated_ttest([0.81, 0.84, 0.79, 0.85, 0.83], [0.80, 0.82, 0.80, 0.82, 0.81],
    ...                           test_fraction=0.2)
    >>> result
    CorrelatedTTestResult(mean=0.014, scale=0.0102, df=4, rope=0.0, prob_first_better=0.8796, prob_equivalent=0.0, prob_second_better=0.1204)
    >>> result.interval(0.9)
    CredibleInterval(low=-0.0077, high=0.0357)
    """

    mean: float
    scale: float
    df: int
    n: int
    test_fraction: float
    runs: int
    rope: float
    prob_first_better: float
    prob_equivalent: float
    prob_second_better: float

    @property
    def posterior(self):
        """The posterior as a frozen `scipy.stats.t` (None when `scale` is 0).

        With zero scale the posterior is a point mass at `mean`.
        """
        if self.scale == 0:
            return None
        return stats.t(self.df, loc=self.mean, scale=self.scale)

    def interval(self, confidence=0.95):
        """Equal-tailed credible interval of the mean difference (first minus second).

        Parameters
        ----------
        confidence : float, default=0.95
            Posterior probability inside the interval.

        Returns
        -------
        CredibleInterval
            ``(low, high)`` as floats; ``(mean, mean)`` when `scale` is 0.

        Examples
        --------
        >>> from skprobeval import correlated_ttest
        >>> correlated_ttest([0.9, 0.8, 0.85], [0.7, 0.75, 0.7], test_fraction=1 / 3).interval()
        CredibleInterval(low=-0.1667, high=0.4333)
        """
        confidence = check_confidence(confidence)
        if self.scale == 0:
            return CredibleInterval(self.mean, self.mean)
        low, high = stats.t.interval(confidence, self.df, loc=self.mean, scale=self.scale)
        return CredibleInterval(float(low), float(high))

    def __repr__(self):
        parts = [f"mean={_fmt(self.mean)}", f"scale={_fmt(self.scale)}", f"df={self.df}",
                 f"rope={_fmt(self.rope)}"]
        for name in ("prob_first_better", "prob_equivalent", "prob_second_better"):
            parts.append(f"{name}={_fmt(getattr(self, name))}")
        return f"CorrelatedTTestResult({', '.join(parts)})"


def _check_scores(values, name):
    array = np.asarray(values)
    if array.dtype.kind not in "iuf" or array.ndim != 1:
        if array.dtype.kind not in "iufb":
            fail(name, "a 1-d array of real scores", values, error=TypeError)
        fail(name, "a 1-d array of real scores", values, shown=f"shape {array.shape}")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        fail(name, "finite (no NaN or inf)", values)
    return array


def correlated_ttest(scores_a, scores_b, *, test_fraction, rope=0.0, runs=1):
    """Bayesian correlated t-test on per-fold scores of two models.

    With per-fold differences ``d = scores_a - scores_b`` (**first minus
    second**) over ``n`` = folds x runs, mean ``d_bar`` and sample variance
    ``s^2``, the posterior of the mean difference is Student-t with
    ``n - 1`` degrees of freedom, location ``d_bar`` and scale
    ``sqrt((1/n + rho/(1 - rho)) s^2)``, where ``rho = test_fraction``
    accounts for the overlap of training sets (Nadeau and Bengio's
    correction).  With a region of practical equivalence it yields the
    probabilities that the first model is better, that the two are
    practically equivalent, and that the second is better.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n,)
        Scores of the two models on the same folds, in the same order
        (``n >= 2``).
    test_fraction : float
        Share of the data in each test fold, in (0, 1): ``1/k`` for k-fold
        cross-validation (repeated or not).
    rope : float, default=0.0
        Region of practical equivalence for the mean difference.
    runs : int, default=1
        Repetitions of the cross-validation; ``n`` must be a multiple of it.
        It does not enter the computation (the correction depends on
        `test_fraction` alone).

    Returns
    -------
    CorrelatedTTestResult
        Probabilities, the Student-t posterior (``.posterior``) and its
        credible interval (``.interval(confidence)``).

    Notes
    -----
    This equals ``baycomp.two_on_single(scores_b, scores_a, rope, runs)``
    (baycomp's difference is ``y - x``; its ``(p_left, p_rope, p_right)``
    are our (second better, equivalent, first better)) when
    ``test_fraction = runs / n``, the value baycomp assumes (k-fold with
    ``k = n / runs``).  When all differences are equal the posterior is a
    point mass at ``d_bar``: the probability goes wholly to the region where
    ``d_bar`` falls, ``[-rope, rope]`` counting as equivalent (so equal
    scores are equivalent even with ``rope=0``, where baycomp splits 0.5/0.5).

    References
    ----------
    A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a change: a
    tutorial for comparing multiple classifiers through Bayesian analysis",
    JMLR 18, 2017.  C. Nadeau and Y. Bengio, "Inference for the
    generalization error", Machine Learning 52, 2003.

    Examples
    --------
    Ten-fold cross-validation repeated twice:

    >>> import numpy as np
    >>> from skprobeval import correlated_ttest
    >>> rng = np.random.default_rng(0)
    >>> a = 0.80 + 0.02 * rng.standard_normal(20)
    >>> b = a - 0.004 + 0.01 * rng.standard_normal(20)
    >>> result = correlated_ttest(a, b, test_fraction=0.1, runs=2, rope=0.005)
    >>> round(result.prob_first_better, 3), round(result.prob_equivalent, 3)
    (0.289, 0.707)
    """
    a = _check_scores(scores_a, "scores_a")
    b = _check_scores(scores_b, "scores_b")
    if a.shape != b.shape:
        fail("scores_b", f"of the same length as `scores_a` ({a.shape[0]})", scores_b,
             shown=f"length {b.shape[0]}")
    n = a.shape[0]
    if n < 2:
        fail("scores_a", "at least 2 scores", scores_a)
    if isinstance(test_fraction, bool) or not isinstance(test_fraction, numbers.Real):
        fail("test_fraction", "a float in the open interval (0, 1)", test_fraction,
             error=TypeError)
    test_fraction = float(test_fraction)
    if not 0.0 < test_fraction < 1.0:
        fail("test_fraction", "a float in the open interval (0, 1)", test_fraction)
    rope = _check_rope(rope)
    if isinstance(runs, bool) or not isinstance(runs, (numbers.Integral, np.integer)):
        fail("runs", "a positive int", runs, error=TypeError)
    if runs < 1 or n % runs:
        fail("runs", f"a positive int dividing the number of scores ({n})", runs)
    d = a - b
    mean = float(np.mean(d))
    variance = float(np.var(d, ddof=1))
    scale = math.sqrt((1.0 / n + test_fraction / (1.0 - test_fraction)) * variance)
    if scale == 0:
        first = float(mean > rope)
        second = float(mean < -rope)
        equivalent = 1.0 - first - second
    else:
        first = float(stats.t.sf(rope, n - 1, loc=mean, scale=scale))
        second = float(stats.t.cdf(-rope, n - 1, loc=mean, scale=scale))
        equivalent = 0.0 if rope == 0 else max(0.0, 1.0 - first - second)
    return CorrelatedTTestResult(mean, scale, n - 1, n, test_fraction, int(runs), rope, first,
                                 equivalent, second)


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
        Region of practical equivalence.
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
    rope = _check_rope(rope)
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
