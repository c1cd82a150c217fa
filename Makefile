# asyncfail: every command a newcomer needs. `make help` lists them.
# The first target that needs the virtual environment creates it and installs the project.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
COURSE := $(VENV)/.course
PUBLISH := $(VENV)/.publish
STAMP  := $(VENV)/.installed
# axe-core, pinned in tests/browser/package-lock.json: the browser tests inject it into every page.
AXE    := tests/browser/node_modules/axe-core/axe.min.js
MIRROR := exports/.cache/.filled
comma  := ,
HOST   ?= 127.0.0.1
PORT   ?= 2718
# Lesson 1's live verification: on or off; empty means on for a loopback HOST, off otherwise.
VERIFY ?=
# pytest-xdist workers for `make pytest` (auto: one per core; 0 runs in this process).
WORKERS ?= auto
# `make export BASE_URL=https://host/path/`: the URL the site is published at (absolute og:url
# and og:image on the home); `PICTURES=no`: no lesson pictures, so no Chromium needed.
BASE_URL ?=
PICTURES ?= yes

.DEFAULT_GOAL := help
.PHONY: help serve lab test lint typecheck pytest golden verify-record engine-record bench export picture relock clean

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Serving installs only what serving needs (the `course` extra); every other target installs the
# development tools too (the `dev` extra, which includes `course`).
$(COURSE): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[course]'
	@touch $@

# Publishing installs only what it needs: the `publish` extra, and `pictures` unless PICTURES=no.
$(PUBLISH): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[publish$(if $(filter no,$(PICTURES)),,$(comma)pictures)]'
	@touch $(COURSE) $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(COURSE) $(PUBLISH) $@

serve: $(COURSE) ## Serve the course on http://127.0.0.1:2718 (PORT=..., HOST=0.0.0.0 for a class, VERIFY=on|off)
	$(BIN)/python exports/course_server.py --host $(HOST) --port $(PORT) --live-verify "$(VERIFY)"

lab: $(COURSE) ## Print the seed case under both runtimes as text
	$(BIN)/asyncfail lab --fault crash-after-effect --mode naive --format text
	$(BIN)/asyncfail lab --fault crash-after-effect --mode durable --format text

test: lint typecheck pytest ## Run the whole test suite (lint, types, tests)

lint: $(STAMP) ## ruff lint and format check; marimo check on the notebooks
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/marimo check --strict notebooks/

typecheck: $(STAMP) ## mypy --strict on the library
	$(BIN)/mypy --strict asyncfail

pytest: $(STAMP) $(AXE) $(MIRROR) ## The pytest suite, on every core (WORKERS=0 runs it in one process)
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup

# The site's download cache (Pyodide's core and wheels, checked against exports/artifacts.lock),
# filled once before the suite starts, so no test downloads or unpacks it while another reads it.
$(MIRROR): exports/artifacts.lock exports/pyodide-wheels.txt | $(STAMP)
	cd exports && ../$(BIN)/python -c "from pyodide_mirror import mirror_inputs; mirror_inputs()"
	@touch $@

$(AXE): tests/browser/package.json tests/browser/package-lock.json
	cd tests/browser && npm ci --no-audit --no-fund --ignore-scripts
	@touch $@

golden: $(STAMP) ## Regenerate the golden lab documents, the chart templates and notebooks/README.md
	$(BIN)/python tests/golden/regenerate.py

verify-record: $(STAMP) ## Verify the model on real processes; record the table lesson 1 shows
	$(BIN)/python tests/golden/record_verification.py

engine-record: $(STAMP) ## Verify the model on a real engine (DBOS); record the table its lesson shows
	$(BIN)/python tests/golden/record_engine_verification.py

bench: $(STAMP) ## Print performance figures and ratios
	$(BIN)/python bench/lab_bench.py
	$(BIN)/python bench/contract_bench.py
	$(BIN)/python bench/lessons_bench.py
	$(BIN)/python bench/export_bench.py
	$(BIN)/python bench/verify_bench.py
	$(BIN)/python bench/limits_bench.py
	$(BIN)/python bench/tests_bench.py

export: $(PUBLISH) ## Build the site in exports/site/ (BASE_URL=https://..., PICTURES=no: no Chromium)
	$(BIN)/python exports/build.py $(if $(BASE_URL),--base-url '$(BASE_URL)') $(if $(filter no,$(PICTURES)),--no-pictures)

picture: $(STAMP) ## Build the site and copy lesson 1's picture to docs/images/ (the README's)
	$(BIN)/python exports/build.py --picture docs/images/lesson-01.png

relock: $(STAMP) ## Pin fresh downloads in exports/artifacts.lock (after changing a Pyodide pin)
	$(BIN)/python exports/relock.py

clean: ## Remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
