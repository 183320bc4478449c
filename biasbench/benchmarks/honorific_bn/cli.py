"""honorific-bn's commands are the honorific engine's (:mod:`biasbench.engines.honorific.cli`):
``classify`` (the register judge on any text; Bengali by default) and ``annotate export|agree``,
re-exported here for importers."""

from biasbench.engines.honorific.cli import annotate_agree, annotate_export, classify, read_labels

__all__ = ["annotate_agree", "annotate_export", "classify", "read_labels"]
