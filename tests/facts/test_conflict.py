"""The offline contradiction judge on the cases the issue names and on real memory lines."""

import re
from itertools import combinations
from pathlib import Path

import pristine
import pytest

from memclaw.facts.conflict import is_correction, judge

DEMO = pristine.demo()


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        ("Maya lives in Oslo", "Maya lives in Bergen", "conflict"),
        ("Maya is vegetarian", "Maya eats meat", "conflict"),
        (
            "Cutover: Saturday 2026-12-12",
            "Correction: the cutover moved to 2026-12-19.",
            "correction",
        ),
        ("The user is allergic to cats.", "The user is not allergic to cats.", "conflict"),
        ("Der Nutzer hat zwei Kinder.", "Der Nutzer hat drei Kinder.", "conflict"),
        ("Användaren bor i Stockholm.", "Användaren har flyttat till Uppsala.", "correction"),
        (
            "El usuario vive en Sevilla.",
            "En realidad el usuario vive en Cádiz, no en Sevilla.",
            "correction",
        ),
        ("The user's name is Sam.", "Actually, my name is Samuel, not Sam.", "correction"),
        ("Prefers tea in the morning.", "Prefers coffee in the morning.", "conflict"),
        ("The user likes spicy food.", "The user can't stand spicy food.", "conflict"),
        ("The user works at Ericsson.", "The user works for Ericsson in Kista.", "restated"),
        ("Tomas is 41.", "Tomas is 41 years old.", "restated"),
    ],
)
def test_the_verdict_on_a_pair(old: str, new: str, kind: str) -> None:
    assert judge(old, new).kind == kind


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Jonas lives in Uppsala.", "Maya lives in Bergen."),  # two people
        ("The user's cat is called Miso.", "The user's dog is called Knut."),  # two pets
        ("Ravi is learning Spanish.", "Ravi is learning Japanese too."),  # both can be true
        ("The user runs on Tuesdays.", "The user swims on Fridays."),  # two habits
        ("The user doesn't like meetings.", "The user has meetings on Monday."),
        ("Dry run #3 took 1 h 52 min.", "Dry run #4 took 1 h 40 min."),  # two runs
        ("Tomas raised the HPA maximum from 6 to 10 replicas.", "lotsen peaked at 9 replicas."),
    ],
)
def test_facts_that_can_both_hold_are_no_contradiction(old: str, new: str) -> None:
    assert not judge(old, new).disagrees


def test_a_verdict_names_what_differs() -> None:
    verdict = judge("Maya lives in Oslo", "Maya lives in Bergen")
    assert (verdict.attribute, verdict.old_value, verdict.new_value) == (
        "residence",
        "oslo",
        "bergen",
    )


def test_the_demo_memory_holds_one_contradiction_and_it_is_the_correction() -> None:
    # Every pair of remembered lines in the bundled agent: real, messy, several people.
    lines = [
        line
        for path in [
            DEMO / "MEMORY.md",
            DEMO / "PROFILE.md",
            *sorted((DEMO / "memory").glob("*.md")),
        ]
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*[-*] ", line)
    ]
    flagged = [(a, b) for a, b in combinations(lines, 2) if judge(a, b).disagrees]
    assert len(lines) > 100
    assert len(flagged) == 1
    assert "2026-12-05" in flagged[0][0] and flagged[0][1].startswith("- Correction:")


@pytest.mark.parametrize(
    "text",
    [
        "Correction: the cutover moved to 2026-12-19.",
        "Actually it's Thursday.",
        "Not Bergen but Trondheim.",
        "The launch moved to March.",
        "He no longer works there.",
        "Rättelse: mötet är på onsdag.",
        "Mötet är inte på tisdag utan på onsdag.",
        "Das Meeting wurde verschoben.",
        "Corrección: la entrega se movió al lunes.",
    ],
)
def test_corrections_are_recognised_in_four_languages(text: str) -> None:
    assert is_correction(text)


@pytest.mark.parametrize("text", ["Maya lives in Bergen.", "The cutover is on 2026-12-12."])
def test_plain_statements_are_no_corrections(text: str) -> None:
    assert not is_correction(text)


def test_the_labelled_sets_are_well_formed_and_the_benchmark_scores_them() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_contradictions import load, score

    pairs = [pair for half in ("dev", "heldout", "hard") for pair in load(half)]
    assert len(pairs) >= 60
    assert {pair["label"] for pair in pairs} == {"conflict", "correction", "restated", "compatible"}
    assert {"en", "sv", "de", "es"} <= {pair["lang"] for pair in pairs}
    figures = score(load("heldout"))
    assert figures["tp"] + figures["fn"] == sum(
        p["label"] in ("conflict", "correction") for p in load("heldout")
    )
