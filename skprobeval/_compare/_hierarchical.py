"""The normal hierarchical model on the logit scale, with a grid posterior of its spread.

Groups ``j = 1..n`` (the runs of one system, or the systems of a
leaderboard) have true values ``θ_j = μ + τ z_j``, ``z_j ~ N(0, 1)``, on the
logit scale of the metric's range; each group's posterior draws on that scale
stand for its data through their mean ``y`` and covariance ``Σ``, so that
``y ~ N(θ, Σ)``.  With a flat prior on the level ``μ`` it integrates out:
``y ~ N(μ 1, Σ + τ² I)``, whose density times the prior of the spread ``τ`` is
the posterior of ``τ``, computed on a grid; given ``τ``, ``μ`` is normal, and
given both, ``θ`` is normal too (Gelman et al. 2013, chapter 5).

Everything here works in a basis where ``Σ`` is diagonal: its eigenbasis
(``variances`` its eigenvalues, ``means`` and ``ones`` the means and the
all-ones vector rotated into it), or the groups themselves where they are
independent (``Σ = diag(v)``, ``ones`` all 1).  Leading axes are independent
sets of groups, each with its own posterior.

The two uses keep their own prior of ``τ``, each chosen by the coverage
benchmark: the runs of one system (``_runs.py``: a spike at ``τ = 0`` beside
a half-Cauchy) and the systems of a leaderboard (``_pooling.py``: uniform).
Derivations: the theory pages ``docs/theory/runs.rst`` and
``docs/theory/rankings.rst``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["conditional_draws", "level_draws", "spread_draws", "spread_log_posterior"]


def _grid(tau_max, size):
    """Midpoints ``u`` of `size` equal steps in (0, 1) and the grid ``τ = tau_max u²``,
    dense near 0 where the shrinkage changes fastest."""
    u = (np.arange(size) + 0.5) / size
    return u, tau_max * u ** 2


def _log_marginal(tau2, variances, means, ones):
    """log N(y | μ 1, Σ + τ² I) with μ integrated out (flat prior), up to a constant.

    `tau2` has shape (..., m) (m values of τ² per set), the others (..., n);
    returns shape (..., m).
    """
    total = variances[..., None, :] + tau2[..., :, None]
    ones, means = ones[..., None, :], means[..., None, :]
    a = np.sum(ones ** 2 / total, axis=-1)
    centre = np.sum(ones * means / total, axis=-1) / a
    residual = np.sum((means - ones * centre[..., None]) ** 2 / total, axis=-1)
    return -0.5 * np.sum(np.log(total), axis=-1) - 0.5 * np.log(a) - 0.5 * residual


def spread_log_posterior(variances, means, ones=None, *, tau_max, size, log_prior=None,
                         spike=0.0):
    """Log posterior (up to a constant) of the spread on its grid, shape (..., size[+1]).

    Parameters
    ----------
    variances, means : ndarray of shape (..., n)
        ``Σ``'s eigenvalues and the means in its eigenbasis (or the groups'
        variances and means where they are independent).
    ones : ndarray of shape (..., n), default=None
        The all-ones vector in that basis; all ones by default.
    tau_max, size : float, int
        The grid: ``τ = tau_max u²``, ``u`` at the midpoints of `size` steps.
    log_prior : callable, default=None
        Log density (up to a constant) of the continuous part of the prior
        of ``τ``, a function of an array of ``τ``; None is uniform on
        ``[0, tau_max]``.
    spike : float, default=0.0
        Prior probability of ``τ = 0``; when positive the result has one
        more entry, last, for that point.
    """
    variances, means = np.asarray(variances, float), np.asarray(means, float)
    ones = np.ones_like(means) if ones is None else np.asarray(ones, float)
    u, tau = _grid(tau_max, size)
    # The prior's mass per cell: its density in τ times the cell's width (2 u tau_max / size).
    slab = np.log(2 * u * tau_max / size)
    if log_prior is not None:
        slab = slab + log_prior(tau)
    lead = variances.shape[:-1]
    log_post = _log_marginal(np.broadcast_to(tau ** 2, lead + (size,)), variances, means, ones)
    log_post = log_post + slab - np.logaddexp.reduce(slab)
    if spike > 0:
        zero = _log_marginal(np.zeros(lead + (1,)), variances, means, ones)
        log_post = np.concatenate([log_post + np.log1p(-spike), zero + np.log(spike)],
                                  axis=-1)
    return log_post


def spread_draws(log_post, n_draws, rng, *, tau_max, size):
    """Draws of ``τ`` from `spread_log_posterior`'s grid, shape (..., n_draws).

    A cell is drawn by its posterior mass, then ``u`` uniformly within it; the
    entry past the grid, where there is one, is ``τ = 0``.
    """
    weight = np.exp(log_post - log_post.max(axis=-1, keepdims=True))
    if weight.ndim == 1:
        cell = rng.choice(weight.size, size=n_draws, p=weight / weight.sum())
    else:
        # One search over the sets' CDFs laid end to end (set s shifted by s).
        lead, cells = weight.shape[:-1], weight.shape[-1]
        weight = weight.reshape(-1, cells)
        cumulative = np.cumsum(weight, axis=1)
        cumulative /= cumulative[:, -1:]
        offset = np.arange(weight.shape[0])[:, None]
        found = np.searchsorted((cumulative + offset).ravel(),
                                (rng.random((weight.shape[0], n_draws)) + offset).ravel(),
                                side="right")
        cell = np.minimum(found.reshape(-1, n_draws) - offset * cells,
                          cells - 1).reshape(lead + (n_draws,))
    return np.where(cell < size, tau_max * ((np.minimum(cell, size - 1)
                                             + rng.random(cell.shape)) / size) ** 2, 0.0)


def level_draws(tau2, variances, means, rng, ones=None):
    """Draws of ``μ`` given each ``τ²`` draw, and ``Σ + τ² I``'s eigenvalues.

    `tau2` has shape (..., n_draws), the others (..., n).  Returns ``μ`` of
    shape (..., n_draws) and ``variances + τ²`` of shape (..., n_draws, n).
    """
    ones = np.ones_like(means) if ones is None else ones
    total = variances[..., None, :] + tau2[..., None]
    a = np.sum(ones[..., None, :] ** 2 / total, axis=-1)
    b = np.sum((ones * means)[..., None, :] / total, axis=-1)
    return b / a + rng.standard_normal(tau2.shape) / np.sqrt(a), total


def conditional_draws(centred, tau2, total, variances, rng):
    """The groups' true values about ``μ``, in the basis of ``Σ``, one per draw.

    For each draw ``d`` (`centred`: ``d - μ`` in that basis, shape (...,
    n_draws, n)), ``A (d - μ) + e`` with ``A = τ² (τ² I + Σ)⁻¹`` and
    ``e ~ N(0, τ² Σ² (τ² I + Σ)⁻²)``: where ``d ~ N(y, Σ)`` this has the mean
    and covariance of the exact conditional posterior of ``θ - μ`` given
    ``τ`` and ``μ``.
    """
    noise = np.sqrt(tau2)[..., None] * variances[..., None, :] / total
    return tau2[..., None] / total * centred + noise * rng.standard_normal(centred.shape)
