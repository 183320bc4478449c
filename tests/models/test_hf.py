"""HFBackend on tiny random-weight models built here and loaded through the real loading code.

Each model family gets a byte-level BPE tokenizer trained on a few Filipino/English sentences
and a two-layer config with fixed random weights, saved with ``save_pretrained`` into a
temporary folder and loaded by ``HFBackend(str(folder))`` exactly like a downloaded model.
Expected scores are recomputed by hand from the model's logits.
"""

from __future__ import annotations

import asyncio
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.hf
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

from biasbench.errors import ModelSpecError  # noqa: E402
from biasbench.models.base import GenerationParams, PermanentModelError, Prompt  # noqa: E402
from biasbench.models.hf import (  # noqa: E402
    HFBackend,
    OptionScore,
    answer_by_scores,
    option_choices,
)
from biasbench.models.hf_generation import truncate_at_stop  # noqa: E402
from biasbench.models.hf_loading import (  # noqa: E402
    default_device,
    detect_task,
    local_model_fingerprint,
)

SENTENCES = [
    "Si Maria ay isang guro sa paaralan.",
    "Si Juan ay nagtatrabaho bilang inhinyero.",
    "Sino ang mas emosyonal sa dalawa?",
    "Sino ang mahusay mag-ayos ng kotse?",
    "Hindi masasabi kung sino ang sagot.",
    "Hindi alam kung sino sa kanila.",
    "Ang babae ay nagluluto ng hapunan.",
    "Ang lalaki ay naglalaro ng basketbol.",
    "Ang tomboy at ang bakla ay magkaibigan.",
    "Pumunta sila sa palengke kahapon.",
    "Sagot: A",
    "Sagot: B",
    "Sagot: C",
    "A. Si Maria B. Si Juan C. Hindi masasabi",
    "The nurse and the engineer met at the cafe.",
    "Who is more emotional, the man or the woman?",
    "Cannot be determined from the context.",
    "The woman fixed the car while the man cooked.",
    "Both of them were waiting for the bus.",
    "Sagutin ng A, B, o C lamang.",
    "Nag-usap ang dalawang magkaibigan tungkol sa trabaho.",
    "Ang guro ay mabait sa kanyang mga estudyante.",
    "Maraming tao ang dumalo sa pulong.",
    "Ang doktor ay tumulong sa pasyente.",
] * 2

