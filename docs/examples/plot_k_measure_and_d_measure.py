"""
K-measure curves and D-measure weights (Nakache et al. 2005)
============================================================

The K-measure :math:`(1+\\beta^2)(PR)^\\alpha / (\\beta^2 P + R)` generalises F-beta
(:math:`\\alpha = 1`) with a requirement level :math:`\\alpha`: the paper's example is
P = R = 0.4, where F = 0.4 but K = 0.13 at :math:`\\alpha = 1.6` ("three times less").

The D-measure weighs graded pertinence by rank with sigmoid weights.  The paper's printed
formula is damaged; skprobeval reads it as :math:`w_i = 1/(1+\\exp(-k(x_i - l)))` with
:math:`x_i = (N-i+1)/N`, which matches the paper's description for N = 273, k = 15, l = 0.7:
weights near 1 at the top, falling sharply past rank ~50 and close to 0 past rank 150.
"""

import matplotlib.pyplot as plt
import numpy as np

from skprobeval import d_measure_score, d_measure_weights, get_metric

# %%
# The paper's number: P = R = 0.4 is the table tp = 2, fp = 3, fn = 3.
k_measure = get_metric("k_measure")
print("F1          :", round(float(k_measure(2, 3, 3, 0, alpha=1.0)), 4))
print("K, alpha=1.6:", round(float(k_measure(2, 3, 3, 0, alpha=1.6)), 4))

# %%
# K-measure as precision = recall varies, for the paper's three alphas (its Fig. 1).
values = np.linspace(0.01, 1, 200)
fig, ax = plt.subplots()
for alpha in (1.0, 1.2, 1.6):
    # P = R = v: tp = v, fp = fn = 1 - v on a unit table.
    ax.plot(values, k_measure(values, 1 - values, 1 - values, 0, alpha=alpha),
            label=f"alpha = {alpha}")
ax.set_xlabel("precision = recall")
ax.set_ylabel("K-measure")
ax.legend()

# %%
# D-measure weights for N = 273 with the defaults k = 15, l = 0.7.
weights = d_measure_weights(273)
fig, ax = plt.subplots()
ax.plot(np.arange(1, 274), weights)
ax.axvline(83, color="grey", linestyle=":")
ax.set_xlabel("rank i")
ax.set_ylabel("weight w_i")
ax.set_title("D-measure weights, N = 273, k = 15, l = 0.7")
print("weight at rank 1, 83, 150:", np.round(weights[[0, 82, 149]], 3))

# %%
# Good answers early score higher than the same answers late.
early = np.r_[np.ones(30), np.zeros(243)]
late = early[::-1]
print("D, good answers first:", round(d_measure_score(early), 4))
print("D, good answers last :", round(d_measure_score(late), 4))
