"""The package's imports form no cycle and point down the data flow.

The package is a stack of stage subpackages: ``_core`` (checks, numerics,
results, formatting, drawing) < ``_counting`` (labels to counts) <
``_metrics`` (point metrics, chance) < ``_posteriors`` < ``_compare`` <
``_workflow`` (scikit-learn glue, reports, thresholds) < ``_plot`` (Displays),
with the public modules (``cli`` and its file readers ``_cli_files``, ``plotting``,
``__init__``) on top.  Every
module's imports (top-level and inside functions, read from the source with
`ast`) are checked: a module imports its own stage's modules directly and
lower stages only through their ``__init__``, and only names without a leading
underscore, never from a higher stage; no two modules import each other,
directly or around a loop.
"""

import ast
import functools
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "skprobeval"

# Lower number = further down the data flow.
STAGES = {
    "_core": 0, "_counting": 1, "_metrics": 2, "_posteriors": 3, "_compare": 4,
    "_workflow": 5, "_plot": 6,
}
TOP = {"_version": -1, "plotting": 7, "_cli_files": 8, "_cli_labels": 8, "_cli_plan": 8,
       "cli": 8, "__main__": 9, "__init__": 9}


def _modules(package=None):
    """Every module as ``(stage or None, name)``: the stages' modules and the top ones."""
    package = PACKAGE if package is None else package
    found = [(None, path.stem) for path in package.glob("*.py")]
    for folder in sorted(path for path in package.iterdir() if path.is_dir()):
        found += [(folder.name, path.stem) for path in folder.glob("*.py")]
    return sorted(found, key=lambda item: (item[0] or "", item[1]))


@functools.cache
def _import_froms(source):
    """The ``from ... import`` statements of a module's source, parsed once for the checks
    below (each module's source is read by four of them; parsing is most of their time)."""
    return tuple(node for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.ImportFrom))


def _imports(module, package=None):
    """What ``module`` (a ``(stage, name)`` pair) imports of the package.

    A set of ``(stage, name)`` pairs: ``(stage, "__init__")`` for an import
    through a stage's ``__init__``, ``(stage, name)`` for one of a module.
    """
    package = PACKAGE if package is None else package
    stage, name = module
    path = package / (stage or "") / f"{name}.py"
    found = set()
    for node in _import_froms(path.read_text()):
        if node.level == 0:
            if not (node.module or "").startswith("skprobeval"):
                continue
            parts = node.module.split(".")[1:]
        else:
            base = [stage] if stage else []
            base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
            if node.level - 1 > (1 if stage else 0):
                raise AssertionError(f"{path} imports above the package")
            parts = base + (node.module.split(".") if node.module else [])
        if not parts:                      # the package's own namespace
            found.add((None, "__init__"))
        elif parts[0] in STAGES or (package / parts[0]).is_dir():
            found.add((parts[0], parts[1] if len(parts) > 1 else "__init__"))
        else:
            found.add((None, parts[0]))
    return found - {module}


def _rank(module):
    stage, name = module
    return STAGES[stage] if stage else TOP[name]


MODULES = _modules()


def test_every_module_has_a_stage():
    stages = {stage for stage, _ in MODULES if stage}
    assert stages == set(STAGES)
    assert {name for stage, name in MODULES if stage is None} == set(TOP)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: "/".join(filter(None, m)))
def test_imports_point_down_the_stages(module):
    stage = module[0]
    upward = sorted(str(other) for other in _imports(module)
                    if other[0] != stage and _rank(other) >= _rank(module))
    assert not upward, f"{module} imports {upward} from its own or a higher stage"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: "/".join(filter(None, m)))
def test_other_stages_only_through_their_init(module):
    # A stage's modules are its own business: another stage imports what the
    # stage's __init__ exports, never a module inside it.
    inside = sorted(f"{other[0]}.{other[1]}" for other in _imports(module)
                    if other[0] and other[0] != module[0] and other[1] != "__init__")
    assert not inside, f"{module} reaches into {inside}"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: "/".join(filter(None, m)))
def test_no_private_name_crosses_a_stage(module):
    # What a stage's __init__ hands to the others is that stage's interface: its
    # names carry no leading underscore (the stage itself is private).
    stage, name = module
    crossing = sorted(
        alias.name for node in _import_froms((PACKAGE / (stage or "") / f"{name}.py").read_text())
        if node.level >= 1 and node.module
        and node.module.split(".")[0] in STAGES and node.module.split(".")[0] != stage
        for alias in node.names if alias.name.startswith("_"))
    assert not crossing, f"{module} imports private names {crossing} from another stage"


def _find_cycle(modules, package=None):
    """The first import cycle among `modules` (``(stage, name)`` pairs), or None.

    An import through a stage's ``__init__`` runs every module of that stage.
    """
    members = set(modules)
    graph = {}
    for module in modules:
        edges = set()
        for other in _imports(module, package):
            if other[1] == "__init__" and other[0]:
                edges.update(m for m in members if m[0] == other[0] and m != module)
            elif other in members:
                edges.add(other)
        graph[module] = edges
    state = {}
    found = []

    def visit(module, path):
        if found or state.get(module) == "done":
            return
        if state.get(module) == "active":
            found.append(path + [module])
            return
        state[module] = "active"
        for other in sorted(graph[module], key=str):
            visit(other, path + [module])
        state[module] = "done"

    for module in sorted(graph, key=str):
        visit(module, [])
    return found[0] if found else None


def test_no_import_cycle():
    inside = [module for module in MODULES if module[0]]
    cycle = _find_cycle(inside)
    assert cycle is None, f"import cycle: {' -> '.join(map(str, cycle))}"


def test_the_check_catches_a_cycle_and_a_reach_inside(tmp_path):
    # The checkers must be able to fail: two modules of a stage importing each
    # other, and a module importing another stage's module, not its __init__.
    stage = tmp_path / "_core"
    stage.mkdir()
    (stage / "__init__.py").write_text("")
    (stage / "a.py").write_text("from .b import x\n")
    (stage / "b.py").write_text("def f():\n    from .a import y\n")
    other = tmp_path / "_counting"
    other.mkdir()
    (other / "__init__.py").write_text("")
    (other / "c.py").write_text("from .._core.a import y\nfrom .._core import z\n")
    a, b, c = ("_core", "a"), ("_core", "b"), ("_counting", "c")
    assert _imports(a, tmp_path) == {b} and _imports(b, tmp_path) == {a}
    assert _imports(c, tmp_path) == {a, ("_core", "__init__")}
    assert _find_cycle([a, b], tmp_path) == [a, b, a]
    (stage / "b.py").write_text("x = 1\n")
    assert _find_cycle([a, b], tmp_path) is None


def test_no_module_is_over_45_kilobytes():
    # A module that outgrows this holds more than one idea: split it by idea.
    sizes = {str(path.relative_to(PACKAGE)): path.stat().st_size
             for path in PACKAGE.rglob("*.py")}
    assert {name: size for name, size in sizes.items() if size > 45_000} == {}