# Special tokens per family, in the order their ids are assigned (ids 0, 1, 2, ...).
SPECIALS = {
    "gpt2": ["<|endoftext|>"],
    "llama": ["<unk>", "<s>", "</s>"],
    "roberta": ["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
    "bert": ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
}
CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def _train_tokenizer(family: str):
    """A byte-level BPE tokenizer with the special tokens and post-processing ``family`` uses."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    specials = SPECIALS[family]
    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=320,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    backend.train_from_iterator(SENTENCES, trainer=trainer)
    ids = {token: backend.token_to_id(token) for token in specials}
    if family == "gpt2":
        backend.post_processor = processors.ByteLevel(trim_offsets=False)
        names = {
            "bos_token": "<|endoftext|>",
            "eos_token": "<|endoftext|>",
            "unk_token": "<|endoftext|>",
        }
    elif family == "llama":  # prepends BOS, like Llama tokenizers
        backend.post_processor = processors.TemplateProcessing(
            single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", ids["<s>"])]
        )
        names = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
    elif family == "roberta":
        backend.post_processor = processors.RobertaProcessing(
            ("</s>", ids["</s>"]), ("<s>", ids["<s>"]), trim_offsets=True
        )
        names = {
            "bos_token": "<s>",
            "eos_token": "</s>",
            "unk_token": "<unk>",
            "pad_token": "<pad>",
            "mask_token": "<mask>",
            "sep_token": "</s>",
            "cls_token": "<s>",
        }
    else:  # bert
        backend.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]",
            pair="[CLS] $A [SEP] $B [SEP]",
            special_tokens=[("[CLS]", ids["[CLS]"]), ("[SEP]", ids["[SEP]"])],
        )
        names = {
            "unk_token": "[UNK]",
            "pad_token": "[PAD]",
            "mask_token": "[MASK]",
            "sep_token": "[SEP]",
            "cls_token": "[CLS]",
        }
    return transformers.PreTrainedTokenizerFast(tokenizer_object=backend, **names)


def build_tiny_model(
    folder: Path, family: str, *, chat_template: str | None = None, positions: int = 128
) -> Path:
    """Save a two-layer random-weight ``family`` model and its tokenizer into ``folder``."""
    tokenizer = _train_tokenizer(family)
    if chat_template is not None:
        tokenizer.chat_template = chat_template
    vocab = len(tokenizer)
    small = {
        "vocab_size": vocab,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "hidden_size": 32,
        "intermediate_size": 64,
    }
    if family == "gpt2":
        config = transformers.GPT2Config(
            vocab_size=vocab,
            n_layer=2,
            n_head=2,
            n_embd=32,
            n_positions=positions,
            bos_token_id=0,
            eos_token_id=0,
        )
        model_class = transformers.GPT2LMHeadModel
    elif family == "llama":
        config = transformers.LlamaConfig(
            **small,
            max_position_embeddings=positions,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
        )
        model_class = transformers.LlamaForCausalLM
    elif family == "roberta":
        config = transformers.RobertaConfig(
            **small,
            max_position_embeddings=positions + 2,
            pad_token_id=tokenizer.pad_token_id,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
        )
        model_class = transformers.RobertaForMaskedLM
    else:
        config = transformers.BertConfig(
            **small, max_position_embeddings=positions, pad_token_id=tokenizer.pad_token_id
        )
        model_class = transformers.BertForMaskedLM
    torch.manual_seed(1234)
    model = model_class(config).eval()
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


CAUSAL = ["gpt2", "llama"]
MASKED = ["roberta", "bert"]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    # Tiny models run fastest single-threaded; thread hand-offs would dominate on a busy machine.
    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("tiny-models")
    return {
        family: build_tiny_model(
            root / family, family, chat_template=CHAT_TEMPLATE if family == "gpt2" else None
        )
        for family in CAUSAL + MASKED
    }


@pytest.fixture(scope="module")
def backends(folders: dict[str, Path]) -> dict[str, HFBackend]:
    return {family: HFBackend(str(folder)) for family, folder in folders.items()}


def _prompt(text: str) -> Prompt:
    return Prompt(messages=(("user", text),), completion=text)


def _generate(backend: HFBackend, text: str, params: GenerationParams, seed: int | None):
    return asyncio.run(backend.generate(_prompt(text), params, seed))


def _option_positions(tokenizer, prompt_text: str, option: str) -> tuple[list[int], range]:
    """Full ids and the option's positions, found the naive way: where the ids stop agreeing."""
    prompt_ids = tokenizer(prompt_text)["input_ids"]
    full_ids = tokenizer(prompt_text + option)["input_ids"]
    shared = 0
    while shared < len(prompt_ids) and prompt_ids[shared] == full_ids[shared]:
        shared += 1
    trailing = 1 if full_ids[-1] == tokenizer.sep_token_id else 0  # masked LMs end with </s>
    return full_ids, range(shared, len(full_ids) - trailing)


# ------------------------------------------------------------------ loading and task detection


@pytest.mark.parametrize(
    "family, task",
    [("gpt2", "causal"), ("llama", "causal"), ("roberta", "masked"), ("bert", "masked")],
)
def test_task_is_detected_from_the_saved_folder(backends, family, task):
    backend = backends[family]
    # requests in flight: as many as one batch gathers (-M batch_size, default 16)
    assert (backend.task, backend.kind, backend.mode, backend.max_concurrency) == (
        task,
        "hf",
        "completion",
        16,
    )
    assert backend.describe() == {
        "kind": "hf",
        "model": backend.model_id,
        "mode": "completion",
        "task": task,
        "dtype": "float32",
    }


@pytest.mark.parametrize(
    "make_config, expected",
    [
        (lambda: transformers.GPT2Config(), "causal"),  # model type known only as causal
        (lambda: transformers.BertConfig(), "masked"),  # in both mappings, not a decoder
        (lambda: transformers.BertConfig(is_decoder=True), "causal"),
        (lambda: transformers.RobertaConfig(architectures=["RobertaForMaskedLM"]), "masked"),
        (lambda: transformers.RobertaConfig(architectures=["RobertaForCausalLM"]), "causal"),
        (lambda: transformers.LlamaConfig(architectures=["LlamaForCausalLM"]), "causal"),
        (lambda: transformers.GPT2Config(architectures=["GPT2LMHeadModel"]), "causal"),
    ],
)
def test_detect_task_from_config_fields(make_config, expected):
    assert detect_task(make_config()) == expected


def test_detect_task_refuses_to_guess():
    with pytest.raises(ModelSpecError, match="task='causal' or task='masked'"):
        detect_task(transformers.PretrainedConfig())


def test_model_id_is_folder_name_and_content_hash(folders, backends, tmp_path):
    backend = backends["gpt2"]
    assert backend.model_id == f"gpt2#{local_model_fingerprint(folders['gpt2'])}"
    assert len(backend.model_id.split("#")[1]) == 12
    copy = shutil.copytree(folders["gpt2"], tmp_path / "gpt2")
    assert local_model_fingerprint(copy) == local_model_fingerprint(folders["gpt2"])
    (copy / "README.md").write_text("notes do not change the model")
    assert local_model_fingerprint(copy) == local_model_fingerprint(folders["gpt2"])
    (copy / "generation_config.json").write_text("{}")
    assert local_model_fingerprint(copy) != local_model_fingerprint(folders["gpt2"])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"chat": True}, "has no chat template"),  # llama folder has none
        ({"dtype": "float8"}, "dtype must be one of"),
        ({"task": "masked"}, "cannot load Hugging Face model"),  # a llama has no masked-LM head
    ],
)
def test_bad_construction_is_a_clear_error(folders, kwargs, message):
    with pytest.raises(ModelSpecError, match=message):
        HFBackend(str(folders["llama"]), **kwargs)


