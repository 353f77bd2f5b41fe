"""The transcript an engine sees: a key pasted over two user messages is redacted too."""

from pathlib import Path

from extract.extractkit import make_agent
from memclaw.extract.pipeline import _prepare
from memclaw.extract.timeline import conversation_moment


def test_a_key_split_over_two_user_messages_never_reaches_the_engine(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    key = "gh" + "p_R8kq2Lx7Vw4Nz1Tb6Yc9Pm3Hd5Js0Ga8Fe2Ku"
    messages = [
        {"role": "user", "content": f"here is the deploy token for the CI {key[:16]}"},
        {"role": "user", "content": f"{key[16:]}"},
        {"role": "assistant", "content": "Thanks, I will keep it out of memory."},
        {"role": "user", "content": "Also, I moved to Gothenburg last spring."},
    ]
    seen = _prepare(agent, messages, conversation_moment(messages, None, agent.now()))
    joined = "".join(m["content"] for m in seen)
    assert key[16:] not in joined and key[:16] not in joined
    assert "[REDACTED:" in seen[1]["content"]
    assert seen[-1]["content"] == "Also, I moved to Gothenburg last spring."
