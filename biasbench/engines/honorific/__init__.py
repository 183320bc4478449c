"""The honorific engine: counterfactual English -> target-language translation items, judged
for the register the translation gives the person, with every statistic of the honorific-bn
paper. A language is a benchmark folder that brings its judge and its data; this package names
none of them."""
