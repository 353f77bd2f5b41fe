"""Other words for a remembered fact, told by a real embedding model (multilingual-e5-small).

The offline judge is unsure of these pairs and keeps both lines; with semantic recall
configured, the model's similarity makes a paraphrase "already known", while near
twins and facts about someone else stay apart.
"""

import logging
from pathlib import Path

import pytest

from benchmarks.embed_server import SETTINGS
from memclaw.entries.memories import Action, remember
from memclaw.facts.ledger import facts_of
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def _scope(root: Path, **overrides: object) -> Scope:
    agent, _ = Workspace.open(root, env={}, overrides=overrides).init_agent("a")
    return Scope(agent)


def _in_force(scope: Scope) -> list[str]:
    return [f.statement for f in facts_of(scope, durable_only=True) if not f.superseded]


def _both(scope: Scope, old: str, new: str) -> Action:
    remember(scope, old)
    return remember(scope, new).action


PARAPHRASES = [
    ("Lorena es profesora de matemáticas.", "Lorena da clases de matemáticas."),
    ("User prefers dark mode in every app.", "User likes every app set to dark mode."),
    ("Teamets retrospektiv hålls varannan fredag.", "Varannan fredag har teamet retro."),
]


@pytest.mark.parametrize(("old", "new"), PARAPHRASES)
def test_a_paraphrase_is_already_known_with_a_real_model(
    isolated_env: Path, e5_server: str, old: str, new: str
) -> None:
    offline = _scope(isolated_env / "offline")
    assert _both(offline, old, new) is Action.ADDED  # the words alone leave it open
    assert len(_in_force(offline)) == 2

    scope = _scope(isolated_env / "e5", **SETTINGS, embedding_base_url=e5_server)
    assert _both(scope, old, new) is Action.UNCHANGED
    assert _in_force(scope) == [old]


APART = [
    # a near twin: one word swapped is a new value, however close the vectors
    (
        "Servern gamma säkerhetskopieras varje natt kl. 02:00.",
        "Servern delta säkerhetskopieras varje natt kl. 02:00.",
    ),
    # someone else: the judge is sure, and the model is not asked
    ("Jonas is vegan.", "Jonas's wife is vegan."),
    ("Anna is a teacher.", "Anna's mother is a teacher."),
    ("Das Team nutzt Jira.", "Das andere Team nutzt Jira."),
    # another attribute
    ("User prefers dark mode in every app.", "User prefers tabs over spaces."),
    # a word added changes what is said, and e5 puts these closer than a paraphrase
    ("User's manager is Karin.", "User's former manager is Karin."),
    ("The team uses Jira.", "Both teams use Jira."),
    ("Last year we went to Spain.", "This year we go to Spain."),
]


@pytest.mark.parametrize(("old", "new"), APART)
def test_other_facts_stay_apart_with_a_real_model(
    isolated_env: Path, e5_server: str, old: str, new: str
) -> None:
    scope = _scope(isolated_env, **SETTINGS, embedding_base_url=e5_server)
    assert _both(scope, old, new) is Action.ADDED
    assert sorted(_in_force(scope)) == sorted([old, new])


def test_an_embedding_server_that_is_down_changes_nothing(
    isolated_env: Path, caplog: pytest.LogCaptureFixture
) -> None:
    scope = _scope(
        isolated_env, **SETTINGS, embedding_base_url="http://127.0.0.1:9/v1", max_retries=0
    )
    old, new = PARAPHRASES[0]
    with caplog.at_level(logging.WARNING, logger="memclaw.facts"):
        assert _both(scope, old, new) is Action.ADDED
    assert len(_in_force(scope)) == 2
    assert "paraphrase check" in caplog.text and "the offline verdict stands" in caplog.text


class _Counting:
    """An embedder of fixed vectors that counts what it is sent (fault injection: the cache)."""

    name = key = "counting"

    def __init__(self) -> None:
        self.sent: list[str] = []

    def embed(self, texts: list[str], *, kind: str = "passage") -> list[list[float]]:
        self.sent += texts
        return [[float(len(t)), 1.0] for t in texts]


def test_a_full_cache_starts_again_with_every_text_of_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from memclaw.facts import paraphrase

    monkeypatch.setattr(paraphrase, "_CACHED", 2)
    embedder = _Counting()
    checker = paraphrase.Paraphrases(embedder)  # type: ignore[arg-type]
    pair = ("Lorena es profesora de matemáticas.", "Lorena da clases de matemáticas.")
    assert checker.same([pair])[0] is not None
    # Two cached, one new: over the bound, so both texts of this check are embedded again
    # (the cached one had been cleared, and then was missing).
    other = (pair[0], "Lorena corrige exámenes de física.")
    assert checker.same([other])[0] is not None
    assert embedder.sent[-2:] == list(other)
