"""Engines shared by a family of benchmarks (``bbq_family``: every BBQ-format benchmark).

An engine sits between the benchmarks and the layers below them: a benchmark may import an
engine; an engine imports no benchmark (tests/test_layers.py).
"""
