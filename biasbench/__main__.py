"""``python -m biasbench`` is the ``biasbench`` command."""

from biasbench.cli import main

main()
