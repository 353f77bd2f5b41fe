"""A rewrite made from one version of a file, done to the version on disk now."""

from memclaw.text.rebase import rebase

BASE = "# Memory\n\n## Team\n\n- Maya leads lotsen.\n- Jonas signs off dates.\n"


def test_an_unchanged_file_gets_the_rewrite_as_it_is() -> None:
    rewritten = BASE.replace("Jonas", "Jonas Ek")
    assert rebase(BASE, rewritten, BASE) == rewritten


def test_the_other_writers_line_stays_and_the_rewrites_changes_land_in_place() -> None:
    rewritten = BASE.replace("- Maya leads lotsen.\n", "- Maya leads lotsen and Osaka.\n")
    current = BASE + "- Lotta runs CI.\n"
    assert rebase(BASE, rewritten, current) == (
        "# Memory\n\n## Team\n\n- Maya leads lotsen and Osaka.\n- Jonas signs off dates.\n"
        "- Lotta runs CI.\n"
    )


def test_a_removal_removes_only_what_the_rewrite_removed() -> None:
    rewritten = BASE.replace("- Jonas signs off dates.\n", "")
    current = BASE.replace("## Team\n\n", "## Team\n\n- Kenji maps depots.\n")
    assert rebase(BASE, rewritten, current) == (
        "# Memory\n\n## Team\n\n- Kenji maps depots.\n- Maya leads lotsen.\n"
    )


def test_a_new_section_keeps_its_spacing_and_goes_where_it_was_put() -> None:
    rewritten = BASE + "\n## Tools\n\n- CI caches uv.\n"
    current = BASE + "\n## Notes\n\n- Standup at 09:30.\n"
    assert rebase(BASE, rewritten, current) == (
        BASE + "\n## Tools\n\n- CI caches uv.\n" + "\n## Notes\n\n- Standup at 09:30.\n"
    )


def test_what_both_wrote_is_there_once_and_what_both_removed_is_gone() -> None:
    rewritten = BASE.replace("- Jonas signs off dates.\n", "- Lotta runs CI.\n")
    current = BASE.replace("- Jonas signs off dates.\n", "") + "- Lotta runs CI.\n"
    assert rebase(BASE, rewritten, current) == current


def test_a_line_the_rewrite_moved_is_moved_not_lost() -> None:
    rewritten = "# Memory\n\n- C\n- A\n- B\n"
    current = "# Memory\n\n- A\n- B\n- C\n- D\n"
    assert rebase("# Memory\n\n- A\n- B\n- C\n", rewritten, current) == (
        "# Memory\n\n- C\n- A\n- B\n- D\n"
    )
