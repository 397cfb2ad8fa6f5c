"""Choosing a decision threshold with a posterior guarantee; the expected utility of thresholds.

`choose_threshold` reads the curve model of `skprobeval._posteriors._curves`
and picks, among the thresholds whose constraint holds jointly with the
required posterior probability, the one of best expected objective
(`ThresholdChoice`); `threshold_utility` gives the posterior of the utility
per item at every threshold, its mean exact (`ThresholdUtility`).
Derivations: the theory page ``docs/theory/thresholds.rst``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._core import (
    N_DRAWS,
    ResultMixin,
    as_array,
    check_confidence,
    check_draws,
    check_prior,
    check_random_state,
    fail,
    renamed_keyword,
    warn_user,
)
from .._counting import ConfusionCounts
from .._posteriors import (
    BetaPosterior,
    ClusteredItems,
    ClusteredPosterior,
    CurveCells,
    SampledPosterior,
    check_curve_input,
    clustered_cumulative,
    curve_clusters,
    draw_cumulative,
)

__all__ = ["ThresholdChoice", "ThresholdUtility", "choose_threshold", "threshold_utility"]

# Metric name -> (canonical name, Beta parameters' cells).  Higher is better for
# all but the false positive rate, whose constraint is an upper bound.
_METRICS = {
    "precision": ("precision", ("tp", "fp")),
    "recall": ("recall", ("tp", "fn")),
    "tpr": ("recall", ("tp", "fn")),
    "specificity": ("specificity", ("tn", "fp")),
    "tnr": ("specificity", ("tn", "fp")),
    "fpr": ("fpr", ("fp", "tn")),
}
_NAMES = sorted(_METRICS)
_OBJECTIVES = [name for name in _NAMES if name != "fpr"]


def _check_metric(name, argument, allowed):
    if not isinstance(name, str) or name.lower() not in allowed:
        fail(argument, f"one of {allowed!r}", name)
    return _METRICS[name.lower()][0]


def _check_constraint(constraint):
    if (not isinstance(constraint, (tuple, list)) or len(constraint) != 2):
        fail("constraint", "a pair (metric, target) such as ('precision', 0.9)", constraint,
             error=TypeError)
    metric = _check_metric(constraint[0], "constraint", _NAMES)
    target = constraint[1]
    if not isinstance(target, numbers.Real) or isinstance(target, bool):
        fail("constraint", "a pair (metric, target) with a real target in (0, 1)", constraint,
             error=TypeError)
    target = float(target)
    if not 0.0 < target < 1.0:
        fail("constraint", "a pair (metric, target) with a target in the open interval (0, 1)",
             constraint)
    return metric, target


def _check_max_thresholds(max_thresholds):
    if (not isinstance(max_thresholds, numbers.Integral) or isinstance(max_thresholds, bool)
            or max_thresholds < 2):
        fail("max_thresholds", "an integer >= 2", max_thresholds,
             error=ValueError if isinstance(max_thresholds, numbers.Real) else TypeError)
    return int(max_thresholds)


def _candidate_cells(y_true, y_score, pos_label, sample_weight, max_thresholds, groups=None):
    """The cells at the candidate thresholds (distinct scores, highest first, runs
    merged beyond `max_thresholds`), the confusion counts at each, and the
    `ClusteredItems` of clustered items (None without `groups`, or where every
    cluster holds one item)."""
    relevant, score, weight = check_curve_input(y_true, y_score, pos_label, sample_weight)
    clusters = curve_clusters(groups, relevant, weight)
    cells = CurveCells.from_items(relevant, score, weight).merged(max_thresholds)
    tp, fp = np.cumsum(cells.positive), np.cumsum(cells.negative)
    fn = np.r_[np.cumsum(cells.positive[::-1])[::-1][1:], 0.0]
    tn = np.r_[np.cumsum(cells.negative[::-1])[::-1][1:], 0.0]
    clustered = (None if clusters is None
                 else ClusteredItems.from_items(relevant, score, weight, clusters))
    return cells, ConfusionCounts(tp, fp, fn, tn), clustered


def _posterior(counts, metric, lam):
    first, second = _METRICS[metric][1]
    return BetaPosterior(getattr(counts, first) + lam, getattr(counts, second) + lam)


def _drawn_metric(metric, tp, fp, pos, neg, fp_by_tp):
    """The metric at every candidate threshold of a chunk of curve draws."""
    if metric == "precision":
        with np.errstate(invalid="ignore"):
            return np.nan_to_num(tp / (tp + fp_by_tp))
    if metric == "recall":
        return tp / pos
    if metric == "fpr":
        return fp / neg
    return 1.0 - fp / neg


def _curve_draws(cells, lam, n_draws, rng, clustered=None):
    """Chunks of curve draws at the candidate thresholds: ``(tp, fp, pos, neg, fp_by_tp)``,
    from the clusters' Bayesian bootstrap where `clustered` is given."""
    k = cells.levels.shape[0]
    if clustered is None:
        chunks = draw_cumulative(cells, lam, n_draws, rng)
    else:
        chunks = clustered_cumulative(
            clustered.draws(clustered.counts(clustered.levels_of(cells.levels), k), lam),
            n_draws, rng)
    for tp, fp, pos, neg, fp_by_tp in chunks:
        # Column 0 lies above every score; columns 1..k at or above each level.
        yield tp[:, 1:k + 1], fp[:, 1:k + 1], pos, neg, fp_by_tp[:, 1:k + 1]


