"""Prompts: the prompt-file format (``prompt_files``); each benchmark keeps its own prompt files
in its folder, and each language's answer cue is in the language table (``judging/languages``)."""
