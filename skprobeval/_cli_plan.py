"""``skprobeval plan``: how many items a test set needs for a narrow enough interval.

The population comes from ``--expected`` with ``--prevalence`` or a pilot
(``--pilot`` counts, ``--pilot-file`` a K x K matrix); `plan_test_size`
answers in items, in clusters with ``--cluster-size`` and ``--icc``, or in
gold labels with ``--proxy-agreement`` and ``--pool-size`` (a second
labeller on every item of the pool).
"""

from __future__ import annotations

import json

from ._cli_files import _add_format, _check_output, _emit, _UsageError

__all__ = ["add_plan", "plan_command"]


def add_plan(commands, average_choices, n_draws):
    """The ``plan`` subcommand's parser."""
    plan = commands.add_parser(
        "plan", help="how many items a test set needs for the metric's interval to be "
                     "--width wide")
    plan.add_argument("--metric", default="f1", help="metric name (default: f1)")
    plan.add_argument("--width", type=float, required=True,
                      help="the widest acceptable credible interval")
    plan.add_argument("--expected", type=float, default=None,
                      help="the metric's expected value (with --prevalence, or a pilot)")
    plan.add_argument("--prevalence", type=float, default=None,
                      help="with --expected: the share of items the metric counts (the "
                           "positives for recall and F1, the predicted positives for "
                           "precision)")
    plan.add_argument("--pilot", default=None, metavar="TP,FP,FN,TN",
                      help="a pilot study's binary confusion counts")
    plan.add_argument("--pilot-file", default=None, metavar="FILE",
                      help="a pilot's K x K confusion matrix as CSV (rows true labels, "
                           "the labels in the header and the first column)")
    plan.add_argument("--average", default="auto", choices=average_choices,
                      help="how a K x K pilot's labels are averaged (default: binary for two "
                           "labels, macro otherwise)")
    plan.add_argument("--beta", type=float, default=1.0,
                      help="F-beta's beta, for --metric fbeta (default: 1)")
    plan.add_argument("--confidence", type=float, default=0.95,
                      help="level of the interval (default: 0.95)")
    plan.add_argument("--assurance", type=float, default=0.8,
                      help="probability that the interval is narrow enough (default: 0.8)")
    plan.add_argument("--prior", default="0.5",
                      help="Dirichlet prior: a number > 0, jeffreys or uniform (default: 0.5)")
    plan.add_argument("--cluster-size", type=float, default=None, metavar="ITEMS",
                      help="with --icc: the test items come in clusters (patients, "
                           "documents) of this mean size; the plan is in clusters")
    plan.add_argument("--icc", type=float, default=None,
                      help="with --cluster-size: the intra-cluster correlation, in [0, 1]")
    plan.add_argument("--proxy-agreement", type=float, default=None, metavar="SHARE",
                      help="with --pool-size: a second labeller labels every item of the "
                           "pool and agrees with the gold label on this share of them; "
                           "the plan is in gold labels")
    plan.add_argument("--pool-size", type=int, default=None, metavar="ITEMS",
                      help="with --proxy-agreement: the items the second labeller labels")
    plan.add_argument("--n-sims", type=int, default=400,
                      help="simulated test sets (or pools) at each size tried (default: 400)")
    plan.add_argument("--n-draws", dest="n_draws", type=int, default=n_draws,
                      help=f"posterior draws of each simulated test set (default: {n_draws})")
    plan.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")
    _add_format(plan, ("text", "json", "html"))
    plan.add_argument("--output", default=None, metavar="FILE",
                      help="write the plan to FILE instead of printing it")
    return plan


