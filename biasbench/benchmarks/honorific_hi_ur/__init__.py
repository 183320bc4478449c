"""The Hindi and Urdu honorific-register benchmarks (``honorific-hi``, ``honorific-ur``).

One rule set (the grammar the two languages share: honorific plural, agreement, ergativity)
with two lexicons. This folder holds the judges (:mod:`.judge`) and the benchmark data per
language (``data/hi/``, ``data/ur/``); the items, metrics and report are the honorific engine's
(spec: ``honorific-hi-ur.md``).
"""
