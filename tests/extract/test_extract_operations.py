"""A model's extraction answers with operations on remembered facts, by id, not with files.

An update lands on the line of the fact it names and keeps what the new text does not
contradict; a delete takes out a model's line and says so, never a person's; an id
memory does not hold is said and its text kept; the pairs the words leave open go to
the model once for the whole extraction.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fake_openai import FakeOpenAI

from extract.extractkit import CHAT, model_agent, saying
from memclaw.entries.memories import remember
from memclaw.extract.pipeline import extract_conversation
from memclaw.facts import inbox
from memclaw.facts.ids import fact_id
from memclaw.facts.ledger import facts_of
from memclaw.workspace import Agent
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

SAM = "Sam lives in Lisbon with his cat Miso."


def _answer(**ops: Any) -> dict[str, Any]:
    return {
        "should_update": True,
        "reason": "the person said what changed",
        "daily_entry": "",
    } | ops


def _agent(tmp_path: Path, fake_openai: FakeOpenAI, *lines: str) -> Agent:
    agent = model_agent(tmp_path, fake_openai.base_url)
    body = "".join(f"- {line}\n" for line in lines)
    agent.write("MEMORY.md", f"# Memory\n\n## People\n\n{body}", author=Author.MODEL)
    return agent


def _in_force(agent: Agent) -> list[str]:
    return [f.statement for f in facts_of(Scope(agent), durable_only=True) if not f.superseded]


def test_the_prompt_shows_each_fact_with_its_id(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path, fake_openai, SAM)
    fake_openai.queue_json({"should_update": False, "reason": "nothing new", "daily_entry": ""})
    extract_conversation(Scope(agent), CHAT, force=True)
    sent = json.dumps(fake_openai.chat_requests()[0].body)
    assert f"{SAM} [{fact_id(SAM)}]" in sent


def test_an_update_by_id_lands_on_its_line_and_the_cat_stays(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(tmp_path, fake_openai, SAM, "Ana runs the Braga office.")
    update = {"id": fact_id(SAM), "text": "Sam moved to Porto."}
    fake_openai.queue_json(_answer(updates=[update]))
    extract_conversation(Scope(agent), saying("Sam moved to Porto last month."), force=True)
    memory = agent.read("MEMORY.md")
    assert "Lisbon" not in memory and "Porto" in memory and "Miso" in memory
    assert "Ana runs the Braga office." in memory
    assert [s for s in _in_force(agent) if "Sam" in s] == [
        next(line[2:] for line in memory.splitlines() if "Porto" in line)
    ]


def test_an_update_the_words_leave_open_is_the_models_call(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    old = "Maya prefers calls in the afternoon."
    agent = _agent(tmp_path, fake_openai, old)
    update = {"id": fact_id(old), "text": "Maya wants no meetings after lunch."}
    fake_openai.queue_json(_answer(updates=[update]))
    extract_conversation(Scope(agent), saying("I want no meetings after lunch."), force=True)
    assert [s for s in _in_force(agent) if "Maya" in s] == ["Maya wants no meetings after lunch."]


def test_an_update_that_names_another_server_keeps_both(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    alpha = "The nightly backup runs at 02:00 on server alpha."
    agent = _agent(tmp_path, fake_openai, alpha)
    beta = "The nightly backup runs at 02:00 on server beta."
    fake_openai.queue_json(_answer(updates=[{"id": fact_id(alpha), "text": beta}]))
    extract_conversation(Scope(agent), CHAT, force=True)
    assert sorted(_in_force(agent)) == [alpha, beta]  # near twins: the words are sure


def test_a_model_update_of_a_persons_line_waits_in_the_inbox(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    remember(Scope(agent), "Maya lives in Oslo")
    agent.write("MEMORY.md", "# Memory\n\n- Maya lives in Oslo\n")
    update = {"id": fact_id("Maya lives in Oslo"), "text": "Maya lives in Bergen"}
    fake_openai.queue_json(_answer(updates=[update]))
    result = extract_conversation(Scope(agent), saying("I live in Bergen these days."), force=True)
    assert "- Maya lives in Oslo" in agent.read("MEMORY.md")
    (item,) = inbox.open_items(agent)
    assert (item.old, item.new) == ("Maya lives in Oslo", "Maya lives in Bergen")
    assert any(item.id in note for note in result.notes)


def test_a_delete_takes_out_a_models_line_and_says_so(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    trial = "Maya is on the Grafana Cloud free trial."
    agent = _agent(tmp_path, fake_openai, trial, "Maya works at Cloudflare.")
    fake_openai.queue_json(_answer(deletes=[{"id": fact_id(trial), "reason": "trial ended"}]))
    result = extract_conversation(Scope(agent), CHAT, force=True)
    assert trial not in agent.read("MEMORY.md")
    assert _in_force(agent) == ["Maya works at Cloudflare."]
    assert any(fact_id(trial) in note and "trial ended" in note for note in result.notes)


def test_a_delete_of_a_persons_line_leaves_it_and_says_how_to_forget_it(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    agent.write("MEMORY.md", "# Memory\n\n- Maya plays chess on Sundays.\n")
    fid = fact_id("Maya plays chess on Sundays.")
    fake_openai.queue_json(_answer(deletes=[{"id": fid, "reason": "she stopped"}]))
    result = extract_conversation(Scope(agent), CHAT, force=True)
    assert "- Maya plays chess on Sundays." in agent.read("MEMORY.md")
    assert any(fid in note and "memclaw forget" in note for note in result.notes)


def test_an_id_memory_does_not_hold_is_said_and_its_text_kept(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(tmp_path, fake_openai, "Maya works at Cloudflare.")
    update = {"id": "f00000000", "text": "Maya's team moved to the Stockholm office."}
    fake_openai.queue_json(_answer(updates=[update]))
    conversation = saying("My team moved to the Stockholm office.")
    result = extract_conversation(Scope(agent), conversation, force=True)
    assert "Maya's team moved to the Stockholm office." in agent.read("MEMORY.md")
    assert any("f00000000" in note for note in result.notes)


def test_ids_a_whole_file_answer_echoes_are_not_written(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(tmp_path, fake_openai, "Maya works at Cloudflare.")
    works = "Maya works at Cloudflare."
    echoed = (
        f"# Memory\n\n## People\n\n- {works} [{fact_id(works)}]\n- Maya plays chess. [f12345678]\n"
    )
    fake_openai.queue_json(_answer(memory_update=echoed))
    extract_conversation(Scope(agent), saying("I play chess."), force=True)
    memory = agent.read("MEMORY.md")
    assert "- Maya plays chess." in memory and "[f" not in memory


def test_the_pairs_the_words_leave_open_cost_one_request(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(
        tmp_path,
        fake_openai,
        "Maya prefers calls in the afternoon.",
        "Maya drinks her coffee black.",
    )
    new = [
        {"text": "Maya wants no meetings after lunch.", "category": "preference"},
        {"text": "Maya drinks her coffee with oat milk.", "category": "preference"},
    ]
    fake_openai.queue_json(_answer(facts=new))
    verdicts = [
        {"pair": 1, "kind": "update", "reason": "a new preference"},
        {"pair": 2, "kind": "update", "reason": "milk now"},
    ]
    fake_openai.queue_json({"verdicts": verdicts})
    conversation = saying("No meetings after lunch, please.", "I take my coffee with oat milk now.")
    extract_conversation(Scope(agent), conversation, force=True)
    assert len(fake_openai.chat_requests()) == 2  # the extraction, then one judgement
    in_force = _in_force(agent)
    assert "Maya prefers calls in the afternoon." not in in_force
    assert "Maya drinks her coffee black." not in in_force


def test_a_malformed_operation_costs_itself_only(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path, fake_openai, "Maya works at Cloudflare.")
    new = [{"text": "Maya plays chess on Sundays.", "category": "preference"}]
    fake_openai.queue_json(_answer(facts=new, updates=[{"id": 7}], deletes=["f1"]))
    result = extract_conversation(Scope(agent), saying("I play chess on Sundays."), force=True)
    assert sorted(_in_force(agent)) == ["Maya plays chess on Sundays.", "Maya works at Cloudflare."]
    assert sum("skipped one of the model's" in note for note in result.notes) == 2
