"""Option scoring of the hf backend: for each answer option appended to the prompt, the summed
log-probability of its tokens (causal LMs) or its pseudo-log-likelihood (masked LMs: each option
token masked in turn, Salazar et al., 2020). The options of several requests share forward passes
of ``batch_size`` rows; padding is masked out and never read, so batch-mates change no score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from biasbench.models.base import OptionScore, PermanentModelError, Prompt

if TYPE_CHECKING:  # pragma: no cover - typing only; the runtime imports are lazy
    import torch

    from biasbench.models.hf_loading import Task


class OptionScoring:
    """The option-scoring stage of :class:`~biasbench.models.hf.HFBackend` (a mixin): it reads the
    loaded ``tokenizer``, ``model``, ``device``, ``task`` and ``batch_size`` and the backend's
    prompt rendering."""

    tokenizer: Any
    model: Any
    device: torch.device
    task: Task
    batch_size: int

    if TYPE_CHECKING:  # provided by HFBackend

        def render(self, prompt: Prompt) -> tuple[str, bool]: ...

        def _check_length(self, n_tokens: int, what: str) -> None: ...

    def encode_with_option(
        self, prompt_text: str, option: str, add_special_tokens: bool
    ) -> tuple[list[int], list[int]]:
        """Token ids of ``prompt_text + option`` and the positions of the option's tokens.

        The two strings are tokenised together, as the model would read them, so tokenizer
        boundary effects are real: a token that straddles the boundary (``"Sagot: "`` + ``"A"``
        read as ``"Sagot:"`` + ``" A"``) belongs to the option. Special tokens the tokenizer adds
        (``<s>``, ``</s>``) never do.
        """
        full_text = prompt_text + option
        boundary = len(prompt_text)
        if getattr(self.tokenizer, "is_fast", False):
            encoded = self.tokenizer(
                full_text, add_special_tokens=add_special_tokens, return_offsets_mapping=True
            )
            ids = list(encoded["input_ids"])
            # Added special tokens carry (0, 0) offsets, so "ends past the boundary" skips them.
            positions = [
                index for index, (_, end) in enumerate(encoded["offset_mapping"]) if end > boundary
            ]
        else:  # slow tokenizers have no offsets: the option starts where the ids diverge
            prompt_ids = self.tokenizer(prompt_text, add_special_tokens=add_special_tokens)
            ids = list(
                self.tokenizer(full_text, add_special_tokens=add_special_tokens)["input_ids"]
            )
            shared = 0
            for left, right in zip(prompt_ids["input_ids"], ids, strict=False):
                if left != right:
                    break
                shared += 1
            special = set(self.tokenizer.all_special_ids)
            positions = [index for index in range(shared, len(ids)) if ids[index] not in special]
        if not positions:
            raise PermanentModelError(f"option {option!r} produced no tokens to score")
        self._check_length(len(ids), "prompt plus option")
        return ids, positions

    def _score_sync(self, prompt: Prompt, options: list[str]) -> list[OptionScore]:
        prompt_text, add_special = self.render(prompt)
        encoded = [self.encode_with_option(prompt_text, option, add_special) for option in options]
        if self.task == "causal":
            return self._causal_scores(encoded)
        return self._pseudo_log_likelihoods(encoded)

    def _score_batch_sync(
        self, jobs: list[tuple[Prompt, list[str]]]
    ) -> list[list[OptionScore] | Exception]:
        """The options of several requests scored together: their sequences share forward
        passes of ``batch_size`` rows. A request whose text cannot be scored fails alone."""
        results: list[list[OptionScore] | Exception | None] = [None] * len(jobs)
        encoded: list[tuple[list[int], list[int]]] = []
        owners: list[tuple[int, int]] = []  # (job index, options in it)
        for index, (prompt, options) in enumerate(jobs):
            try:
                prompt_text, add_special = self.render(prompt)
                mine = [
                    self.encode_with_option(prompt_text, option, add_special) for option in options
                ]
            except PermanentModelError as exc:
                results[index] = exc
                continue
            encoded.extend(mine)
            owners.append((index, len(mine)))
        if encoded:
            scores = (
                self._causal_scores(encoded)
                if self.task == "causal"
                else self._pseudo_log_likelihoods(encoded)
            )
            start = 0
            for index, count in owners:
                results[index] = scores[start : start + count]
                start += count
        return results  # type: ignore[return-value]

    def _causal_scores(self, encoded: list[tuple[list[int], list[int]]]) -> list[OptionScore]:
        """Sum of log p(token | everything before it) over each option's tokens."""
        rows: list[tuple[list[int], list[int], list[int]]] = []  # ids, positions, targets
        for ids, positions in encoded:
            if positions[0] == 0:
                # Nothing precedes the first token: condition it on BOS (or EOS, as GPT-2 does).
                start = self.tokenizer.bos_token_id
                if start is None:
                    start = self.tokenizer.eos_token_id
                if start is None:
                    raise PermanentModelError(
                        "an option at the very start of the text needs a "
                        "BOS or EOS token to condition on; this tokenizer "
                        "has neither"
                    )
                ids = [start, *ids]
                positions = [position + 1 for position in positions]
            # The logits at position p - 1 predict the token at position p.
            rows.append(
                (
                    ids,
                    [position - 1 for position in positions],
                    [ids[position] for position in positions],
                )
            )
        totals = self._gather_log_probs(rows)
        return [OptionScore(total, len(row[1])) for total, row in zip(totals, rows, strict=True)]

    def _pseudo_log_likelihoods(
        self, encoded: list[tuple[list[int], list[int]]]
    ) -> list[OptionScore]:
        """Salazar et al.'s PLL restricted to the option: mask each option token, sum log p(true)."""
        mask_id = self.tokenizer.mask_token_id
        rows: list[tuple[list[int], list[int], list[int]]] = []
        owners: list[int] = []  # which option each masked copy belongs to
        for option_index, (ids, positions) in enumerate(encoded):
            for position in positions:
                masked = list(ids)
                masked[position] = mask_id
                rows.append((masked, [position], [ids[position]]))
                owners.append(option_index)
        sums = [0.0] * len(encoded)
        for owner, value in zip(owners, self._gather_log_probs(rows), strict=True):
            sums[owner] += value
        return [
            OptionScore(total, len(positions))
            for total, (_, positions) in zip(sums, encoded, strict=True)
        ]

    def _gather_log_probs(self, rows: list[tuple[list[int], list[int], list[int]]]) -> list[float]:
        """For each (ids, read positions, target ids) row: sum of log-softmax[position, target].

        Rows are right-padded into batches of ``batch_size``; padding is masked out of attention
        and never read, so a row's score does not depend on its batch-mates. Rows are batched
        in order of length (rows of several requests differ), so little is padding.
        """
        import torch

        pad_id = self.tokenizer.pad_token_id
        if pad_id is None:
            pad_id = self.tokenizer.eos_token_id or 0
        order = sorted(range(len(rows)), key=lambda index: len(rows[index][0]))
        totals = [0.0] * len(rows)
        for start in range(0, len(rows), self.batch_size):
            indices = order[start : start + self.batch_size]
            batch = [rows[index] for index in indices]
            width = max(len(ids) for ids, _, _ in batch)
            input_ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
            attention = torch.zeros((len(batch), width), dtype=torch.long)
            for row_index, (ids, _, _) in enumerate(batch):
                input_ids[row_index, : len(ids)] = torch.tensor(ids, dtype=torch.long)
                attention[row_index, : len(ids)] = 1
            with torch.inference_mode():
                logits = self.model(
                    input_ids=input_ids.to(self.device), attention_mask=attention.to(self.device)
                ).logits
            for row_index, (_, positions, targets) in enumerate(batch):
                # Only the rows read are normalised, in float32 whatever the model's dtype.
                selected = logits[row_index, positions].float().log_softmax(dim=-1)
                rows_read = torch.arange(len(targets), device=selected.device)
                picked = selected[rows_read, torch.tensor(targets, device=selected.device)]
                totals[indices[row_index]] = float(picked.sum())
        return totals