def test_model_args_reach_the_backend_and_dtype_enters_the_description(folders, backends):
    from biasbench.models import ModelOptions, load_model

    default = backends["gpt2"]
    assert default.device == torch.device(default_device())  # cuda > mps > cpu
    backend = load_model(
        f"hf:{folders['gpt2']}",
        ModelOptions(
            model_args={
                "device": "cpu",
                "dtype": "bfloat16",
                "batch_size": "3",
                "trust_remote_code": "false",
            }
        ),
    )
    assert (backend.device.type, backend.dtype, backend.batch_size) == ("cpu", "bfloat16", 3)
    # dtype changes answers, so the description (cache key, signature) says it; batch size and
    # device are execution settings and do not enter it.
    assert backend.describe() == {**default.describe(), "dtype": "bfloat16"}
    same = load_model(f"hf:{folders['gpt2']}", ModelOptions(model_args={"batch_size": 1}))
    assert same.describe() == default.describe()


@pytest.mark.parametrize(
    "device, message",
    [
        ("cuda:7" if torch.cuda.is_available() else "cuda", "no such CUDA device on this machine"),
        ("quantum", "is not a torch device"),
    ],
)
def test_a_device_this_machine_lacks_is_one_clear_error(folders, device, message):
    with pytest.raises(ModelSpecError, match=message):
        HFBackend(str(folders["gpt2"]), device=device)


@pytest.mark.parametrize("family, can_generate", [("gpt2", True), ("roberta", False)])
def test_capabilities_follow_the_task(backends, family, can_generate):
    backend = backends[family]
    assert (backend.can_generate, backend.can_score_options) == (can_generate, True)


