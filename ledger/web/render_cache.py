"""Rendered tables kept by what they show (Django's cache framework).

A season's standings are read far more often than they change, and rendering a django-tables2
table costs more than reading its rows from the summaries. ``keep`` gives a table a cache key
that is a digest of everything its HTML depends on: the table's class, the language, the
active currency (its decimals), the time zone, the request's path and query (sorting, paging,
the season), the reader's role and the rows themselves (their values, as given to the table).
The same rows render the same HTML, so a kept rendering is never stale: a new hand changes
the rows, hence the key. The ``render_table_kept`` tag renders a table through it. The rows
must be plain values (a list), not a queryset, so the queries are the same whether the
rendering is kept or not.

``kept`` keeps any value so, under a key that names what it is computed from (a tournament's
standings by the tournament's version, which its services raise with every change).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from ledger.tables.columns import active_currency

TIMEOUT = 24 * 3600


def keep(table, request, *, rows) -> None:
    """Give ``table`` its cache key: a digest of ``rows`` (plain values), the request and, for
    a paginated table, its page's number, the number of pages and whether one follows (the
    pagination's links: a longer ladder keeps its first page's lines but not its links)."""
    page = getattr(table, "page", None)
    paging = (page.number, table.paginator.num_pages, page.has_next()) if page else None
    parts = (
        type(table).__module__,
        type(table).__qualname__,
        get_language(),
        active_currency(),
        timezone.get_current_timezone_name(),
        request.get_full_path(),
        getattr(getattr(request, "member", None), "role", None),
        getattr(getattr(request, "user", None), "is_superuser", False),
        paging,
        rows,
    )
    table.render_key = "table:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def digest(kind: str, *parts) -> str:
    """Return a cache key for ``kind`` naming ``parts`` (plain values) and the language."""
    return f"{kind}:" + hashlib.sha256(repr((get_language(), parts)).encode()).hexdigest()


def kept(key: str, compute):
    """Return the value kept under ``key``, else ``compute()`` it and keep it. The key must
    name everything the value depends on (a digest of it), so a kept value is never stale."""
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, TIMEOUT)
    return value


def render(table, request) -> str:
    """Return the table's HTML: kept when it has a key, rendered (and kept) otherwise."""
    key = getattr(table, "render_key", None)
    if key is None:
        return table.as_html(request)
    html = kept(key, lambda: str(table.as_html(request)))
    return mark_safe(html)  # noqa: S308 - the table's own rendering, escaped by its template
