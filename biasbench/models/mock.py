"""A scripted in-process backend for tests and demos: deterministic, instant, no network.

The register scripts (``honorific``, ``ordinary``, ``hashed-register``) answer in Bengali
unless the benchmark gives the backend its own language's sentences (:meth:`MockBackend.speak`,
which an honorific benchmark calls from its ``adapt_backend`` with its definition's ``"mock"``
object): ``mock:hashed-register`` on ``honorific-hi`` answers in Hindi."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path

from biasbench.errors import ModelSpecError
from biasbench.models.base import Generation, GenerationParams, ModelBackend, Prompt
from biasbench.models.options import ModelOptions

Script = Callable[[Prompt, int | None], str]


def _digest(*parts: object) -> int:
    return int(hashlib.sha256(repr(parts).encode()).hexdigest()[:8], 16)


REGISTER_SENTENCES = {"honorific": "তিনি নয়টায় আসবেন।", "ordinary": "সে নয়টায় আসবে।"}
"""The register scripts' sentences until a benchmark gives others (Bengali)."""


def _hashed_register(
    prompt: Prompt, seed: int | None, sentences: Mapping[str, str] = REGISTER_SENTENCES
) -> str:
    """A sentence whose register depends on a hash of the item and seed."""
    if _digest(prompt.item_id or prompt.completion, seed) % 2:
        return sentences["honorific"]
    return sentences["ordinary"]


def _hashed_letter(prompt: Prompt, seed: int | None) -> str:
    return "ABC"[_digest(prompt.item_id or prompt.completion, seed) % 3]


SCRIPTS: dict[str, Script] = {
    "honorific": lambda p, s: REGISTER_SENTENCES["honorific"],
    "ordinary": lambda p, s: REGISTER_SENTENCES["ordinary"],
    "hashed-register": _hashed_register,
    "hashed-letter": _hashed_letter,
    "echo": lambda p, s: p.messages[-1][1] if p.messages else p.completion,
}

_REGISTER_SCRIPTS: dict[str, Callable[[Mapping[str, str]], Script]] = {
    "honorific": lambda say: lambda p, s: say["honorific"],
    "ordinary": lambda say: lambda p, s: say["ordinary"],
    "hashed-register": lambda say: lambda p, s: _hashed_register(p, s, say),
}
"""The scripts that answer in a register, built from the sentences they say."""


def _read_script(path: Path, raw: bytes) -> dict[str, str]:
    """A mock script file: one JSON object of prompt substring -> answer (``*``: the default),
    every key and value text; anything else is one line naming the file."""
    try:
        table = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ModelSpecError(f"mock script {path}: not UTF-8 (byte {exc.start})") from None
    except (ValueError, RecursionError) as exc:
        raise ModelSpecError(f"mock script {path}: not valid JSON ({exc})") from None
    if not isinstance(table, dict):
        raise ModelSpecError(
            f"mock script {path}: expected a JSON object of prompt text -> "
            f"answer, not {type(table).__name__}"
        )
    for key, value in table.items():
        if not isinstance(value, str):
            raise ModelSpecError(
                f"mock script {path}: field {key!r}: the answer must be text, "
                f"not {type(value).__name__}"
            )
    return table


class MockBackend(ModelBackend):
    """Answers from a named script or a JSON file mapping prompt substrings to outputs."""

    kind = "mock"
    summary = "scripted outputs: deterministic, instant, no network (tests, demos)"
    spec_syntax = (
        "mock[:SCRIPT] (SCRIPT: "
        + ", ".join(SCRIPTS)
        + " or a JSON file mapping prompt substrings to outputs)"
    )

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> MockBackend:
        return cls(
            arg or "hashed-register", mode="completion" if options.api == "completions" else "chat"
        )

    def __init__(self, script: str = "hashed-register", *, mode: str = "chat") -> None:
        self.script_name = script
        self.mode = "completion" if mode == "completion" else "chat"
        self.calls = 0
        self.sentences: dict[str, str] = dict(REGISTER_SENTENCES)
        self._sentences_when: dict[str, dict[str, str]] = {}
        self._file_sha256: str | None = None
        if script in SCRIPTS:
            self._script = SCRIPTS[script]
        elif script.endswith(".json"):
            path = Path(script)
            if not path.is_file():
                raise ModelSpecError(f"mock script file not found: {path}")
            raw = path.read_bytes()
            self._file_sha256 = hashlib.sha256(raw).hexdigest()
            table = _read_script(path, raw)
            default = table.pop("*", "")

            def lookup(prompt: Prompt, seed: int | None) -> str:
                text = prompt.text_for(self.mode)
                return next((out for key, out in table.items() if key in text), default)

            self._script = lookup
        else:
            raise ModelSpecError(
                f"unknown mock script {script!r}; known: {', '.join(SCRIPTS)} or a .json file"
            )

    def speak(self, sentences: Mapping[str, str], *, when: str | None = None) -> None:
        """Answer the register scripts with these sentences (register -> text, at least
        ``honorific`` and ``ordinary``): a benchmark's target language. With ``when``, only
        prompts whose text contains it (a language's instruction, in a run over several
        languages). Other scripts and script files are unchanged."""
        if not {"honorific", "ordinary"} <= set(sentences):
            raise ModelSpecError("mock sentences need an 'honorific' and an 'ordinary' one")
        said = {str(k): str(v) for k, v in sentences.items()}
        if when is None:
            self.sentences = said
        else:
            self._sentences_when[when] = said
        if self.script_name in _REGISTER_SCRIPTS:
            build = _REGISTER_SCRIPTS[self.script_name]
            default = build(self.sentences)
            scripts = [(marker, build(say)) for marker, say in self._sentences_when.items()]

            def by_language(prompt: Prompt, seed: int | None) -> str:
                text = prompt.text_for(self.mode)
                chosen = next((script for marker, script in scripts if marker in text), default)
                return chosen(prompt, seed)

            self._script = by_language if scripts else default

    @property
    def model_id(self) -> str:
        return f"mock-{Path(self.script_name).stem}"

    def describe(self) -> dict[str, object]:
        described: dict[str, object] = {**super().describe()}
        if self._file_sha256:
            described["file_sha256"] = self._file_sha256  # an edited script is a new model
        if self.script_name in _REGISTER_SCRIPTS and (
            self.sentences != REGISTER_SENTENCES or self._sentences_when
        ):
            # other sentences are another model (the Bengali ones keep the old description)
            said = [self.sentences, sorted(self._sentences_when.items())]
            blob = json.dumps(said, sort_keys=True, ensure_ascii=False).encode()
            described["sentences_sha256"] = hashlib.sha256(blob).hexdigest()[:12]
        return described

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        self.calls += 1
        # A script's answer is complete by construction: it always ends by itself.
        return Generation(
            text=self._script(prompt, seed),
            prompt_text=prompt.text_for(self.mode),
            info={"finish_reason": "stop"},
        )