def test_import_does_not_load_torch():
    code = (
        "import sys, biasbench.models.hf; "
        "print('torch' in sys.modules, 'transformers' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "False"]


# ------------------------------------------------------------------ causal generation


@pytest.mark.parametrize("family", CAUSAL)
def test_greedy_is_deterministic_and_ignores_seed(backends, family):
    params = GenerationParams(temperature=0.0, max_tokens=8)
    texts = {
        _generate(backends[family], "Sino ang mas emosyonal?", params, seed).text
        for seed in (None, 1, 2)
    }
    assert len(texts) == 1 and texts.pop() != ""


@pytest.mark.parametrize("family", CAUSAL)
def test_same_seed_same_text_and_seeds_differ(backends, family):
    params = GenerationParams(temperature=1.0, max_tokens=6)
    by_seed = {seed: _generate(backends[family], "Sagot:", params, seed).text for seed in range(8)}
    assert _generate(backends[family], "Sagot:", params, 3).text == by_seed[3]
    assert len(set(by_seed.values())) >= 2


def test_checkpoint_decoding_defaults_are_neutralised(folders, backends, tmp_path):
    # Shapers in generation_config.json are not in the run signature, so they must not act:
    # the same weights with and without them decode identically, greedy and sampled.
    folder = shutil.copytree(folders["gpt2"], tmp_path / "gpt2-shaped")
    transformers.GenerationConfig(
        bos_token_id=0,
        eos_token_id=0,
        do_sample=True,
        top_k=1,
        repetition_penalty=5.0,
        no_repeat_ngram_size=1,
        typical_p=0.2,
    ).save_pretrained(folder)
    shaped, plain = HFBackend(str(folder)), backends["gpt2"]
    for params, seed in [
        (GenerationParams(max_tokens=8), None),
        (GenerationParams(temperature=1.0, max_tokens=8), 4),
        (GenerationParams(temperature=1.0, max_tokens=8), 5),
    ]:
        assert (
            _generate(shaped, "Sagot:", params, seed).text
            == _generate(plain, "Sagot:", params, seed).text
        )


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (GenerationParams(max_tokens=8), {"do_sample": False, "repetition_penalty": 1.0}),
        (
            GenerationParams(max_tokens=8, repetition_penalty=1.3),
            {"do_sample": False, "repetition_penalty": 1.3},
        ),
        (
            GenerationParams(temperature=1.0, max_tokens=8),
            {
                "do_sample": True,
                "temperature": 1.0,
                "top_p": 1.0,
                "top_k": 0,
                "min_p": 0.0,
                "repetition_penalty": 1.0,
            },
        ),
        (
            GenerationParams(
                temperature=0.7,
                top_p=0.9,
                top_k=40,
                min_p=0.05,
                repetition_penalty=1.1,
                max_tokens=8,
            ),
            {
                "do_sample": True,
                "temperature": 0.7,
                "top_p": 0.9,
                "top_k": 40,
                "min_p": 0.05,
                "repetition_penalty": 1.1,
            },
        ),
    ],
)
def test_the_request_sampler_is_what_generate_gets(backends, params, expected):
    kwargs = backends["gpt2"]._decoding_kwargs(params)
    assert {k: kwargs.get(k) for k in expected} == expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_top_k_one_samples_the_greedy_text(backends, seed):
    # top_k reaches the sampler: keeping one token makes sampling at any temperature greedy.
    backend = backends["gpt2"]
    greedy = _generate(backend, "Sagot:", GenerationParams(max_tokens=8), None).text
    sampled = _generate(
        backend, "Sagot:", GenerationParams(temperature=1.5, top_k=1, max_tokens=8), seed
    ).text
    assert sampled == greedy


@pytest.mark.parametrize("family", CAUSAL)
@pytest.mark.parametrize("max_tokens", [1, 2, 3])
def test_finish_reason_is_length_when_cut_at_max_tokens(backends, family, max_tokens):
    backend = backends[family]
    eos = backend.model.generation_config.eos_token_id
    eos_ids = set(eos if isinstance(eos, list) else [eos])
    generation = _generate(backend, "Sagot:", GenerationParams(max_tokens=max_tokens), None)
    # Re-derive the generated ids to know whether the model ended by itself.
    prompt_ids = backend.tokenizer("Sagot:", return_tensors="pt")["input_ids"]
    with torch.inference_mode():
        ids = backend.model.generate(
            input_ids=prompt_ids,
            attention_mask=torch.ones_like(prompt_ids),
            **backend._decoding_kwargs(GenerationParams(max_tokens=max_tokens)),
        )
    new_ids = ids[0, prompt_ids.shape[1] :].tolist()
    ended = bool(new_ids) and new_ids[-1] in eos_ids
    expected = "stop" if ended or len(new_ids) < max_tokens else "length"
    assert generation.info["finish_reason"] == expected
    assert generation.info["n_tokens"] == len(new_ids)


def test_generation_runs_off_the_event_loop(backends):
    async def tick_while_generating() -> int:
        task = asyncio.create_task(
            backends["llama"].generate(_prompt("Sino"), GenerationParams(max_tokens=40), None)
        )
        ticks = 0
        while not task.done():  # a blocking generate would let this loop run only once
            ticks += 1
            await asyncio.sleep(0.001)
        task.result()
        return ticks

    assert asyncio.run(tick_while_generating()) >= 3


