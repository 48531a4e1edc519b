"""``/healthz/`` for the proxy and a monitor: the database and the shared cache, each with one
real round trip. 200 ``{"status": "ok", ...}`` when both answer, else 503 naming the part that
did not ("down"; why goes to the log, at WARNING, not to the caller). No log-in, never cached."""

from __future__ import annotations

import logging
import time
import uuid

from django.core.cache import caches
from django.db import DatabaseError, connection, transaction
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

import tarokclub

logger = logging.getLogger(__name__)


def _database() -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise DatabaseError("SELECT 1 did not answer 1")


def _shared_cache() -> None:
    cache = caches["shared"]
    key, value = f"healthz:{uuid.uuid4().hex}", uuid.uuid4().hex
    # A savepoint: the database cache's failure must not spoil a caller's transaction.
    with transaction.atomic():
        cache.set(key, value, timeout=30)
        try:
            if cache.get(key) != value:
                raise RuntimeError("the shared cache did not return what was set")
        finally:
            cache.delete(key)


CHECKS = {"database": _database, "cache": _shared_cache}


@never_cache
@require_GET
def healthz(request):
    """Answer 200 when the database and the shared cache each answer a round trip, else 503."""
    parts: dict[str, str] = {}
    started = time.monotonic()
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as error:  # any failure is "down"; its reason goes to the log only
            parts[name] = "down"
            logger.warning(
                "health check failed: %s: %s",
                name,
                error,
                extra={"event": "health", "part": name, "error": type(error).__name__},
            )
        else:
            parts[name] = "ok"
    ok = all(state == "ok" for state in parts.values())
    body = {
        "status": "ok" if ok else "unavailable",
        "version": tarokclub.__version__,
        **parts,
        "ms": round((time.monotonic() - started) * 1000),
    }
    return JsonResponse(body, status=200 if ok else 503)
