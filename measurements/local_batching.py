"""Local transformers models batched vs one at a time, side by side in one run.

Prints figures, it does not assert them: items per second through the real runner (keys, store,
workers) for tiny random-weight models the script builds and saves (a GPT-2-style causal LM and
a RoBERTa-style masked LM, with a byte-level BPE tokenizer trained here; nothing is downloaded):

- causal generation, greedy (the case the hf backend batches: left-padded ``generate``);
- masked-LM option scoring (three options per item, pseudo-log-likelihood), batched across items.

One backend with ``-M batch_size=B`` answers the same requests twice through the runner: with
``--concurrency 1`` (one request at a time, as the backend served them before batching: one
``generate`` per prompt; one item's scoring sequences per forward pass) and with
``--concurrency B`` (the micro-batcher gathers the runner's concurrent requests: one
left-padded ``generate`` for up to B prompts; forward passes of B sequences filled across
items). The answers of the two are compared (they must be identical).

    PYTHONPATH=$PWD python measurements/local_batching.py [--items 96] [--batch-size 32] [--repeats 3]

Each configuration runs ``--repeats`` times, interleaved, and the fastest run counts (on a
shared machine the others measure the neighbours).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from biasbench.models.base import Generation, GenerationParams, ModelBackend, Prompt
from biasbench.models.hf import HFBackend
from biasbench.runner.runner import Request, run_requests_sync
from biasbench.runner.store import ResponseStore

SENTENCES = [
    "Si Maria ay isang guro sa paaralan.",
    "Si Juan ay nagtatrabaho bilang inhinyero.",
    "Sino ang mas emosyonal sa dalawa?",
    "Hindi masasabi kung sino ang sagot.",
    "Ang babae ay nagluluto ng hapunan.",
    "Ang lalaki ay naglalaro ng basketbol.",
    "The nurse and the engineer met at the cafe.",
    "Who is more emotional, the man or the woman?",
    "Cannot be determined from the context.",
    "Both of them were waiting for the bus.",
    "Nag-usap ang dalawang magkaibigan tungkol sa trabaho.",
    "Maraming tao ang dumalo sa pulong.",
] * 4
OPTIONS = [" Si Maria", " Si Juan", " Hindi masasabi kung sino"]


def build(folder: Path, family: str) -> Path:
    """Save a 4-layer random-weight model of ``family`` (gpt2 or roberta) and its tokenizer."""
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    specials = (
        ["<|endoftext|>"] if family == "gpt2" else ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    )
    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    backend.train_from_iterator(
        SENTENCES,
        trainer=trainers.BpeTrainer(
            vocab_size=512,
            special_tokens=specials,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    if family == "gpt2":
        backend.post_processor = processors.ByteLevel(trim_offsets=False)
        tokenizer = transformers.PreTrainedTokenizerFast(
            tokenizer_object=backend,
            bos_token="<|endoftext|>",
            eos_token="<|endoftext|>",
            unk_token="<|endoftext|>",
        )
        config: Any = transformers.GPT2Config(
            vocab_size=len(tokenizer),
            n_layer=4,
            n_head=4,
            n_embd=256,
            n_positions=512,
            bos_token_id=0,
            eos_token_id=0,
        )
        model_class: Any = transformers.GPT2LMHeadModel
    else:
        ids = {token: backend.token_to_id(token) for token in specials}
        backend.post_processor = processors.RobertaProcessing(
            ("</s>", ids["</s>"]), ("<s>", ids["<s>"]), trim_offsets=True
        )
        tokenizer = transformers.PreTrainedTokenizerFast(
            tokenizer_object=backend,
            bos_token="<s>",
            eos_token="</s>",
            unk_token="<unk>",
            pad_token="<pad>",
            mask_token="<mask>",
            sep_token="</s>",
            cls_token="<s>",
        )
        config = transformers.RobertaConfig(
            vocab_size=len(tokenizer),
            num_hidden_layers=4,
            num_attention_heads=4,
            hidden_size=256,
            intermediate_size=1024,
            max_position_embeddings=514,
            pad_token_id=ids["<pad>"],
            bos_token_id=ids["<s>"],
            eos_token_id=ids["</s>"],
        )
        model_class = transformers.RobertaForMaskedLM
    torch.manual_seed(0)
    model_class(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


class Chooser(ModelBackend):
    """Answers by the best-scoring option (what a masked LM does on a BBQ item)."""

    kind = "hf"
    deterministic = True

    def __init__(self, inner: HFBackend) -> None:
        self.inner = inner
        self.max_concurrency = inner.max_concurrency

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def set_concurrency(self, workers: int) -> None:
        self.inner.set_concurrency(workers)

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        return await self.inner.choose(prompt, OPTIONS)


def prompts(n: int) -> list[Prompt]:
    """``n`` distinct prompts of varied length."""
    out = []
    for i in range(n):
        text = " ".join(SENTENCES[i % 12 : i % 12 + 1 + i % 4]) + f" ({i}) Sagot:"
        out.append(Prompt(messages=(("user", text),), completion=text))
    return out


def timed(
    backend: ModelBackend, requests: list[Request], params: GenerationParams, concurrency: int
) -> tuple[float, list[str]]:
    """Seconds for the runner to answer ``requests``, and the answers in item order."""
    with tempfile.TemporaryDirectory() as folder:
        store = ResponseStore(Path(folder) / "responses.sqlite")
        try:
            start = time.perf_counter()
            stats = run_requests_sync(
                backend, requests, params, store, concurrency=concurrency, progress=False
            )
            elapsed = time.perf_counter() - start
            assert stats.failed == 0, stats
            answers = {r.item_id: r.output or "" for r in store.iter_records("ok")}
        finally:
            store.close()
    return elapsed, [answers[r.item_id] for r in requests]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=96)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--max-tokens", type=int, default=16)
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="interleaved repetitions; the fastest of each is reported",
    )
    args = parser.parse_args()

    import torch

    requests = [
        Request(item_id=str(i), prompt=p, seed=0) for i, p in enumerate(prompts(args.items))
    ]
    greedy = GenerationParams(temperature=0.0, max_tokens=args.max_tokens)
    rows = []
    with tempfile.TemporaryDirectory() as root:
        causal = build(Path(root) / "tiny-gpt2", "gpt2")
        masked = build(Path(root) / "tiny-roberta", "roberta")
        cases = [
            ("causal LM, greedy generation", causal, lambda b: b, greedy),
            ("masked LM, option scoring (3 options)", masked, Chooser, greedy),
        ]
        for name, folder, wrap, params in cases:
            backend = wrap(HFBackend(str(folder), device="cpu", batch_size=args.batch_size))
            timed(backend, requests[:4], params, 1)  # warm-up (not counted)
            serial_s, batched_s, same = [], [], True
            for _ in range(args.repeats):  # interleaved; the fastest of each counts (load)
                serial = timed(backend, requests, params, 1)
                batched = timed(backend, requests, params, args.batch_size)
                serial_s.append(serial[0])
                batched_s.append(batched[0])
                same = same and serial[1] == batched[1]
            rows.append(
                (
                    name,
                    args.items / min(serial_s),
                    args.items / min(batched_s),
                    min(serial_s) / min(batched_s),
                    same,
                )
            )

    print(
        f"local batching: {args.items} items, batch size {args.batch_size}, "
        f"torch {torch.__version__} on {torch.get_num_threads()} threads, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}, best of "
        f"{args.repeats}"
    )
    print()
    print(
        f"| case | one at a time (items/s) | batched, B={args.batch_size} (items/s) | ratio "
        "| answers identical |"
    )
    print("|:---|---:|---:|---:|:---|")
    for name, serial_rate, batched_rate, ratio, same in rows:
        print(
            f"| {name} | {serial_rate:.1f} | {batched_rate:.1f} | {ratio:.2f}x | "
            f"{'yes' if same else 'NO'} |"
        )


if __name__ == "__main__":
    main()