def _pilot(args):
    """The pilot of ``--pilot`` or ``--pilot-file`` (None without), and its size K."""
    from ._counting import ConfusionCounts

    if args.pilot is not None and args.pilot_file is not None:
        raise _UsageError("give --pilot or --pilot-file, not both")
    pilot = None
    if args.pilot is not None:
        try:
            cells = [float(v) for v in args.pilot.split(",")]
        except ValueError:
            cells = []
        if len(cells) != 4:
            raise _UsageError(f"argument --pilot: four counts TP,FP,FN,TN; got {args.pilot!r}")
        try:
            pilot = ConfusionCounts(*cells)
        except (TypeError, ValueError) as error:
            raise _UsageError(f"argument --pilot: {error}") from None
    elif args.pilot_file is not None:
        import os

        import pandas as pd

        if not os.path.exists(args.pilot_file):
            raise _UsageError(f"no such file: {args.pilot_file!r}")
        pilot = pd.read_csv(args.pilot_file, index_col=0)
        if not all(pd.api.types.is_numeric_dtype(dtype) for dtype in pilot.dtypes):
            raise _UsageError(f"argument --pilot-file: {args.pilot_file!r} must hold counts "
                              "(a K x K table of numbers, the labels in the header and the "
                              "first column)")
    size = 2 if pilot is None or isinstance(pilot, ConfusionCounts) else pilot.shape[0]
    return pilot, size


def plan_command(args, out, *, prior):
    """Run ``plan`` (the CLI's prior parser passed in)."""
    from ._workflow import plan_test_size

    pilot, size = _pilot(args)
    average = ("binary" if size == 2 else "macro") if args.average == "auto" else (
        None if args.average == "none" else args.average)
    for pair in (("cluster_size", "icc"), ("proxy_agreement", "pool_size")):
        given = [name for name in pair if getattr(args, name) is not None]
        if len(given) == 1:
            missing = pair[1] if given[0] == pair[0] else pair[0]
            raise _UsageError(f"{_flag(missing)} must be given with {_flag(given[0])}")
    if args.output is not None:
        _check_output(args.output)
    result = plan_test_size(metric=args.metric, width=args.width, pilot=pilot,
                            expected=args.expected, prevalence=args.prevalence,
                            confidence=args.confidence, average=average, beta=args.beta,
                            assurance=args.assurance, prior=prior(args.prior),
                            n_sims=args.n_sims, n_draws=args.n_draws,
                            random_state=args.random_state, cluster_size=args.cluster_size,
                            icc=args.icc, proxy_agreement=args.proxy_agreement,
                            pool_size=args.pool_size)
    if args.format == "json":
        text = json.dumps(result.to_dict(), indent=2)
    elif args.format == "html":
        text = result.to_html().rstrip("\n")
    else:
        text = _text(result, size)
    return _emit(text, args.output, out)


def _flag(name):
    return "--" + name.replace("_", "-")


def _text(result, size):
    """The plan as lines of text: what to label, the width there, the population."""
    summary = result.summary()
    how = ("exact" if result.method == "exact" else
           f"{result.method}, Monte Carlo error {result.mc_error:.4f}")
    within = f"P(width <= {result.width:g}) = {result.prob_within:.4f} at that size"
    population = ", ".join(f"{cell} {share:.4f}" for cell, share in
                           result.population.items()) if "tp" in result.population \
        else f"a {size} x {size} table of shares"
    lines = [f"metric: {result.metric}; {result.confidence:.0%} interval at most "
             f"{result.width:g} wide in {result.assurance:.0%} of test sets"]
    if result.n_clusters is not None:
        lines += [f"clusters needed: {result.n_clusters} of {result.cluster_size:g} items "
                  f"({result.n_items} items; {how}; {within})",
                  f"design effect: {result.design_effect:.4f} (icc {result.icc:.4g})"]
    elif result.pool_size is not None:
        lines += [f"gold labels needed: {result.n_items} of the {result.pool_size} items the "
                  f"proxy labels ({how}; {within})",
                  f"without the proxy: {result.n_items_without_proxy} gold labels"]
    else:
        lines.append(f"items needed: {result.n_items} ({how}; {within})")
    lines += [f"width there: median {summary['median_width']:.4f}, "
              f"{result.assurance:.0%} of test sets within {summary['width_at_assurance']:.4f}",
              f"population: {population}"]
    return "\n".join(lines)
