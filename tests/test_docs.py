"""The docs site and the README stay true: generated settings page, examples that run.

A fenced block marked ``console`` in docs/ is an example a reader can paste: each
``$ memclaw ...`` line is run on a fresh copy of the demo agent (one copy per page,
blocks in page order, so a page may build on its earlier examples), must exit 0
(or the code a trailing ``# exit N`` comment names), and every output line the
block shows must appear in what the command printed. In a shown line,
``...`` stands for any text (a date, an id, a timing) and runs of spaces or tabs
compare equal (a terminal shows tables, a pipe tab-separated rows). Blocks that
cannot run here (a chat with a model, a server) are written as ``sh`` blocks.
"""

from __future__ import annotations

import re
import runpy
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pristine
import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.cli.fast import hoist_globals

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md"))
EXAMPLES = [REPO / "README.md", *PAGES]  # the README's examples must stay true too
_FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass
class Example:
    line: int
    command: str
    expect_code: int = 0
    shown: list[str] = field(default_factory=list)


def examples(text: str) -> list[Example]:
    """The ``$ memclaw`` lines of the page's console blocks, with the output each shows."""
    found: list[Example] = []
    for fence in _FENCE.finditer(text):
        if fence.group(1) != "console":
            continue
        first = text.count("\n", 0, fence.start(2)) + 1
        for offset, raw in enumerate(fence.group(2).splitlines()):
            if raw.startswith("$ "):
                command = raw[2:]
                code = re.search(r"\s#\s*exit (\d+)\s*$", command)
                found.append(Example(first + offset, command, int(code.group(1)) if code else 0))
            elif raw.strip() and found and found[-1].line >= first:
                found[-1].shown.append(raw)
            elif raw.strip():
                raise AssertionError(f"line {first + offset}: output before any $ command")
    return found


def _normal(line: str) -> str:
    return " ".join(line.split())


def _matches(shown: str, printed: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in _normal(shown).split("..."))
    return re.fullmatch(pattern, _normal(printed)) is not None


def _missing(shown: list[str], printed: str) -> list[str]:
    """The shown lines found nowhere in the printed output.

    Order is not checked: stdout and stderr (status lines, summaries) interleave
    differently in a terminal and in a capture."""
    lines = printed.splitlines()
    return [want for want in shown if not any(_matches(want, line) for line in lines)]


def _demo_root(root: Path) -> None:
    """The repo's workspaces/ as a fresh clone has it (no index, no logs)."""
    shutil.copytree(pristine.workspaces(), root, dirs_exist_ok=True)


@pytest.mark.parametrize("page", EXAMPLES, ids=lambda p: str(p.relative_to(REPO)))
def test_console_examples_run_on_the_demo_agent(
    page: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = examples(page.read_text(encoding="utf-8"))
    if not found:
        return
    _demo_root(isolated_env)
    monkeypatch.chdir(isolated_env.parent)  # `--root workspaces` and discovery both work
    for example in found:
        where = f"{page.relative_to(REPO)}:{example.line}: {example.command}"
        words = shlex.split(example.command, comments=True)
        assert words[0] == "memclaw", f"{where}: console blocks run memclaw only; use sh"
        result = CliRunner().invoke(app, hoist_globals(words[1:]), catch_exceptions=False)
        assert result.exit_code == example.expect_code, f"{where}\n{result.output}"
        missing = _missing(example.shown, result.output)
        assert not missing, f"{where}: not printed: {missing}\n--- printed:\n{result.output}"


# The pages whose ``python`` blocks are whole programs over the demo agent (elsewhere a
# python block may be a fragment, such as a provider class of a package of your own).
PYTHON_PAGES = [REPO / "README.md", DOCS / "python-api.md"]


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_python_examples_run_on_the_demo_agent(
    page: Path,
    isolated_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = page.read_text(encoding="utf-8")
    code = [f.group(2) for f in _FENCE.finditer(text) if f.group(1) == "python"]
    if not code:
        return
    _demo_root(isolated_env)
    monkeypatch.chdir(isolated_env.parent)  # the examples open "workspaces"
    for block in code:
        exec(compile(block, str(page), "exec"), {"__name__": "__docs__"})
    assert "Maya prefers rooibos" in capsys.readouterr().out  # each example prints its search


def test_every_public_name_is_documented() -> None:
    import memclaw

    page = (DOCS / "python-api.md").read_text(encoding="utf-8")
    for name in memclaw.__all__:
        assert name.startswith("__") or f"| `{name}" in page, f"{name} is not in python-api.md"


def test_the_readme_is_a_short_front_door_whose_links_resolve() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [t for t in targets if "://" not in t]
    assert local, "the README links into the docs"
    broken = [t for t in local if not (REPO / t).exists()]
    assert not broken, f"README links to missing files: {broken}"


def test_the_browser_picture_is_the_snapshot_the_browser_tests_keep() -> None:
    kept = REPO / "tests" / "browse" / "snapshots" / "facts.svg"
    assert (DOCS / "img" / "browse-facts.svg").read_bytes() == kept.read_bytes(), (
        "copy tests/browse/snapshots/facts.svg to docs/img/browse-facts.svg"
    )


def test_the_command_map_names_every_command() -> None:
    import typer.main

    group = typer.main.get_command(app)
    names = group.commands  # type: ignore[attr-defined]
    table = (DOCS / "commands" / "index.md").read_text(encoding="utf-8").split("## Conventions")[0]
    missing = [name for name in names if f"`{name}`" not in table]
    assert not missing, f"commands missing from docs/commands/index.md's map: {missing}"


def test_the_example_checker_catches_a_wrong_output_line() -> None:
    page = "```console\n$ memclaw files list demo\nMEMORY.md ... yes 3\nNOPE.md\n```\n"
    (example,) = examples(page)
    assert example.shown == ["MEMORY.md ... yes 3", "NOPE.md"]
    printed = "AGENTS.md\t3.1 KB\tyes\t0\nMEMORY.md\t3.5 KB\tyes\t3\n"
    assert _missing(example.shown, printed) == ["NOPE.md"]
    assert examples("```console\n$ memclaw x  # exit 2\n```\n")[0].expect_code == 2


def test_the_settings_reference_is_generated_from_the_code() -> None:
    generator = runpy.run_path(str(DOCS / "gen_config.py"))
    committed = (DOCS / "reference" / "settings.md").read_text(encoding="utf-8")
    assert committed == generator["render"](), "stale: run python docs/gen_config.py"
    from memclaw.config import setting_fields

    for f in setting_fields():  # every key, with its own description
        assert f"| `{f.name}` |" in committed and f.metadata["help"] in committed


def test_every_page_is_in_the_nav() -> None:
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for page in PAGES:
        assert f" {page.relative_to(DOCS).as_posix()}\n" in nav, f"{page} is not in mkdocs.yml"


def test_make_demo_installs_the_base_package_and_make_test_every_extra(tmp_path: Path) -> None:
    shutil.copy(REPO / "Makefile", tmp_path)
    shutil.copy(REPO / "pyproject.toml", tmp_path)

    def planned(target: str) -> str:
        done = subprocess.run(
            ["make", "-n", "-B", target, "PYTHON=python3"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    demo = planned("demo")
    installs = [line for line in demo.splitlines() if "pip install" in line and "-e" in line]
    assert installs and all(line.rstrip().endswith("-e .") for line in installs), installs
    test = planned("test")
    extras = re.findall(r"-e '\.\[(.+?)\]'", test)
    assert extras, test
    import tomllib

    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert set(extras[0].split(",")) == set(declared["optional-dependencies"])
    assert "mkdocs build --strict" in test
