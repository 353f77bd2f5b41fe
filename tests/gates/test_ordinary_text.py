"""The gates on ordinary text: what people say to their assistant holds no secret and no
instruction for it. Every statement of the judgement benchmark's dev pairs and every line
of the dev conversations is read, as a guard against rules that catch more by catching
the everyday (a rule of four-letter base32 groups once took "your last free week")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memclaw.gates import addresses_agent, find_secrets

DATA = Path(__file__).resolve().parents[2] / "benchmarks"
# Quoting a father's rule reads as one for the assistant: a known miss, left as it is.
KNOWN = ('Dev: My father said "no dogs in this house" for 34 years.',)


def _ordinary() -> list[str]:
    lines = []
    for row in (DATA / "data" / "judgement_dev.jsonl").read_text(encoding="utf-8").splitlines():
        if row.strip():
            pair = json.loads(row)
            lines += [pair["old"], pair["new"]]
    for path in sorted((DATA / "conversations" / "dev").rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            lines += [line.strip() for line in text.splitlines() if len(line.strip()) >= 15]
    return lines


def test_everyday_text_holds_no_secret_and_no_instruction() -> None:
    lines = _ordinary()
    assert len(lines) > 3000
    assert [line for line in lines if find_secrets(line)] == []
    held = [line for line in lines if addresses_agent(line)]
    assert [line for line in held if not line.startswith(KNOWN)] == []


@pytest.mark.parametrize(
    "line",
    [
        "Six weeks from now is mid September. You might be walking by then.",
        "How is the new job? I hope you are no longer in pain after the fall.",
        "User uses Obsidian for personal notes.",
        "Diese Woche fährt der Nutzer wegen Glatteis mit der S-Bahn.",
        "The user wants to learn Spanish before the trip",
    ],
)
def test_these_were_once_taken_for_instructions(line: str) -> None:
    assert not addresses_agent(line)


def test_four_short_words_are_no_authenticator_seed() -> None:
    assert not find_secrets("She keeps the name secret; it is your last free week")
