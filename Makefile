# FTCamp: `make run` starts the demo; `make test` runs the whole suite as CI does.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
RUNTIME := $(VENV)/.runtime-stamp
DEV := $(VENV)/.dev-stamp
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/ftcamp
REDIS_TEST_URL ?= redis://127.0.0.1:6379/15

.PHONY: install install-dev run test checks lint services chromium bench clean

## pip also builds the trade-route mapper's C loops in place (setup.py), again when native.c
## changes; without a C compiler the install goes on and the mapper runs its numpy and scipy
## code instead, with the same results, slower (install says which: trade/routes/native.py).
## `make run` installs the runtime packages only; test, lint and bench the development set,
## which holds them. --no-compile: Python writes the bytecode of what it imports when it
## imports it, instead of pip compiling every installed file first (10 s of the 27).
BUILD_INPUTS := pyproject.toml setup.py trade/routes/native_build.py trade/routes/csrc/native.c
MAPPER_STATUS := $(PY) -c "from trade.routes import native; print('trade-route mapper:', native.status())"

$(VENV)/bin/pip:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip

$(RUNTIME): $(BUILD_INPUTS) | $(VENV)/bin/pip
	$(VENV)/bin/pip install --quiet --no-compile -e . --config-settings editable_mode=compat
	touch $@

$(DEV): $(BUILD_INPUTS) | $(VENV)/bin/pip
	$(VENV)/bin/pip install --quiet --no-compile -e ".[dev]" --config-settings editable_mode=compat
	touch $@ $(RUNTIME)

install: $(RUNTIME)
	@$(MAPPER_STATUS)

install-dev: $(DEV)
	@$(MAPPER_STATUS)

## run: the demo on 127.0.0.1:$(PORT) with SQLite and in-process tasks
run: install
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py seed_demo
	DEBUG=1 $(PY) manage.py runserver --noreload 127.0.0.1:$(PORT)

## services: start PostgreSQL and Redis when installed but stopped
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
	@for i in $$(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done

## chromium: Debian's browser for the Playwright tests (never `playwright install`)
chromium:
	@command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation)

## lint: ruff, mypy --strict on everything (its Django plugin loads the settings, which want a
## SECRET_KEY when DEBUG is off: a throwaway one), the import-linter layers
lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	SECRET_KEY=type-check-only $(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

## test: everything, in lanes, each timed, with a summary of their times at the end
## (tests/lanes.sh: lint beside the parallel PostgreSQL lane, then the browser and worker lane,
## then the SQLite lane with make run's settings). Real Traveller sectors are read from
## FTCAMP_SECTORS, set here when ../shared has them; the tests that need them skip without it
## (README "Licences of data"). HYPOTHESIS_PROFILE=thorough runs every property test in full.
SECTORS_DIR := $(abspath ../shared/data/sectors)
FTCAMP_SECTORS ?= $(if $(wildcard $(SECTORS_DIR)),$(SECTORS_DIR))
export FTCAMP_SECTORS

test: install-dev services chromium
	@PY=$(PY) PYTEST=$(VENV)/bin/pytest PG_URL=$(PG_URL) REDIS_TEST_URL=$(REDIS_TEST_URL) tests/lanes.sh

## checks: the static checks and the adjudicator cases (make test's first lane)
checks: lint
	SECRET_KEY=makemigrations-check $(PY) manage.py makemigrations --check --dry-run
	DEBUG=1 $(PY) manage.py adjudicate tests/cases --check

## bench: every benchmark, each in its own process; one that cannot run is skipped with the
## reason, one that fails does not stop the rest (bench/run_all.py)
bench: install-dev
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 build trade/routes/csrc/*.so
