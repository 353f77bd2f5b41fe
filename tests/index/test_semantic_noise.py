"""Vector hits that say nothing (headings, bookkeeping, a word or two) come after the rest."""

from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from memclaw.index import search
from memclaw.index.semantic import says_little
from memclaw.workspace import Workspace

NOTE = (
    "# 2026-03-02\n\n"
    "## Photography\n"
    "- Ana: Joined the photography club at the library last week.\n"
    "- Ravi: Nice!\n"
    "- Ana: Bought new tyres for the bike.\n"
)


@pytest.mark.parametrize(
    ("text", "little"),
    [
        ("# 2022-09-10", True),
        ("## 18:20 Felix and Dara", True),
        ("- category: photography", True),
        ("- created: 2026-12-01", True),
        ("- Felix: Coward.", True),
        ("Felix: Only on my nose.", True),
        ("- Dara: [photo: a man lying face down on a wooden board on wet mudflats]", True),
        ("- Felix: I lie on a board on the mud with a frame. [photo: a man on mudflats]", False),
        ("- Ana: Joined the photography club at the library last week.", False),
        ("- Sarah likes tea", False),  # not a turn: what a line of MEMORY.md says stands alone
        ("#hashtag-heavy paragraph", False),
    ],
)
def test_what_says_little(text: str, little: bool) -> None:
    assert says_little(text) is little


def test_a_heading_or_meta_line_never_outranks_a_turn_for_a_vector_only_match(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    (isolated_env / "a" / "memory").mkdir(parents=True)
    (isolated_env / "a" / "memory" / "2026-03-02.md").write_text(NOTE, encoding="utf-8")
    (isolated_env / "a" / "MEMORY.md").write_text("- category: photography\n", encoding="utf-8")
    # Another index: the vectors of both are merged, and the order must hold across them.
    (isolated_env / "_global").mkdir()
    (isolated_env / "_global" / "MEMORY.md").write_text("## Photography\n", encoding="utf-8")
    query = "xphotographyx"  # no word in common: every hit is the vectors'
    assert search(Workspace.open(isolated_env), query, agents=["a"], log=False) == []
    overrides = {
        "base_url": fake_openai.base_url,
        "api_key": "test",
        "embedding_model": "text-embedding-3-small",
        "max_retries": 0,
    }
    ws = Workspace.open(isolated_env, overrides=overrides)
    hits = [h.text for h in search(ws, query, agents=["a"], log=False)]
    # (the fake's trigram vectors put the heading and the meta line nearest the query)
    assert hits[0] == "- Ana: Joined the photography club at the library last week."
    little = [says_little(t) for t in hits]
    assert little == sorted(little), hits  # every block that says something comes first
    assert {"## Photography", "- category: photography", "- Ravi: Nice!"} <= set(hits)
