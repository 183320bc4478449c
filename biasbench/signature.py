"""Result signatures, as sacrebleu's: everything that makes two numbers comparable.

Two results with equal signatures (apart from the model) can be put side by side; results whose
benchmark, data, prompt, decoding, seeds or judge differ are not silently compared.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from biasbench.version import __version__

SCHEMA_VERSION = 1
# Fields that must agree for two runs' results to be merged into one comparison.
COMPARABLE_FIELDS = (
    "benchmark",
    "benchmark_version",
    "data_sha256",
    "prompt_hash",
    "decoding",
    "seeds",
    "judge_version",
)


class Signature(BaseModel):
    """Identity of a result: benchmark, data, prompt, model, decoding, seeds, judge, package."""

    model_config = ConfigDict(frozen=True)

    benchmark: str
    """Benchmark name, e.g. ``honorific-bn``."""
    benchmark_version: str
    data_sha256: str
    """Checksum of the item set that was run."""
    prompt_hash: str
    """Hash of the prompt template(s) sent to the model."""
    model: dict[str, Any] = Field(default_factory=dict)
    """Backend description (kind, model id, prompt mode); never secrets."""
    decoding: dict[str, Any] = Field(default_factory=dict)
    """Decoding parameters: the complete sampler (temperature, top_p, top_k, min_p,
    repetition_penalty), max tokens and stop sequences (``GenerationParams.to_dict()``)."""
    seeds: list[int] | None = None
    """Seeds each prompt was run under; None for a single unseeded run."""
    limit: int | None = None
    """``--limit N``: only the first N items were run (a partial run); None for all of them."""
    judge_version: str
    data_source: dict[str, Any] | None = None
    """Where the items came from, e.g. FilBBQ's per category: published (file, commit, sha256)
    or regenerated (seed)."""
    package_version: str = __version__
    schema_version: int = SCHEMA_VERSION

    def short(self) -> str:
        """One line, sacrebleu style: ``honorific-bn:1.0|data:924a30f0|...``."""
        seeds = (
            "none" if not self.seeds else (f"{len(self.seeds)}({self.seeds[0]}..{self.seeds[-1]})")
        )
        model = self.model.get("model", "?") if self.model else "*"
        return "|".join(
            [
                f"{self.benchmark}:{self.benchmark_version}",
                f"data:{self.data_sha256[:8]}",
                f"prompt:{self.prompt_hash[:8]}",
                f"model:{model}",
                self.sampler_short(),
                f"max:{self.decoding.get('max_tokens', '?')}",
                f"seeds:{seeds}",
                f"judge:{self.judge_version}",
                f"biasbench:{self.package_version}",
            ]
        )

    def sampler_short(self) -> str:
        """The complete sampler, e.g. ``t:1.0|top_p:1.0|top_k:0|min_p:0.0|rep:1.0``.

        A field the decoding does not record (results of older versions, which let backends
        pick) shows as ``?``; one left to the server (an OpenAI endpoint with sampler extras
        off) as ``server``."""
        dec = self.decoding
        server = (
            {"top_k", "min_p", "repetition_penalty"}
            if (self.model.get("sampler_extras") is False)
            else set()
        )
        parts = []
        for name, short in (
            ("temperature", "t"),
            ("top_p", "top_p"),
            ("top_k", "top_k"),
            ("min_p", "min_p"),
            ("repetition_penalty", "rep"),
        ):
            value = "server" if name in server else dec.get(name)
            parts.append(f"{short}:{'?' if value is None else value}")
        return "|".join(parts)

    def comparable_key(self) -> tuple[str, ...]:
        dump = self.model_dump()
        return tuple(repr(dump[f]) for f in COMPARABLE_FIELDS)

    def differences(self, other: Signature) -> list[str]:
        """Names of the fields that stop ``self`` and ``other`` from being compared."""
        mine, theirs = self.model_dump(), other.model_dump()
        return [f for f in COMPARABLE_FIELDS if mine[f] != theirs[f]]


def common_signature(signatures: dict[str, Signature]) -> dict[str, Any]:
    """The signature shared by the models of one results file: every field of the first, with
    ``model`` listing each model's description, and a short form (model shown as ``*`` when
    there are several)."""
    sigs = list(signatures.values())
    shared = sigs[0].model_dump()
    shared["model"] = {name: s.model for name, s in signatures.items()}
    shared["short"] = (
        sigs[0] if len(sigs) == 1 else sigs[0].model_copy(update={"model": {}})
    ).short()
    return shared
