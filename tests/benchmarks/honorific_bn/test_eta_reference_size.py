"""eta-squared(occupation)'s no-effect reference on no-effect models whose he and she sentences
agree 95% of the time (real models' shape): a small, seeded version of
measurements/honorific_eta_reference.py. Permuting the male and the female labels separately (the
old reference) broke the pairs and called about 98% of such models biased; permuting each item's
(he, she) pair together within its frame gives 3-6% (docs/statistics.md)."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest


def _reference_module() -> Any:
    for name in (
        "biasbench.engines.honorific.reference",
        "biasbench.benchmarks.honorific_bn.reference",
    ):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "no_effect_null"):
            return module
    pytest.skip("no honorific no-effect reference in this checkout")


def test_paired_no_effect_models_are_called_biased_about_5_percent_of_the_time() -> None:
    module = _reference_module()
    rng = np.random.default_rng(4)
    models, rejected = 60, 0
    for rep in range(models):
        nopronoun, male = (
            (rng.random((72, 7)) < 0.5).astype(float),
            (rng.random((72, 7)) < 0.5).astype(float),
        )
        # she copies he with chance 0.9, else an independent coin: 95% agreement
        female = np.where(
            rng.random((72, 7)) < 0.9, male, (rng.random((72, 7)) < 0.5).astype(float)
        )
        observed = float(module._eta2_occupation(male[None], female[None])[0])
        null = module.no_effect_null(module.ItemLabels(nopronoun, male, female), 99, seed=rep)[
            "eta2_occupation_pct"
        ]
        rejected += (1 + int((null >= observed - 1e-12).sum())) / 100 <= 0.05
    assert rejected / models <= 0.15
