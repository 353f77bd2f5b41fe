"""``python -m memclaw``: the same as the ``memclaw`` command."""

from memclaw.cli.fast import main

main()
