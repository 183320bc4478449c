"""The ``honorific-ne`` benchmark: the honorific engine's items translated into Nepali, and a rule
judge of the register level (ऊ / उनी / उहाँ) and gender the translation gives the person."""
