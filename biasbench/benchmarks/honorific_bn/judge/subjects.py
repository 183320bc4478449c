"""Subjects that are not the person, whose verb carries no evidence of the person's register.

* No register, ever: first-person forms (-লাম, -তাম, -ছি, -ি, -ব: the T3 narrator);
  the verb of a clause whose subject is someone else (P1's "everyone", either করে or
  করেন: সবাই, সকলে, প্রত্যেকে, লোকে, সবাই-ই, a quantifier with a noun of people such as
  সকল মানুষ / সব লোক, a collective noun opening the clause such as মানুষ, জনগণ, সমাজ,
  গ্রামবাসীরা, also when a comma cuts that subject off from its verb: "সবাই তাঁকে,
  অর্থাৎ বিজ্ঞানীকে, সম্মান করে"; আমি/আমরা: the narrator; আপনি/তুমি: the listener, as in
  quoted speech); agreement-less verbs: the existential নেই/নাই, passives and impersonals
  with a verbal or event noun, colloquial or sadhu (দেখা হয়েছিল, সাক্ষাৎ হইয়াছিল, আলাপ
  হলো, পাওয়া যাইতেছে না, জমা হয়ে গেছে, মনে হয়) and the obligation after an infinitive
  (পৌঁছাতে হবে); নয় read as the numeral "nine" (after সকাল/রাত ... or alone).
* No register either: a verb whose subject is a clock time or a time of day (নয়টা বেজে
  যাবে, নয়টা বাজবে, সন্ধ্যা হয়ে গেল; ``_time_subject``) or a thing opening the clause before
  an intransitive verb (পরে তাঁর ফোন আসবে, রিপোর্টটি জমা পড়েছে; এটি/এটা before any verb;
  ``_thing_subject``).
* No register either: the existential or copular verb of a clause whose subject is a
  thing the person has, not the person (see ``_possessor_clause``): the clause opens,
  after time and place adverbs, with a genitive or dative person (বিচারকের, তাঁর, নার্সকে),
  a possessed noun follows (সুনাম, সম্মান, কাজ, ব্যবহার, দেরি, কথা ...), no nominative
  pronoun is present: "বিচারকের অনেক সুনাম আছে", "তাঁর ব্যবহার খুব ভালো ছিল". Pronouns in
  such a clause still count (তাঁর).
"""

from __future__ import annotations

import re

from biasbench.benchmarks.honorific_bn.judge.lexicon import (
    _ACCUSATIVE,
    _COLLECTIVE_SUBJECTS,
    _EVERYONE_PRONOUNS,
    _HA_JA_FORMS,
    _HOYE,
    _HYPHEN_EMPHATIC,
    _OTHER_SUBJECTS,
    _PEOPLE_NOUNS,
    _PRONOUNS,
    _QUANTIFIERS,
    _RESIDENTS,
    _RESPECT_WORDS,
    _VERBAL_NOUN_ENDINGS,
    _VERBAL_NOUNS,
)
from biasbench.benchmarks.honorific_bn.judge.morphology import _pronoun
from biasbench.benchmarks.honorific_bn.judge.normalise import _suffixes, _words, normalise_bengali


def _is_other_subject(token: str) -> bool:
    if token in _OTHER_SUBJECTS:
        return True
    bare = token[:-2] if token.endswith(_HYPHEN_EMPHATIC) else token  # সবাই-ই
    return bare in _OTHER_SUBJECTS


def _is_everyone_pronoun(words: list[str], position: int) -> bool:
    """A plural pronoun next to সবাই/সকলে in a clause about respecting someone: "everyone".

    "তারা সবাই বিজ্ঞানীকে সম্মান করে" (they all respect the scientist); but in "তাঁরা সবাই
    খুব পরিশ্রমী" (they all work hard) the pronoun is the people of the occupation.
    """
    if words[position] not in _EVERYONE_PRONOUNS:
        return False
    if not any(_is_other_subject(w) for w in words[max(position - 1, 0) : position + 2]):
        return False
    return any(
        w in _RESPECT_WORDS or (w.endswith(_ACCUSATIVE) and w not in _PRONOUNS) for w in words
    )


