"""Comparing a metric of two systems: on independent data and on the same items.

`compare_independent` gives ``P(M_A > M_B)`` for systems tested on different
data (Goutte & Gaussier 2005), exact where the registry records an exact
posterior and sampled otherwise; `compare_paired_metric` (and
`paired_metric_from_codes`, from joint codes) samples the joint Dirichlet of
(true label, prediction A, prediction B) so that the comparison respects the
pairing; both return a `MetricComparison`, whose differences are **first
minus second**.  Derivations: the theory pages ``docs/theory/independent.rst``
and ``docs/theory/paired.rst``.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from dataclasses import dataclass, field, replace

import numpy as np
from scipy import special

from .._core import (
    N_DRAWS,
    ComparisonResult,
    beta_greater,
    check_confidence,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    check_rope,
    dirichlet,
    draw_chunks,
    fail,
    frozen_result,
    renamed_attribute,
    renamed_keyword,
    rounded,
    to_host,
)
from .._counting import ConfusionCounts, PairedCounts, joint_codes
from .._metrics import SHARE_OF_RIGHT, check_average, get_metric, label_weights, range_width
from .._posteriors import (
    AffinePosterior,
    BetaPosterior,
    CredibleInterval,
    DifferencePosterior,
    FBetaPosterior,
    JointTable,
    SampledPosterior,
    add_f_score_prior,
    average_values,
    check_target_metric,
    exact_posterior,
    f_score_mass,
    labelled_values,
    missing_labels,
)
from ._paired import PairedComparison, _count
from ._proxy_systems import proxy_differences

__all__ = ["MetricComparison", "compare_independent", "compare_paired_metric"]


# ---------------------------------------------------------------------------
# Comparing a metric: result type shared by the independent and paired cases
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class MetricComparison(ComparisonResult):
    """Posterior probabilities that one system's metric beats another's.

    Returned by `compare_independent` and `compare_paired_metric`.  The
    compared quantity is the metric difference ``M_first - M_second`` (**first
    minus second**).

    Attributes
    ----------
    metric : str
        Registry name of the compared metric.
    paired : bool
        True for the paired (same items) model, False for independent data.
    method : {"exact", "sampled"}
        "exact": quadrature (accurate to about 1e-10 for Beta metrics and
        F1, 1e-7 or better for nested quadrature), or an exact identity;
        "sampled": Monte Carlo with `mc_error`.
    prob_first_better : float or ndarray of shape (K,)
        ``P(M_first - M_second > rope)``.
    prob_equivalent : float or ndarray of shape (K,)
        ``P(|M_first - M_second| <= rope)`` (0 for independent continuous
        posteriors with ``rope = 0``).
    prob_second_better : float or ndarray of shape (K,)
        ``P(M_first - M_second < -rope)``.
    mc_error : float or ndarray of shape (K,)
        Monte Carlo standard error of the probabilities (the largest of the
        three); 0.0 when exact.
    rope : float
        Region of practical equivalence.
    n_draws : int
        Posterior draws used (0 when exact).
    difference : posterior or None
        Posterior of the difference behind `interval`: exact for two
        independent Beta posteriors (`DifferencePosterior`), otherwise a
        `SampledPosterior` of the difference's draws (those of the comparison
        itself when it was sampled; 10 000 draws of the two exact
        posteriors, from the comparison's `random_state`, when it was exact).
    n_items, n_labelled : float or None
        With a second labeller (``proxy=``): the items (their weight) and
        those with a gold label; else None.
    labelled_only : MetricComparison or None
        With ``proxy=``: the comparison of the labelled items alone, over
        the same labels, with the same options and `random_state` (a
        generator's spawned child), to read what the second labeller added
        (compare the widths of the two intervals); computed when first read.
        Else None.

    Examples
    --------
    >>> from skprobeval import ConfusionCounts, compare_independent
    >>> result = compare_independent(ConfusionCounts(3, 2, 0, 0), ConfusionCounts(10, 10, 0, 0),
    ...                              metric="precision")
    >>> result
    MetricComparison(metric='precision', paired=False, method='exact', prob_first_better=0.6522,
    prob_equivalent=0.0, prob_second_better=0.3478, mc_error=0.0, rope=0.0, n_draws=0)
    >>> result.interval(0.9)
    CredibleInterval(low=-0.2815, high=0.424)
    """

    metric: str
    paired: bool
    method: str
    prob_first_better: float | np.ndarray
    prob_equivalent: float | np.ndarray
    prob_second_better: float | np.ndarray
    mc_error: float | np.ndarray
    rope: float
    n_draws: int
    difference: object = field(default=None, repr=False)
    # What `plan_more_items` recomputes the comparison from (None: not plannable).
    _source: object = field(default=None, repr=False)
    #: Clusters the comparison rests on (`groups=`), else None.
    n_clusters: int | None = field(default=None)
    #: Effective number of items with clusters: as many independent items would
    #: give the difference's variance; else None.
    effective_n: object = field(default=None)
    #: Items (their weight) and those with a gold label, with ``proxy=``; else None.
    n_items: float | None = field(default=None)
    n_labelled: float | None = field(default=None)
    # With ``proxy=``: what computes `labelled_only` (a callable), then its result.
    _alone: object = field(default=None, repr=False)

    n_samples = renamed_attribute("n_samples", "n_draws")

    @property
    def labelled_only(self):
        """The comparison of the labelled items alone (``proxy=``), else None."""
        if callable(self._alone):
            object.__setattr__(self, "_alone", self._alone())
        return self._alone

    def interval(self, confidence=0.95):
        """Equal-tailed credible interval of the metric difference (first minus second)."""
        confidence = check_confidence(confidence)
        if self.difference is None:
            shape = np.shape(self.prob_first_better)
            return CredibleInterval(frozen_result(np.zeros(shape)), frozen_result(np.zeros(shape)))
        return self.difference.interval(confidence)

    def _extra_dict(self):
        out = {"metric": self.metric, "paired": self.paired, "method": self.method,
               "n_draws": self.n_draws}
        if self.n_clusters is not None:
            out.update(n_clusters=self.n_clusters, effective_n=self.effective_n)
        if self.n_labelled is not None:
            out.update(n_labelled=self.n_labelled, n_items=self.n_items)
        return out

    def __repr__(self):
        parts = [f"metric={self.metric!r}", f"paired={self.paired}", f"method={self.method!r}"]
        for name in ("prob_first_better", "prob_equivalent", "prob_second_better", "mc_error",
                     "rope"):
            parts.append(f"{name}={rounded(getattr(self, name))}")
        parts.append(f"n_draws={self.n_draws}")
        if self.n_clusters is not None:
            parts += [f"n_clusters={self.n_clusters}", f"effective_n={rounded(self.effective_n)}"]
        if self.n_labelled is not None:
            parts += [f"n_labelled={_count(self.n_labelled)}", f"n_items={_count(self.n_items)}"]
        return f"MetricComparison({', '.join(parts)})"


# ---------------------------------------------------------------------------
# Independent data (Goutte & Gaussier 2005, section 2.3)
# ---------------------------------------------------------------------------

# Metrics with an exact (quadrature) posterior object: P(M_A > M_B) by nested
# quadrature, E_O[F_I(M_O)] over the narrower posterior O on a coarser grid
# (each node costs a quantile of a quadrature-defined cdf).
_NESTED_STEP = 0.25
_NESTED_Z = np.arange(-7.5, 7.5 + _NESTED_STEP / 2, _NESTED_STEP)
_NESTED_WEIGHTS = np.exp(-0.5 * _NESTED_Z * _NESTED_Z)
_NESTED_WEIGHTS /= _NESTED_WEIGHTS.sum()
_NESTED_LOWER = _NESTED_Z <= 0
# Tables per chunk of the nested quadrature (about 40 MB of temporaries).
_TABLES_PER_CHUNK = 512


def _prob_greater(first, second):
    """P(M_1 > M_2) for independent exact posteriors of one metric.

    Beta against Beta, and F1 against F1 (``F1 = 2B/(1+B)`` is a monotone
    map of ``B ~ Beta(tp, fp + fn)``, shared by both), integrate one Beta
    against the other's cdf; affine maps unwrap (a negative scale swaps the
    two); any other pair goes through nested quadrature.
    """
    if isinstance(first, AffinePosterior):
        if first.scale > 0:
            return _prob_greater(first.base, second.base)
        return _prob_greater(second.base, first.base)
    if isinstance(first, FBetaPosterior) and first.beta == 1.0:
        first = BetaPosterior(first.tp, first.fp + first.fn)
        second = BetaPosterior(second.tp, second.fp + second.fn)
    if isinstance(first, BetaPosterior):
        forward = beta_greater(first.a, first.b, second.a, second.b)
        backward = beta_greater(second.a, second.b, first.a, first.b)
        return forward / (forward + backward)    # 1 up to the quadrature error
    # Equal posteriors (tables that differ only in cells the metric ignores,
    # such as TN for F-beta): 1/2 by symmetry, where quadrature near an end of
    # the support would be off by the float64 steps of the nodes.
    same = _same_parameters(first, second)
    out = np.clip(_prob_posterior_greater(first, second), 0.0, 1.0)
    return np.where(same, 0.5, out) if np.any(same) else out


def _same_parameters(first, second):
    """Elementwise: do two posteriors of one kind have equal parameters?"""
    if isinstance(first, DifferencePosterior):
        pairs = [(first.first.a, second.first.a), (first.first.b, second.first.b),
                 (first.second.a, second.second.a), (first.second.b, second.second.b)]
    elif isinstance(first, FBetaPosterior):
        pairs = [(first.tp, second.tp), (first.fp, second.fp), (first.fn, second.fn)]
    else:
        return np.zeros(first.shape, dtype=bool)
    same = np.ones(np.broadcast_shapes(first.shape, second.shape), dtype=bool)
    for left, right in pairs:
        same &= np.asarray(left) == np.asarray(right)
    return same


def _nested(outer, inner, kind, split=None):
    """E_O[inner.cdf(M_O)] (kind "cdf") or E_O[inner.sf(M_O)], O ~ outer.

    The normal-score rule assumes the integrand smooth over the outer's mass.
    A difference of Betas whose terms both have a parameter below 1 at the
    same end holds a near-atom at 0 (both terms near 0, or both near 1), where
    its cdf steps: the expectation is then split at 0, each side on its own
    rule (``E[h 1{M < 0}] + E[h
    1{M >= 0}]``), so that no node straddles the step.  Every element is
    split where one is (`split`: decided by the caller for all the elements
    of which these are a chunk; by default from these).
    """
    if split is None:
        split = isinstance(inner, DifferencePosterior) and bool(np.any(_atom_at_zero(inner)))
    if not split:
        return _nested_piece(outer, inner, kind, 0.0, 1.0)
    below = np.asarray(outer.cdf(0.0), dtype=float)
    return (_nested_piece(outer, inner, kind, 0.0, below)
            + _nested_piece(outer, inner, kind, below, 1.0))


def _atom_at_zero(difference):
    """Where both terms of a difference have a parameter below 1 at the same end."""
    first, second = difference.first, difference.second
    return (((np.asarray(first.a) < 1) & (np.asarray(second.a) < 1))
            | ((np.asarray(first.b) < 1) & (np.asarray(second.b) < 1)))


def _nested_piece(outer, inner, kind, start, stop):
    """The rule over the outer's probabilities between ``start`` and ``stop``.

    ``u`` in (0, 1) maps to the probability ``start + (stop - start) u``:
    quantiles from below for u <= 1/2, from above (``isf``) beyond, so that
    both tails keep their digits.
    """
    z = _NESTED_Z.reshape((-1,) + (1,) * len(outer.shape))
    lower = _NESTED_LOWER
    mass = np.asarray(stop, dtype=float) - start
    x = np.empty((_NESTED_Z.shape[0],) + outer.shape)
    x[lower] = outer.ppf(np.broadcast_to(np.clip(start + mass * special.ndtr(z[lower]), 0, 1),
                                         x[lower].shape))
    x[~lower] = outer.isf(np.broadcast_to(
        np.clip((1.0 - stop) + mass * special.ndtr(-z[~lower]), 0, 1), x[~lower].shape))
    values = np.asarray(getattr(inner, kind)(x))
    return mass * np.tensordot(_NESTED_WEIGHTS, np.nan_to_num(values), axes=(0, 0))


def _prob_posterior_greater(first, second):
    """P(M_1 > M_2) for independent posterior objects of one shape (nested quadrature)."""
    outer_first = np.asarray(first.std()) <= np.asarray(second.std())
    if first.shape == ():
        if outer_first:
            return np.asarray(_nested(first, second, "cdf"))      # E_1[P(M_2 < M_1)]
        return np.asarray(_nested(second, first, "sf"))           # E_2[P(M_1 > M_2)]
    out = np.empty(first.shape)
    for index, flip in ((np.flatnonzero(outer_first), False),
                        (np.flatnonzero(~outer_first), True)):
        if not index.size:
            continue
        outer, inner, kind = (second, first, "sf") if flip else (first, second, "cdf")
        # In chunks of tables (the quadrature's arrays are 61 nodes by the
        # tables, the quantile solves' several times that), each table's value
        # as in one call over all of them, up to the rounding of the BLAS sum
        # over the nodes (which depends on a column's place in its blocks).
        split = isinstance(inner, DifferencePosterior) and bool(
            np.any(_atom_at_zero(inner[index])))
        for start in range(0, index.size, _TABLES_PER_CHUNK):
            chunk = index[start:start + _TABLES_PER_CHUNK]
            out[chunk] = _nested(outer[chunk], inner[chunk], kind, split)
    return out


# Draws per chunk of the independent sampler: at most 2**16 (the budget it
# always had), and at most `_VARIATES_PER_CHUNK` Dirichlet variates of one system
# (4 a table), so that the memory of a chunk is bounded whatever the number of
# tables.  The chunk sizes order the random stream: seeded comparisons of up to
# 16 tables are those of the single budget at any number of draws, up to 104
# tables at the default 10 000 draws; beyond, the chunks (hence the draws)
# depend on the number of tables, deterministically.
_DRAWS_PER_CHUNK = 1 << 16
# Values per chunk of the comparisons' draws (32 MiB of float64).
_VARIATES_PER_CHUNK = 1 << 22


def _sampled_independent(spec, params, counts_a, counts_b, lam, rope, n_draws, rng):
    """Monte Carlo P(M_A - M_B > rope) etc. from two independent Dirichlet posteriors."""
    cells_a = np.stack([counts_a.tp, counts_a.fp, counts_a.fn, counts_a.tn], axis=-1) + lam
    cells_b = np.stack([counts_b.tp, counts_b.fp, counts_b.fn, counts_b.tn], axis=-1) + lam
    above = np.zeros(counts_a.shape)
    below = np.zeros(counts_a.shape)
    defined = np.zeros(counts_a.shape)
    draws = np.empty((n_draws,) + counts_a.shape)
    start = 0
    cells = max(cells_a.size, _VARIATES_PER_CHUNK // _DRAWS_PER_CHUNK)
    for size in draw_chunks(n_draws, cells, variates=_VARIATES_PER_CHUNK):
        da = dirichlet(cells_a, size, rng)
        db = dirichlet(cells_b, size, rng)
        diff = draws[start:start + size]
        with np.errstate(all="ignore"):
            np.subtract(spec.function(*np.moveaxis(da, -1, 0), **params),
                        spec.function(*np.moveaxis(db, -1, 0), **params), out=diff)
        del da, db
        above += (diff > rope).sum(axis=0)
        below += (diff < -rope).sum(axis=0)
        defined += (~np.isnan(diff)).sum(axis=0)
        start += size
    with np.errstate(invalid="ignore"):
        first, second = above / defined, below / defined
    equivalent = np.clip(1.0 - first - second, 0.0, 1.0)
    probs = np.stack([first, equivalent, second])
    error = np.sqrt(probs * (1.0 - probs) / np.maximum(defined, 1)).max(axis=0)
    return first, equivalent, second, error, draws


@renamed_keyword("n_samples", "n_draws")
def compare_independent(counts_a, counts_b, *, metric="f1", prior=0.5, beta=1.0,
                        n_draws=N_DRAWS, random_state=None):
    """Posterior probability that system A's metric beats system B's on independent data.

    Each system's four confusion cells get their own Dirichlet posterior,
    and ``P(M_A > M_B) = int pdf_A(x) cdf_B(x) dx`` (Goutte & Gaussier 2005,
    eq. 12).  The difference is **first (A) minus second (B)**.

    Which metrics are exact is the registry's one table (`MetricSpec.exact`,
    shared with `metric_posterior`):

    - Exact (one-dimensional quadrature, accurate to about 1e-10) for the
      metrics whose posterior is a Beta distribution -- precision, recall,
      specificity, fallout, npv, silence, noise, accuracy, error,
      generality, overlap -- and for F1 (and the E-measure at
      ``beta=1``): ``F1 = 2B/(1+B)`` with ``B ~ Beta(tp + lam, fp + fn + 2 lam)``
      is a monotone map shared by both systems, so
      ``P(F1_A > F1_B) = P(B_A > B_B)``.
    - Exact by nested quadrature (about 1e-7 or better; a few milliseconds
      per table) for F-beta with ``beta != 1`` (and the E-measure),
      informedness, balanced accuracy and markedness:
      ``E_O[F_I(M_O)]`` over quantile nodes of the narrower posterior ``O``,
      with the exact cdf ``F_I`` of the other.
    - Sampled from the two Dirichlet posteriors, with the Monte Carlo
      standard error in ``mc_error``, for the others (MCC, K-measure).
      Draws where a metric is undefined because sampled cells underflowed
      to 0 (possible only with priors far below 1) are left out.

    Two identical tables give exactly 1/2 each way (exchangeable posteriors).

    Parameters
    ----------
    counts_a, counts_b : ConfusionCounts
        Confusion counts of the two systems, of one common shape (0-d, or
        ``(K,)`` for one comparison per label).
    metric : str, default="f1"
        A name from `available_metrics`.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration ``lam`` of each cell.
    beta : float, default=1.0
        F-beta / E-measure weight (for ``metric="fbeta"`` or
        ``"e_measure"``).
    n_draws : int, default=10_000
        Posterior draws per system when sampling.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the sampled route (identical seeds give identical results).

    Returns
    -------
    MetricComparison
        ``prob_first_better = P(M_A > M_B)``; floats for 0-d counts, arrays
        of shape ``(K,)`` for per-label counts.  ``method`` says whether it
        is exact.

    See Also
    --------
    compare_paired_metric : The comparison when both systems ran on the same items.

    References
    ----------
    .. [1] C. Goutte and E. Gaussier, "A probabilistic interpretation of
       precision, recall and F-score, with implication for evaluation",
       ECIR 2005, sections 2.2 and 2.3.

    Examples
    --------
    Goutte & Gaussier (2005), section 2.2: system 2 (TP=3, FP=2) against
    system 1 (TP=10, FP=10) on precision, Jeffreys prior.

    >>> from skprobeval import ConfusionCounts, compare_independent
    >>> system_1 = ConfusionCounts(tp=10, fp=10, fn=0, tn=0)
    >>> system_2 = ConfusionCounts(tp=3, fp=2, fn=0, tn=0)
    >>> round(compare_independent(system_2, system_1, metric="precision").prob_first_better, 4)
    0.6522
    >>> a, b = ConfusionCounts(90, 10, 12, 888), ConfusionCounts(80, 15, 20, 885)
    >>> f1 = compare_independent(a, b)
    >>> f1.method, round(f1.prob_first_better, 4)
    ('exact', 0.969)
    >>> mcc = compare_independent(a, b, metric="mcc", random_state=0)
    >>> mcc.method, round(mcc.prob_first_better, 2), mcc.mc_error < 0.002
    ('sampled', 0.97, True)
    """
    for value, name in ((counts_a, "counts_a"), (counts_b, "counts_b")):
        if not isinstance(value, ConfusionCounts):
            fail(name, "a ConfusionCounts", value, error=TypeError)
    if counts_a.shape != counts_b.shape:
        fail("counts_b", f"of the same shape as `counts_a` {counts_a.shape}", counts_b,
             shown=f"shape {counts_b.shape}")
    spec = get_metric(metric)
    lam = check_prior(prior)
    beta = check_positive(beta, "beta")
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    params = {"beta": beta} if "beta" in spec.params else {}
    # Identical tables give exchangeable posteriors of a continuous metric:
    # exactly 1/2 each way, whatever the quadrature or sampling would say.
    same = ((counts_a.tp == counts_b.tp) & (counts_a.fp == counts_b.fp)
            & (counts_a.fn == counts_b.fn) & (counts_a.tn == counts_b.tn))
    zero = np.zeros(counts_a.shape)

    def result(method, first, equivalent, second, error, n, difference):
        first, second = np.where(same, 0.5, first), np.where(same, 0.5, second)
        equivalent, error = np.where(same, 0.0, equivalent), np.where(same, 0.0, error)
        return MetricComparison(spec.name, False, method, frozen_result(first),
                                frozen_result(equivalent), frozen_result(second),
                                frozen_result(error), 0.0, n, difference)

    posterior_a = exact_posterior(counts_a, spec.name, lam, beta)
    if posterior_a is not None:
        posterior_b = exact_posterior(counts_b, spec.name, lam, beta)
        difference = _difference_posterior(posterior_a, posterior_b, rng)
        if np.all(same):
            return result("exact", zero, zero, zero, zero, 0, difference)
        # Continuous posteriors: P(M_A = M_B) = 0, so one integral gives both.
        first = _prob_greater(posterior_a, posterior_b)
        return result("exact", first, zero, 1.0 - first, zero, 0, difference)
    first, equivalent, second, error, draws = _sampled_independent(
        spec, params, counts_a, counts_b, lam, 0.0, n_draws, rng)
    if np.all(same):
        return result("exact", zero, zero, zero, zero, 0, _draws_posterior(draws, own=True))
    return result("sampled", first, equivalent, second, error, n_draws,
                  _draws_posterior(draws, own=True))


def _difference_posterior(first, second, rng):
    """Posterior of ``first - second`` for independent posteriors: exact for two
    Betas, else from `N_DRAWS` draws of each.

    The draws come in chunks of at most `_VARIATES_PER_CHUNK` values (the
    first posterior's, then the second's, chunk after chunk), written into
    one array: the memory is that array and one chunk's temporaries.  Up to
    419 tables the first chunk holds every draw, the draws of one call of
    each posterior's ``rvs``.
    """
    if isinstance(first, BetaPosterior) and isinstance(second, BetaPosterior):
        return DifferencePosterior(first, second)
    shape = tuple(np.broadcast_shapes(first.shape, second.shape))
    draws = np.empty((N_DRAWS,) + shape)
    start = 0
    for size in draw_chunks(N_DRAWS, math.prod(shape), variates=_VARIATES_PER_CHUNK):
        rows = draws[start:start + size]
        rows[...] = first.rvs((size,) + shape, random_state=rng)
        rows -= second.rvs((size,) + shape, random_state=rng)
        start += size
    return _draws_posterior(draws, own=True)


def _draws_posterior(draws, own=False):
    """`SampledPosterior` of difference draws ``(n, ...)``, draws with an undefined
    (NaN) value dropped; None when none is defined.  With `own` (draws made for
    it, held by nobody else) a float64 array with every draw defined becomes the
    posterior's own, read-only, not copied."""
    draws = np.asarray(draws, dtype=float)
    keep = np.all(np.isfinite(draws.reshape(draws.shape[0], -1)), axis=1)
    if keep.sum() < 2:
        return None
    if own and keep.all() and draws.ndim <= 2 and draws.flags.c_contiguous:
        return SampledPosterior._adopt(draws)
    return SampledPosterior(draws[keep])


