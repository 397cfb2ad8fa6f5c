"""The package's imports form no cycle and point down the data flow.

Every module's imports (top-level and inside functions, read from the source
with `ast`) are checked against one layer order: counts at the bottom, then
metrics, posteriors, comparisons, scikit-learn glue, reports and the command
line.  A module may import only from a lower layer.
"""

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "skprobeval"

# Lower number = further down the data flow.
LAYERS = {
    "_validation": 0, "_numerics": 0, "_version": 0,
    "_labels": 1, "_results": 1, "_hdi": 1, "_render": 1, "_drawing": 1,
    "_dask": 2,
    "_data": 3,
    "_counts": 4,
    "_metrics": 5,
    "_posterior": 6, "_joint": 6, "_ranking": 6,
    "_posterior_exact": 7, "_ranking_result": 7,
    "_posterior_fbeta": 8, "_posterior_difference": 8,
    "_posterior_affine": 9,
    "_bayes": 10, "_baseline": 10,
    "_paired": 11, "_posterior_api": 11,
    "_compare": 12, "_ttest": 12, "_groups": 12, "_rank_tests": 12, "_curves": 12,
    "_calibration": 13, "_losses": 13,
    "_sklearn": 13, "_ranking_posteriors": 13, "_random_ap_plot": 13,
    "_report": 14, "_displays": 14, "_group_display": 14, "_across": 14, "_plackett_luce": 14,
    "_rank_cv": 14, "_threshold": 14,
    "_report_builder": 15, "_calibration_display": 15,
    "_crossval": 16, "_rank_systems": 16,
    "plotting": 16.5, "cli": 17,
    "__main__": 18, "__init__": 18,
}


def _imports(module):
    """Names of the package modules ``module`` imports (anywhere in its source)."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:       # from . import name: a module, or a name of the package itself
                found.update(alias.name if alias.name in LAYERS else "__init__"
                             for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("skprobeval"):
            parts = node.module.split(".")
            found.add(parts[1] if len(parts) > 1 else "__init__")
    return found - {module}


def test_every_module_has_a_layer():
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    assert modules == set(LAYERS)


@pytest.mark.parametrize("module", sorted(LAYERS))
def test_imports_point_down_the_data_flow(module):
    upward = {name for name in _imports(module) if LAYERS[name] >= LAYERS[module]}
    assert not upward, f"{module} imports {sorted(upward)} from its own or a higher layer"


def _find_cycle(modules):
    """The first import cycle among `modules` (a list of names), or None."""
    graph = {module: _imports(module) & set(modules) for module in modules}
    state = {}
    found = []

    def visit(module, path):
        if found or state.get(module) == "done":
            return
        if state.get(module) == "active":
            found.append(path + [module])
            return
        state[module] = "active"
        for name in sorted(graph[module]):
            visit(name, path + [module])
        state[module] = "done"

    for module in sorted(graph):
        visit(module, [])
    return found[0] if found else None


def test_no_import_cycle():
    cycle = _find_cycle(sorted(LAYERS))
    assert cycle is None, f"import cycle: {' -> '.join(cycle)}"


def test_the_check_catches_a_cycle(tmp_path, monkeypatch):
    # The checker itself must be able to fail: two modules importing each other.
    global PACKAGE
    (tmp_path / "a.py").write_text("from .b import x\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import y\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path)
    assert _imports("a") == {"b"} and _imports("b") == {"a"}
    # ... and the detector that the real test runs reports it.
    assert _find_cycle(["a", "b"]) == ["a", "b", "a"]
    (tmp_path / "b.py").write_text("x = 1\n")
    assert _find_cycle(["a", "b"]) is None


def test_no_module_is_over_45_kilobytes():
    # A module that outgrows this holds more than one idea: split it by idea.
    sizes = {path.name: path.stat().st_size for path in PACKAGE.glob("*.py")}
    assert {name: size for name, size in sizes.items() if size > 45_000} == {}
