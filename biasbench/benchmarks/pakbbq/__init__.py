"""``pakbbq``: PakBBQ, the BBQ of the Pakistani context in English and Urdu
(``Hashmat02/PakBBQ-Bias-Benchmarking-QA-Dataset``)."""
