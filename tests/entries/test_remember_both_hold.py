"""Two likes are two facts: remember holds a new value only when the facts judge sees a change.

The entry rule (same subject and verb, short different values) and the facts judge must agree:
when the judge is sure both can hold, the second fact is stored, not sent to the inbox.
"""

from pathlib import Path

from extract.extractkit import make_agent

from memclaw.entries.lookup import list_memories
from memclaw.entries.memories import Action, remember
from memclaw.facts.inbox import open_items
from memclaw.workspace.scope import Scope


def test_a_second_thing_liked_is_kept_beside_the_first(tmp_path: Path) -> None:
    scope = Scope(make_agent(tmp_path))
    remember(scope, "Maya likes green tea", category="preference")
    result = remember(scope, "Maya likes dark mode", category="preference")
    assert result.action is Action.ADDED and open_items(scope.agent) == []
    assert {e.text for e in list_memories(scope)} == {
        "Maya likes green tea",
        "Maya likes dark mode",
    }
    changed = remember(scope, "Maya prefers uv", category="preference")
    assert changed.action is Action.ADDED
    # A person's newer choice of the same kind replaces the older one.
    assert remember(scope, "Maya prefers Poetry", category="preference").action is Action.UPDATED
