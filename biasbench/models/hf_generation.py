"""Text generation of the hf backend (causal LMs): greedy or sampled decoding with the request's
parameters as the only decoding shapers, one seeded request at a time or greedy requests in one
left-padded batch, each cut where generating it alone would have stopped."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from biasbench.models.base import Generation, GenerationParams, PermanentModelError, Prompt

if TYPE_CHECKING:  # pragma: no cover - typing only; the runtime imports are lazy
    import torch


def truncate_at_stop(text: str, stops: Sequence[str]) -> tuple[str, bool]:
    """Cut ``text`` at the earliest occurrence of any stop string; report whether one was found."""
    positions = [text.find(stop) for stop in stops if stop]
    positions = [position for position in positions if position >= 0]
    if not positions:
        return text, False
    return text[: min(positions)], True


class CausalGeneration:
    """The generation stage of :class:`~biasbench.models.hf.HFBackend` (a mixin): it reads the
    loaded ``tokenizer``, ``model`` and ``device`` and the backend's prompt rendering."""

    tokenizer: Any
    model: Any
    device: torch.device

    if TYPE_CHECKING:  # provided by HFBackend

        def render(self, prompt: Prompt) -> tuple[str, bool]: ...

        def _check_length(self, n_tokens: int, what: str) -> None: ...

    @contextmanager
    def _seeded(self, seed: int | None) -> Iterator[None]:
        """Seed torch for one request without disturbing the process-wide RNG state."""
        if seed is None:
            yield
            return
        import torch

        on_cpu = self.device.type == "cpu"
        with torch.random.fork_rng(
            devices=[] if on_cpu else [self.device.index or 0],
            device_type=None if on_cpu else self.device.type,
        ):
            torch.manual_seed(seed)  # seeds the CPU and every accelerator generator
            yield

    def _decoding_kwargs(self, params: GenerationParams) -> dict[str, Any]:
        """generate() arguments that make the request's parameters the only decoding shapers."""
        pad_id = self.tokenizer.pad_token_id
        if pad_id is None:
            pad_id = self.tokenizer.eos_token_id
        kwargs: dict[str, Any] = {
            "max_new_tokens": params.max_tokens,
            "num_beams": 1,
            "repetition_penalty": params.repetition_penalty,
            "no_repeat_ngram_size": 0,
            "pad_token_id": pad_id,
        }
        if params.temperature > 0:
            kwargs.update(
                do_sample=True,
                temperature=params.temperature,
                top_p=params.top_p,
                top_k=params.top_k,
                min_p=params.min_p,
                typical_p=1.0,
                epsilon_cutoff=0.0,
                eta_cutoff=0.0,
            )
        else:
            kwargs.update(do_sample=False)
        if params.stop:
            # Lets generation halt early; the text is still cut at the first stop string below.
            kwargs.update(stop_strings=list(params.stop), tokenizer=self.tokenizer)
        return kwargs

    def _generate_sync(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        import torch

        prompt_text, add_special = self.render(prompt)
        encoded = self.tokenizer(prompt_text, add_special_tokens=add_special, return_tensors="pt")
        prompt_ids = encoded["input_ids"]
        self._check_length(prompt_ids.shape[1], "the prompt")
        with torch.inference_mode(), self._seeded(seed):
            output = self.model.generate(
                input_ids=prompt_ids.to(self.device),
                attention_mask=encoded["attention_mask"].to(self.device),
                **self._decoding_kwargs(params),
            )
        new_ids = output[0, prompt_ids.shape[1] :].tolist()
        return self._generation(prompt_text, prompt_ids[0].tolist(), new_ids, params, seed)

    def _eos_ids(self) -> set[int]:
        eos_ids = self.model.generation_config.eos_token_id
        return set(eos_ids if isinstance(eos_ids, list) else [eos_ids])

    def _generation(
        self,
        prompt_text: str,
        prompt_ids: list[int],
        new_ids: list[int],
        params: GenerationParams,
        seed: int | None,
    ) -> Generation:
        text, stopped = truncate_at_stop(
            self._decode_continuation(prompt_ids, new_ids), params.stop
        )
        ended = stopped or bool(new_ids and new_ids[-1] in self._eos_ids())
        return Generation(
            text=text,
            prompt_text=prompt_text,
            info={
                "seed": seed,
                **params.sampler(),
                "sampling": "sample" if params.temperature > 0 else "greedy",
                "n_prompt_tokens": len(prompt_ids),
                "n_tokens": len(new_ids),
                "finish_reason": "stop" if ended or len(new_ids) < params.max_tokens else "length",
            },
        )

    def _generate_batch_sync(
        self, jobs: list[tuple[Prompt, int | None]], params: GenerationParams
    ) -> list[Generation | Exception]:
        """Greedy generation of several prompts in one left-padded ``generate`` call.

        Each row ends where generating it alone would have ended (its end-of-sequence token or
        first stop string); what ``generate`` appends to a row finished before its batch-mates
        (padding) is dropped, so text, token counts and finish reasons are the unbatched ones.
        A prompt that cannot be sent (too long) fails alone.
        """
        import torch

        results: list[Generation | Exception | None] = [None] * len(jobs)
        rows: list[tuple[int, str, list[int]]] = []  # index, prompt text, prompt ids
        for index, (prompt, _) in enumerate(jobs):
            try:
                prompt_text, add_special = self.render(prompt)
                ids = list(self.tokenizer(prompt_text, add_special_tokens=add_special)["input_ids"])
                self._check_length(len(ids), "the prompt")
            except PermanentModelError as exc:
                results[index] = exc
                continue
            rows.append((index, prompt_text, ids))
        if rows:
            kwargs = self._decoding_kwargs(params)
            width = max(len(ids) for _, _, ids in rows)
            input_ids = torch.full((len(rows), width), kwargs["pad_token_id"], dtype=torch.long)
            attention = torch.zeros((len(rows), width), dtype=torch.long)
            for row, (_, _, ids) in enumerate(rows):  # left padding: every row ends together
                input_ids[row, width - len(ids) :] = torch.tensor(ids, dtype=torch.long)
                attention[row, width - len(ids) :] = 1
            with torch.inference_mode():
                output = self.model.generate(
                    input_ids=input_ids.to(self.device),
                    attention_mask=attention.to(self.device),
                    **kwargs,
                )
            for row, (index, prompt_text, ids) in enumerate(rows):
                new_ids = self._unpadded(ids, output[row, width:].tolist(), params)
                results[index] = self._generation(prompt_text, ids, new_ids, params, jobs[index][1])
        return results  # type: ignore[return-value]

    def _unpadded(
        self, prompt_ids: list[int], new_ids: list[int], params: GenerationParams
    ) -> list[int]:
        """A batched row's new tokens up to where it would have stopped on its own."""
        eos_ids = self._eos_ids()
        cut = next((k + 1 for k, token in enumerate(new_ids) if token in eos_ids), len(new_ids))
        new_ids = new_ids[:cut]
        if (
            params.stop
            and truncate_at_stop(self._decode_continuation(prompt_ids, new_ids), params.stop)[1]
        ):
            # stopped by a stop string: at the first token whose text completes one
            for k in range(1, len(new_ids) + 1):
                if truncate_at_stop(
                    self._decode_continuation(prompt_ids, new_ids[:k]), params.stop
                )[1]:
                    return new_ids[:k]
        return new_ids

    def _decode_continuation(self, prompt_ids: list[int], new_ids: list[int]) -> str:
        """The new text exactly as it continues the prompt.

        Decoding the new ids alone can lose a leading space (SentencePiece), so the whole
        sequence is decoded and the decoded prompt removed from its front.
        """
        whole = self.tokenizer.decode(prompt_ids + new_ids, skip_special_tokens=True)
        head = self.tokenizer.decode(prompt_ids, skip_special_tokens=True)
        if whole.startswith(head):
            return whole[len(head) :]
        return self.tokenizer.decode(new_ids, skip_special_tokens=True)
