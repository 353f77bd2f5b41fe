"""The agent-facing file tools: list, read, write, edit, with the same safety rules as the CLI."""

import pytest

from memclaw.errors import SecretDetectedError, UnsafePathError, WorkspaceError
from memclaw.workspace import Agent
from memclaw.workspace.files import edit_file, file_versions, list_files, read_file, write_file
from memclaw.workspace.paths import MAX_NAME_BYTES
from memclaw.workspace.safeguards.provenance import Author

CORE = ["AGENTS.md", "SOUL.md", "PROFILE.md", "MEMORY.md"]


def test_list_files(agent: Agent) -> None:
    write_file(agent, "notes/garden.md", "# Garden\n")
    result = list_files(agent)
    assert result["agent"] == "alpha"
    assert result["count"] == 5
    assert [f["name"] for f in result["files"]] == [*CORE, "notes/garden.md"]
    first = result["files"][0]
    assert set(first) == {"name", "size", "enabled", "sort_order"}
    assert (first["enabled"], first["sort_order"]) == (True, 0)
    assert [f["name"] for f in list_files(agent, "notes/")["files"]] == ["notes/garden.md"]


def test_read_file(agent: Agent) -> None:
    result = read_file(agent, "SOUL.md")
    assert result == {
        "agent": "alpha",
        "filename": "SOUL.md",
        "enabled": True,
        "content": (agent.path / "SOUL.md").read_text(encoding="utf-8"),
    }


def test_read_missing_file(agent: Agent) -> None:
    with pytest.raises(WorkspaceError, match="does not exist"):
        read_file(agent, "NOPE.md")


def test_write_file_is_a_full_overwrite(agent: Agent) -> None:
    created = write_file(agent, "NOTES.md", "# Notes\n\n- a\n- b\n")
    assert created == {
        "agent": "alpha",
        "filename": "NOTES.md",
        "created": True,
        "chars": len("# Notes\n\n- a\n- b\n"),
        "moved_to_overflow": 0,
        "overflow_file": None,
        "over_ceiling": False,
        "warning": None,
    }
    again = write_file(agent, "NOTES.md", "# Notes\n")
    assert again["created"] is False
    assert read_file(agent, "NOTES.md")["content"] == "# Notes\n"
    assert read_file(agent, "NOTES.md")["enabled"] is False


def test_write_file_reports_the_ceiling(agent: Agent) -> None:
    big = "# Memory\n\n" + "".join(f"## P{i}\n\n{'q' * 500}\n\n" for i in range(30))
    report = write_file(agent, "MEMORY.md", big)
    assert report["over_ceiling"] is True and report["moved_to_overflow"] == 0
    assert "by hand" in report["warning"]
    assert read_file(agent, "MEMORY.md")["content"] == big  # a person's text stays whole


def test_a_model_write_moves_its_oldest_lines_to_the_overflow(agent: Agent) -> None:
    facts = [f"- fact {i:03d} " + "f" * 88 for i in range(90)]
    report = write_file(agent, "MEMORY.md", "\n".join(facts) + "\n", Author.MODEL)
    # Ten for the ceiling, one more for the note saying what moved where.
    assert report["moved_to_overflow"] == 11 and report["overflow_file"] == "MEMORY.overflow.md"
    assert "MEMORY.overflow.md" in report["warning"]
    assert facts[0] in read_file(agent, "MEMORY.overflow.md")["content"]


@pytest.mark.parametrize(
    "name",
    [
        "notes.txt",
        "/tmp/x.md",
        "../beta/MEMORY.md",
        "memory/../../x.md",
        ".hidden.md",
        "",
        "a\\b.md",
        "caf\udce9.md",  # the bytes b"caf\xe9.md" of another encoding, as a shell passes them
    ],
)
def test_unsafe_names_are_refused_everywhere(agent: Agent, name: str) -> None:
    with pytest.raises(UnsafePathError):
        read_file(agent, name)
    with pytest.raises(UnsafePathError):
        write_file(agent, name, "x")
    with pytest.raises(UnsafePathError):
        edit_file(agent, name, "a", "b")


def test_a_versions_name_is_checked_like_a_files(agent: Agent) -> None:
    for name in ("../x.md", "/etc/passwd", "caf\udce9.md", ".memclaw/ledger.sqlite"):
        with pytest.raises(UnsafePathError):
            file_versions(agent, name)
    assert file_versions(agent, "sessions/s-1.jsonl")["versions"] == []  # a transcript's too


