"""More test items for a decision: how many, and when to stop labelling.

`plan_more_items` answers, from the evidence in hand, how many more test items
a comparison needs before it is decided: "first better", "second better" or,
with a region of practical equivalence, "equivalent", each with posterior
probability at least ``target``.  It is preposterior analysis (Raiffa &
Schlaifer 1961): a truth is drawn from the current posterior, ``m`` future
items are drawn from that truth, the posterior is updated with them (counts
add) and the decision is read off; over many such futures, the share that
decides is the assurance of ``m`` more items (O'Hagan & Stevens 2001).

`should_stop` is the same question asked after each batch of labels: stop
when the answer is decided, or when no number of items within the budget is
likely to decide it.  Looking after every batch and stopping at the first
decision makes wrong decisions more frequent than one look at the end (Rouder
2014 discusses it for Bayes factors); the coverage benchmark measures by how
much, and `stopping_target` gives the targets that hold it at 5%.
Derivations: the theory page ``docs/theory/planning.rst``.
"""

from __future__ import annotations

import html
import math
import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .._compare import (
    MetricComparison,
    PairedComparison,
    SystemRanking,
    paired_probabilities,
)
from .._core import (
    N_DRAWS,
    ResultMixin,
    axes_or_new,
    check_random_state,
    check_rope,
    dirichlet,
    fail,
    frame_html,
    renamed_keyword,
    rounded,
)
from .._metrics import range_width
from .._posteriors import (
    AffinePosterior,
    BetaPosterior,
    DifferencePosterior,
    FBetaPosterior,
    SampledPosterior,
)
from ._plan_rankings import ranking_planner

__all__ = ["MoreItemsPlan", "StoppingDecision", "plan_more_items", "should_stop",
           "stopping_target"]

# Default simulations: exact decisions are cheap (a regularized incomplete Beta
# function per simulation and grid point); sampled ones recompute the comparison
# from `n_draws` posterior draws for each simulation and grid point.
_SIMS_EXACT = 2000
_SIMS_SAMPLED = 200
# The grid of extra items: 0, then geometric steps from max_items / 2**10 up to
# max_items, with ratio 2**(1/3) (31 points) for exact results and 2 (11 points)
# for sampled ones.
_GRID_OCTAVES = 10
_MAX_SIMS = 1_000_000

# Targets of `should_stop` that keep the share of wrong "better" decisions under
# two equal systems at or below 5% when the comparison is looked at after every
# batch of this many items, up to 2 000 items (accuracy about 0.8, paired, no
# rope; ``python -m benchmarks.bench_coverage --section stopping``), and the share
# of wrong "better" decisions at target 0.95 (``None``: one look at the end).
_STOPPING_TARGETS = {25: 0.998, 50: 0.998, 100: 0.998, 200: 0.995, 500: 0.995, 2000: 0.975}
_STOPPING_ERRORS = {25: 0.58, 50: 0.51, 100: 0.43, 200: 0.34, 500: 0.24, None: 0.095}


def stopping_target(batch_size):
    """The target of `should_stop` that keeps wrong decisions at 5%, per batch size.

    Looking at a comparison after every batch of labels and stopping at the
    first decision makes wrong "better" decisions more frequent than one
    look at the end.  The coverage benchmark measures it (two equal systems,
    paired, accuracy about 0.8, no rope, up to 2 000 items) and finds, for
    each batch size, the smallest target whose share of wrong "better"
    decisions stays at or below 0.05:

    ==========  ======================  ===================  =======================
    batch size  wrong at target 0.95    calibrated target    wrong at that target
    ==========  ======================  ===================  =======================
    25          0.58                    0.998                0.047
    50          0.51                    0.998                0.041
    100         0.43                    0.998                0.030
    200         0.34                    0.995                0.048
    500         0.24                    0.995                0.028
    2 000       0.095 (one look)        0.975                0.046
    ==========  ======================  ===================  =======================

    (10 000 test sets a batch size; standard errors 0.005 or less.)  The
    targets tried were 0.95, 0.975, 0.99, 0.995, 0.998 and 0.999.

    A batch size between two measured ones takes the smaller one's target
    (more looks: the stricter target).

    Parameters
    ----------
    batch_size : int
        Items labelled between two looks; at least 25 (smaller batches were
        not measured).

    Returns
    -------
    float
        The target to pass to `should_stop`.

    Examples
    --------
    >>> from skprobeval import stopping_target
    >>> stopping_target(50), stopping_target(200), stopping_target(300)
    (0.998, 0.995, 0.995)
    """
    batch_size = _check_items(batch_size, "batch_size", allow_none=False)
    measured = sorted(_STOPPING_TARGETS)
    if batch_size < measured[0]:
        fail("batch_size", f"at least {measured[0]} (smaller batches were not measured)",
             batch_size)
    return _STOPPING_TARGETS[max(b for b in measured if b <= batch_size)]


