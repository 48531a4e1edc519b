import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache, caches
from pytest_django import DjangoDbBlocker, Settings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"
if not EXAMPLES.is_dir():  # a copy of the spec examples ships with the tests too
    EXAMPLES = ROOT / "ledger" / "tests" / "examples"


def load_example(name: str) -> Any:
    """Return the spec's example ``name`` (its JSON, read)."""
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.fixture
def example() -> Callable[[str], Any]:
    return load_example


@pytest.fixture(autouse=True, scope="session")
def _flush_may_clear_the_ledger() -> Iterator[None]:
    """Let pytest-django's flush between transactional tests clear the append-only tables.

    The guard is lifted only inside Django's ``flush`` command, which only tests call. On
    PostgreSQL the flush deletes the rows (``delete_every_row``) instead of truncating.
    """
    from django.core.management import sql
    from django.core.management.commands import flush

    from ledger.db import ledger_unlocked

    original = flush.Command.handle
    original_sql = sql.sql_flush  # the flush command's own, by name

    def handle(self, *args, **options):
        with ledger_unlocked():
            return original(self, *args, **options)

    def sql_flush(style, connection, reset_sequences=True, allow_cascade=False):
        if connection.vendor == "postgresql" and not reset_sequences and _superuser(connection):
            return delete_every_row(connection)
        return original_sql(
            style, connection, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flush.Command, "handle", handle)
        patch.setattr(flush, "sql_flush", sql_flush)
        yield


def delete_every_row(connection) -> list[str]:
    """Return the statements that empty every table of a PostgreSQL test database: a DELETE a
    table, with the triggers (the foreign keys' and the ledger's append-only guards) off for
    the flush's own transaction. Django's TRUNCATE of the 57 tables took 0.2-1.9 s a flush
    (every table's and index's files made anew); these take about 25 ms, and a transactional
    test (every browser test) flushes once."""
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    quote = connection.ops.quote_name
    return [
        "SET LOCAL session_replication_role = replica",
        *(f"DELETE FROM {quote(table)}" for table in sorted(tables)),
    ]


def _superuser(connection) -> bool:
    """Whether the connection's role may switch the triggers off (a superuser, as the test
    runs' ``postgres`` is); otherwise the flush truncates, as Django's does."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        row = cursor.fetchone()
    return bool(row and row[0])


@pytest.fixture(autouse=True)
def _login_throttling_only_where_tested(request: pytest.FixtureRequest, settings: Settings) -> None:
    """Switch django-axes off except in tests marked ``axes``.

    Django's test client ``login()`` authenticates without a request, which django-axes
    refuses by design; the throttling itself is tested through real log-in requests.
    """
    if "axes" not in request.keywords:
        settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def _nothing_kept_from_another_test() -> None:
    """Start every test with nothing kept in this process's cache: a test's database rolls
    back and its ids come again in the next test, so a value kept under one could leak."""
    cache.clear()
    caches["parts"].clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Settings) -> None:
    """Hash test passwords cheaply (``helpers.FAST_HASHERS``); PBKDF2 stays listed so stored
    demo passwords still verify.

    Every test, the browser suite's too, has it from here: no module repeats it.
    """
    from ledger.tests.helpers import FAST_HASHERS

    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(autouse=True)
def _english_outside_requests() -> Iterator[None]:
    """Run code outside a request in English, so message assertions are language-independent.

    Pages still render in Danish by default: LocaleMiddleware picks each request's language.
    """
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(scope="class")
def demo(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[str]:
    """Load the demo once for a class of tests, in a transaction rolled back afterwards.

    Each test runs in a savepoint inside it (pytest-django's own atomic block), so what a test
    writes is undone and the next test sees the demo as loaded.
    """
    from ledger.tests.helpers import rolled_back, seed

    with rolled_back(django_db_blocker, language=None):
        out, _err = seed(force=True)
        yield out


# The fixtures through which a test reaches a database (pytest-django's, and the live server
# the browser suite drives).
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
    }
)


def reaches_a_database(item: pytest.Item) -> bool:
    """Whether a collected test can touch the database: marked ``django_db``, ``postgres`` or
    ``e2e``, or asking (through any fixture) for one of ``DATABASE_FIXTURES``. pytest-django
    refuses every other test a database, so those are pure (the engines, the parsers)."""
    if any(item.get_closest_marker(name) for name in ("django_db", "postgres", "e2e")):
        return True
    return bool(DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


# The tests measured slow (``scripts/slow_tests.py`` writes the list from a timed run): over
# about 0.15 s each on a quiet machine. They are marked ``slow`` here, as the few
# over 5 s are in their code, so ``make test-fast`` leaves them out; ``make test`` runs all.
SLOW_LIST = Path(__file__).with_name("slow.txt")


def measured_slow() -> frozenset[str]:
    """The node ids in ``SLOW_LIST`` (lines; ``#`` starts a comment)."""
    if not SLOW_LIST.is_file():
        return frozenset()
    lines = SLOW_LIST.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests measured slow (``SLOW_LIST``). On PostgreSQL (``make test-postgres``)
    leave out the pure tests, which the SQLite run has already run and which no database can
    change: both runs test the database, neither runs an engine twice.
    ``TAROK_TEST_PURE_TWICE=1`` keeps them."""
    from django.conf import settings

    slow = measured_slow()
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine or os.environ.get("TAROK_TEST_PURE_TWICE") == "1":
        return
    kept: list[pytest.Item] = []
    pure: list[pytest.Item] = []
    for item in items:
        (kept if reaches_a_database(item) else pure).append(item)
    if pure:
        config.hook.pytest_deselected(items=pure)
        items[:] = kept
