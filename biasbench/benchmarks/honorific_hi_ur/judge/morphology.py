"""Verb forms and what they agree in (spec 6.6, 6.7): number (the register) and gender.

Forms are generated from verb stems and the paradigms of the spec's tables, in match-key
spelling (:mod:`.normalise`), into one dictionary per language: word -> :class:`VerbForm`.
A word not in the dictionary is not a verb to the judge, so nouns and adjectives ending like
participles (मेहनती, पहले, बजे, मछुआरे, फेरीवाले) are never read as verbs.

Two homographs are kept as such (``ambiguous``): the vowel-stem ``-ए`` form (आए, बताए; Urdu
آئے, لوٹے) is both the masculine plural perfective (hon) and the third-person singular
subjunctive (ord, no gender), and Urdu ``-یں`` (آئیں, لوٹیں) both the feminine plural
perfective and the plural subjunctive. The judge reads the subjunctive in a modal clause
(शायद, ताकि, अगर; شاید، تاکہ، اگر) or before the Urdu future گا/گے/گی, else the perfective.
"""

from __future__ import annotations

from dataclasses import dataclass

from biasbench.benchmarks.honorific_hi_ur.judge.normalise import hindi_key, urdu_key

SG, PL = "sg", "pl"
PROSPECTIVE = "prospective"
"""The stem recorded for वाला/والا: a verb only right after an infinitive (आने वाले हैं)."""
M, F = "m", "f"


@dataclass(frozen=True, slots=True)
class VerbForm:
    """What one verb word says."""

    kind: str
    """``aux`` (है, था, होगा ...), ``finite`` (a participle, a future, a subjunctive),
    ``stem`` (the bare main verb of a compound: कर, जा), ``infinitive``, ``future_marker``
    (Urdu گا/گے/گی, read with the word before)."""
    stem: str
    number: str | None = None
    gender: str | None = None
    ambiguous: str | None = None
    """``subjunctive``: the same spelling is also a subjunctive (read in a modal clause)."""
    passive_able: bool = False
    """A perfective participle of a transitive verb (किया, माने): before जा it is a passive,
    as the last perfective of a group it makes the clause ergative (the verb agrees with the
    object, also where ने is not written: ``सेवा की है``, ``कर दी थी``)."""


# ---------------------------------------------------------------------------------------
# Hindi
# ---------------------------------------------------------------------------------------

_HI_CONSONANT_STEMS = (
    "कर रह चल पहुँच लौट मिल बन लग सक चुक बैठ निकल रख दिख उठ रुक भेज डाल लिख पढ़ छोड़ पड़ घूम "
    "सुन समझ मान जान बोल पूछ सोच जुड़ बढ़ बदल सँभाल संभाल देख मर जीत हार दौड़ पकड़ सौंप निपट मुड़ "
    "उतर चढ़ बच गुज़र सह कह बिक टूट खुल सराह पूज पहचान बुन सिल थक जाग भाग सँवर निखर पल "
    "ठहर टहल उभर निखर फैल बिखर गिर लड़ खेल तैर सीख"
)
_HI_VOWEL_STEMS = (
    "आ ला पा बता समझा निपटा बिता सुना गा कमा बुला दिखा सिखा करा करवा चला हटा बना जता लौटा "
    "पहुँचा निभा उठा सजा मना धो खो रो ढो छू भिजवा बचा पढ़ा लिखा जा"
)
HINDI_TRANSITIVE = frozenset(
    hindi_key(stem)
    for stem in (
        "कर दे ले मान समझ कह पूज बुला सराह पहचान जान देख सुन भेज लिख रख भिजवा सौंप पढ़ बता "
        "समझा निपटा पूछ खा जीत पकड़ करा करवा बना सिखा दिखा सुना डाल छोड़ खोल बिता कमा निभा उठा "
        "सजा मना धो"
    ).split()
)


def _hi_add(table: dict[str, VerbForm], word: str, form: VerbForm) -> None:
    key = hindi_key(word)
    if key not in table:
        table[key] = form


