"""Backup and restore round-trip every balance, on SQLite and PostgreSQL."""

import pytest
from django.core.management import call_command

from ledger import selectors, services
from ledger.models import EveningResult, Table
from ledger.tests.factories import evening_e, make_club, random_table_hands
from ledger.tests.helpers import restore_refused, wipe

pytestmark = pytest.mark.django_db


def all_balances():
    return {
        (t.evening.club.slug, str(t.evening.date), t.number): selectors.table_balances(t.pk)
        for t in Table.objects.select_related("evening__club")
    }


def test_json_round_trip(tmp_path):
    """A closed and an open evening survive backup, wipe and restore with every balance."""
    club = make_club()
    evening, table, _ = evening_e(club)
    random_table_hands(table, 10, seed=7)
    services.evening_close(evening=evening)
    _, open_table, _ = evening_e(club, date=evening.date.replace(day=12))
    before = all_balances()
    results = sorted(EveningResult.objects.values_list("member__name", "points", "money"))
    dump = tmp_path / "backup.json"
    call_command("backup", str(dump))
    wipe()
    assert all_balances() == {}
    call_command("restore", str(dump))
    assert all_balances() == before
    assert sorted(EveningResult.objects.values_list("member__name", "points", "money")) == results
    # The restored database is live: the open evening takes another hand.
    from ledger.tests.conftest import load_example

    services.hand_record(
        table=Table.objects.get(pk=open_table.pk),
        record=load_example("EVENING_E.evening.json")["hands"][0],
    )


def test_restore_refuses_a_database_in_use(tmp_path):
    """Restoring over existing data is refused."""
    evening_e(make_club())
    dump = tmp_path / "backup.json"
    call_command("backup", str(dump))
    assert any("needs an empty database" in m for m in restore_refused(dump))


@pytest.mark.slow
@pytest.mark.once  # a SQLite file whatever the run's database: one run is enough
def test_sqlite_online_backup(tmp_path):
    """--format sqlite copies a live SQLite file database consistently (same transfers)."""
    import os
    import sqlite3
    import subprocess
    import sys

    from ledger.tests.conftest import ROOT

    live, copy = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{live}"}

    def manage(*args):
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    manage("migrate", "-v", "0")
    manage(
        "shell",
        "-c",
        "from ledger.tests.factories import evening_e, make_club; evening_e(make_club())",
    )
    assert "backup written" in manage("backup", str(copy), "--format", "sqlite")
    query = "SELECT count(*), sum(points) FROM ledger_transfer"
    with sqlite3.connect(live) as a, sqlite3.connect(copy) as b:
        original, copied = a.execute(query).fetchone(), b.execute(query).fetchone()
    # Evening E: 6 funding transfers, then 10, 11 and 7 for its three hands.
    assert original[0] == 34
    assert copied == original


def test_a_backup_keeps_each_clubs_language_currency_time_zone_and_members_choice(tmp_path):
    """A club's language, currency and time zone and a member's own language (his Profile) are
    in the backup; a club of an older backup, without them, gets its game's on restore."""
    import json

    from django.contrib.auth import get_user_model

    from ledger.models import Club, Profile

    make_club(slug="lj", game="slovenian_tarok")
    own = make_club(slug="own", game="hungarian_tarokk")
    own.language, own.currency, own.time_zone = "en", "EUR", "Europe/Copenhagen"
    own.save()
    user = get_user_model().objects.create_user("reader", password="x-very-secret-9")
    Profile.objects.create(user=user, language="hu")
    dump = tmp_path / "backup.json"
    call_command("backup", str(dump))
    rows = json.loads(dump.read_text(encoding="utf-8"))
    for row in rows:
        if row["model"] == "ledger.club" and row["fields"]["game"] == "slovenian_tarok":
            # As a backup written before migration 0015 holds it.
            del row["fields"]["language"], row["fields"]["time_zone"]
            row["fields"]["currency"] = "DKK"
    dump.write_text(json.dumps(rows), encoding="utf-8")
    wipe()
    call_command("restore", str(dump))
    clubs = {c.slug: (c.language, c.currency, c.time_zone) for c in Club.objects.all()}
    assert clubs == {
        "lj": ("sl", "EUR", "Europe/Ljubljana"),
        "own": ("en", "EUR", "Europe/Copenhagen"),
    }
    assert Profile.objects.get(user__username="reader").language == "hu"


def test_restore_gives_the_planner_the_statistics_of_the_tables_it_filled(tmp_path):
    """Issue 31: restore runs ANALYZE after loading, so the first pages after it do not plan
    as for empty tables: SQLite's sqlite_stat1 has the transfers' rows, PostgreSQL's
    pg_class counts the transfers restored."""
    from django.db import connection

    from ledger.models import Transfer

    club = make_club()
    evening, table, _ = evening_e(club)
    random_table_hands(table, 6, seed=3)
    services.evening_close(evening=evening)
    dump = tmp_path / "backup.json"
    call_command("backup", str(dump))
    wipe()
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("ANALYZE")  # creates sqlite_stat1 if need be, then forget it all
            cursor.execute("DELETE FROM sqlite_stat1")
        else:
            cursor.execute("ANALYZE ledger_transfer")  # of the wiped table: no rows
    call_command("restore", str(dump))
    transfers = Transfer.objects.count()
    assert transfers > 0
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = 'ledger_transfer'")
            stats = [row[0] for row in cursor.fetchall()]
            assert stats and all(int(s.split()[0]) == transfers for s in stats)
        else:
            cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'ledger_transfer'")
            assert cursor.fetchone()[0] == transfers
