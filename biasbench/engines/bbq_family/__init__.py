"""The BBQ-family engine: what every BBQ-format benchmark shares, end to end, grouped by stage
(``items``, ``prompting``, ``judging``, ``scoring``, ``presenting``); ``benchmark.py``
(``BBQBenchmark``), ``family.py``, ``declaration.py`` and ``cli.py`` at the top."""
