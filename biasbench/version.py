"""The package version, in a module of its own: the signature, the manifest and the report
read it from here, below everything (the package root re-exports it)."""

__version__ = "0.1.0"
