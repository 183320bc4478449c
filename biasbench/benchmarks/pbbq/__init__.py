"""``pbbq``: PBBQ, the Persian BBQ (Farsi et al., 2025; Hugging Face ``abijari/PBBQ``), read from
a local copy only."""
