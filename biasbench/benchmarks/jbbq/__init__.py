"""``jbbq``: the Japanese BBQ (Yanaka et al., GeBNLP 2025) from a local copy the user obtained."""
