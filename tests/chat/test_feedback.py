"""Chat feedback on recalled memories (/good, /bad) and the contradictions banner."""

from io import StringIO

from fake_openai import FakeOpenAI
from rich.console import Console

from chat.chatkit import OpenChat
from memclaw.cli.talk.interactive import _banner
from memclaw.entries.memories import remember
from memclaw.facts.ledger import find_fact
from memclaw.workspace.scope import Scope


def test_good_and_bad_move_the_trust_of_what_was_recalled(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    agent = conversation.engine.agent
    assert "nothing was recalled" in conversation.command("/good").text
    agent.append_daily("- The Bluebird demo is on Friday")
    result = conversation.turn("when is the Bluebird demo?")
    assert result.recalled.hits
    before = find_fact(Scope(agent), "Bluebird demo").trust
    good = conversation.command("/good")
    assert good.title == "confirmed 1 (trust now)" and not good.error
    assert find_fact(Scope(agent), "Bluebird demo").trust > before
    bad = conversation.command("/bad")
    assert bad.rows[0][1] == "The Bluebird demo is on Friday"
    assert find_fact(Scope(agent), "Bluebird demo").trust < before
    ops = [op["op"] for op in conversation.engine.memory_operations]
    conversation.close(wait=5)
    assert ops == ["feedback", "feedback"]
    names = [left.split()[0] for left, _ in conversation.command("/help").rows]
    assert "/good" in names and "/bad" in names


def test_the_banner_says_how_many_contradictions_wait(open_chat: OpenChat) -> None:
    conversation = open_chat()
    agent = conversation.engine.agent

    def banner() -> str:
        buffer = StringIO()
        _banner(conversation, Console(file=buffer, width=200))
        return buffer.getvalue()

    assert "waiting" not in banner()
    remember(Scope(agent), "Maya lives in Oslo")
    remember(Scope(agent), "Maya lives in Bergen", source="tool", by_person=False)
    assert "1 contradiction waiting (memclaw inbox)" in banner()
    remember(Scope(agent), "Maya is vegetarian")
    remember(Scope(agent), "Maya eats meat", source="tool", by_person=False)
    assert "2 contradictions waiting (memclaw inbox)" in banner()
    conversation.close(wait=5)


def test_good_then_bad_in_one_session_is_one_rejection_and_dreams_still_run(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    from chat.chatkit import fixed_clock
    from memclaw.dream.run import dream_agent
    from memclaw.facts.store import load_events
    from memclaw.workspace import Workspace

    conversation = open_chat()
    agent = conversation.engine.agent
    agent.write("MEMORY.md", "# Memory\n- Standups are at 09:30\n")  # the person's own
    agent.append_daily("- The Bluebird demo is on Friday")
    conversation.turn("when is the Bluebird demo?")
    fact = find_fact(Scope(agent), "Bluebird demo")
    good, bad = conversation.command("/good"), conversation.command("/bad")
    assert not good.error and not bad.error, (good, bad)
    kinds = [str(e.kind) for e in load_events(agent).get(fact.id, ()) if e.session]
    assert kinds == ["rejected"]  # the last word of this conversation, once
    conversation.close(wait=5)
    offline = Workspace.open(agent.workspace.root, clock=fixed_clock).agent(agent.id)
    dreamed = dream_agent(Scope(offline))
    assert str(dreamed.status) != "refused", dreamed.reason
    assert "- Standups are at 09:30" in agent.read("MEMORY.md")
    assert "refused: refused" not in dreamed.reason


def test_undo_after_good_then_bad_takes_back_the_rating_not_an_older_change(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    from memclaw.facts.store import load_events

    conversation = open_chat()
    agent = conversation.engine.agent
    agent.append_daily("- The Bluebird demo is on Friday")
    conversation.turn("when is the Bluebird demo?")
    fact = find_fact(Scope(agent), "Bluebird demo")
    good, bad = conversation.command("/good"), conversation.command("/bad")
    assert not good.error and not bad.error, (good, bad)

    def verdicts() -> list[str]:
        return [str(e.kind) for e in load_events(agent).get(fact.id, ()) if e.session]

    assert verdicts() == ["rejected"]
    undone = conversation.command("/undo")
    assert undone.title.startswith("undid the reject"), undone
    assert verdicts() == ["confirmed"]  # the conversation's word before the /bad
    assert conversation.command("/undo").title.startswith("undid the confirm")
    assert verdicts() == []
    # The note before them is next, and is still there until then.
    assert "Bluebird demo is on Friday" in agent.read(fact.places[0].path)
    conversation.close(wait=5)
