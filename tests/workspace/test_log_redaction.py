"""append_log is the one door into the logs of the ledger: every string in a record is redacted."""

from pathlib import Path

from extract.extractkit import make_agent
from secretkit import GITHUB, OPENAI

from memclaw.workspace.logs import append_log, read_log


def test_nested_strings_and_odd_values_are_redacted(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    record = {
        "reason": f"saw {GITHUB}",
        "hits": [{"query": f"key {OPENAI}", "line": 3, "ok": True, "none": None}],
        "error": ValueError(f"bad key {GITHUB}"),  # not JSON: written as its str(), gated too
    }
    append_log(agent, "extract", record)
    raw = b"".join(p.read_bytes() for p in agent.meta_dir.glob("ledger.sqlite*")).decode("latin-1")
    assert GITHUB not in raw and OPENAI not in raw
    (stored,) = read_log(agent, "extract")
    assert stored["hits"][0]["line"] == 3 and stored["hits"][0]["ok"] is True
    assert stored["reason"].startswith("saw [REDACTED:")
