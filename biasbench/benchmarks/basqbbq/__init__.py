"""``basqbbq``: BasqBBQ, the Basque BBQ (Zulaika and Saralegi, COLING 2025;
``orai-nlp/BasqBBQ``)."""
