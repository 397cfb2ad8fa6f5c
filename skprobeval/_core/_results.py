"""The interface every comparison result shares.

Each comparison (paired or independent tables, a metric on the same items,
rankings, the correlated t-test over folds, the rank tests across data sets)
answers one question, "is the first system better than the second?", as three
probabilities of the difference **first minus second** against a region of
practical equivalence.  `ComparisonResult` is that answer's common shape.
"""

from __future__ import annotations

import numpy as np

from ._result_api import ResultMixin, jsonable
from ._validation import check_confidence

__all__ = ["ComparisonResult"]


def _plain(value):
    """Plain Python data: floats, or lists for per-label results."""
    return jsonable(value)


class ComparisonResult(ResultMixin):
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
        The result's figures as a dict of plain Python data (``json.dumps``
        works).
    summary(confidence=0.95)
        `to_dict` plus the interval of the difference (``low``, ``high``,
        ``confidence``).
    plot(ax=None, *, confidence=0.95)
        The difference's nested credible intervals beside the rope.

    In a notebook a result shows as a table and that figure (``_repr_html_``).

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
        """The result's figures as a dict (floats, or lists for per-label results).

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

    def _dict_content(self):
        return self.summary()

    def _html_caption(self):
        return (f"{type(self).__name__}: low, high = {self._difference_label}, "
                "95% interval")

    def _html_table(self):
        from ._render import key_value_html

        items = [(key, np.asarray(value) if isinstance(value, list) else value)
                 for key, value in self.summary().items()]
        return key_value_html(self._html_caption(), items)

    def _row_names(self, size):
        labels = getattr(self, "labels", None)
        return [str(v) for v in (labels if labels is not None else range(size))]

    def plot(self, ax=None, *, confidence=0.95):
        """The difference's 50%, 80% and `confidence` intervals beside the rope.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.
        confidence : float, default=0.95
            The widest interval drawn.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from ._drawing import plot_intervals

        confidence = check_confidence(confidence)
        levels = sorted({0.5, 0.8, confidence})
        bounds = {level: self.interval(level) for level in levels}
        mean = np.asarray(self.summary(confidence).get(
            "expected_difference", (bounds[0.5][0] + bounds[0.5][1]) / 2 if 0.5 in bounds
            else 0.0), dtype=float)
        lows = {level: np.atleast_1d(np.asarray(b[0], dtype=float)) for level, b in bounds.items()}
        highs = {level: np.atleast_1d(np.asarray(b[1], dtype=float))
                 for level, b in bounds.items()}
        size = lows[confidence].shape[0]
        names = ["difference"] if np.ndim(bounds[confidence][0]) == 0 else self._row_names(size)
        mean = np.broadcast_to(np.atleast_1d(mean), (size,))
        rows = [(names[i], float(mean[i]),
                 [(level, float(lows[level][i]), float(highs[level][i])) for level in levels])
                for i in range(size)]
        title = None
        if np.ndim(self.prob_first_better) == 0:
            title = (f"P(first better) {float(self.prob_first_better):.3f}, "
                     f"P(equivalent) {float(self.prob_equivalent):.3f}, "
                     f"P(second better) {float(self.prob_second_better):.3f}")
        rope = float(np.max(self.rope)) if np.ndim(self.rope) == 0 else None
        return plot_intervals(rows, ax=ax, xlabel=self._difference_label, rope=rope,
                              reference=0.0, title=title)
