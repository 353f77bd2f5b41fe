"""Leases: the per-agent lock for roots shared by several machines (lock_mode: lease)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from memclaw.errors import ConfigError, LeaseLostError, LockBusyError
from memclaw.workspace import Workspace
from memclaw.workspace.atomic import HELD, write_bytes_atomic
from memclaw.workspace.safeguards import lease

from .conftest import fixed_clock

# Short, so that a takeover waits out little; long enough that a busy machine starving the
# heartbeat thread for a few hundred milliseconds takes nothing over.
TTL = 1.0


def leased(root: Path, host: str = "host-a", ttl: float = TTL) -> Workspace:
    overrides = {"lock_mode": "lease", "lease_seconds": ttl, "host_id": host}
    return Workspace.open(root, env={}, clock=fixed_clock, overrides=overrides)


def pause(held: lease.Lease) -> None:
    """What SIGSTOP does to a holder's heartbeat: it stops renewing, without releasing."""
    held._stop.set()
    assert held._thread is not None
    held._thread.join()


def test_lock_mode_is_checked(isolated_env: Path) -> None:
    with pytest.raises(ConfigError, match="flock or lease"):
        Workspace.open(isolated_env, env={}, overrides={"lock_mode": "nfs"})


def test_threads_under_a_lease_lose_no_increment(isolated_env: Path) -> None:
    ws = leased(isolated_env, ttl=5)  # long: a starved heartbeat on a busy machine is no takeover
    agent, _ = ws.init_agent("alpha")
    agent.write("count.md", "0")

    def bump() -> None:
        for _ in range(15):
            agent.update("count.md", lambda old: str(int(old) + 1), introduced="1")

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert agent.read("count.md") == "60\n"
    folder = agent.meta_dir / "lease"
    leases = [n for n in folder.iterdir() if n.name.endswith(".lease")]
    assert len(leases) == 1  # older generations are cleaned up as new ones are taken
    assert not [n for n in folder.iterdir() if n.name.endswith(".stage")]


def test_a_live_lease_is_not_taken(isolated_env: Path) -> None:
    agent, _ = leased(isolated_env, ttl=1).init_agent("alpha")
    other = leased(isolated_env, "host-b", ttl=1).agent("alpha")
    # Waiting two leases (the least a lease wait is): the heartbeat keeps it alive all along.
    with (
        agent.lock(),
        pytest.raises(LockBusyError, match="another memclaw process"),
        other.lock(wait=0.5),
    ):
        pass


def test_a_paused_holder_is_taken_over_and_fenced(isolated_env: Path) -> None:
    agent, _ = leased(isolated_env).init_agent("alpha")
    agent.write("MEMORY.md", "before\n")
    other = leased(isolated_env, "host-b").agent("alpha")
    with agent.editing() as late:
        held = HELD.get()
        assert isinstance(held, lease.Lease)
        pause(held)
        other.write("MEMORY.md", "from host-b\n")  # waits out the lease, then takes over
        with pytest.raises(LeaseLostError, match="lost its lease"):
            late.write("MEMORY.md", "from the paused holder\n", introduced="x")
    assert agent.read("MEMORY.md") == "from host-b\n"


