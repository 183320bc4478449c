"""A toy honorific language for the engine's tests: a Devanagari-script "language" whose judge
reads four words, so the engine is shown language-neutral without any real judge. It is what a
language folder provides: a declaration, data (definition.json with its ``"mock"`` sentences,
occupations.csv), a judge and a benchmark class of a few lines."""
