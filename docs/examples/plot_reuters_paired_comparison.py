"""
Paired comparison on Reuters: Goutte & Gaussier's Table 2 with exact probabilities
===================================================================================

Goutte & Gaussier compare text classifiers on the same 3299 Reuters test documents with a
paired model: for each category, N1 documents where the first system is right and the second
wrong, N2 the reverse.  With a Dirichlet(1/2, 1/2, .) prior,

.. math:: P(\\pi_1 > \\pi_2) = 1 - I_{1/2}(N_1 + 1/2, N_2 + 1/2),

a closed form.  The paper printed Monte Carlo estimates; here they stand beside the exact
values (the 24-vs-24 row is exactly 50%).
"""

import pandas as pd

from skprobeval import PairedComparison, PairedCounts

# Goutte & Gaussier (2005), Table 2: (category, comparison, N1, N2, printed Monte Carlo
# P(pi1 > pi2) in %).
TABLE_2 = [
    # ltc > nnn (linear kernel)
    ("earn", "ltc/nnn", 17, 4, 99.77),
    ("acq", "ltc/nnn", 43, 28, 96.41),
    ("money-fx", "ltc/nnn", 39, 23, 97.90),
    ("crude", "ltc/nnn", 21, 15, 84.32),
    ("grain", "ltc/nnn", 17, 11, 87.32),
    ("trade", "ltc/nnn", 23, 22, 55.75),
    ("interest", "ltc/nnn", 24, 24, 49.73),
    ("wheat", "ltc/nnn", 10, 9, 59.56),
    ("ship", "ltc/nnn", 6, 11, 11.38),
    ("corn", "ltc/nnn", 6, 5, 61.45),
    ("dlr", "ltc/nnn", 13, 6, 94.62),
    ("oilseed", "ltc/nnn", 12, 9, 74.31),
    ("money-sup", "ltc/nnn", 8, 3, 93.43),
    # lin > p2 on 'nnn' weighting
    ("earn", "nnn lin/p2", 48, 12, 100.00),
    ("acq", "nnn lin/p2", 282, 14, 100.00),
    ("money-fx", "nnn lin/p2", 58, 43, 93.76),
    ("crude", "nnn lin/p2", 62, 21, 100.00),
    ("grain", "nnn lin/p2", 46, 10, 100.00),
    ("trade", "nnn lin/p2", 28, 28, 49.19),
    ("interest", "nnn lin/p2", 38, 21, 98.61),
    ("wheat", "nnn lin/p2", 14, 13, 57.87),
    ("ship", "nnn lin/p2", 22, 4, 99.97),
    ("corn", "nnn lin/p2", 19, 2, 99.99),
    ("dlr", "nnn lin/p2", 191, 2, 100.00),
    ("oilseed", "nnn lin/p2", 24, 10, 99.23),
    ("money-sup", "nnn lin/p2", 10, 11, 41.22),
    # lin > p2 on 'ltc' weighting
    ("earn", "ltc lin/p2", 1, 4, 9.76),
    ("acq", "ltc lin/p2", 6, 7, 39.68),
    ("money-fx", "ltc lin/p2", 11, 6, 88.70),
    ("crude", "ltc lin/p2", 4, 2, 78.66),
    ("grain", "ltc lin/p2", 9, 2, 98.48),
    ("trade", "ltc lin/p2", 2, 7, 4.36),
    ("interest", "ltc lin/p2", 5, 3, 76.29),
    ("wheat", "ltc lin/p2", 0, 3, 3.39),
    ("ship", "ltc lin/p2", 3, 1, 83.71),
    ("corn", "ltc lin/p2", 1, 0, 82.31),
    ("dlr", "ltc lin/p2", 5, 3, 75.81),
    ("oilseed", "ltc lin/p2", 3, 2, 66.66),
    ("money-sup", "ltc lin/p2", 0, 3, 3.49),
]
N_DOCUMENTS = 3299

rows = []
for category, comparison, n1, n2, printed in TABLE_2:
    result = PairedComparison.from_counts(PairedCounts(n1, n2, N_DOCUMENTS - n1 - n2))
    rows.append({"comparison": comparison, "category": category, "N1": n1, "N2": n2,
                 "printed %": printed, "exact %": round(100 * result.prob_first_better, 2),
                 "E[log odds]": round(result.expected_log_odds, 3)})
table = pd.DataFrame(rows)
print(table.to_string(index=False))

# %%
# The largest gap between the printed Monte Carlo value and the exact one:
gap = (table["exact %"] - table["printed %"]).abs()
worst = table.loc[gap.idxmax()]
print(f"largest |exact - printed|: {gap.max():.2f} points "
      f"({worst['comparison']}, {worst['category']})")

# %%
# Evidence pools by adding counts.  Had a second collection of the same size given
# 'money-sup' (ltc vs nnn) 2 more wins for 'ltc' and 1 for 'nnn', the pooled posterior is:
pooled = PairedCounts(8, 3, 3288) + PairedCounts(2, 1, 3296)
print(PairedComparison.from_counts(pooled))
