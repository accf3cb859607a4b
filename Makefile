# The two README commands are `make demo` and `make test`; everything else is a building block.
SHELL := /bin/bash
CITEWALK_CACHE ?= $(HOME)/.cache/citewalk
VENV ?= $(CITEWALK_CACHE)/venv
PY := $(VENV)/bin/python
CITEWALK_SHARED ?= $(abspath ../shared)
export CITEWALK_SHARED
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False
PYTHON_BIN ?= $(shell command -v python3.11 || command -v python3)
# One stamp per installed set: the runtime one (make demo, make app) and the dev one (tests, benches, checks).
REQ_STAMP := $(VENV)/.runtime-$(shell cat requirements.txt | sha1sum | cut -c1-12)
DEV_STAMP := $(VENV)/.dev-$(shell cat requirements.txt requirements-dev.txt | sha1sum | cut -c1-12)
DEMO_CORPUS ?= hipaa

.PHONY: python install install-dev check neo4j neo4j-stop ingest-demo demo app test bench answers clean-data

python:
	@echo $(PY)

# The venv lives outside the clone so CI clones and later runs reuse it (torch is several GB).
$(REQ_STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON_BIN) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@rm -f $(VENV)/.runtime-* && touch $@

$(DEV_STAMP): $(REQ_STAMP) requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@rm -f $(VENV)/.dev-* && touch $@

# Debian's Chromium drives the browser tests (never a downloaded browser build).
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@command -v apt-get >/dev/null || { echo "install Debian's chromium package for the browser tests"; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

install: $(REQ_STAMP)

install-dev: install $(DEV_STAMP) $(CHROMIUM)

neo4j: install
	$(PY) -m core.neo4j_local start

neo4j-stop:
	$(PY) -m core.neo4j_local stop

ingest-demo: neo4j
	@$(PY) -m ingest.demo ingest $(DEMO_CORPUS)

demo: ingest-demo
	@$(PY) -m ingest.demo summary $(DEMO_CORPUS)
	@$(MAKE) --no-print-directory app

# The chat on 127.0.0.1:8000; the first run creates the admin (password kept in data/app/admin-password).
# core.serve gives the worker its own Chainlit files folder under data/app/workers/ (see README, several workers).
app: install
	@$(PY) -m core.accounts ensure
	@echo "Citewalk chat: http://127.0.0.1:8000"
	$(PY) -m core.serve --host 127.0.0.1 --port 8000

# Lint and types first (seconds, caches under ~/.cache/citewalk so CI clones reuse them), then every test.
check: install-dev
	$(PY) -m ruff check --cache-dir $(CITEWALK_CACHE)/ruff .
	$(PY) -m mypy --cache-dir $(CITEWALK_CACHE)/mypy

# Two test processes (pytest-xdist), each a whole test file at a time: much of a run waits on servers starting
# and browsers rendering, and a file's module fixtures (an app, a private Neo4j) stay in one process.
# --durations=15 lists the slowest tests at the end, so a test that grows slow is seen.
TEST_WORKERS ?= 2
test: check
	@set +e; $(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadfile --durations=15 tests; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests"; exit 1; fi; exit $$rc

bench: install-dev
	$(PY) -m bench.citations
	$(PY) -m bench.ingest

# Every dev set, answers and retrieval, against bench/results/answers_baseline.json, question by question (the corpora
# this data dir lacks are ingested first). SETS=gdpr_user,ko_dev runs some; UPDATE=1 writes the run as the baseline.
answers: install-dev
	$(PY) -m bench.regress $(if $(SETS),--sets $(SETS)) $(if $(UPDATE),--update-baseline)

clean-data: neo4j-stop
	rm -rf data
