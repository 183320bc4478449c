"""The two lexicons of the one rule set: pronouns, postpositions, conjunctions, subjects that
are not the person, group markers, titles and occupation nouns, in match-key spelling.

Every word list here is a module constant (the spec's tables, sections 5-8); the occupation
nouns come from the benchmark data (``data/<lang>/occupations.csv``) and are used only to tell a
determiner (वह डॉक्टर) from a pronoun, a plural occupation noun (किसानों, اساتذہ) from the
singular, and a feminine-marked noun (शिक्षिका, استانی) for ``noun_gender``; the judge never
requires the model to use them.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from biasbench.benchmarks.honorific_hi_ur.judge.morphology import (
    HINDI_TRANSITIVE,
    HINDI_VERBS,
    URDU_TRANSITIVE,
    URDU_VERBS,
    VerbForm,
)
from biasbench.benchmarks.honorific_hi_ur.judge.normalise import hindi_key, normalise, urdu_key

DATA_DIR = Path(__file__).resolve().parents[1] / "data"

HON, ORD, NEUTRAL = "honorific", "ordinary", "neutral"


_LIGHT_VERBS = frozenset(("جا", "دے", "لے", "ڈال", "بیٹہ", "پڑ", "जा", "दे", "ले", "डाल"))


@dataclass(frozen=True, slots=True)
class Pronoun:
    register: str
    """``honorific`` (the plural forms), ``ordinary``, or ``neutral`` (वो, ये, وہ, یہ, جو)."""
    case: str
    """``nominative``, ``ergative``, ``dative``, ``genitive``, ``oblique``."""
    nominative_sg: bool = False
    """वह/यह: ordinary only where no verb of the clause agrees with the person (6.5)."""


@dataclass(frozen=True)
class Lexicon:
    """One language's word lists (all in match-key spelling) and its verb forms."""

    language: str
    key: Callable[[str], str]
    verbs: dict[str, VerbForm]
    joined_pronouns: dict[str, Pronoun]
    """Pronouns written as one word (उसने, उनका, اسے, انہیں, انکا)."""
    pronoun_bases: dict[str, str]
    """Bases that are pronouns only before a postposition (उस, उन, اس, ان, جن ...): register."""
    nominatives: dict[str, Pronoun]
    postpositions: frozenset[str]
    ergative_marker: str
    conjunctions: frozenset[str]
    conjunction_phrases: tuple[tuple[str, ...], ...]
    """Multi-word connectives (इसके बाद, اس لیے): clause boundaries, never pronouns."""
    on_word: str
    """पर / پر: a conjunction after a verb or a comma, else the postposition "on"."""
    negations: frozenset[str]
    particles: frozenset[str]
    modal_words: frozenset[str]
    first_person: frozenset[str]
    listener: frozenset[str]
    everyone: frozenset[str]
    everyone_next: frozenset[str]
    """Words after हर / ہر that make "everyone" (कोई, व्यक्ति; کوئی، شخص)."""
    group_heads: frozenset[str]
    group_words: frozenset[str]
    quantifiers: frozenset[str]
    reciprocals: frozenset[str]
    reciprocal_pairs: tuple[tuple[str, str], ...]
    thing_nouns: frozenset[str]
    intransitive_stems: frozenset[str]
    transitive_stems: frozenset[str]
    """Verbs whose perfective takes ने/نے (the clause is ergative even where it is unwritten)."""
    meet_stem: str
    from_word: str
    genitive_markers: frozenset[str]
    dative_markers: frozenset[str]
    titles: frozenset[str]
    attributive_titles: frozenset[str]
    occupation_nouns: frozenset[str]
    determined_nouns: frozenset[str]
    """Nouns that make a preceding वह/उस/اس a determiner (occupations, people, times)."""
    occupation_plurals: frozenset[str]
    feminine_nouns: tuple[tuple[str, ...], ...]
    """Feminine-marked occupation nouns (शिक्षिका, گھریلو ملازمہ), as word sequences."""
    variable_adjectives: dict[str, str]
    not_verbs_after: dict[str, frozenset[str]]
    """A verb-looking word read as no verb after these words: लिए after के/इस/उस."""
    clock_words: frozenset[str]

    def verb(self, key: str) -> VerbForm | None:
        """The verb form of a word, also of a compound written as one word (Urdu آجائے,
        کرادی: a bare stem joined to a form of جا/دے/لے/ڈال/بیٹھ/پڑ)."""
        form = self.verbs.get(key)
        if form is not None or len(key) < 3:
            return form
        for cut in range(1, len(key) - 1):
            head = self.verbs.get(key[:cut])
            tail = self.verbs.get(key[cut:])
            if (
                head is not None
                and head.kind == "stem"
                and tail is not None
                and tail.stem in _LIGHT_VERBS
                and tail.kind == "finite"
            ):
                return tail
        return None


