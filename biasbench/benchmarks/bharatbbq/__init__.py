"""``bharatbbq``: BharatBBQ, the BBQ of the Indian context (TACL 2025, arXiv:2508.07090;
``sahoonihar/BharatBBQ``)."""
