"""Check that the built documentation draws its formulas with no network.

Opens a theory page of the built HTML in headless Chromium with the network off and checks
that the bundled MathJax drew every formula: as many rendered formulas (``mjx-container``
elements) as the page has math elements, none of them a MathJax error, and no TeX
delimiter (``\\(`` or ``\\[``) left in the page's text.  Also checks that no page with
formulas loads a script from the network.

Usage, after the Sphinx build::

    python docs/_scripts/check_offline_math.py [BUILD_DIR]   # default docs/_build/html

Exit status 0 when every formula is drawn, 1 when one is not, 2 when Chromium or the built
page is missing.
"""

import argparse
import re
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import _chromium

DOCS = Path(__file__).resolve().parent.parent
# The theory page with the most formulas (about 240).
PAGE = "theory/numerics.html"
MATH = re.compile(r'class="math[ "]')
REMOTE_SCRIPT = re.compile(r'<script\b[^>]*\bsrc="(?:https?:)?//[^"]*"')


class _Rendered(HTMLParser):
    """The drawn formulas, the formulas in error and the text of a page's DOM."""

    def __init__(self):
        super().__init__()
        self.n_drawn = 0
        self.n_errors = 0
        self.text = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.n_drawn += tag == "mjx-container"
        self.n_errors += attrs.get("data-mml-node") == "merror" or "data-mjx-error" in attrs
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def remote_math_scripts(build):
    """The pages with formulas that load a script from the network, with the script."""
    found = []
    for path in sorted(build.rglob("*.html")):
        page = path.read_text(encoding="utf-8")
        if MATH.search(page):
            found += [f"{path.relative_to(build)}: {tag}" for tag in REMOTE_SCRIPT.findall(page)]
    return found


def check(build):
    """The problems found in the built documentation `build`, as lines of text."""
    problems = []
    remote = remote_math_scripts(build)
    if remote:
        problems.append(f"{len(remote)} pages with formulas load a script from the network, "
                        f"the first: {remote[0]}")
    path = build / PAGE
    n_math = len(MATH.findall(path.read_text(encoding="utf-8")))
    result = _chromium.run("--virtual-time-budget=10000", "--dump-dom", path.as_uri())
    rendered = _Rendered()
    rendered.feed(result.stdout)
    text = "".join(rendered.text)
    if n_math == 0:
        problems.append(f"{PAGE} has no formulas: it is not the page to check")
    if rendered.n_drawn != n_math:
        problems.append(f"{PAGE}: {rendered.n_drawn} of its {n_math} formulas drawn"
                        + ("" if result.stdout else f"; Chromium: {result.stderr[-1000:]}"))
    if rendered.n_errors:
        problems.append(f"{PAGE}: {rendered.n_errors} formulas drawn as MathJax errors")
    for delimiter in ("\\(", "\\["):
        if delimiter in text:
            at = text.index(delimiter)
            problems.append(f"{PAGE}: raw TeX in the text: {text[at:at + 60]!r}")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", nargs="?", type=Path, default=DOCS / "_build" / "html",
                        help="the built HTML documentation (default: docs/_build/html)")
    build = parser.parse_args(argv).build.resolve()
    if not (build / PAGE).is_file():
        print(f"no built page {build / PAGE}: build the documentation first", file=sys.stderr)
        return 2
    if _chromium.find() is None:
        print("no Chromium found: cannot check the formulas", file=sys.stderr)
        return 2
    start = time.perf_counter()
    problems = check(build)
    for line in problems:
        print(line, file=sys.stderr)
    seconds = time.perf_counter() - start
    print(f"formulas offline: {'FAILED' if problems else 'drawn'} ({seconds:.1f} s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
