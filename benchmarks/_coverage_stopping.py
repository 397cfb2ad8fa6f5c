"""The stopping section of the coverage benchmark: optional stopping under the null.

Two equal systems are compared on the same items (paired, accuracy 0.8 each: the
first alone right on 10% of the items, the second alone on 10%, both alike on
80%), labelled in batches.  After every batch of ``batch`` items, up to 2 000, the
paired comparison of all items so far is read as `should_stop` reads it, without a
rope: stop with "first better" or "second better" as soon as either probability
reaches the target.  Both are wrong: the systems are equal.  The share of test sets
that stop with a wrong "better" is reported per batch size and target, beside the
fixed-n design (one look, at 2 000 items: the ``batch=2000`` cell).  The target that
keeps the share at or below 0.05 is the smallest of the targets tried whose share
is at most 0.05 (`stopping_target` keeps them).

The probabilities are the exact ones of `PairedComparison` (``1 - I_{1/2}(a1, a2)``,
`paired_probabilities`), for every test set and look at once, and the decision is
`should_stop`'s own rule (`_decide`).
"""

from __future__ import annotations

import numpy as np

from skprobeval._compare import paired_probabilities
from skprobeval._workflow._plan_more import _decide

__all__ = ["MAX_ITEMS", "TARGETS", "stopping_cells", "run_stopping"]

MAX_ITEMS = 2000
CELLS = np.array([0.1, 0.1, 0.8])       # first alone right, second alone right, alike
TARGETS = (0.95, 0.975, 0.99, 0.995, 0.998, 0.999)
PRIOR = 0.5
# Test sets per cell, as a multiple of the section's count: each costs one regularized
# incomplete Beta function per look (at 400 x 25 = 10 000 test sets the share's Monte
# Carlo error near 0.05 is 0.002).
REPS_FACTOR = 25


def stopping_cells(quick):
    """Cells ``("stopping", batch)``; ``batch = MAX_ITEMS`` is the fixed-n design."""
    if quick:
        return [("stopping", 200), ("stopping", MAX_ITEMS)]
    return [("stopping", batch) for batch in (25, 50, 100, 200, 500, MAX_ITEMS)]


def run_stopping(cell, reps, n_draws, *, seed, library):
    """One row per target: the share of test sets stopped with a wrong "better"."""
    _, batch = cell
    reps *= REPS_FACTOR
    rng = seed("stopping", batch)
    looks = np.arange(batch, MAX_ITEMS + 1, batch)
    # Every test set's items at once, as counts per batch, then cumulated at each look.
    increments = rng.multinomial(batch, CELLS, size=(reps, looks.size))
    counts = np.cumsum(increments, axis=1)                  # (reps, looks, 3)
    first, equivalent, second = paired_probabilities(
        counts[..., 0] + PRIOR, counts[..., 1] + PRIOR, counts[..., 2] + PRIOR, 0.0)
    rows = []
    for target in TARGETS:
        decision = _decide(first.ravel(), equivalent.ravel(), second.ravel(),
                           target).reshape(first.shape)
        wrong = np.any(decision >= 0, axis=1)               # stopped with a "better"
        share = float(np.mean(wrong))
        name = "fixed n (one look at 2000)" if batch == MAX_ITEMS else \
            f"batch={batch} max={MAX_ITEMS}"
        rows.append({"section": "stopping", "cell": name, "quantity": f"target={target:g}",
                     "method": library, "kind": "library", "reps": int(reps),
                     "batch": int(batch), "target": float(target), "wrong_share": share,
                     "se": float(np.sqrt(share * (1 - share) / reps)),
                     "mean_stop": float(np.mean(np.where(
                         wrong, looks[np.argmax(decision >= 0, axis=1)], MAX_ITEMS)))})
    return rows


def calibrated_target(rows, batch):
    """The smallest target of `TARGETS` whose share of wrong stops is at most 0.05."""
    ok = [row["target"] for row in rows if row.get("batch") == batch
          and row["wrong_share"] <= 0.05]
    return min(ok, default=None)
