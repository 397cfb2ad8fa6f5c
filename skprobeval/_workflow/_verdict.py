"""The verdict a comparison report opens with: its answer in words and figures.

`report_verdict` reads a `ComparisonReport`'s own tables -- the ranking's
P(best), the summary's interval of the leader, the pair table's (or the
t-tests') probabilities -- and says which system leads and how sure that is,
which pairs are decided at the report's level, which are practically
equivalent within its rope, and, where the leader is not decided, about how
many more test items would likely decide it (`plan_more_items` on the
report's ranking).  Nothing here computes a new posterior: every figure of
the verdict is one of the report's, so the words cannot contradict the tables.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import numpy as np

from .._core import ResultMixin, fail

__all__ = ["ReportVerdict", "report_verdict"]

_PLAN_CHOICES = (True, False, "auto")


@dataclass(frozen=True, slots=True)
class ReportVerdict(ResultMixin):
    """What a comparison report concludes, in words and in figures.

    Returned by `ComparisonReport.verdict`; its `text` opens every form of
    the report (text, Markdown, HTML page, notebook view) and `to_dict` is
    the report's ``to_dict()["verdict"]``.  Every figure is read off the
    report's own results, and the claims about systems off one posterior, the
    ranking's (`ComparisonReport.ranking`), so that they cannot contradict
    one another: the leader is the system of largest P(best), the pairs'
    probabilities are the ranking's ``pairwise`` (P(row better by more than
    the rope); the rest of a pair's probability is P(equivalent)), and the
    leader's interval is the summary's.  A ranking partially pools close
    systems (`rank_systems`), so its pairwise probabilities can differ
    slightly from the report's ``pairs`` table, which compares each pair on
    its own; for fold scores alone they are the t-tests'.

    Attributes
    ----------
    leader : str or None
        The system most probably best (largest P(best)); None where the
        report has no verdict (`reason` says why).
    point, low, high : float
        The leader's point estimate and credible interval (NaN without a
        leader); for a report with a second labeller (``proxy=``), whose
        point is the labelled items' alone, its posterior mean.
    prob_best : float
        The leader's P(best) (NaN without a ranking).
    runner_up : str or None
        The system of second largest P(best).
    runner_up_prob_best : float
        Its P(best) (NaN without a ranking).
    leader_decided : bool
        Whether P(best) of the leader exceeds `confidence`.
    decided : pandas.DataFrame
        The pairs decided at the report's level: ``better``, ``worse`` and
        ``prob`` (the ranking's P(better's metric > worse's, by more than
        the rope) > `confidence`).
    equivalent : pandas.DataFrame
        The pairs practically equivalent (within the rope) at that level:
        ``first``, ``second``, ``prob`` (P(equivalent) > `confidence`; rope >
        0 only).
    undecided : pandas.DataFrame
        The other pairs, with ``prob_first_better``, ``prob_equivalent`` and
        ``prob_second_better``.
    more_items : int or None
        Where the leader is not decided and the estimate was made: about how
        many more test items would decide the ranking in `assurance` of the
        simulated futures (`plan_more_items` on the report's ranking; None
        when no number up to its `max_items` does, or when not estimated;
        ``to_dict`` holds ``assurance`` and ``max_items`` too).
    plan : MoreItemsPlan or None
        That estimate whole (its curve, note and Monte Carlo errors).
    plan_note : str or None
        Why `more_items` was not estimated, where it was not.
    metric : str
        The metric and its average, as the report names it.
    confidence, rope : float
        The report's level and region of practical equivalence.
    reason : str or None
        Why the report has no verdict (one system, one row per label, a
        system without scores); None where it has one.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skprobeval import compare_estimators
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> report = compare_estimators({"nb": GaussianNB(),
    ...                              "tree": DecisionTreeClassifier(random_state=0)}, X, y)
    >>> verdict = report.verdict(plan=False)
    >>> verdict.leader, round(verdict.prob_best, 2), verdict.leader_decided
    ('nb', 0.87, False)
    >>> print(verdict)
    nb leads on f1: 0.952 (95% interval 0.933 to 0.965), P(best) 0.874, not decided at the
    95% level (tree has P(best) 0.126). No pair is decided at 95%: nb vs tree P(first
    better) 0.874. How many more items would likely decide it: report.verdict(plan=True)
    (--plan on the command line).
    >>> report.verdict(plan=True).more_items
    5690
    """

    leader: str | None
    point: float
    low: float
    high: float
    prob_best: float
    runner_up: str | None
    runner_up_prob_best: float
    leader_decided: bool
    decided: object = field(repr=False)
    equivalent: object = field(repr=False)
    undecided: object = field(repr=False)
    more_items: int | None
    plan: object = field(repr=False)
    plan_note: str | None
    metric: str
    confidence: float
    rope: float
    reason: str | None = None
    _pairs: tuple = field(default=(), repr=False)

    _html_figure = False

    @property
    def text(self):
        """The verdict in a few sentences (str)."""
        return " ".join(self._sentences())

    def __str__(self):
        return textwrap.fill(self.text, width=88)

    def _sentences(self):
        if self.reason is not None:
            return [self.reason]
        level = f"{self.confidence:.0%}"
        lead = (f"{self.leader} leads on {self.metric}: {_figure(self.point)} ({level} "
                f"interval {_figure(self.low)} to {_figure(self.high)}), P(best) "
                f"{self.prob_best:.3f}")
        if self.leader_decided:
            sentences = [lead + f", decided at the {level} level."]
        elif self.runner_up is not None:
            sentences = [lead + f", not decided at the {level} level ({self.runner_up} has "
                                f"P(best) {self.runner_up_prob_best:.3f})."]
        else:
            sentences = [lead + f", not decided at the {level} level."]
        if len(self.decided):
            pairs = "; ".join(f"{row.better} > {row.worse} (P {row.prob:.3f})"
                              for row in self.decided.itertuples())
            sentences.append(f"Decided at {level}: {pairs}.")
        if len(self.equivalent):
            pairs = "; ".join(f"{row.first} and {row.second} (P {row.prob:.3f})"
                              for row in self.equivalent.itertuples())
            sentences.append(f"Practically equivalent within {self.rope:g} at {level}: "
                             f"{pairs}.")
        if len(self.undecided):
            pairs = "; ".join(f"{row.first} vs {row.second} P(first better) "
                              f"{row.prob_first_better:.3f}"
                              for row in self.undecided.itertuples())
            lead_in = ("No pair is decided" if not len(self.decided) and not len(
                self.equivalent) else "Not decided")
            sentences.append(f"{lead_in} at {level}: {pairs}.")
        if not self.leader_decided:
            sentences.append(self._plan_sentence())
        return sentences

    def _plan_sentence(self):
        if self.plan is None:
            return self.plan_note
        if self.more_items is None:
            return (f"Even {self.plan.max_items} more test items would not decide it in "
                    f"{self.plan.assurance:.0%} of the simulated futures.")
        return (f"About {self.more_items} more test items would likely decide it (in "
                f"{self.plan.assurance:.0%} of the simulated futures).")

    @property
    def summary(self):
        """Every pair with its probabilities and what the verdict calls it (DataFrame).

        Columns ``first``, ``second``, ``prob_first_better``,
        ``prob_equivalent``, ``prob_second_better`` and ``verdict``
        (``"first better"``, ``"second better"``, ``"equivalent"`` or
        ``"undecided"``); empty where the report has no verdict.
        """
        import pandas as pd

        return pd.DataFrame(self._pairs, columns=["first", "second", "prob_first_better",
                                                  "prob_equivalent", "prob_second_better",
                                                  "verdict"])

    def _dict_content(self):
        def records(frame):
            return frame.to_dict(orient="records")

        return {"type": type(self).__name__, "text": self.text, "leader": self.leader,
                "point": self.point, "low": self.low, "high": self.high,
                "prob_best": self.prob_best, "runner_up": self.runner_up,
                "runner_up_prob_best": self.runner_up_prob_best,
                "leader_decided": self.leader_decided, "decided": records(self.decided),
                "equivalent": records(self.equivalent),
                "undecided": records(self.undecided), "more_items": self.more_items,
                "assurance": None if self.plan is None else self.plan.assurance,
                "max_items": None if self.plan is None else self.plan.max_items,
                "plan_note": self.plan_note, "metric": self.metric,
                "confidence": self.confidence, "rope": self.rope, "reason": self.reason}

    def _html_table(self):
        import html

        from .._core import frame_html

        return ("<div class='verdict'>" + "".join(
            f"<p>{html.escape(sentence)}</p>" for sentence in self._sentences()) + "</div>"
            + frame_html(self.summary, index=False))


def _figure(value):
    return "nan" if not np.isfinite(value) else f"{value:.3f}"


def _pair_rows(ranking, order):
    """``(first, second, P(first better), P(equivalent), P(second better))`` of every pair,
    from the ranking's own posterior (`pairwise`: P(row better by more than the rope)),
    each pair in the ranking's order (the more probably best first)."""
    pairwise = ranking.pairwise
    rows = []
    for i, first in enumerate(order):
        for second in order[i + 1:]:
            better = float(pairwise.loc[first, second])
            worse = float(pairwise.loc[second, first])
            rows.append((first, second, better, max(0.0, 1.0 - better - worse), worse))
    return rows