# ---------------------------------------------------------------------------
# choose_threshold
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class ThresholdChoice(ResultMixin):
    """A decision threshold chosen under a constraint, with its posteriors.

    Built by `choose_threshold`.  Items with ``score >= threshold`` are
    predicted positive (as scikit-learn's ``FixedThresholdClassifier``).

    Attributes
    ----------
    threshold : float or None
        The chosen threshold; None where no threshold meets the constraint
        with the required probability (`feasible` is False).
    feasible : bool
        Whether some threshold meets the constraint.
    constraint : tuple of (str, float)
        The constrained metric and its target (a lower bound; an upper bound
        for ``"fpr"``).
    maximize : str
        The metric whose posterior mean the choice maximises.
    confidence : float
        Posterior probability required that the constraint holds at every
        threshold the choice could have picked.
    required_probability : float
        The pointwise probability a threshold needs, ``P(constraint holds)
        >= required_probability``, to be a candidate: at least `confidence`,
        raised until the constraint holds at all candidates at once with
        probability `confidence` (see `choose_threshold`).
    prob_all_hold : float
        Posterior probability, from the curve draws, that the constraint
        holds at every candidate at once (at least `confidence` up to Monte
        Carlo error; 1.0 when there is no candidate).
    mc_error : float
        Monte Carlo standard error of `prob_all_hold`.
    thresholds : ndarray of shape (T,)
        The thresholds considered, increasing (distinct scores, or the
        lowest score of each run of scores when there were more than
        ``max_thresholds``).
    prob_constraint : ndarray of shape (T,)
        Posterior probability that the constraint holds at each threshold:
        exact, or from the curve draws with ``groups``.
    expected_objective : ndarray of shape (T,)
        Posterior mean of the maximised metric at each threshold (from the
        curve draws with ``groups``).
    counts : ConfusionCounts
        The confusion table at each threshold (arrays of shape (T,)).
    constraint_posterior, objective_posterior : BetaPosterior, ClusteredPosterior or None
        Posteriors of the constrained and of the maximised metric at the
        chosen threshold (None where infeasible); with ``groups``, their draws
        from the clusters' Bayesian bootstrap, with ``effective_n``.
    prior : float
        Dirichlet concentration λ.
    n_draws : int
        Curve draws behind `required_probability` and `prob_all_hold`.
    pos_label : int, float, bool, str or None
        The positive class (as given to `choose_threshold`).
    n_clusters : int or None
        Clusters the choice rests on (``groups=``), else None.

    Methods
    -------
    summary()
        The choice's figures as a record (what `to_dict` gives).
    plot(ax=None)
        P(constraint holds) and the expected objective across thresholds.
    to_estimator(estimator, *, response_method="auto")
        The classifier with this threshold.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import choose_threshold
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> score = rng.normal(size=400) + 3 * y
    >>> choice = choose_threshold(y, score, constraint=("precision", 0.9), n_draws=2000,
    ...                           random_state=0)
    >>> choice
    ThresholdChoice(threshold=1.8563, precision >= 0.9 at P >= 0.95, recall=0.9009)
    >>> choice.constraint_posterior.interval(0.9)
    CredibleInterval(low=0.9167, high=0.983)
    """

    threshold: float | None
    feasible: bool
    constraint: tuple
    maximize: str
    confidence: float
    required_probability: float
    prob_all_hold: float
    mc_error: float
    thresholds: np.ndarray
    prob_constraint: np.ndarray
    expected_objective: np.ndarray
    counts: ConfusionCounts
    constraint_posterior: BetaPosterior | None
    objective_posterior: BetaPosterior | None
    prior: float
    n_draws: int
    pos_label: object = None
    n_clusters: int | None = None

    def _bound(self):
        metric, target = self.constraint
        return f"{metric} {'<=' if metric == 'fpr' else '>='} {target:g}"

    def __repr__(self):
        if not self.feasible:
            return (f"ThresholdChoice(threshold=None, feasible=False, {self._bound()} at "
                    f"P >= {self.confidence:g})")
        # The maximised metric's posterior mean at the threshold.
        return (f"ThresholdChoice(threshold={round(self.threshold, 4)!r}, {self._bound()} at "
                f"P >= {self.confidence:g}, "
                f"{self.maximize}={round(self.objective_posterior.mean(), 4)!r})")

    def summary(self):
        """The choice's figures as a record of Python scalars (`to_dict` too).

        Returns
        -------
        dict
            ``threshold`` (None where infeasible), ``feasible``, the
            constraint's ``metric`` and ``target``, ``maximize``,
            ``confidence``, ``required_probability``, ``prob_all_hold``,
            ``mc_error``, and at the chosen threshold ``prob_constraint``,
            the posterior means ``expected_constraint`` and
            ``expected_objective``, and the counts ``tp``, ``fp``, ``fn``,
            ``tn`` (None where infeasible); with ``groups``, ``n_clusters``.
        """
        out = {"threshold": self.threshold, "feasible": self.feasible,
               "metric": self.constraint[0], "target": self.constraint[1],
               "maximize": self.maximize, "confidence": self.confidence,
               "required_probability": self.required_probability,
               "prob_all_hold": self.prob_all_hold, "mc_error": self.mc_error}
        at = self._index()
        out["prob_constraint"] = None if at is None else float(self.prob_constraint[at])
        out["expected_constraint"] = (None if at is None
                                      else float(self.constraint_posterior.mean()))
        out["expected_objective"] = None if at is None else float(self.expected_objective[at])
        for cell in ("tp", "fp", "fn", "tn"):
            out[cell] = None if at is None else float(getattr(self.counts, cell)[at])
        if self.n_clusters is not None:
            out["n_clusters"] = self.n_clusters
        return out

    def _dict_content(self):
        return self.summary()

    def _index(self):
        if not self.feasible:
            return None
        return int(np.flatnonzero(self.thresholds == self.threshold)[0])

    def _html_caption(self):
        return (f"ThresholdChoice: {self._bound()} with posterior probability "
                f">= {self.confidence:g}, maximise {self.maximize}")

    def plot(self, ax=None):
        """Plot P(constraint holds) and the expected objective across thresholds.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (a new figure's by default).

        Returns
        -------
        matplotlib.axes.Axes
        """
        from .._core import axes_or_new

        ax = axes_or_new(ax)
        ax.step(self.thresholds, self.prob_constraint, where="post",
                label=f"P({self._bound()})")
        ax.plot(self.thresholds, self.expected_objective, linestyle="--",
                label=f"expected {self.maximize}")
        ax.axhline(self.required_probability, color="grey", linewidth=0.8, linestyle=":",
                   label=f"required probability {self.required_probability:.3f}")
        if self.feasible:
            ax.axvline(self.threshold, color="black", linewidth=1.0,
                       label=f"chosen threshold {self.threshold:.4g}")
        ax.set_xlabel("threshold (score >= threshold is positive)")
        ax.set_ylabel("probability / expected value")
        ax.set_ylim(-0.02, 1.02)
        ax.legend(fontsize="small")
        return ax

    def to_estimator(self, estimator, *, response_method="auto"):
        """The fitted classifier with this threshold: scikit-learn's ``FixedThresholdClassifier``.

        Parameters
        ----------
        estimator : fitted binary classifier
            The classifier whose scores were given to `choose_threshold`.
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
            The method that gave those scores (``"auto"``: ``predict_proba``
            if the classifier has it, as scikit-learn).  The threshold is on
            that method's scale.

        Returns
        -------
        sklearn.model_selection.FixedThresholdClassifier
            Needs scikit-learn >= 1.5.  It predicts without being fitted
            again (it falls back on the fitted `estimator`).
        """
        if not self.feasible:
            raise ValueError("No threshold met the constraint (`feasible` is False): there is "
                             "no threshold to give the classifier.")
        try:
            from sklearn.model_selection import FixedThresholdClassifier
        except ImportError as error:    # pragma: no cover - scikit-learn < 1.5
            import sklearn

            raise ImportError("`to_estimator` needs scikit-learn >= 1.5 (FixedThresholdClassifier);"
                              f" installed: {sklearn.__version__}.  Predict with "
                              "`scores >= choice.threshold` instead.") from error
        if response_method not in ("auto", "predict_proba", "decision_function"):
            fail("response_method", "one of 'auto', 'predict_proba', 'decision_function'",
                 response_method)
        return FixedThresholdClassifier(estimator, threshold=self.threshold,
                                        response_method=response_method,
                                        pos_label=self.pos_label)


