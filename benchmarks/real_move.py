"""A move told in a chat, captured by the configured chat model: the issue's Lisbon → Porto.

The real-model lane runs this as one of its paths::

    python -m benchmarks.real_move AGENT

A new agent AGENT (under the lane's copy of the workspaces) hears three turns through
``memclaw chat`` ("I live in Lisbon with my cat Miso", green tea, "Actually I moved to
Porto, not Lisbon"), then ``memclaw extract`` asks the model what to keep. The path is
right when memory ends with Sam in Porto, Lisbon no longer in force, and the cat kept:
stderr says which of the three held (and the receipt of the extraction); the exit code
is 0 only when all three did. Settings come from the environment, as the commands' do.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

TURNS = (
    "Hi! I'm Sam. I live in Lisbon with my cat Miso.",
    "I drink green tea every morning.",
    "Actually I moved to Porto, not Lisbon.",
)
SESSION = "real-move"


def memclaw(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memclaw", *args], capture_output=True, text=True, timeout=2400
    )


def main(argv: Sequence[str] | None = None) -> int:
    from memclaw.facts.ledger import facts_of
    from memclaw.workspace import Workspace
    from memclaw.workspace.scope import Scope

    (agent_id,) = list(sys.argv[1:] if argv is None else argv)
    made = memclaw("init", agent_id)
    if made.returncode != 0:
        print(made.stderr.strip(), file=sys.stderr)
        return 1
    for turn in TURNS:
        said = memclaw("chat", agent_id, "--session", SESSION, "--no-capture", "-m", turn)
        if said.returncode != 0:
            print(said.stderr.strip(), file=sys.stderr)
            return 1
    kept = memclaw("extract", agent_id, "--session", SESSION)
    print(kept.stderr.strip(), file=sys.stderr)
    if kept.returncode != 0:
        return kept.returncode
    scope = Scope(Workspace.open().agent(agent_id))
    memory = [f.statement for f in facts_of(scope, durable_only=True) if not f.superseded]
    print("\n".join(memory))
    checks = {
        "Porto in force": any("Porto" in line for line in memory),
        "Lisbon no longer": not any("Lisbon" in line.replace("not Lisbon", "") for line in memory),
        "the cat kept": any("Miso" in line for line in memory),
    }
    print("; ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in checks.items()),
          file=sys.stderr)  # fmt: skip
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
