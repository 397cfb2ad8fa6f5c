"""
Precision-recall and ROC curves with credible bands
===================================================

Two classifiers on the breast cancer data, one held-out half: their precision-recall and ROC
curves with simultaneous 95% credible bands, the exact band of a random ranking's precision at
every cutoff, the posteriors of their average precision and ROC AUC, and a paired comparison of
the two rankings.  Then a decision threshold chosen under uncertainty: scikit-learn's
``TunedThresholdClassifierCV`` maximising the lower credible bound of F1 instead of F1 itself.
"""

import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import TunedThresholdClassifierCV, train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skprobeval import (
    PosteriorPrecisionRecallDisplay,
    PosteriorRocCurveDisplay,
    average_precision_posterior,
    compare_scores,
    make_posterior_scorer,
)

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y,
                                                    random_state=0)
models = {
    "logistic regression": make_pipeline(StandardScaler(), LogisticRegression()),
    "naive Bayes": GaussianNB(),
}
scores = {name: model.fit(X_train, y_train).predict_proba(X_test)[:, 1]
          for name, model in models.items()}

# %%
# Curves with simultaneous bands.  The grey band on the precision-recall figure is where a
# random ranking's precision lies at each cutoff (95%, exact for this many items): wide at the
# top of the ranking, where few items decide, and narrowing towards the prevalence line.
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
for i, (name, score) in enumerate(scores.items()):
    PosteriorPrecisionRecallDisplay.from_predictions(
        y_test, score, name=name, kind="simultaneous", random_state=0, ax=left,
        plot_chance_level=i == 0)
    PosteriorRocCurveDisplay.from_predictions(
        y_test, score, name=name, kind="simultaneous", random_state=0, ax=right,
        plot_chance_level=i == 0)
left.legend(loc="lower left", fontsize="small")
right.legend(loc="lower right", fontsize="small")
fig.tight_layout()

# %%
# Average precision posteriors, and the paired comparison of the two rankings on the same
# items (one posterior draw weighs both, so what they share cancels).
for name, score in scores.items():
    ap = average_precision_posterior(y_test, score, random_state=0)
    low, high = ap.interval(0.95)
    print(f"{name:<20} AP {ap.point:.4f}, 95% credible interval [{low:.4f}, {high:.4f}]")
for metric in ("average_precision", "roc_auc"):
    result = compare_scores(y_test, scores["logistic regression"], scores["naive Bayes"],
                            metric=metric, rope=0.005, random_state=0)
    print(f"{metric}: P(logistic better) = {result.prob_first_better:.3f}, "
          f"P(within 0.005) = {result.prob_equivalent:.3f}, "
          f"P(naive Bayes better) = {result.prob_second_better:.3f}")

# %%
# A threshold chosen under uncertainty: the lower bound of the F1 posterior's 90% interval
# penalises thresholds whose F1 rests on few items.
lower_f1 = make_posterior_scorer(metric="f1", statistic="lower", confidence=0.9)
for scoring, label in (("f1", "F1"), (lower_f1, "lower 90% bound of F1")):
    tuned = TunedThresholdClassifierCV(models["logistic regression"], scoring=scoring, cv=5,
                                       random_state=0).fit(X_train, y_train)
    print(f"threshold maximising {label}: {tuned.best_threshold_:.3f} "
          f"(cross-validated score {tuned.best_score_:.4f})")
