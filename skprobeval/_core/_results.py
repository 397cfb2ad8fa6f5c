"""The interface every comparison result shares.

Each comparison (paired or independent tables, a metric on the same items,
rankings, the correlated t-test over folds, the rank tests across data sets)
answers one question, "is the first system better than the second?", as three
probabilities of the difference **first minus second** against a region of
practical equivalence.  `ComparisonResult` is that answer's common shape.
"""

from __future__ import annotations

import numpy as np

from ._render import key_value_html
from ._validation import check_confidence

__all__ = ["ComparisonResult"]


def _plain(value):
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value.item()
    if isinstance(value, np.generic):
        return value.item()
    return value


class ComparisonResult:
    """Common interface of every comparison result.

    Attributes
    ----------
    prob_first_better, prob_equivalent, prob_second_better : float or ndarray
        Posterior probabilities that the difference (first minus second) is
        above `rope`, within it, below ``-rope``; they sum to 1.
    rope : float
        Half-width of the region of practical equivalence.
    mc_error : float or ndarray
        Monte Carlo standard error of the probabilities (0.0 when exact).

    Methods
    -------
    interval(confidence=0.95)
        Credible interval of the difference.
    to_dict()
        The result's figures as a dict.
    summary(confidence=0.95)
        `to_dict` plus the interval of the difference (``low``, ``high``,
        ``confidence``).

    In a notebook a result shows as a table (``_repr_html_``).

    Examples
    --------
    >>> from skprobeval import ComparisonResult, compare_paired
    >>> result = compare_paired([0, 1, 1, 0, 1, 1, 0, 1], [0, 1, 1, 0, 1, 1, 1, 1],
    ...                         [0, 0, 1, 0, 0, 1, 0, 1], rope=0.05)
    >>> isinstance(result, ComparisonResult)
    True
    >>> round(result.prob_first_better, 3), round(result.prob_equivalent, 3)
    (0.615, 0.179)
    >>> result.interval(0.9)
    CredibleInterval(low=-0.2238, high=0.4322)
    >>> sorted(result.summary())[:4]
    ['confidence', 'expected_difference', 'expected_log_odds', 'first_better']
    """

    __slots__ = ()

    #: What `interval` bounds (shown in the notebook table).
    _difference_label = "difference (first - second)"

    def interval(self, confidence=0.95):  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def _extra_dict(self):
        return {}

    def to_dict(self):
        """The result's figures as a dict (floats, or arrays for per-label results).

        Always the keys ``prob_first_better``, ``prob_equivalent``,
        ``prob_second_better``, ``rope`` and ``mc_error``, then the figures of
        the particular comparison.
        """
        out = {"prob_first_better": _plain(self.prob_first_better),
               "prob_equivalent": _plain(self.prob_equivalent),
               "prob_second_better": _plain(self.prob_second_better),
               "rope": _plain(self.rope), "mc_error": _plain(self.mc_error)}
        out.update({key: _plain(value) for key, value in self._extra_dict().items()})
        return out

    def summary(self, confidence=0.95):
        """`to_dict` with the credible interval of the difference.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the interval.

        Returns
        -------
        dict
            `to_dict`'s keys and ``low``, ``high``, ``confidence``
            (``pandas.DataFrame(summary)`` gives one row per label for
            per-label results).
        """
        confidence = check_confidence(confidence)
        low, high = self.interval(confidence)
        return {**self.to_dict(), "low": _plain(low), "high": _plain(high),
                "confidence": confidence}

    def _repr_html_(self):
        return key_value_html(f"{type(self).__name__}: low, high = "
                               f"{self._difference_label}, 95% interval",
                               self.summary().items())
