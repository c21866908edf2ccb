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
## which holds them.
BUILD_INPUTS := pyproject.toml setup.py trade/routes/native_build.py trade/routes/csrc/native.c
MAPPER_STATUS := $(PY) -c "from trade.routes import native; print('trade-route mapper:', native.status())"

$(VENV)/bin/pip:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip

$(RUNTIME): $(BUILD_INPUTS) | $(VENV)/bin/pip
	$(VENV)/bin/pip install --quiet -e . --config-settings editable_mode=compat
	touch $@

$(DEV): $(BUILD_INPUTS) | $(VENV)/bin/pip
	$(VENV)/bin/pip install --quiet -e ".[dev]" --config-settings editable_mode=compat
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

## test: everything, in lanes, each timed (the summary at the end):
##   lint      ruff, mypy, import layers, migrations, the adjudicator cases
##   parallel  every independent test on PostgreSQL (it makes the test databases)
##   browser   the browser and real-worker tests on PostgreSQL and Redis (each worker of its own
##             queue and database, so two run at once)
##   sqlite    make run's settings (SQLite, in-process tasks): the tests marked sqlite, and
##             tests/sqlite (the demo played in a browser through `make run` itself)
## The pytest lanes run on two pytest-xdist workers, which steal work from each other so that a
## long test does not leave one idle. Real Traveller sectors are read from FTCAMP_SECTORS, set
## here when ../shared has them; the tests that need them skip without it (README "Licences of
## data"). HYPOTHESIS_PROFILE=thorough runs every property test at its full count.
SECTORS_DIR := $(abspath ../shared/data/sectors)
FTCAMP_SECTORS ?= $(if $(wildcard $(SECTORS_DIR)),$(SECTORS_DIR))
export FTCAMP_SECTORS
LANES := $(CURDIR)/.lanes
SQLITE_LANE_DB := $(CURDIR)/.lanes.sqlite3
XDIST := -n 2 --dist worksteal
PG_TEST = DATABASE_URL=$(PG_URL) REDIS_URL=$(REDIS_TEST_URL) $(VENV)/bin/pytest $(XDIST) --ignore=tests/sqlite
# runs a lane and notes its time; a failing lane stops make test with the summary so far
lane = t0=$$SECONDS; $(2); rc=$$?; \
	printf '%-9s %4d s  %s\n' $(1) $$((SECONDS - t0)) $$([ $$rc = 0 ] && echo ok || echo FAILED) \
	>> $(LANES); [ $$rc = 0 ] || { cat $(LANES); exit 1; }

test: install-dev services chromium
	@rm -f $(LANES) $(SQLITE_LANE_DB)*
	@$(call lane,lint,$(MAKE) --no-print-directory checks)
	@$(call lane,parallel,$(PG_TEST) --create-db --reuse-db -m "not browser and not worker")
	@$(call lane,browser,$(PG_TEST) --reuse-db -m "browser or worker")
	@$(call lane,sqlite,DEBUG=1 DATABASE_URL=sqlite:///$(SQLITE_LANE_DB) REDIS_URL= \
		$(VENV)/bin/pytest $(XDIST) -m sqlite tests)
	@echo; echo "make test: every lane passed"; cat $(LANES)

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
