"""One lock for every writer of an entries file: remember and a hand edit never undo each other.

``remember`` and ``memclaw files edit`` once took different locks, so a remember
that read the file before an edit landed wrote its stale copy back over it.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from extract.extractkit import make_agent

from memclaw.entries.forgetting import forget
from memclaw.entries.memories import Action, remember
from memclaw.workspace import Workspace
from memclaw.workspace.entries import parse_entries
from memclaw.workspace.files import edit_file
from memclaw.workspace.safeguards.history import read, versions
from memclaw.workspace.scope import Scope

FILE = "entries/other.md"
# A seeded entry whose text the hand edits grow; the remembered facts never restate it.
SEED = "# Memory entries: other\n\n## m-seed\nEdits: END\n\n- category: other\n"


def fact(worker: str, i: int) -> str:
    return f"Crate {worker}{i:03d} holds kiwi{worker}{i} and papaya{worker}{i}"


def edit_tag(i: int) -> str:
    return f"e{i:03d} "


def check_nothing_lost(text: str, remembered: list[str], edits: int) -> None:
    entries = parse_entries(text, "other")
    texts = {entry.text for entry in entries}
    assert [f for f in remembered if f not in texts] == []
    seed = next(entry for entry in entries if entry.id == "m-seed")
    assert [t for t in map(edit_tag, range(edits)) if t not in seed.text] == []


def test_threads_remembering_and_editing_one_file_lose_nothing(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    agent.write(FILE, SEED)
    scope = Scope(agent)
    count = 60
    errors: list[BaseException] = []
    stop = threading.Event()
    edits = [0]

    def remembering() -> None:
        try:
            for i in range(count):
                assert remember(scope, fact("t", i), category="other").action is Action.ADDED
        except BaseException as exc:  # re-raised in the main thread
            errors.append(exc)
        finally:
            stop.set()

    def editing() -> None:
        # Edits are quicker than remembers: keep editing until the remembering is done.
        try:
            while not stop.is_set() or edits[0] < count:
                edit_file(agent, FILE, "END", edit_tag(edits[0]) + "END")
                edits[0] += 1
                time.sleep(0.002)  # a person's pace, roughly: leave the lock to the other
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=remembering), threading.Thread(target=editing)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    check_nothing_lost(agent.read(FILE), [fact("t", i) for i in range(count)], edits[0])


WORKER = """
import sys
import time
from memclaw.entries.memories import remember
from memclaw.workspace import Workspace
from memclaw.workspace.files import edit_file
from memclaw.workspace.scope import Scope

root, role, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
agent = Workspace.open(root).agent("assistant")
stop = agent.path / "stop"
print("ready", flush=True)
sys.stdin.readline()  # start together
if role == "remember":
    for i in range(count):
        text = f"Crate p{i:03d} holds kiwip{i} and papayap{i}"
        assert remember(Scope(agent), text, category="other").action.value == "added"
    stop.touch()
else:
    # Edits are quicker than remembers: keep editing until the remembering is done.
    done = 0
    while not stop.exists() or done < count:
        edit_file(agent, "entries/other.md", "END", f"e{done:03d} END")
        done += 1
        time.sleep(0.002)
    print(done, flush=True)
"""


def test_processes_remembering_and_editing_one_file_lose_nothing(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    agent.write(FILE, SEED)
    root = str(agent.workspace.root)
    count = 40
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, root, role, str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for role in ("remember", "edit")
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        outs = []
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            outs.append(out)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    edits = int(outs[1].split()[-1])
    text = Workspace.open(root).agent("assistant").read(FILE)
    check_nothing_lost(text, [fact("p", i) for i in range(count)], edits)


NOTES = """# Memory entries: other

My own notes, kept at the top.
- not metadata: a list a person wrote

## m-aaaa0001
Knut is a Finnish Lapphund

- category: other
- created: 2026-03-01

Between the blocks: ask Maya about the vet.

## m-aaaa0002
The boat is moored at Ekudden

- category: other
- created: 2026-03-02

Trailing note, after every block.
"""


def test_remember_and_forget_keep_hand_written_text_and_history(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    agent.write(FILE, NOTES)
    scope = Scope(agent)
    hand = [
        "My own notes, kept at the top.\n- not metadata: a list a person wrote\n",
        "\nBetween the blocks: ask Maya about the vet.\n",
        "\nTrailing note, after every block.\n",
    ]

    added = remember(scope, "Crate q001 holds kiwiq and papayaq", category="other")
    assert added.action is Action.ADDED and added.entry is not None
    text = agent.read(FILE)
    assert all(part in text for part in hand)
    assert text.startswith(NOTES)  # untouched, the new entry goes at the end
    assert [e.id for e in parse_entries(text)] == ["m-aaaa0001", "m-aaaa0002", added.entry.id]
    assert [read(agent, v) for v in versions(agent, FILE)] == [NOTES]

    gone = forget(scope, id="m-aaaa0001")
    assert [e.id for e in gone] == ["m-aaaa0001"]
    after = agent.read(FILE)
    assert all(part in after for part in hand)
    assert "Lapphund" not in after
    assert read(agent, versions(agent, FILE)[0]) == text  # the version before the forget

    updated = remember(scope, "The boat is moored at Ekudden, berth 14 by the kiosk")
    assert updated.action is Action.UPDATED
    final = agent.read(FILE)
    assert all(part in final for part in hand)
    assert "berth 14" in final
    assert read(agent, versions(agent, FILE)[0]) == after
