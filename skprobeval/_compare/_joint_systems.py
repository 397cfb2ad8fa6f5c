"""The joint table of a truth and N systems' predictions: `JointSystems`.

`rank_systems` (and the comparison reports) draw every system's metric from
one Dirichlet over the joint table (true label, prediction of system 1, ...,
prediction of system N).  The table keeps the observed cells and draws its
prior by truncated stick-breaking, or, where the prior spans few cells,
every cell (``_joint_dense.py``); with large counts on binary targets the
data part of its per-label sums is one normal (``_joint_normal.py``).

Items in clusters (``groups=``): the cells' data part is the Bayesian
bootstrap of the clusters (``_core/_cluster_draws.py``), one Gamma weight
per cluster for all its items and every system, so that each system's table
and each pair's table are the clustered posteriors they are alone; the
prior is added as above.
Derivations: the theory page ``docs/theory/rankings.rst``.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from .._core import ClusterTableDraws, cluster_concentration, draw_chunks, fail, log_gamma
from .._posteriors import LOG_COARSE, break_sticks
from ._joint_dense import DENSE_PRIOR_CELLS, dense_cells, dense_shares, prior_cells_per_block
from ._joint_normal import NormalSums, normal_applies

__all__ = ["JointSystems", "check_ranking_groups"]

# Dense map of cells to per-label sums up to this many entries (then sparse).
_DENSE_MAP = 1 << 25


def _compact(codes, size, bound):
    """Codes below `bound` * `size`: renumbered by their rank when they would not be."""
    if bound * size < (1 << 62):
        return codes, bound
    distinct, inverse = np.unique(codes, return_inverse=True)
    return inverse.astype(np.int64), int(distinct.shape[0])


class JointSystems:
    """The sparse Dirichlet posterior of a truth and N systems' predictions.

    Cells are kept only where items are; every draw adds the prior by
    stick-breaking (module docstring), or, where the prior spans few cells,
    every cell with prior mass is kept and drawn with the observed ones.
    `sample` yields, chunk by chunk, the per-label shares ``(true, [(pred,
    tp) per system])`` of the requested labels, each of shape ``(draws, R)``.
    """

    def __init__(self, joint, lam):
        self.kind = joint.kind
        self.lam = lam
        self.n_systems = n_sys = len(joint.codes) - 1
        n_req = joint.n_requested
        if joint.kind == "multilabel":
            n_items = joint.codes[0].shape[0]
            digits = [np.asarray(c[:, :n_req], dtype=np.int64).ravel() for c in joint.codes]
            block = np.tile(np.arange(n_req), n_items)
            weight = None if joint.weight is None else np.repeat(joint.weight, n_req)
            self.size, self.n_blocks = 2, n_req
        else:
            digits = [np.asarray(c, dtype=np.int64) for c in joint.codes]
            block = np.zeros(digits[0].shape[0], dtype=np.int64)
            weight = joint.weight
            self.size, self.n_blocks = joint.n_classes, 1
        size = self.size
        code, bound = block.copy(), self.n_blocks
        for digit in digits:
            code, bound = _compact(code, size, bound)
            code = code * size + digit
            bound *= size
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        counts = np.bincount(inverse, weights=weight, minlength=first.shape[0])
        keep = counts > 0
        first, counts = first[keep], counts[keep].astype(float)
        self.block = block[first]
        cell_digits = [d[first] for d in digits]
        # Each item's cell (-1: an item of weight 0), for the clusters' counts.
        item_cell = np.where(keep, np.cumsum(keep) - 1, -1)[inverse]
        self._alpha = None
        if prior_cells_per_block(size, n_sys) <= DENSE_PRIOR_CELLS:
            # Few prior cells: every one of them is drawn (``_joint_dense.py``).
            observed = (self.block, cell_digits)
            self.block, cell_digits, counts, self._alpha = dense_cells(
                self.block, cell_digits, counts, size, self.n_blocks, lam)
            item_cell = np.where(item_cell >= 0, _positions(
                observed, (self.block, cell_digits), size)[item_cell], -1)
        clusters = getattr(joint, "clusters", None)
        self._clusters = None
        if clusters is not None and not clusters.singletons:
            self._clusters = _cluster_draws(clusters, item_cell, weight, counts.shape[0],
                                            np.zeros(counts.shape[0]) if self._alpha is None
                                            else self._alpha - counts,
                                            1 if joint.kind != "multilabel" else n_req)
        self.counts = counts
        self.n_requested = n_req
        # Per-label sums: the blocks' totals, then per label true, then per system
        # predicted and right.
        self.n_sums = self.n_blocks + n_req * (1 + 2 * n_sys)
        rows, columns = [], []
        n_cells = counts.shape[0]
        cell = np.arange(n_cells)

        def add(where, column):
            rows.append(cell[where])
            columns.append(column[where])

        truth = cell_digits[0]
        add(np.ones(n_cells, bool), self.block)
        true_slot = self._slot(self.block, truth)
        add(true_slot >= 0, self.n_blocks + true_slot)
        for j, pred in enumerate(cell_digits[1:]):
            start = self.n_blocks + n_req * (1 + 2 * j)
            pred_slot = self._slot(self.block, pred)
            add(pred_slot >= 0, start + pred_slot)
            right = (pred == truth) & (true_slot >= 0)
            add(right, start + n_req + true_slot)
        rows, columns = np.concatenate(rows), np.concatenate(columns)
        data = np.ones(rows.shape[0])
        matrix = sp.csr_matrix((data, (rows, columns)), shape=(n_cells, self.n_sums))
        self._normal = None
        if self._alpha is not None:
            self._maps = matrix.toarray()
            return
        if self._clusters is not None:
            # The clusters' masses of the cells, summed per label by one product.
            self._maps = matrix.T.tocsr()
            return
        if self.kind == "binary" and normal_applies(cell_digits, counts, n_req, self.n_sums):
            # Large counts everywhere: the data part of the sums as one normal.
            self._normal = NormalSums(matrix, counts)
            return
        # Cells of one item are Exp(1), the others Gamma(count): two blocks of rows.
        unit = counts == 1.0
        self._unit_counts, self._several_counts = counts[unit], counts[~unit]
        if n_cells * self.n_sums <= _DENSE_MAP:
            # Identical columns (sums of the same cells) are computed once.
            dense, self._expand = np.unique(matrix.toarray(), axis=1, return_inverse=True)
            self._expand = self._expand.ravel()
            self._maps = dense[unit], dense[~unit]
        else:
            self._expand = None
            self._maps = matrix[unit].T.tocsr(), matrix[~unit].T.tocsr()

    def _slot(self, block, label):
        """The requested label (0 to R - 1) a cell's label is, or -1."""
        if self.kind == "multilabel":
            return np.where(label == 1, block, -1)
        return np.where(label < self.n_requested, label, -1)

    @property
    def concentration(self):
        """The posterior's total Dirichlet mass of a multiclass table (counts and 4λ)."""
        return float(self.counts.sum()) + 4.0 * self.lam

    def sample(self, n_draws, rng):
        """Yield ``(true, [(pred, tp), ...])`` shares for chunks of draws."""
        n_cells = self.counts.shape[0]
        clusters = self._clusters
        per_cluster = 0 if clusters is None else (
            n_cells if clusters.normal else clusters.n_clusters)
        if self._alpha is not None and clusters is not None:
            # The clusters' masses plus the prior's Gamma variates, cell by cell:
            # `_shares` divides the per-label sums by their block's total.
            for size in draw_chunks(n_draws, n_cells + per_cluster + self.n_sums):
                yield self._shares(clusters.masses(size, rng) @ self._maps)
            return
        if self._alpha is not None:
            for size in draw_chunks(n_draws, n_cells + self.n_sums):
                yield self._shares(dense_shares(self._alpha, self.n_blocks, self._maps, size,
                                                rng))
            return
        concentration = 4.0 * self.lam
        sticks = -LOG_COARSE * concentration + 4.0 * math.sqrt(-LOG_COARSE * concentration)
        per_draw = n_cells + self.n_blocks * int(sticks + 8) * (2 * self.n_systems + 2)
        if self._normal is not None:
            per_draw += self.n_sums - n_cells
        per_draw += per_cluster
        for size in draw_chunks(n_draws, per_draw):
            if clusters is not None:
                sums = np.ascontiguousarray(
                    np.asarray(self._maps @ clusters.data_masses(size, rng).T).T)
            elif self._normal is None:
                sums = self._data_sums(size, rng)
            else:
                sums = self._normal.draw(size, rng)
            for block in range(self.n_blocks):
                self._add_prior(sums, block, concentration, rng,
                                1.0 if clusters is None else clusters.prior_scale)
            yield self._shares(sums)

    def _data_sums(self, n_draws, rng):
        """Gamma(count) variates of the observed cells, summed per label: (draws, sums)."""
        unit_map, several_map = self._maps
        # Cells x draws: the sparse products read contiguous rows (no transposed copy).
        unit = rng.standard_exponential((self._unit_counts.shape[0], n_draws))
        several = rng.standard_gamma(self._several_counts[:, None],
                                     size=(self._several_counts.shape[0], n_draws))
        if self._expand is not None:
            return (unit.T @ unit_map + several.T @ several_map)[:, self._expand]
        return np.ascontiguousarray(np.asarray(unit_map @ unit + several_map @ several).T)

    def _add_prior(self, sums, block, concentration, rng, scale=1.0):
        """Add one block's prior (its Gamma total split by stick-breaking) to `sums`.

        `scale` multiplies the prior's total: with clusters, an item's mean mass
        under the clusters' weights (`ClusterTableDraws.prior_scale`), so that the
        prior weighs as many items as without clusters.

        Each atom is a cell drawn from the prior: a truth, the set of systems
        wrong (a fair coin each) and their common wrong label.  Its mass goes
        to the truth's true sum, to the right systems' predicted and right
        sums at the truth, and to the wrong systems' predicted sums at the
        wrong label: two sparse (draw, label) x atom products with the
        atoms' right / wrong indicators.
        """
        n_draws, n_sums = sums.shape
        size, n_sys, n_req = self.size, self.n_systems, self.n_requested
        log_total = log_gamma(np.array([concentration]), n_draws, rng)[:, 0]
        if scale != 1.0:
            log_total += math.log(scale)
        draw, log_left, fraction, last = break_sticks(concentration, n_draws, rng,
                                                       LOG_COARSE)
        # What the sticks leave goes to one more atom per draw.
        draw = np.concatenate([draw, np.arange(n_draws)])
        with np.errstate(divide="ignore"):
            log_share = np.concatenate([log_left + np.log(fraction), last])
        mass = np.exp(log_share + log_total[draw])
        n_atoms = draw.shape[0]
        atom = np.arange(n_atoms)
        truth = rng.integers(0, size, n_atoms)
        blocks = np.full(n_atoms, block)
        true_slot = self._slot(blocks, truth)
        if size > 1:
            bits = rng.integers(0, 256, (n_atoms, -(-n_sys // 8)), dtype=np.uint8)
            wrong = np.unpackbits(bits, axis=1, count=n_sys).astype(float)
            other = rng.integers(0, size - 1, n_atoms)
            other += other >= truth
            other_slot = self._slot(blocks, other)
        else:
            wrong = np.zeros((n_atoms, n_sys))
            other_slot = np.full(n_atoms, -1)
        shares = np.zeros((n_draws, 1 + 2 * n_sys, n_req))
        used = true_slot >= 0
        if used.any():
            at_truth = sp.csr_matrix((mass[used], (draw[used] * n_req + true_slot[used],
                                                   atom[used])), shape=(n_draws * n_req, n_atoms))
            right = np.asarray(at_truth @ (1.0 - wrong)).reshape(n_draws, n_req, n_sys)
            shares[:, 0] += np.asarray(at_truth.sum(axis=1)).reshape(n_draws, n_req)
            shares[:, 1::2] += right.transpose(0, 2, 1)      # predicted at the truth
            shares[:, 2::2] += right.transpose(0, 2, 1)      # right
        used = other_slot >= 0
        if used.any():
            at_other = sp.csr_matrix((mass[used], (draw[used] * n_req + other_slot[used],
                                                   atom[used])), shape=(n_draws * n_req, n_atoms))
            shares[:, 1::2] += np.asarray(at_other @ wrong).reshape(
                n_draws, n_req, n_sys).transpose(0, 2, 1)
        sums[:, self.n_blocks:] += shares.reshape(n_draws, -1)
        sums[:, block] += np.exp(log_total)

    def _shares(self, sums):
        n_draws = sums.shape[0]
        n_req, n_sys = self.n_requested, self.n_systems
        total = sums[:, :self.n_blocks]
        shares = sums[:, self.n_blocks:].reshape(n_draws, 1 + 2 * n_sys, n_req)
        shares = shares / total[:, None, :]
        true = shares[:, 0]
        return true, [(shares[:, 1 + 2 * j], shares[:, 2 + 2 * j]) for j in range(n_sys)]


def _positions(observed, every, size):
    """Where each observed cell ``(block, digits)`` sits among `every` cell (sorted by
    block, then by code, as `dense_cells` returns them)."""
    def codes(block, digits):
        code = np.asarray(block, dtype=np.int64)
        for digit in digits:
            code = code * size + digit
        return code

    return np.searchsorted(codes(*every), codes(*observed))


def _cluster_draws(clusters, item_cell, weight, n_cells, prior, per_item):
    """`ClusterTableDraws` of the cells: each cluster's (weighted) items per cell.

    `item_cell` holds the cell of each item (of each item and label, `per_item`
    of them, for multilabel tables), -1 for items of weight 0.
    """
    of_item = clusters.codes if per_item == 1 else np.repeat(clusters.codes, per_item)
    held = item_cell >= 0
    data = np.ones(int(held.sum())) if weight is None else np.asarray(weight, float)[held]
    counts = sp.csr_matrix((data, (of_item[held], item_cell[held])),
                           shape=(clusters.n_clusters, n_cells))
    counts.sum_duplicates()
    return ClusterTableDraws(counts, prior, cluster_concentration(clusters.n_clusters))


def check_ranking_groups(groups, counted):
    """Refuse `groups` where a ranking cannot take clusters: counted items (a
    `JointCounts` knows no items)."""
    if groups is not None and counted:
        fail("groups", "None when `y_true` is a JointCounts (counts know no items)",
             groups, error=TypeError, shown="an array")
