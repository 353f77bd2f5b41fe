"""``python -m memclaw``: the same as the ``memclaw`` command."""

from memclaw.cli.app import main

main()