# ---------------------------------------------------------------------------
# Paired metric comparison: the joint Dirichlet of (true label, A, B)
# ---------------------------------------------------------------------------


@renamed_keyword("n_samples", "n_draws")
def compare_paired_metric(y_true, y_pred_a, y_pred_b, *, metric="f1", average="binary",
                          labels=None, prior=0.5, rope=0.0, beta=1.0, pos_label=1,
                          n_draws=N_DRAWS, random_state=None, sample_weight=None, groups=None,
                          proxy=None):
    """Paired comparison of a metric (F1, macro F1, ...) of two systems on the same items.

    Every item falls into one cell of the table (true label, prediction of
    A, prediction of B): 8 cells for a binary table, K x K x K for K
    classes.  A Dirichlet posterior over these cells gives both systems'
    confusion tables jointly, so ``P(M_A - M_B > rope)`` respects the
    pairing: a small but consistent advantage counts for more than the same
    difference between independent samples.  The difference is **first (A)
    minus second (B)**.  Sampled (seeded), with the Monte Carlo standard
    error in ``mc_error``.

    The prior (λ = `prior`, d = 2λ/K per label) is spread so that each
    system's own table gets exactly its one-system prior, and every "who is
    right" outcome has mass: d/2 on each cell where both are right;
    d / (2(K - 1)) on each cell where
    only A is right, only B is right, or both give the same wrong label;
    none where both are wrong with different labels (the user guide's page
    on comparisons derives it).  For a binary table all 8
    cells get λ/2.  Label averages of multiclass F-scores add to each
    label's TP a Gamma(λ - d) mass shared by both systems (λ on TP, as
    `fbeta_posterior`).  Multilabel indicator targets: one 8-cell table per
    column, independent of the others.

    Two systems that agree on every item are the same classifier on these
    data: their metric difference is identically 0, and the result is
    exactly ``prob_equivalent = 1`` for any ``rope >= 0`` (``method="exact"``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix.
    y_pred_a, y_pred_b : array-like of the same shape as `y_true`
        Predictions of the first and second system.
    metric : str, default="f1"
        A name from `available_metrics`.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        As in `sklearn.metrics.f1_score`: ``"binary"`` compares the table of
        `pos_label`; ``"micro"`` the pooled tables (for single-label
        multiclass data and every label: the share of items right);
        ``"macro"`` the mean over labels; ``"weighted"`` the mean weighted by
        the observed support; ``"powers"`` (informedness and markedness
        only) Powers' weighting by predicted (true) share; ``None`` one
        comparison per label.
    labels : array-like, default=None
        Labels to average over, in order (they must occur in the data); by
        default every label (the column indices for multilabel data).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        λ of each system's table (see above).
    rope : float, default=0.0
        Region of practical equivalence for the metric difference: in [0, 1), or
        [0, 2) for informedness, markedness and MCC (range [-1, 1]).
    beta : float, default=1.0
        F-beta / E-measure weight (for ``metric="fbeta"`` or ``"e_measure"``).
    pos_label : int, float, bool or str, default=1
        The positive class of ``average="binary"``.
    n_draws : int, default=10_000
        Posterior draws.
    random_state : None, int or numpy.random.Generator, default=None
        Seed (identical seeds give identical results).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; they act as counts.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        joint table is then drawn by the Bayesian bootstrap of the clusters,
        the same cluster weights for both systems, for every metric
        (accuracy included), and the result carries `n_clusters` and
        `effective_n`.  Where every cluster holds one item, the result
        without `groups`.  `sample_weight` weighs items within clusters.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label: the (gold, A, B) table is then drawn from the items'
        (proxy, A, B) shares and the gold label's shares within each from
        the labelled items (see `metric_posterior`); sampled, for every
        metric.  Single-label targets; not with `groups`.  The result then
        carries `n_labelled`, `n_items` and `labelled_only` (the comparison
        of the labelled items alone).

    Returns
    -------
    MetricComparison
        With ``paired=True``; probabilities are floats, or arrays of shape
        ``(n_labels,)`` for ``average=None``.

    See Also
    --------
    compare_paired : Which system is right more often (exact).
    compare_independent : The comparison for systems tested on different data.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import compare_paired_metric
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, size=400)
    >>> y_a = np.where(rng.random(400) < 0.85, y_true, 1 - y_true)
    >>> y_b = np.where(rng.random(400) < 0.82, y_true, 1 - y_true)
    >>> result = compare_paired_metric(y_true, y_a, y_b, metric="f1", random_state=0)
    >>> result.method, round(result.prob_first_better, 2)
    ('sampled', 0.9)
    >>> compare_paired_metric(y_true, y_a, y_a, rope=0.01).prob_equivalent
    1.0

    Three classes, macro F1:

    >>> y_true = rng.integers(0, 3, size=300)
    >>> y_a = np.where(rng.random(300) < 0.8, y_true, rng.integers(0, 3, size=300))
    >>> y_b = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 3, size=300))
    >>> result = compare_paired_metric(y_true, y_a, y_b, average="macro", n_draws=20_000,
    ...                                random_state=0)
    >>> round(result.prob_first_better, 2), result.mc_error < 0.005
    (0.84, True)
    """
    spec = get_metric(metric)
    average = check_average(average, spec.name)
    lam = check_prior(prior)
    rope = check_rope(rope, width=range_width(spec.name))
    beta = check_positive(beta, "beta")
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    if proxy is not None:
        if groups is not None:
            fail("proxy", "None with `groups` (items in clusters with a second labeller are "
                 "not modelled yet)", "an array", error=TypeError)
        values, y_pred_a, y_pred_b = (to_host(v, name) for v, name in (
            (y_true, "y_true"), (y_pred_a, "y_pred_a"), (y_pred_b, "y_pred_b")))
        sample_weight = to_host(sample_weight, "sample_weight")
        table, labelled, differences = proxy_differences(
            values, y_pred_a, y_pred_b, to_host(proxy, "proxy"), spec=spec,
            average=average, labels=labels, lam=lam, beta=beta, pos_label=pos_label,
            sample_weight=sample_weight, n_draws=n_draws, rng=rng)
        result = sampled_comparison(spec.name, differences, rope, n_draws, keep_difference=True)
        gold, _ = missing_labels(values)
        gold = labelled_values(gold, ~labelled)
        kept = [np.asarray(y_pred_a)[labelled], np.asarray(y_pred_b)[labelled]]
        weight = None if sample_weight is None else np.asarray(sample_weight)[labelled]
        joint = table.joint
        # The same labels as the proxy's table averages over, present or not.
        same = labels if labels is not None or joint.kind != "multiclass" \
            else joint.classes[:joint.n_requested]
        seed = random_state.spawn(1)[0] if isinstance(random_state, np.random.Generator) \
            else random_state

        def alone():
            codes = joint_codes(gold, kept, average=average, labels=same, pos_label=pos_label,
                                sample_weight=weight, labels_present=False,
                                names=["y_true", "y_pred_a", "y_pred_b"])
            return paired_metric_from_codes(codes, spec, average=average, lam=lam, rope=rope,
                                            beta=beta, n_draws=n_draws,
                                            rng=check_random_state(seed))

        return replace(result, n_items=table.n_items, n_labelled=table.n_labelled,
                       _alone=alone)
    joint = joint_codes(y_true, [y_pred_a, y_pred_b], average=average, labels=labels,
                        pos_label=pos_label, sample_weight=sample_weight, labels_present=True,
                        names=["y_true", "y_pred_a", "y_pred_b"], groups=groups)
    return paired_metric_from_codes(joint, spec, average=average, lam=lam, rope=rope, beta=beta,
                                    n_draws=n_draws, rng=rng)


