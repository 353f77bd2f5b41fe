"""What a snapshot may carry, and the limits that keep an import bounded.

Names are judged in two steps. :func:`unsafe_reason` finds names that are
dangerous anywhere (traversal, absolute paths, control characters): one of
those rejects the whole zip, because a tool that wrote it cannot be trusted.
:func:`classify` then sorts safe names into the files memclaw carries and the
rest, which an import skips and lists.
"""

from __future__ import annotations

import re
from datetime import date

from memclaw.errors import UsageError
from memclaw.workspace.owners import normalise_owner, owner_dirname, owner_from_dirname
from memclaw.workspace.paths import MAX_NAME_BYTES

FORMAT = "memclaw-snapshot"
# 2: the zip also carries state/ (forgotten fingerprints, evidence, inbox, journal,
# provenance); a format 1 zip holds files only and still imports.
FORMAT_VERSION = 2
MANIFEST = "manifest.json"

MAX_ENTRIES = 500
MAX_FILE_BYTES = 1024 * 1024
MAX_TOTAL_BYTES = 16 * 1024 * 1024
# The zip itself, read into memory before anything is opened (stdin cannot be seeked).
MAX_ZIP_BYTES = 32 * 1024 * 1024

# Files of the shared (TEAM) scope, at the top of the agent folder.
TEAM_FILES = ("AGENTS.md", "SOUL.md", "PROFILE.md", "MEMORY.md", "KNOWLEDGE.md", "DREAMS.md")
# Files of one owner's PERSONAL scope, under owners/<quoted key>/.
OWNER_FILES = ("PROFILE.md", "MEMORY.md")
OWNERS_DIR = "owners"

# ASCII digits only: ``\d`` also matches fullwidth and Arabic-Indic digits, which int()
# reads as a date, so ``memory/２０２６-１２-０１.md`` would pass for a daily note.
_DAILY = re.compile(r"memory/([0-9]{4})-([0-9]{2})-([0-9]{2})\.md")
_DAILY_LOOKALIKE = re.compile(r"memory/\d{4}-\d{2}-\d{2}\.md")
_ENTRY = re.compile(r"entries/[a-z][a-z0-9_-]*\.md")
# A dream's structured report and the monthly archive old reports roll into.
_DREAM_REPORT = re.compile(
    r"dreams/(?:[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9a-f]{6,32}\.json|archive-[0-9]{4}-[0-9]{2}\.jsonl)"
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_DRIVE = re.compile(r"[A-Za-z]:")


def unsafe_reason(name: str) -> str | None:
    """Why ``name`` may not appear in a zip at all, or None when it is harmless."""
    if not name:
        return "an empty name"
    if _CONTROL.search(name):
        return "control characters in the name"
    if "\\" in name:
        return "a backslash in the name"
    if name.startswith("/") or _DRIVE.match(name):
        return "an absolute path"
    parts = name.rstrip("/").split("/")
    if ".." in parts:
        return "a '..' component"
    if any(part in ("", ".") for part in parts):
        return "an empty or '.' path component"
    if any(len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES for part in parts):
        return f"a path component longer than {MAX_NAME_BYTES} bytes, too long to write"
    tail = "/".join(parts[-2:])
    if _DAILY_LOOKALIKE.fullmatch(tail) and not _DAILY.fullmatch(tail):
        return "a daily note name with non-ASCII digits (daily notes are memory/YYYY-MM-DD.md)"
    return None


def is_daily_note(rel: str) -> bool:
    """``memory/YYYY-MM-DD.md`` with a real calendar date."""
    match = _DAILY.fullmatch(rel)
    if not match:
        return False
    try:
        date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return False
    return True


def _scoped_reason(rel: str, top_files: tuple[str, ...]) -> str | None:
    if rel in top_files or is_daily_note(rel) or _ENTRY.fullmatch(rel):
        return None
    if _DREAM_REPORT.fullmatch(rel):
        return None
    if _DAILY.fullmatch(rel):
        return "daily note name is not a real date"
    if rel.startswith("entries/"):
        return "entry category must be lower-case letters, digits, '-' or '_'"
    return "not a memory file memclaw carries"


def is_owner_dir(name: str) -> bool:
    """True for the canonical folder name of a valid owner key, e.g. ``user%3Aalice``."""
    try:
        return owner_dirname(normalise_owner(owner_from_dirname(name))) == name
    except UsageError:
        return False


def classify(name: str) -> str | None:
    """None when ``name`` (already safe) is carried; otherwise why it is skipped."""
    if name.startswith(OWNERS_DIR + "/"):
        _, _, rest = name.partition("/")
        owner, sep, rel = rest.partition("/")
        if not sep:
            return "not a memory file memclaw carries"
        if not is_owner_dir(owner):
            return "not a valid owner folder"
        return _scoped_reason(rel, OWNER_FILES)
    return _scoped_reason(name, TEAM_FILES)


def markdown_only(rel: str) -> bool:
    """Whether ``rel`` must be a .md file: everything carried but dream reports and archives."""
    return not (rel.endswith((".json", ".jsonl")) and classify(rel) is None)
