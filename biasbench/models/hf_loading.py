"""Loading a transformers checkpoint for the hf backend: which task it is (a causal or a masked
LM), which torch device runs it, and the model's identity (a local folder's fingerprint, a cached
name's commit). torch and transformers are imported inside the functions, so importing this
module stays light."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Literal

from biasbench.errors import ModelSpecError

Task = Literal["causal", "masked"]
TaskChoice = Literal["auto", "causal", "masked"]

# Files that define a local model's behaviour (weights, config, tokenizer, chat template, remote
# code). A README or a training log changing must not change the model's identity.
_FINGERPRINT_SUFFIXES = (
    ".json",
    ".safetensors",
    ".bin",
    ".pt",
    ".model",
    ".txt",
    ".tiktoken",
    ".py",
    ".jinja",
)
_SNAPSHOT_COMMIT = re.compile(r"snapshots/([0-9a-f]{40})/")
DTYPES = ("auto", "float32", "float16", "bfloat16")
"""The weights dtypes ``-M dtype=`` accepts."""


def detect_task(config: Any) -> Task:
    """Whether a transformers config describes a causal or a masked LM.

    Order of evidence: the saved ``architectures`` (``...ForMaskedLM`` vs ``...ForCausalLM`` /
    ``...LMHeadModel``), then ``is_decoder``, then which auto-model mapping knows the
    ``model_type`` (encoder families such as BERT appear in both; they are masked unless
    ``is_decoder`` is set).
    """
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    architectures = list(getattr(config, "architectures", None) or [])
    if any(name.endswith("ForMaskedLM") for name in architectures):
        return "masked"
    if any(name.endswith(("ForCausalLM", "LMHeadModel")) for name in architectures):
        return "causal"
    if getattr(config, "is_decoder", False):
        return "causal"
    model_type = getattr(config, "model_type", "")
    if model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES:
        return "masked"
    if model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        return "causal"
    raise ModelSpecError(
        f"cannot tell whether model type {model_type!r} (architectures {architectures}) is a "
        "causal or a masked LM; pass task='causal' or task='masked'"
    )


def default_device() -> str:
    """``cuda`` when a CUDA device is available, else ``mps`` (Apple), else ``cpu``."""
    import torch

    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


def resolve_device(device: str | None) -> Any:
    """The torch device for ``device`` (None or ``auto``: :func:`default_device`); a device this
    machine does not have is one clear error, not a crash mid-run."""
    import torch

    name = default_device() if device in (None, "auto") else str(device)
    try:
        resolved = torch.device(name)
    except (RuntimeError, ValueError):
        raise ModelSpecError(
            f"hf: -M device={name!r} is not a torch device (cpu, cuda, cuda:1, mps)"
        ) from None
    if resolved.type == "cuda" and (
        not torch.cuda.is_available()
        or (resolved.index is not None and resolved.index >= torch.cuda.device_count())
    ):
        raise ModelSpecError(f"hf: -M device={name}: no such CUDA device on this machine")
    if resolved.type == "mps" and not (
        getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()
    ):
        raise ModelSpecError(f"hf: -M device={name}: MPS is not available on this machine")
    return resolved


def local_model_fingerprint(folder: Path, length: int = 12) -> str:
    """Short SHA-256 over the names and full contents of the files that define a local model.

    Weights are hashed in full (not sampled) so two fine-tunes of one base never share an id;
    this reads the weights once more at load time, which the page cache usually makes cheap.
    """
    digest = hashlib.sha256()
    files = sorted(
        path
        for path in folder.iterdir()
        if path.is_file() and path.name.endswith(_FINGERPRINT_SUFFIXES)
    )
    for path in files:
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()[:length]


def model_identity(name_or_path: str, revision: str | None) -> str:
    """``folder-name#hash`` for a local folder, ``name@commit`` for a cached model name
    (``name@revision`` or the bare name when the cache does not say)."""
    folder = Path(name_or_path)
    if folder.is_dir():
        # The folder's name, not its absolute path, so the id is the same on every machine.
        return f"{folder.resolve().name}#{local_model_fingerprint(folder)}"
    try:
        from transformers.utils import cached_file

        resolved = cached_file(name_or_path, "config.json", revision=revision)
    except (OSError, ValueError):
        resolved = None
    match = _SNAPSHOT_COMMIT.search(Path(resolved).as_posix()) if resolved else None
    if match:
        return f"{name_or_path}@{match.group(1)[:12]}"
    return f"{name_or_path}@{revision}" if revision else name_or_path
