"""Bayesian sign and signed-rank tests of two systems across many data sets.

`bayesian_sign_test` and `bayesian_signed_rank_test` put the
Dirichlet-process posterior of Benavoli et al. (2014, 2017) on the per-data-set
score differences (**first minus second**, a pseudo-observation at 0 of
strength `prior_strength`) and report, as `DatasetsComparison`, the share of
draws in which each region (above, inside, below the rope) holds the largest
mass; the signed-rank test's pair sums cost O(n) per draw, not O(n^2).
Derivations: the theory page ``docs/theory/across_datasets.rst``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._core import (
    N_DRAWS,
    ComparisonResult,
    check_confidence,
    check_draws,
    check_positive,
    check_random_state,
    check_rope,
    check_score_pair,
    dirichlet,
    draw_chunks,
    renamed_attribute,
    renamed_keyword,
    rounded,
    row_reduce,
)
from .._posteriors import CredibleInterval

__all__ = ["DatasetsComparison", "bayesian_sign_test", "bayesian_signed_rank_test"]

# Cells per chunk of the (rows x points) pair sums and of the (draws x points)
# Dirichlet draws: 2e6, not `CHUNK_VARIATES`, because the draws' chunk sizes
# order the random stream and seeded tests must not change.
_CELLS_PER_CHUNK = 2_000_000


@dataclass(frozen=True, slots=True, eq=False)
class DatasetsComparison(ComparisonResult):
    """Posterior probabilities that one system beats another across data sets.

    Returned by `bayesian_signed_rank_test` and `bayesian_sign_test`.  The compared quantity is
    the score difference **first minus second** on each data set.

    Attributes
    ----------
    test : {"signed-rank", "sign"}
        Which test.
    prob_first_better, prob_equivalent, prob_second_better : float
        Posterior probability that the region "first better by more than
        `rope`", "within `rope`", "second better by more than `rope`" holds
        the largest mass (Benavoli et al.'s definition; baycomp's ``probs``).
    mc_error : float
        Monte Carlo standard error of the three probabilities (the largest).
    mean_first_better, mean_equivalent, mean_second_better : float
        Posterior mean mass of each region.
    samples : ndarray of shape (n_draws, 3)
        Posterior draws of the three masses (first better, equivalent,
        second better), e.g. for a simplex plot.
    rope : float
        Region of practical equivalence.
    prior_strength : float
        Strength of the prior pseudo-observation at 0.
    n : int
        Number of data sets.
    n_draws : int
        Posterior draws.

    Examples
    --------
    >>> from skprobeval import bayesian_signed_rank_test
    >>> a = [0.81, 0.74, 0.92, 0.66, 0.88, 0.79, 0.85, 0.70]
    >>> b = [0.78, 0.75, 0.90, 0.61, 0.86, 0.80, 0.81, 0.69]
    >>> result = bayesian_signed_rank_test(a, b, rope=0.01, random_state=0)
    >>> round(result.prob_first_better, 2), round(result.prob_second_better, 2)
    (0.96, 0.01)
    >>> result.samples.shape
    (10000, 3)
    """

    test: str
    prob_first_better: float
    prob_equivalent: float
    prob_second_better: float
    mc_error: float
    mean_first_better: float
    mean_equivalent: float
    mean_second_better: float
    rope: float
    prior_strength: float
    n: int
    n_draws: int
    samples: np.ndarray = field(repr=False)

    n_samples = renamed_attribute("n_samples", "n_draws")
    prior = renamed_attribute("prior", "prior_strength")
    _difference_label = "mass of 'first better' minus mass of 'second better'"

    def interval(self, confidence=0.95):
        """Equal-tailed credible interval of the mass of "first better" minus
        the mass of "second better" (from the draws in `samples`).

        Positive: a new data set's difference is more likely above `rope`
        than below ``-rope``.

        Examples
        --------
        >>> from skprobeval import bayesian_sign_test
        >>> result = bayesian_sign_test([0.9, 0.8, 0.85, 0.7], [0.7, 0.75, 0.7, 0.72],
        ...                             random_state=0)
        >>> low, high = result.interval(0.9)
        >>> bool(-1 <= low < high <= 1)
        True
        """
        confidence = check_confidence(confidence)
        difference = self.samples[:, 0] - self.samples[:, 2]
        tail = (1.0 - confidence) / 2
        low, high = np.quantile(difference, [tail, 1.0 - tail])
        return CredibleInterval(float(low), float(high))

    def _extra_dict(self):
        return {"test": self.test, "mean_first_better": self.mean_first_better,
                "mean_equivalent": self.mean_equivalent,
                "mean_second_better": self.mean_second_better,
                "prior_strength": self.prior_strength,
                "n": self.n, "n_draws": self.n_draws}

    def __repr__(self):
        parts = [f"test={self.test!r}"]
        for name in ("prob_first_better", "prob_equivalent", "prob_second_better", "mc_error",
                     "rope", "prior_strength"):
            parts.append(f"{name}={rounded(getattr(self, name))}")
        parts += [f"n={self.n}", f"n_draws={self.n_draws}"]
        return f"DatasetsComparison({', '.join(parts)})"


def _check_inputs(scores_a, scores_b, rope, prior_strength, n_draws):
    a, b = check_score_pair(scores_a, scores_b)
    rope = check_rope(rope, width=math.inf)
    prior_strength = check_positive(prior_strength, "prior_strength", allow_zero=True)
    return a - b, rope, prior_strength, check_draws(n_draws)


def _result(test, samples, rope, prior_strength, n_datasets):
    """Probabilities (share of draws won by each region) from the mass draws."""
    n_draws = samples.shape[0]
    # A draw whose largest mass is shared (all differences 0 with rope = 0: half
    # and half) counts for each tied region in equal parts, so that swapping
    # the systems mirrors the result (baycomp gives such draws to the first).
    largest = row_reduce(np.maximum, samples)
    top = [samples[:, k] == largest for k in range(3)]
    ties = top[0].astype(np.int8) + top[1] + top[2]
    if np.all(ties == 1):
        probs = np.array([np.count_nonzero(t) for t in top], dtype=float) / n_draws
    else:
        probs = np.array([np.sum(t / ties) for t in top]) / n_draws
    error = max(math.sqrt(p * (1.0 - p) / n_draws) for p in probs)
    means = samples.mean(axis=0)
    samples.setflags(write=False)
    return DatasetsComparison(test, float(probs[0]), float(probs[1]), float(probs[2]),
                              float(error), float(means[0]), float(means[1]), float(means[2]),
                              float(rope), float(prior_strength), int(n_datasets), n_draws,
                              samples)


@renamed_keyword("prior", "prior_strength")
@renamed_keyword("n_samples", "n_draws")
def bayesian_signed_rank_test(scores_a, scores_b, *, rope=0.0, prior_strength=0.5,
                              n_draws=N_DRAWS,
                     random_state=None):
    """Bayesian signed-rank test of two systems' scores across data sets.

    The Bayesian counterpart of the Wilcoxon signed-rank test (Benavoli et
    al. 2014, 2017): a Dirichlet-process posterior on the distribution of the
    score differences ``z = scores_a - scores_b`` (**first minus second**),
    with a prior pseudo-observation at 0 of strength `prior_strength`, and the
    posterior masses of the Walsh averages ``(z_i + z_j) / 2`` above
    `rope`, within it and below ``-rope``.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_datasets,)
        The two systems' scores (e.g. mean cross-validated accuracy) on the
        same data sets, in the same order.
    rope : float, default=0.0
        Region of practical equivalence of the difference: any finite
        value >= 0 (the scores may have any range).
    prior_strength : float, default=0.5
        Strength of the prior pseudo-observation at 0 (baycomp's default;
        formerly `prior`).
    n_draws : int, default=10_000
        Posterior draws.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.

    Returns
    -------
    DatasetsComparison

    See Also
    --------
    bayesian_sign_test : Counts signs only (weaker, fewer assumptions).
    correlated_ttest : Two systems over the folds of one data set.
    compare_across_datasets : Every pair of several systems.

    Notes
    -----
    Equal in distribution to ``baycomp.SignedRankTest(scores_a, scores_b,
    rope, prior=prior_strength)``, whose ``(p_left, p_rope, p_right)`` are our
    (first better, equivalent, second better); with ``rope=0`` baycomp
    returns the two probabilities without the (empty) rope.  Each draw costs
    O(n) instead of O(n^2).

    References
    ----------
    .. [1] A. Benavoli, G. Corani, F. Mangili, M. Zaffalon and F. Ruggeri,
       "A Bayesian Wilcoxon signed-rank test based on the Dirichlet process",
       ICML 2014.
    .. [2] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through Bayesian
       analysis", JMLR 18, 2017.

    Examples
    --------
    >>> from skprobeval import bayesian_signed_rank_test
    >>> a = [0.81, 0.74, 0.92, 0.66, 0.88, 0.79, 0.85, 0.70]
    >>> b = [0.78, 0.75, 0.90, 0.61, 0.86, 0.80, 0.81, 0.69]
    >>> bayesian_signed_rank_test(a, b, rope=0.01, random_state=0)
    DatasetsComparison(test='signed-rank', prob_first_better=0.9617, prob_equivalent=0.0281,
    prob_second_better=0.0102, mc_error=0.0019, rope=0.01, prior_strength=0.5, n=8,
    n_draws=10000)
    """
    z, rope, prior, n_draws = _check_inputs(scores_a, scores_b, rope, prior_strength, n_draws)
    rng = check_random_state(random_state)
    points = np.concatenate([[0.0], z])
    weights = np.ones(points.shape[0])
    weights[0] = prior
    order = np.argsort(points, kind="stable")
    points, weights = points[order], weights[order]
    m = points.shape[0]
    # For each i, the sorted partners j with z_i + z_j below / above the bounds form a
    # prefix / suffix: count them once (same float sums as the pair matrix).
    low_lt = np.empty(m, dtype=np.intp)
    low_le = np.empty(m, dtype=np.intp)
    high_lt = np.empty(m, dtype=np.intp)
    high_le = np.empty(m, dtype=np.intp)
    rows = max(1, _CELLS_PER_CHUNK // m)
    for start in range(0, m, rows):
        sums = points[start:start + rows, None] + points[None, :]
        low_lt[start:start + rows] = (sums < -2 * rope).sum(axis=1)
        low_le[start:start + rows] = (sums <= -2 * rope).sum(axis=1)
        high_lt[start:start + rows] = (sums < 2 * rope).sum(axis=1)
        high_le[start:start + rows] = (sums <= 2 * rope).sum(axis=1)
    samples = np.empty((n_draws, 3))
    start = 0
    for size in draw_chunks(n_draws, m, variates=_CELLS_PER_CHUNK):
        w = dirichlet(weights, size, rng)
        cumulative = np.zeros((size, m + 1))
        np.cumsum(w, axis=1, out=cumulative[:, 1:])
        total = cumulative[:, -1:]
        # Heaviside with 1/2 at the boundary: the mean of the strict and loose prefixes.
        below = 0.5 * (cumulative[:, low_lt] + cumulative[:, low_le])
        above = total - 0.5 * (cumulative[:, high_lt] + cumulative[:, high_le])
        second = np.einsum("ij,ij->i", w, below) / (total[:, 0] ** 2)
        first = np.einsum("ij,ij->i", w, above) / (total[:, 0] ** 2)
        samples[start:start + size, 0] = first
        samples[start:start + size, 2] = second
        start += size
    samples[:, 1] = np.maximum(1.0 - samples[:, 0] - samples[:, 2], 0.0)
    return _result("signed-rank", samples, rope, prior, z.shape[0])


@renamed_keyword("prior", "prior_strength")
@renamed_keyword("n_samples", "n_draws")
def bayesian_sign_test(scores_a, scores_b, *, rope=0.0, prior_strength=1.0, n_draws=N_DRAWS,
              random_state=None):
    """Bayesian sign test of two systems' scores across data sets.

    The Dirichlet-process posterior of Benavoli et al. (2014, 2017) reduced
    to three regions: with ``z = scores_a - scores_b`` (**first minus
    second**), the masses of ``z > rope``, ``|z| <= rope`` and
    ``z < -rope`` are ``Dir(n_first, n_equivalent + prior, n_second)``, the
    prior pseudo-observation sitting at 0.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_datasets,)
        The two systems' scores on the same data sets, in the same order.
    rope : float, default=0.0
        Region of practical equivalence of the difference: any finite
        value >= 0 (the scores may have any range).
    prior_strength : float, default=1.0
        Strength of the prior pseudo-observation at 0 (baycomp's default;
        formerly `prior`).
    n_draws : int, default=10_000
        Posterior draws.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.

    Returns
    -------
    DatasetsComparison

    See Also
    --------
    bayesian_signed_rank_test : Uses the sizes of the differences too.

    Notes
    -----
    baycomp's ``SignTest`` adds 1e-4 to every count for numerical stability;
    here a region without differences and without the prior has mass 0 in
    every draw.  With ``rope=0`` the equivalence region holds the exact ties
    and the prior; baycomp then reports the two other probabilities
    renormalised, ``p / (p_first + p_second)``.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, F. Mangili, M. Zaffalon and F. Ruggeri,
       "A Bayesian Wilcoxon signed-rank test based on the Dirichlet process",
       ICML 2014.

    Examples
    --------
    >>> from skprobeval import bayesian_sign_test
    >>> a = [0.81, 0.74, 0.92, 0.66, 0.88, 0.79, 0.85, 0.70]
    >>> b = [0.78, 0.75, 0.90, 0.61, 0.86, 0.80, 0.81, 0.69]
    >>> result = bayesian_sign_test(a, b, rope=0.01, random_state=0)
    >>> round(result.prob_first_better, 2), round(result.mean_first_better, 3)
    (0.92, 0.667)
    """
    z, rope, prior, n_draws = _check_inputs(scores_a, scores_b, rope, prior_strength, n_draws)
    rng = check_random_state(random_state)
    first = float(np.sum(z > rope))
    second = float(np.sum(z < -rope))
    alpha = np.array([first, z.shape[0] - first - second + prior, second])
    live = alpha > 0
    if live.all():
        return _result("sign", rng.dirichlet(alpha, n_draws), rope, prior, z.shape[0])
    samples = np.zeros((n_draws, 3))
    if live.sum() == 1:
        samples[:, live] = 1.0
    else:
        # Three cells: NumPy's sampler (stick-breaking for tiny concentrations).
        samples[:, live] = rng.dirichlet(alpha[live], n_draws)
    return _result("sign", samples, rope, prior, z.shape[0])