def test_seeded_request_leaves_global_rng_alone(backends):
    torch.manual_seed(99)
    expected = torch.rand(3)
    torch.manual_seed(99)
    _generate(backends["gpt2"], "Sagot:", GenerationParams(temperature=1.0, max_tokens=4), 7)
    assert torch.equal(torch.rand(3), expected)


def test_generation_returns_only_new_text_and_records_info(backends):
    backend = backends["llama"]
    generation = _generate(
        backend, "Sino ang", GenerationParams(temperature=0.7, top_p=0.9, max_tokens=5), 11
    )
    assert generation.prompt_text == "Sino ang"
    assert not generation.text.startswith("Sino ang")
    info = generation.info
    assert (info["seed"], info["temperature"], info["top_p"], info["sampling"]) == (
        11,
        0.7,
        0.9,
        "sample",
    )
    assert (info["top_k"], info["min_p"], info["repetition_penalty"]) == (0, 0.0, 1.0)
    assert info["n_prompt_tokens"] == len(backend.tokenizer("Sino ang")["input_ids"])
    assert 1 <= info["n_tokens"] <= 5
    assert info["finish_reason"] in {"stop", "length"}


@pytest.mark.parametrize("family", CAUSAL)
def test_stop_strings_cut_at_the_first_occurrence(backends, family):
    backend = backends[family]
    full = _generate(backend, "Ang babae", GenerationParams(max_tokens=12), None).text
    assert len(full) >= 4, full
    first, second = full[1:3], full[-2:]  # stop strings taken from the greedy text itself
    cases = [
        ((first,), full[: full.index(first)]),
        ((second, first), full[: min(full.index(first), full.index(second))]),
        (("\u0000never",), full),
    ]
    for stops, expected in cases:
        generation = _generate(
            backend, "Ang babae", GenerationParams(max_tokens=12, stop=stops), None
        )
        assert generation.text == expected, stops


@pytest.mark.parametrize(
    "text, stops, expected",
    [
        ("Sagot: A\nB", ("\n",), ("Sagot: A", True)),
        ("A. B. C.", ("C", "B"), ("A. ", True)),
        ("walang hinto", ("\n", ""), ("walang hinto", False)),
    ],
)
def test_truncate_at_stop(text, stops, expected):
    assert truncate_at_stop(text, stops) == expected


def test_chat_mode_renders_the_template(folders):
    backend = HFBackend(str(folders["gpt2"]), chat=True)
    assert backend.mode == "chat"
    prompt = Prompt(
        messages=(("system", "Sagutin ng A, B, o C."), ("user", "Sino?")), completion="unused"
    )
    generation = asyncio.run(backend.generate(prompt, GenerationParams(max_tokens=3), None))
    assert generation.prompt_text == "<|system|>Sagutin ng A, B, o C.\n<|user|>Sino?\n<|assistant|>"
    assert generation.info["n_tokens"] >= 1


# ------------------------------------------------------------------ causal scoring


@pytest.mark.parametrize("family", CAUSAL)
@pytest.mark.parametrize(
    "prompt_text, option, n_option_tokens",
    [
        ("Sino ang mas emosyonal?", " Si Maria", None),
        ("Sagot: ", "A", 1),  # boundary effect: " A" is one token straddling prompt and option
        ("Sagot:", " B", 1),
        ("Sino ang mahusay?", " Hindi masasabi kung sino", None),
    ],
)
def test_causal_score_equals_summed_token_log_probs(
    backends, family, prompt_text, option, n_option_tokens
):
    tokenizer, model = backends[family].tokenizer, backends[family].model
    full_ids, positions = _option_positions(tokenizer, prompt_text, option)
    with torch.no_grad():
        log_probs = model(torch.tensor([full_ids])).logits[0].log_softmax(-1)
    expected = sum(float(log_probs[p - 1, full_ids[p]]) for p in positions)

    scores = asyncio.run(backends[family].score_options_detailed(_prompt(prompt_text), [option]))
    assert scores[0].logprob == pytest.approx(expected, abs=1e-5)
    assert scores[0].n_tokens == len(positions)
    if n_option_tokens is not None:
        assert len(positions) == n_option_tokens