# ---------------------------------------------------------------------------
# What can be planned for: a Dirichlet over cells, and the decision it gives
# ---------------------------------------------------------------------------


class _ExactPlan:
    """A Dirichlet over a few cells whose decision probabilities are exact."""

    exact = True

    def __init__(self, alpha, evaluate, items, words, swap=False):
        self.alpha = np.asarray(alpha, dtype=float)
        self._evaluate = evaluate
        self.items = float(items)
        self.words = words
        self._swap = swap

    def probabilities(self, counts, rope, n_draws, rng, target=None):
        """(first, equivalent, second) after adding `counts` (shape (n_sims, cells));
        with a `target`, only the decisions they give are exact."""
        first, equivalent, second = self._evaluate(self.alpha + counts, rope, target)
        return (second, equivalent, first) if self._swap else (first, equivalent, second)


class _SampledPlan:
    """A comparison recomputed from posterior draws with the new counts added."""

    exact = False

    def __init__(self, source, difference, items, words):
        self.alpha = np.asarray(source.alpha, dtype=float)
        self._difference = difference
        self.items = float(items)
        self.words = words

    def probabilities(self, counts, rope, n_draws, rng, target=None):
        out = np.empty((3, counts.shape[0]))
        for i, extra in enumerate(counts):
            draws = self._difference(extra, n_draws, rng)
            defined = np.maximum(np.sum(~np.isnan(draws)), 1)
            out[0, i] = np.sum(draws > rope) / defined
            out[2, i] = np.sum(draws < -rope) / defined
        out[1] = np.clip(1.0 - out[0] - out[2], 0.0, 1.0)
        return out[0], out[1], out[2]


_COMPARISON_WORDS = ("first better", "second better", "equivalent")
_REFERENCE_WORDS = ("above reference", "below reference", "equivalent to reference")
_SUPPORTED = ("a PairedComparison (compare_paired), a MetricComparison of the same items "
              "(compare_paired_metric, compare_scores), a SystemRanking (rank_systems), or a "
              "BetaPosterior or FBetaPosterior (metric_posterior) with `reference`")


# With a rope, each exact probability is a quadrature (about 0.25 ms); a future
# whose decision is plain from the normal approximation of delta (every count
# >= 20, each probability's z-score at least 0.5 from the target's; the
# approximation's z-scores were within 0.35 of the exact ones) skips it:
# 2 000 futures x 31 grid points take 3 s instead of 19 s, and the decisions
# agree (tests/test_plan.py).
_SCREEN_COUNT = 20.0
_SCREEN_Z = 0.5


def _paired_decision(parameters, rope, target=None):
    a1, a2, a3 = parameters[:, 0], parameters[:, 1], parameters[:, 2]
    if rope == 0 or target is None:
        return paired_probabilities(a1, a2, a3, rope)
    total = a1 + a2 + a3
    mean = (a1 - a2) / total
    sd = np.sqrt(((a1 + a2) * total - (a1 - a2) ** 2) / (total * total * (total + 1)))
    first = special.ndtr((mean - rope) / sd)
    second = special.ndtr((-rope - mean) / sd)
    equivalent = np.clip(1.0 - first - second, 0.0, 1.0)
    z_target = special.ndtri(target)
    with np.errstate(divide="ignore"):
        near = np.zeros(a1.shape, dtype=bool)
        for p in (first, second, equivalent):
            near |= np.abs(special.ndtri(np.clip(p, 1e-300, 1.0 - 1e-16)) - z_target) < _SCREEN_Z
    near |= np.minimum(np.minimum(a1, a2), a3) < _SCREEN_COUNT
    if np.any(near):
        exact = paired_probabilities(a1[near], a2[near], a3[near], rope)
        for approximate, value in zip((first, equivalent, second), exact):
            approximate[near] = value
    return first, equivalent, second


def _reference_decision(posterior_of, reference):
    def evaluate(parameters, rope, target=None):
        posterior = posterior_of(parameters)
        above = np.asarray(posterior.sf(min(reference + rope, 1.0)), dtype=float)
        below = np.asarray(posterior.cdf(max(reference - rope, 0.0)), dtype=float)
        if reference + rope >= 1.0:
            above = np.zeros_like(above)
        if reference - rope <= 0.0:
            below = np.zeros_like(below)
        return above, np.clip(1.0 - above - below, 0.0, 1.0), below
    return evaluate


def _check_scalar_result(result):
    if np.ndim(result.prob_first_better) != 0:
        fail("result", "one comparison (per-label comparisons are planned one label at a "
             "time)", result, shown=f"a {type(result).__name__} of shape "
             f"{np.shape(result.prob_first_better)}")


