"""Partial pooling of several systems' metric draws: a normal hierarchical model.

Systems ranked on one test set are treated as draws from a population of
systems: their true metrics, on the logit scale of the metric's range
(`pool_in_range`), are ``θ_i = μ + δ_i`` with ``δ_i ~ N(0, τ²)``, a flat prior
on ``μ`` and a uniform prior on the spread ``τ``; the posterior draws of the
systems' metrics (the paired joint model, mean ``y`` and covariance ``Σ`` on
that scale) stand for the data.  Where the systems'
differences are smaller than the test set can resolve, the posterior of
``τ`` favours small spreads and the metrics are drawn towards each other;
where they are clear, ``τ`` is large and the draws are left as they are.
`compare_counts` pools systems on test sets of their own the same way, their
draws independent (``independent=True``: ``Σ`` diagonal).  The model itself
(the grid posterior of ``τ``, shared with the runs model) is in
``_hierarchical.py``.  Derivations: the theory page ``docs/theory/rankings.rst``.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from ._hierarchical import conditional_draws, level_draws, spread_draws, spread_log_posterior

__all__ = ["LOGIT_WIDTH", "partial_pooling", "pool_in_range", "pool_in_range_sets"]

# Upper end of the uniform prior of the spread on the logit scale: systems one
# spread apart on either side of a common level of 0.5 span 0.007-0.993.
LOGIT_WIDTH = 10.0

# Grid of the spread τ: τ = width * u², u at the midpoints of GRID equal steps
# in (0, 1), dense near 0 where the shrinkage changes fastest.
GRID = 512


def partial_pooling(draws, width, rng, log_prior=None, *, independent=False):
    """Draws of the systems' metrics under the hierarchical model.

    Parameters
    ----------
    draws : ndarray of shape (n_draws, n_systems)
        Posterior draws of every system's metric, jointly (the same items)
        or independently (each system its own test set).
    width : float
        Length of the metric's range: the upper end of the uniform prior of
        the spread ``τ``.
    rng : numpy.random.Generator
    log_prior : callable, optional
        Log density (up to a constant) of another prior of the spread, a
        function of an array of ``τ`` values; None is the default uniform
        prior.  For measuring candidate priors.
    independent : bool, default=False
        Whether the systems' draws are independent (systems on test sets of
        their own): ``Σ`` is then the diagonal of the draws' variances, as
        the model has it, rather than their sample covariance, whose
        off-diagonal entries would be Monte Carlo noise only.

    Returns
    -------
    ndarray of shape (n_draws, n_systems)
        For each draw ``d``: ``τ`` from its posterior (on the grid, uniform
        within a grid cell), ``μ`` given ``τ``, then ``μ + A (d - μ) + e``
        with ``A = τ² (τ² I + Σ)⁻¹`` and ``e ~ N(0, τ² Σ² (τ² I + Σ)⁻²)``,
        which has the exact conditional posterior's mean and covariance
        where ``d ~ N(y, Σ)`` (``_hierarchical.py``).  Systems whose draws
        are equal in every draw (identical predictions) are pooled as one
        and stay equal; with fewer than three distinct systems the spread is
        not estimable (its posterior is its prior) and `draws` is returned
        unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> draws = 0.8 + 0.01 * rng.standard_normal((4000, 4))
    >>> pooled = partial_pooling(draws, 1.0, np.random.default_rng(1))
    >>> bool(pooled.std(axis=0).mean() < draws.std(axis=0).mean())
    True
    """
    draws = np.asarray(draws, dtype=float)
    # Distinct columns in the order they first occur (np.unique sorts them).
    _, first, inverse = np.unique(draws, axis=1, return_index=True, return_inverse=True)
    order = np.argsort(first)
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    of_system = position[np.ravel(inverse)]
    distinct = draws[:, first[order]]
    n_draws, n = distinct.shape
    if n < 3:
        return draws
    mean = distinct.mean(axis=0)
    if independent:
        eigen, basis = distinct.var(axis=0, ddof=1), None
        mean_e, ones_e = mean, np.ones(n)
    else:
        eigen, basis = np.linalg.eigh(np.cov(distinct, rowvar=False))
        eigen = np.clip(eigen, 0.0, None)
        mean_e = basis.T @ mean
        ones_e = basis.T @ np.ones(n)
    log_post = spread_log_posterior(eigen, mean_e, ones_e, tau_max=width, size=GRID,
                                    log_prior=log_prior)
    tau2 = spread_draws(log_post, n_draws, rng, tau_max=width, size=GRID) ** 2
    mu, total = level_draws(tau2, eigen, mean_e, rng, ones_e)
    centred = distinct - mu[:, None]
    if basis is not None:
        centred = centred @ basis
    pooled_e = conditional_draws(centred, tau2, total, eigen, rng)
    pooled = mu[:, None] + (pooled_e if basis is None else pooled_e @ basis.T)
    return pooled[:, of_system]


def pool_in_range(draws, low, high, rng, higher=True, log_prior=None, *, independent=False):
    """`partial_pooling` of draws of a metric with range ``[low, high]``, on the logit
    scale of that range, so that the pooled draws stay inside it.

    A normal model on the metric's own scale would put draws of a metric near
    its end beyond it (average precision 0.998 pooled to 1.007); on the logit
    scale the model's normal noise maps back inside, and the draws' skew near an
    end is kept.  Draws at an end (exact 0 or 1 of an underflowed share) are
    taken a rounding error inside it.  ``higher=False`` pools the negated logits,
    so that a metric and its complement (accuracy and error) give mirrored draws;
    `log_prior` and `independent` are `partial_pooling`'s (`log_prior` of the
    spread on the logit scale).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> draws = np.clip(0.997 + 0.002 * rng.standard_normal((4000, 4)), 0, 0.99999)
    >>> pooled = pool_in_range(draws, 0.0, 1.0, np.random.default_rng(1))
    >>> bool(pooled.max() < 1.0)
    True
    """
    tiny = np.finfo(float).eps
    share = np.clip((np.asarray(draws, dtype=float) - low) / (high - low), tiny, 1.0 - tiny)
    logits = special.logit(share)
    sign = 1.0 if higher else -1.0
    pooled = sign * partial_pooling(sign * logits, LOGIT_WIDTH, rng, log_prior,
                                    independent=independent)
    return low + (high - low) * special.expit(pooled)


def pool_in_range_sets(draws, low, high, rng, higher=True):
    """`pool_in_range` of several independent sets of draws at once.

    `draws` has shape (n_sets, n_draws, n_systems): each set is pooled under
    its own posterior of the spread, as `pool_in_range` pools it alone (the
    same model, other random numbers).  Every set must have at least three
    systems, none equal to another in every draw (the caller pools sets with
    identical systems one by one).
    """
    tiny = np.finfo(float).eps
    share = np.clip((np.asarray(draws, dtype=float) - low) / (high - low), tiny, 1.0 - tiny)
    logits = special.logit(share)
    if not higher:
        logits = -logits
    n_sets, n_draws, n = logits.shape
    mean = logits.mean(axis=1)
    centred = logits - mean[:, None, :]
    covariance = centred.transpose(0, 2, 1) @ centred / (n_draws - 1)
    eigen, basis = np.linalg.eigh(covariance)
    eigen = np.clip(eigen, 0.0, None)
    mean_e = np.einsum("sij,si->sj", basis, mean)
    ones_e = basis.sum(axis=1)
    log_post = spread_log_posterior(eigen, mean_e, ones_e, tau_max=LOGIT_WIDTH, size=GRID)
    tau2 = spread_draws(log_post, n_draws, rng, tau_max=LOGIT_WIDTH, size=GRID) ** 2
    mu, total = level_draws(tau2, eigen, mean_e, rng, ones_e)
    rotated = (logits - mu[..., None]) @ basis
    pooled_e = conditional_draws(rotated, tau2, total, eigen, rng)
    pooled = mu[..., None] + pooled_e @ basis.transpose(0, 2, 1)
    if not higher:
        pooled = -pooled
    return low + (high - low) * special.expit(pooled)
