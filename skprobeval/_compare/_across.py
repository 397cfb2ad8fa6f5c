"""Several systems compared across many data sets: mean ranks and pairwise tests.

`compare_across_datasets` takes a table of data sets (rows) by systems
(columns), as autorank does, and runs the Bayesian signed-rank (or sign)
test on every pair; `AcrossDatasetsReport` holds the tables and the plots.
Derivations: the theory page ``docs/theory/across_datasets.rst``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._core import (
    N_DRAWS,
    ResultMixin,
    check_draws,
    check_positive,
    check_random_state,
    check_rope,
    fail,
    renamed_keyword,
)
from .._counting import as_pandas_frame
from ._rank_tests import bayesian_sign_test, bayesian_signed_rank_test

__all__ = ["AcrossDatasetsReport", "check_across_options", "compare_across_datasets"]

_TESTS = {"signed-rank": (bayesian_signed_rank_test, 0.5), "sign": (bayesian_sign_test, 1.0)}
_PAIR_COLUMNS = ("prob_first_better", "prob_equivalent", "prob_second_better",
                 "mean_first_better", "mean_equivalent", "mean_second_better", "mc_error")


@dataclass(frozen=True, eq=False)
class AcrossDatasetsReport(ResultMixin):
    """Mean ranks and pairwise Bayesian tests of several systems across data sets.

    Returned by `compare_across_datasets` and
    `compare_estimators_across_datasets`.

    Attributes
    ----------
    scores : pandas.DataFrame
        The scores compared: data sets (rows) by systems (columns).
    mean_ranks : pandas.Series
        Each system's mean rank over the data sets (1 = best; ties share the
        mean of their ranks, as ``DataFrame.rank``), best first.
    prob_better : pandas.DataFrame
        P(row better than column) by more than `rope` (NaN diagonal).
    prob_equivalent : pandas.DataFrame
        P(row and column practically equivalent), symmetric.
    pairs : pandas.DataFrame
        One row per pair: ``first``, ``second``, the three probabilities,
        the posterior mean mass of each region and ``mc_error``.
    results : dict of (str, str) to DatasetsComparison
        The test of each pair, with its posterior draws.
    test : {"signed-rank", "sign"}
        The test run on every pair.
    rope : float
        Region of practical equivalence.
    higher_is_better : bool
        Whether larger scores are better.
    reports : dict of str to ComparisonReport
        Per data set, the report the scores came from
        (`compare_estimators_across_datasets`; empty otherwise).

    Methods
    -------
    summary()
        `pairs`, one row per pair of systems.
    plot(kind="pairwise", *, ax=None)
        The pairwise probabilities or the mean ranks.
    plot_pair(first, second, *, ax=None)
        The posterior draws of one pair in the simplex.

    Examples
    --------
    >>> import pandas as pd
    >>> from skprobeval import compare_across_datasets
    >>> scores = pd.DataFrame({"a": [0.81, 0.74, 0.92, 0.66, 0.88, 0.79],
    ...                        "b": [0.78, 0.75, 0.90, 0.61, 0.86, 0.80]})
    >>> report = compare_across_datasets(scores, rope=0.01, random_state=0)
    >>> report.mean_ranks
    a    1.333333
    b    1.666667
    Name: mean_rank, dtype: float64
    """

    scores: object
    mean_ranks: object
    prob_better: object
    prob_equivalent: object
    pairs: object
    results: dict = field(repr=False)
    test: str = "signed-rank"
    rope: float = 0.0
    higher_is_better: bool = True
    reports: dict = field(default_factory=dict, repr=False)

    def __str__(self):
        import pandas as pd

        lines = [f"{self.scores.shape[1]} systems on {self.scores.shape[0]} data sets; "
                 f"Bayesian {self.test} test, rope={self.rope:g} "
                 f"({'higher' if self.higher_is_better else 'lower'} scores better)", "",
                 "Mean ranks (1 = best)", self.mean_ranks.round(3).to_string(), "",
                 "P(row better than column)", self.prob_better.round(3).to_string()]
        if self.rope > 0:
            lines += ["", "P(practically equivalent)",
                      self.prob_equivalent.round(3).to_string()]
        with pd.option_context("display.width", 120):
            return "\n".join(lines)

    def summary(self):
        """`pairs`: one row per pair of systems, with the test's probabilities.

        The notebook view shows `mean_ranks` above it; `to_dict` has every
        table.

        Returns
        -------
        pandas.DataFrame
        """
        return self.pairs

    def _dict_content(self):
        return {"type": "AcrossDatasetsReport", "test": self.test, "rope": self.rope,
                "higher_is_better": self.higher_is_better, "mean_ranks": self.mean_ranks,
                "prob_better": self.prob_better, "prob_equivalent": self.prob_equivalent,
                "pairs": self.pairs}

    def _html_caption(self):
        return (f"AcrossDatasetsReport: {self.scores.shape[1]} systems on "
                f"{self.scores.shape[0]} data sets, Bayesian {self.test} test, "
                f"rope {self.rope:g}")

    def _html_table(self):
        from .._core import frame_html

        return (super()._html_table() + "<p><strong>Mean ranks (1 = best)</strong></p>"
                + frame_html(self.mean_ranks.to_frame()))

    def plot(self, kind="pairwise", *, ax=None):
        """Plot the pairwise probabilities (``"pairwise"``) or the mean ranks (``"ranks"``).

        Parameters
        ----------
        kind : {"pairwise", "ranks"}, default="pairwise"
            Which figure.
        ax : matplotlib Axes, default=None
            Where to draw.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import pandas as pd
        >>> from skprobeval import compare_across_datasets
        >>> report = compare_across_datasets(pd.DataFrame({"a": [0.8, 0.7, 0.9],
        ...                                                "b": [0.7, 0.6, 0.9]}),
        ...                                  n_draws=2000, random_state=0)
        >>> report.plot("ranks").get_xlabel()
        'mean rank (1 = best)'
        """
        from .._core import plot_mean_ranks, plot_pairwise

        if kind == "pairwise":
            return plot_pairwise(self.prob_better, ax=ax, title=(
                f"P(row better than column), {self.test} test"))
        if kind == "ranks":
            return plot_mean_ranks(self.mean_ranks, ax=ax)
        fail("kind", "'pairwise' or 'ranks'", kind)

    def plot_pair(self, first, second, *, ax=None):
        """The posterior of one pair in a simplex (`skprobeval.plotting.plot_simplex`).

        Parameters
        ----------
        first, second : str
            Two systems (columns of `scores`).
        ax : matplotlib Axes, default=None
            Where to draw.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import pandas as pd
        >>> from skprobeval import compare_across_datasets
        >>> report = compare_across_datasets(pd.DataFrame({"a": [0.8, 0.7, 0.9],
        ...                                                "b": [0.7, 0.6, 0.9]}),
        ...                                  rope=0.01, n_draws=2000, random_state=0)
        >>> report.plot_pair("b", "a").get_title()
        'b vs a'
        """
        from .._core import plot_simplex

        names = list(self.scores.columns)
        for name, value in (("first", first), ("second", second)):
            if value not in names:
                fail(name, f"one of the systems {names}", value)
        if first == second:
            fail("second", "a system other than `first`", second)
        if (first, second) in self.results:
            samples = self.results[first, second].samples
        else:
            samples = self.results[second, first].samples[:, ::-1]
        return plot_simplex(samples, names=(first, second), ax=ax)


def check_across_options(test, rope, prior_strength, n_draws, higher_is_better=True):
    """The test function and its checked rope, prior strength and draws (before any work)."""
    if test not in _TESTS:
        fail("test", f"one of {sorted(_TESTS)}", test)
    if not isinstance(higher_is_better, (bool, np.bool_)):
        fail("higher_is_better", "a bool", higher_is_better, error=TypeError)
    function, default_prior = _TESTS[test]
    prior_strength = (default_prior if prior_strength is None
                      else check_positive(prior_strength, "prior_strength", allow_zero=True))
    return function, check_rope(rope, width=math.inf), prior_strength, check_draws(n_draws)


def _check_scores_table(scores):
    import pandas as pd

    scores = as_pandas_frame(scores, "scores",
                             "a DataFrame of data sets (rows) by systems (columns)")
    if scores.shape[1] < 2 or scores.shape[0] < 1:
        fail("scores", "a table of at least one data set (row) and two systems (columns)",
             scores, shown=f"shape {scores.shape}")
    if not scores.columns.is_unique:
        fail("scores", "a table with distinct system names",
             list(scores.columns[scores.columns.duplicated()]),
             shown=f"repeated columns {list(scores.columns[scores.columns.duplicated()])}")
    try:
        values = scores.to_numpy(dtype=float)
    except (TypeError, ValueError):
        fail("scores", "a table of real scores", scores, error=TypeError,
             shown=f"columns of dtypes {sorted({str(d) for d in scores.dtypes})}")
    if not np.isfinite(values).all():
        bad = [str(c) for c in scores.columns[~np.isfinite(values).all(axis=0)]]
        fail("scores", "finite (no NaN or inf)", scores, shown=f"NaN or inf in columns {bad}")
    return pd.DataFrame(values, index=scores.index, columns=scores.columns)


@renamed_keyword("prior", "prior_strength")
@renamed_keyword("n_samples", "n_draws")
def compare_across_datasets(scores, *, rope=0.0, higher_is_better=True, test="signed-rank",
                            prior_strength=None, n_draws=N_DRAWS, random_state=None,
                            reports=None):
    """Compare several systems across data sets: mean ranks and pairwise Bayesian tests.

    Every pair of systems is compared with the Bayesian signed-rank test (or
    sign test) of Benavoli et al. (2014, 2017) on their per-data-set scores;
    the mean ranks summarise the table as in the frequentist Friedman /
    Nemenyi analysis, without its p-values.

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_systems)
        One row per data set, one column per system (as autorank takes it);
        anything ``pandas.DataFrame`` accepts (a dict of lists).
    rope : float, default=0.0
        Region of practical equivalence of a score difference: any finite
        value >= 0.
    higher_is_better : bool, default=True
        False for losses and error rates: lower scores then rank first and
        win the tests.
    test : {"signed-rank", "sign"}, default="signed-rank"
        The test of every pair.
    prior_strength : float, default=None
        Strength of the prior pseudo-observation at 0 (formerly `prior`);
        None: 0.5 for the
        signed-rank test, 1 for the sign test (baycomp's defaults).
    n_draws : int, default=10_000
        Posterior draws per pair.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws (one stream, pair after pair).
    reports : dict of str to ComparisonReport, default=None
        Per-data-set reports to keep in the result's ``reports`` (as
        `compare_estimators_across_datasets` passes them); not used in the
        tests.

    Returns
    -------
    AcrossDatasetsReport

    See Also
    --------
    bayesian_signed_rank_test, bayesian_sign_test : One pair.
    compare_estimators_across_datasets : Cross-validates estimators on several data sets first.

    Examples
    --------
    >>> import pandas as pd
    >>> from skprobeval import compare_across_datasets
    >>> scores = pd.DataFrame({"logreg": [0.95, 0.97, 0.88, 0.91, 0.83, 0.99, 0.90, 0.87],
    ...                        "tree":   [0.92, 0.93, 0.85, 0.92, 0.78, 0.97, 0.86, 0.88],
    ...                        "nb":     [0.93, 0.80, 0.86, 0.84, 0.80, 0.96, 0.85, 0.82]},
    ...                       index=[f"data{i}" for i in range(8)])
    >>> report = compare_across_datasets(scores, rope=0.01, random_state=0)
    >>> report.mean_ranks.round(3)
    logreg    1.250
    tree      2.125
    nb        2.625
    Name: mean_rank, dtype: float64
    >>> report.prob_better.round(2)
            logreg  tree    nb
    logreg     NaN  0.99  1.00
    tree      0.01   NaN  0.88
    nb        0.00  0.06   NaN
    """
    import pandas as pd

    table = _check_scores_table(scores)
    function, rope, prior, n_draws = check_across_options(test, rope, prior_strength, n_draws,
                                                            higher_is_better)
    rng = check_random_state(random_state)
    oriented = table if higher_is_better else -table
    ranks = oriented.rank(axis=1, ascending=False).mean(axis=0)
    mean_ranks = ranks.sort_values(kind="stable").rename("mean_rank")
    names = list(table.columns)
    prob_better = pd.DataFrame(np.nan, index=pd.Index(names), columns=pd.Index(names))
    prob_equivalent = prob_better.copy()
    rows, results = [], {}
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            result = function(oriented[first].to_numpy(), oriented[second].to_numpy(),
                              rope=rope, prior_strength=prior, n_draws=n_draws,
                              random_state=rng)
            results[first, second] = result
            prob_better.loc[first, second] = result.prob_first_better
            prob_better.loc[second, first] = result.prob_second_better
            prob_equivalent.loc[first, second] = prob_equivalent.loc[second, first] = (
                result.prob_equivalent)
            rows.append({"first": first, "second": second,
                         **{c: getattr(result, c) for c in _PAIR_COLUMNS}})
    pairs = pd.DataFrame(rows, columns=["first", "second", *_PAIR_COLUMNS])
    return AcrossDatasetsReport(table, mean_ranks, prob_better, prob_equivalent, pairs,
                                results, test, rope, bool(higher_is_better), reports or {})
