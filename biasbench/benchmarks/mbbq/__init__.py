"""MBBQ: the multilingual BBQ (en, es, nl, tr) and its control sets."""
