"""The Bayesian correlated t-test over cross-validation folds.

The fold-score differences of two systems on the same splits are
correlated (the training sets overlap); Nadeau & Bengio (2003) correct the
variance with the test fraction ρ, and Benavoli et al. (2017) give the
posterior of the mean difference: Student-t with n - 1 degrees of freedom,
location the mean difference and scale ``sqrt((1/n + ρ/(1 - ρ)) s²)``.
Sign convention: first minus second.
Derivations: the theory page ``docs/theory/ttest.rst``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .._core import (
    ComparisonResult,
    check_confidence,
    check_rope,
    check_score_pair,
    fail,
    rounded,
)
from .._posteriors import CredibleInterval

__all__ = ["CorrelatedTTestResult", "correlated_ttest", "prob_mean_above"]


# ---------------------------------------------------------------------------
# Per-fold scores: the Bayesian correlated t-test
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class CorrelatedTTestResult(ComparisonResult):
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
    mc_error : float
        0.0: the probabilities are exact (Student t).

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through Bayesian
       analysis", JMLR 18, 2017.

    Examples
    --------
    >>> from skprobeval import correlated_ttest
    >>> result = correlated_ttest([0.81, 0.84, 0.79, 0.85, 0.83], [0.80, 0.82, 0.80, 0.82, 0.81],
    ...                           test_fraction=0.2)
    >>> result
    CorrelatedTTestResult(mean=0.014, scale=0.0102, df=4, rope=0.0, prob_first_better=0.8796,
    prob_equivalent=0.0, prob_second_better=0.1204)
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
    def mc_error(self):
        """0.0: the probabilities are exact."""
        return 0.0

    def _extra_dict(self):
        return {"mean": self.mean, "scale": self.scale, "df": self.df, "n": self.n,
                "test_fraction": self.test_fraction, "runs": self.runs}

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
        # scipy.stats.t.interval's arithmetic, without building distribution objects.
        low = special.stdtrit(self.df, (1.0 - confidence) / 2) * self.scale + self.mean
        high = special.stdtrit(self.df, (1.0 + confidence) / 2) * self.scale + self.mean
        return CredibleInterval(float(low), float(high))

    def __repr__(self):
        parts = [f"mean={rounded(self.mean)}", f"scale={rounded(self.scale)}", f"df={self.df}",
                 f"rope={rounded(self.rope)}"]
        for name in ("prob_first_better", "prob_equivalent", "prob_second_better"):
            parts.append(f"{name}={rounded(getattr(self, name))}")
        return f"CorrelatedTTestResult({', '.join(parts)})"


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
        Region of practical equivalence for the mean difference: any finite value >= 0.
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
    .. [1] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through Bayesian
       analysis", JMLR 18, 2017.
    .. [2] C. Nadeau and Y. Bengio, "Inference for the generalization error",
       Machine Learning 52, 2003.

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
    a, b = check_score_pair(scores_a, scores_b, minimum=2)
    n = a.shape[0]
    if isinstance(test_fraction, bool) or not isinstance(test_fraction, numbers.Real):
        fail("test_fraction", "a float in the open interval (0, 1)", test_fraction,
             error=TypeError)
    test_fraction = float(test_fraction)
    if not 0.0 < test_fraction < 1.0:
        fail("test_fraction", "a float in the open interval (0, 1)", test_fraction)
    rope = check_rope(rope, width=math.inf)
    if isinstance(runs, bool) or not isinstance(runs, (numbers.Integral, np.integer)):
        fail("runs", "a positive int", runs, error=TypeError)
    if runs < 1 or n % runs:
        fail("runs", f"a positive int dividing the number of scores ({n})", runs)
    d = a - b
    # np.mean and np.var(ddof=1) term by term, without their per-call overhead.
    mean = float(d.sum() / n)
    variance = float(np.square(d - mean).sum() / (n - 1))
    scale = math.sqrt((1.0 / n + test_fraction / (1.0 - test_fraction)) * variance)
    if scale == 0:
        first = float(mean > rope)
        second = float(mean < -rope)
        equivalent = 1.0 - first - second
    else:
        # scipy.stats.t.sf and .cdf with loc and scale, straight from the Student-t cdf.
        first = float(special.stdtr(n - 1, -((rope - mean) / scale)))
        second = float(special.stdtr(n - 1, (-rope - mean) / scale))
        equivalent = 0.0 if rope == 0 else max(0.0, 1.0 - first - second)
    return CorrelatedTTestResult(mean, scale, n - 1, n, test_fraction, int(runs), rope, first,
                                 equivalent, second)


def prob_mean_above(differences, *, test_fraction, rope=0.0):
    """``correlated_ttest(...).prob_first_better`` of many score differences at once.

    The same arithmetic as `correlated_ttest` (mean, sample variance, the
    Nadeau-Bengio scale, then the Student-t tail), vectorised over every
    column of ``differences``; no input checks (the caller validates).

    Parameters
    ----------
    differences : ndarray of shape (n, ...)
        Per-fold differences, first minus second, folds along axis 0 (n >= 2).
    test_fraction : float
        In (0, 1).
    rope : float, default=0.0
        Any finite value >= 0.

    Returns
    -------
    ndarray of shape differences.shape[1:]
        ``P(mu > rope)``; a zero-variance column is a point mass at its mean
        (1.0 when the mean exceeds `rope`, else 0.0), as in `correlated_ttest`.
    """
    d = np.asarray(differences, dtype=np.float64)
    n = d.shape[0]
    mean = d.sum(axis=0) / n
    variance = np.square(d - mean).sum(axis=0) / (n - 1)
    scale = np.sqrt((1.0 / n + test_fraction / (1.0 - test_fraction)) * variance)
    with np.errstate(divide="ignore", invalid="ignore"):
        tail = special.stdtr(n - 1, -((rope - mean) / scale))
    return np.where(scale == 0, (mean > rope).astype(np.float64), tail)
