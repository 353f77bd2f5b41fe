"""Semantic recall with a real embedding model (multilingual-e5-small on loopback)."""

from pathlib import Path

from benchmarks.embed_server import SETTINGS
from memclaw.index import Searcher, search
from memclaw.workspace import Workspace

NOTES = (
    "# 2026-03-02\n\n"
    "## 10:00 Ana and Ravi\n"
    "- Ana: I finally sold the old car to my neighbour last weekend.\n"
    "- Ravi: Did you get a good price for it?\n"
    "- Ana: Good enough, and I joined a pottery class with the money.\n"
    "- Ravi: My sister bakes sourdough bread every Sunday.\n"
    "- Ana: We are planning a hiking trip to the Alps in July.\n"
)


def _agent(root: Path) -> None:
    (root / "a" / "memory").mkdir(parents=True)
    (root / "a" / "memory" / "2026-03-02.md").write_text(NOTES, encoding="utf-8")


def test_a_paraphrase_keyword_search_misses_is_found(isolated_env: Path, e5_server: str) -> None:
    _agent(isolated_env)
    question = "Which automobile found a buyer?"
    keyword = search(Workspace.open(isolated_env), question, log=False)
    assert not any("car" in h.text for h in keyword)
    ws = Workspace.open(isolated_env, overrides={**SETTINGS, "embedding_base_url": e5_server})
    hits = search(ws, question, log=False)
    # First, or second after the reply embedded with it ("Did you get a good price for it?"
    # is embedded after the line it answers: ``semantic.passages``).
    assert any("sold the old car" in h.text for h in hits[:2])


def test_keyword_hits_keep_their_place_with_a_real_model(
    isolated_env: Path, e5_server: str
) -> None:
    _agent(isolated_env)
    ws = Workspace.open(isolated_env, overrides={**SETTINGS, "embedding_base_url": e5_server})
    with Searcher(ws) as searcher:
        hits = searcher.search("sourdough", log=False)
        assert "sourdough" in hits[0].text
        hits = searcher.search("mountains holiday in summer", log=False)
        assert "Alps" in hits[0].text


SESSION = (
    "# 2022-09-10\n\n"
    "## 18:20 Felix and Dara\n"
    "- Felix: Dara, is the sailing tan gone yet?\n"
    "- Dara: Only on my nose.\n"
    "- Felix: I lie on a board on the mud with a frame, counting seagrass for my PhD.\n"
    "- Dara: [photo: a man lying face down on a wooden board on wet mudflats]\n"
    "- Felix: Coward.\n"
    "- Dara: School starts Monday, I teach music and run the school orchestra.\n"
)


def test_headings_and_short_turns_come_after_what_says_something(
    isolated_env: Path, e5_server: str
) -> None:
    from memclaw.index.semantic import says_little

    (isolated_env / "a" / "memory").mkdir(parents=True)
    (isolated_env / "a" / "memory" / "2022-09-10.md").write_text(SESSION, encoding="utf-8")
    ws = Workspace.open(isolated_env, overrides={**SETTINGS, "embedding_base_url": e5_server})
    with Searcher(ws) as searcher:
        # No word of either is in the note: the order is the vectors'. e5 puts the session's
        # heading nearest the one, the daily note's title nearest the other.
        for question in (
            "What did the two friends chat about in the evening?",
            "what picture was shared",
        ):
            hits = [h.text for h in searcher.search(question, log=False)]
            little = [says_little(t, "daily") for t in hits]
            assert little == sorted(little) and not little[0], hits
