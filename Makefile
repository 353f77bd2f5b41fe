# Everything memclaw needs is installed into .venv by these targets.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint types unit bench test-real clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,mcp,ray,vec,browse]'
	touch $(STAMP)

install: $(STAMP)

# The demo only reads the bundled agent (dry runs write nothing); search keeps
# its rebuildable index in workspaces/demo/.memclaw/, which git ignores.
MC := $(BIN)/memclaw --root workspaces
demo: $(STAMP)
	@echo "== the demo agent's files =="; $(MC) files list demo
	@echo; echo "== the system prompt a model receives, with token counts =="; $(MC) prompt demo
	@echo; echo "== search, in three languages =="
	$(MC) search "when is the PostGIS cutover" --agent demo --limit 3
	$(MC) search "kanelbullar" --agent demo --limit 2
	$(MC) search "勤労感謝の日" --agent demo --limit 2
	@echo; echo "== what extraction would keep from the sample session (offline, dry run) =="
	$(MC) extract demo --session 2026-11-28-demo --dry-run
	@echo; echo "== what tonight's dream would promote (offline, dry run) =="
	$(MC) dream demo --dry-run
	@echo; echo "== status =="; $(MC) status

lint: $(STAMP)
	$(BIN)/ruff check memclaw tests benchmarks
	$(BIN)/ruff format --check memclaw tests benchmarks

types: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

test: lint types unit

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

# The real-model lane (slow the first time: it compiles llama.cpp once into build/wheels):
# every model-facing path against SmolLM2-135M and Gemma 3 270M, each served on loopback
# in turn, with and without the memory tools; a table of outcomes per model (minutes).
test-real: $(STAMP)
	$(BIN)/python -m benchmarks.real_models

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
