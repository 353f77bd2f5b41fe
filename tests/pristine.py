"""The bundled demo as git holds it: the tests' copy, never the checkout's working files.

A person following the README writes into the checkout's ``workspaces/`` (an owner's
folder, a dream, a forget, an index); the tests copy the demo from git's index
instead, so they pass after that walk as before it. Outside a git checkout (an
unpacked source archive) the files on disk are the shipped ones and are used as
they are, less what memclaw keeps beside them at run time.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@functools.cache
def workspaces() -> Path:
    """A read-only-by-convention copy of the committed ``workspaces/`` (copy it to change it)."""
    target = Path(tempfile.mkdtemp(prefix="memclaw-pristine-"))
    atexit.register(shutil.rmtree, target, True)
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--", "workspaces"], capture_output=True
    )
    if listed.returncode == 0 and listed.stdout:
        changed = ["git", "-C", str(REPO), "diff", "--quiet", "--", "workspaces"]
        if subprocess.run(changed).returncode:
            warnings.warn(
                "workspaces/ differs from git's index; the tests use the index "
                "(`git add workspaces` to test a change to the demo)",
                stacklevel=2,
            )
        subprocess.run(
            ["git", "-C", str(REPO), "checkout-index", f"--prefix={target}/", "-z", "--stdin"],
            input=listed.stdout,
            check=True,
        )
    else:
        runtime = shutil.ignore_patterns("*.sqlite*", "*.lock", "logs", "owners")
        shutil.copytree(REPO / "workspaces", target / "workspaces", ignore=runtime)
    return target / "workspaces"


def demo() -> Path:
    """The committed demo agent's folder."""
    return workspaces() / "demo"