def _violations(cells, lam, metric, upper, target, prob, n_draws, rng, clustered=None):
    """For each curve draw, the largest ``prob`` among the thresholds whose drawn
    metric breaks the constraint (0 where none does)."""
    out = []
    for tp, fp, pos, neg, fp_by_tp in _curve_draws(cells, lam, n_draws, rng, clustered):
        value = _drawn_metric(metric, tp, fp, pos, neg, fp_by_tp)
        broken = value > target if upper else value < target
        out.append(np.max(np.where(broken, prob, 0.0), axis=1))
    return np.concatenate(out)


def _clustered_pointwise(cells, lam, clustered, metric, objective, upper, target, n_draws,
                         seed):
    """With clusters: P(constraint holds) and the objective's posterior mean at each
    candidate, from the draws of the clusters' Bayesian bootstrap seeded by `seed`."""
    held = np.zeros(cells.levels.shape[0])
    total = np.zeros(cells.levels.shape[0])
    for chunk in _curve_draws(cells, lam, n_draws, np.random.default_rng(seed), clustered):
        value = _drawn_metric(metric, *chunk)
        held += np.sum(value <= target if upper else value >= target, axis=0)
        total += np.sum(_drawn_metric(objective, *chunk), axis=0)
    return held / n_draws, total / n_draws


