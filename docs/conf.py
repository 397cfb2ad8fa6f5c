"""Sphinx configuration for the skprobeval documentation."""

import os
import sys
import warnings

sys.path.insert(0, os.path.abspath(".."))

import skprobeval  # noqa: E402

project = "skprobeval"
author = "skprobeval developers"
copyright = "2026, skprobeval developers"
version = release = skprobeval.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
default_role = "literal"
nitpicky = False
exclude_patterns = ["_build", "examples", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
templates_path = ["_templates"]
html_static_path = ["_static"]

# Formulas render with no network: MathJax 3.2.2's single-file TeX-to-SVG component,
# unmodified from the npm package (`npm pack mathjax@3.2.2`, its es5/tex-svg.js and
# LICENSE, Apache-2.0).  SVG output draws its own glyphs, so no font files are fetched.
mathjax_path = "mathjax/tex-svg.js"
html_css_files = ["custom.css"]

intersphinx_mapping = {}

html_theme = "pydata_sphinx_theme"
html_title = "skprobeval"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "run_stale_examples": True,
    "show_memory": False,
    "reset_modules": ("matplotlib",),
}

# Figures render off-screen.
os.environ.setdefault("MPLBACKEND", "Agg")
warnings.filterwarnings("ignore", message="Matplotlib is currently using agg")
