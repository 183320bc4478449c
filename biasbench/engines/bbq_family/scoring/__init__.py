"""Scoring: bias scores, the multi-seed evaluation, results, dataset metrics, per-language runs."""
