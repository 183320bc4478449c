"""``esbbq`` and ``cabbq``: the Spanish and Catalan BBQ (Ruiz-Fernández et al., 2025) on the BBQ
engine, read as the authors' bias_score.py reads them, with their own bias scores beside BBQ's."""
