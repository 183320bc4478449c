"""Signatures say when two results are comparable."""

from __future__ import annotations

from biasbench.signature import Signature


def _sig(**changes: object) -> Signature:
    base = dict(benchmark="honorific-bn", benchmark_version="1.0", data_sha256="924a30f0" + "0" * 56,
                prompt_hash="abc123def456", model={"kind": "openai", "model": "m1"},
                decoding={"temperature": 0.0, "max_tokens": 96}, seeds=None,
                judge_version="bn-register/1")
    base.update(changes)
    return Signature(**base)  # type: ignore[arg-type]


def test_short_form() -> None:
    assert _sig().short() == ("honorific-bn:1.0|data:924a30f0|prompt:abc123de|model:m1|t:0.0|"
                              "max:96|seeds:none|judge:bn-register/1|biasbench:0.1.0")
    assert "seeds:50(0..49)" in _sig(seeds=list(range(50))).short()


def test_models_differ_but_results_are_comparable() -> None:
    assert _sig().differences(_sig(model={"kind": "hf", "model": "m2"})) == []


def test_changed_prompt_or_decoding_is_not_comparable() -> None:
    assert _sig().differences(_sig(prompt_hash="ffff")) == ["prompt_hash"]
    assert _sig().differences(_sig(decoding={"temperature": 0.7, "max_tokens": 96},
                                   seeds=[0, 1])) == ["decoding", "seeds"]
