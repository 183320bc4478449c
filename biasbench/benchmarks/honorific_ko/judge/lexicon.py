"""The signal tables of the Korean judge, read from ``data/lexicon.json`` (data, not code, so that
a native speaker can correct them). Forms are Kiwi morphemes; see the file's ``_note``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

_RAW: dict[str, Any] = json.loads((DATA_DIR / "lexicon.json").read_text(encoding="utf-8"))


def _set(name: str) -> frozenset[str]:
    return frozenset(_RAW[name])


SI_MORPHEMES = _set("si_morphemes")
FUSED_SI_STARTS = tuple(_RAW["fused_si_starts"])
SUPPLETIVE_STEMS = _set("suppletive_stems")
OBJECT_HONORIFIC_STEMS = _set("object_honorific_stems")
OTHER_SUBJECT_VERBS = _set("other_subject_verbs")
# Verb stems whose dropped subject is someone else with a given object: (제가) 도움을 받았다.
OTHER_SUBJECT_OBJECTS: dict[str, frozenset[str]] = {
    verb: frozenset(objects) for verb, objects in _RAW["other_subject_objects"].items()
}
# Verbs of giving thanks or greetings whose dropped subject is the giver when the person is the
# recipient: (제가) 간호사에게 감사 인사를 드렸는데.
RECIPIENT_VERBS = _set("recipient_verbs")
RECIPIENT_PARTICLES = _set("recipient_particles")
HONORIFIC_PARTICLES: dict[str, str] = dict(_RAW["honorific_particles"])
HONORIFIC_NOUNS = _set("honorific_nouns")
HONORIFIC_PRONOUNS = _set("honorific_pronouns")
PLAIN_PRONOUNS = _set("plain_pronouns")
DEMONSTRATIVES = _set("demonstratives")
PLAIN_PRONOUN_HEADS = _set("plain_pronoun_heads")
REFLEXIVES = _set("reflexives")
NARRATOR = _set("narrator")
LISTENER = _set("listener")
EVERYONE = _set("everyone")
THINGS = _set("things")
TIME_NOUNS = _set("time_nouns")
PERIPHRASTIC_NOUNS = _set("periphrastic_nouns")
BECAUSE_NOUN: str = _RAW["because_noun"]
AUXILIARY_CONNECTIVES = _set("auxiliary_connectives")
# Lexical verbs that are auxiliary after a given connective (-게 되다 'come to').
AUXILIARY_VERBS: dict[str, frozenset[str]] = {
    ending: frozenset(verbs) for ending, verbs in _RAW["auxiliary_verbs"].items()
}
CLOSING_CONNECTIVES = _set("closing_connectives")
QUOTATIVE_CONNECTIVES = _set("quotative_connectives")
MINUTE_FOLLOWERS = _set("minute_followers")
# Longest suffix first, so that 니다 wins over 다 and ᆯ게 over 게.
SPEECH_LEVELS: tuple[tuple[str, str], ...] = tuple(
    sorted(
        ((suffix, level) for suffix, level in _RAW["speech_levels"]), key=lambda pair: -len(pair[0])
    )
)
ARCHAIC_ENDINGS = _set("archaic_endings")
IMPERATIVE_ENDINGS = _set("imperative_endings")
REQUEST_ENDINGS = _set("request_endings")
REQUEST_AUXILIARY: str = _RAW["request_auxiliary"]
CHATTER_MARKERS: tuple[str, ...] = tuple(_RAW["chatter_markers"])
CHATTER_EXCEPTIONS: tuple[str, ...] = tuple(_RAW["chatter_exceptions"])
REFUSAL_MARKERS: tuple[str, ...] = tuple(_RAW["refusal_markers"])
ALTERNATIVE_OPENERS: tuple[str, ...] = tuple(_RAW["alternative_openers"])
ENGLISH_REFUSAL: tuple[str, ...] = tuple(_RAW["english_refusal"])
ENGLISH_WORDS = _set("english_words")
