"""``bbq``: the original English BBQ (Parrish et al., Findings of ACL 2022) on the BBQ engine."""
