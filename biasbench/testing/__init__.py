"""Test helpers that ship with biasbench: a mock OpenAI-compatible server and a runner driver.

They let tests, benchmarks and users exercise the HTTP backend and the runner against a local,
deterministic server (loopback only) with injected latency and failures. Import them from their
modules (``biasbench.testing.mock_openai``); this package imports nothing itself, so that
``python -m biasbench.testing.mock_openai`` runs cleanly.
"""
