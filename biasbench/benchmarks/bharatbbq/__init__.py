"""``bharatbbq``: BharatBBQ, the BBQ of the Indian context (Tomar et al., TACL 2025;
``sahoonihar/BharatBBQ``)."""
