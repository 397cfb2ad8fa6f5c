"""Every public name is documented with numpydoc sections and a runnable example."""

import inspect

import pytest

import skprobeval

PUBLIC = [name for name in skprobeval.__all__ if name != "__version__"]


@pytest.mark.parametrize("name", PUBLIC)
def test_public_name_has_examples(name):
    obj = getattr(skprobeval, name)
    doc = inspect.getdoc(obj) or ""
    assert doc, f"{name} has no docstring"
    assert "Examples\n--------" in doc, f"{name} has no Examples section"
    assert ">>> " in doc.split("Examples\n--------", 1)[1]
    if callable(obj) and not inspect.isclass(obj):
        assert "Returns\n-------" in doc or "Yields\n------" in doc, f"{name} has no Returns"


def test_all_is_sorted_and_complete():
    names = [name for name in skprobeval.__all__ if name != "__version__"]
    assert names == sorted(names)
    # Every public class and function the package imports is listed, and nothing else.
    exported = {name for name, value in vars(skprobeval).items()
                if not name.startswith("_")
                and (inspect.isclass(value) or inspect.isfunction(value))}
    assert set(names) == exported


def test_every_public_name_is_in_the_api_reference():
    import pathlib
    import re

    api = pathlib.Path(__file__).resolve().parents[1] / "docs" / "api.rst"
    listed = set(re.findall(r"^   (\w+)$", api.read_text(), flags=re.MULTILINE))
    missing = set(PUBLIC) - listed
    assert not missing, f"not in docs/api.rst: {sorted(missing)}"
