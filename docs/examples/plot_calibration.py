"""
How sure is a calibration curve?
================================

Three classifiers on a test set of 1 000 items, drawn as scikit-learn's
``CalibrationDisplay`` draws them, with each bin's credible interval: logistic regression
(close to calibrated), Gaussian naive Bayes (over-confident) and a linear SVM squashed into
[0, 1] (under-confident).  The simultaneous intervals hold all ten bins at once with
posterior probability 0.95; a model whose intervals all touch the diagonal is compatible with
perfect calibration, at this number of items.

Then the Brier score of each model with its credible interval (the Bayesian bootstrap,
Rubin 1981), the paired comparison of two models' Brier scores on the same items, and the
posterior of the expected calibration error against the level a calibrated model gives.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import LinearSVC

from skprobeval import (
    PosteriorCalibrationDisplay,
    brier_score_posterior,
    calibration_error_posterior,
    compare_losses,
)

X, y = make_classification(n_samples=3000, n_features=20, n_informative=4, n_redundant=4,
                           random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=1000, random_state=0)
svm = LinearSVC().fit(X_train, y_train)
probabilities = {
    "logistic regression": LogisticRegression().fit(X_train, y_train).predict_proba(X_test)[:, 1],
    "naive Bayes": GaussianNB().fit(X_train, y_train).predict_proba(X_test)[:, 1],
    # Decision values squashed into [0, 1] by a min-max scaling: not probabilities.
    "linear SVM (scaled)": np.interp(svm.decision_function(X_test), [-3, 3], [0, 1]),
}

# %%
# The curves, one panel per model, with the simultaneous 95% intervals of the bins.
fig, axes = plt.subplots(1, 3, figsize=(13, 4.3), sharey=True)
for ax, (name, prob) in zip(axes, probabilities.items()):
    display = PosteriorCalibrationDisplay.from_predictions(
        y_test, prob, n_bins=10, kind="simultaneous", name=name, ax=ax)
    band = display.band
    holds = np.all((band.low <= band.x) & (band.x <= band.high))
    ax.set_title(f"{name}\ndiagonal {'inside' if holds else 'outside'} the band")
fig.tight_layout()

# %%
# Brier scores with their 95% credible intervals; ``point`` is scikit-learn's
# ``brier_score_loss``.
for name, prob in probabilities.items():
    brier = brier_score_posterior(y_test, prob, random_state=0)
    low, high = brier.interval(0.95)
    print(f"{name:>20}: Brier {brier.point:.4f}  [{low:.4f}, {high:.4f}]")

# %%
# The paired comparison: the same draw of the items' weights scores both models, so the
# items they find equally hard cancel.  Lower loss is better: ``prob_first_better`` is the
# probability that logistic regression's Brier score is the lower.
squared = {name: (y_test - prob) ** 2 for name, prob in probabilities.items()}
result = compare_losses(squared["logistic regression"], squared["naive Bayes"], rope=0.002,
                        random_state=0)
print(result)
print("95% interval of the difference (first - second):", result.interval())

# %%
# The expected calibration error (10 equal-width bins).  Even a perfectly calibrated model
# has a binned error above 0: ``expected_if_calibrated`` is its level at these bins and
# counts.  A posterior near it is what calibration looks like; well above it, the data see
# miscalibration.
for name, prob in probabilities.items():
    ece = calibration_error_posterior(y_test, prob, random_state=0)
    low, high = ece.interval(0.95)
    print(f"{name:>20}: ECE {ece.point:.3f}  [{low:.3f}, {high:.3f}]  "
          f"calibrated model: about {ece.expected_if_calibrated:.3f}")
plt.show()