def test_edit_unique_text(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "# Notes\n\n- race on Dec 5\n- shed paint\n")
    result = edit_file(agent, "NOTES.md", "Dec 5", "Dec 12")
    assert result == {
        "agent": "alpha",
        "filename": "NOTES.md",
        "replacements": 1,
        "moved_to_overflow": 0,
        "overflow_file": None,
        "over_ceiling": False,
        "warning": None,
    }
    assert read_file(agent, "NOTES.md")["content"] == "# Notes\n\n- race on Dec 12\n- shed paint\n"


def test_edit_is_exact_and_case_sensitive(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "Poetry and poetry\n")
    assert edit_file(agent, "NOTES.md", "Poetry", "uv")["replacements"] == 1
    assert read_file(agent, "NOTES.md")["content"] == "uv and poetry\n"


def test_ambiguous_edit_is_refused(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "uv here, uv there\n")
    with pytest.raises(WorkspaceError, match="2 times"):
        edit_file(agent, "NOTES.md", "uv", "pip")
    assert read_file(agent, "NOTES.md")["content"] == "uv here, uv there\n"


def test_replace_all_reports_the_count(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "uv here, uv there, uv everywhere\n")
    result = edit_file(agent, "NOTES.md", "uv", "pip", replace_all=True)
    assert result["replacements"] == 3
    assert read_file(agent, "NOTES.md")["content"] == "pip here, pip there, pip everywhere\n"
    single = edit_file(agent, "NOTES.md", "everywhere", "too", replace_all=True)
    assert single["replacements"] == 1


def test_missing_old_text_is_refused(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "# Notes\n")
    with pytest.raises(WorkspaceError, match="not found"):
        edit_file(agent, "NOTES.md", "absent", "x")
    with pytest.raises(WorkspaceError, match="empty"):
        edit_file(agent, "NOTES.md", "", "x")
    with pytest.raises(WorkspaceError, match="does not exist"):
        edit_file(agent, "GONE.md", "a", "b")


def test_edit_can_delete_text(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "keep\ndrop me\nkeep too\n")
    edit_file(agent, "NOTES.md", "drop me\n", "")
    assert read_file(agent, "NOTES.md")["content"] == "keep\nkeep too\n"


def test_edit_that_introduces_a_secret_is_refused(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "token: TBD\n")
    with pytest.raises(SecretDetectedError):
        edit_file(agent, "NOTES.md", "TBD", "ghp_R8x2Kq9LmZ4vT1wY7nB3cD6fH0jP5sA2eG9u")
    assert read_file(agent, "NOTES.md")["content"] == "token: TBD\n"


def test_edit_of_memory_keeps_history(agent: Agent) -> None:
    from memclaw.workspace.safeguards.history import read, versions

    before = read_file(agent, "MEMORY.md")["content"]
    edit_file(agent, "MEMORY.md", "## Rules\n", "## Rules\n\n- reply in English\n")
    [previous] = versions(agent, "MEMORY.md")
    assert read(agent, previous) == before


def test_a_name_at_the_length_limit_works_end_to_end(agent: Agent) -> None:
    name = "n" * (MAX_NAME_BYTES - 3) + ".md"
    assert write_file(agent, name, "# One\n")["created"]
    assert not write_file(agent, name, "# Two\n")["created"]  # a rewrite keeps history too
    assert edit_file(agent, name, "Two", "Three")["replacements"] == 1
    assert read_file(agent, name)["content"] == "# Three\n"
    with pytest.raises(UnsafePathError, match="longer than 200 bytes"):
        write_file(agent, "n" + name, "# Four\n")


def test_edit_that_completes_a_secret_from_harmless_halves_is_refused(agent: Agent) -> None:
    # No piece is a secret alone (each too short to be taken for a generated string); the
    # edit glues them into a GitHub token.
    body = "R8x2Kq9LmZ4vT1wY7nB3cD6fH0jP5sA2eG9u"
    first, middle, last = "gh" + "p_" + body[:12], body[12:24], body[24:]
    before = f"the runner reads {first}MARK{last}\n"
    write_file(agent, "NOTES.md", before)
    with pytest.raises(SecretDetectedError, match="once edited"):
        edit_file(agent, "NOTES.md", "MARK", middle)
    assert read_file(agent, "NOTES.md")["content"] == before


def test_edit_next_to_an_old_secret_is_not_blocked_by_it(agent: Agent) -> None:
    # A line the gate did not know when it was written must not block unrelated edits.
    path = agent.path / "NOTES.md"
    token = "gh" + "p_R8x2Kq9LmZ4vT1wY7nB3cD6fH0jP5sA2eG9u"
    path.write_text(f"old: {token}\n\ntodo: milk\n", encoding="utf-8")
    edit_file(agent, "NOTES.md", "milk", "oat milk")
    assert "oat milk" in read_file(agent, "NOTES.md")["content"]
