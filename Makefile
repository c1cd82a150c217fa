# asyncfail: every command a newcomer needs. `make help` lists them.
# The first target that needs the virtual environment creates it and installs the project.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
COURSE := $(VENV)/.course
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 2718
# Lesson 1's live verification: on or off; empty means on for a loopback HOST, off otherwise.
VERIFY ?=
# pytest-xdist workers for `make pytest` (auto: one per core; 0 runs in this process).
WORKERS ?= auto

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

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(COURSE) $@

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

pytest: $(STAMP) ## The pytest suite, on every core (WORKERS=0 runs it in one process)
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup

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

export: $(STAMP) ## Build the publishable site in exports/site/ (needs Chromium, for pictures)
	$(BIN)/python exports/build.py

picture: $(STAMP) ## Build the site and copy lesson 1's picture to docs/images/ (the README's)
	$(BIN)/python exports/build.py --picture docs/images/lesson-01.png

relock: $(STAMP) ## Pin fresh downloads in exports/artifacts.lock (after changing a Pyodide pin)
	$(BIN)/python exports/relock.py

clean: ## Remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
