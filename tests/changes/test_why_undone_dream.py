"""`why` says when the dream behind a line was taken back, as it does for journalled changes."""

import json
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import Workspace
from memclaw.workspace.safeguards.provenance import Author

OLD = "- The Lisbon office lease starts on 2026-12-14."
NEW = "- The Lisbon office lease starts on 2026-12-21."  # the line, with the new date


def ok(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_an_undone_dreams_promotion_is_told_as_undone(isolated_env: Path) -> None:
    ok("init", "pal")
    agent = Workspace.open(isolated_env).agent("pal")
    agent.write("MEMORY.md", f"# Memory\n\n## Active projects\n{OLD}\n", author=Author.MODEL)
    day = agent.now().date().isoformat()
    (isolated_env / "pal" / "memory").mkdir(exist_ok=True)
    fix = f"# {day}\n\n- Correction: the Lisbon office lease moved to 2026-12-21.\n"
    (isolated_env / "pal" / "memory" / f"{day}.md").write_text(fix)
    ok("dream", "pal")
    ok("dream", "undo", "pal")
    ok("dream", "pal")
    assert NEW in (isolated_env / "pal" / "MEMORY.md").read_text().splitlines()
    chain = json.loads(ok("why", "pal", NEW[2:], "--json"))["chain"]
    dreams = [s for s in chain if s["kind"] == "dream" and "run" in s]
    assert len(dreams) == 2, chain
    taken_back = [s for s in dreams if s.get("undone")]
    assert len(taken_back) == 1 and "(undone " in taken_back[0]["text"], chain
    standing = [s for s in dreams if not s.get("undone")]
    assert len(standing) == 1 and "undone" not in standing[0]["text"], chain
