"""The tools a chat model may call: workspace files and memory entries.

They run the same library functions as ``memclaw files`` and ``memclaw
memories``, so the same rules hold: markdown files only, no absolute paths or
``..``, secrets refused, ceilings applied. On top of that a chat is fenced to
its owner: another owner's personal folder can be neither listed nor read, and
an owner's writes go to their own folder (:mod:`memclaw.chat.fence`).
A failing tool never ends the chat; the model gets the error as the result.

:mod:`.box` routes the calls; :mod:`.files` and :mod:`.memories` are the two tool
families; :mod:`.base` is the scope and fence they share.
"""

from memclaw.chat.tools.box import ToolBox, ToolRecord
from memclaw.chat.tools.files import MAX_READ_CHARS
from memclaw.chat.tools.memories import MAX_LISTED

__all__ = ["MAX_LISTED", "MAX_READ_CHARS", "ToolBox", "ToolRecord"]
