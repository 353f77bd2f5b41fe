"""doctor says what `mem0 status` says: open-source Mem0 without an embedder cannot start."""

from pathlib import Path

from memclaw.doctor import diagnose


def test_doctor_fails_open_source_mem0_without_an_embedder(isolated_env: Path) -> None:
    found = diagnose(str(isolated_env), {}, {"mem0_mode": "open-source"}, proc=isolated_env)
    (mem0,) = [c for c in found.checks if c.name == "mem0"]
    assert str(mem0.status) == "fail" and "Mem0 open-source mode needs" in mem0.found
    assert found.failed
    plain = diagnose(str(isolated_env), {}, {}, proc=isolated_env)
    assert not [c for c in plain.checks if c.name == "mem0"]  # not configured: no line
