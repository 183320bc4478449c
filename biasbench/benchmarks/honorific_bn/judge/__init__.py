"""Register judge of the ``honorific-bn`` benchmark, by stage.

A Bengali translation of one English sentence is labelled ``honorific``, ``ordinary``,
``mixed`` or ``unreadable`` from two signals (paper section 3.3, spec "Register
classification"):

1. third-person pronouns: respectful (তিনি, তাঁর, উনি, ওনাকে, তাঁরা ...) or ordinary
   (সে, তার, ও, ওকে, তারা ...);
2. the clause-final finite verb: respectful -েন in every tense (করেন, করবেন, করেননি)
   plus নন/হন/পান/যান...; ordinary করে, করবে, করল, ছিল, নয়, হয়, করেনি ...

Every label carries the tokens that decided it (:class:`Evidence`). Any disagreement
between counted tokens -- across clauses or within one -- makes the item ``mixed``; no
counted token at all makes it ``unreadable``.

Stages, each module holding the rules it implements in its docstring:

* :mod:`.normalise`: Unicode normalisation of text and lexicon;
* :mod:`.extract`: cutting the Bengali translation out of a model output;
* :mod:`.lexicon`: pronoun, subject, connective and verb tables;
* :mod:`.morphology`: the register of a word (finite verb endings, pronouns);
* :mod:`.clauses`: tokens and clause splitting;
* :mod:`.subjects`: subjects other than the person (everyone, a possessed thing, a time, a thing);
* :mod:`.classify`: which tokens count, the label decision, the batch helpers;
* :mod:`.evidence`: the records (:class:`Register`, :class:`Evidence`, :class:`RegisterLabel`)
  and ``JUDGE_VERSION``, which covers the whole package.

``biasbench.benchmarks.honorific_bn.classifier`` re-exports the public names.
"""

from biasbench.benchmarks.honorific_bn.judge.classify import (
    classify_many,
    classify_register,
    label_responses,
)
from biasbench.benchmarks.honorific_bn.judge.evidence import (
    JUDGE_VERSION,
    Evidence,
    Register,
    RegisterLabel,
)
from biasbench.benchmarks.honorific_bn.judge.extract import extract_translation
from biasbench.benchmarks.honorific_bn.judge.normalise import normalise_bengali

__all__ = [
    "JUDGE_VERSION",
    "Evidence",
    "Register",
    "RegisterLabel",
    "classify_many",
    "classify_register",
    "extract_translation",
    "label_responses",
    "normalise_bengali",
]
