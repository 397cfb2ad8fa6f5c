"""
Per-group posteriors: how sure is a gap in true positive rate between groups?
=============================================================================

A screening classifier is checked group by group, as fairlearn's ``MetricFrame`` does.  Its
true positive rate is 0.80 in groups A and B and 0.65 in the small group C, whose few positive
items move its observed rate by several points each.  `PosteriorMetricFrame` gives each group
the posterior of its rate; the gap between the groups is sampled from these independent
posteriors, and `GroupIntervalDisplay` draws one credible interval per group.
"""

import matplotlib.pyplot as plt
import numpy as np

from skprobeval import GroupIntervalDisplay, PosteriorMetricFrame, equalized_odds_disparity

rng = np.random.default_rng(0)
sizes = {"A": 600, "B": 200, "C": 60}
group = np.repeat(list(sizes), list(sizes.values()))
y_true = (rng.random(group.size) < 0.3).astype(int)
# True positive rates 0.80, 0.80 and 0.65; the false positive rate 0.10 in every group.
tpr = np.where(group == "C", 0.65, 0.80)
y_pred = np.where(y_true == 1, rng.random(group.size) < tpr, rng.random(group.size) < 0.1)
y_pred = y_pred.astype(int)
print({key: int(y_true[group == key].sum()) for key in sizes}, "positive items")

frame = PosteriorMetricFrame(metrics=["recall", "selection_rate"], y_true=y_true,
                             y_pred=y_pred, sensitive_features=group, random_state=0)
print(frame.by_group["recall"].round(3))

# %%
# The point gap (fairlearn's ``difference()``, here 0.15 in truth) and the posterior of
# ``max - min`` over the three groups: how large a gap the data leave room for.
gap = frame.difference()["recall"]
print("point gap", round(gap.point, 3), "posterior mean", round(gap.mean(), 3),
      "95% interval", gap.interval(0.95))
print("P(gap > 0.1) =", round(gap.prob_disparity_greater(0.1), 3),
      "P(gap > 0.3) =", round(gap.prob_disparity_greater(0.3), 3))

# %%
# Equalized odds: the worse of the true and false positive rate gaps, draw by draw.
odds = equalized_odds_disparity(y_true, y_pred, sensitive_features=group, random_state=0)
print("equalized odds difference", round(odds.point, 3),
      "P(> 0.1) =", round(odds.prob_disparity_greater(0.1), 3))

# %%
# One credible interval per group (dots: posterior means; crosses: the point values; the
# band: all items together).
fig, ax = plt.subplots(figsize=(8, 2.8))
GroupIntervalDisplay.from_frame(frame, metric="recall", ax=ax)
ax.set_title("True positive rate by group, 95% credible intervals")
ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small")
fig.tight_layout()
plt.show()
