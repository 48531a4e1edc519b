# tarokclub: make run | make test | make bench   (each bootstraps .venv itself)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/tarokclub
export PYTHONDONTWRITEBYTECODE=1

.PHONY: run test test-sqlite test-postgres lint bench messages install install-dev clean

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

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

test: install-dev messages lint test-sqlite test-postgres

test-sqlite: $(VENV)/.installed-dev
	$(VENV)/bin/pytest -q -p no:cacheprovider

# PostgreSQL: a database of its own per run; skipped with a message when no server answers (never in CI).
test-postgres: $(VENV)/.installed-dev
	@if $(PY) scripts/pg_ready.py "$(PG_URL)"; then \
		DATABASE_URL="$(PG_URL)" TEST_DATABASE_NAME="test_tarokclub_$$$$" $(VENV)/bin/pytest -q -p no:cacheprovider; \
	elif [ -n "$$CI" ]; then echo "PostgreSQL is required in CI at $(PG_URL)" >&2; exit 1; \
	else echo "PostgreSQL not reachable at $(PG_URL): skipping the PostgreSQL run."; fi

bench: install-dev
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) staticfiles test-artifacts