class _NotKept:
    """Placeholder difference of a comparison made for its probabilities only."""

    __slots__ = ()

    def interval(self, confidence=0.95):
        raise ValueError("this comparison kept no draws of the difference (built for a "
                         "report's probabilities); call compare_paired_metric for its interval")


_NOT_KEPT = _NotKept()


class _Negated:
    """The interval of minus a difference (error = 1 - accuracy)."""

    __slots__ = ("_of",)

    def __init__(self, of):
        self._of = of

    def interval(self, confidence=0.95):
        low, high = self._of.interval(confidence)
        return CredibleInterval(-high, -low)


def _exact_share_comparison(table, name, lam, rope):
    # compare_paired's model of who is right alone, with lambda on each of its
    # three cells: one answer for paired accuracy whichever function is asked.
    _, seen = table.right_alone()
    exact = PairedComparison(PairedCounts(*seen), prior=lam, rope=rope)
    first, equivalent, second = (exact.prob_first_better, exact.prob_equivalent,
                                 exact.prob_second_better)
    difference = exact
    if name == "error":         # error difference = minus the accuracy difference
        first, second, difference = second, first, _Negated(exact)
    return MetricComparison(name, True, "exact", first, equivalent, second, 0.0, rope, 0,
                            difference, exact)


def paired_metric_from_codes(joint, spec, *, average, lam, rope, beta, n_draws, rng,
                             masks=None, keep_difference=True):
    """`compare_paired_metric` on validated, encoded labels (truth and two systems).

    ``masks``: for each system, the requested labels its average runs over
    (scikit-learn's default label set of that system: the labels of the
    truth and of its own predictions); None for all of them.
    ``keep_difference=False`` (the reports, which read only the
    probabilities) skips keeping and sorting the difference's draws; the
    result's `interval` is then unavailable.
    """
    check_target_metric(joint, spec.name, average)
    if joint.clusters is not None and joint.clusters.singletons:
        joint = joint.with_clusters(None)      # one item a cluster: exactly as without
    clustered = joint.clusters is not None
    table = JointTable(joint, lam)
    shape = (joint.n_requested,) if average is None and joint.kind != "binary" else ()
    combine = "binary" if joint.kind == "binary" else average
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    share = every and spec.name in SHARE_OF_RIGHT | {"error"}
    if not clustered and ((joint.kind == "binary" and spec.name in ("accuracy", "error"))
                          or (share and combine == "micro")):
        # The share of items right (or wrong): the exact paired comparison of
        # who is right alone (before the shortcut below: identical predictions
        # give 1/2 each way there, as compare_paired says).  With clusters it is
        # sampled as every other metric.
        return _exact_share_comparison(table, spec.name, lam, rope)
    params = {"beta": beta} if "beta" in spec.params else {}
    if masks is None or combine in ("binary", None) or (share and combine == "micro"):
        # The share of items right does not depend on the label set.
        masks = (slice(None), slice(None))
    weights = [label_weights(joint.counts(system)[mask], combine, spec.name)
               if combine not in ("binary", None) else None
               for system, mask in zip((1, 2), masks)]
    # Label averages of F-scores take their own prior on TP (multiclass tables).
    extra = f_score_mass(joint.kind, joint.n_classes, spec.name, combine, lam)
    source = JointSource(table, spec, params, combine, weights, masks, share, extra)
    # A clustered comparison is not planned (more clusters, not items, would be what
    # to plan); it says how many clusters it rests on and its effective items.
    plannable = source if source.plannable and not clustered else None
    clusters = ((table.clusters.n_clusters, frozen_result(np.full(shape, _n_items(joint))))
                if clustered else (None, None))
    if not table.any_difference:
        # No item where the predictions differ: delta is identically 0.
        return MetricComparison(spec.name, True, "exact", frozen_result(np.zeros(shape)),
                                frozen_result(np.ones(shape)), frozen_result(np.zeros(shape)),
                                frozen_result(np.zeros(shape)), rope, 0, None, plannable,
                                *clusters)
    if not clustered:
        return sampled_comparison(spec.name, source.differences(table, n_draws, rng), rope,
                                  n_draws, keep_difference=keep_difference, source=plannable)
    chunks = list(source.differences(table, n_draws, rng))
    result = sampled_comparison(spec.name, iter(chunks), rope, n_draws,
                                keep_difference=keep_difference)
    # The same difference without the clusters: the variance the items alone give.
    plain_table = JointTable(joint.with_clusters(None), lam)
    plain = np.concatenate(list(JointSource(plain_table, spec, params, combine, weights, masks,
                                            share, extra).differences(plain_table, n_draws,
                                                                      rng)))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.nanvar(plain, axis=0, ddof=1) / np.nanvar(np.concatenate(chunks), axis=0,
                                                              ddof=1)
    n_items = _n_items(joint)
    effective = np.where(np.isfinite(ratio), n_items * ratio, n_items)
    return dataclasses.replace(result, n_clusters=clusters[0],
                               effective_n=frozen_result(effective))


