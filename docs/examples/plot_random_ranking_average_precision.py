"""
Exact expected average precision of a random ranking (Bestgen 2015)
===================================================================

The usual random baseline for average precision is the share of relevant items, R/N.  It is
only the large-N approximation: the exact expectation is

.. math::

   E[AP] = \\frac{R-1}{N-1} + \\frac{(N-R) H_N}{N(N-1)},

an O(1) closed form, where the paper gives an O(R N) double sum over hypergeometric
probabilities (131 s for N = 10 000 in the paper's setting).
"""

from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np

from skprobeval import (
    average_precision,
    random_average_precision,
)
from skprobeval._metrics._baseline import random_average_precision_reference
from skprobeval.plotting import plot_random_ap_baseline

# %%
# Table 1: all 10 rankings of N = 5 documents with R = 2 relevant, and their AP.
n_items, n_relevant = 5, 2
scores = np.arange(n_items, 0, -1)  # rank 1 has the highest score
aps = []
for positions in combinations(range(n_items), n_relevant):
    relevance = np.zeros(n_items, dtype=int)
    relevance[list(positions)] = 1
    aps.append(average_precision(relevance, scores))
    print("".join(map(str, relevance)), f"AP = {aps[-1]:.3f}")
print(f"mean over the 10 rankings: {np.mean(aps):.4f}  (paper: 0.593; R/N = 0.40)")

# %%
# Table 2: for each i-th relevant document and rank n, the hypergeometric probability of
# i relevant among the first n, the chance i/n that the i-th one sits at rank n, and the
# contribution (final probability x precision at n) to the expected AP.
from scipy.stats import hypergeom  # noqa: E402

total = 0.0
print(" i  n  dhyper  i/n  final  P@n  contribution")
for i in range(1, n_relevant + 1):
    for n in range(i, n_items - n_relevant + i + 1):
        dhyper = hypergeom.pmf(i, n_items, n_relevant, n)
        final = dhyper * i / n
        total += final * i / n
        print(f"{i:>2} {n:>2}  {dhyper:6.1f}  {i / n:4.2f}  {final:5.1f}  {i / n:4.2f}  "
              f"{final * i / n:12.3f}")
print(f"sum = {total:.3f}; expected AP = sum / R = {total / n_relevant:.4f}")

# %%
# Table 2's procedure (the reference algorithm) and the closed form agree.
print("reference algorithm, (5, 2) :", round(random_average_precision_reference(5, 2), 7))
print("closed form, (5, 2)         :", round(random_average_precision(5, 2).mean, 7))
print("closed form, (10, 4)        :", round(random_average_precision(10, 4).mean, 7),
      "(paper: RandomAPExact(10, 4) = 0.5285979)")

# %%
# The closed form costs nothing at any N, and the variance is exact too.
print(random_average_precision(10_000, 4_000))
print(random_average_precision(10**12, 10**11))

# %%
# Figure 1: exact minus approximate baseline across N and p.  The difference is always
# positive and falls below 0.01 only for N of several hundred.
fig, ax = plt.subplots()
plot_random_ap_baseline(np.unique(np.geomspace(20, 2000, 50).astype(int)),
                        prevalences=(0.05, 0.1, 0.2, 0.3, 0.4), ax=ax)
ax.axhline(0.01, color="grey", linestyle=":")
