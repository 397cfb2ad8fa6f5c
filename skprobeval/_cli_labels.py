"""``skprobeval plan-labels``: which rows of a file to send to annotators next.

The file holds, per item, the system's prediction (or two systems'), a second
labeller's label and the gold label where it is known (an empty cell
elsewhere).  `plan_labels` chooses ``--budget`` rows without a gold label; the
command prints the plan, or with ``--format csv`` the chosen rows themselves
(every column of the file, and their position in it) for the annotators.
"""

from __future__ import annotations

import json

from ._cli_files import (
    _add_format,
    _check_output,
    _emit,
    _paths,
    _read_csv,
    _read_parquet,
    _UsageError,
)

__all__ = ["add_plan_labels", "plan_labels_command"]


def add_plan_labels(commands, average_choices):
    """The ``plan-labels`` subcommand's parser."""
    plan = commands.add_parser(
        "plan-labels", help="which unlabelled rows to label next (a second labeller on every "
                            "row, gold labels on some)")
    plan.add_argument("file", nargs="+", help="CSV or Parquet file(s): a truth column (empty "
                                              "where unlabelled), the proxy and the system(s)")
    plan.add_argument("--truth", required=True, help="the gold label column")
    plan.add_argument("--proxy", required=True, metavar="COLUMN",
                      help="the second labeller's column, a label on every row")
    plan.add_argument("--systems", nargs="+", default=None,
                      help="one system column, or two whose difference is planned for "
                           "(default: the one other column)")
    plan.add_argument("--budget", type=int, required=True, help="how many rows to label")
    plan.add_argument("--metric", default="accuracy", help="metric name (default: accuracy)")
    plan.add_argument("--average", default="auto", choices=average_choices,
                      help="how labels are combined (default: binary for two labels; "
                           "otherwise micro for accuracy and error, macro for the rest)")
    plan.add_argument("--labels", default=None,
                      help="comma-separated labels to average over (default: all)")
    plan.add_argument("--pos-label", default="1",
                      help="positive label of --average binary (default: 1)")
    plan.add_argument("--beta", type=float, default=1.0,
                      help="beta of --metric fbeta (default: 1)")
    plan.add_argument("--prior", default="0.5",
                      help="Dirichlet prior: a number > 0, jeffreys or uniform (default: 0.5)")
    plan.add_argument("--confidence", type=float, default=0.95,
                      help="level of the interval (default: 0.95)")
    plan.add_argument("--n-sims", type=int, default=100,
                      help="simulated outcomes of each allocation (default: 100)")
    plan.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")
    _add_format(plan, ("text", "csv", "json"),
                help="text: the plan; csv: the rows to label, every column of the file and "
                     "their 0-based position 'row' (or '_row' where the file has a 'row' "
                     "column); json: the plan's data")
    plan.add_argument("--output", default=None, metavar="FILE",
                      help="write to FILE instead of printing")
    return plan


def plan_labels_command(args, out, *, read_table, average, labels, pos_label, prior):
    """Run ``plan-labels`` (the CLI's own readers and option parsers passed in)."""
    import numpy as np
    import pandas as pd

    from ._workflow import plan_labels

    if args.output is not None:
        _check_output(args.output)
    args.group, args.cluster = None, None
    truth, predictions, _, _, _, proxy = read_table(args, need_gold=False)
    if len(predictions) > 2:
        raise _UsageError(f"--systems: one system column, or two; got {list(predictions)!r} "
                          "(name them with --systems)")
    known = truth[~pd.isna(truth)]
    if known.dtype.kind == "f" and np.all(known == np.round(known)):
        known = known.astype(np.int64)         # integer labels read beside empty cells
    seen = {label for values in (known, proxy, *predictions.values())
            for label in pd.unique(np.asarray(values).ravel()).tolist()}
    chosen = average(args.average, len(seen), args.metric)
    reference = known if known.shape[0] else next(iter(predictions.values()))
    plan = plan_labels(
        predictions, proxy, metric=args.metric, budget=args.budget, labelled=truth,
        average=chosen, labels=labels(args.labels, reference),
        pos_label=pos_label(args.pos_label, reference) if chosen == "binary" else 1,
        beta=args.beta, prior=prior(args.prior), confidence=args.confidence,
        n_sims=args.n_sims, random_state=args.random_state)
    if args.format == "json":
        text = json.dumps(plan.to_dict(), indent=2)
    elif args.format == "csv":
        paths, parquet = _paths(args.file)
        frame = _read_parquet(paths) if parquet else _read_csv(paths)
        if hasattr(frame, "compute"):
            frame = frame.compute()
        rows = frame.reset_index(drop=True).iloc[plan.items]
        position = "row"
        while position in rows.columns:          # a file with a column of that name
            position = f"_{position}"
        text = rows.rename_axis(position).reset_index().to_csv(index=False).rstrip("\n")
    else:
        summary = plan.summary()
        what = (f"{plan.metric} of {', '.join(predictions)}" if len(predictions) == 1
                else f"{plan.metric} difference {' - '.join(predictions)}")
        now = ("none yet" if plan.width_now is None else
               f"{plan.n_labelled} gold labels give an interval {plan.width_now:.4f} wide")
        text = "\n".join([
            f"{plan.n_items} rows, {plan.n_labelled} with a gold label ({now})",
            f"label {plan.budget} more ({plan.method} allocation) for the "
            f"{plan.confidence:.0%} interval of {what}:",
            f"  expected width {summary['expected_width']:.4f} (Monte Carlo error "
            f"{summary['expected_width_se']:.4f}); {summary['expected_width_random']:.4f} "
            f"with {plan.budget} rows labelled at random",
            "", plan.allocation.to_string(float_format=lambda v: f"{v:.4f}"), "",
            "rows to label (0-based; --format csv writes them whole): "
            + " ".join(str(i) for i in plan.items[:20])
            + (" ..." if plan.items.shape[0] > 20 else "")])
    return _emit(text, args.output, out)
