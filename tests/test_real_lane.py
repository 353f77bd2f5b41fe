"""The real-model lane's own pieces, without a model: options, judgements, server flags.

`make test-real` needs minutes and a model server; these checks keep its parts honest in
the normal suite (a soundness checker that passed junk would make its table a lie).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from fake_openai import FakeOpenAI
from test_benchmarks import load

from memclaw.entries.memories import remember
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


@pytest.fixture(scope="module")
def lane() -> ModuleType:
    return load("real_models")


@pytest.fixture(scope="module")
def judging() -> ModuleType:
    return load("real_soundness")


@pytest.fixture(scope="module")
def servers() -> ModuleType:
    return load("real_servers")


def test_both_models_by_default_one_by_name_and_a_url_needs_a_name(lane: ModuleType) -> None:
    assert lane.parse_args([]).model == "all"
    assert lane.parse_args(["--model", "gemma3"]).model == "gemma3"
    url = lane.parse_args(["--model", "smollm2", "--url", "http://127.0.0.1:8080/v1"])
    assert url.url == "http://127.0.0.1:8080/v1"
    for wrong in (["--url", "http://127.0.0.1:8080/v1"], ["--model", "llama"]):
        with pytest.raises(SystemExit) as exit_:
            lane.parse_args(wrong)
        assert exit_.value.code == 2


def test_each_run_gets_its_chat_markup_and_window(servers: ModuleType, tmp_path: Path) -> None:
    weights = tmp_path / "w.gguf"
    smol = servers.server_flags(servers.MODELS["smollm2"], weights, 2048, False, tmp_path)
    assert "--chat_format" not in smol  # its GGUF carries a ChatML template
    assert smol[smol.index("--n_ctx") + 1] == "2048"
    tools = servers.server_flags(servers.MODELS["gemma3"], weights, 8192, True, tmp_path)
    assert tools[tools.index("--chat_format") + 1] == "chatml-function-calling"
    gemma = servers.MODELS["gemma3"].chat_flags(tmp_path)
    assert gemma[:2] == ["--chat_format", "hf-tokenizer-config"]
    config = json.loads(Path(gemma[3]).read_text(encoding="utf-8"))
    assert config["eos_token"] == "<end_of_turn>"


def test_the_gemma_template_keeps_the_system_prompt_in_the_first_user_turn(
    servers: ModuleType,
) -> None:
    sandbox = pytest.importorskip("jinja2.sandbox")
    template = sandbox.ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    messages = [
        {"role": "system", "content": "MEMORY: cutover 2026-12-12"},
        {"role": "user", "content": "When?"},
        {"role": "assistant", "content": ""},  # the server's cue for an answer
    ]
    prompt = template.from_string(servers.GEMMA_TEMPLATE).render(messages=messages, bos_token="<b>")
    assert prompt == (
        "<b><start_of_turn>user\nMEMORY: cutover 2026-12-12\n\nWhen?<end_of_turn>\n"
        "<start_of_turn>model\n"
    )


BEFORE = {"MEMORY.md": "# Memory\n- Cutover: 2026-12-12\n", "DREAMS.md": "# Dreams\nold\n"}


@pytest.mark.parametrize(
    ("after", "why"),
    [
        ({"MEMORY.md": "# Memory\n- Cutover: 2026-12-12\n- ```json\n"}, "junk '- ```json'"),
        ({"MEMORY.md": '# Memory\n- Cutover: 2026-12-12\n"fact": "x"\n'}, "junk"),
        ({"MEMORY.md": "# Memory\n- Cutover: 2026-12-12\n<think>hmm</think>\n"}, "junk"),
        ({"MEMORY.md": "# Memory\n- Cutover: 2026-12-12\n-\n"}, "junk"),
        ({"PROFILE.md": "<start_of_turn>model\n"}, "PROFILE.md got junk"),
        ({"MEMORY.md": "# Memory\n- Cutover: Dec 12\n"}, "lost '- Cutover: 2026-12-12'"),
    ],
)
def test_the_soundness_checker_catches_junk_and_a_lost_line(
    judging: ModuleType, after: dict[str, str], why: str
) -> None:
    sound, reason = judging.soundness(BEFORE, {**BEFORE, **after})
    assert not sound and why in reason


def test_new_plain_lines_and_a_rewritten_diary_are_sound(judging: ModuleType) -> None:
    after = {
        "MEMORY.md": "# Memory\n- Cutover: 2026-12-12\n- Maya likes kanelbullar.\n",
        "DREAMS.md": "# Dreams\nnew run\n",
    }
    assert judging.soundness(BEFORE, after) == (True, "")


def chat(answer: str, notes: list[str], calls: list[dict[str, object]] | None = None) -> str:
    return json.dumps({"answer": answer, "notes": notes, "tool_calls": calls or []})


@pytest.mark.parametrize(
    ("run", "outcome", "said"),
    [
        ((0, chat("The 12th.", []), ""), "ok", "said 'The 12th.'"),
        (
            (0, chat("Hi", ["the endpoint refused the memory tools: answered without them"]), ""),
            "degraded",
            "refused the memory tools",
        ),
        ((0, chat("", []), ""), "failed", "empty answer and no line"),
        (
            (0, chat("", ["the model gave an empty answer (finish reason: stop)"]), ""),
            "degraded",
            "gave an empty answer",
        ),
        (
            (0, chat("", [], [{"name": "memory_search", "arguments": {"q": 1}, "ok": False}]), ""),
            "failed",
            "memory_search",
        ),
        ((1, "", "error: the prompt does not fit the context window\n"), "degraded", "error:"),
        ((1, "", "Traceback (most recent call last):\n  x\nKeyError: 'a'\n"), "failed", "KeyError"),
        ((1, "", "something broke\n"), "failed", "something broke"),
        (
            (0, "", "the prompt does not fit the model's context: offline engine used\n"),
            "degraded",
            "",
        ),
        ((0, "written: 3 facts\n", "wrote MEMORY.md\n"), "ok", "wrote MEMORY.md"),
        (
            (0, "demo 0 0 9 → 9 0\n", "demo: failed: the model's JSON answer lacks 'entries'\n"),
            "degraded",
            "lacks 'entries'",
        ),
    ],
)
def test_outcomes_are_judged_honestly(
    judging: ModuleType, run: tuple[int, str, str], outcome: str, said: str
) -> None:
    got, note = judging.judge(*run)
    assert got == outcome and said in note


def test_requests_are_counted_from_the_server_log(judging: ModuleType) -> None:
    log = (
        'INFO: 127.0.0.1:1 - "GET /v1/models HTTP/1.1" 200 OK\n'
        'INFO: 127.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
        'INFO: 127.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
        'INFO: 127.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
    )
    seen = judging.statuses(log)
    assert seen == ["400", "200", "200"]
    assert judging.count_requests(seen) == "3 (1×400)"
    assert judging.count_requests(seen[1:]) == "2"


def test_only_a_consolidation_may_merge_memory_entries_away(judging: ModuleType) -> None:
    before = {"entries/other.md": "## m-1\nMaya's cat is Pixel.\n## m-2\nHer cat: Pixel.\n"}
    after = {"entries/other.md": "## m-1\nMaya's cat is called Pixel.\n"}
    assert not judging.soundness(before, after)[0]
    assert judging.soundness(before, after, ("DREAMS", "entries/")) == (True, "")
    fenced = {"entries/other.md": "## m-1\n```\n"}
    assert not judging.soundness(before, fenced, ("DREAMS", "entries/"))[0]


def test_a_path_can_be_chosen_by_words_of_its_name(lane: ModuleType) -> None:
    assert lane.parse_args([]).only is None
    names = [path.name for path in lane.chosen_paths(lane.PLAIN_PATHS, "JUDGE")]
    assert names == ["contradiction judge", "contradiction judge, tool write"]
    assert lane.chosen_paths(lane.TOOL_PATHS, "judge") == []
    assert lane.parse_args(["--path", "tool write"]).only == "tool write"
    with pytest.raises(SystemExit) as exit_:
        lane.parse_args(["--path", "no such path"])
    assert exit_.value.code == 2


def test_a_path_runs_memclaw_or_a_driver_module_of_its_own(lane: ModuleType) -> None:
    (args,) = [p.args for p in lane.PLAIN_PATHS if p.name.endswith("tool write")]
    assert lane.command(args)[1:3] == ["-m", "benchmarks.judge_tool_write"]
    assert lane.command(["doctor"])[1:] == ["-m", "memclaw", "doctor"]
    assert lane.shown(["remember", "demo", "a b"]) == "memclaw remember demo 'a b'"
    assert lane.shown(args).startswith("python -m benchmarks.judge_tool_write demo '- Maya")


def test_the_tool_write_driver_says_what_the_model_answered_and_what_was_held(
    isolated_env: Path,
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    driver = load("judge_tool_write")
    agent, _ = Workspace.open(isolated_env).init_agent("demo")
    remember(Scope(agent), "Maya drinks her coffee black.")
    monkeypatch.setenv("MEMCLAW_BASE_URL", fake_openai.base_url)
    verdict = {"pair": 1, "kind": "conflict", "reason": "black is without milk"}
    fake_openai.queue_json({"verdicts": [verdict]})
    assert driver.main(["demo", "- Maya drinks her coffee with oat milk."]) == 0
    said = capsys.readouterr().err.splitlines()
    assert said[0].startswith('the model answered: {"verdicts"')
    assert said[1] == (
        "held in the inbox against 'Maya drinks her coffee black.': model: black is without milk"
    )
    assert "oat milk" not in agent.read("MEMORY.md")


def test_the_move_driver_tells_a_chat_and_checks_the_city_and_the_cat(
    isolated_env: Path,
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    driver = load("real_move")
    facts = [
        {"text": "Sam lives in Lisbon with his cat Miso", "category": "identity"},
        {"text": "Sam drinks green tea every morning", "category": "preference"},
        {"text": "Sam moved to Porto", "category": "identity"},
    ]

    def reply(request: dict[str, object]) -> str:
        if "response_format" not in request:
            return "Noted."
        return json.dumps(
            {"should_update": True, "reason": "what Sam said", "daily_entry": "",
             "facts": facts, "memory_update": "", "profile_update": ""}
        )  # fmt: skip

    fake_openai.default_reply = reply
    monkeypatch.setenv("MEMCLAW_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("MEMCLAW_API_KEY", "local")
    assert driver.main(["sam"]) == 0, capsys.readouterr().err
    out, err = capsys.readouterr()
    assert "Sam lives in Porto with his cat Miso" in out and "Lisbon" not in out
    assert err.splitlines()[-1] == "Porto in force: yes; Lisbon no longer: yes; the cat kept: yes"


# --- what a path wrote: tool markup, duplicates, invented lines (real_lines) --------------

MEMORY = {
    "MEMORY.md": "# Memory\n- Cutover: 2026-12-12 (Jonas).\n",
    "entries/preference.md": "# Memory entries\n\n## m-1\nMaya drinks her coffee black.\n",
    "memory/2026-11-15.md": "# 2026-11-15\n\n- Long run: 14.2 km out to Klippan.\n",
}


def wrote(rel: str, *lines: str) -> dict[str, str]:
    """MEMORY with ``lines`` appended to one file (made when new)."""
    return {**MEMORY, rel: MEMORY.get(rel, "") + "".join(f"{line}\n" for line in lines)}


@pytest.mark.parametrize(
    "line",
    [
        '<tool_call>{"name": "memory_store", "arguments": {"text": "x"}}</tool_call>',
        "Maya likes tea.</tool_call>",
        '[TOOL_CALLS][{"name": "memory_search", "arguments": {"query": "tea"}}]',
        'functions.memory_store:{"text": "Maya likes tea"}',
        '- {"name": "memory_store", "arguments": {"text": "Maya likes tea"}}',
        '<|python_tag|>memory_search.call(query="tea")',
    ],
)
def test_tool_markup_of_any_dialect_written_to_memory_is_unsound(
    judging: ModuleType, line: str
) -> None:
    sound, reason = judging.soundness(MEMORY, wrote("MEMORY.md", line), given=[])
    assert not sound and reason.startswith("MEMORY.md got tool markup")


@pytest.mark.parametrize(
    ("rel", "line"),
    [
        ("MEMORY.md", "* cutover:   2026-12-12 (JONAS)."),  # case, spaces, another marker
        ("PROFILE.md", "- Maya drinks her coffee black."),  # an entry's text, again
        ("entries/other.md", "Maya drinks her coffee black."),
    ],
)
def test_a_new_line_memory_already_held_is_a_duplicate(
    judging: ModuleType, rel: str, line: str
) -> None:
    sound, reason = judging.soundness(MEMORY, wrote(rel, line), given=[line])
    assert not sound and reason == f"{rel} got a duplicate {line!r}"


def test_the_same_new_line_twice_in_one_note_is_a_duplicate(judging: ModuleType) -> None:
    note = "memory/2026-12-06.md"
    twice = wrote(note, "# 2026-12-06", "- Maya likes tea.", "- Maya likes tea.")
    sound, reason = judging.soundness(MEMORY, twice, given=["Maya likes tea."])
    assert not sound and reason == f"{note} got a duplicate '- Maya likes tea.'"


def test_a_promotion_a_move_and_repeated_structure_are_no_duplicates(judging: ModuleType) -> None:
    # A dream promotes a line of a day's note into MEMORY.md: the note is a log.
    promoted = wrote("MEMORY.md", "- Long run: 14.2 km out to Klippan.")
    assert judging.soundness(MEMORY, promoted, given=None) == (True, "")
    # A consolidation moves an entry to another file: one copy before, one after.
    moved = {**MEMORY, "entries/preference.md": "# Memory entries\n"}
    moved["entries/other.md"] = "# Memory entries\n\n## m-1\nMaya drinks her coffee black.\n"
    assert judging.soundness(MEMORY, moved, ("DREAMS", "entries/"), None) == (True, "")
    # Headings and an entry's bookkeeping repeat by design.
    entry = ("## m-2", "Maya likes tea.", "", "- category: preference", "- scope: team")
    again = wrote("entries/preference.md", *entry, "## m-3", "Maya likes rye.", "", *entry[3:])
    assert judging.soundness(MEMORY, again, given=["Maya likes tea and rye."]) == (True, "")


@pytest.mark.parametrize(
    ("line", "unknown"),
    [
        ("- Maya moved to Berlin.", "Berlin"),
        ("- Maya's long run was 21 km.", "21"),
        ("- As of 2026-12-06, Maya works with Priya.", "Priya"),
    ],
)
def test_a_new_line_naming_what_nobody_gave_is_invented(
    judging: ModuleType, line: str, unknown: str
) -> None:
    given = ["chat", "demo", "Maya moved. Her long run was long.", "2026-12-06"]
    sound, reason = judging.soundness(MEMORY, wrote("MEMORY.md", line), given=given)
    assert not sound
    assert reason == f"MEMORY.md got an invented line {line!r} ({unknown!r} was never given)"


def test_names_and_numbers_given_or_held_before_are_not_invented(judging: ModuleType) -> None:
    lines = (
        "- As of 2026-12-06, Maya lives in porto.",  # a name said in lower case is said
        "- Jonas moved the cutover.",  # held by memory before
        "- Yesterday she ran 14.2 km to Klippan.",  # a sentence's first word is no name
        "- She runs on Sundays. Often in the rain.",
    )
    given = ["Maya: I moved to Porto! I love Sundays", "2026-12-06"]
    assert judging.soundness(MEMORY, wrote("MEMORY.md", *lines), given=given) == (True, "")
    # An entry's bookkeeping is memclaw's own (the date it is written is the run's date).
    entry = ("## m-9", "Maya loves Porto.", "", "- created: 2026-12-06", "- session: s-123")
    assert judging.soundness(MEMORY, wrote("entries/other.md", *entry), given=given) == (True, "")


def test_a_path_whose_input_is_not_known_is_not_asked_about_invention(
    judging: ModuleType,
) -> None:
    after = wrote("MEMORY.md", "- Maya moved to Berlin.")
    assert judging.soundness(MEMORY, after, given=None) == (True, "")
    assert not judging.soundness(MEMORY, after, given=[])[0]


def test_the_lane_gives_each_path_its_input_and_a_new_agent_its_template(
    lane: ModuleType, isolated_env: Path
) -> None:
    (move,) = lane.chosen_paths(lane.PLAIN_PATHS, "move")
    assert move.given == lane.real_move.TURNS
    (dream,) = lane.chosen_paths(lane.PLAIN_PATHS, "dream")
    assert dream.given is None
    fresh = lane.fresh_agent("sam", dict(os.environ))
    assert fresh["MEMORY.md"].startswith("# Memory")
    # A new agent whose chat captured what it was told is sound; one that made up a city
    # is not, and the agent is named.
    told = {**fresh, "PROFILE.md": fresh["PROFILE.md"] + "- Sam lives in Porto.\n"}
    assert lane.sound(move, {}, {"sam": told}, {}, dict(os.environ)) == (True, "")
    made_up = {**fresh, "PROFILE.md": fresh["PROFILE.md"] + "- Sam lives in Faro.\n"}
    sound, reason = lane.sound(move, {}, {"sam": made_up}, {}, dict(os.environ))
    assert not sound and reason.startswith("sam/PROFILE.md got an invented line")


# --- a model that must use memory_search's result -------------------------------------------


def searched(answer: str, ok: bool = True, name: str = "memory_search") -> str:
    return chat(answer, [], [{"name": name, "arguments": {"query": "long run"}, "ok": ok}])


@pytest.mark.parametrize(
    ("stdout", "outcome", "said"),
    [
        (searched("She ran out to Klippan and back."), "ok", "called memory_search"),
        (chat("She ran out to Klippan.", []), "failed", "memory_search was not called"),
        (searched("Klippan", ok=False), "failed", "memory_search was not called"),
        (searched("Klippan", name="memory_list"), "failed", "memory_search was not called"),
        (searched("Along the river."), "failed", "the answer lacks 'Klippan'"),
        (
            chat("Klippan", ["stopped after 8 rounds of tool calls; answered without tools"]),
            "degraded",
            "stopped after 8 rounds",
        ),
    ],
)
def test_a_search_result_counts_only_when_searched_for_and_said(
    judging: ModuleType, stdout: str, outcome: str, said: str
) -> None:
    got, note = judging.judge_tool_use(0, stdout, "", "memory_search", "Klippan")
    assert got == outcome and said in note


def test_the_searched_fact_is_in_a_daily_note_and_never_in_the_prompt(
    lane: ModuleType, tmp_path: Path
) -> None:
    from memclaw.prompt import assemble_prompt

    shutil.copytree(lane.ROOT / "workspaces", tmp_path / "w", ignore=shutil.ignore_patterns(".*"))
    agent = Workspace.open(tmp_path / "w").agent("demo")
    assert lane.SEARCH_FACT in agent.read("memory/2026-11-15.md")
    prompt = "\n".join(block.text for block in assemble_prompt(Scope(agent)).blocks)
    assert "PROFILE.md" in prompt and lane.SEARCH_FACT not in prompt
    (path,) = lane.SEARCH_PATHS
    assert "--no-recall" in path.args and lane.SEARCH_FACT not in " ".join(path.args)
    assert path.needs == ("memory_search", lane.SEARCH_FACT)


# --- llama-server: its flags, its templates, its requests counted -------------------------


def test_llama_server_gets_a_window_per_slot_jinja_and_a_template_with_tools(
    servers: ModuleType, tmp_path: Path
) -> None:
    for model in servers.MODELS.values():
        flags = servers.llama_server_flags(model, tmp_path / "w.gguf", 2048, slots=2)
        assert flags[flags.index("-c") + 1] == "4096"  # two slots of 2048 tokens
        assert flags[flags.index("--parallel") + 1] == "2" and "--no-kv-unified" in flags
        assert "--jinja" in flags and flags[flags.index("--alias") + 1] == model.key
        assert Path(flags[flags.index("--chat-template-file") + 1]).is_file()


TOOL_ROUND = [
    {"role": "system", "content": "MEMORY: Maya runs."},
    {"role": "user", "content": "Where did she run?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "type": "function",
                "function": {"name": "memory_search", "arguments": {"query": "run"}},
            }
        ],
    },
    {"role": "tool", "content": '{"hits": ["out to Klippan"]}'},
]
TOOLS = [{"type": "function", "function": {"name": "memory_search", "parameters": {}}}]


@pytest.mark.parametrize(
    ("model", "turn"), [("smollm2", "<|im_start|>user\n"), ("gemma3", "<start_of_turn>user\n")]
)
def test_the_llama_server_templates_show_the_model_its_tools_calls_and_their_results(
    servers: ModuleType, model: str, turn: str
) -> None:
    sandbox = pytest.importorskip("jinja2.sandbox")
    environment = sandbox.ImmutableSandboxedEnvironment()
    environment.filters["tojson"] = json.dumps
    source = (servers.TEMPLATES / f"{model}-tools.jinja").read_text(encoding="utf-8")
    prompt = environment.from_string(source).render(
        messages=TOOL_ROUND, tools=TOOLS, add_generation_prompt=True, bos_token=""
    )
    assert prompt.index("MEMORY: Maya runs.") < prompt.index('"name": "memory_search"')
    assert '<tool_call>\n{"name": "memory_search", "arguments": {"query": "run"}}' in prompt
    assert f'{turn}<tool_response>\n{{"hits": ["out to Klippan"]}}\n</tool_response>' in prompt
    assert prompt.endswith("<|im_start|>assistant\n" if model == "smollm2" else "model\n")
    plain = environment.from_string(source).render(messages=TOOL_ROUND[:2], tools=None)
    assert "<tools>" not in plain and plain.count("MEMORY: Maya runs.") == 1


def test_the_counting_proxy_passes_answers_through_and_counts_each_chat_request(
    fake_openai: FakeOpenAI,
) -> None:
    import openai

    proxy = load("counting_proxy")
    with proxy.counting(fake_openai.base_url) as (url, seen):
        client = openai.OpenAI(base_url=url, api_key="local", max_retries=0)
        assert [m.id for m in client.models.list()]  # not a chat request: not counted
        fake_openai.queue_text("plain answer")
        asked = [{"role": "user", "content": "hi"}]
        done = client.chat.completions.create(model="gpt-4o-mini", messages=asked)
        assert done.choices[0].message.content == "plain answer"
        fake_openai.queue_text("a streamed answer")
        stream = client.chat.completions.create(model="gpt-4o-mini", messages=asked, stream=True)
        text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
        assert text == "a streamed answer"
        fake_openai.queue_error(400, "the prompt is too long")
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(model="gpt-4o-mini", messages=asked)
        assert seen == ["200", "200", "400"]


def test_llama_server_runs_the_search_and_a_chat_on_two_slots(lane: ModuleType) -> None:
    runs = {run.name: run for run in lane.RUNS["llama-server"]}
    assert runs["tools"].paths == [*lane.TOOL_PATHS, *lane.SEARCH_PATHS]
    assert runs["chat"].paths == lane.CHAT_PATHS and runs["chat"].slots == 2
    assert all(run.slots == 1 for run in lane.RUNS["llama-cpp-python"])
    assert lane.parse_args([]).server == "all"
    assert lane.parse_args(["--server", "llama-server", "--path", "search"]).only == "search"
    for wrong in (["--server", "ollama"], ["--server", "llama-cpp-python", "--path", "mid-chat"]):
        with pytest.raises(SystemExit) as exit_:
            lane.parse_args(wrong)
        assert exit_.value.code == 2


def test_a_built_llama_server_is_reused_and_its_build_is_portable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    builds = load("real_builds")
    monkeypatch.setattr(builds, "SERVER_DIR", tmp_path)
    (tmp_path / "llama-server").write_bytes(b"")

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a cached server was built again: {args}")

    monkeypatch.setattr(builds.subprocess, "run", no_build)
    assert builds.ensure_llama_server() == tmp_path / "llama-server"
    flags = builds.server_cmake_flags()
    for flag in ("-DGGML_NATIVE=OFF", "-DGGML_AVX512=OFF", "-DBUILD_SHARED_LIBS=OFF"):
        assert flag in flags
    assert "-DLLAMA_BUILD_UI=OFF" in flags and "-DLLAMA_OPENSSL=OFF" in flags


# --- the typed chat, extracted mid-chat (real_chat) -----------------------------------------

NOOR = [
    {"text": "Noor lives in Utrecht and works as a nurse", "category": "identity"},
    {"text": "Noor's daughter Lina turns seven in March", "category": "relationship"},
    {"text": "Noor plays the cello in a small orchestra on Tuesdays", "category": "preference"},
]


@pytest.fixture
def noor_heard(fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAI:
    """A model that answers each turn briefly and extracts what Noor said."""

    def reply(request: dict[str, object]) -> str:
        if "response_format" not in request:
            return "Noted."
        return json.dumps(
            {"should_update": True, "reason": "what Noor said", "daily_entry": "",
             "facts": NOOR, "memory_update": "", "profile_update": ""}
        )  # fmt: skip

    fake_openai.default_reply = reply
    monkeypatch.setenv("MEMCLAW_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("MEMCLAW_API_KEY", "local")
    monkeypatch.setenv("MEMCLAW_EXTRACT_COOLDOWN_MINUTES", "0")
    return fake_openai


def test_the_chat_driver_types_turns_and_checks_a_mid_chat_extraction(
    isolated_env: Path,
    noor_heard: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    driver = load("real_chat")
    monkeypatch.setenv("MEMCLAW_MODEL_SLOTS", "2")  # the server answers two at once
    assert driver.main(["noor"]) == 0, capsys.readouterr().err
    out, err = capsys.readouterr()
    assert out.count(driver.PROMPT.decode()) == len(driver.TURNS) + 1  # typed, not piped
    assert "Noor plays the cello" in out
    assert err.splitlines()[0].startswith("extraction: written: ")
    assert err.splitlines()[-1] == (
        "all held: the chat ended cleanly, every turn answered, extracted mid-chat, "
        "nothing waits, Utrecht in force, Lina kept, the cello kept"
    )
    chats = [r for r in noor_heard.requests if r.path.endswith("/chat/completions")]
    assert len(chats) >= len(driver.TURNS) + 1  # each turn, and at least one extraction


def test_on_one_slot_the_chat_driver_says_no_extraction_ran_mid_chat(
    isolated_env: Path, noor_heard: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    driver = load("real_chat")
    assert driver.main(["noor"]) == 1  # a server on loopback answers one at a time
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("did not hold: extracted mid-chat; held: the chat ended cleanly")
