"""More test items for a ranking of systems: the planner of `plan_more_items`.

A `SystemRanking` of `rank_systems` is decided when its leader's posterior
probability of being the best (with a region of practical equivalence: of
being within `rope` of the best, as `SystemRanking.prob_within_rope_of_best`)
reaches the target.  A simulated future adds items to the ranking's joint
table (a Dirichlet over its cells: every observed combination of labels and
every cell of the prior) and ranks the systems again from `n_draws` posterior
draws, partially pooled as the ranking was; the ranking keeps the table and
its settings for this (`RankingSource`).
"""

from __future__ import annotations

import numpy as np

from .._compare import rank_systems
from .._core import fail

__all__ = ["RANKING_WORDS", "RankingPlan", "ranking_planner"]

# "first" is a system decided best; the third, with a rope, a system within the
# rope of the best.
RANKING_WORDS = ("one system best", "undecided", "within rope of the best")


class RankingPlan:
    """The `_plan` interface over a ranking's `RankingSource`."""

    exact = False

    def __init__(self, source):
        self._source = source
        self.alpha = source.alpha
        self.items = source.n_items
        self.words = RANKING_WORDS

    def probabilities(self, counts, rope, n_draws, rng, target=None):
        """(best, 0, within rope) of the leader after adding `counts` (n_sims, cells)."""
        source = self._source
        if source.vectorised:
            leader = source.leader_probability(counts, rope, n_draws, rng)
        else:
            # Other tables: `rank_systems` on each future's counts (slower).
            leader = np.empty(counts.shape[0])
            for i, extra in enumerate(counts):
                ranking = rank_systems(source.joint_counts(extra), metric=source.metric,
                                       prior=source.lam, rope=rope, beta=source.beta,
                                       pooling=source.pooling, n_draws=n_draws,
                                       random_state=rng)
                figure = ranking.prob_best if rope == 0 else ranking.prob_within_rope_of_best
                leader[i] = float(figure.max())
        zero = np.zeros_like(leader)
        return (leader, zero, zero) if rope == 0 else (zero, leader, zero)


def ranking_planner(result):
    """The `RankingPlan` of a `SystemRanking`, and its rope."""
    source = result._source
    if source is None or source.reason is not None:
        why = ("a ranking of scores (average_precision, roc_auc)" if source is None
               else f"a ranking whose {source.reason}")
        fail("result", "a SystemRanking of predicted labels whose joint table can be "
             "recomputed", result, error=TypeError, shown=why)
    return RankingPlan(source), result.rope