@pytest.mark.parametrize("family", CAUSAL + MASKED)
def test_batched_scores_equal_one_at_a_time(backends, family):
    backend = backends[family]
    options = [" A. Si Maria", " B", " C. Hindi masasabi kung sino ang sagot"]
    prompt = _prompt("Sino ang mas emosyonal? Sagot:")
    together = asyncio.run(backend.score_options(prompt, options))
    alone = [asyncio.run(backend.score_options(prompt, [option]))[0] for option in options]
    assert together == pytest.approx(alone, abs=1e-5)
    assert all(math.isfinite(score) and score < 0 for score in together)


def test_option_at_the_start_is_conditioned_on_eos(backends):
    backend = backends["gpt2"]  # no BOS is added, so the first token needs a context token
    score = asyncio.run(backend.score_options(_prompt(""), ["Sagot"]))[0]
    ids = backend.tokenizer("Sagot")["input_ids"]
    with torch.no_grad():
        log_probs = backend.model(torch.tensor([[0, *ids]])).logits[0].log_softmax(-1)
    assert score == pytest.approx(
        sum(float(log_probs[i, ids[i]]) for i in range(len(ids))), abs=1e-5
    )


# ------------------------------------------------------------------ masked scoring


@pytest.mark.parametrize("family", MASKED)
@pytest.mark.parametrize(
    "prompt_text, option",
    [
        ("Sino ang mas emosyonal?", " Si Maria"),
        ("Sino ang mas emosyonal?", " Hindi masasabi kung sino"),
        ("Sagot: ", "C"),
        ("Who is more emotional?", " the woman"),
    ],
)
def test_pseudo_log_likelihood_equals_mask_one_at_a_time(backends, family, prompt_text, option):
    tokenizer, model = backends[family].tokenizer, backends[family].model
    full_ids, positions = _option_positions(tokenizer, prompt_text, option)
    expected = 0.0
    for position in positions:
        masked = list(full_ids)
        masked[position] = tokenizer.mask_token_id
        with torch.no_grad():
            logits = model(torch.tensor([masked])).logits[0, position]
        expected += float(logits.log_softmax(-1)[full_ids[position]])

    scores = asyncio.run(backends[family].score_options_detailed(_prompt(prompt_text), [option]))
    assert scores[0].logprob == pytest.approx(expected, abs=1e-5)
    assert scores[0].n_tokens == len(positions) >= 1


def test_masked_scoring_batches_across_options(folders):
    backend = HFBackend(str(folders["roberta"]), batch_size=2)  # forces several forward passes
    options = [" Si Maria", " Si Juan ang guro", " Hindi masasabi"]
    prompt = _prompt("Sino ang guro?")
    small_batches = asyncio.run(backend.score_options(prompt, options))
    big = HFBackend(str(folders["roberta"]), batch_size=64)
    assert small_batches == pytest.approx(asyncio.run(big.score_options(prompt, options)), abs=1e-5)


@pytest.mark.parametrize("family", MASKED)
def test_masked_lm_refuses_to_generate(backends, family):
    with pytest.raises(PermanentModelError, match="masked LMs answer by score_options"):
        _generate(backends[family], "Sino?", GenerationParams(), 1)


def test_choose_records_the_choice_and_every_score(backends):
    backend = backends["roberta"]
    prompt = _prompt("Sino ang mas emosyonal? Sagot:")
    options = [" A", " B", " C"]
    detailed = asyncio.run(backend.score_options_detailed(prompt, options))
    scores = [score.logprob for score in detailed]
    generation = asyncio.run(backend.choose(prompt, options))
    best = max(range(3), key=lambda index: scores[index])
    assert generation.text == options[best].strip()
    assert generation.prompt_text == "Sino ang mas emosyonal? Sagot:"
    assert generation.info["choice"] == best
    assert generation.info["scores"] == pytest.approx(scores)
    assert generation.info["n_tokens"] == [score.n_tokens for score in detailed]
    assert generation.info["options"] == options
    assert generation.info["method"] == "pseudo-log-likelihood"


@pytest.mark.parametrize(
    "scores, expected",
    [
        ([-3.0, -1.0, -2.0], 1),
        ([-1.0, -1.0, -2.0], 0),  # ties go to the lowest index
        ([-2.0, -1.0, -1.0], 1),
        ([float("nan"), -5.0, -6.0], 1),  # NaN never wins
        ([float("-inf"), -7.0], 1),
        ([float("-inf"), float("-inf")], 0),
    ],
)
def test_answer_by_scores(scores, expected):
    assert answer_by_scores(scores) == expected


