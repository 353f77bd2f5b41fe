"""Agent.write: the four strategies, ceilings, history and restore, secrets, owner routing."""

from pathlib import Path

import pytest

from memclaw.errors import SecretDetectedError, UnsafePathError, UsageError
from memclaw.workspace import Agent, Scope, Workspace, WriteStrategy
from memclaw.workspace.files import file_versions, read_version
from memclaw.workspace.owners import Visibility
from memclaw.workspace.safeguards import history
from memclaw.workspace.safeguards.history import KEEP
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.templates import MEMORY_MD, PROFILE_MD

from .conftest import fixed_clock

# Shaped like a GitHub personal access token; the secret gate must refuse it.
TOKEN = "ghp_R8x2Kq9LmZ4vT1wY7nB3cD6fH0jP5sA2eG9u"


def _big(prefix: str, sections: int, size: int = 400) -> str:
    return "# Title\n\n" + "".join(
        f"## {prefix} {i}\n\n{chr(97 + i % 26) * size}\n\n" for i in range(sections)
    )


# --- overwrite ---------------------------------------------------------------------------------


def test_overwrite_creates_then_replaces(agent: Agent) -> None:
    first = agent.write("NOTES.md", "# Notes")
    assert (first.name, first.created, first.changed) == ("NOTES.md", True, True)
    assert first.path == agent.path / "NOTES.md"
    assert agent.read("NOTES.md") == "# Notes\n"  # a final newline is added
    assert first.chars == len("# Notes\n")
    second = agent.write("NOTES.md", "# Notes\n\n- new\n")
    assert (second.created, second.changed) == (False, True)
    assert agent.read("NOTES.md") == "# Notes\n\n- new\n"


def test_overwrite_with_same_content_changes_nothing(agent: Agent) -> None:
    agent.write("MEMORY.md", "# Memory\n\n- one\n")
    before = history.versions(agent, "MEMORY.md")
    again = agent.write("MEMORY.md", "# Memory\n\n- one\n")
    assert again.changed is False and again.backup is None
    assert history.versions(agent, "MEMORY.md") == before


def test_overwrite_into_a_new_subfolder(agent: Agent) -> None:
    result = agent.write("projects/shed.md", "# Shed\n")
    assert result.created and (agent.path / "projects" / "shed.md").is_file()


def test_empty_content_makes_an_empty_file(agent: Agent) -> None:
    agent.write("NOTES.md", "")
    assert (agent.path / "NOTES.md").read_text(encoding="utf-8") == ""


# --- append ------------------------------------------------------------------------------------


def test_append_to_missing_file(agent: Agent) -> None:
    result = agent.write("LOG.md", "- first", WriteStrategy.APPEND)
    assert result.created
    assert agent.read("LOG.md") == "- first\n"


def test_append_adds_a_line_break_when_the_file_lacks_one(agent: Agent) -> None:
    (agent.path / "LOG.md").write_text("- first", encoding="utf-8")
    agent.write("LOG.md", "- second", WriteStrategy.APPEND)
    assert agent.read("LOG.md") == "- first\n- second\n"
    agent.write("LOG.md", "- third\n", WriteStrategy.APPEND)
    assert agent.read("LOG.md") == "- first\n- second\n- third\n"


def test_append_to_memory_keeps_the_previous_version(agent: Agent) -> None:
    result = agent.write("MEMORY.md", "- note", WriteStrategy.APPEND)
    assert agent.read("MEMORY.md") == MEMORY_MD + "- note\n"
    assert result.backup is not None
    assert history.read(agent, result.backup) == MEMORY_MD


# --- replace_section ----------------------------------------------------------------------------


def test_replace_section(agent: Agent) -> None:
    agent.write(
        "MEMORY.md", "- memclaw tests", WriteStrategy.REPLACE_SECTION, section="Active projects"
    )
    agent.write("MEMORY.md", "- use uv", WriteStrategy.REPLACE_SECTION, section="decisions")
    text = agent.read("MEMORY.md")
    assert (
        "## Active projects\n\n- memclaw tests\n\n## Decisions\n\n- use uv\n\n## Open threads"
        in text
    )
    again = agent.write("MEMORY.md", "- use uv", WriteStrategy.REPLACE_SECTION, section="Decisions")
    assert again.changed is False


def test_replace_section_adds_a_missing_section(agent: Agent) -> None:
    agent.write("MEMORY.md", "- be brief", WriteStrategy.REPLACE_SECTION, section="Style")
    assert agent.read("MEMORY.md") == MEMORY_MD + "\n## Style\n\n- be brief\n"


def test_replace_section_on_a_missing_file(agent: Agent) -> None:
    agent.write("NEW.md", "body", WriteStrategy.REPLACE_SECTION, section="Part")
    assert agent.read("NEW.md") == "## Part\n\nbody\n"


