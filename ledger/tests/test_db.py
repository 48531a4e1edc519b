"""The database itself refuses what would break the ledger, whatever code asks."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from ledger.models import Account, Posting, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.tests.factories import evening_e, make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    _, table, _ = evening_e(make_club())
    return table


def refused(action):
    with pytest.raises(IntegrityError), transaction.atomic():
        action()


def test_queryset_update_and_delete_are_refused(table):
    """QuerySet.update() and delete() on transfers and postings fail in the database."""
    refused(lambda: Transfer.objects.filter(table=table).update(points=1))
    refused(lambda: Transfer.objects.filter(table=table)._raw_delete(connection.alias))
    refused(lambda: Posting.objects.filter(table=table).update(note="edited"))
    refused(lambda: Posting.objects.filter(table=table)._raw_delete(connection.alias))


def test_raw_sql_is_refused(table):
    """Raw UPDATE and DELETE statements on ledger_transfer are refused."""

    def raw(sql):
        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql)

        return run

    refused(raw("UPDATE ledger_transfer SET points = points + 5"))
    refused(raw("DELETE FROM ledger_transfer"))


def test_bad_transfers_are_refused(table):
    """Non-positive points, a transfer to itself and one between tables are refused."""
    posting = Posting.objects.filter(table=table).first()
    assert posting is not None
    anna = Account.objects.get(table=table, member__name="Anna")
    bo = Account.objects.get(table=table, member__name="Bo")
    refused(
        lambda: Transfer.objects.create(
            posting=posting, table=table, source=anna, target=bo, points=0, reason="x"
        )
    )
    refused(
        lambda: Transfer.objects.create(
            posting=posting, table=table, source=anna, target=bo, points=-5, reason="x"
        )
    )
    refused(
        lambda: Transfer.objects.create(
            posting=posting, table=table, source=anna, target=anna, points=5, reason="x"
        )
    )
    _, other_table, _ = evening_e(make_club(slug="other"))
    foreign = Account.objects.get(table=other_table, member__name="Bo")
    refused(
        lambda: Transfer.objects.create(
            posting=posting, table=table, source=anna, target=foreign, points=5, reason="x"
        )
    )


def test_closed_evening_refuses_inserts(table):
    """Nothing can be posted to a table whose evening is closed, even bypassing services."""
    from ledger import services

    services.evening_close(evening=table.evening)
    posting = Posting.objects.filter(table=table).first()
    assert posting is not None
    anna = Account.objects.get(table=table, member__name="Anna")
    bo = Account.objects.get(table=table, member__name="Bo")
    refused(
        lambda: Transfer.objects.create(
            posting=posting, table=table, source=anna, target=bo, points=5, reason="x"
        )
    )


def disable_guard(cursor):
    if connection.vendor == "postgresql":
        # Deferred foreign-key checks must fire before the table can be altered.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE ledger_transfer DISABLE TRIGGER ledger_transfer_append_only")
    else:
        cursor.execute("DROP TRIGGER ledger_transfer_no_update")


def test_verify_ledger_reports_a_tampered_row(table):
    """With the trigger disabled, a tampered transfer is caught and its hand named."""
    assert verify_ledger().ok
    target = Transfer.objects.filter(table=table, reason="last_trick").order_by("pk").first()
    assert target is not None
    with connection.cursor() as cursor:
        disable_guard(cursor)
        cursor.execute("UPDATE ledger_transfer SET points = 25 WHERE id = %s", [target.pk])
    report = verify_ledger()
    assert not report.ok
    assert any("hand 1" in p and "stored transfers differ" in p for p in report.problems)


def test_verify_ledger_reports_a_negative_cup(table):
    """A tampered ultimo that takes more than the kongekop holds is reported as a negative cup."""
    target = Transfer.objects.get(table=table, reason="ultimo_cup")
    with connection.cursor() as cursor:
        disable_guard(cursor)
        cursor.execute("UPDATE ledger_transfer SET points = 1000 WHERE id = %s", [target.pk])
    problems = verify_ledger().problems
    assert any("hand 2" in p and "kongekop went below zero" in p for p in problems)


def test_verify_ledger_command(table, capsys):
    """verify_ledger prints a summary and exits 0 on a good ledger, 1 naming the hand otherwise."""
    from django.core.management import call_command

    call_command("verify_ledger")
    assert "1 tables, 3 hand postings" in capsys.readouterr().out
    target = Transfer.objects.filter(table=table, reason="count").order_by("pk").last()
    assert target is not None
    with connection.cursor() as cursor:
        disable_guard(cursor)
        cursor.execute("UPDATE ledger_transfer SET points = 10 WHERE id = %s", [target.pk])
    with pytest.raises(SystemExit) as exited:
        call_command("verify_ledger")
    assert exited.value.code == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "hand 3" in out


@pytest.mark.django_db(transaction=True)
def test_a_database_restart_costs_a_reconnect_not_an_error(client):
    """The server drops a kept connection (as a restart does): the next request's health
    check (CONN_HEALTH_CHECKS, run by request_started) reconnects, and the page is served."""
    if connection.vendor != "postgresql":
        pytest.skip("a server-side disconnect is PostgreSQL's")
    import psycopg
    from django.db import close_old_connections

    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    close_old_connections()  # what every request starts with
    club = make_club()  # a query on the connection the request would use
    assert client.get(reverse("club", kwargs={"club": club.slug})).status_code in (200, 302)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid


@pytest.mark.django_db(transaction=True)
def test_the_test_flush_empties_the_ledger_and_leaves_its_guards_on():
    """The flush between transactional tests (on PostgreSQL its DELETEs with the triggers off
    for its own transaction) empties every ledger table; after it a delete is refused again."""
    from django.apps import apps
    from django.core.management import call_command

    evening_e(make_club())
    assert Transfer.objects.exists() and Posting.objects.exists()
    call_command("flush", interactive=False, verbosity=0)
    tables = [m for m in apps.get_app_config("ledger").get_models() if not m._meta.proxy]
    assert len(tables) > 20
    assert [m.__name__ for m in tables if m._default_manager.exists()] == []
    _, table, _ = evening_e(make_club())
    refused(lambda: Transfer.objects.filter(table=table)._raw_delete(connection.alias))
