"""
Is one classifier better across many data sets?
================================================

One data set answers "which model is better *here*".  Benchmark papers ask whether a model is
better across data sets in general.  Each data set then contributes one score per model, and the
Bayesian signed-rank test (Benavoli et al. 2014, 2017) turns the table of scores into
probabilities: that the first model is better by more than a region of practical equivalence,
that the two are practically equivalent, or that the second is better.

Here four scikit-learn classifiers are cross-validated on the bundled classification data sets
and on a few synthetic ones from ``make_classification``, scored by macro F1.
"""

import matplotlib.pyplot as plt
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    load_wine,
    make_classification,
)
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skprobeval import compare_estimators_across_datasets

datasets = {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True),
            "breast cancer": load_breast_cancer(return_X_y=True),
            "digits": load_digits(return_X_y=True)}
for seed, (n_features, n_informative, n_classes, flip) in enumerate(
        [(10, 4, 2, 0.05), (20, 6, 3, 0.05), (8, 3, 2, 0.15), (30, 10, 4, 0.02),
         (12, 5, 2, 0.10), (25, 8, 3, 0.08)]):
    datasets[f"synthetic {seed}"] = make_classification(
        n_samples=400, n_features=n_features, n_informative=n_informative,
        n_classes=n_classes, flip_y=flip, random_state=seed)

models = {
    "logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
    "knn": make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "tree": DecisionTreeClassifier(random_state=0),
    "naive bayes": GaussianNB(),
}
report = compare_estimators_across_datasets(models, datasets, cv=5, average="macro",
                                            rope=0.01, n_draws=20_000, random_state=0)

# %%
# The scores, data sets by models: each is the pooled out-of-fold macro F1 of one
# ``compare_estimators`` run (``report.reports`` keeps those per-data-set reports).
print(report.scores.round(3))

# %%
# Mean ranks, and for every pair the probability that the row model beats the column model by
# more than 0.01 of macro F1 (and that they are practically equivalent).
print(report)

# %%
# The ranks and the pairwise probabilities.
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
report.plot("ranks", ax=left)
report.plot("pairwise", ax=right)
fig.tight_layout()

# %%
# One pair in detail: every posterior draw is a point of the triangle, its position the masses
# of "logreg better", "equivalent" and "knn better".  The lines from the centre separate the
# regions where each of the three is the largest; the share of draws in each is the reported
# probability.
report.plot_pair("logreg", "knn")
plt.show()
