"""
Which candidate of a grid search is best, and which is simplest among the best?
===============================================================================

``GridSearchCV`` ranks its candidates by mean fold score, and ``best_index_`` is the top one,
however small its lead.  ``rank_cv_results`` reads the same ``cv_results_`` through the
correlated t-test (Nadeau & Bengio 2003; Benavoli et al. 2017), generalised to all the
candidates at once: the posterior of the candidates' mean scores is a multivariate Student-t
whose every pairwise difference is the two-candidate test's.  It gives the probability that
each candidate is the best, the probability of each rank, and the probability of being within
a region of practical equivalence (ROPE) of the best.  ``SimplestWithinRopeRefit`` then refits
the most regularised candidate that is, with probability at least 0.9, within the ROPE of the
best.

Logistic regression on the breast cancer data, over the inverse regularisation strength
``C``, with 5-fold cross-validation repeated three times.
"""

import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skprobeval import SimplestWithinRopeRefit, rank_cv_results

X, y = load_breast_cancer(return_X_y=True)
model = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear"))
grid = {"logisticregression__C": [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]}
cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=0)
search = GridSearchCV(model, grid, cv=cv, scoring="accuracy").fit(X, y)
print("GridSearchCV's choice:", search.best_params_)

# %%
# The ranking.  Given the fitted search, the test fraction (1/5: each split tests a fifth of
# the data) is read from its splitter; all 15 split scores enter.  A ROPE of one point of
# accuracy.
ranking = rank_cv_results(search, rope=0.01, random_state=0)
print(ranking)
print(ranking.summary().round(3).to_string())

# %%
# The probability of each rank, candidates best first, and the pairwise probabilities
# ``P(row better than column by more than the ROPE)`` (exact: the correlated t-test of each
# pair).
fig, ax = plt.subplots(figsize=(7, 4))
ranking.plot(ax=ax)
fig.tight_layout()
print(ranking.pairwise.round(2).to_string())

# %%
# The refit rule: the smallest ``C`` (strongest regularisation) whose probability of being
# within one point of the best is at least 0.9.  A refit rule sees only ``cv_results_``, not
# the splitter, so the test fraction of the repeated 5-fold scheme is passed.
refit = SimplestWithinRopeRefit(rope=0.01, complexity=("logisticregression__C", "ascending"),
                                test_fraction=0.2)
search = GridSearchCV(model, grid, cv=cv, scoring="accuracy", refit=refit).fit(X, y)
print("refit:", search.best_params_)
plt.show()
