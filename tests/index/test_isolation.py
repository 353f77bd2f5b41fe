"""Property: no sequence of writes and searches shows one owner another owner's personal line."""

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memclaw.index import search
from memclaw.workspace import Workspace
from memclaw.workspace.owners import normalise_owner
from memclaw.workspace.scope import Scope

# Look-alike owners on purpose: case, channel, spaces, slashes and escapes must not collide.
OWNERS = [
    None,
    "user:alice",
    "user:Alice",
    "telegram:alice",
    "user:al ice",
    "user:a/b",
    "user:a%3Ab",
]
FILES = ["MEMORY.md", "memory/2026-11-20.md", "entries/user.md", "PROFILE.md"]
_MARKER = re.compile(r"mk\d+x")

owner_st = st.sampled_from(OWNERS)
write_st = st.tuples(st.just("write"), owner_st, st.sampled_from(FILES), st.booleans())
delete_st = st.tuples(st.just("delete"), owner_st, st.sampled_from(FILES), st.just(False))
search_st = st.tuples(
    st.just("search"),
    owner_st,
    st.sampled_from(["all", "team", "personal", "global"]),
    st.one_of(st.just("shared"), st.integers(0, 30).map(lambda n: f"mk{n}x")),
)
actions_st = st.lists(st.one_of(write_st, write_st, delete_st, search_st), min_size=1, max_size=30)


def _rel(ws: Workspace, owner: str | None, name: str) -> str:
    return Scope.resolve(ws.agent("a"), owner).prefix + name


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions_st)
def test_personal_lines_reach_only_their_owner(actions: list[tuple]) -> None:  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "a" / ".memclaw").mkdir(parents=True)  # an agent, not just any folder
        ws = Workspace.open(root, env={})
        files: dict[str, list[str]] = {}  # relative path -> markers on disk
        owner_of: dict[str, str | None] = {}
        counter = 0
        for action in actions:
            kind, owner, arg, flag = action
            if kind == "write":
                rel = _rel(ws, owner, arg)
                marker = f"mk{counter}x"
                counter += 1
                owner_of[marker] = normalise_owner(owner) if owner else None
                markers = [*files.get(rel, []), marker] if flag else [marker]
                path = root / "a" / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("".join(f"- {m} shared\n" for m in markers), encoding="utf-8")
                files[rel] = markers
            elif kind == "delete":
                rel = _rel(ws, owner, arg)
                (root / "a" / rel).unlink(missing_ok=True)
                files.pop(rel, None)
            else:
                if arg == "personal" and owner is None:
                    continue
                me = normalise_owner(owner) if owner else None
                hits = search(ws, flag, owner=me, scope=arg, limit=50, log=False)
                for hit in hits:
                    assert hit.scope != "personal" or hit.owner == me
                    for marker in _MARKER.findall(hit.text):
                        assert owner_of[marker] in (None, me), (marker, owner_of[marker], me)
                if flag != "shared" and arg != "global":
                    on_disk = any(flag in ms for ms in files.values())
                    mine = owner_of.get(flag, "?") in ((None, me) if arg == "all" else (None,))
                    if arg == "personal":
                        mine = owner_of.get(flag, "?") == me
                    assert bool(hits) == (on_disk and mine)
