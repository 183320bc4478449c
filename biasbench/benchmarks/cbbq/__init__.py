"""``cbbq``: CBBQ, the Chinese BBQ (Huang & Xiong, LREC-COLING 2024; ``YFHuangxxxx/CBBQ``)."""