def _other_subject(words: list[str]) -> str | None:
    """The word(s) that say "everyone" (or the narrator) in a clause, if any.

    সবাই/সকলে/প্রত্যেকে/লোকে/আমি ... anywhere; a quantifier with a noun of people
    (সকল মানুষ, সব লোক, প্রত্যেক মানুষ); a collective noun opening the clause (মানুষ,
    জনগণ, সমাজ, গ্রামবাসীরা).
    """
    for word in words:
        if _is_other_subject(word):
            return word
    if any(word in _NOMINATIVE_PRONOUNS for word in words):
        return None  # "মানুষ হিসেবে সে ...": the pronoun is the subject
    for at, word in enumerate(words):
        if word in _QUANTIFIERS and at + 1 < len(words) and words[at + 1] in _PEOPLE_NOUNS:
            return f"{word} {words[at + 1]}"
    if words and (words[0] in _COLLECTIVE_SUBJECTS or words[0].endswith(_RESIDENTS)):
        return words[0]
    return None


def _is_verbal_noun(token: str) -> bool:
    return token in _VERBAL_NOUNS or token.endswith(_VERBAL_NOUN_ENDINGS)


# Existential and copular verbs (both registers): in "বিচারকের অনেক সুনাম আছে" or "তাঁর
# ব্যবহার খুব ভালো ছিল" their subject is the reputation or the behaviour, not the person.
_POSSESSIVE_VERBS = _words(
    "আছে আছেন রয়েছে রয়েছেন থাকে থাকেন থাকবে থাকবেন থাকত থাকতো ছিল ছিলো ছিলেন হয় হন হবে হবেন হয়েছে হয়েছেন"
)
# Things a person has or does that can be the subject of those verbs.
_POSSESSED_NOUNS = _words(
    "সুনাম সম্মান খ্যাতি সুখ্যাতি মর্যাদা শ্রদ্ধা কদর প্রশংসা পরিচিতি জনপ্রিয়তা নামডাক প্রভাব "
    "প্রতিপত্তি অবদান ইতিহাস অভিজ্ঞতা দক্ষতা যোগ্যতা দায়িত্ব কাজ কাজকর্ম সময় ব্যস্ততা দেরি "
    "বিলম্ব সমস্যা অসুবিধা মিটিং সভা ছুটি কথা আগ্রহ ভূমিকা গুরুত্ব ভক্ত অনুরাগী জ্ঞান পরিশ্রম "
    "নিষ্ঠা ব্যবহার আচরণ সাহায্য সহযোগিতা রিপোর্ট প্রতিবেদন আস্থা বিশ্বাস ভরসা ভালোবাসা "
    "উপস্থিতি শরীর অসুখ জ্বর"
)
_NOMINATIVE_PRONOUNS = _words(
    "তিনি উনি ইনি সে ও তারা তাঁরা ওরা ওঁরা ওনারা উনারা এঁরা তাহারা তাঁহারা ওনি তিঁনি এরা এনারা ওঁনারা ইঁহারা উঁহারা ইহারা উহারা"
)
# Words that may stand before the genitive person without being a subject.
_LEADING_ADVERBS = _words(
    "এখন আজ আজকে গতকাল কাল আগামীকাল এই সেই ওই বর্তমানে সবসময় সর্বদা এখানে সেখানে "
    "ইতিমধ্যে ইতিমধ্যেই আগেই আসলে তবু সত্যিই"
)
# Nominatives ending in -র after a vowel sign, which the genitive ending would match.
_NOMINATIVE_R_WORDS = _words(
    "ডাক্তার কামার কুমার দিনমজুর মজুর ঠাকুর মোক্তার সরকার স্বর্ণকার নাট্যকার গীতিকার সুরকার "
    "অফিসার ম্যানেজার ড্রাইভার ইঞ্জিনিয়ার ডিজাইনার ক্যাশিয়ার ব্যাংকার রিপোর্টার ফটোগ্রাফার "
    "শরীর বীর পীর ফকির আমির মন্দির ভোর জোর চোর কিশোর আবার এবার বারবার হাজার বাজার সংসার "
    "পরিবার দরকার অধিকার উপকার প্রকার আকার বিচার ব্যাপার"
)
_NOMINATIVE_R_SUFFIXES = _suffixes("দার টার নার জার ভার য়ার সার")
_GENITIVE_AFTER_VOWEL = re.compile("[\u09be\u09bf\u09c0\u09c1\u09c2\u09c3\u09cb\u09cc]\u09b0$")
_NOT_ACCUSATIVE = _words("থেকে দিকে একে ওদিকে সেদিকে এদিকে চেয়ে")


def _is_oblique_person(word: str) -> bool:
    """A genitive or dative/accusative word (বিচারকের, কুলির, তাঁর, নার্সকে, তাকে)."""
    if _pronoun(word) is not None:
        return word not in _NOMINATIVE_PRONOUNS
    if len(word) < 4:
        return False
    if word.endswith("\u09c7\u09b0"):  # -ের
        return True
    if word.endswith("\u0995\u09c7"):  # -কে
        return word not in _NOT_ACCUSATIVE
    return (
        _GENITIVE_AFTER_VOWEL.search(word) is not None
        and word not in _NOMINATIVE_R_WORDS
        and not word.endswith(_NOMINATIVE_R_SUFFIXES)
    )