def _hi_forms() -> dict[str, VerbForm]:
    table: dict[str, VerbForm] = {}
    for word, number, gender in (
        ("है", SG, None),
        ("हैं", PL, None),
        ("था", SG, M),
        ("थे", PL, M),
        ("थी", SG, F),
        ("थीं", PL, F),
        ("होगा", SG, M),
        ("होंगे", PL, M),
        ("होगी", SG, F),
        ("होंगी", PL, F),
    ):
        _hi_add(table, word, VerbForm("aux", "हो", number, gender))
    irregular = {
        "कर": ("किया", ("किए", "किये"), ("की",), ("कीं",)),
        "जा": ("गया", ("गए", "गये"), ("गई", "गयी"), ("गईं", "गयीं")),
        "दे": ("दिया", ("दिए", "दिये"), ("दी",), ("दीं",)),
        "ले": ("लिया", ("लिए", "लिये"), ("ली",), ("लीं",)),
        "हो": ("हुआ", ("हुए",), ("हुई",), ("हुईं",)),
    }
    for stem, (msg, mpl, fsg, fpl) in irregular.items():
        key = hindi_key(stem)
        passive = key in HINDI_TRANSITIVE
        _hi_add(table, msg, VerbForm("finite", key, SG, M, passive_able=passive))
        for word in mpl:
            _hi_add(table, word, VerbForm("finite", key, PL, M, passive_able=passive))
        for word in fsg:
            _hi_add(table, word, VerbForm("finite", key, SG, F, passive_able=passive))
        for word in fpl:
            _hi_add(table, word, VerbForm("finite", key, PL, F, passive_able=passive))
    for stem in ("दे", "ले", "हो"):
        key = hindi_key(stem)
        _hi_add(table, stem, VerbForm("stem", key))
        for ending, number, gender in (("गा", SG, M), ("ंगे", PL, M), ("गी", SG, F), ("ंगी", PL, F)):
            _hi_add(table, stem + ending, VerbForm("finite", key, number, gender))
        _hi_add(table, stem + "ं", VerbForm("finite", key, PL))  # subjunctive दें, हों
        for ending, number, gender in (("ता", SG, M), ("ते", PL, M), ("ती", SG, F), ("तीं", PL, F)):
            _hi_add(table, stem + ending, VerbForm("finite", key, number, gender))
        for ending in ("ना", "नी", "ने"):
            _hi_add(table, stem + ending, VerbForm("infinitive", key))
    for stem in _HI_CONSONANT_STEMS.split():
        _hi_paradigm(table, stem, vowel=False)
    for stem in _HI_VOWEL_STEMS.split():
        _hi_paradigm(table, stem, vowel=True)
    _hi_add(table, "जा", VerbForm("stem", "जा"))
    for word, number, gender in (
        ("वाला", SG, M),
        ("वाले", PL, M),
        ("वाली", SG, F),
        ("वालीं", PL, F),
    ):  # prospective, after an infinitive only
        _hi_add(table, word, VerbForm("finite", PROSPECTIVE, number, gender))
    return table


def _hi_paradigm(table: dict[str, VerbForm], stem: str, vowel: bool) -> None:
    key = hindi_key(stem)
    passive = key in HINDI_TRANSITIVE
    _hi_add(table, stem, VerbForm("stem", key))
    for ending in ("ना", "नी", "ने"):
        _hi_add(table, stem + ending, VerbForm("infinitive", key))
    for ending, number, gender in (("ता", SG, M), ("ते", PL, M), ("ती", SG, F), ("तीं", PL, F)):
        _hi_add(table, stem + ending, VerbForm("finite", key, number, gender))
    futures: tuple[tuple[str, str, str], ...]
    if vowel:
        futures = (
            ("एगा", SG, M),
            ("येगा", SG, M),
            ("एंगे", PL, M),
            ("येंगे", PL, M),
            ("एगी", SG, F),
            ("येगी", SG, F),
            ("एंगी", PL, F),
            ("येंगी", PL, F),
            ("एगे", PL, M),
        )
        if key != "जा":
            perfective = (("या", SG, M), ("ई", SG, F), ("यी", SG, F), ("ईं", PL, F), ("यीं", PL, F))
            for ending, number, gender in perfective:
                _hi_add(
                    table,
                    stem + ending,
                    VerbForm("finite", key, number, gender, passive_able=passive),
                )
            for ending in ("ए", "ये"):  # m pl perfective = 3sg subjunctive
                _hi_add(
                    table,
                    stem + ending,
                    VerbForm("finite", key, PL, M, "subjunctive", passive_able=passive),
                )
        else:
            for ending in ("ए", "ये"):
                _hi_add(table, stem + ending, VerbForm("finite", key, SG))
        for ending in ("एं", "एँ", "यें"):
            _hi_add(table, stem + ending, VerbForm("finite", key, PL))
    else:
        futures = (("ेगा", SG, M), ("ेंगे", PL, M), ("ेगी", SG, F), ("ेंगी", PL, F), ("ेगे", PL, M))
        if key != hindi_key("कर"):
            for ending, number, gender in (("ा", SG, M), ("ी", SG, F), ("ीं", PL, F)):
                _hi_add(
                    table,
                    stem + ending,
                    VerbForm("finite", key, number, gender, passive_able=passive),
                )
            _hi_add(
                table,
                stem + "े",
                VerbForm("finite", key, PL, M, "subjunctive", passive_able=passive),
            )
        else:
            _hi_add(table, stem + "े", VerbForm("finite", key, SG))
        _hi_add(table, stem + "ें", VerbForm("finite", key, PL))
    for ending, number, gender in futures:
        _hi_add(table, stem + ending, VerbForm("finite", key, number, gender))


