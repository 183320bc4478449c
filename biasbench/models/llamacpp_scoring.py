"""Option scoring on the llama.cpp engine: the log-probabilities of each option's tokens after
the prompt, several options in one forward pass of padded shape (:func:`score_shape`), so that
an item's scores do not depend on what else was scored."""

from __future__ import annotations

import math
from typing import Any

from biasbench.models.llamacpp_passes import SCORE_GROUP, score_shape
from biasbench.models.llamacpp_requests import EngineError, Job, ScoringJob, common_prefix


class OptionScoring:
    """The scoring half of :class:`~biasbench.models.llamacpp_engine.LlamaEngine`, which holds
    the context, the sequences and the decoding these methods use."""

    llama_cpp: Any
    _mem: Any
    _n_ubatch: int
    _n_seq: int
    _prefix: list[int]
    _active: dict[int, Any]

    def _chain_by_prefix(self, jobs: list[Job]) -> list[Job]:
        """Scoring jobs in an order where each shares the most tokens with the one before
        (greedy, from the prefix): each scored prompt becomes the next one's prefix, and the
        answers do not depend on the order (every pass has padded row counts)."""
        scoring = [job for job in jobs if isinstance(job, ScoringJob)]
        if len(scoring) < 2:
            return jobs
        ordered = [job for job in jobs if not isinstance(job, ScoringJob)]
        last = self._prefix
        while scoring:
            best = max(scoring, key=lambda job: common_prefix([last, job.tokens]))
            scoring.remove(best)
            ordered.append(best)
            last = best.tokens
        return ordered

    def _score(self, job: ScoringJob) -> list[list[float]]:
        """Every option's token log-probabilities (float64 log-softmax of the logits).

        The tokens all options share but the last are decoded once in the job's sequence, on
        top of whatever the prefix sequence gives; that state then becomes the prefix for the
        next job (items of one template share most of their prompt). The options are scored
        in groups of up to :data:`SCORE_GROUP`, one forward pass a group: each option gets a
        copy of the shared state in a sequence of its own and decodes, from the last shared
        token on, the tokens that predict its own (see :meth:`_score_group`).
        """
        import numpy as np

        common = len(job.tokens)
        start = self._start_from_prefix(job)
        rows = [(t, start + i, job.seq, False) for i, t in enumerate(job.tokens[start:-1])]
        if rows:
            self._decode_rows(rows, job.seq)
        self._remember_prefix(job)
        results: list[list[float]] = []
        for first in range(0, len(job.options), SCORE_GROUP):
            results += self._score_group(np, job, job.options[first : first + SCORE_GROUP], common)
        return results

    def _remember_prefix(self, job: Job) -> None:
        """Make the job's decoded state (its tokens but the last) the shared prefix."""
        lib = self.llama_cpp
        lib.llama_memory_seq_rm(self._mem, 0, -1, -1)
        lib.llama_memory_seq_cp(self._mem, job.seq, 0, -1, -1)
        self._prefix = job.tokens[:-1]

    def _score_group(
        self, np: Any, job: ScoringJob, options: list[tuple[list[int], int]], common: int
    ) -> list[list[float]]:
        """One forward pass for up to SCORE_GROUP options of one job.

        Option k decodes ``ids[common - 1:-1]`` (the last shared token and its own tokens but
        the last) in sequence ``block + k``, a copy of the job's shared state, every row an
        output: row i predicts ``ids[common + i]``. llama.cpp puts sequences of one pass in
        one ubatch only when each brings as many rows as the others, so every option is padded
        to one length, and padding sequences are added until the pass has whole row groups
        (:func:`score_shape`); both depend only on the options, so an item's scores do not
        depend on what else was scored.
        """
        lib = self.llama_cpp
        longest = max(1, *(len(ids) - common for ids, _ in options))
        n_seqs, length = score_shape(len(options), longest)
        if n_seqs * length > self._n_ubatch:
            raise EngineError("an option longer than one batch cannot be scored")
        block = self._free_block(n_seqs, besides=job.seq)
        rows: list[tuple[int, int, int, bool]] = []
        for k in range(n_seqs):
            seq = block + k
            if k < len(options):
                lib.llama_memory_seq_cp(self._mem, job.seq, seq, -1, -1)
                own = options[k][0][common - 1 : -1] or [job.tokens[-1]]
            else:  # a padding sequence: any tokens, from position 0
                own = [job.tokens[-1]]
            first_pos = common - 1 if k < len(options) else 0
            own = own + [own[-1]] * (length - len(own))
            rows += [(t, first_pos + i, seq, True) for i, t in enumerate(own)]
        try:
            self._run_batch(rows)
            results = []
            for k, (ids, first) in enumerate(options):
                results.append(
                    [
                        float(self._log_softmax(np, k * length + i - common)[ids[i]])
                        for i in range(first, len(ids))
                    ]
                )
            return results
        finally:
            for k in range(n_seqs):
                lib.llama_memory_seq_rm(self._mem, block + k, -1, -1)

    def _free_block(self, n: int, *, besides: int) -> int:
        """The first of ``n`` consecutive sequences no request uses (nor the prefix's, 0)."""
        taken = {0, besides, *self._active}
        for first in range(1, self._n_seq - n + 1):
            if not taken & set(range(first, first + n)):
                return first
        raise EngineError("no free sequences to score options in (-M slots)")  # pragma: no cover

    def _log_softmax(self, np: Any, row: int) -> Any:
        values = self._logits(row).astype(np.float64)
        peak = values.max()
        return values - (peak + math.log(float(np.exp(values - peak).sum())))