def _keys(key: Callable[[str], str], text: str) -> frozenset[str]:
    return frozenset(key(normalise(word)) for word in text.split())


def _occupations(
    language: str, key: Callable[[str], str]
) -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, ...], ...]]:
    """Occupation words (any form), plural forms, feminine forms, from the benchmark data."""
    nouns: set[str] = set()
    plurals: set[str] = set()
    feminine: set[tuple[str, ...]] = set()
    path = DATA_DIR / language / "occupations.csv"
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            for column in (language, f"{language}_feminine", f"{language}_plural"):
                for term in (row.get(column) or "").split(";"):
                    words = [key(normalise(word)) for word in term.split()]
                    if not words:
                        continue
                    nouns.update(words)
                    if column.endswith("_feminine"):
                        feminine.add(tuple(words))
                        plurals.update(_feminine_plurals(language, words[-1]))
                    elif column.endswith("_plural"):
                        plurals.add(words[-1])
            base = [key(normalise(word)) for word in (row.get(language) or "").split()]
            if base:
                plurals.update(_regular_plurals(language, base[-1]))
    return frozenset(nouns), frozenset(plurals), tuple(sorted(feminine))


def _feminine_plurals(language: str, word: str) -> set[str]:
    """Direct and oblique plurals of a feminine occupation word (शिक्षिका -> शिक्षिकाएँ,
    शिक्षिकाओं; नर्तकी -> नर्तकियाँ, नर्तकियों; استانی -> استانیاں, استانیوں)."""
    if language == "hi":
        if word.endswith("ा"):
            return {word + "एं", word + "ओं"}
        if word.endswith("ी"):
            return {word[:-1] + "ियां", word[:-1] + "ियों"}
        return {word + "ें", word + "ों"}
    if word.endswith("ی"):
        return {word + "اں", word + "وں"}
    if word.endswith("ہ"):
        return {word[:-1] + "ائیں", word[:-1] + "اؤں"}
    return {word + "یں", word + "وں"}


def _regular_plurals(language: str, word: str) -> set[str]:
    """Oblique plurals of an occupation word (किसान -> किसानों, मछुआरा -> मछुआरों, नाई -> नाइयों;
    کسان -> کسانوں, درزی -> درزیوں)."""
    if language == "hi":
        if word.endswith("ा"):
            return {word[:-1] + "ों"}
        if word.endswith("ी"):
            return {word[:-1] + "ियों"}
        if word.endswith("ई"):
            return {word[:-1] + "इयों"}
        return {word + "ों", word + "्स"}
    if word.endswith("ا"):
        return {word[:-1] + "وں"}
    return {word + "وں", word + "ز"}


