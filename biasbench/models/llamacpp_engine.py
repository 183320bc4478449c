"""Many requests through one llama.cpp context, each answer a function of its prompt alone.

The naive way to run a benchmark on a local GGUF model (llama-cpp-python's ``Llama`` in a loop,
``reset()`` before each prompt) re-reads the whole prompt for every item and decodes one token
of one sequence per forward pass. Two things make that slow on a CPU: honorific-bn's 2,016
prompts share about 85 of their 96 tokens (the instruction and the examples), and a decode step
of one token reads every weight of the model for one row of work. This engine

- keeps the **shared prompt prefix** decoded once in a sequence of its own and copies its KV
  state into each request's sequence (``llama_memory_seq_cp``), so a request decodes only its
  own tokens;
- decodes **many sequences per forward pass** (continuous batching: a request joins at the next
  step and leaves when it stops), so a step's weight reads serve up to ``slots`` requests;
- runs in **one thread of its own** that owns the llama.cpp context; callers submit requests
  and wait on futures, and a cancelled request leaves at the next step (an abort callback stops
  a forward pass in flight when nothing waits for it any more).

Answers must not depend on which requests share a forward pass, or on which ran before: why
every forward pass is padded to whole row groups, flash attention is off and every sequence has
a KV stream of its own is explained in :mod:`biasbench.models.llamacpp_passes`. The requests'
types and their sampling are in :mod:`biasbench.models.llamacpp_requests`, option scoring in
:mod:`biasbench.models.llamacpp_scoring`.
"""

from __future__ import annotations

import ctypes
import logging
import threading
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from biasbench.errors import BiasbenchError
from biasbench.models.cpu_threads import bound_barrier_spinning
from biasbench.models.llamacpp_passes import MIN_ROWS, ROW_GROUP, padded_rows
from biasbench.models.llamacpp_requests import (
    EngineAborted,
    EngineError,
    GenerationJob,
    GenerationResult,
    Job,
    Sampling,
    ScoringJob,
    common_prefix,
    make_sampler,
    resolve,
)
from biasbench.models.llamacpp_scoring import OptionScoring

DECODER_VERSION = "batched-prefix-v2"
"""Enters the model description: answers of this decoder are not pooled with other decoders'."""

log = logging.getLogger(__name__)

_PREFIX_MIN_TOKENS = 16
"""A shared prefix shorter than this is not worth a sequence of its own."""


def _load_llama_cpp() -> tuple[Any, str]:
    """``llama_cpp``, and the OpenMP barrier wait in effect for its threads."""
    wait = bound_barrier_spinning()  # before libgomp loads with llama.cpp: it reads this only then
    try:
        import llama_cpp
    except ImportError:
        raise BiasbenchError(
            "llama-cpp-python is not installed: bash scripts/bootstrap.sh (or pip install "
            "'biasbench[llamacpp]')"
        ) from None
    return llama_cpp, wait


_SILENT_LOG: Any = None


def _silence_logs(llama_cpp: Any) -> None:
    """Route llama.cpp's C-level log lines (printed even when not verbose) to nowhere, so they
    do not interleave with the progress bar. The callback is kept alive module-wide."""
    global _SILENT_LOG
    if _SILENT_LOG is not None:
        return

    @llama_cpp.llama_log_callback
    def _discard(level: int, text: bytes, user_data: Any) -> None:
        return None

    _SILENT_LOG = _discard
    llama_cpp.llama_log_set(_discard, ctypes.c_void_p())


