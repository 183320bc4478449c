"""Presenting: the display of the numbers, the HTML report section, its figures, jitter plots."""
