"""memclaw's lines in the user's crontab: the nightly dream and consolidation.

Each line ends with a tag naming the job and the workspaces root, so install
is idempotent (our old lines are replaced) and remove touches nothing else.
The ``crontab`` command itself is configurable (``MEMCLAW_CRONTAB_CMD``) so
tests can run against a fake.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.errors import MemclawError
from memclaw.schedule import parse_cron

if TYPE_CHECKING:
    from memclaw.config import Settings

TAG = "# memclaw:"
CRONTAB_ENV = "MEMCLAW_CRONTAB_CMD"
LOG_NAME = "cron.log"
INSTALL_HINT = (
    "install cron first (Debian/Ubuntu: sudo apt-get install cron; Fedora: sudo dnf install "
    "cronie; macOS ships it), or add the lines from `memclaw cron show` by hand"
)


class CronUnavailableError(MemclawError):
    """The crontab command is missing or failed."""


@dataclass(frozen=True)
class CronLine:
    job: str  # "dream" or "consolidate"
    schedule: str
    command: str
    tag: str

    @property
    def text(self) -> str:
        return f"{self.schedule} {self.command} {self.tag}"


def memclaw_command() -> list[str]:
    """How cron should start this very memclaw: its script, or ``python -m memclaw``."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name.startswith("memclaw"):
        resolved = script if script.is_absolute() else Path(shutil.which(str(script)) or script)
        resolved = resolved.absolute()
        if resolved.is_file() and os.access(resolved, os.X_OK):
            return [str(resolved)]
    return [str(Path(sys.executable).absolute()), "-m", "memclaw"]


def cron_lines(
    root: Path,
    *,
    dream_cron: str,
    consolidate_cron: str,
    dream_enabled: bool = True,
    consolidate_enabled: bool = True,
    executable: Sequence[str] | None = None,
) -> list[CronLine]:
    """The lines memclaw wants in the crontab for the workspaces at ``root``."""
    exe = list(executable or memclaw_command())
    root = root.absolute()
    log = root / ".memclaw" / LOG_NAME
    base = [*exe, "--root", str(root)]
    jobs = []
    if dream_enabled:
        jobs.append(("dream", dream_cron, ["dream", "--all", "--all-owners", "--trigger", "cron"]))
    if consolidate_enabled:
        jobs.append(
            ("consolidate", consolidate_cron, ["consolidate", "--all", "--trigger", "cron"])
        )
    lines = []
    for job, schedule, args in jobs:
        parse_cron(schedule)  # refuse to install an expression cron would reject
        command = f"{shlex.join(base + args)} >> {shlex.quote(str(log))} 2>&1"
        lines.append(CronLine(job, schedule, command, f"{TAG}{job} root={root}"))
    return lines


def wanted_lines(root: Path, settings: Settings) -> list[CronLine]:
    """The lines the settings of the workspaces at ``root`` ask for."""
    return cron_lines(
        root,
        dream_cron=settings.dream_cron,
        consolidate_cron=settings.consolidate_cron,
        dream_enabled=settings.dream_enabled,
        consolidate_enabled=settings.consolidate_enabled,
    )


def crontab_command(env: Mapping[str, str] | None = None) -> list[str]:
    env = os.environ if env is None else env
    return shlex.split(env.get(CRONTAB_ENV, "") or "crontab")


def available(command: Sequence[str]) -> bool:
    return shutil.which(command[0]) is not None


def read_crontab(command: Sequence[str]) -> list[str]:
    """The user's crontab lines; an empty list when they have none yet."""
    if not available(command):
        raise CronUnavailableError(f"'{command[0]}' not found: {INSTALL_HINT}")
    done = subprocess.run([*command, "-l"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        if "no crontab" in done.stderr.lower():
            return []
        raise CronUnavailableError(
            f"'{shlex.join(command)} -l' failed: {done.stderr.strip() or done.returncode}"
        )
    return done.stdout.splitlines()


def write_crontab(command: Sequence[str], lines: Sequence[str]) -> None:
    text = "\n".join(lines) + "\n" if lines else ""
    done = subprocess.run([*command, "-"], input=text, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CronUnavailableError(
            f"'{shlex.join(command)} -' refused the new crontab: "
            f"{done.stderr.strip() or done.returncode}"
        )


def _ours(line: str, root: Path) -> bool:
    stripped = line.rstrip()
    return TAG in stripped and stripped.endswith(f" root={root.absolute()}")


def installed(command: Sequence[str], root: Path) -> list[str]:
    return [line for line in read_crontab(command) if _ours(line, root)]


def install(command: Sequence[str], root: Path, wanted: Sequence[CronLine]) -> dict[str, object]:
    """Put exactly ``wanted`` in place of our old lines; other lines are untouched."""
    current = read_crontab(command)
    others = [line for line in current if not _ours(line, root)]
    new = others + [line.text for line in wanted]
    changed = new != current
    if changed:
        (root.absolute() / ".memclaw").mkdir(parents=True, exist_ok=True)
        write_crontab(command, new)
    return {"changed": changed, "lines": [line.text for line in wanted]}


def remove(command: Sequence[str], root: Path) -> dict[str, object]:
    """Drop memclaw's lines for ``root``; everything else stays as it was."""
    current = read_crontab(command)
    ours = [line for line in current if _ours(line, root)]
    if ours:
        write_crontab(command, [line for line in current if not _ours(line, root)])
    return {"changed": bool(ours), "removed": ours}


def scheduled_jobs(command: Sequence[str], root: Path) -> dict[str, str]:
    """{job: schedule} of memclaw's lines installed for ``root``; empty when none can be read."""
    if not available(command):
        return {}
    try:
        lines = installed(command, root)
    except CronUnavailableError:
        return {}
    jobs = {}
    for line in lines:
        job = line.rstrip().rsplit(TAG, 1)[1].split(" ", 1)[0]
        jobs[job] = " ".join(line.split()[:5])
    return jobs
