"""Every candidate of a cross-validated search ranked at once.

`rank_cv_results` reads ``cv_results_`` through the multivariate Student-t
posterior of the candidates' mean scores that extends the correlated t-test
(Nadeau & Bengio 2003; Benavoli et al. 2017) to all candidates, so that every
pair gets exactly the two-candidate test and all pairs come from one joint
law; `CVResultsRanking` holds the result, and `SimplestWithinRopeRefit` turns
it into a ``refit=`` rule.  Derivations: the theory page
``docs/theory/rankings.rst``.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .._core import (
    N_DRAWS,
    check_confidence,
    check_draws,
    check_random_state,
    check_rope,
    fail,
    renamed_keyword,
    rounded,
    to_host,
)
from ._ranking_result import RankingMixin, RankTally, limited, plain_frame, plain_series
from ._ttest import prob_mean_above

__all__ = ["CVResultsRanking", "SimplestWithinRopeRefit", "check_test_fraction", "choose_scoring",
           "rank_cv_results", "rank_fold_scores", "splitter_test_fraction"]

_SPLIT_KEY = re.compile(r"^split(\d+)_test_(.+)$")
# Cells (draws x candidates, or candidate pairs x folds) per chunk of work.
_CELLS_PER_CHUNK = 2_000_000
_TINY = np.finfo(np.float64).tiny



@dataclass(frozen=True, slots=True, eq=False)
class CVResultsRanking(RankingMixin):
    """Posterior ranking of the candidates of a cross-validated search.

    Returned by `rank_cv_results`, and held as ``ranking`` by the report of
    `compare_cv_results` on fold scores alone (its systems are then the
    candidates).  Series and tables list the candidates in the search's order
    (``cv_results_["params"]``; the systems' order for a report); `summary`
    and `plot` sort them best first.

    Attributes
    ----------
    prob_best : pandas.Series
        Posterior probability that each candidate has the highest mean score;
        sums to 1.  Candidates whose fold scores are identical share it
        equally.
    mc_error : pandas.Series
        Monte Carlo standard error of each `prob_best` (independent draws).
    expected_rank : pandas.Series
        Posterior mean rank (1 = best); tied candidates share the ranks they
        occupy.
    rank_probabilities : pandas.DataFrame of shape (n_candidates, n_candidates)
        Probability that the row candidate has the column rank (1 = best);
        rows and columns sum to 1, column 1 is `prob_best`.
    pairwise : pandas.DataFrame of shape (n_candidates, n_candidates)
        ``P(mu_row - mu_column > rope)``, exact: the correlated t-test's
        ``prob_first_better`` of the two candidates (NaN diagonal).
    prob_within_rope_of_best : pandas.Series
        ``P(mu_i >= max_j mu_j - rope)``: the candidate is the best or short
        of it by at most `rope`.  Does not sum to 1.
    within_rope_mc_error : pandas.Series
        Monte Carlo standard error of `prob_within_rope_of_best`.
    mean : pandas.Series
        Mean fold score of each candidate: the location of the posterior.
    scale_matrix : ndarray of shape (n_candidates, n_candidates)
        ``(1/n + rho/(1 - rho)) S``, ``S`` the sample covariance of the fold
        scores; read-only.
    df : int
        ``n - 1`` degrees of freedom, ``n`` the number of splits.
    names : tuple of str
        The candidates, named by their parameters (the systems' names for a
        report).
    params : tuple of dict
        ``cv_results_["params"]`` (an empty dict per system for a report).
    scoring : str
        The scorer read (``split<k>_test_<scoring>``; ``test_<scoring>`` of
        `cross_validate` for a report).
    rope : float
        Region of practical equivalence.
    test_fraction : float
        ``rho``, the share of the data in each test fold.
    n_splits : int
        Fold scores per candidate (folds x repeats).
    n_draws : int
        Posterior draws.

    Examples
    --------
    >>> from skprobeval import rank_cv_results
    >>> cv_results = {"params": [{"C": 0.1}, {"C": 1.0}, {"C": 10.0}],
    ...               "split0_test_score": [0.90, 0.93, 0.92],
    ...               "split1_test_score": [0.88, 0.92, 0.93],
    ...               "split2_test_score": [0.91, 0.95, 0.93],
    ...               "split3_test_score": [0.89, 0.93, 0.92],
    ...               "split4_test_score": [0.90, 0.94, 0.94]}
    >>> ranking = rank_cv_results(cv_results, random_state=0)
    >>> ranking.pairwise.round(3)
            C=0.1  C=1.0  C=10.0
    C=0.1     NaN  0.000   0.011
    C=1.0   1.000    NaN   0.762
    C=10.0  0.989  0.238     NaN
    """

    prob_best: object
    mc_error: object
    expected_rank: object
    rank_probabilities: object
    pairwise: object
    prob_within_rope_of_best: object
    within_rope_mc_error: object
    mean: object
    scale_matrix: np.ndarray = field(repr=False)
    df: int
    names: tuple
    params: tuple = field(repr=False)
    scoring: str
    rope: float
    test_fraction: float
    n_splits: int
    n_draws: int

    @property
    def posterior(self):
        """The posterior of the mean scores as a frozen `scipy.stats.multivariate_t`.

        ``allow_singular=True``: the scale matrix is singular whenever there
        are at least as many candidates as splits.
        """
        from scipy import stats

        return stats.multivariate_t(self.mean.to_numpy(), self.scale_matrix, df=self.df,
                                    allow_singular=True)

    def interval(self, confidence=0.95):
        """Equal-tailed credible interval of each candidate's mean score.

        Each marginal is Student-t with `df` degrees of freedom, location
        `mean` and scale ``sqrt(scale_matrix[i, i])`` (exact).

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the intervals.

        Returns
        -------
        pandas.DataFrame
            Columns ``low`` and ``high``, one row per candidate.

        Examples
        --------
        >>> from skprobeval import rank_cv_results
        >>> cv_results = {"params": [{"k": 1}, {"k": 2}],
        ...               "split0_test_score": [0.8, 0.9], "split1_test_score": [0.7, 0.9],
        ...               "split2_test_score": [0.9, 0.8]}
        >>> rank_cv_results(cv_results, n_draws=100, random_state=0).interval(0.9).round(3)
               low   high
        k=1  0.533  1.067
        k=2  0.713  1.021
        """
        import pandas as pd

        confidence = check_confidence(confidence)
        location = self.mean.to_numpy()
        scale = np.sqrt(np.diag(self.scale_matrix))
        low = special.stdtrit(self.df, (1.0 - confidence) / 2) * scale + location
        high = special.stdtrit(self.df, (1.0 + confidence) / 2) * scale + location
        return pd.DataFrame({"low": low, "high": high}, index=self.prob_best.index)

    def summary(self, confidence=0.95):
        """One row per candidate, best first (by expected rank).

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the interval of the mean score.

        Returns
        -------
        pandas.DataFrame
            Columns ``mean``, ``low``, ``high``, ``prob_best``, ``mc_error``,
            ``expected_rank``, ``prob_within_rope_of_best``.

        Examples
        --------
        >>> from skprobeval import rank_cv_results
        >>> cv_results = {"params": [{"k": 1}, {"k": 2}],
        ...               "split0_test_score": [0.8, 0.9], "split1_test_score": [0.7, 0.9],
        ...               "split2_test_score": [0.9, 0.8]}
        >>> list(rank_cv_results(cv_results, n_draws=100, random_state=0).summary().index)
        ['k=2', 'k=1']
        """
        import pandas as pd

        bounds = self.interval(confidence)
        table = pd.DataFrame({"mean": self.mean, "low": bounds["low"], "high": bounds["high"],
                              "prob_best": self.prob_best, "mc_error": self.mc_error,
                              "expected_rank": self.expected_rank,
                              "prob_within_rope_of_best": self.prob_within_rope_of_best},
                             index=self.prob_best.index)
        return table.sort_values("expected_rank", kind="stable")

    def to_dict(self):
        """The result's figures as a dict of plain Python values.

        Returns
        -------
        dict
            ``prob_best``, ``mc_error``, ``expected_rank``,
            ``prob_within_rope_of_best``, ``within_rope_mc_error`` and
            ``mean`` (dicts by candidate), ``pairwise`` and
            ``rank_probabilities`` (dicts of dicts by row, then column), and
            the settings.

        Examples
        --------
        >>> from skprobeval import rank_cv_results
        >>> cv_results = {"params": [{"k": 1}, {"k": 2}],
        ...               "split0_test_score": [0.8, 0.9], "split1_test_score": [0.7, 0.9],
        ...               "split2_test_score": [0.9, 0.8]}
        >>> sorted(rank_cv_results(cv_results, n_draws=100, random_state=0).to_dict())[:4]
        ['df', 'expected_rank', 'mc_error', 'mean']
        """
        return {"prob_best": plain_series(self.prob_best),
                "mc_error": plain_series(self.mc_error),
                "expected_rank": plain_series(self.expected_rank),
                "prob_within_rope_of_best": plain_series(self.prob_within_rope_of_best),
                "within_rope_mc_error": plain_series(self.within_rope_mc_error),
                "mean": plain_series(self.mean), "pairwise": plain_frame(self.pairwise),
                "rank_probabilities": plain_frame(self.rank_probabilities),
                "df": self.df, "scoring": self.scoring, "rope": self.rope,
                "test_fraction": self.test_fraction, "n_splits": self.n_splits,
                "n_draws": self.n_draws}

    def plot(self, *, ax=None):
        """Heat map of `rank_probabilities`, candidates best first.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import rank_cv_results
        >>> cv_results = {"params": [{"k": 1}, {"k": 2}],
        ...               "split0_test_score": [0.8, 0.9], "split1_test_score": [0.7, 0.9],
        ...               "split2_test_score": [0.9, 0.8]}
        >>> ax = rank_cv_results(cv_results, n_draws=100, random_state=0).plot()
        >>> [t.get_text() for t in ax.get_yticklabels()]
        ['k=2', 'k=1']
        """
        from .._core import plot_rank_probabilities

        order = self.expected_rank.sort_values(kind="stable").index
        ax = plot_rank_probabilities(self.rank_probabilities.loc[order], ax=ax)
        ax.set_title(f"P(candidate has rank), mean {self.scoring} over {self.n_splits} splits")
        return ax

    def __repr__(self):
        return (f"CVResultsRanking(prob_best={limited(self.prob_best)}, "
                f"expected_rank={limited(self.expected_rank, 3)}, "
                f"max_mc_error={rounded(self.mc_error.max())}, rope={rounded(self.rope)}, "
                f"test_fraction={rounded(self.test_fraction)}, n_splits={self.n_splits}, "
                f"n_draws={self.n_draws})")

    def _caption(self):
        return (
            f"CVResultsRanking: {len(self.names)} candidates, {self.n_splits} splits of "
            f"{self.scoring!r}, test fraction {self.test_fraction:.4g}, rope {self.rope:g}, "
            f"{self.n_draws} draws; mean-score interval 95%")


# ---------------------------------------------------------------------------
# Reading cv_results_
# ---------------------------------------------------------------------------


def _results_of(cv_results):
    """``(cv_results_ dict, the search or None)``."""
    if hasattr(cv_results, "get_params") and not isinstance(cv_results, dict):
        if not hasattr(cv_results, "cv_results_"):
            fail("cv_results", "a cv_results_ dict or a fitted search (call fit first)",
                 cv_results, error=TypeError if not hasattr(cv_results, "fit") else ValueError,
                 shown=f"an unfitted {type(cv_results).__name__}")
        return cv_results.cv_results_, cv_results
    if not hasattr(cv_results, "keys") or not hasattr(cv_results, "__getitem__"):
        fail("cv_results", "a cv_results_ dict or a fitted GridSearchCV / RandomizedSearchCV",
             cv_results, error=TypeError)
    return cv_results, None


def _scoring_key(results, scoring, search):
    """The scorer name whose split scores to read."""
    recorded = {}
    for key in results:
        match = _SPLIT_KEY.match(str(key))
        if match:
            recorded.setdefault(match.group(2), set()).add(int(match.group(1)))
    if not recorded:
        _refuse_cross_validate_results(results)
        fail("cv_results", "the cv_results_ of a search, with per-split test scores "
             "('split0_test_score', ...)", sorted(map(str, results))[:6],
             shown=f"keys {sorted(map(str, results))[:6]}")
    if scoring is None and search is not None and isinstance(getattr(search, "refit", None),
                                                               str):
        scoring = search.refit
    scoring = choose_scoring(recorded, scoring, holder="the search")
    return scoring, sorted(recorded[scoring])


def choose_scoring(recorded, scoring, *, holder):
    """The scorer to read: `scoring`, else ``"score"``, else the only one recorded.

    `recorded` holds the scorer names found (``split<k>_test_<name>`` of a
    search, ``test_<name>`` of `cross_validate`); `holder` names what holds
    them in the message when several leave the choice open.
    """
    if scoring is None:
        if "score" in recorded:
            return "score"
        if len(recorded) == 1:
            return next(iter(recorded))
        fail("scoring", f"one of the recorded scorers {sorted(recorded)} ({holder} "
             "has several)", scoring)
    if not isinstance(scoring, str):
        fail("scoring", "a scorer name (str)", scoring, error=TypeError)
    if scoring not in recorded:
        fail("scoring", f"one of the recorded scorers {sorted(recorded)}", scoring)
    return scoring


def _refuse_cross_validate_results(results):
    """Name `compare_cv_results` when `results` holds `cross_validate` or
    `cross_val_score` results rather than a search's ``cv_results_``."""
    if "params" in results:
        return
    keys = [str(key) for key in results]
    values = [results[key] for key in results]
    if "fit_time" in keys and any(key.startswith("test_") for key in keys):
        fail("cv_results", "the cv_results_ of a search (for cross_validate results, use "
             "compare_cv_results({name: cross_validate(...), ...}) with one entry per system)",
             None, shown=f"one cross_validate result (keys {sorted(keys)[:6]})")
    if values and all(hasattr(value, "keys") and any(str(key).startswith("test_")
                                                     for key in value) for value in values):
        fail("cv_results", "the cv_results_ of a search (for {name: cross_validate(...)} "
             "results of several systems, use compare_cv_results)", None,
             shown=f"a dict of cross_validate results for {keys[:6]}")
    if values and all(not hasattr(value, "keys") and not isinstance(value, str)
                      and _is_flat(value) for value in values):
        fail("cv_results", "the cv_results_ of a search (for {name: cross_val_score(...)} "
             "fold scores of several systems, use compare_cv_results)", None,
             shown=f"a dict of fold-score arrays for {keys[:6]}")


def _is_flat(value):
    """Whether `value` reads as a 1-d array (a ragged sequence does not)."""
    try:
        return np.ndim(value) == 1
    except ValueError:
        return False


def _split_scores(results, scoring, splits):
    """Scores of shape (n_splits, n_candidates), checked."""
    rows = []
    for k in splits:
        key = f"split{k}_test_{scoring}"
        try:
            row = np.asarray(to_host(results[key], "cv_results"), dtype=np.float64)
        except (TypeError, ValueError):
            fail("cv_results", "real per-split scores", results[key], error=TypeError,
                 shown=f"{key} = {results[key]!r}")
        rows.append(row.reshape(-1) if row.ndim else row.reshape(1))
    if len({row.shape[0] for row in rows}) != 1:
        fail("cv_results", "one score per candidate in every split",
             {f"split{k}_test_{scoring}": row.shape[0] for k, row in zip(splits, rows)})
    scores = np.stack(rows)
    if scores.shape[1] < 2:
        fail("cv_results", "the results of at least two candidates", scores.shape[1],
             shown=f"{scores.shape[1]} candidate")
    if scores.shape[0] < 2:
        fail("cv_results", "scores of at least two splits", scores.shape[0],
             shown=f"{scores.shape[0]} split")
    bad = ~np.isfinite(scores)
    if bad.any():
        split_rows, candidates = np.nonzero(bad)
        where = sorted({f"split{splits[i]}_test_{scoring}" for i in split_rows})
        fail("cv_results", "finite split scores (a failed fit scores NaN: set "
             "error_score='raise' to see why, or leave the candidate out)",
             where, shown=f"NaN or inf in {where[:4]}{' ...' if len(where) > 4 else ''} "
             f"for candidates {sorted(set(candidates.tolist()))[:8]}")
    return scores


def _candidate_params(results, n_candidates):
    params = results.get("params") if hasattr(results, "get") else None
    if params is None:
        return tuple({} for _ in range(n_candidates))
    params = list(params)
    if len(params) != n_candidates or not all(isinstance(p, dict) for p in params):
        fail("cv_results", f"'params' with one dict per candidate ({n_candidates})", params)
    return tuple(params)


def _show_value(value):
    if isinstance(value, np.generic):     # np.float64(0.1) -> 0.1
        value = value.item()
    return value if isinstance(value, str) else repr(value)


def _candidate_names(params):
    """``"C=0.1, penalty=l2"`` per candidate (``"candidate <i>"`` without params)."""
    names = [", ".join(f"{key}={_show_value(value)}" for key, value in p.items())
             or f"candidate {i}" for i, p in enumerate(params)]
    if len(set(names)) < len(names):
        names = [f"{name} [{i}]" for i, name in enumerate(names)]
    return names


def check_test_fraction(value):
    """``rho`` as a float in (0, 1), or the house error naming `test_fraction`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        fail("test_fraction", "None or a float in the open interval (0, 1)", value,
             error=TypeError)
    value = float(value)
    if not 0.0 < value < 1.0:
        fail("test_fraction", "None or a float in the open interval (0, 1)", value)
    return value


def splitter_test_fraction(cv, n_splits):
    """The test fraction of the splitter `cv` (a search's ``cv``) that made
    `n_splits` splits, or a clear error."""
    from sklearn import model_selection as ms

    if cv is None:
        return 1.0 / 5
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        return 1.0 / int(cv)
    k_fold = (ms.KFold, ms.StratifiedKFold, ms.GroupKFold, ms.StratifiedGroupKFold,
              ms.RepeatedKFold, ms.RepeatedStratifiedKFold, ms.LeaveOneOut)
    if isinstance(cv, k_fold):
        # Every item is tested once per repeat: each split tests n_repeats / n_splits of it.
        return getattr(cv, "n_repeats", 1) / n_splits
    shuffle = (ms.ShuffleSplit, ms.StratifiedShuffleSplit, ms.GroupShuffleSplit)
    if isinstance(cv, shuffle):
        test, train = cv.test_size, cv.train_size
        if test is None:
            test = 0.1 if train is None else None
            if isinstance(train, float):
                test = 1.0 - train
        if isinstance(test, float) and (train is None or isinstance(train, float)):
            return test / (test + (1.0 - test if train is None else train))
    elif isinstance(cv, (list, tuple)):
        try:
            shares = [len(test) / (len(train) + len(test)) for train, test in cv]
        except (TypeError, ValueError):
            shares = []
        if shares:
            return float(np.mean(shares))
    fail("test_fraction", "given (the share of the data in each test fold) for this "
         "splitter", None, shown=f"None with cv={cv!r}")


# ---------------------------------------------------------------------------
# The posterior and its draws
# ---------------------------------------------------------------------------


def _draw_means(location, centred, factor, size, rng):
    """``size`` draws of ``x_bar + sqrt(c / W) A^T z`` (rows), W ~ chi^2_{n-1}."""
    n = centred.shape[0]
    z = rng.standard_normal((size, n))
    w = np.maximum(rng.chisquare(n - 1, size=(size, 1)), _TINY)
    return location + np.sqrt(factor / w) * (z @ centred)


def _sample_ranks(scores, factor, rope, n_draws, rng):
    """Rank counts, and sums for P(best) and P(within rope of best), over the draws."""
    n_splits, n = scores.shape
    # Identical candidates get bit-identical draws (and so tie exactly in every draw).
    _, first, inverse = np.unique(scores, axis=1, return_index=True, return_inverse=True)
    distinct = first.shape[0] == n
    unique = scores if distinct else scores[:, first]
    inverse = np.asarray(inverse).reshape(-1)
    location = unique.sum(axis=0) / n_splits
    centred = unique - location
    tally = RankTally(n, rope)
    step = max(1, _CELLS_PER_CHUNK // max(n, n_splits))
    done = 0
    while done < n_draws:
        size = min(step, n_draws - done)
        draws = _draw_means(location, centred, factor, size, rng)
        if not distinct:
            draws = draws[:, inverse]
        tally.add(draws)
        done += size
    return tally.result()


def _pairwise(scores, test_fraction, rope):
    """``P(mu_i - mu_j > rope)`` for every pair (NaN diagonal), by the correlated t-test."""
    n_splits, n = scores.shape
    out = np.empty((n, n))
    rows = max(1, _CELLS_PER_CHUNK // (n * n_splits))
    for start in range(0, n, rows):
        stop = min(start + rows, n)
        differences = scores[:, start:stop, None] - scores[:, None, :]
        out[start:stop] = prob_mean_above(differences, test_fraction=test_fraction, rope=rope)
    np.fill_diagonal(out, np.nan)
    return out


@renamed_keyword("n_samples", "n_draws")
def rank_cv_results(cv_results, *, scoring=None, rope=0.0, test_fraction=None,
                    n_draws=N_DRAWS, random_state=None):
    """Rank every candidate of a cross-validated search by its posterior mean score.

    The correlated t-test (Nadeau & Bengio 2003; Benavoli et al. 2017)
    generalised from two candidates to all of them.  With ``n`` splits, the
    candidates' fold scores have mean vector ``x_bar`` and sample covariance
    ``S`` across splits; the posterior of the candidates' mean scores ``mu``
    is the multivariate Student-t with ``n - 1`` degrees of freedom,
    location ``x_bar`` and scale matrix ``(1/n + rho/(1 - rho)) S``, where
    ``rho`` is the test fraction (Nadeau and Bengio's correction for the
    overlap of training sets).  The posterior of the difference of any two
    candidates is then exactly `correlated_ttest`'s.  From seeded draws of
    ``mu``: the probability that each candidate is the best, the
    probability of each rank, the expected rank, and the probability of
    being within `rope` of the best; the pairwise probabilities are exact.

    Parameters
    ----------
    cv_results : dict or fitted search
        ``GridSearchCV.cv_results_`` / ``RandomizedSearchCV.cv_results_``
        (``split<k>_test_<scoring>`` keys, ``params``), or the fitted search
        itself (then `test_fraction` is read from its splitter).
    scoring : str, default=None
        Which scorer's split scores to rank: ``"score"`` for a single-metric
        search, a key of the ``scoring`` dict of a multi-metric one.  By
        default the search's ``refit`` scorer when it names one, else
        ``"score"``, else the only scorer recorded.  Higher is better, as for
        every scikit-learn scorer.
    rope : float, default=0.0
        Region of practical equivalence, in score units: any finite value
        >= 0.  It sets `~CVResultsRanking.prob_within_rope_of_best` and the
        pairwise ``P(mu_row - mu_column > rope)``.
    test_fraction : float, default=None
        ``rho``, the share of the data in each test fold, in (0, 1): ``1/k``
        for k-fold cross-validation, repeated or not.  By default, with a
        fitted search, from its ``cv`` (an int, a (repeated) k-fold splitter,
        a shuffle split with float sizes, or a list of splits); with a dict,
        ``1 / n_splits`` (one run of k-fold).  **Pass it for repeated
        cross-validation given as a dict**: ``1 / n_splits`` would then
        understate the correlation of the splits.
    n_draws : int, default=10_000
        Posterior draws.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.

    Returns
    -------
    CVResultsRanking

    See Also
    --------
    correlated_ttest : The same posterior for two candidates.
    compare_cv_results : The same ranking, with the t-test of every pair, for the
        ``{name: cross_validate(...)}`` or ``{name: cross_val_score(...)}`` results
        of several systems.
    SimplestWithinRopeRefit : A ``refit=`` rule built on this ranking.
    rank_across_datasets : Ranking systems across data sets.

    Notes
    -----
    **Which multivariate t.**  The draw is ``x_bar + sqrt(c / W) A^T z``,
    ``c = 1/n + rho/(1 - rho)``, ``A`` the centred fold scores
    (``A^T A = (n - 1) S``), ``z`` standard normal in ``R^n``, ``W ~
    chi^2_{n-1}``: every contrast ``w^T mu`` is Student-t with ``n - 1``
    degrees of freedom and squared scale ``c w^T S w``, the correlated
    t-test of the scores ``X w``.  The Jeffreys-prior posterior of a normal
    model with a free ``N x N`` covariance would have ``n - N`` degrees of
    freedom, which does not exist when a search has at least as many
    candidates as splits; the reading here keeps each pair's posterior equal
    to the two-candidate test's.  ``S`` is never factorised, so singular
    covariances (more candidates than splits, identical or constant
    candidates) need no special case.

    **Repeats.**  With ``r`` repeats of k-fold the ``n = r k`` split scores
    all enter, and ``rho = 1/k`` (as in `correlated_ttest`, where the number
    of runs does not enter the computation).

    **Ties.**  Candidates with identical fold scores get identical draws and
    tie in every draw: they share `prob_best` equally, and each holds each
    of the ranks their group occupies with equal probability.  Constant
    differences (a zero-variance contrast) are point masses, as in
    `correlated_ttest`.  Nothing is NaN but the pairwise diagonal.

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the generalization error",
       Machine Learning 52, 2003.
    .. [2] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through Bayesian
       analysis", JMLR 18, 2017.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skprobeval import rank_cv_results
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear"))
    >>> grid = {"logisticregression__C": [0.001, 0.01, 0.1, 1.0, 10.0]}
    >>> search = GridSearchCV(model, grid, cv=5, scoring="accuracy").fit(X, y)
    >>> ranking = rank_cv_results(search, rope=0.01, random_state=0)
    >>> ranking.prob_best.round(2)
    logisticregression__C=0.001    0.00
    logisticregression__C=0.01     0.17
    logisticregression__C=0.1      0.62
    logisticregression__C=1.0      0.11
    logisticregression__C=10.0     0.10
    Name: prob_best, dtype: float64
    >>> ranking.prob_within_rope_of_best.round(2)
    logisticregression__C=0.001    0.01
    logisticregression__C=0.01     0.33
    logisticregression__C=0.1      0.87
    logisticregression__C=1.0      0.81
    logisticregression__C=10.0     0.36
    Name: prob_within_rope_of_best, dtype: float64
    >>> ranking.expected_rank.round(2).tolist()
    [4.82, 3.22, 1.54, 2.34, 3.09]
    """
    results, search = _results_of(cv_results)
    scoring, splits = _scoring_key(results, scoring, search)
    scores = _split_scores(results, scoring, splits)
    params = _candidate_params(results, scores.shape[1])
    if test_fraction is None and search is not None:
        test_fraction = splitter_test_fraction(search.cv, scores.shape[0])
    return rank_fold_scores(scores, _candidate_names(params), params=params, scoring=scoring,
                            rope=rope, test_fraction=test_fraction, n_draws=n_draws,
                            random_state=random_state)


def rank_fold_scores(scores, names, *, scoring, rope=0.0, test_fraction=None, n_draws=N_DRAWS,
                     random_state=None, params=None):
    """The `CVResultsRanking` of a matrix of fold scores.

    The one computation behind `rank_cv_results` (a search's candidates) and
    the ranking of `compare_cv_results` (systems' fold scores).  `scores`,
    of shape (n_splits, n_systems), is checked by the caller: finite, at
    least two splits.  `test_fraction` None is ``1 / n_splits``; `params`
    None gives an empty dict per system.
    """
    import pandas as pd

    n_splits, n = scores.shape
    params = tuple({} for _ in range(n)) if params is None else params
    rope = check_rope(rope, width=math.inf)
    test_fraction = check_test_fraction(1.0 / n_splits if test_fraction is None
                                        else test_fraction)
    n_draws = check_draws(n_draws, values_per_draw=4 * n)
    rng = check_random_state(random_state)

    factor = 1.0 / n_splits + test_fraction / (1.0 - test_fraction)
    ranks, best, best_error, within, within_error = _sample_ranks(scores, factor, rope,
                                                                  n_draws, rng)
    location = scores.sum(axis=0) / n_splits
    centred = scores - location
    scale_matrix = factor * (centred.T @ centred) / (n_splits - 1)
    scale_matrix.setflags(write=False)

    index = pd.Index(list(names))
    return CVResultsRanking(
        prob_best=pd.Series(best, index=index, name="prob_best"),
        mc_error=pd.Series(best_error, index=index, name="mc_error"),
        expected_rank=pd.Series(ranks @ np.arange(1, n + 1), index=index,
                                name="expected_rank"),
        rank_probabilities=pd.DataFrame(ranks, index=index,
                                        columns=pd.Index(range(1, n + 1), name="rank")),
        pairwise=pd.DataFrame(_pairwise(scores, test_fraction, rope), index=index,
                              columns=index),
        prob_within_rope_of_best=pd.Series(within, index=index,
                                           name="prob_within_rope_of_best"),
        within_rope_mc_error=pd.Series(within_error, index=index,
                                       name="within_rope_mc_error"),
        mean=pd.Series(location, index=index, name="mean"),
        scale_matrix=scale_matrix, df=n_splits - 1, names=tuple(index), params=params,
        scoring=scoring, rope=rope, test_fraction=test_fraction, n_splits=n_splits,
        n_draws=n_draws)


# ---------------------------------------------------------------------------
# The refit rule
# ---------------------------------------------------------------------------


_DIRECTIONS = ("ascending", "descending")


def _check_complexity(complexity):
    """``None``, a callable, or ``(parameter name, direction)``."""
    if complexity is None or callable(complexity):
        return complexity
    if isinstance(complexity, str):
        return (complexity, "ascending")
    if (isinstance(complexity, tuple) and len(complexity) == 2
            and isinstance(complexity[0], str) and complexity[1] in _DIRECTIONS):
        return complexity
    fail("complexity", "None, a parameter name, a (parameter name, 'ascending' or "
         "'descending') pair, or a callable on a candidate's params", complexity,
         error=TypeError if not isinstance(complexity, tuple) else ValueError)


def _simplest_first(params, complexity):
    """Candidate indices, simplest first (ties in the search's order)."""
    n = len(params)
    if complexity is None:
        return list(range(n))
    if callable(complexity):
        keys, descending = [complexity(p) for p in params], False
    else:
        name, direction = complexity
        missing = [i for i, p in enumerate(params) if name not in p]
        if missing:
            fail("complexity", "a parameter every candidate sets", complexity,
                 shown=f"{complexity!r}, missing from candidates {missing[:8]}")
        keys, descending = [p[name] for p in params], direction == "descending"
    try:
        # sorted(reverse=True) keeps equal keys in their original order.
        return sorted(range(n), key=lambda i: keys[i], reverse=descending)
    except TypeError:
        fail("complexity", "values that can be ordered", complexity, error=TypeError,
             shown=f"{complexity!r} giving {keys[:6]!r}")


class SimplestWithinRopeRefit:
    """A ``refit=`` rule for ``GridSearchCV``: the simplest candidate surely near the best.

    Ranks the candidates with `rank_cv_results` and refits the simplest one
    whose probability of being within `rope` of the best,
    ``P(mu_i >= max_j mu_j - rope)``, is at least `threshold` — the Bayesian
    form of the "one standard error" rule.  When no candidate reaches the
    threshold, the one most likely to be within `rope` of the best (the
    simplest of those, on a tie).

    Parameters
    ----------
    rope : float
        Region of practical equivalence, in score units (e.g. 0.01 for one
        point of accuracy): any finite value >= 0.
    threshold : float, default=0.9
        Least probability of being within `rope` of the best, in (0, 1].
    complexity : None, str, (str, {"ascending", "descending"}) or callable, default=None
        How candidates order from simplest: ``None`` keeps the order of
        ``cv_results_["params"]`` (the grid's order, first simplest); a
        parameter name or ``(name, "ascending")`` puts the smallest value of
        that parameter first (``("C", "ascending")`` for a logistic
        regression: strongest regularisation first), ``(name,
        "descending")`` the largest (``("alpha", "descending")`` for ridge);
        a callable maps a candidate's params dict to a sort key, smaller
        simpler.  Ties keep the grid's order.
    scoring : str, default=None
        The scorer to rank by (required when a multi-metric search records
        several and none is called ``score``).
    test_fraction : float, default=None
        ``rho``; by default ``1 / n_splits`` (one run of k-fold).  A refit
        rule sees only ``cv_results_``, not the splitter: **pass** ``1/k``
        **for repeated k-fold**.
    n_draws : int, default=10_000
        Posterior draws.
    random_state : None, int or numpy.random.Generator, default=0
        Seed of the draws; an int makes the same search refit the same
        candidate every time.

    See Also
    --------
    rank_cv_results : The ranking this rule reads.
    PosteriorRefit : The best pooled posterior statistic of counts.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skprobeval import SimplestWithinRopeRefit
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear"))
    >>> grid = {"logisticregression__C": [0.001, 0.01, 0.1, 1.0, 10.0]}
    >>> refit = SimplestWithinRopeRefit(rope=0.02, complexity=("logisticregression__C",
    ...                                                        "ascending"))
    >>> search = GridSearchCV(model, grid, cv=5, scoring="accuracy", refit=refit).fit(X, y)
    >>> search.best_params_
    {'logisticregression__C': 0.1}
    >>> refit.ranking(search.cv_results_).prob_within_rope_of_best.round(2).tolist()
    [0.05, 0.53, 0.94, 0.91, 0.69]
    """

    @renamed_keyword("n_samples", "n_draws")
    def __init__(self, *, rope, threshold=0.9, complexity=None, scoring=None,
                 test_fraction=None, n_draws=N_DRAWS, random_state=0):
        self.rope = rope
        self.threshold = threshold
        self.complexity = complexity
        self.scoring = scoring
        self.test_fraction = test_fraction
        self.n_draws = n_draws
        self.random_state = random_state
        self._settings()    # fail here, not after the whole search has run

    def _settings(self):
        threshold = self.threshold
        if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
            fail("threshold", "a float in (0, 1]", threshold, error=TypeError)
        if not 0.0 < float(threshold) <= 1.0:
            fail("threshold", "a float in (0, 1]", threshold)
        if self.test_fraction is not None:
            check_test_fraction(self.test_fraction)
        if self.scoring is not None and not isinstance(self.scoring, str):
            fail("scoring", "None or a scorer name (str)", self.scoring, error=TypeError)
        check_random_state(self.random_state)
        return {"rope": check_rope(self.rope, width=math.inf), "threshold": float(threshold),
                "complexity": _check_complexity(self.complexity),
                "n_draws": check_draws(self.n_draws)}

    def ranking(self, cv_results):
        """The `CVResultsRanking` this rule reads.

        Parameters
        ----------
        cv_results : dict or fitted search
            ``GridSearchCV.cv_results_`` (what ``refit=`` receives), or the
            fitted search (whose splitter then gives the test fraction when
            `test_fraction` is None).

        Returns
        -------
        CVResultsRanking
        """
        settings = self._settings()
        return rank_cv_results(cv_results, scoring=self.scoring, rope=settings["rope"],
                               test_fraction=self.test_fraction, n_draws=settings["n_draws"],
                               random_state=self.random_state)

    def __call__(self, cv_results):
        """Index of the candidate to refit."""
        settings = self._settings()
        ranking = self.ranking(cv_results)
        order = _simplest_first(ranking.params, settings["complexity"])
        within = ranking.prob_within_rope_of_best.to_numpy()
        for i in order:
            if within[i] >= settings["threshold"]:
                return int(i)
        most = within.max()
        return int(next(i for i in order if within[i] == most))

    def __repr__(self):
        return (f"SimplestWithinRopeRefit(rope={self.rope!r}, threshold={self.threshold!r}, "
                f"complexity={self.complexity!r}, scoring={self.scoring!r}, "
                f"test_fraction={self.test_fraction!r}, n_draws={self.n_draws!r}, "
                f"random_state={self.random_state!r})")
