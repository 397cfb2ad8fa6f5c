"""One self-contained HTML page for any result: the page builder and its writer.

A page is a title, a line of settings, sections (a heading, then tables and
figures given as HTML fragments: `frame_html` tables, `figure_svg` figures) and
the method notes, with the library's version at the foot.  Everything is
inline: one ``<style>`` element, SVG figures whose text is drawn as paths, no
script and no outside resource, so the file reads the same without a network
(and an experiment tracker can keep it as one artifact).

`write_page` writes to a temporary file beside `path` and renames it into
place: a failed write leaves nothing half-written.
"""

from __future__ import annotations

import html
import os
import tempfile

from ._validation import fail

__all__ = ["check_page_path", "html_page", "write_page"]

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 1100px; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
p.settings { color: #555; margin-top: 0; }
table.skprobeval-table { border-collapse: collapse; font-size: 0.85em; margin: 0.6em 0; }
table.skprobeval-table th, table.skprobeval-table td { padding: 0.2em 0.6em;
       border-bottom: 1px solid #e4e4e4; text-align: right; }
table.skprobeval-table thead th { border-bottom: 1px solid #999; }
div.skprobeval-figure svg { max-width: 100%; height: auto; }
div.verdict { font-size: 1.05em; background: #f3f6fa; border-left: 4px solid #3a6ea5;
              padding: 0.3em 0.9em; margin: 0.6em 0; }
div.verdict p { margin: 0.35em 0; }
div.notes { font-size: 0.9em; color: #444; }
footer { margin-top: 3em; font-size: 0.8em; color: #777; }
"""


def html_page(title, sections, *, settings=None, notes=()):
    """A complete HTML document.

    Parameters
    ----------
    title : str
        The page's title and first heading.
    sections : list of (str, list of str)
        Each section's heading and its HTML fragments (tables, figures), in
        reading order.  A section without fragments is left out.
    settings : str, default=None
        A line under the title (the metric, the level of the intervals...).
    notes : list of str, default=()
        The method notes, one paragraph each (plain text).

    Returns
    -------
    str
    """
    from .._version import __version__

    parts = ["<!DOCTYPE html>", "<html lang='en'>", "<head>", "<meta charset='utf-8'>",
             f"<title>{html.escape(title)}</title>", f"<style>{_STYLE}</style>", "</head>",
             "<body>", f"<h1>{html.escape(title)}</h1>"]
    if settings:
        parts.append(f"<p class='settings'>{html.escape(settings)}</p>")
    for heading, fragments in sections:
        fragments = [f for f in fragments if f]
        if not fragments:
            continue
        parts.append(f"<section><h2>{html.escape(heading)}</h2>")
        parts += [_figure(f) if f.lstrip().startswith("<svg") else f for f in fragments]
        parts.append("</section>")
    notes = [n for n in notes if n]
    if notes:
        parts.append("<section><h2>Method</h2><div class='notes'>")
        parts += [f"<p>{html.escape(note)}</p>" for note in notes]
        parts.append("</div></section>")
    parts += [f"<footer>Made with skprobeval {html.escape(__version__)}.</footer>",
              "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _figure(svg):
    return f"<div class='skprobeval-figure'>{svg}</div>"


def check_page_path(path):
    """`path` as a str, checked before any work: a file in an existing, writable
    directory; errors name ``path``."""
    try:
        target = os.fspath(path)
    except TypeError:
        fail("path", "a file path (str or os.PathLike)", path, error=TypeError)
    if isinstance(target, bytes):
        target = os.fsdecode(target)
    if not target or os.path.isdir(target):
        fail("path", "a file path, not a directory", target, error=IsADirectoryError)
    directory = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(directory):
        fail("path", "a file in an existing directory", target,
             shown=f"{target!r} (no directory {directory!r})", error=FileNotFoundError)
    if not os.access(directory, os.W_OK):
        fail("path", "a file in a writable directory", target,
             shown=f"{target!r} (directory {directory!r} is not writable)",
             error=PermissionError)
    return target


def write_page(text, path):
    """Write `text` to `path` whole or not at all; errors name ``path``.

    Parameters
    ----------
    text : str
        The page.
    path : str or os.PathLike
        The file to write (replaced if it exists).
    """
    target = check_page_path(path)
    directory = os.path.dirname(os.path.abspath(target))
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".skprobeval-", suffix=".html")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        # mkstemp makes the file private; give it the mode any new file gets.
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, target)
    except BaseException as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):
            fail("path", "a file that can be written", target,
                 shown=f"{target!r} ({error.strerror or error})", error=type(error))
        raise