def _clustered_at(cells, lam, clustered, metrics, at, n_draws, seed):
    """With clusters: the draws (seeded by `seed`) of each of `metrics` at candidate `at`."""
    out = [[] for _ in metrics]
    for chunk in _curve_draws(cells, lam, n_draws, np.random.default_rng(seed), clustered):
        for values, metric in zip(out, metrics):
            values.append(_drawn_metric(metric, *chunk)[:, at])
    return [np.concatenate(values) for values in out]


def _clustered_posterior(samples, exact, clustered):
    """`ClusteredPosterior` of draws at one threshold, its effective number of items
    from the exact posterior without clusters (`exact`)."""
    n_items = float(clustered.weight.sum())
    drawn = float(np.var(samples, ddof=1))
    effective = n_items * float(exact.var()) / drawn if drawn > 0 else n_items
    return ClusteredPosterior(samples, n_clusters=clustered.clusters.n_clusters,
                              n_items=n_items, effective_n=effective)


@renamed_keyword("n_samples", "n_draws")
def choose_threshold(y_true, y_score, *, constraint=("precision", 0.9), maximize="recall",
                     confidence=0.95, pos_label=None, prior=0.5, n_draws=N_DRAWS,
                     max_thresholds=1000, random_state=None, sample_weight=None, groups=None):
    """Choose a decision threshold that meets a constraint with posterior probability.

    Finds the threshold that maximises the posterior mean of `maximize`
    among the thresholds where `constraint` (for example precision >= 0.9)
    holds with posterior probability, accounting for the choice among
    thresholds made on the same data.

    Let ``p_t = P(constraint holds at t | data)``, exact at each threshold
    ``t`` (a Beta posterior).  The candidates are ``S(γ) = {t : p_t >= γ}``,
    and γ is the smallest level, at least `confidence`, at which the
    constraint holds at every threshold of ``S(γ)`` at once with posterior
    probability `confidence`::

        P(constraint holds at every t in S(γ) | data) >= confidence,

    computed on `n_draws` draws of the whole curve (the joint posterior).  The
    chosen threshold is one of ``S(γ)``, picked after seeing the data, and
    the statement covers whichever it is: the Bayesian counterpart of
    controlling the family-wise error over the candidates, as Learn-then-Test
    does (Angelopoulos et al. 2021).

    Why this rule: picking the best of many thresholds that each pass
    ``p_t >= confidence`` favours thresholds whose posterior happens to be
    optimistic, and the population then meets the constraint less often
    than promised (0.940 to 0.975 of binormal data sets met a 0.95 promise,
    at it or below in three of the six cells of the coverage benchmark).  A
    simultaneous credible band of the whole curve (every threshold above its
    own lower quantile) keeps the promise too, but also guards thresholds
    far from the target that could never be chosen: its pointwise level
    reached 0.996, and at 300 items (binormal, separation 2.5) it found no
    threshold for precision >= 0.9 in half of 100 data sets.  Requiring all
    candidates at once costs a level of about 0.96-0.97; the chosen
    threshold met the target in 0.96 to 0.98 of the benchmark's data sets.  The
    coverage benchmark (section "thresholds") measures the rate at which
    the chosen threshold meets the constraint in the population.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels holding both classes, or multiclass labels with
        `pos_label` naming the positive class.
    y_score : array-like of shape (n_samples,)
        Finite scores, higher meaning more positive (``predict_proba``'s
        positive column, ``decision_function``); an item with
        ``score >= threshold`` is predicted positive.
    constraint : tuple of (str, float), default=("precision", 0.9)
        The metric and its target in (0, 1): ``"precision"``, ``"recall"``
        (``"tpr"``) or ``"specificity"`` (``"tnr"``) at least the target,
        ``"fpr"`` at most the target.
    maximize : str, default="recall"
        The metric whose posterior mean is maximised: ``"precision"``,
        ``"recall"`` (``"tpr"``) or ``"specificity"`` (``"tnr"``; the lowest
        false positive rate).
    confidence : float, default=0.95
        Posterior probability, in (0, 1), that the constraint holds at every
        candidate threshold at once.
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels {0, 1} or {-1, 1}.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of the curve model's boundary pseudo-cells.
    n_draws : int, default=10_000
        Draws of the whole curve; the Monte Carlo error of `prob_all_hold`
        is reported as `mc_error`.
    max_thresholds : int, default=1000
        Most thresholds considered: beyond that, runs of consecutive scores
        of about equal weight are merged and only each run's lowest score is
        a threshold (exact: the joint posterior at the kept thresholds is
        unchanged).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the curve draws.
    sample_weight : array-like of shape (n_samples,), default=None
        Counts: an item of weight 2 is two items.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        clusters, not the items, are then the draws from the population: the
        curve draws come from the clusters' Bayesian bootstrap (each
        cluster's items share one Gamma weight), ``p_t`` and the expected
        objective are read from them (with their Monte Carlo error) instead
        of the exact Beta posteriors, the posteriors at the chosen threshold
        are `ClusteredPosterior` (with ``effective_n``), and the result's
        `n_clusters` says how many clusters there were.  Where every cluster
        holds one item, the choice without `groups`.

    Returns
    -------
    ThresholdChoice
        With ``threshold=None`` and ``feasible=False``, and a warning, when
        no threshold qualifies.

    See Also
    --------
    threshold_utility : The expected utility of each threshold under a utility matrix.
    posterior_precision_recall_curve : The posterior at every threshold.

    Notes
    -----
    The probability is a posterior one.  Its frequentist counterpart, the
    share of data sets whose chosen threshold meets the constraint in the
    population, is measured by the coverage benchmark.  The promise is
    about the population the labelled items were drawn from: choose the
    threshold on data the classifier was not fitted on.

    References
    ----------
    Angelopoulos, A. N., Bates, S., Candès, E. J., Jordan, M. I. and Lei, L.
    (2021). Learn then test: calibrating predictive algorithms to achieve
    risk control. arXiv:2110.01052.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import choose_threshold
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> score = rng.normal(size=400) + 3 * y
    >>> choice = choose_threshold(y, score, constraint=("precision", 0.9), n_draws=2000,
    ...                           random_state=0)
    >>> round(choice.threshold, 3), round(choice.required_probability, 3)
    (1.856, 0.973)
    >>> round(choice.objective_posterior.mean(), 3)   # expected recall
    0.901

    A constraint no threshold can meet gives no threshold:

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     choose_threshold(y, score, constraint=("precision", 0.999), n_draws=500,
    ...                      random_state=0).feasible
    False
    """
    metric, target = _check_constraint(constraint)
    objective = _check_metric(maximize, "maximize", _OBJECTIVES)
    confidence = check_confidence(confidence)
    lam = check_prior(prior)
    max_thresholds = _check_max_thresholds(max_thresholds)
    cells, counts, clustered = _candidate_cells(y_true, y_score, pos_label, sample_weight,
                                                max_thresholds, groups)
    n_draws = check_draws(n_draws, values_per_draw=2 * cells.levels.shape[0] + 4)
    rng = check_random_state(random_state)
    upper = metric == "fpr"
    if clustered is None:
        posterior = _posterior(counts, metric, lam)
        prob = np.asarray(posterior.cdf(target) if upper else posterior.sf(target), dtype=float)
        expected = np.asarray(_posterior(counts, objective, lam).mean(), dtype=float)
        worst = _violations(cells, lam, metric, upper, target, prob, n_draws, rng)
    else:
        # Every pass draws the same curves (one seed): p_t and the expected objective,
        # then the violations, then the posteriors at the chosen threshold.
        seed = int(rng.integers(2**63 - 1))
        prob, expected = _clustered_pointwise(cells, lam, clustered, metric, objective, upper,
                                              target, n_draws, seed)
        worst = _violations(cells, lam, metric, upper, target, prob, n_draws,
                            np.random.default_rng(seed), clustered)
    # The allowed number of draws that break the constraint somewhere among the
    # candidates; the level sits just above the next one's largest broken p_t.
    allowed = int(np.floor((1.0 - confidence) * n_draws + 1e-9))
    ordered = np.sort(worst)[::-1]
    level = max(confidence, float(np.nextafter(ordered[allowed], 2.0)))
    feasible_mask = prob >= level
    # Increasing thresholds, as scikit-learn's precision_recall_curve.
    order = slice(None, None, -1)
    thresholds = cells.levels[order].copy()
    counts = ConfusionCounts(counts.tp[order], counts.fp[order], counts.fn[order],
                             counts.tn[order])
    prob, expected, feasible_mask = prob[order], expected[order], feasible_mask[order]
    hold = float(np.mean(worst < level))
    n_clusters = None if clustered is None else clustered.clusters.n_clusters
    mc_error = float(np.sqrt(hold * (1.0 - hold) / n_draws))
    if not feasible_mask.any():
        warn_user(f"No threshold meets `constraint` {metric} "
                  f"{'<=' if upper else '>='} {target:g} with posterior probability "
                  f"{confidence:g} (the highest probability at any threshold is "
                  f"{float(prob.max()):.3g}): the result has threshold=None and "
                  "feasible=False.  More labelled items, or a looser target, may help.")
        return ThresholdChoice(None, False, (metric, target), objective, confidence, level,
                               1.0, 0.0, thresholds, prob, expected, counts, None, None, lam,
                               n_draws, pos_label, n_clusters)
    candidates = np.flatnonzero(feasible_mask)
    # Best expected objective; among ties the most probable constraint, then the
    # highest threshold (fewest items predicted positive).
    best = candidates[np.lexsort((-candidates, prob[candidates],
                                  expected[candidates]))[-1]]
    at = counts[best]
    posteriors = (_posterior(at, metric, lam), _posterior(at, objective, lam))
    if clustered is not None:
        # `best` counts from the lowest threshold; the draws' columns from the highest.
        column = thresholds.shape[0] - 1 - best
        draws = _clustered_at(cells, lam, clustered, (metric, objective), column, n_draws,
                              seed)
        posteriors = tuple(_clustered_posterior(d, p, clustered)
                           for d, p in zip(draws, posteriors))
    return ThresholdChoice(float(thresholds[best]), True, (metric, target), objective,
                           confidence, level, hold, mc_error, thresholds, prob, expected,
                           counts, *posteriors, lam, n_draws, pos_label, n_clusters)


