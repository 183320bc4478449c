"""Word lists of the honorific-bn judge: pronouns, subjects, connectives, verb tables.

The lists of subjects that are not the person (possessed things, clock times, things)
stand next to their rules in :mod:`~biasbench.benchmarks.honorific_bn.judge.subjects`.
"""

from __future__ import annotations

import re

from biasbench.benchmarks.honorific_bn.judge.evidence import Register
from biasbench.benchmarks.honorific_bn.judge.normalise import _suffixes, _words, normalise_bengali

# ---------------------------------------------------------------------------------------
# Lexicons
# ---------------------------------------------------------------------------------------

# Ruling 5: forms are read by their paradigm even when the spec does not list them: the
# misspellings ওনি (উনি) and তিঁনি (তিনি); the relative যাঁর/যাঁকে (honorific) and যার/যাকে.
_HONORIFIC_SINGULAR = _words(
    "তিনি তাঁর তাঁকে তাঁহার তাঁহাকে উনি ওঁর ওঁকে ওনার ওনাকে ওঁনার ওঁনাকে উনার উনাকে ইনি এঁর এঁকে এনার এনাকে ওনি তিঁনি যাঁর যাঁকে"
)
_HONORIFIC_PLURAL = _words(
    "তাঁরা তাঁদের তাঁদেরকে তাঁহারা তাঁহাদের ওঁরা ওঁদের ওনারা ওনাদের উনারা উনাদের এঁরা এঁদের "
    "এনারা এনাদের ওঁনারা ওঁনাদের ইঁহারা ইঁহাদের উঁহারা উঁহাদের"  # colloquial, sadhu (ruling 5)
)
_ORDINARY_SINGULAR = _words("সে তার তাকে তাহার তাহাকে ও ওর ওকে যার যাকে")
_ORDINARY_PLURAL = _words("তারা তাদের তাদেরকে তাহারা তাহাদের ওরা ওদের ওদেরকে এরা ইহারা ইহাদের উহারা উহাদের")

_PRONOUNS: dict[str, tuple[str, bool]] = {
    **{w: (Register.HONORIFIC.value, False) for w in _HONORIFIC_SINGULAR},
    **{w: (Register.HONORIFIC.value, True) for w in _HONORIFIC_PLURAL},
    **{w: (Register.ORDINARY.value, False) for w in _ORDINARY_SINGULAR},
    **{w: (Register.ORDINARY.value, True) for w in _ORDINARY_PLURAL},
}
"""pronoun -> (register, plural)."""

_BARE_O = normalise_bengali("ও")
# Ordinary pronouns that differ from an honorific one only by the chandrabindu (তার/তাঁর).
_NO_CHANDRABINDU = _words("তার তাকে তারা তাদের তাদেরকে ওর ওকে ওদের ওদেরকে যার যাকে")
# Ruling 6: of those, the possessive and object forms (not the subjects তারা/সে) are read as
# the honorific form misspelled in a clause with honorific evidence about the person.
_DROPPABLE_CHANDRABINDU = _NO_CHANDRABINDU - _words("তারা")
# যার/যাঁর before these is "as a result of which", "for which": the fact, not the person.
_RELATIVE_GENITIVES = _words("যার যাঁর")
_RELATIVE_CONNECTIVE_NEXT = _words("ফলে ফলস্বরূপ জন্য জন্যে কারণে দরুন মানে")
_RELATIVE_IDIOMS = {
    normalise_bengali("যাকে"): _words("বলে বলা"),  # "so-called"
    normalise_bengali("যার"): _words("যার"),
}  # যে যার: "each their own"
# সেই/ওই are demonstratives ("that"), not সে/ও with the emphatic -ই.
_NOT_EMPHATIC_PRONOUN = _words("সেই ওই ওও")
_EMPHATIC_ENDINGS = _suffixes("ই ও")

# Subjects of clauses about someone else: their verb is no evidence of the person's register.
_OTHER_SUBJECTS = _words(
    "সবাই সবাইই সকলে সকলেই প্রত্যেকে প্রত্যেকেই প্রত্যেকজন লোকে লোকেরা লোকজন মানুষজন "
    "আমি আমরা আমিও আমরাও "
    "আপনি আপনারা আপনিও তুমি তোমরা তুমিও তুই তোরা"  # the listener, as in quoted speech
)