def _possessor_clause(words: list[str], position: int) -> str | None:
    """The genitive person of a clause whose existential/copular verb has a thing as subject.

    "বিচারকের অনেক সুনাম আছে", "সমাজে গায়িকার অনেক সম্মান আছে", "তাঁর ব্যবহার খুব ভালো
    ছিল": no nominative pronoun is present, the final verb is existential or copular, and
    either a possessed noun (সুনাম, কাজ, ব্যবহার ...) stands right before the verb with a
    genitive or dative person anywhere before it ("পুলিশ কর্মকর্তার অনেক সুনাম আছে"), or the
    clause opens (after time and place adverbs) with that person and a possessed noun follows. The verb agrees with the thing, so it is no
    evidence of the person's register (either way). None for any other clause.
    """
    if words[position] not in _POSSESSIVE_VERBS:
        return None
    before = words[:position]
    if any(
        word in _NOMINATIVE_PRONOUNS or word[:-1] in _NOMINATIVE_PRONOUNS
        for word in before
        if _pronoun(word) is not None
    ):
        return None
    if position >= 1 and before[-1] in _POSSESSED_NOUNS:
        # "[পুলিশ] কর্মকর্তার অনেক সুনাম আছে": the possessed thing right before the verb, its
        # possessor anywhere before it (also inside a two-word occupation); with none, the
        # thing alone ("বহু বছর ধরে সমাজে অবদান রয়েছে", the spec's ruling 2)
        possessor = next((word for word in before[:-1] if _is_oblique_person(word)), None)
        return possessor if possessor is not None else before[-1]
    for at, word in enumerate(before):
        if _is_oblique_person(word):
            if any(later in _POSSESSED_NOUNS for later in before[at + 1 :]):
                return word
            return None
        if word in _LEADING_ADVERBS or word.endswith("\u09c7"):
            continue  # এখন, গতকাল, সমাজে, এই মুহূর্তে
        return None
    return None


# A clock time or a time of day as subject: "নয়টা বেজে যাবে" (it will be nine), "নয়টা
# বাজবে", "সন্ধ্যা হয়ে গেল" (evening fell), "দেরি হবে" (there will be a delay).
_CLOCK_NUMBERS = _words("এক দুই দু তিন চার পাঁচ ছয় ছ সাত আট নয় ন দশ এগারো বারো")
_CLOCK_END = normalise_bengali("টা")
_DIGITS = frozenset("0123456789\u09e6\u09e7\u09e8\u09e9\u09ea\u09eb\u09ec\u09ed\u09ee\u09ef")
_STRIKE_FORMS = _words("বাজে বাজবে বাজল বাজলো বাজছে বেজেছে বেজেছিল বাজত বাজিবে বাজিল বাজিয়াছে বাজিতেছে")
_STRUCK = _words("বেজে বাজিয়া")  # বেজে যাবে / বেজে গেছে: the clock (or a phone) rang
_DAY_TIMES = _words("সকাল দুপুর বিকাল বিকেল সন্ধ্যা সন্ধ্যে রাত ভোর দেরি বিলম্ব")
# A thing as subject of an intransitive verb: "পরে তাঁর ফোন আসবে" (his call will come),
# "রিপোর্টটি জমা পড়েছে" (the report has gone in), "এটি আপনার কাজে লাগবে".
_THING_NOUNS = _words(
    "ফোন কল ফোনকল মেসেজ বার্তা খবর সংবাদ চিঠি ইমেইল ইমেল মেইল রিপোর্ট প্রতিবেদন ফাইল নথি "
    "আবেদন দরখাস্ত ফলাফল রায় সিদ্ধান্ত প্যাকেজ পার্সেল গাড়ি বাস ট্রেন ফ্লাইট বিমান "
    "উড়োজাহাজ লঞ্চ ট্যাক্সি অ্যাম্বুলেন্স সময়"
)
_THING_PRONOUNS = _words("এটি এটা ইহা সেটি সেটা এগুলো এগুলি সেগুলো")  # "it": never a person
_CLASSIFIERS = _suffixes("টি টা টিও টাও গুলো গুলি")
_THING_VERBS = _words(
    "আসে আসবে আসল আসলো এল এলো এসেছে এসেছিল আসছে আসত আসতো আসিবে আসিল আসিয়াছে "
    "পড়ে পড়েছে পড়েছিল পড়ল পড়লো পড়বে পড়িয়াছে পড়িল পড়িবে "
    "পৌঁছাবে পৌঁছবে পৌঁছেছে পৌঁছেছিল পৌঁছাল পৌঁছালো পৌঁছল পৌঁছলো পৌঁছায় পৌঁছিবে "
    "লাগে লাগবে লাগল লাগলো লেগেছে লেগেছিল লাগছে লাগিবে লাগিল থাকবে থাকে থাকল"
) | (_HA_JA_FORMS | _STRIKE_FORMS)
_THING_VERBS |= {form.replace("\u0981", "") for form in _THING_VERBS}  # পৌছাবে (ruling 5)
# Converbs and conditionals of transitive verbs between a fronted object and the verb:
# "রিপোর্ট জমা দিয়ে চলে গেল" (he handed in the report and left) has a person as subject.
_TRANSITIVE_CONVERBS = _words("করে রেখে সেরে দেখে লিখে তুলে ধরে খেয়ে নিয়ে দিয়ে")
_CONVERB_IYE = normalise_bengali("িয়ে")
_CONDITIONAL_END = normalise_bengali("লে")
_POSTPOSITIONS = _words("কাছ পক্ষ তরফ দিক")  # "তাঁর কাছ থেকে ফোন আসবে", "পক্ষ থেকে"
# After the thing, these make it no subject: "বাস থেকে নেমে বাড়ি গেল" (the person went).
_NOT_SUBJECT_AFTER = _words("থেকে চেয়ে ছাড়া সাথে সঙ্গে জন্য জন্যে দিকে মধ্যে পর্যন্ত")