def _planner(result, reference):
    """The `_ExactPlan` or `_SampledPlan` of `result`, and the rope it holds."""
    posterior = isinstance(result, (BetaPosterior, FBetaPosterior))
    if reference is not None and not posterior:
        if isinstance(result, (AffinePosterior, DifferencePosterior, SampledPosterior)):
            fail("result", "a BetaPosterior or an FBetaPosterior, of the posteriors (the "
                 "others have no counts to add items to)", result,
                 shown=type(result).__name__, error=TypeError)
        fail("reference", f"None for a {type(result).__name__} (a reference value is for "
             "a single posterior)", reference)
    if isinstance(result, SystemRanking):
        return ranking_planner(result)
    if isinstance(result, PairedComparison):
        _check_scalar_result(result)
        alpha = result.posterior_parameters
        counts = result.counts
        items = float(counts.first_better + counts.second_better + counts.ties)
        return _ExactPlan(alpha, _paired_decision, items, _COMPARISON_WORDS), result.rope
    if isinstance(result, MetricComparison) and result.paired:
        _check_scalar_result(result)
        source = result._source
        if isinstance(source, PairedComparison):
            plan, _ = _planner(source, None)
            plan._swap = result.metric == "error"
            return plan, result.rope
        if source is not None:
            if hasattr(source, "with_counts"):
                def difference(extra, n_draws, rng):
                    table = source.with_counts(extra)
                    return np.concatenate(list(source.differences(table, n_draws, rng)))
            else:
                def difference(extra, n_draws, rng):
                    return source.differences(source.alpha + extra, n_draws, rng)
            return _SampledPlan(source, difference, source.n_items, _COMPARISON_WORDS), \
                result.rope
    if posterior:
        if reference is None:
            fail("reference", "a value of the metric to compare the posterior with (the "
                 "question is whether the metric is above or below it)", reference)
        if isinstance(reference, np.ndarray) and reference.ndim == 0:
            reference = reference.item()
        if (isinstance(reference, bool) or not isinstance(reference, numbers.Real)
                or not 0.0 <= reference <= 1.0):
            fail("reference", "a float in [0, 1]", reference)
        if np.ndim(result.mean()) != 0:
            fail("result", "one posterior (per-label posteriors are planned one label at a "
                 "time)", result, shown=f"a {type(result).__name__} of shape "
                 f"{np.shape(result.mean())}")
        if isinstance(result, BetaPosterior):
            alpha = (result.a, result.b)
            evaluate = _reference_decision(
                lambda p: BetaPosterior(p[:, 0], p[:, 1]), float(reference))
        else:
            beta = result.beta
            alpha = (result.tp, result.fp, result.fn)
            evaluate = _reference_decision(
                lambda p: FBetaPosterior(p[:, 0], p[:, 1], p[:, 2], beta=beta),
                float(reference))
        return _ExactPlan(alpha, evaluate, float(np.sum(alpha)), _REFERENCE_WORDS), 0.0
    why = ""
    if isinstance(result, MetricComparison):
        why = (" of independent data (more items of each system are not paired)"
               if not result.paired else
               " whose table cannot be recomputed (multilabel, or many classes)")
    fail("result", _SUPPORTED, result, error=TypeError, shown=f"a {type(result).__name__}{why}")


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


