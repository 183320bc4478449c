"""honorific-bn: the Bengali register judge (``judge/``), its data (``data/``) and its
declaration, on the honorific engine (:mod:`biasbench.engines.honorific`)."""

from importlib.resources import files
from pathlib import Path

DATA_DIR = Path(str(files(__name__).joinpath("data")))
"""definition.json, occupations.csv, errata.csv (the English frames are the engine's)."""