def _hindi() -> Lexicon:
    k = hindi_key

    def keys(text: str) -> frozenset[str]:
        return _keys(k, text)

    joined: dict[str, Pronoun] = {}
    for words, register, case in (
        ("उसने इसने उसीने जिसने", ORD, "ergative"),
        ("उन्होंने इन्होंने उन्होने इन्होने उन्हींने जिन्होंने जिन्होने", HON, "ergative"),
        ("उसका उसकी उसके इसका इसकी इसके उसीका उसीकी उसीके जिसका जिसकी जिसके", ORD, "genitive"),
        ("उनका उनकी उनके इनका इनकी इनके उन्हींका उन्हींकी उन्हींके जिनका जिनकी जिनके", HON, "genitive"),
        ("उसे उसको इसे इसको उसीको जिसे जिसको", ORD, "dative"),
        ("उन्हें इन्हें उनको इनको उन्हींको जिन्हें जिनको", HON, "dative"),
        ("उससे इससे उसमें इसमें उसपर इसपर उसीसे जिससे जिसमें", ORD, "oblique"),
        ("उनसे इनसे उनमें इनमें उनपर इनपर उन्हीं उन्हींसे जिनसे जिनमें", HON, "oblique"),
    ):
        for word in keys(words):
            joined[word] = Pronoun(register, case)
    bases = {word: ORD for word in keys("उस इस उसी जिस")}
    bases |= {word: HON for word in keys("उन इन उन्हों इन्हों उन्हीं जिन जिन्हों")}
    nominatives = {
        k("वह"): Pronoun(ORD, "nominative", True),
        k("यह"): Pronoun(ORD, "nominative", True),
        k("वे"): Pronoun(HON, "nominative"),
        k("वो"): Pronoun(NEUTRAL, "nominative"),
        k("ये"): Pronoun(NEUTRAL, "nominative"),
        k("जो"): Pronoun(NEUTRAL, "nominative"),
        k("वही"): Pronoun(NEUTRAL, "nominative"),
    }
    nouns, plurals, feminine = _occupations("hi", k)
    return Lexicon(
        language="hi",
        key=k,
        verbs=HINDI_VERBS,
        joined_pronouns=joined,
        pronoun_bases=bases,
        nominatives=nominatives,
        postpositions=keys("ने को का की के से में पर तक ही भी"),
        ergative_marker=k("ने"),
        conjunctions=keys(
            "और लेकिन परंतु परन्तु किंतु किन्तु मगर तथा एवं क्योंकि कि इसलिए इसीलिए बल्कि फिर जबकि ताकि अतः"
        ),
        conjunction_phrases=tuple(
            tuple(k(w) for w in phrase.split())
            for phrase in (
                "इस लिए",
                "इसी लिए",
                "इसके बाद",
                "उसके बाद",
                "इसके अलावा",
                "उसके अलावा",
                "इस वजह से",
                "इसी वजह से",
                "इस कारण",
                "इसी कारण",
                "इस के बाद",
                "उस के बाद",
                "इसके चलते",
            )
        ),
        on_word=k("पर"),
        negations=keys("नहीं न मत ना"),
        particles=keys("ही भी तो"),
        modal_words=keys("शायद ताकि अगर यदि चाहिए"),
        first_person=keys("मैं हम"),
        listener=keys("आप तुम तू कृपया"),
        everyone=keys("सब सभी सबलोग लोग प्रत्येक समाज जनता दुनिया हरकोई"),
        everyone_next=keys("कोई व्यक्ति इंसान आदमी शख़्स एक"),
        group_heads=keys("वे वो ये उन इन"),
        group_words=keys("लोग लोगों सब सबने सबको सबका सबकी सबके सबसे सभी दोनों"),
        quantifiers=keys("सभी सब सारे दोनों कई"),
        reciprocals=keys("एक-दूसरे अपने-अपने एक-दूसरा दोनों"),
        reciprocal_pairs=((k("एक"), k("दूसरे")), (k("अपने"), k("अपने"))),
        thing_nouns=keys(
            "फ़ोन फोन कॉल काल रिपोर्ट मुलाक़ात मुलाकात सम्मान इज़्ज़त इज्जत आदर "
            "मदद सहायता सेवा काम बात ख़बर संदेश मैसेज प्रतिष्ठा कार्य इंतज़ार इंतजार समय वक़्त "
            "गाड़ी कार ट्रेन बस"
        ),
        intransitive_stems=keys("आ हो मिल पहुँच जा लग बन रह पड़ चल"),
        transitive_stems=HINDI_TRANSITIVE,
        meet_stem=k("मिल"),
        from_word=k("से"),
        genitive_markers=keys("का की के"),
        dative_markers=keys("को"),
        titles=keys("जी साहब साहिब साहिबा श्रीमान श्रीमती महोदय महोदया मान्यवर"),
        attributive_titles=keys("माननीय आदरणीय सम्मानित"),
        occupation_nouns=nouns - keys("ने को का की के से में पर तक ही भी"),
        determined_nouns=(nouns - keys("ने को का की के से में पर तक ही भी"))
        | keys("व्यक्ति आदमी औरत महिला पुरुष सज्जन दिन समय वक़्त रिपोर्ट काम रात सुबह"),
        occupation_plurals=plurals,
        feminine_nouns=feminine,
        variable_adjectives={
            k(w): g
            for w, g in (
                ("अच्छा", "m"),
                ("अच्छे", "m"),
                ("अच्छी", "f"),
                ("थका", "m"),
                ("थके", "m"),
                ("थकी", "f"),
                ("सच्चा", "m"),
                ("सच्चे", "m"),
                ("सच्ची", "f"),
                ("भला", "m"),
                ("भले", "m"),
                ("भली", "f"),
                ("जाना-माना", "m"),
                ("जाने-माने", "m"),
                ("जानी-मानी", "f"),
                ("प्यारा", "m"),
                ("प्यारे", "m"),
                ("प्यारी", "f"),
            )
        },
        not_verbs_after={k("लिए"): keys("के इस उस इसी उसी"), k("लिये"): keys("के इस उस")},
        clock_words=keys("बजे बजकर"),
    )


