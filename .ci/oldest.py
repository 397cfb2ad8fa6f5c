"""The oldest dependency versions pyproject.toml allows, as pip constraints.

``python .ci/oldest.py`` prints one ``name==version`` line per run-time
dependency and per dependency of the run-time extras (``plot``, ``dask``), the
version being the lower bound written in ``pyproject.toml`` (each must have
one).  The test tools (pytest, hypothesis, the peer libraries) are not pinned:
pip picks their newest versions that work with these.  ``python .ci/oldest.py --check`` verifies
that the running environment has exactly those versions installed, so the
oldest-versions CI step cannot silently test newer ones.
``python .ci/oldest.py --test-requirements`` prints the test extra's
requirements, one a line, less those that cannot install beside the oldest
pins (`NOT_WITH_OLDEST`, each with its reason): that step installs those, and
the tests needing the rest skip.
"""

import re
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

_BOUND = re.compile(r"^([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*>=\s*([0-9][0-9A-Za-z.\-]*)\s*(,.*)?$")


EXTRAS = ("plot", "dask")

# Test requirements that need newer run-time dependencies than the lower bounds.
NOT_WITH_OLDEST = {
    "skore": "skore 0.28 needs scikit-learn >= 1.5.2 (through skrub)",
}


def test_requirements(pyproject):
    """The test extra's requirements that install beside the oldest pins."""
    project = tomllib.loads(Path(pyproject).read_text())["project"]
    return [requirement for requirement in project["optional-dependencies"]["test"]
            if re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0] not in NOT_WITH_OLDEST]


def lower_bounds(pyproject):
    """``{name: version}`` of the run-time dependencies' lower bounds."""
    project = tomllib.loads(Path(pyproject).read_text())["project"]
    dependencies = list(project["dependencies"])
    for extra in EXTRAS:
        dependencies += project["optional-dependencies"][extra]
    bounds = {}
    for requirement in dependencies:
        match = _BOUND.match(requirement.split(";")[0].strip())
        if match is None:
            raise SystemExit(f"oldest.py: no '>=' lower bound in dependency {requirement!r}")
        bounds[match.group(1)] = match.group(3)
    return bounds


def _same(installed, bound):
    """``1.24.0`` is ``1.24``: equal releases up to trailing zeros."""
    def release(text):
        parts = text.split(".")
        while len(parts) > 1 and parts[-1] == "0":
            parts.pop()
        return parts
    return release(installed) == release(bound)


def main(argv):
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if argv[1:] == ["--test-requirements"]:
        print("\n".join(test_requirements(pyproject)))
        return
    bounds = lower_bounds(pyproject)
    if argv[1:] == ["--check"]:
        wrong = {name: version(name) for name, low in bounds.items()
                 if not _same(version(name), low)}
        if wrong:
            raise SystemExit("oldest.py: installed versions are not the lower bounds: "
                             + ", ".join(f"{name} {v} (bound {bounds[name]})"
                                         for name, v in wrong.items()))
        print("oldest versions installed: "
              + ", ".join(f"{name} {low}" for name, low in bounds.items()))
        return
    if argv[1:]:
        raise SystemExit("usage: python .ci/oldest.py [--check | --test-requirements]")
    for name, low in bounds.items():
        print(f"{name}=={low}")


if __name__ == "__main__":
    main(sys.argv)
