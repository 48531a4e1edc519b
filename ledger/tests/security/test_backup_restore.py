"""Issue 22.2: a backup is one snapshot, checked before it is written; restore answers every
hostile file with {"errors": ...} and exit 2, restoring nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading

import pytest
from django.core.management import call_command
from django.db import connection, connections

from ledger import services
from ledger.models import Club, Hand, Posting, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.tests.conftest import ROOT, load_example
from ledger.tests.factories import evening_e, make_club, new_member
from ledger.tests.helpers import restore_refused, wipe

HANDS = load_example("EVENING_E.evening.json")["hands"]


@pytest.fixture
def backup_rows(db, tmp_path):
    """A real backup of Evening E played and closed, as rows."""
    evening, _table, _hands = evening_e(make_club())
    services.evening_close(evening=evening)
    path = tmp_path / "good.json"
    call_command("backup", str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def first(rows, model):
    return next(r for r in rows if r["model"] == model)


def edited(rows, change):
    rows = json.loads(json.dumps(rows))
    change(rows)
    return rows


# Each: (name, the file's bytes made from a good backup's rows, what the refusal names)
HOSTILE = [
    ("not JSON", lambda rows: b"{not json", "not valid JSON"),
    ("empty file", lambda rows: b"", "not valid JSON"),
    ("bad bytes", lambda rows: b'[{"model": "\xff\xfe"}]', "not valid UTF-8"),
    ("lone surrogate", lambda rows: b'[{"model": "\\ud800"}]', "surrogate"),
    ("deep nesting", lambda rows: b"[" * 100_000 + b"]" * 100_000, "nests deeper"),
    (
        "huge number",
        lambda rows: b'[{"model": "ledger.club", "pk": 1' + b"0" * 5000 + b"}]",
        "more than 18 digits",
    ),
    ("NaN", lambda rows: b'[{"model": "ledger.club", "pk": NaN, "fields": {}}]', "not finite"),
    ("an object, not a list", lambda rows: b'{"model": "ledger.club"}', "JSON list of rows"),
    ("a row that is a string", lambda rows: b'["ledger.club"]', "exactly the keys"),
    (
        "a row with a key missing",
        lambda rows: b'[{"model": "ledger.club", "pk": 1}]',
        "exactly the keys",
    ),
    (
        "a model a backup does not hold",
        lambda rows: json.dumps(
            [*rows, {"model": "auth.permission", "pk": 1, "fields": {}}]
        ).encode(),
        "not a model a backup holds",
    ),
    (
        "sessions",
        lambda rows: json.dumps([{"model": "sessions.session", "pk": 1, "fields": {}}]).encode(),
        "not a model a backup holds",
    ),
    (
        "a derived row",
        lambda rows: json.dumps(
            [{"model": "ledger.accountbalance", "pk": 1, "fields": {}}]
        ).encode(),
        "not a model a backup holds",
    ),
    (
        "a pk that is text",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.club").update(pk="1; DROP TABLE"))
        ).encode(),
        "positive whole number",
    ),
    (
        "a negative pk",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.club").update(pk=-4))
        ).encode(),
        "positive whole number",
    ),
    (
        "a pk that is true",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.club").update(pk=True))
        ).encode(),
        "positive whole number",
    ),
    (
        "fields that are a list",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.club").update(fields=[]))
        ).encode(),
        "fields are a JSON object",
    ),
    (
        "an unknown field",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.club")["fields"].update(is_superuser=True))
        ).encode(),
        "has no field 'is_superuser'",
    ),
    (
        "a row twice",
        lambda rows: json.dumps([*rows, first(rows, "ledger.member")]).encode(),
        "in the file twice",
    ),
    (
        "a reference to a missing row",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.member")["fields"].update(club=99999))
        ).encode(),
        "cannot be loaded",
    ),
    (
        "text in a number column",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.transfer")["fields"].update(points="abc"))
        ).encode(),
        "cannot be loaded",
    ),
    (
        "an impossible date",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.evening")["fields"].update(date="2026-02-31"))
        ).encode(),
        "cannot be loaded",
    ),
    (
        "a null where none is allowed",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.hand")["fields"].update(number=None))
        ).encode(),
        "cannot be loaded",
    ),
    (
        "a negative transfer",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.transfer")["fields"].update(points=-5))
        ).encode(),
        "cannot be loaded",
    ),
    (
        "points past 64 bits",
        lambda rows: json.dumps(
            edited(rows, lambda r: first(r, "ledger.transfer")["fields"].update(points=10**18 * 9))
        ).encode(),
        "more than 18 digits",
    ),
    (
        "transfers without their posting",
        lambda rows: json.dumps([r for r in rows if r["model"] != "ledger.posting"]).encode(),
        "cannot be loaded",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("name,make,expected", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_restore_refuses_a_hostile_file(backup_rows, tmp_path, name, make, expected):
    path = tmp_path / "hostile.json"
    path.write_bytes(make(backup_rows))
    wipe()
    messages = restore_refused(path)
    assert any(expected in m for m in messages), messages
    assert not Club.objects.exists()
    assert not Transfer.objects.exists()


@pytest.mark.django_db
def test_restore_refuses_a_missing_file(tmp_path):
    assert any("cannot read" in m for m in restore_refused(tmp_path / "nowhere.json"))
    assert any("cannot read" in m for m in restore_refused(tmp_path))


@pytest.mark.django_db
def test_restore_refuses_a_file_over_the_limit(backup_rows, tmp_path, settings):
    settings.RESTORE_MAX_BYTES = 1000
    path = tmp_path / "big.json"
    path.write_text(json.dumps(backup_rows), encoding="utf-8")
    wipe()
    assert any("larger than 1000 bytes" in m for m in restore_refused(path))


@pytest.mark.django_db
def test_a_backup_checks_itself(tmp_path):
    """The written file holds every row of the snapshot, and names what it holds."""
    evening_e(make_club())
    out = tmp_path / "b.json"
    from io import StringIO

    text = StringIO()
    call_command("backup", str(out), stdout=text)
    assert "one snapshot, 1 tables, 3 hand postings; ledger OK" in text.getvalue()
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert sum(r["model"] == "ledger.hand" for r in rows) == Hand.objects.count()
    assert not list(tmp_path.glob(".*partial"))


def test_the_dump_check_names_a_dangling_reference(db, tmp_path):
    """What the probe's inconsistent backups held (transfers whose posting is missing) is
    what the self-check refuses."""
    from ledger.management.commands.backup import dump_problems, dumped_models

    evening_e(make_club())
    path = tmp_path / "b.json"
    call_command("backup", str(path))
    rows = json.loads(path.read_text(encoding="utf-8"))
    posting = first(rows, "ledger.posting")
    rows.remove(posting)
    path.write_text(json.dumps(rows), encoding="utf-8")
    problems = dump_problems(path, dumped_models())
    assert any("ledger.posting: " in p and "rows in the file" in p for p in problems)
    assert any(f"its posting is ledger.posting {posting['pk']}" in p for p in problems)


# --- one snapshot under concurrent saves -----------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_backup_while_tablets_save_is_one_snapshot_postgresql(tmp_path):
    """Backups taken while two tables save hands in a loop each restore and verify."""
    if connection.vendor != "postgresql":
        pytest.skip("the threads share PostgreSQL; SQLite's case runs in processes below")
    club = make_club()
    tables = [evening_e(club)[1]]
    other = services.evening_open(club=club, date=tables[0].evening.date.replace(day=6))

    extra = [new_member(club=club, name=n) for n in ("Dorte", "Erik", "Finn")]
    tables.append(services.table_open(evening=other, members=extra))
    stop = threading.Event()
    saved = [0]

    def save_hands(table, names):
        from ledger.tests.factories import random_table_hands

        seed = 0
        try:
            while not stop.is_set():
                seed += 1
                random_table_hands(table, 1, seed=seed)
                saved[0] += 1
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save_hands, args=(t, None)) for t in tables]
    for t in threads:
        t.start()
    paths = []
    try:
        for i in range(3):
            path = tmp_path / f"busy-{i}.json"
            call_command("backup", str(path), stdout=open(os.devnull, "w"))
            paths.append(path)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
    assert saved[0] > 0
    for path in paths:
        wipe()
        out = __import__("io").StringIO()
        call_command("restore", str(path), stdout=out)
        assert "ledger OK" in out.getvalue()
        assert verify_ledger().ok
        assert Transfer.objects.exclude(posting__in=Posting.objects.all()).count() == 0


@pytest.mark.slow
@pytest.mark.once  # SQLite files whatever the run's database: one run is enough
def test_a_backup_while_a_tablet_saves_is_one_snapshot_sqlite(tmp_path):
    """On a SQLite file with WAL: a process saves hands in a loop while another backs up; each
    backup restores into a fresh database and verifies."""
    live = tmp_path / "live.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{live}", "DJANGO_DEBUG": "1"}
    env.pop("TEST_DATABASE_NAME", None)

    def manage(*args, database=live, check=True):
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env={**env, "DATABASE_URL": f"sqlite:///{database}"},
            capture_output=True,
            text=True,
            timeout=600,
        )
        if check:
            assert done.returncode == 0, done.stdout + done.stderr
        return done

    empty = tmp_path / "empty.sqlite3"  # migrated once; each database below starts as a copy
    manage("migrate", "-v", "0", database=empty)
    shutil.copyfile(empty, live)
    manage(
        "shell",
        "-c",
        "from ledger.tests.factories import evening_e, make_club; evening_e(make_club())",
    )
    writer = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from ledger.models import Table\n"
            "from ledger.tests.factories import random_table_hands\n"
            "t = Table.objects.get()\n"
            "for i in range(400): random_table_hands(t, 1, seed=i)\n",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        backups = []
        for i in range(3):
            path = tmp_path / f"busy-{i}.json"
            done = manage("backup", str(path))
            assert "ledger OK" in done.stdout
            backups.append(path)
    finally:
        writer.kill()
        writer.wait()
    for i, path in enumerate(backups):
        fresh = tmp_path / f"fresh-{i}.sqlite3"
        shutil.copyfile(empty, fresh)
        done = manage("restore", str(path), database=fresh)
        assert "ledger OK" in done.stdout