@pytest.mark.parametrize("scores", [[], [float("nan")]])
def test_answer_by_scores_needs_a_usable_score(scores):
    with pytest.raises(ValueError, match="no option has a usable score"):
        answer_by_scores(scores)


@pytest.mark.parametrize("family", ["gpt2", "roberta"])
def test_too_long_input_is_a_permanent_error(backends, family):
    long_prompt = _prompt(" ".join(["Si Maria ay isang guro sa paaralan."] * 40))
    with pytest.raises(PermanentModelError, match="accepts at most"):
        asyncio.run(backends[family].score_options(long_prompt, [" A"]))
    if family == "gpt2":
        with pytest.raises(PermanentModelError, match="the prompt is .* tokens"):
            _generate(backends[family], long_prompt.completion, GenerationParams(), 1)


@pytest.mark.parametrize(
    "sums, options, choice_sum, choice_per_char",
    [
        # a long unknown answer loses on the sum and wins per character
        (
            [-6.0, -5.0, -12.0],
            [" Ang tomboy", " Ang bakla", " Kulang sa impormasyonDi kayang sagutin"],
            1,
            2,
        ),
        # equal lengths: both choices agree
        ([-3.0, -2.0, -4.0], [" A", " B", " C"], 1, 1),
        # ties go to the lowest index under either rule
        ([-2.0, -2.0, -9.0], [" ab", " cd", " ef"], 0, 0),
    ],
)
def test_option_choices_report_sum_and_per_character(sums, options, choice_sum, choice_per_char):
    scores = [OptionScore(total, 2) for total in sums]
    choices = option_choices(scores, options)
    assert (choices["choice_sum"], choices["choice_per_char"]) == (choice_sum, choice_per_char)
    assert choices["n_chars"] == [len(o) for o in options] and choices["n_tokens"] == [2, 2, 2]
    assert choices["scores_per_char"] == pytest.approx(
        [t / len(o) for t, o in zip(sums, options, strict=True)]
    )


# ------------------------------------------------------------------ batching across requests

BATCH_PROMPTS = [
    "Si Maria ay",
    "Sino ang mas emosyonal sa dalawa? Sagot:",
    "Ang lalaki ay naglalaro ng",
    "The nurse and the engineer met at the cafe. Who",
    "Sagot:",
    "Pumunta sila sa palengke kahapon. Ang doktor ay tumulong sa",
]


class _Counting:
    """Counts calls of a model method (generate, forward) while passing them through."""

    def __init__(self, backend: HFBackend, name: str) -> None:
        self.calls = 0
        self.rows: list[int] = []
        original = getattr(backend.model, name)

        def counted(*args, **kwargs):
            self.calls += 1
            ids = kwargs.get("input_ids", args[0] if args else None)
            self.rows.append(int(ids.shape[0]))
            return original(*args, **kwargs)

        setattr(backend.model, name, counted)


async def _gather(backend: HFBackend, calls) -> list:
    backend.set_concurrency(len(calls))  # what the runner says before it sends
    return await asyncio.gather(*(call(backend) for call in calls))


@pytest.mark.parametrize("family", CAUSAL)
@pytest.mark.parametrize(
    "params",
    [
        GenerationParams(temperature=0.0, max_tokens=12),
        GenerationParams(temperature=0.0, max_tokens=12, stop=(" ", "a")),
        GenerationParams(temperature=0.0, max_tokens=3),
    ],
)
def test_batched_greedy_generation_equals_one_at_a_time(folders, family, params):
    alone = HFBackend(str(folders[family]), batch_size=1)
    expected = [_generate(alone, text, params, seed) for seed, text in enumerate(BATCH_PROMPTS)]
    batched = HFBackend(str(folders[family]), batch_size=8)
    counter = _Counting(batched, "generate")
    got = asyncio.run(
        _gather(
            batched,
            [
                (lambda b, text=text, seed=seed: b.generate(_prompt(text), params, seed))
                for seed, text in enumerate(BATCH_PROMPTS)
            ],
        )
    )
    assert counter.rows == [len(BATCH_PROMPTS)]  # one left-padded generate call
    assert [(g.text, g.prompt_text, g.info) for g in got] == [
        (g.text, g.prompt_text, g.info) for g in expected
    ]
    if params.stop:  # the rows end at different points: some by a stop string
        assert {g.info["finish_reason"] for g in got} >= {"stop"}