def _n_items(joint):
    """Items counted (their weights)."""
    return float(np.sum(joint.weight)) if joint.weight is not None \
        else float(joint.codes[0].shape[0])


def sampled_comparison(name, chunks, rope, n_draws, *, keep_difference=False, source=None):
    """The paired `MetricComparison` of `name` from chunks of draws of its difference.

    Draws where the difference is undefined (NaN) are left out of the
    probabilities.  ``keep_difference=False`` keeps no draws (the result's
    `interval` is then unavailable).
    """
    above = below = defined = 0
    draws = []
    for diff in chunks:
        above = above + (diff > rope).sum(axis=0)
        below = below + (diff < -rope).sum(axis=0)
        defined = defined + (~np.isnan(diff)).sum(axis=0)
        if keep_difference:
            draws.append(diff)
    with np.errstate(invalid="ignore", divide="ignore"):
        first = np.asarray(above / defined, dtype=float)
        second = np.asarray(below / defined, dtype=float)
        equivalent = np.asarray((defined - above - below) / defined, dtype=float)
    error = np.sqrt(np.stack([first, equivalent, second]) * (1.0 - np.stack(
        [first, equivalent, second])) / np.maximum(defined, 1)).max(axis=0)
    return MetricComparison(name, True, "sampled", frozen_result(first),
                            frozen_result(equivalent), frozen_result(second),
                            frozen_result(error), rope, n_draws,
                            _draws_posterior(np.concatenate(draws)) if keep_difference
                            else _NOT_KEPT, source)


