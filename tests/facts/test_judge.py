"""The model's second opinion, over the wire to the fake OpenAI server."""

from fake_openai import FakeOpenAI

from memclaw.config import Settings
from memclaw.facts.judge import judge_pairs
from memclaw.judgement import Relation
from memclaw.llm import open_model

UNSURE = ("Kenji reviews PRs in the morning.", "Kenji reviews only small PRs.")
SURE = ("Maya lives in Oslo.", "Maya lives in Bergen.")


def _model(server: FakeOpenAI) -> object:
    settings = Settings(base_url=server.base_url, api_key="test", max_retries=0, request_timeout=5)
    return open_model(settings)


def test_only_unsure_pairs_go_to_the_model_and_its_verdict_counts(fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_json({"verdicts": [{"pair": 1, "kind": "conflict", "reason": "timing"}]})
    verdicts = judge_pairs([SURE, UNSURE], _model(fake_openai))  # type: ignore[arg-type]
    assert [v.relation for v in verdicts] == [Relation.UPDATE, Relation.UPDATE]
    # The offline judge is sure of the first; the model's "conflict" is for a person to settle.
    assert verdicts[0].sure and not verdicts[1].sure
    assert verdicts[1].reason == "model: timing"
    (request,) = [r for r in fake_openai.requests if r.path.endswith("/chat/completions")]
    sent = request.body["messages"][1]["content"]
    assert "small PRs" in sent and "Oslo" not in sent


def test_a_garbage_or_failing_model_leaves_the_offline_verdicts(fake_openai: FakeOpenAI) -> None:
    offline = judge_pairs([SURE, UNSURE])
    fake_openai.queue_text("I think they are fine, honestly.")
    assert judge_pairs([SURE, UNSURE], _model(fake_openai)) == offline  # type: ignore[arg-type]
    fake_openai.queue_json(
        {"verdicts": [{"pair": 7, "kind": "conflict"}, {"pair": 1, "kind": "x"}]}
    )
    assert judge_pairs([SURE, UNSURE], _model(fake_openai)) == offline  # type: ignore[arg-type]
    fake_openai.queue_error(500, "boom")
    assert judge_pairs([SURE, UNSURE], _model(fake_openai)) == offline  # type: ignore[arg-type]


def test_no_request_when_every_pair_is_sure(fake_openai: FakeOpenAI) -> None:
    judge_pairs([SURE], _model(fake_openai))  # type: ignore[arg-type]
    assert not fake_openai.requests
