"""Plots render with the Agg backend to non-empty PNG files."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from skprobeval import ConfusionCounts, metric_posterior  # noqa: E402
from skprobeval.plotting import (  # noqa: E402
    plot_pairwise,
    plot_posteriors,
    plot_random_ap_baseline,
)


def _posteriors():
    return {"a": metric_posterior(ConfusionCounts(10, 10, 3, 20), "precision"),
            "b": metric_posterior(ConfusionCounts(30, 5, 10, 50), "f1"),
            "c": metric_posterior(ConfusionCounts(30, 5, 10, 50), "informedness")}


PLOTS = {
    "posteriors": lambda ax: plot_posteriors(_posteriors(), ax=ax),
    "pairwise": lambda ax: plot_pairwise(
        pd.DataFrame([[float("nan"), 0.8], [0.2, float("nan")]], index=["x", "y"],
                     columns=["x", "y"]), ax=ax),
    "random_ap": lambda ax: plot_random_ap_baseline([10, 50, 200], ax=ax),
}


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_plot_renders_to_png(name, tmp_path):
    before = dict(matplotlib.rcParams)
    figure, ax = plt.subplots()
    returned = PLOTS[name](ax)
    assert returned is ax
    path = tmp_path / f"{name}.png"
    figure.savefig(path)
    plt.close(figure)
    assert path.stat().st_size > 1000
    assert dict(matplotlib.rcParams) == before


def test_plot_without_ax_makes_a_figure():
    ax = plot_random_ap_baseline([20, 40])
    assert ax.figure is not None
    plt.close(ax.figure)


def test_report_and_scalar_inputs():
    ax = plot_random_ap_baseline(100)
    assert len(ax.get_lines()) == 4
    plt.close(ax.figure)
    table = pd.DataFrame([[float("nan"), 0.7], [0.3, float("nan")]], index=["pairwise", "b"],
                         columns=["pairwise", "b"])
    ax = plot_pairwise(table)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["pairwise", "b"]
    plt.close(ax.figure)


def test_bad_plot_input():
    per_label = metric_posterior(ConfusionCounts([3, 4], [1, 2], [2, 1], [5, 5]), "precision")
    with pytest.raises(ValueError, match="`posteriors` must be posteriors of single tables"):
        plot_posteriors({"per label": per_label})
    with pytest.raises(ValueError, match="`support` must be an increasing pair"):
        plot_posteriors(_posteriors(), support=(1.0, 0.0))
    with pytest.raises(ValueError, match="`pairwise` must be a square table"):
        plot_pairwise(pd.DataFrame([[0.5, 0.5, 0.5]]))
    with pytest.raises(ValueError, match="`prevalences` must be"):
        plot_random_ap_baseline([10], prevalences=(1.5,))
