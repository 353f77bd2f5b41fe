"""memclaw search / stats / reindex: output shapes, errors, the fast lane, and start-up imports."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ledgerkit import stream_text
from secretkit import GITHUB, leaks
from typer.testing import CliRunner

from memclaw.cli import fast
from memclaw.cli.app import app
from memclaw.cli.recall import hits


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_search_prints_one_line_per_hit_when_piped(demo_agent: Path) -> None:
    code, out, _ = _run("search", "knee", "--limit", "2")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("demo/") and "«" in lines[0] and "»" in lines[0]


def test_search_json_lines_carry_every_hit_field(demo_agent: Path) -> None:
    code, out, _ = _run("search", "cutover", "window", "--agent", "demo", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows and set(rows[0]) >= {
        "agent",
        "file",
        "line",
        "end_line",
        "scope",
        "owner",
        "date",
        "snippet",
        "score",
        "text",
        "highlights",
    }
    first = rows[0]
    start, end = first["highlights"][0]
    assert first["snippet"][start:end].lower() in {"cutover", "window"}
    assert demo_agent.joinpath(first["file"]).read_text().splitlines()[first["line"] - 1] in (
        first["text"].splitlines()[0],
    )


def test_search_context_shows_the_lines_around_each_hit_like_grep(demo_agent: Path) -> None:
    code, out, _ = _run("search", "knee", "--limit", "2", "--context", "1", "--json")
    assert code == 0
    for row in map(json.loads, out.splitlines()):
        lines = demo_agent.joinpath(row["file"]).read_text().split("\n")
        before, after = row["context"]["before"], row["context"]["after"]
        assert [n for n, _ in before] == [row["line"] - 1][: row["line"] - 1]
        assert all(lines[n - 1] == text for n, text in before + after)
        assert [n for n, _ in after] in ([row["end_line"] + 1], [])
    code, out, _ = _run("search", "knee", "--limit", "2", "-C", "1")
    assert code == 0
    first, _second = out.split("--\n")
    assert ":" in first.splitlines()[1] and "«knee»" in out.lower()
    assert re.match(r"demo/\S+\.md-\d+- ", first.splitlines()[0])  # like grep: "file-3- text"
    code, _, err = _run("search", "knee", "--context", "99")
    assert code != 0 and "--context" in err


def test_search_budget_hands_over_hits_then_the_lines_around_them(demo_agent: Path) -> None:
    code, out, _ = _run("search", "knee", "--budget", "1500", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    texts = [r["text"] for r in rows]
    texts += [t for r in rows for _, t in r["context"]["before"] + r["context"]["after"]]
    assert rows and sum(len(t) + 1 for t in texts) <= 1500
    assert any(r["context"]["before"] or r["context"]["after"] for r in rows)
    code, _, err = _run("search", "knee", "--budget", "500", "--context", "1")
    assert code != 0 and "--budget" in err
    code, _, err = _run("search", "knee", "--budget", "0")
    assert code != 0 and "--budget" in err


def test_search_filters_and_no_matches(demo_agent: Path) -> None:
    code, out, err = _run("search", "zebra-crossing-xyzzy")
    assert code == 0 and out == "" and "no matches" in err
    code, out, _ = _run("search", "knee", "--since", "2026-11-28", "--json")
    assert code == 0 and {json.loads(r)["date"] for r in out.splitlines()} == {"2026-11-28"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "x", "--agent", "demo", "--all"], "not both"),
        (["search", "x", "--scope", "personal"], "--owner"),
        (["search", "x", "--since", "last spring"], "YYYY-MM-DD"),
        (["reindex"], "--all"),
    ],
)
def test_usage_errors_exit_2(demo_agent: Path, args: list[str], message: str) -> None:
    code, _, err = _run(*args)
    assert code == 2 and message in err


def test_unknown_agent_is_a_usage_error(demo_agent: Path) -> None:
    code, _, err = _run("search", "knee", "--agent", "nobody")
    assert code == 2 and "nobody" in err


def test_table_on_a_terminal(demo_agent: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hits, "is_terminal", lambda: True)
    code, out, _ = _run("search", "knee")
    assert code == 0 and "snippet" in out and "demo/MEMORY.md:10" in out


def test_stats_and_reindex(demo_agent: Path) -> None:
    shutil.rmtree(demo_agent / ".memclaw" / "logs", ignore_errors=True)
    (demo_agent / ".memclaw" / "index.sqlite").unlink(missing_ok=True)
    code, out, _ = _run("stats", "demo", "--json")
    assert code == 0
    (before,) = json.loads(out)["indexes"]
    assert before["name"] == "demo" and before["pending"] > 0
    code, out, _ = _run("reindex", "--all", "--json")
    assert code == 0 and json.loads(out.splitlines()[0])["rebuilt"] is True
    _run("search", "knee")
    code, out, _ = _run("stats", "--json")
    (after,) = json.loads(out)["indexes"]
    assert after["files"] == before["pending"] and after["pending"] == 0
    assert after["searches"] == 1 and after["top_files"]
    code, out, _ = _run("stats")
    assert code == 0 and "demo" in out and "most recalled" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "knee"],
        ["search", "cutover", "window", "--json"],
        ["search", "knee", "-n", "2", "--agent", "demo", "--json"],
        ["search", "--limit=3", "knee", "--scope", "team"],
        ["search", "knee", "--since", "2026-11-20", "--until=2026-11-30", "--json"],
        ["search", "--", "--not-a-flag", "knee"],
        ["search", "knee", "--context", "2", "-n", "3"],
        ["search", "knee", "-C", "1", "--json"],
        ["search", "knee", "--budget", "800"],
        ["search", "knee", "--budget=2000", "--json"],
    ],
)
def test_fast_lane_prints_what_typer_prints(
    demo_agent: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    parsed = fast.parse_search(argv)
    assert parsed is not None
    assert fast.run_search(parsed) == 0
    quick = capsys.readouterr().out
    code, slow, _ = _run(*argv)
    assert code == 0 and quick == slow


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "--help"],
        ["search"],
        ["search", "x", "--bogus"],
        ["search", "x", "--limit", "0"],
        ["search", "x", "--scope", "nope"],
        ["search", "x", "--context", "99"],
        ["search", "x", "--budget", "0"],
        ["search", "x", "--budget", "-5"],
        ["search", "x", "--agent"],
        ["search", "x", "--agent", "a", "--all"],
        ["--version"],
        ["stats"],
        ["--root"],
    ],
)
def test_fast_lane_leaves_everything_else_to_typer(argv: list[str]) -> None:
    assert fast.parse_search(argv) is None


def test_fast_lane_reads_global_flags() -> None:
    parsed = fast.parse_search(["--root", "/r", "--set=search_limit=3", "--debug", "search", "q"])
    assert parsed is not None
    assert (parsed.root, parsed.sets, parsed.debug, parsed.words) == (
        "/r",
        ["search_limit=3"],
        True,
        ["q"],
    )


def test_cold_search_imports_nothing_heavy(demo_agent: Path) -> None:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memclaw", "search", "knee", "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert result.stdout.strip()
    loaded = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if "|" in line}
    heavy = {
        "openai",
        "tiktoken",
        "watchdog",
        "typer",
        "rich",
        "pydantic",
        "yaml",
        "httpx",
        "textual",
    }
    assert not {name.split(".")[0] for name in loaded} & heavy


# A fresh process runs the fast lane's search and lists what it loaded: nothing the
# search does not use before its hits, so that a cold start stays near a bare python.
_FAST_SEARCH = """
import json, sys
from memclaw.cli import fast
status = fast.run_search(fast.parse_search(sys.argv[1:]))
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
sys.exit(status)
"""


def _fast_search(*argv: str) -> tuple[str, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _FAST_SEARCH, *argv],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout, set(json.loads(done.stderr.splitlines()[-1]))


def test_cold_search_loads_no_write_machinery_and_only_the_gate_it_logs_through(
    demo_agent: Path,
) -> None:
    out, loaded = _fast_search("search", "knee", "--json")
    assert out.strip()
    assert '"query": "knee"' in stream_text(
        demo_agent / ".memclaw", "recall"
    )  # it logged, through the secret gate
    assert "memclaw.gates.secrets" in loaded
    unused = {
        "memclaw.gates.noise",  # transcripts, before extraction
        "memclaw.gates.injection",
        "memclaw.gates.credentials.split",
        "memclaw.workspace.safeguards.ceiling",  # what a write checks and records
        "memclaw.workspace.safeguards.journal",
        "memclaw.workspace.safeguards.history",
        "memclaw.workspace.sections",
        "memclaw.workspace.scope",
        "tempfile",  # atomic writes
        "logging",  # a damaged index's warning
        "difflib",  # "did you mean" for an unknown agent
        "memclaw.index.query.context",  # --context and --budget
    }
    assert unused.isdisjoint(loaded), sorted(unused & loaded)


def test_a_cold_search_still_redacts_a_secret_in_its_query(
    demo_agent: Path, isolated_env: Path
) -> None:
    # The gate is loaded and its patterns compiled only when the recall log is written:
    # a process that has not used them yet must redact all the same.
    out, _ = _fast_search("search", f"cutover window {GITHUB}", "--json")
    assert out.strip()
    assert "[REDACTED:github_token]" in stream_text(demo_agent / ".memclaw", "recall")
    assert leaks(isolated_env) == []


def test_the_fast_lane_leaves_the_last_garbage_collection_to_the_os(demo_agent: Path) -> None:
    # atexit runs its handlers last in, first out: this one runs after the fast lane's.
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "from memclaw.cli.fast import main\n"
        "sys.argv = ['memclaw', 'search', 'knee', '--limit', '1']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "frozen True"
    assert "knee" in done.stdout.lower()
