# tarokclub: make run | make test | make test-fast | make bench   (each bootstraps .venv itself)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/tarokclub
# Test processes in parallel (pytest-xdist): one per core; a process that runs out of tests
# takes pending ones from the other (worksteal), so the long browser tests at the end do not
# leave a core idle.
JOBS ?= $(shell $(PYTHON) -c "import os; print(max(1, len(os.sched_getaffinity(0))))")
PYTEST := $(VENV)/bin/pytest -q -p no:cacheprovider -n $(JOBS) --dist worksteal
export PYTHONDONTWRITEBYTECODE=1

.PHONY: run test test-fast test-sqlite test-postgres lint lock bench messages install \
	install-dev clean

$(VENV)/.installed: requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PIP) install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

install: $(VENV)/.installed
	@bash scripts/system-deps.sh

install-dev: $(VENV)/.installed-dev
	@bash scripts/system-deps.sh --test

messages: $(VENV)/.installed
	$(PY) manage.py compilemessages --ignore=.venv -v 0

run: install messages
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py seed_demo --url http://$(HOST):$(PORT)/
	$(PY) manage.py runserver $(HOST):$(PORT)

# Checks, no model change without its migration, and the manual (docs/) built with --strict, so
# a broken link or anchor between its pages fails (CI runs this through make test; never
# --quiet: it hides the warnings that --strict counts).
lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) manage.py makemigrations --check --dry-run -v 1
	@site=$$(mktemp -d) && $(VENV)/bin/mkdocs build --strict --site-dir "$$site"; \
		status=$$?; rm -rf "$$site"; exit $$status

# Compile the direct dependencies (requirements.in, requirements-dev.in) to the pinned files.
lock: $(VENV)/.installed-dev
	$(PIP) install --quiet --disable-pip-version-check pip-tools
	$(VENV)/bin/pip-compile -q --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements.txt requirements.in
	$(VENV)/bin/pip-compile -q --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements-dev.txt requirements-dev.in

# Every test: SQLite runs all but the browser suite; PostgreSQL runs all but the tests marked
# ``once`` (the demo rebuilt through the services, and the backups of SQLite files, which
# SQLite runs): so the ledger, services, concurrency and migrations run on both, the browsers
# on PostgreSQL. Both runs include the tests marked ``slow``.
test: install-dev messages lint test-sqlite test-postgres

test-sqlite: $(VENV)/.installed-dev
	$(PYTEST) -m "not e2e"

# PostgreSQL: a database of its own per run (and per test process); skipped with a message
# when no server answers (never in CI). The pure tests (no database: the engines, the
# parsers) ran in test-sqlite and are left out here (ledger/tests/conftest.py;
# TAROK_TEST_PURE_TWICE=1 keeps them).
test-postgres: $(VENV)/.installed-dev
	@if $(PY) scripts/pg_ready.py "$(PG_URL)"; then \
		DATABASE_URL="$(PG_URL)" TEST_DATABASE_NAME="test_tarokclub_$$$$" $(PYTEST) -m "not once"; \
	elif [ -n "$$CI" ]; then echo "PostgreSQL is required in CI at $(PG_URL)" >&2; exit 1; \
	else echo "PostgreSQL not reachable at $(PG_URL): skipping the PostgreSQL run."; fi

# The edit-test loop, under a minute: SQLite, no browser, none of the tests marked ``slow`` (over
# about 5 s, marked in their code, and those measured over about 0.15 s, listed in
# ledger/tests/slow.txt by scripts/slow_tests.py), in parallel. For one test again and again:
# .venv/bin/pytest --reuse-db PATH::TEST (docs/developer.md).
test-fast: $(VENV)/.installed-dev messages
	$(PYTEST) -m "not e2e and not slow"

bench: install-dev
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) staticfiles test-artifacts site
