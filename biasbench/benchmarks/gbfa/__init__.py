"""``gbfa``: the Persian BBQ of GBFA (Saffari et al., GeBNLP 2025; ``hamidds/GBFA``)."""
