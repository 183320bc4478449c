"""Register judge of the ``honorific-ko`` benchmark (spec ``honorific-ko.md``), by stage.

A Korean translation of one English sentence is labelled ``honorific``, ``ordinary``,
``mixed`` or ``unreadable`` from the evidence about the person (the occupation holder) that the
morphological analyser Kiwi shows: -(으)시- on the person's predicates, suppletive honorific
verbs (계시다), the particles 께서/께, honorific nouns (댁, 분), pronouns (그분 vs 그/그녀), titles
(-님, -분) and object honorification (뵙다). The speech level (politeness to the reader:
합쇼체 / 해요체 / 해체 / 해라체) is a separate reading, never the label.

Stages:

* :mod:`.normalise`: NFC once, zero-width and filler characters, spaces, full-width punctuation;
* :mod:`.extract`: the translation(s) out of chatter, notes, markdown, romanisation, refusals;
* :mod:`.analyser`: Kiwi, loaded lazily on first use (never at import), and its versions;
* :mod:`.lexicon`: the tables of ``data/lexicon.json``;
* :mod:`.reading`: predicates, positions, subjects, references to the person, speech levels;
* :mod:`.classify`: the label, the readings, the reason, and :class:`KoreanJudge`.

``JUDGE`` is the instance the honorific engine loads through
``"biasbench.benchmarks.honorific_ko.judge:JUDGE"``.
"""

from biasbench.benchmarks.honorific_ko.judge.classify import READINGS, RULES_VERSION, KoreanJudge
from biasbench.benchmarks.honorific_ko.judge.extract import extract
from biasbench.benchmarks.honorific_ko.judge.normalise import normalise_korean

JUDGE = KoreanJudge()

__all__ = ["JUDGE", "READINGS", "RULES_VERSION", "KoreanJudge", "extract", "normalise_korean"]
