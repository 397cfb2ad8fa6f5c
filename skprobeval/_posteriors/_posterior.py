"""Posterior distributions of confusion-table metrics: the common behaviour.

Pure numpy/scipy: this module knows nothing of labels, scikit-learn or pandas.
Every object behaves like a vectorised scipy frozen distribution: its
parameters are arrays of one common shape (``()`` for one table, ``(K,)`` for
one table per label) and every method works on all of them in one call.

Kinds
-----
`BetaPosterior`
    Ratios of disjoint Dirichlet cells (precision, recall, specificity, ...):
    closed form through ``scipy.special`` (``betainc``, ``betaincinv``).
`FBetaPosterior`, `DifferencePosterior`, `AffinePosterior`
    In ``_posterior_fbeta.py``, ``_posterior_difference.py`` and
    ``_posterior_affine.py`` (their shared solvers in
    ``_posterior_exact.py``): F-beta (for ``beta == 1`` the exact
    monotone transform ``F1 = 2B / (1 + B)`` of ``B ~ Beta(tp, fp + fn)``,
    otherwise a one-dimensional integral on the kernel's quadrature nodes),
    differences of two independent Betas (informedness, markedness) and
    affine maps of those (E-measure, balanced accuracy).
`SampledPosterior`
    Any other quantity, summarised from posterior draws, with the Monte
    Carlo standard error of its mean.

Numerical notes
---------------
* Expectations over a Beta variable use 29 nodes at the Beta quantiles of
  equally spaced normal scores where the integrand is smooth over the
  variable's mass, and otherwise fixed tanh-sinh nodes on its quantile
  scale (103 nodes; robust to the endpoint singularities of parameters
  < 1), switching to a trapezoidal rule on the logit scale with the
  endpoint masses taken out exactly when both parameters are small
  (``min < 0.2`` and ``sum < 1.2``, e.g. a prior of 1e-3 on empty cells).
  The rules are accurate to about 1e-12 on the cases tested.
* ``scipy.special.betainc(a, a, x)`` loses accuracy for ``a > 1e10`` and
  ``betaincinv`` for large parameters: the cdf is evaluated through
  ``betaincc`` there and quantiles for ``a + b > 1e6`` are polished with
  Newton steps.  The Beta log-density for a + b > 1e4 uses the
  saddle-point (Loader) form, accurate for counts up to 1e12 and beyond.
* Quantiles of the non-Beta kinds come from a vectorised bracketed Halley
  (Newton) solver, started at the Cornish-Fisher quantile (differences) or
  at the root on a seven-node sub-rule (F-beta); highest-density
  intervals solve for equal density at both ends with the enclosed mass
  fixed at ``confidence`` (Newton steps on both ends at once).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import stats

from .._core import TINY as _TINY
from .._core import (
    ResultMixin,
    beta_cdf,
    beta_dlogpdf,
    beta_hdi_newton,
    beta_logpdf,
    beta_mode,
    beta_quantile,
    beta_scale_gap,
    beta_sf,
    beta_variates,
    check_confidence,
    check_random_state,
    fail,
    hdi_from_draws,
    highest_density_interval,
    key_value_html,
    renamed_attribute,
    rounded,
    tail_mass_hdi,
    take_params,
    to_host,
)

__all__ = [
    "BetaPosterior",
    "CredibleInterval",
    "PosteriorSummary",
    "SampledPosterior",
]


# ---------------------------------------------------------------------------
# Small result types
# ---------------------------------------------------------------------------


def _out(values):
    """Python float for 0-d results, the array otherwise (a zero is never ``-0.0``)."""
    values = np.asarray(values, dtype=np.float64) + 0.0
    if values.ndim == 0:
        return float(values)
    return values


class CredibleInterval(NamedTuple):
    """A ``(low, high)`` pair of credible bounds.

    Unpacks as a 2-tuple (``low, high = posterior.interval()``).  Both
    bounds are Python floats for one table, arrays of the posterior's shape
    for several.

    Examples
    --------
    >>> from skprobeval import CredibleInterval
    >>> low, high = CredibleInterval(0.25, 0.75)
    >>> CredibleInterval(0.25, 0.75).high - low
    0.5
    """

    low: float | np.ndarray
    high: float | np.ndarray

    def __repr__(self):
        return f"CredibleInterval(low={rounded(self.low)}, high={rounded(self.high)})"


@dataclass(frozen=True, slots=True)
class PosteriorSummary(ResultMixin):
    """Point summaries and credible bounds of a posterior.

    Attributes
    ----------
    mean, median, mode, std : float or ndarray
        Location and spread.
    low, high : float or ndarray
        Equal-tailed credible interval at `confidence`.
    hdi_low, hdi_high : float or ndarray
        Highest-density interval at `confidence`.
    confidence : float
        Probability mass of both intervals.
    mc_error : float, ndarray or None
        Monte Carlo standard error of `mean` for sampled posteriors, None
        for exact ones.

    Examples
    --------
    >>> from skprobeval import BetaPosterior
    >>> BetaPosterior(3.5, 2.5).summary(confidence=0.9)
    PosteriorSummary(mean=0.5833, median=0.5932, mode=0.625, std=0.1863, low=0.2606, high=0.8722,
    hdi_low=0.2859, hdi_high=0.893, confidence=0.9, mc_error=None)
    """

    mean: float | np.ndarray
    median: float | np.ndarray
    mode: float | np.ndarray
    std: float | np.ndarray
    low: float | np.ndarray
    high: float | np.ndarray
    hdi_low: float | np.ndarray
    hdi_high: float | np.ndarray
    confidence: float
    mc_error: float | np.ndarray | None = None

    # A record of numbers: the posterior's own `plot` draws them.
    _html_figure = False

    def _dict_content(self):
        # to_dict (ResultMixin): the fields by name, arrays as lists, NaN as None.
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def _html_table(self, caption="PosteriorSummary"):
        return key_value_html(caption, [
            (name, np.asarray(value) if np.ndim(value) else value)
            for name, value in self._dict_content().items()])

    def __repr__(self):
        parts = []
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            parts.append(f"{name}={'None' if value is None else rounded(value)}")
        return f"PosteriorSummary({', '.join(parts)})"


# ---------------------------------------------------------------------------
# Common behaviour
# ---------------------------------------------------------------------------


def _check_parameter(value, name):
    """Float64 array of finite values > 0 (a Beta/Dirichlet concentration)."""
    value = to_host(value, name)
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        fail(name, "an array of finite numbers > 0", value, error=TypeError)
    if not (np.all(np.isfinite(array)) and np.all(array > 0)):
        fail(name, "finite and > 0", value)
    return array


def _frozen(array):
    array = np.array(array, dtype=np.float64)
    array.setflags(write=False)
    return array


def _check_size(size, shape):
    if size is None:
        return shape
    size = (int(size),) if np.ndim(size) == 0 else tuple(int(s) for s in size)
    try:
        if np.broadcast_shapes(size, shape) != size:
            raise ValueError
    except ValueError:
        fail("size", f"a shape that the parameters' shape {shape} broadcasts to", size)
    return size


class _Posterior(ResultMixin):
    """Shared public behaviour; subclasses supply flat-array kernels.

    `ResultMixin` gives every posterior ``to_dict`` (its type and `summary`)
    and a notebook view (the summary and the `plot`).
    """

    __slots__ = ()
    _support = (0.0, 1.0)

    # -- to be provided by subclasses ------------------------------------
    # shape, _params(shape), _cdf_flat, _sf_flat, _logpdf_flat,
    # _quantile_flat(params, q, upper), _mean_array, _var_array, _mode_array

    def _prepare(self, x):
        x = np.asarray(x, dtype=np.float64)
        shape = np.broadcast_shapes(x.shape, self.shape)
        return np.broadcast_to(x, shape).ravel(), shape

    @property
    def ndim(self):
        """Number of dimensions of the parameter arrays."""
        return len(self.shape)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a posterior of one table (0-d parameters) is undefined.")
        return self.shape[0]

    # -- moments and point summaries --------------------------------------

    def mean(self):
        """Posterior mean (float, or array of the posterior's shape)."""
        return _out(self._mean_array())

    def var(self):
        """Posterior variance."""
        return _out(self._var_array())

    def std(self):
        """Posterior standard deviation."""
        return _out(np.sqrt(self._var_array()))

    def median(self):
        """Posterior median, ``ppf(0.5)``."""
        return self.ppf(0.5)

    def mode(self):
        """Posterior mode (the maximum of the density; an endpoint when the
        density is unbounded there)."""
        return _out(self._mode_array())

    # -- distribution functions -------------------------------------------

    def cdf(self, x):
        """P(metric <= x), broadcast against the parameters."""
        x, shape = self._prepare(x)
        value = self._ends(x, self._cdf_flat(self._params(shape), x), 0.0, 1.0)
        return _out(value.reshape(shape))

    def sf(self, x):
        """P(metric > x), computed without cancellation in the upper tail."""
        x, shape = self._prepare(x)
        value = self._ends(x, self._sf_flat(self._params(shape), x), 1.0, 0.0)
        return _out(value.reshape(shape))

    def _ends(self, x, value, below, above):
        # Exactly 0 and 1 at and beyond the ends of the support (no rounding residue).
        lo, hi = self._support
        return np.where(x <= lo, below, np.where(x >= hi, above, value))

    def pdf(self, x):
        """Posterior density at x."""
        x, shape = self._prepare(x)
        with np.errstate(over="ignore"):
            return _out(np.exp(self._logpdf_flat(self._params(shape), x)).reshape(shape))

    def logpdf(self, x):
        """Log of the posterior density at x."""
        x, shape = self._prepare(x)
        return _out(self._logpdf_flat(self._params(shape), x).reshape(shape))

    def ppf(self, q):
        """Quantile function: the x with ``cdf(x) = q`` (NaN outside [0, 1])."""
        q, shape = self._prepare(q)
        return _out(self._quantile(self._params(shape), q, upper=False).reshape(shape))

    def isf(self, q):
        """Inverse survival function: the x with ``sf(x) = q``."""
        q, shape = self._prepare(q)
        return _out(self._quantile(self._params(shape), q, upper=True).reshape(shape))

    def _quantile(self, params, q, upper):
        lo, hi = self._support
        inside = (q > 0) & (q < 1)
        out = np.full(q.shape, np.nan)
        out[q == 0] = hi if upper else lo
        out[q == 1] = lo if upper else hi
        if np.any(inside):
            index = np.flatnonzero(inside)
            out[index] = self._quantile_flat(take_params(params, index), q[index], upper)
        return out

    def prob_greater(self, x):
        """Posterior probability that the metric exceeds x, ``sf(x)``.

        For informedness and markedness ``prob_greater(0)`` is the probability
        of doing better than chance.
        """
        return self.sf(x)

    # -- intervals ------------------------------------------------------------

    def interval(self, confidence=0.95):
        """Equal-tailed credible interval holding `confidence` of the mass.

        Returns
        -------
        CredibleInterval
            ``(low, high)`` with ``(1 - confidence) / 2`` of the mass in each tail.
        """
        confidence = check_confidence(confidence)
        tail = np.full(self.shape, (1 - confidence) / 2).ravel()
        params = self._params(self.shape)
        low = self._quantile(params, tail, upper=False).reshape(self.shape)
        high = self._quantile(params, tail, upper=True).reshape(self.shape)
        return CredibleInterval(_out(low), _out(high))

    def hdi(self, confidence=0.95):
        """Highest-density interval holding `confidence` of the mass.

        The shortest interval with that mass: for a unimodal density, the
        interval whose two ends have equal density; one-sided (starting at
        an endpoint of the support) when the density is monotone.  For a
        U-shaped density (both ends unbounded) the shorter of the two
        one-sided intervals.

        Returns
        -------
        CredibleInterval
        """
        confidence = check_confidence(confidence)
        low, high = highest_density_interval(self, self._params(self.shape), confidence)
        return CredibleInterval(_out(low.reshape(self.shape)), _out(high.reshape(self.shape)))

    # Names of the shape parameters (in ``_params``) whose values all >= 1 make the
    # density log-concave, hence unimodal: there the solvers' interval is the
    # highest-density one.  None: the solver is exact for every shape.
    _shape_params = None
    # The family's hooks of `highest_density_interval` (see ``_hdi``): none here.
    _hdi_newton = _hdi_sides = _hdi_gap = _hdi_affine = None

    def _hdi_flat(self, params, confidence):
        """The tail-mass route alone, without the family's hooks (a reference)."""
        return tail_mass_hdi(self, params, confidence, generic=True)

    def _dlogpdf_flat(self, params, x, scale):
        """Derivative of the log density (central difference by default)."""
        lo, hi = self._support
        step = 1e-4 * scale
        up = np.minimum(x + step, hi)
        down = np.maximum(x - step, lo)
        with np.errstate(all="ignore"):
            return ((self._logpdf_flat(params, up) - self._logpdf_flat(params, down))
                    / (up - down))

    # -- sampling and summaries -----------------------------------------------

    def rvs(self, size=None, random_state=None):
        """Random draws from the posterior.

        Parameters
        ----------
        size : int or tuple of int, default=None
            Output shape; must be one the parameters broadcast to.  None gives
            one draw per parameter element.
        random_state : None, int or numpy.random.Generator, default=None
            Seed or generator.

        Returns
        -------
        float or ndarray
            A float when `size` is None and the parameters are 0-d.
        """
        rng = check_random_state(random_state)
        shape = _check_size(size, self.shape)
        draws = self._rvs_shaped(shape, rng)
        if draws.ndim == 0:
            return _out(draws)
        # As `_out`, in place: the draws are a fresh array (a copy of a million draws
        # costs 2 ms).
        return np.add(draws, 0.0, out=draws)

    def _rvs_shaped(self, shape, rng):
        """Draws of the given shape (one the parameters broadcast to), a fresh
        float64 array."""
        return self._rvs_flat(self._params(shape), rng).reshape(shape)

    def plot(self, ax=None, *, confidence=0.95, xlabel="value"):
        """The density with its equal-tailed interval shaded (per label: the intervals).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.
        confidence : float, default=0.95
            Level of the interval.
        xlabel : str, default="value"
            Label of the x axis: the metric.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import BetaPosterior
        >>> BetaPosterior(8.5, 3.5).plot(xlabel="recall").get_xlabel()
        'recall'
        """
        from .._core import plot_intervals, plot_posteriors

        confidence = check_confidence(confidence)
        if self.ndim == 0:
            return plot_posteriors({type(self).__name__: self}, confidence=confidence,
                                   xlabel=xlabel, ax=ax)
        levels = sorted({0.5, confidence})
        mean = np.ravel(self.mean())
        bounds = {level: [np.ravel(v) for v in self.interval(level)] for level in levels}
        rows = [(str(i), float(mean[i]),
                 [(level, float(bounds[level][0][i]), float(bounds[level][1][i]))
                  for level in levels]) for i in range(mean.shape[0])]
        return plot_intervals(rows, ax=ax, xlabel=xlabel)

    def _html_table(self):
        summary = self.summary()
        if isinstance(summary, PosteriorSummary):    # its arrays, not to_dict's lists
            return summary._html_table(self._html_caption())
        return super()._html_table()

    def summary(self, confidence=0.95):
        """Mean, median, mode, std and both credible intervals at once.

        Returns
        -------
        PosteriorSummary
        """
        confidence = check_confidence(confidence)
        low, high = self.interval(confidence)
        hdi_low, hdi_high = self.hdi(confidence)
        return PosteriorSummary(
            mean=self.mean(), median=self.median(), mode=self.mode(), std=self.std(),
            low=low, high=high, hdi_low=hdi_low, hdi_high=hdi_high,
            confidence=confidence, mc_error=getattr(self, "mc_error", None))


# ---------------------------------------------------------------------------
# Beta
# ---------------------------------------------------------------------------


class BetaPosterior(_Posterior):
    """Beta posterior of a ratio of disjoint Dirichlet cells.

    With the Dirichlet(λ, λ, λ, λ) prior on the four cell probabilities,
    precision ~ Beta(TP + λ, FP + λ), recall ~ Beta(TP + λ, FN + λ),
    specificity ~ Beta(TN + λ, FP + λ), fallout ~ Beta(FP + λ, TN + λ),
    npv ~ Beta(TN + λ, FN + λ); accuracy, the share of items right, takes λ
    a side: Beta(TP + TN + λ, FP + FN + λ) (Jeffreys' prior on the share at
    the default λ = 1/2).

    Parameters
    ----------
    a, b : array-like of float
        Shape parameters (> 0), broadcast to one common shape: ``()`` for one
        table, ``(K,)`` for one per label.

    Attributes
    ----------
    a, b : ndarray
        The parameters (read-only).
    dist : scipy.stats frozen distribution
        ``scipy.stats.beta(a, b)``, for anything not offered here.

    See Also
    --------
    precision_posterior, recall_posterior, metric_posterior

    Notes
    -----
    Mean ``a / (a + b)``, mode ``(a - 1) / (a + b - 2)`` when both parameters
    exceed 1, else an endpoint (0.5 for the uniform Beta(1, 1)).  The
    highest-density interval solves ``pdf(low) = pdf(high)`` with
    ``cdf(high) - cdf(low) = confidence``; it is one-sided when the density
    is monotone (a parameter <= 1).

    References
    ----------
    .. [1] C. Goutte and E. Gaussier, "A probabilistic interpretation of
       precision, recall and F-score, with implication for evaluation",
       ECIR 2005, section 2.2.

    Examples
    --------
    Goutte & Gaussier (2005), section 2.2: system 2 returns TP = 3, FP = 2;
    with Jeffreys' prior (λ = 1/2) its precision is Beta(3.5, 2.5).

    >>> from skprobeval import BetaPosterior
    >>> precision = BetaPosterior(3 + 0.5, 2 + 0.5)
    >>> precision
    BetaPosterior(a=3.5, b=2.5)
    >>> round(precision.mean(), 3), round(precision.mode(), 3)
    (0.583, 0.625)
    >>> precision.interval(0.95)
    CredibleInterval(low=0.2094, high=0.9056)
    >>> round(precision.prob_greater(0.5), 4)
    0.6698
    >>> BetaPosterior([10.5, 3.5], [10.5, 2.5]).mean()
    array([0.5       , 0.58333333])
    """

    __slots__ = ("_a", "_b")

    def __init__(self, a, b):
        a = _check_parameter(a, "a")
        b = _check_parameter(b, "b")
        try:
            a, b = np.broadcast_arrays(a, b)
        except ValueError:
            raise ValueError(
                f"`a` and `b` must broadcast to one shape; got {a.shape} and {b.shape}."
            ) from None
        self._a = _frozen(a)
        self._b = _frozen(b)

    @property
    def a(self):
        """First shape parameter."""
        return self._a

    @property
    def b(self):
        """Second shape parameter."""
        return self._b

    @property
    def shape(self):
        """Shape of the parameter arrays."""
        return self._a.shape

    @property
    def dist(self):
        """The equivalent ``scipy.stats.beta(a, b)`` frozen distribution."""
        return stats.beta(self._a, self._b)

    def __getitem__(self, index):
        return BetaPosterior(self._a[index], self._b[index])

    def __repr__(self):
        return f"BetaPosterior(a={rounded(self._a)}, b={rounded(self._b)})"

    def _params(self, shape):
        return {"a": np.broadcast_to(self._a, shape).ravel(),
                "b": np.broadcast_to(self._b, shape).ravel()}

    def _mean_array(self):
        return self._a / (self._a + self._b)

    def _var_array(self):
        a, b = self._a, self._b
        total = a + b
        return (a / total) * (b / total) / (total + 1)

    def _mode_array(self):
        return beta_mode(self._a, self._b)

    def _cdf_flat(self, p, x):
        inside = np.clip(x, 0.0, 1.0)
        value = beta_cdf(p["a"], p["b"], inside, 1.0 - inside)
        return np.where(np.isnan(x), np.nan, value)

    def _sf_flat(self, p, x):
        inside = np.clip(x, 0.0, 1.0)
        value = beta_sf(p["a"], p["b"], inside, 1.0 - inside)
        return np.where(np.isnan(x), np.nan, value)

    def _logpdf_flat(self, p, x):
        inside = (x >= 0) & (x <= 1)
        xx = np.where(inside, x, 0.5)
        value = beta_logpdf(p["a"], p["b"], xx, 1.0 - xx)
        return np.where(inside, value, np.where(np.isnan(x), np.nan, -np.inf))

    def _dlogpdf_flat(self, p, x, scale):
        return beta_dlogpdf(p["a"], p["b"], x, 1.0 - x)

    def _quantile_flat(self, p, q, upper):
        return beta_quantile(p["a"], p["b"], q, upper)[0]

    def _rvs_flat(self, p, rng):
        return beta_variates(rng, p["a"], p["b"], p["a"].shape)

    def _rvs_shaped(self, shape, rng):
        # The parameters as they are, broadcast by the generator: the same draws as
        # `_rvs_flat` of their flattened copies, without the copies.
        return beta_variates(rng, self._a, self._b, shape)

    def _hdi_newton(self, p, rest):
        return beta_hdi_newton(p["a"], p["b"], rest)

    def _hdi_sides(self, p, confidence):
        """One-sided intervals by the parameters: ``[0, Q(c)]`` for a decreasing
        density, ``[Q(1 - c), 1]`` for an increasing one, the shorter for a
        U-shaped one; the uniform's is the equal-tailed one."""
        a, b = p["a"], p["b"]
        c = np.full(a.shape, confidence)
        rest = 1 - c
        left_end = beta_quantile(a, b, c)[0]
        right_start = beta_quantile(a, b, c, upper=True)[0]
        increasing = (a >= 1) & (b <= 1)
        u_shaped = (a < 1) & (b < 1)
        uniform = (a == 1) & (b == 1)
        right = increasing | (u_shaped & ((1 - right_start) < left_end))
        low = np.where(uniform, rest / 2, np.where(right, right_start, 0.0))
        high = np.where(uniform, 1 - rest / 2, np.where(right, 1.0, left_end))
        return low, high, (a > 1) & (b > 1)

    def _hdi_gap(self, p, rest):
        index = np.flatnonzero((p["a"] > 1) & (p["b"] > 1))
        return index, beta_scale_gap(p["a"][index], p["b"][index], rest[index])


# ---------------------------------------------------------------------------
# Sampled
# ---------------------------------------------------------------------------


def _kde_mode(sorted_column):
    """Mode of a Gaussian kernel density estimate (Silverman's bandwidth), binned."""
    n = sorted_column.shape[0]
    low = sorted_column[int(0.0005 * (n - 1))]
    high = sorted_column[int(math.ceil(0.9995 * (n - 1)))]
    if not high > low:
        return float(np.median(sorted_column))
    quartiles = np.quantile(sorted_column, [0.25, 0.75])
    spread = min(float(np.std(sorted_column)), float(quartiles[1] - quartiles[0]) / 1.34)
    if spread <= 0:
        spread = float(np.std(sorted_column))
    bandwidth = 0.9 * spread * n ** -0.2
    bins = 2048
    counts, edges = np.histogram(sorted_column, bins=bins, range=(low, high))
    width = edges[1] - edges[0]
    reach = int(min(bins, math.ceil(4 * bandwidth / width)))
    offsets = np.arange(-reach, reach + 1) * width
    kernel = np.exp(-0.5 * (offsets / bandwidth) ** 2)
    smooth = np.convolve(counts, kernel, mode="same")
    best = int(np.argmax(smooth))
    return float(edges[best] + width / 2)


def _column_std(array):
    """Standard deviation (ddof=1) of each column, a block of columns at a time.

    The temporaries of ``std`` are then the size of a block (2**22 values), not
    of the draws (300 MiB for 10 000 draws of 4 000 labels); numpy reduces the
    first axis of a C-ordered array row by row, so the values are those of one
    call over every column.
    """
    if array.ndim == 1:
        return array.std(ddof=1)
    step = max(1, (1 << 22) // max(1, array.shape[0]))
    if array.shape[1] <= step:
        return array.std(axis=0, ddof=1)
    return np.concatenate([array[:, start:start + step].std(axis=0, ddof=1)
                           for start in range(0, array.shape[1], step)])


class SampledPosterior(_Posterior):
    """A posterior summarised from draws (Monte Carlo).

    Used for metrics without a closed form (MCC, K-measure, user functions of
    the four cells) and for macro/weighted averages, from draws of the
    Dirichlet posterior.  Every summary is a sample statistic;
    `mc_error` is the Monte Carlo standard error of the mean,
    ``std / sqrt(n_draws)``.

    Parameters
    ----------
    samples : array-like of shape (n_draws,) or (n_draws, K)
        Independent posterior draws (at least 2, finite); columns are labels.

    Attributes
    ----------
    samples : ndarray
        The draws (read-only).
    n_draws : int
        Number of draws.
    mc_error : float or ndarray
        Monte Carlo standard error of `mean`.

    Notes
    -----
    ``ppf`` interpolates the sorted draws linearly (``numpy.quantile``);
    ``hdi`` is the shortest interval holding ``ceil(confidence * n)``
    draws; ``mode`` maximises a binned Gaussian kernel density estimate
    (Silverman's bandwidth); ``pdf`` is a box-kernel
    density estimate with Silverman's bandwidth; ``rvs`` resamples the draws
    (whole rows, keeping the dependence between labels).

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import SampledPosterior
    >>> rng = np.random.default_rng(0)
    >>> posterior = SampledPosterior(rng.beta(3.5, 2.5, size=100_000))
    >>> posterior
    SampledPosterior(n_draws=100000, mean=0.5835, mc_error=0.0006)
    >>> round(posterior.mean(), 2), round(posterior.median(), 2)
    (0.58, 0.59)
    >>> low, high = posterior.interval(0.95)
    >>> round(low, 2), round(high, 2)
    (0.21, 0.91)
    """

    __slots__ = ("_samples", "_ordered", "_mc_error")

    def __init__(self, samples):
        samples = to_host(samples, "samples")
        try:
            array = np.array(samples, dtype=np.float64)
        except (TypeError, ValueError):
            fail("samples", "an array of finite numbers", samples, error=TypeError)
        if array.ndim not in (1, 2) or array.shape[0] < 2:
            fail("samples", "an array of shape (n_draws,) or (n_draws, K) with "
                 "n_draws >= 2", array, shown=f"shape {array.shape}")
        if not np.all(np.isfinite(array)):
            fail("samples", "finite (no NaN or inf)", array,
                 shown=f"{int(np.sum(~np.isfinite(array)))} non-finite draw(s)")
        self._adopt_samples(array)

    def _adopt_samples(self, array):
        array.setflags(write=False)
        self._samples = array
        self._ordered = None
        self._mc_error = _out(_column_std(array) / math.sqrt(array.shape[0]))

    @classmethod
    def _adopt(cls, array):
        """The posterior of `array` itself, made read-only, not copied: for draws
        made by the library (float64, finite, of shape (n_draws,) or (n_draws, K),
        held by nobody else)."""
        posterior = cls.__new__(cls)
        posterior._adopt_samples(array)
        return posterior

    @property
    def _sorted(self):
        """The draws sorted along the first axis (read-only), sorted on first use:
        a posterior read only for its mean never sorts them."""
        if self._ordered is None:
            ordered = np.sort(self._samples, axis=0)
            ordered.setflags(write=False)
            self._ordered = ordered
        return self._ordered

    @property
    def samples(self):
        """The posterior draws, shape ``(n_draws,) + shape``."""
        return self._samples

    @property
    def n_draws(self):
        """Number of draws."""
        return self._samples.shape[0]

    n_samples = renamed_attribute("n_samples", "n_draws")

    @property
    def mc_error(self):
        """Monte Carlo standard error of the mean, ``std / sqrt(n_draws)``."""
        return self._mc_error

    @property
    def shape(self):
        """Shape of one draw: ``()`` or ``(K,)``."""
        return self._samples.shape[1:]

    def __getitem__(self, index):
        if not self.shape:
            raise TypeError("A posterior of one table (0-d) cannot be indexed.")
        return SampledPosterior(self._samples[:, index])

    def __repr__(self):
        return (f"SampledPosterior(n_draws={self.n_draws}, mean={rounded(self._mean_array())}, "
                f"mc_error={rounded(self._mc_error)})")

    def _columns(self, x, function):
        """Apply ``function(sorted_column, x_column)`` over the label columns."""
        x = np.asarray(x, dtype=np.float64)
        shape = np.broadcast_shapes(x.shape, self.shape)
        xb = np.broadcast_to(x, shape)
        if not self.shape:
            return _out(function(self._sorted, xb))
        width = self.shape[0]
        flat = xb.reshape(-1, width)
        out = np.empty(flat.shape)
        for k in range(width):
            out[:, k] = function(self._sorted[:, k], flat[:, k])
        return _out(out.reshape(shape))

    def _mean_array(self):
        return self._samples.mean(axis=0)

    def _var_array(self):
        return self._samples.var(axis=0, ddof=1)

    def _mode_array(self):
        columns = self._sorted if self.shape else self._sorted[:, None]
        modes = [_kde_mode(columns[:, k]) for k in range(columns.shape[1])]
        return np.asarray(modes).reshape(self.shape)

    def cdf(self, x):
        n = self.n_draws
        return self._columns(x, lambda s, v: np.searchsorted(s, v, side="right") / n)

    def sf(self, x):
        n = self.n_draws
        return self._columns(x, lambda s, v: (n - np.searchsorted(s, v, side="right")) / n)

    def pdf(self, x):
        # Box kernel: (F(x + h) - F(x - h)) / 2h with Silverman's bandwidth.
        n = self.n_draws

        def density(s, v):
            spread = min(np.std(s), (np.quantile(s, 0.75) - np.quantile(s, 0.25)) / 1.34)
            if spread <= 0:
                spread = max(np.std(s), _TINY)
            h = 0.9 * spread * n ** -0.2 * math.sqrt(3.0)
            count = np.searchsorted(s, v + h, side="right") - np.searchsorted(s, v - h)
            return count / (n * 2 * h)

        return self._columns(x, density)

    def logpdf(self, x):
        with np.errstate(divide="ignore"):
            return _out(np.log(self.pdf(x)))

    def ppf(self, q):
        def quantile(s, v):
            inside = (v >= 0) & (v <= 1)
            out = np.full(v.shape, np.nan)
            if np.any(inside):
                out[inside] = np.quantile(s, v[inside])
            return out

        return self._columns(q, quantile)

    def isf(self, q):
        return self.ppf(1.0 - np.asarray(q, dtype=np.float64))

    def interval(self, confidence=0.95):
        confidence = check_confidence(confidence)
        tail = (1 - confidence) / 2
        low = np.quantile(self._sorted, tail, axis=0)
        high = np.quantile(self._sorted, 1 - tail, axis=0)
        return CredibleInterval(_out(low), _out(high))

    def hdi(self, confidence=0.95):
        low, high = hdi_from_draws(self._sorted, check_confidence(confidence))
        return CredibleInterval(_out(low), _out(high))

    def rvs(self, size=None, random_state=None):
        rng = check_random_state(random_state)
        if size is None:
            return _out(self._samples[rng.integers(self.n_draws)])
        size = (int(size),) if np.ndim(size) == 0 else tuple(int(s) for s in size)
        shape = self.shape
        if size[len(size) - len(shape):] != shape:
            fail("size", f"a shape ending in the draws' shape {shape}", size)
        rows = size[: len(size) - len(shape)]
        index = rng.integers(self.n_draws, size=rows)
        return _out(self._samples[index])


class ExactMeanPosterior(SampledPosterior):
    """A `SampledPosterior` whose mean is known exactly (private).

    Macro, weighted and Powers averages over labels of a metric whose
    per-label posteriors are exact: the average's posterior mean is the same
    average of the exact per-label means, so `mean` returns it (and the
    scorers that read the mean are free of Monte Carlo noise); every other
    summary (quantiles, intervals, ``hdi``, ``std``, ``mode``, draws) stays
    sampled.  `mc_error`, the Monte Carlo error of the mean, is 0.
    """

    __slots__ = ("_exact_mean",)

    def __init__(self, samples, mean):
        super().__init__(samples)
        if self.shape:
            fail("samples", "draws of one average, shape (n_draws,)", samples,
                 shown=f"shape {self._samples.shape}")
        self._exact_mean = float(mean)
        self._mc_error = 0.0

    def _mean_array(self):
        return np.asarray(self._exact_mean)


class ClusterFields:
    """``n_clusters``, ``n_items`` and ``effective_n`` of a posterior drawn with
    ``groups=`` (None without), and in its `to_dict` where set (private mixin: the
    class lists the three names in its own ``__slots__``)."""

    __slots__ = ()

    def _set_clusters(self, n_clusters=None, n_items=None, effective_n=None):
        self.n_clusters, self.n_items, self.effective_n = n_clusters, n_items, effective_n

    def _dict_content(self):
        content = super()._dict_content()
        if self.n_clusters is not None:
            content.update(n_clusters=self.n_clusters, n_items=self.n_items,
                           effective_n=self.effective_n)
        return content


class ClusteredPosterior(ClusterFields, SampledPosterior):
    """The posterior of a metric whose test items come in clusters (``groups=``).

    Drawn from the Bayesian bootstrap of the clusters: each cluster's items
    share one weight, so the posterior is as wide as the clusters, not the
    items, say it is (see the theory page "Test items in clusters").  Every
    summary is a `SampledPosterior`'s.

    Parameters
    ----------
    samples : array-like of shape (n_draws,) or (n_draws, K)
        The posterior draws.
    n_clusters : int
        Clusters the posterior rests on.
    n_items : float
        Items (their weights) in those clusters.
    effective_n : float or array-like of shape (K,)
        Effective number of items: as many independent items would give the
        posterior's variance (``n_items`` times the variance without the
        clusters over the variance with them).
    metric : str, default=None
        The metric's name, where a named metric was drawn (`plan_test_size`
        checks a clustered pilot against the metric it plans for).

    Attributes
    ----------
    n_clusters, n_items, effective_n, metric
        As given.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import recall_posterior
    >>> rng = np.random.default_rng(0)
    >>> patient = np.repeat(np.arange(40), 10)            # 40 patients, 10 images each
    >>> y_true = rng.integers(0, 2, size=400)
    >>> skill = rng.normal(0, 1.0, size=40)[patient]      # some patients are harder
    >>> right = rng.random(400) < 1 / (1 + np.exp(-(1.5 + skill)))
    >>> y_pred = np.where(right, y_true, 1 - y_true)
    >>> posterior = recall_posterior(y_true, y_pred, groups=patient, random_state=0)
    >>> posterior.n_clusters, posterior.n_items
    (40, 400.0)
    >>> bool(posterior.effective_n < 400)
    True
    """

    __slots__ = ("n_clusters", "n_items", "effective_n", "metric")

    def __init__(self, samples, *, n_clusters, n_items, effective_n, metric=None):
        super().__init__(samples)
        self._set_clusters(int(n_clusters), float(n_items),
                           _out(np.asarray(effective_n, dtype=float)))
        self.metric = metric

    def __getitem__(self, index):
        if not self.shape:
            raise TypeError("A posterior of one table (0-d) cannot be indexed.")
        return ClusteredPosterior(self._samples[:, index], n_clusters=self.n_clusters,
                                  n_items=self.n_items,
                                  effective_n=np.asarray(self.effective_n)[index],
                                  metric=self.metric)

    def __repr__(self):
        return (f"ClusteredPosterior(n_draws={self.n_draws}, mean={rounded(self._mean_array())}, "
                f"mc_error={rounded(self._mc_error)}, n_clusters={self.n_clusters}, "
                f"effective_n={rounded(self.effective_n)})")
