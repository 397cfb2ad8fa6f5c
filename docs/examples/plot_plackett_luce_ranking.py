"""
Which of several classifiers is best across data sets?
======================================================

A benchmark table of six classifiers on 25 data sets, scores rounded to two decimals as a
paper prints them (so some tie).  Instead of mean ranks and a critical-difference diagram, a
Bayesian Plackett-Luce model of the rankings (Calvo, Ceberio and Lozano 2018), sampled by the
Gibbs sampler of Caron and Doucet (2012), gives the probability that each classifier is the
best, its expected rank on a new data set with a credible interval, and the probability of
each rank.

The table is simulated: each classifier has a true skill, each data set a difficulty, and
each score some noise.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from skprobeval import compare_across_datasets, rank_across_datasets

rng = np.random.default_rng(3)
skill = pd.Series({"gbm": 0.86, "random forest": 0.85, "svm": 0.84, "logreg": 0.82,
                   "knn": 0.80, "naive bayes": 0.76})
difficulty = rng.uniform(-0.15, 0.1, size=25)
scores = pd.DataFrame(skill.to_numpy() + difficulty[:, None]
                      + rng.normal(0, 0.025, size=(25, len(skill))),
                      columns=skill.index, index=[f"data set {i + 1}" for i in range(25)])
scores = scores.clip(0, 1).round(2)
print(scores.head())

# %%
# The posterior: 10 000 draws from four chains.  ``prob_best`` is the probability that a
# classifier has the largest Plackett-Luce weight; ``mc_error`` its Monte Carlo error, by
# batch means.  ``n_tied`` data sets hold a tie, handled by summing over the tied orders.
ranking = rank_across_datasets(scores, random_state=0)
print(ranking.summary().round(3).to_string())
print(f"data sets with ties: {ranking.n_tied}")

# %%
# The expected rank of each classifier on a new data set, with its 95% credible interval,
# and the probability that it takes each rank.
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
ranking.plot(ax=left)
ranking.plot("probabilities", ax=right)
fig.tight_layout()

# %%
# The probability that the row classifier ranks above the column classifier on a new data
# set.
print(ranking.prob_above.round(2))

# %%
# The mean ranks of the frequentist analysis, from ``compare_across_datasets``, order the
# classifiers the same way; the model adds how sure each place is.
report = compare_across_datasets(scores, random_state=0)
print(report.mean_ranks.round(2))
plt.show()
