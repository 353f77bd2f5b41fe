# Everything memclaw needs is installed into .venv by these targets.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: `make demo` needs only the package itself; `make test` (and `install`)
# add every extra the tests exercise (MCP, Ray, sqlite-vec, the browser, the docs site).
BASE_STAMP := $(VENV)/.installed-base
STAMP := $(VENV)/.installed

.PHONY: install demo test lint types unit docs bench bench-real test-real clean

$(BASE_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(BASE_STAMP)

$(STAMP): $(BASE_STAMP)
	$(BIN)/pip install --quiet -e '.[dev,mcp,ray,vec,browse,docs,mem0]'
	touch $(STAMP)

install: $(STAMP)

# The demo only reads the bundled agent (dry runs write nothing); search keeps
# its rebuildable index in workspaces/demo/.memclaw/, which git ignores.
MC := $(BIN)/memclaw --root workspaces
demo: $(BASE_STAMP)
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
	$(BIN)/ruff check memclaw tests benchmarks docs
	$(BIN)/ruff format --check memclaw tests benchmarks docs

types: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

# The docs site (mkdocs-material) builds offline into build/site; --strict turns a
# broken link or a page missing from the nav into a failure.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

test: lint types unit docs

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

# Keyword against hybrid search with the real embedding model (multilingual-e5-small on
# loopback): the conversation benchmark's halves, and LoCoMo when LOCOMO=path is given.
LOCOMO ?=
bench-real: $(STAMP)
	$(BIN)/python -m benchmarks._real_embeddings $(if $(LOCOMO),--locomo $(LOCOMO))

# The real-model lane (slow the first time: it compiles llama-cpp-python once into
# build/wheels and llama.cpp's llama-server once into build/llama-server): every
# model-facing path against SmolLM2-135M and Gemma 3 270M, served on loopback by each
# server in turn, with and without the memory tools; a table of outcomes per model and
# server (minutes). `python -m benchmarks.real_models --server llama-server` runs one.
test-real: $(STAMP)
	$(BIN)/python -m benchmarks.real_models

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