def test_a_holder_paused_between_check_and_rename_cannot_land_its_write(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, _ = leased(isolated_env).init_agent("alpha")
    other = leased(isolated_env, "host-b").agent("alpha")
    target = agent.path / "MEMORY.md"
    with agent.lock():
        held = HELD.get()
        assert isinstance(held, lease.Lease)
        calls = []

        def check() -> None:  # the second check is the one right before the rename
            calls.append(1)
            if len(calls) == 2:
                pause(held)
                other.write("MEMORY.md", "from host-b\n")

        monkeypatch.setattr(held, "check", check)
        with pytest.raises(LeaseLostError):
            write_bytes_atomic(target, b"from the paused holder\n")
    assert target.read_text() == "from host-b\n"


def test_a_dead_local_holder_is_taken_at_once(isolated_env: Path) -> None:
    agent, _ = leased(isolated_env).init_agent("alpha")
    folder = agent.meta_dir / "lease"
    folder.mkdir(parents=True, exist_ok=True)
    # A process of this host that died holding generation 7 (pid far above pid_max).
    (folder / "000000000007.lease").write_text('{"host": "host-a", "pid": 999999999, "gen": 7}')
    held = lease.acquire(folder, agent.path, host="host-a", ttl=60, wait=0)
    try:
        assert held.token == 8
        assert not (folder / "000000000007.lease").exists()
    finally:
        held.release()


def test_flock_mode_sets_no_fence(agent: object) -> None:
    from memclaw.workspace import Agent

    assert isinstance(agent, Agent)
    with agent.lock():
        assert HELD.get() is None
    assert not (agent.meta_dir / "lease").exists()


def test_a_waiter_paused_before_it_links_cannot_take_a_generation_already_buried(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, _ = leased(isolated_env, ttl=30).init_agent("alpha")
    agent.write("count.md", "0\n")  # generation g, released
    folder = agent.meta_dir / "lease"
    paused, resume = threading.Event(), threading.Event()
    seen_free = lease._free

    def free(*args: object) -> bool:
        answer = seen_free(*args)  # type: ignore[arg-type]
        if answer and threading.current_thread().name == "host-b" and not paused.is_set():
            paused.set()  # SIGSTOPped right after it saw generation g free, before linking g+1
            resume.wait()
        return answer

    monkeypatch.setattr(lease, "_free", free)
    outcome: list[object] = []

    def waiter() -> None:
        try:
            held = lease.acquire(folder, agent.path, host="host-b", ttl=30, wait=0)
        except LockBusyError as exc:
            outcome.append(exc)
            return
        token = HELD.set(held)
        try:
            write_bytes_atomic(agent.path / "count.md", b"1 from host-b\n")
            outcome.append("written")
        except LeaseLostError as exc:
            outcome.append(exc)
        finally:
            HELD.reset(token)
            held.release()

    thread = threading.Thread(target=waiter, name="host-b")
    thread.start()
    try:
        assert paused.wait(10)
        agent.write("count.md", "1\n")  # generation g+1, released
        agent.write("count.md", "2\n")  # generation g+2, released
        with agent.editing() as edit:  # generation g+3 buries g+2 (and older), then reads
            before = edit.read("count.md")
            resume.set()  # the waiter links g+1 again: that file was deleted
            thread.join()
            edit.write("count.md", "3\n", introduced="3")
    finally:
        resume.set()
        thread.join()
    assert before == "2\n"
    assert [type(o) for o in outcome] == [LockBusyError]  # not a second holder at once
    assert agent.read("count.md") == "3\n"


def test_a_holder_is_fenced_even_when_its_buried_generation_is_linked_again(
    isolated_env: Path,
) -> None:
    agent, _ = leased(isolated_env, ttl=30).init_agent("alpha")
    folder = agent.meta_dir / "lease"
    late = lease.acquire(folder, agent.path, host="host-a", ttl=30, wait=0)
    gen = late.token
    try:
        # Paused while two others took over: generation gen+2 buried gen and gen+1.
        taker = lease._try_create(folder, agent.path, gen + 1, "host-b", 30)
        assert taker is not None
        taker.release()
        newest = lease._try_create(folder, agent.path, gen + 2, "host-c", 30)
        assert newest is not None
        assert not late.path.exists()
        # A waiter stopped since it saw generation gen-1 free links "gen" again for a moment.
        late.path.write_text(json.dumps({"host": "host-d", "pid": 1, "gen": gen}))
        with pytest.raises(LeaseLostError, match="lost its lease"):
            late.check()
        newest.release()
    finally:
        late.release()


def test_a_waiter_paused_right_after_linking_and_taken_over_does_not_crash(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, _ = leased(isolated_env, ttl=30).init_agent("alpha")
    folder = agent.meta_dir / "lease"
    real_link = os.link
    newer: list[lease.Lease] = []

    def link(src: Path, dst: Path) -> None:
        real_link(src, dst)
        # SIGSTOPped right after linking, past its lease: another host takes over and
        # buries the new file before this holder opened it.
        monkeypatch.setattr(os, "link", real_link)
        gen = lease._gen_of(Path(dst).name)
        assert gen is not None
        taken = lease._try_create(folder, agent.path, gen + 1, "host-b", 30)
        assert taken is not None
        newer.append(taken)

    monkeypatch.setattr(os, "link", link)
    try:
        with pytest.raises(LockBusyError):  # not FileNotFoundError: it looks again, and waits
            lease.acquire(folder, agent.path, host="host-a", ttl=30, wait=0)
    finally:
        for held in newer:
            held.release()
    assert len(newer) == 1
