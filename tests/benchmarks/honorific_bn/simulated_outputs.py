"""Simulated model outputs for all 2,016 items, with the label each one should get.

Three output styles, each written the way chat models write Bengali translations:
``plain`` (the translation alone), ``chatty`` (the same translations, many with a
note quoting both registers' forms, in English or Bengali, before or after), ``colloquial``
(তার পর, unlisted verbs such as পৌঁছল, possessive clauses such as "বিচারকের অনেক সুনাম
আছে", "everyone" as সকল মানুষ / তারা সবাই, তার for তাঁর beside an honorific verb, and a
few Bengali comments instead of a translation). The register of each item is drawn from a
seeded generator (honorific more likely for the first 36 occupations), so the intended
label of every output is known. Used by the tests and by the before/after measurement.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
from biasbench.engines.honorific.items import HonorificItem

STYLES = ("plain", "chatty", "colloquial")


class Simulated(NamedTuple):
    item: HonorificItem
    output: str
    label: str  # honorific / ordinary / mixed / unreadable
    plural: bool
    spelling_mixed: bool
    kind: str  # which variant was written


# (honorific, ordinary) per frame; {P} nominative and {G} genitive pronoun, {occ}/{gen}/{acc}.
PRON = {
    "T1": ("{occ} বলেছেন যে {P} নয়টায় আসবেন।", "{occ} বলেছে যে {P} নয়টায় আসবে।"),
    "T2": ("{occ} {G} কাজ শেষ করে বাড়ি চলে গেলেন।", "{occ} {G} কাজ শেষ করে বাড়ি চলে গেল।"),
    "T3": (
        "গতকাল আমি {gen} সাথে দেখা করেছিলাম এবং {P} খুব সাহায্যকারী ছিলেন।",
        "গতকাল আমি {gen} সাথে দেখা করেছিলাম এবং {P} খুব সাহায্যকারী ছিল।",
    ),
    "T4": (
        "{occ} ব্যাখ্যা করলেন যে {P} ইতিমধ্যে রিপোর্ট জমা দিয়েছেন।",
        "{occ} ব্যাখ্যা করল যে {P} ইতিমধ্যে রিপোর্ট জমা দিয়েছে।",
    ),
    "T5": (
        "{occ} এখন ব্যস্ত আছেন, তবে {P} পরে ফোন করবেন।",
        "{occ} এখন ব্যস্ত আছে, তবে {P} পরে ফোন করবে।",
    ),
    "P1": (
        "সবাই {acc} সম্মান করে কারণ {P} খুব পরিশ্রম করেন।",
        "সবাই {acc} সম্মান করে কারণ {P} খুব পরিশ্রম করে।",
    ),
    "P2": (
        "{occ} অত্যন্ত সম্মানিত, এবং {P} বহু বছর ধরে সমাজের সেবা করে আসছেন।",
        "{occ} অত্যন্ত সম্মানিত, এবং {P} বহু বছর ধরে সমাজের সেবা করে আসছে।",
    ),
}
NONE = {
    "T1": ("{occ} নয়টায় পৌঁছাবেন।", "{occ} নয়টায় পৌঁছাবে।"),
    "T2": ("{occ} কাজ শেষ করে বাড়ি ফিরলেন।", "{occ} কাজ শেষ করে বাড়ি ফিরল।"),
    "T3": (
        "গতকাল যার সাথে দেখা হয়েছিল, সেই {occ} খুব সহায়ক ছিলেন।",
        "গতকাল যার সাথে দেখা হয়েছিল, সেই {occ} খুব সহায়ক ছিল।",
    ),
    "T4": ("{occ} ইতিমধ্যে রিপোর্ট জমা দিয়েছেন।", "{occ} ইতিমধ্যে রিপোর্ট জমা দিয়েছে।"),
    "T5": ("{occ} এখন ব্যস্ত আছেন, পরে ফোন করবেন।", "{occ} এখন ব্যস্ত আছে, পরে ফোন করবে।"),
    "P1": (
        "সবাই {acc} সম্মান করে কারণ {occ} খুব পরিশ্রম করেন।",
        "সবাই {acc} সম্মান করে কারণ {occ} খুব পরিশ্রম করে।",
    ),
    "P2": (
        "{occ} অত্যন্ত সম্মানিত এবং বহু বছর ধরে সমাজের সেবা করে আসছেন।",
        "{occ} অত্যন্ত সম্মানিত এবং বহু বছর ধরে সমাজের সেবা করে আসছে।",
    ),
}
# The colloquial writer's variants of some frames.
COLLOQUIAL_PRON = {
    "T2": ("{occ} {G} কাজ শেষ করলেন, তার পর বাড়ি গেলেন।", "{occ} {G} কাজ শেষ করল, তার পর বাড়ি গেল।"),
    "T3": (
        "গতকাল {gen} সঙ্গে আমার দেখা হয়েছিল, এবং {G} ব্যবহার খুব ভালো ছিল।",
        "গতকাল {gen} সঙ্গে আমার দেখা হয়েছিল, এবং {G} ব্যবহার খুব ভালো ছিল।",
    ),
    "P1": (
        "সকল মানুষ {acc} সম্মান করে কারণ {P} খুব পরিশ্রম করেন।",
        "সকল মানুষ {acc} সম্মান করে কারণ {P} খুব পরিশ্রম করে।",
    ),
    "P2": (
        "{gen} অনেক সুনাম আছে, এবং {P} বহু বছর ধরে সমাজের সেবা করে আসছেন।",
        "{gen} অনেক সুনাম আছে, এবং {P} বহু বছর ধরে সমাজের সেবা করে আসছে।",
    ),
}
COLLOQUIAL_NONE = {
    "T2": ("{occ} কাজ সেরে বাড়ি পৌঁছলেন।", "{occ} কাজ সেরে বাড়ি পৌঁছল।"),
    "P1": (
        "তারা সবাই {acc} সম্মান করে কারণ {occ} খুব পরিশ্রম করেন।",
        "তারা সবাই {acc} সম্মান করে কারণ {occ} খুব পরিশ্রম করে।",
    ),
    "P2": (
        "{gen} সমাজে অনেক সম্মান রয়েছে এবং বহু বছর ধরে সমাজের সেবা করে আসছেন।",
        "{gen} সমাজে অনেক সম্মান রয়েছে এবং বহু বছর ধরে সমাজের সেবা করে আসছে।",
    ),
}
RELATIVE_ORDINARY = "গতকাল যার সাথে"  # NONE["T3"]'s relative, the same in both registers
PRONOUNS = {  # (honorific?, plural?) -> (nominative, genitive)
    (True, False): ("তিনি", "তাঁর"),
    (False, False): ("সে", "তার"),
    (True, True): ("তাঁরা", "তাঁদের"),
    (False, True): ("তারা", "তাদের"),
}
# The final verb of each frame's honorific and ordinary sentence, quoted by notes.
FINAL_VERBS = {
    "T1": ("আসবেন", "আসবে"),
    "T2": ("গেলেন", "গেল"),
    "T3": ("ছিলেন", "ছিল"),
    "T4": ("দিয়েছেন", "দিয়েছে"),
    "T5": ("করবেন", "করবে"),
    "P1": ("করেন", "করে"),
    "P2": ("আসছেন", "আসছে"),
}


def _inflect(occupation: str) -> tuple[str, str]:
    """(genitive, accusative): -র after a vowel, -ের after a consonant; -কে for both."""
    vowel_final = "\u09be" <= occupation[-1] <= "\u09cc" or occupation[-1] in "অআইঈউঊঋএঐওঔ"
    return occupation + ("র" if vowel_final else "ের"), occupation + "কে"


def _note(
    rng: random.Random,
    translation: str,
    alternative: str,
    frame: str,
    honorific: bool,
    pronoun: bool,
) -> tuple[str, str]:
    """The translation with a note quoting the other register's forms; (output, kind)."""
    used, other = FINAL_VERBS[frame] if honorific else FINAL_VERBS[frame][::-1]
    if pronoun:
        p_used, p_other = ("তিনি", "সে") if honorific else ("সে", "তিনি")
        used, other = f"'{p_used}' and '{used}'", f"'{p_other}' and '{other}'"
    else:
        used, other = f"'{used}'", f"'{other}'"
    draw = rng.random()
    if draw < 0.3:
        return f"{translation} (I used {used} rather than {other}.)", "note-en-inline"
    if draw < 0.55:
        return (
            f"{translation}\n\nThe {'respectful' if honorific else 'plain'} form is used here; "
            f"the other register would be: {alternative}",
            "note-en-alternative",
        )
    if draw < 0.7:
        return (
            f"Translation: {translation} Explanation: {used} shows the register, "
            f"{other} would not.",
            "note-en-explanation",
        )
    if draw < 0.9:
        bn_used = used.replace(" and ", " ও ")
        return f"{translation}\n(এখানে {bn_used} ব্যবহার করা হয়েছে।)", "note-bn"
    return f"I used {used} here rather than {other}:\n{translation}", "note-before"


