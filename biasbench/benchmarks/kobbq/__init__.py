"""``kobbq``: KoBBQ, the Korean BBQ (Jin et al., TACL 2024; ``naver-ai/KoBBQ``)."""
