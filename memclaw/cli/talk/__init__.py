"""`memclaw chat`: the command, the interactive terminal, and how answers are drawn.

``chat`` is the command (one-shot and interactive), ``term`` the input line,
history and notices, ``answer`` the word-wrapping writer that never crops.
"""
