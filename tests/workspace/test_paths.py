"""Path safety: no agent id, file name or owner ever resolves outside the workspace."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memclaw.errors import AgentNotFoundError, UnsafePathError, UsageError, WorkspaceError
from memclaw.workspace import Agent, Workspace
from memclaw.workspace.paths import (
    check_root,
    locate_root,
    resolve_inside,
    resolve_root,
    user_data_root,
    validate_agent_id,
)
from memclaw.workspace.scope import Scope

# Pieces that attack paths: traversal, separators, hidden names, drive letters, controls.
NASTY = [
    "..",
    ".",
    "",
    "/",
    "\\",
    "~",
    "C:",
    ".hidden",
    "..md",
    ".md",
    "_global",
    ".memclaw",
    "MEMORY.md",
    "memory",
    "x.md",
    "a\x00b",
    "a\nb",
    "\x7f",
    "\u202e",
    "é",
    "日本.md",
    " ",
    "%2e%2e",
]

names = st.one_of(
    st.text(),
    st.text(alphabet=st.sampled_from(list("./\\~:a_-\x00\n é")), max_size=12),
    st.lists(st.one_of(st.sampled_from(NASTY), st.text(max_size=4)), max_size=6).map("/".join),
    st.lists(st.sampled_from(NASTY), min_size=1, max_size=4).map("".join),
)
owners = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda channel, ident: f"{channel}:{ident}",
        st.sampled_from(["user", "api", "telegram", "Web", "bad chan", ""]),
        st.one_of(st.text(max_size=30), st.lists(st.sampled_from(NASTY)).map("/".join)),
    ),
)
PROPERTY = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _inside(path: Path, base: Path) -> bool:
    return path.resolve().is_relative_to(base.resolve())


@PROPERTY
@given(agent_id=names)
def test_agent_ids_never_leave_the_root(ws: Workspace, agent_id: str) -> None:
    try:
        validate_agent_id(agent_id)
    except UnsafePathError:
        with pytest.raises(UnsafePathError):
            ws.agent(agent_id)
        return
    folder = (ws.root / agent_id).resolve()
    assert folder.parent == ws.root.resolve()
    assert not agent_id.startswith((".", "_"))
    assert not any(ch in agent_id for ch in "/\\\x00\n")
    with pytest.raises(AgentNotFoundError):
        ws.agent(agent_id)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(agent_id=names)
def test_init_agent_creates_nothing_outside_the_root(
    ws: Workspace, tmp_path: Path, agent_id: str
) -> None:
    before = {p.name for p in tmp_path.iterdir()}
    try:
        created, _ = ws.init_agent(agent_id)
    except UnsafePathError:
        pass
    else:
        assert created.path.resolve().parent == ws.root.resolve()
    assert {p.name for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize(
    "agent_id",
    [
        "..",
        ".",
        "../x",
        "a/b",
        "a\\b",
        "/etc",
        "",
        ".hidden",
        "_global",
        "a\x00b",
        "a\nb",
        "x" * 65,
    ],
)
def test_bad_agent_ids_are_refused(ws: Workspace, agent_id: str) -> None:
    with pytest.raises(UnsafePathError):
        ws.init_agent(agent_id)
    assert list(ws.root.iterdir()) == []


@PROPERTY
@given(name=names)
def test_file_names_resolve_inside_the_agent(agent: Agent, name: str) -> None:
    for md_only in (True, False):
        try:
            path = resolve_inside(agent.path, name, md_only=md_only)
        except UnsafePathError:
            continue
        assert _inside(path, agent.path)
        assert path.resolve() != agent.path.resolve()
        assert not path.relative_to(agent.path).parts[0].startswith(".")
        if md_only:
            assert path.suffix == ".md"


@PROPERTY
@given(name=names, owner=owners)
def test_owner_files_resolve_inside_the_owner_folder(agent: Agent, name: str, owner: str) -> None:
    try:
        path = Scope.resolve(agent, owner).file(name)
    except (UnsafePathError, UsageError):
        return
    owners_dir = agent.path / "owners"
    assert _inside(path, owners_dir)
    assert path.relative_to(owners_dir).parts[0] not in ("", ".", "..")
    assert path.suffix == ".md"


def test_non_markdown_is_refused_for_memory_files(agent: Agent) -> None:
    for name in ("notes.txt", "MEMORY", "MEMORY.md.bak", "memory/2026-11-29.MD"):
        with pytest.raises(UnsafePathError, match="markdown"):
            agent.file(name)
        with pytest.raises(UnsafePathError):
            agent.read(name)
    assert resolve_inside(agent.path, "sessions/a.jsonl", md_only=False).name == "a.jsonl"


def test_absolute_and_traversal_names_are_refused(agent: Agent) -> None:
    for name in ("/etc/passwd.md", "../beta/MEMORY.md", "memory/../../x.md", "C:/x.md", "a\\b.md"):
        with pytest.raises(UnsafePathError):
            agent.file(name)


def test_symlinked_file_escaping_the_agent_is_refused(agent: Agent, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret plans\n", encoding="utf-8")
    (agent.path / "LINK.md").symlink_to(outside)
    with pytest.raises(UnsafePathError, match="outside"):
        agent.file("LINK.md")
    with pytest.raises(UnsafePathError):
        agent.read("LINK.md")


def test_symlinked_folder_escaping_the_agent_is_refused(agent: Agent, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (agent.path / "memory").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError):
        agent.file("memory/2026-11-29.md")
    with pytest.raises(UnsafePathError):
        agent.append_daily("note")
    assert list(outside.iterdir()) == []


def test_symlink_into_a_sibling_agent_is_refused(ws: Workspace) -> None:
    alpha, _ = ws.init_agent("alpha")
    beta, _ = ws.init_agent("beta")
    (alpha.path / "BETA.md").symlink_to(beta.path / "MEMORY.md")
    with pytest.raises(UnsafePathError):
        alpha.read("BETA.md")


def test_symlink_that_stays_inside_is_allowed(agent: Agent) -> None:
    (agent.path / "ALIAS.md").symlink_to(agent.path / "MEMORY.md")
    assert agent.read("ALIAS.md") == agent.read("MEMORY.md")


def test_root_comes_from_flag_then_env_then_a_marked_parent_then_user_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    deep = project / "src" / "pkg"
    deep.mkdir(parents=True)
    (project / "workspaces").mkdir()
    monkeypatch.chdir(deep)
    data = {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "data")}
    # A workspaces/ without memclaw.yaml is not a root: any folder may be called that.
    assert resolve_root(None, data) == tmp_path / "data" / "memclaw" / "workspaces"
    (project / "workspaces" / "memclaw.yaml").write_text("", encoding="utf-8")
    choice = locate_root(None, data)
    assert choice.path == project / "workspaces"
    assert str(project) in choice.reason
    assert not choice.explicit
    monkeypatch.chdir(project)
    assert "current folder" in locate_root(None, data).reason
    assert resolve_root(None, {"MEMCLAW_ROOT": "/srv/ws"}) == Path("/srv/ws")
    assert locate_root(None, {"MEMCLAW_ROOT": "/srv/ws"}).explicit
    assert resolve_root("here", {"MEMCLAW_ROOT": "/srv/ws"}) == project / "here"
    assert os.path.isabs(resolve_root("~/x", {}))


def test_the_user_data_root_follows_the_platform(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    assert user_data_root(env, "linux") == tmp_path / ".local" / "share" / "memclaw" / "workspaces"
    assert user_data_root(env, "darwin") == tmp_path / "Library" / "Application Support" / "memclaw"


def test_a_missing_explicit_root_is_an_error_unless_creating(tmp_path: Path) -> None:
    missing = locate_root(tmp_path / "nope", {})
    with pytest.raises(WorkspaceError, match="does not exist"):
        check_root(missing)
    check_root(missing, creating=True)
    check_root(locate_root(None, {"HOME": str(tmp_path)}))  # a fallback root may be absent
    assert not (tmp_path / "nope").exists()
