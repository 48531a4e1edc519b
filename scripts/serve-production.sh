#!/usr/bin/env bash
# Production start: collect the static files, migrate, then serve tarokclub.wsgi with gunicorn.
#
# Needs at least DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS (DEBUG is off unless DJANGO_DEBUG=1;
# see docs/operator.md). Binds to ${HOST:-127.0.0.1}:${PORT:-8000}; put a TLS proxy in
# front and set DJANGO_SECURE_SSL=1. GUNICORN_WORKERS sets the number of workers (default 2),
# GUNICORN_THREADS the threads of each (default 4: gunicorn's gthread; 1: sync workers). The default was
# chosen by the crowd benches (bench/crowd.py; figures in docs/benchmarks.md, docs/operator.md).
# GUNICORN_TIMEOUT (default 60 s) stays above the services' lock and statement timeouts
# (TAROK_LOCK_TIMEOUT 5 s, TAROK_STATEMENT_TIMEOUT 20 s): a stuck lock is answered "busy, try
# again" by the application, never a 500 by the worker timeout. GUNICORN_MAX_REQUESTS (default
# 500) and GUNICORN_MAX_REQUESTS_JITTER (50) recycle a worker after that many requests (give or
# take the jitter, so the workers do not restart together): a second bound on a worker's memory
# after the render process (TAROK_KEPT_RENDER) that keeps PDFs out of it. See docs/operator.md.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
GUNICORN="${GUNICORN:-.venv/bin/gunicorn}"

# manage.py defaults to DEBUG for developers; the production start must not.
export DJANGO_DEBUG="${DJANGO_DEBUG:-0}"
"$PY" manage.py compilemessages --ignore=.venv -v 0
"$PY" manage.py collectstatic --noinput -v 0
"$PY" manage.py migrate --noinput -v 0
exec "$GUNICORN" tarokclub.wsgi \
    --bind "${HOST:-127.0.0.1}:${PORT:-8000}" \
    --workers "${GUNICORN_WORKERS:-2}" \
    --threads "${GUNICORN_THREADS:-4}" \
    --timeout "${GUNICORN_TIMEOUT:-60}" \
    --graceful-timeout "${GUNICORN_GRACEFUL_TIMEOUT:-30}" \
    --max-requests "${GUNICORN_MAX_REQUESTS:-500}" \
    --max-requests-jitter "${GUNICORN_MAX_REQUESTS_JITTER:-50}" \
    --access-logfile -