# ---------------------------------------------------------------------------
# threshold_utility
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class ThresholdUtility(ResultMixin):
    """Posterior of the expected utility per item at each threshold.

    Built by `threshold_utility`.

    Attributes
    ----------
    thresholds : ndarray of shape (T,)
        Increasing thresholds (``score >= threshold`` is positive).
    expected_utility : ndarray of shape (T,)
        Posterior mean of the utility per item at each threshold (exact;
        with ``groups=``, the mean of the draws).
    posterior : SampledPosterior
        Draws of the utility per item at every threshold, jointly (shape (T,)).
    best_threshold : float
        The threshold of highest posterior mean utility.
    prob_best : ndarray of shape (T,)
        Posterior probability that each threshold has the highest utility.
    utility : ndarray of shape (2, 2)
        The utility matrix (rows: true negative, positive; columns: predicted).
    n_clusters : int or None
        Clusters the draws rest on (``groups=``), else None.

    Methods
    -------
    prob_beats(threshold_a, threshold_b)
        Posterior probability that threshold A has a higher utility than B.
    summary(confidence=0.95)
        One row per threshold: the expected utility, its interval, ``prob_best``.
    to_dict()
        ``best_threshold``, its ``expected_utility`` and ``prob_best``,
        ``confidence`` and ``summary`` (at 95%, a dict by threshold), as
        plain Python data.
    plot(ax=None, *, confidence=0.95)
        The expected utility against the threshold, with its band.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import threshold_utility
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> score = rng.normal(size=300) + 2 * y
    >>> result = threshold_utility(y, score, utility=[[0, -1], [-5, 0]], n_draws=2000,
    ...                            random_state=0)
    >>> round(result.best_threshold, 3)
    0.824
    >>> round(result.prob_beats(result.best_threshold, 1.5), 3)
    0.954
    """

    thresholds: np.ndarray
    expected_utility: np.ndarray
    posterior: SampledPosterior
    best_threshold: float
    prob_best: np.ndarray
    utility: np.ndarray
    n_clusters: int | None = None

    def __repr__(self):
        best = int(np.argmax(self.expected_utility))
        return (f"ThresholdUtility(thresholds={self.thresholds.shape[0]}, best_threshold="
                f"{round(self.best_threshold, 4)!r}, expected_utility="
                f"{round(float(self.expected_utility[best]), 4)!r})")

    def _column(self, threshold, name):
        if not isinstance(threshold, numbers.Real) or isinstance(threshold, bool):
            fail(name, "a real threshold", threshold, error=TypeError)
        at = np.searchsorted(self.thresholds, float(threshold), side="right") - 1
        if at < 0:
            fail(name, f"at least the lowest threshold ({float(self.thresholds[0]):.6g})",
                 threshold)
        return int(at)

    def prob_beats(self, threshold_a, threshold_b):
        """Posterior probability that threshold A has a higher utility than threshold B.

        A threshold between two candidates acts as the next candidate below
        it (the same items are predicted positive).

        Parameters
        ----------
        threshold_a, threshold_b : float
            Two thresholds, at least the lowest candidate.

        Returns
        -------
        float
        """
        a = self._column(threshold_a, "threshold_a")
        b = self._column(threshold_b, "threshold_b")
        draws = self.posterior.samples
        return float(np.mean(draws[:, a] > draws[:, b]))

    def _best(self):
        best = int(np.argmax(self.expected_utility))
        return {"best_threshold": float(self.best_threshold),
                "expected_utility": float(self.expected_utility[best]),
                "prob_best": float(self.prob_best[best])}

    def _dict_content(self):
        return {**self._best(), "confidence": 0.95, "summary": self.summary()}

    def _html_caption(self):
        best = self._best()
        return (f"ThresholdUtility: best threshold {best['best_threshold']:.4g}, expected "
                f"utility {best['expected_utility']:.4g}; 95% intervals")

    def summary(self, confidence=0.95):
        """One row per threshold: the expected utility per item, its interval, ``prob_best``.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the equal-tailed interval (from the draws).

        Returns
        -------
        pandas.DataFrame
            Indexed by ``threshold``, columns ``mean`` (exact), ``low``,
            ``high`` and ``prob_best``.

        Examples
        --------
        >>> from skprobeval import threshold_utility
        >>> result = threshold_utility([0, 1, 0, 1, 1, 0], [0.1, 0.8, 0.4, 0.6, 0.9, 0.3],
        ...                            utility=[[0, -1], [-5, 0]], n_draws=500, random_state=0)
        >>> list(result.summary().columns)
        ['mean', 'low', 'high', 'prob_best']
        """
        import pandas as pd

        low, high = self.posterior.interval(confidence)
        return pd.DataFrame({"mean": self.expected_utility, "low": np.ravel(low),
                             "high": np.ravel(high), "prob_best": self.prob_best},
                            index=pd.Index(self.thresholds, name="threshold"))

    def plot(self, ax=None, *, confidence=0.95):
        """Draw the expected utility per item against the threshold, with its band.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.
        confidence : float, default=0.95
            Mass of the pointwise band.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import threshold_utility
        >>> result = threshold_utility([0, 1, 0, 1, 1, 0], [0.1, 0.8, 0.4, 0.6, 0.9, 0.3],
        ...                            utility=[[0, -1], [-5, 0]], n_draws=500, random_state=0)
        >>> result.plot().get_ylabel()
        'utility per item'
        """
        from .._core import axes_or_new

        table = self.summary(confidence)
        ax = axes_or_new(ax)
        (line,) = ax.step(table.index, table["mean"], where="post", label="expected utility")
        ax.fill_between(table.index, table["low"], table["high"], step="post", alpha=0.25,
                        color=line.get_color(), linewidth=0,
                        label=f"{confidence:.0%} pointwise band")
        ax.axvline(self.best_threshold, color="black", linewidth=1.0,
                   label=f"best threshold {self.best_threshold:.4g}")
        ax.set_xlabel("threshold (score >= threshold is positive)")
        ax.set_ylabel("utility per item")
        ax.legend(fontsize="small")
        return ax


