"""Several systems ranked across data sets with a Bayesian Plackett-Luce model.

`rank_across_datasets` reads a table of data sets (rows) by systems (columns),
keeps only each data set's order of the systems, and samples the posterior of
the systems' normalised Plackett-Luce weights (Calvo, Ceberio and Lozano 2018)
in NumPy with the Gamma-augmented Gibbs sampler of Caron and Doucet (2012),
tied scores carried as latent orders updated by Metropolis-Hastings;
`PlackettLuceRanking` holds the draws, the rank probabilities and their
batch-means Monte Carlo error.  Derivations: the theory page
``docs/theory/rankings.rst``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from .._core import (
    N_DRAWS,
    check_confidence,
    check_draws,
    check_positive,
    check_random_state,
    fail,
    renamed_keyword,
    rounded,
)
from .._counting import as_pandas_frame
from ._ranking_result import RankingMixin, limited, plain_frame, plain_series

__all__ = ["PlackettLuceRanking", "rank_across_datasets"]

# Sweeps of each chain discarded before the first kept draw.  The chains
# start from prior draws; on tables of 3 to 30 systems and 5 to 200 data sets
# the autocorrelation of the normalised weights falls below 0.05 within 10
# sweeps on noisy tables and within a few hundred on tables whose data sets
# all rank the systems identically, so 1 000 sweeps forget the start.
BURN_IN = 1_000
# Sweeps per kept draw.  A sweep costs about 50 us at 10 systems x 50 data
# sets x 4 chains, so keeping every second one buys effective draws cheaply
# (the defaults take 0.33 s there, benchmarks/bench_across.py).
THIN = 2
N_CHAINS = 4
# Normalised weights are floored at the smallest normal float, so that the
# stage rates and the log weights stay finite under priors far below 1.
_TINY = np.finfo(np.float64).tiny
# Cells per chunk of the (draws x systems x systems) pairwise sums.
_CELLS_PER_CHUNK = 2_000_000



@dataclass(frozen=True, slots=True, eq=False)
class PlackettLuceRanking(RankingMixin):
    """Posterior of a Plackett-Luce model of several systems' ranks across data sets.

    Returned by `rank_across_datasets`.  Tables and series list the systems in
    the order of the input columns; `summary` and `plot` sort them best first.

    Attributes
    ----------
    prob_best : pandas.Series
        Posterior probability that each system has the largest Plackett-Luce
        weight, i.e. is the best of the systems on the population of data
        sets (the share of draws in which its weight is the largest); sums
        to 1.
    mc_error : pandas.Series
        Monte Carlo standard error of each `prob_best`, by batch means over
        each chain (batches of about the square root of the chain's length),
        so that the autocorrelation of the chains is accounted for.
    expected_rank : pandas.Series
        Posterior mean of each system's expected rank on a new data set
        (1 = best): ``1 + sum_{j != i} E[w_j / (w_i + w_j)]``, exact given
        the draws.
    prob_above : pandas.DataFrame of shape (n_systems, n_systems)
        ``E[w_i / (w_i + w_j)]``: the probability that the row system ranks
        above the column system on a new data set (NaN diagonal);
        ``prob_above + prob_above.T`` is 1 off the diagonal.
    rank_probabilities : pandas.DataFrame of shape (n_systems, n_systems)
        Probability that the row system has the column rank (1 = best) on a
        new data set, estimated from one ranking drawn from the model per
        posterior draw; rows and columns sum to 1.  Column 1 estimates the
        posterior mean of the normalised weights (``weights.mean(axis=0)``).
    weights : ndarray of shape (n_draws, n_systems)
        Posterior draws of the normalised weights (each row sums to 1), chain
        after chain; read-only.
    names : tuple
        The systems, in the order of the columns of `weights`.
    prior : float
        Shape ``a`` of the Gamma(a, 1) prior of each weight: the normalised
        weights are Dirichlet(a, ..., a) a priori.
    n_datasets : int
        Data sets (rows of the table).
    n_tied : int
        Data sets on which at least two systems tie.
    n_draws, n_chains, burn_in, thin : int
        Kept draws in all, chains, sweeps discarded per chain, sweeps per
        kept draw.
    higher_is_better : bool
        Whether larger scores ranked first.

    Examples
    --------
    >>> import pandas as pd
    >>> from skprobeval import rank_across_datasets
    >>> scores = pd.DataFrame({"a": [0.91, 0.85, 0.88, 0.79, 0.93, 0.90],
    ...                        "b": [0.89, 0.86, 0.84, 0.75, 0.90, 0.88],
    ...                        "c": [0.80, 0.81, 0.83, 0.77, 0.85, 0.82]})
    >>> ranking = rank_across_datasets(scores, random_state=0)
    >>> ranking.weights.shape
    (10000, 3)
    >>> ranking.prob_above.round(2)
          a     b     c
    a   NaN  0.73  0.89
    b  0.27   NaN  0.76
    c  0.11  0.24   NaN
    """

    prob_best: object
    mc_error: object
    expected_rank: object
    prob_above: object
    rank_probabilities: object
    weights: np.ndarray = field(repr=False)
    names: tuple
    prior: float
    n_datasets: int
    n_tied: int
    n_draws: int
    n_chains: int
    burn_in: int
    thin: int
    higher_is_better: bool = True

    def _frame(self, low, high):
        import pandas as pd

        return pd.DataFrame({"low": low, "high": high}, index=self.prob_best.index)

    def interval(self, confidence=0.95):
        """Equal-tailed credible interval of each system's normalised weight.

        The normalised weight of a system is its probability of ranking
        first on a new data set.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the intervals.

        Returns
        -------
        pandas.DataFrame
            Columns ``low`` and ``high``, one row per system.

        Examples
        --------
        >>> from skprobeval import rank_across_datasets
        >>> ranking = rank_across_datasets([[3, 2, 1], [3, 1, 2], [2, 3, 1]],
        ...                                names=["a", "b", "c"], random_state=0)
        >>> bounds = ranking.interval(0.9)
        >>> bool(((0 < bounds["low"]) & (bounds["low"] < bounds["high"])
        ...       & (bounds["high"] < 1)).all())
        True
        """
        tail = (1.0 - check_confidence(confidence)) / 2
        low, high = np.quantile(self.weights, [tail, 1.0 - tail], axis=0)
        return self._frame(low, high)

    def expected_rank_interval(self, confidence=0.95):
        """Equal-tailed credible interval of each system's expected rank.

        Given the weights, system ``i``'s expected rank on a new data set is
        ``1 + sum_{j != i} w_j / (w_i + w_j)``; its posterior mean is
        `expected_rank`.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the intervals.

        Returns
        -------
        pandas.DataFrame
            Columns ``low`` and ``high``, one row per system.

        Examples
        --------
        >>> from skprobeval import rank_across_datasets
        >>> ranking = rank_across_datasets([[3, 2, 1], [3, 1, 2], [2, 3, 1]],
        ...                                names=["a", "b", "c"], random_state=0)
        >>> bounds = ranking.expected_rank_interval()
        >>> bool(((1 <= bounds["low"]) & (bounds["high"] <= 3)).all())
        True
        """
        tail = (1.0 - check_confidence(confidence)) / 2
        low, high = np.quantile(_expected_rank_draws(self.weights), [tail, 1.0 - tail],
                                axis=0)
        return self._frame(low, high)

    def summary(self, confidence=0.95):
        """One row per system, best first (by expected rank).

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the intervals.

        Returns
        -------
        pandas.DataFrame
            Columns ``prob_best``, ``mc_error``, ``expected_rank``,
            ``rank_low``, ``rank_high`` (interval of the expected rank),
            ``weight`` (posterior mean normalised weight), ``weight_low``
            and ``weight_high``.

        Examples
        --------
        >>> from skprobeval import rank_across_datasets
        >>> ranking = rank_across_datasets([[3, 2, 1], [3, 1, 2], [2, 3, 1]],
        ...                                names=["a", "b", "c"], random_state=0)
        >>> list(ranking.summary().index)
        ['a', 'b', 'c']
        """
        import pandas as pd

        confidence = check_confidence(confidence)
        ranks = self.expected_rank_interval(confidence)
        weights = self.interval(confidence)
        table = pd.DataFrame({"prob_best": self.prob_best, "mc_error": self.mc_error,
                              "expected_rank": self.expected_rank,
                              "rank_low": ranks["low"], "rank_high": ranks["high"],
                              "weight": self.weights.mean(axis=0),
                              "weight_low": weights["low"], "weight_high": weights["high"]},
                             index=self.prob_best.index)
        return table.sort_values("expected_rank", kind="stable")

    def to_dict(self):
        """The result's figures as a dict of plain Python values.

        Returns
        -------
        dict
            ``prob_best``, ``mc_error`` and ``expected_rank`` (dicts by
            system), ``prob_above`` and ``rank_probabilities`` (dicts of
            dicts by row, then column), and the settings.

        Examples
        --------
        >>> from skprobeval import rank_across_datasets
        >>> ranking = rank_across_datasets([[3, 2, 1], [3, 1, 2]], names=["a", "b", "c"],
        ...                                n_draws=1000, random_state=0)
        >>> sorted(ranking.to_dict())[:4]
        ['burn_in', 'expected_rank', 'higher_is_better', 'mc_error']
        """
        return {"prob_best": plain_series(self.prob_best),
                "mc_error": plain_series(self.mc_error),
                "expected_rank": plain_series(self.expected_rank),
                "prob_above": plain_frame(self.prob_above),
                "rank_probabilities": plain_frame(self.rank_probabilities),
                "prior": self.prior, "n_datasets": self.n_datasets, "n_tied": self.n_tied,
                "n_draws": self.n_draws, "n_chains": self.n_chains, "burn_in": self.burn_in,
                "thin": self.thin, "higher_is_better": self.higher_is_better}

    def plot(self, kind="ranks", *, confidence=0.95, ax=None):
        """Expected ranks with credible intervals, or the rank probabilities.

        ``"ranks"`` draws each system's posterior mean expected rank with
        its `confidence` interval, best at the top (where a
        critical-difference diagram would show mean ranks and a Nemenyi
        bar); ``"probabilities"`` draws `rank_probabilities` as a heat map,
        systems best first.

        Parameters
        ----------
        kind : {"ranks", "probabilities"}, default="ranks"
            Which figure.
        confidence : float, default=0.95
            Level of the intervals (``"ranks"``).
        ax : matplotlib Axes, default=None
            Where to draw.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import rank_across_datasets
        >>> ranking = rank_across_datasets([[3, 2, 1], [3, 1, 2], [2, 3, 1]],
        ...                                names=["a", "b", "c"], random_state=0)
        >>> ranking.plot().get_xlabel()
        'expected rank (1 = best), 95% interval'
        >>> ranking.plot("probabilities").get_xlabel()
        'rank'
        """
        from .._core import plot_mean_ranks, plot_rank_probabilities

        confidence = check_confidence(confidence)
        order = self.expected_rank.sort_values(kind="stable").index
        if kind == "ranks":
            return plot_mean_ranks(self.expected_rank,
                                   interval=self.expected_rank_interval(confidence), ax=ax,
                                   xlabel=f"expected rank (1 = best), {confidence:.0%} interval")
        if kind == "probabilities":
            return plot_rank_probabilities(self.rank_probabilities.loc[order], ax=ax)
        fail("kind", "'ranks' or 'probabilities'", kind)

    def __repr__(self):
        return (f"PlackettLuceRanking(prob_best={limited(self.prob_best)}, "
                f"expected_rank={limited(self.expected_rank, 3)}, "
                f"max_mc_error={rounded(self.mc_error.max())}, prior={rounded(self.prior)}, "
                f"n_datasets={self.n_datasets}, n_draws={self.n_draws})")

    def _caption(self):
        return (
            f"PlackettLuceRanking: {len(self.names)} systems on {self.n_datasets} data sets, "
            f"Gamma({self.prior:g}, 1) prior, {self.n_draws} draws; rank interval 95%")


def _check_count(value, name, minimum):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        fail(name, f"an integer >= {minimum}", value, error=TypeError)
    if value < minimum:
        fail(name, f"an integer >= {minimum}", value)
    return int(value)


def _distinct(names, argument):
    repeated = sorted({str(name) for name in names if names.count(name) > 1})
    if repeated:
        fail(argument, "a table with distinct system names" if argument == "scores"
             else "distinct system names", names, shown=f"repeated names {repeated}")
    return names


def _check_table(scores, names):
    """The scores as a float array (data sets x systems) and the system names."""
    if isinstance(scores, np.ndarray) and scores.ndim != 2:
        fail("scores", "a 2-d table of data sets (rows) by systems (columns)", scores,
             shown=f"shape {scores.shape}")
    table = as_pandas_frame(scores, "scores",
                            "a DataFrame of data sets (rows) by systems (columns)")
    if table.shape[1] < 2 or table.shape[0] < 1:
        fail("scores", "a table of at least one data set (row) and two systems (columns)",
             table, shown=f"shape {table.shape}")
    non_numeric = [str(column) for column, dtype in table.dtypes.items()
                   if getattr(dtype, "kind", "O") not in "biuf"]
    if non_numeric:
        fail("scores", "a table of real scores", table, error=TypeError,
             shown=f"non-numeric columns {non_numeric}")
    values = table.to_numpy(dtype=np.float64, na_value=np.nan)
    finite = np.isfinite(values).all(axis=1)
    if not finite.all():
        rows = list(table.index[~finite])
        fail("scores", "finite (no NaN or inf)", table,
             shown=f"NaN or inf in rows {rows[:5]}{' ...' if len(rows) > 5 else ''}")
    if names is not None:
        if isinstance(names, str) or not hasattr(names, "__len__"):
            fail("names", "a sequence of one name per system", names, error=TypeError)
        names = list(names)
        if len(names) != values.shape[1]:
            fail("names", f"one name per system ({values.shape[1]})", names,
                 shown=f"{len(names)} names")
        return values, _distinct(names, "names")
    return values, _distinct(list(table.columns), "scores")


def _groups(values, higher_is_better):
    """Each data set's order (best first, ties by column) and tie groups.

    Returns the order (position -> system), the group of each position and
    of each system (0 = best group) and the number of groups of each row.
    """
    oriented = values if higher_is_better else -values
    order = np.argsort(-oriented, axis=1, kind="stable")
    ordered = np.take_along_axis(oriented, order, axis=1)
    starts = np.ones(values.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    group_of_position = np.cumsum(starts, axis=1) - 1
    group_of_system = np.empty_like(group_of_position)
    np.put_along_axis(group_of_system, order, group_of_position, axis=1)
    return order, group_of_position, group_of_system, group_of_position[:, -1] + 1


def _log_stage_terms(pi, orders, chain_index):
    """``log pi_{rho_j} - log(pi_{rho_j} + ... + pi_{rho_n})`` at every position."""
    ordered = pi[chain_index, orders]
    remaining = np.cumsum(ordered[:, :, ::-1], axis=2)[:, :, ::-1]
    return np.log(ordered) - np.log(remaining)


def _update_ties(pi, orders, group_of_system, group_ids, chain_index, rng):
    """One independence Metropolis-Hastings step on the order of every tied group.

    A uniformly random order of each group is proposed (the proposal's
    probability cancels); each group is accepted with the ratio of the
    Plackett-Luce probabilities of its stages, which are all the likelihood
    terms the group's order changes (the systems below it are the same set).
    """
    n_chains, n_rows, n = orders.shape
    proposal = np.argsort(group_of_system + rng.random((n_chains, n_rows, n)), axis=2)
    change = (_log_stage_terms(pi, proposal, chain_index)
              - _log_stage_terms(pi, orders, chain_index))
    cells = n_rows * n
    ids = (chain_index * cells + group_ids).reshape(-1)
    log_ratio = np.bincount(ids, change.reshape(-1), minlength=n_chains * cells).reshape(
        n_chains, cells)
    accept = np.log(rng.random((n_chains, cells))) < log_ratio
    return np.where(accept[chain_index, group_ids], proposal, orders)


def _sample(order, group_of_position, group_of_system, n_tied, prior, per_chain, n_chains,
            burn_in, thin, rng):
    """Normalised weight draws of shape (n_chains, per_chain, n) by Gibbs sampling.

    ``order`` (rows x n) holds each informative data set's order, the rows
    with ties first (``n_tied`` of them), whose tied groups are resampled.
    """
    n_rows, n = order.shape
    chains = np.arange(n_chains)
    chain_index = chains[:, None, None]
    orders = np.repeat(order[None], n_chains, axis=0)
    tied_groups = group_of_system[None, :n_tied]
    group_ids = group_of_position[:n_tied] + n * np.arange(n_tied)[:, None]
    if n_tied:
        orders[:, :n_tied] = np.argsort(
            tied_groups + rng.random((n_chains, n_tied, n)), axis=2)
    pi = rng.standard_gamma(prior, size=(n_chains, n))
    pi = np.maximum(pi / np.maximum(pi.sum(axis=1, keepdims=True), _TINY), _TINY)
    out = np.empty((per_chain, n_chains, n))
    kept = 0
    for sweep in range(burn_in + per_chain * thin):
        # The scale, exact given pi (the likelihood ignores it): S ~ Gamma(n a, 1).
        scale = np.maximum(rng.standard_gamma(n * prior, size=(n_chains, 1)), _TINY)
        ordered = pi[chain_index, orders]
        remaining = np.cumsum(ordered[:, :, ::-1], axis=2)[:, :, ::-1]
        # Z_ij ~ Exp(rate S R_ij): exposure_k = sum of the Z_ij of the stages k took
        # part in (k in position p takes part in stages 1..min(p, n - 1)), times S.
        waits = np.cumsum(rng.standard_exponential((n_chains, n_rows, n - 1))
                          / remaining[:, :, :-1], axis=2)
        waits = np.concatenate([waits, waits[:, :, -1:]], axis=2)
        flat = (chain_index * n + orders).reshape(-1)
        exposure = np.bincount(flat, waits.reshape(-1), minlength=n_chains * n).reshape(
            n_chains, n)
        last = (chains[:, None] * n + orders[:, :, -1]).reshape(-1)
        losses = np.bincount(last, minlength=n_chains * n).reshape(n_chains, n)
        # w_k ~ Gamma(a + wins_k, 1 + exposure_k / S); pi = w / sum(w).
        pi = rng.standard_gamma(prior + n_rows - losses) / (scale + exposure)
        pi = np.maximum(pi / np.maximum(pi.sum(axis=1, keepdims=True), _TINY), _TINY)
        if n_tied:
            orders[:, :n_tied] = _update_ties(pi, orders[:, :n_tied], tied_groups, group_ids,
                                              chain_index, rng)
        if sweep >= burn_in and (sweep - burn_in + 1) % thin == 0:
            out[kept] = pi
            kept += 1
    return out.transpose(1, 0, 2)


def _pairwise_draws(weights, start, stop):
    """``P[d, i, j] = w_i / (w_i + w_j)`` for draws ``start:stop`` (from the log weights)."""
    from scipy.special import expit

    log_w = np.log(weights[start:stop])
    return expit(log_w[:, :, None] - log_w[:, None, :])


def _chunks(n_draws, n):
    step = max(1, _CELLS_PER_CHUNK // (n * n))
    return [(start, min(start + step, n_draws)) for start in range(0, n_draws, step)]


def _expected_rank_draws(weights):
    """Per draw, each system's expected rank ``1 + sum_{j != i} w_j / (w_i + w_j)``."""
    n_draws, n = weights.shape
    out = np.empty((n_draws, n))
    for start, stop in _chunks(n_draws, n):
        # sum over j of P[d, j, i] counts j = i as 1/2.
        out[start:stop] = 0.5 + _pairwise_draws(weights, start, stop).sum(axis=1)
    return out


def _batch_means_error(values, per_chain, n_chains):
    """Monte Carlo standard error of the mean of each column of ``values`` (chain after
    chain), from the means of batches of about sqrt(chain length) draws of each chain."""
    size = max(1, math.isqrt(per_chain))
    means = []
    for chain in range(n_chains):
        part = values[chain * per_chain:(chain + 1) * per_chain]
        batches = part.shape[0] // size
        if batches:
            means.append(part[:batches * size].reshape(batches, size, -1).mean(axis=1))
    means = np.concatenate(means)
    return np.sqrt(means.var(axis=0, ddof=1) / means.shape[0])


@renamed_keyword("n_samples", "n_draws")
def rank_across_datasets(scores, *, higher_is_better=True, names=None, prior=1.0,
                         n_draws=N_DRAWS, n_chains=N_CHAINS, burn_in=BURN_IN, thin=THIN,
                         random_state=None):
    """Rank several systems across data sets with a Bayesian Plackett-Luce model.

    Each data set (row) ranks the systems (columns) by score.  The
    Plackett-Luce model gives system ``k`` a weight ``w_k > 0`` and a ranking
    ``rho`` (best first) the probability
    ``prod_j w_{rho_j} / (w_{rho_j} + ... + w_{rho_n})``; a Gamma(`prior`, 1)
    prior on each weight makes the normalised weights ``w / sum(w)``
    Dirichlet(`prior`, ..., `prior`) a priori (Calvo, Ceberio and Lozano
    2018).  The posterior is sampled by the Gibbs sampler of Caron and
    Doucet (2012) in several chains, and summarised as the probability that
    each system is the best (has the largest weight), its expected rank on
    a new data set, the probabilities of each rank, and of ranking above
    each other system.

    Parameters
    ----------
    scores : pandas.DataFrame or array-like of shape (n_datasets, n_systems)
        One row per data set, one column per system (as
        `compare_across_datasets` and autorank take it); anything
        ``pandas.DataFrame`` accepts.  Finite real numbers.
    higher_is_better : bool, default=True
        False for losses and error rates: lower scores then rank first.
    names : sequence of length n_systems, default=None
        Names of the systems; by default the columns of `scores` (0 to
        n_systems - 1 for an array).
    prior : float, default=1.0
        Shape ``a`` of the Gamma(a, 1) prior of every weight: any float > 0.
        The default, 1, makes the normalised weights uniform on the simplex
        a priori (the choice of Caron and Doucet's examples); the rate of
        the Gamma only sets the scale of the weights, which the model does
        not identify and the normalisation discards.
    n_draws : int, default=10_000
        Posterior draws kept, from all chains together.
    n_chains : int, default=4
        Independent chains, each started from a prior draw and run on the
        same data (vectorised: four chains cost little more than one).
    burn_in : int, default=1_000
        Sweeps of each chain discarded before the first kept draw.
    thin : int, default=2
        Sweeps per kept draw (1 keeps every sweep).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the chains and of the rankings drawn for
        `~PlackettLuceRanking.rank_probabilities`.

    Returns
    -------
    PlackettLuceRanking

    See Also
    --------
    compare_across_datasets : Mean ranks and pairwise Bayesian signed-rank tests.

    Notes
    -----
    **Ties.**  A tie is read as an order the data set does not show: the
    likelihood of a data set with tied scores is the sum of the
    Plackett-Luce probabilities of every order of its tied systems.  The
    sampler keeps one order of each tied group as a latent variable and
    updates it every sweep by an independence Metropolis-Hastings step (a
    uniformly random order proposed, accepted with the ratio of the two
    orders' probabilities).  A data set on which all systems tie carries
    no information and is left out.  Ties thus neither favour the system
    that happens to come first in the columns nor count as a strict order
    drawn at random once.

    **Sampler.**  Each sweep draws the scale ``S = sum(w) ~ Gamma(n a, 1)``
    (independent of the normalised weights a posteriori), one exponential
    latent variable per stage of each data set, then every weight from its
    Gamma conditional, and the tie orders.  Each of the `n_chains` chains
    discards `burn_in` sweeps and keeps every `thin`-th sweep after that,
    ``ceil(n_draws / n_chains)`` per chain (the last chain's surplus
    dropped).  The Monte Carlo standard error ``mc_error`` of `prob_best`
    comes from batch means within each chain (batches of about the square
    root of the chain length), so it accounts for the autocorrelation of
    the chains: on noisy tables successive draws are nearly independent;
    when every data set ranks the systems alike the weights of the last
    systems mix more slowly, and ``mc_error`` grows accordingly.

    **Which probability.**  `prob_best` is the posterior probability that a
    system has the largest weight, which tends to 1 for a system that wins
    every data set.  The probability that a system ranks first on a *new*
    data set is its normalised weight, whose posterior mean is column 1 of
    `rank_probabilities` and stays below 1 whatever the data (about
    ``(m + a) / (m + n a)`` for a system that won all ``m`` data sets).

    References
    ----------
    .. [1] F. Caron and A. Doucet, "Efficient Bayesian inference for
       generalized Bradley-Terry models", Journal of Computational and
       Graphical Statistics 21(1):174-196, 2012.
    .. [2] B. Calvo, J. Ceberio and J. A. Lozano, "Bayesian inference for
       algorithm ranking analysis", GECCO '18 Companion, 2018.
    .. [3] B. Calvo, O. M. Shir, J. Ceberio, C. Doerr, H. Wang, T. Baeck and
       J. A. Lozano, "Bayesian performance analysis for black-box
       optimization benchmarking", GECCO '19 Companion, 2019.
    .. [4] R. L. Plackett, "The analysis of permutations", Journal of the
       Royal Statistical Society C 24(2):193-202, 1975.

    Examples
    --------
    >>> import pandas as pd
    >>> from skprobeval import rank_across_datasets
    >>> scores = pd.DataFrame({"logreg": [0.95, 0.97, 0.88, 0.91, 0.83, 0.99, 0.90, 0.87],
    ...                        "tree":   [0.92, 0.93, 0.85, 0.92, 0.78, 0.97, 0.86, 0.88],
    ...                        "nb":     [0.93, 0.80, 0.86, 0.84, 0.80, 0.96, 0.85, 0.82]},
    ...                       index=[f"data{i}" for i in range(8)])
    >>> ranking = rank_across_datasets(scores, random_state=0)
    >>> ranking.prob_best.round(2)
    logreg    0.97
    tree      0.03
    nb        0.00
    Name: prob_best, dtype: float64
    >>> ranking.expected_rank.round(2)
    logreg    1.40
    tree      2.14
    nb        2.45
    Name: expected_rank, dtype: float64
    >>> ranking.rank_probabilities.round(2)
    rank       1     2     3
    logreg  0.66  0.27  0.07
    tree    0.21  0.44  0.35
    nb      0.13  0.29  0.58
    """
    import pandas as pd

    if not isinstance(higher_is_better, (bool, np.bool_)):
        fail("higher_is_better", "a bool", higher_is_better, error=TypeError)
    values, names = _check_table(scores, names)
    n_datasets, n = values.shape
    prior = check_positive(prior, "prior")
    n_draws = check_draws(n_draws, values_per_draw=n)
    n_chains = _check_count(n_chains, "n_chains", 1)
    burn_in = _check_count(burn_in, "burn_in", 0)
    thin = _check_count(thin, "thin", 1)
    rng = check_random_state(random_state)

    order, group_of_position, group_of_system, n_groups = _groups(values, higher_is_better)
    tied = n_groups < n
    # Rows with ties first, then strict rankings; rows where all tie are left out.
    rows = np.concatenate([np.flatnonzero(tied & (n_groups > 1)), np.flatnonzero(~tied)])
    n_tied_rows = int(np.sum(tied & (n_groups > 1)))
    per_chain = -(-n_draws // n_chains)
    draws = _sample(order[rows], group_of_position[rows], group_of_system[rows], n_tied_rows,
                    prior, per_chain, n_chains, burn_in, thin, rng)
    weights = draws.reshape(-1, n)[:n_draws].copy()

    best = np.zeros((n_draws, n))
    best[np.arange(n_draws), np.argmax(weights, axis=1)] = 1.0
    error = _batch_means_error(best, per_chain, n_chains)
    above = np.zeros((n, n))
    for start, stop in _chunks(n_draws, n):
        above += _pairwise_draws(weights, start, stop).sum(axis=0)
    above /= n_draws
    np.fill_diagonal(above, np.nan)
    # One ranking per draw from the model (Gumbel-max: sort log w + Gumbel noise).
    counts = np.zeros(n * n)
    step = max(1, _CELLS_PER_CHUNK // n)
    for start in range(0, n_draws, step):
        keys = np.log(weights[start:start + step]) + rng.gumbel(
            size=weights[start:start + step].shape)
        ranks = np.argsort(np.argsort(-keys, axis=1), axis=1)
        counts += np.bincount((np.arange(n) * n + ranks).reshape(-1), minlength=n * n)
    weights.setflags(write=False)

    index = pd.Index(names)
    expected = 1.0 + np.nansum(above, axis=0)
    return PlackettLuceRanking(
        prob_best=pd.Series(best.mean(axis=0), index=index, name="prob_best"),
        mc_error=pd.Series(error, index=index, name="mc_error"),
        expected_rank=pd.Series(expected, index=index, name="expected_rank"),
        prob_above=pd.DataFrame(above, index=index, columns=index),
        rank_probabilities=pd.DataFrame(counts.reshape(n, n) / n_draws, index=index,
                                        columns=pd.Index(range(1, n + 1), name="rank")),
        weights=weights, names=tuple(names), prior=prior, n_datasets=n_datasets,
        n_tied=int(np.sum(tied)), n_draws=n_draws, n_chains=n_chains, burn_in=burn_in,
        thin=thin, higher_is_better=bool(higher_is_better))
