"""``ggbbq``: GG-BBQ, the German gender BBQ (Satheesh et al., GeBNLP 2025;
``shalakasatheesh/GG-BBQ``)."""
