"""Joint Dirichlet models of multiclass and multilabel predictions.

The K x K table of one system (true label x prediction) and the (true label,
prediction A, prediction B) table of two, with the priors that give every
label's one-vs-rest cells and every pair of systems the package's own priors
(total mass 4λ whatever K), multilabel targets as independent binary tables,
and the samplers of all of them: dense tables draw every cell, tables whose
prior spans more than `_SPARSE_PRIOR_CELLS` cells keep only the cells holding
data and draw the prior's share by truncated stick-breaking, in chunks, so
memory grows with the observed cells.  Private; the public entry points are in
``_bayes.py`` and the ``_compare`` stage.  Derivations: the theory pages
``docs/theory/multiclass_prior.rst`` and ``docs/theory/paired.rst``; the
memory model: ``docs/performance.rst``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from .._core import TINY as _TINY
from .._core import (
    ClusterTableDraws,
    cluster_concentration,
    dirichlet,
    dirichlet_scaled,
    draw_chunks,
    log_gamma,
    weighted_mean,
)

__all__ = [
    "JointTable",
    "F_SCORE_METRICS",
    "add_f_score_prior",
    "average_values",
    "dirichlet",
    "f_score_extra",
    "f_score_mass",
    "joint_prior",
    "label_concentration",
    "label_prior",
    "takes_f_score_prior",
]

# Tables whose prior spans more cells than this (K >= 23 for one system, K >= 14
# for two) draw the prior by stick-breaking over the observed cells only (see the
# module docstring); smaller ones draw every cell, which is faster there.  CPU for
# 10 000 draws of one system's table of 2000 items, dense against sparse: 0.03 s
# and 0.12 s at K = 10, 0.16 s and 0.11 s at K = 20, 9.7 s and 0.13 s at K = 128.
_SPARSE_PRIOR_CELLS = 1 << 9
# Sparse draws come in chunks of a quarter of `draw_chunks`' variates: the cells x
# draws block then stays in cache between drawing and summing (about 15% faster
# at K = 1000).
_SPARSE_CHUNK_SHARE = 4

# Stick-breaking stops once the unallocated share of a kind's prior mass is below
# the smallest normal float (the dense route floors cells there)...
_LOG_TINY = float(np.log(_TINY))
# ... or, when the cells touching per-label sums with less than `_FEW` observed
# items are few, below 2^-100: the rest then only moves sums holding data, by less
# than their last bit unless such a sum's Gamma(>= 1) variate is below 2^-47 (odds
# 1e-14), and those few cells get it exactly (see `_plan`).  10 times fewer sticks.
LOG_COARSE = -100.0 * math.log(2.0)
_FEW = 1.0


def sparse_prior(size, n_systems):
    """Whether a multiclass table of `size` classes and 1 or 2 systems keeps only the
    cells holding data (its prior spans more than `_SPARSE_PRIOR_CELLS` cells)."""
    n_prior_cells = size * size if n_systems == 1 else 3 * size * size - 2 * size
    return n_prior_cells > _SPARSE_PRIOR_CELLS


def label_concentration(size, lam):
    """Prior mass of each label's TP cell (and of its FP and FN groups) in the K x K table.

    The binary table's total mass 4λ, spread over K labels: 2λ / K (λ for K = 2),
    so the table's prior does not grow with the number of classes.
    """
    return lam if size <= 2 else 2.0 * lam / size


def label_prior(size, lam, *, f_score=False):
    """Prior concentrations of one label's (TP, FP, FN, TN) cells in the K x K table.

    By the aggregation property a label's one-vs-rest table is Dirichlet with
    the summed prior of the cells it gathers: d = 2λ/K on TP (its diagonal
    cell), d on FP (its column's K - 1 other cells, d / (K - 1) each), d on
    FN (its row's) and the rest of the total 4λ, 4λ - 3d, on TN.  λ on every
    cell for K = 2 (the binary table); one class has only its TP cell.  With
    `f_score`, the prior of a label's F-score: λ on TP (`f_score_extra`).
    """
    if size < 2:
        return np.array([lam, 0.0, 0.0, 0.0])
    per_label = label_concentration(size, lam)
    tp = per_label + (f_score_extra(size, lam) if f_score else 0.0)
    return np.array([tp, per_label, per_label, 4 * lam - 3 * per_label])


# The metrics that take `f_score_extra` (functions of one label's F-beta).
F_SCORE_METRICS = frozenset({"f1", "fbeta", "e_measure"})


def f_score_extra(size, lam):
    """Prior mass an F-score adds to each label's TP beyond the K x K table's d = 2λ/K.

    A label's F-score, ``(1 + β²) TP / ((1 + β²) TP + β² FN + FP)``, takes λ
    on its TP, as the binary F-score does (Goutte & Gaussier 2005), while FP
    and FN keep the table's d: λ - d, 0 for K <= 2.  The table's errors then
    keep a total mass that does not grow with K, and each label's F-score is
    not pulled down by the left skew of a ratio of few counts (macro F1 of
    labels with ten items each: the theory page ``multiclass_prior``).
    TN-free, so it leaves every other metric and the share of items right
    as the table gives them.
    """
    return 0.0 if size <= 2 else lam - label_concentration(size, lam)


def takes_f_score_prior(kind, metric, average):
    """Whether `metric` averaged by `average` over a `kind` table takes `f_score_extra`:
    F-scores of single-label multiclass data, label by label (not micro)."""
    return kind == "multiclass" and metric in F_SCORE_METRICS and average not in (
        "micro", "binary")


def f_score_mass(kind, size, metric, average, lam):
    """`f_score_extra` where `takes_f_score_prior`, else 0."""
    return f_score_extra(size, lam) if takes_f_score_prior(kind, metric, average) else 0.0


def add_f_score_prior(systems, extra, table, rng):
    """Every system's per-label cells with `f_score_extra` added to each TP.

    `systems` is a list of ``(tp, fp, fn, tn)`` arrays of shape (draws, R),
    shares of one draw of `table`.  Each draw and label gets a Gamma(`extra`)
    mass, the same for every system (the mass of the cell where all are
    right), on the scale of a Gamma total of the table with its posterior's
    total mass (``table.concentration``): the shares of a Dirichlet draw are
    independent of its Gamma total, so a fresh total gives the exact joint
    law of the augmented TP.  Only the TP arrays change (an F-score does not
    read TN).
    """
    if extra <= 0.0:
        return systems
    tp = systems[0][0]
    mass = rng.standard_gamma(extra, size=tp.shape)
    mass /= rng.standard_gamma(table.concentration, size=(tp.shape[0], 1))
    return [(cells[0] + mass, *cells[1:]) for cells in systems]


def joint_prior(size, lam):
    """Concentrations of the one-system K x K prior: d = 2λ/K on the diagonal,
    d / (K - 1) elsewhere (total mass 4λ whatever K)."""
    per_label = label_concentration(size, lam)
    prior = np.full((size, size), per_label / max(size - 1, 1))
    np.fill_diagonal(prior, per_label)
    return prior


def _paired_prior(size, lam):
    """Cell codes ``(t K + a) K + b`` and concentrations of the two-system prior."""
    per_label = label_concentration(size, lam)
    off = per_label / (2 * max(size - 1, 1))
    t, a, b = np.meshgrid(np.arange(size), np.arange(size), np.arange(size), indexing="ij")
    t, a, b = t.ravel(), a.ravel(), b.ravel()
    alpha = np.where((a == t) & (b == t), per_label / 2,
                     np.where((a == t) | (b == t) | (a == b), off, 0.0))
    keep = alpha > 0
    return (t[keep] * size + a[keep]) * size + b[keep], alpha[keep]


# Tables of at most this many possible cells (or twice the items) are counted with
# one bincount; larger ones sort the observed codes.
_DIRECT_CELLS = 1 << 20
_DIRECT_PER_ITEM = 2


def _digits(codes, size, n_digits):
    """Split cell codes into their base-`size` digits, most significant first."""
    out = []
    for _ in range(n_digits):
        out.append(codes % size)
        codes = codes // size
    return out[::-1]


class JointTable:
    """The Dirichlet posterior of a truth and one or two systems' predictions.

    Built from `skprobeval._counting._counts.JointCodes`; `sample` yields, chunk by
    chunk, every system's per-label ``(tp, fp, fn, tn)`` cell probabilities
    of the requested labels (arrays of shape ``(draws, R)``).
    """

    def __init__(self, joint, lam):
        self.kind = joint.kind
        self.n_systems = len(joint.codes) - 1
        self.n_requested = joint.n_requested
        self.labels = joint.classes[:joint.n_requested]
        # Items in clusters (`groups=`): the clusters' Bayesian bootstrap draws the
        # cells (`ClusterTableDraws`); None where every item is its own cluster.
        clusters = getattr(joint, "clusters", None)
        self.clusters = None if clusters is None or clusters.singletons else clusters
        self._cluster_draws = None
        if self.kind == "multilabel":
            self._init_multilabel(joint, lam)
        else:
            self._init_multiclass(joint, lam)

    def _attach_clusters(self, code, cells, prior, weight, repeat=1):
        """The cluster x cell counts of the items (`code`: each item's cell code,
        `cells`: the table's cell codes) and their draws; `repeat` codes per item."""
        clusters = self.clusters
        of_item = np.repeat(clusters.codes, repeat) if repeat > 1 else clusters.codes
        order = np.argsort(cells, kind="stable")
        where = np.minimum(np.searchsorted(cells[order], code), cells.shape[0] - 1)
        position = order[where]
        held = cells[position] == code
        if weight is not None:
            held &= weight > 0
        data = np.ones(int(held.sum())) if weight is None else weight[held]
        counts = sp.csr_matrix((data, (of_item[held], position[held])),
                               shape=(clusters.n_clusters, cells.shape[0]))
        counts.sum_duplicates()
        self._cluster_draws = ClusterTableDraws(
            counts, prior, cluster_concentration(clusters.n_clusters))

    # -- construction -----------------------------------------------------

    def _init_multiclass(self, joint, lam):
        size = joint.classes.shape[0] if self.kind == "multiclass" else 2
        self.size = size
        n_digits = self.n_systems + 1
        code = np.zeros(joint.codes[0].shape[0], dtype=np.int64)
        for digit in joint.codes:
            code = code * size + digit
        n_codes = size ** n_digits
        if n_codes <= max(_DIRECT_CELLS, _DIRECT_PER_ITEM * code.shape[0]):
            # Few possible cells: count them directly, in O(n) (no sort).
            seen = np.bincount(code, minlength=n_codes)
            observed = np.flatnonzero(seen)
            counts = (seen if joint.weight is None else
                      np.bincount(code, weights=joint.weight, minlength=n_codes))[observed]
        else:
            observed, inverse = np.unique(code, return_inverse=True)
            counts = np.bincount(inverse, weights=joint.weight, minlength=observed.shape[0])
        self._kinds = None
        sparse_kinds = self.kind == "multiclass" and sparse_prior(size, self.n_systems)
        if sparse_kinds:
            # Only the cells holding data; the prior comes from `_kinds` at draw time.
            keep = counts > 0
            cells, observed_counts = observed[keep], counts[keep].astype(float)
            alpha = observed_counts + _cell_prior(_digits(cells, size, n_digits), size, lam)
        else:
            if self.n_systems == 1:
                prior_codes = np.arange(size * size)
                prior_alpha = joint_prior(size, lam).ravel()
            else:
                prior_codes, prior_alpha = _paired_prior(size, lam)
            cells, position = np.unique(np.concatenate([prior_codes, observed]),
                                        return_inverse=True)
            n_prior = prior_codes.shape[0]
            alpha = np.zeros(cells.shape[0])
            observed_counts = np.zeros(cells.shape[0])
            np.add.at(alpha, position[:n_prior], prior_alpha)
            np.add.at(observed_counts, position[n_prior:], counts)
            alpha += observed_counts
            keep = alpha > 0       # cells seen only with weight 0 and no prior mass
            cells, alpha, observed_counts = cells[keep], alpha[keep], observed_counts[keep]
        # The cells are drawn in an order set by the data, not by the labels' names:
        # renaming the classes then gives each cell the same variates.  (A binary
        # table's codes are positive, negative: set by `pos_label`, not by names.)
        unordered = _digits(cells, size, n_digits)
        rank = (np.arange(size) if self.kind == "binary" else
                _label_ranks(unordered, observed_counts, size, self.n_requested))
        canonical = np.zeros(cells.shape[0], dtype=np.int64)
        for digit in unordered:
            canonical = canonical * size + rank[digit]
        order = np.argsort(canonical)
        cells, self.alpha, self._observed_counts = (
            cells[order], alpha[order], observed_counts[order])
        self.canonical = np.argsort(rank[:self.n_requested])
        digits = _digits(cells, size, n_digits)
        truth = digits[0]
        rows = np.arange(cells.shape[0])
        ones = np.ones(cells.shape[0])

        def indicator(columns, mask=None):
            data = ones if mask is None else mask.astype(float)
            return sp.csr_matrix((data, (rows, columns)), shape=(cells.shape[0], size))

        # One map of every cell to the per-label sums (true, then per system
        # predicted and right): a dense matrix product for small tables, sparse
        # for large ones.
        n_cols = size * (1 + 2 * self.n_systems)
        if not sparse_kinds and cells.shape[0] * n_cols <= 1 << 22:
            # Small: the dense map directly (a cell's 1 in each block it adds to).
            self._map = np.zeros((cells.shape[0], n_cols))
            self._map[rows, truth] = 1.0
            for system, digit in enumerate(digits[1:]):
                start = size * (1 + 2 * system)
                self._map[rows, start + digit] = 1.0
                right = digit == truth
                self._map[rows[right], start + size + truth[right]] = 1.0
        else:
            maps = [indicator(truth)]
            for digit in digits[1:]:
                maps += [indicator(digit), indicator(truth, digit == truth)]
            combined = sp.hstack(maps, format="csr")
            self._map = combined.toarray() if combined.shape[0] * combined.shape[1] <= 1 << 22 \
                else combined
        self.differ = None if self.n_systems == 1 else digits[1] != digits[2]
        self._cell_digits = digits
        if self.clusters is not None:
            self._attach_clusters(code, cells, np.zeros(cells.shape[0]) if sparse_kinds
                                  else self.alpha - self._observed_counts, joint.weight)
        if sparse_kinds:
            self._kinds = _prior_kinds(size, lam, self.n_systems)
            # Per-label sums whose observed cells hold less than `_FEW` items (none,
            # or a few light ones) can be tiny: there the prior must be exact down
            # to the smallest float.
            held = np.asarray(self._observed_counts @ combined).ravel()
            few = (held < _FEW).reshape(-1, size)
            self._plans = [_plan(kind, few, np.argsort(rank), size) for kind in self._kinds]
            # Transposed maps (per-label sums x cells) of the cells of one item and of
            # the others, for draws laid out cells x draws.
            by_count = self._observed_counts == 1
            self._by_count = np.flatnonzero(by_count), np.flatnonzero(~by_count)
            transposed = self._map_all = combined.T.tocsr()
            self._map_unit = transposed[:, self._by_count[0]]
            self._map_several = transposed[:, self._by_count[1]]
            # Stick atoms are drawn as ranks and read as labels through this, so
            # that renaming the classes gives each cell the same variates.
            self._by_rank = np.argsort(rank)

    @property
    def concentration(self):
        """The posterior's total Dirichlet mass (observed counts and prior)."""
        if self._kinds is None:
            return float(self.alpha.sum())
        return float(self._observed_counts.sum()
                     + sum(kind.concentration for kind in self._kinds))

    def right_alone(self):
        """Dirichlet masses (posterior, observed) of three aggregated cells of a
        two-system table: the first system right and the second wrong, the
        reverse, and the rest (by the aggregation property, the posterior of
        the share of items right of each system)."""
        truth, first, second = self._cell_digits
        a_alone = (first == truth) & (second != truth)
        b_alone = (second == truth) & (first != truth)
        masks = (a_alone, b_alone, ~(a_alone | b_alone))
        seen = tuple(float(self._observed_counts[m].sum()) for m in masks)
        if self._kinds is None:
            return tuple(float(self.alpha[m].sum()) for m in masks), seen
        # Sparse table: the observed counts plus each kind's whole prior mass (all of
        # a kind's cells fall in one of the three groups).
        prior = [0.0, 0.0, 0.0]
        for kind in self._kinds:
            prior[kind.group] += kind.concentration
        return tuple(s + p for s, p in zip(seen, prior)), seen

    def _init_multilabel(self, joint, lam):
        codes = np.zeros(joint.codes[0].shape, dtype=np.intp)
        for digit in joint.codes:
            codes = codes * 2 + digit.astype(np.intp)
        n_cells = 2 ** (self.n_systems + 1)
        n_labels = codes.shape[1]
        flat = codes + n_cells * np.arange(n_labels)
        weight = None if joint.weight is None else np.repeat(joint.weight, n_labels)
        counts = np.bincount(flat.ravel(), weights=weight,
                             minlength=n_cells * n_labels).reshape(n_labels, n_cells)
        prior = lam if self.n_systems == 1 else lam / 2
        self.alpha = counts[:self.n_requested] + prior
        self._observed_counts = counts[:self.n_requested]
        if self.clusters is not None:
            # One table per requested column, its cells side by side: (label, cell).
            n_req = self.n_requested
            self._n_cells = n_cells
            self._attach_clusters(flat[:, :n_req].ravel(), np.arange(n_req * n_cells),
                                  np.full(n_req * n_cells, float(prior)),
                                  None if weight is None else weight.reshape(-1, n_labels)[
                                      :, :n_req].ravel(), repeat=n_req)
        # Columns are independent tables, drawn in the order of their counts (equal
        # counts are exchangeable): renaming the labels gives each the same variates.
        self.canonical = np.lexsort(self.alpha.T[::-1])
        # Cell index bits: truth is the most significant, then A, then B (1 = positive).
        index = np.arange(n_cells)
        bits = _digits(index, 2, self.n_systems + 1)
        self._ml_truth = bits[0] == 1
        self._ml_pred = [b == 1 for b in bits[1:]]
        self.differ = None if self.n_systems == 1 else bits[1] != bits[2]

    # -- queries ----------------------------------------------------------

    @property
    def any_difference(self):
        """True when some item with positive weight gets different predictions."""
        if self.differ is None:
            return True
        if self.kind == "multilabel":
            return bool(self._observed_counts[:, self.differ].sum() > 0)
        return bool(self._observed_counts[self.differ].sum() > 0)

    def sample(self, n_draws, rng, canonical=False):
        """Yield ``[(tp, fp, fn, tn) per system]`` for chunks of posterior draws.

        Each array is (draws, labels): the requested labels in their order, or
        with ``canonical`` in the table's canonical order (`canonical`, the
        order of sums that renaming the labels keeps): a dense table reads its
        per-label sums in that order directly.
        """
        if canonical and self.n_systems == 1 and self.kind != "multilabel" \
                and self._kinds is None and self._cluster_draws is not None:
            for cells in self._cluster_draws.chunks(n_draws, rng):
                yield [self._grid_cells(cells, None)]
            return
        if canonical and self.n_systems == 1 and self.kind != "multilabel" \
                and self._kinds is None:
            # Every cell of the K x K table, in canonical order: a grid whose rows
            # and columns are the labels in canonical order (`_grid_cells`).
            for chunk in draw_chunks(n_draws, self.alpha.size):
                yield [self._grid_cells(*dirichlet_scaled(self.alpha, chunk, rng, floor=True))]
            return
        for systems in self._sample(n_draws, rng):
            if canonical:
                systems = [tuple(c[:, self.canonical] for c in cells) for cells in systems]
            yield systems

    def _grid_cells(self, cells, scale):
        """The requested labels' cells, in canonical order, from one-system draws of
        every cell in canonical order (`dirichlet_scaled`'s cells and scale).

        The cells are sorted by the ranks of their (truth, prediction), and every
        one of the K x K cells has prior mass: row r of the grid is the truth of
        rank r, column r its prediction, and the requested labels hold the first
        ranks.  The per-label sums are then sums along the grid's axes (einsum:
        one pass each, neither a matrix product nor numpy's reductions over
        short rows), each scaled once.
        """
        n_req = self.n_requested
        grid = cells.reshape(-1, self.size, self.size)
        true = np.einsum("sij->si", grid[:, :n_req])
        pred = np.einsum("sij->sj", grid[:, :, :n_req])
        tp = np.einsum("sii->si", grid[:, :n_req, :n_req]).copy()
        if scale is not None:
            scale = scale[:, None]
            true *= scale
            pred *= scale
            tp *= scale
        return label_cells(tp, pred, true, 1.0, own=True)

    def _sample(self, n_draws, rng):
        draws = self._cluster_draws
        if draws is not None and self.kind == "multilabel":
            size = draws.chunk_size()
            for start in range(0, n_draws, size):
                masses = draws.masses(min(size, n_draws - start), rng).reshape(
                    -1, self.n_requested, self._n_cells)
                masses /= masses.sum(axis=-1, keepdims=True)
                yield self._tables(np.maximum(masses, _TINY, out=masses))
        elif draws is not None and self._kinds is None:
            for cells in draws.chunks(n_draws, rng):
                yield self._tables(cells)
        elif self.kind == "multilabel":
            alpha, back = self.alpha[self.canonical], np.argsort(self.canonical)
            for size in draw_chunks(n_draws, self.alpha.size):
                yield self._tables(dirichlet(alpha, size, rng)[:, back])
        elif self._kinds is None:
            for size in draw_chunks(n_draws, self.alpha.size):
                yield self._tables(dirichlet(self.alpha, size, rng))
        else:
            # Per draw: a variate per observed cell (per cluster, with clusters), the
            # per-label sums, the sticks.
            per_draw = (self._observed_counts.size + self._map.shape[1]
                        + (0 if draws is None else draws.n_clusters)
                        + sum(_expected_sticks(kind.concentration, plan.log_floor)
                              + plan.alpha.size for kind, plan in zip(self._kinds, self._plans)))
            for size in draw_chunks(n_draws, _SPARSE_CHUNK_SHARE * per_draw):
                yield self._from_sums(self._sparse_sums(size, rng))

    def _sparse_sums(self, n_draws, rng):
        """Per-label sums (shares of the table) of `n_draws` draws of a sparse table.

        The observed cells' data part is one Gamma(count) variate each; each
        kind of prior cells adds its Gamma total, split by stick-breaking
        over atoms drawn uniformly among its cells (see the module docstring).
        """
        counts = self._observed_counts
        size = self.size
        # Counts of at least 1 (unweighted data) are drawn directly: their variates
        # stay far above the smallest float.  Smaller (weighted) ones are drawn in
        # log space and scaled by the draw's largest variate, as `dirichlet` does.
        direct = counts.size > 0 and counts.min() >= 1.0
        if self._cluster_draws is not None:
            # The clusters' part of the observed cells' masses (their Bayesian bootstrap).
            direct = True
            data = self._cluster_draws.data_masses(n_draws, rng)
            sums = np.ascontiguousarray(np.asarray(self._map_all @ data.T).T)
        elif direct:
            # Cells x draws: the products below then read contiguous rows.  Cells of
            # one item (most off-diagonal ones) are Exp(1), drawn by inversion,
            # -log(1 - U) in place: twice as fast as numpy's Gamma, faster
            # than its ziggurat exponential (U has 53 bits: the largest variate is
            # 36.7, exceeded with odds 1e-16).
            unit, several = self._by_count
            variates = rng.random((unit.size, n_draws))
            np.subtract(1.0, variates, out=variates)
            np.log(variates, out=variates)
            # Sums of log(1 - U), negated once summed (fewer numbers than cells).
            sums = self._map_unit @ variates
            np.negative(sums, out=sums)
            if several.size:
                sums += self._map_several @ rng.standard_gamma(
                    np.broadcast_to(counts[several, None], (several.size, n_draws)))
            sums = np.ascontiguousarray(np.asarray(sums).T)
        else:
            log_g = log_gamma(np.broadcast_to(counts[:, None], (counts.size, n_draws)), 1,
                              rng)[0]
        sticks, residuals = [], []
        for kind, plan in zip(self._kinds, self._plans):
            log_total = log_gamma(np.array([kind.concentration]), n_draws, rng)[:, 0]
            if self._cluster_draws is not None:
                # The prior is so many items' worth: scaled as `ClusterTableDraws`
                # scales it, by an item's mean mass under the clusters' weights.
                log_total += np.log(self._cluster_draws.prior_scale)
            draw, log_share, fraction, last = break_sticks(kind.concentration, n_draws, rng,
                                                            plan.log_floor)
            log_share += log_total[draw]
            truth_rank = rng.integers(0, size, draw.shape[0])
            truth = self._by_rank[truth_rank]
            other = None
            if not kind.diagonal:
                # Uniform among the kind's K (K - 1) cells: another label than the
                # truth (its rank skipped).
                step = rng.integers(0, size - 1, draw.shape[0])
                step += step >= truth_rank
                other = self._by_rank[step]
            sticks.append((kind, log_total, draw, log_share, fraction, truth, other))
            if plan.alpha.size:
                # What the sticks left, split exactly over the residual classes
                # (aggregation: Dirichlet over the classes, times what is left).
                log_class = log_gamma(plan.alpha, n_draws, rng)
                top = log_class.max(axis=1, keepdims=True)
                log_class -= (top + np.log(np.exp(log_class - top).sum(axis=1, keepdims=True))
                              - (log_total + last)[:, None])
                residuals.append((kind, log_class, plan))
        if direct:
            shift = np.zeros(n_draws)
        else:
            # (Residual classes carry less than their kind's total.)
            shift = np.max([stick[1] for stick in sticks if stick[1] is not None], axis=0)
            if counts.size:
                shift = np.maximum(shift, log_g.max(axis=0))
            gammas = np.exp(log_g - shift, out=log_g)
            sums = np.ascontiguousarray(np.asarray(self._map_all @ gammas).T)
        # Every cell has one true label: the table's total is the sum of the first
        # block, added in rank order so that renaming the labels keeps every bit.
        total = sums[:, self._by_rank].sum(axis=1)
        # Every stick's (and residual class's) mass goes to the per-label sums of its
        # cell, at its truth in some blocks and at its other label in others: the
        # masses of one side of a kind are summed per (draw, label) once (a
        # bincount) and that block added to each of the side's blocks.
        sides = {}
        for kind, log_total, draw, log_share, fraction, truth, other in sticks:
            if log_total is not None:
                total += np.exp(log_total - shift)
            log_share -= shift[draw]
            mass = np.exp(log_share, out=log_share)
            if fraction is not None:
                mass *= fraction
            for labels, blocks in ((truth, kind.at_truth), (other, kind.at_other)):
                if not blocks or labels is None:
                    continue
                if labels.min() < 0:
                    # A residual class spread over many labels on this side: those
                    # sums hold data, its share there is negligible.
                    used = labels >= 0
                    where, mass_used = draw[used] * size + labels[used], mass[used]
                else:
                    where, mass_used = draw * size + labels, mass
                sides.setdefault(blocks, []).append((where, mass_used))
        added = {}
        for blocks, parts in sides.items():
            where = np.concatenate([w for w, _ in parts]) if len(parts) > 1 else parts[0][0]
            mass = np.concatenate([m for _, m in parts]) if len(parts) > 1 else parts[0][1]
            added[blocks] = np.bincount(where, weights=mass,
                                        minlength=n_draws * size).reshape(n_draws, size)
        # Residual classes: a (draws, classes) block of masses, each class at fixed
        # labels: one sparse product per side.
        for kind, log_class, plan in residuals:
            log_class -= shift[:, None]
            mass = np.exp(log_class, out=log_class)
            for labels, blocks in ((plan.truth, kind.at_truth),
                                   (None if kind.diagonal else plan.other, kind.at_other)):
                if not blocks or labels is None or not np.any(labels >= 0):
                    continue
                used = np.flatnonzero(labels >= 0)
                spread = sp.csr_matrix((np.ones(used.size), (labels[used], used)),
                                       shape=(size, labels.size))
                part = np.asarray(spread @ mass.T).T
                if blocks in added:
                    added[blocks] += part
                else:
                    added[blocks] = part
        for blocks, part in added.items():
            for block in blocks:
                sums[:, block * size:(block + 1) * size] += part
        sums /= total[:, None]
        return sums

    def _tables(self, draws):
        if self.kind == "multilabel":
            out = []
            # draws: (S, R, cells); each column's table sums to 1.
            true = draws[..., self._ml_truth].sum(axis=-1)
            for pred_mask in self._ml_pred:
                tp = draws[..., self._ml_truth & pred_mask].sum(axis=-1)
                pred = draws[..., pred_mask].sum(axis=-1)
                out.append(label_cells(tp, pred, true, 1.0))
            return out
        # draws: (S, C) over the whole table; one product sums the cells per label.
        if sp.issparse(self._map):
            sums = np.asarray((self._map.T @ draws.T).T)
        else:
            sums = draws @ self._map
        return self._from_sums(sums)

    def _from_sums(self, sums):
        """Every system's per-label cells from the per-label sums of a draw (blocks
        of the table's size)."""
        n_req = self.n_requested
        out = []
        size = self.size
        true = sums[:, :n_req]
        for system in range(self.n_systems):
            start = size * (1 + 2 * system)
            pred = sums[:, start:start + n_req]
            tp = sums[:, start + size:start + size + n_req]
            out.append(label_cells(tp, pred, true, 1.0))
        return out


class _Kind(NamedTuple):
    """Prior cells sharing one concentration, drawn together by stick-breaking.

    ``concentration`` is the kind's total prior mass (cells x concentration);
    ``diagonal``: its cells are (t, t) or (t, t, t), else a truth t and
    another label o, drawn uniformly among the K - 1 others; ``at_truth`` and
    ``at_other``: the blocks of the per-label sums (0 true, then per system
    predicted and right) that a cell adds its mass to at t and at o;
    ``group``: the `JointTable.right_alone` group of its cells (0 only the
    first system right, 1 only the second, 2 the rest).
    """

    concentration: float
    diagonal: bool
    at_truth: tuple
    at_other: tuple
    group: int


def _prior_kinds(size, lam, n_systems):
    """The kinds of prior cells of the sparse K x K or (true, A, B) table."""
    per_label = label_concentration(size, lam)
    if n_systems == 1:
        # (t, t): d each; (t, a): d / (K - 1) each; K d = 2 lam each kind.
        return [_Kind(size * per_label, True, (0, 1, 2), (), 2),
                _Kind(size * per_label, False, (0,), (1,), 2)]
    half = size * per_label / 2
    return [_Kind(half, True, (0, 1, 2, 3, 4), (), 2),     # (t, t, t): both right
            _Kind(half, False, (0, 1, 2), (3,), 0),        # (t, t, b): only A right
            _Kind(half, False, (0, 3, 4), (1,), 1),        # (t, a, t): only B right
            _Kind(half, False, (0,), (1, 3), 2)]           # (t, a, a): the same mistake


def _cell_prior(digits, size, lam):
    """The dense prior's concentration of each of the given cells (digits of their codes)."""
    per_label = label_concentration(size, lam)
    if len(digits) == 2:
        truth, pred = digits
        return np.where(truth == pred, per_label, per_label / max(size - 1, 1))
    truth, a, b = digits
    off = per_label / (2 * max(size - 1, 1))
    return np.where((a == truth) & (b == truth), per_label / 2,
                    np.where((a == truth) | (b == truth) | (a == b), off, 0.0))


class _Plan(NamedTuple):
    """How one kind of prior cells is drawn in a sparse table.

    Sticks are broken down to a share ``exp(log_floor)`` of the kind's mass;
    with the coarse floor, what they leave is split exactly over residual
    classes of cells with concentrations ``alpha``: single cells touching
    per-label sums with little data on both sides, one class per such label
    on one side only (``truth`` or ``other``; -1 for the side it spreads
    over), and the rest (-1 on both sides: it adds only to sums holding
    data, where its share is negligible, but it takes its part of the split).
    """

    log_floor: float
    alpha: np.ndarray
    truth: np.ndarray
    other: np.ndarray


def _plan(kind, few, by_rank, size):
    """The `_Plan` of a kind: the coarse floor when its residual classes are fewer
    than the sticks they save, else sticks down to the smallest float.

    ``few``: (blocks, K) whether each per-label sum holds less than `_FEW`
    observed items; ``by_rank``: the label of each rank (classes are listed
    in rank order, so that renaming the labels keeps the variates).
    """
    empty = np.zeros(0, dtype=np.int64)
    full = _Plan(_LOG_TINY, np.zeros(0), empty, empty)
    saved = (_expected_sticks(kind.concentration, _LOG_TINY)
             - _expected_sticks(kind.concentration, LOG_COARSE))
    at_truth = np.flatnonzero(few[list(kind.at_truth)].any(axis=0)[by_rank])
    if kind.diagonal:
        alpha0 = kind.concentration / size
        if at_truth.size > saved:
            return full
        # The labels' own cells, then the rest (normalising the split only).
        counts = np.append(np.ones(at_truth.size), size - at_truth.size)
        labels = np.append(by_rank[at_truth], -1)
        keep = counts > 0
        return _Plan(LOG_COARSE, alpha0 * counts[keep], labels[keep], labels[keep])
    at_other = np.flatnonzero(few[list(kind.at_other)].any(axis=0)[by_rank])
    if at_truth.size * at_other.size + at_truth.size + at_other.size > saved:
        return full
    alpha0 = kind.concentration / (size * (size - 1))
    truth, other = (x.ravel() for x in np.meshgrid(at_truth, at_other, indexing="ij"))
    distinct = truth != other
    truth, other = truth[distinct], other[distinct]
    # Rows: a label with little data on the truth side, the other side among the
    # labels holding data; columns the reverse.
    row_cells = size - at_other.size - 1 + np.isin(at_truth, at_other)
    column_cells = size - at_truth.size - 1 + np.isin(at_other, at_truth)
    counts = np.concatenate([np.ones(truth.size), row_cells, column_cells])
    # The rest of the kind's cells last: it only normalises the split.
    counts = np.append(counts, size * (size - 1) - counts.sum())
    truth = np.concatenate([by_rank[truth], by_rank[at_truth], np.full(at_other.size + 1, -1)])
    other = np.concatenate([by_rank[other], np.full(at_truth.size, -1), by_rank[at_other], [-1]])
    keep = counts > 0
    return _Plan(LOG_COARSE, alpha0 * counts[keep], truth[keep], other[keep])


def _expected_sticks(concentration, log_floor):
    """About how many sticks `break_sticks` breaks per draw (a few sd above the mean)."""
    mean = -log_floor * concentration
    return int(mean + 4.0 * math.sqrt(mean) + 8)


def break_sticks(concentration, n_draws, rng, log_floor):
    """Sethuraman's stick-breaking of GEM(`concentration`), for each of `n_draws` draws.

    Sticks V_j ~ Beta(1, c) are broken off the unallocated share until it is
    below ``exp(log_floor)``: log(1 - V_j) = log(U_j) / c, and the j-th
    stick's share is V_j times the share left before it.  A block holds a
    few standard deviations above the mean number of sticks (the few draws
    not done by then get another); sticks past the floor in a block are kept
    (they are the process's own).

    Returns
    -------
    draw : ndarray of int
        The draw each stick belongs to.
    log_left : ndarray
        The log of the share left before each stick.
    fraction : ndarray
        Each stick's V_j: its share is ``exp(log_left) * fraction``.
    last : ndarray of shape (n_draws,)
        The log of the share each draw's sticks leave.
    """
    block = _expected_sticks(concentration, log_floor)
    pending = np.arange(n_draws)
    carry = np.zeros(n_draws)
    last_of = np.empty(n_draws)
    draws, lefts, fractions = [], [], []
    while pending.size:
        # Stick-major (block, draws) layout: the running sums run along contiguous rows.
        with np.errstate(divide="ignore"):
            step = np.log(rng.random((block, pending.size)))
        step /= concentration                      # log(1 - V_j)
        left = np.empty_like(step)                 # log share left before stick j
        left[0] = carry
        np.cumsum(step[:-1], axis=0, out=left[1:])
        left[1:] += carry
        last = left[-1] + step[-1]
        fraction = np.expm1(step, out=step)
        np.negative(fraction, out=fraction)        # V_j
        draws.append(np.tile(pending, block))
        lefts.append(left.ravel())
        fractions.append(fraction.ravel())
        done = last < log_floor
        last_of[pending[done]] = last[done]
        carry, pending = last[~done], pending[~done]
    if len(draws) == 1:
        return draws[0], lefts[0], fractions[0], last_of
    return np.concatenate(draws), np.concatenate(lefts), np.concatenate(fractions), last_of


def _label_ranks(digits, counts, size, n_requested):
    """A rank of each label that renaming the labels carries along.

    The requested labels come first; among them (and among the others) labels
    are ordered by what the observed cells say about them: for each position
    of a cell's code (truth, each system) and each pattern of equal positions
    in it, the sum, the sum of squares and the number of the observed counts
    of the cells holding the label there.  Only labels alike in all of these
    keep their code order.
    """
    n_digits = len(digits)
    pairs = [(i, j) for i in range(n_digits) for j in range(i + 1, n_digits)]
    pattern = np.zeros(counts.shape[0], dtype=np.intp)
    for bit, (i, j) in enumerate(pairs):
        pattern |= (digits[i] == digits[j]).astype(np.intp) << bit
    n_patterns = 1 << len(pairs)
    seen = counts > 0
    features = []
    for position, digit in enumerate(digits):
        slot = (digit * n_digits + position) * n_patterns + pattern
        length = size * n_digits * n_patterns
        for values in (counts, counts * counts, seen.astype(float)):
            features.append(np.bincount(slot[seen], weights=values[seen], minlength=length)
                            .reshape(size, n_digits * n_patterns))
    features = np.hstack(features)
    outside = np.arange(size) >= n_requested
    order = np.lexsort([np.arange(size), *features.T[::-1], outside])
    rank = np.empty(size, dtype=np.int64)
    rank[order] = np.arange(size)
    return rank


def label_cells(tp, pred, true, total, own=False):
    # Floored at the smallest normal float, in place on fresh arrays (a third of
    # the time of flooring at 0 and again at _TINY; the same values, as the
    # floors differ by 2e-308).  With `own` the three arrays are the caller's
    # to overwrite: fp, fn and tp take the places of pred, true and tp.
    fp = np.subtract(pred, tp, out=pred if own else None)
    np.maximum(fp, _TINY, out=fp)
    fn = np.subtract(true, tp, out=true if own else None)
    np.maximum(fn, _TINY, out=fn)
    tn = np.subtract(total, tp)
    tn -= fp
    tn -= fn
    np.maximum(tn, _TINY, out=tn)
    return np.maximum(tp, _TINY, out=tp if own else None), fp, fn, tn


def average_values(function, params, cells, average, weights=None, *, share_of_right=False):
    """A metric of per-label cells combined over labels, per draw.

    Parameters
    ----------
    function : callable(tp, fp, fn, tn, **params)
    cells : tuple of 4 arrays of shape (S, R)
    average : {"micro", "macro", "weighted", "powers", None}
    weights : ndarray of shape (R,), default=None
        Label weights of ``"weighted"`` and ``"powers"`` (observed shares).
    share_of_right : bool, default=False
        ``average="micro"`` on single-label multiclass data with every label:
        the metric is the share of items right (the sum of the diagonal).

    Returns
    -------
    ndarray of shape (S,), or (S, R) for ``average=None``
    """
    tp, fp, fn, tn = cells
    with np.errstate(all="ignore"):
        if average == "micro":
            if share_of_right:
                return tp.sum(axis=1)
            return np.asarray(function(tp.sum(axis=1), fp.sum(axis=1), fn.sum(axis=1),
                                       tn.sum(axis=1), **params), dtype=float)
        values = np.asarray(function(tp, fp, fn, tn, **params), dtype=float)
        if average is None:
            return values
        if average == "macro" or weights is None or weights.sum() == 0:
            weights = np.ones(values.shape[1])
        return weighted_mean(values, weights)
