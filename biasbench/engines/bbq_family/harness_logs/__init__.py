"""Other harnesses' logs (lm-evaluation-harness ``--log_samples``, inspect_ai eval logs) read,
mapped to a BBQ-format benchmark's items and rescored by the engine, with the harness's own
metrics set beside the rescored ones (``biasbench score NAME --from lm-eval|inspect``)."""