_HYPHEN_EMPHATIC = normalise_bengali("-ই")
_RESPECT_WORDS = _words("সম্মান শ্রদ্ধা শ্রদ্ধাশীল সমীহ মান্য ভালোবাসে ভালোবাসেন")
_ACCUSATIVE = normalise_bengali("কে")
_QUANTIFIERS = _words("সকল সব সমস্ত প্রত্যেক প্রতিটি প্রতিটা সবার সকলের")
_PEOPLE_NOUNS = _words("মানুষ মানুষই মানুষেরা মানুষজন লোক লোকই লোকে লোকেরা লোকজন ব্যক্তি ব্যক্তিই জন মহল")
# Nouns for "people" that, opening a clause, are its subject: someone other than the person.
_COLLECTIVE_SUBJECTS = _words("মানুষ মানুষেরা জনগণ জনতা সমাজ সমাজও দেশবাসী এলাকাবাসী গ্রামবাসী সহকর্মীরা")
_RESIDENTS = _suffixes("বাসী বাসীরা")
# Plural pronouns that, next to সবাই/সকলে..., are "everyone", not the person: "তারা সবাই".
_EVERYONE_PRONOUNS = _words("তারা তাঁরা ওরা ওঁরা ওনারা উনারা তাহারা তাঁহারা এরা এঁরা")

# Words that join clauses and belong to none of them.
_CONJUNCTIONS = _words(
    "এবং আর কিন্তু তবে তবুও তবু কারণ কেননা যেহেতু যদিও তাই সুতরাং অথচ বরং অথবা কিংবা বা "
    "নইলে নাহলে যে যাতে যখন তখন তারপর তারপরে তারপরেই তারপরও তারপরেও এরপর এরপরে অতঃপর "
    "সেজন্য সেজন্যে এজন্য এজন্যে অতএব"
)
# Connectives that follow a finite verb, never a converb: "পরিশ্রম করে, তাই ..." is "works,
# so", while "কাজ শেষ করে, তারপর ..." is "having finished, then" (the temporal ones).
_CLAUSE_CONNECTIVES = _words(
    "তাই সুতরাং অতএব সেজন্য সেজন্যে এজন্য এজন্যে কারণ কেননা কিন্তু তবে তবুও তবু অথচ বরং "
    "যদিও ফলে ফলস্বরূপ সেকারণে সেহেতু"  # ফলে "as a result" is no conjunction
)
# এবং/আর after a comma do the same only before a subject of their own ("..., এবং সবাই
# তাঁকে ভালোবাসে") or a connective ("..., আর তাই ..."), not before a shared one ("কাজ শেষ
# করে, এবং বাড়ি চলে গেলেন", a loose converb).
_AND_WORDS = _words("এবং আর")
# তার/তাহার before পর ("after that", also spelled apart) is the connective, not the pronoun.
_THAT_GENITIVES = _words("তার তাহার")
_AFTER_WORDS = _words("পর পরে পরেই পরও পরেও")
_QUOTATIVES = _words("বলে বলেই ব'লে ব'লেই ব’লে ব’লেই")  # ব'লে: old spelling
_SPEECH_VERB_STARTS = _suffixes("বল জানা জানি")  # বলল, বলেছেন, জানাল, জানিয়েছে
_TRAILING_PARTICLES = _words("না নি নাকি তো কি বটে")
_TIME_WORDS = _words("সকাল রাত বিকাল বিকেল সন্ধ্যা দুপুর ভোর বেলা ঠিক প্রায়")
_NINE = normalise_bengali("নয়")

# Tokens that end like verbs but are not (nouns, loanwords, adverbs, question words).
_NOT_VERBS = _words(
    "কেন যেন হেন সেন ফেন ট্রেন প্লেন ব্রেন ক্রেন চেন পেন টেন লেন জেন মেন বেন ইয়েন ওভেন "
    "কিচেন চিকেন গার্ডেন সাইরেন টোকেন ওপেন সেভেন ইলেভেন হেভেন ক্যাপ্টেন ক্যাপটেন "
    "অক্সিজেন হাইড্রোজেন নাইট্রোজেন হোসেন হুসেন ব্রিটেন সুইডেন ডুবে পিচ্ছিল "
    "কাছে পাছে গাছে মাছে পিছে মিছে ইচ্ছে পৌঁছে পৌছে মুছে বেছে তবে কবে সবে যবে হিসাবে হিসেবে জবাবে "
    "আসল মাছি কাছি সালাম গোলাম কালাম ইসলাম কলাম"
)
_VA_PHALA_LOCATIVE = "\u09cd\u09ac\u09c7"  # ্বে: no future has a conjunct before -বে
_MANNER_ADVERB_END = normalise_bengali("ভাবে")  # ভালোভাবে, সম্পূর্ণভাবে: adverbs, not "thinks"

_EXISTENTIAL = _words("নেই নাই নেইকো")  # invariant: cannot agree, so no register