def _no_verdict(report, reason):
    import pandas as pd

    empty = pd.DataFrame()
    return ReportVerdict(None, np.nan, np.nan, np.nan, np.nan, None, np.nan, False, empty,
                         empty, empty, None, None, None, report.metric_label,
                         report.confidence, report.rope, reason)


def _plan_reason(report, ranking):
    """Why `plan_more_items` cannot plan `ranking`, or None where it can."""
    if report.independent:
        return ("How many more items would decide it is not estimated for independent "
                "systems' counts (it needs the items' predictions).")
    if report.n_clusters is not None:
        return ("How many more items would decide it is not estimated for items in clusters "
                "(more clusters, not more items, would; plan_test_size(cluster_size=, "
                "icc=) plans a clustered test set).")
    if "n_labelled" in report.summary:
        return ("How many more gold labels would decide it is not estimated for a report "
                "with a second labeller.")
    source = getattr(ranking, "_source", None)
    if source is None:
        return ("How many more items would decide it is not estimated for a ranking of "
                "fold scores (it needs the items' predicted labels).")
    if source.reason is not None:
        return f"How many more items would decide it is not estimated: {source.reason}."
    return None


def report_verdict(report, *, plan, assurance, n_sims, n_draws, random_state):
    """The `ReportVerdict` of `report` (see `ComparisonReport.verdict`)."""
    import pandas as pd

    if plan not in _PLAN_CHOICES or not isinstance(plan, (bool, str)):
        fail("plan", "True, False or 'auto'", plan)
    names = list(dict.fromkeys(report.summary.index.get_level_values(0)))
    if report.average is None:
        return _no_verdict(report, "One row per label (average=None): no single verdict; "
                                   "each label's rows compare the systems on that label.")
    if len(names) < 2:
        if not names:
            return _no_verdict(report, "No system: nothing to compare.")
        row = report.summary.loc[names[0]]
        point = row["point"] if np.isfinite(row.get("point", np.nan)) else row["mean"]
        return _no_verdict(report, f"One system ({names[0]}): {report.metric_label} "
                                   f"{_figure(point)} ({report.confidence:.0%} interval "
                                   f"{_figure(row['low'])} to {_figure(row['high'])}); no "
                                   "pair to compare.")
    ranking = report.ranking
    if ranking is None:
        return _no_verdict(report, "No verdict: a system has no finite score (see the "
                                   "summary), so the systems are not ranked.")
    prob_best = ranking.prob_best.astype(float)
    order = prob_best.sort_values(ascending=False, kind="stable")
    leader, runner_up = order.index[0], order.index[1]
    row = report.summary.loc[leader]
    # A report with a second labeller quotes its posterior mean (its point is the
    # labelled items' alone).
    point = (float(row["point"]) if np.isfinite(row.get("point", np.nan))
             and "n_labelled" not in report.summary else float(row["mean"]))
    level, rope = report.confidence, report.rope
    decided, equivalent, undecided, pairs = [], [], [], []
    for first, second, better, same, worse in _pair_rows(ranking, list(order.index)):
        if better > level:
            decided.append((first, second, better))
            called = "first better"
        elif worse > level:
            decided.append((second, first, worse))
            called = "second better"
        elif rope > 0 and same > level:
            equivalent.append((first, second, same))
            called = "equivalent"
        elif np.isfinite(better):
            undecided.append((first, second, better, same, worse))
            called = "undecided"
        else:
            continue
        pairs.append((first, second, better, same, worse, called))
    leader_decided = bool(prob_best[leader] > level)
    plan_result, more_items, plan_note = None, None, None
    if not leader_decided:
        plan_note = _plan_reason(report, ranking)
        if plan_note is None:
            fast = ranking._source.vectorised
            if plan is True or (plan == "auto" and fast):
                from ._plan_more import plan_more_items

                plan_result = plan_more_items(ranking, target=level, assurance=assurance,
                                              n_sims=n_sims, n_draws=n_draws,
                                              random_state=random_state)
                more_items = plan_result.n_items
            else:
                slow = "" if fast else (", slow for label averages: each simulated future "
                                        "is ranked again")
                plan_note = ("How many more items would likely decide it: "
                             f"report.verdict(plan=True) (--plan on the command line{slow}).")
    verdict = ReportVerdict(
        leader, point, float(row["low"]), float(row["high"]), float(prob_best[leader]),
        runner_up, float(prob_best[runner_up]), leader_decided,
        pd.DataFrame(decided, columns=["better", "worse", "prob"]),
        pd.DataFrame(equivalent, columns=["first", "second", "prob"]),
        pd.DataFrame(undecided, columns=["first", "second", "prob_first_better",
                                         "prob_equivalent", "prob_second_better"]),
        more_items, plan_result, plan_note, report.metric_label, level, rope, None,
        tuple(pairs))
    return verdict