def _check_utility(utility):
    matrix = as_array(utility, "utility")
    if matrix.dtype.kind not in "iuf" or matrix.shape != (2, 2):
        fail("utility", "a 2 x 2 array of real numbers (rows: true negative, positive; "
             "columns: predicted negative, positive)", utility,
             shown=f"shape {matrix.shape} with dtype {matrix.dtype}")
    matrix = matrix.astype(float)
    if not np.isfinite(matrix).all():
        fail("utility", "finite (no NaN or inf)", utility)
    return matrix


@renamed_keyword("n_samples", "n_draws")
def threshold_utility(y_true, y_score, *, utility, pos_label=None, prior=0.5,
                      n_draws=N_DRAWS, max_thresholds=1000, random_state=None,
                      sample_weight=None, groups=None):
    """Posterior expected utility per item of every threshold, under a utility matrix.

    The utility per item at threshold t is the population shares of the four
    confusion cells weighted by `utility`:
    ``U(t) = u_tn TN(t) + u_fp FP(t) + u_fn FN(t) + u_tp TP(t)`` (shares, summing to
    1).  Its posterior mean is exact (each share's mean is
    ``(count + λ) / (N + 4λ)``); the joint draws of the curve give
    ``P(U(a) > U(b))`` for any two thresholds and the probability that each
    threshold is the best.  A cost matrix is a utility matrix with the sign
    changed.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels holding both classes.
    y_score : array-like of shape (n_samples,)
        Finite scores, higher meaning more positive.
    utility : array-like of shape (2, 2)
        Utility of each outcome in scikit-learn's ``confusion_matrix``
        layout: ``[[tn, fp], [fn, tp]]`` (rows true, columns predicted).
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels {0, 1} or {-1, 1}.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of the boundary pseudo-cells.
    n_draws : int, default=10_000
        Draws of the whole curve.
    max_thresholds : int, default=1000
        Most thresholds considered (as in `choose_threshold`).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.
    sample_weight : array-like of shape (n_samples,), default=None
        Counts: an item of weight 2 is two items.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document): the curves are then
        drawn from the clusters' Bayesian bootstrap (each cluster's items
        share one weight per draw, as in `choose_threshold`), the positive
        share with them, and `expected_utility` is the draws' mean.  Where
        every cluster holds one item, the result without `groups`.

    Returns
    -------
    ThresholdUtility

    See Also
    --------
    choose_threshold : A threshold under a constraint on one metric.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import threshold_utility
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> score = rng.normal(size=300) + 2 * y
    >>> result = threshold_utility(y, score, utility=[[0, -1], [-5, 0]], n_draws=2000,
    ...                            random_state=0)
    >>> round(result.best_threshold, 3), round(float(result.expected_utility.max()), 3)
    (0.824, -0.291)
    """
    matrix = _check_utility(utility)
    lam = check_prior(prior)
    max_thresholds = _check_max_thresholds(max_thresholds)
    cells, counts, clustered = _candidate_cells(y_true, y_score, pos_label, sample_weight,
                                                max_thresholds, groups)
    k = cells.levels.shape[0]
    n_draws = check_draws(n_draws, values_per_draw=3 * k + 4)
    rng = check_random_state(random_state)
    (u_tn, u_fp), (u_fn, u_tp) = matrix
    total = counts.tp + counts.fp + counts.fn + counts.tn + 4 * lam
    expected = (u_tp * (counts.tp + lam) + u_fp * (counts.fp + lam) + u_fn * (counts.fn + lam)
                + u_tn * (counts.tn + lam)) / total
    draws = np.empty((n_draws, k))
    row = 0
    for tp, fp, pos, neg, _ in _curve_draws(cells, lam, n_draws, rng, clustered):
        size = tp.shape[0]
        if clustered is not None:
            # The clusters' draws hold both classes in one scale: the positive share
            # is theirs (a cluster's weight moves both of its classes).
            share = pos / (pos + neg)
        else:
            # The positive share of the population is Beta(P + 2λ, N + 2λ) and
            # independent of the shares within each class (a Dirichlet's
            # aggregation and neutrality), so it is drawn on its own: exact
            # whether or not the draws hold the classes in one scale.
            share = rng.beta(cells.positive.sum() + 2 * lam, cells.negative.sum() + 2 * lam,
                             size=(size, 1))
        tpr, fpr = tp / pos, fp / neg
        draws[row:row + size] = (share * (u_tp * tpr + u_fn * (1 - tpr))
                                 + (1 - share) * (u_fp * fpr + u_tn * (1 - fpr)))
        row += size
    if clustered is not None:
        expected = draws.mean(axis=0)
    order = slice(None, None, -1)
    draws, expected = draws[:, order], expected[order]
    thresholds = cells.levels[order].copy()
    best = int(np.argmax(expected))
    prob_best = np.bincount(np.argmax(draws, axis=1), minlength=k) / n_draws
    return ThresholdUtility(thresholds, expected, SampledPosterior(draws),
                            float(thresholds[best]), prob_best, matrix,
                            None if clustered is None else clustered.clusters.n_clusters)