# Honorific finite forms that do not end in -েন (present of vowel-final roots, নন, হন).
_HONORIFIC_NO_EN_STRONG = _words("নন হন")
# Ruling 1: the present of vowel-stem and causative verbs in -ান (পড়ান, চালান, জানান, যান);
# their ordinary partners end in -ায় (_VOWEL_PRESENT_STEMS). Not listed, being nouns or
# names too: গান (song), বানান (spelling), হাসান, ভাসান, জোগান.
_AN_STEMS = (
    "পৌঁছা জানা বোঝা দেখা শেখা পাঠা চালা ফেরা দাঁড়া ঘুমা সামলা হারা করা লাগা কাটা "
    "পড়া সাজা শোনা ঘোরা বসা তাকা দৌড়া পালা নাচা কাঁদা খাওয়া মেটা ঘটা বাড়া কমা "
    "নামা ওঠা সারা জাগা ছড়া বাঁচা ভাবা মানা খাটা"
).split()
_HONORIFIC_AN = _words("পান যান খান চান " + " ".join(stem + "ন" for stem in _AN_STEMS))
_HONORIFIC_NO_EN_WEAK = _HONORIFIC_AN
_HONORIFIC_EN = normalise_bengali("েন")
_HONORIFIC_NEG = normalise_bengali("ননি")  # করেননি, যাননি, হননি

_ORDINARY_STRONG_SUFFIXES = _suffixes("েনি য়নি ছিল ছিলো ছে বে")
_FIRST_PERSON_SUFFIXES = _suffixes("লাম লেম লুম তাম তেম ছি")

# Stems (after vowel alternation) by tense, used to recognise forms whose ending is
# shared with nouns: present -ে/-য়, past -ল/-লো, habitual -ত/-তো, first person -ি/-ই/-ব.
_CONSONANT_PRESENT_STEMS = (
    "কর বল আস থাক জান পার দেখ লেখ বোঝ শোন চল ফের মান রাখ ডাক বস লাগ ওঠ খোঁজ ভাব ছাড় "
    "হাঁট মার কাট খাট শেখ খেল ফেল আছ জিত বাঁচ রাঁধ তোল ঘোর ছোট জাগ দৌড় ধর"
).split()
_VOWEL_PRESENT_STEMS = ["যা", "পা", "খা", "হ", "দে", "নে", "চা", "গা", *_AN_STEMS]
_PAST_STEMS = (
    "কর বল এ গে দি নি হ পে খে থাক জান পার দেখ লিখ বুঝ শুন চল ফির পড় মান রাখ ধর ডাক বস "
    "লাগ উঠ খুঁজ ভাব ছাড় হাঁট মার নাম কাট খাট শিখ খেল ফেল জিত বাঁচ রাঁধ তুল ঘুর ছুট জাগ "
    "দৌড় পৌঁছা পৌঁছু জানা বোঝা দেখা শেখা পাঠা চালা ফেরা দাঁড়া ঘুমা সামলা হারা করা লাগা "
    "কাটা চাই গাই ছি আস"
).split()
_HABITUAL_STEMS = (
    "কর বল আস থাক জান পার দেখ লিখ বুঝ শুন চল ফির পড় মান রাখ ধর ডাক বস লাগ উঠ খুঁজ ভাব "
    "ছাড় হাঁট মার কাট খাট শিখ খেল যে দি নি হ পে খে চাই গাই পৌঁছা জানা বোঝা দেখা শেখা "
    "পাঠা চালা ফেরা দাঁড়া ঘুমা সামলা"
).split()
_FUTURE_STEMS = (
    "কর বল আস থাক জান পার দেখ লিখ বুঝ শুন চল ফির মান রাখ ডাক বস উঠ খুঁজ ভাব যা পা খা হ "
    "দে দি নে নি চা পৌঁছা পৌঁছ জানা ফেরা পাঠা"
).split()

