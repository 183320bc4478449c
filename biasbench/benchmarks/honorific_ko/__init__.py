"""The Korean honorific-register benchmark (``honorific-ko``): the language folder of the
honorific engine (judge, occupation terms, prompt). Importing it loads no analyser."""