class LlamaEngine(OptionScoring):
    """One llama.cpp model and context serving many requests (see the module docstring).

    ``slots`` sequences decode at once; ``n_ctx`` is each sequence's context window;
    ``n_threads`` CPU threads share each forward pass (:mod:`biasbench.models.cpu_threads`).
    """

    def __init__(
        self, path: Path, *, n_ctx: int, slots: int, n_threads: int, n_gpu_layers: int = 0
    ) -> None:
        lib, barrier_wait = _load_llama_cpp()
        self.llama_cpp = lib
        _silence_logs(lib)
        lib.llama_backend_init()
        self.slots = slots
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        params = lib.llama_model_default_params()
        params.n_gpu_layers = n_gpu_layers
        self._model = lib.llama_model_load_from_file(str(path).encode(), params)
        if not self._model:
            raise BiasbenchError(f"llama.cpp could not load {path} (not a model it can read)")
        self._vocab = lib.llama_model_get_vocab(self._model)
        self.n_vocab = lib.llama_vocab_n_tokens(self._vocab)
        # sequences: 0 holds the shared prefix, 1..slots serve requests, and up to
        # MIN_ROWS - 1 more hold a decode step's padding rows (see _decode_step)
        n_seq = self._n_seq = slots + MIN_ROWS
        ctx_params = lib.llama_context_default_params()
        ctx_params.n_ctx = n_ctx * n_seq
        ctx_params.n_batch = ctx_params.n_ubatch = 512
        ctx_params.n_seq_max = n_seq
        ctx_params.kv_unified = False
        # a full-size sliding-window cache: llama.cpp copies a sequence's KV state to another
        # stream (the shared prefix) only from full buffers; the window still masks attention
        ctx_params.swa_full = True
        ctx_params.n_threads = ctx_params.n_threads_batch = n_threads
        ctx_params.no_perf = True
        # llama.cpp's CPU flash attention takes another kernel for many query rows than for
        # few, so a prompt's logits would depend on how it is chunked; the plain attention
        # does not (measured: bit-identical logits for every chunking into whole row groups)
        ctx_params.flash_attn_type = lib.LLAMA_FLASH_ATTN_TYPE_DISABLED
        self._ctx = lib.llama_init_from_model(self._model, ctx_params)
        if not self._ctx:
            lib.llama_model_free(self._model)
            raise BiasbenchError(
                f"llama.cpp could not create a context of {n_ctx} tokens x "
                f"{n_seq} sequences for {path.name} (-M n_ctx / -M slots)"
            )
        self._mem = lib.llama_get_memory(self._ctx)
        log.info(
            "llama.cpp context for %s: threads %d, barrier wait %s",
            path.name,
            n_threads,
            barrier_wait,
        )
        self._n_ubatch = lib.llama_n_ubatch(self._ctx)
        self._batch = lib.llama_batch_init(max(self._n_ubatch, n_seq), 0, 1)
        # The abort callback runs between graph operations on llama.cpp's own threads; a Python
        # callback there would take the GIL hundreds of times a forward pass. libc's strlen over
        # a one-byte flag buffer is a C function of the callback's shape that reads the flag:
        # "" (length 0) goes on, "x" (length 1) aborts.
        self._abort_flag = ctypes.create_string_buffer(2)
        libc = ctypes.CDLL(None)
        self._abort_cb = lib.ggml_abort_callback(ctypes.cast(libc.strlen, ctypes.c_void_p).value)
        lib.llama_set_abort_callback(
            self._ctx, self._abort_cb, ctypes.cast(self._abort_flag, ctypes.c_void_p)
        )
        self._prefix: list[int] = []
        self._free = list(range(1, slots + 1))
        self._queue: deque[Job] = deque()
        self._active: dict[int, GenerationJob] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._eog_cache: dict[int, bool] = {}
        self._thread = threading.Thread(target=self._loop, name="llama.cpp", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------------ public API

    def tokenize(self, text: str, *, add_bos: bool = True) -> list[int]:
        """Token ids of ``text`` as a completion prompt is read (BOS first, specials parsed)."""
        lib = self.llama_cpp
        data = text.encode("utf-8")
        size = len(data) + 16
        while True:
            buf = (lib.llama_token * size)()
            n = lib.llama_tokenize(self._vocab, data, len(data), buf, size, add_bos, True)
            if n >= 0:
                return list(buf[:n])
            size = -n

    def chat_text(self, messages: list[dict[str, str]]) -> str:
        """``messages`` rendered by the model's own chat template (llama.cpp's built-in
        renderer), ending where the assistant's answer starts."""
        lib = self.llama_cpp
        template = lib.llama_model_chat_template(self._model, None)
        if not template:
            raise EngineError("this GGUF file has no chat template; run it without --chat")
        chat = (lib.llama_chat_message * len(messages))(
            *[lib.llama_chat_message(m["role"].encode(), m["content"].encode()) for m in messages]
        )
        size = 4096 + sum(len(m["content"].encode()) for m in messages) * 2
        buf = ctypes.create_string_buffer(size)
        n = lib.llama_chat_apply_template(template, chat, len(messages), True, buf, size)
        if n > size:
            buf = ctypes.create_string_buffer(n)
            n = lib.llama_chat_apply_template(template, chat, len(messages), True, buf, n)
        if n < 0:
            raise EngineError(
                "llama.cpp does not know this model's chat template; run it "
                "without --chat, or through a server that renders it"
            )
        return buf.raw[:n].decode("utf-8", errors="replace")

    def piece(self, token: int) -> bytes:
        buf = ctypes.create_string_buffer(64)
        n = self.llama_cpp.llama_token_to_piece(self._vocab, token, buf, 64, 0, False)
        if n < 0:
            buf = ctypes.create_string_buffer(-n)
            n = self.llama_cpp.llama_token_to_piece(self._vocab, token, buf, -n, 0, False)
        return buf.raw[:n]

    def submit_generation(
        self, tokens: list[int], *, max_tokens: int, stop: Sequence[str], sampling: Sampling
    ) -> tuple[Future[GenerationResult], Job]:
        if len(tokens) + 1 > self.n_ctx:
            raise EngineError(
                f"the prompt is {len(tokens)} tokens; the context window is {self.n_ctx} (-M n_ctx)"
            )
        job = GenerationJob(
            Future(), tokens, max_tokens=max_tokens, stop=tuple(stop), sampling=sampling
        )
        self._put(job)
        return job.future, job

    def submit_scoring(
        self, options: list[tuple[list[int], int]]
    ) -> tuple[Future[list[list[float]]], Job]:
        """Log p(ids[i] | ids[:i]) for every option's tokens i >= start (see ``_score``)."""
        longest = max(len(ids) for ids, _ in options)
        if longest > self.n_ctx:
            raise EngineError(
                f"prompt plus option is {longest} tokens; the context window is "
                f"{self.n_ctx} (-M n_ctx)"
            )
        common = min(start for _, start in options)
        job = ScoringJob(Future(), options[0][0][:common], options=options)
        self._put(job)
        return job.future, job

    def cancel(self, job: Job) -> None:
        job.cancel()
        with self._cond:
            if all(j.cancelled for j in [*self._queue, *self._active.values()]):
                self._abort_now = True  # nothing waits for the forward pass in flight
            self._cond.notify()

    def close(self) -> None:
        """Stop the engine thread (within one forward-pass operation) and free llama.cpp."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._abort_now = True
            self._cond.notify()
        self._thread.join()
        lib = self.llama_cpp
        lib.llama_batch_free(self._batch)
        lib.llama_free(self._ctx)
        lib.llama_model_free(self._model)

    @property
    def _abort_now(self) -> bool:
        return self._abort_flag.value != b""

    @_abort_now.setter
    def _abort_now(self, value: bool) -> None:
        self._abort_flag.value = b"x" if value else b""

    # ------------------------------------------------------------------------ the loop

    def _put(self, job: Job) -> None:
        with self._cond:
            if self._closed:
                raise EngineAborted("the llama.cpp engine is closed")
            self._queue.append(job)
            self._abort_now = False
            self._cond.notify()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._closed and not self._queue and not self._active:
                    self._cond.wait()
                if self._closed:
                    break
            try:
                self._step()
            except BaseException as exc:  # a failed forward pass fails what was in it
                self._fail_all(exc)
        self._fail_all(EngineAborted("the llama.cpp engine was closed"))

    def _fail_all(self, exc: BaseException) -> None:
        with self._cond:
            jobs = [*self._queue, *self._active.values()]
            self._queue.clear()
            self._active.clear()
        for job in jobs:
            self._release(job)
            resolve(job.future, error=exc)
        self._free = list(range(1, self.slots + 1))
        self._prefix = []
        self.llama_cpp.llama_memory_clear(self._mem, True)
        self._abort_now = False

    def _release(self, job: Job) -> None:
        if job.seq > 0:
            self.llama_cpp.llama_memory_seq_rm(self._mem, job.seq, -1, -1)
            self._free.append(job.seq)
            self._free.sort()
            job.seq = -1
        if isinstance(job, GenerationJob) and job.sampler is not None:
            self.llama_cpp.llama_sampler_free(job.sampler)
            job.sampler = None

    def _step(self) -> None:
        """Admit queued requests into free sequences, then one decode step for all."""
        with self._cond:
            admitted: list[Job] = []
            while self._queue and len(admitted) < len(self._free):
                job = self._queue.popleft()
                if job.cancelled:
                    job.future.cancel()
                    continue
                admitted.append(job)
            pending = list(self._queue)
        admitted = self._chain_by_prefix(admitted)
        for job in list(self._active.values()):
            if job.cancelled:
                self._finish_cancelled(job)
        if admitted:
            self._update_prefix([job.tokens for job in [*admitted, *pending]])
        self._compact()
        for job in admitted:
            job.seq = self._free.pop(0)
            try:
                if isinstance(job, ScoringJob):
                    scores = self._score(job)
                    self._release(job)
                    resolve(job.future, scores)
                else:
                    self._prefill(job)
            except EngineError as exc:
                self._release(job)
                resolve(job.future, error=exc)
        if self._active:
            self._decode_step()

    def _finish_cancelled(self, job: GenerationJob) -> None:
        del self._active[job.seq]
        self._release(job)
        job.future.cancel()

    # ------------------------------------------------------------------------ prefix

    def _update_prefix(self, prompts: list[list[int]]) -> None:
        """Keep, in sequence 0, the longest token prefix the waiting prompts share.

        The prefix only saves work: a prompt's logits do not depend on how much of it was read
        from the prefix (every pass has padded row counts), so any choice here is correct.
        """
        shared = common_prefix(prompts)
        keep = common_prefix([self._prefix, prompts[0]]) if self._prefix else 0
        if keep >= _PREFIX_MIN_TOKENS and keep >= shared - 8:
            if keep < len(self._prefix):
                self.llama_cpp.llama_memory_seq_rm(self._mem, 0, keep, -1)
                self._prefix = self._prefix[:keep]
            return
        if shared < _PREFIX_MIN_TOKENS or len(prompts) < 2:
            return
        # leave the last token of the shortest prompt to be decoded with its own sequence
        shared = min(shared, min(len(p) for p in prompts) - 1)
        self.llama_cpp.llama_memory_seq_rm(self._mem, 0, -1, -1)
        self._prefix = []
        self._decode_rows([(t, i, 0, False) for i, t in enumerate(prompts[0][:shared])], seq=0)
        self._prefix = prompts[0][:shared]

    def _start_from_prefix(self, job: Job) -> int:
        """Copy the usable part of the prefix into the job's sequence; how many tokens it gave."""
        reuse = min(common_prefix([self._prefix, job.tokens]), len(job.tokens) - 1)
        if reuse > 0:
            # between KV streams llama.cpp copies whole sequences only: copy, then trim
            self.llama_cpp.llama_memory_seq_cp(self._mem, 0, job.seq, -1, -1)
            if reuse < len(self._prefix):
                self.llama_cpp.llama_memory_seq_rm(self._mem, job.seq, reuse, -1)
        return reuse

    # ------------------------------------------------------------------------ decoding

    def _decode_rows(self, rows: list[tuple[int, int, int, bool]], seq: int) -> None:
        """Decode ``rows`` (token, position, sequence, wants logits), all of sequence ``seq``,
        in ubatch-sized chunks, each padded to whole row groups of rows and of outputs.

        Padding rows repeat the chunk's last token at the positions after it, in the same
        sequence (so llama.cpp keeps the chunk in one ubatch), and are removed afterwards: the
        attention is causal, so they change nothing before them. Where the outputs still do not
        fill whole groups, earlier rows are made outputs too (their logits are not read). A
        chunk's row ``i`` is batch row ``i``; the last chunk's logits stay readable.
        """
        chunk = self._n_ubatch - ROW_GROUP
        for first in range(0, len(rows), chunk):
            part = list(rows[first : first + chunk])
            token, end = part[-1][0], part[-1][1] + 1
            n_pad = padded_rows(len(part)) - len(part)
            outputs = sum(row[3] for row in part)
            if outputs:  # the output rows form a matrix product of their own: pad it too
                outputs += n_pad
                # never more than the rows that are not outputs: at worst every row outputs
                flip = max(MIN_ROWS - outputs, -outputs % ROW_GROUP)
                for i, row in enumerate(part):
                    if flip == 0:
                        break
                    if not row[3]:
                        part[i] = (row[0], row[1], row[2], True)
                        flip -= 1
            part += [(token, end + i, seq, outputs > 0) for i in range(n_pad)]
            self._run_batch(part)
            if n_pad:
                self.llama_cpp.llama_memory_seq_rm(self._mem, seq, end, -1)

    def _run_batch(self, rows: list[tuple[int, int, int, bool]]) -> None:
        lib = self.llama_cpp
        batch = self._batch
        batch.n_tokens = len(rows)
        for j, (token, pos, seq, logits) in enumerate(rows):
            batch.token[j] = token
            batch.pos[j] = pos
            batch.n_seq_id[j] = 1
            batch.seq_id[j][0] = seq
            batch.logits[j] = logits
        status = lib.llama_decode(self._ctx, batch)
        if status == 2 or self._abort_now:
            raise EngineAborted("stopped")
        if status != 0:
            raise EngineError(
                f"llama.cpp could not decode a batch of {len(rows)} tokens (status {status})"
            )

    def _logits(self, row: int) -> Any:
        import numpy as np

        return np.ctypeslib.as_array(
            self.llama_cpp.llama_get_logits_ith(self._ctx, row), shape=(self.n_vocab,)
        )

    def _prefill(self, job: GenerationJob) -> None:
        """Decode the job's prompt but its last token, with no outputs (the vocabulary
        projection of a 262k-token vocabulary costs more than the rest of a row); the last
        prompt token joins the next decode step as the job's first row, and its logits there
        choose the first answer token."""
        start = self._start_from_prefix(job)
        rows = [(t, start + i, job.seq, False) for i, t in enumerate(job.tokens[start:-1])]
        if rows:
            self._decode_rows(rows, job.seq)
        job.pos = len(job.tokens) - 1
        job.next_token = job.tokens[-1]
        job.sampler = make_sampler(self.llama_cpp, job.sampling, job.tokens)
        self._active[job.seq] = job

    def _decode_step(self) -> None:
        """One new token for every active sequence, in one padded forward pass.

        With a KV stream per sequence, llama.cpp puts only sequences with consecutive ids in
        one ubatch; the active requests are kept in sequences 1..A (:meth:`_compact`) and the
        padding rows go in sequences A+1.., so the pass is one ubatch of whole row groups.
        """
        self._compact()
        jobs = [self._active[seq] for seq in sorted(self._active)]
        rows = [(job.next_token, job.pos, job.seq, True) for job in jobs]
        pads = list(range(len(jobs) + 1, padded_rows(len(jobs)) + 1))
        rows += [(jobs[0].next_token, 0, seq, True) for seq in pads]
        self._run_batch(rows)
        for seq in pads:
            self.llama_cpp.llama_memory_seq_rm(self._mem, seq, -1, -1)
        for index, job in enumerate(jobs):
            job.pos += 1
            self._advance(job, index)

    def _compact(self) -> None:
        """Move the active requests into sequences 1..A (a whole-sequence KV copy each), so
        the free sequences are A+1.. and the next request joins as A+1."""
        lib = self.llama_cpp
        for hole in range(1, len(self._active) + 1):
            if hole in self._active:
                continue
            top = max(self._active)
            job = self._active.pop(top)
            lib.llama_memory_seq_cp(self._mem, top, hole, -1, -1)
            lib.llama_memory_seq_rm(self._mem, top, -1, -1)
            job.seq = hole
            self._active[hole] = job
        self._free = sorted(set(range(1, self.slots + 1)) - set(self._active))

    def _advance(self, job: GenerationJob, row: int) -> None:
        """Choose the job's next token from batch row ``row``; finish the job if it stops."""
        lib = self.llama_cpp
        if job.sampler is None:
            token = int(self._logits(row).argmax())
        else:
            token = lib.llama_sampler_sample(job.sampler, self._ctx, row)
        finish = None
        if self._is_eog(token):
            finish = "stop"
        else:
            job.out.append(token)
            job.next_token = token
            job.text += self.piece(token)
            if job.stop:
                text = job.text.decode("utf-8", errors="ignore")
                if any(s in text for s in job.stop):
                    finish = "stop"
            if finish is None and (len(job.out) >= job.max_tokens or job.pos >= self.n_ctx):
                finish = "length"
        if finish is None:
            return
        text = job.text.decode("utf-8", errors="replace")
        cut = min((text.find(s) for s in job.stop if s in text), default=-1)
        if cut >= 0:
            text = text[:cut]
        del self._active[job.seq]
        self._release(job)
        resolve(job.future, GenerationResult(text, len(job.tokens), len(job.out), finish))

    def _is_eog(self, token: int) -> bool:
        known = self._eog_cache.get(token)
        if known is None:
            known = self._eog_cache[token] = bool(
                self.llama_cpp.llama_vocab_is_eog(self._vocab, token)
            )
        return known
