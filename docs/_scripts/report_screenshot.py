"""Screenshots of the demo's report page, for the documentation.

Runs the demo (``python -m skprobeval demo --output-dir DIR``, into a temporary directory)
and takes headless-Chromium screenshots of the page it writes, ``DIR/report.html``:

- ``docs/images/report_page_landing.png``, 1400 x 900: the landing page (``docs/index.rst``);
- ``docs/images/report_page.png``, 1150 x 1250: the README and the reports guide.

After a change to the report page, rerun from anywhere (about 15 s)::

    python docs/_scripts/report_screenshot.py

The demo runs on the package of this checkout.  Chromium runs with the network off (the
page fetches nothing).  Needs Chromium and matplotlib (the page's figures).
"""

import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import _chromium

ROOT = Path(__file__).resolve().parent.parent.parent
IMAGES = ROOT / "docs" / "images"
# file name -> the browser window's (width, height) in pixels
SHOTS = {"report_page_landing.png": (1400, 900), "report_page.png": (1150, 1250)}


def _png_size(path):
    """A PNG file's (width, height), read from its header."""
    with open(path, "rb") as file:
        header = file.read(24)
    return struct.unpack(">II", header[16:24])


def main():
    if _chromium.find() is None:
        print("no Chromium found: install Debian's chromium package", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as directory:
        demo = subprocess.run([sys.executable, "-m", "skprobeval", "demo", "--output-dir",
                               directory], cwd=ROOT, capture_output=True, text=True)
        page = Path(directory) / "report.html"
        if demo.returncode != 0 or not page.is_file():
            print(f"the demo wrote no report page:\n{demo.stderr[-2000:]}", file=sys.stderr)
            return 1
        for name, (width, height) in SHOTS.items():
            path = IMAGES / name
            path.unlink(missing_ok=True)
            result = _chromium.run("--hide-scrollbars", f"--window-size={width},{height}",
                                   f"--screenshot={path}", page.as_uri())
            if not path.is_file() or _png_size(path) != (width, height):
                print(f"no {width} x {height} screenshot {path}:\n{result.stderr[-2000:]}",
                      file=sys.stderr)
                return 1
            print(f"wrote {path.relative_to(ROOT)} ({width} x {height})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