def test_replace_section_needs_a_section(agent: Agent) -> None:
    before = agent.read("MEMORY.md")
    for section in (None, ""):
        with pytest.raises(UsageError):
            agent.write("MEMORY.md", "x", WriteStrategy.REPLACE_SECTION, section=section)
    assert agent.read("MEMORY.md") == before


# --- upsert_kv ----------------------------------------------------------------------------------


def test_upsert_kv_in_a_section(agent: Agent) -> None:
    agent.write("PROFILE.md", "Maya", WriteStrategy.UPSERT_KV, key="name", section="Identity")
    agent.write("PROFILE.md", "Gothenburg", WriteStrategy.UPSERT_KV, key="city", section="Identity")
    agent.write("PROFILE.md", "Maya L.", WriteStrategy.UPSERT_KV, key="Name", section="Identity")
    assert agent.read("PROFILE.md") == PROFILE_MD.replace(
        "## Identity\n\n", "## Identity\n\n- Name: Maya L.\n- city: Gothenburg\n\n"
    )


def test_upsert_kv_without_section_replaces_the_first_match(agent: Agent) -> None:
    agent.write("NOTES.md", "# Notes\n\n- editor: vim\n")
    agent.write("NOTES.md", "helix", WriteStrategy.UPSERT_KV, key="editor")
    agent.write("NOTES.md", "fish", WriteStrategy.UPSERT_KV, key="shell")
    assert agent.read("NOTES.md") == "# Notes\n\n- editor: helix\n- shell: fish\n"


def test_upsert_kv_needs_a_key(agent: Agent) -> None:
    with pytest.raises(UsageError):
        agent.write("PROFILE.md", "x", WriteStrategy.UPSERT_KV)


# --- ceilings -----------------------------------------------------------------------------------


def _lines(prefix: str, count: int) -> list[str]:
    """``count`` list items of exactly 100 characters each, newline included."""
    return [(f"- {prefix} {i:03d} " + "x" * 99)[:99] for i in range(count)]


def _file(lines: list[str], head: str = "# Memory\n\n") -> str:
    return head + "".join(f"{line}\n" for line in lines)


@pytest.mark.parametrize(("name", "ceiling"), [("PROFILE.md", 4000), ("MEMORY.md", 8000)])
def test_a_persons_oversized_file_is_kept_whole_and_reported(
    agent: Agent, name: str, ceiling: int
) -> None:
    content = _big("Part", 40)
    result = agent.write(name, content)
    assert agent.read(name) == content
    assert result.ceiling is not None and result.over_ceiling and result.moved == 0
    assert result.ceiling.original_chars == len(content) > ceiling
    assert not (agent.path / name.replace(".md", ".overflow.md")).exists()


def test_model_lines_move_oldest_first_to_an_overflow_file(agent: Agent) -> None:
    mine, older, newer = _lines("mine", 40), _lines("older", 20), _lines("newer", 25)
    agent.write("MEMORY.md", _file(mine, "# Memory\n\n## Notes\n\n"))
    for batch in (older, newer):
        text = agent.read("MEMORY.md") + _file(batch, "")
        result = agent.write("MEMORY.md", text, author=Author.MODEL)
    memory = agent.read("MEMORY.md")
    assert len(memory) <= 8000 and result.moved == 7  # one of them for the note's room
    assert all(line in memory for line in mine + older[7:] + newer)
    overflow = (agent.path / "MEMORY.overflow.md").read_text(encoding="utf-8")
    assert _file(older[:7], "### Notes\n\n") in overflow
    assert "## 2026-11-29 09:30: 7 entries from MEMORY.md (8000-character ceiling)" in overflow
    assert memory.endswith(
        "\n\n<!-- memclaw moved 7 entries to MEMORY.overflow.md on 2026-11-29 "
        "(8000-character ceiling) -->\n"
    )
    assert result.ceiling is not None and result.ceiling.overflow == "MEMORY.overflow.md"
    assert not agent.meta().get("MEMORY.overflow.md")  # kept, but never injected


def test_a_person_edit_of_a_model_line_makes_it_theirs(agent: Agent) -> None:
    facts = _lines("fact", 85)
    agent.write("MEMORY.md", _file(facts[:75]), author=Author.MODEL)
    agent.write("MEMORY.md", agent.read("MEMORY.md").replace(facts[0], "- fact 000 (checked)"))
    agent.write("MEMORY.md", agent.read("MEMORY.md") + _file(facts[75:], ""), author=Author.MODEL)
    memory = agent.read("MEMORY.md")
    assert "- fact 000 (checked)" in memory
    overflow = (agent.path / "MEMORY.overflow.md").read_text(encoding="utf-8")
    assert _file(facts[1:7], "") in overflow  # the oldest lines that are still the model's
    assert all(line in memory for line in facts[7:])


