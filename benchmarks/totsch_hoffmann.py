"""Tötsch & Hoffmann (2020) from their counts, beside prob_conf_mat 0.4 on the same tables.

Two of the paper's data sets, counts only:

* Table 3: the top ten of the Kaggle "Recursion Cellular Image Classification"
  leaderboard, each team's accuracy on 15 124 test images as a balanced binary table
  (TP = TN, FN = FP, as the paper reconstructs them).  ``compare_counts`` ranks them
  (P(rank) of every team); prob_conf_mat's ``Study`` ranks the same tables with its
  default priors (``get_listwise_comparsion_result``).
* Table S1: 24 binary classifiers from published studies, 8 to 350 test items each.
  Sensitivity (TPR) and specificity (TNR) intervals: ``metric_posterior`` with λ = 1
  (exact Beta(TP + 1, FN + 1) and Beta(TN + 1, FP + 1)) and prob_conf_mat with
  ``confusion_prior=1, prevalence_prior=1`` (sampled; its TPR is the same Beta).

Run ``python -m benchmarks.totsch_hoffmann`` (``--quick`` for 20 000 draws instead of
100 000).  The figures of the gallery example "A leaderboard from its counts" come from
a full run.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd

from skprobeval import ConfusionCounts, compare_counts, metric_posterior

REQUIRES = ("prob_conf_mat",)

# Table 3 (Tötsch & Hoffmann 2020): team id, TP, FN, FP, TN.
TABLE_3 = pd.DataFrame(
    [["3467175", 7544, 18, 18, 7544], ["3394520", 7537, 25, 25, 7537],
     ["3338942", 7531, 31, 31, 7531], ["3339018", 7525, 37, 37, 7525],
     ["3338836", 7524, 38, 38, 7524], ["3429037", 7515, 47, 47, 7515],
     ["3346448", 7509, 53, 53, 7509], ["3338664", 7509, 53, 53, 7509],
     ["3338358", 7507, 55, 55, 7507], ["3339624", 7504, 58, 58, 7504]],
    columns=["team", "tp", "fn", "fp", "tn"]).set_index("team")

# Table S1 (Tötsch & Hoffmann 2020, supplement): study, TP, FN, TN, FP.
TABLE_S1 = pd.DataFrame(
    [["1", 5, 0, 3, 0], ["2", 10, 0, 3, 1], ["3", 6, 0, 7, 1], ["4a", 5, 1, 10, 1],
     ["4b", 4, 2, 10, 1], ["5a", 16, 1, 3, 2], ["5b", 8, 9, 4, 1], ["6a", 2, 12, 19, 1],
     ["6b", 10, 4, 20, 0], ["7a", 26, 0, 6, 2], ["7b", 24, 2, 6, 2], ["8", 28, 9, 3, 4],
     ["9a", 19, 3, 18, 10], ["9b", 21, 1, 20, 8], ["10", 31, 5, 24, 4],
     ["11", 40, 7, 15, 8], ["12", 31, 9, 20, 13], ["13a", 79, 14, 19, 0],
     ["13b", 89, 4, 16, 3], ["14a", 136, 2, 2, 12], ["15a", 3, 12, 150, 0],
     ["15b", 6, 9, 150, 0], ["16", 188, 0, 13, 2], ["14b", 253, 27, 11, 59]],
    columns=["study", "tp", "fn", "tn", "fp"]).set_index("study")


def ours(n_draws):
    """compare_counts' unpooled rank probabilities (Table 3) and the exact TPR / TNR intervals
    (Table S1)."""
    # Each team's own posterior, as prob_conf_mat ranks them (no pooling).
    ranking = compare_counts(TABLE_3, pooling="none", n_draws=n_draws, random_state=0).ranking
    intervals = {}
    for study, row in TABLE_S1.iterrows():
        counts = ConfusionCounts(tp=row.tp, fp=row.fp, fn=row.fn, tn=row.tn)
        for metric, name in (("recall", "tpr"), ("specificity", "tnr")):
            bounds = metric_posterior(counts, metric=metric, prior=1.0).interval(0.95)
            intervals[(study, name)] = (float(bounds.low), float(bounds.high))
    return ranking.rank_probabilities, intervals


def theirs(n_draws):
    """prob_conf_mat 0.4's rank probabilities (default priors) and TPR / TNR intervals
    (priors 1)."""
    from prob_conf_mat import Study

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # its notes on the default (Haldane) priors
        study = Study(seed=0, num_samples=n_draws, ci_probability=0.95)
        study.add_metric(metric="acc")
        for team, row in TABLE_3.iterrows():
            study.add_experiment(experiment_name=f"{team}/{team}",
                                 confusion_matrix=[[row.tp, row.fn], [row.fp, row.tn]])
        result = study.get_listwise_comparsion_result(metric="acc")
        order = [name.split("/")[0] for name in result.experiment_names]
        ranks = pd.DataFrame(result.p_rank_given_experiment, index=order,
                             columns=range(1, len(order) + 1)).loc[TABLE_3.index]
        intervals = {}
        for metric in ("tpr", "tnr"):
            study = Study(seed=0, num_samples=n_draws, ci_probability=0.95)
            study.add_metric(metric)
            for name, row in TABLE_S1.iterrows():
                study.add_experiment(experiment_name=f"{name}/{name}",
                                     confusion_matrix=[[row.tp, row.fn], [row.fp, row.tn]],
                                     confusion_prior=1, prevalence_prior=1)
            for name in TABLE_S1.index:
                values = study.get_metric_samples(metric=metric, experiment_name=f"{name}/{name}",
                                                  sampling_method="posterior").values[:, 0]
                intervals[(name, metric)] = tuple(np.quantile(values, [0.025, 0.975]))
    return ranks, intervals


def main(quick=False):
    """Print both tables side by side and the largest differences; return them."""
    n_draws = 20_000 if quick else 100_000
    our_ranks, our_intervals = ours(n_draws)
    their_ranks, their_intervals = theirs(n_draws)
    side = pd.DataFrame({"P(rank 1) skprobeval": our_ranks[1],
                         "P(rank 1) prob_conf_mat": their_ranks[1],
                         "E[rank] skprobeval": our_ranks.to_numpy() @ np.arange(1, 11),
                         "E[rank] prob_conf_mat": their_ranks.to_numpy() @ np.arange(1, 11)})
    rank_gap = float(np.max(np.abs(our_ranks.to_numpy() - their_ranks.to_numpy())))
    rows = []
    for (study, metric), (low, high) in our_intervals.items():
        t_low, t_high = their_intervals[(study, metric)]
        rows.append({"study": study, "metric": metric, "low": low, "high": high,
                     "prob_conf_mat low": t_low, "prob_conf_mat high": t_high})
    intervals = pd.DataFrame(rows)
    interval_gap = float(np.max(np.abs(intervals[["low", "high"]].to_numpy() -
                                       intervals[["prob_conf_mat low",
                                                  "prob_conf_mat high"]].to_numpy())))
    with pd.option_context("display.width", 160, "display.precision", 3):
        print(f"Table 3, {n_draws} draws each:")
        print(side.to_string())
        print(f"largest difference of any P(rank): {rank_gap:.4f}")
        print("\nTable S1, 95% intervals (λ = 1):")
        print(intervals.to_string(index=False))
        print(f"largest difference of an interval's end: {interval_gap:.4f}")
    return {"ranks": side, "rank_gap": rank_gap, "intervals": intervals,
            "interval_gap": interval_gap}


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