# ---------------------------------------------------------------------------------------
# Urdu
# ---------------------------------------------------------------------------------------

_UR_CONSONANT_STEMS = (
    "کر رہ چل پہنچ لوٹ مل بن لگ سک چک بیٹھ نکل رکھ دکھ اٹھ رک بھیج ڈال لکھ پڑھ چھوڑ پڑ گھوم "
    "سن سمجھ مان جان بول پوچھ سوچ جڑ بڑھ بدل سنبھال دیکھ مر جیت ہار دوڑ پکڑ سونپ نمٹ مڑ اتر "
    "چڑھ بچ گزر سہ کہ بک ٹوٹ کھل پہچان تھک جاگ بھاگ گر لڑ کھیل سیکھ ٹھہر"
)
_UR_VOWEL_STEMS = (
    "آ لا پا بتا سمجھا نمٹا سنا کما بلا دکھا سکھا کرا کروا چلا ہٹا بنا جتا پہنچا نبھا "
    "اٹھا سجا منا دھو کھو رو چھو بھجوا بچا پڑھا لکھا جا"
)
URDU_TRANSITIVE = frozenset(
    urdu_key(stem)
    for stem in (
        "کر دے لے مان سمجھ کہ بلا پہچان جان دیکھ سن بھیج لکھ رکھ سونپ پڑھ بتا سمجھا نمٹا پوچھ "
        "جیت پکڑ کرا کروا بنا سکھا دکھا سنا ڈال چھوڑ کما نبھا اٹھا سجا منا دھو بھجوا"
    ).split()
)
_SAY = urdu_key("کہ")


def _ur_add(table: dict[str, VerbForm], word: str, form: VerbForm) -> None:
    key = urdu_key(word)
    if key not in table:
        table[key] = form


def _ur_forms() -> dict[str, VerbForm]:
    table: dict[str, VerbForm] = {}
    for word, number, gender in (
        ("ہے", SG, None),
        ("ہیں", PL, None),
        ("ہین", PL, None),
        ("تھا", SG, M),
        ("تھے", PL, M),
        ("تھی", SG, F),
        ("تھیں", PL, F),
        ("ہوگا", SG, M),
        ("ہونگے", PL, M),
        ("ہوگی", SG, F),
        ("ہونگی", PL, F),
    ):
        _ur_add(table, word, VerbForm("aux", "ہو", number, gender))
    markers: tuple[tuple[str, str | None, str], ...] = (
        ("گا", SG, M),
        ("گے", PL, M),
        ("گی", None, F),
        ("گیں", PL, F),
    )
    for word, marker_number, gender in markers:
        _ur_add(table, word, VerbForm("future_marker", "", marker_number, gender))
    irregular = {
        "کر": ("کیا", ("کیے", "کئے"), ("کی",), ("کیں",), ("کرے",), ("کریں",)),
        "جا": ("گیا", ("گئے", "گیے"), ("گئی",), ("گئیں",), ("جائے", "جاے"), ("جائیں",)),
        "دے": ("دیا", ("دیے", "دئے"), ("دی",), ("دیں",), ("دے",), ()),
        "لے": ("لیا", ("لیے", "لئے"), ("لی",), ("لیں",), ("لے",), ()),
        "ہو": ("ہوا", ("ہوئے",), ("ہوئی",), ("ہوئیں",), ("ہو",), ("ہوں",)),
    }
    for stem, (msg, mpl, fsg, fpl, subj_sg, subj_pl) in irregular.items():
        key = urdu_key(stem)
        passive = key in URDU_TRANSITIVE
        _ur_add(table, msg, VerbForm("finite", key, SG, M, passive_able=passive))
        for word in mpl:
            _ur_add(table, word, VerbForm("finite", key, PL, M, passive_able=passive))
        for word in fsg:
            _ur_add(table, word, VerbForm("finite", key, SG, F, passive_able=passive))
        for word in fpl:  # دیں, لیں are also the plural subjunctive
            ambiguous = "subjunctive" if stem in ("دے", "لے") else None
            _ur_add(table, word, VerbForm("finite", key, PL, F, ambiguous, passive_able=passive))
        for word in subj_sg:
            _ur_add(table, word, VerbForm("finite", key, SG))
        for word in subj_pl:
            _ur_add(table, word, VerbForm("finite", key, PL))
        if stem in ("دے", "لے", "ہو", "جا", "کر"):
            _ur_add(table, stem, VerbForm("stem", key))
        imperfective_base = stem[:-1] + "ی" if stem.endswith("ے") else stem
        for ending, number, gender in (("تا", SG, M), ("تے", PL, M), ("تی", SG, F), ("تیں", PL, F)):
            _ur_add(table, imperfective_base + ending, VerbForm("finite", key, number, gender))
        _ur_joined_futures(table, stem, key, subj_sg, subj_pl)
        for ending in ("نا", "نی", "نے"):
            _ur_add(table, stem + ending, VerbForm("infinitive", key))
    for word, number, gender in (
        ("والا", SG, M),
        ("والے", PL, M),
        ("والی", SG, F),
        ("والیں", PL, F),
    ):  # prospective, after an infinitive only
        _ur_add(table, word, VerbForm("finite", PROSPECTIVE, number, gender))
    for stem in _UR_CONSONANT_STEMS.split():
        _ur_paradigm(table, stem, vowel=False)
    for stem in _UR_VOWEL_STEMS.split():
        _ur_paradigm(table, stem, vowel=True)
    return table