def test_the_overflow_is_written_before_the_file_loses_the_lines(
    agent: Agent, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memclaw.workspace import agent as agent_module

    facts = _lines("fact", 85)
    agent.write("MEMORY.md", _file(facts[:75]), author=Author.MODEL)
    before = agent.read("MEMORY.md")

    def crash(path: Path, text: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(agent_module, "atomic_write", crash)
    with pytest.raises(OSError):
        agent.write("MEMORY.md", before + _file(facts[75:], ""), author=Author.MODEL)
    assert agent.read("MEMORY.md") == before
    assert facts[0] in (agent.path / "MEMORY.overflow.md").read_text(encoding="utf-8")


def test_without_a_provenance_record_every_line_is_the_persons(agent: Agent) -> None:
    from memclaw.workspace import ledger

    facts = _lines("fact", 85)
    agent.write("MEMORY.md", _file(facts[:75]), author=Author.MODEL)
    ledger.save(agent.meta_dir, "provenance/MEMORY.md", None)
    result = agent.write(
        "MEMORY.md", agent.read("MEMORY.md") + _file(facts[75:], ""), author=Author.MODEL
    )
    memory = agent.read("MEMORY.md")
    assert all(line in memory for line in facts[:75] + facts[82:])
    assert result.moved == 7
    assert _file(facts[75:82], "") in (agent.path / "MEMORY.overflow.md").read_text("utf-8")


def test_zero_ceiling_is_unlimited(isolated_env: Path) -> None:
    ws = Workspace.open(
        isolated_env, overrides={"memory_max_chars": 0, "profile_max_chars": "0"}, clock=fixed_clock
    )
    agent, _ = ws.init_agent("alpha")
    content = _big("Part", 100)
    for name in ("MEMORY.md", "PROFILE.md"):
        result = agent.write(name, content, author=Author.MODEL)
        assert not result.over_ceiling and result.moved == 0
        assert agent.read(name) == content


def test_custom_ceiling_and_personal_files(isolated_env: Path) -> None:
    ws = Workspace.open(isolated_env, overrides={"profile_max_chars": 1000}, clock=fixed_clock)
    agent, _ = ws.init_agent("alpha")
    facts = _lines("fact", 20)
    for owner, folder in ((None, agent.path), ("user:maya", agent.path / "owners/user%3Amaya")):
        scope = Scope.resolve(agent, owner)
        result = scope.write("PROFILE.md", _file(facts, ""), author=Author.MODEL)
        profile = scope.read("PROFILE.md")
        assert result.moved == 11 and len(profile) <= 1000 and "<!-- memclaw moved 11 " in profile
        overflow = (folder / "PROFILE.overflow.md").read_text(encoding="utf-8")
        assert _file(facts[:11], "### (top of the file)\n\n") in overflow


def test_other_files_have_no_ceiling(agent: Agent) -> None:
    content = _big("Part", 100)
    assert agent.write("NOTES.md", content, author=Author.MODEL).ceiling is None
    assert agent.read("NOTES.md") == content


# --- history and restore -----------------------------------------------------------------------


def test_rewrite_keeps_the_previous_version(agent: Agent) -> None:
    agent.write("MEMORY.md", "# Memory\n\n- version one\n")
    big = _big("Part", 40)
    result = agent.write("MEMORY.md", big)
    assert result.over_ceiling and result.backup is not None
    assert history.read(agent, result.backup) == "# Memory\n\n- version one\n"
    assert result.backup.startswith(".memclaw/history/MEMORY.md/")
    [newest, oldest] = history.versions(agent, "MEMORY.md")
    assert newest == result.backup and history.read(agent, oldest) == MEMORY_MD
    # kept in the ledger, not as files of their own
    assert not (agent.meta_dir / "history").exists()


def test_history_is_newest_first_with_a_fixed_clock(agent: Agent) -> None:
    for i in range(KEEP + 5):
        agent.write("MEMORY.md", f"# Memory\n\n- version {i}\n")
    kept = history.versions(agent, "MEMORY.md")
    assert len(kept) == KEEP
    texts = [history.read(agent, name) for name in kept]
    assert texts == [f"# Memory\n\n- version {i}\n" for i in range(KEEP + 3, 3, -1)]


def test_only_profile_and_memory_are_versioned(agent: Agent) -> None:
    agent.write("NOTES.md", "one")
    result = agent.write("NOTES.md", "two")
    assert result.backup is None
    # The change journal keeps the text an overwrite replaced, so `memclaw undo` can
    # revert any change; the write itself still reports no backup.
    assert [history.read(agent, n) for n in history.versions(agent, "NOTES.md")] == ["one\n"]
    assert agent.write("SOUL.md", "# Soul\n").backup is None


def test_versions_are_listed_and_read_by_number(agent: Agent) -> None:
    with pytest.raises(UsageError, match="no previous version"):
        read_version(agent, "MEMORY.md", 1)
    mine = Scope.resolve(agent, "user:maya")
    mine.write("MEMORY.md", "# Mine\n\n- one\n")
    mine.write("MEMORY.md", "# Mine\n\n- two\n")
    listed = file_versions(agent, "owners/user%3Amaya/MEMORY.md")
    assert [(v["version"], v["lines"]) for v in listed["versions"]] == [(1, 3)]
    assert read_version(agent, "owners/user%3Amaya/MEMORY.md", 1)["content"] == "# Mine\n\n- one\n"
    assert file_versions(agent, "MEMORY.md")["versions"] == []  # the team's file: untouched
    with pytest.raises(UsageError, match="versions 1 to 1"):
        read_version(agent, "owners/user%3Amaya/MEMORY.md", 2)
    with pytest.raises(UnsafePathError):
        file_versions(agent, "../other/MEMORY.md")


def test_a_version_that_is_not_utf8_is_kept_byte_for_byte(agent: Agent) -> None:
    latin = "# Notes\n- café\n".encode("latin-1")
    name = history.save(agent, "NOTES.md", latin)
    assert history.read_bytes(agent, name) == latin
    assert history.read(agent, name) is None  # not text
    assert "caf\ufffd" in read_version(agent, "NOTES.md", 1)["content"]


# --- secrets ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "strategy", [WriteStrategy.OVERWRITE, WriteStrategy.APPEND, WriteStrategy.REPLACE_SECTION]
)
def test_secrets_are_refused_and_nothing_is_written(agent: Agent, strategy: WriteStrategy) -> None:
    before = agent.read("MEMORY.md")
    with pytest.raises(SecretDetectedError) as caught:
        agent.write("MEMORY.md", f"- github token {TOKEN}", strategy, section="Rules")
    assert TOKEN not in str(caught.value)
    assert agent.read("MEMORY.md") == before
    assert history.versions(agent, "MEMORY.md") == []
    with pytest.raises(SecretDetectedError):
        agent.append_daily(f"token is {TOKEN}")
    assert not (agent.path / "memory").exists()


# --- owners -------------------------------------------------------------------------------------


def test_owner_writes_land_in_personal_memory(agent: Agent) -> None:
    result = Scope.resolve(agent, "Maya").write("MEMORY.md", "# Mine\n\n- likes tea\n")
    assert result.name == "owners/user%3A%4Daya/MEMORY.md"
    assert result.path == agent.path / "owners" / "user%3A%4Daya" / "MEMORY.md"
    assert Scope.resolve(agent, "Maya").visibility is Visibility.PERSONAL
    assert Scope(agent).visibility is Visibility.TEAM
    assert Scope.resolve(agent, "user:Maya").prefix == "owners/user%3A%4Daya/"
    assert agent.owners() == ["user:Maya"]
    assert Scope.resolve(agent, "user:Maya").read("MEMORY.md") == "# Mine\n\n- likes tea\n"
    assert agent.read("MEMORY.md") == MEMORY_MD  # the team file is untouched
    assert Scope.resolve(agent, "user:sam").read("MEMORY.md") == ""  # nobody else sees it
    daily = Scope.resolve(agent, "user:Maya").append_daily("- tea again")
    assert daily.name == "owners/user%3A%4Daya/memory/2026-11-29.md"


def test_without_isolation_owner_writes_go_to_team(isolated_env: Path) -> None:
    ws = Workspace.open(isolated_env, overrides={"owner_isolation": False}, clock=fixed_clock)
    agent, _ = ws.init_agent("alpha")
    result = Scope.resolve(agent, "user:maya").write("MEMORY.md", "# Shared\n")
    assert result.name == "MEMORY.md"
    assert Scope.resolve(agent, "user:maya").visibility is Visibility.TEAM
    assert Scope.resolve(agent, "user:maya").prefix == ""
    assert agent.read("MEMORY.md") == "# Shared\n"
    assert not (agent.path / "owners").exists()
    assert (
        Scope.resolve(agent, "user:maya").append_daily("- shared note").name
        == "memory/2026-11-29.md"
    )


def test_invalid_owner_is_refused_before_writing(agent: Agent) -> None:
    with pytest.raises(UsageError):
        Scope.resolve(agent, "bad channel:x").write("MEMORY.md", "x")
    assert not (agent.path / "owners").exists()
