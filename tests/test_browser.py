"""The HTML report and the notebook view as a person sees them: rendered by a real
browser (headless Chromium), the page not blank and every figure drawn in a box of its
own.  Slow tier; skips where Chromium is not installed (CI's slow step installs it)."""

import json
import shutil
import subprocess

import numpy as np
import pytest
from optional import needs

pytestmark = [pytest.mark.slow, needs("matplotlib"), pytest.mark.xdist_group("browser")]

CHROMIUM = next((shutil.which(name) for name in ("chromium", "chromium-browser",
                                                 "google-chrome") if shutil.which(name)), None)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="needs headless Chromium (Debian's chromium package)")

# Injected into a test copy of the page (the page itself holds no script): each inline
# figure's box as the browser lays it out.
_MEASURE = """<script>
document.body.setAttribute("data-boxes", JSON.stringify(
  Array.from(document.querySelectorAll("svg")).map(function (svg) {
    var box = svg.getBoundingClientRect(); return [box.width, box.height]; })));
</script>"""


def _chromium(*args, tmp_path):
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
               f"--user-data-dir={tmp_path / 'profile'}", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def _boxes(page, tmp_path, width):
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    result = _chromium(f"--window-size={width},2000", "--dump-dom", probe.as_uri(),
                       tmp_path=tmp_path)
    marker = 'data-boxes="'
    assert marker in result.stdout, result.stderr[-2000:]
    start = result.stdout.index(marker) + len(marker)
    text = result.stdout[start:result.stdout.index('"', start)].replace("&quot;", '"')
    return json.loads(text)


def _screenshot(path, tmp_path, width, height):
    png = tmp_path / f"{path.stem}.png"
    result = _chromium(f"--window-size={width},{height}", f"--screenshot={png}",
                       path.as_uri(), tmp_path=tmp_path)
    assert png.exists(), result.stderr[-2000:]
    from matplotlib.image import imread

    pixels = imread(png)[..., :3]
    return pixels


def _assert_seen(page, path, tmp_path, width, height, n_figures):
    path.write_text(page, encoding="utf-8")
    boxes = _boxes(page, tmp_path, width)
    assert len(boxes) == n_figures
    # Every figure laid out in a box of its own, at least 150 by 80 pixels.
    assert all(w >= 150 and h >= 80 for w, h in boxes), boxes
    pixels = _screenshot(path, tmp_path, width, height)
    ink = np.mean(pixels.min(axis=2) < 0.9)
    # Not blank: a few percent of the screen is text, table rules and figures.
    assert ink > 0.02, ink


@needs_chromium
def test_the_demo_report_is_drawn_in_a_browser(tmp_path):
    from test_cli import run_process

    result = run_process("demo", "--output-dir", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    path = tmp_path / "out" / "report.html"
    page = path.read_text(encoding="utf-8")
    # The systems' intervals, two heat maps and the ranking.
    _assert_seen(page, tmp_path / "seen.html", tmp_path, 1300, 2400, n_figures=4)
    # The verdict is on the first screenful of a 1400 x 900 window, whole.
    probe = tmp_path / "verdict.html"
    probe.write_text(page.replace("</body>", _VERDICT_BOX + "</body>"), encoding="utf-8")
    result = _chromium("--window-size=1400,900", "--dump-dom", probe.as_uri(),
                       tmp_path=tmp_path)
    marker = 'data-verdict="'
    assert marker in result.stdout, result.stderr[-2000:]
    start = result.stdout.index(marker) + len(marker)
    top, bottom = json.loads(result.stdout[start:result.stdout.index('"', start)])
    assert 0 < top < bottom <= 900, (top, bottom)


_VERDICT_BOX = """<script>
var box = document.querySelector("div.verdict").getBoundingClientRect();
document.body.setAttribute("data-verdict", JSON.stringify([box.top, box.bottom]));
</script>"""


@needs_chromium
def test_the_notebook_view_is_drawn_in_a_browser(tmp_path):
    from skprobeval import compare_predictions

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    predictions = {name: np.where(rng.random(300) < rate, y, rng.integers(0, 3, 300))
                   for name, rate in (("a", 0.8), ("b", 0.7))}
    report = compare_predictions(y, predictions, metric="f1", average="macro",
                                 n_draws=1000, random_state=0)
    # A notebook cell's width, the view wrapped in a bare page as a notebook shows it.
    page = f"<!DOCTYPE html><html><body>{report._repr_html_()}</body></html>"
    _assert_seen(page, tmp_path / "view.html", tmp_path, 900, 700, n_figures=1)
