"""Owner keys: every identity normalises to one key with a reversible, safe folder name."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memclaw.errors import UsageError
from memclaw.workspace.owners import Visibility, normalise_owner, owner_dirname, owner_from_dirname


@pytest.mark.parametrize(
    ("identity", "key"),
    [
        ("user:42", "user:42"),
        ("User:alice", "user:alice"),
        ("alice", "user:alice"),
        ("  Alice  ", "user:Alice"),  # ids are case-sensitive, whitespace is not part of them
        ("telegram:123456", "telegram:123456"),
        ("Slack: U02ABC ", "slack:U02ABC"),
        ("api:end-user-9", "api:end-user-9"),
        ("api:u:with:colons", "api:u:with:colons"),
        ("system", "system"),
        ("SYSTEM", "system"),
        ("user:système", "user:système"),
        ("web_chat:a@b.c", "web_chat:a@b.c"),
    ],
)
def test_identities_normalise(identity: str, key: str) -> None:
    assert normalise_owner(identity) == key
    assert normalise_owner(key) == key  # idempotent


@pytest.mark.parametrize(
    "identity",
    [
        "",
        "   ",
        "user:",
        "user:   ",
        ":alice",
        "bad channel:alice",
        "9lives:alice",  # a channel starts with a letter
        "chan/x:alice",
        "user:a\nb",
        "user:a\x00b",
        "user:" + "a" * 300,
        "user:" + "é" * 60,  # too long once quoted for the folder name
    ],
)
def test_invalid_identities_are_refused(identity: str) -> None:
    with pytest.raises(UsageError):
        normalise_owner(identity)


def test_scope_values() -> None:
    assert [s.value for s in Visibility] == ["personal", "team", "global"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_folder_names_are_safe_and_reversible(identity: str) -> None:
    try:
        key = normalise_owner(identity)
    except UsageError:
        return
    name = owner_dirname(key)
    assert name not in ("", ".", "..")
    assert not name.startswith(".")
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert len(name.encode()) <= 255
    assert owner_from_dirname(name) == key
