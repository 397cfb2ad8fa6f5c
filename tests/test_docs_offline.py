"""The built documentation draws its formulas with no network, with the MathJax it bundles:
the check CI runs after its documentation build (``docs/_scripts/check_offline_math.py``),
run on the tree a local build left.  Slow tier; skips without Chromium, without Sphinx (the
docs extra) or without a built documentation (``docs/_build/html``, the build command of
CONTRIBUTING.md); a tree built before MathJax was bundled fails: build it again."""

import subprocess
import sys
from pathlib import Path

import pytest
from optional import missing
from test_browser import needs_chromium

DOCS = Path(__file__).resolve().parent.parent / "docs"
SCRIPT = DOCS / "_scripts" / "check_offline_math.py"
BUILD = DOCS / "_build" / "html"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(bool(missing("sphinx")), reason="needs sphinx (the docs extra)"),
    pytest.mark.skipif(not (SCRIPT.is_file() and (BUILD / "theory").is_dir()),
                       reason="needs the documentation built in docs/_build/html"),
]


@needs_chromium
def test_the_built_documentation_draws_its_formulas_offline():
    result = subprocess.run([sys.executable, str(SCRIPT), str(BUILD)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
