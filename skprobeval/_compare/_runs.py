"""Several runs of one system: a normal model of the runs' metrics on the logit scale.

A system trained with several seeds, or tested on several folds or resamples,
has one table of counts per run.  Each run's metric has its posterior from
its own counts; across runs the true metrics, on the logit scale of the
metric's range, are ``θ_r ~ N(μ, τ²)``: ``μ`` is the system's level and
``τ`` how much its runs differ.  Each run's posterior on that scale (its mean
``y_r`` and variance ``v_r``) stands for the run's data, so that
``y_r ~ N(θ_r, v_r)``; with a flat prior on ``μ`` and a prior on ``τ`` that
puts probability 0.2 on ``τ = 0`` (runs that do not differ) and spreads the
rest as a half-Cauchy of scale 0.3, the posterior of ``τ`` is computed on a
grid, ``μ`` given ``τ`` is normal, and a new run is ``μ + τ z``: the normal
hierarchical model of ``_hierarchical.py``, with the runs as its groups.  The
system's mean over runs is the mean of the metric over that population of
runs, ``E[f(μ + τ z)]`` on the metric's own scale (Gauss-Hermite quadrature),
and its spread the standard deviation of the same.  Derivations: the theory
page ``docs/theory/runs.rst``.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from ._hierarchical import level_draws, spread_draws, spread_log_posterior

__all__ = ["RUNS_PRIOR_SCALE", "RUNS_SPIKE", "RunsDraws", "runs_draws", "spread_log_prior"]

# The prior of the spread τ on the logit scale, chosen by the coverage
# benchmark's runs section among the candidates it measures (the one whose
# interval of the mean covered at least 0.92 in every cell and was the
# narrowest, on average, where the runs do not differ): probability
# RUNS_SPIKE that the runs do not differ at all (τ = 0), and otherwise a
# half-Cauchy of scale RUNS_PRIOR_SCALE.  Runs of a system near 0.8 differ by
# about 0.16 τ on the metric's scale: 0.3 expects differences of a few
# hundredths and leaves room, in its tail, for larger ones.
RUNS_PRIOR_SCALE = 0.3
RUNS_SPIKE = 0.2
# Grid of τ: τ = TAU_MAX * u², u at the midpoints of GRID equal steps.
TAU_MAX = 10.0
GRID = 1024
# Gauss-Hermite nodes of the population of runs, E[f(μ + τ z)].
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(24)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


def spread_log_prior(kind="half-cauchy", scale=RUNS_PRIOR_SCALE):
    """Log density (up to a constant) of a prior of the spread τ, a function of τ.

    ``kind`` is ``"half-cauchy"``, ``"half-normal"`` or ``"uniform"`` (on
    ``[0, TAU_MAX]``; `scale` unused): the coverage benchmark's candidates.
    """
    if kind == "half-cauchy":
        return lambda tau: -np.log1p((tau / scale) ** 2)
    if kind == "half-normal":
        return lambda tau: -0.5 * (tau / scale) ** 2
    if kind == "uniform":
        return lambda tau: np.zeros_like(tau)
    raise ValueError(f"unknown prior kind {kind!r}")


class RunsDraws:
    """Draws of one system's runs model, on the metric's own scale.

    Attributes
    ----------
    mean : ndarray of shape (n_draws,)
        The mean of the metric over the population of runs.
    new_run : ndarray of shape (n_draws,)
        The true metric of a new run.
    spread : ndarray of shape (n_draws,)
        The standard deviation of the metric over the population of runs.
    """

    __slots__ = ("mean", "new_run", "spread")

    def __init__(self, mean, new_run, spread):
        self.mean, self.new_run, self.spread = mean, new_run, spread


def runs_draws(run_draws, low, high, rng, *, higher=True, log_prior=None, spike=None):
    """`RunsDraws` of a system from posterior draws of each run's metric.

    Parameters
    ----------
    run_draws : list of ndarray of shape (n_draws,)
        Posterior draws of each run's metric (at least two runs).
    low, high : float
        The metric's range; the model lives on the logit scale of it.
    rng : numpy.random.Generator
    higher : bool, default=True
        Whether higher values are better (the logits of a lower-is-better
        metric are negated, so that a metric and its complement give mirrored
        draws).
    log_prior : callable, default=None
        Log density (up to a constant) of the continuous part of the prior of
        τ; the half-Cauchy of scale `RUNS_PRIOR_SCALE` by default.
    spike : float, default=None
        Prior probability that τ = 0 (the runs do not differ); `RUNS_SPIKE`
        by default (with the default `log_prior`), 0 with another one.

    Returns
    -------
    RunsDraws

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> runs = [rng.beta(400 * p, 400 * (1 - p), 4000) for p in (0.78, 0.80, 0.82)]
    >>> draws = runs_draws(runs, 0.0, 1.0, np.random.default_rng(1))
    >>> round(float(draws.mean.mean()), 2)
    0.8
    """
    if log_prior is None:
        log_prior = spread_log_prior()
        spike = RUNS_SPIKE if spike is None else spike
    spike = 0.0 if spike is None else float(spike)
    n_draws = min(d.shape[0] for d in run_draws)
    tiny = np.finfo(float).eps
    sign = 1.0 if higher else -1.0
    logits = np.stack([sign * special.logit(np.clip((d[:n_draws] - low) / (high - low),
                                                    tiny, 1.0 - tiny))
                       for d in run_draws])
    y = logits.mean(axis=1)
    v = np.maximum(logits.var(axis=1, ddof=1), tiny)
    # The runs are independent: Σ = diag(v), τ's grid posterior with the spike at 0.
    log_post = spread_log_posterior(v, y, tau_max=TAU_MAX, size=GRID, log_prior=log_prior,
                                    spike=spike)
    tau_draws = spread_draws(log_post, n_draws, rng, tau_max=TAU_MAX, size=GRID)
    mu, _ = level_draws(tau_draws ** 2, v, y, rng)

    def to_metric(z):
        return low + (high - low) * special.expit(sign * z)

    population = to_metric(mu[:, None] + tau_draws[:, None] * _NODES[None, :])
    mean = population @ _WEIGHTS
    spread = np.sqrt(np.maximum((population ** 2) @ _WEIGHTS - mean ** 2, 0.0))
    new_run = to_metric(mu + tau_draws * rng.standard_normal(n_draws))
    return RunsDraws(mean, new_run, spread)
