"""``/healthz/``: 200 while the database and the shared cache answer a round trip; 503 naming
the part that is down (the reason in the log, not in the answer) when either does not."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings

import tarokclub

pytestmark = pytest.mark.django_db

BROKEN_CACHE = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "shared": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "no_such_cache_table",
    },
}


def test_healthy_site_answers_200_with_its_version(client):
    """Database and shared cache up: 200, both "ok", the release's version, never cached."""
    response = client.get("/healthz/")
    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in ("status", "database", "cache", "version")} == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "version": tarokclub.__version__,
    }
    assert "no-store" in response["Cache-Control"]


def test_a_broken_shared_cache_is_503(client, caplog):
    """A shared cache whose table is missing: 503, the cache "down", the database still "ok";
    a WARNING names the part, and the answer holds no error text."""
    with override_settings(CACHES=BROKEN_CACHE):
        response = client.get("/healthz/")
    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["database"], body["cache"]) == ("unavailable", "ok", "down")
    assert "no_such_cache_table" not in response.content.decode()
    (line,) = [r for r in caplog.records if getattr(r, "event", None) == "health"]
    assert line.levelname == "WARNING"
    assert line.part == "cache"
    assert "no_such_cache_table" in line.getMessage()


@pytest.mark.django_db(transaction=True)
def test_an_unreachable_database_is_503(client):
    """The database cannot be reached (its connection pointed at a place with no database):
    503 with the database and the shared cache (kept in it) both "down"; back to 200 once
    the connection points at the database again."""
    saved = dict(connection.settings_dict)
    connection.close()
    if connection.vendor == "sqlite":
        connection.settings_dict["NAME"] = "/nonexistent-directory/tarokclub.sqlite3"
    else:
        connection.settings_dict.update(HOST="127.0.0.1", PORT="1")
    try:
        response = client.get("/healthz/")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["database"], body["cache"]) == ("unavailable", "down", "down")
    assert client.get("/healthz/").status_code == 200


def test_healthz_is_exempt_from_the_https_redirect():
    """Behind TLS (DJANGO_SECURE_SSL=1) the proxy may still probe /healthz/ over plain HTTP."""
    from ledger.tests.helpers import run_python

    result = run_python(
        "import django; django.setup(); from django.conf import settings;"
        "print(settings.SECURE_SSL_REDIRECT, settings.SECURE_REDIRECT_EXEMPT)",
        DJANGO_SETTINGS_MODULE="tarokclub.settings",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_SECURE_SSL="1",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True ['^healthz/$']"
