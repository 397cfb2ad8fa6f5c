"""
How sure is a precision of 0.6? Goutte & Gaussier's worked example and Figure 1
================================================================================

System 1 returns 10 true and 10 false positives (precision 0.5); system 2 returns 3 true and
2 false positives (precision 0.6).  With Jeffreys' prior the precision posteriors are
Beta(10.5, 10.5) and Beta(3.5, 2.5): system 2 is better on average (mean 0.583, mode 0.625) but
far more variable, and P(precision_2 > precision_1) is only about 0.65 — not significant at
any reasonable level (Goutte & Gaussier 2005, section 2.2).
"""

import matplotlib.pyplot as plt

from skprobeval import ConfusionCounts, compare_independent, metric_posterior
from skprobeval.plotting import plot_posteriors

system_1 = ConfusionCounts(tp=10, fp=10, fn=0, tn=0)
system_2 = ConfusionCounts(tp=3, fp=2, fn=0, tn=0)

posterior_1 = metric_posterior(system_1, metric="precision")
posterior_2 = metric_posterior(system_2, metric="precision")
print("system 1:", posterior_1)
print("system 2: mean", round(posterior_2.mean(), 3), "mode", round(posterior_2.mode(), 3))

# %%
# The exact probability that system 2 has the higher precision (the paper's 0.652):
result = compare_independent(system_2, system_1, metric="precision")
print("P(precision_2 > precision_1) =", round(result.prob_first_better, 4))

# %%
# Figure 1: the two posterior densities with their 95% credible intervals.
fig, ax = plt.subplots()
plot_posteriors({"system 1 (10 TP, 10 FP)": posterior_1, "system 2 (3 TP, 2 FP)": posterior_2},
                ax=ax)
ax.set_xlabel("precision")
