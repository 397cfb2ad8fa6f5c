"""Headless Chromium with the network off, for the documentation's tooling scripts."""

import shutil
import subprocess
import tempfile

NAMES = ("chromium", "chromium-browser", "google-chrome")

# No request leaves the machine: every host name fails to resolve and every proxied
# request goes to a closed local port.  Local files (file:// URLs) still load.
OFFLINE = ("--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND")


def find():
    """The path of the first Chromium found on the PATH, or None."""
    return next((shutil.which(name) for name in NAMES if shutil.which(name)), None)


def run(*args, timeout=120):
    """Run headless Chromium offline with `args`, in a fresh profile; the completed process.

    Raises FileNotFoundError where no Chromium is installed.
    """
    chromium = find()
    if chromium is None:
        raise FileNotFoundError(f"no Chromium found on the PATH (looked for {', '.join(NAMES)})")
    with tempfile.TemporaryDirectory() as profile:
        command = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                   f"--user-data-dir={profile}", *OFFLINE, *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
