"""The command line, end to end through a subprocess."""

import subprocess
import sys

import pytest


def run(*args):
    return subprocess.run([sys.executable, "-m", "skprobeval", *args], capture_output=True,
                          text=True, timeout=600)


def test_demo_prints_counts_and_metrics():
    result = run("demo", "--dataset", "iris")
    assert result.returncode == 0, result.stderr
    assert "informedness" in result.stdout
    assert "logistic_regression" in result.stdout


@pytest.mark.parametrize("args", [("demo", "--dataset", "nope"), ("no-such-command",),
                                  ("demo", "--random-state", "x")])
def test_bad_arguments_exit_2_with_one_line(args):
    result = run(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("skprobeval: error:")