def _check_probability(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        fail(name, "a float in the open interval (0, 1)", value, error=TypeError)
    if not 0.0 < float(value) < 1.0:
        fail(name, "a float in the open interval (0, 1)", value)
    return float(value)


def _is_zero(value):
    return (not isinstance(value, bool) and isinstance(value, numbers.Real)
            and value == 0)


def _check_items(value, name, *, allow_none=True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        fail(name, "a positive whole number of items", value, error=TypeError)
    if not (math.isfinite(value) and value >= 1 and float(value).is_integer()):
        fail(name, "a positive whole number of items", value)
    return int(value)


def _check_sims(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        fail(name, f"an integer from 10 to {_MAX_SIMS:_}", value, error=TypeError)
    if not 10 <= value <= _MAX_SIMS:
        fail(name, f"an integer from 10 to {_MAX_SIMS:_}", value)
    return int(value)


def _check_inner_draws(value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        fail("n_draws", "an integer from 100 to 1_000_000", value, error=TypeError)
    if not 100 <= value <= 1_000_000:
        fail("n_draws", "an integer from 100 to 1_000_000", value)
    return int(value)


def _grid(max_items, exact):
    steps = 3 * _GRID_OCTAVES + 1 if exact else _GRID_OCTAVES + 1
    points = np.geomspace(max_items / 2.0**_GRID_OCTAVES, max_items, steps)
    return np.unique(np.r_[0, np.maximum(np.round(points), 1)].astype(np.int64))


def _decide(first, equivalent, second, target):
    """Which decision each simulation reaches: 0 first, 1 second, 2 equivalent, -1 none."""
    probs = np.stack([np.atleast_1d(np.asarray(p, dtype=float))
                      for p in (first, second, equivalent)])
    best = np.argmax(probs, axis=0)
    reached = np.take_along_axis(probs, best[None], axis=0)[0] >= target
    return np.where(reached, best, -1)


# ---------------------------------------------------------------------------
# The plan
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class MoreItemsPlan(ResultMixin):
    """How many more test items are likely to decide a comparison.

    Returned by `plan_more_items`.  For each number of extra items ``m`` in
    `extra_items`, the share of simulated futures (a truth drawn from the
    current posterior, ``m`` items drawn from it, the posterior updated) in
    which the question is decided.

    Attributes
    ----------
    n_items : int or None
        Smallest number of extra items in `extra_items` whose probability of
        a decision is at least `assurance`; 0 when the question is decided
        now; None when no number up to `max_items` reaches it ("no affordable
        number": `note` says why).
    decided_now : bool
        Whether the evidence in hand decides the question already.
    decision_now : str
        ``"first better"``, ``"second better"``, ``"equivalent"`` (for a
        posterior: ``"above reference"``, ``"below reference"``,
        ``"equivalent to reference"``), or ``"undecided"``.
    extra_items : ndarray of shape (n_points,)
        The numbers of extra items simulated: 0, then geometric steps up to
        `max_items`.
    prob_decided : ndarray of shape (n_points,)
        Share of simulated futures decided with that many extra items.
    prob_first_better, prob_second_better, prob_equivalent : ndarray of shape (n_points,)
        Shares decided each way (for a posterior against a reference: above,
        below, equivalent); they sum to `prob_decided`.
    mc_error : ndarray of shape (n_points,)
        Monte Carlo standard error of `prob_decided` (binomial, over the
        simulations).
    items_in_hand : float
        Items behind the current posterior (weights; for a posterior, its
        parameters' sum, the prior's pseudo-items included).
    target, assurance, rope : float
        The decision's posterior probability, the required share of decided
        futures, and the region of practical equivalence.
    max_items : int
        Largest number of extra items simulated.
    n_sims : int
        Simulated futures per number of extra items.
    exact : bool
        Whether each future's decision probabilities are exact (True) or read
        from posterior draws.
    note : str
        The answer in words.

    Examples
    --------
    >>> from skprobeval import PairedComparison, PairedCounts, plan_more_items
    >>> plan = plan_more_items(PairedComparison.from_counts(PairedCounts(12, 7, 381)),
    ...                        n_sims=500, random_state=0)
    >>> plan.n_items, plan.exact
    (6350, True)
    >>> plan.summary().columns.tolist()[:3]
    ['extra_items', 'prob_decided', 'prob_first_better']
    """

    n_items: int | None
    decided_now: bool
    decision_now: str
    extra_items: np.ndarray = field(repr=False)
    prob_decided: np.ndarray = field(repr=False)
    prob_first_better: np.ndarray = field(repr=False)
    prob_second_better: np.ndarray = field(repr=False)
    prob_equivalent: np.ndarray = field(repr=False)
    mc_error: np.ndarray = field(repr=False)
    items_in_hand: float
    target: float
    assurance: float
    rope: float
    max_items: int
    n_sims: int
    exact: bool
    note: str
    _words: tuple = field(default=_COMPARISON_WORDS, repr=False)

    def summary(self):
        """One row per number of extra items.

        Returns
        -------
        pandas.DataFrame
            Columns ``extra_items``, ``prob_decided``, ``prob_first_better``,
            ``prob_second_better``, ``prob_equivalent`` and ``mc_error``;
            ``attrs["note"]`` holds `note`.
        """
        import pandas as pd

        frame = pd.DataFrame({"extra_items": self.extra_items,
                              "prob_decided": self.prob_decided,
                              "prob_first_better": self.prob_first_better,
                              "prob_second_better": self.prob_second_better,
                              "prob_equivalent": self.prob_equivalent,
                              "mc_error": self.mc_error})
        frame.attrs["note"] = self.note
        return frame

    def _dict_content(self):
        return {"type": type(self).__name__, "n_items": self.n_items,
                "decided_now": self.decided_now, "decision_now": self.decision_now,
                "items_in_hand": self.items_in_hand, "target": self.target,
                "assurance": self.assurance, "rope": self.rope, "max_items": self.max_items,
                "n_sims": self.n_sims, "exact": self.exact, "note": self.note,
                "summary": self.summary()}

    def _html_table(self):
        caption = f"MoreItemsPlan: n_items = {self.n_items}"
        return (f"<p><strong>{html.escape(caption)}</strong></p>"
                f"<p>{html.escape(self.note)}</p>" + frame_html(self.summary()))

    def plot(self, ax=None):
        """P(decided) against the number of extra items.

        The assurance is a dashed line, the planned number a dotted one;
        error bars are two Monte Carlo standard errors.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.

        Returns
        -------
        matplotlib.axes.Axes
        """
        ax = axes_or_new(ax)
        x = self.extra_items
        ax.errorbar(x, self.prob_decided, yerr=2.0 * self.mc_error, marker="o", ms=3,
                    label="P(decided)")
        ax.axhline(self.assurance, color="grey", linestyle="--",
                   label=f"assurance {self.assurance:g}")
        if self.n_items is not None:
            ax.axvline(self.n_items, color="black", linestyle=":",
                       label=f"{self.n_items} more items")
        if x.size > 2 and x[-1] > 100 * max(x[1], 1):
            ax.set_xscale("symlog", linthresh=max(float(x[1]), 1.0))
        ax.set_xlabel("extra items")
        ax.set_ylabel("P(decided)")
        ax.set_ylim(-0.02, 1.02)
        ax.legend(loc="lower right")
        return ax

    def __repr__(self):
        return (f"MoreItemsPlan(n_items={self.n_items}, decided_now={self.decided_now}, "
                f"target={rounded(self.target)}, assurance={rounded(self.assurance)}, "
                f"rope={rounded(self.rope)}, max_items={self.max_items}, "
                f"note={self.note!r})")


def _note(decided_now, decision_now, probability_now, n_items, grid, decided,
          target, assurance, rope, max_items, words):
    if decided_now:
        return (f"Decided now: {decision_now} (posterior probability "
                f"{rounded(probability_now)} >= target {rounded(target)}); no more items "
                "are needed.")
    if n_items is not None:
        share = decided[np.searchsorted(grid, n_items)]
        return (f"About {n_items} more items: the question is then decided in "
                f"{rounded(share)} of the simulated futures (assurance "
                f"{rounded(assurance)}).")
    text = (f"No affordable number: up to {max_items} more items, the question is decided "
            f"in at most {rounded(float(np.max(decided)))} of the simulated futures, below "
            f"the assurance {rounded(assurance)}.")
    if rope == 0:
        text += (f" Without a region of practical equivalence, a difference near zero is "
                 f"never decided; with `rope` > 0, '{words[2]}' becomes a decision.")
    return text


@renamed_keyword("n_samples", "n_draws")
def plan_more_items(result, *, target=0.95, rope=None, max_items=None, assurance=0.8,
                    n_sims=None, n_draws=N_DRAWS, reference=None, random_state=None):
    """How many more test items will likely decide a comparison.

    Preposterior analysis (Raiffa & Schlaifer 1961) of the evidence in hand:
    for each number ``m`` of extra items, ``n_sims`` futures are simulated --
    a truth drawn from the current posterior, ``m`` items drawn from that
    truth (multinomial over the posterior's cells), the posterior updated
    (counts add) -- and the question is *decided* in a future when one of

    - ``P(first better) >= target``,
    - ``P(second better) >= target``,
    - ``P(equivalent) >= target`` (with ``rope > 0`` only)

    holds there.  The share of decided futures is the assurance of ``m``
    more items (O'Hagan & Stevens 2001); `MoreItemsPlan.n_items` is the
    smallest ``m`` of the grid whose share reaches `assurance`.  The futures
    for different ``m`` share their truths and extend one another (the items
    of a larger ``m`` include those of a smaller one), so the curve moves as
    labelling would.

    ======================================  =========================================
    result                                  simulated, and decided by
    ======================================  =========================================
    `PairedComparison` (`compare_paired`)   Dirichlet over N1, N2, N3; exact: the
                                            regularized incomplete Beta function
                                            (rope 0) or the rope integrals, for
                                            every future at once
    `MetricComparison` of                   Dirichlet over the joint (truth, A, B)
    `compare_paired_metric`                 cells; each future re-drawn
                                            (`n_draws` posterior draws)
    `MetricComparison` of `compare_scores`  Bayesian bootstrap over the items; each
                                            future re-drawn (`n_draws` draws)
    `SystemRanking` (`rank_systems`)        Dirichlet over the joint table's cells
                                            (observed and prior); each future
                                            ranked again (`n_draws` draws): is
                                            the leader's P(best) (with a rope:
                                            P(within rope of the best)) at least
                                            `target`
    `BetaPosterior`, `FBetaPosterior`       its two (Beta) or three (TP, FP, FN)
    (`metric_posterior`) with `reference`   cells; exact: is the metric above or
                                            below `reference` (beyond `rope`)
    ======================================  =========================================

    For a ranking, the decision is ``"one system best"`` (counted in
    `MoreItemsPlan.prob_first_better`) or, with ``rope > 0``, ``"within rope
    of the best"`` (in `prob_equivalent`).  Binary targets and accuracy over
    every label are ranked for all futures at once; other tables (label
    averages of many classes) call `rank_systems` future by future (slower),
    and tables of more than 4 096 cells (the prior's cells:
    K (1 + (2^N - 1)(K - 1)) for K labels and N systems) are refused.

    Sampled comparisons cost ``n_sims`` x grid points x ``n_draws``
    posterior draws.  For `compare_scores` every draw reads both rankings of
    every item: with 400 items and ``n_draws=2000`` a future costs about
    0.1 s, so the default 200 futures on 12 grid points take about 4
    minutes, and about 20 at the default ``n_draws=10_000``; pass fewer
    `n_sims` or `n_draws` for a first look.

    For a posterior, an "item" is one the metric counts: a predicted
    positive for precision, a positive for recall, any item for accuracy,
    an item in TP, FP or FN for F-beta.

    Parameters
    ----------
    result : PairedComparison, MetricComparison, SystemRanking, BetaPosterior or FBetaPosterior
        The evidence in hand: one comparison of two systems on the same
        items, a ranking of systems on the same items, or one metric's
        posterior.
    target : float, default=0.95
        Posterior probability that decides.
    rope : float, default=None
        Region of practical equivalence of the difference (or around
        `reference`); None takes the result's own (0 for a posterior).
    max_items : int, default=None
        Most extra items considered; by default 20 times the items in hand,
        and at least 1 000.
    assurance : float, default=0.8
        Share of simulated futures that must be decided.
    n_sims : int, default=None
        Futures per number of extra items: 2 000 where each decision is exact,
        200 where it is re-drawn.
    n_draws : int, default=10_000
        Posterior draws per future for the sampled comparisons (ignored for
        exact ones).
    reference : float, default=None
        Required for a posterior, refused otherwise: the value the metric is
        compared with.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the simulations.

    Returns
    -------
    MoreItemsPlan
        `n_items` (None when no number up to `max_items` decides with
        `assurance`: the `note` says so), the curve of P(decided) with its
        Monte Carlo standard error (`summary`, `plot`).

    See Also
    --------
    should_stop : The same question while labelling in batches.

    Notes
    -----
    The curve is read on a grid (0, then about 26% steps for exact results,
    doubling steps for sampled ones), so `n_items` is the grid point at or
    just above the number needed.  For sampled comparisons the decision of
    each future is itself read from `n_draws` draws, which blurs it near
    `target`; `mc_error` counts the futures only.

    References
    ----------
    .. [1] H. Raiffa and R. Schlaifer, "Applied Statistical Decision Theory",
       Harvard University, 1961.
    .. [2] A. O'Hagan and J. W. Stevens, "Bayesian assessment of sample size
       for clinical trials of cost-effectiveness", Medical Decision Making
       21(3), 2001.

    Examples
    --------
    The first system is right alone on 12 items, the second on 7, of 400:

    >>> from skprobeval import PairedComparison, PairedCounts, plan_more_items
    >>> result = PairedComparison.from_counts(PairedCounts(12, 7, 381))
    >>> round(result.prob_first_better, 3)
    0.875
    >>> plan = plan_more_items(result, random_state=0)
    >>> plan.n_items, plan.decided_now
    (5040, False)
    >>> plan.summary().iloc[-1].round(3).tolist()
    [8000.0, 0.845, 0.784, 0.06, 0.0, 0.008]

    A posterior against a reference value (is the accuracy above 0.9?):

    >>> from skprobeval import ConfusionCounts, metric_posterior
    >>> accuracy = metric_posterior(ConfusionCounts(40, 3, 4, 53), metric="accuracy")
    >>> plan_more_items(accuracy, reference=0.9, random_state=0).n_items
    1603
    """
    target = _check_probability(target, "target")
    assurance = _check_probability(assurance, "assurance")
    max_items = _check_items(max_items, "max_items")
    planner, rope, n_sims, n_draws, rng = _settings(result, rope, reference, n_sims, n_draws,
                                                    random_state)
    if max_items is None:
        max_items = max(1000, int(round(20 * planner.items)))
    return _plan(planner, target, assurance, rope, max_items, n_sims, n_draws, rng)


def _settings(result, rope, reference, n_sims, n_draws, random_state):
    """The planner of `result` and the checked settings both entry points share."""
    planner, own_rope = _planner(result, reference)
    width = (range_width(result.metric)
             if isinstance(result, (MetricComparison, SystemRanking)) else 1.0)
    rope = own_rope if rope is None else check_rope(rope, width=width)
    if n_sims is None:
        n_sims = _SIMS_EXACT if planner.exact else _SIMS_SAMPLED
    n_sims = _check_sims(n_sims, "n_sims")
    n_draws = _check_inner_draws(n_draws)
    return planner, rope, n_sims, n_draws, check_random_state(random_state)


def _plan(planner, target, assurance, rope, max_items, n_sims, n_draws, rng):
    words = planner.words
    first, equivalent, second = planner.probabilities(
        np.zeros((1, planner.alpha.size)), rope, n_draws, rng)
    now = _decide(first, equivalent, second, target)[0]
    probability_now = float(np.max([first[0], second[0], equivalent[0]]))
    decided_now = bool(now >= 0)
    decision_now = words[now] if decided_now else "undecided"
    grid = _grid(max_items, planner.exact)
    shares = np.zeros((3, grid.size))
    if decided_now:
        shares[now] = 1.0
    else:
        truth = dirichlet(planner.alpha, n_sims, rng)
        truth /= truth.sum(axis=1, keepdims=True)
        counts = np.zeros(truth.shape)
        for k in range(1, grid.size):
            counts = counts + rng.multinomial(grid[k] - grid[k - 1], truth)
            decision = _decide(*planner.probabilities(counts, rope, n_draws, rng, target),
                               target)
            for kind in range(3):
                shares[kind, k] = np.mean(decision == kind)
    decided = shares.sum(axis=0)
    error = np.sqrt(decided * (1.0 - decided) / n_sims)
    reached = np.flatnonzero(decided >= assurance)
    n_items = int(grid[reached[0]]) if reached.size else None
    note = _note(decided_now, decision_now, probability_now, n_items, grid, decided,
                 target, assurance, rope, max_items, words)
    return MoreItemsPlan(n_items, decided_now, decision_now, grid, decided, shares[0],
                         shares[1], shares[2], error, planner.items, target, assurance,
                         float(rope), int(max_items), n_sims, planner.exact, note, words)


# ---------------------------------------------------------------------------
# Labelling in batches: when to stop
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class StoppingDecision(ResultMixin):
    """Whether to stop labelling: the answer of `should_stop`.

    Attributes
    ----------
    stop : bool
        Stop labelling.
    reason : str
        ``"first better"``, ``"second better"``, ``"equivalent"`` (for a
        posterior: ``"above reference"``, ``"below reference"``,
        ``"equivalent to reference"``): decided; ``"over budget"``: no number
        of extra items within `budget` decides with the plan's assurance;
        ``"continue"``: label another batch.
    prob_first_better, prob_equivalent, prob_second_better : float
        The current posterior probabilities (for a posterior: above, within
        `rope` of, below the reference).
    target : float
        Posterior probability that decides.
    budget : int or None
        Extra items that can still be labelled.
    plan : MoreItemsPlan or None
        The plan within `budget` (None when decided, or without a budget).
    note : str
        The answer in words, with what optional stopping costs.

    Examples
    --------
    >>> from skprobeval import PairedComparison, PairedCounts, should_stop
    >>> decision = should_stop(PairedComparison.from_counts(PairedCounts(9, 8, 183)))
    >>> bool(decision), decision.reason
    (False, 'continue')
    """

    stop: bool
    reason: str
    prob_first_better: float
    prob_equivalent: float
    prob_second_better: float
    target: float
    budget: int | None
    plan: MoreItemsPlan | None = field(repr=False)
    note: str

    _html_figure = False

    def summary(self):
        """The decision as a dict (`plan` as its `n_items`)."""
        return {"stop": self.stop, "reason": self.reason,
                "prob_first_better": self.prob_first_better,
                "prob_equivalent": self.prob_equivalent,
                "prob_second_better": self.prob_second_better, "target": self.target,
                "budget": self.budget,
                "planned_items": None if self.plan is None else self.plan.n_items,
                "note": self.note}

    def __bool__(self):
        return self.stop

    def __repr__(self):
        return (f"StoppingDecision(stop={self.stop}, reason={self.reason!r}, "
                f"prob_first_better={rounded(self.prob_first_better)}, "
                f"prob_equivalent={rounded(self.prob_equivalent)}, "
                f"prob_second_better={rounded(self.prob_second_better)}, "
                f"target={rounded(self.target)}, budget={self.budget})")


def _stopping_note(target):
    return (f"Looking after every batch makes wrong decisions more frequent: with two "
            f"equal systems and target 0.95, looks every 50 items up to 2 000 stop with a "
            f"wrong 'better' in {_STOPPING_ERRORS[50]:.0%} of runs, every 200 in "
            f"{_STOPPING_ERRORS[200]:.0%}, against {_STOPPING_ERRORS[None]:.0%} with one "
            f"look at the end; stopping_target(batch_size) gives the target that keeps "
            f"it at 5%.")


@renamed_keyword("n_samples", "n_draws")
def should_stop(result, *, target=0.95, rope=None, budget=None, reference=None,
                assurance=0.8, n_sims=None, n_draws=N_DRAWS, random_state=None):
    """Whether to stop labelling test items, batch after batch.

    The stopping rule of a comparison labelled in batches: after each batch,
    compare the systems on all items so far and call this.  It says stop

    - when the question is decided: ``P(first better)``, ``P(second
      better)`` or (with ``rope > 0``) ``P(equivalent)`` is at least
      `target` (for a posterior: above, below or within `rope` of
      `reference`);
    - or, given a `budget` of extra items, when no number of them is likely
      to decide it: `plan_more_items` with ``max_items=budget`` finds no
      number that decides in `assurance` of the simulated futures (the
      "no affordable number" of two equal systems without a rope, say).

    Otherwise: continue (the plan, when there is one, says about how many
    items are still needed).

    Looking after every batch is optional stopping: under two equal systems
    it stops with a wrong "better" more often than one look at the end
    (Rouder 2014 shows the calibration of Bayes factors that survives it;
    a posterior probability read as a decision threshold does not).  The
    coverage benchmark measures it for a paired comparison, accuracy about
    0.8, up to 2 000 items, no rope: at target 0.95 a wrong "better" in 51%
    of the runs with looks every 50 items and 34% every 200, against 9.5%
    with one look at the end (about 5% each way).  `stopping_target` gives
    the targets that keep it at or below 5%: 0.998 for batches of 50, 0.995
    for batches of 200, 0.975 for one look.

    Parameters
    ----------
    result : PairedComparison, MetricComparison, SystemRanking, BetaPosterior or FBetaPosterior
        The comparison on every item labelled so far (as for `plan_more_items`).
    target : float, default=0.95
        Posterior probability that decides; see `stopping_target`.
    rope : float, default=None
        Region of practical equivalence; None takes the result's own.
    budget : int, default=None
        Extra items that can still be labelled; None: no futility check; 0:
        nothing left, so an undecided result stops ``"over budget"``.
    reference : float, default=None
        For a posterior: the value the metric is compared with.
    assurance, n_sims, n_draws, random_state
        As in `plan_more_items` (used with a `budget`).

    Returns
    -------
    StoppingDecision
        ``bool(decision)`` is `stop`; `reason` says why.

    See Also
    --------
    plan_more_items : How many more items, before labelling them.
    stopping_target : The target that keeps wrong decisions at 5%.

    References
    ----------
    .. [1] J. N. Rouder, "Optional stopping: no problem for Bayesians",
       Psychonomic Bulletin & Review 21(2), 2014.

    Examples
    --------
    >>> from skprobeval import PairedComparison, PairedCounts, should_stop
    >>> should_stop(PairedComparison.from_counts(PairedCounts(30, 12, 358)))
    StoppingDecision(stop=True, reason='first better', prob_first_better=0.9976,
    prob_equivalent=0.0, prob_second_better=0.0024, target=0.95, budget=None)
    >>> equal = PairedComparison.from_counts(PairedCounts(20, 20, 360))
    >>> decision = should_stop(equal, budget=2000, random_state=0)
    >>> decision.stop, decision.reason
    (True, 'over budget')
    >>> unsure = PairedComparison.from_counts(PairedCounts(12, 7, 381))
    >>> decision = should_stop(unsure, budget=8000, random_state=0)
    >>> decision.reason, decision.plan.n_items
    ('continue', 5040)
    """
    target = _check_probability(target, "target")
    assurance = _check_probability(assurance, "assurance")
    # A budget of 0 (nothing left to label) is allowed: undecided means over budget.
    budget = None if budget is None else (0 if _is_zero(budget) else _check_items(budget,
                                                                                  "budget"))
    planner, rope, n_sims, n_draws, rng = _settings(result, rope, reference, n_sims, n_draws,
                                                    random_state)
    first, equivalent, second = (float(np.asarray(p).ravel()[0]) for p in planner.probabilities(
        np.zeros((1, planner.alpha.size)), rope, n_draws, rng))
    decision = int(_decide(first, equivalent, second, target)[0])
    plan = None
    caution = _stopping_note(target)
    if decision >= 0:
        reason = planner.words[decision]
        note = f"Stop: {reason} (posterior probability >= {rounded(target)}). {caution}"
    elif budget == 0:
        reason, note = "over budget", "Stop: not decided, and no items are left to label."
    elif budget is not None:
        plan = _plan(planner, target, assurance, rope, budget, n_sims, n_draws, rng)
        reason = "over budget" if plan.n_items is None else "continue"
        note = (f"Stop: {plan.note}" if plan.n_items is None else
                f"Continue: {plan.note}")
    else:
        reason, note = "continue", "Continue: not decided yet."
    return StoppingDecision(reason != "continue", reason, first, equivalent, second, target,
                            budget, plan, note)
