"""The results of the chance baselines, with the shared result interface.

`RandomAveragePrecision` (exact moments of a random ranking's average
precision), `RandomRankingTest` (an observed AP against them),
`ChanceBaseline` (the expected metrics of a random classifier) and
`RandomPrecisionBaseline` (a random ranking's precision at every cutoff),
returned by the functions of `skprobeval._metrics._baseline`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core import ResultMixin, fail, format_array, to_host

__all__ = ["ChanceBaseline", "RandomAveragePrecision", "RandomPrecisionBaseline",
           "RandomRankingTest"]


def _round(value):
    return float(f"{value:.6g}")


@dataclass(frozen=True, slots=True)
class RandomAveragePrecision(ResultMixin):
    """Exact moments of the average precision of a uniformly random ranking.

    Returned by `random_average_precision`.

    Attributes
    ----------
    n_items : int
        Number of ranked items ``N``.
    n_relevant : int
        Number of relevant items ``R``.
    mean : float
        Exact expected AP, ``(R-1)/(N-1) + (N-R) H_N / (N(N-1))``.
    variance : float
        Exact variance of the AP.
    std : float
        Square root of ``variance``.
    prevalence : float
        ``R / N``, the usual (large-N) approximation of the mean, for comparison.

    Examples
    --------
    >>> from skprobeval import random_average_precision
    >>> baseline = random_average_precision(5, 2)
    >>> baseline
    RandomAveragePrecision(n_items=5, n_relevant=2, mean=0.5925, variance=0.044284,
                           std=0.210438, prevalence=0.4)
    >>> round(baseline.z_score(1.0), 4)
    1.9364
    """

    n_items: int
    n_relevant: int
    mean: float
    variance: float
    std: float
    prevalence: float

    def z_score(self, average_precision):
        """Standardised distance of an observed AP from the random baseline.

        Parameters
        ----------
        average_precision : float or array-like of float
            Observed average precision(s), each in [0, 1].

        Returns
        -------
        float or ndarray
            ``(average_precision - mean) / std``: a float for a scalar input,
            an array of the input's shape otherwise.  NaN when ``std`` is 0
            (``n_relevant == n_items``: every ranking has AP 1).

        Examples
        --------
        >>> from skprobeval import random_average_precision
        >>> baseline = random_average_precision(100, 10)
        >>> round(baseline.z_score(0.5), 3)
        6.749
        """
        values = np.asarray(to_host(average_precision, "average_precision"))
        if values.dtype.kind not in "iuf" or values.size == 0:
            fail("average_precision", "a number (or array of numbers) in [0, 1]",
                 average_precision)
        values = values.astype(np.float64)
        if not np.all(np.isfinite(values) & (values >= 0) & (values <= 1)):
            fail("average_precision", "in [0, 1]", average_precision)
        if self.std > 0:
            z = (values - self.mean) / self.std
        else:
            z = np.full(values.shape, np.nan)
        return float(z) if z.ndim == 0 else z

    def __repr__(self):
        return (f"RandomAveragePrecision(n_items={self.n_items}, n_relevant={self.n_relevant}, "
                f"mean={_round(self.mean)}, variance={_round(self.variance)}, "
                f"std={_round(self.std)}, prevalence={_round(self.prevalence)})")

    def summary(self):
        """The figures as a record.

        Returns
        -------
        dict
            ``n_items``, ``n_relevant``, ``mean``, ``variance``, ``std`` and
            ``prevalence``.

        Examples
        --------
        >>> from skprobeval import random_average_precision
        >>> random_average_precision(5, 2).summary()["mean"]
        0.5925
        """
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def _html_caption(self):
        return "RandomAveragePrecision: AP of a uniformly random ranking"

    def plot(self, ax=None):
        """Draw the random ranking's mean AP with one and two standard deviations.

        The prevalence ``R / N``, the usual approximation of the mean, is the
        vertical line.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import random_average_precision
        >>> random_average_precision(50, 10).plot().get_xlabel()
        'average precision'
        """
        from .._core import plot_chance_level

        return plot_chance_level(self.mean, self.std, reference=self.prevalence,
                                 reference_label="prevalence R / N", ax=ax)


@dataclass(frozen=True, slots=True)
class RandomRankingTest(ResultMixin):
    """An observed average precision against the exact random-ranking baseline.

    Returned by `random_ranking_test`.

    Attributes
    ----------
    average_precision : float
        Observed average precision (scikit-learn's tie convention).
    expected : float
        Exact expected AP of a uniformly random ranking of the same items.
    std : float
        Exact standard deviation of that random AP.
    z_score : float
        ``(average_precision - expected) / std``; NaN when ``std`` is 0.
    p_value : float
        One-sided permutation p-value ``(1 + #{AP_perm >= AP_obs}) /
        (1 + n_permutations)``; NaN when ``n_permutations`` is 0.
    n_items : int
        Number of ranked items.
    n_relevant : int
        Number of relevant items.
    n_permutations : int
        Number of permutations drawn for ``p_value``.

    Examples
    --------
    >>> from skprobeval import random_ranking_test
    >>> random_ranking_test([1, 1, 0, 1, 0, 0, 0, 0], [8, 7, 6, 5, 4, 3, 2, 1])
    RandomRankingTest(average_precision=0.916667, expected=0.52838, std=0.177557,
                      z_score=2.18683, p_value=nan, n_items=8, n_relevant=3, n_permutations=0)
    """

    average_precision: float
    expected: float
    std: float
    z_score: float
    p_value: float
    n_items: int
    n_relevant: int
    n_permutations: int

    def __repr__(self):
        return (f"RandomRankingTest(average_precision={_round(self.average_precision)}, "
                f"expected={_round(self.expected)}, std={_round(self.std)}, "
                f"z_score={_round(self.z_score)}, p_value={_round(self.p_value)}, "
                f"n_items={self.n_items}, n_relevant={self.n_relevant}, "
                f"n_permutations={self.n_permutations})")

    def summary(self):
        """The figures as a record.

        Returns
        -------
        dict
            The attributes by name (``p_value`` NaN without permutations).

        Examples
        --------
        >>> from skprobeval import random_ranking_test
        >>> test = random_ranking_test([1, 1, 0, 1, 0, 0, 0, 0], [8, 7, 6, 5, 4, 3, 2, 1])
        >>> round(test.summary()["z_score"], 3)
        2.187
        """
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def _html_caption(self):
        return "RandomRankingTest: the observed AP against a random ranking's"

    def plot(self, ax=None):
        """Draw the observed AP against the random ranking's mean and standard deviations.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import random_ranking_test
        >>> test = random_ranking_test([1, 1, 0, 1, 0, 0, 0, 0], [8, 7, 6, 5, 4, 3, 2, 1])
        >>> test.plot().get_title()
        'z = 2.187'
        """
        from .._core import plot_chance_level

        title = f"z = {self.z_score:.3f}" + (
            "" if np.isnan(self.p_value) else f", permutation p = {self.p_value:.4g}")
        return plot_chance_level(self.expected, self.std, reference=self.average_precision,
                                 reference_label="observed AP", title=title, ax=ax)


@dataclass(frozen=True, slots=True, eq=False)
class ChanceBaseline(ResultMixin):
    """Expected metrics of a random classifier and the exact chance p-value.

    Returned by `chance_baseline`.  Every field is a float for a single table
    (0-d counts) and a read-only array of shape ``(K,)`` for per-label counts.

    Attributes
    ----------
    precision, recall, f1, accuracy, informedness : float or ndarray
        Expected value of each metric for a classifier that predicts the
        observed number of positives ``M`` at random (NaN where the metric is
        undefined for every outcome, e.g. precision when ``M = 0``).
    expected_tp : float or ndarray
        Expected number of true positives ``M R / N``.
    p_value : float or ndarray
        ``P(TP >= observed TP)`` under that random classifier (exact
        hypergeometric upper tail).
    labels : ndarray or None
        The labels of the per-label tables, from the counts.

    Examples
    --------
    >>> from skprobeval import ConfusionCounts, chance_baseline
    >>> chance_baseline(ConfusionCounts(tp=8, fp=2, fn=4, tn=6))
    ChanceBaseline(precision=0.6, recall=0.5, f1=0.545455, accuracy=0.5, informedness=0,
                   expected_tp=6, p_value=0.0849012)
    """

    precision: object
    recall: object
    f1: object
    accuracy: object
    informedness: object
    expected_tp: object
    p_value: object
    labels: np.ndarray | None = None

    def __repr__(self):
        parts = [] if self.labels is None else [f"labels={format_array(self.labels)}"]
        for name in ("precision", "recall", "f1", "accuracy", "informedness", "expected_tp",
                     "p_value"):
            value = getattr(self, name)
            value = _round(value) if isinstance(value, float) else np.array(
                [_round(v) for v in np.ravel(value)])
            parts.append(f"{name}={format_array(value)}")
        return f"ChanceBaseline({', '.join(parts)})"

    # Expected metrics of a few kinds and a p-value: no common axis to draw
    # them on, and the table says it all.
    _html_figure = False

    def summary(self):
        """The figures as a record (lists for per-label tables).

        Returns
        -------
        dict
            ``precision``, ``recall``, ``f1``, ``accuracy``,
            ``informedness``, ``expected_tp``, ``p_value`` and, for
            per-label tables, ``labels``.

        Examples
        --------
        >>> from skprobeval import ConfusionCounts, chance_baseline
        >>> chance_baseline(ConfusionCounts(tp=8, fp=2, fn=4, tn=6)).summary()["precision"]
        0.6
        """
        names = ("precision", "recall", "f1", "accuracy", "informedness", "expected_tp",
                 "p_value")
        record = {} if self.labels is None else {"labels": self.labels.tolist()}
        for name in names:
            value = getattr(self, name)
            record[name] = float(value) if np.ndim(value) == 0 else np.asarray(value).tolist()
        return record

    def _html_caption(self):
        return "ChanceBaseline: a random classifier with the observed margins"

    def _html_table(self):
        from .._core import key_value_html

        return key_value_html(self._html_caption(), [
            (key, np.asarray(value) if isinstance(value, list) else value)
            for key, value in self.summary().items()])


@dataclass(frozen=True, slots=True, eq=False)
class RandomPrecisionBaseline(ResultMixin):
    """Exact distribution of the precision at every cutoff of a random ranking.

    Returned by `random_precision_baseline`.  At cutoff ``k`` (the top ``k``
    of ``N`` items, ``R`` of them relevant) a uniformly random ranking has
    ``TP ~ Hypergeometric(N, R, k)``: precision ``TP / k`` has mean ``R / N``
    at every ``k`` (the usual flat line) but a spread that shrinks with ``k``.

    Attributes
    ----------
    k : ndarray of shape (N,)
        Cutoffs 1..N.
    recall : ndarray
        Expected recall at each cutoff, ``k / N``: the abscissa of the
        baseline on a precision-recall figure.
    mean : ndarray
        ``R / N`` at every cutoff.
    low, high : ndarray
        Equal-tailed ``confidence`` limits of the precision (hypergeometric
        quantiles divided by ``k``; each tail holds at most ``(1 - confidence) / 2``).
    confidence : float

    Examples
    --------
    >>> from skprobeval import random_precision_baseline
    >>> baseline = random_precision_baseline(300, 45)
    >>> float(baseline.mean[49]), float(baseline.low[49]), float(baseline.high[49])
    (0.15, 0.06, 0.24)
    """

    k: np.ndarray
    recall: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence: float

    def __repr__(self):
        return (f"RandomPrecisionBaseline(n_items={self.k.shape[0]}, "
                f"prevalence={_round(float(self.mean[0]))}, confidence={self.confidence:g})")

    def summary(self):
        """One row per cutoff.

        Returns
        -------
        pandas.DataFrame
            Indexed by the cutoff ``k``, columns ``recall``, ``mean``,
            ``low`` and ``high``.

        Examples
        --------
        >>> from skprobeval import random_precision_baseline
        >>> random_precision_baseline(300, 45).summary().loc[50].round(3).tolist()
        [0.167, 0.15, 0.06, 0.24]
        """
        import pandas as pd

        return pd.DataFrame({"recall": self.recall, "mean": self.mean, "low": self.low,
                             "high": self.high}, index=pd.Index(self.k, name="k"))

    def _dict_content(self):
        return {"type": "RandomPrecisionBaseline", "confidence": self.confidence,
                "summary": self.summary()}

    def _html_caption(self):
        return (f"RandomPrecisionBaseline: {self.confidence:.0%} of a random ranking's "
                "precisions at each cutoff")

    def plot(self, ax=None):
        """Draw the band of a random ranking's precision against the expected recall.

        `PosteriorPrecisionRecallDisplay` draws the same band as its chance
        level.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import random_precision_baseline
        >>> random_precision_baseline(300, 45).plot().get_ylabel()
        'Precision'
        """
        from .._core import axes_or_new, draw_precision_baseline, finish_curve_axes

        ax = axes_or_new(ax)
        ax.axhline(float(self.mean[0]), color="k", linestyle="--", linewidth=1,
                   label="random ranking")
        draw_precision_baseline(ax, self)
        return finish_curve_axes(ax, "precision_recall")
