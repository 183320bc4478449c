"""The Japanese honorific-register benchmark (``honorific-ja``): its judge and data.

The judge (:mod:`.judge`) reads a morphological analyser's output; the analyser is loaded
on the first judgement, never at import.
"""
