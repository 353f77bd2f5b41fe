"""Counts read as English everywhere: "1 candidate", never "1 candidates" (issue 28)."""

import ast
import re
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

from rich.console import Console

from memclaw.cli.dream.candidates import say_dream
from memclaw.dream.diary import DiaryEntry

PACKAGE = Path(__file__).resolve().parents[2] / "memclaw"
# Nouns that follow a count in memclaw's messages; "{n} hits" is wrong when n is 1.
COUNTED = (
    "things|contradictions|candidates|hits|files|facts|places|memories|messages|runs|notes|"
    "mentions|queries|blocks|searches|retries|sessions|agents|owners|days"
)
AFTER_A_COUNT = re.compile(rf"^ ({COUNTED})\b")
# Limits and settings are never 1 in practice, and "fewer than {min_days} days" reads fine.
NOT_A_COUNT = re.compile(r"max|min|limit|window|[A-Z_]{4,}")


def test_no_count_is_glued_to_a_plural_noun_in_the_source() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for value, text in zip(node.values, node.values[1:], strict=False):
                if not (isinstance(value, ast.FormattedValue) and isinstance(text, ast.Constant)):
                    continue
                expr = ast.unparse(value.value)
                if AFTER_A_COUNT.match(str(text.value)) and not NOT_A_COUNT.search(expr):
                    found.append(
                        f"{path.relative_to(PACKAGE)}:{node.lineno}: {{{expr}}}{text.value}"
                    )
    assert not found, "use memclaw.text.plural.plural():\n" + "\n".join(found)


def test_the_diary_says_one_candidate() -> None:
    entry = DiaryEntry(
        when=datetime(2026, 1, 5, 3, tzinfo=UTC),
        notes=["memory/2026-01-04.md"],
        memory_chars=10,
        candidates=1,
        engine="offline",
        dropped={"said only once": 1},
    )
    text = entry.render()
    assert "; 1 candidate. Engine" in text and "1 said only once" in text


def test_a_refusal_says_refused_once() -> None:
    console = Console(record=True, width=200)
    result = SimpleNamespace(
        agent="demo",
        owner=None,
        status="refused",
        change="",
        dry_run=False,
        reason="refused: the rewrite would drop 3 of 4 entries",
        ceiling=None,
        engine="offline",
        facts=SimpleNamespace(rewritten=[]),
    )
    say_dream(result, console)  # type: ignore[arg-type]
    assert console.export_text().strip() == "demo: refused: the rewrite would drop 3 of 4 entries"
