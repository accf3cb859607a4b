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

.PHONY: python install install-dev check first-use neo4j neo4j-stop ingest-demo demo app test bench answers clean-data

python:
	@echo $(PY)

# Python writes each module's bytecode beside it the first time a process imports it. Some images set
# PYTHONDONTWRITEBYTECODE (this one does): then every test process would compile torch, transformers and the
# project's own modules anew, since the venv is installed without compiling its ~7 GB up front (below).
unexport PYTHONDONTWRITEBYTECODE

# The venv lives outside the clone so CI clones and later runs reuse it (torch is several GB).
# uv (pinned in requirements.txt; pip only installs uv) fetches and unpacks the wheels in parallel and, unlike pip,
# does not compile every module of every package at install: on a fresh machine 101 s instead of pip's 440 s for
# both sets (busy machine, load 12-16), and the modules a process imports are compiled then, once.
UV_INSTALL = $(PY) -m uv pip install --quiet --python $(PY)
$(REQ_STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON_BIN) -m venv $(VENV)
	$(PY) -m pip install --quiet "$$(grep -E '^uv==' requirements.txt)"
	$(UV_INSTALL) -r requirements.txt
	@rm -f $(VENV)/.runtime-* && touch $@

$(DEV_STAMP): $(REQ_STAMP) requirements-dev.txt
	$(UV_INSTALL) -r requirements-dev.txt
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

# What the tests would build at first use on a fresh machine (tests/first_use.py): the Neo4j jars and class
# archive, the ONNX export and the HIPAA vectors, ranx's compiled metrics. One process each, so they overlap each
# other and the checks; a stamp in the venv marks each done (a new venv does them again).
FIRST_USE := neo4j vectors ranx
first-use: $(foreach step,$(FIRST_USE),$(VENV)/.first-use-$(step))

$(VENV)/.first-use-%: $(DEV_STAMP)
	$(PY) -m tests.first_use $* && touch $@ || echo "first use: $* left to the tests"

# Two test processes (pytest-xdist), each a whole test file at a time: much of a run waits on servers starting
# and browsers rendering, and a file's module fixtures (an app, a private Neo4j) stay in one process.
# The checks hold one core (mypy), so first-use runs beside them. --no-loadscope-reorder keeps the file order
# tests/conftest.py gives (the long browser and server files first, the quick ones filling the end) instead of
# xdist's most-tests-first. --durations=15 lists the slowest tests at the end, so a test that grows slow is seen.
TEST_WORKERS ?= 2
test: install-dev
	@$(MAKE) --no-print-directory -j4 --output-sync=line check first-use
	@set +e; $(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
	--durations=15 tests; rc=$$?; if [ $$rc -eq 5 ]; then echo "pytest collected no tests"; exit 1; fi; exit $$rc

bench: install-dev
	$(PY) -m bench.citations
	$(PY) -m bench.ingest

# Every dev set, answers and retrieval, against bench/results/answers_baseline.json, question by question (the corpora
# this data dir lacks are ingested first). SETS=gdpr_user,ko_dev runs some; UPDATE=1 writes the run as the baseline.
answers: install-dev
	$(PY) -m bench.regress $(if $(SETS),--sets $(SETS)) $(if $(UPDATE),--update-baseline)

clean-data: neo4j-stop
	rm -rf data
