"""
The bookmaker: informedness of guessing, perfect and half-informed systems (Powers 2003)
========================================================================================

Powers' poster shows three contingency tables (rows predicted +/-, columns real +/-): a punter
who guesses, one who always knows, and one informed half of the time.  Precision and recall
reward the guesser for its bias; informedness (``tpr - fpr``) gives 0, 1 and 0.5.
"""

import numpy as np

from skprobeval import ConfusionCounts, get_metric, informedness_posterior, informedness_score

tables = {
    "guessing": [[12, 28], [18, 42]],
    "perfect": [[30, 0], [0, 70]],
    "half-informed": [[21, 14], [9, 56]],
}


def labels_of(table):
    """y_true, y_pred reproducing a table of rows predicted (+, -), columns real (+, -)."""
    (tp, fp), (fn, tn) = table
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


# %%
# Point values: informedness, and precision / recall for contrast.
for name, table in tables.items():
    y_true, y_pred = labels_of(table)
    counts = ConfusionCounts.from_predictions(y_true, y_pred)
    cells = (counts.tp, counts.fp, counts.fn, counts.tn)
    print(f"{name:>14}: informedness {informedness_score(y_true, y_pred):+.2f}  "
          f"bookmaker (powers) {informedness_score(y_true, y_pred, average='powers'):+.2f}  "
          f"precision {float(get_metric('precision')(*cells)):.2f}  "
          f"recall {float(get_metric('recall')(*cells)):.2f}")

# %%
# How sure: the exact posterior of informedness and P(better than chance).
for name, table in tables.items():
    posterior = informedness_posterior(*labels_of(table))
    low, high = posterior.interval(0.95)
    print(f"{name:>14}: 95% interval [{low:+.3f}, {high:+.3f}], "
          f"P(better than chance) = {posterior.prob_greater(0.0):.3f}")
