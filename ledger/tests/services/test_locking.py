"""Locks that answer: a service that cannot have its lock in time refuses with "busy, try
again" (``BusyError``, 409 with ``Retry-After`` to the tablet's script), writes nothing, and
the same write sent again after the lock is let go is saved.

The lock is held by another connection in a thread (PostgreSQL's row locks; SQLite's database
lock); events, not sleeps, say when it is held and when to let it go."""

from __future__ import annotations

import datetime
import re
import sqlite3
import uuid
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

from ledger import services
from ledger.models import Hand, Member
from ledger.services.errors import BusyError
from ledger.services.ledger import writing
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import HeldLock, english, hand_post, login

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = load_example("EVENING_E.evening.json")["hands"]
MESSAGE = "another save is under way; try again in a moment"


def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (run by make test-postgres)")


@pytest.fixture
def table():
    club = factories.make_club(slug="busy")
    people = [
        factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True),
        factories.make_member(club, "Bo"),
        factories.make_member(club, "Carl"),
    ]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    return services.table_open(evening=evening, members=people)


@pytest.mark.postgres
def test_a_held_row_lock_is_busy_then_the_retry_saves(settings, client, table):
    """A table whose row another connection holds: the tablet's save waits
    TAROK_LOCK_TIMEOUT, is answered 409 with Retry-After and {"busy": true} (nothing is
    written); the same form sent again once the lock is let go saves the hand."""
    postgres_only()
    settings.TAROK_LOCK_TIMEOUT = 0.2
    settings.TAROK_BUSY_RETRY_AFTER = 3
    english(login(client, Member.objects.get(name="Anna")))
    url = reverse("hand_new", kwargs={"club": "busy", "pk": table.pk})
    data = hand_post(table, HANDS[0], token=str(uuid.uuid4()))
    with HeldLock(table.pk):
        busy = client.post(url, data, headers={"X-Hand-Submit": "1"})
        assert busy.status_code == 409
        assert busy["Retry-After"] == "3"
        assert busy.json() == {"busy": True, "message": MESSAGE, "retry_after": 3}
        assert not Hand.objects.filter(table=table).exists()
    saved = client.post(url, data, headers={"X-Hand-Submit": "1"})
    assert saved.status_code == 200
    assert saved.json()["number"] == 1
    assert Hand.objects.filter(table=table).count() == 1


@pytest.mark.postgres
def test_a_held_row_lock_on_a_page_is_a_message(settings, client, table):
    """Without the script (a plain form post) the busy refusal is shown on the form page like
    any refused write: the message, status 422, nothing written."""
    postgres_only()
    settings.TAROK_LOCK_TIMEOUT = 0.2
    english(login(client, Member.objects.get(name="Anna")))
    url = reverse("hand_new", kwargs={"club": "busy", "pk": table.pk})
    with HeldLock(table.pk):
        page = client.post(url, hand_post(table, HANDS[0]))
    assert page.status_code == 422
    assert MESSAGE in page.content.decode()
    assert not Hand.objects.filter(table=table).exists()


@pytest.mark.postgres
def test_the_service_refuses_busy_and_names_what_it_locked(settings, table, caplog):
    """The service itself raises BusyError (a LedgerError) with the retry delay, and logs a
    WARNING naming the club and the table it was locking."""
    postgres_only()
    settings.TAROK_LOCK_TIMEOUT = 0.2
    with HeldLock(table.pk), pytest.raises(BusyError, match=MESSAGE) as refused:
        services.hand_record(table=table, record=HANDS[0], token="t1")
    assert refused.value.retry_after == 2
    (line,) = [r for r in caplog.records if r.name == "ledger.services.locking"]
    assert line.levelname == "WARNING"
    assert (line.reason, line.club, line.tables) == ("lock timeout", "busy", [table.pk])
    assert services.hand_record(table=table, record=HANDS[0], token="t1").number == 1


@pytest.mark.postgres
def test_timeouts_hold_inside_the_service_transaction_only(settings):
    """writing() sets lock_timeout and statement_timeout for its own transaction; the
    connection's own values are back after it."""
    postgres_only()
    settings.TAROK_LOCK_TIMEOUT = 1.5
    settings.TAROK_STATEMENT_TIMEOUT = 7
    with connection.cursor() as cursor:
        cursor.execute("SHOW lock_timeout")
        before = cursor.fetchone()[0]
        with writing():
            with connection.cursor() as inner:
                inner.execute("SHOW lock_timeout")
                assert inner.fetchone()[0] == "1500ms"
                inner.execute("SHOW statement_timeout")
                assert inner.fetchone()[0] == "7s"
        cursor.execute("SHOW lock_timeout")
        assert cursor.fetchone()[0] == before


@pytest.mark.postgres
def test_a_statement_past_its_timeout_is_busy(settings):
    """A statement running past TAROK_STATEMENT_TIMEOUT ends the transaction as BusyError."""
    postgres_only()
    settings.TAROK_STATEMENT_TIMEOUT = 0.1
    with pytest.raises(BusyError, match=MESSAGE), writing():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(5)")


def test_a_locked_sqlite_database_is_busy(table):
    """On SQLite another connection's write lock, held past the connection's busy timeout, is
    the same refusal; once it is let go the save goes through."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's database lock")
    other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout = 100")
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(BusyError, match=MESSAGE):
            services.hand_record(table=table, record=HANDS[0], token="t1")
        other.execute("ROLLBACK")
        assert not Hand.objects.filter(table=table).exists()
        assert services.hand_record(table=table, record=HANDS[0], token="t1").number == 1
    finally:
        other.close()
        connection.close()


def test_gunicorn_waits_longer_than_a_service(settings):
    """The production start gives a worker more time than a service may wait for a lock and
    run a statement, so a stuck lock is answered "busy" by the application, never a 500 by
    gunicorn's worker timeout."""
    script = (Path(settings.BASE_DIR) / "scripts" / "serve-production.sh").read_text()
    match = re.search(r'--timeout "\$\{GUNICORN_TIMEOUT:-(\d+)\}"', script)
    assert match, "serve-production.sh sets no gunicorn --timeout"
    assert settings.TAROK_LOCK_TIMEOUT < settings.TAROK_STATEMENT_TIMEOUT < int(match.group(1))
