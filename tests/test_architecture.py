"""The package's shape: layers point one way and no module imports itself in a circle.

Imports inside functions count (they run, just later). Imports inside
``if TYPE_CHECKING:`` are annotations only: they do not count for the layers, but
they do for cycles, since a lower module that names a higher one's type still
knows it and cannot be changed apart from it.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import memclaw

ROOT = Path(memclaw.__file__).parent

# Lowest first. A package may import its own layer's packages only where the
# table below says so, and any lower layer.
LAYERS: list[set[str]] = [
    {
        "errors",
        "clock",
        "config",
        "config_fields",
        "config_shapes",
        "config_yaml",
        "schedule",
        "text",
        "judgement",
        "gates",
    },
    {"workspace", "llm", "facts"},
    {"index", "prompt"},
    {
        "extract",
        "dream",
        "entries",
        "jobs",
        "review",
        "snapshot",
        "doctor",
        "providers",
        "erasure",
        "changes",
        "morning",
    },
    {"chat", "browse"},
    {"mcp"},  # the chat's tools, offered to other hosts over the Model Context Protocol
    {"cli"},
]
# Capabilities that build on another capability (and never the other way round).
SIBLINGS = {
    # A statement is read in words folded as the index folds them, dates as the clock names them.
    "judgement": {"text", "clock"},
    # A fact lives on a line of a workspace file; the embedding model tells other words apart.
    "facts": {"workspace", "llm"},
    "config": {"errors", "config_fields", "config_shapes", "config_yaml"},
    "config_shapes": {"errors"},
    "config_yaml": {"errors", "config_shapes"},
    "schedule": {"errors"},
    "entries": {"extract"},  # a remembered fact is classified by the offline rule engine
    "dream": {"entries", "extract"},
    "jobs": {"dream", "extract", "entries"},
    # It checks what they set up (and what waits to be extracted), and repairs it.
    "doctor": {"jobs", "review", "providers", "extract"},
    "providers": {"extract"},  # a Mem0 back-fill reads stored sessions as extraction does
    # It keeps the fingerprints, cleans the index as scan does, and Mem0's copy (providers).
    "erasure": {"extract", "review", "providers"},
    "snapshot": {"extract"},  # an import leaves out what was forgotten
    # The timeline and why read dream reports and sessions; why matches words as forget does.
    "changes": {"dream", "extract", "erasure"},
    # A card is a dream's report; its Forget is forget everywhere; SOUL reads the entries.
    "morning": {"dream", "entries", "erasure"},
}
TOP = {"memclaw", "memclaw.__main__"}  # the public API and `python -m memclaw` sit above all


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, module: str, is_package: bool, annotations: bool) -> set[str]:
    skip: set[int] = set()
    for node in ast.walk(tree) if not annotations else ():
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("memclaw"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.startswith("memclaw"):
                found.add(target)
                # `from memclaw.pkg import mod` imports the module when it is one
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if (ROOT.parent / sub.replace(".", "/")).with_suffix(".py").exists():
                        found.add(sub)
    return found


def import_graph(*, annotations: bool = False) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        name = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = _imports(tree, name, path.name == "__init__.py", annotations)
    return graph


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_of(package: str) -> int:
    for index, layer in enumerate(LAYERS):
        if package in layer:
            return index
    raise AssertionError(f"memclaw.{package} is in no layer: add it to LAYERS in this test")


def test_every_package_has_a_layer_and_says_what_it_owns() -> None:
    for path in sorted(ROOT.iterdir()):
        if path.is_dir() and (path / "__init__.py").exists():
            layer_of(path.name)
            doc = ast.get_docstring(ast.parse((path / "__init__.py").read_text(encoding="utf-8")))
            assert doc, f"memclaw/{path.name}/__init__.py needs a docstring saying what it owns"
        elif path.suffix == ".py" and path.stem not in ("__init__", "__main__"):
            layer_of(path.stem)


def test_layers_point_one_way() -> None:
    wrong = []
    for module, imports in import_graph().items():
        if module in TOP:
            continue
        mine = package_of(module)
        for target in imports:
            theirs = package_of(target)
            if target == "memclaw" or theirs == mine:
                continue
            upward = layer_of(theirs) > layer_of(mine)
            sideways = layer_of(theirs) == layer_of(mine) and theirs not in SIBLINGS.get(mine, ())
            if upward or sideways:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "imports against the layer order:\n" + "\n".join(sorted(wrong))


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = defaultdict(int)  # 0 new, 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state[nxt] == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if state[nxt] == 0 and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if state[node] == 0 and (found := visit(node)):
            return found
    return None


def test_no_import_cycles() -> None:
    graph = import_graph(annotations=True)
    # A package's __init__ importing its own modules is how packages work, not a cycle;
    # a module importing its package's __init__ back is one (``from memclaw.workspace
    # import ledger`` inside memclaw/workspace/ closed a ring of eight modules once).
    for module in graph:
        graph[module] -= {"memclaw"} if module not in TOP else set()
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_only_the_llm_openai_modules_import_openai() -> None:
    """The openai package is the model layer's business: one family of modules in llm/,
    each importing it only inside functions, so that importing memclaw never pays for it."""
    outside, eager = [], []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        ours = path.parent.name == "llm" and path.name.startswith("openai_")
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if not any(name.split(".")[0] == "openai" for name in names):
                continue
            if not ours:
                outside.append(module_name(path))
            elif node in tree.body:
                eager.append(module_name(path))
    assert not outside, f"only memclaw/llm/openai_*.py may import openai: {outside}"
    assert not eager, f"openai is imported at module level (import it inside functions): {eager}"
