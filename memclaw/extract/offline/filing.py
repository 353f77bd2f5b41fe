"""Filing offline facts: each under its ``## `` section of PROFILE.md or MEMORY.md.

The offline engine (:mod:`.engine`) finds the facts; a model's categorised facts
are filed the same way (memclaw.extract.model).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memclaw.extract.offline.rules import Fact

# Where each kind of fact lives: (file, section heading).
TARGETS = {
    "identity": ("PROFILE.md", "Identity"),
    "preference": ("PROFILE.md", "Preferences"),
    "technical": ("PROFILE.md", "Tech stack"),
    "decision": ("MEMORY.md", "Decisions"),
    "project": ("MEMORY.md", "Active projects"),
    "rule": ("MEMORY.md", "Rules"),
    "relationship": ("MEMORY.md", "People"),
    "configuration": ("MEMORY.md", "Configuration"),
}
_TITLES = {"PROFILE.md": "# Profile\n", "MEMORY.md": "# Memory\n"}

_HEADING = re.compile(r"^(#{1,2}) +(.+?)\s*#*\s*$")


def file_bullet(text: str, name: str, section: str, bullet: str) -> str:
    """Add ``- bullet`` at the end of ``## section`` (matched by prefix), creating it if needed."""
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        lines = [_TITLES.get(name, f"# {name}\n").rstrip("\n")]
    wanted = section.lower()
    start = None
    for index, line in enumerate(lines):
        match = _HEADING.match(line)
        if match and match.group(1) == "##" and match.group(2).lower().startswith(wanted):
            start = index
            break
    if start is None:
        while lines and not lines[-1].strip():
            lines.pop()
        lines += ["", f"## {section}", "", f"- {bullet}"]
        return "\n".join(lines) + "\n"
    end = len(lines)
    for index in range(start + 1, len(lines)):
        if _HEADING.match(lines[index]):
            end = index
            break
    last = end
    while last > start + 1 and not lines[last - 1].strip():
        last -= 1
    insert = [f"- {bullet}"] if last > start + 1 else ["", f"- {bullet}"]
    tail = lines[last:end]
    blank_after = [""] if end < len(lines) else []
    rebuilt = lines[:last] + insert + blank_after + lines[end:]
    del tail
    return "\n".join(rebuilt) + "\n"


def target(fact: Fact) -> tuple[str, str]:
    """(file, section) where ``fact`` is filed."""
    name, section = TARGETS.get(fact.category, ("MEMORY.md", "Notes"))
    return name, fact.section if fact.category == "identity" and fact.section else section


def file_facts(profile: str, memory: str, facts: Sequence[Fact]) -> tuple[str, str]:
    """PROFILE.md and MEMORY.md with every fact filed under its section."""
    texts = {"PROFILE.md": profile, "MEMORY.md": memory}
    for fact in facts:
        name, section = target(fact)
        texts[name] = file_bullet(texts[name], name, section, fact.text)
    return texts["PROFILE.md"], texts["MEMORY.md"]


def daily_summary(facts: Sequence[Fact]) -> str:
    return "\n".join(f"- [{fact.category}] {fact.text}" for fact in facts)
