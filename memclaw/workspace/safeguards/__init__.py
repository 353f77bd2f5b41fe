"""What keeps a person's text whole across every rewrite of a memory file.

``history`` keeps previous versions for undo; ``provenance`` records which lines
a model wrote; ``ceiling`` moves the oldest model-written lines of an oversize
file to its overflow file instead of cutting; ``guard`` refuses a machine
rewrite that would drop a person's line or more than the loss budget; ``journal``
notes every change for receipts and undo; ``lease`` keeps two hosts sharing a root
from writing one agent at once (a fenced lease instead of a file lock); ``no_secrets``
refuses any write that would put a credential into a file.

May import: the rest of workspace, text, gates, config, errors.
"""
