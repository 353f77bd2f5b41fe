"""One way to read a memory file: its text, and only if it is a plain file.

A FIFO, a device or a socket named like a note would block a reader forever or
never end; such a file is refused at once, as a folder is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memclaw.errors import WorkspaceError


def read_text(path: Path, *, follow_links: bool = True) -> str:
    """The UTF-8 text of the regular file ``path`` (FileNotFoundError when there is none).

    ``follow_links=False`` refuses to open it through a symlink (it may just have become one).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK  # opening a FIFO with no writer returns at once
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise WorkspaceError(f"{path} is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise WorkspaceError(f"{path} is not a plain file (a pipe or device?); remove it")
        os.set_blocking(fd, True)
        handle = open(fd, encoding="utf-8", closefd=True)  # noqa: SIM115 (closes fd below)
    except BaseException:
        os.close(fd)
        raise
    with handle:
        return handle.read()
