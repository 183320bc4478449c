"""``python -m biasbench`` is the ``biasbench`` command."""

from biasbench.entry import main

main()
