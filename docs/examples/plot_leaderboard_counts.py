"""
A leaderboard and a paper's tables, from their counts alone
===========================================================

Tötsch & Hoffmann (2020) asked how sure a leaderboard's order is.  A Kaggle competition
("Recursion Cellular Image Classification") ranked its teams by accuracy on 15 124 hidden
test images; the top ten are 0.9924 to 0.9976 apart, a few dozen images.  Nobody outside
the competition has the predictions, only each team's accuracy and the test set's size:
counts.  ``compare_counts`` gives each team its own posterior and ranks them, by default
after partially pooling the teams' accuracies (near-equal teams are drawn toward each other
as far as the test set cannot tell them apart).

The second half reproduces the paper's Table S1: the sensitivity and specificity of 24
published binary classifiers, most tested on a few dozen items, with their intervals.

Every number here was also computed with prob_conf_mat 0.4, a library built on the same
Dirichlet model of a confusion table, on the same tables (the script
``benchmarks/totsch_hoffmann.py`` runs both).  The rank probabilities of the ten teams
agree within 0.006 (100 000 draws each, prob_conf_mat with its default priors, and
``pooling="none"`` here: prob_conf_mat ranks each team's own posterior), and the 48
interval ends of Table S1 within 0.006 (prob_conf_mat samples them; here they are exact
Beta quantiles).
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from skprobeval import ConfusionCounts, compare_counts, metric_posterior

# %%
# Table 3: the leaderboard's top ten
# ----------------------------------
#
# Each team's counts as the paper reconstructs them from the accuracy and the test set's
# size: a balanced binary table (TP = TN, FN = FP), whose accuracy is what the leaderboard
# reports.

board = pd.DataFrame(
    [["3467175", 7544, 18, 18, 7544], ["3394520", 7537, 25, 25, 7537],
     ["3338942", 7531, 31, 31, 7531], ["3339018", 7525, 37, 37, 7525],
     ["3338836", 7524, 38, 38, 7524], ["3429037", 7515, 47, 47, 7515],
     ["3346448", 7509, 53, 53, 7509], ["3338664", 7509, 53, 53, 7509],
     ["3338358", 7507, 55, 55, 7507], ["3339624", 7504, 58, 58, 7504]],
    columns=["team", "tp", "fn", "fp", "tn"]).set_index("team")

report = compare_counts(board, metric="accuracy", pooling="none", n_draws=100_000,
                        random_state=0)
report.ranking.summary().round(4)

# %%
# Each team's own posterior puts the leader first with probability 0.93, and the
# leaderboard's order below the top two is far from settled: the fourth and fifth teams
# swap places almost as often as not, and the seventh and eighth (identical counts) are
# exchangeable.  prob_conf_mat 0.4 gives the leader 0.934 and every other rank probability
# within 0.006 of these.
#
# The default, ``pooling="partial"``, treats the ten teams as draws from a population of
# teams and is less sure of the leader: 0.89 (the second team 0.10).  On leaderboards of
# near-equal systems, each on a test set of its own, the coverage benchmark's systems
# section finds the unpooled P(best) overconfident (given 0.69, the best 30-55% of the
# time) and the pooled one within 0.05 plus two standard errors in every bin.

pooled = compare_counts(board, metric="accuracy", n_draws=100_000, random_state=0)
pooled.ranking.prob_best.head(3).round(3)

# %%
# The comparisons are unpaired: the counts do not say which images each team got wrong,
# so the report compares independent posteriors (``report.independent``).  With the
# predictions, ``rank_systems`` would be sharper: two teams wrong on the same hard images
# differ by less than their accuracies' noise suggests.

report.pairs.head(4).round(4)

# %%
# The rank probabilities, best first:

report.ranking.plot()
plt.title("Tötsch & Hoffmann (2020), Table 3: P(rank) of the top ten")
plt.tight_layout()

# %%
# Table S1: small studies, wide intervals
# ---------------------------------------
#
# Sensitivity (recall, TP / (TP + FN)) and specificity (TN / (TN + FP)) of 24 classifiers
# from published studies, with a uniform prior (λ = 1 on every cell, as the paper): each is
# an exact Beta posterior.

studies = pd.DataFrame(
    [["1", 5, 0, 3, 0], ["2", 10, 0, 3, 1], ["3", 6, 0, 7, 1], ["4a", 5, 1, 10, 1],
     ["4b", 4, 2, 10, 1], ["5a", 16, 1, 3, 2], ["5b", 8, 9, 4, 1], ["6a", 2, 12, 19, 1],
     ["6b", 10, 4, 20, 0], ["7a", 26, 0, 6, 2], ["7b", 24, 2, 6, 2], ["8", 28, 9, 3, 4],
     ["9a", 19, 3, 18, 10], ["9b", 21, 1, 20, 8], ["10", 31, 5, 24, 4],
     ["11", 40, 7, 15, 8], ["12", 31, 9, 20, 13], ["13a", 79, 14, 19, 0],
     ["13b", 89, 4, 16, 3], ["14a", 136, 2, 2, 12], ["15a", 3, 12, 150, 0],
     ["15b", 6, 9, 150, 0], ["16", 188, 0, 13, 2], ["14b", 253, 27, 11, 59]],
    columns=["study", "tp", "fn", "tn", "fp"]).set_index("study")

rows = []
for study, row in studies.iterrows():
    counts = ConfusionCounts(tp=row.tp, fp=row.fp, fn=row.fn, tn=row.tn)
    points = {"recall": row.tp / (row.tp + row.fn), "specificity": row.tn / (row.tn + row.fp)}
    for metric, point in points.items():
        posterior = metric_posterior(counts, metric=metric, prior=1.0)
        bounds = posterior.interval(0.95)
        rows.append({"study": study, "n": int(counts.n), "metric": metric, "point": point,
                     "median": float(posterior.median()), "low": float(bounds.low),
                     "high": float(bounds.high)})
intervals = pd.DataFrame(rows)
intervals.pivot(index="study", columns="metric", values=["low", "high"]).round(3).head(8)

# %%
# A study of 8 items reporting a sensitivity of 1 has a 95% interval from 0.54 to 1 (its
# point value, 1, is beyond the interval's upper end, 0.996: no finite study shows a
# perfect classifier); one of 350 items pins its sensitivity to 0.86-0.93.  The figure
# shows every posterior median and interval, studies in the paper's order (by size).

fig, axes = plt.subplots(1, 2, figsize=(9, 6), sharey=True)
positions = np.arange(len(studies))
for ax, metric, title in zip(axes, ("recall", "specificity"), ("sensitivity", "specificity")):
    part = intervals[intervals["metric"] == metric]
    ax.errorbar(part["median"], positions,
                xerr=[part["median"] - part["low"], part["high"] - part["median"]],
                fmt="o", markersize=4, capsize=2)
    ax.set_xlim(0, 1.02)
    ax.set_xlabel(f"{title} (95% interval, λ = 1)")
axes[0].set_yticks(positions, [f"{s} (n={n})" for s, n in zip(studies.index,
                                                            studies.sum(axis=1))])
axes[0].invert_yaxis()
fig.suptitle("Tötsch & Hoffmann (2020), Table S1: 24 published classifiers")
fig.tight_layout()
