"""Every cell of a small joint table of a truth and N systems, drawn directly.

`rank_systems`' joint table keeps the observed cells and draws its prior by
stick-breaking (``_joint_systems.py``): about 140 sticks per unit of prior
mass and draw, whatever the table.  A table whose prior spans few cells (a
binary truth and N systems: 2^(N+1) cells) is cheaper drawn whole: one
Dirichlet over every cell of the prior and every observed cell, each with
its count plus its prior mass.  Both draw the same posterior (aggregation:
the sticks split the prior's Gamma total over the same cells, in the same
proportions on average, as the cells' own Gamma variates do).
"""

from __future__ import annotations

import numpy as np

from .._core import dirichlet
from .._posteriors import label_concentration

__all__ = ["DENSE_PRIOR_CELLS", "dense_cells", "dense_shares", "prior_cells_per_block"]

# Tables whose prior spans at most this many cells per block (a binary truth and up
# to 6 systems; 3 classes and up to 4 systems) draw every cell; larger ones draw
# the prior by stick-breaking.  rank_systems(pooling="none") on 569 binary items,
# 10 000 draws, best of 3 on a shared 2-core machine: 3 systems (16 cells) 0.04 s
# against 0.81 s by sticks, 6 systems (128 cells) 0.18 s against 0.92 s; about even
# at 7 (0.26 s, 0.37 s), sticks ahead from 8 (512 cells: 0.37 s against 0.27 s).
DENSE_PRIOR_CELLS = 128


def prior_cells_per_block(size, n_systems):
    """The cells with prior mass in one block of a truth of `size` labels and N systems:
    a truth, a set of systems wrong and, if any, their common wrong label."""
    if size < 2:
        return size
    return size * (1 + ((1 << n_systems) - 1) * (size - 1))


def _prior_cells(size, n_systems, n_blocks, lam):
    """(block, [truth, prediction of each system], concentration) of every prior cell.

    Each true label holds 2d (d = `label_concentration`; 4λ in all), spread
    as if each system were right or wrong by a fair coin, the wrong ones all
    giving one wrong label, uniform among the K - 1 others: the prior that
    `rank_systems`' sticks draw their cells from.
    """
    per_label = 4.0 * lam if size < 2 else 2.0 * label_concentration(size, lam)
    wrong_sets = np.arange(1 << n_systems) if size > 1 else np.zeros(1, dtype=np.int64)
    truth, wrong, other = (g.ravel() for g in np.meshgrid(
        np.arange(size), wrong_sets, np.arange(max(size - 1, 1)), indexing="ij"))
    # The set of no wrong system has no wrong label: one cell.
    keep = (wrong > 0) | (other == 0)
    truth, wrong, other = truth[keep], wrong[keep], other[keep]
    other = other + (other >= truth)
    share = np.where(wrong > 0, 1.0 / max(size - 1, 1), 1.0) / wrong_sets.size
    predictions = [np.where((wrong >> j) & 1 == 1, other, truth) for j in range(n_systems)]
    n_cells = truth.size
    block = np.repeat(np.arange(n_blocks), n_cells)
    digits = [np.tile(d, n_blocks) for d in (truth, *predictions)]
    return block, digits, np.tile(per_label * share, n_blocks)


def dense_cells(block, digits, counts, size, n_blocks, lam):
    """The observed cells with every prior cell added: (block, digits, counts, alpha).

    Cells are ordered by block, then by their code; `alpha` is each cell's
    count plus its prior mass (cells observed with no prior mass keep their
    count alone).
    """
    prior_block, prior_digits, prior_alpha = _prior_cells(size, len(digits) - 1, n_blocks,
                                                          lam)
    code = np.concatenate([block, prior_block])
    for observed, prior in zip(digits, prior_digits):
        code = code * size + np.concatenate([observed, prior])
    cells, first, position = np.unique(code, return_index=True, return_inverse=True)
    n_observed = counts.shape[0]
    all_counts = np.zeros(cells.shape[0])
    alpha = np.zeros(cells.shape[0])
    np.add.at(all_counts, position[:n_observed], counts)
    np.add.at(alpha, position[n_observed:], prior_alpha)
    alpha += all_counts
    every_block = np.concatenate([block, prior_block])[first]
    every_digit = [np.concatenate([d, p])[first] for d, p in zip(digits, prior_digits)]
    return every_block, every_digit, all_counts, alpha


def dense_shares(alpha, n_blocks, cell_map, n_draws, rng):
    """Per-label sums of `n_draws` Dirichlet draws of every cell: (draws, sums).

    With several blocks (multilabel columns, each its own table of the same
    cells) each block is one Dirichlet; ``cell_map`` maps the cells, block
    by block, to the sums.
    """
    draws = dirichlet(alpha.reshape(n_blocks, -1) if n_blocks > 1 else alpha, n_draws, rng)
    return draws.reshape(n_draws, -1) @ cell_map