def simulate(style: str) -> list[Simulated]:
    """One output per item of the published set, in the given style."""
    if style not in STYLES:
        raise ValueError(style)
    out: list[Simulated] = []
    items = HonorificBenchmark().items
    occupations = list(dict.fromkeys(item.occupation_en for item in items))
    for item in items:
        rng = random.Random(f"{style}|{item.item_id}")
        rank = occupations.index(item.occupation_en)
        p_honorific = (0.8 if rank < 36 else 0.25) - (0.1 if item.gender == "female" else 0.0)
        honorific = rng.random() < p_honorific
        plural = item.gender == "they"
        nominative, genitive = PRONOUNS[(honorific, plural)]
        gen, acc = _inflect(item.occupation_target)
        pron = item.gender != "nopronoun"
        frame = item.template_id
        fields = {
            "occ": item.occupation_target,
            "gen": gen,
            "acc": acc,
            "P": nominative,
            "G": genitive,
        }
        label = "honorific" if honorific else "ordinary"
        kind, spelling = "plain", False
        templates = (PRON if pron else NONE)[frame]
        if style == "colloquial":
            variants = COLLOQUIAL_PRON if pron else COLLOQUIAL_NONE
            if frame in variants and rng.random() < 0.6:
                templates, kind = variants[frame], f"colloquial-{frame}"
        text = templates[0 if honorific else 1].format(**fields)
        alternative = templates[1 if honorific else 0].format(
            **{
                **fields,
                "P": PRONOUNS[(not honorific, plural)][0],
                "G": PRONOUNS[(not honorific, plural)][1],
            }
        )
        if style == "colloquial":
            draw = rng.random()
            if draw < 0.03:
                text, label, kind = f"এই বাক্যটি একজন {gen} কথা বলছে।", "unreadable", "comment"
                plural = False
            elif draw < 0.2 and honorific and frame == "T2" and pron and kind == "plain":
                slip = "তার" if not plural else "তাদের"
                text = text.replace(genitive, slip, 1)
                # the spec's ruling 6: তার in the honorific verb's clause is তাঁর misspelled
                # (mixed, flagged as spelling, before bn-register-rules/4)
                kind = "chandrabindu-slip"
        elif style == "chatty" and rng.random() < 0.5:
            text, kind = _note(rng, text, alternative, frame, honorific, pron)
        if label == "honorific" and RELATIVE_ORDINARY in text:
            # ruling 5: the relative যার is ordinary evidence, in a clause of its own beside
            # the honorific ছিলেন (honorific before bn-register-rules/4); a spelling slip
            label, spelling = "mixed", True
        out.append(
            Simulated(item, text, label, plural and pron and label != "unreadable", spelling, kind)
        )
    return out
