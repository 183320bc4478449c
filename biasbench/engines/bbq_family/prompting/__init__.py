"""Prompts: the prompt-file format (``prompt_files``) and the packaged prompt of each language."""
