"""
Which of several classifiers is best on one test set?
=====================================================

Six scikit-learn classifiers trained on half of the digits data and tested on the other half
(899 items, 10 classes).  ``rank_systems`` draws every classifier's macro F1 from one joint
posterior of the test items, so that the items all classifiers get right (or wrong) move their
scores together, and ranks the classifiers in each draw: the probability that each is the
best, of each rank, and of beating each other one.
"""

import matplotlib.pyplot as plt
from sklearn.datasets import load_digits
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from skprobeval import rank_systems

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
models = {
    "svm": make_pipeline(StandardScaler(), SVC()),
    "knn": KNeighborsClassifier(),
    "logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
    "random forest": RandomForestClassifier(random_state=0),
    "tree": DecisionTreeClassifier(random_state=0),
    "naive bayes": GaussianNB(),
}
predictions = {name: model.fit(X_train, y_train).predict(X_test)
               for name, model in models.items()}

# %%
# One joint posterior, 10 000 draws.  ``prob_best`` sums to 1; ``mc_error`` is its Monte Carlo
# standard error; ``mean``, ``low`` and ``high`` summarise each classifier's macro F1.
ranking = rank_systems(y_test, predictions, metric="f1", average="macro", random_state=0)
print(ranking.summary().round(3).to_string())

# %%
# The probability that each classifier takes each rank, best first.
fig, ax = plt.subplots(figsize=(6, 4))
ranking.plot(ax=ax)
fig.tight_layout()

# %%
# The probability that the row classifier's macro F1 beats the column classifier's.  With
# ``rope=0.01``, ``prob_within_rope_of_best`` says which classifiers are within one point of
# the best one in the same draw: practically as good.
print(ranking.pairwise.round(2))
within = rank_systems(y_test, predictions, metric="f1", average="macro", rope=0.01,
                      random_state=0)
print(within.prob_within_rope_of_best.round(3))
plt.show()
