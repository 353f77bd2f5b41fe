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
    ("text", "kind", "little"),
    [
        ("# 2022-09-10", "daily", True),
        ("## 18:20 Felix and Dara", "daily", True),
        ("## Family", "memory", True),
        ("- category: photography", "entries", True),
        ("- created: 2026-12-01", "daily", True),
        ("- Felix: Coward.", "daily", True),
        ("Felix: Only on my nose.", "daily", True),
        ("- Dara: [photo: a man lying face down on a wooden board on wet mudflats]", "daily", True),
        ("- Dara: [photo: a wooden board on wet mudflats]", "memory", True),
        ("- Felix: I lie on a board on the mud with a frame. [photo: mudflats]", "daily", False),
        ("- Ana: Joined the photography club at the library last week.", "daily", False),
        ("- Sarah likes tea", "daily", False),  # not a turn: a line that stands alone
        ("#hashtag-heavy paragraph", "daily", False),
        # In a file a person curates, "Label: value" is a fact, not a reply.
        ("- Birthday: 12 March", "memory", False),
        ("- Birthday: 12 March", "profile", False),
        ("- Birthday: 12 March", "daily", True),
    ],
)
def test_what_says_little(text: str, kind: str, little: bool) -> None:
    assert says_little(text, kind) is little


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
    little = [says_little(t, "daily") for t in hits]  # (no hit here depends on its kind)
    assert little == sorted(little), hits  # every block that says something comes first
    assert {"## Photography", "- category: photography", "- Ravi: Nice!"} <= set(hits)
