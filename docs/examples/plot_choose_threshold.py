"""
Choosing a decision threshold with a guarantee
==============================================

A classifier of the breast cancer data is fitted on one half and its threshold chosen on the
other: the threshold of highest expected recall among those where precision >= 0.95 holds
with posterior probability 0.95 at every candidate at once (:func:`~skprobeval.choose_threshold`).
The left panel shows the exact probability that the constraint holds at each threshold, the
level the choice among thresholds requires, and the expected recall; the right panel the
expected utility of each threshold when a missed positive costs five false alarms
(:func:`~skprobeval.threshold_utility`).  The chosen threshold becomes a scikit-learn
``FixedThresholdClassifier``.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skprobeval import choose_threshold, threshold_utility

X, y = load_breast_cancer(return_X_y=True)
y = 1 - y      # the positive class: malignant
X_fit, X_held, y_fit, y_held = train_test_split(X, y, test_size=0.5, stratify=y,
                                                random_state=0)
model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05)).fit(X_fit, y_fit)
# Log-odds (decision_function) spread the scores out where probabilities pile up at 0 and 1.
score = model.decision_function(X_held)

choice = choose_threshold(y_held, score, constraint=("precision", 0.95), maximize="recall",
                          random_state=0)
print(choice)
print({key: (round(value, 4) if isinstance(value, float) else value)
       for key, value in choice.to_dict().items()})

utility = threshold_utility(y_held, score, utility=[[0, -1], [-5, 0]], random_state=0)
print(utility)

figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
choice.plot(ax=left)
left.set_title("precision >= 0.95 with probability 0.95")
low, high = utility.posterior.interval(0.95)
right.fill_between(utility.thresholds, low, high, step="post", alpha=0.3,
                   label="95% credible interval")
right.step(utility.thresholds, utility.expected_utility, where="post",
           label="expected utility per item")
right.axvline(utility.best_threshold, color="black", linewidth=1.0,
              label=f"best threshold {utility.best_threshold:.3g}")
right.set_xlabel("threshold (decision function)")
right.set_title("utility: a missed positive costs 5 false alarms")
right.legend(fontsize="small")
figure.tight_layout()

# %%
# The chosen threshold as a scikit-learn classifier (scikit-learn >= 1.5): it predicts
# with the fitted pipeline and ``decision_function >= threshold``.
classifier = choice.to_estimator(model, response_method="decision_function")
agree = np.array_equal(classifier.predict(X_held), (score >= choice.threshold).astype(int))
print(type(classifier).__name__, agree)
