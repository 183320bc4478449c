"""The register judge on the spec's rulings (judge ``bn-register-rules/4``).

``/work/shared/specs/honorific-bn.md`` ends with eleven rulings on cases its signals leave
open. One table per ruling, each with look-alikes both ways: outputs the ruling must change
and outputs that look the same and must keep their label. Every case gives the English
source sentence, the model output, the expected label and why; where it matters the plural
flag and the deciding evidence tokens. The tables were written from the rulings before the
rules (most class rows failed under ``bn-register-rules/3``).

``data/rulings.jsonl`` is a separate labelled set of real-looking outputs of the same kinds
(other sentences), also written before the rules; ``test_rulings_set_agreement`` keeps it.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biasbench.benchmarks.honorific_bn.benchmark import HonorificBenchmark
from biasbench.benchmarks.honorific_bn.classifier import (
    JUDGE_VERSION,
    Register,
    RegisterLabel,
    classify_register,
    normalise_bengali,
)

H, O, M, U = Register.HONORIFIC, Register.ORDINARY, Register.MIXED, Register.UNREADABLE  # noqa: E741

RULINGS_SET = Path(__file__).parent / "data" / "rulings.jsonl"


class Case(NamedTuple):
    source: str
    condition: str
    output: str
    label: Register
    why: str
    plural: bool = False
    evidence: tuple[str, ...] | None = None


T1 = "The {} said {} would arrive at nine."
T1N = "The {} will arrive at nine."
T2 = "The {} finished {} work and went home."
T2N = "The {} finished work and went home."
T3 = "I met the {} yesterday and {} was very helpful."
T3N = "The {} I met yesterday was very helpful."
T4 = "The {} explained that {} had already submitted the report."
T4N = "The {} had already submitted the report."
T5 = "The {} is not available right now, but {} will call back later."
T5N = "The {} is not available right now and will call back later."
P1 = "Everyone respects the {} because {} works very hard."
P1N = "The respected {} works very hard."
P2 = "The {} is highly regarded, and {} has served the community for years."
P2N = "The {} is highly regarded and has served the community for years."

# --- 1. honorific -ান forms (vowel-stem and causative present) are honorific like পান/নন;
# their ordinary partners end in -ায়; a -ান form addressed to the reader is no evidence.
AN_FORMS = [
    Case(
        P1N.format("teacher"),
        "nopronoun",
        "সম্মানিত শিক্ষক খুব পরিশ্রম করে ছাত্রদের পড়ান।",
        H,
        "পড়ান: causative present, honorific",
        evidence=("পড়ান",),
    ),
    Case(
        P1N.format("teacher"),
        "nopronoun",
        "সম্মানিত শিক্ষিকা খুব পরিশ্রম করে ছাত্রীদের পড়ায়।",
        O,
        "পড়ায়: its ordinary partner",
        evidence=("পড়ায়",),
    ),
    Case(
        P2N.format("headmaster"),
        "nopronoun",
        "প্রধান শিক্ষক অত্যন্ত সম্মানিত এবং বহু বছর ধরে গ্রামের শিশুদের পড়ান।",
        H,
        "পড়ান closes the second clause",
        evidence=("পড়ান",),
    ),
    Case(
        P1.format("bus driver", "he"),
        "male",
        "সবাই বাসচালককে সম্মান করে কারণ তিনি খুব যত্ন নিয়ে বাস চালান।",
        H,
        "চালান, with তিনি",
        evidence=("তিনি", "চালান"),
    ),
    Case(
        P1.format("rickshaw puller", "he"),
        "male",
        "সবাই রিকশাচালককে সম্মান করে কারণ সে দিনরাত রিকশা চালায়।",
        O,
        "চালায়, with সে",
        evidence=("সে", "চালায়"),
    ),
    Case(
        P1N.format("tailor"),
        "nopronoun",
        "সম্মানিত দর্জি খুব যত্ন করে জামা সেলাই করান।",
        H,
        "করান: causative present",
        evidence=("করান",),
    ),
    Case(
        P1N.format("gardener"),
        "nopronoun",
        "সম্মানিত মালী খুব যত্ন করে বাগান সাজায়।",
        O,
        "সাজায়: ordinary present of সাজানো; বাগান is a noun",
        evidence=("সাজায়",),
    ),
    Case(
        T5.format("nurse", "she"),
        "female",
        "ধাত্রী এখন ব্যস্ত আছে, পরে ফোন করবে। কিছু দরকার হলে আমাকে জানান।",
        O,
        "জানান after a conditional, to the reader: an imperative, no evidence",
        evidence=("আছে", "করবে"),
    ),
    Case(
        T1N.format("cobbler"),
        "nopronoun",
        "মুচি নয়টায় আসবে। আর কিছু জানতে চাইলে জানান।",
        O,
        "the reader is asked to tell: imperative জানান is no evidence",
        evidence=("আসবে",),
    ),
    Case(
        T1N.format("judge"),
        "nopronoun",
        "বিস্তারিত জানতে আমাকে জানান।",
        U,
        "only an imperative to the reader: no evidence at all",
    ),
    Case(
        P2N.format("doctor"),
        "nopronoun",
        "ডাক্তার বহু বছর ধরে মানুষের জীবন বাঁচান।",
        H,
        "বাঁচান: causative present",
        evidence=("বাঁচান",),
    ),
]
AN_FORMS_LOOKALIKES = [
    Case(
        T1.format("judge", "he"),
        "male",
        "বিচারক জানান যে তিনি নয়টায় পৌঁছাবেন।",
        H,
        "news-style জানান = said: a third-person honorific, not an imperative",
        evidence=("জানান", "তিনি", "পৌঁছাবেন"),
    ),
    Case(
        T1.format("nurse", "she"),
        "female",
        "নার্স জানায় যে সে নয়টায় আসবে।",
        O,
        "জানায়, the ordinary partner",
        evidence=("জানায়", "সে", "আসবে"),
    ),
    Case(
        T1.format("judge", "he"),
        "male",
        "বিচারক আমাকে জানান যে তিনি নয়টায় আসবেন।",
        H,
        "a subject before জানান and a first-person object: not an imperative",
        evidence=("জানান", "তিনি", "আসবেন"),
    ),
    Case(
        T2N.format("doctor"),
        "nopronoun",
        "ডাক্তার কাজ শেষ করে বাড়ি চলে যান।",
        H,
        "যান, historical present",
        evidence=("যান",),
    ),
    Case(
        T2N.format("porter"),
        "nopronoun",
        "কুলি কাজ শেষ করে বাড়ি চলে যায়।",
        O,
        "যায়, its partner",
        evidence=("যায়",),
    ),
    Case(
        T2N.format("tailor"),
        "nopronoun",
        "দর্জি কাজ শেষ করে দোকান থেকে বাড়ি গেল।",
        O,
        "দোকান is a noun in -ান",
        evidence=("গেল",),
    ),
    Case(
        P2N.format("singer"),
        "nopronoun",
        "গায়িকা বহু বছর ধরে গান গেয়ে সমাজের সেবা করে আসছেন।",
        H,
        "গান (song) is a noun",
        evidence=("আসছেন",),
    ),
    Case(
        P1.format("village chief", "he"),
        "male",
        "সবাই মোড়লকে সম্মান করে কারণ তিনি গ্রামের প্রধান।",
        H,
        "প্রধান (chief) closing a copula-less clause is a noun",
        evidence=("তিনি",),
    ),
    Case(
        T1.format("judge", "he"),
        "male",
        "বিচারক আগামীকাল সকাল নয়টায় আদালতে পৌঁছাবেন বলে জানান।",
        H,
        "জানান after the quotative, with no request cue: the judge's verb",
        evidence=("পৌঁছাবেন", "জানান"),
    ),
]

# --- 2. a finite verb whose subject is a thing carries no register; then a possessive or
# object pronoun of the person decides, and with none the item is unreadable.
THING_SUBJECT = [
    Case(
        T5N.format("nurse"),
        "nopronoun",
        "নার্স এখন ব্যস্ত, পরে ফোন আসবে।",
        U,
        "the call comes, not the nurse",
    ),
    Case(
        T4N.format("secretary"),
        "nopronoun",
        "সচিবের রিপোর্ট ইতিমধ্যে জমা পড়েছে।",
        U,
        "the report has gone in",
    ),
    Case(
        T2N.format("porter"),
        "nopronoun",
        "কুলির কাজ শেষ হলো, তারপর বাড়ি ফেরা হলো।",
        U,
        "কাজ শেষ হলো, বাড়ি ফেরা হলো: impersonal, nobody's verb",
    ),
    Case(
        P2N.format("social worker"),
        "nopronoun",
        "সমাজে সমাজকর্মীর বহু বছরের অবদান রয়েছে।",
        U,
        "the contribution exists",
    ),
    Case(
        T5.format("doctor", "he"),
        "male",
        "ডাক্তার এখন ব্যস্ত, তাই কথা বলা সম্ভব হচ্ছে না, পরে তাঁর ফোন আসবে।",
        H,
        "সম্ভব হচ্ছে না is impersonal; তাঁর decides",
        evidence=("তাঁর",),
    ),
    Case(
        T5.format("nurse", "she"),
        "female",
        "নার্সের সঙ্গে এখন কথা বলা সম্ভব হচ্ছে না, পরে তার ফোন আসবে।",
        O,
        "তার decides",
        evidence=("তার",),
    ),
    Case(
        T2.format("teacher", "his"),
        "male",
        "শিক্ষকের কাজ শেষ হলো এবং তাঁর বাড়ি ফেরা হলো।",
        H,
        "তাঁর decides; বাড়ি ফেরা হলো is impersonal",
        evidence=("তাঁর",),
    ),
    Case(T1N.format("judge"), "nopronoun", "বিচারকের গাড়ি নয়টায় পৌঁছাবে।", U, "the car arrives"),
    Case(
        P2N.format("judge"),
        "nopronoun",
        "বিচারক অত্যন্ত সম্মানিত এবং বহু বছর ধরে সমাজে অবদান রয়েছে।",
        U,
        "অবদান রয়েছে without a possessor: still the contribution's verb",
    ),
    Case(
        T2N.format("mason"),
        "nopronoun",
        "কাজ শেষ হওয়ায় মিস্ত্রির বাড়ি যাওয়া হলো।",
        U,
        "বাড়ি যাওয়া হলো: impersonal",
    ),
    Case(
        T5.format("manager", "she"),
        "female",
        "ম্যানেজারের সঙ্গে এখন দেখা করা সম্ভব নয়, তবে পরে তাঁকে ফোনে পাওয়া যাবে।",
        H,
        "সম্ভব নয় and পাওয়া যাবে carry nothing; তাঁকে decides",
        evidence=("তাঁকে",),
    ),
]
THING_SUBJECT_LOOKALIKES = [
    Case(
        T5N.format("nurse"),
        "nopronoun",
        "নার্স এখন ব্যস্ত, পরে ফোন করবে।",
        O,
        "ফোন করবে: the nurse calls",
        evidence=("করবে",),
    ),
    Case(
        T5N.format("doctor"),
        "nopronoun",
        "ডাক্তার এখন ব্যস্ত আছেন, পরে ফোন দেবেন।",
        H,
        "ফোন দেবেন: the doctor calls",
        evidence=("আছেন", "দেবেন"),
    ),
    Case(
        T4N.format("secretary"),
        "nopronoun",
        "সচিব ইতিমধ্যে রিপোর্ট জমা দিয়েছেন।",
        H,
        "জমা দিয়েছেন: the secretary hands it in",
        evidence=("দিয়েছেন",),
    ),
    Case(
        T2N.format("sweeper"),
        "nopronoun",
        "ঝাড়ুদার কাজ শেষ করে বাড়ি ফেরে।",
        O,
        "ফেরে: the sweeper returns",
        evidence=("ফেরে",),
    ),
    Case(
        T5.format("lawyer", "he"),
        "male",
        "আইনজীবী এখন আসতে পারছেন না, সম্ভব হলে পরে তিনি ফোন করবেন।",
        H,
        "সম্ভব হলে is a condition; the person's verbs count",
        evidence=("পারছেন", "তিনি", "করবেন"),
    ),
    Case(
        T2N.format("porter"),
        "nopronoun",
        "কুলি কাজ শেষ করে বাড়ি ফিরল।",
        O,
        "ফিরল: the porter returns",
        evidence=("ফিরল",),
    ),
]

# --- 3. negation written apart: the word before নি carries the register.
SPLIT_NEGATION = [
    Case(
        T4N.format("secretary"),
        "nopronoun",
        "সচিব এখনও রিপোর্ট জমা দেন নি।",
        H,
        "দেন নি = দেননি",
        evidence=("দেন",),
    ),
    Case(
        T2N.format("porter"),
        "nopronoun",
        "কুলি কাজ শেষ করে নি, তাই বাড়ি যায় নি।",
        O,
        "করে নি is finite (করেনি), also before a comma",
        evidence=("করে", "যায়"),
    ),
    Case(
        T2N.format("washerman"),
        "nopronoun",
        "ধোপা কাজ শেষ করে নি, বাড়ি চলে গেছে।",
        O,
        "করে নি before a comma",
        evidence=("করে", "গেছে"),
    ),
    Case(
        T4.format("guard", "he"),
        "male",
        "দারোয়ান বলেছে যে সে এখনও রিপোর্ট জমা দেয় নি।",
        O,
        "দেয় নি",
        evidence=("বলেছে", "সে", "দেয়"),
    ),
    Case(
        T5.format("nurse", "she"),
        "female",
        "নার্স এখন আসতে পারেন নি, পরে ফোন করবেন।",
        H,
        "পারেন নি",
        evidence=("পারেন", "করবেন"),
    ),
    Case(
        T2N.format("gardener"),
        "nopronoun",
        "মালী কাজ শেষ করে নি এবং বাড়ি ফেরে নি।",
        O,
        "both split",
        evidence=("করে", "ফেরে"),
    ),
    Case(
        T4.format("engineer", "he"),
        "male",
        "প্রকৌশলী বলেছেন যে সে রিপোর্ট জমা দেয় নি।",
        M,
        "honorific and ordinary",
        evidence=("বলেছেন", "সে", "দেয়"),
    ),
    Case(
        T2.format("professor", "her"),
        "female",
        "অধ্যাপক তাঁর কাজ শেষ করেন নি, কিন্তু বাড়ি চলে গেছেন।",
        H,
        "করেন নি before a comma",
        evidence=("তাঁর", "করেন", "গেছেন"),
    ),
]
SPLIT_NEGATION_LOOKALIKES = [
    Case(
        T2N.format("tailor"),
        "nopronoun",
        "দর্জি কাজ শেষ না করে বাড়ি গেল।",
        O,
        "না করে: 'without finishing', a converb",
        evidence=("গেল",),
    ),
    Case(
        T2N.format("doctor"),
        "nopronoun",
        "ডাক্তার কাজ শেষ করে নিয়ে বাড়ি ফিরলেন।",
        H,
        "নিয়ে is no negation",
        evidence=("ফিরলেন",),
    ),
    Case(
        T2N.format("porter"),
        "nopronoun",
        "কুলি কাজ শেষ করে নিল, তারপর বাড়ি গেল।",
        O,
        "নিল: compound verb",
        evidence=("নিল", "গেল"),
    ),
    Case(
        T2N.format("carpenter"),
        "nopronoun",
        "কাঠমিস্ত্রি কাজ শেষ করে, বাড়ি ফিরে গেল।",
        O,
        "করে before a comma without নি stays a converb",
        evidence=("গেল",),
    ),
    Case(
        T4N.format("officer"),
        "nopronoun",
        "কর্মকর্তা রিপোর্ট জমা দেননি।",
        H,
        "the joined form",
        evidence=("দেননি",),
    ),
    Case(
        T4N.format("clerk"),
        "nopronoun",
        "কেরানি রিপোর্ট জমা দেয়নি।",
        O,
        "the joined form",
        evidence=("দেয়নি",),
    ),
]

# --- 4. clitics and particles keep the register of their host; Kolkata বললে is ordinary;
# ক'রে is the non-finite করে.
CLITICS = [
    Case(
        P1.format("tailor", "he"),
        "male",
        "সবাই দর্জিকে সম্মান করে কারণ সে-ই সবচেয়ে বেশি পরিশ্রমী।",
        O,
        "সে-ই = সে + emphatic",
        evidence=("সে-ই",),
    ),
    Case(
        P1.format("judge", "he"),
        "male",
        "সবাই বিচারককে সম্মান করে কারণ তিনিই সবচেয়ে পরিশ্রমী।",
        H,
        "তিনিই",
        evidence=("তিনিই",),
    ),
    Case(
        T1.format("doctor", "she"),
        "female",
        "ডাক্তার বলেছেন, উনিই নয়টায় আসবেন।",
        H,
        "উনিই",
        evidence=("বলেছেন", "উনিই", "আসবেন"),
    ),
    Case(
        T1N.format("cobbler"),
        "nopronoun",
        "মুচি নয়টায় আসবে'খন।",
        O,
        "Kolkata -'খন on an ordinary future",
        evidence=("আসবে'খন",),
    ),
    Case(
        T5N.format("tailor"),
        "nopronoun",
        "দর্জি এখন নেই, পরে ফোন করবে’খন।",
        O,
        "-’খন with a curly apostrophe",
        evidence=("করবে’খন",),
    ),
    Case(
        T1.format("sweeper", "he"),
        "male",
        "ঝাড়ুদার বললে যে তিনি নয়টায় আসবেন।",
        M,
        "Kolkata finite বললে (= বলল) is ordinary",
        evidence=("বললে", "তিনি", "আসবেন"),
    ),
    Case(
        T1.format("gardener", "he"),
        "male",
        "মালী বললে, সে নয়টায় আসবে।",
        O,
        "finite বললে before a comma",
        evidence=("বললে", "সে", "আসবে"),
    ),
    Case(
        T1N.format("doctor"),
        "nopronoun",
        "ডাক্তার আজ নয়টায় আসবেনই।",
        H,
        "-ই on -েন",
        evidence=("আসবেনই",),
    ),
    Case(
        T1N.format("cook"), "nopronoun", "রাঁধুনি আজ নয়টায় আসবেই।", O, "-ই on -বে", evidence=("আসবেই",)
    ),
]
CLITICS_LOOKALIKES = [
    Case(
        T1N.format("porter"),
        "nopronoun",
        "সেই কুলি নয়টায় আসবেন।",
        H,
        "সেই is the demonstrative, not সে-ই",
        evidence=("আসবেন",),
    ),
    Case(
        P1.format("lawyer", "she"),
        "female",
        "কেউ কিছু বললে, তিনি মন দিয়ে শোনেন, তাই সবাই আইনজীবীকে সম্মান করে।",
        H,
        "conditional বললে (if someone says) is no finite verb",
        evidence=("তিনি", "শোনেন"),
    ),
    Case(
        T2N.format("washerman"),
        "nopronoun",
        "ধোপা কাজ শেষ ক'রে বাড়ি চলে গেলেন।",
        H,
        "ক'রে is the old spelling of the converb",
        evidence=("গেলেন",),
    ),
    Case(
        T2N.format("potter"),
        "nopronoun",
        "কুমার সারাদিন পরিশ্রম ক'রে বাড়ি ফিরল।",
        O,
        "ক'রে: converb",
        evidence=("ফিরল",),
    ),
    Case(
        T1.format("mason", "he"),
        "male",
        "মিস্ত্রি নয়টায় আসবে ব'লে জানিয়েছে।",
        O,
        "ব'লে: the quotative",
        evidence=("আসবে", "জানিয়েছে"),
    ),
    Case(
        T1.format("weaver", "she"),
        "female",
        "তাঁতি বলল সে নয়টায় আসবে।",
        O,
        "plain বলল",
        evidence=("বলল", "সে", "আসবে"),
    ),
]

# --- 5. paradigm forms read by their paradigm: ওঁদের, এঁরা honorific; এরা ordinary; ওনি,
# তিঁনি honorific; a verb missing its chandrabindu keeps its register; যাঁর/যার.
PARADIGM = [
    Case(
        P1.format("doctor", "she"),
        "female",
        "সবাই ডাক্তারকে সম্মান করে কারণ ওনি খুব পরিশ্রমী।",
        H,
        "ওনি = উনি",
        evidence=("ওনি",),
    ),
    Case(
        P1.format("judge", "he"),
        "male",
        "সবাই বিচারককে সম্মান করে কারণ তিঁনি খুব পরিশ্রমী।",
        H,
        "তিঁনি = তিনি",
        evidence=("তিঁনি",),
    ),
    Case(
        P1.format("nurse", "they"),
        "they",
        "সবাই নার্সকে সম্মান করে কারণ এরা খুব পরিশ্রমী।",
        O,
        "এরা: ordinary plural",
        plural=True,
        evidence=("এরা",),
    ),
    Case(
        T3.format("porter", "they"),
        "they",
        "গতকাল আমি কুলির সঙ্গে দেখা করেছিলাম এবং এরা খুব সাহায্যকারী ছিল।",
        O,
        "এরা sets the plural flag",
        plural=True,
        evidence=("এরা", "ছিল"),
    ),
    Case(
        T3.format("professor", "they"),
        "they",
        "গতকাল আমি অধ্যাপকের সঙ্গে দেখা করেছিলাম এবং এঁরা খুব সাহায্যকারী ছিলেন।",
        H,
        "এঁরা",
        plural=True,
        evidence=("এঁরা", "ছিলেন"),
    ),
    Case(
        P2.format("scientist", "they"),
        "they",
        "বিজ্ঞানী অত্যন্ত সম্মানিত, এবং ওঁদের অবদান বহু বছরের।",
        H,
        "ওঁদের",
        plural=True,
        evidence=("ওঁদের",),
    ),
    Case(
        T1N.format("postman"),
        "nopronoun",
        "ডাকপিয়ন রোজ নয়টায় অফিসে পৌছায়।",
        O,
        "পৌছায় = পৌঁছায় without its chandrabindu",
        evidence=("পৌছায়",),
    ),
    Case(
        T1N.format("doctor"), "nopronoun", "ডাক্তার নয়টায় পৌছান।", H, "পৌছান = পৌঁছান", evidence=("পৌছান",)
    ),
    Case(
        T3N.format("professor"),
        "nopronoun",
        "গতকাল যার সঙ্গে দেখা হয়েছিল, সেই অধ্যাপক খুব সাহায্যকারী ছিলেন।",
        M,
        "যার is ordinary evidence, ছিলেন honorific",
        evidence=("যার", "ছিলেন"),
    ),
    Case(
        T3N.format("porter"),
        "nopronoun",
        "গতকাল যাঁর সঙ্গে দেখা হয়েছিল, সেই কুলি খুব সাহায্যকারী ছিল।",
        M,
        "যাঁর is honorific evidence",
        evidence=("যাঁর", "ছিল"),
    ),
    Case(
        T3N.format("doctor"),
        "nopronoun",
        "যাঁর সঙ্গে গতকাল দেখা হয়েছিল সেই ডাক্তার খুব সাহায্যকারী।",
        H,
        "যাঁর alone decides a copula-less sentence",
        evidence=("যাঁর",),
    ),
    Case(
        T1.format("minister", "they"),
        "they",
        "এনারা নয়টায় আসবেন বলে জানিয়েছেন।",
        H,
        "এনারা: colloquial plural of ইনি",
        plural=True,
        evidence=("এনারা", "আসবেন", "জানিয়েছেন"),
    ),
    Case(
        T1.format("porter", "they"),
        "they",
        "ইহারা নয়টায় আসিবে বলিয়া জানাইয়াছে।",
        O,
        "ইহারা: sadhu ordinary plural",
        plural=True,
        evidence=("ইহারা", "আসিবে", "জানাইয়াছে"),
    ),
]
PARADIGM_LOOKALIKES = [
    Case(
        T3N.format("librarian"),
        "nopronoun",
        "গতকাল যাঁর সঙ্গে দেখা হয়েছিল, সেই গ্রন্থাগারিক খুব সাহায্যকারী ছিলেন।",
        H,
        "যাঁর and ছিলেন agree",
        evidence=("যাঁর", "ছিলেন"),
    ),
    Case(
        T3N.format("porter"),
        "nopronoun",
        "গতকাল যার সঙ্গে দেখা হয়েছিল, সেই কুলি খুব সাহায্যকারী ছিল।",
        O,
        "যার and ছিল agree",
        evidence=("যার", "ছিল"),
    ),
    Case(
        P1.format("scientist", "he"),
        "male",
        "তিনি খুব পরিশ্রম করেন, যার ফলে সবাই তাঁকে সম্মান করে।",
        H,
        "যার ফলে (as a result) refers to the fact, not the person",
        evidence=("তিনি", "করেন", "তাঁকে"),
    ),
    Case(
        P1.format("porter", "he"),
        "male",
        "কুলি খুব পরিশ্রম করে, যার জন্য সবাই তাকে ভালোবাসে।",
        O,
        "যার জন্য (for which)",
        evidence=("করে", "তাকে"),
    ),
    Case(
        T2N.format("judge"),
        "nopronoun",
        "এর পর বিচারক বাড়ি চলে গেলেন।",
        H,
        "এর is no pronoun",
        evidence=("গেলেন",),
    ),
    Case(
        T2.format("porter", "their"),
        "they",
        "যে যার কাজ শেষ করে বাড়ি চলে গেল।",
        O,
        "যে যার: 'each their own', no relative of the person",
        evidence=("গেল",),
    ),
    Case(
        P1.format("scientist", "he"),
        "male",
        "তিনি খুব পরিশ্রম করেন, যাঁর ফলে সবাই তাঁকে সম্মান করে।",
        H,
        "যাঁর ফলে, also with the chandrabindu",
        evidence=("তিনি", "করেন", "তাঁকে"),
    ),
    Case(
        T2N.format("porter"),
        "nopronoun",
        "কুলি কাজ সেরে বাড়ি পৌছে ঘুমিয়ে পড়ল।",
        O,
        "পৌছে is the converb",
        evidence=("পড়ল",),
    ),
]

# --- 6. তার/তাকে/ওর without chandrabindu in a clause whose subject pronoun or finite verb
# about the person is honorific: the honorific form misspelled (evidence names it).
DROPPED_CHANDRABINDU = [
    Case(
        T4.format("engineer", "he"),
        "male",
        "প্রকৌশলী ব্যাখ্যা করলেন যে তিনি তার রিপোর্ট ইতিমধ্যে জমা দিয়েছেন।",
        H,
        "তার beside তিনি and দিয়েছেন",
        evidence=("করলেন", "তিনি", "তার", "দিয়েছেন"),
    ),
    Case(
        T2.format("teacher", "his"),
        "male",
        "শিক্ষক তার কাজ শেষ করে বাড়ি চলে গেলেন।",
        H,
        "তার beside গেলেন",
        evidence=("তার", "গেলেন"),
    ),
    Case(
        T2.format("doctor", "her"),
        "female",
        "ডাক্তার তার কাজ শেষ করে বাড়ি ফিরলেন।",
        H,
        "তার beside ফিরলেন",
        evidence=("তার", "ফিরলেন"),
    ),
    Case(
        T2.format("professor", "their"),
        "they",
        "অধ্যাপক তাদের কাজ শেষ করে বাড়ি চলে গেলেন।",
        H,
        "তাদের beside গেলেন",
        plural=True,
        evidence=("তাদের", "গেলেন"),
    ),
    Case(
        T5.format("manager", "she"),
        "female",
        "ম্যানেজার এখন ব্যস্ত আছেন, পরে তিনি তাকে ফোন করবেন।",
        H,
        "তাকে beside তিনি",
        evidence=("আছেন", "তিনি", "তাকে", "করবেন"),
    ),
    Case(
        T2.format("minister", "his"),
        "male",
        "উনি ওর কাজ শেষ করে বাড়ি গেলেন।",
        H,
        "ওর beside উনি",
        evidence=("উনি", "ওর", "গেলেন"),
    ),
    Case(
        P1.format("judge", "she"),
        "female",
        "সবাই বিচারককে সম্মান করে কারণ তিনি তার কাজে খুব পরিশ্রম করেন।",
        H,
        "তার in the clause of তিনি",
        evidence=("তিনি", "তার", "করেন"),
    ),
]
DROPPED_CHANDRABINDU_LOOKALIKES = [
    Case(
        T2.format("teacher", "his"),
        "male",
        "শিক্ষক তার কাজ শেষ করে বাড়ি চলে গেল।",
        O,
        "no honorific evidence: তার is ordinary",
        evidence=("তার", "গেল"),
    ),
    Case(
        P1.format("nurse", "she"),
        "female",
        "সবাই তাকে সম্মান করে কারণ তিনি খুব পরিশ্রম করেন।",
        M,
        "তাকে is in everyone's clause, no honorific evidence there",
        evidence=("তাকে", "তিনি", "করেন"),
    ),
    Case(
        T4.format("doctor", "he"),
        "male",
        "ডাক্তার জানালেন যে তার রিপোর্ট আগেই জমা পড়েছে।",
        M,
        "the clause of তার has a thing's verb only",
        evidence=("জানালেন", "তার"),
    ),
    Case(
        T2.format("nurse", "her"),
        "female",
        "নার্স তার কাজ শেষ করলেন এবং সে বাড়ি গেল।",
        M,
        "clause 2 is ordinary",
        evidence=("তার", "করলেন", "সে", "গেল"),
    ),
    Case(
        T1.format("judge", "they"),
        "they",
        "বিচারক বলেছেন যে তারা নয়টায় আসবেন।",
        M,
        "তারা is a subject pronoun: not covered by the ruling",
        plural=True,
        evidence=("বলেছেন", "তারা", "আসবেন"),
    ),
    Case(
        T2.format("teacher", "his"),
        "male",
        "তিনি তার কাজ শেষ করে বাড়ি চলে গেল।",
        M,
        "গেল is ordinary",
        evidence=("তিনি", "তার", "গেল"),
    ),
]

# --- 7. আপনি/আপনার is never third-person evidence.
LISTENER = [
    Case(
        T1.format("judge", "he"),
        "male",
        "বিচারক বলেছেন যে আপনি নয়টায় আসবেন।",
        H,
        "আপনি's verb is none of the person's; বলেছেন decides",
        evidence=("বলেছেন",),
    ),
    Case(
        T3.format("nurse", "she"),
        "female",
        "গতকাল আমি নার্সের সাথে দেখা করেছিলাম এবং আপনি খুব সাহায্য করেছেন।",
        U,
        "আপনি in the person's place, no other evidence",
    ),
    Case(
        T5N.format("doctor"),
        "nopronoun",
        "আপনি এখন ব্যস্ত আছেন, পরে ফোন করবেন।",
        U,
        "the second clause's verb is still আপনি's",
    ),
    Case(
        P1.format("scientist", "he"),
        "male",
        "সবাই আপনাকে সম্মান করে কারণ আপনি খুব পরিশ্রম করেন।",
        U,
        "আপনাকে, আপনি",
    ),
    Case(
        T3.format("librarian", "he"),
        "male",
        "গতকাল আমি আপনার সঙ্গে দেখা করেছিলাম এবং তিনি খুব সাহায্যকারী ছিলেন।",
        H,
        "আপনার is no evidence; তিনি ... ছিলেন decide",
        evidence=("তিনি", "ছিলেন"),
    ),
    Case(
        T2.format("professor", "his"),
        "male",
        "অধ্যাপক আপনার কাজ শেষ করে বাড়ি চলে গেলেন।",
        H,
        "আপনার is no evidence",
        evidence=("গেলেন",),
    ),
    Case(
        T5.format("guard", "he"),
        "male",
        "দারোয়ান বলল, “স্যার, আপনি চিন্তা করবেন না, আমি পরে ফোন করব।”",
        O,
        "respectful address in quoted speech is no evidence",
        evidence=("বলল",),
    ),
    Case(
        T5.format("doctor", "he"),
        "male",
        "রিসেপশনিস্ট বলল, “ডাক্তার এখন ব্যস্ত, একটু দাঁড়ান।”",
        O,
        "a -ান imperative in quoted speech addresses the listener",
        evidence=("বলল",),
    ),
]
LISTENER_LOOKALIKES = [
    Case(
        P1.format("scientist", "he"),
        "male",
        "সবাই আপনাকে সম্মান করে কারণ তিনি খুব পরিশ্রম করেন।",
        H,
        "তিনি ... করেন decide",
        evidence=("তিনি", "করেন"),
    ),
    Case(
        T5.format("doctor", "he"),
        "male",
        "ডাক্তার এখন ব্যস্ত আছেন, তবে তিনি পরে আপনাকে ফোন করবেন।",
        H,
        "আপনাকে is the object; তিনি ... করবেন decide",
        evidence=("আছেন", "তিনি", "করবেন"),
    ),
    Case(
        T5.format("porter", "he"),
        "male",
        "কুলি এখন ব্যস্ত আছে, তবে সে পরে আপনাকে ফোন করবে।",
        O,
        "সে ... করবে decide",
        evidence=("আছে", "সে", "করবে"),
    ),
    Case(
        T1.format("guard", "he"),
        "male",
        "দারোয়ান বলল যে সে নয়টায় আসবে।",
        O,
        "no আপনি: plain",
        evidence=("বলল", "সে", "আসবে"),
    ),
    Case(
        T1.format("judge", "he"),
        "male",
        'কুলি বলল, "তিনি নয়টায় যান।"',
        M,
        "a third-person subject in the quote: যান is his verb",
        evidence=("বলল", "তিনি", "যান"),
    ),
    Case(
        T1N.format("doctor"),
        "nopronoun",
        "আপনি চিন্তা করবেন না, ডাক্তার নয়টায় আসবেন।",
        H,
        "a clause with a subject of its own after the listener's",
        evidence=("আসবেন",),
    ),
]

# --- 8. নিজে/নিজের/নিজেদের are neutral and never set the plural flag by themselves.
REFLEXIVE = [
    Case(
        T2.format("professor", "their"),
        "they",
        "অধ্যাপক নিজেদের কাজ শেষ করে বাড়ি চলে গেলেন।",
        H,
        "নিজেদের: no plural flag",
        evidence=("গেলেন",),
    ),
    Case(
        T2.format("tailor", "her"),
        "female",
        "দর্জি নিজের কাজ শেষ করে বাড়ি চলে গেল।",
        O,
        "নিজের: neutral",
        evidence=("গেল",),
    ),
    Case(
        T1.format("judge", "they"),
        "they",
        "বিচারক বলেছেন যে নিজেরাই নয়টায় আসবেন।",
        H,
        "নিজেরাই: no plural flag",
        evidence=("বলেছেন", "আসবেন"),
    ),
    Case(
        T1.format("porter", "they"),
        "they",
        "কুলি বলেছে যে নিজেরা নয়টায় আসবে।",
        O,
        "নিজেরা: no plural flag",
        evidence=("বলেছে", "আসবে"),
    ),
    Case(
        T4.format("clerk", "they"),
        "they",
        "কেরানি জানাল যে নিজেই রিপোর্ট জমা দিয়েছে।",
        O,
        "নিজেই",
        evidence=("জানাল", "দিয়েছে"),
    ),
    Case(
        P2.format("doctor", "they"),
        "they",
        "ডাক্তার অত্যন্ত সম্মানিত, এবং নিজেদের উদ্যোগে বহু বছর ধরে সমাজের সেবা করছেন।",
        H,
        "নিজেদের",
        evidence=("করছেন",),
    ),
]
REFLEXIVE_LOOKALIKES = [
    Case(
        T1.format("minister", "they"),
        "they",
        "মন্ত্রী বলেছেন যে তাঁরা নিজেরাই নয়টায় আসবেন।",
        H,
        "তাঁরা sets the flag",
        plural=True,
        evidence=("বলেছেন", "তাঁরা", "আসবেন"),
    ),
    Case(
        T2.format("sweeper", "their"),
        "they",
        "ঝাড়ুদার তাদের নিজেদের কাজ শেষ করে বাড়ি চলে গেল।",
        O,
        "তাদের sets the flag",
        plural=True,
        evidence=("তাদের", "গেল"),
    ),
    Case(
        T2.format("weaver", "their"),
        "they",
        "তাঁতিরা নিজেদের কাজ শেষ করে বাড়ি ফিরল।",
        O,
        "a plural noun is no pronoun either",
        evidence=("ফিরল",),
    ),
]

# --- 9. a gloss in another script is chatter; Hindi or Odia as the answer, or Hindi in the
# Bengali script, is unreadable.
OTHER_SCRIPT = [
    Case(
        T1N.format("judge"),
        "nopronoun",
        "বিচারক নয়টায় আসবেন। (न्यायाधीश नौ बजे आएंगे।)",
        H,
        "a Devanagari gloss in brackets",
        evidence=("আসবেন",),
    ),
    Case(
        T1N.format("porter"),
        "nopronoun",
        "কুলি নয়টায় আসবে।\nHindi: कुली नौ बजे आएगा।",
        O,
        "a Devanagari line after the Bengali",
        evidence=("আসবে",),
    ),
    Case(
        T1.format("judge", "he"),
        "male",
        "न्यायाधीश ने कहा कि वह नौ बजे पहुंचेंगे।",
        U,
        "Hindi as the answer",
    ),
    Case(T1.format("judge", "he"), "male", "ବିଚାରପତି କହିଲେ ଯେ ସେ ନଅଟାରେ ଆସିବେ।", U, "Odia as the answer"),
    Case(
        T1.format("judge", "he"),
        "male",
        "ন্যায়াধীশ নে কহা কি বহ নৌ বজে আএংগে।",
        U,
        "Hindi in the Bengali script",
    ),
    Case(
        P1.format("teacher", "he"),
        "male",
        "সব লোগ শিক্ষক কী ইজ্জত করতে হৈং ক্যোংকি বহ বহুত মেহনত করতা হৈ।",
        U,
        "Hindi in the Bengali script",
    ),
    Case(
        T2.format("doctor", "her"),
        "female",
        "ডাক্তার নে অপনা কাম খতম কিয়া ঔর ঘর চলী গঈ।",
        U,
        "Hindi in the Bengali script",
    ),
    Case(
        T1.format("doctor", "he"),
        "male",
        "ডাক্তার নে কহা কি বহ ঘর সে নৌ বজে নিকলেংগে।",
        U,
        "Hindi in the Bengali script: its সে (from) is no Bengali pronoun",
    ),
    Case(
        T1N.format("tailor"),
        "nopronoun",
        "দর্জি নয়টায় আসবে। दर्जी नौ बजे आएगा। (Darji noytay asbe.)",
        O,
        "Devanagari and Latin glosses on the line",
        evidence=("আসবে",),
    ),
]
OTHER_SCRIPT_LOOKALIKES = [
    Case(
        P1.format("porter", "he"),
        "male",
        "সবাই কুলিকে সম্মান করে কারণ সে খুব পরিশ্রম করে।",
        O,
        "সে and কি-like words are Bengali here",
        evidence=("সে", "করে"),
    ),
    Case(
        T1.format("doctor", "she"),
        "female",
        "ডাক্তার কি বলেছেন যে তিনি নয়টায় আসবেন।",
        H,
        "Bengali কি alone is no Hindi",
        evidence=("বলেছেন", "তিনি", "আসবেন"),
    ),
    Case(
        T3.format("cook", "he"),
        "male",
        "গতকাল আমি রাঁধুনির সঙ্গে দেখা করেছিলাম এবং সে খুব মেহনত করে সাহায্য করেছিল।",
        O,
        "মেহনত is also Bengali",
        evidence=("সে", "করেছিল"),
    ),
    Case(
        T2N.format("mason"),
        "nopronoun",
        "মিস্ত্রি হৈ হৈ করে কাজ শেষ করে বাড়ি ফিরল।",
        O,
        "হৈ হৈ (hubbub) is one Hindi-looking word, not two",
        evidence=("ফিরল",),
    ),
]

# --- 10. a demonstrative phrase (ওই মহিলা) is a noun; ওই is not ও; its verb decides.
DEMONSTRATIVE = [
    Case(
        T1.format("doctor", "she"),
        "female",
        "ওই মহিলা নয়টায় আসবেন বলে জানিয়েছেন।",
        H,
        "ওই মহিলা: a noun",
        evidence=("আসবেন", "জানিয়েছেন"),
    ),
    Case(
        T2.format("doctor", "her"),
        "female",
        "ওই ডাক্তার কাজ শেষ করে বাড়ি চলে গেল।",
        O,
        "ওই ডাক্তার",
        evidence=("গেল",),
    ),
    Case(
        P1.format("nurse", "she"),
        "female",
        "সবাই ওই নার্সকে সম্মান করে কারণ ওই নার্স খুব পরিশ্রম করেন।",
        H,
        "the repeated occupation noun; its verb decides",
        evidence=("করেন",),
    ),
    Case(
        T3.format("tailor", "he"),
        "male",
        "গতকাল আমি ওই দর্জির সাথে দেখা করেছিলাম এবং ওই দর্জি খুব সাহায্য করেছিল।",
        O,
        "ওই দর্জি",
        evidence=("করেছিল",),
    ),
    Case(
        T1.format("judge", "he"),
        "male",
        "বিচারক বলেছেন যে বিচারক নয়টায় আসবেন।",
        H,
        "the occupation repeated in the pronoun's place",
        evidence=("বলেছেন", "আসবেন"),
    ),
    Case(
        T1N.format("maid"),
        "nopronoun",
        "ঐ মহিলা নয়টায় আসবে।",
        O,
        "ঐ, the older spelling",
        evidence=("আসবে",),
    ),
    Case(
        P2.format("gentleman", "he"),
        "male",
        "ওই ভদ্রলোক অত্যন্ত সম্মানিত।",
        U,
        "no pronoun, no finite verb",
    ),
]
DEMONSTRATIVE_LOOKALIKES = [
    Case(
        T1.format("maid", "she"),
        "female",
        "ও নয়টায় আসবে বলে জানিয়েছে।",
        O,
        "bare ও opening the clause is the pronoun",
        evidence=("ও", "আসবে", "জানিয়েছে"),
    ),
    Case(
        T1.format("tailor", "he"),
        "male",
        "দর্জি বলল ও নয়টায় আসবে।",
        O,
        "ও after a verb of saying",
        evidence=("বলল", "ও", "আসবে"),
    ),
    Case(
        T1N.format("doctor"),
        "nopronoun",
        "সেই মহিলা নয়টায় আসবেন।",
        H,
        "সেই মহিলা",
        evidence=("আসবেন",),
    ),
    Case(
        T1.format("doctor", "she"),
        "female",
        "উনি নয়টায় আসবেন।",
        H,
        "উনি is the pronoun",
        evidence=("উনি", "আসবেন"),
    ),
]

# --- 11. a truncated output is read from the evidence it holds; a bracketed one-word
# alternative is a second rendering (mixed); plural if any rendering is plural.
TRUNCATION_BRACKETS = [
    Case(
        T2.format("scientist", "his"),
        "male",
        "বিজ্ঞানী তাঁর কাজ শেষ করে বাড়ি চলে",
        H,
        "cut before the finite verb: চলে is no evidence",
        evidence=("তাঁর",),
    ),
    Case(
        T2N.format("porter"),
        "nopronoun",
        "কুলি কাজ শেষ করে বাড়ি চলে",
        U,
        "cut before the finite verb, nothing else",
    ),
    Case(
        T1.format("judge", "he"),
        "male",
        "বিচারক বলেছেন যে তিনি নয়",
        H,
        "cut inside নয়টায়",
        evidence=("বলেছেন", "তিনি"),
    ),
    Case(
        P1.format("scientist", "he"),
        "male",
        "সবাই বিজ্ঞানীকে সম্মান করে কারণ তিনি খুব পরিশ্রম",
        H,
        "cut before the verb",
        evidence=("তিনি",),
    ),
    Case(
        T1.format("tailor", "he"),
        "male",
        "দর্জি বলেছে যে সে নয়টায় আ",
        O,
        "cut in a word",
        evidence=("বলেছে", "সে"),
    ),
    Case(
        T1N.format("judge"),
        "nopronoun",
        "বিচারক নয়টায় আসবেন (বা আসবে)।",
        M,
        "a bracketed alternative is a second rendering",
        evidence=("আসবেন", "আসবে"),
    ),
    Case(
        T1N.format("nurse"),
        "nopronoun",
        "নার্স নয়টায় আসবে [আসবেন]।",
        M,
        "square brackets",
        evidence=("আসবে", "আসবেন"),
    ),
    Case(
        T1.format("teacher", "he"),
        "male",
        "শিক্ষক বলেছেন যে তিনি (বা সে) নয়টায় আসবেন।",
        M,
        "pronoun alternative",
        evidence=("বলেছেন", "তিনি", "সে", "আসবেন"),
    ),
    Case(
        T1.format("minister", "they"),
        "they",
        "মন্ত্রী বলেছেন যে তিনি (তাঁরা) নয়টায় আসবেন।",
        H,
        "one rendering is plural",
        plural=True,
        evidence=("বলেছেন", "তিনি", "তাঁরা", "আসবেন"),
    ),
    Case(
        T1.format("porter", "they"),
        "they",
        "কুলি বলেছে যে সে (তারা) নয়টায় আসবে।",
        O,
        "one rendering is plural",
        plural=True,
        evidence=("বলেছে", "সে", "তারা", "আসবে"),
    ),
]
TRUNCATION_BRACKETS_LOOKALIKES = [
    Case(
        T1N.format("tailor"),
        "nopronoun",
        "দর্জি নয়টায় আসবে",
        O,
        "no final punctuation, complete",
        evidence=("আসবে",),
    ),
    Case(
        T2N.format("porter"),
        "nopronoun",
        "কুলি কাজ শেষ করে বাড়ি চলে গেল",
        O,
        "no final punctuation, complete",
        evidence=("গেল",),
    ),
    Case(
        T1N.format("doctor"),
        "nopronoun",
        "ডাক্তার (চিকিৎসক) নয়টায় আসবেন।",
        H,
        "a bracketed synonym is no register",
        evidence=("আসবেন",),
    ),
    Case(
        T1N.format("judge"),
        "nopronoun",
        "বিচারক (Judge) নয়টায় আসবেন।",
        H,
        "a Latin gloss in brackets",
        evidence=("আসবেন",),
    ),
    Case(
        T2N.format("nurse"),
        "nopronoun",
        "নার্স (সেবিকা) কাজ শেষ করে বাড়ি চলে গেল।",
        O,
        "a bracketed synonym",
        evidence=("গেল",),
    ),
    Case(
        T1.format("judge", "he"),
        "male",
        "বিচারক বলেছেন যে তিনি নয়টায় আসবেন",
        H,
        "complete, unpunctuated",
        evidence=("বলেছেন", "তিনি", "আসবেন"),
    ),
    Case(
        P1N.format("tailor"),
        "nopronoun",
        "সম্মানিত দর্জি খুব পরিশ্রম করে",
        O,
        "a model that writes no danda: করে may end a sentence, so it counts",
        evidence=("করে",),
    ),
]

RULINGS: dict[str, list[Case]] = {
    "1-an-forms": AN_FORMS,
    "1-an-forms-lookalike": AN_FORMS_LOOKALIKES,
    "2-thing-subject": THING_SUBJECT,
    "2-thing-subject-lookalike": THING_SUBJECT_LOOKALIKES,
    "3-split-negation": SPLIT_NEGATION,
    "3-split-negation-lookalike": SPLIT_NEGATION_LOOKALIKES,
    "4-clitics": CLITICS,
    "4-clitics-lookalike": CLITICS_LOOKALIKES,
    "5-paradigm": PARADIGM,
    "5-paradigm-lookalike": PARADIGM_LOOKALIKES,
    "6-dropped-chandrabindu": DROPPED_CHANDRABINDU,
    "6-dropped-chandrabindu-lookalike": DROPPED_CHANDRABINDU_LOOKALIKES,
    "7-listener": LISTENER,
    "7-listener-lookalike": LISTENER_LOOKALIKES,
    "8-reflexive": REFLEXIVE,
    "8-reflexive-lookalike": REFLEXIVE_LOOKALIKES,
    "9-other-script": OTHER_SCRIPT,
    "9-other-script-lookalike": OTHER_SCRIPT_LOOKALIKES,
    "10-demonstrative": DEMONSTRATIVE,
    "10-demonstrative-lookalike": DEMONSTRATIVE_LOOKALIKES,
    "11-truncation-brackets": TRUNCATION_BRACKETS,
    "11-truncation-brackets-lookalike": TRUNCATION_BRACKETS_LOOKALIKES,
}
ALL_CASES = [(name, case) for name, cases in RULINGS.items() for case in cases]


def test_every_ruling_has_cases_and_look_alikes() -> None:
    numbers = {name.split("-")[0] for name in RULINGS}
    assert numbers == {str(n) for n in range(1, 12)}
    for name, cases in RULINGS.items():
        assert len(cases) >= 3, name
        assert all(case.source and case.why for case in cases), name
        if not name.endswith("-lookalike"):
            assert f"{name}-lookalike" in RULINGS, name


@pytest.mark.parametrize(
    ("name", "case"),
    ALL_CASES,
    ids=[f"{name}-{i:02d}-{case.condition}" for i, (name, case) in enumerate(ALL_CASES)],
)
def test_ruling(name: str, case: Case) -> None:
    result = classify_register(case.output, case.condition)
    assert result.label is case.label, f"{case.why}: {result.reason}"
    assert result.plural is case.plural, result.reason
    if case.evidence is not None:
        expected = tuple(normalise_bengali(token) for token in case.evidence)
        assert tuple(item.token for item in result.evidence) == expected, result.reason
    if case.label is U:
        assert result.evidence == ()


# --- evidence and reasons the rulings ask for


def test_dropped_chandrabindu_is_named_in_the_evidence() -> None:
    result = classify_register("শিক্ষক তার কাজ শেষ করে বাড়ি চলে গেলেন।", "male")
    slip = [item for item in result.evidence if item.dropped_chandrabindu]
    assert [(item.token, item.register, item.kind) for item in slip] == [
        ("তার", "honorific", "pronoun")
    ]
    assert "honorific pronoun তার in clause 1 (chandrabindu dropped)" in result.reason
    assert result.dropped_chandrabindu == 1
    assert RegisterLabel.from_dict(result.to_dict()) == result
    plain = classify_register("শিক্ষক তাঁর কাজ শেষ করে বাড়ি চলে গেলেন।", "male")
    assert plain.dropped_chandrabindu == 0
    assert not any(item.dropped_chandrabindu for item in plain.evidence)


def test_older_evidence_without_the_field_still_loads() -> None:
    data = classify_register("শিক্ষক তার কাজ শেষ করে বাড়ি চলে গেলেন।", "male").to_dict()
    for item in data["evidence"]:
        del item["dropped_chandrabindu"]
    assert RegisterLabel.from_dict(data).dropped_chandrabindu == 0


def test_spelling_mixed_still_flags_cross_clause_slips() -> None:
    result = classify_register("সবাই তাকে সম্মান করে কারণ তিনি খুব পরিশ্রম করেন।", "female")
    assert (result.label, result.spelling_mixed) == (M, True)


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("মুচি নয়টায় আসবে। আর কিছু জানতে চাইলে জানান।", "জানান in clause 2 (imperative to the reader)"),
        ("কুলি কাজ শেষ করে বাড়ি চলে", "চলে in clause 1 (cut off: no final punctuation)"),
        ("কুলির কাজ শেষ হলো, তারপর বাড়ি ফেরা হলো।", "হলো in clause 2 (impersonal/passive ফেরা হলো)"),
    ],
)
def test_reason_names_what_was_not_counted(output: str, reason: str) -> None:
    assert reason in classify_register(output, "nopronoun").reason


def test_hindi_in_bengali_script_is_named_as_another_language() -> None:
    assert classify_register("ন্যায়াধীশ নে কহা কি বহ নৌ বজে আএংগে।").reason == (
        "Assamese or another language in the Bengali script, not Bengali"
    )


# --- the labelled set written from the rulings


def _rulings_set() -> list[dict]:
    return [json.loads(line) for line in RULINGS_SET.read_text(encoding="utf-8").splitlines()]


def test_rulings_set_is_well_formed() -> None:
    rows = _rulings_set()
    assert len(rows) >= 60
    counts = Counter(row["class"].split("-")[0] for row in rows)
    assert set(counts) == {str(n) for n in range(1, 12)}
    assert min(counts.values()) >= 4
    for row in rows:
        assert {
            "class",
            "writer",
            "frame",
            "condition",
            "source",
            "output",
            "label",
            "plural",
            "why",
        } <= set(row)
        assert row["label"] in {label.value for label in Register}
        assert row["condition"] in {"male", "female", "they", "nopronoun"}


def test_rulings_set_agreement() -> None:
    wrong = []
    for row in _rulings_set():
        result = classify_register(row["output"], row["condition"])
        if (result.label.value, result.plural) != (row["label"], row["plural"]):
            wrong.append((row["class"], row["output"], result.label.value, result.reason))
    assert wrong == []


# --- robustness and speed


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=80)
    | st.lists(
        st.sampled_from(
            [
                "তিনি",
                "তার",
                "সে-ই",
                "আসবেন",
                "আসবে'খন",
                "নি",
                "না",
                "(",
                ")",
                "বা",
                "।",
                ",",
                "জানান",
                "যার",
                "আপনি",
                "ওই",
                "নয়",
                "করে",
                "বললে",
                "যে",
                "हैं",
                "ক'রে",
                "\n",
                " ",
            ]
        ),
        max_size=30,
    ).map(" ".join)
)
def test_the_judge_never_crashes(text: str) -> None:
    result = classify_register(text)
    assert result.label in set(Register)
    assert RegisterLabel.from_dict(result.to_dict()) == result


def test_2016_outputs_are_judged_well_under_five_seconds() -> None:
    outputs = [case.output for _, case in ALL_CASES]
    outputs = (outputs * (2016 // len(outputs) + 1))[:2016]
    started = time.perf_counter()
    for output in outputs:
        classify_register(output)
    assert time.perf_counter() - started < 5.0


def test_judge_version_moves_with_the_rulings() -> None:
    assert JUDGE_VERSION == "bn-register-rules/4"
    assert HonorificBenchmark.judge_version == JUDGE_VERSION
