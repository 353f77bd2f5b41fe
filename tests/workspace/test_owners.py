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


# --- case and Unicode: no spelling reaches another owner's folder ------------------------------


@pytest.mark.parametrize(
    ("identity", "key"),
    [
        ("user:ｍａｙａ", "user:maya"),  # full-width letters are the plain name
        ("ｕｓｅｒ:maya", "user:maya"),
        ("user:cafe\u0301", "user:café"),  # decomposed é is the composed one
        ("user:ﬁona", "user:fiona"),  # a ligature is its letters
    ],
)
def test_identities_are_nfkc_normalised(identity: str, key: str) -> None:
    assert normalise_owner(identity) == key
    assert owner_dirname(normalise_owner(identity)) == owner_dirname(key)


def test_keys_differing_only_in_case_get_folders_that_differ_case_insensitively() -> None:
    names = {owner_dirname(normalise_owner(k)) for k in ("user:Maya", "user:maya", "user:MAYA")}
    assert len({n.casefold() for n in names}) == 3
    assert owner_dirname("user:Maya") == "user%3A%4Daya"
    assert owner_dirname("user:maya") == "user%3Amaya"  # names without capitals are unchanged
    assert owner_from_dirname("user%3A%4Daya") == "user:Maya"
    assert owner_from_dirname("user%3AMaya") == "user:Maya"  # the legacy spelling still reads


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_distinct_keys_never_collide_on_a_case_insensitive_disk(a: str, other: str) -> None:
    for b in (a.swapcase(), a.upper(), other):  # case variants are the dangerous neighbours
        try:
            ka, kb = normalise_owner("user:x" + a), normalise_owner("user:x" + b)
        except UsageError:
            continue
        if ka != kb:
            assert owner_dirname(ka).casefold() != owner_dirname(kb).casefold()
        assert owner_dirname(ka).isascii()
