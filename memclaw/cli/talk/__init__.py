"""`memclaw chat`: the command, the interactive terminal, and how answers are drawn.

``chat`` is the command and its one-shot answer, ``interactive`` the conversation at a
terminal, ``term`` the input line, history, notices and y/N questions, ``answer`` the
word-wrapping writer that never crops.
"""
