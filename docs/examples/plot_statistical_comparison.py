"""
Statistical comparison of models, in a few calls
================================================

scikit-learn's gallery example "Statistical comparison of models using grid search" compares
SVC kernels on a noisy two-moons problem with repeated 10-fold cross-validation, a corrected
t-test and a Bayesian correlated t-test written by hand.  Here the same question goes through
``correlated_ttest`` on the fold scores, and ``compare_estimators`` adds the paired
comparisons that use every test item.
"""

from sklearn.datasets import make_moons
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.svm import SVC

from skprobeval import compare_estimators, correlated_ttest

X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
grid = [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]}, {"kernel": ["rbf"]}]
search = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=cv).fit(X, y)

# %%
# The two best kernels, by mean ROC AUC over the 100 folds.
results = search.cv_results_
order = results["rank_test_score"].argsort()
best, second = order[:2]
scores_best = [results[f"split{k}_test_score"][best] for k in range(100)]
scores_second = [results[f"split{k}_test_score"][second] for k in range(100)]
print("best:  ", results["params"][best], "\nsecond:", results["params"][second])

# %%
# Bayesian correlated t-test (test fraction 1/10, 10 runs), with a 1% region of practical
# equivalence, as in the scikit-learn example.
test = correlated_ttest(scores_best, scores_second, test_fraction=0.1, runs=10, rope=0.01)
print(f"P(best better) = {test.prob_first_better:.3f}, "
      f"P(equivalent) = {test.prob_equivalent:.3f}, "
      f"P(second better) = {test.prob_second_better:.3f}")

# %%
# The whole comparison on the same repeated splits: pooled counts (divided by the 10 repeats),
# F1 posteriors, paired comparisons of who is right more often, and the t-tests of fold F1.
report = compare_estimators(
    {"rbf": SVC(kernel="rbf", random_state=0), "poly3": SVC(kernel="poly", degree=3,
                                                            random_state=0),
     "linear": SVC(kernel="linear", random_state=0)},
    X, y, cv=cv, rope=0.01)
print(report)
report.plot()