def _urdu() -> Lexicon:
    k = urdu_key

    def keys(text: str) -> frozenset[str]:
        return _keys(k, text)

    joined: dict[str, Pronoun] = {}
    for words, register, case in (
        ("اسنے جسنے", ORD, "ergative"),
        ("انہوںنے انھوںنے جنہوںنے", HON, "ergative"),
        ("اسکا اسکی اسکے جسکا جسکی جسکے", ORD, "genitive"),
        ("انکا انکی انکے جنکا جنکی جنکے", HON, "genitive"),
        ("اسے اسکو جسے جسکو", ORD, "dative"),
        ("انہیں انھیں انکو جنہیں جنکو", HON, "dative"),
        ("اسسے جسسے", ORD, "oblique"),
        ("انسے جنسے انہی انھی", HON, "oblique"),
    ):
        for word in keys(words):
            joined[word] = Pronoun(register, case)
    bases = {word: ORD for word in keys("اس اسی جس")}
    bases |= {word: HON for word in keys("ان انہوں انہی جن جنہوں")}
    nominatives = {
        k("وہ"): Pronoun(NEUTRAL, "nominative"),
        k("یہ"): Pronoun(NEUTRAL, "nominative"),
        k("وے"): Pronoun(HON, "nominative"),
        k("جو"): Pronoun(NEUTRAL, "nominative"),
    }
    nouns, plurals, feminine = _occupations("ur", k)
    return Lexicon(
        language="ur",
        key=k,
        verbs=URDU_VERBS,
        joined_pronouns=joined,
        pronoun_bases=bases,
        nominatives=nominatives,
        postpositions=keys("نے کو کا کی کے سے میں پر تک ہی بھی"),
        ergative_marker=k("نے"),
        conjunctions=keys("اور لیکن مگر کیونکہ کہ تاہم بلکہ پھر جبکہ تاکہ لہذا لہٰذا چنانچہ"),
        conjunction_phrases=tuple(
            tuple(k(w) for w in phrase.split())
            for phrase in (
                "اس لیے",
                "اسی لیے",
                "اس لئے",
                "اسی لئے",
                "اسلیے",
                "اسلئے",
                "کیوں کہ",
                "اس کے بعد",
                "اسکے بعد",
                "اس کے علاوہ",
                "اسکے علاوہ",
                "اس وجہ سے",
                "اسی وجہ سے",
            )
        ),
        on_word=k("پر"),
        negations=keys("نہیں نہ مت"),
        particles=keys("ہی بھی تو"),
        modal_words=keys("شاید تاکہ اگر چاہیے"),
        first_person=keys("ہم"),
        listener=keys("آپ تم براہ مہربانی"),
        everyone=keys("سب سبھی لوگ معاشرہ"),
        everyone_next=keys("کوئی شخص ایک"),
        group_heads=keys("وہ یہ ان"),
        group_words=keys("لوگ لوگوں سب سبھی دونوں"),
        quantifiers=keys("سبھی سب سارے دونوں کئی"),
        reciprocals=keys("ایک-دوسرے دونوں"),
        reciprocal_pairs=((k("ایک"), k("دوسرے")), (k("اپنے"), k("اپنے"))),
        thing_nouns=keys(
            "فون کال رپورٹ ملاقات عزت احترام مدد خدمت کام بات خبر پیغام انتظار وقت گاڑی کار ٹرین بس"
        ),
        intransitive_stems=keys("آ ہو مل پہنچ جا لگ بن رہ پڑ چل"),
        transitive_stems=URDU_TRANSITIVE,
        meet_stem=k("مل"),
        from_word=k("سے"),
        genitive_markers=keys("کا کی کے"),
        dative_markers=keys("کو"),
        titles=keys("صاحب صاحبہ جناب محترم محترمہ بیگم"),
        attributive_titles=keys("معزز قابل"),
        occupation_nouns=nouns - keys("نے کو کا کی کے سے میں پر تک ہی بھی"),
        determined_nouns=(nouns - keys("نے کو کا کی کے سے میں پر تک ہی بھی"))
        | keys("شخص آدمی عورت خاتون دن وقت رپورٹ کام رات صبح"),
        occupation_plurals=plurals,
        feminine_nouns=feminine,
        variable_adjectives={
            k(w): g
            for w, g in (
                ("اچھا", "m"),
                ("اچھے", "m"),
                ("اچھی", "f"),
                ("تھکا", "m"),
                ("تھکے", "m"),
                ("تھکی", "f"),
                ("سچا", "m"),
                ("سچے", "m"),
                ("سچی", "f"),
                ("پیارا", "m"),
                ("پیارے", "m"),
                ("پیاری", "f"),
            )
        },
        not_verbs_after={k("لیے"): keys("کے اس اسی"), k("لئے"): keys("کے اس اسی")},
        clock_words=keys("بجے"),
    )


HINDI = _hindi()
URDU = _urdu()