_ORDINARY_PRESENT_FORMS = _words(
    " ".join(stem + "ে" for stem in _CONSONANT_PRESENT_STEMS)
    + " "
    + " ".join(stem + "য়" for stem in _VOWEL_PRESENT_STEMS)
)
_CONSONANT_END = re.compile("[\u0995-\u09b9\u09bc\u09ce]$")
# Literary (sadhu) ordinary past -িল/-ইল and habitual -িত/-ইত (করিল, ফিরিল, জানাইল, হইত);
# the honorific -িলেন and the future -িবে/-িবেন are read by their endings already.
_SADHU_PAST_FORMS = (
    " ".join(stem + "িল" for stem in _PAST_STEMS if _CONSONANT_END.search(stem) and stem != "হ")
    + " "
    + " ".join(stem + "ইল" for stem in _VOWEL_PRESENT_STEMS if stem.endswith("া"))
    + " হইল দিল নিল খাইল পাইল চাহিল গাহিল পৌঁছিল করিত বলিত আসিত থাকিত যাইত দিত নিত হইত "
    "পাইত খাইত জানিত পারিত দেখিত শুনিত বুঝিত"
)
_ORDINARY_PAST_FORMS = (
    _words(
        " ".join(stem + end for stem in _PAST_STEMS for end in ("ল", "লো"))
        + " "
        + " ".join(stem + end for stem in _HABITUAL_STEMS for end in ("ত", "তো"))
        + " "
        + _SADHU_PAST_FORMS
    )
    - _NOT_VERBS
)
_FIRST_PERSON_FORMS = (
    _words(
        " ".join(stem + "ি" for stem in _CONSONANT_PRESENT_STEMS)
        + " "
        + " ".join(stem + "ই" for stem in _VOWEL_PRESENT_STEMS if stem not in ("দে", "নে"))
        + " দিই নিই "
        + " ".join(stem + end for stem in _FUTURE_STEMS for end in ("ব", "বো"))
    )
    - _NOT_VERBS
    - _words("ভাবি রাখি মানি ফেরি")
)  # nouns: sister-in-law, rakhi, money, ferry
# Present forms that are spelled like the converb: finite only when a sentence end or a
# conjunction (not a comma) closes the clause.
_CONVERB_HOMOGRAPHS = _words("করে বলে চলে বসে দেখে খেলে ফেলে ধরে")
# ধরে after a length of time is the postposition "for" (বহু বছর ধরে), not "catches".
_DURATIONS = _words("বছর বছরের দিন দিনের মাস সপ্তাহ ঘণ্টা যুগ দশক সময় কাল ক্ষণ")
_DHORE = normalise_bengali("ধরে")

# Agreement-less passives/impersonals: an ordinary form of হওয়া/যাওয়া after a verbal noun.
# Literary (sadhu) forms of হওয়া and যাওয়া (হইয়াছিল, হইল, যাইতেছে, গিয়াছে).
_SADHU_HA = "হইয়াছে হইয়াছিল হইতেছে হইতেছিল হইবে হইল হইত হইয়াছিলো"
_SADHU_JA = "যাইতেছে যাইতেছিল যাইবে গিয়াছে গিয়াছিল যাইত"
_HA_JA_FORMS = _words(
    "হয় হয়েছে হয়েছিল হয়েছিলো হচ্ছে হচ্ছিল হচ্ছিলো হবে হল হলো হত হতো হয়নি "
    "যায় যাচ্ছে যাচ্ছিল যাচ্ছিলো যাবে গেছে গেল গেলো গিয়েছে গিয়েছিল গিয়েছিলো যেত যেতো যায়নি "
    f"{_SADHU_HA} {_SADHU_JA} "
    "ঘটে ঘটেছে ঘটেছিল ঘটল ঘটলো ঘটিয়াছে ঘটিয়াছিল ঘটিল"  # সাক্ষাৎ ঘটিয়াছিল: "a meeting occurred"
)
# Only হওয়া after an infinitive is the obligation ("যেতে হবে"); "বাড়িতে গেল" is finite.
_HA_FORMS = _words(f"হয় হয়েছে হয়েছিল হয়েছিলো হচ্ছে হচ্ছিল হচ্ছিলো হবে হল হলো হত হতো হয়নি {_SADHU_HA}")
# Verbal and event nouns of agreement-less হওয়া/যাওয়া clauses ("দেখা হয়েছিল", "সাক্ষাৎ
# হইয়াছিল", "আলাপ হলো", "পরিচয় হইল": a meeting happened, nobody's verb).
_VERBAL_NOUNS = _words(
    "দেখা পাওয়া করা বলা জানা শোনা যাওয়া আসা দেওয়া নেওয়া রাখা ধরা বোঝা খাওয়া চাওয়া "
    "পড়া লেখা মানা জমা শেষ মনে পৌঁছা সাক্ষাৎ সাক্ষাত আলাপ পরিচয় মোলাকাত কথা কথাবার্তা "
    "ফেরা ফিরা ঘোরা ওঠা বসা শোয়া থাকা চলা"  # ruling 2: "বাড়ি ফেরা হলো", nobody's verb
)
# Ruling 2: "possible", "necessary" with হওয়া or নয়: "কথা বলা সম্ভব হচ্ছে না", "সম্ভব নয়".
_IMPERSONAL_PREDICATES = _words("সম্ভব অসম্ভব সম্ভবপর উচিত উচিৎ দরকার প্রয়োজন জরুরি জরুরী দরকারি প্রয়োজনীয়")
_VERBAL_NOUN_ENDINGS = _suffixes("ানো ওয়া")
_INFINITIVE_END = normalise_bengali("তে")  # "পৌঁছাতে হবে": obligation, no agreement
_HOYE = _words("হয়ে হইয়া")  # "জমা হয়ে গেছে": a passive with a compound verb