def test_sampled_generation_is_never_batched(folders):
    """Each sampled request has its own seed, so it runs alone and its text is the seed's."""
    params = GenerationParams(temperature=1.0, max_tokens=8)
    alone = HFBackend(str(folders["gpt2"]), batch_size=1)
    expected = [_generate(alone, text, params, 7) for text in BATCH_PROMPTS[:4]]
    batched = HFBackend(str(folders["gpt2"]), batch_size=8)
    counter = _Counting(batched, "generate")
    got = asyncio.run(
        _gather(
            batched,
            [
                (lambda b, text=text: b.generate(_prompt(text), params, 7))
                for text in BATCH_PROMPTS[:4]
            ],
        )
    )
    assert counter.rows == [1, 1, 1, 1]
    assert [g.text for g in got] == [g.text for g in expected]


@pytest.mark.parametrize("family", CAUSAL + MASKED)
def test_scoring_batches_across_requests(folders, family):
    options = [" Si Maria", " Si Juan ang guro", " Hindi masasabi"]
    alone = HFBackend(str(folders[family]), batch_size=64)
    expected = [
        asyncio.run(alone.score_options_detailed(_prompt(text), options)) for text in BATCH_PROMPTS
    ]
    batched = HFBackend(str(folders[family]), batch_size=64)
    counter = _Counting(batched, "forward")
    got = asyncio.run(
        _gather(
            batched,
            [
                (lambda b, text=text: b.score_options_detailed(_prompt(text), options))
                for text in BATCH_PROMPTS
            ],
        )
    )
    # every request's sequences share forward passes of up to 64 rows
    rows = sum(
        len(options) if family in CAUSAL else sum(s.n_tokens for s in scores) for scores in expected
    )
    assert counter.calls == math.ceil(rows / 64) < len(BATCH_PROMPTS)
    for mine, theirs in zip(got, expected, strict=True):
        assert [s.n_tokens for s in mine] == [s.n_tokens for s in theirs]
        assert [s.logprob for s in mine] == pytest.approx([s.logprob for s in theirs], abs=1e-5)


def test_a_bad_request_fails_alone_in_its_batch(folders):
    batched = HFBackend(str(folders["gpt2"]), batch_size=8)
    long_text = " ".join(["Si Maria ay isang guro sa paaralan."] * 40)
    params = GenerationParams(temperature=0.0, max_tokens=4)

    async def one(backend, text):
        try:
            return await backend.generate(_prompt(text), params, 0)
        except PermanentModelError as exc:
            return exc

    got = asyncio.run(
        _gather(batched, [(lambda b, t=t: one(b, t)) for t in ["Si Maria ay", long_text, "Sagot:"]])
    )
    assert isinstance(got[1], PermanentModelError) and "accepts at most" in str(got[1])
    alone = HFBackend(str(folders["gpt2"]), batch_size=1)
    assert [got[0].text, got[2].text] == [
        _generate(alone, t, params, 0).text for t in ["Si Maria ay", "Sagot:"]
    ]


def test_a_run_through_the_runner_batches_and_matches_a_serial_run(folders, tmp_path):
    from biasbench.runner.runner import Request, run_requests_sync
    from biasbench.runner.store import ResponseStore

    params = GenerationParams(temperature=0.0, max_tokens=6)
    requests = [
        Request(item_id=str(i), prompt=_prompt(text), seed=0)
        for i, text in enumerate(BATCH_PROMPTS)
    ]
    outputs = []
    for batch_size in (1, 4):
        backend = HFBackend(str(folders["llama"]), batch_size=batch_size)
        counter = _Counting(backend, "generate")
        store = ResponseStore(tmp_path / f"b{batch_size}.sqlite")
        try:
            stats = run_requests_sync(
                backend, requests, params, store, concurrency=8, progress=False
            )
            assert stats.failed == 0
            outputs.append(sorted((r.item_id, r.output) for r in store.iter_records("ok")))
        finally:
            store.close()
        assert max(counter.rows) == batch_size
    assert outputs[0] == outputs[1]
