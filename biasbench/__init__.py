"""biasbench: measure social bias of language models in languages beyond English."""

__version__ = "0.1.0"
