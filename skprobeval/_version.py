"""The package version (one place, read by the build backend and the command line)."""

__version__ = "0.1.0"