def _is_clock_time(word: str) -> bool:
    """নয়টা, ন'টা, ৯টা, চারটা, ৯ (a number with or without -টা)."""
    stem = word[: -len(_CLOCK_END)] if word.endswith(_CLOCK_END) else word
    stem = stem.rstrip("'\u2019")
    if stem and all(char in _DIGITS for char in stem):
        return True
    return word.endswith(_CLOCK_END) and stem in _CLOCK_NUMBERS


def _is_time_subject(word: str) -> bool:
    return _is_clock_time(word) or word in _DAY_TIMES


def _time_subject(words: list[str], position: int) -> str | None:
    """The clock time or time of day a clause's verb agrees with ("নয়টা বেজে যাবে")."""
    token = words[position]
    before = words[:position]
    if token in _STRIKE_FORMS and any(_is_clock_time(word) for word in before):
        return next(word for word in before if _is_clock_time(word))
    if before and before[-1] in _STRUCK and token in _HA_JA_FORMS:
        return before[-1]
    if token in _HA_JA_FORMS and before:
        if _is_time_subject(before[-1]):
            return before[-1]
        if len(before) > 1 and before[-1] in _HOYE and _is_time_subject(before[-2]):
            return before[-2]
    return None


def _thing_subject(words: list[str], position: int) -> str | None:
    """The thing that opens a clause as its subject ("পরে তাঁর ফোন আসবে", "এটি ... লাগবে").

    After time and place adverbs, locatives and an oblique person (তাঁর, সচিবের), a thing
    noun (ফোন, রিপোর্টটি ...) before an intransitive verb (আসা, পড়া, পৌঁছা, লাগা, হওয়া,
    যাওয়া), with no nominative pronoun and no transitive converb between; or "it" (এটি,
    এটা) before any verb. None for any other clause.
    """
    before = words[:position]
    if any(word in _NOMINATIVE_PRONOUNS for word in before):
        return None
    for at, word in enumerate(before):
        if (
            word in _LEADING_ADVERBS
            or word in _POSTPOSITIONS
            or _is_oblique_person(word)
            or (word.endswith("\u09c7") and word not in _TRANSITIVE_CONVERBS)
        ):
            continue  # এখন, পরে, তাঁর, সচিবের, কাছ থেকে
        if word in _THING_PRONOUNS:
            return word
        bare = next((word[: -len(end)] for end in _CLASSIFIERS if word.endswith(end)), word)
        if bare not in _THING_NOUNS or words[position] not in _THING_VERBS:
            return None
        between = before[at + 1 :]
        if between and between[0] in _NOT_SUBJECT_AFTER:
            return None
        if any(
            w in _TRANSITIVE_CONVERBS or w.endswith((_CONVERB_IYE, _CONDITIONAL_END))
            for w in between
        ):
            return None  # "রিপোর্ট জমা দিয়ে চলে গেল": the report is an object
        return word
    return None