class JointSource:
    """How draws of a joint table become a paired metric difference.

    Kept by a `MetricComparison` so that the comparison can be recomputed on
    the same table with more items counted (``table.alpha`` plus new counts):
    the one path of `paired_metric_from_codes`.
    """

    __slots__ = ("_table", "_spec", "_params", "_combine", "_weights", "_masks", "_share",
                 "_extra")

    def __init__(self, table, spec, params, combine, weights, masks, share, extra):
        self._table, self._spec, self._params = table, spec, params
        self._combine, self._weights, self._masks, self._share = combine, weights, masks, share
        self._extra = extra

    @property
    def plannable(self):
        """Whether the table's cells are all in ``alpha`` (dense multiclass or binary)."""
        table = self._table
        return table.kind != "multilabel" and table._kinds is None and np.ndim(
            self._table.alpha) == 1

    @property
    def alpha(self):
        """Dirichlet parameters of the table's cells (counts plus prior)."""
        return self._table.alpha

    @property
    def n_items(self):
        """Items counted (their weights)."""
        return float(np.sum(self._table._observed_counts))

    def with_counts(self, counts):
        """A copy of the table with `counts` added to its cells."""
        table = copy.copy(self._table)
        table.alpha = self._table.alpha + counts
        return table

    def differences(self, table, n_draws, rng):
        """Yield chunks of draws of ``M_first - M_second`` from `table`."""
        spec, params, combine, share = self._spec, self._params, self._combine, self._share
        for cells_a, cells_b in table.sample(n_draws, rng):
            cells_a, cells_b = add_f_score_prior([cells_a, cells_b], self._extra, table, rng)
            if combine == "binary":
                values = [np.asarray(spec.function(*(c[:, 0] for c in cells), **params))
                          for cells in (cells_a, cells_b)]
            else:
                values = [average_values(spec.function, params,
                                         tuple(c[:, mask] for c in cells), combine, w,
                                         share_of_right=share)
                          for cells, w, mask in zip((cells_a, cells_b), self._weights,
                                                    self._masks)]
            if spec.name == "error" and share and combine == "micro":
                values = [1.0 - v for v in values]
            with np.errstate(invalid="ignore"):
                difference = values[0] - values[1]
            yield difference
