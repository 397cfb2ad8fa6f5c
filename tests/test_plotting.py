"""Plots render with the Agg backend to non-empty PNG files."""

import pytest

matplotlib = pytest.importorskip(
    "matplotlib", reason="the plots need matplotlib (installed by the test extra)")
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from skprobeval import ConfusionCounts, metric_posterior  # noqa: E402
from skprobeval.plotting import (  # noqa: E402
    plot_pairwise,
    plot_posteriors,
    plot_random_ap_baseline,
)


def _posteriors():
    return {"a": metric_posterior(ConfusionCounts(10, 10, 3, 20), metric="precision"),
            "b": metric_posterior(ConfusionCounts(30, 5, 10, 50), metric="f1"),
            "c": metric_posterior(ConfusionCounts(30, 5, 10, 50), metric="informedness")}


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
    before = set(plt.get_fignums())
    ax = plot_random_ap_baseline([20, 40])
    assert set(plt.get_fignums()) - before == {ax.figure.number}
    assert len(ax.get_lines()) == 4
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
    per_label = metric_posterior(ConfusionCounts([3, 4], [1, 2], [2, 1], [5, 5]),
                                 metric="precision")
    with pytest.raises(ValueError, match="`posteriors` must be posteriors of single tables"):
        plot_posteriors({"per label": per_label})
    with pytest.raises(ValueError, match="`support` must be an increasing pair"):
        plot_posteriors(_posteriors(), support=(1.0, 0.0))
    with pytest.raises(ValueError, match="got ndarray for 'posterior 2'"):
        plot_posteriors([_posteriors()["a"], np.zeros(3)])
    with pytest.raises(ValueError, match="`posteriors` must be at least one posterior"):
        plot_posteriors([])


def test_plot_posteriors_takes_a_list():
    # A list is named by position, as a dict would be by its keys.
    ax = plot_posteriors(list(_posteriors().values()))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == \
        ["posterior 1", "posterior 2", "posterior 3"]
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="`pairwise` must be a square table"):
        plot_pairwise(pd.DataFrame([[0.5, 0.5, 0.5]]))
    with pytest.raises(ValueError, match="`prevalences` must be"):
        plot_random_ap_baseline([10], prevalences=(1.5,))


def test_single_collection_size_draws_visible_markers():
    # One N gives one point per prevalence: drawn as markers, not as invisible lines.
    ax = plot_random_ap_baseline(200, mark=200)
    lines = ax.get_lines()
    assert [line.get_marker() for line in lines[:4]] == ["o"] * 4
    assert all(len(line.get_xdata()) == 1 for line in lines[:4])
    assert lines[4].get_xdata()[0] == 200          # the marked size
    plt.close(ax.figure)


def test_report_plots_are_titled_with_what_they_show():
    import numpy as np

    from skprobeval import compare_predictions

    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, size=150)
    report = compare_predictions(
        truth, {"a": np.where(rng.random(150) < 0.8, truth, 0),
                "b": np.where(rng.random(150) < 0.6, truth, 1)},
        average="macro", rope=0.01, n_draws=2000)
    ax = report.plot()
    assert ax.get_title() == "P(row f1 (macro) > column by > 0.01)"
    ax = report.plot(table="pairwise", ax=ax)
    assert ax.get_title() == "P(row right more often than column by > 0.01)"
    assert len(ax.figure.axes) == 2               # one colorbar, not one per call
    plt.close(ax.figure)
    ax = plot_posteriors(report.posteriors, xlabel=report.metric_label)
    assert ax.get_xlabel() == "f1 (macro)"
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="`table` must be"):
        report.plot(table="summary")