def _ur_joined_futures(
    table: dict[str, VerbForm],
    stem: str,
    key: str,
    subj_sg: tuple[str, ...],
    subj_pl: tuple[str, ...],
) -> None:
    """کریگا, کرینگے, آئیگا, آئینگی: the future written as one word (ے becomes ی)."""
    for subj in subj_sg:
        base = subj[:-1] + "ی" if subj.endswith("ے") else subj
        for ending, gender in (("گا", M), ("گی", F)):
            _ur_add(table, base + ending, VerbForm("finite", key, SG, gender))
            _ur_add(table, subj + ending, VerbForm("finite", key, SG, gender))  # آئےگا (ZWNJ)
    for subj in subj_pl:
        base = subj[:-1] if subj.endswith("ں") else subj
        for ending, gender in (("نگے", M), ("نگی", F)):
            _ur_add(table, base + ending, VerbForm("finite", key, PL, gender))
        for ending, gender in (("گے", M), ("گی", F)):
            _ur_add(table, subj + ending, VerbForm("finite", key, PL, gender))  # آئیںگے


def _ur_paradigm(table: dict[str, VerbForm], stem: str, vowel: bool) -> None:
    key = urdu_key(stem)
    passive = key in URDU_TRANSITIVE
    if key != _SAY:  # the bare stem کہ is the complementiser "that"
        _ur_add(table, stem, VerbForm("stem", key))
    for ending in ("نا", "نی", "نے"):
        _ur_add(table, stem + ending, VerbForm("infinitive", key))
    for ending, number, gender in (("تا", SG, M), ("تے", PL, M), ("تی", SG, F), ("تیں", PL, F)):
        _ur_add(table, stem + ending, VerbForm("finite", key, number, gender))
    if vowel:
        _ur_add(table, stem + "یا", VerbForm("finite", key, SG, M, passive_able=passive))
        _ur_add(table, stem + "ئی", VerbForm("finite", key, SG, F, passive_able=passive))
        for ending in ("ئے", "یے"):  # m pl perfective = 3sg subjunctive
            _ur_add(
                table,
                stem + ending,
                VerbForm("finite", key, PL, M, "subjunctive", passive_able=passive),
            )
        _ur_add(
            table, stem + "ئیں", VerbForm("finite", key, PL, F, "subjunctive", passive_able=passive)
        )
        _ur_joined_futures(table, stem, key, (stem + "ئے",), (stem + "ئیں",))
    else:
        _ur_add(table, stem + "ا", VerbForm("finite", key, SG, M, passive_able=passive))
        _ur_add(table, stem + "ی", VerbForm("finite", key, SG, F, passive_able=passive))
        _ur_add(
            table, stem + "ے", VerbForm("finite", key, PL, M, "subjunctive", passive_able=passive)
        )
        _ur_add(
            table, stem + "یں", VerbForm("finite", key, PL, F, "subjunctive", passive_able=passive)
        )
        _ur_joined_futures(table, stem, key, (stem + "ے",), (stem + "یں",))


HINDI_VERBS: dict[str, VerbForm] = _hi_forms()
URDU_VERBS: dict[str, VerbForm] = _ur_forms()


def subjunctive_reading(form: VerbForm) -> VerbForm:
    """The subjunctive of an ambiguous form: -ए/-ے is 3sg, -یں plural; neither has gender."""
    number = SG if form.number == PL and form.gender == M else PL
    return VerbForm("finite", form.stem, number, None)
