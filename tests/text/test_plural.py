from memclaw.text.plural import plural


def test_plural_counts() -> None:
    assert plural(1, "hit") == "1 hit"
    assert plural(2, "hit") == "2 hits"
    assert plural(0, "hit") == "0 hits"
    assert plural(1, "memory") == "1 memory"
    assert plural(3, "memory") == "3 memories"
    assert plural(2, "day") == "2 days"
    assert plural(2, "child", "children") == "2 children"
