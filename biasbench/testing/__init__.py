"""biasbench's supported testing API: tools for checking biasbench, and what is built on it, on a
machine without a model. They ship with the package because the measurement scripts in the
repository's ``measurements/`` folder and a user checking their own set-up run them against an
installed biasbench, not only the test suite.

* :mod:`.mock_openai` -- a deterministic OpenAI-compatible server on loopback, with injected
  latency and failures (``python -m biasbench.testing.mock_openai``): exercise the HTTP backend,
  a server set-up or a CI job without a model.
* :mod:`.faults` -- one fault kind at a time (HTTP statuses, resets, timeouts, malformed bodies)
  against the real runner, with what each must leave in the store.
* :mod:`.kills` -- a process killed at its N-th rename, then run again: a run or score folder
  is never left half written.
* :mod:`.echo_secrets` -- a server that echoes the credentials it is sent, to check that no
  output, error or file shows them.
* :mod:`.grid_effect`, :mod:`.language_effect`, :mod:`.synthetic_answers` -- synthetic
  BBQ-format items and scripted answerers with planted effects (grid factors, language gaps,
  propensities to answer unknown, the label or the target), to check that an analysis recovers
  a known effect.

Their names and behaviour are kept stable like the rest of the API. Helpers only the test suite
uses live in ``tests/`` (the runner driver: ``tests/runner/drive_runner.py``). Import each
from its module (``biasbench.testing.mock_openai``); this package imports nothing itself, so
that ``python -m biasbench.testing.mock_openai`` runs cleanly.
"""
